// Contexts: the active backend and device, selection (call / env / config / auto),
// scoped switching, the user config file.
#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "internal.hpp"

namespace ember {

namespace {

std::string config_path() {
    if (const char* p = std::getenv("EMBER_CONFIG")) return p;
    const char* home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/.ember/config.json";
}

int device_count(Backend* b) { return b->iface ? b->iface->device_count(b->state) : 0; }

Backend* usable(const char* name, int device, std::string& why) {
    Backend* b = find_backend(name);
    if (!b) {
        why = format("no backend named '%s' is registered", name);
        return nullptr;
    }
    if (!b->available) {
        why = format("backend '%s' is unavailable: %s", name, b->reason.c_str());
        return nullptr;
    }
    if (device < 0 || device >= device_count(b)) {
        why = format("backend '%s' has no device %d (it has %d)", name, device, device_count(b));
        return nullptr;
    }
    return b;
}

// Reads {"backend": "...", "device": n}; returns false (and logs) if absent or malformed.
bool read_config(std::string& backend, int& device) {
    std::string path = config_path();
    std::ifstream f(path);
    if (!f) return false;
    std::stringstream ss;
    ss << f.rdbuf();
    cJSON* root = cJSON_Parse(ss.str().c_str());
    bool ok = false;
    if (!root || !cJSON_IsObject(root)) {
        log_message(EMBER_LOG_WARN, "config file " + path + " is not a JSON object; ignored");
    } else {
        cJSON* b = cJSON_GetObjectItemCaseSensitive(root, "backend");
        cJSON* d = cJSON_GetObjectItemCaseSensitive(root, "device");
        if (cJSON_IsString(b) && b->valuestring) {
            backend = b->valuestring;
            device = cJSON_IsNumber(d) ? d->valueint : 0;
            ok = true;
        } else {
            log_message(EMBER_LOG_WARN, "config file " + path + " has no string \"backend\"; ignored");
        }
    }
    cJSON_Delete(root);
    return ok;
}

void write_config(const std::string& backend, int device) {
    std::string path = config_path();
    size_t slash = path.find_last_of('/');
    if (slash != std::string::npos) mkdir(path.substr(0, slash).c_str(), 0755);
    cJSON* root = nullptr;
    {
        std::ifstream f(path);
        if (f) {
            std::stringstream ss;
            ss << f.rdbuf();
            root = cJSON_Parse(ss.str().c_str());
            if (root && !cJSON_IsObject(root)) {
                cJSON_Delete(root);
                root = nullptr;
            }
        }
    }
    if (!root) root = cJSON_CreateObject();
    cJSON_DeleteItemFromObjectCaseSensitive(root, "backend");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "device");
    cJSON_AddStringToObject(root, "backend", backend.c_str());
    cJSON_AddNumberToObject(root, "device", device);
    char* text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) raise(EMBER_ERR_OUT_OF_MEMORY, "could not render the config file");
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    FILE* f = std::fopen(tmp.c_str(), "w");
    bool ok = f && std::fputs(text, f) >= 0;
    if (f) ok = (std::fclose(f) == 0) && ok;
    cJSON_free(text);
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        raise(EMBER_ERR_IO, "could not write config file %s: %s", path.c_str(), std::strerror(errno));
    }
}

void activate(ember_ctx* ctx, Backend* b, int device) {
    ctx->slots = bound_slots(b);
    ctx->backend = b;
    ctx->device = device;
}

void select_default(ember_ctx* ctx) {
    std::string why;
    if (const char* env = std::getenv("EMBER_BACKEND")) {
        int device = 0;
        if (const char* d = std::getenv("EMBER_DEVICE")) device = std::atoi(d);
        if (Backend* b = usable(env, device, why)) {
            activate(ctx, b, device);
            ctx->source = EMBER_SOURCE_ENV;
            return;
        }
        log_message(EMBER_LOG_WARN, "EMBER_BACKEND ignored: " + why);
    }
    std::string name;
    int device = 0;
    if (read_config(name, device)) {
        if (Backend* b = usable(name.c_str(), device, why)) {
            activate(ctx, b, device);
            ctx->source = EMBER_SOURCE_CONFIG;
            return;
        }
        log_message(EMBER_LOG_WARN, "config file " + config_path() + " ignored: " + why);
    }
    Backend* best = nullptr;
    int best_score = 0;
    for (Backend* b : all_backends()) {
        if (!b->available) continue;
        int s = b->iface->score(b->state);
        if (s > best_score) {
            best = b;
            best_score = s;
        }
    }
    if (!best) best = reference_backend();
    activate(ctx, best, 0);
    ctx->source = EMBER_SOURCE_AUTO;
}

Backend* require_usable(const char* name, int& device) {
    require_arg(name, "backend");
    Backend* b = find_backend(name);
    if (b && device < 0) device = 0;
    std::string why;
    Backend* u = usable(name, device, why);
    if (!u) raise(EMBER_ERR_BACKEND_UNAVAILABLE, "%s", why.c_str());
    return u;
}

}  // namespace

void synchronize(ember_ctx* ctx) {
    Backend* b = ctx->backend;
    if (!b->iface->synchronize) return;
    ember_status_t st = b->iface->synchronize(b->state, ctx->device);
    if (st != EMBER_OK) raise(st, "%s", ember_last_error());
}

}  // namespace ember

using namespace ember;

extern "C" {

EMBER_API ember_status_t ember_ctx_create(ember_ctx_t** out) {
    return guard("ember_ctx_create", [&] {
        require_arg(out, "out");
        auto ctx = std::make_unique<ember_ctx>();
        select_default(ctx.get());
        *out = ctx.release();
    });
}

EMBER_API ember_status_t ember_ctx_create_on(const char* backend, int device, ember_ctx_t** out) {
    return guard("ember_ctx_create_on", [&] {
        require_arg(out, "out");
        Backend* b = require_usable(backend, device);
        auto ctx = std::make_unique<ember_ctx>();
        activate(ctx.get(), b, device);
        ctx->source = EMBER_SOURCE_CALL;
        *out = ctx.release();
    });
}

EMBER_API void ember_ctx_retain(ember_ctx_t* ctx) {
    if (ctx) ctx->refs.fetch_add(1, std::memory_order_relaxed);
}

EMBER_API void ember_ctx_release(ember_ctx_t* ctx) {
    if (ctx && ctx->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete ctx;
}

EMBER_API ember_status_t ember_default_ctx(ember_ctx_t** out) {
    return guard("ember_default_ctx", [&] {
        require_arg(out, "out");
        static ember_ctx* ctx = [] {
            auto* c = new ember_ctx();
            select_default(c);
            return c;
        }();
        *out = ctx;
    });
}

EMBER_API ember_status_t ember_ctx_set_backend(ember_ctx_t* ctx, const char* backend, int device, unsigned flags) {
    return guard("ember_ctx_set_backend", [&] {
        check_ctx(ctx);
        if (flags & ~EMBER_PERSIST) raise(EMBER_ERR_INVALID_ARGUMENT, "unknown flags 0x%x", flags);
        Backend* b = require_usable(backend, device);
        if (flags & EMBER_PERSIST) write_config(b->name, device);
        activate(ctx, b, device);
        ctx->source = EMBER_SOURCE_CALL;
    });
}

EMBER_API ember_status_t ember_ctx_get_backend(const ember_ctx_t* ctx, const char** backend, int* device) {
    return guard("ember_ctx_get_backend", [&] {
        check_ctx(ctx);
        if (backend) *backend = ctx->backend->name.c_str();
        if (device) *device = ctx->device;
    });
}

EMBER_API ember_status_t ember_ctx_selection_source(const ember_ctx_t* ctx, ember_selection_source_t* source) {
    return guard("ember_ctx_selection_source", [&] {
        check_ctx(ctx);
        require_arg(source, "source");
        *source = ctx->source;
    });
}

EMBER_API ember_status_t ember_ctx_push_backend(ember_ctx_t* ctx, const char* backend, int device) {
    return guard("ember_ctx_push_backend", [&] {
        check_ctx(ctx);
        Backend* b = require_usable(backend, device);
        ctx->stack.emplace_back(ctx->backend, ctx->device);
        activate(ctx, b, device);
    });
}

EMBER_API ember_status_t ember_ctx_pop_backend(ember_ctx_t* ctx) {
    return guard("ember_ctx_pop_backend", [&] {
        check_ctx(ctx);
        if (ctx->stack.empty()) raise(EMBER_ERR_INVALID_ARGUMENT, "no pushed backend to pop");
        auto [b, d] = ctx->stack.back();
        ctx->stack.pop_back();
        activate(ctx, b, d);
    });
}

EMBER_API ember_status_t ember_ctx_set_default_float(ember_ctx_t* ctx, ember_dtype_t dtype) {
    return guard("ember_ctx_set_default_float", [&] {
        check_ctx(ctx);
        if (!is_valid_dtype(dtype) || !is_float(dtype)) raise(EMBER_ERR_UNSUPPORTED_DTYPE, "default float dtype must be a floating dtype, got %s", dtype_name(dtype));
        ctx->default_float = dtype;
    });
}

EMBER_API ember_status_t ember_ctx_get_default_float(const ember_ctx_t* ctx, ember_dtype_t* dtype) {
    return guard("ember_ctx_get_default_float", [&] {
        check_ctx(ctx);
        require_arg(dtype, "dtype");
        *dtype = ctx->default_float;
    });
}

EMBER_API ember_status_t ember_ctx_device_count(const ember_ctx_t* ctx, int* count) {
    return guard("ember_ctx_device_count", [&] {
        check_ctx(ctx);
        require_arg(count, "count");
        *count = device_count(ctx->backend);
    });
}

EMBER_API ember_status_t ember_ctx_device_info(const ember_ctx_t* ctx, int device, ember_device_info_t* info) {
    return guard("ember_ctx_device_info", [&] {
        check_ctx(ctx);
        require_arg(info, "info");
        if (device < 0) device = ctx->device;
        if (device >= device_count(ctx->backend)) raise(EMBER_ERR_BACKEND_UNAVAILABLE, "backend '%s' has no device %d", ctx->backend->name.c_str(), device);
        ember_device_info_t tmp{};
        ember_status_t st = ctx->backend->iface->device_info(ctx->backend->state, device, &tmp);
        if (st != EMBER_OK) raise(st, "%s", ember_last_error());
        *info = tmp;
    });
}

EMBER_API ember_status_t ember_ctx_memory_info(const ember_ctx_t* ctx, ember_memory_info_t* info) {
    return guard("ember_ctx_memory_info", [&] {
        check_ctx(ctx);
        require_arg(info, "info");
        ember_memory_info_t tmp{};
        if (ctx->backend->iface->memory_info) {
            ember_status_t st = ctx->backend->iface->memory_info(ctx->backend->state, ctx->device, &tmp);
            if (st != EMBER_OK) raise(st, "%s", ember_last_error());
        }
        *info = tmp;
    });
}

EMBER_API ember_status_t ember_synchronize(ember_ctx_t* ctx) {
    return guard("ember_synchronize", [&] {
        check_ctx(ctx);
        synchronize(ctx);
    });
}

}  // extern "C"
