// Status strings, the thread-local last error, and the log callback.
#include <cstdio>
#include <mutex>

#include "internal.hpp"

namespace ember {

namespace {
thread_local std::string t_message;
thread_local ember_status_t t_status = EMBER_OK;

std::mutex g_log_mutex;
ember_log_fn g_log_fn = nullptr;
void* g_log_data = nullptr;
ember_log_level_t g_log_min = EMBER_LOG_WARN;
thread_local HeldLogs* t_held_logs = nullptr;
}  // namespace

std::string vformat(const char* fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    if (n < 0) return fmt;
    std::string s((size_t)n, '\0');
    std::vsnprintf(s.data(), (size_t)n + 1, fmt, args);
    return s;
}

std::string format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::string s = vformat(fmt, args);
    va_end(args);
    return s;
}

void raise(ember_status_t status, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::string s = vformat(fmt, args);
    va_end(args);
    throw Error{status, std::move(s)};
}

void set_last_error(ember_status_t status, const std::string& message) {
    t_status = status;
    t_message = message;
}

void log_message(ember_log_level_t level, const std::string& message) {
    if (t_held_logs) {
        t_held_logs->hold(level, message);
        return;
    }
    std::lock_guard<std::mutex> lock(g_log_mutex);
    if (g_log_fn && level >= g_log_min) g_log_fn(level, message.c_str(), g_log_data);
}

HeldLogs::HeldLogs() : outer_(t_held_logs) { t_held_logs = this; }
HeldLogs::~HeldLogs() {
    t_held_logs = outer_;
    for (auto& [level, message] : held_) log_message(level, message);
}
void HeldLogs::hold(ember_log_level_t level, const std::string& message) { held_.emplace_back(level, message); }

}  // namespace ember

using namespace ember;

extern "C" {

EMBER_API const char* ember_status_string(ember_status_t status) {
    switch (status) {
        case EMBER_OK: return "success";
        case EMBER_ERR_INVALID_ARGUMENT: return "invalid argument";
        case EMBER_ERR_INDEX: return "index out of range";
        case EMBER_ERR_OVERFLOW: return "integer out of range for the dtype";
        case EMBER_ERR_SHAPE: return "shape mismatch";
        case EMBER_ERR_UNSUPPORTED_DTYPE: return "unsupported dtype";
        case EMBER_ERR_UNSUPPORTED: return "operation not supported by the backend";
        case EMBER_ERR_BACKEND_MISMATCH: return "tensors belong to different backends or devices";
        case EMBER_ERR_BACKEND_UNAVAILABLE: return "backend or device unavailable";
        case EMBER_ERR_OUT_OF_MEMORY: return "out of memory";
        case EMBER_ERR_DEVICE: return "device error";
        case EMBER_ERR_IO: return "input/output error";
        case EMBER_ERR_FORMAT: return "malformed data";
        case EMBER_ERR_PLUGIN: return "backend module failed to load";
        case EMBER_ERR_LINALG: return "linear algebra failure";
        case EMBER_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

EMBER_API const char* ember_last_error(void) { return t_message.c_str(); }
EMBER_API ember_status_t ember_last_status(void) { return t_status; }
EMBER_API void ember_clear_error(void) {
    t_status = EMBER_OK;
    t_message.clear();
}

EMBER_API void ember_set_log_callback(ember_log_fn fn, void* user_data, ember_log_level_t min_level) {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    g_log_fn = fn;
    g_log_data = user_data;
    g_log_min = min_level;
}

EMBER_API int ember_version(const char** text) {
    if (text) *text = EMBER_VERSION_STRING;
    return EMBER_VERSION_NUMBER;
}

}  // extern "C"
