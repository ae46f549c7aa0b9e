// expect: none
// launch: --kernel k --grid 2 --block 64 --arg counter=int[1]:zero --arg out=int[128]:zero
// Every thread takes 3000 tickets from one counter and counts how often
// a ticket was larger than its previous one (always, whatever the
// schedule, so the output is deterministic): the replay must give each
// atomic its own logged result, however many a thread runs (a log with
// room for 16 gave the 17th 0, and out[] changed between the passes).
__global__ void k(int *counter, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int prev = -1, rising = 0;
  for (int i = 0; i < 3000; i++) {
    int v = atomicAdd(&counter[0], 1);
    rising += v > prev;
    prev = v;
  }
  __syncthreads();
  out[t] = rising;
}
