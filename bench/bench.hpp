// The one benchmark interface shared by every backend and binding: cases register
// themselves; ember-bench runs them and prints one JSON object per line:
// {"case", "size", "backend", "baseline", "ember_s", "baseline_s", "ratio"}
// with ratio = baseline_s / ember_s (above 1: Ember is faster).
#pragma once

#include <chrono>
#include <functional>
#include <utility>
#include <map>
#include <string>
#include <vector>

namespace bench {

struct Result {
    std::string case_name;  // e.g. "matmul_f32"
    std::string size;       // e.g. "1024" or "1e7"
    std::string backend;    // Ember backend measured
    std::string baseline;   // e.g. "cblas_sgemm", "clblast", "copy_bandwidth"
    double ember_s = 0;     // seconds per operation, best of repeats
    double baseline_s = 0;
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

// NumPy's times for the cases under bench/run_numpy.sh: the flat JSON object
// {"<case>/<size>": seconds} that bench/numpy_baseline.py wrote to $EMBER_NUMPY_BASELINE
// (empty when that is unset).
std::map<std::string, double> numpy_times();

// Best-of-n wall time of fn in seconds, after one warm-up call.
inline double best_of(int n, const std::function<void()>& fn) {
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

// Best-of-n wall times of a and b, their calls alternating (a, b, a, b, ...) after one
// warm-up call each: a slow spell of the machine (the VM's neighbours, a frequency step)
// then reaches both sides of a ratio instead of only the one timed during it. Two
// back-to-back best_of's gave dgemm 2048 ratios of 0.83-1.02 in one series.
inline std::pair<double, double> best_of_pair(int n, const std::function<void()>& a, const std::function<void()>& b) {
    a();
    b();
    double best_a = 1e300, best_b = 1e300;
    for (int i = 0; i < n; ++i)
        for (int side = 0; side < 2; ++side) {
            auto t0 = std::chrono::steady_clock::now();
            (side ? b : a)();
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            double& best = side ? best_b : best_a;
            if (s < best) best = s;
        }
    return {best_a, best_b};
}

}  // namespace bench
