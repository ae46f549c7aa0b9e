// expect: race write-write global inter-warp
// launch: --kernel k --grid 2 --block 128 --arg states=curandState[4]:zero --arg seed=99 --arg out=float[256]:zero
// explain: none (the stores of a curand call are not traced)
// Two warps draw from one cuRAND state: threads 0-63 of a block share
// states[2 * block], threads 64-127 states[2 * block + 1]. Each draw is a
// read-modify-write of the state, so warps 0 and 1 race on it (the lanes
// of one warp race too, which ldcheck does not see: intra-warp).
#include <curand_kernel.h>

__global__ void k(curandState *states, unsigned long long seed, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 64 == 0) curand_init(seed, id / 64, 0, &states[id / 64]);
  __syncthreads();
  out[id] = curand_uniform(&states[id / 64]);
}
