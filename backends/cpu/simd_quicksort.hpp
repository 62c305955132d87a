// A vectorised quicksort of unsigned 32- and 64-bit keys, for the AVX2 and AVX-512 copies
// of simd_impl.cpp (included there after simd_sortnet.hpp, inside its anonymous
// namespace). AVX-512 compresses the 32-bit keys of a vector that fall on either side of
// the pivot into contiguous lanes in one instruction, which is what makes a partition pass
// cost about as much as a copy; AVX2, and AVX-512 for 64-bit keys, do the same with a lane
// permutation looked up by the comparison's bit mask. The SSE2 copy leaves
// IsaTable::quicksort null and sort.cpp keeps its radix sort.
//
// Partition in place, as in the published vectorised quicksorts (Bramas 2017; Intel's
// x86-simd-sort): the first and last vectors are held in registers, which leaves as many
// free slots; each step loads the next vectors from the side with fewer free slots, so
// both sides always have room for the keys it writes: those below the pivot packed at the
// left write position, the others at the right one. Pieces of up to 1 KB (2 KB on
// AVX-512) are sorted by network_sort (kQuickLeafVectors).
#if defined(__AVX512F__) || defined(__AVX2__)

// For each comparison mask of W keys, the lanes of 8 that put the keys whose bit is set
// first and the others after them, each group in lane order (8 lane indices a mask): the
// 32-bit lanes of an AVX2 vector, or the 64-bit lanes of an AVX-512 one (W = 8).
template <int W>
struct PartitionOrder {
    uint8_t lanes[1 << W][8] = {};
    constexpr PartitionOrder() {
        constexpr int per_key = 8 / W;
        for (int m = 0; m < (1 << W); ++m) {
            int at = 0;
            for (int set = 1; set >= 0; --set)
                for (int l = 0; l < W; ++l)
                    if (((m >> l) & 1) == set)
                        for (int s = 0; s < per_key; ++s) lanes[m][at++] = (uint8_t)(l * per_key + s);
        }
    }
};

#if defined(__AVX512F__)
constexpr PartitionOrder<8> kPartitionOrder8x64{};
// The few AVX-512 operations the partition needs, for 16 x 32-bit or 8 x 64-bit lanes.
template <class T>
struct QuickLanes;
template <>
struct QuickLanes<uint32_t> {
    static constexpr int kLanes = 16;
    using Vec = __m512i;
    static Vec load(const uint32_t* p) { return _mm512_loadu_si512(p); }
    static __m512i splat(uint32_t x) { return _mm512_set1_epi32((int)x); }
    static unsigned below(__m512i v, __m512i p) { return _mm512_cmplt_epu32_mask(v, p); }
    static __m512i packed(unsigned m, __m512i v) { return _mm512_maskz_compress_epi32((__mmask16)m, v); }
    static void store_first(uint32_t* p, int count, __m512i v) { _mm512_mask_storeu_epi32(p, (__mmask16)((1u << count) - 1), v); }
    static __m512i load_first(const uint32_t* p, int count) { return _mm512_maskz_loadu_epi32((__mmask16)((1u << count) - 1), p); }
};
template <>
struct QuickLanes<uint64_t> {
    static constexpr int kLanes = 8;
    using Vec = __m512i;
    static Vec load(const uint64_t* p) { return _mm512_loadu_si512(p); }
    static __m512i splat(uint64_t x) { return _mm512_set1_epi64((long long)x); }
    static unsigned below(__m512i v, __m512i p) { return _mm512_cmplt_epu64_mask(v, p); }
    static __m512i packed(unsigned m, __m512i v) { return _mm512_maskz_compress_epi64((__mmask8)m, v); }
    static void store_first(uint64_t* p, int count, __m512i v) { _mm512_mask_storeu_epi64(p, (__mmask8)((1u << count) - 1), v); }
    static __m512i load_first(const uint64_t* p, int count) { return _mm512_maskz_loadu_epi64((__mmask8)((1u << count) - 1), p); }
};

// The first `count` keys of v: those below the pivot to the left end, the rest to the
// right end. Masked stores write only those keys. A whole vector of 64-bit keys before the
// partition's last ones (not Exact) is instead put in order (below first) by one lane
// permutation looked up by its mask and stored whole at both ends, as on AVX2 (see there):
// two compressions and two store masks were six port-5 operations on Intel cores against
// two (the index widening and the permutation); a pass over 1e6 keys 430 -> 350 us, 1e5
// keys 36 -> 24 us.
template <class T, bool Exact>
inline __attribute__((always_inline)) void partition_vector(__m512i v, int count, __m512i pivot, T* a, int64_t& left,
                                                             int64_t& right) {
    using L = QuickLanes<T>;
    if constexpr (sizeof(T) == 8 && !Exact) {
        const unsigned below = L::below(v, pivot);
        // The zero-masked forms: GCC 12 warns of the unmasked ones' undefined pass-through.
        const __m512i order = _mm512_maskz_cvtepu8_epi64(0xff, _mm_loadl_epi64((const __m128i*)kPartitionOrder8x64.lanes[below]));
        const __m512i ordered = _mm512_maskz_permutexvar_epi64(0xff, order, v);
        _mm512_storeu_si512(a + left, ordered);
        _mm512_storeu_si512(a + right - 8, ordered);
        const int nbelow = __builtin_popcount(below);
        left += nbelow;
        right -= 8 - nbelow;
    } else {
        const unsigned valid = (1u << count) - 1, below = L::below(v, pivot) & valid;
        const int nbelow = __builtin_popcount(below), nabove = count - nbelow;
        L::store_first(a + left, nbelow, L::packed(below, v));
        right -= nabove;
        L::store_first(a + right, nabove, L::packed(valid & ~below, v));
        left += nbelow;
    }
}
template <class T>
inline __m512i load_first(const T* p, int count) {
    return QuickLanes<T>::load_first(p, count);
}
template <class T>
inline __attribute__((always_inline)) void partition_last(__m512i v, int count, __m512i pivot, T* a, int64_t& left, int64_t& right) {
    partition_vector<T, true>(v, count, pivot, a, left, right);
}
#else
constexpr PartitionOrder<8> kPartitionOrder32{};
constexpr PartitionOrder<4> kPartitionOrder64{};

inline __m256i lanes_in_order(const uint8_t* order, __m256i v) {
    return _mm256_permutevar8x32_epi32(v, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)order)));
}

// AVX2 compares signed lanes only: keys and pivot are compared with their sign bits
// flipped (splat returns the flipped pivot).
template <class T>
struct QuickLanes;
template <>
struct QuickLanes<uint32_t> {
    static constexpr int kLanes = 8;
    using Vec = __m256i;
    static Vec load(const uint32_t* p) { return _mm256_loadu_si256((const __m256i*)p); }
    static Vec splat(uint32_t x) { return _mm256_set1_epi32((int)(x ^ 0x80000000u)); }
    static unsigned below(Vec v, Vec p) {
        const Vec flipped = _mm256_xor_si256(v, _mm256_set1_epi32(INT32_MIN));
        return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(p, flipped)));
    }
    static Vec below_first(unsigned m, Vec v) { return lanes_in_order(kPartitionOrder32.lanes[m], v); }
};
template <>
struct QuickLanes<uint64_t> {
    static constexpr int kLanes = 4;
    using Vec = __m256i;
    static Vec load(const uint64_t* p) { return _mm256_loadu_si256((const __m256i*)p); }
    static Vec splat(uint64_t x) { return _mm256_set1_epi64x((long long)(x ^ 0x8000000000000000ull)); }
    static unsigned below(Vec v, Vec p) {
        const Vec flipped = _mm256_xor_si256(v, _mm256_set1_epi64x(INT64_MIN));
        return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(p, flipped)));
    }
    static Vec below_first(unsigned m, Vec v) { return lanes_in_order(kPartitionOrder64.lanes[m], v); }
};
template <class T>
inline __m256i load_first(const T* p, int count) {
    T lanes[32 / sizeof(T)] = {};
    memcpy(lanes, p, (size_t)count * sizeof(T));
    return _mm256_loadu_si256((const __m256i*)lanes);
}

// The first `count` keys of v: those below the pivot to the left end, the rest to the
// right end. AVX2 has no compressing store: v is permuted (below first, the rest after
// them) and stored whole at both ends, where the free slots (at least a vector on each
// side, see partition_keys) take the lanes that do not belong there. Exact (the last
// vectors of a partition, where the free slots are exactly as many as the keys) writes the
// keys one by one instead.
template <class T, bool Exact>
inline __attribute__((always_inline)) void partition_vector(__m256i v, int count, __m256i pivot, T* a, int64_t& left,
                                                             int64_t& right) {
    using L = QuickLanes<T>;
    constexpr int W = L::kLanes;
    const unsigned below = L::below(v, pivot) & ((1u << count) - 1);
    const int nbelow = __builtin_popcount(below), nabove = count - nbelow;
    const __m256i ordered = L::below_first(below, v);
    if constexpr (Exact) {
        T lanes[W];
        _mm256_storeu_si256((__m256i*)lanes, ordered);
        for (int i = 0; i < nbelow; ++i) a[left + i] = lanes[i];
        for (int i = 0; i < nabove; ++i) a[right - nabove + i] = lanes[nbelow + i];
    } else {
        _mm256_storeu_si256((__m256i*)(a + left), ordered);
        _mm256_storeu_si256((__m256i*)(a + right - W), ordered);
    }
    left += nbelow;
    right -= nabove;
}
// A vector of the partition's end, when every key is read and [left, right) holds as many
// free slots as keys remain: whole-vector stores while the two land apart (at least two
// vectors' worth left), their extra lanes then in slots that later keys fill; a partial
// vector (its unused lanes would land past `right`) and the last one are written exactly.
template <class T>
inline __attribute__((always_inline)) void partition_last(__m256i v, int count, __m256i pivot, T* a, int64_t& left, int64_t& right) {
    constexpr int W = QuickLanes<T>::kLanes;
    if (count == W && right - left >= 2 * W) partition_vector<T, false>(v, count, pivot, a, left, right);
    else partition_vector<T, true>(v, count, pivot, a, left, right);
}
#endif

// Vectors read per step: the side to read from is a branch the predictor cannot learn, so
// it is taken once per four vectors on AVX-512 (a step per vector measured 2-3x slower on
// 64-bit keys), once per eight on AVX2's narrower vectors (one thread, 1e6 float64 keys:
// 16.8-17.0 ms against 18.7-20.2 with four, 17.8-23 with sixteen).
constexpr int kQuickUnroll = VB == 32 ? 8 : 4;

// Reorders a[0, n), n >= 2 * kQuickUnroll vectors, so that the keys below `pivot` come
// first; returns how many. The first and last kQuickUnroll vectors wait in registers; the
// keys left over at the end (fewer than a step) are all read before any is written, so
// that the free slots form one run. Before each step the two sides' free slots add up to
// two steps' worth and the side read from has just gained a step's, so each side has at
// least a step's worth, and the whole-vector stores of AVX2 (a vector's width past the write
// position) stay inside them; the last vectors of the partition are written exactly.
template <class T>
int64_t partition_keys(T* a, int64_t n, T pivot) {
    using L = QuickLanes<T>;
    using Vec = typename L::Vec;
    constexpr int W = L::kLanes, U = kQuickUnroll, S = U * W;
    const Vec p = L::splat(pivot);
    Vec kept[2 * U];
    for (int i = 0; i < U; ++i) {
        kept[i] = L::load(a + i * W);
        kept[U + i] = L::load(a + n - (i + 1) * W);
    }
    int64_t read_left = S, read_right = n - S;  // keys [read_left, read_right) not yet read
    int64_t left = 0, right = n;                // written: [0, left) below, [right, n) not
    while (read_right - read_left >= S) {
        int64_t at;
        if (read_left - left <= right - read_right) {
            at = read_left;
            read_left += S;
        } else {
            read_right -= S;
            at = read_right;
        }
        Vec v[U];
        for (int i = 0; i < U; ++i) v[i] = L::load(a + at + i * W);
        for (int i = 0; i < U; ++i) partition_vector<T, false>(v[i], W, p, a, left, right);
    }
    Vec tail[U];
    int counts[U] = {};
    for (int i = 0; i < U && read_left < read_right; ++i) {
        counts[i] = (int)std::min<int64_t>(W, read_right - read_left);
        tail[i] = load_first(a + read_left, counts[i]);
        read_left += counts[i];
    }
    for (int i = 0; i < U; ++i)
        if (counts[i]) partition_last<T>(tail[i], counts[i], p, a, left, right);
    for (int i = 0; i < 2 * U; ++i) partition_last<T>(kept[i], W, p, a, left, right);
    return left;
}

// The median of 16 keys spread over a[0, n): the pivot.
template <class T>
T sample_pivot(const T* a, int64_t n) {
    T s[16];
    for (int i = 0; i < 16; ++i) s[i] = a[(n - 1) * (2 * i + 1) / 32];
    network_sort<T>(s, 16);
    return s[8];
}

// One partition of a[0, n), n >= 2 * kQuickUnroll vectors, around a sampled pivot; returns
// k, 0 < k <= n, with every key of a[0, k) at most every key of a[k, n) (k = n: all keys
// equal). When the pivot is the smallest key, the keys equal to it are split off instead
// (they are final).
template <class T>
int64_t quick_split(T* a, int64_t n) {
    const T pivot = sample_pivot(a, n);
    const int64_t k = partition_keys(a, n, pivot);
    if (k > 0 || pivot == T(~T(0))) return k > 0 ? k : n;
    return partition_keys(a, n, T(pivot + 1));
}

// Pieces go to the network at the largest size that runs unrolled in registers
// (kUnrolledMax): 32 vectors on AVX-512 (Intel host, one thread, float64 1e3 / 3e3 keys 3.6
// / 11.4 -> 3.1 / 10.5 us against 16; 8 was slower: 4.6 / 14.2), 16 below it. On
// AVX2 32 vectors (in memory) had been faster (one thread, 1e6 32-bit keys: 7.4-7.6 ms
// against 8.0-9.2 with 16) until the unrolled networks there took their transposed form
// (simd_sortnet.hpp): Zen 3 host, one thread, 1e4 / 1e6 keys of 64 bits 97 us / 14.0-14.8
// ms -> 73 us / 12.0-12.6 ms, of 32 bits 43-44 us / 6.3-7.6 ms -> 40 us / 6.1-6.5 ms (32
// vectors in the transposed form: 84 us / 12.8-13.1 ms, 49 us / 7.0-7.8 ms). Fewer than
// 16 cannot be on AVX2: a partition needs 2 * kQuickUnroll vectors.
constexpr int kQuickLeafVectors = VB == 64 ? 32 : 16;
static_assert(kQuickLeafVectors >= 2 * kQuickUnroll, "a leaf holds what a partition needs");
template <class T>
void quicksort_depth(T* a, int64_t n, int depth) {
    while (n > kQuickLeafVectors * QuickLanes<T>::kLanes) {
        if (depth-- == 0) {  // pivots kept splitting badly: O(n log n) whatever the keys
            std::sort(a, a + n);
            return;
        }
        const int64_t k = quick_split(a, n);
        if (k == n) return;  // all keys equal
        if (k < n - k) {     // recurse into the smaller side, loop on the larger
            quicksort_depth(a, k, depth);
            a += k;
            n -= k;
        } else {
            quicksort_depth(a + k, n - k, depth);
            n = k;
        }
    }
    network_sort<T>(a, n);
}

// Sorts keys[0, n) ascending in place (not stable: callers sort bare keys).
template <class T>
void quicksort_keys(void* keys, int64_t n) {
    quicksort_depth(static_cast<T*>(keys), n, 2 * (64 - __builtin_clzll((unsigned long long)n | 1)));
}
template <class T>
int64_t quick_split_keys(void* keys, int64_t n) {
    return quick_split(static_cast<T*>(keys), n);
}

#endif
