// ld_bfs with the classic unsynchronised relaxation (Rodinia bfs's race,
// LDetector Table VI: rw and ww, global): a thread tests visited[n] and, if
// n looks unvisited, writes n's cost, parent, visited flag and next-frontier
// flag with plain stores. Two frontier vertices with a common unvisited
// neighbour, handled by threads of different blocks, both pass the test and
// both write n: the same cost and flags, but each its own vertex as n's
// parent, so the bytes of parent[n] get different values from two blocks
// (write-write race on global memory between blocks); and a thread that
// runs after another block set visited[n] skips n (read-write race).
__global__ void bfs(const int *row, const int *col, const int *frontier, int *cost,
                    int *parent, unsigned char *visited, unsigned char *next) {
  int v = frontier[blockIdx.x * blockDim.x + threadIdx.x];
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int n = col[e];
    if (!visited[n]) {
      cost[n] = cost[v] + 1;
      parent[n] = v;
      visited[n] = 1;
      next[n] = 1;
    }
  }
}
