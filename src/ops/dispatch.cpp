// Op metadata, dtype rules, broadcasting and the kernel call. Every op goes through here.
#include "dispatch.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ember {

namespace {
const OpInfo kOps[OP_COUNT] = {
#define UNARY "unary"
#define BINARY "binary"
#define REDUCE "reduce"
#define CUSTOM "custom"
#define PRIMITIVE false, false
#define COMPOSITE true, false
#define COMPOSITE_KERNEL true, true
#define EMBER_OP(name, sig, dtypes, kind, doc) {#name, sig, Rule::dtypes, kind, doc},
#include "optable.def"
#undef EMBER_OP
#undef UNARY
#undef BINARY
#undef REDUCE
#undef CUSTOM
#undef PRIMITIVE
#undef COMPOSITE
#undef COMPOSITE_KERNEL
};

[[noreturn]] void bad_dtype(OpId op, ember_dtype_t d) {
    raise(EMBER_ERR_UNSUPPORTED_DTYPE, "%s is not defined for dtype %s", kOps[op].name, dtype_name(d));
}
}  // namespace

const OpInfo& op_info(OpId op) { return kOps[op]; }

OpId find_op(const char* name) {
    // Loops (a += b in Python, ember_elementwise_into in C) ask for the same op again and
    // again: the last answer is checked with one strcmp before the hash lookup (~170
    // instructions). It is only a hint, so a relaxed atomic serves every thread.
    static std::atomic<int> last{0};
    const int hint = last.load(std::memory_order_relaxed);
    if (std::strcmp(kOps[hint].name, name) == 0) return (OpId)hint;
    static const std::unordered_map<std::string_view, OpId> by_name = [] {
        std::unordered_map<std::string_view, OpId> m;
        for (int i = 0; i < OP_COUNT; ++i) m.emplace(kOps[i].name, (OpId)i);
        return m;
    }();
    auto it = by_name.find(name);
    if (it == by_name.end()) return OP_COUNT;
    last.store(it->second, std::memory_order_relaxed);
    return it->second;
}

DtypePlan plan_dtypes(OpId op, ember_dtype_t d, ember_dtype_t default_float) {
    Kind k = kind_of(d);
    auto same = [&](bool ok) {
        if (!ok) bad_dtype(op, d);
        return DtypePlan{d, d};
    };
    switch (kOps[op].rule) {
        case Rule::ANY: return {d, d};
        case Rule::NUMERIC: return same(k != Kind::Bool);
        case Rule::NUMERIC_TO_REAL:
            if (k == Kind::Bool) bad_dtype(op, d);
            return {d, real_dtype_of(d)};
        case Rule::NUMERIC_TO_BOOL: return {d, EMBER_BOOL};
        case Rule::REAL: return same(k == Kind::Int || k == Kind::Float);
        case Rule::REAL_OR_BOOL: return same(k != Kind::Complex);
        case Rule::REAL_TO_BOOL:
            if (k == Kind::Complex || k == Kind::Bool) bad_dtype(op, d);
            return {d, EMBER_BOOL};
        case Rule::FLOAT:
            if (k == Kind::Bool || k == Kind::Int) return {default_float, default_float};
            return {d, d};
        case Rule::REAL_FLOAT:
            if (k == Kind::Complex) bad_dtype(op, d);
            if (k == Kind::Bool || k == Kind::Int) return {default_float, default_float};
            return {d, d};
        case Rule::INT: return same(k == Kind::Int);
        case Rule::INT_BOOL: return same(k == Kind::Int || k == Kind::Bool);
        case Rule::LOGICAL: return {EMBER_BOOL, EMBER_BOOL};
        case Rule::COMPARE: return {d, EMBER_BOOL};
        case Rule::ORDER:
            if (k == Kind::Complex) bad_dtype(op, d);
            return {d, EMBER_BOOL};
        case Rule::SUM:
            if (k == Kind::Bool || is_signed_int(d)) return {EMBER_INT64, EMBER_INT64};
            if (is_unsigned_int(d)) return {EMBER_UINT64, EMBER_UINT64};
            return {d, d};
        case Rule::COUNT: return {d, EMBER_INT64};  // the kernel reads x as it is
    }
    bad_dtype(op, d);
}

bool has_backend_kernel(const ember_ctx* ctx, OpId op) {
    Slot::Binding b = ctx->slots[op].binding;
    return b == Slot::NATIVE || b == Slot::HOST;
}

void run_kernel(ember_ctx* ctx, OpId op, std::initializer_list<ember_view_t> in, std::initializer_list<ember_view_t> out,
                const ember_attrs_t& attrs) {
    const Slot& slot = ctx->slots[op];
    if (slot.binding != Slot::NATIVE && slot.binding != Slot::HOST && slot.binding != Slot::REFERENCE)
        raise(EMBER_ERR_UNSUPPORTED, "op '%s' has no kernel on backend '%s'", kOps[op].name, ctx->backend->name.c_str());
    Backend* b = slot.binding == Slot::REFERENCE ? reference_backend() : ctx->backend;
    ember_kernel_call_t call{b->state, slot.kernel.data, ctx->device, (int)in.size(), (int)out.size(), in.begin(), out.begin(), &attrs};
    ember_status_t st = slot.kernel.fn(&call);
    if (st != EMBER_OK) {
        // The kernel recorded its cause through host_api.fail; keep it and add the op.
        std::string cause = ember_last_error();
        if (cause.empty()) cause = ember_status_string(st);
        raise(st, "%s", cause.c_str());
    }
}

bool shapes_broadcast(const int64_t* a, int a_ndim, const int64_t* b, int b_ndim) {
    for (int i = 1; i <= std::min(a_ndim, b_ndim); ++i) {
        int64_t x = a[a_ndim - i], y = b[b_ndim - i];
        if (x != y && x != 1 && y != 1) return false;
    }
    return true;
}

void broadcast_into(int64_t* shape, int& ndim, const int64_t* other, int other_ndim) {
    if (ndim == other_ndim && std::equal(shape, shape + ndim, other)) return;  // most operands
    const int n = std::max(ndim, other_ndim), pad = n - ndim, opad = n - other_ndim;
    if (n > EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "broadcasting gives %d dimensions (at most %d)", n, EMBER_MAX_DIMS);
    if (!shapes_broadcast(shape, ndim, other, other_ndim))
        raise(EMBER_ERR_SHAPE, "shapes %s and %s cannot be broadcast together", shape_str(shape, ndim).c_str(),
              shape_str(other, other_ndim).c_str());
    if (pad) {
        std::memmove(shape + pad, shape, sizeof(int64_t) * ndim);
        std::fill(shape, shape + pad, int64_t(1));
    }
    for (int i = opad; i < n; ++i)
        if (shape[i] == 1) shape[i] = other[i - opad];
    ndim = n;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
    int64_t shape[EMBER_MAX_DIMS];
    int ndim = (int)a.size();
    if (ndim > EMBER_MAX_DIMS) raise(EMBER_ERR_SHAPE, "shape %s has more than %d dimensions", shape_str(a).c_str(), EMBER_MAX_DIMS);
    std::copy(a.begin(), a.end(), shape);
    broadcast_into(shape, ndim, b.data(), (int)b.size());
    return Shape(shape, shape + ndim);
}

namespace {
[[noreturn]] void cannot_broadcast(const ember_tensor* t, const int64_t* shape, int n) {
    raise(EMBER_ERR_SHAPE, "cannot broadcast shape %s to %s", shape_str(t).c_str(), shape_str(shape, n).c_str());
}
}  // namespace

ember_view_t broadcast_view(const ember_tensor* t, const int64_t* shape, int n, int64_t* strides) {
    const int lead = n - t->ndim;
    if (lead < 0) cannot_broadcast(t, shape, n);
    for (int i = 0; i < lead; ++i) strides[i] = 0;
    for (int i = lead; i < n; ++i) {
        const int64_t d = t->shape[i - lead];
        if (d == shape[i])
            strides[i] = t->strides[i - lead];
        else if (d == 1)
            strides[i] = 0;
        else
            cannot_broadcast(t, shape, n);
    }
    return ember_view_t{t->storage->buffer, t->offset, (int32_t)t->dtype, n, shape, strides};
}

namespace {
// The axes of extent > 1 of x from outermost to innermost in memory, where its elements
// there are dense (one block, positive strides); false otherwise.
bool dense_axis_order(const ember_tensor* x, int* axes, int& n) {
    n = 0;
    for (int i = 0; i < x->ndim; ++i)
        if (x->shape[i] > 1) axes[n++] = i;
    for (int i = 1; i < n; ++i)  // insertion sort by descending stride (std::stable_sort allocates)
        for (int j = i; j > 0 && x->strides[axes[j - 1]] < x->strides[axes[j]]; --j) std::swap(axes[j - 1], axes[j]);
    int64_t expect = 1;
    for (int k = n - 1; k >= 0; --k) {
        if (x->strides[axes[k]] != expect) return false;
        expect *= x->shape[axes[k]];
    }
    return true;
}

// A result keeps the layout of its operands, as NumPy's (order='K') and PyTorch's do: exp(a.T)
// is the transpose of a C-order tensor, written in one pass in memory order instead of through
// a transpose. The rule: every operand of the result's full shape (and no stride 0 along an
// axis of extent > 1) is dense, its axes of extent > 1 a permutation of C order, and they all
// share the one permutation, which is not C order; otherwise the result is in C order. Axes of
// extent 1 go outermost.
bool shared_dense_order(std::initializer_list<const ember_tensor*> xs, const int64_t* shape, int ndim, int* order) {
    int found[EMBER_MAX_DIMS], nfound = -1;
    for (const ember_tensor* x : xs) {
        bool full = x->ndim == ndim;
        for (int i = 0; i < ndim && full; ++i) full = x->shape[i] == shape[i];  // std::equal called memcmp
        if (!full) continue;
        if (is_contiguous(x)) return false;  // the common case, decided first
        bool broadcast = false;
        for (int i = 0; i < ndim; ++i) broadcast = broadcast || (shape[i] > 1 && x->strides[i] == 0);
        if (broadcast) continue;
        int axes[EMBER_MAX_DIMS], n;
        if (!dense_axis_order(x, axes, n)) return false;
        if (nfound < 0) {
            nfound = n;
            std::copy(axes, axes + n, found);
        } else if (!std::equal(axes, axes + n, found)) {
            return false;
        }
    }
    if (nfound <= 0 || std::is_sorted(found, found + nfound)) return false;
    int k = 0;
    for (int i = 0; i < ndim; ++i)
        if (shape[i] <= 1) order[k++] = i;
    std::copy(found, found + nfound, order + k);
    return true;
}
}  // namespace

TRef alloc_elementwise_result(ember_ctx* ctx, ember_dtype_t dtype, const int64_t* shape, int ndim,
                              std::initializer_list<const ember_tensor*> xs) {
    if (ndim < 2) return alloc_tensor(ctx, dtype, shape, ndim);  // one dense order; a 1-element add stays at ~70 ns
    int order[EMBER_MAX_DIMS];
    return alloc_tensor(ctx, dtype, shape, ndim, shared_dense_order(xs, shape, ndim, order) ? order : nullptr);
}

void OutputOrder::find_order(const ember_tensor* out) {
    int axes[EMBER_MAX_DIMS], n;
    if (is_contiguous(out) || !dense_axis_order(out, axes, n)) return;
    int k = 0;
    for (int i = 0; i < ndim_; ++i)
        if (out->shape[i] <= 1) perm_[k++] = i;
    std::copy(axes, axes + n, perm_ + k);
    permuted_ = true;
}

ember_view_t OutputOrder::permuted(ember_view_t v) {
    if (used_ == kViews) raise(EMBER_ERR_INTERNAL, "more than %d views of one elementwise call", kViews);
    int64_t *shape = shapes_[used_], *strides = strides_[used_];
    ++used_;
    for (int i = 0; i < ndim_; ++i) {
        shape[i] = v.shape[perm_[i]];
        strides[i] = v.strides[perm_[i]];
    }
    v.shape = shape;
    v.strides = strides;
    return v;
}

TRef op_astype(ember_ctx* ctx, const ember_tensor* x, ember_dtype_t dtype, bool keep_layout) {
    TRef out = keep_layout ? alloc_elementwise_result(ctx, dtype, x->shape, x->ndim, {x}) : alloc_tensor(ctx, dtype, x->shape, x->ndim);
    OutputOrder order(out.get());
    if (out->size) run_kernel(ctx, OP_astype, {order(view_of(x))}, {order(view_of(out.get()))});
    return out;
}

TRef cast_if(ember_ctx* ctx, const ember_tensor* x, ember_dtype_t dtype) {
    if (x->dtype == dtype) return TRef::borrow(x);
    return op_astype(ctx, x, dtype, true);
}

TRef op_copy(ember_ctx* ctx, const ember_tensor* x) { return op_astype(ctx, x, x->dtype); }

TRef contiguous(ember_ctx* ctx, const ember_tensor* x) {
    if (is_contiguous(x)) return TRef::borrow(x);
    return op_copy(ctx, x);
}

namespace {
// Byte range [lo, hi) of the storage that view t reaches.
void byte_extent(const ember_tensor* t, int64_t& lo, int64_t& hi) {
    int64_t first = t->offset, last = t->offset;
    for (int i = 0; i < t->ndim; ++i) {
        const int64_t span = (t->shape[i] - 1) * t->strides[i];
        (span < 0 ? first : last) += span;
    }
    const int64_t size = dtype_size(t->dtype);
    lo = first * size;
    hi = (last + 1) * size;
}
}  // namespace

bool may_overlap(const ember_tensor* a, const ember_tensor* b) {
    if (a->storage != b->storage || a->size == 0 || b->size == 0) return false;
    int64_t alo, ahi, blo, bhi;
    byte_extent(a, alo, ahi);
    byte_extent(b, blo, bhi);
    return alo < bhi && blo < ahi;
}

namespace {
// Calls f with the storage offset of each element of t, in C order, while f returns true.
template <class F>
void for_each_element_offset(const ember_tensor* t, F f) {
    if (t->size == 0) return;
    int64_t index[EMBER_MAX_DIMS] = {0}, offset = t->offset;
    for (;;) {
        if (!f(offset)) return;
        int d = t->ndim - 1;
        for (; d >= 0; --d) {
            offset += t->strides[d];
            if (++index[d] < t->shape[d]) break;
            offset -= t->strides[d] * t->shape[d];
            index[d] = 0;
        }
        if (d < 0) return;
    }
}
// A view whose elements fill every byte of the range they span, once each: C order up to
// a permutation of the axes and their signs (|strides| 1, n0, n0 n1, ... over axes longer than 1).
bool covers_its_span(const ember_tensor* t) {
    std::vector<std::pair<int64_t, int64_t>> axes;  // (|stride|, length)
    for (int i = 0; i < t->ndim; ++i)
        if (t->shape[i] > 1) axes.push_back({t->strides[i] < 0 ? -t->strides[i] : t->strides[i], t->shape[i]});
    std::sort(axes.begin(), axes.end());
    int64_t next = 1;
    for (const auto& [stride, length] : axes) {
        if (stride != next) return false;
        next *= length;
    }
    return true;
}
}  // namespace

bool shares_elements(const ember_tensor* a, const ember_tensor* b) {
    if (!may_overlap(a, b)) return false;
    const bool a_dense = covers_its_span(a), b_dense = covers_its_span(b);
    if (a_dense && b_dense) return true;  // overlapping spans without gaps
    if (a_dense || b_dense) {  // an element of the other inside the dense one's span is shared
        const ember_tensor* other = a_dense ? b : a;
        int64_t lo, hi;
        byte_extent(a_dense ? a : b, lo, hi);
        const int64_t bytes = dtype_size(other->dtype);
        bool shared = false;
        for_each_element_offset(other, [&](int64_t offset) {
            shared = offset * bytes < hi && offset * bytes + bytes > lo;
            return !shared;
        });
        return shared;
    }
    if (a->size > b->size) std::swap(a, b);
    const int64_t a_bytes = dtype_size(a->dtype), b_bytes = dtype_size(b->dtype);
    std::vector<int64_t> starts;
    starts.reserve(a->size);
    for_each_element_offset(a, [&](int64_t offset) {
        starts.push_back(offset * a_bytes);
        return true;
    });
    std::sort(starts.begin(), starts.end());
    bool shared = false;
    for_each_element_offset(b, [&](int64_t offset) {
        const int64_t first = offset * b_bytes;  // an element of a from first - a_bytes + 1 on overlaps [first, first + b_bytes)
        auto it = std::lower_bound(starts.begin(), starts.end(), first - a_bytes + 1);
        shared = it != starts.end() && *it < first + b_bytes;
        return !shared;
    });
    return shared;
}

bool same_elements(const ember_tensor* x, const ember_tensor* out) {
    if (x->storage != out->storage || x->offset != out->offset || x->ndim != out->ndim || x->dtype != out->dtype) return false;
    for (int i = 0; i < x->ndim; ++i)
        if (x->shape[i] != out->shape[i] || (x->shape[i] > 1 && x->strides[i] != out->strides[i])) return false;
    return true;
}

void op_assign(ember_ctx* ctx, ember_tensor* dst, const ember_tensor* src) {
    // The copy kernel reads and writes element by element: a source that overlaps dst any
    // other way than element for element (x[1:] = x[:-1], y[...] = y.T) is copied first, so
    // dst gets the values src had, as in NumPy.
    if (same_elements(src, dst)) return;  // x[::2] += 1 in Python ends with x[::2] = (that view)
    TRef copied;
    if (may_overlap(src, dst)) {
        copied = op_copy(ctx, src);
        src = copied.get();
    }
    op_assign_disjoint(ctx, dst, src);
}

void op_assign_disjoint(ember_ctx* ctx, ember_tensor* dst, const ember_tensor* src) {
    // As NumPy, a source may have more axes than dst when the extra leading ones have length
    // 1 (x[1] = [[1, 2, 3]] for a row of 3): they are dropped.
    TRef fewer_axes;
    if (src->ndim > dst->ndim && std::all_of(src->shape, src->shape + (src->ndim - dst->ndim), [](int64_t d) { return d == 1; })) {
        fewer_axes = op_reshape(ctx, src, Shape(src->shape + (src->ndim - dst->ndim), src->shape + src->ndim), true);
        src = fewer_axes.get();
    }
    int64_t strides[EMBER_MAX_DIMS];
    const ember_view_t from = broadcast_view(src, dst->shape, dst->ndim, strides);  // checks the shapes, also for an empty dst
    if (dst->size == 0) return;
    OutputOrder order(dst);
    run_kernel(ctx, OP_astype, {order(from)}, {order(view_of(dst))});
}

namespace {
// Result shape, dtypes and weakness of an elementwise op on xs.
struct ElementwisePlan {
    int64_t shape[EMBER_MAX_DIMS];
    int ndim;
    DtypePlan dtypes;
    bool weak;
};

// An integer scalar that the compute dtype cannot hold (uint8 tensor + 300, or - 1): NumPy 2
// raises OverflowError rather than compute with the wrapped number, and compares exactly
// (uint8 == -1 is false everywhere). A comparison therefore runs in a dtype that holds both
// sides: int64 holds every other integer dtype, and float64 orders a uint64 against a
// negative number exactly.
void widen_or_refuse(OpId op, int64_t value, DtypePlan& dtypes) {
    Rule rule = op_info(op).rule;
    if (rule == Rule::COMPARE || rule == Rule::ORDER) {
        dtypes.compute = dtypes.compute == EMBER_UINT64 ? EMBER_FLOAT64 : EMBER_INT64;
        return;
    }
    raise(EMBER_ERR_OVERFLOW, "the integer %lld is out of range for %s, the dtype %s would cast it to", (long long)value,
          dtype_name(dtypes.compute), op_info(op).name);
}

ElementwisePlan plan_elementwise(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs) {
    ElementwisePlan p;
    const ember_tensor* first = *xs.begin();
    ember_dtype_t common = first->dtype;
    p.weak = first->weak;
    p.ndim = first->ndim;
    std::copy(first->shape, first->shape + p.ndim, p.shape);
    for (auto it = xs.begin() + 1; it != xs.end(); ++it) {
        common = promote(common, p.weak, (*it)->dtype, (*it)->weak, ctx->default_float);
        p.weak = p.weak && (*it)->weak;
        broadcast_into(p.shape, p.ndim, (*it)->shape, (*it)->ndim);
    }
    p.dtypes = plan_dtypes(op, common, ctx->default_float);
    for (const ember_tensor* x : xs)
        if (x->int_value_known && !int_fits(x->int_value, p.dtypes.compute)) widen_or_refuse(op, x->int_value, p.dtypes);
    return p;
}

// Runs the kernel of op on xs into out, whose shape and dtype are the plan's.
void run_elementwise(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs, const ElementwisePlan& p, ember_tensor* out) {
    // The caller's handles stay alive for the call: only a cast needs a reference of its own.
    // A 0-d operand of another dtype (the weak scalar of x * 2 or x + 1.0) on a host-memory
    // backend is cast into a local buffer that the kernel reads through a broadcast view:
    // a tensor for it cost a third of a 4-element x + 1.0.
    TRef cast[3];
    int64_t strides[3][EMBER_MAX_DIMS];
    alignas(16) unsigned char cast_scalar[3][16];
    ember_view_t views[3];
    int n = 0;
    for (const ember_tensor* x : xs) {
        if (x->dtype != p.dtypes.compute && x->ndim == 0 && ctx->backend->host_memory) {
            run_kernel(ctx, OP_astype, {view_of(x)}, {ember_view_t{cast_scalar[n], 0, (int32_t)p.dtypes.compute, 0, p.shape, strides[n]}});
            std::fill(strides[n], strides[n] + p.ndim, int64_t(0));
            views[n] = ember_view_t{cast_scalar[n], 0, (int32_t)p.dtypes.compute, p.ndim, p.shape, strides[n]};
            ++n;
            continue;
        }
        if (x->dtype != p.dtypes.compute) {
            cast[n] = op_astype(ctx, x, p.dtypes.compute, true);
            x = cast[n].get();
        }
        views[n] = broadcast_view(x, p.shape, p.ndim, strides[n]);
        ++n;
    }
    ember_view_t ov = view_of(out);
    OutputOrder order(out);
    if (order.active()) {  // applied here, so that the common call copies no views
        for (int k = 0; k < n; ++k) views[k] = order(views[k]);
        ov = order(ov);
    }
    if (n == 1)
        run_kernel(ctx, op, {views[0]}, {ov});
    else if (n == 2)
        run_kernel(ctx, op, {views[0], views[1]}, {ov});
    else
        run_kernel(ctx, op, {views[0], views[1], views[2]}, {ov});
}

}  // namespace

TRef elementwise(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs) {
    const ElementwisePlan p = plan_elementwise(ctx, op, xs);
    TRef out = alloc_elementwise_result(ctx, p.dtypes.result, p.shape, p.ndim, xs);
    out->weak = p.weak;
    if (out->size) run_elementwise(ctx, op, xs, p, out.get());
    return out;
}

void elementwise_into(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs, ember_tensor* out) {
    const ElementwisePlan p = plan_elementwise(ctx, op, xs);
    if (out->ndim != p.ndim || !std::equal(p.shape, p.shape + p.ndim, out->shape))
        raise(EMBER_ERR_SHAPE, "out has shape %s, the result of %s has shape %s", shape_str(out).c_str(), op_info(op).name,
              shape_str(p.shape, p.ndim).c_str());
    if (out->size == 0) return;
    for (int i = 0; i < out->ndim; ++i)
        if (out->strides[i] == 0 && out->shape[i] > 1)
            raise(EMBER_ERR_INVALID_ARGUMENT, "out is a broadcast view (stride 0 along axis %d): its elements would be written more than once",
                  i);
    // A kernel writes out while it reads the inputs: an input that overlaps out any other way
    // than element for element (a shifted or transposed view of it, a broadcast) is read
    // through a temporary, as is a result that needs a cast to out's dtype.
    bool direct = out->dtype == p.dtypes.result;
    for (const ember_tensor* x : xs)
        if (may_overlap(x, out) && !same_elements(x, out)) direct = false;
    if (direct) {
        run_elementwise(ctx, op, xs, p, out);
        return;
    }
    TRef tmp = alloc_elementwise_result(ctx, p.dtypes.result, p.shape, p.ndim, {out});  // laid out as out: the copy into it is one pass
    run_elementwise(ctx, op, xs, p, tmp.get());
    op_assign(ctx, out, tmp.get());
}

uint64_t axes_mask(const int64_t* axes, int naxes, int ndim) {
    if (!axes) return ndim >= 64 ? ~0ull : ((1ull << ndim) - 1);
    if (naxes < 0) raise(EMBER_ERR_INVALID_ARGUMENT, "naxes is negative");
    uint64_t mask = 0;
    for (int i = 0; i < naxes; ++i) {
        int64_t a = normalize_axis(axes[i], ndim);
        if (mask & (1ull << a)) raise(EMBER_ERR_INVALID_ARGUMENT, "axis %lld is repeated", (long long)axes[i]);
        mask |= 1ull << a;
    }
    return mask;
}

namespace {
// Sums and products whose accumulator is wider than the input (bool and integers into
// (u)int64; 64-bit integers into float64 for their means) cast one slice of rows at a time,
// so the widened copy stays in cache instead of being a temporary up to 8x the input (80 MB
// for 1e7 bools). Integer arithmetic wraps, so any grouping gives the same result; a float64
// sum of slices is a blocked sum, as careful as the pairwise sum of the whole. Returns an
// empty TRef when slicing does not apply.
TRef widened_in_slices(ember_ctx* ctx, OpId op, const ember_tensor* x, uint64_t mask, ember_dtype_t compute, const Shape& keep) {
    constexpr int64_t kSliceElements = int64_t(1) << 18;
    if ((op != OP_sum && op != OP_prod) || x->ndim == 0 || x->size < 4 * kSliceElements) return TRef();
    TRef flat;
    const uint64_t all = (x->ndim >= 64 ? ~0ull : (1ull << x->ndim) - 1);
    if ((mask & all) == all && is_contiguous(x)) {  // a full reduction: slice the flat array
        flat = make_view(x, {x->size}, {1}, x->offset);
        x = flat.get();
        mask = 1;
    }
    const int64_t rows = x->shape[0], row_elements = x->size / rows;
    const int64_t per_slice = std::max<int64_t>(1, kSliceElements / std::max<int64_t>(1, row_elements));
    const int64_t slices = (rows + per_slice - 1) / per_slice;
    if (slices < 2) return TRef();
    Shape x_shape = shape_of(x), x_strides(x->strides, x->strides + x->ndim);
    Shape out_shape = x_shape;  // keepdims shape of x
    for (int d = 0; d < x->ndim; ++d)
        if (mask & (1ull << d)) out_shape[d] = 1;
    const bool across_rows = mask & 1;  // the sliced axis is reduced: one partial result per slice
    Shape dest_shape = out_shape;
    if (across_rows) dest_shape[0] = slices;
    TRef dest = alloc_tensor(ctx, compute, dest_shape);
    ember_attrs_t attrs{};
    attrs.axes_mask = mask;
    for (int64_t s = 0; s < slices; ++s) {
        const int64_t r0 = s * per_slice, r1 = std::min(rows, r0 + per_slice);
        Shape slice_shape = x_shape;
        slice_shape[0] = r1 - r0;
        TRef part = op_astype(ctx, make_view(x, slice_shape, x_strides, x->offset + r0 * x->strides[0]).get(), compute);
        Shape part_out = out_shape;
        int64_t first = s;
        if (!across_rows) {
            part_out[0] = r1 - r0;
            first = r0;
        }
        ember_view_t dv = view_of(dest.get());
        dv.shape = part_out.data();
        dv.offset += first * dest->strides[0];
        run_kernel(ctx, op, {view_of(part.get())}, {dv}, attrs);
    }
    if (across_rows) {
        TRef out = alloc_tensor(ctx, compute, out_shape);
        attrs.axes_mask = 1;
        run_kernel(ctx, op, {view_of(dest.get())}, {view_of(out.get())}, attrs);
        dest = out;
    }
    return op_reshape(ctx, dest.get(), keep, false);
}
}  // namespace

TRef sum_in_slices(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, ember_dtype_t accumulator) {
    const uint64_t mask = axes_mask(axes, naxes, x->ndim);
    Shape keep = shape_of(x), dropped;
    for (int i = 0; i < x->ndim; ++i) {
        if (mask & (1ull << i)) keep[i] = 1;
        else dropped.push_back(x->shape[i]);
    }
    if (TRef s = widened_in_slices(ctx, OP_sum, x, mask, accumulator, keep)) return keepdims ? s : op_reshape(ctx, s.get(), dropped, false);
    TRef xc = cast_if(ctx, x, accumulator);
    return reduce(ctx, OP_sum, xc.get(), axes, naxes, keepdims);
}

TRef reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims) {
    // A bool sum is a count: a count kernel reads the bytes, where the sum widens them to
    // int64 first.
    if (op == OP_sum && x->dtype == EMBER_BOOL && has_backend_kernel(ctx, OP_count_nonzero)) op = OP_count_nonzero;
    uint64_t mask = axes_mask(axes, naxes, x->ndim);
    DtypePlan plan = plan_dtypes(op, x->dtype, ctx->default_float);
    int64_t keep[EMBER_MAX_DIMS], dropped[EMBER_MAX_DIMS];
    int ndropped = 0;
    for (int i = 0; i < x->ndim; ++i) {
        keep[i] = x->shape[i];
        if (mask & (1ull << i)) {
            if (x->shape[i] == 0 && (op == OP_max || op == OP_min))
                raise(EMBER_ERR_SHAPE, "%s of an empty axis (shape %s) has no identity", op_info(op).name, shape_str(x).c_str());
            keep[i] = 1;
        } else {
            dropped[ndropped++] = x->shape[i];
        }
    }
    // A kernel that widens narrow integers itself, or tests all/any's elements against zero
    // itself, reads them as they are: no widened or bool copy.
    const bool kernel_reads_x_as_is = ((op == OP_sum && ctx->slots[op].widens_input && (is_integer(x->dtype) || x->dtype == EMBER_BOOL)) ||
                                       ((op == OP_all || op == OP_any) && ctx->slots[op].tests_input)) &&
                                      plan.compute == plan.result;
    TRef xc;
    if (x->dtype != plan.compute && plan.compute == plan.result && !kernel_reads_x_as_is)
        xc = widened_in_slices(ctx, op, x, mask, plan.compute, Shape(keep, keep + x->ndim));
    if (xc) return keepdims ? xc : op_reshape(ctx, xc.get(), Shape(dropped, dropped + ndropped), false);
    if (x->dtype != plan.compute && !kernel_reads_x_as_is) {
        xc = op_astype(ctx, x, plan.compute);
        x = xc.get();
    }
    return reduce_into_new(ctx, op, x, mask, keepdims, plan.result);
}

TRef reduce_into_new(ember_ctx* ctx, OpId op, const ember_tensor* x, uint64_t mask, bool keepdims, ember_dtype_t result) {
    // Shapes in arrays, and the result allocated in its final shape (the kernel sees it with
    // the reduced axes kept at length 1): vectors and a reshape were a fifth of a small sum.
    int64_t keep[EMBER_MAX_DIMS], dropped[EMBER_MAX_DIMS], keep_strides[EMBER_MAX_DIMS];
    int ndropped = 0;
    for (int i = 0; i < x->ndim; ++i) {
        keep[i] = mask & (1ull << i) ? 1 : x->shape[i];
        if (!(mask & (1ull << i))) dropped[ndropped++] = x->shape[i];
    }
    TRef out = keepdims ? alloc_tensor(ctx, result, keep, x->ndim) : alloc_tensor(ctx, result, dropped, ndropped);
    if (out->size) {
        ember_attrs_t attrs{};
        attrs.axes_mask = mask;
        contiguous_strides(keep, x->ndim, keep_strides);
        const ember_view_t kept{out->storage->buffer, out->offset, (int32_t)out->dtype, x->ndim, keep, keep_strides};
        run_kernel(ctx, op, {view_of(x)}, {kept}, attrs);
    }
    return out;
}

TRef scalar_like(ember_ctx* ctx, double value, ember_dtype_t dtype) {
    TRef s = weak_f64(ctx, value);
    return op_astype(ctx, s.get(), dtype);
}

TRef weak_f64(ember_ctx* ctx, double value) {
    TRef t = alloc_tensor(ctx, EMBER_FLOAT64, {});
    Backend* b = t->storage->backend;
    ember_status_t st = b->iface->write(b->state, t->storage->device, t->storage->buffer, 0, &value, sizeof value);
    if (st != EMBER_OK) raise(st, "writing a scalar to backend '%s' failed", b->name.c_str());
    t->weak = true;
    return t;
}

}  // namespace ember
