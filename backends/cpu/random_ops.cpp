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
#include <mutex>
#include <type_traits>
#include <vector>

#include "../common/random_samplers.hpp"
#include "../common/saturating_cast.hpp"
#include "cpu_common.hpp"
#include "first_position.hpp"
#include "neg_log_fast.hpp"

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
    parallel_range(whole, kParallelCostly / 4, 1024, [&](int64_t begin, int64_t end) { g_isa->philox(key, base + (uint64_t)begin, words + 4 * begin, end - begin, 0); });
    if (n % 4) {
        uint32_t last[4];
        g_isa->philox(key, base + (uint64_t)whole, last, 1, 0);
        std::memcpy(words + 4 * whole, last, (size_t)(n % 4) * 4);
    }
}

// Element k of a batch of the composite's unit uniforms on [0, 1) (src/ops/random.cpp):
// 24 bits of one word for float32, 53 bits of two for float64, every value exact.
template <class T>
inline T unit_uniform(const uint32_t* w, int64_t k) {
    // The shifted words fit in int32: a signed conversion, which SSE2 vectorises.
    if constexpr (sizeof(T) == 4) return (T)(int32_t)(w[k] >> 8) * (T)(1.0 / 16777216.0);
    else return ((T)(int32_t)(w[2 * k] >> 5) * (T)67108864.0 + (T)(int32_t)(w[2 * k + 1] >> 6)) * (T)(1.0 / 9007199254740992.0);
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
            g_isa->philox(key, base + (uint64_t)b, w, nb, 0);
            // Locals, so the stores cannot alias the constants and the loop vectorises.
            const T sc = scale, sh = shift, tp = top, bl = below;
            T* d = dst + e0;
            for (int64_t k = 0; k < m; ++k) {
                const T r = unit_uniform<T>(w, k) * sc + sh;
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

// random_normal and random_exponential (COMPOSITE_KERNEL rows): the composite's op
// sequence in src/ops/random.cpp on batches of elements that stay in the L1 cache, through
// the functions the cpu backend's own log, log1p, sqrt and cos kernels run (the same vector
// code for every element, as there) and with the same roundings (no FMA): the composite's
// values on this backend bit for bit, on any number of threads.
//   normal: u1 = 1 - U1, u2 = U2 (two streams, U2's blocks after all of U1's),
//           (sqrt(-2 log u1) * cos(2 pi u2)) * std + mean
//   exponential: -log1p(-U) / rate
// The scalars are rounded to T first, as weak scalars in the composite's T arithmetic, and a
// negation is 0 - x, as the backend's negative computes it (-0 comes out +0).
enum Distribution { kNormal, kExponential };

template <class T>
void apply(UnFn vec, T (*scalar)(T), const T* x, T* out, int64_t n) {
    if (vec) vec(x, out, n, 0);
    else for (int64_t i = 0; i < n; ++i) out[i] = scalar(x[i]);
}

template <class T, Distribution D>
void distribution_t(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const int is64 = sizeof(T) == 8, dt = is64 ? EMBER_FLOAT64 : EMBER_FLOAT32;
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    constexpr int64_t kWords = sizeof(T) == 8 ? 2 : 1, kPerBlock = kWordsPerBlock / kWords, kBatch = 128;
    T* dst = (T*)out.data + out.offset;
    const int64_t n = numel(out), blocks = (n + kPerBlock - 1) / kPerBlock;
    const uint64_t second_stream = base + (uint64_t)blocks;
    const UnFn log_fn = g_isa->un[U_LOG][dt], sqrt_fn = g_isa->un[U_SQRT][dt];
    const UnFn cos_fn = g_isa->math[M_cos][is64], log1p_fn = g_isa->math[M_log1p][is64];
    const T first = (T)c->attrs->f[0], second = (T)c->attrs->f[1];  // normal: mean, std; exponential: rate
    const T two_pi = (T)(2 * M_PI);
    parallel_range(blocks, kParallelCostly / 16, kBatch, [&](int64_t b0, int64_t b1) {
        uint32_t w[kWordsPerBlock * kBatch];
        alignas(64) T u[kPerBlock * kBatch], v[kPerBlock * kBatch];
        for (int64_t b = b0; b < b1; b += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - b), e0 = b * kPerBlock, m = std::min(nb * kPerBlock, n - e0);
            T* d = dst + e0;
            g_isa->philox(key, base + (uint64_t)b, w, nb, 0);
            if constexpr (D == kNormal) {
                for (int64_t k = 0; k < m; ++k) u[k] = (T)1 - unit_uniform<T>(w, k);
                apply<T>(log_fn, std::log, u, v, m);
                for (int64_t k = 0; k < m; ++k) v[k] = (T)-2 * v[k];
                apply<T>(sqrt_fn, std::sqrt, v, d, m);  // the radius, parked in the output
                g_isa->philox(key, second_stream + (uint64_t)b, w, nb, 0);
                for (int64_t k = 0; k < m; ++k) u[k] = two_pi * unit_uniform<T>(w, k);
                apply<T>(cos_fn, std::cos, u, v, m);
                const T mean = first, sd = second;
                for (int64_t k = 0; k < m; ++k) d[k] = d[k] * v[k] * sd + mean;
            } else {
                for (int64_t k = 0; k < m; ++k) u[k] = (T)0 - unit_uniform<T>(w, k);
                apply<T>(log1p_fn, std::log1p, u, v, m);
                const T rate = first;
                for (int64_t k = 0; k < m; ++k) d[k] = ((T)0 - v[k]) / rate;
            }
        }
    });
}

template <Distribution D>
ember_status_t distribution_kernel(const ember_kernel_call_t* c) {
    const char* name = D == kNormal ? "random_normal" : "random_exponential";
    if (c->n_in != 0 || c->n_out != 1 || !is_contiguous(c->out[0]))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: expects no input and one contiguous output", name);
    switch (c->out[0].dtype) {
        case EMBER_FLOAT32: distribution_t<float, D>(c); return EMBER_OK;
        case EMBER_FLOAT64: distribution_t<double, D>(c); return EMBER_OK;
        default: return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu %s: dtype %d is not float32 or float64", name, (int)c->out[0].dtype);
    }
}

// random_categorical (a COMPOSITE_KERNEL row): the composite's Gumbel-max in one pass. The
// scores have shape (..., samples, classes); score (row, c) is logits[row / samples, c] +
// -log(-log(u)), u the element's open unit uniform from its words in C order, through the
// backend's own vector log (the ISA's neg_log_open_uniform, then U_LOG); a row's class is
// the first NaN score, else the first largest (the argmax kernels' rule): the composite's
// classes bit for bit. Short rows of several samples take the exponential race
// (race_rows), which reaches the same classes with one log per score. The elements are
// split evenly across the pool whatever the shape; a row cut by a split is finished from
// its pieces' results, in order.
template <class T>
struct Best {  // the argmax of a row, or of a piece of one
    int64_t index = -1;
    T value{};
    void take(const T* score, int64_t n, int64_t first_index) {
        if (n == 0 || (index >= 0 && value != value)) return;  // a NaN already won
        int64_t k0 = 0;
        if (index < 0) {
            index = first_index, value = score[0], k0 = 1;
            if (value != value) return;
        }
        // Without branches on the data (random scores defeat the predictor), NaN aside.
        T top = value;
        int64_t at = index;
        bool nan = false;
        for (int64_t k = k0; k < n; ++k) {
            const T v = score[k];
            const bool up = top < v;
            nan |= v != v;
            top = up ? v : top;
            at = up ? first_index + k : at;
        }
        index = at, value = top;
        if (nan)
            for (int64_t k = k0; k < n; ++k)
                if (score[k] != score[k]) {
                    index = first_index + k, value = score[k];
                    return;
                }
    }
    // A long segment: the ISA's NaN-propagating max over it, then the first position of
    // that value (the segment is still in L1); the branchless scan above costs a
    // dependent select per score.
    void take_long(const T* score, int64_t n, int64_t first_index, RowFn max_of) {
        if (index >= 0 && value != value) return;
        T top = score[0];
        max_of(score, n, &top);
        then(Best{first_index + first_position(score, n, top), top});
    }
    void then(const Best& later) {  // this piece's result followed by a later piece's
        if (later.index < 0) return;
        if (index < 0 || (value == value && (later.value != later.value || value < later.value))) *this = later;
    }
};

template <class T>
struct Piece {  // a row cut by the split: its elements from `start` on, as far as one task went
    int64_t start, row;
    Best<T> best;
};

// One categorical call's inputs, and the rows its tasks could not finish alone.
template <class T>
struct CategoricalJob {
    uint64_t key, base;
    int64_t samples, classes;
    const T* logits;
    int64_t* dst;
    UnFn log_fn;
    NegLogUniformFn neg_log_uniform;
    RowFn max_of;  // the ISA's row max (every ISA table has float32/float64 ones)
    // The exponential race (race_short_rows), or null: per logits row, rate[j] =
    // exp(max - logits[j]) and the margin within which a runner-up sends the row back to
    // the composite's scores (+inf: always).
    const T* rate = nullptr;
    const T* margin = nullptr;
    std::vector<Piece<T>> pieces;
    std::mutex pieces_lock;
};

// Whole rows of fewer than 64 classes, `rows` of them from row r, their negated noise at
// `noise`: scores into `score`, classes into dst. Each row's scan is a chain of dependent
// selects, so four rows are scanned side by side; the logits row advances by counting
// samples instead of a division per row.
template <class T>
void argmax_short_rows(const CategoricalJob<T>& job, int64_t r, int64_t rows, const T* noise, T* score) {
    const int64_t classes = job.classes;
    int64_t logits_row = r / job.samples, left = job.samples - (r - logits_row * job.samples);
    for (int64_t q = 0; q < rows; ++q) {
        const T* l = job.logits + logits_row * classes;
        for (int64_t j = 0; j < classes; ++j) score[q * classes + j] = l[j] + ((T)0 - noise[q * classes + j]);
        if (--left == 0) ++logits_row, left = job.samples;
    }
    constexpr int kSide = 4;
    int64_t q = 0;
    for (; q + kSide <= rows; q += kSide) {
        const T* s = score + q * classes;
        T top[kSide];
        int64_t at[kSide];
        bool nan[kSide];
        for (int t = 0; t < kSide; ++t) top[t] = s[t * classes], at[t] = 0, nan[t] = top[t] != top[t];
        for (int64_t j = 1; j < classes; ++j)
            for (int t = 0; t < kSide; ++t) {
                const T v = s[t * classes + j];
                const bool up = top[t] < v;
                nan[t] |= v != v;
                top[t] = up ? v : top[t];
                at[t] = up ? j : at[t];
            }
        for (int t = 0; t < kSide; ++t) {
            if (nan[t]) {  // the first NaN's class
                at[t] = 0;
                while (s[t * classes + at[t]] == s[t * classes + at[t]]) ++at[t];
            }
            job.dst[r + q + t] = at[t];
        }
    }
    for (; q < rows; ++q) {
        Best<T> best;
        best.take(score + q * classes, classes, 0);
        job.dst[r + q] = best.index;
    }
}

// The composite's class for one row of fewer than 64 classes from its Philox words: the
// Gumbel scores logits - log E, E = -log u, then their argmax.
template <class T>
int64_t composite_class(const CategoricalJob<T>& job, const T* logits, const uint32_t* words) {
    T e[64], score[64];
    job.neg_log_uniform(words, job.classes, e);
    apply<T>(job.log_fn, std::log, e, score, job.classes);
    for (int64_t j = 0; j < job.classes; ++j) score[j] = logits[j] + ((T)0 - score[j]);
    Best<T> best;
    best.take(score, job.classes, 0);
    return best.index;
}

// The exponential race: argmax_j (l_j - log E_j) = argmin_j E_j exp(M - l_j), M the row's
// largest logit, so a row costs one log per class (E_j itself) where the Gumbel scores cost
// two, and E_j need not be the composite's to the last bit (float64 takes a faster log,
// race_exponentials). The two forms differ by rounding and that log's error, so they can
// order two classes differently only where their products lie within the row's margin
// (race_rates); a row whose runner-up does (the ISA's race_rows answers -1), and a row of
// NaN, +inf or only -inf logits (margin +inf), takes composite_class. So the class is the
// composite's. Whole rows of fewer than 64 classes from row r: their race exponentials at
// e, their words at words.
template <class T>
void race_short_rows(const CategoricalJob<T>& job, int64_t r, int64_t rows, const T* e, const uint32_t* words) {
    constexpr int64_t kWords = sizeof(T) / 4;
    g_isa->race_rows[sizeof(T) == 8](e, rows, job.classes, job.rate, job.margin, r, job.samples, job.dst + r);
    for (int64_t q = 0; q < rows; ++q)
        if (job.dst[r + q] < 0)
            job.dst[r + q] = composite_class(job, job.logits + ((r + q) / job.samples) * job.classes, words + q * job.classes * kWords);
}

// The scores of elements [e0, e1) in C order, batch by batch, and the argmax of every row
// they hold: into dst for a whole row, into pieces for a row cut at e0 or e1. e0 starts a
// Philox block, and so does every batch.
template <class T>
void categorical_elements(CategoricalJob<T>& job, int64_t e0, int64_t e1) {
    constexpr int64_t kWords = sizeof(T) == 8 ? 2 : 1, kPerBlock = kWordsPerBlock / kWords, kBatch = 1024;
    const int64_t classes = job.classes;
    uint32_t w[kBatch * kWords];
    alignas(64) T u[kBatch], g[kBatch + 64 / sizeof(T)] = {};  // race_rows reads a vector past the last row
    Best<T> best;
    int64_t row = -1, start = 0;
    auto finish = [&](bool row_ended) {
        if (row < 0) return;
        if (start == row * classes && row_ended) {
            job.dst[row] = best.index;
        } else {
            std::lock_guard<std::mutex> hold(job.pieces_lock);
            job.pieces.push_back(Piece<T>{start, row, best});
        }
    };
    for (int64_t e = e0; e < e1; e += kBatch) {
        const int64_t m = std::min(kBatch, e1 - e);
        g_isa->philox(job.key, job.base + (uint64_t)(e / kPerBlock), w, (m + kPerBlock - 1) / kPerBlock, 0);
        if (job.rate) {
            g_isa->race_exponentials[sizeof(T) == 8](w, m, g);
        } else {
            job.neg_log_uniform(w, m, g);  // g: the exponentials E = -log u
            apply<T>(job.log_fn, std::log, g, u, m);  // u: log E
        }
        for (int64_t k = 0; k < m;) {  // one row's part of the batch at a time
            const int64_t flat = e + k, r = flat / classes, first = flat - r * classes, len = std::min(m - k, classes - first);
            if (first == 0 && classes < 64 && (m - k) / classes > 0) {
                finish(true);  // the row before r, if this task holds a part of it
                row = -1;
                const int64_t rows = (m - k) / classes;
                if (job.rate) race_short_rows(job, r, rows, g + k, w + k * kWords);
                else argmax_short_rows(job, r, rows, u + k, g + k);
                k += rows * classes;
                continue;
            }
            if (r != row) {
                finish(true);
                row = r, start = flat, best = Best<T>{};
            }
            if (job.rate) {  // the composite's E and log E
                job.neg_log_uniform(w + k * kWords, len, g + k);
                apply<T>(job.log_fn, std::log, g + k, u + k, len);
            }
            const T* l = job.logits + (r / job.samples) * classes + first;
            T* score = g + k;
            for (int64_t j = 0; j < len; ++j) score[j] = l[j] + ((T)0 - u[k + j]);
            if (len >= 64)
                best.take_long(score, len, first, job.max_of);
            else
                best.take(score, len, first);
            k += len;
        }
    }
    finish(e1 == (row + 1) * classes);
}

// rate[j] = exp(M - l[j]) and the margin of each logits row for race_rows. The log of the
// race's product and the composite's score each differ from the exact l - log E by at most
// D = u (|l| + 2 |M - l| + 37 + 4 ulp of log |log E| <= 37 + 4 ulp of exp + 1) + x, u the
// unit roundoff, |log E| < 37 for the exponentials of open uniforms, x the race
// exponentials' relative error; a composite class c other than the race's b then has a
// product within exp(2 D) of b's. The margin, 1 + u (8 max|l| + 2048) + 4 x, bounds exp(2 D)
// with room to spare.
constexpr int64_t kRaceTableElements = 1 << 20;

template <class T>
void race_rates(const CategoricalJob<T>& job, int64_t logits_rows, std::vector<T>& rate, std::vector<T>& margin) {
    const int64_t classes = job.classes;
    const T inf = std::numeric_limits<T>::infinity(), unit = std::numeric_limits<T>::epsilon() / 2;
    std::vector<T> exponent((size_t)(logits_rows * classes));
    rate.resize(exponent.size() + 64 / sizeof(T));  // race_rows reads a vector past the last row
    margin.resize((size_t)logits_rows);
    for (int64_t r = 0; r < logits_rows; ++r) {
        const T* l = job.logits + r * classes;
        T* d = exponent.data() + r * classes;
        T top = -inf, size = 0;
        bool regular = true;
        for (int64_t j = 0; j < classes; ++j) {
            regular &= l[j] == l[j] && l[j] != inf;
            top = std::max(top, l[j]);
            if (l[j] != -inf) size = std::max(size, std::abs(l[j]));
        }
        regular &= top != -inf;
        for (int64_t j = 0; j < classes; ++j) d[j] = regular ? top - l[j] : 0;
        margin[r] = regular ? 1 + unit * (8 * size + 2048) + (sizeof(T) == 8 ? 4 * kRaceExponentialError : 0) : inf;
    }
    apply<T>(g_isa->un[U_EXP][sizeof(T) == 8 ? EMBER_FLOAT64 : EMBER_FLOAT32], std::exp, exponent.data(), rate.data(), (int64_t)exponent.size());
}

template <class T>
void categorical_t(const ember_kernel_call_t* c) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    CategoricalJob<T> job;
    job.key = (uint64_t)c->attrs->i[0];
    job.base = (uint64_t)c->attrs->i[1];
    job.samples = c->attrs->i[2];
    job.classes = in.shape[in.ndim - 1];
    job.logits = (const T*)in.data + in.offset;
    job.dst = (int64_t*)out.data + out.offset;
    job.log_fn = g_isa->un[U_LOG][sizeof(T) == 8 ? EMBER_FLOAT64 : EMBER_FLOAT32];
    job.max_of = g_isa->row[R_MAX][sizeof(T) == 8 ? EMBER_FLOAT64 : EMBER_FLOAT32];
    job.neg_log_uniform = g_isa->neg_log_open_uniform[sizeof(T) == 8];
    std::vector<T> rate, margin;
    // Each exp below saves `samples` logs; the tables stay small beside the work.
    if (job.classes < 64 && job.samples >= 2 && numel(in) <= kRaceTableElements) {
        race_rates(job, numel(in) / std::max<int64_t>(1, job.classes), rate, margin);
        job.rate = rate.data(), job.margin = margin.data();
    }
    constexpr int64_t kPerBlock = sizeof(T) == 8 ? 2 : 4;
    const int64_t total = numel(out) * job.classes, blocks = (total + kPerBlock - 1) / kPerBlock;
    parallel_range(blocks, kParallelCostly / 16, 1 << 11, [&](int64_t b0, int64_t b1) {
        categorical_elements(job, b0 * kPerBlock, std::min(b1 * kPerBlock, total));
    });
    std::vector<Piece<T>>& pieces = job.pieces;
    std::sort(pieces.begin(), pieces.end(), [](const Piece<T>& a, const Piece<T>& b) { return a.start < b.start; });
    for (size_t i = 0; i < pieces.size();) {
        Best<T> best = pieces[i].best;
        size_t j = i + 1;
        for (; j < pieces.size() && pieces[j].row == pieces[i].row; ++j) best.then(pieces[j].best);
        job.dst[pieces[i].row] = best.index;
        i = j;
    }
}

ember_status_t categorical_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 1 || c->n_out != 1 || !is_contiguous(c->in[0]) || !is_contiguous(c->out[0]) || c->in[0].ndim < 1 || c->out[0].dtype != EMBER_INT64 ||
        c->attrs->i[2] < 1 || numel(c->in[0]) / std::max<int64_t>(1, c->in[0].shape[c->in[0].ndim - 1]) * c->attrs->i[2] != numel(c->out[0]))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu random_categorical: expects contiguous logits (..., classes) and int64 classes (..., samples)");
    switch (c->in[0].dtype) {
        case EMBER_FLOAT32: categorical_t<float>(c); return EMBER_OK;
        case EMBER_FLOAT64: categorical_t<double>(c); return EMBER_OK;
        default: return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu random_categorical: dtype %d is not float32 or float64", (int)c->in[0].dtype);
    }
}

// random_bernoulli of one probability (a COMPOSITE_KERNEL row): the composite's u < p in
// one pass, u its unit uniform of p's precision, p read from the 0-d input.
template <class T>
void bernoulli_t(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    const T p = ((const T*)c->in[0].data)[c->in[0].offset];
    constexpr int64_t kPerBlock = sizeof(T) == 8 ? 2 : 4, kBatch = 256;
    bool* dst = (bool*)out.data + out.offset;
    const int64_t n = numel(out), blocks = (n + kPerBlock - 1) / kPerBlock;
    parallel_range(blocks, kParallelCostly / 4, kBatch, [&](int64_t b0, int64_t b1) {
        uint32_t w[kWordsPerBlock * kBatch];
        for (int64_t b = b0; b < b1; b += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - b), e0 = b * kPerBlock, m = std::min(nb * kPerBlock, n - e0);
            g_isa->philox(key, base + (uint64_t)b, w, nb, 0);
            const T q = p;  // a local, so the stores cannot alias it
            bool* d = dst + e0;
            for (int64_t k = 0; k < m; ++k) d[k] = unit_uniform<T>(w, k) < q;
        }
    });
}

ember_status_t bernoulli_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 1 || c->n_out != 1 || numel(c->in[0]) != 1 || !is_contiguous(c->out[0]) || c->out[0].dtype != EMBER_BOOL)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu random_bernoulli: expects one probability and one contiguous bool output");
    switch (c->in[0].dtype) {
        case EMBER_FLOAT32: bernoulli_t<float>(c); return EMBER_OK;
        case EMBER_FLOAT64: bernoulli_t<double>(c); return EMBER_OK;
        default: return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "cpu random_bernoulli: dtype %d is not float32 or float64", (int)c->in[0].dtype);
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
            g_isa->philox(key, base + (uint64_t)b, w, nb, 0);
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

// The per-element samplers (truncated normal, gamma, beta, binomial, poisson) with scalar
// parameters into a contiguous float32/float64/int32/int64 output: the reference's sampler
// code (backends/common/random_samplers.hpp), fed the first trial blocks of a run of elements
// from the vector Philox, the later ones from the scalar Philox as the reference does, and
// converted as the reference converts. Other calls take random_kernel.
enum SamplerKind { kTruncatedNormal, kGamma, kBeta, kBinomial, kPoisson };
constexpr int kMaxReadyBlocks = 4;

// Elements [e0, e1) of the call, element e from block first + e; value(stream) draws one.
template <class O, class Draw>
void draw_run(uint64_t key, uint64_t first, O* out, int64_t e0, int64_t e1, int ready_blocks, const Draw& value) {
    constexpr int64_t kRun = 256;
    alignas(64) uint32_t words[kMaxReadyBlocks][4 * kRun];
    for (int64_t e = e0; e < e1; e += kRun) {
        const int64_t m = std::min(kRun, e1 - e);
        for (int j = 0; j < ready_blocks; ++j) g_isa->philox(key, first + (uint64_t)e, words[j], m, (uint32_t)j);
        for (int64_t k = 0; k < m; ++k) {
            ember_samplers::Stream s{key, first + (uint64_t)(e + k)};
            s.ready = &words[0][4 * k];
            s.ready_step = 4 * kRun;
            s.ready_count = (uint32_t)ready_blocks;
            out[e + k] = ember_convert::saturating_cast<O>(value(s));
        }
    }
}

// Gamma with alpha >= 1 (no boost draw): the first trial's normal deviates of a run of
// elements from their first blocks in one loop of independent libm calls (log, sqrt, cos),
// then each element's trial finished (and, rarely, continued) by its stream from block 1 on:
// the reference's draws in the reference's order. 1e6 float64: 45 -> 40 ms on one thread,
// 23 -> 20 on two (a first version that kept 256 Stream objects in an array took 69).
template <class O>
void draw_gamma_run(uint64_t key, uint64_t first, O* out, int64_t e0, int64_t e1, const ember_samplers::Gamma& g, double scale) {
    constexpr int64_t kRun = 256;
    alignas(64) uint32_t words[2][4 * kRun];
    double x[kRun];
    for (int64_t e = e0; e < e1; e += kRun) {
        const int64_t m = std::min(kRun, e1 - e);
        for (int j = 0; j < 2; ++j) g_isa->philox(key, first + (uint64_t)e, words[j], m, (uint32_t)j);
        for (int64_t k = 0; k < m; ++k) x[k] = ember_samplers::Stream::normal_of(&words[0][4 * k]);
        for (int64_t k = 0; k < m; ++k) {
            ember_samplers::Stream s{key, first + (uint64_t)(e + k)};
            s.ready = &words[0][4 * k];
            s.ready_step = 4 * kRun;
            s.ready_count = 2;
            s.j = 1;  // block 0 went into x[k]
            double r = g.trial(s, x[k]);
            if (r < 0) r = g.sample(s);
            out[e + k] = ember_convert::saturating_cast<O>(r * scale);
        }
    }
}

template <class O, class Draw>
void draw_all(const ember_kernel_call_t* c, int ready_blocks, const Draw& value) {
    const ember_view_t& out = c->out[0];
    const uint64_t key = (uint64_t)c->attrs->i[0], first = (uint64_t)c->attrs->i[1];
    O* o = (O*)out.data + out.offset;
    parallel_range(numel(out), 4096, 1024, [&](int64_t e0, int64_t e1) { draw_run<O>(key, first, o, e0, e1, ready_blocks, value); });
}

// The blocks a first trial uses (the rest come one by one from the scalar Philox): normal 4
// words, uniform and open uniform 2.
template <SamplerKind K, class O>
void draw_kind(const ember_kernel_call_t* c) {
    using namespace ember_samplers;
    const double* f = c->attrs->f;
    if constexpr (K == kTruncatedNormal) {
        const TruncatedNormal tn(f[0], f[1], f[2], f[3]);
        draw_all<O>(c, 1, [&](Stream& s) { return tn.sample(s); });
    } else if constexpr (K == kGamma) {
        const Gamma g(f[0]);
        const double scale = f[1];
        if (g.boost_power == 0) {
            const ember_view_t& out = c->out[0];
            const uint64_t key = (uint64_t)c->attrs->i[0], first = (uint64_t)c->attrs->i[1];
            O* o = (O*)out.data + out.offset;
            parallel_range(numel(out), 4096, 1024, [&](int64_t e0, int64_t e1) { draw_gamma_run<O>(key, first, o, e0, e1, g, scale); });
            return;
        }
        draw_all<O>(c, 2, [&](Stream& s) { return g.sample(s) * scale; });
    } else if constexpr (K == kBeta) {
        const Beta b(f[0], f[1]);
        draw_all<O>(c, f[0] < 1 || f[1] < 1 ? 4 : 3, [&](Stream& s) { return b.sample(s); });
    } else if constexpr (K == kBinomial) {
        const Binomial b((double)c->attrs->i[2], f[0]);
        draw_all<O>(c, 1, [&](Stream& s) { return b.sample(s); });
    } else {
        const Poisson p(f[0]);
        // lam < 10 multiplies about lam + 1 uniforms
        const int blocks = p.lam < 10 ? std::min(kMaxReadyBlocks, (int)(p.lam / 2) + 1) : 1;
        draw_all<O>(c, blocks, [&](Stream& s) { return p.sample(s); });
    }
}

template <SamplerKind K>
ember_status_t sampler_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    if (c->n_in != 0 || c->n_out != 1 || !is_contiguous(out)) return random_kernel(c);
    switch (out.dtype) {
        case EMBER_FLOAT32: draw_kind<K, float>(c); return EMBER_OK;
        case EMBER_FLOAT64: draw_kind<K, double>(c); return EMBER_OK;
        case EMBER_INT32: draw_kind<K, int32_t>(c); return EMBER_OK;
        case EMBER_INT64: draw_kind<K, int64_t>(c); return EMBER_OK;
        default: return random_kernel(c);
    }
}

}  // namespace

void add_random_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"random_bits", random_kernel, kWordsPerBlock, false});
    k.push_back({"random_uniform", uniform_kernel, 0, true});
    k.push_back({"random_randint", randint_kernel, 0, true});
    k.push_back({"random_normal", distribution_kernel<kNormal>, 0, true});
    k.push_back({"random_exponential", distribution_kernel<kExponential>, 0, true});
    k.push_back({"random_categorical", categorical_kernel, 0, true});
    k.push_back({"random_bernoulli", bernoulli_kernel, 0, true});
    k.push_back({"random_truncated_normal", sampler_kernel<kTruncatedNormal>, kBlockPerElement, false});
    k.push_back({"random_gamma", sampler_kernel<kGamma>, kBlockPerElement, false});
    k.push_back({"random_beta", sampler_kernel<kBeta>, kBlockPerElement, false});
    k.push_back({"random_binomial", sampler_kernel<kBinomial>, kBlockPerElement, false});
    k.push_back({"random_poisson", sampler_kernel<kPoisson>, kBlockPerElement, false});
}

}  // namespace ember_cpu
