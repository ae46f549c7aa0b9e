// expect: none
// launch: --kernel shift --grid 2 --block 64 --arg a=int[129]:iota
// warp_global_shift_racy.cu with __syncwarp() between every lane's read
// and the stores: each lane has read its element before any lane of its
// warp stores into it.
__global__ void shift(int *a) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = a[i];
  __syncwarp();
  if (t % 32 != 31) a[i + 1] = v + 1;
}
