// Kernels whose threads end every region at one place (all at one barrier,
// or all at the exit), and kernels whose threads may not: the runtime's
// region ends use the hardware's barrier reduction only for the first
// (passes.Kernel.UniformEnds).

// walk: barriers in loops bounded by parameters and the block's index, a
// break every thread of the block takes together, a store under a
// thread's own test (no barrier in it).
__global__ void walk(const int *keys, int *cur, int height, int nq) {
  int s = threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    int q = blockIdx.x * 8 + i;
    if (q >= nq)
      break;
    for (int level = 0; level < height; ++level) {
      int node = cur[q];
      __syncthreads();
      if (keys[node * 32 + s] == q)
        cur[q] = node + 1;
      __syncthreads();
    }
  }
}

// uniform_return: a return the whole block takes together.
__global__ void uniform_return(int *out, int n) {
  __shared__ int tile[64];
  if (blockIdx.x * 64 >= n)
    return;
  tile[threadIdx.x] = out[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}

// bounds_return: the usual bounds test; a tail block's threads past n leave
// while the rest go on to the barrier.
__global__ void bounds_return(int *out, int n) {
  __shared__ int tile[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = out[i];
  __syncthreads();
  out[i] = tile[threadIdx.x ^ 1];
}

// lane_return: one thread stores and leaves.
__global__ void lane_return(int *out) {
  if (threadIdx.x == 0) {
    out[0] = 1;
    return;
  }
  __syncthreads();
  out[threadIdx.x] = 2;
}

// data_loop: a barrier in a loop whose bound each thread reads from memory.
__global__ void data_loop(const int *counts, int *out) {
  int n = counts[threadIdx.x];
  for (int r = 0; r < n; ++r) {
    out[threadIdx.x] += r;
    __syncthreads();
  }
}

// thread_break: a barrier in a loop some threads leave early.
__global__ void thread_break(int *out, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (out[threadIdx.x] > r)
      break;
    __syncthreads();
    out[threadIdx.x] += 1;
  }
}

// jumps: a goto: control the pass does not follow.
__global__ void jumps(int *out, int n) {
  int i = blockIdx.x;
again:
  out[i] += 1;
  __syncthreads();
  if (++i < n)
    goto again;
}

// no_barrier: a bounds return and no barrier: one region, ended at the exit.
__global__ void no_barrier(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = i;
}
