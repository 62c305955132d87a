// Core data structures shared by src/core and src/ops. Never exposed through the ABI.
#pragma once

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ember/ember.h"
#include "ember/ember_backend.h"

namespace ember {

// ---------------------------------------------------------------- errors
// Internally failures are exceptions; every ABI entry point converts them to a status
// and the thread-local message (see guard()). RAII handles (TRef) make that leak-free.
struct Error {
    ember_status_t status;
    std::string message;
};
[[noreturn]] void raise(ember_status_t status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
std::string vformat(const char* fmt, va_list args);
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

void set_last_error(ember_status_t status, const std::string& message);
void log_message(ember_log_level_t level, const std::string& message);
// Holds this thread's log messages while it lives and passes them to the callback when it
// dies: the registry runs module inits under its mutex, and a callback that takes a lock
// (Python's GIL) or calls back into the registry must not run while the mutex is held.
class HeldLogs {
  public:
    HeldLogs();
    ~HeldLogs();
    HeldLogs(const HeldLogs&) = delete;
    HeldLogs& operator=(const HeldLogs&) = delete;
    void hold(ember_log_level_t level, const std::string& message);

  private:
    std::vector<std::pair<ember_log_level_t, std::string>> held_;
    HeldLogs* outer_;
};

template <class F>
ember_status_t guard(const char* function, F&& body) noexcept {
    try {
        body();
        return EMBER_OK;
    } catch (const Error& e) {
        set_last_error(e.status, std::string(function) + ": " + e.message);
        return e.status;
    } catch (const std::bad_alloc&) {
        set_last_error(EMBER_ERR_OUT_OF_MEMORY, std::string(function) + ": out of host memory");
        return EMBER_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        set_last_error(EMBER_ERR_INTERNAL, std::string(function) + ": internal error: " + e.what());
        return EMBER_ERR_INTERNAL;
    } catch (...) {
        set_last_error(EMBER_ERR_INTERNAL, std::string(function) + ": internal error");
        return EMBER_ERR_INTERNAL;
    }
}
// Defines a C entry point whose body runs under guard: errors come back as a status, with
// the function's name leading the thread's message.
#define ENTRY(fn, params, ...) \
    EMBER_API ember_status_t fn params { return ::ember::guard(#fn, [&] __VA_ARGS__); }

template <class T>
void require_arg(const T* p, const char* name) {
    if (!p) raise(EMBER_ERR_INVALID_ARGUMENT, "argument '%s' is NULL", name);
}

// ---------------------------------------------------------------- op ids
enum OpId : int {
#define EMBER_OP(name, sig, dtypes, kind, doc) OP_##name,
#include "../ops/optable.def"
#undef EMBER_OP
    OP_COUNT
};

// ---------------------------------------------------------------- backends
struct Slot {
    enum Binding { UNSUPPORTED = 0, NATIVE, COMPOSITE, REFERENCE, HOST } binding = UNSUPPORTED;
    ember_kernel_t kernel{nullptr, nullptr};
    bool widens_input = false;  // EMBER_KERNEL_WIDENS_INPUT: sum takes narrow integers, mean (u)int64, as they are
    bool tests_input = false;   // EMBER_KERNEL_TESTS_INPUT: all/any take x of any dtype as it is
};

struct Backend {
    std::string name;
    std::string path;    // module path, "(built in)" for the reference backend
    std::string reason;  // why unavailable
    bool available = false;
    bool initialised = false;  // init has run (registry.cpp: initialise), under the registry's mutex
    const ember_backend_iface_t* iface = nullptr;
    void* state = nullptr;
    void* dl_handle = nullptr;
    bool host_memory = false;
    std::once_flag bind_once;
    Slot slots[OP_COUNT];
};

const Slot* bound_slots(Backend* backend);  // binds once, thread-safe
Backend* find_backend(const char* name);    // nullptr if unknown
Backend* reference_backend();
std::vector<Backend*> all_backends();

// ---------------------------------------------------------------- storage and tensors
struct Storage {
    std::atomic<int64_t> refs{1};
    Backend* backend = nullptr;  // the allocator (may differ from the tensor's backend for shared host memory)
    int device = 0;
    void* buffer = nullptr;
    size_t nbytes = 0;
    bool external = false;
    ember_deleter_fn deleter = nullptr;
    void* deleter_data = nullptr;
    void* external_ptr = nullptr;
    // Caller memory: the bytes, from buffer, that the wrapping tensor reached (Ember knows no
    // more of the block), which views of it may reach; unknown past int64.
    bool external_extent_known = false;
    int64_t external_first_byte = 0, external_end_byte = 0;
    std::atomic<bool> read_only{false};  // ember_tensor_set_read_only: writes into it fail
};
void storage_release(Storage* s);
// The first and last element (from the storage's start, in elements of the dtype) that a
// geometry reaches; false for an empty one. Past int64: EMBER_ERR_INDEX.
bool element_reach(int64_t first, const int64_t* shape, const int64_t* strides, int ndim, int64_t& lo, int64_t& hi);

}  // namespace ember

struct ember_tensor {
    std::atomic<int64_t> refs{1};
    ember::Storage* storage = nullptr;
    ember::Backend* backend = nullptr;
    int device = 0;
    ember_dtype_t dtype = EMBER_FLOAT32;
    int ndim = 0;
    bool weak = false;
    // The value of a weak integer scalar from ember_scalar_i64: an op that would cast it to
    // a dtype that cannot hold it (uint8 + 300) fails or, comparing, widens instead of wrapping.
    bool int_value_known = false;
    int64_t offset = 0;  // elements
    int64_t size = 1;
    int64_t int_value = 0;
    int64_t shape[EMBER_MAX_DIMS];  // zero past ndim: a view hands out the whole arrays
    int64_t strides[EMBER_MAX_DIMS];
    ember_tensor() { zero_dims(); }

   private:
    // With `= {}` GCC cleared these 256 bytes with `rep stosq`, whose start-up alone took a
    // tenth of a 1-element add on Zen 3. Zero vectors it cannot see through (the empty asm)
    // keep them as sixteen plain 16-byte stores.
    void zero_dims() {
        typedef int64_t Pair __attribute__((vector_size(16)));
        for (int i = 0; i < EMBER_MAX_DIMS; i += 2) {
            Pair zero = {0, 0};
#if defined(__x86_64__) || defined(__i386__)
            __asm__("" : "+x"(zero));
#endif
            std::memcpy(shape + i, &zero, sizeof zero);
            std::memcpy(strides + i, &zero, sizeof zero);
        }
    }
};

namespace ember {
// handle_cache.cpp: tensor and storage objects come from (and go back to) a few kept per
// thread; new_tensor and delete_tensor move the count ember_live_tensor_count reports.
ember_tensor* new_tensor();
void delete_tensor(ember_tensor* t);
Storage* new_storage();
void delete_storage(Storage* s);
int64_t live_tensor_count();
}  // namespace ember

struct ember_ctx {
    std::atomic<int64_t> refs{1};
    ember::Backend* backend = nullptr;
    int device = 0;
    const ember::Slot* slots = nullptr;
    ember_selection_source_t source = EMBER_SOURCE_AUTO;
    std::vector<std::pair<ember::Backend*, int>> stack;
    ember_dtype_t default_float = EMBER_FLOAT32;
    ember_random_state_t random_state{0, 0};  // Philox {key, next counter block}
};

namespace ember {

// Owning reference to a tensor: the internal currency of ops.
class TRef {
   public:
    TRef() = default;
    explicit TRef(ember_tensor* t) : t_(t) {}  // adopts one reference
    static TRef borrow(const ember_tensor* t);
    TRef(const TRef& o);
    TRef(TRef&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
    TRef& operator=(TRef o) noexcept {
        std::swap(t_, o.t_);
        return *this;
    }
    ~TRef() {
        if (t_) ember_tensor_release(t_);  // most TRefs end empty (released to the caller, or never set)
    }
    ember_tensor* get() const { return t_; }
    ember_tensor* operator->() const { return t_; }
    ember_tensor& operator*() const { return *t_; }
    explicit operator bool() const { return t_ != nullptr; }
    ember_tensor* release() {
        ember_tensor* t = t_;
        t_ = nullptr;
        return t;
    }

   private:
    ember_tensor* t_ = nullptr;
};

using Shape = std::vector<int64_t>;

Shape shape_of(const ember_tensor* t);
int64_t numel(const int64_t* shape, int ndim);
inline int64_t numel(const Shape& s) { return numel(s.data(), (int)s.size()); }
void contiguous_strides(const int64_t* shape, int ndim, int64_t* strides);
bool is_contiguous(const ember_tensor* t);
std::string shape_str(const int64_t* shape, int ndim);
inline std::string shape_str(const ember_tensor* t) { return shape_str(t->shape, t->ndim); }
inline std::string shape_str(const Shape& s) { return shape_str(s.data(), (int)s.size()); }
int64_t normalize_axis(int64_t axis, int ndim, const char* what = "axis");
void check_ndim(int ndim);
void check_shape(const int64_t* shape, int ndim);

// New dense tensor on the context's backend/device; order: its axes from outermost to
// innermost in memory (NULL: C order).
TRef alloc_tensor(ember_ctx* ctx, ember_dtype_t dtype, const int64_t* shape, int ndim, const int* order = nullptr);
inline TRef alloc_tensor(ember_ctx* ctx, ember_dtype_t dtype, const Shape& shape) {
    return alloc_tensor(ctx, dtype, shape.data(), (int)shape.size());
}
// A view sharing t's storage with new geometry.
TRef make_view(const ember_tensor* t, const int64_t* shape, const int64_t* strides, int ndim, int64_t offset);
inline TRef make_view(const ember_tensor* t, const Shape& shape, const Shape& strides, int64_t offset) {
    return make_view(t, shape.data(), strides.data(), (int)shape.size(), offset);
}
ember_view_t view_of(const ember_tensor* t);

// ---------------------------------------------------------------- dtypes
enum class Kind { Bool, Int, Float, Complex };
Kind kind_of(ember_dtype_t d);
bool is_valid_dtype(int d);
bool is_signed_int(ember_dtype_t d);
bool is_unsigned_int(ember_dtype_t d);
bool is_integer(ember_dtype_t d);
// Whether integer dtype d holds v (true for the other kinds: a cast to them never wraps).
bool int_fits(int64_t v, ember_dtype_t d);
bool is_float(ember_dtype_t d);
bool is_complex(ember_dtype_t d);
ember_dtype_t real_dtype_of(ember_dtype_t d);     // complex64 -> float32
ember_dtype_t complex_dtype_of(ember_dtype_t d);  // float32 -> complex64
const char* dtype_name(ember_dtype_t d);
size_t dtype_size(ember_dtype_t d);
// Promotion of two operands; throws EMBER_ERR_UNSUPPORTED_DTYPE if none exists.
ember_dtype_t promote(ember_dtype_t a, bool a_weak, ember_dtype_t b, bool b_weak, ember_dtype_t default_float);
ember_dtype_t resolve_dtype_arg(ember_ctx* ctx, int dtype, ember_dtype_t fallback);

// ---------------------------------------------------------------- context checks
void check_ctx(const ember_ctx* ctx);
// Every tensor must live on the context's backend and device.
void check_same_backend(const ember_ctx* ctx, const ember_tensor* t, const char* name);
// Every entry point that writes into a caller's tensor calls this first.
void check_writable(const ember_tensor* t, const char* name);
// What an entry point taking one tensor x and returning one result checks first.
inline void check_x_entry(const ember_ctx* ctx, const ember_tensor* x, ember_tensor* const* out) {
    check_ctx(ctx);
    require_arg(out, "out");
    check_same_backend(ctx, x, "x");
}

// ---------------------------------------------------------------- backend services
extern const ember_host_api_t host_api;
void synchronize(ember_ctx* ctx);

}  // namespace ember
