// expect: error (exit 2, "ldcheck needs the body of lookup", naming the call at line 8)
// A device function declared but defined nowhere ldcheck can see (it would
// come from another file linked with -rdc): a user error, not ldcheck's.
__device__ float lookup(const float *table, int i);
__device__ float twice(float x) { return 2.0f * x; }
__global__ void k(const float *table, float *out) {
  int t = threadIdx.x;
  out[t] = twice(lookup(table, t));
}
