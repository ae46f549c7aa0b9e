// expect: none
// launch: --kernel k --grid 2 --block 64 --arg seed=7 --arg bits=uint[1024]:zero --arg uni=float[512]:zero --arg nrm=float[512]:zero --arg pois=uint[256]:zero
// The cuRAND device API with Philox4x32-10 states: a local state per
// thread (subsequence = thread index, offset 3), curand4, curand_uniform4,
// curand_normal4, curand_log_normal, curand_poisson. Race-free. Checks
// itself against the published known answer of Philox4x32-10 (Salmon et
// al., SC11; Random123's test vectors: counter 0, key 0 gives 6627e8d5
// e169c58d bc57ac4c 9b00dbd8), which is curand_init(0, 0, 0) on cuRAND.
#include <curand_kernel.h>
#include <assert.h>

__global__ void k(unsigned long long seed, unsigned int *bits, float *uni, float *nrm, unsigned int *pois) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(seed, id, 3, &s);
  uint4 r = curand4(&s);
  bits[8 * id] = r.x, bits[8 * id + 1] = r.y, bits[8 * id + 2] = r.z, bits[8 * id + 3] = r.w;
  for (int i = 4; i < 8; i++) bits[8 * id + i] = curand(&s);
  float4 u = curand_uniform4(&s);
  uni[4 * id] = u.x, uni[4 * id + 1] = u.y, uni[4 * id + 2] = u.z, uni[4 * id + 3] = u.w;
  float4 n = curand_normal4(&s);
  nrm[4 * id] = n.x + n.y + n.z + n.w;
  nrm[4 * id + 1] = curand_normal(&s);
  nrm[4 * id + 2] = curand_log_normal(&s, 0.0f, 0.5f);
  nrm[4 * id + 3] = (float)curand_normal_double(&s);
  __syncthreads();
  pois[2 * id] = curand_poisson(&s, 4.0);
  pois[2 * id + 1] = curand_poisson(&s, 5000.0);

  curandStatePhilox4_32_10_t z;
  curand_init(0ull, 0ull, 0ull, &z);
  unsigned int z0 = curand(&z), z1 = curand(&z), z2 = curand(&z), z3 = curand(&z);
  assert(z0 == 0x6627e8d5u && z1 == 0xe169c58du && z2 == 0xbc57ac4cu && z3 == 0x9b00dbd8u);
  curandStatePhilox4_32_10_t a;
  curand_init(seed, id, 0, &a);
  for (int skip = 0; skip < 3; skip++) curand(&a);
  unsigned int first = bits[8 * id], again = curand(&a);
  assert(again == first);

  // Log-normal values have their own cache (see curand_xorwow_ok.cu), and
  // curand_poisson4 above lambda 4000 takes two fresh Box-Muller pairs,
  // ignoring a cached normal.
  curandStatePhilox4_32_10_t b;
  curand_init(seed, id, 0, &a);
  curand_init(seed, id, 0, &b);
  (void)curand_normal(&a);
  float ln = curand_log_normal(&a, 0.0f, 1.0f), ln2 = curand_log_normal(&a, 0.0f, 1.0f);
  curand(&b), curand(&b);
  float2 nb = curand_normal2(&b);
  assert(ln == expf(nb.x) && ln2 == expf(nb.y));
  (void)curand_normal_double(&a);
  uint4 p4 = curand_poisson4(&a, 5000.0);
  for (int i = 0; i < 4; i++) curand(&b);
  double2 n1 = curand_normal2_double(&b), n2 = curand_normal2_double(&b);
  double sl = sqrt(5000.0);
  assert(abs((int)p4.x - (int)(sl * n1.x + 5000.5)) <= 1 && abs((int)p4.y - (int)(sl * n1.y + 5000.5)) <= 1);
  assert(abs((int)p4.z - (int)(sl * n2.x + 5000.5)) <= 1 && abs((int)p4.w - (int)(sl * n2.y + 5000.5)) <= 1);
  double2 l2 = curand_log_normal2_double(&a, 0.0, 1.0), m2 = curand_normal2_double(&b);
  assert(l2.x == exp(m2.x) && l2.y == exp(m2.y));
  assert(curand(&a) == curand(&b));
}
