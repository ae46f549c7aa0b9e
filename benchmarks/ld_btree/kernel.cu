// Batched key search in a B+ tree stored as arrays (after the b+tree program
// of Rodinia that LDetector checked; our own code). A node is ORDER slots:
// keys[node * ORDER + s] and ptrs[node * ORDER + s]. In an inner node, slot s
// holds the smallest key under child ptrs[s], so a key k belongs to the
// child of the slot s with keys[s] <= k < keys[s + 1]; unused slots hold key
// 2^31-1. In a leaf, slot s holds a key and its record. The root is node
// root, with height inner levels down to the leaves.
//
// A block of ORDER threads answers a batch of QPB queries, one after the
// other: thread s looks at slot s of the current node, so the block scans a
// node in one step. The walk's state is in global memory, per query: cur[q]
// (the current node) and ans[q] (the record found, or -1), as in Rodinia,
// where the walk keeps its current node and offset in global arrays. At every
// inner level all threads read cur[q], wait (barrier), the one thread whose
// slot holds the key's range stores the child into cur[q], and all wait
// again. At the leaf, the thread whose slot holds the key stores its record
// into ans[q]. Race-free: one writer per level, and barriers between the
// reads of cur[q] and its update.
#define ORDER 128
#define QPB 32
#define NO_KEY 0x7fffffff

__global__ void bt_search(const int *keys, const int *ptrs, const int *queries,
                          int *cur, int *ans, int root, int height, int nq) {
  int s = threadIdx.x;
  for (int i = 0; i < QPB; ++i) {
    int q = blockIdx.x * QPB + i;
    if (q >= nq)
      break; // the same for every thread of the block
    int key = queries[q];
    if (s == 0) {
      cur[q] = root;
      ans[q] = -1;
    }
    __syncthreads();
    for (int level = 0; level < height; ++level) {
      int node = cur[q];
      __syncthreads(); // everyone has read cur[q] before it changes
      int lo = keys[node * ORDER + s];
      int hi = s + 1 < ORDER ? keys[node * ORDER + s + 1] : NO_KEY;
      if (lo <= key && key < hi)
        cur[q] = ptrs[node * ORDER + s];
      __syncthreads();
    }
    int leaf = cur[q];
    if (keys[leaf * ORDER + s] == key)
      ans[q] = ptrs[leaf * ORDER + s];
  }
}
