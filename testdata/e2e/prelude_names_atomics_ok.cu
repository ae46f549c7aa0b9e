// expect: none
// launch: --kernel k --grid 2 --block 64 --arg a=uint[128]:zero --arg b=ushort[128]:zero --arg c=ulong[128]:zero --arg m=ulong[8]:zero
// Names and atomics CUDA code takes from the toolkit's headers: uint,
// ushort, ulong, NULL, and the atomics of the programming guide on 64-bit
// and 16-bit types (atomicMin/Max/And/Or/Xor on unsigned long long and
// long long, atomicCAS on unsigned short) and their _block/_system forms.
__global__ void k(uint *a, ushort *b, ulong *c, unsigned long long *m) {
  int *none = NULL;
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = i;
  b[i] = (ushort)(i * 3);
  c[i] = (ulong)i << 33;
  if (none != NULL) a[i] = 0;
  atomicMax(&m[0], (unsigned long long)i);
  atomicOr(&m[1], 1ull << (i % 64));
  atomicXor_block(&m[2], (unsigned long long)i);
  atomicAnd_system(&m[3], ~(1ull << (i % 64)));
  atomicMin((long long *)&m[4], -(long long)i);
  atomicMax((long long *)&m[5], (long long)i);
  atomicAdd_block(&m[6], 1ull);
  if (threadIdx.x == 0) {
    unsigned short *h = (unsigned short *)&m[7];
    atomicCAS(&h[blockIdx.x], (unsigned short)0, (unsigned short)(blockIdx.x + 1));
  }
}
