// The lower middle of a list of doubles, shared by float32's medians (reduce.cpp) and the other floating
// dtypes' (reduce_dtype.cpp) so the core holds one std::nth_element<double> instance (~1.4 KB each).
#pragma once
#include <vector>

namespace tp::detail {

// v: n >= 1 values, no NaN; reordered. Defined in reduce.cpp at -O3 (at -Os float32 medians took 2.6x).
double nth_median(std::vector<double>& v);

}  // namespace tp::detail
