// vadd: the kernel cudasmoke runs. Build its PTX with
//   nvcc -ptx -arch=sm_80 -o vadd.ptx vadd.cu
// or, without CUDA headers,
//   clang-15 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -O2 -S -o vadd.ptx vadd.cu
// (PTX for sm_80 is JIT-compiled by the driver for newer GPUs, an H100 too).

#if defined(__clang__) && !defined(__global__)
// clang with -nocudainc: no CUDA headers, so the little this kernel needs.
#define __global__ __attribute__((global))
#define IDX (__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x())
#else
#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
#endif

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = IDX;
    if (i < n) c[i] = a[i] + b[i];
}
