// Sorting networks for short lines of unsigned keys, in the vector width of the ISA this
// copy of simd_impl.cpp is compiled for (included there, inside its anonymous namespace).
//
// A bitonic sorter in the form whose every comparator is ascending: for each block size
// k = 2, 4, ..., m, element i is first compared with its mirror i ^ (k - 1) in the block,
// then with i ^ j for j = k/4, ..., 1; the smaller key goes to the lower index. The m keys
// (a power of two, padded with the largest key) sit in m / W vectors. Comparator pairs
// that lie in two vectors are a lane-wise min/max (a mirror pair reverses one vector
// first); pairs inside one vector are a lane permute, min, max and a lane select.
// Below AVX-512 keys are compared as signed integers (their sign bit flipped on the way in
// and out): AVX2 and SSE2 have no unsigned 64-bit compare. AVX-512 compares them as they
// are (NetKey). The network is not stable; callers make the keys distinct (argsort packs
// the index in the low bits) or restore what equal keys could reorder (sort.cpp).
// Up to kUnrolledMax vectors every step count is a template parameter, so the stages unroll
// into straight-line code; larger networks run in memory (bitonic_stages_in_memory).

template <class T, int Xor>
inline __attribute__((always_inline)) V<T> lanes_xor() {
    V<T> idx;
    for (int l = 0; l < W<T>; ++l) idx[l] = T(l ^ Xor);
    return idx;
}

// lo, hi = the lane-wise min and max of lo and hi.
template <class T>
inline __attribute__((always_inline)) void order_pair(V<T>& lo, V<T>& hi) {
    const V<T> a = lo, b = hi;
    lo = a < b ? a : b;
    hi = a < b ? b : a;
}

// Lane l meets lane l ^ Xor; lanes with bit Upper set keep the larger key. Below AVX-512
// one compare, XORed with the lanes that keep the smaller key, picks between v and its
// partner: GCC made the min, max and constant select three variable blends (AVX2, a
// 128-key network 0.58 -> 0.52 us on the Zen 3 host).
template <class T, int Xor, int Upper>
inline __attribute__((always_inline)) V<T> exchange_in_vector(V<T> v) {
    const V<T> partner = __builtin_shuffle(v, lanes_xor<T, Xor>());
    if constexpr (VB == 64) {
        const V<T> lo = v < partner ? v : partner, hi = v < partner ? partner : v;
        V<T> upper;
        for (int l = 0; l < W<T>; ++l) upper[l] = (l & Upper) ? T(~T(0)) : T(0);
        return upper != 0 ? hi : lo;
    } else {
        V<T> lower;
        for (int l = 0; l < W<T>; ++l) lower[l] = (l & Upper) ? T(0) : T(~T(0));
        return ((partner < v) ^ lower) != 0 ? v : partner;
    }
}

template <class T, int N, int J>
inline __attribute__((always_inline)) void half_cleaners(V<T>* v) {
    if constexpr (J >= 1) {
        if constexpr (J >= W<T>) {
            constexpr int jv = J / W<T>;
#pragma GCC unroll 64
            for (int i = 0; i < N; ++i)
                if (!(i & jv)) order_pair<T>(v[i], v[i + jv]);
        } else {
#pragma GCC unroll 64
            for (int i = 0; i < N; ++i) v[i] = exchange_in_vector<T, J, J>(v[i]);
        }
        half_cleaners<T, N, J / 2>(v);
    }
}

template <class T, int N, int K>
inline __attribute__((always_inline)) void bitonic_stages(V<T>* v) {
    if constexpr (K <= N * W<T>) {
        if constexpr (K <= W<T>) {
#pragma GCC unroll 64
            for (int i = 0; i < N; ++i) v[i] = exchange_in_vector<T, K - 1, K / 2>(v[i]);
        } else {
            // The larger keys stay lane-reversed: the stages left sort any bitonic sequence,
            // the steps across vectors do the same to every lane, and a reversed bitonic
            // sequence is bitonic, so the reverse back would change nothing.
            constexpr int kv = K / W<T>;
            const V<T> reverse = lanes_xor<T, W<T> - 1>();
#pragma GCC unroll 64
            for (int i = 0; i < N; ++i)
                if (!(i & (kv / 2))) {
                    const int p = i ^ (kv - 1);
                    V<T> mirrored = __builtin_shuffle(v[p], reverse);
                    order_pair<T>(v[i], mirrored);
                    v[p] = mirrored;
                }
        }
        half_cleaners<T, N, K / 4>(v);
        bitonic_stages<T, N, K * 2>(v);
    }
}

// Below AVX-512 the unrolled networks hold key i in vector i % N, lane i / N (N vectors):
// every step between keys less than N apart, mirror steps included, is then a lane-wise
// min/max of two vectors with no lane shuffle, and only the steps across lanes (the last
// log2(W) stages' first ones) shuffle. The keys go out in that order (network_sort_n).
// AVX2, 64 keys of 64 bits: 0.19 -> 0.15 us; quicksort of 1e4 such keys with leaves of this
// size 97 -> 73 us (Zen 3 host). AVX-512 takes this form from W vectors on (below, the keys
// going out one by one cost more than the form above saves): Intel host, one thread, 1e3 /
// 3e3 float64 keys through the quicksort 4.6 / 14.1 -> 3.6 / 11.6 us, 128 keys alone 0.37
// -> 0.28 us, 1e3 float32 keys 1.85 -> 1.68 us.
template <class T, int N, int J>
inline __attribute__((always_inline)) void transposed_half_cleaners(V<T>* v) {
    if constexpr (J >= 1) {
        if constexpr (J < N) {
#pragma GCC unroll 64
            for (int a = 0; a < N; ++a)
                if (!(a & J)) order_pair<T>(v[a], v[a + J]);
        } else {
#pragma GCC unroll 64
            for (int a = 0; a < N; ++a) v[a] = exchange_in_vector<T, J / N, J / N>(v[a]);
        }
        transposed_half_cleaners<T, N, J / 2>(v);
    }
}
// Batcher's odd-even merge sort of v[Lo, Lo + Len) lane by lane: the same depth as the
// bitonic stages but fewer comparators (16 vectors 63 against 80, 32 vectors 191 against
// 240). The transposed form sorts its columns (the stages up to K = N) with it. With the
// unsigned lanes of AVX-512 (NetKey), Intel host, one thread: 1e3 / 1e4 float64 keys
// 3.1-3.25 / 28.9-30.1 -> 2.94 / 28.0-28.3 us, float32 1.60-1.68 / 16.1-16.5 -> 1.51 /
// 15.4 us; its avx2 kernels 6.3-6.5 / 53-54 -> 6.1-6.3 / 52-54 us.
template <class T, int Lo, int Len, int R>
inline __attribute__((always_inline)) void odd_even_merge(V<T>* v) {
    if constexpr (2 * R < Len) {
        odd_even_merge<T, Lo, Len, 2 * R>(v);
        odd_even_merge<T, Lo + R, Len, 2 * R>(v);
#pragma GCC unroll 64
        for (int i = Lo + R; i + R < Lo + Len; i += 2 * R) order_pair<T>(v[i], v[i + R]);
    } else {
        order_pair<T>(v[Lo], v[Lo + R]);
    }
}
template <class T, int Lo, int Len>
inline __attribute__((always_inline)) void odd_even_sort(V<T>* v) {
    if constexpr (Len > 1) {
        odd_even_sort<T, Lo, Len / 2>(v);
        odd_even_sort<T, Lo + Len / 2, Len / 2>(v);
        odd_even_merge<T, Lo, Len, 1>(v);
    }
}

template <class T, int N, int K>
inline __attribute__((always_inline)) void transposed_stages(V<T>* v) {
    if constexpr (K == 2 && N > 1) {
        odd_even_sort<T, 0, N>(v);
        transposed_stages<T, N, 2 * N>(v);
    } else if constexpr (K <= N * W<T>) {
        if constexpr (N == 1) {
            v[0] = exchange_in_vector<T, K - 1, K / 2>(v[0]);
        } else {
            // Key (a, l) meets (N - 1 - a, l ^ (kl - 1)); lanes with bit kl / 2 keep the larger.
            constexpr int kl = K / N;
            V<T> lower;
            for (int l = 0; l < W<T>; ++l) lower[l] = (l & (kl / 2)) ? T(0) : T(~T(0));
            const V<T> mirror = lanes_xor<T, kl - 1>();
#pragma GCC unroll 64
            for (int a = 0; a < N / 2; ++a) {
                const V<T> x = v[a], y = __builtin_shuffle(v[N - 1 - a], mirror);
                if constexpr (VB == 64) {
                    // A min, a max and two blends by a constant mask register: the compare
                    // XOR form costs mask-to-vector moves there.
                    const V<T> lo = x < y ? x : y, hi = x < y ? y : x;
                    v[a] = lower != 0 ? lo : hi;
                    v[N - 1 - a] = __builtin_shuffle(lower != 0 ? hi : lo, mirror);
                } else {
                    const V<T> x_stays = (y < x) ^ lower;
                    v[a] = x_stays != 0 ? x : y;
                    v[N - 1 - a] = __builtin_shuffle(x_stays != 0 ? y : x, mirror);
                }
            }
        }
        transposed_half_cleaners<T, N, K / 4>(v);
        transposed_stages<T, N, K * 2>(v);
    }
}

// The steps inside one vector: the half-cleaners from stride J down, and a whole sort.
template <class T, int J>
inline __attribute__((always_inline)) V<T> half_in_vector(V<T> v) {
    if constexpr (J >= 1) return half_in_vector<T, J / 2>(exchange_in_vector<T, J, J>(v));
    else return v;
}
template <class T, int K>
inline __attribute__((always_inline)) V<T> sort_in_vector(V<T> v) {
    if constexpr (K <= W<T>) return sort_in_vector<T, K * 2>(half_in_vector<T, K / 4>(exchange_in_vector<T, K - 1, K / 2>(v)));
    else return v;
}
template <class T, int J>
inline __attribute__((always_inline)) void cross_in_block(V<T>* r) {
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i)
        if (!(i & J)) order_pair<T>(r[i], r[i + J]);
}
// Eight vectors in registers: the steps across them from stride `top` (4, 2, 1 or 0
// vectors) down, then the steps inside each vector.
template <class T>
inline __attribute__((always_inline)) void finish_block(V<T>* v, int top) {
    V<T> r[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) r[i] = v[i];
    if (top >= 4) cross_in_block<T, 4>(r);
    if (top >= 2) cross_in_block<T, 2>(r);
    if (top >= 1) cross_in_block<T, 1>(r);
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) v[i] = half_in_vector<T, W<T> / 2>(r[i]);
}
// Networks of 32 or 64 vectors (more than the registers hold) in memory, one pass over
// the vectors per step across them; for strides under 8 vectors, blocks of 8 vectors
// take their remaining steps in registers. Measured faster than the unrolled form from
// 32 vectors on (which also took minutes to compile under the sanitizers).
template <class T>
void bitonic_stages_in_memory(V<T>* v, int nvec) {
    for (int i = 0; i < nvec; ++i) v[i] = sort_in_vector<T, 2>(v[i]);
    const V<T> reverse = lanes_xor<T, W<T> - 1>();
    for (int kv = 2; kv <= nvec; kv *= 2) {
        for (int i = 0; i < nvec; ++i)
            if (!(i & (kv / 2))) {
                const int p = i ^ (kv - 1);
                const V<T> a = v[i], b = __builtin_shuffle(v[p], reverse);
                v[i] = a < b ? a : b;
                v[p] = a < b ? b : a;
            }
        int jv = kv / 4;
        for (; jv >= 8; jv /= 2)
            for (int i = 0; i < nvec; ++i)
                if (!(i & jv)) order_pair<T>(v[i], v[i + jv]);
        for (int b = 0; b < nvec; b += 8) finish_block<T>(v + b, jv);
    }
}
// Loads keys[0, n) into `vectors` vectors (a power of two) padded with the largest key,
// sorts them (see the top) and stores them back.
// The W x W block of keys in t[0, W) transposed (lane l of t[i] <-> lane i of t[l]): at
// each step S the off-diagonal S x S blocks of each pair of vectors S apart trade places.
template <class T, int S>
inline __attribute__((always_inline)) void transpose_step(V<T>* t) {
    if constexpr (S >= 1) {
        V<T> take_a, take_b;
        for (int l = 0; l < W<T>; ++l) {
            take_a[l] = (l & S) ? T(W<T> + l - S) : T(l);
            take_b[l] = (l & S) ? T(W<T> + l) : T(l + S);
        }
#pragma GCC unroll 16
        for (int i = 0; i < W<T>; ++i)
            if (!(i & S)) {
                const V<T> a = t[i], b = t[i + S];
                t[i] = __builtin_shuffle(a, b, take_a);
                t[i + S] = __builtin_shuffle(a, b, take_b);
            }
        transpose_step<T, S / 2>(t);
    }
}
template <class T>
inline __attribute__((always_inline)) void transpose_square(V<T>* t) { transpose_step<T, W<T> / 2>(t); }

// The keys p[0, count) as a vector, fewer than W padded with the largest key (count may be
// 0 or negative). AVX-512 reads the partial vector with a masked load: the copy to the
// stack and the padding loop before it cost a store-forwarding stall per vector.
template <class T>
inline __attribute__((always_inline)) V<T> load_padded(const T* p, int64_t count) {
    V<T> v;
    if (count >= W<T>) {
        memcpy(&v, p, VB);
        return v;
    }
    if (count <= 0) return splat<T>(T(~T(0)));
#if defined(__AVX512F__)
    if constexpr (sizeof(T) == 8) return (V<T>)_mm512_mask_loadu_epi64(_mm512_set1_epi64(-1), (__mmask8)((1u << count) - 1), p);
    else return (V<T>)_mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), (__mmask16)((1u << count) - 1), p);
#else
    T lanes[W<T>];
    for (int l = 0; l < W<T>; ++l) lanes[l] = T(~T(0));
    memcpy(lanes, p, (size_t)count * sizeof(T));
    memcpy(&v, lanes, VB);
    return v;
#endif
}
// The first `count` lanes of v to p (none if count <= 0, all if count >= W).
template <class T>
inline __attribute__((always_inline)) void store_first_lanes(T* p, int64_t count, V<T> v) {
    if (count >= W<T>) memcpy(p, &v, VB);
    else if (count > 0) {
#if defined(__AVX512F__)
        if constexpr (sizeof(T) == 8) _mm512_mask_storeu_epi64(p, (__mmask8)((1u << count) - 1), (__m512i)v);
        else _mm512_mask_storeu_epi32(p, (__mmask16)((1u << count) - 1), (__m512i)v);
#else
        memcpy(p, &v, (size_t)count * sizeof(T));
#endif
    }
}

// The lanes the networks compare: AVX-512 has unsigned min and max of every width; below
// it, signed lanes with the keys' sign bits flipped.
constexpr bool kFlipSign = VB < 64;
template <class T> using NetKey = std::conditional_t<kFlipSign, sint_of<T>, T>;

// Unrolled networks hold their keys in registers: up to 16 vectors below AVX-512, 32 with
// its 32 registers (some spill). AVX-512, one thread, 1e3 / 3e3 float64 keys through the
// quicksort with leaves of this size: 16 vectors 3.6 / 11.4 us, 32 vectors 3.1 / 10.5 us.
constexpr int kUnrolledMax = VB == 64 ? 32 : 16;
template <class T, int N>
void network_sort_n(void* keys, int64_t n, int vectors) {
    using S = NetKey<T>;
    const V<S> sign = splat<S>(kFlipSign ? S(T(1) << (sizeof(T) * 8 - 1)) : S(0));
    constexpr bool kUnrolled = N <= kUnrolledMax;
    constexpr bool kTransposed = kUnrolled && (VB < 64 || N >= W<T>);
    V<S> v[N];
    if constexpr (kTransposed && N >= W<T>) {
        // Transposed keys go out by W x W blocks (float32 on AVX2, 1e4 keys through the
        // quicksort: 40 -> 35 us against one by one).
        const T* in = (const T*)keys;
#pragma GCC unroll 32
        for (int i = 0; i < N; ++i) v[i] = (V<S>)load_padded<T>(in + i * W<T>, n - i * W<T>) ^ sign;
        transposed_stages<S, N, 2>(v);
        T* out = (T*)keys;
#pragma GCC unroll 4
        for (int g = 0; g < N / W<T>; ++g) {
            V<S> t[W<T>];
#pragma GCC unroll 16
            for (int l = 0; l < W<T>; ++l) t[l] = v[g * W<T> + l] ^ sign;
            transpose_square<S>(t);
#pragma GCC unroll 16
            for (int l = 0; l < W<T>; ++l) {
                const int64_t at = (int64_t)(l * (N / W<T>) + g) * W<T>;
                store_first_lanes<T>(out + at, n - at, (V<T>)t[l]);
            }
        }
        return;
    }
    T* flat = (T*)(void*)v;
    memcpy(flat, keys, (size_t)n * sizeof(T));
    for (int64_t i = n; i < (int64_t)vectors * W<T>; ++i) flat[i] = T(~T(0));  // the largest key
    const int count = kUnrolled ? N : vectors;
    if constexpr (kFlipSign) {
#pragma GCC unroll 16
        for (int i = 0; i < count; ++i) v[i] ^= sign;
    }
    if constexpr (kTransposed) transposed_stages<S, N, 2>(v);
    else if constexpr (kUnrolled) bitonic_stages<S, N, 2>(v);
    else bitonic_stages_in_memory<S>(v, vectors);
    if constexpr (kFlipSign) {
#pragma GCC unroll 16
        for (int i = 0; i < count; ++i) v[i] ^= sign;
    }
    if constexpr (kTransposed) {  // one by one below W vectors
        T* out = (T*)keys;
        for (int64_t i = 0; i < n; ++i) out[i] = flat[(i % N) * W<T> + i / N];
    } else {
        memcpy(keys, flat, (size_t)n * sizeof(T));
    }
}

constexpr int kMaxVectors = kNetworkSortBytes / VB < 64 ? kNetworkSortBytes / VB : 64;
template <class T> constexpr int64_t kNetworkSortMax = (int64_t)kMaxVectors * W<T>;
#ifdef EMBER_SANITIZED
// Instrumented, the unrolled networks took over 8 minutes to compile per ISA: sanitizer
// builds sort every size in memory (the same comparators, at least 8 vectors).
constexpr bool kUnrollNetworks = false;
#else
constexpr bool kUnrollNetworks = true;
#endif

// Sorts the unsigned keys[0, n) ascending in place, n <= kNetworkSortMax<T>.
template <class T>
void network_sort(void* keys, int64_t n) {
    static_assert(kMaxVectors >= 32 && kMaxVectors <= 64, "network size");
    const int64_t vectors = (n + W<T> - 1) / W<T>;
    if constexpr (!kUnrollNetworks) {
        network_sort_n<T, kMaxVectors>(keys, n, vectors <= 8 ? 8 : vectors <= 16 ? 16 : vectors <= 32 ? 32 : 64);
    } else {  // (not even instantiated under the sanitizers)
        if (vectors <= 1) network_sort_n<T, 1>(keys, n, 1);
        else if (vectors <= 2) network_sort_n<T, 2>(keys, n, 2);
        else if (vectors <= 4) network_sort_n<T, 4>(keys, n, 4);
        else if (vectors <= 8) network_sort_n<T, 8>(keys, n, 8);
        else if (vectors <= 16) network_sort_n<T, 16>(keys, n, 16);
        else if (kUnrolledMax >= 32 && vectors <= 32) network_sort_n<T, 32>(keys, n, 32);
        else network_sort_n<T, kMaxVectors>(keys, n, vectors <= 32 ? 32 : 64);
    }
}
