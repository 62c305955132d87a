// Shared pieces of the cpu backend's drivers: host services, the selected ISA table, the
// thread pool, delegation to reference kernels and the N-operand geometry walker.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "ember/ember_backend.h"
#include "isa.hpp"

namespace ember_cpu {

extern const ember_host_api_t* g_host;
extern const IsaTable* g_isa;
// Outputs of at least this many bytes are written with non-temporal stores (half the
// last-level cache, at least 4 and at most 16 MiB, or EMBER_CPU_STREAM_BYTES): such an
// output would evict the inputs it is computed from anyway.
extern int64_t g_stream_bytes;
// kStream for an output of `bytes`, unless it is smaller than g_stream_bytes or shares its
// buffer with one of its inputs (a += b; a disjoint slice of the same buffer also counts,
// harmlessly): that input's lines are in the cache already, and streaming stores would push
// them out to memory (a 1e7 float32 a += b took 2.7 ms so, 1.4-1.7 ms through the cache).
// Nor when the output's packed runs are shorter than kStreamRunBytes (a slice of a wider
// buffer, such as pad's middle): the lines at both ends of each run are shared with the
// neighbouring bytes, and a streaming store of part of a line costs a read of the whole
// line from memory. pad of an (8, 64, 128, 128) float32 to (130, 130) took 14 ms so on
// the Zen 3 host of series 33, 4.1 ms through the cache.
constexpr int64_t kStreamRunBytes = 4096;
inline size_t itemsize_of(int32_t dtype);
inline int64_t packed_run_bytes(const ember_view_t& v, size_t itemsize) {
    int64_t run = (int64_t)itemsize;
    for (int d = v.ndim - 1; d >= 0; --d) {
        if (v.shape[d] == 1) continue;
        if (v.strides[d] * (int64_t)itemsize != run) break;
        run *= v.shape[d];
    }
    return run;
}
inline int stream_flag(int64_t bytes, const ember_view_t& out, std::initializer_list<const ember_view_t*> inputs) {
    if (bytes < g_stream_bytes) return 0;
    const size_t itemsize = itemsize_of(out.dtype);
    if (packed_run_bytes(out, itemsize) < kStreamRunBytes) return 0;
    for (const ember_view_t* in : inputs)
        if (in->data == out.data) return 0;
    return kStream;
}

// Makes the streaming stores issued so far ordered before later stores (kCallerFences).
inline void store_fence() {
#if defined(__SSE__)
    __builtin_ia32_sfence();
#endif
}

// What find_kernel hands the core alongside a native kernel: which op it is and the
// reference kernel to delegate to for dtypes and layouts the native one does not cover.
struct KernelData {
    const char* name;
    int code;          // BinOp / UnOp / RedOp / other, per kernel family
    ember_kernel_t ref;  // {nullptr} for composites (no reference kernel exists)
};
inline const KernelData* kdata(const ember_kernel_call_t* c) { return static_cast<const KernelData*>(c->kernel_data); }
inline ember_status_t delegate(const ember_kernel_call_t* c) {
    const KernelData* d = kdata(c);
    if (!d->ref.fn) return g_host->fail(EMBER_ERR_INTERNAL, "cpu: no reference kernel for %s", d->name);
    return d->ref.fn(c);
}
// The reference kernel of another op (looked up once per op name by the caller).
ember_kernel_t ref_kernel(const char* op);

inline size_t itemsize_of(int32_t dtype) {
    static const size_t sizes[EMBER_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    return sizes[dtype];
}
inline int64_t numel(const ember_view_t& v) {
    int64_t n = 1;
    for (int d = 0; d < v.ndim; ++d) n *= v.shape[d];
    return n;
}
inline bool is_contiguous(const ember_view_t& v) {
    int64_t expect = 1;
    for (int d = v.ndim - 1; d >= 0; --d) {
        if (v.shape[d] != 1 && v.strides[d] != expect) return false;
        expect *= v.shape[d];
    }
    return true;
}
// Whether v repeats elements (a dim longer than 1 with stride 0): a copy could be far larger.
inline bool broadcast_input(const ember_view_t& v) {
    for (int d = 0; d < v.ndim; ++d)
        if (v.shape[d] > 1 && v.strides[d] == 0) return true;
    return false;
}
// float16/bfloat16 run through the float32 kernels: their conversion slot, else -1.
inline int half_slot(int32_t dtype) { return dtype == EMBER_FLOAT16 ? C_F16 : dtype == EMBER_BFLOAT16 ? C_BF16 : -1; }
inline char* base_ptr(const ember_view_t& v) { return (char*)v.data + v.offset * (int64_t)itemsize_of(v.dtype); }

// Calls f(T{}) with the C type of an integer, float32 or float64 dtype and returns true;
// false (f not called) for bool, the half types and complex.
template <class F>
bool visit_real(int32_t dtype, F&& f) {
    switch (dtype) {
        case EMBER_INT8: f(int8_t{}); return true;
        case EMBER_INT16: f(int16_t{}); return true;
        case EMBER_INT32: f(int32_t{}); return true;
        case EMBER_INT64: f(int64_t{}); return true;
        case EMBER_UINT8: f(uint8_t{}); return true;
        case EMBER_UINT16: f(uint16_t{}); return true;
        case EMBER_UINT32: f(uint32_t{}); return true;
        case EMBER_UINT64: f(uint64_t{}); return true;
        case EMBER_FLOAT32: f(float{}); return true;
        case EMBER_FLOAT64: f(double{}); return true;
        default: return false;
    }
}

// Calls f(U{}) with the unsigned integer type of `size` bytes (1, 2, 4, else 8): copies,
// fills and gathers only move bits, so one instantiation serves every dtype of that size.
template <class F>
void visit_bits(size_t size, F&& f) {
    switch (size) {
        case 1: f(uint8_t{}); break;
        case 2: f(uint16_t{}); break;
        case 4: f(uint32_t{}); break;
        default: f(uint64_t{}); break;
    }
}

// NaN test for any real element type (integers are never NaN).
template <class T>
inline bool is_nan(T v) {
    return v != v;
}

// Element offsets in `in` and `out` of line `line` (C order over every dim but `axis`) of
// an op that works along `axis`; out has in's number of dims.
inline void line_offsets(const ember_view_t& in, const ember_view_t& out, int axis, int64_t line, int64_t& io, int64_t& oo) {
    io = oo = 0;
    for (int d = in.ndim - 1; d >= 0; --d) {
        if (d == axis) continue;
        const int64_t i = line % in.shape[d];
        line /= in.shape[d];
        io += i * in.strides[d];
        oo += i * out.strides[d];
    }
}

// C-order positions over a list of dims, and each position's element offsets in N views
// (a stride per view and dim): offsets_at seeks any position (a division per dim, tens of
// cycles each), next steps from one position to the following by adding strides. Matmul
// walks its batch this way (a, b, out), reductions their kept and reduced dims (in, out),
// complex sequences their lines and steps.
// Only the first nd entries of the arrays are ever read, and they are left uninitialised:
// zeroing them cost a 4 x 4 sum 30 ns and a 4 x 4 matmul 15-20 ns of their ~120.
template <int N>
struct StridedWalk {
    int nd = 0;
    int64_t count = 1;  // positions
    int64_t shape[EMBER_MAX_DIMS], stride[N][EMBER_MAX_DIMS];
    void add_dim(int64_t extent, std::initializer_list<int64_t> strides) {
        shape[nd] = extent;
        int k = 0;
        for (int64_t s : strides) stride[k++][nd] = s;
        ++nd;
        count *= extent;
    }
    void offsets_at(int64_t i, int64_t* off) const {
        for (int k = 0; k < N; ++k) off[k] = 0;
        for (int d = nd - 1; d >= 0; --d) {
            const int64_t at = i % shape[d];
            i /= shape[d];
            for (int k = 0; k < N; ++k) off[k] += at * stride[k][d];
        }
    }
    // A cursor at position 0 (take it once every dim is added): off holds the offsets of
    // position `at`, moved forward one position by next.
    struct Cursor {
        const StridedWalk* walk = nullptr;
        int64_t at = 0, off[N] = {}, idx[EMBER_MAX_DIMS];
        void seek(int64_t i) {
            at = i;
            walk->offsets_at(i, off);
            for (int d = walk->nd - 1; d >= 0; --d) {
                idx[d] = i % walk->shape[d];
                i /= walk->shape[d];
            }
        }
        void next() {
            ++at;
            for (int d = walk->nd - 1; d >= 0; --d) {
                for (int k = 0; k < N; ++k) off[k] += walk->stride[k][d];
                if (++idx[d] < walk->shape[d]) return;
                for (int k = 0; k < N; ++k) off[k] -= walk->shape[d] * walk->stride[k][d];
                idx[d] = 0;
            }
        }
        // The offsets of position i: a step from the one before, else a seek.
        const int64_t* to(int64_t i) {
            if (i == at + 1) next();
            else if (i != at) seek(i);
            return off;
        }
    };
    Cursor cursor() const {
        Cursor c;
        c.walk = this;
        for (int d = 0; d < nd; ++d) c.idx[d] = 0;
        return c;
    }
};

// ------------------------------------------------------------------ scratch memory
// From the backend's caching allocator: 2 MiB-aligned huge pages for large blocks, reused
// across calls (no fresh page faults), counted in memory_info. Throws std::bad_alloc,
// which the core reports as EMBER_ERR_OUT_OF_MEMORY.
void* scratch_allocate(size_t nbytes);
void scratch_release(void* p);
template <class E>
struct Scratch {
    E* data;
    explicit Scratch(int64_t n) : data((E*)scratch_allocate((size_t)n * sizeof(E))) {}
    ~Scratch() { scratch_release(data); }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
};
// Scratch for a loop that packs one operand after another: the block is kept and only
// replaced by a larger one, and nothing is zeroed first (a std::vector's resize wrote every
// byte once before the packing wrote it again, into freshly faulted pages).
class GrowingScratch {
  public:
    GrowingScratch() = default;
    ~GrowingScratch() { scratch_release(data_); }
    GrowingScratch(const GrowingScratch&) = delete;
    GrowingScratch& operator=(const GrowingScratch&) = delete;
    char* reserve(size_t nbytes) {
        if (nbytes > bytes_) {
            scratch_release(data_);
            data_ = nullptr;
            bytes_ = 0;  // stays empty if the allocation throws
            data_ = (char*)scratch_allocate(nbytes);
            bytes_ = nbytes;
        }
        return data_;
    }

  private:
    char* data_ = nullptr;
    size_t bytes_ = 0;
};

// nr rows of nc elements of sz bytes (rows rs, elements cs elements apart in src) packed
// into dst, whose rows are dst_row elements apart: strided operands gathered into L1 pieces
// for the vector kernels (elementwise.cpp, reduce.cpp).
void gather_strided(const char* src, int64_t rs, int64_t cs, int64_t nr, int64_t nc, size_t sz, int64_t dst_row, char* dst);

// ------------------------------------------------------------------ threading
int num_threads();
// Runs fn(ctx, task) for task in [0, ntasks) on the pool (the caller takes part). Runs
// inline when ntasks <= 1, the pool has one thread, or the pool is busy (nested or
// concurrent callers): never blocks on another caller's work.
void parallel_run(int64_t ntasks, void (*fn)(void*, int64_t), void* ctx);
template <class F>
void parallel_tasks(int64_t ntasks, F&& f) {
    using Fn = std::remove_reference_t<F>;
    parallel_run(ntasks, [](void* c, int64_t t) { (*static_cast<Fn*>(c))(t); }, (void*)&f);
}
// Splits [0, n) into chunks of at least `grain` and runs f(begin, end) on each; serial when
// n < threshold (so tiny ops never touch the pool).
template <class F>
void parallel_range(int64_t n, int64_t threshold, int64_t grain, F&& f) {
    int nt = num_threads();
    if (n < threshold || nt <= 1) {
        if (n > 0) f((int64_t)0, n);
        return;
    }
    int64_t chunks = (n + grain - 1) / grain;
    int64_t max_chunks = (int64_t)nt * 2;
    if (chunks > max_chunks) chunks = max_chunks;
    if (chunks < 2) {
        f((int64_t)0, n);
        return;
    }
    int64_t step = (n + chunks - 1) / chunks;
    // Keep chunk boundaries on 64-byte lines for typical element sizes, where the range
    // counts elements (a grain of 16 or more). Rounded always, a range of 16 rows or tasks
    // or fewer made one chunk and ran on one thread (for_tiles' 16 blocks of 64 rows of a
    // transposed (1000, 1000) uint8: 137 us, 64 with both threads).
    if (grain >= 16) step = (step + 15) & ~(int64_t)15;
    chunks = (n + step - 1) / step;
    parallel_tasks(chunks, [&](int64_t t) {
        int64_t b = t * step, e = b + step < n ? b + step : n;
        if (b < e) f(b, e);
    });
}

// Work thresholds (elements) above which kernels use the pool: waking a worker costs
// ~10 us on the 2-vCPU VM this was tuned on, so a job must be worth several times that.
// kParallelCheap was 2^18 there; on the Intel host of series 40-44 (2 MiB of L2 a core, a
// slow L3) one core's float32 add of 2^17-2^18 elements (1.5-3 MB of operands) ran at a
// third of its L2 rate: 200000 elements took 46-70 us on one core, 15 on two; 2^17 is at
// break-even where a wake costs 10 us.
// The same rule, 15-20 us of work on one thread, gives the other tiers: float64's libm
// functions cost about twice float32's an element (kParallelCostly / 2), and kernels of a
// nanosecond an element or more (pow, atan2, float64 logaddexp, integer floor_divide and
// remainder) share from kParallelHeavy: float32 pow of 32768 elements took 41 us on one
// thread, 22 on two.
constexpr int64_t kParallelCheap = 1 << 17;     // add, compare, copy, sum: ~1.5 MB of traffic
constexpr int64_t kParallelCostly = 1 << 16;    // exp, log, tanh, sigmoid, libm loops
constexpr int64_t kParallelHeavy = 1 << 14;     // ~1 ns an element or more

// ------------------------------------------------------------------ geometry
// Up to 4 operands of one shape: dims of extent 1 dropped, dims contiguous in every
// operand merged, strides in elements.
struct Geometry {
    int nd = 0;
    int64_t shape[EMBER_MAX_DIMS];
    int64_t st[4][EMBER_MAX_DIMS];
    int64_t size = 1;
};
inline bool make_geometry(const ember_view_t* const* views, int nops, Geometry& g) {
    const ember_view_t& v0 = *views[0];
    g.nd = 0;
    g.size = 1;
    for (int d = 0; d < v0.ndim; ++d) {
        if (v0.shape[d] == 0) {
            g.size = 0;
            return false;
        }
        if (v0.shape[d] == 1) continue;
        bool merge = g.nd > 0;
        for (int k = 0; k < nops && merge; ++k) merge = g.st[k][g.nd - 1] == views[k]->strides[d] * v0.shape[d];
        if (merge) {
            g.shape[g.nd - 1] *= v0.shape[d];
            for (int k = 0; k < nops; ++k) g.st[k][g.nd - 1] = views[k]->strides[d];
        } else {
            g.shape[g.nd] = v0.shape[d];
            for (int k = 0; k < nops; ++k) g.st[k][g.nd] = views[k]->strides[d];
            ++g.nd;
        }
        g.size *= v0.shape[d];
    }
    if (g.nd == 0) {  // a single element
        g.shape[0] = 1;
        for (int k = 0; k < nops; ++k) g.st[k][0] = 0;
        g.nd = 1;
    }
    return true;
}

// Calls f(off[nops], len) for each inner run covering linear elements [begin, end) of g,
// with off = element offsets of the run's first element (relative to each view's base).
template <int N, class F>
inline void walk_runs(const Geometry& g, int64_t begin, int64_t end, F&& f) {
    const int nd = g.nd;
    if (nd == 1) {  // one run, no index arithmetic (its division costs tens of cycles)
        int64_t off[N];
        for (int k = 0; k < N; ++k) off[k] = begin * g.st[k][0];
        if (begin < end) f(off, end - begin);
        return;
    }
    const int64_t inner = g.shape[nd - 1];
    int64_t idx[EMBER_MAX_DIMS];
    int64_t outer = begin / inner, in0 = begin % inner;
    for (int d = nd - 2; d >= 0; --d) {
        idx[d] = outer % g.shape[d];
        outer /= g.shape[d];
    }
    int64_t off[N];
    for (int k = 0; k < N; ++k) {
        off[k] = in0 * g.st[k][nd - 1];
        for (int d = 0; d < nd - 1; ++d) off[k] += idx[d] * g.st[k][d];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t len = inner - in0;
        if (len > end - pos) len = end - pos;
        f(off, len);
        pos += len;
        if (pos >= end) break;
        // next row: undo the inner position and carry the outer index
        for (int k = 0; k < N; ++k) off[k] -= in0 * g.st[k][nd - 1];
        in0 = 0;
        for (int d = nd - 2; d >= 0; --d) {
            if (++idx[d] < g.shape[d]) {
                for (int k = 0; k < N; ++k) off[k] += g.st[k][d];
                break;
            }
            for (int k = 0; k < N; ++k) off[k] -= (g.shape[d] - 1) * g.st[k][d];
            idx[d] = 0;
        }
    }
}

// Kernel families registered by each driver file.
struct NativeKernel {
    const char* name;
    ember_kernel_fn fn;
    int code;
    bool composite;  // overrides a composite row: there is no reference kernel to delegate to
    int flags = 0;   // or'ed into find_kernel's EMBER_KERNEL_NATIVE (EMBER_KERNEL_WIDENS_INPUT, _TESTS_INPUT)
};
void add_elementwise_kernels(std::vector<NativeKernel>& k);
// A binary op through the ISA table's kernel bin[code] (broadcasts, strides, the half types
// staged through float32), else the reference's code on slices (elementwise.cpp).
ember_status_t binary_isa_kernel(const ember_kernel_call_t* c, int code);
// Complex x ** n for one exponent n + 0i, n an integer with |n| < 100: repeated products
// (the reference's order) in the product's vector kernel; other exponents the reference's
// cpow on slices (elementwise.cpp).
ember_status_t complex_power_kernel(const ember_kernel_call_t* c);
// The same over a given kernel: fn takes the operands' dtype, or float32 for float16/bfloat16
// operands (staged through it); null fn: the reference on slices. threshold: the elements
// worth a second thread (kParallelCostly for costly kernels).
ember_status_t binary_vector_kernel(const ember_kernel_call_t* c, BinFn fn, int64_t threshold = kParallelCheap);
// A float16/bfloat16 input through the float32 kernel fn32 into an output of its type:
// contiguous runs, stepped ones through tiles; false (nothing written) where neither applies.
bool unary_half_staged(const ember_kernel_call_t* c, UnFn fn32);
// g (operand 0 the output, 1 the input) through a contiguous-run kernel fn(in, out, n,
// flags) taking the input's dtype: contiguous runs, short rows in blocks, stepped or
// transposed inputs through tiles (16-byte elements: transposes and tiles only); false
// (nothing written) where the output is not contiguous along the last dim or the input is a
// broadcast.
bool unary_vector_runs(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, UnFn fn, int64_t threshold, int flags);
// f(in, out, n) on stretches of a stepped, reversed or transposed input gathered into L1
// tiles, for kernels with more state than a UnFn (clip's bounds); the output contiguous
// along the last dim. False (nothing written) where it is not, or the input is a broadcast
// along it.
bool tiled_unary_runs(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, int64_t threshold,
                      const std::function<void(const char* in, char* out, int64_t n)>& f);
// Rows shorter than 64 elements into an output in C order: f(in, out, n) on blocks of whole
// rows, the input contiguous (copied into a buffer where it does not lie as the output
// does), for kernels that cost a call per run; false, nothing written, for other geometries.
bool staged_short_rows(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, int64_t threshold,
                       const std::function<void(const char* in, char* out, int64_t n)>& f);
// x's elements into dst, a view of x's shape and dtype (usually C order), by the native
// copy (stepped, transposed and reversed views in tiles); c lends the call's other fields.
ember_status_t copy_in_c_order(const ember_kernel_call_t* c, const ember_view_t& x, const ember_view_t& dst);
// c's input (its only one) copied in C order into scratch, and run(call, st) on a call
// that reads the copy: for kernels whose native paths take few layouts. The copy has the
// input's dtype, or copy_dtype where given (float16 widened to float32: exact). run returns
// whether it wrote the result. False (st unset) where run declined or the allocator could
// not lend the copy: the caller falls back as before.
template <class Run>
bool run_on_c_order_copy(const ember_kernel_call_t* c, ember_status_t& st, Run run, int32_t copy_dtype = -1) {
    const ember_view_t& in = c->in[0];
    const int32_t dtype = copy_dtype < 0 ? in.dtype : copy_dtype;
    try {
        Scratch<char> copy(numel(in) * (int64_t)itemsize_of(dtype));
        int64_t strides[EMBER_MAX_DIMS];
        for (int64_t d = in.ndim - 1, step = 1; d >= 0; step *= in.shape[d], --d) strides[d] = step;
        const ember_view_t copy_view{copy.data, 0, dtype, in.ndim, in.shape, strides};
        if ((st = copy_in_c_order(c, in, copy_view)) != EMBER_OK) return true;
        ember_kernel_call_t call = *c;
        call.in = &copy_view;
        return run(&call, st);
    } catch (const std::bad_alloc&) {
        return false;
    }
}
void add_reduce_kernels(std::vector<NativeKernel>& k);
// all (else any) of c's input over its axes into c's bool output: bools as their min/max,
// other dtypes through count_nonzero's native layouts (reduce.cpp); false, nothing written,
// where none applies.
bool all_any_native(const ember_kernel_call_t* c, bool all);
// all (any) of every element of x (ndim >= 1, any dtype) into out's one bool, counted in
// blocks that stop at the first element that decides it (gather.cpp).
void all_any_of_every_element(const ember_view_t& x, const ember_view_t& out, bool all);
void add_matmul_kernels(std::vector<NativeKernel>& k);
// softmax, log_softmax: rows a piece in L1 at a time, one long row across the pool (softmax.cpp).
void add_softmax_kernels(std::vector<NativeKernel>& k);
// var, std over trailing axes of contiguous float32/float64 x, two passes per group in
// double; other calls declined through info (variance.cpp).
void add_variance_kernels(std::vector<NativeKernel>& k);
// A call with the var/std convention (x in; result and info out) reducing contiguous
// float32/float64 x over its trailing axes into a contiguous result of x's dtype: rows
// groups of len elements each. taken false (info set to 1, declined) for any other layout
// or dtype; a status where the call itself is malformed (variance.cpp).
struct TrailingRows {
    bool taken = false, twice = false;  // twice: float64, else float32
    int64_t rows = 0, len = 0;
    int64_t* info = nullptr;
};
ember_status_t trailing_rows(const ember_kernel_call_t* c, const char* name, TrailingRows& r);
// nansum, nanmean, nanmax, nanmin over trailing axes of contiguous float32/float64 x, one
// pass per group; other calls declined through info (nan_reduce.cpp).
void add_nan_reduce_kernels(std::vector<NativeKernel>& k);
// bincount in one pass (counting.cpp).
void add_counting_kernels(std::vector<NativeKernel>& k);
// cummax, cummin in one pass along the axis (cum_extreme.cpp).
void add_cum_extreme_kernels(std::vector<NativeKernel>& k);
// topk by one pass per line that keeps the candidates for the best k (topk.cpp).
void add_topk_kernels(std::vector<NativeKernel>& k);
// The two order statistics a quantile needs, by selection (quantile.cpp).
void add_quantile_kernels(std::vector<NativeKernel>& k);
// The cross product of 3-vectors in one pass (cross.cpp).
void add_cross_kernels(std::vector<NativeKernel>& k);
// tril and triu in one pass (triangle.cpp).
void add_triangle_kernels(std::vector<NativeKernel>& k);
// isclose in one pass (isclose.cpp).
void add_isclose_kernel(std::vector<NativeKernel>& k);
// vecdot of complex lines in one pass (vecdot.cpp).
void add_vecdot_kernel(std::vector<NativeKernel>& k);
// The number of trailing axes axes_mask reduces, or -1 where it is not a trailing block
// (the reductions that take only rows or whole tensors: var, std, nansum, ...).
inline int trailing_axes(uint64_t mask, int ndim) {
    int k = 0;
    while (k < ndim && (mask >> (ndim - 1 - k) & 1)) ++k;
    for (int d = 0; d < ndim - k; ++d)
        if (mask >> d & 1) return -1;
    return k;
}
// lu_factor, lu_solve, cholesky, qr, svd, eigh, eig over LAPACKE (lapack.cpp, lapack_eig.cpp).
void add_lapack_kernels(std::vector<NativeKernel>& k);
// float32/float64 ops without a vector kernel (sin, erf, pow, isnan, ...): the reference's
// libm call per element, threaded (libm_loops.cpp).
void add_libm_kernels(std::vector<NativeKernel>& k);
// gelu (both forms) in one pass (gelu.cpp).
void add_gelu_kernel(std::vector<NativeKernel>& k);
// clip with 0-d bounds in one pass (clip.cpp).
void add_clip_kernel(std::vector<NativeKernel>& k);
// leaky_relu in one pass (leaky_relu.cpp).
void add_leaky_relu_kernel(std::vector<NativeKernel>& k);
// logsumexp over any axes, x read once (logsumexp.cpp).
void add_logsumexp_kernel(std::vector<NativeKernel>& k);
// fft_c2c: lines a vector's width at a time (fft.cpp).
void add_fft_kernel(std::vector<NativeKernel>& k);
// The reference kernel of c run on slices of a dim across the pool (line_ops.cpp); `code`
// says which dims the op works along, and which inputs every slice needs whole.
enum { kElementwise = 0, kAxisAttr = 1, kAxesMask = 2 };
constexpr int kWholeShift = 4;
constexpr int whole(int input) { return 1 << (kWholeShift + input); }
ember_status_t reference_on_slices(const ember_kernel_call_t* c, int code);
// prod of complex dtypes in the reference's sequence, in any layout: every output, or only
// the ones that are not finite (after the native kernel); cumsum/cumprod of complex dtypes
// (complex_sequence.cpp).
ember_status_t complex_prod_in_sequence(const ember_kernel_call_t* c, bool only_nonfinite);
ember_status_t complex_scan_in_sequence(const ember_kernel_call_t* c, bool sum);
// argmax/argmin along a contiguous axis: the vector max/min, then the first position (argreduce.cpp).
void add_arg_kernels(std::vector<NativeKernel>& k);
// sort/argsort: a stable radix sort per line, lines in parallel (sort.cpp).
void add_sort_kernels(std::vector<NativeKernel>& k);
// cumsum/cumprod along an outer axis, vectorised across the inner dims (scan.cpp).
void add_scan_kernels(std::vector<NativeKernel>& k);
// The random family: runs of consecutive elements with their block numbers (random_ops.cpp).
void add_random_kernels(std::vector<NativeKernel>& k);
// take, nonzero, arange, searchsorted, one_hot: gathers by rows, two-pass index lists
// (gather.cpp).
void add_gather_kernels(std::vector<NativeKernel>& k);

}  // namespace ember_cpu
