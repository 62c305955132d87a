// The contexts the cpu-backend suites compare: the cpu backend and the reference, each
// created once per process; NEED_CPU() skips a test where the cpu module is absent.
#pragma once

#include "test_util.hpp"

inline ember_ctx_t* cpu() {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        if (ember_ctx_create_on("cpu", 0, &c) != EMBER_OK) return (ember_ctx_t*)nullptr;
        return c;
    }();
    return ctx;
}
inline ember_ctx_t* ref() {
    static ember_ctx_t* ctx = [] {
        ember_ctx_t* c = nullptr;
        ember_ctx_create_on("reference", 0, &c);
        return c;
    }();
    return ctx;
}
#define NEED_CPU() \
    if (!cpu()) GTEST_SKIP() << "cpu backend not available: " << ember_last_error()
