// The float-to-integer rule of astype, shared by the reference backend (its specification)
// and the cpu kernels that write integers from doubles (arange, the random samplers): NaN
// gives 0, a value beyond the integer's range gives its nearest limit, the rest truncate
// toward zero. A floating-point To is a plain cast.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace ember_convert {

template <class To>
static inline To saturating_cast(double v) {
    static_assert(!std::is_same_v<To, bool>, "bool is v != 0, not a saturating cast");
    if constexpr (std::is_integral_v<To>) {
        if (std::isnan(v)) return To(0);
        if (v <= (double)std::numeric_limits<To>::lowest()) return std::numeric_limits<To>::lowest();
        if (v >= (double)std::numeric_limits<To>::max()) return std::numeric_limits<To>::max();
    }
    return (To)v;
}

}  // namespace ember_convert
