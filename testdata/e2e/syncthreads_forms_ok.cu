// expect: none
// launch: --kernel k --grid 2 --block 128 --arg in=int[256]:rand --arg out=int[256]:zero --arg n=5
// Predicate barriers in every statement position: a statement of their own, an
// initializer, an assignment to shared memory, a for condition (with continue), a
// do-while condition (with continue), an else-if, a switch and a multi-line while
// condition whose body lets some threads return: those take no part in the later
// reductions, as on the hardware. Race-free; outputs must equal an unchecked run.
__global__ void k(const int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = in[g] & 0xffff, acc = 0;
  s[t] = v;
  __syncthreads_or(v);
  int c = __syncthreads_count(s[(t + 32) % 128] > 100);
  s[t] = __syncthreads_count(s[t] & 4) + c;
  for (int i = 0; __syncthreads_or(i < (v & 7)); ++i) {
    if (i & 1) continue;
    acc += i;
  }
  do {
    v >>= 1;
    if (v & 1) continue;
    acc++;
  } while (__syncthreads_count(v != 0) > 2);
  if (n > 1000) acc = 0; // block-uniform: every thread reaches the else-if barrier
  else if (__syncthreads_and(acc >= 3)) acc += 2;
  switch (__syncthreads_count(acc & 1)) {
  case 0: acc++; break;
  default: acc += 7; break;
  }
  out[g] = acc + s[t];
  while (__syncthreads_or(
             v > 0 &&
             acc < 100)) {
    acc += v--;
    out[g] = acc;
    if (t % 3 == 1 && acc > 30) return;
  }
  out[g] += __syncthreads_count(1) + __syncthreads_and(acc > 10);
}
