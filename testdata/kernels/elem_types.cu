// Pointer parameters whose element types are typedefs, aliases and structs:
// the analysis gives each its size (elem_size), so that ldcheck run can
// check --arg buffers against it instead of warning "size unknown".
typedef int data_t;
using real = float;
struct Node { int key; Node *next; };
typedef struct { int a, b, c; } record;
typedef float *fptr;
__global__ void elems(data_t *d, const real *r, Node *n, record *rec, fptr f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  d[t] = t;
  n[t].key = (int)r[t];
  rec[t].b = t;
  f[t] = r[t];
}
