// LDetector's "nbody" (CUDA SDK nbody), our own implementation: one time
// step of the all-pairs gravitational n-body simulation. Bodies are float
// quadruples (x, y, z, mass) in pos and (vx, vy, vz, unused) in vel. A block
// of P x Q threads (threadIdx.x = body, threadIdx.y = part) integrates P
// bodies; the Q threads of a body share its work: the bodies are visited in
// tiles of P*Q, row ty of the block loads P bodies of the tile into shared
// memory (tile[ty]), a barrier, each thread adds the accelerations that its
// row's P bodies exert on its body (softened: a = m d / (|d|^2 + soft2)^1.5),
// a barrier before the next tile overwrites the shared bodies. At the end
// each thread puts its partial acceleration into the shared tile, a barrier,
// and the threads of row 0 add the other rows' parts and write their body's
// new velocity ((v + a dt) * damping) and position (p + v' dt) to newVel and
// newPos. n must be a multiple of P*Q and the grid n/P blocks. No race.
#define P 64
#define Q 4

__global__ void nbody(const float *pos, const float *vel, float *newPos, float *newVel,
                      int n, float dt, float soft2, float damping) {
  __shared__ float tile[Q][P][4];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.x * P + tx;
  float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;

  for (int base = 0; base < n; base += P * Q) {
    int j = base + ty * P + tx;
    tile[ty][tx][0] = pos[4 * j];
    tile[ty][tx][1] = pos[4 * j + 1];
    tile[ty][tx][2] = pos[4 * j + 2];
    tile[ty][tx][3] = pos[4 * j + 3];
    __syncthreads();
    for (int k = 0; k < P; ++k) {
      float dx = tile[ty][k][0] - xi;
      float dy = tile[ty][k][1] - yi;
      float dz = tile[ty][k][2] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + soft2;
      float inv = 1.0f / sqrtf(r2);
      float s = tile[ty][k][3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }

  tile[ty][tx][0] = ax;
  tile[ty][tx][1] = ay;
  tile[ty][tx][2] = az;
  __syncthreads();
  if (ty == 0) {
    for (int r = 1; r < Q; ++r) {
      ax += tile[r][tx][0];
      ay += tile[r][tx][1];
      az += tile[r][tx][2];
    }
    float vx = (vel[4 * i] + ax * dt) * damping;
    float vy = (vel[4 * i + 1] + ay * dt) * damping;
    float vz = (vel[4 * i + 2] + az * dt) * damping;
    newVel[4 * i] = vx;
    newVel[4 * i + 1] = vy;
    newVel[4 * i + 2] = vz;
    newVel[4 * i + 3] = vel[4 * i + 3];
    newPos[4 * i] = xi + vx * dt;
    newPos[4 * i + 1] = yi + vy * dt;
    newPos[4 * i + 2] = zi + vz * dt;
    newPos[4 * i + 3] = pos[4 * i + 3];
  }
}
