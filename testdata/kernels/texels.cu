// Texture object parameters and the texels their fetches return: the CUDA
// backend makes a texture of that many channels. v is read as float4,
// s as float, m both ways (no single texel: one channel).
__global__ void texels(cudaTextureObject_t v, cudaTextureObject_t s, cudaTextureObject_t m, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = tex1Dfetch<float4>(v, i);
  float b = tex1Dfetch<float>(s, i);
  float c = tex1Dfetch<float>(m, i) + tex1Dfetch<float2>(m, i).y;
  out[i] = a.x + a.w + b + c;
}
