/* The same computation on every available backend, switching at run time:
   softmax(A @ B + 1) row sums and a reduction, with timings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ember/ember.h"

#define CHECK(call)                                                               \
    do {                                                                          \
        ember_status_t st_ = (call);                                              \
        if (st_ != EMBER_OK) {                                                    \
            fprintf(stderr, "%s failed: %s\n", #call, ember_last_error());        \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
    enum { N = 128 };
    static float a[N * N], b[N * N];
    for (int i = 0; i < N * N; ++i) {
        a[i] = (float)sin(i * 0.01);
        b[i] = (float)cos(i * 0.013);
    }
    const char* version;
    ember_version(&version);
    printf("Ember %s: softmax(A @ B + 1) with A, B of shape (%d, %d)\n", version, N, N);
    ember_ctx_t* ctx;
    CHECK(ember_ctx_create(&ctx));
    int64_t shape[2] = {N, N};
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char *name, *reason;
        int available;
        CHECK(ember_backend_get(i, &name, &available, NULL, &reason));
        if (!available) {
            printf("  %-10s skipped: %s\n", name, reason);
            continue;
        }
        CHECK(ember_ctx_set_backend(ctx, name, 0, 0));  /* the run-time switch */
        double t0 = now();
        ember_tensor_t *A, *B, *C, *one, *D, *S, *total;
        CHECK(ember_tensor_from_data(ctx, a, EMBER_FLOAT32, shape, 2, &A));
        CHECK(ember_tensor_from_data(ctx, b, EMBER_FLOAT32, shape, 2, &B));
        CHECK(ember_matmul(ctx, A, B, &C));
        CHECK(ember_scalar_f64(ctx, 1.0, &one));
        CHECK(ember_add(ctx, C, one, &D));
        CHECK(ember_softmax(ctx, D, -1, &S));
        CHECK(ember_sum(ctx, S, NULL, 0, 0, &total));
        double value;
        CHECK(ember_tensor_item_f64(total, &value));
        double t1 = now();
        float first;
        ember_tensor_t* row0;
        CHECK(ember_select(ctx, S, 0, 0, &row0));
        ember_tensor_t* first_el;
        CHECK(ember_select(ctx, row0, 0, 0, &first_el));
        double f;
        CHECK(ember_tensor_item_f64(first_el, &f));
        first = (float)f;
        printf("  %-10s sum of all probabilities = %.4f (expect %d), S[0,0] = %.6f, %.2f ms\n", name, value, N, first, (t1 - t0) * 1e3);
        ember_tensor_t* all[] = {A, B, C, one, D, S, total, row0, first_el};
        for (size_t k = 0; k < sizeof all / sizeof *all; ++k) ember_tensor_release(all[k]);
    }
    ember_ctx_release(ctx);
    return 0;
}
