// Predicate barriers (__syncthreads_and/or/count) in every place a statement
// can hold them: region replay moves each to a statement of its own.
__global__ void forms(const int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g], acc = 0;
  s[t] = v;
  __syncthreads_or(v);
  int c = __syncthreads_count(s[(t + 32) % 128] > 0);
  s[t] = __syncthreads_count(s[t] > 0) + c;
  for (int i = 0; __syncthreads_or(i < (v & 7)); ++i) {
    if (i & 1) continue;
    acc += i;
  }
  do {
    v >>= 1;
    if (v & 1) continue;
    acc++;
  } while (__syncthreads_count(v != 0) > 2);
  if (n > 1000) acc = 0;
  else if (__syncthreads_and(acc >= 0)) acc += 2;
  switch (__syncthreads_count(acc & 1)) {
  case 0: acc++; break;
  default: break;
  }
  while (__syncthreads_or(
             v > 0 &&
             acc < 100))
    acc += v--;
  out[g] = acc + s[t];
}

// Where the barrier would not run every time its statement does, the kernel
// is not instrumented, and the reason names the line.
__global__ void guarded(const int *in, int *out) {
  int t = threadIdx.x;
  if (t < 4 && __syncthreads_or(in[t])) out[t] = 1;
}

__global__ void in_increment(const int *in, int *out) {
  int t = threadIdx.x, k = 0;
  for (int i = 0; i < 4; i += __syncthreads_count(in[t] > i)) k++;
  out[t] = k;
}
