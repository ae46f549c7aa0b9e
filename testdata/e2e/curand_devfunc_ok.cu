// expect: none
// launch: --kernel k --grid 2 --block 128 --arg states=curandStatePhilox4_32_10_t[256]:zero --arg out=float[256]:zero --arg seed=5
// cuRAND states behind a device function and in shared memory: each thread
// draws through a helper that takes its state's address (a target, since
// the pointer escapes into the helper; race-free: each thread its own
// state), and warps exchange draws through a shared array of states, each
// read and advanced by one thread only after a barrier.
#include <curand_kernel.h>

__device__ float draw(curandStatePhilox4_32_10_t *s, float scale) {
  return scale * curand_uniform(s);
}

__global__ void k(curandStatePhilox4_32_10_t *states, float *out, unsigned long long seed) {
  __shared__ curandStatePhilox4_32_10_t mine[128];
  int t = threadIdx.x, id = blockIdx.x * blockDim.x + t;
  curand_init(seed, id, 0, &states[id]);
  float a = draw(&states[id], 2.0f);
  curand_init(seed + 1, id, 0, &mine[t]);
  __syncthreads();
  int other = (t + 32) % blockDim.x;  // a thread of another warp
  float b = draw(&mine[other], 1.0f);
  out[id] = a + b;
}
