/* A host-memory test backend with a single native kernel (negative, deliberately wrong:
   it returns x unchanged) so tests can tell a native kernel from the reference fallback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember_backend.h"

static const ember_host_api_t* host;
static int state_token;

static ember_status_t init(const ember_host_api_t* h, void** state) {
    host = h;
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
static int find_kernel(void* s, const char* op, ember_kernel_t* out) {
    (void)s;
    if (strcmp(op, "negative") == 0) {
        out->fn = identity_negative;
        out->data = NULL;
        return 1;
    }
    return 0;
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
