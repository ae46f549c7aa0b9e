// Locals with padding, live across a barrier: their saved copies are
// compared member by member, not byte for byte, because
// padding is not part of a value (on the GPU a struct in registers has
// none, so its bytes in memory differ between the two passes).
struct Mixed { int n; double x; char tag; };      // padding after n and after tag
struct Bits { unsigned a : 3; unsigned b : 5; };   // bit fields: compared whole
union Either { int i; double d; };                 // unions: compared whole
struct Base { int id; };
struct Derived : Base { double w; };               // a base: compared whole
struct Tight { float a, b; };                      // no padding: compared whole

__global__ void padded(const double *in, double *out) {
  __shared__ double s[64];
  int t = threadIdx.x;
  Mixed m = {t, in[t], 'a'};
  Mixed pair[2] = {{t, 1.0, 'b'}, {t + 1, 2.0, 'c'}};
  Bits b = {1u, 2u};
  Either e;
  e.d = in[t];
  Derived d;
  d.id = t;
  d.w = 0.5;
  Tight g = {1.0f, 2.0f};
  s[t] = m.x;
  __syncthreads();
  out[t] = s[(t + 1) % 64] + m.x + m.n + m.tag + pair[1].x + b.a + b.b + e.d + d.w + d.id + g.a;
}
