// The batched B+ tree search of ld_btree with the upper bound of the slot
// test left out (the bug): at an inner level, every thread whose slot key is
// at most the query key stores its child into cur[q], not only the one whose
// slot holds the key's range. Slots of a node are scanned by the 4 warps of
// the block, so threads of several warps store different children into the
// same cur[q] in the same region: a write-write race on global memory
// between warps (on a GPU, whichever store lands last decides the path).
#define ORDER 128
#define QPB 32
#define NO_KEY 0x7fffffff

__global__ void bt_search(const int *keys, const int *ptrs, const int *queries,
                          int *cur, int *ans, int root, int height, int nq) {
  int s = threadIdx.x;
  for (int i = 0; i < QPB; ++i) {
    int q = blockIdx.x * QPB + i;
    if (q >= nq)
      break;
    int key = queries[q];
    if (s == 0) {
      cur[q] = root;
      ans[q] = -1;
    }
    __syncthreads();
    for (int level = 0; level < height; ++level) {
      int node = cur[q];
      __syncthreads();
      int lo = keys[node * ORDER + s];
      if (lo <= key) // bug: should be lo <= key && key < keys[node * ORDER + s + 1]
        cur[q] = ptrs[node * ORDER + s];
      __syncthreads();
    }
    int leaf = cur[q];
    if (keys[leaf * ORDER + s] == key)
      ans[q] = ptrs[leaf * ORDER + s];
  }
}
