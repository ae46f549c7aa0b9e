// expect: none
// launch: --kernel scale --grid 2 --block 128 --arg a=int[256]:rand --arg f=3
// Two kernels in one file: shift (racy: reads its right neighbour in place) and scale,
// selected with --kernel, which is race-free.
__global__ void shift(int *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  a[g] = a[(g + 1) % (gridDim.x * blockDim.x)];
}
__global__ void scale(int *a, int f) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  a[g] = a[g] * f + 1;
}
