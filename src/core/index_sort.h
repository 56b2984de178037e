// Sorting indices by what they index, with one comparator type (a function and its context) for
// every such sort in the core: the parser ranking a condition's paths, the graph listing its node
// names and renumbering its topological order. std::sort is then instantiated once, where each
// comparator of its own cost the routing module about a kilobyte of code. None of these sorts is
// on a route's path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace handoff {

struct IndexLess {
  bool (*less)(const void* context, std::uint32_t a, std::uint32_t b);
  const void* context;
  bool operator()(std::uint32_t a, std::uint32_t b) const { return less(context, a, b); }
};

inline void sort_indices(std::vector<std::uint32_t>& indices, IndexLess less) {
  std::sort(indices.begin(), indices.end(), less);
}

// `order` becomes the indices of texts[0, count) in the texts' byte order (for UTF-8, code point
// order).
inline void order_by_text(std::vector<std::uint32_t>& order, const std::string* texts, std::uint32_t count) {
  order.resize(count);
  std::iota(order.begin(), order.end(), 0u);
  sort_indices(order, {[](const void* context, std::uint32_t a, std::uint32_t b) {
                         const auto* strings = static_cast<const std::string*>(context);
                         return strings[a] < strings[b];
                       },
                       texts});
}

}  // namespace handoff
