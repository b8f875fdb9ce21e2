#pragma once

#include <cstddef>
#include <vector>

namespace synctax {

// numpy 1.24's argsort(kind="quicksort") (introsort: median-of-3 quicksort, insertion sort up to 16
// elements, heapsort past the depth limit): the order in which pandas' sort_values leaves ties.
std::vector<std::size_t> numpyQuicksortOrder(const std::vector<double>& keys);

} // namespace synctax
