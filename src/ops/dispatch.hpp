// The one dispatch mechanism: entry points validate and shape, then run a bound slot.
#pragma once

#include <initializer_list>

#include "../core/internal.hpp"

namespace ember {

enum class Rule {
#define EMBER_RULE(r) r,
#include "rules.def"
#undef EMBER_RULE
};

struct OpInfo {
    const char* name;
    const char* signature;  // "unary", "binary", "reduce", "custom"
    Rule rule;
    bool composite;
    bool custom_kernel;  // a CUSTOM composite with a kernel convention (COMPOSITE_KERNEL)
    const char* doc;
};
const OpInfo& op_info(OpId op);
// The op named name, or OP_COUNT.
OpId find_op(const char* name);

// Compute dtype (inputs are cast to it) and result dtype of an op for a promoted input dtype.
struct DtypePlan {
    ember_dtype_t compute, result;
};
DtypePlan plan_dtypes(OpId op, ember_dtype_t common, ember_dtype_t default_float);

// Runs the slot bound for op on the context's backend (native or reference kernel).
void run_kernel(ember_ctx* ctx, OpId op, std::initializer_list<ember_view_t> in, std::initializer_list<ember_view_t> out,
                const ember_attrs_t& attrs = {});
// True when the backend supplies its own kernel for a composite op.
bool has_backend_kernel(const ember_ctx* ctx, OpId op);
// Kernel attributes carrying one or two integers (axis, flags).
inline ember_attrs_t attrs_i(int64_t a, int64_t b = 0) {
    ember_attrs_t at{};
    at.i[0] = a;
    at.i[1] = b;
    return at;
}

// Broadcasting.
bool shapes_broadcast(const int64_t* a, int a_ndim, const int64_t* b, int b_ndim);  // never raises
inline bool shapes_broadcast(const Shape& a, const Shape& b) {
    return shapes_broadcast(a.data(), (int)a.size(), b.data(), (int)b.size());
}
Shape broadcast_shapes(const Shape& a, const Shape& b);
// shape (ndim entries) broadcast with other, in place: no heap traffic for the elementwise path.
void broadcast_into(int64_t* shape, int& ndim, const int64_t* other, int other_ndim);
ember_view_t broadcast_view(const ember_tensor* t, const int64_t* shape, int ndim, int64_t* strides_storage);
inline ember_view_t broadcast_view(const ember_tensor* t, const Shape& shape, int64_t* strides_storage) {
    return broadcast_view(t, shape.data(), (int)shape.size(), strides_storage);
}

// Internal op API (throws Error). Every TRef returned is owned.
// A new tensor for the result of an elementwise op on xs: laid out as the operands of its
// full shape are when they share one dense layout (exp(a.T) is a transpose, as in NumPy),
// else in C order.
TRef alloc_elementwise_result(ember_ctx* ctx, ember_dtype_t dtype, const int64_t* shape, int ndim,
                              std::initializer_list<const ember_tensor*> xs);
// The views of one elementwise call with their axes in the output's memory order: where out
// is dense but not in C order (a result that keeps its operands' layout, a transposed out
// view), every view of out's rank is permuted so that out's is in C order, other views pass
// as they are. An elementwise kernel does not depend on the order of the axes; this way it
// walks the output contiguously, and a kernel written when every new result came in C order
// (the backend API's contract) still gets that.
class OutputOrder {
  public:
    explicit OutputOrder(const ember_tensor* out) : ndim_(out->ndim) {
        if (ndim_ >= 2) find_order(out);
    }
    bool active() const { return permuted_; }
    ember_view_t operator()(const ember_view_t& v) { return permuted_ && v.ndim == ndim_ ? permuted(v) : v; }  // valid while this object lives

  private:
    void find_order(const ember_tensor* out);
    ember_view_t permuted(ember_view_t v);
    static constexpr int kViews = 4;
    int ndim_, used_ = 0;
    bool permuted_ = false;
    int perm_[EMBER_MAX_DIMS];
    int64_t shapes_[kViews][EMBER_MAX_DIMS], strides_[kViews][EMBER_MAX_DIMS];
};
// Always a new tensor, in C order, or laid out as x where keep_layout and x is dense (a
// transpose of a C-order tensor gives its transpose, as NumPy's astype does).
TRef op_astype(ember_ctx* ctx, const ember_tensor* x, ember_dtype_t dtype, bool keep_layout = false);
TRef cast_if(ember_ctx* ctx, const ember_tensor* x, ember_dtype_t dtype);  // x itself if already dtype, else keeps its layout
TRef op_copy(ember_ctx* ctx, const ember_tensor* x);
TRef contiguous(ember_ctx* ctx, const ember_tensor* x);
void op_assign(ember_ctx* ctx, ember_tensor* dst, const ember_tensor* src);  // src may overlap dst
// op_assign for a src that the caller knows shares no element with dst though their bytes'
// ranges may overlap (the pads of a tensor copied from its middle): no defensive copy.
void op_assign_disjoint(ember_ctx* ctx, ember_tensor* dst, const ember_tensor* src);
// True when views a and b may share bytes of one storage.
bool may_overlap(const ember_tensor* a, const ember_tensor* b);
// True when some element of a and some element of b share a byte (NumPy's shares_memory):
// one pass over a view's elements when the other is dense (no gaps in its span), else the
// other view's elements looked up among the smaller view's sorted byte ranges.
bool shares_elements(const ember_tensor* a, const ember_tensor* b);
// True when x is exactly out's elements (same storage, dtype, offset, shape and strides): a
// kernel that reads each element before writing it may then run in place.
bool same_elements(const ember_tensor* x, const ember_tensor* out);
TRef elementwise(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs);
// The same op written into out, which must have the result's shape (any dtype: the result is
// cast to it; any strides; out may be one of the inputs).
void elementwise_into(ember_ctx* ctx, OpId op, std::initializer_list<const ember_tensor*> xs, ember_tensor* out);
TRef reduce(ember_ctx* ctx, OpId op, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims);
// op's kernel on x as it is (no cast) over the axes in mask, into a new tensor of dtype result.
TRef reduce_into_new(ember_ctx* ctx, OpId op, const ember_tensor* x, uint64_t mask, bool keepdims, ember_dtype_t result);
// The sum of x in the accumulator dtype, x cast one slice of rows at a time where it is large
// (no full-size widened copy).
TRef sum_in_slices(ember_ctx* ctx, const ember_tensor* x, const int64_t* axes, int naxes, bool keepdims, ember_dtype_t accumulator);
uint64_t axes_mask(const int64_t* axes, int naxes, int ndim);
TRef scalar_like(ember_ctx* ctx, double value, ember_dtype_t dtype);  // strong 0-d
TRef weak_f64(ember_ctx* ctx, double value);

// Views (no copy).
TRef op_reshape(ember_ctx* ctx, const ember_tensor* x, const int64_t* shape, int ndim, bool allow_copy);
inline TRef op_reshape(ember_ctx* ctx, const ember_tensor* x, const Shape& shape, bool allow_copy) {
    return op_reshape(ctx, x, shape.data(), (int)shape.size(), allow_copy);
}
TRef op_permute(const ember_tensor* x, const int64_t* axes, int naxes);
TRef op_expand_dims(const ember_tensor* x, int64_t axis);
TRef op_squeeze_axes(const ember_tensor* x, uint64_t mask);
TRef op_broadcast_to(const ember_tensor* x, const Shape& shape);
TRef op_slice_axis(const ember_tensor* x, int64_t axis, int64_t start, int64_t stop, int64_t step);
TRef op_as_strided(const ember_tensor* x, const int64_t* shape, const int64_t* strides, int ndim, int64_t offset);
// ember_slice's leading-axes slices in one view.
TRef op_slice(const ember_tensor* x, const int64_t* start, const int64_t* stop, const int64_t* step, int n);
TRef op_select(const ember_tensor* x, int64_t axis, int64_t index);
TRef op_diagonal(const ember_tensor* x, int64_t offset);
TRef op_swapaxes(const ember_tensor* x, int64_t a, int64_t b);

// Primitive custom ops used by composites.
TRef op_where(ember_ctx* ctx, const ember_tensor* c, const ember_tensor* a, const ember_tensor* b);
TRef op_matmul(ember_ctx* ctx, const ember_tensor* a, const ember_tensor* b);
TRef op_arange(ember_ctx* ctx, double start, double step, int64_t n, ember_dtype_t dtype);
TRef op_concat(ember_ctx* ctx, const std::vector<const ember_tensor*>& xs, int64_t axis);
TRef op_full(ember_ctx* ctx, const Shape& shape, double value, ember_dtype_t dtype);
// x shifted cyclically by shift[d] (any sign) along each axis d: a new tensor.
TRef op_roll(ember_ctx* ctx, const ember_tensor* x, const std::vector<int64_t>& shift);
TRef op_argreduce(ember_ctx* ctx, OpId op, const ember_tensor* x, int64_t axis, bool keepdims);
TRef op_scan(ember_ctx* ctx, OpId op, const ember_tensor* x, int64_t axis);

void read_contiguous(const ember_tensor* t, void* dst, size_t nbytes);

}  // namespace ember
