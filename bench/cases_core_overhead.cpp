// Per-op overhead through the C API on whatever backends are available.
#include <functional>
#include <string>
#include <utility>

#include "bench.hpp"
#include "ember/ember.h"
#include "ember/ember_ops.h"

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
        // Other small calls against the same handle-only loop: what each costs beyond it.
        float sixteen[16] = {0};
        int64_t square[2] = {4, 4}, axis0[1] = {0};
        ember_tensor_t* m;
        ember_tensor_from_data(ctx, sixteen, EMBER_FLOAT32, square, 2, &m);
        const std::pair<const char*, std::function<void()>> small[] = {
            {"matmul_overhead_4x4", [&] { ember_matmul(ctx, m, m, &c); }},
            {"sum_overhead_4", [&] { ember_sum(ctx, m, axis0, 1, 0, &c); }},
            {"add_scalar_overhead_4", [&] {  // x + 1.0 as Python writes it: a weak float64 scalar
                 ember_tensor_t* s;
                 ember_scalar_f64(ctx, 1.0, &s);
                 ember_add(ctx, m, s, &c);
                 ember_tensor_release(s);
             }},
        };
        for (const auto& [case_name, call] : small) {
            c = nullptr;
            call();  // a call that fails here is left out, not timed
            if (!c) continue;
            ember_tensor_release(c);
            double ts = bench::best_of(opt.quick ? 3 : 5, [&] {
                for (int i = 0; i < n; ++i) {
                    call();
                    ember_tensor_release(c);
                }
            });
            out.push_back({case_name, "4x4", name, "view_create_release", ts / n, tb / n});
        }
        ember_tensor_release(m);
        ember_tensor_release(a);
        ember_ctx_release(ctx);
    }
}
bench::Register reg("add_overhead", overhead);
}  // namespace
