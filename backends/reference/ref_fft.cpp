// The one FFT kernel: an unnormalised complex DFT along one axis ("fft_c2c").
//   in[0], out[0]: complex64 or complex128 views of the same shape (any strides)
//   attrs i[0] = axis, i[1] = 1 for the inverse (e^{+2 pi i jk/n}) transform
// Every line is transformed in complex double: mixed radix (recursive decimation in time,
// radix 4 first) when all prime factors of n are <= 13, Bluestein's chirp-z over a power-of-two
// transform otherwise. O(n log n) for every n.
#include <memory>

#include "ref_common.hpp"

namespace ember_ref {
namespace {

using cd = std::complex<double>;

class Plan {
   public:
    explicit Plan(int64_t n) : n_(n) {
        int64_t m = n;
        while (m % 4 == 0) {  // radix 4 first: half the passes of radix 2, and no multiplications inside
            factors_.push_back(4);
            m /= 4;
        }
        for (int64_t p = 2; p * p <= m; ++p)
            while (m % p == 0) {
                factors_.push_back(p);
                m /= p;
            }
        if (m > 1) factors_.push_back(m);
        bluestein_ = false;
        for (int64_t f : factors_) bluestein_ = bluestein_ || f > 13;
        if (!bluestein_) {
            w_.resize((size_t)n);
            for (int64_t j = 0; j < n; ++j) w_[(size_t)j] = unit(j, n);
        } else {
            int64_t M = 1;
            while (M < 2 * n - 1) M *= 2;
            sub_ = std::make_unique<Plan>(M);
            // chirp[k] = exp(-i pi k^2 / n); k^2 reduced mod 2n keeps the angle exact.
            chirp_.resize((size_t)n);
            for (int64_t k = 0; k < n; ++k) {
                int64_t k2 = (int64_t)(((unsigned __int128)k * (unsigned __int128)k) % (unsigned __int128)(2 * n));
                chirp_[(size_t)k] = unit(k2, 2 * n);
            }
            std::vector<cd> b((size_t)M, cd(0, 0));
            b[0] = std::conj(chirp_[0]);
            for (int64_t k = 1; k < n; ++k) b[(size_t)k] = b[(size_t)(M - k)] = std::conj(chirp_[(size_t)k]);
            bhat_.resize((size_t)M);
            sub_->forward(b.data(), bhat_.data());
        }
    }

    // out = DFT(in) with e^{-2 pi i jk/n}; in and out must not alias.
    void forward(const cd* in, cd* out) const {
        if (!bluestein_) {
            rec(in, 1, out, n_, 0);
            return;
        }
        int64_t M = (int64_t)bhat_.size();
        std::vector<cd> a((size_t)M, cd(0, 0)), ah((size_t)M);
        for (int64_t k = 0; k < n_; ++k) a[(size_t)k] = mul(in[k], chirp_[(size_t)k]);
        sub_->forward(a.data(), ah.data());
        for (int64_t k = 0; k < M; ++k) ah[(size_t)k] = std::conj(mul(ah[(size_t)k], bhat_[(size_t)k]));
        sub_->forward(ah.data(), a.data());  // conj(DFT(conj(.))) = M * inverse DFT
        for (int64_t k = 0; k < n_; ++k) out[k] = mul(std::conj(a[(size_t)k]) / (double)M, chirp_[(size_t)k]);
    }

   private:
    // exp(-2 pi i j / n), with the angle reduced in long double.
    static cd unit(int64_t j, int64_t n) {
        long double a = -2.0L * 3.141592653589793238462643383279502884L * (long double)j / (long double)n;
        return cd((double)cosl(a), (double)sinl(a));
    }
    void rec(const cd* in, int64_t stride, cd* out, int64_t n, size_t fi) const {
        if (n == 1) {
            out[0] = in[0];
            return;
        }
        int64_t p = factors_[fi], m = n / p;
        if (m == 1)  // the last stage's sub-transforms are single elements
            for (int64_t r = 0; r < p; ++r) out[r] = in[r * stride];
        else
            for (int64_t r = 0; r < p; ++r) rec(in + r * stride, stride * p, out + r * m, m, fi + 1);
        int64_t step = n_ / n, pstep = n_ / p;
        if (p == 4) {  // the four-point DFT needs only +-1 and +-i
            for (int64_t k = 0; k < m; ++k) {
                cd a0 = out[k], a1 = mul(out[m + k], w_[(size_t)(k * step)]);
                cd a2 = mul(out[2 * m + k], w_[(size_t)(2 * k * step)]), a3 = mul(out[3 * m + k], w_[(size_t)(3 * k * step)]);
                cd s02 = a0 + a2, d02 = a0 - a2, s13 = a1 + a3, d13 = a1 - a3;
                cd d13_i(d13.imag(), -d13.real());  // -i * (a1 - a3)
                out[k] = s02 + s13;
                out[k + m] = d02 + d13_i;
                out[k + 2 * m] = s02 - s13;
                out[k + 3 * m] = d02 - d13_i;
            }
            return;
        }
        if (p == 2) {  // the butterfly: w^(n/2) = -1 exactly
            for (int64_t k = 0; k < m; ++k) {
                cd a = out[k], b = mul(out[m + k], w_[(size_t)(k * step)]);
                out[k] = a + b;
                out[k + m] = a - b;
            }
            return;
        }
        cd t[16];
        for (int64_t k = 0; k < m; ++k) {
            // r * k < n: the twiddle index needs no reduction
            for (int64_t r = 0; r < p; ++r) t[r] = mul(out[r * m + k], w_[(size_t)(r * k * step)]);
            for (int64_t q = 0; q < p; ++q) {
                cd s = t[0];
                for (int64_t r = 1; r < p; ++r) s += mul(t[r], w_[(size_t)((r * q % p) * pstep)]);
                out[k + q * m] = s;
            }
        }
    }
    // The textbook product: std::complex's operator* goes through __muldc3 (C99 Annex G
    // infinity recovery), several times slower, and a transform has no use for it.
    static cd mul(const cd& a, const cd& b) { return cd(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()); }

    int64_t n_;
    std::vector<int64_t> factors_;
    bool bluestein_ = false;
    std::vector<cd> w_, chirp_, bhat_;
    std::unique_ptr<Plan> sub_;
};

template <class C>
void run(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse) {
    int64_t n = in.shape[axis];
    Plan plan(n);
    int64_t outer[EMBER_MAX_DIMS];
    for (int d = 0; d < in.ndim; ++d) outer[d] = d == axis ? 1 : in.shape[d];
    std::vector<cd> a((size_t)n), b((size_t)n);
    const C* ip = (const C*)in.data + in.offset;
    C* op = (C*)out.data + out.offset;
    for_each_index(in.ndim, outer, [&](const int64_t* idx) {
        int64_t io = 0, oo = 0;
        for (int d = 0; d < in.ndim; ++d) {
            io += idx[d] * in.strides[d];
            oo += idx[d] * out.strides[d];
        }
        for (int64_t k = 0; k < n; ++k) {
            cd v((double)ip[io + k * in.strides[axis]].real(), (double)ip[io + k * in.strides[axis]].imag());
            a[(size_t)k] = inverse ? std::conj(v) : v;
        }
        plan.forward(a.data(), b.data());
        for (int64_t k = 0; k < n; ++k) {
            cd v = inverse ? std::conj(b[(size_t)k]) : b[(size_t)k];
            op[oo + k * out.strides[axis]] = C((typename C::value_type)v.real(), (typename C::value_type)v.imag());
        }
    });
}

ember_status_t fft_c2c_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    bool inverse = call->attrs->i[1] != 0;
    if (in.dtype != out.dtype || (in.dtype != EMBER_COMPLEX64 && in.dtype != EMBER_COMPLEX128)) return fail_dtype("fft_c2c", in.dtype);
    if (axis < 0 || axis >= in.ndim) return g_host->fail(EMBER_ERR_INDEX, "fft_c2c: axis %d out of range", axis);
    for (int d = 0; d < in.ndim; ++d)
        if (in.shape[d] == 0) return EMBER_OK;
    if (in.dtype == EMBER_COMPLEX64) run<c64>(in, out, axis, inverse);
    else run<c128>(in, out, axis, inverse);
    return EMBER_OK;
}

void add_fft_kernels(KernelList& k) { k.emplace_back("fft_c2c", fft_c2c_kernel); }
static RegisterKernels reg(add_fft_kernels);

}  // namespace
}  // namespace ember_ref
