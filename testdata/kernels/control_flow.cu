// Barriers in while and do loops, in a uniform if, with break, continue and
// an early return.
__global__ void flow(int *data, int rounds) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (blockIdx.x >= 4) return;
  s[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  int r = 0;
  while (r < rounds) {
    int v = s[(t + 1) % 128];
    __syncthreads();
    if (v < 0) { ++r; continue; }
    s[t] = v + 1;
    __syncthreads();
    if (r > 100) break;
    ++r;
  }
  do {
    s[t] -= 1;
    __syncthreads();
  } while (s[0] > 1000);
  if (rounds > 3) {
    __syncthreads();
  }
  data[blockIdx.x * blockDim.x + t] = s[t];
}
