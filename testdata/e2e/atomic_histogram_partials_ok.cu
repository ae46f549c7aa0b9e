// expect: none
// launch: --kernel hist --grid 4 --block 128 --arg data=int[2048]:rand --arg partial=int[64]:zero
// Two-phase histogram: shared bins built with atomicAdd, then each block stores its own
// 16 bins to partial[16*b..] with plain stores after a barrier (no race anywhere).
__global__ void hist(const int *data, int *partial) {
  __shared__ int bins[16];
  int t = threadIdx.x;
  if (t < 16) bins[t] = 0;
  __syncthreads();
  for (int i = 0; i < 4; ++i)
    atomicAdd(&bins[data[blockIdx.x * 512 + i * 128 + t] & 15], 1);
  __syncthreads();
  if (t < 16) partial[blockIdx.x * 16 + t] = bins[t];
}
