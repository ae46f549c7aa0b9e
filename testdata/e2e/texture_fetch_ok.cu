// expect: none
// launch: --kernel k --grid 4 --block 64 --arg tex=float[256]:iota --arg out=float[256]:zero --arg n=256
// A texture object over a linear buffer (cudaTextureObject_t, tex1Dfetch and
// tex1D), the way --arg gives one: each thread reads its own element and
// its neighbours through the texture (reads of a read-only buffer: no race)
// and writes its own element of out. Fetches past either end read 0, and
// tex1D clamps its coordinate to the edge.
__global__ void k(cudaTextureObject_t tex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float left = tex1Dfetch<float>(tex, i - 1);   // 0 for i == 0
  float self = tex1Dfetch<float>(tex, i);
  float right = tex1Dfetch<float>(tex, i + 1);  // 0 for i == n - 1
  float clamped = tex1D<float>(tex, (float)(i + n));  // the last element
  out[i] = left + 2.0f * self + right + clamped;
}
