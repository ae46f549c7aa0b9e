// Next to quoted_include_ok.cu, found by its quoted #include.
#ifndef QUOTED_INCLUDE_HDR_H
#define QUOTED_INCLUDE_HDR_H
#define TILE 64
__device__ inline float blend(float a, float b) { return 0.5f * (a + b); }
#endif
