#pragma once

#include <cmath>

namespace synctax {

enum class Halving { Arithmetic, Geometric }; // geometric: of the ratio, for scale factors

// Where an increasing f crosses target within [lo, hi], after `steps` halvings of the bracket: the
// calibrations' one search (a decreasing f is passed negated, with its target).
template <typename F> double bisect(F&& f, double lo, double hi, double target, int steps, Halving halving)
{
    const auto middle = [&] { return halving == Halving::Geometric ? std::sqrt(lo * hi) : 0.5 * (lo + hi); };
    for (int i = 0; i < steps; ++i) {
        const double mid = middle();
        (f(mid) < target ? lo : hi) = mid;
    }
    return middle();
}

} // namespace synctax
