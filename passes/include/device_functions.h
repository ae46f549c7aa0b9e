// ldcheck stub: the CUDA declarations device code needs come from ldcheck_prelude.h,
// force-included before this file, so no CUDA toolkit is needed to parse or compile.
#pragma once
