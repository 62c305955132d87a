// Program cache: in memory (one cl_program per device and program id, built on first use)
// and on disk (program binaries keyed by a hash of everything that affects them).
//
// Disk format, one file per program: "<key>.bin" =
//   magic "EMBOCL01" | key (32 hex chars) | payload size (u64) | FNV-1a checksum (u64) | payload
// Files are written to a unique temporary name and renamed into place, so concurrent
// writers never expose a partial file; a file that fails any check (or that the driver
// refuses) is deleted and the program is rebuilt from source.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ember/ember.h"
#include "ocl_backend.hpp"

namespace ember_ocl {

namespace {

uint64_t fnv1a(const void* data, size_t n, uint64_t h) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ull;
constexpr char kMagic[8] = {'E', 'M', 'B', 'O', 'C', 'L', '0', '1'};

bool mkdirs(const std::string& dir) {
    std::string cur;
    for (size_t i = 0; i <= dir.size(); ++i) {
        if (i == dir.size() || dir[i] == '/') {
            if (!cur.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
        if (i < dir.size()) cur += dir[i];
    }
    return true;
}

std::string build_log(cl_program p, cl_device_id dev) {
    size_t n = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    if (n) clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    if (log.size() > 4000) log = log.substr(0, 4000) + "...";
    return log;
}

const char* program_name(int prog) {
    static thread_local char buf[32];
    static const char* const groups[G_COUNT] = {"unary", "math", "arith", "compare", "cast", "reduce", "other"};
    if (prog < PROG_MISC) std::snprintf(buf, sizeof buf, "%s/%s", dtype_name(prog / G_COUNT), groups[prog % G_COUNT]);
    else std::snprintf(buf, sizeof buf, "%s", prog == PROG_MISC ? "misc" : "soft64");
    return buf;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Keeps the directory under its size cap (EMBER_OPENCL_CACHE_MAX_MB, default 1024) by
// deleting the least recently used entries (a hit refreshes a file's mtime).
void prune(const std::string& dir, const std::string& keep) {
    uint64_t cap = 1024;
    if (const char* v = std::getenv("EMBER_OPENCL_CACHE_MAX_MB")) cap = std::strtoull(v, nullptr, 10);
    cap <<= 20;
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    struct Entry {
        std::string path;
        uint64_t size;
        int64_t mtime;
    };
    std::vector<Entry> files;
    uint64_t total = 0;
    while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() != 36 || n.substr(32) != ".bin") continue;
        std::string path = dir + "/" + n;
        struct stat st;
        if (stat(path.c_str(), &st) != 0) continue;
        files.push_back({path, (uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec});
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    if (total <= cap) return;
    std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) { return a.mtime < b.mtime; });
    for (const Entry& f : files) {
        if (total <= cap / 4 * 3) break;
        if (f.path != keep && std::remove(f.path.c_str()) == 0) total -= f.size;
    }
}

}  // namespace

std::string default_cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/ember/opencl";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.cache/ember/opencl";
    return "";
}

std::string cache_key(const std::string& source, const std::string& options, const Device& d) {
    std::string meta = options + '\x1f' + d.name + '\x1f' + d.vendor + '\x1f' + d.driver + '\x1f' + d.device_version + '\x1f' +
                       d.platform_name + '\x1f' + d.platform_version + '\x1f' + EMBER_VERSION_STRING + '\x1f' +
                       std::to_string(sizeof(void*));
    uint64_t h1 = fnv1a(meta.data(), meta.size(), kFnvBasis);
    h1 = fnv1a(source.data(), source.size(), h1);
    uint64_t h2 = fnv1a(source.data(), source.size(), 0x84222325cbf29ce4ull ^ source.size());
    h2 = fnv1a(meta.data(), meta.size(), h2);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
    return buf;
}

bool cache_load(State& s, const std::string& dir, const std::string& key, std::vector<unsigned char>& out) {
    std::string path = dir + "/" + key + ".bin";
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    std::vector<unsigned char> all;
    unsigned char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) all.insert(all.end(), buf, buf + n);
    std::fclose(f);
    const size_t head = 8 + 32 + 8 + 8;
    bool ok = all.size() >= head && std::memcmp(all.data(), kMagic, 8) == 0 && std::memcmp(all.data() + 8, key.data(), 32) == 0;
    uint64_t size = 0, sum = 0;
    if (ok) {
        std::memcpy(&size, all.data() + 40, 8);
        std::memcpy(&sum, all.data() + 48, 8);
        ok = size == all.size() - head && size > 0 && fnv1a(all.data() + head, size, kFnvBasis) == sum;
    }
    if (!ok) {
        s.cache.corrupt++;
        log_msg(EMBER_LOG_WARN, "opencl: program cache file %s is corrupt; rebuilding it", path.c_str());
        std::remove(path.c_str());
        return false;
    }
    out.assign(all.begin() + head, all.end());
    utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // recently used: pruned last
    return true;
}

bool cache_store(State& s, const std::string& dir, const std::string& key, const std::vector<unsigned char>& data) {
    if (!mkdirs(dir)) {
        log_msg(EMBER_LOG_WARN, "opencl: cannot create cache directory %s: %s", dir.c_str(), std::strerror(errno));
        return false;
    }
    static std::atomic<unsigned> counter{0};
    char tmpname[64];
    std::snprintf(tmpname, sizeof tmpname, ".tmp.%ld.%u", (long)getpid(), counter.fetch_add(1));
    std::string path = dir + "/" + key + ".bin", tmp = path + tmpname;
    uint64_t size = data.size(), sum = fnv1a(data.data(), data.size(), kFnvBasis);
    FILE* f = std::fopen(tmp.c_str(), "wb");
    bool ok = f != nullptr;
    ok = ok && std::fwrite(kMagic, 1, 8, f) == 8 && std::fwrite(key.data(), 1, 32, f) == 32 && std::fwrite(&size, 8, 1, f) == 1 &&
         std::fwrite(&sum, 8, 1, f) == 1 && std::fwrite(data.data(), 1, data.size(), f) == data.size();
    if (f) ok = (std::fclose(f) == 0) && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        log_msg(EMBER_LOG_WARN, "opencl: cannot write program cache file %s: %s", path.c_str(), std::strerror(errno));
        std::remove(tmp.c_str());
        return false;
    }
    s.cache.writes++;
    prune(dir, path);
    return true;
}

ember_status_t ensure_program(State& s, Device& d, int prog) {
    Program& p = d.progs[prog];
    if (p.prog) return EMBER_OK;
    if (!p.error.empty()) return fail(EMBER_ERR_DEVICE, "%s", p.error.c_str());
    auto t0 = std::chrono::steady_clock::now();
    std::string source = program_source(prog, d.fp64_hw), options = program_options(d);
    std::string dir = s.get_cache_dir(), key = cache_key(source, options, d);
    cl_int err = CL_SUCCESS;
    if (!dir.empty()) {
        std::vector<unsigned char> bin;
        if (cache_load(s, dir, key, bin)) {
            const unsigned char* bp = bin.data();
            size_t bs = bin.size();
            cl_int bstatus = CL_SUCCESS;
            cl_program pr = clCreateProgramWithBinary(d.ctx, 1, &d.id, &bs, &bp, &bstatus, &err);
            if (err == CL_SUCCESS && bstatus == CL_SUCCESS) err = clBuildProgram(pr, 1, &d.id, options.c_str(), nullptr, nullptr);
            if (pr && err == CL_SUCCESS && bstatus == CL_SUCCESS) {
                p.prog = pr;
                s.cache.hits++;
                register_exit_teardown(1);
                log_msg(EMBER_LOG_DEBUG, "opencl: program %s for %s loaded from the disk cache in %.1f ms", program_name(prog),
                        d.name.c_str(), ms_since(t0));
                return EMBER_OK;
            }
            if (pr) clReleaseProgram(pr);
            s.cache.corrupt++;
            log_msg(EMBER_LOG_WARN, "opencl: the driver refused cached program %s/%s.bin (%s); rebuilding it", dir.c_str(), key.c_str(),
                    cl_error_name(err != CL_SUCCESS ? err : bstatus));
            std::remove((dir + "/" + key + ".bin").c_str());
        } else {
            s.cache.misses++;
        }
    }
    const char* src = source.c_str();
    size_t len = source.size();
    cl_program pr = clCreateProgramWithSource(d.ctx, 1, &src, &len, &err);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "clCreateProgramWithSource failed: %s", cl_error_name(err));
    err = clBuildProgram(pr, 1, &d.id, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        p.error = "building the OpenCL program for " + std::string(program_name(prog)) + " on '" + d.name + "' failed (" +
                  cl_error_name(err) + "): " + build_log(pr, d.id);
        clReleaseProgram(pr);
        log_msg(EMBER_LOG_ERROR, "opencl: %s", p.error.c_str());
        return fail(EMBER_ERR_DEVICE, "%s", p.error.c_str());
    }
    p.prog = pr;
    s.cache.builds++;
    register_exit_teardown(1);
    log_msg(EMBER_LOG_DEBUG, "opencl: program %s for %s built from source in %.1f ms", program_name(prog), d.name.c_str(),
            ms_since(t0));
    // The binary is fetched right away. On PoCL this compiles every kernel of the program
    // (seconds for a cold program), which later loads and first launches then skip.
    if (!dir.empty()) {
        size_t bs = 0;
        if (clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, nullptr) == CL_SUCCESS && bs > 0) {
            std::vector<unsigned char> bin(bs);
            unsigned char* bp = bin.data();
            if (clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr) == CL_SUCCESS) cache_store(s, dir, key, bin);
        }
        log_msg(EMBER_LOG_DEBUG, "opencl: program %s for %s built and cached in %.1f ms", program_name(prog), d.name.c_str(), ms_since(t0));
    }
    return EMBER_OK;
}

ember_status_t get_kernel(State& s, Device& d, int prog, const char* name, cl_kernel* out) {
    Program& p = d.progs[prog];
    if (!p.prog) {
        ember_status_t st = ensure_program(s, d, prog);
        if (st != EMBER_OK) return st;
    }
    auto it = p.kernels.find(name);
    if (it != p.kernels.end()) {
        *out = it->second;
        return EMBER_OK;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(p.prog, name, &err);
    if (err != CL_SUCCESS)
        return fail(EMBER_ERR_DEVICE, "kernel '%s' of program %s is missing on '%s': %s", name, program_name(prog), d.name.c_str(),
                    cl_error_name(err));
    p.kernels.emplace(name, k);
    *out = k;
    return EMBER_OK;
}

void release_programs(Device& d) {
    for (auto& f : d.fast) f.reset();
    for (Program& p : d.progs) {
        for (auto& [n, k] : p.kernels) clReleaseKernel(k);
        p.kernels.clear();
        if (p.prog) clReleaseProgram(p.prog);
        p.prog = nullptr;
        p.error.clear();
    }
}

}  // namespace ember_ocl
