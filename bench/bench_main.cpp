// ember-bench: runs the registered cases and prints JSON lines (see bench.hpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "bench.hpp"

namespace bench {
namespace {
std::vector<std::pair<std::string, CaseFn>>& registry() {
    static std::vector<std::pair<std::string, CaseFn>> r;
    return r;
}
}  // namespace
Register::Register(const char* name, CaseFn fn) { registry().emplace_back(name, std::move(fn)); }

std::map<std::string, double> numpy_times() {
    std::map<std::string, double> m;
    const char* path = std::getenv("EMBER_NUMPY_BASELINE");
    if (!path) return m;
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string s = ss.str();
    size_t p = 0;
    while ((p = s.find('"', p)) != std::string::npos) {
        size_t e = s.find('"', p + 1);
        if (e == std::string::npos) break;
        std::string key = s.substr(p + 1, e - p - 1);
        size_t colon = s.find(':', e);
        if (colon == std::string::npos) break;
        m[key] = std::strtod(s.c_str() + colon + 1, nullptr);
        p = s.find_first_of(",}", colon);
        if (p == std::string::npos) break;
    }
    return m;
}
}  // namespace bench

int main(int argc, char** argv) {
    bench::Options opt;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) opt.quick = true;
        else if (!std::strcmp(argv[i], "--list")) {
            for (auto& [name, fn] : bench::registry()) std::printf("%s\n", name.c_str());
            return 0;
        } else opt.filter.push_back(argv[i]);
    }
    for (auto& [name, fn] : bench::registry()) {
        bool run = opt.filter.empty();
        for (auto& f : opt.filter) run = run || name.find(f) != std::string::npos;
        if (!run) continue;
        std::vector<bench::Result> results;
        fn(opt, results);
        for (auto& r : results) {
            std::printf("{\"case\": \"%s\", \"size\": \"%s\", \"backend\": \"%s\", \"baseline\": \"%s\", \"ember_s\": %.9g, \"baseline_s\": %.9g, \"ratio\": %.4f}\n",
                        r.case_name.c_str(), r.size.c_str(), r.backend.c_str(), r.baseline.c_str(), r.ember_s, r.baseline_s,
                        r.ember_s > 0 ? r.baseline_s / r.ember_s : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}
