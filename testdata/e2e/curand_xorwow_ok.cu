// expect: none
// launch: --kernel k --grid 2 --block 64 --arg states=curandState[128]:zero --arg seed=1234 --arg bits=uint[1024]:zero --arg uni=float[512]:zero --arg nrm=float[512]:zero --arg dbl=double[256]:zero
// The cuRAND device API with XORWOW states (curandState), the usual way:
// each thread initialises its own state in a global array (subsequence =
// its index), copies it into a local, draws, and stores it back. Race-free.
// The kernel checks itself where the answer is known without a GPU:
// curand_init's offset skips that many draws, skipahead_sequence(1) is one
// subsequence further, curand_uniform is in (0, 1], log-normal values are
// cached apart from normal ones (as cuRAND does). The first values are
// what benchmarks/curand/compare.sh compares with real cuRAND on a GPU.
#include <curand_kernel.h>
#include <assert.h>

__global__ void k(curandState *states, unsigned long long seed, unsigned int *bits, float *uni, float *nrm, double *dbl) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
  curandState s = states[id];
  for (int i = 0; i < 4; i++) bits[8 * id + i] = curand(&s);
  for (int i = 0; i < 4; i++) uni[4 * id + i] = curand_uniform(&s);
  for (int i = 0; i < 3; i++) nrm[4 * id + i] = curand_normal(&s);
  float2 two = curand_normal2(&s);
  nrm[4 * id + 3] = two.x + two.y;
  dbl[2 * id] = curand_uniform_double(&s);
  dbl[2 * id + 1] = curand_normal_double(&s);
  states[id] = s;
  __syncthreads();
  // The state goes on where the last draw left it.
  for (int i = 4; i < 8; i++) bits[8 * id + i] = curand(&states[id]);

  // Self-checks.
  curandState a, b;
  curand_init(seed, id, 0, &a);
  curand_init(seed, id, 37, &b);
  for (int skip = 0; skip < 37; skip++) curand(&a);
  unsigned int skipped = curand(&a), offset = curand(&b);
  assert(skipped == offset);
  curand_init(seed, id + 1, 0, &a);
  curand_init(seed, id, 0, &b);
  skipahead_sequence(1ull, &b);
  unsigned int next = curand(&a), jumped = curand(&b);
  assert(next == jumped);
  for (int c = 0; c < 4; c++) {
    float v = uni[4 * id + c];
    assert(v > 0.0f && v <= 1.0f);
  }
  double d = dbl[2 * id];
  assert(d > 0.0 && d <= 1.0);

  // Log-normal values have their own cache: a curand_log_normal after a
  // curand_normal draws two values afresh (the cached normal is dropped),
  // and the next one returns the pair's second value.
  curand_init(seed, id, 0, &a);
  curand_init(seed, id, 0, &b);
  (void)curand_normal(&a);
  float ln = curand_log_normal(&a, 0.0f, 1.0f), ln2 = curand_log_normal(&a, 0.0f, 1.0f);
  curand(&b), curand(&b);
  float2 nb = curand_normal2(&b);
  assert(ln == expf(nb.x) && ln2 == expf(nb.y));
  (void)curand_normal_double(&a);
  double lnd = curand_log_normal_double(&a, 0.0, 1.0);
  for (int i = 0; i < 4; i++) curand(&b);
  double2 nd = curand_normal2_double(&b);
  assert(lnd == exp(nd.x));
  assert(curand(&a) == curand(&b));
}
