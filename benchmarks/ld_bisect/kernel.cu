// LDetector's "bisect small" (CUDA SDK eigenvalues, small matrices), our own
// implementation: all eigenvalues of a symmetric tridiagonal matrix by
// bisection with Sturm sequence counts, one matrix of order n per block
// (n <= blockDim.x <= MAXN). diag holds the diagonals, offd the
// off-diagonals (offd[m*n + i] couples rows i and i+1; offd[m*n + n-1] is
// not used), eig receives the eigenvalues in ascending order.
//
// count(x), the number of eigenvalues below x, is the number of negative
// terms of the LDL^T recurrence q_0 = d_0 - x, q_i = d_i - x - e_{i-1}^2 /
// q_{i-1}. An interval [l, r) with count(l) = cl and count(r) = cr holds
// eigenvalues cl .. cr-1, so it is kept in shared memory at slot cl: the
// intervals of one level never share a slot, and splitting [l, r) at its
// midpoint m puts the halves at slots cl and count(m).
//
// The block loads the matrix into shared memory and finds the Gershgorin
// interval with a tree reduction. Phase 1 (levels, two barriers each): the
// thread of every slot that holds an interval with more than one eigenvalue
// splits it, writing the non-empty halves into the other of two buffers
// (each thread first clears its own slot of that buffer, then a barrier,
// then the writes, then a barrier); after enough levels to bring the
// Gershgorin width below the tolerance every interval holds one eigenvalue
// or a cluster narrower than the tolerance. Phase 2 (no barriers): each
// thread bisects its one-eigenvalue interval alone until it is narrower
// than the tolerance, and writes the midpoint to its eigenvalues' places.
// No race.
#define MAXN 512

// sturm counts the eigenvalues of the matrix (d, e2 = squared
// off-diagonals) below x.
__device__ int sturm(const float *d, const float *e2, int n, float x) {
  int count = 0;
  float q = d[0] - x;
  for (int i = 1;; ++i) {
    if (q < 0.0f)
      count++;
    if (i == n)
      break;
    if (fabsf(q) < 1e-30f)
      q = -1e-30f;
    q = d[i] - x - e2[i - 1] / q;
  }
  return count;
}

__global__ void bisect(const float *diag, const float *offd, float *eig, int n) {
  __shared__ float d[MAXN], e2[MAXN];
  __shared__ float lo[MAXN], hi[MAXN];
  __shared__ float L[2][MAXN], R[2][MAXN];
  __shared__ int CL[2][MAXN], CR[2][MAXN]; // CR == 0: empty slot
  int t = threadIdx.x;
  const float *dm = diag + blockIdx.x * n;
  const float *em = offd + blockIdx.x * n;

  // Load the matrix; Gershgorin bounds of the rows this thread loads.
  float glo = 1e30f, ghi = -1e30f;
  for (int i = t; i < n; i += blockDim.x) {
    float di = dm[i];
    float below = i + 1 < n ? em[i] : 0.0f;
    float above = i > 0 ? em[i - 1] : 0.0f;
    d[i] = di;
    e2[i] = below * below;
    float rad = fabsf(below) + fabsf(above);
    glo = fminf(glo, di - rad);
    ghi = fmaxf(ghi, di + rad);
  }
  lo[t] = glo;
  hi[t] = ghi;
  for (int half = blockDim.x / 2; half > 0; half >>= 1) {
    __syncthreads();
    if (t < half) {
      lo[t] = fminf(lo[t], lo[t + half]);
      hi[t] = fmaxf(hi[t], hi[t + half]);
    }
  }
  __syncthreads();
  glo = lo[0];
  ghi = hi[0];
  float tol = 2e-6f * fmaxf(fmaxf(fabsf(glo), fabsf(ghi)), 1e-20f);
  glo -= tol;
  ghi += tol;
  int levels = 0;
  for (float w = ghi - glo; w > tol; w *= 0.5f)
    levels++;

  // Phase 1: split the intervals that hold more than one eigenvalue.
  if (t < n) {
    L[0][t] = glo;
    R[0][t] = ghi;
    CL[0][t] = 0;
    CR[0][t] = t == 0 ? n : 0;
  }
  int cur = 0;
  for (int lev = 0; lev < levels; ++lev) {
    int nxt = 1 - cur;
    if (t < n)
      CR[nxt][t] = 0;
    __syncthreads();
    if (t < n && CR[cur][t] > 0) {
      float l = L[cur][t], r = R[cur][t];
      int cl = CL[cur][t], cr = CR[cur][t];
      if (cr - cl == 1) {
        L[nxt][t] = l;
        R[nxt][t] = r;
        CL[nxt][t] = cl;
        CR[nxt][t] = cr;
      } else {
        float m = 0.5f * (l + r);
        int cm = sturm(d, e2, n, m);
        cm = min(max(cm, cl), cr); // rounding must not break the slots
        if (cm > cl) {
          L[nxt][cl] = l;
          R[nxt][cl] = m;
          CL[nxt][cl] = cl;
          CR[nxt][cl] = cm;
        }
        if (cr > cm) {
          L[nxt][cm] = m;
          R[nxt][cm] = r;
          CL[nxt][cm] = cm;
          CR[nxt][cm] = cr;
        }
      }
    }
    __syncthreads();
    cur = nxt;
  }

  // Phase 2: each thread refines its own interval.
  if (t < n && CR[cur][t] > 0) {
    float l = L[cur][t], r = R[cur][t];
    int cl = CL[cur][t], cr = CR[cur][t];
    if (cr - cl == 1) {
      for (int it = 0; it < 64 && r - l > tol; ++it) {
        float m = 0.5f * (l + r);
        if (sturm(d, e2, n, m) > cl)
          r = m;
        else
          l = m;
      }
    }
    float lambda = 0.5f * (l + r);
    for (int j = cl; j < cr; ++j)
      eig[blockIdx.x * n + j] = lambda;
  }
}
