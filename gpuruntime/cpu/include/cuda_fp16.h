// <cuda_fp16.h>: ldcheck's half precision API (ldcheck_fp16.h); on a GPU machine nvcc uses the
// toolkit's own header.
#pragma once
#include "ldcheck_fp16.h"
