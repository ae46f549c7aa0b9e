// expect: none
// launch: --kernel k --grid 2 --block 128 --arg out=int[256]:zero
// atomic_plain_read_racy.cu with a volatile counter: a volatile load is a
// relaxed load at system scope in the CUDA memory model, so warp 0's read
// does not race with the other warps' atomics (what it reads still depends
// on timing; the output only says it is valid).
__global__ void k(int *out) {
  __shared__ volatile int counter[1];
  int t = threadIdx.x, seen = 0;
  if (t == 0) counter[0] = 0;
  __syncthreads();
  if (t < 32) seen = counter[0];
  else
    atomicAdd((int *)&counter[0], 1);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = (seen >= 0 && seen <= 96) + counter[0];
}
