// Tensor handles: storage, geometry, creation from host memory, reading back.
#include <cstring>
#include <limits>
#include <type_traits>

#include "../ops/dispatch.hpp"
#include "internal.hpp"

namespace ember {

namespace {
// The last owner skips the locked decrement: with one reference left no other thread can
// hold the object, so nobody can retain it concurrently. A locked instruction costs tens
// of nanoseconds on a busy store buffer, a large share of a 1-element op.
bool drop_last_ref(std::atomic<int64_t>& refs) {
    return refs.load(std::memory_order_acquire) == 1 || refs.fetch_sub(1, std::memory_order_acq_rel) == 1;
}
}  // namespace

void storage_release(Storage* s) {
    if (!s || !drop_last_ref(s->refs)) return;
    if (s->external) {
        if (s->deleter) s->deleter(s->external_ptr, s->deleter_data);
    } else if (s->buffer) {
        s->backend->iface->free(s->backend->state, s->device, s->buffer);
    }
    delete_storage(s);
}

TRef TRef::borrow(const ember_tensor* t) {
    auto* m = const_cast<ember_tensor*>(t);
    if (m) m->refs.fetch_add(1, std::memory_order_relaxed);
    return TRef(m);
}
TRef::TRef(const TRef& o) : t_(o.t_) {
    if (t_) t_->refs.fetch_add(1, std::memory_order_relaxed);
}

Shape shape_of(const ember_tensor* t) { return Shape(t->shape, t->shape + t->ndim); }

int64_t numel(const int64_t* shape, int ndim) {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= shape[i];
    return n;
}

void contiguous_strides(const int64_t* shape, int ndim, int64_t* strides) {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; --i) {
        strides[i] = s;
        s *= shape[i] > 0 ? shape[i] : 1;
    }
}

bool is_contiguous(const ember_tensor* t) {
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; --i) {
        if (t->shape[i] != 1 && t->strides[i] != expect) return t->size == 0;
        expect *= t->shape[i];
    }
    return true;
}

std::string shape_str(const int64_t* shape, int ndim) {
    std::string s = "(";
    for (int i = 0; i < ndim; ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (ndim == 1) s += ",";
    return s + ")";
}

int64_t normalize_axis(int64_t axis, int ndim, const char* what) {
    int64_t a = axis < 0 ? axis + ndim : axis;
    if (a < 0 || a >= ndim) raise(EMBER_ERR_INDEX, "%s %lld is out of range for a tensor with %d dimensions", what, (long long)axis, ndim);
    return a;
}

void check_ndim(int ndim) {
    if (ndim < 0 || ndim > EMBER_MAX_DIMS) raise(EMBER_ERR_INVALID_ARGUMENT, "ndim %d is outside 0..%d", ndim, EMBER_MAX_DIMS);
}

void check_shape(const int64_t* shape, int ndim) {
    check_ndim(ndim);
    if (ndim > 0 && !shape) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'shape' is NULL");
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] < 0) raise(EMBER_ERR_SHAPE, "negative dimension %lld in shape %s", (long long)shape[i], shape_str(shape, ndim).c_str());
        if (shape[i] && n > std::numeric_limits<int64_t>::max() / 16 / shape[i])
            raise(EMBER_ERR_OUT_OF_MEMORY, "shape %s is too large", shape_str(shape, ndim).c_str());
        n *= shape[i];
    }
}

static void set_geometry(ember_tensor* t, const int64_t* shape, const int64_t* strides, int ndim) {
    t->ndim = ndim;
    t->size = 1;
    for (int i = 0; i < ndim; ++i) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
        t->size *= shape[i];
    }
}

TRef alloc_tensor(ember_ctx* ctx, ember_dtype_t dtype, const int64_t* shape, int ndim, const int* order) {
    check_shape(shape, ndim);
    int64_t strides[EMBER_MAX_DIMS];
    if (order) {
        int64_t s = 1;
        for (int k = ndim - 1; k >= 0; --k) {
            strides[order[k]] = s;
            s *= shape[order[k]] > 0 ? shape[order[k]] : 1;
        }
    } else {
        contiguous_strides(shape, ndim, strides);
    }
    size_t nbytes = (size_t)numel(shape, ndim) * dtype_size(dtype);
    Storage* s = new_storage();
    s->backend = ctx->backend;
    s->device = ctx->device;
    s->nbytes = nbytes;
    ember_status_t st = ctx->backend->iface->alloc(ctx->backend->state, ctx->device, nbytes, &s->buffer);
    if (st != EMBER_OK) {
        delete_storage(s);
        raise(st == EMBER_ERR_OUT_OF_MEMORY ? st : EMBER_ERR_DEVICE, "allocating %zu bytes on backend '%s' failed: %s", nbytes,
              ctx->backend->name.c_str(), ember_last_error());
    }
    TRef t(new_tensor());
    t->storage = s;
    t->backend = ctx->backend;
    t->device = ctx->device;
    t->dtype = dtype;
    set_geometry(t.get(), shape, strides, ndim);
    return t;
}

TRef make_view(const ember_tensor* src, const int64_t* shape, const int64_t* strides, int ndim, int64_t offset) {
    TRef t(new_tensor());
    t->storage = src->storage;
    src->storage->refs.fetch_add(1, std::memory_order_relaxed);
    t->backend = src->backend;
    t->device = src->device;
    t->dtype = src->dtype;
    t->weak = src->weak;
    t->offset = offset;
    set_geometry(t.get(), shape, strides, ndim);
    return t;
}

ember_view_t view_of(const ember_tensor* t) {
    return ember_view_t{t->storage->buffer, t->offset, (int32_t)t->dtype, (int32_t)t->ndim, t->shape, t->strides};
}

void check_ctx(const ember_ctx* ctx) {
    if (!ctx) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'ctx' is NULL");
}

void check_writable(const ember_tensor* t, const char* name) {
    if (t && t->storage->read_only.load(std::memory_order_relaxed))
        raise(EMBER_ERR_INVALID_ARGUMENT, "tensor '%s' is read-only (its memory was marked with ember_tensor_set_read_only)", name);
}

void check_same_backend(const ember_ctx* ctx, const ember_tensor* t, const char* name) {
    if (!t) raise(EMBER_ERR_INVALID_ARGUMENT, "argument '%s' is NULL", name);
    if (t->backend != ctx->backend || t->device != ctx->device)
        raise(EMBER_ERR_BACKEND_MISMATCH, "tensor '%s' lives on %s:%d but the context is on %s:%d; move it with ember_tensor_to", name,
              t->backend->name.c_str(), t->device, ctx->backend->name.c_str(), ctx->device);
}

namespace {

void host_write(ember_tensor* t, const void* src, size_t nbytes) {
    if (nbytes == 0) return;
    std::vector<uint8_t> normalised;
    if (t->dtype == EMBER_BOOL) {
        // Kernels read bool storage as C++ bool: any non-zero byte means true (as NumPy).
        const auto* bytes = static_cast<const uint8_t*>(src);
        normalised.assign(bytes, bytes + nbytes);
        for (auto& b : normalised) b = b != 0;
        src = normalised.data();
    }
    Backend* b = t->storage->backend;
    ember_status_t st = b->iface->write(b->state, t->storage->device, t->storage->buffer,
                                        (size_t)t->offset * dtype_size(t->dtype), src, nbytes);
    if (st != EMBER_OK) raise(st, "writing to backend '%s' failed: %s", b->name.c_str(), ember_last_error());
}

TRef wrap_external(ember_ctx* ctx, void* data, ember_dtype_t dtype, const int64_t* shape, const int64_t* strides, int ndim,
                   ember_deleter_fn deleter, void* user_data) {
    check_ctx(ctx);
    if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
    check_shape(shape, ndim);
    int64_t size = numel(Shape(shape, shape + ndim));
    if (!data && size > 0) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'data' is NULL");
    if (!ctx->backend->host_memory)
        raise(EMBER_ERR_UNSUPPORTED, "backend '%s' keeps tensors in device memory and cannot wrap host memory; use ember_tensor_from_data",
              ctx->backend->name.c_str());
    int64_t st[EMBER_MAX_DIMS];
    if (strides) {
        for (int i = 0; i < ndim; ++i) st[i] = strides[i];
    } else {
        contiguous_strides(shape, ndim, st);
    }
    // Before the storage exists: a failed adopt must leave the memory with the caller.
    int64_t lo = 0, hi = -1, first_byte = 0, end_byte = 0;
    if (!element_reach(0, shape, st, ndim, lo, hi)) lo = 0, hi = -1;  // past int64: EMBER_ERR_INDEX
    const int64_t es = (int64_t)dtype_size(dtype);
    const bool extent_known = !__builtin_mul_overflow(lo, es, &first_byte) && !__builtin_mul_overflow(hi + 1, es, &end_byte);
    Storage* s = new_storage();
    s->backend = ctx->backend;
    s->device = ctx->device;
    s->buffer = data;
    s->external = true;
    s->external_ptr = data;
    s->deleter = deleter;
    s->deleter_data = user_data;
    s->external_extent_known = extent_known;
    s->external_first_byte = first_byte;
    s->external_end_byte = end_byte;
    TRef t(new_tensor());
    t->storage = s;
    t->backend = ctx->backend;
    t->device = ctx->device;
    t->dtype = dtype;
    set_geometry(t.get(), shape, st, ndim);
    return t;
}

TRef weak_scalar(ember_ctx* ctx, ember_dtype_t dtype, const void* value) {
    check_ctx(ctx);
    TRef t = alloc_tensor(ctx, dtype, {});
    host_write(t.get(), value, dtype_size(dtype));
    t->weak = true;
    return t;
}

}  // namespace

void read_contiguous(const ember_tensor* t, void* dst, size_t nbytes) {
    size_t need = (size_t)t->size * dtype_size(t->dtype);
    if (nbytes < need) raise(EMBER_ERR_INVALID_ARGUMENT, "destination holds %zu bytes but the tensor needs %zu", nbytes, need);
    if (need == 0) return;
    TRef src = TRef::borrow(t);
    if (!is_contiguous(t)) {
        ember_ctx tmp;
        tmp.backend = t->backend;
        tmp.device = t->device;
        tmp.slots = bound_slots(t->backend);
        src = op_copy(&tmp, t);
    }
    Backend* b = src->storage->backend;
    ember_status_t st = b->iface->read(b->state, src->storage->device, src->storage->buffer,
                                       (size_t)src->offset * dtype_size(src->dtype), dst, need);
    if (st != EMBER_OK) raise(st, "reading from backend '%s' failed: %s", b->name.c_str(), ember_last_error());
}

}  // namespace ember

using namespace ember;

extern "C" {

EMBER_API void ember_tensor_retain(ember_tensor_t* t) {
    if (t) t->refs.fetch_add(1, std::memory_order_relaxed);
}

EMBER_API void ember_tensor_release(ember_tensor_t* t) {
    if (!t || !drop_last_ref(t->refs)) return;
    storage_release(t->storage);
    delete_tensor(t);
}

EMBER_API int64_t ember_live_tensor_count(void) { return live_tensor_count(); }

EMBER_API ember_status_t ember_tensor_from_data(ember_ctx_t* ctx, const void* data, ember_dtype_t dtype, const int64_t* shape, int ndim,
                                                ember_tensor_t** out) {
    return guard("ember_tensor_from_data", [&] {
        check_ctx(ctx);
        require_arg(out, "out");
        if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
        check_shape(shape, ndim);
        TRef t = alloc_tensor(ctx, dtype, Shape(shape, shape + ndim));
        if (t->size > 0 && !data) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'data' is NULL");
        host_write(t.get(), data, (size_t)t->size * dtype_size(dtype));
        *out = t.release();
    });
}

EMBER_API ember_status_t ember_tensor_wrap(ember_ctx_t* ctx, void* data, ember_dtype_t dtype, const int64_t* shape, const int64_t* strides,
                                           int ndim, ember_tensor_t** out) {
    return guard("ember_tensor_wrap", [&] {
        require_arg(out, "out");
        *out = wrap_external(ctx, data, dtype, shape, strides, ndim, nullptr, nullptr).release();
    });
}

EMBER_API ember_status_t ember_tensor_adopt(ember_ctx_t* ctx, void* data, ember_dtype_t dtype, const int64_t* shape, const int64_t* strides,
                                            int ndim, ember_deleter_fn deleter, void* user_data, ember_tensor_t** out) {
    return guard("ember_tensor_adopt", [&] {
        require_arg(out, "out");
        if (!deleter) raise(EMBER_ERR_INVALID_ARGUMENT, "argument 'deleter' is NULL (use ember_tensor_wrap to borrow memory)");
        *out = wrap_external(ctx, data, dtype, shape, strides, ndim, deleter, user_data).release();
    });
}

EMBER_API ember_status_t ember_scalar_f64(ember_ctx_t* ctx, double value, ember_tensor_t** out) {
    return guard("ember_scalar_f64", [&] {
        require_arg(out, "out");
        *out = weak_scalar(ctx, EMBER_FLOAT64, &value).release();
    });
}
EMBER_API ember_status_t ember_scalar_i64(ember_ctx_t* ctx, int64_t value, ember_tensor_t** out) {
    return guard("ember_scalar_i64", [&] {
        require_arg(out, "out");
        TRef t = weak_scalar(ctx, EMBER_INT64, &value);
        t->int_value_known = true;
        t->int_value = value;
        *out = t.release();
    });
}
EMBER_API ember_status_t ember_scalar_bool(ember_ctx_t* ctx, int value, ember_tensor_t** out) {
    return guard("ember_scalar_bool", [&] {
        require_arg(out, "out");
        uint8_t v = value != 0;
        *out = weak_scalar(ctx, EMBER_BOOL, &v).release();
    });
}
EMBER_API ember_status_t ember_scalar_c128(ember_ctx_t* ctx, double real, double imag, ember_tensor_t** out) {
    return guard("ember_scalar_c128", [&] {
        require_arg(out, "out");
        double v[2] = {real, imag};
        *out = weak_scalar(ctx, EMBER_COMPLEX128, v).release();
    });
}
EMBER_API ember_status_t ember_tensor_from_f64(ember_ctx_t* ctx, double value, ember_dtype_t dtype, ember_tensor_t** out) {
    return guard("ember_tensor_from_f64", [&] {
        require_arg(out, "out");
        if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
        TRef s = weak_scalar(ctx, EMBER_FLOAT64, &value);
        *out = op_astype(ctx, s.get(), dtype).release();
    });
}

#define EMBER_QUERY(fn, T, expr)                      \
    EMBER_API ember_status_t fn(const ember_tensor_t* t, T* v) { \
        return guard(#fn, [&] {                       \
            require_arg(t, "t");                      \
            require_arg(v, "out");                    \
            *v = (expr);                              \
        });                                           \
    }
EMBER_QUERY(ember_tensor_ndim, int, t->ndim)
EMBER_QUERY(ember_tensor_dtype, ember_dtype_t, t->dtype)
EMBER_QUERY(ember_tensor_shape, const int64_t*, t->ndim ? t->shape : nullptr)
EMBER_QUERY(ember_tensor_strides, const int64_t*, t->ndim ? t->strides : nullptr)
EMBER_QUERY(ember_tensor_offset, int64_t, t->offset)
EMBER_QUERY(ember_tensor_size, int64_t, t->size)
EMBER_QUERY(ember_tensor_is_contiguous, int, is_contiguous(t) ? 1 : 0)
EMBER_QUERY(ember_tensor_is_weak, int, t->weak ? 1 : 0)
EMBER_QUERY(ember_tensor_is_read_only, int, t->storage->read_only.load(std::memory_order_relaxed) ? 1 : 0)

EMBER_API ember_status_t ember_tensor_set_read_only(ember_tensor_t* t) {
    return guard("ember_tensor_set_read_only", [&] {
        require_arg(t, "t");
        t->storage->read_only.store(true, std::memory_order_relaxed);
    });
}
#undef EMBER_QUERY

EMBER_API ember_status_t ember_tensor_backend(const ember_tensor_t* t, const char** backend, int* device) {
    return guard("ember_tensor_backend", [&] {
        require_arg(t, "t");
        if (backend) *backend = t->backend->name.c_str();
        if (device) *device = t->device;
    });
}

EMBER_API ember_status_t ember_tensor_host_data(const ember_tensor_t* t, void** data) {
    return guard("ember_tensor_host_data", [&] {
        require_arg(t, "t");
        require_arg(data, "data");
        if (!t->storage->backend->host_memory)
            raise(EMBER_ERR_UNSUPPORTED, "tensor lives in device memory of backend '%s'; use ember_tensor_read", t->backend->name.c_str());
        *data = static_cast<char*>(t->storage->buffer) + t->offset * (int64_t)dtype_size(t->dtype);
    });
}

EMBER_API ember_status_t ember_tensor_read(const ember_tensor_t* t, void* dst, size_t nbytes) {
    return guard("ember_tensor_read", [&] {
        require_arg(t, "t");
        if (t->size > 0) require_arg(dst, "dst");
        read_contiguous(t, dst, nbytes);
    });
}

EMBER_API ember_status_t ember_tensor_write(ember_ctx_t* ctx, ember_tensor_t* t, const void* src, size_t nbytes) {
    return guard("ember_tensor_write", [&] {
        check_ctx(ctx);
        check_same_backend(ctx, t, "t");
        check_writable(t, "t");
        size_t need = (size_t)t->size * dtype_size(t->dtype);
        if (nbytes < need) raise(EMBER_ERR_INVALID_ARGUMENT, "source holds %zu bytes but the tensor needs %zu", nbytes, need);
        if (need == 0) return;
        require_arg(src, "src");
        if (is_contiguous(t)) {
            host_write(t, src, need);
            return;
        }
        TRef staged = alloc_tensor(ctx, t->dtype, shape_of(t));
        host_write(staged.get(), src, need);
        op_assign(ctx, t, staged.get());
    });
}

// The one element of t read as raw bytes, converted on the host where the conversion is a
// plain C++ one (bool, integers, float32/64 into float64; bool and integers into int64; real
// and complex into complex128): false for the others (half types, float into int64), which
// take the backend's astype. It saves the 0-d astype tensor that made Python's float(x[i, j])
// cost ~120 ns more than the read.
extern "C++" {
template <class T>
static bool convert_item(const unsigned char* raw, ember_dtype_t as, void* dst) {
    T v;
    std::memcpy(&v, raw, sizeof v);
    if (as == EMBER_FLOAT64) {
        if constexpr (std::is_arithmetic_v<T>) {
            const double d = (double)v;
            std::memcpy(dst, &d, sizeof d);
            return true;
        }
    } else if (as == EMBER_INT64) {
        if constexpr (std::is_integral_v<T>) {
            const int64_t i = (int64_t)v;
            std::memcpy(dst, &i, sizeof i);
            return true;
        }
    } else if (as == EMBER_COMPLEX128) {
        if constexpr (std::is_arithmetic_v<T>) {
            const double c[2] = {(double)v, 0.0};
            std::memcpy(dst, c, sizeof c);
            return true;
        }
    }
    return false;
}
template <class R>
static bool convert_complex_item(const unsigned char* raw, ember_dtype_t as, void* dst) {
    if (as != EMBER_COMPLEX128) return false;
    R parts[2];
    std::memcpy(parts, raw, sizeof parts);
    const double c[2] = {(double)parts[0], (double)parts[1]};
    std::memcpy(dst, c, sizeof c);
    return true;
}
}  // extern "C++"
static bool read_item_on_host(const ember_tensor* t, ember_dtype_t as, void* dst) {
    unsigned char raw[16];
    const size_t size = dtype_size(t->dtype);
    Backend* b = t->storage->backend;
    if (b->iface->read(b->state, t->storage->device, t->storage->buffer, (size_t)t->offset * size, raw, size) != EMBER_OK)
        return false;  // the general path reports the failure
    switch (t->dtype) {
        case EMBER_BOOL: raw[0] = raw[0] != 0; return convert_item<bool>(raw, as, dst);  // any nonzero byte is true
        case EMBER_INT8: return convert_item<int8_t>(raw, as, dst);
        case EMBER_INT16: return convert_item<int16_t>(raw, as, dst);
        case EMBER_INT32: return convert_item<int32_t>(raw, as, dst);
        case EMBER_INT64: return convert_item<int64_t>(raw, as, dst);
        case EMBER_UINT8: return convert_item<uint8_t>(raw, as, dst);
        case EMBER_UINT16: return convert_item<uint16_t>(raw, as, dst);
        case EMBER_UINT32: return convert_item<uint32_t>(raw, as, dst);
        case EMBER_UINT64: return convert_item<uint64_t>(raw, as, dst);
        case EMBER_FLOAT32: return convert_item<float>(raw, as, dst);
        case EMBER_FLOAT64: return convert_item<double>(raw, as, dst);
        case EMBER_COMPLEX64: return convert_complex_item<float>(raw, as, dst);
        case EMBER_COMPLEX128: return convert_complex_item<double>(raw, as, dst);
        default: return false;
    }
}

static void read_item(const ember_tensor* t, ember_dtype_t as, void* dst, const char* fn) {
    if (t->size != 1) raise(EMBER_ERR_SHAPE, "%s needs a tensor with exactly one element, got shape %s", fn, shape_str(t).c_str());
    if (read_item_on_host(t, as, dst)) return;
    ember_ctx tmp;
    tmp.backend = t->backend;
    tmp.device = t->device;
    tmp.slots = bound_slots(t->backend);
    TRef c = op_astype(&tmp, t, as);
    read_contiguous(c.get(), dst, dtype_size(as));
}

EMBER_API ember_status_t ember_tensor_item_f64(const ember_tensor_t* t, double* value) {
    return guard("ember_tensor_item_f64", [&] {
        require_arg(t, "t");
        require_arg(value, "value");
        double v;
        read_item(t, EMBER_FLOAT64, &v, "item");
        *value = v;
    });
}
EMBER_API ember_status_t ember_tensor_item_i64(const ember_tensor_t* t, int64_t* value) {
    return guard("ember_tensor_item_i64", [&] {
        require_arg(t, "t");
        require_arg(value, "value");
        int64_t v;
        read_item(t, EMBER_INT64, &v, "item");
        *value = v;
    });
}
EMBER_API ember_status_t ember_tensor_item_c128(const ember_tensor_t* t, double* real, double* imag) {
    return guard("ember_tensor_item_c128", [&] {
        require_arg(t, "t");
        double v[2];
        read_item(t, EMBER_COMPLEX128, v, "item");
        if (real) *real = v[0];
        if (imag) *imag = v[1];
    });
}

EMBER_API ember_status_t ember_tensor_to(ember_ctx_t* ctx, const ember_tensor_t* t, ember_tensor_t** out) {
    return guard("ember_tensor_to", [&] {
        check_ctx(ctx);
        require_arg(t, "t");
        require_arg(out, "out");
        if (t->backend == ctx->backend && t->device == ctx->device) {
            *out = TRef::borrow(t).release();
            return;
        }
        if (t->storage->backend->host_memory && ctx->backend->host_memory) {
            // Host memory is host memory: share the storage, re-home the view.
            TRef v = make_view(t, shape_of(t), Shape(t->strides, t->strides + t->ndim), t->offset);
            v->backend = ctx->backend;
            v->device = ctx->device;
            *out = v.release();
            return;
        }
        std::vector<unsigned char> host((size_t)t->size * dtype_size(t->dtype));
        read_contiguous(t, host.data(), host.size());
        TRef r = alloc_tensor(ctx, t->dtype, shape_of(t));
        r->weak = t->weak;
        host_write(r.get(), host.data(), host.size());
        *out = r.release();
    });
}

}  // extern "C"
