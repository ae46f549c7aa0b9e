/* ldcheck CPU backend: <curand.h>, the host API's types only (host code is
 * left out of every ldcheck build; kernels need <curand_kernel.h>). */
#pragma once
typedef enum curandStatus { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;
typedef enum curandRngType {
  CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101, CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141, CURAND_RNG_PSEUDO_MT19937 = 142, CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161
} curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;
