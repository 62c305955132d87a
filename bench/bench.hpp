// The one benchmark interface shared by every backend and binding: cases register
// themselves; ember-bench runs them and prints one JSON object per line:
// {"case", "size", "backend", "baseline", "ember_s", "baseline_s", "ratio"}
// with ratio = baseline_s / ember_s (above 1: Ember is faster), then "cpus": how many CPUs'
// worth of work the machine gave the process while the case was timed (see cpus_available).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace bench {

// How many CPUs' worth of work the machine gives this process right now: one spin loop timed
// alone and on every hardware thread at once (n * t1 / tn: 2.0 on two free CPUs, 1.0 when a
// neighbour or the hypervisor takes one). On a shared VM this changes from second to second,
// and every threaded kernel with it, so each result carries the smallest value seen while
// it was measured.
inline double cpus_available() {
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    auto spin = [] {
        volatile uint64_t x = 0;
        for (int i = 0; i < 300000; ++i) x = x + 1;
    };
    auto time_on = [&](unsigned threads) {
        double best = 1e300;
        for (int rep = 0; rep < 3; ++rep) {
            auto t0 = std::chrono::steady_clock::now();
            std::vector<std::thread> others;
            for (unsigned k = 1; k < threads; ++k) others.emplace_back(spin);
            spin();
            for (auto& t : others) t.join();
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        return best;
    };
    double t1 = time_on(1), tn = time_on(n);
    return std::min<double>(n, n * t1 / tn);
}
// The smallest cpus_available() since the last Result was made (best_of feeds it).
inline double& cpus_seen() {
    static double v = 1e300;
    return v;
}
inline double take_cpus_seen() {
    double v = cpus_seen() >= 1e300 ? 0 : cpus_seen();
    cpus_seen() = 1e300;
    return v;
}

struct Result {
    std::string case_name;  // e.g. "matmul_f32"
    std::string size;       // e.g. "1024" or "1e7"
    std::string backend;    // Ember backend measured
    std::string baseline;   // e.g. "cblas_sgemm", "clblast", "copy_bandwidth"
    double ember_s = 0;     // seconds per operation, best of repeats
    double baseline_s = 0;
    double cpus = take_cpus_seen();  // 0: not measured (the case did not use best_of)
};

struct Options {
    bool quick = false;               // --quick: small sizes, few repeats, under a minute in all
    std::vector<std::string> filter;  // substrings of case names to run (empty: all)
};

using CaseFn = std::function<void(const Options&, std::vector<Result>&)>;

// Registers a case at static-initialisation time: static bench::Register r("name", fn);
struct Register {
    Register(const char* name, CaseFn fn);
};

// Best-of-n wall time of fn in seconds, after one warm-up call.
inline double best_of(int n, const std::function<void()>& fn) {
    cpus_seen() = std::min(cpus_seen(), cpus_available());
    fn();
    double best = 1e300;
    for (int i = 0; i < n; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        fn();
        auto t1 = std::chrono::steady_clock::now();
        double s = std::chrono::duration<double>(t1 - t0).count();
        if (s < best) best = s;
    }
    return best;
}

}  // namespace bench
