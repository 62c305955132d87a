// A vectorised quicksort of unsigned 32- and 64-bit keys, for the AVX-512 copy of
// simd_impl.cpp only (included there after simd_sortnet.hpp, inside its anonymous
// namespace): AVX-512 compresses the keys of a vector that fall on either side of the pivot
// into contiguous lanes in one instruction, which is what makes a partition pass cost
// about as much as a copy. Other ISAs leave IsaTable::quicksort null and sort.cpp keeps
// its radix sort.
//
// Partition in place, as in the published vectorised quicksorts (Bramas 2017; Intel's
// x86-simd-sort): the first and last vectors are held in registers, which leaves as many
// free slots; each step loads the next vectors from the side with fewer free slots, so
// both sides always have room for the keys it writes: those below the pivot packed at the
// left write position, the others at the right one (masked stores, never past the free
// slots). Pieces of up to 16 vectors are sorted by network_sort.
#if defined(__AVX512F__)

// The few AVX-512 operations the partition needs, for 16 x 32-bit or 8 x 64-bit lanes.
template <class T>
struct QuickLanes;
template <>
struct QuickLanes<uint32_t> {
    static constexpr int kLanes = 16;
    static __m512i splat(uint32_t x) { return _mm512_set1_epi32((int)x); }
    static unsigned below(__m512i v, __m512i p) { return _mm512_cmplt_epu32_mask(v, p); }
    static __m512i packed(unsigned m, __m512i v) { return _mm512_maskz_compress_epi32((__mmask16)m, v); }
    static void store_first(uint32_t* p, int count, __m512i v) { _mm512_mask_storeu_epi32(p, (__mmask16)((1u << count) - 1), v); }
    static __m512i load_first(const uint32_t* p, int count) { return _mm512_maskz_loadu_epi32((__mmask16)((1u << count) - 1), p); }
};
template <>
struct QuickLanes<uint64_t> {
    static constexpr int kLanes = 8;
    static __m512i splat(uint64_t x) { return _mm512_set1_epi64((long long)x); }
    static unsigned below(__m512i v, __m512i p) { return _mm512_cmplt_epu64_mask(v, p); }
    static __m512i packed(unsigned m, __m512i v) { return _mm512_maskz_compress_epi64((__mmask8)m, v); }
    static void store_first(uint64_t* p, int count, __m512i v) { _mm512_mask_storeu_epi64(p, (__mmask8)((1u << count) - 1), v); }
    static __m512i load_first(const uint64_t* p, int count) { return _mm512_maskz_loadu_epi64((__mmask8)((1u << count) - 1), p); }
};

// The first `count` keys of v: those below the pivot to the left end, the rest to the right end.
template <class T>
inline __attribute__((always_inline)) void partition_vector(__m512i v, int count, __m512i pivot, T* a, int64_t& left,
                                                             int64_t& right) {
    using L = QuickLanes<T>;
    const unsigned valid = (1u << count) - 1, below = L::below(v, pivot) & valid;
    const int nbelow = __builtin_popcount(below), nabove = count - nbelow;
    L::store_first(a + left, nbelow, L::packed(below, v));
    right -= nabove;
    L::store_first(a + right, nabove, L::packed(valid & ~below, v));
    left += nbelow;
}

// Vectors read per step: the side to read from is a branch the predictor cannot learn, so
// it is taken once per four vectors (a step per vector measured 2-3x slower on 64-bit keys).
constexpr int kQuickUnroll = 4;

// Reorders a[0, n), n >= 2 * kQuickUnroll vectors, so that the keys below `pivot` come
// first; returns how many. The first and last kQuickUnroll vectors wait in registers; the
// keys left over at the end (fewer than a step) are all read before any is written, so
// that the free slots form one run.
template <class T>
int64_t partition_keys(T* a, int64_t n, T pivot) {
    using L = QuickLanes<T>;
    constexpr int W = L::kLanes, U = kQuickUnroll, S = U * W;
    const __m512i p = L::splat(pivot);
    __m512i kept[2 * U];
    for (int i = 0; i < U; ++i) {
        kept[i] = _mm512_loadu_si512(a + i * W);
        kept[U + i] = _mm512_loadu_si512(a + n - (i + 1) * W);
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
        __m512i v[U];
        for (int i = 0; i < U; ++i) v[i] = _mm512_loadu_si512(a + at + i * W);
        for (int i = 0; i < U; ++i) partition_vector<T>(v[i], W, p, a, left, right);
    }
    __m512i tail[U];
    int counts[U] = {};
    for (int i = 0; i < U && read_left < read_right; ++i) {
        counts[i] = (int)std::min<int64_t>(W, read_right - read_left);
        tail[i] = L::load_first(a + read_left, counts[i]);
        read_left += counts[i];
    }
    for (int i = 0; i < U; ++i)
        if (counts[i]) partition_vector<T>(tail[i], counts[i], p, a, left, right);
    for (int i = 0; i < 2 * U; ++i) partition_vector<T>(kept[i], W, p, a, left, right);
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

// Pieces of up to 16 vectors go to the network: the largest that runs unrolled in
// registers, measured faster than the in-memory networks with fewer partition steps.
template <class T>
void quicksort_depth(T* a, int64_t n, int depth) {
    while (n > 16 * QuickLanes<T>::kLanes) {
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
