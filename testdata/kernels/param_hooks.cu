// Device functions' pointer parameters and the hooks on their accesses
// (privatize's TestParamHooks): a parameter that every call gives a
// shared array (or such a parameter) needs no global hook, only its trace
// wrapper; one that some call gives a global target, or that the
// function reassigns, keeps the hook.
__device__ float sum(const float *p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

__device__ float hop(const float *p, int n) { return sum(p + 1, n - 1); }

__device__ void put(float *p, int i, float v) { p[i] = v; }

__device__ float moved(const float *p, const float *g) {
  p = g;
  return p[0];
}

__global__ void shared_only(const float *in, float *out) {
  __shared__ float tile[2][64];
  int t = threadIdx.x;
  tile[t / 64][t % 64] = in[t];
  __syncthreads();
  out[t] = hop(tile[t / 64], 64) + moved(&tile[0][1], in);
}

__global__ void global_too(float *out) {
  __shared__ float s[128];
  put(s, threadIdx.x, 1.0f);
  __syncthreads();
  put(out, threadIdx.x, s[127 - threadIdx.x]);
}
