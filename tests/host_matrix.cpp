// The host-matrix arithmetic of host_matrix.hpp, in a file of its own so that it is compiled
// optimised even where the tests are not (tests/CMakeLists.txt).
#include "host_matrix.hpp"

HM heye(int64_t n) {
    HM m(n, n);
    for (int64_t i = 0; i < n; ++i) m(i, i) = 1;
    return m;
}
HM hmul(const HM& a, const HM& b) {
    HM m(a.r, b.c);
    for (int64_t i = 0; i < a.r; ++i)
        for (int64_t k = 0; k < a.c; ++k)
            for (int64_t j = 0; j < b.c; ++j) m(i, j) += a(i, k) * b(k, j);
    return m;
}
HM hadj(const HM& a) {
    HM m(a.c, a.r);
    for (int64_t i = 0; i < a.r; ++i)
        for (int64_t j = 0; j < a.c; ++j) m(j, i) = std::conj(a(i, j));
    return m;
}
HM hsub(const HM& a, const HM& b) {
    HM m = a;
    for (size_t i = 0; i < m.v.size(); ++i) m.v[i] -= b.v[i];
    return m;
}
double hnorm(const HM& a) {
    double s = 0;
    for (cd x : a.v) s += std::norm(x);
    return std::sqrt(s);
}
HM hdiag(const std::vector<cd>& d, int64_t rows, int64_t cols) {
    HM m(rows, cols);
    for (size_t i = 0; i < d.size(); ++i) m((int64_t)i, (int64_t)i) = d[i];
    return m;
}
