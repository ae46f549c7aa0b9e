// Private accesses: each thread reads and writes only its own element, through
// an index held in a local. The second kernel looks alike but shifts the index.
__global__ void scale(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  v[i] = v[i] * a;
}
__global__ void shifted(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  v[i] = v[i + 1] * a;
}
__global__ void reassigned(float *v, float a) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  i = i / 2;
  v[i] = a;
}
