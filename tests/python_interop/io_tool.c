/* Helper of scripts/check-io-interop.sh: writes tensor files with Ember and dumps files
 * written by NumPy / safetensors as text for check_files.py to compare.
 *   io_tool write DIR   -> DIR/ember.npy, DIR/ember.npz, DIR/ember.safetensors
 *   io_tool dump FILE   -> one line per tensor: name dtype shape values (%.17g; complex: re,im)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember.h"

#define CHECK(call)                                                              \
    do {                                                                         \
        if ((call) != EMBER_OK) {                                                \
            fprintf(stderr, "io_tool: %s\n", ember_last_error());               \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static ember_ctx_t* ctx;

/* The value formula shared with check_files.py: f(k) = (k % 7) - 3 + 0.25 * (k % 2). */
static double f(long k) { return (double)(k % 7) - 3.0 + 0.25 * (double)(k % 2); }

static ember_tensor_t* make(ember_dtype_t dt, const int64_t* shape, int ndim) {
    long n = 1;
    for (int i = 0; i < ndim; ++i) n *= (long)shape[i];
    double* v = malloc(sizeof(double) * 2 * (size_t)(n ? n : 1));
    for (long k = 0; k < n; ++k) {
        v[2 * k] = f(k);
        v[2 * k + 1] = -f(k + 1);
    }
    ember_tensor_t *c = NULL, *t = NULL;
    CHECK(ember_tensor_from_data(ctx, v, EMBER_COMPLEX128, shape, ndim, &c));
    if (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) {
        CHECK(ember_astype(ctx, c, dt, &t));
    } else {
        ember_tensor_t* re = NULL;
        CHECK(ember_real(ctx, c, &re));
        CHECK(ember_astype(ctx, re, dt, &t)); /* float -> int truncates toward 0; -> uint saturates */
        ember_tensor_release(re);
    }
    ember_tensor_release(c);
    free(v);
    return t;
}

static const ember_dtype_t dtypes[] = {EMBER_BOOL,   EMBER_INT8,    EMBER_INT16,   EMBER_INT32,     EMBER_INT64,
                                       EMBER_UINT8,  EMBER_UINT16,  EMBER_UINT32,  EMBER_UINT64,    EMBER_FLOAT16,
                                       EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128};

static void write_all(const char* dir) {
    char path[4096];
    int64_t shape[3] = {2, 3, 4};
    ember_tensor_dict_t *st = NULL, *npz = NULL;
    CHECK(ember_tensor_dict_create(&st));
    CHECK(ember_tensor_dict_create(&npz));
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i) {
        ember_tensor_t* t = make(dtypes[i], shape, 2 + (int)(i % 2));
        CHECK(ember_tensor_dict_set(st, ember_dtype_name(dtypes[i]), t));
        if (dtypes[i] != EMBER_BFLOAT16) CHECK(ember_tensor_dict_set(npz, ember_dtype_name(dtypes[i]), t));
        ember_tensor_release(t);
    }
    int64_t zero[2] = {0, 5};
    ember_tensor_t* e = make(EMBER_FLOAT32, zero, 2);
    ember_tensor_t* s = make(EMBER_FLOAT64, NULL, 0);
    CHECK(ember_tensor_dict_set(st, "empty", e));
    CHECK(ember_tensor_dict_set(st, "scalar", s));
    CHECK(ember_tensor_dict_set(npz, "empty", e));
    CHECK(ember_tensor_dict_set(npz, "scalar", s));
    CHECK(ember_tensor_dict_set_metadata(st, "format", "pt"));
    snprintf(path, sizeof path, "%s/ember.safetensors", dir);
    CHECK(ember_save_safetensors(ctx, path, st));
    snprintf(path, sizeof path, "%s/ember.npz", dir);
    CHECK(ember_save_npz(ctx, path, npz));
    snprintf(path, sizeof path, "%s/ember_compressed.npz", dir);
    CHECK(ember_save_npz_compressed(ctx, path, npz));
    ember_tensor_t* one = make(EMBER_FLOAT32, shape, 3);
    snprintf(path, sizeof path, "%s/ember.npy", dir);
    CHECK(ember_save_npy(ctx, path, one));
    ember_tensor_release(one);
    ember_tensor_release(e);
    ember_tensor_release(s);
    ember_tensor_dict_release(st);
    ember_tensor_dict_release(npz);
}

static void dump(const char* name, const ember_tensor_t* t) {
    ember_dtype_t dt;
    int nd;
    const int64_t* shape;
    int64_t n;
    CHECK(ember_tensor_dtype(t, &dt));
    CHECK(ember_tensor_ndim(t, &nd));
    CHECK(ember_tensor_shape(t, &shape));
    CHECK(ember_tensor_size(t, &n));
    printf("%s %s ", name, ember_dtype_name(dt));
    for (int i = 0; i < nd; ++i) printf("%s%lld", i ? "," : "", (long long)shape[i]);
    printf("%s", nd ? "" : "-");
    ember_tensor_t* c = NULL;
    CHECK(ember_astype(ctx, t, EMBER_COMPLEX128, &c));
    double* v = malloc(16 * (size_t)(n ? n : 1));
    CHECK(ember_tensor_read(c, v, 16 * (size_t)n));
    for (int64_t k = 0; k < n; ++k) printf(" %.17g,%.17g", v[2 * k], v[2 * k + 1]);
    printf("\n");
    free(v);
    ember_tensor_release(c);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: io_tool write DIR | io_tool dump FILE\n");
        return 2;
    }
    CHECK(ember_ctx_create_on("reference", 0, &ctx));
    if (strcmp(argv[1], "write") == 0) {
        write_all(argv[2]);
    } else {
        const char* p = argv[2];
        size_t len = strlen(p);
        if (len > 4 && strcmp(p + len - 4, ".npy") == 0) {
            ember_tensor_t* t = NULL;
            CHECK(ember_load_npy(ctx, p, &t));
            dump("array", t);
            ember_tensor_release(t);
        } else {
            ember_tensor_dict_t* d = NULL;
            if (len > 4 && strcmp(p + len - 4, ".npz") == 0) CHECK(ember_load_npz(ctx, p, &d));
            else CHECK(ember_load_safetensors(ctx, p, &d));
            int64_t n;
            CHECK(ember_tensor_dict_size(d, &n));
            for (int64_t i = 0; i < n; ++i) {
                const char* name;
                ember_tensor_t* t;
                CHECK(ember_tensor_dict_entry(d, i, &name, &t));
                dump(name, t);
            }
            ember_tensor_dict_release(d);
        }
    }
    ember_ctx_release(ctx);
    return 0;
}
