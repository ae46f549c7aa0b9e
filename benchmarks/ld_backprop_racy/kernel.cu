// The layer of ld_backprop with the forward pass's bug (Table VI of
// LDetector: backprop has a write-write race on global memory): instead of
// writing its partial dot products to a slot of its own (partial[block *
// HID + j]), every block adds them straight into the hidden layer's sums
// with a plain read-modify-write, hidden[j] += ..., no atomics. Blocks thus
// store different values (their own partial sums added to what they read)
// into the same hidden[j]: a write-write race on global memory between
// blocks. bp_adjust is unchanged; `launch` runs bp_forward.
#define HID 16
#define ROWS 16

__global__ void bp_forward(const float *input, const float *w, float *hidden) {
  __shared__ float node[ROWS];
  __shared__ float prod[ROWS][HID];
  int j = threadIdx.x, r = threadIdx.y;
  int row = 1 + blockIdx.x * ROWS + r;
  if (j == 0)
    node[r] = input[row];
  __syncthreads();
  prod[r][j] = w[row * HID + j] * node[r];
  __syncthreads();
  for (int half = ROWS / 2; half > 0; half /= 2) {
    if (r < half)
      prod[r][j] += prod[r + half][j];
    __syncthreads();
  }
  if (r == 0) {
    float sum = prod[0][j];
    if (blockIdx.x == 0)
      sum += w[j] * input[0];
    hidden[j] += sum; // bug: every block updates the same sums, not atomically
  }
}

__global__ void bp_adjust(const float *delta, const float *input, float *w,
                          float *oldw, float eta, float momentum) {
  int j = threadIdx.x, r = threadIdx.y;
  int row = 1 + blockIdx.x * ROWS + r;
  int i = row * HID + j;
  float dw = eta * delta[j] * input[row] + momentum * oldw[i];
  w[i] += dw;
  oldw[i] = dw;
  if (blockIdx.x == 0 && r == 0) {
    float db = eta * delta[j] * input[0] + momentum * oldw[j];
    w[j] += db;
    oldw[j] = db;
  }
}
