// Which GEMM kernels OpenBLAS runs on this processor, and a better choice where its own
// is below it (openblas_core.cpp).
#pragma once

namespace ember_cpu {

// Whether OpenBLAS runs kernels without AVX2 on a processor with AVX2 and FMA.
bool openblas_core_below_cpu();

// Where OpenBLAS picked a core below the processor and the user did not name one
// (OPENBLAS_CORETYPE unset), re-runs OpenBLAS's selection naming this processor's class.
// Returns the core OpenBLAS had picked when it changed it, else nullptr. Call once, before
// the backend's first BLAS call.
const char* reselect_openblas_core();

}  // namespace ember_cpu
