/* An OpenBLAS that took kernels below the processor while OPENBLAS_CORETYPE was unset
 * (Debian's 0.3.21 on processors newer than it) runs the processor's class of kernels once
 * the cpu backend starts (backends/cpu/openblas_core.cpp); one the user named stays.
 *   openblas_core_check           the backend replaces a below-the-processor choice
 *   openblas_core_check --named   OPENBLAS_CORETYPE=Prescott in the environment: kept
 * Its own process, since the backend starts once per process: before it starts, this
 * program makes OpenBLAS take Prescott's SSE3 kernels, as such an OpenBLAS would have.
 * Exit 0: passed or not applicable (said on stdout); 1: failed. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/ember.h>
#include <ember/ember_linalg.h>

static int failures = 0;
#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (!(cond)) {                                             \
            fprintf(stderr, "openblas_core_check: " __VA_ARGS__); \
            fputc('\n', stderr);                                   \
            ++failures;                                            \
        }                                                          \
    } while (0)
#define OK(call) CHECK((call) == EMBER_OK, "%s: %s", #call, ember_last_error())

static int has_avx2(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static const char* class_of_this_cpu(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
        return "SkylakeX";
#endif
    return "Haswell";
}

/* Largest |cpu - reference| of a @ b (n x n, float64), or -1 when a call failed. */
static double product_error(ember_ctx_t* cpu, ember_ctx_t* ref, int n) {
    double* a = malloc(sizeof(double) * n * n);
    double *got = malloc(sizeof(double) * n * n), *want = malloc(sizeof(double) * n * n);
    for (int i = 0; i < n * n; ++i) a[i] = (double)((i * 7919) % 1000) / 500.0 - 1.0;
    int64_t shape[2] = {n, n};
    ember_tensor_t *ac = NULL, *ar = NULL, *pc = NULL, *pr = NULL;
    double worst = -1;
    if (ember_tensor_from_data(cpu, a, EMBER_FLOAT64, shape, 2, &ac) == EMBER_OK &&
        ember_tensor_from_data(ref, a, EMBER_FLOAT64, shape, 2, &ar) == EMBER_OK && ember_matmul(cpu, ac, ac, &pc) == EMBER_OK &&
        ember_matmul(ref, ar, ar, &pr) == EMBER_OK && ember_tensor_read(pc, got, sizeof(double) * n * n) == EMBER_OK &&
        ember_tensor_read(pr, want, sizeof(double) * n * n) == EMBER_OK) {
        worst = 0;
        for (int i = 0; i < n * n; ++i) worst = fmax(worst, fabs(got[i] - want[i]));
    } else {
        fprintf(stderr, "openblas_core_check: %s\n", ember_last_error());
    }
    ember_tensor_release(ac), ember_tensor_release(ar), ember_tensor_release(pc), ember_tensor_release(pr);
    free(a), free(got), free(want);
    return worst;
}

int main(int argc, char** argv) {
    const int named = argc > 1 && strcmp(argv[1], "--named") == 0;
    if (!named) unsetenv("OPENBLAS_CORETYPE"); /* whatever the caller's environment named */
    void* blas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!blas) {
        printf("openblas_core_check: no libopenblas.so.0 (%s): not applicable\n", dlerror());
        return 0;
    }
    void (*quit)(void) = (void (*)(void))dlsym(blas, "gotoblas_dynamic_quit");
    void (*init)(void) = (void (*)(void))dlsym(blas, "gotoblas_dynamic_init");
    const char* (*corename)(void) = (const char* (*)(void))dlsym(blas, "openblas_get_corename");
    if (!quit || !init || !corename) {
        printf("openblas_core_check: an OpenBLAS without DYNAMIC_ARCH picks no core: not applicable\n");
        return 0;
    }
    setenv("OPENBLAS_CORETYPE", "Prescott", 1);
    quit();
    init();
    if (!named) unsetenv("OPENBLAS_CORETYPE");
    if (strcmp(corename(), "Prescott") != 0) {
        printf("openblas_core_check: OpenBLAS has no Prescott core (%s): not applicable\n", corename());
        return 0;
    }

    ember_ctx_t *cpu = NULL, *ref = NULL;
    if (ember_ctx_create_on("cpu", 0, &cpu) != EMBER_OK) {
        printf("openblas_core_check: no cpu backend (%s): not applicable\n", ember_last_error());
        return 0;
    }
    OK(ember_ctx_create_on("reference", 0, &ref));
    ember_device_info_t info;
    memset(&info, 0, sizeof info);
    OK(ember_ctx_device_info(cpu, 0, &info));
    const char* now = corename();
    if (named || !has_avx2()) {
        CHECK(strcmp(now, "Prescott") == 0, "OpenBLAS's core is %s, expected Prescott (%s)", now,
              named ? "the user named it" : "no AVX2 here");
        CHECK(strstr(info.driver, "(set by Ember)") == NULL, "driver: %s", info.driver);
        CHECK(has_avx2() == (strstr(info.driver, "(below the CPU)") != NULL), "driver: %s", info.driver);
        if (named) CHECK(getenv("OPENBLAS_CORETYPE") && strcmp(getenv("OPENBLAS_CORETYPE"), "Prescott") == 0, "the user's OPENBLAS_CORETYPE changed");
    } else {
        const char* wanted = class_of_this_cpu();
        char expect[64];
        snprintf(expect, sizeof expect, "OpenBLAS core %s (set by Ember)", wanted);
        CHECK(strcmp(now, wanted) == 0, "OpenBLAS's core is %s, expected %s", now, wanted);
        CHECK(strstr(info.driver, expect) != NULL, "driver '%s' lacks '%s'", info.driver, expect);
        CHECK(getenv("OPENBLAS_CORETYPE") == NULL, "OPENBLAS_CORETYPE was left set");
    }
    /* Products on whichever kernels now run: 64 (one thread) and 300 (OpenBLAS's threads). */
    for (int n = 64; n <= 300; n += 236) {
        const double err = product_error(cpu, ref, n);
        CHECK(err >= 0 && err < 1e-10 * n, "matmul %d x %d: largest difference from the reference %g", n, n, err);
    }
    printf("openblas_core_check%s: OpenBLAS core %s; driver: %s; %s\n", named ? " --named" : "", now, info.driver,
           failures ? "FAILED" : "passed");
    ember_ctx_release(cpu);
    ember_ctx_release(ref);
    return failures ? 1 : 0;
}
