// expect: race read-write global inter-block
// launch: --kernel k --grid 4 --block 64 --arg data=int[320]:rand --arg out=int[256]:zero
// explain: 8 9
// Inter-block read-write race in global memory: block b reads data[g + 64], the elements
// that block b+1 overwrites in the same launch.
__global__ void k(int *data, int *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = data[g + blockDim.x];
  data[g] = g * 3 + 1;
}
