// expect: none
// launch: --kernel claim --grid 64 --block 64 --arg owner=int[4096]:zero --arg val=int[4096]:zero
// Four threads of four blocks try to claim each element (atomicCAS from
// 0), and the one that wins alone stores val[e]: race-free, as in a level
// of a breadth-first search (what it stores does not depend on which
// thread won, so the outputs are those of any run). Every block stores to
// nearly every page of val, so the 64 blocks ask level 1 for more page
// copies than its first allotment: pass 1 is void and runs again, its
// atomics replayed from the void pass's log. (On a GPU, blocks that start
// once a pass is void stop at once, and the next pass runs and logs the
// atomics again: replayed from a log that lacked the stopped blocks'
// results, ld_bfs reported a race that is not there. At this size the 64
// blocks all run at once on a GPU and none stops; ld_bfs at its real size
// is the launch that takes that path.)
__global__ void claim(int *owner, int *val) {
  int n = gridDim.x * blockDim.x;
  int i = threadIdx.x * gridDim.x + blockIdx.x; // (interleaved: every block everywhere)
  for (int k = 0; k < 4; ++k) {
    int e = (i + k * 37) % n;
    if (atomicCAS(&owner[e], 0, 1) == 0)
      val[e] = 3 * e + 1;
  }
}
