// expect: race write-write global inter-block
// launch: --kernel k --grid 2,2 --block 16,16 --arg out=int[1024]:zero --arg w=32
// explain: 9 9
// 2-D grid of 16x16 tiles on a 32-wide image, but tile rows advance by 15: the last row of
// block (x,0) and the first row of block (x,1) are the same image row, written with different values.
__global__ void k(int *out, int w) {
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 15 + threadIdx.y;
  out[row * w + col] = (blockIdx.y + 1) * 1000 + threadIdx.y * 16 + threadIdx.x;
}
