// The backend registry: the built-in reference backend plus loadable modules, each bound
// to the op table once.
#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../ops/dispatch.hpp"
#include "internal.hpp"

extern "C" const ember_backend_iface_t* ember_reference_iface(void);

namespace ember {

namespace {

ember_status_t host_fail(ember_status_t status, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    set_last_error(status, vformat(fmt, args));
    va_end(args);
    return status;
}

void host_log(ember_log_level_t level, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    log_message(level, vformat(fmt, args));
    va_end(args);
}

struct Registry {
    std::mutex mutex;
    std::vector<std::unique_ptr<Backend>> backends;
    ~Registry() {
        for (auto it = backends.rbegin(); it != backends.rend(); ++it)
            if ((*it)->state && (*it)->iface && (*it)->iface->shutdown) (*it)->iface->shutdown((*it)->state);
    }
};

Registry& raw_registry() {
    static Registry r;
    return r;
}

// Modules may ask for reference kernels from their init, i.e. while the registry's mutex is
// held: read the reference entry directly (it is installed and initialised before any module).
int host_reference_kernel(const char* op, ember_kernel_t* out) {
    Registry& r = raw_registry();
    if (r.backends.empty() || !r.backends.front()->iface) return 0;
    Backend* ref = r.backends.front().get();
    return ref->iface->find_kernel(ref->state, op, out);
}


std::string name_from_path(const std::string& path) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    const std::string prefix = "ember-backend-";
    if (base.rfind(prefix, 0) == 0) base = base.substr(prefix.size());
    size_t dot = base.find('.');
    return dot == std::string::npos ? base : base.substr(0, dot);
}

Backend* add_failed(Registry& r, const std::string& path, const std::string& reason) {
    auto b = std::make_unique<Backend>();
    b->name = name_from_path(path);
    b->path = path;
    b->reason = reason;
    Backend* raw = b.get();
    r.backends.push_back(std::move(b));
    log_message(EMBER_LOG_WARN, "backend module " + path + " unavailable: " + reason);
    return raw;
}

Backend* find_locked(Registry& r, const std::string& name) {
    for (auto& b : r.backends)
        if (b->name == name && b->iface) return b.get();
    return nullptr;
}

void initialise(Backend& b);

// Records a loaded module in the registry without initialising it (see initialise); the
// caller holds the mutex. A name belongs to the first module found for it whose init
// succeeds: a second module of the same name initialises the first to find out. The same
// file found again (a directory both in EMBER_BACKEND_PATH and scanned, another spelling of
// its path) is not a second module: dlopen hands back the handle it already has, and the
// first copy stays uninitialised until its first use.
Backend* install(Registry& r, const ember_backend_iface_t* iface, const std::string& path, void* dl) {
    if (dl) {
        for (auto& existing : r.backends) {
            if (existing->dl_handle == dl) {
                dlclose(dl);  // drops the reference this load added
                log_message(EMBER_LOG_DEBUG, "backend module " + path + " already loaded from " + existing->path);
                return existing.get();
            }
        }
    }
    auto b = std::make_unique<Backend>();
    b->name = iface->name ? iface->name : name_from_path(path);
    b->path = path;
    b->iface = iface;
    b->dl_handle = dl;
    b->host_memory = (iface->flags & EMBER_BACKEND_HOST_MEMORY) != 0;
    if (Backend* existing = find_locked(r, b->name)) {
        initialise(*existing);
        if (existing->iface) {
            log_message(EMBER_LOG_INFO, "backend '" + b->name + "' from " + path + " ignored: already registered from " + existing->path);
            return existing;
        }
    }
    Backend* raw = b.get();
    r.backends.push_back(std::move(b));
    return raw;
}

// Runs a backend's init on its first use (a context on it, a lookup by name, a listing),
// not when its module loads: the opencl module's init enumerates OpenCL platforms, which
// made every process load PoCL and its LLVM, cpu-only ones too (28-35 ms and 75 MB more
// resident memory before the first op). The caller holds the mutex and a HeldLogs; the
// thread's last error survives.
void initialise(Backend& b) {
    if (b.initialised || !b.iface) return;
    b.initialised = true;
    const ember_status_t saved_status = ember_last_status();
    const std::string saved_message = ember_last_error();
    ember_clear_error();
    ember_status_t st = b.iface->init(&host_api, &b.state);
    if (st != EMBER_OK) {
        b.iface = nullptr;
        b.reason = std::string("initialisation failed: ") + ember_last_error();
    } else {
        b.available = b.iface->score(b.state) > 0 && b.iface->device_count(b.state) > 0;
        if (!b.available) {
            const char* why = b.iface->unavailable_reason ? b.iface->unavailable_reason(b.state) : nullptr;
            b.reason = why && *why ? why : "no usable device";
        }
    }
    set_last_error(saved_status, saved_message);
}

Backend* load_module(Registry& r, const std::string& path) {
    void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char* e = dlerror();
        return add_failed(r, path, std::string("dlopen failed: ") + (e ? e : "unknown error"));
    }
    auto entry = reinterpret_cast<ember_backend_module_fn>(dlsym(dl, EMBER_BACKEND_MODULE_SYMBOL));
    if (!entry) {
        dlclose(dl);
        return add_failed(r, path, "missing entry symbol '" EMBER_BACKEND_MODULE_SYMBOL "'");
    }
    const ember_backend_iface_t* iface = entry(EMBER_BACKEND_API_VERSION);
    if (!iface) {
        dlclose(dl);
        return add_failed(r, path, "module returned no function table");
    }
    if (uint32_t version = iface->api_version; version != EMBER_BACKEND_API_VERSION) {
        dlclose(dl);
        return add_failed(r, path, format("backend API version %u, but this libember needs %u", version, EMBER_BACKEND_API_VERSION));
    }
    return install(r, iface, path, dl);
}

void scan_dir(Registry& r, const std::string& dir) {
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> files;
    while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n.rfind("ember-backend-", 0) == 0 && n.size() > 3 && n.substr(n.size() - 3) == ".so") files.push_back(dir + "/" + n);
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    for (auto& f : files) load_module(r, f);
}

std::string own_plugin_dir() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&ember_backend_count), &info) || !info.dli_fname) return "";
    std::string lib = info.dli_fname;
    size_t slash = lib.find_last_of('/');
    return (slash == std::string::npos ? std::string(".") : lib.substr(0, slash)) + "/ember/backends";
}

Registry& registry() {
    static std::once_flag once;
    static std::atomic<bool> built{false};
    Registry& r = raw_registry();
    if (built.load(std::memory_order_acquire)) return r;
    HeldLogs held;  // modules that failed to load are logged once call_once has returned
    std::call_once(once, [&] {
        std::lock_guard<std::mutex> lock(r.mutex);
        initialise(*install(r, ember_reference_iface(), "(built in)", nullptr));
        if (const char* env = std::getenv("EMBER_BACKEND_PATH")) {
            std::string s = env;
            size_t start = 0;
            while (start <= s.size()) {
                size_t end = s.find(':', start);
                std::string item = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
                if (!item.empty()) {
                    if (item.size() > 3 && item.substr(item.size() - 3) == ".so")
                        load_module(r, item);
                    else
                        scan_dir(r, item);
                }
                if (end == std::string::npos) break;
                start = end + 1;
            }
        }
        // EMBER_PLUGIN_SCAN=0 limits loading to EMBER_BACKEND_PATH (tests under valgrind).
        const char* scan = std::getenv("EMBER_PLUGIN_SCAN");
        if (!scan || std::strcmp(scan, "0") != 0) {
            std::string own = own_plugin_dir();
            if (!own.empty()) scan_dir(r, own);
#ifdef EMBER_PLUGIN_DIR
            if (own != EMBER_PLUGIN_DIR) scan_dir(r, EMBER_PLUGIN_DIR);
#endif
        }
    });
    built.store(true, std::memory_order_release);
    return r;
}

void bind(Backend* b) {
    Backend* ref = reference_backend();
    for (int op = 0; op < OP_COUNT; ++op) {
        const OpInfo& info = op_info((OpId)op);
        Slot& s = b->slots[op];
        // A CUSTOM composite without a kernel convention would never call a kernel of its
        // name: bind the composite and report it as such.
        bool overridable = !info.composite || std::strcmp(info.signature, "custom") != 0 || info.custom_kernel;
        const int flags = overridable ? b->iface->find_kernel(b->state, info.name, &s.kernel) : 0;
        int found = flags & (EMBER_KERNEL_NATIVE | EMBER_KERNEL_HOST_COPY);
        // A composite runs on the backend's own ops; a host copy would send its operands
        // to host memory and back.
        if (found == EMBER_KERNEL_HOST_COPY && info.composite) found = 0;
        if (found) {
            s.binding = found == EMBER_KERNEL_HOST_COPY ? Slot::HOST : Slot::NATIVE;
            s.widens_input = (flags & EMBER_KERNEL_WIDENS_INPUT) && (op == OP_sum || op == OP_mean);
            s.tests_input = (flags & EMBER_KERNEL_TESTS_INPUT) && (op == OP_all || op == OP_any);
        } else if (info.composite) {
            s.binding = Slot::COMPOSITE;
        } else if (b->host_memory && b != ref && ref->iface->find_kernel(ref->state, info.name, &s.kernel)) {
            s.binding = Slot::REFERENCE;
        } else {
            s.binding = Slot::UNSUPPORTED;
        }
    }
}

}  // namespace

const ember_host_api_t host_api = {EMBER_BACKEND_API_VERSION, host_fail, host_log, host_reference_kernel};

const Slot* bound_slots(Backend* b) {
    std::call_once(b->bind_once, [b] { bind(b); });
    return b->slots;
}

Backend* reference_backend() { return registry().backends.front().get(); }

// Each lookup holds the log messages of the inits it runs until its mutex is released.
Backend* find_backend(const char* name) {
    Registry& r = registry();
    HeldLogs held;
    std::lock_guard<std::mutex> lock(r.mutex);
    Backend* b = find_locked(r, name);
    if (b) initialise(*b);
    return b && b->iface ? b : nullptr;
}

std::vector<Backend*> all_backends() {
    Registry& r = registry();
    HeldLogs held;
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<Backend*> v;
    for (auto& b : r.backends) {
        initialise(*b);
        v.push_back(b.get());
    }
    return v;
}

}  // namespace ember

using namespace ember;

namespace {
Backend* require_backend(const char* name) {
    require_arg(name, "backend");
    Backend* b = find_backend(name);
    if (!b) raise(EMBER_ERR_BACKEND_UNAVAILABLE, "no backend named '%s' is registered", name);
    return b;
}
}  // namespace

extern "C" {

EMBER_API int ember_backend_count(void) {
    try {
        return (int)all_backends().size();
    } catch (...) {
        return 0;
    }
}

EMBER_API ember_status_t ember_backend_get(int index, const char** name, int* available, const char** path, const char** reason) {
    return guard("ember_backend_get", [&] {
        auto v = all_backends();
        if (index < 0 || index >= (int)v.size()) raise(EMBER_ERR_INDEX, "backend index %d is outside 0..%d", index, (int)v.size() - 1);
        Backend* b = v[index];
        if (name) *name = b->name.c_str();
        if (available) *available = b->available;
        if (path) *path = b->path.c_str();
        if (reason) *reason = b->reason.c_str();
    });
}

EMBER_API ember_status_t ember_backend_score(const char* name, int* score) {
    return guard("ember_backend_score", [&] {
        Backend* b = require_backend(name);
        require_arg(score, "score");
        *score = b->available ? b->iface->score(b->state) : 0;
    });
}

EMBER_API ember_status_t ember_backend_device_count(const char* name, int* count) {
    return guard("ember_backend_device_count", [&] {
        Backend* b = require_backend(name);
        require_arg(count, "count");
        *count = b->iface ? b->iface->device_count(b->state) : 0;
    });
}

EMBER_API ember_status_t ember_backend_device_info(const char* name, int device, ember_device_info_t* info) {
    return guard("ember_backend_device_info", [&] {
        Backend* b = require_backend(name);
        require_arg(info, "info");
        int n = b->iface ? b->iface->device_count(b->state) : 0;
        if (device < 0 || device >= n) raise(EMBER_ERR_BACKEND_UNAVAILABLE, "backend '%s' has no device %d (it has %d)", name, device, n);
        ember_device_info_t tmp{};
        ember_status_t st = b->iface->device_info(b->state, device, &tmp);
        if (st != EMBER_OK) raise(st, "%s", ember_last_error());
        *info = tmp;
    });
}

EMBER_API ember_status_t ember_backend_load(const char* path) {
    return guard("ember_backend_load", [&] {
        require_arg(path, "path");
        Registry& r = registry();
        HeldLogs held;
        std::lock_guard<std::mutex> lock(r.mutex);
        Backend* b = load_module(r, path);
        initialise(*b);
        if (!b->iface) raise(EMBER_ERR_PLUGIN, "%s: %s", path, b->reason.c_str());
    });
}

EMBER_API int ember_op_count(void) { return OP_COUNT; }

EMBER_API ember_status_t ember_op_info(int index, const char** name, const char** kind, const char** signature, const char** doc) {
    return guard("ember_op_info", [&] {
        if (index < 0 || index >= OP_COUNT) raise(EMBER_ERR_INDEX, "op index %d is outside 0..%d", index, OP_COUNT - 1);
        const OpInfo& i = op_info((OpId)index);
        if (name) *name = i.name;
        if (kind) *kind = i.composite ? "composite" : "primitive";
        if (signature) *signature = i.signature;
        if (doc) *doc = i.doc;
    });
}

EMBER_API ember_status_t ember_op_binding(const char* backend, const char* op, const char** binding) {
    return guard("ember_op_binding", [&] {
        Backend* b = require_backend(backend);
        require_arg(op, "op");
        require_arg(binding, "binding");
        if (!b->iface) raise(EMBER_ERR_BACKEND_UNAVAILABLE, "backend '%s' did not load: %s", backend, b->reason.c_str());
        const Slot* slots = bound_slots(b);
        const OpId id = find_op(op);
        if (id == OP_COUNT) raise(EMBER_ERR_INVALID_ARGUMENT, "no op named '%s'", op);
        static const char* names[] = {"unsupported", "native", "composite", "reference", "host"};
        *binding = names[slots[id].binding];
    });
}

}  // extern "C"
