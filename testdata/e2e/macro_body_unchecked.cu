// expect: unchecked
// launch: --kernel k --grid 1 --block 64 --arg out=int[64]:zero
// A store to checked memory written inside a macro's body (CLEAR) has no
// text of its own at the macro's use, so ldcheck cannot redirect it: the
// kernel runs unchecked, exit 4, naming the line and the macro. Before, the
// build ended in "internal error ... does not compile".
#define CLEAR(i) do { out[i] = 0; } while (0)

__global__ void k(int *out) {
  int i = threadIdx.x;
  out[i] = i;
  __syncthreads();
  CLEAR((i + 1) % 64);
}
