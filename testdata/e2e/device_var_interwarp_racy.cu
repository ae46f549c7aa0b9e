// expect: race read-write global inter-warp
// launch: --kernel k --grid 1 --block 128 --arg in=float[128]:rand --arg out=float[128]:zero
// explain: 9 10
// A __device__ array used by one block only, but warp w reads the element warp w+1 writes
// with no barrier in between.
__device__ float stage[128];
__global__ void k(const float *in, float *out) {
  int t = threadIdx.x;
  stage[t] = in[t] + 1.0f;
  out[t] = stage[(t + 32) % 128];
}
