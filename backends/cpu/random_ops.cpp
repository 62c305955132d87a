// The random family on the thread pool. Every element's value depends only on the key and
// its block number, base + its C-order index (docs/numerics-random.md), so a run of
// consecutive elements is the reference kernel called on a slice whose base is moved to the
// run's first element: the result is bit-identical to one reference call, whatever the
// thread count. random_bits packs four words per block, so its runs start on a multiple of
// four elements; into a contiguous output it is the ISA's vector Philox, all lanes at once.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <type_traits>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

enum { kBlockPerElement = 1, kWordsPerBlock = 4 };
constexpr int kMaxParams = 2;

// random_bits into contiguous memory: whole blocks straight into place, a last partial
// block through a scratch block.
void vector_bits(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    uint32_t* words = (uint32_t*)out.data + out.offset;
    const int64_t n = numel(out), whole = n / 4;
    parallel_range(whole, kParallelCostly / 4, 1024, [&](int64_t begin, int64_t end) { g_isa->philox(key, base + (uint64_t)begin, words + 4 * begin, end - begin); });
    if (n % 4) {
        uint32_t last[4];
        g_isa->philox(key, base + (uint64_t)whole, last, 1);
        std::memcpy(words + 4 * whole, last, (size_t)(n % 4) * 4);
    }
}

// random_uniform (a COMPOSITE_KERNEL row): the composite's op sequence in
// src/ops/random.cpp, per element and in one pass: the same Philox words and the same
// roundings (no FMA: CMakeLists.txt builds this file with -ffp-contract=off), and values
// that round up to `high` moved to the largest value below it.
template <class T>
void uniform_t(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    const double low = c->attrs->f[0], high = c->attrs->f[1];
    const T scale = (T)(high - low), shift = (T)low, top = (T)high;
    const T below = std::nextafter(top, -std::numeric_limits<T>::infinity());
    constexpr int64_t kWords = sizeof(T) == 8 ? 2 : 1, kPerBlock = kWordsPerBlock / kWords, kBatch = 256;
    T* dst = (T*)out.data + out.offset;
    const int64_t n = numel(out), blocks = (n + kPerBlock - 1) / kPerBlock;
    parallel_range(blocks, kParallelCostly / 4, kBatch, [&](int64_t b0, int64_t b1) {
        uint32_t w[kWordsPerBlock * kBatch];
        for (int64_t b = b0; b < b1; b += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - b), e0 = b * kPerBlock, m = std::min(nb * kPerBlock, n - e0);
            g_isa->philox(key, base + (uint64_t)b, w, nb);
            // Locals, so the stores cannot alias the constants and the loop vectorises.
            const T sc = scale, sh = shift, tp = top, bl = below;
            T* d = dst + e0;
            for (int64_t k = 0; k < m; ++k) {
                T u;
                // The shifted words fit in int32: a signed conversion, which SSE2 vectorises.
                if constexpr (kWords == 1) u = (T)(int32_t)(w[k] >> 8) * (T)(1.0 / 16777216.0);
                else u = ((T)(int32_t)(w[2 * k] >> 5) * (T)67108864.0 + (T)(int32_t)(w[2 * k + 1] >> 6)) * (T)(1.0 / 9007199254740992.0);
                const T r = u * sc + sh;
                d[k] = r >= tp ? bl : r;
            }
        }
    });
}

ember_status_t uniform_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 0 || c->n_out != 1 || !is_contiguous(c->out[0]))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu random_uniform: expects no input and one contiguous output");
    switch (c->out[0].dtype) {
        case EMBER_FLOAT32: uniform_t<float>(c); return EMBER_OK;
        case EMBER_FLOAT64: uniform_t<double>(c); return EMBER_OK;
        default: return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu random_uniform: dtype %d is not float32 or float64", (int)c->out[0].dtype);
    }
}

// x mod d for one d >= 1 and any 64-bit x without a division per element: the quotient
// by Granlund and Montgomery's multiply-high with a 64-bit magic number and a correction
// (PLDI 1994, figure 4.1: exact for every x), then x - q d.
class ModuloBy {
  public:
    explicit ModuloBy(uint64_t d) : d_(d) {
        const int l = d == 1 ? 0 : 64 - __builtin_clzll(d - 1);  // ceil(log2 d)
        const unsigned __int128 two_l = (unsigned __int128)1 << l;
        magic_ = (uint64_t)((((two_l - d) << 64) / d) + 1);
        shift1_ = l < 1 ? l : 1;
        shift2_ = l > 1 ? l - 1 : 0;
    }
    uint64_t operator()(uint64_t x) const {
        const uint64_t t = (uint64_t)(((unsigned __int128)magic_ * x) >> 64);
        return x - ((t + ((x - t) >> shift1_)) >> shift2_) * d_;
    }

  private:
    uint64_t d_, magic_;
    int shift1_, shift2_;
};

// random_randint (a COMPOSITE_KERNEL row): low + (w mod range) in uint64 arithmetic, w the
// element's two Philox words (the first one high), two elements per block: the composite's
// values and stream use, in one pass.
template <class T>
void randint_t(const ember_kernel_call_t* c) {
    using U = std::make_unsigned_t<T>;
    const ember_view_t& out = c->out[0];
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    const uint64_t low = (uint64_t)c->attrs->i[2];
    const ModuloBy mod((uint64_t)c->attrs->i[3]);
    constexpr int64_t kPerBlock = 2, kBatch = 256;
    T* dst = (T*)out.data + out.offset;
    const int64_t n = numel(out), blocks = (n + kPerBlock - 1) / kPerBlock;
    parallel_range(blocks, kParallelCostly / 4, kBatch, [&](int64_t b0, int64_t b1) {
        uint32_t w[kWordsPerBlock * kBatch];
        for (int64_t b = b0; b < b1; b += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - b), e0 = b * kPerBlock, m = std::min(nb * kPerBlock, n - e0);
            g_isa->philox(key, base + (uint64_t)b, w, nb);
            T* d = dst + e0;
            for (int64_t k = 0; k < m; ++k) d[k] = (T)(U)(low + mod((uint64_t)w[2 * k] << 32 | w[2 * k + 1]));
        }
    });
}

ember_status_t randint_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 0 || c->n_out != 1 || !is_contiguous(c->out[0]) || c->attrs->i[3] == 0)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu random_randint: expects no input, one contiguous output and a range of at least 1");
    switch (c->out[0].dtype) {
        case EMBER_INT8: randint_t<int8_t>(c); return EMBER_OK;
        case EMBER_INT16: randint_t<int16_t>(c); return EMBER_OK;
        case EMBER_INT32: randint_t<int32_t>(c); return EMBER_OK;
        case EMBER_INT64: randint_t<int64_t>(c); return EMBER_OK;
        case EMBER_UINT8: randint_t<uint8_t>(c); return EMBER_OK;
        case EMBER_UINT16: randint_t<uint16_t>(c); return EMBER_OK;
        case EMBER_UINT32: randint_t<uint32_t>(c); return EMBER_OK;
        case EMBER_UINT64: randint_t<uint64_t>(c); return EMBER_OK;
        default: return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu random_randint: dtype %d is not an integer dtype", (int)c->out[0].dtype);
    }
}

ember_status_t random_kernel(const ember_kernel_call_t* c) {
    const KernelData* kd = kdata(c);
    const ember_view_t& out = c->out[0];
    const int n_in = c->n_in;
    if (kd->code == kWordsPerBlock && n_in == 0 && c->n_out == 1 && out.dtype == EMBER_UINT32 && is_contiguous(out)) {
        vector_bits(c);
        return EMBER_OK;
    }
    if (c->n_out != 1 || n_in < 0 || n_in > kMaxParams || numel(out) < kParallelCostly || num_threads() <= 1) return delegate(c);
    // Out and the parameter views (out's shape, stride 0 where broadcast) with the dims that
    // every one of them can merge merged: the C order of the elements is unchanged.
    const ember_view_t* views[1 + kMaxParams] = {&out};
    for (int k = 0; k < n_in; ++k) {
        if (c->in[k].ndim != out.ndim) return delegate(c);
        views[1 + k] = &c->in[k];
    }
    Geometry g;
    if (!make_geometry(views, 1 + n_in, g)) return delegate(c);
    const int64_t rows = g.shape[0], per_row = g.size / rows;
    const int64_t per_block = kd->code;
    int64_t rows_per_unit = 1;  // rows of one indivisible unit: whole blocks of words
    while ((rows_per_unit * per_row) % per_block) ++rows_per_unit;

    struct Slice {
        int64_t shape[EMBER_MAX_DIMS];
        ember_view_t in[kMaxParams], out;
        ember_attrs_t attrs;
        ember_kernel_call_t call;
    };
    auto make_slice = [&](Slice& s, int64_t begin, int64_t end) {
        for (int d = 0; d < g.nd; ++d) s.shape[d] = g.shape[d];
        s.shape[0] = end - begin;
        auto cut = [&](const ember_view_t& v, const int64_t* strides, ember_view_t& to) {
            to = v;
            to.ndim = g.nd;
            to.shape = s.shape;
            to.strides = strides;
            to.offset = v.offset + begin * strides[0];
        };
        cut(out, g.st[0], s.out);
        for (int k = 0; k < n_in; ++k) cut(c->in[k], g.st[1 + k], s.in[k]);
        s.attrs = *c->attrs;
        s.attrs.i[1] = (int64_t)((uint64_t)c->attrs->i[1] + (uint64_t)(begin * per_row / per_block));
        s.call = *c;
        s.call.in = s.in;
        s.call.out = &s.out;
        s.call.attrs = &s.attrs;
    };
    // An empty slice on the calling thread first, so a refused dtype is reported here.
    Slice probe;
    make_slice(probe, 0, 0);
    if (ember_status_t st = kd->ref.fn(&probe.call)) return st;
    const int64_t units = (rows + rows_per_unit - 1) / rows_per_unit;
    std::atomic<int> failed{0};
    parallel_range(units, 2, 1, [&](int64_t begin, int64_t end) {
        Slice s;
        make_slice(s, begin * rows_per_unit, std::min(end * rows_per_unit, rows));
        if (kd->ref.fn(&s.call) != EMBER_OK) failed.store(1);
    });
    return failed.load() ? delegate(c) : EMBER_OK;
}

}  // namespace

void add_random_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"random_bits", random_kernel, kWordsPerBlock, false});
    k.push_back({"random_uniform", uniform_kernel, 0, true});
    k.push_back({"random_randint", randint_kernel, 0, true});
    for (const char* name : {"random_truncated_normal", "random_gamma", "random_beta", "random_binomial", "random_poisson"})
        k.push_back({name, random_kernel, kBlockPerElement, false});
}

}  // namespace ember_cpu
