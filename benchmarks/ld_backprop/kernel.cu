// One layer of a neural net trained by backpropagation (after the backprop
// program of Rodinia that LDetector checked; our own code), in two kernels
// that the host runs one after the other, computing the hidden layer's
// deltas in between. The layer connects nin input units, plus a bias unit
// (input[0]), to HID hidden units; w[r * HID + j] is the weight from input
// unit r (r = 0 the bias) to hidden unit j, and oldw holds the last change
// of every weight (the momentum term).
//
// bp_forward: a block of HID x ROWS threads (16 x 16) takes ROWS input
// units. The threads of column 0 cache the block's input activations in
// shared memory; after a barrier, thread (j, r) stores the product
// w[r][j] * input[r] into a shared ROWS x HID table; after another, the
// block adds the rows of the table pairwise in log2(ROWS) halving steps, a
// barrier after each, and the threads of row 0 write the block's partial
// dot products to partial[block * HID + j] (block 0 adds the bias unit's
// term). The host sums the partials of all blocks and applies the sigmoid.
//
// bp_adjust: the same blocks, one weight a thread: the change
// eta * delta[j] * input[r] + momentum * oldw[r][j] is added to the weight
// and kept in oldw; block 0 also adjusts the bias row. Race-free.
#define HID 16
#define ROWS 16

__global__ void bp_forward(const float *input, const float *w, float *partial) {
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
    partial[blockIdx.x * HID + j] = sum;
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
