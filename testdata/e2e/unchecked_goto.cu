// expect: unchecked
// launch: --grid 2 --block 64 --arg out=int[128]:zero
// A kernel ldcheck cannot instrument (goto) still runs, but it is not a
// verdict: exit 4, "ran, not checked", not a silent 0.
__global__ void k(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 3 == 0) goto skip;
  out[i] = i;
skip:
  out[(i + 1) % 128] += 1;
}
