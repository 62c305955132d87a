// Per-op overhead through the C API on whatever backends are available.
#include <string>

#include "bench.hpp"
#include "ember/ember.h"

namespace {
void overhead(const bench::Options& opt, std::vector<bench::Result>& out) {
    for (int b = 0; b < ember_backend_count(); ++b) {
        const char* name;
        int available;
        ember_backend_get(b, &name, &available, nullptr, nullptr);
        if (!available) continue;
        ember_ctx_t* ctx;
        if (ember_ctx_create_on(name, 0, &ctx) != EMBER_OK) continue;
        float one = 1;
        int64_t shape[1] = {1};
        ember_tensor_t *a, *c;
        ember_tensor_from_data(ctx, &one, EMBER_FLOAT32, shape, 1, &a);
        const int n = opt.quick ? 20000 : 200000;
        double t = bench::best_of(opt.quick ? 3 : 5, [&] {
            for (int i = 0; i < n; ++i) {
                ember_add(ctx, a, a, &c);
                ember_tensor_release(c);
            }
        });
        // Baseline: the same loop doing only the handle work (create + release a 0-d view).
        double tb = bench::best_of(opt.quick ? 3 : 5, [&] {
            for (int i = 0; i < n; ++i) {
                ember_reshape(ctx, a, shape, 1, &c);
                ember_tensor_release(c);
            }
        });
        out.push_back({"add_overhead_1elem", "1", name, "view_create_release", t / n, tb / n});
        ember_tensor_release(a);
        ember_ctx_release(ctx);
    }
}
bench::Register reg("add_overhead", overhead);
}  // namespace
