/* A host-memory test backend with a few deliberately wrong native kernels, so tests can
   tell a native kernel from the reference fallback and see what the core hands a kernel:
   negative returns x unchanged; softmax and var (composites with a kernel convention)
   fill their float32/float64 output with the attributes they were given; sum, prod, all and
   any are right (the reference's) and log the input dtype they were handed; where is right
   but fails on an output that is not in C order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember_backend.h"

static const ember_host_api_t* host;
static int state_token;

/* How often the registry ran init (a test reads it through dlsym); EMBER_FAKE_INIT_FAILS
   makes init log a warning and fail, as a module whose library or device setup breaks would. */
__attribute__((visibility("default"))) int ember_fake_init_count;

static ember_status_t init(const ember_host_api_t* h, void** state) {
    host = h;
    ++ember_fake_init_count;
    if (getenv("EMBER_FAKE_INIT_FAILS")) {
        h->log(EMBER_LOG_WARN, "fake: failing as told");
        return h->fail(EMBER_ERR_DEVICE, "fake: told to fail");
    }
    *state = &state_token;
    return EMBER_OK;
}
static void shutdown(void* s) { (void)s; }
static int score(void* s) { (void)s; return 1; }
static int device_count(void* s) { (void)s; return 2; }
static ember_status_t device_info(void* s, int d, ember_device_info_t* info) {
    (void)s;
    snprintf(info->name, sizeof info->name, "fake device %d", d);
    info->type = EMBER_DEVICE_CPU;
    return EMBER_OK;
}
static ember_status_t alloc(void* s, int d, size_t n, void** buf) {
    (void)s; (void)d;
    *buf = malloc(n ? n : 1);
    return *buf ? EMBER_OK : host->fail(EMBER_ERR_OUT_OF_MEMORY, "fake: out of memory");
}
static void release(void* s, int d, void* buf) { (void)s; (void)d; free(buf); }
static ember_status_t write_(void* s, int d, void* buf, size_t off, const void* src, size_t n) {
    (void)s; (void)d;
    memcpy((char*)buf + off, src, n);
    return EMBER_OK;
}
static ember_status_t read_(void* s, int d, const void* buf, size_t off, void* dst, size_t n) {
    (void)s; (void)d;
    memcpy(dst, (const char*)buf + off, n);
    return EMBER_OK;
}
static ember_status_t identity_negative(const ember_kernel_call_t* c) {
    ember_kernel_t copy;
    if (!host->reference_kernel("astype", &copy)) return host->fail(EMBER_ERR_INTERNAL, "fake: no astype");
    return copy.fn(c);
}
static ember_status_t fill_output(const ember_kernel_call_t* c, double value) {
    const ember_view_t* o = &c->out[0];
    int64_t n = 1;
    for (int i = 0; i < o->ndim; ++i) n *= o->shape[i];
    for (int64_t k = 0; k < n; ++k) {  /* the core hands kernels contiguous outputs */
        if (o->dtype == EMBER_FLOAT32) ((float*)o->data)[o->offset + k] = (float)value;
        else if (o->dtype == EMBER_FLOAT64) ((double*)o->data)[o->offset + k] = value;
        else return host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "fake: float outputs only");
    }
    return EMBER_OK;
}
/* softmax: every element = axis + 0.5 * (number of inputs) */
static ember_status_t fake_softmax(const ember_kernel_call_t* c) { return fill_output(c, (double)c->attrs->i[0] + 0.5 * c->n_in); }
/* var: every element = axes_mask + ddof / 10, and out[1] (info) left as the core set it, as
   a kernel written before the info output would; ddof 2 is declined (info 1). */
static ember_status_t fake_var(const ember_kernel_call_t* c) {
    if (c->attrs->f[0] == 2 && c->n_out == 2) {
        const ember_view_t* info = &c->out[1];
        ((int64_t*)info->data)[info->offset] = 1;
        return EMBER_OK;
    }
    return fill_output(c, (double)c->attrs->axes_mask + c->attrs->f[0] / 10);
}
static int narrow_integer(int32_t dtype) { return dtype == EMBER_BOOL || (dtype != EMBER_INT64 && dtype != EMBER_UINT64 && dtype <= EMBER_UINT32); }
/* sum and prod (the op name in kernel_data): both claim EMBER_KERNEL_WIDENS_INPUT, which the
   core honours for sum only; narrow integers are widened here into a contiguous copy. */
static ember_status_t logged_reduction(const ember_kernel_call_t* c) {
    const char* op = (const char*)c->kernel_data;
    const ember_view_t* in = &c->in[0];
    ember_kernel_t reduce, cast;
    host->log(EMBER_LOG_DEBUG, "fake %s: input dtype %d", op, (int)in->dtype);
    if (!host->reference_kernel(op, &reduce) || !host->reference_kernel("astype", &cast)) return host->fail(EMBER_ERR_INTERNAL, "fake: no %s", op);
    if (!narrow_integer(in->dtype) || in->dtype == c->out[0].dtype) return reduce.fn(c);
    int64_t n = 1, strides[EMBER_MAX_DIMS];
    for (int d = in->ndim - 1; d >= 0; --d) {
        strides[d] = n;
        n *= in->shape[d];
    }
    void* buffer = malloc(n ? (size_t)n * 8 : 1);
    if (!buffer) return host->fail(EMBER_ERR_OUT_OF_MEMORY, "fake: out of memory");
    ember_view_t wide = {buffer, 0, c->out[0].dtype, in->ndim, in->shape, strides};
    ember_kernel_call_t call = *c;
    call.out = &wide;
    ember_status_t st = cast.fn(&call);
    call.in = &wide;
    call.out = c->out;
    if (st == EMBER_OK) st = reduce.fn(&call);
    free(buffer);
    return st;
}
/* where: the reference's kernel, once it has seen its output in C order, which the core
   promises a new result's kernel even where the result keeps a transposed layout. */
static ember_status_t c_order_where(const ember_kernel_call_t* c) {
    const ember_view_t* o = &c->out[0];
    int64_t expect = 1;
    ember_kernel_t where;
    for (int i = o->ndim - 1; i >= 0; --i) {
        if (o->shape[i] != 1 && o->strides[i] != expect) return host->fail(EMBER_ERR_INTERNAL, "fake where: the output is not in C order");
        expect *= o->shape[i];
    }
    if (!host->reference_kernel("where", &where)) return host->fail(EMBER_ERR_INTERNAL, "fake: no where");
    return where.fn(c);
}
/* all and any (the op name in kernel_data): the reference's kernel, which tests any dtype. */
static ember_status_t logged_truth(const ember_kernel_call_t* c) {
    const char* op = (const char*)c->kernel_data;
    ember_kernel_t reduce;
    host->log(EMBER_LOG_DEBUG, "fake %s: input dtype %d", op, (int)c->in[0].dtype);
    if (!host->reference_kernel(op, &reduce)) return host->fail(EMBER_ERR_INTERNAL, "fake: no %s", op);
    return reduce.fn(c);
}
static int find_kernel(void* s, const char* op, ember_kernel_t* out) {
    (void)s;
    out->data = NULL;
    if (strcmp(op, "sum") == 0 || strcmp(op, "prod") == 0) {
        out->fn = logged_reduction;
        out->data = strcmp(op, "sum") == 0 ? "sum" : "prod";
        return EMBER_KERNEL_NATIVE | EMBER_KERNEL_WIDENS_INPUT;
    }
    if (strcmp(op, "all") == 0 || strcmp(op, "any") == 0) {  /* all claims EMBER_KERNEL_TESTS_INPUT, any does not */
        out->fn = logged_truth;
        out->data = strcmp(op, "all") == 0 ? "all" : "any";
        return strcmp(op, "all") == 0 ? EMBER_KERNEL_NATIVE | EMBER_KERNEL_TESTS_INPUT : EMBER_KERNEL_NATIVE;
    }
    if (strcmp(op, "negative") == 0) out->fn = identity_negative;
    else if (strcmp(op, "softmax") == 0) out->fn = fake_softmax;
    else if (strcmp(op, "var") == 0) out->fn = fake_var;
    else if (strcmp(op, "where") == 0) out->fn = c_order_where;
    else return 0;
    return EMBER_KERNEL_NATIVE;
}

static const ember_backend_iface_t iface = {
    EMBER_BACKEND_API_VERSION, "fake", "test backend", EMBER_BACKEND_HOST_MEMORY,
    init, shutdown, score, NULL, device_count, device_info, NULL,
    alloc, release, write_, read_, NULL, find_kernel,
};

__attribute__((visibility("default"))) const ember_backend_iface_t* ember_backend_module(uint32_t v) {
    (void)v;
    return &iface;
}
