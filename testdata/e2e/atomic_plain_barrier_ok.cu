// expect: none
// launch: --kernel k --grid 2 --block 128 --arg out=int[256]:zero
// atomic_plain_read_racy.cu with the plain read of the counter after a
// barrier: warp 0 reads it once every atomicAdd is done, so nothing races.
// Thread 0 alone then reads the counter and bumps it in one region (a
// unit's own plain read and atomic are no race; the other lanes of warp 0
// do not read it there: they would race with lane 0's atomic, lanes of a
// warp running in no fixed order).
__global__ void k(int *out) {
  __shared__ int counter[1];
  int t = threadIdx.x, seen = 0;
  if (t == 0) counter[0] = 0;
  __syncthreads();
  if (t >= 32) atomicAdd(&counter[0], 1);
  __syncthreads();
  if (t == 0) {
    seen = counter[0];
    atomicAdd(&counter[0], 1);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = seen + counter[0];
}
