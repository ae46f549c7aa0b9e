// LDetector's "bfs" (Rodinia bfs), our own implementation, race-free: one
// level of a level-synchronous breadth-first search over a graph in CSR
// form (row[v] .. row[v+1]-1 index v's neighbours in col), one kernel launch
// per level. frontier lists the vertices of the current level, one thread
// per vertex (the grid covers it exactly); cost[v] is v's level, -1 while v
// is unvisited. A thread relaxes its vertex's neighbours: the one thread
// whose atomicCAS moves a neighbour's cost from -1 to the next level owns
// it and records its parent and its place in the next frontier (next[n] = 1;
// a compaction of next would make the next launch's frontier list). Several
// frontier vertices share neighbours, but only the owner writes them: the
// plain stores never meet (cost itself is updated by atomics only).
__global__ void bfs(const int *row, const int *col, const int *frontier, int *cost,
                    int *parent, unsigned char *next) {
  int v = frontier[blockIdx.x * blockDim.x + threadIdx.x];
  int level = cost[v] + 1;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int n = col[e];
    if (atomicCAS(&cost[n], -1, level) == -1) {
      parent[n] = v;
      next[n] = 1;
    }
  }
}
