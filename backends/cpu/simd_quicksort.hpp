// A vectorised quicksort of unsigned 32-bit keys, for the AVX-512 copy of simd_impl.cpp
// only (included there after simd_sortnet.hpp, inside its anonymous namespace): AVX-512
// compresses the keys of a vector that fall on either side of the pivot into contiguous
// lanes in one instruction, which is what makes a partition pass cost about as much as a
// copy. Other ISAs leave IsaTable::quicksort_u32 null and sort.cpp keeps its radix sort.
//
// Partition in place, as in the published vectorised quicksorts (Bramas 2017; Intel's
// x86-simd-sort): the first and last vectors are held in registers, which leaves 32 free
// slots; each step loads the next vector from the side with fewer free slots, so both
// sides always have room for the 16 keys it writes: those below the pivot packed at the
// left write position, the others at the right one (masked stores, never past the free
// slots). Lines of at most one network are sorted by network_sort.
#if defined(__AVX512F__)

// One vector's keys: below the pivot to the left end, the rest to the right end.
inline __attribute__((always_inline)) void partition_vector(__m512i v, __m512i pivot, uint32_t* a, int64_t& left,
                                                             int64_t& right) {
    const __mmask16 below = _mm512_cmplt_epu32_mask(v, pivot);
    const int nbelow = __builtin_popcount((unsigned)below);
    const int nabove = 16 - nbelow;
    _mm512_mask_storeu_epi32(a + left, (__mmask16)((1u << nbelow) - 1), _mm512_maskz_compress_epi32(below, v));
    right -= nabove;
    _mm512_mask_storeu_epi32(a + right, (__mmask16)((1u << nabove) - 1), _mm512_maskz_compress_epi32((__mmask16)~below, v));
    left += nbelow;
}

// Reorders a[0, n), n >= 32, so that the keys below `pivot` come first; returns how many.
inline int64_t partition_u32(uint32_t* a, int64_t n, uint32_t pivot) {
    const __m512i p = _mm512_set1_epi32((int)pivot);
    const __m512i first = _mm512_loadu_si512(a), last = _mm512_loadu_si512(a + n - 16);
    int64_t read_left = 16, read_right = n - 16;  // keys [read_left, read_right) not yet read
    int64_t left = 0, right = n;                  // written: [0, left) below, [right, n) not
    while (read_right - read_left >= 16) {
        __m512i v;
        if (read_left - left <= right - read_right) {
            v = _mm512_loadu_si512(a + read_left);
            read_left += 16;
        } else {
            read_right -= 16;
            v = _mm512_loadu_si512(a + read_right);
        }
        partition_vector(v, p, a, left, right);
    }
    const int rest = (int)(read_right - read_left);
    if (rest > 0) {
        const __mmask16 valid = (__mmask16)((1u << rest) - 1);
        const __m512i v = _mm512_maskz_loadu_epi32(valid, a + read_left);
        const __mmask16 below = _mm512_mask_cmplt_epu32_mask(valid, v, p);
        const int nbelow = __builtin_popcount((unsigned)below);
        const int nabove = rest - nbelow;
        _mm512_mask_storeu_epi32(a + left, (__mmask16)((1u << nbelow) - 1), _mm512_maskz_compress_epi32(below, v));
        right -= nabove;
        _mm512_mask_storeu_epi32(a + right, (__mmask16)((1u << nabove) - 1),
                                 _mm512_maskz_compress_epi32((__mmask16)(valid & ~below), v));
        left += nbelow;
    }
    partition_vector(first, p, a, left, right);
    partition_vector(last, p, a, left, right);
    return left;
}

// The median of 16 keys spread over a[0, n): the pivot.
inline uint32_t sample_pivot(const uint32_t* a, int64_t n) {
    uint32_t s[16];
    for (int i = 0; i < 16; ++i) s[i] = a[(n - 1) * (2 * i + 1) / 32];
    network_sort<uint32_t>(s, 16);
    return s[8];
}

// Pieces of up to 16 vectors go to the network: the largest that runs unrolled in
// registers, measured faster than the in-memory networks with fewer partition steps.
constexpr int64_t kQuicksortLeaf = 16 * W<uint32_t>;

void quicksort_u32_depth(uint32_t* a, int64_t n, int depth) {
    while (n > kQuicksortLeaf) {
        if (depth-- == 0) {  // pivots kept splitting badly: O(n log n) whatever the keys
            std::sort(a, a + n);
            return;
        }
        const uint32_t pivot = sample_pivot(a, n);
        int64_t k = partition_u32(a, n, pivot);
        if (k == 0) {
            // The pivot is the smallest key: the keys equal to it are final, before the rest.
            if (pivot == ~uint32_t(0)) return;  // every key is the largest one
            k = partition_u32(a, n, pivot + 1);
            a += k;
            n -= k;
            continue;
        }
        if (k < n - k) {  // recurse into the smaller side, loop on the larger
            quicksort_u32_depth(a, k, depth);
            a += k;
            n -= k;
        } else {
            quicksort_u32_depth(a + k, n - k, depth);
            n = k;
        }
    }
    network_sort<uint32_t>(a, n);
}

// Sorts a[0, n) ascending in place (not stable: callers sort bare keys).
void quicksort_u32(uint32_t* a, int64_t n) { quicksort_u32_depth(a, n, 2 * (64 - __builtin_clzll((unsigned long long)n | 1))); }

// One partition of a[0, n), n >= 32, around a sampled pivot; returns k, 0 < k <= n,
// with every key of a[0, k) at most every key of a[k, n) (k = n: all keys equal). For
// sort.cpp to cut a long line into pieces that the threads then sort independently.
int64_t quick_split_u32(uint32_t* a, int64_t n) {
    const uint32_t pivot = sample_pivot(a, n);
    const int64_t k = partition_u32(a, n, pivot);
    if (k > 0 || pivot == ~uint32_t(0)) return k > 0 ? k : n;
    return partition_u32(a, n, pivot + 1);
}

#endif
