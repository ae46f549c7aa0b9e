// <cuda_bf16.h>: ldcheck's bfloat16 API, with the half one (ldcheck_fp16.h); on a GPU
// machine nvcc uses the toolkit's own header.
#pragma once
#include "ldcheck_fp16.h"
