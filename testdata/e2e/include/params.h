// Constants shared by the host and kernel files of include_kernel_racy.cu.
#pragma once
#define BLOCK 64
#define SCALE 2.0f
