// expect: race write-write global inter-warp
// launch: --kernel k --grid 4 --block 128 --arg mutex=int[1]:zero --arg total=int[1]:zero --arg hits=int[4]:zero --arg in=int[512]:iota --arg out=int[512]:zero
// explain: 34 34
// atomic_devfunc_ok.cu with a true race: after the barrier every thread of
// a block writes its own value to the block's one element of out.
__device__ int atomicRead(int *p) { return atomicAdd(p, 0); }
__device__ void atomicWrite(int *p, int v) { atomicExch(p, v); }
__device__ int casAdd(int *a, int v) {
  int old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, assumed + v);
  } while (assumed != old);
  return old;
}
__device__ void lock(int *m) {
  while (atomicCAS(m, 0, 1) != 0) {
  }
}
__device__ void unlock(int *m) {
  __threadfence();
  atomicExch(m, 0);
}
__global__ void k(int *mutex, int *total, int *hits, const int *in, int *out) {
  int t = threadIdx.x, b = blockIdx.x;
  int old = casAdd(total, in[b * blockDim.x + t]);
  if (t == 0) {
    lock(mutex);
    int h = atomicRead(&hits[b]);
    atomicWrite(&hits[b], h + 1);
    unlock(mutex);
  }
  __syncthreads();
  out[b] = (old >= 0) + atomicRead(&hits[b]) + t;
}
