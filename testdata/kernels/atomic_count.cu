// Atomics must take effect once per checked run, even when the region that
// holds them is replayed; the value an atomic returned is used afterwards.
__global__ void count(int *counter, int *slots, int *out) {
  __shared__ int seen[64];
  int t = threadIdx.x;
  seen[t] = t;
  __syncthreads();
  int ticket = atomicAdd(&counter[0], 1);
  slots[blockIdx.x * blockDim.x + t] = ticket;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = seen[(t + 1) % 64] + 1;
}
