// expect: none
// launch: --kernel k --grid 4 --block 64 --arg tex=float[256]:iota --arg itex=int[256]:iota --arg vtex=float[1024]:iota --arg out=float[256]:zero --arg n=256
// Texture objects over linear buffers (cudaTextureObject_t and
// tex1Dfetch), the way --arg gives them: a float texture and an int one
// (read as integers, not normalised), and a float texture fetched as
// float4 (the build records the texel; on the GPU the texture gets four
// channels). Each thread reads its own element
// and its neighbours through the textures (reads of read-only buffers: no
// race) and writes its own element of out. A fetch past either end of a
// linear texture reads 0, on the GPU as on the CPU backend. The kernel
// checks the values it knows (iota: element i holds i).
#include <assert.h>

__global__ void k(cudaTextureObject_t tex, cudaTextureObject_t itex, cudaTextureObject_t vtex, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float left = tex1Dfetch<float>(tex, i - 1);   // 0 for i == 0
  float self = tex1Dfetch<float>(tex, i);
  float right = tex1Dfetch<float>(tex, i + 1);  // 0 for i == n - 1
  int iself = tex1Dfetch<int>(itex, i);
  float4 v = tex1Dfetch<float4>(vtex, i);
  out[i] = left + 2.0f * self + right + (float)iself + v.w;
  assert(v.x == (float)(4 * i) && v.y == (float)(4 * i + 1) && v.z == (float)(4 * i + 2) && v.w == (float)(4 * i + 3));
  assert(self == (float)i && iself == i);
  assert(left == (i == 0 ? 0.0f : (float)(i - 1)));
  assert(right == (i == n - 1 ? 0.0f : (float)(i + 1)));
}
