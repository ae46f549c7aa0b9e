// Structs passed by value, and pointers to structs: the front end lays
// each out (offsets, sizes and types of the fields, nested structs with
// dots, small arrays of structs element by element, the fields of
// anonymous unions as the struct's own), so that ldcheck run
// can take them field by field (--arg 'p={n=5,inner={scale=1.5}}').
typedef struct {
  float scale;
  short bias;
} inner_t;
struct Pair { int a; float b; };
typedef struct Params {
  const float *data;
  int n;
  inner_t inner;
  int v[3];
  Pair pairs[2];
  void (*cb)(int);
  union { int tag; float weight; };
} params_t;
using cell = struct Cell { float mass; Cell *next; };
__global__ void fields(params_t p, cell *cells, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) out[i] = p.data[i] * p.inner.scale + p.v[i % 3] + p.pairs[1].b + cells[i].mass;
}
