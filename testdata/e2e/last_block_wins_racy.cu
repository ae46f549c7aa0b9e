// expect: race write-write global inter-block
// launch: --kernel last --grid 2048 --block 64 --arg out=int[64]:zero
// explain: 14 14
// Every block writes its index + 1 to all of out[0..63], after a loop whose
// length varies from block to block: which block writes last is up to the
// scheduler, so on a GPU the outputs of --unchecked runs differ from run to
// run. --deterministic keeps the highest block's, 2048, every time (the
// GPU proof of issue 11: benchmarks/profile/det.sh).
__global__ void last(int *out) {
  unsigned h = (blockIdx.x + 1) * 2654435761u;
  int spin = (h >> 22) * 4;
  float acc = 0.0f;
  for (int i = 0; i < spin; i++) acc = acc * 0.5f + 1.0f;
  out[threadIdx.x] = blockIdx.x + 1 + (acc > 4.0f);
}
