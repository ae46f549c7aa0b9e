// ldcheck stub of <cooperative_groups.h>: enough for the front end to parse
// kernels that use thread blocks and grids. thread_block::sync() is a block
// barrier; grid_group::sync() is a grid-wide barrier ldcheck cannot check.
#pragma once
namespace cooperative_groups {
struct thread_block {
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned thread_rank() const { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
};
struct grid_group {
  // ldcheck never runs a grid-wide barrier: kernels using one are not
  // instrumented, and running one unchecked traps rather than deadlock.
  __device__ void sync() const { __trap(); }
  __device__ unsigned long long size() const { return 0; }
  __device__ unsigned long long thread_rank() const { return 0; }
};
static __device__ thread_block this_thread_block() { return thread_block(); }
static __device__ grid_group this_grid() { return grid_group(); }
static __device__ void sync(const thread_block &b) { b.sync(); }
}
