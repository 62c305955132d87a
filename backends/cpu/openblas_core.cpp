// OpenBLAS built with DYNAMIC_ARCH (Debian's) picks its kernels when it loads, from a table
// of the processors it knew when it was released. Debian 12's 0.3.21 does not know newer
// ones: on a Xeon of model 207 (Emerald Rapids, AVX-512) it took Prescott's SSE3 kernels,
// and float32 GEMM of 1024 ran in 35 ms against 7.3 ms with its SkylakeX kernels (and
// 10.8 ms in NumPy's wheel, whose newer OpenBLAS knows the processor); every LAPACK call
// pays the same, since LAPACK runs on those kernels. OPENBLAS_CORETYPE is OpenBLAS's own
// answer, read once when it loads; a user who has not set it gets, from here, what setting
// it would have given: OpenBLAS's exported pair gotoblas_dynamic_quit/_init re-runs the
// selection with the variable set for that moment. A user's OPENBLAS_CORETYPE, whatever it
// names, is left alone (bench/RESULTS.md, "twenty-fifth session").
#include "openblas_core.hpp"

#include <cblas.h>
#include <dlfcn.h>
#include <strings.h>

#include <cstdlib>
#include <initializer_list>

namespace ember_cpu {

bool openblas_core_below_cpu() {
#if defined(EMBER_CPU_X86)
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return false;
    const char* core = openblas_get_corename();
    for (const char* avx2_core : {"Haswell", "Zen", "SkylakeX", "Cooperlake", "SapphireRapids", "Excavator"})
        if (core && strcasecmp(core, avx2_core) == 0) return false;
    return true;
#else
    return false;
#endif
}

namespace {

// The core OPENBLAS_CORETYPE would name for this processor: every OpenBLAS with
// DYNAMIC_ARCH since 0.3.x knows these two.
const char* core_for_this_cpu() {
#if defined(EMBER_CPU_X86)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
        return "SkylakeX";
    return "Haswell";
#else
    return nullptr;
#endif
}

}  // namespace

const char* reselect_openblas_core() {
    if (std::getenv("OPENBLAS_CORETYPE") || !openblas_core_below_cpu()) return nullptr;
    // The OpenBLAS this module was linked against, found by one of its functions: an
    // OpenBLAS without DYNAMIC_ARCH has no selection to re-run and lacks the pair.
    Dl_info where{};
    if (!dladdr((void*)&openblas_get_corename, &where) || !where.dli_fname) return nullptr;
    void* lib = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!lib) return nullptr;
    auto quit = (void (*)())dlsym(lib, "gotoblas_dynamic_quit");
    auto init = (void (*)())dlsym(lib, "gotoblas_dynamic_init");
    dlclose(lib);
    const char* wanted = core_for_this_cpu();
    if (!quit || !init || !wanted) return nullptr;
    static char picked[32];
    const char* before = openblas_get_corename();
    int i = 0;
    for (; before && before[i] && i + 1 < (int)sizeof picked; ++i) picked[i] = before[i];
    picked[i] = '\0';
    // The variable is set only while OpenBLAS reads it: the environment the user sees (and
    // child processes inherit) stays as it was.
    setenv("OPENBLAS_CORETYPE", wanted, 1);
    quit();
    init();
    unsetenv("OPENBLAS_CORETYPE");
    return picked;
}

}  // namespace ember_cpu
