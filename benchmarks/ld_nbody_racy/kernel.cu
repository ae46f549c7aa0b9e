// ld_nbody with a write-write race on global memory, the kind LDetector's
// Table VI reports for nbody (ww, global, 8 warps): the block adds its rows'
// partial accelerations in row 0 as before, but the write-back of the new
// velocity and position has slipped out of the `if (ty == 0)`, so all Q rows
// write body i's newVel and newPos, rows 1..Q-1 from their own partial
// accelerations: the P x Q = 256 threads' 8 warps write the same elements
// with different values, with no barrier between them (write-write race on
// global memory between the warps of a block; blocks still write disjoint
// bodies). Everything else is ld_nbody.
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
  }
  // bug: the write-back below belongs inside the if (ty == 0) above: rows
  // 1..Q-1 write their own partial results over row 0's
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
