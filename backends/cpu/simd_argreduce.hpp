// The inner loops of argmax/argmin (argreduce.cpp) in the vector width of the ISA this copy
// of simd_impl.cpp is compiled for (included there, inside its anonymous namespace).
// Compiled once for SSE2 in argreduce.cpp, the column fold had no 64-bit compare (argmax
// over axis 0 of a (100000, 3) int64 array: 0.86x NumPy) and the search after a row's
// maximum took four compares per 16 floats (a third of an argmax along rows of 1000).

// FirstPositionFn: four vectors per test until one holds the value, then vector by vector,
// then the element.
template <class T>
int64_t first_position_vec(const void* xv, int64_t n, const void* value) {
    const T* x = (const T*)xv;
    const T v = *(const T*)value;
    constexpr int w = W<T>;
    int64_t i = 0;
    if (v != v) {  // a NaN: the first element unequal to itself
        for (; i + w <= n; i += w) {
            const V<T> a = load(x + i);
            if (any_set(a != a)) break;
        }
        while (x[i] == x[i]) ++i;
        return i;
    }
    const V<T> s = splat<T>(v);
    for (; i + 4 * w <= n; i += 4 * w)
        if (any_set((load(x + i) == s) | (load(x + i + w) == s) | (load(x + i + 2 * w) == s) | (load(x + i + 3 * w) == s))) break;
    for (; i + w <= n; i += w)
        if (any_set(load(x + i) == s)) break;
    while (!(x[i] == v)) ++i;
    return i;
}

// ArgColumnsFn: each column's extreme and its row stay on the stack while rows fold in
// order, one contiguous read per row. A row replaces where it is a NaN or beats an extreme
// that is not a NaN (the reference's rule: the first extreme and the first NaN win). The
// compiler vectorises the loop over columns in this ISA's width.
template <class T, bool IsMax>
void arg_columns_vec(const void* xv, int64_t r0, int64_t r1, int64_t step, int64_t m, void* best_out, int64_t* row_out) {
    const T* x = (const T*)xv;
    alignas(64) T best[kArgColumns];
    alignas(64) int32_t row[kArgColumns];
    for (int64_t j = 0; j < m; ++j) {
        best[j] = x[r0 * step + j];
        row[j] = (int32_t)r0;
    }
    for (int64_t r = r0 + 1; r < r1; ++r) {
        const T* v = x + r * step;
        for (int64_t j = 0; j < m; ++j) {
            bool replace = IsMax ? best[j] < v[j] : v[j] < best[j];
            if constexpr (is_flt<T>) replace = (replace || v[j] != v[j]) && best[j] == best[j];
            best[j] = replace ? v[j] : best[j];
            row[j] = replace ? (int32_t)r : row[j];
        }
    }
    for (int64_t j = 0; j < m; ++j) {
        ((T*)best_out)[j] = best[j];
        row_out[j] = row[j];
    }
}

// ArgRowFn of float32 and float64: one pass that keeps, in four sets of lanes, each lane's
// extreme and its first index (a strict compare: a lane keeps the earlier of equal values),
// and a running sum that a NaN turns into a NaN; then the extreme of the lanes and the least
// index holding it, which is the first extreme of the row (-0.0 and +0.0 are equal, as for
// the reference). Index lanes are as wide as the elements, so float32 needs n < 2^30. -1
// where the sum came out NaN (a NaN, or both infinities): the caller's exact search decides.
// The two passes it replaces (the NaN-minding max, four operations a vector, then a search
// for it) cost argmax over axis 1 of a (1000, 1000) float32 array 110 us on one thread
// (NumPy 86). Integers keep those two passes: their max is one operation (vpmaxsd), and one
// pass ran slower.
template <class T, bool IsMax>
int64_t arg_row_vec(const void* in, int64_t n) {
    static_assert(is_flt<T>, "floats only");
    using I = sint_of<T>;
    const T* x = (const T*)in;
    constexpr int w = W<T>;
    auto beats = [](T v, T b) { return IsMax ? b < v : v < b; };
    if (n < 4 * w) {
        int64_t best = 0;
        T sum = x[0];
        for (int64_t k = 1; k < n; ++k) {
            sum += x[k];
            if (beats(x[k], x[best])) best = k;
        }
        return sum != sum ? -1 : best;
    }
    V<I> idx0;
    for (int l = 0; l < w; ++l) idx0[l] = (I)l;
    V<T> b0 = load(x), b1 = load(x + w), b2 = load(x + 2 * w), b3 = load(x + 3 * w);
    V<I> i0 = idx0, i1 = idx0 + (I)w, i2 = idx0 + (I)(2 * w), i3 = idx0 + (I)(3 * w);
    V<T> s0 = b0, s1 = b1, s2 = b2, s3 = b3;
    // The pick (maxps), then whether it moved.
    auto step = [&](V<T>& b, V<I>& bi, V<T>& s, V<T> v, V<I> at) {
        const V<T> picked = IsMax ? (v > b ? v : b) : (v < b ? v : b);
        bi = picked != b ? at : bi;
        b = picked;
        s += v;
    };
    int64_t i = 4 * w;
    V<I> at = idx0 + (I)i;
    for (; i + 4 * w <= n; i += 4 * w, at += (I)(4 * w)) {
        step(b0, i0, s0, load(x + i), at);
        step(b1, i1, s1, load(x + i + w), at + (I)w);
        step(b2, i2, s2, load(x + i + 2 * w), at + (I)(2 * w));
        step(b3, i3, s3, load(x + i + 3 * w), at + (I)(3 * w));
    }
    for (; i + w <= n; i += w, at += (I)w) step(b1, i1, s1, load(x + i), at);
    // The tail as the row's last whole vector: an element seen twice comes with its own index.
    if (i < n) step(b2, i2, s2, load(x + n - w), idx0 + (I)(n - w));
    const V<T> sum = (s0 + s1) + (s2 + s3);
    if (any_set(sum != sum)) return -1;
    // Merge the sets lane by lane (the greater, or the earlier of equal values), then the lanes.
    auto merge = [&](V<T>& b, V<I>& bi, V<T> c, V<I> ci) {
        const auto take = (IsMax ? b < c : c < b) | ((b == c) & (ci < bi));
        b = take ? c : b;
        bi = take ? ci : bi;
    };
    merge(b0, i0, b1, i1);
    merge(b2, i2, b3, i3);
    merge(b0, i0, b2, i2);
    T e = b0[0];
    for (int l = 1; l < w; ++l) e = beats(b0[l], e) ? b0[l] : e;
    int64_t best = n;
    for (int l = 0; l < w; ++l)
        if (b0[l] == e && (int64_t)i0[l] < best) best = (int64_t)i0[l];
    return best;
}

template <class T>
void fill_argreduce_dtype(IsaTable& t, int d) {
    t.first_position[d] = first_position_vec<T>;
    t.arg_columns[0][d] = arg_columns_vec<T, false>;
    t.arg_columns[1][d] = arg_columns_vec<T, true>;
    if constexpr (is_flt<T>) {
        t.arg_row[0][d] = arg_row_vec<T, false>;
        t.arg_row[1][d] = arg_row_vec<T, true>;
    }
}
