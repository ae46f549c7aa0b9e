// ldcheck prelude: the cuRAND device API (XORWOW and Philox4x32-10 states),
// declared for the front end and for clang's PTX. The CPU backend defines
// these functions (gpuruntime/cpu/include/curand_kernel.h); on a GPU, nvcc
// compiles against the toolkit's own <curand_kernel.h>. PTX that clang makes
// from this header calls them without defining them, so a kernel that uses
// cuRAND needs nvcc to run on the GPU (as the precise libm functions do).
//
// A curand call reads and writes the one state its pointer names: ldcheck
// counts `curand_uniform(&states[i])` as a read and a write of states[i]
// (not as a pointer that escapes), and redirects it to the unit's copy.
#pragma once
#include "curand.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)

#define LDC_CURAND_API(S)                                                                     \
  __device__ void curand_init(unsigned long long seed, unsigned long long subsequence,      \
                              unsigned long long offset, S *state);                          \
  __device__ void skipahead(unsigned long long n, S *state);                                 \
  __device__ void skipahead_sequence(unsigned long long n, S *state);                        \
  __device__ unsigned int curand(S *state);                                                  \
  __device__ float curand_uniform(S *state);                                                 \
  __device__ double curand_uniform_double(S *state);                                         \
  __device__ float curand_normal(S *state);                                                  \
  __device__ double curand_normal_double(S *state);                                          \
  __device__ float2 curand_normal2(S *state);                                                \
  __device__ double2 curand_normal2_double(S *state);                                        \
  __device__ float curand_log_normal(S *state, float mean, float stddev);                    \
  __device__ double curand_log_normal_double(S *state, double mean, double stddev);          \
  __device__ float2 curand_log_normal2(S *state, float mean, float stddev);                  \
  __device__ double2 curand_log_normal2_double(S *state, double mean, double stddev);        \
  __device__ unsigned int curand_poisson(S *state, double lambda);
LDC_CURAND_API(curandStateXORWOW_t)
LDC_CURAND_API(curandStatePhilox4_32_10_t)
#undef LDC_CURAND_API
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda);
