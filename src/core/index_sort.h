// Sorting indices by what they index, with one comparator type (a function and its context) for
// every such sort in the core: the parser ranking a condition's paths, the graph listing its node
// names and renumbering its topological order. One sort is then compiled once, where each
// comparator of its own cost the routing module about a kilobyte of code. None of these sorts is
// on a route's path.
#pragma once

#include <algorithm>
#include <cstddef>
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

// Heapsort rather than std::sort: n log n comparisons on every input, in a fraction of the code
// (std::sort's introsort and its helpers were 1.9 KB of the routing module). Not stable, as
// std::sort is not; every caller sorts distinct keys, so the order is the same.
inline void sift_down(std::uint32_t* heap, std::size_t root, std::size_t end, const IndexLess& less) {
  for (;;) {
    std::size_t child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && less(heap[child], heap[child + 1])) ++child;
    if (!less(heap[root], heap[child])) return;
    std::swap(heap[root], heap[child]);
    root = child;
  }
}

inline void sort_indices(std::vector<std::uint32_t>& indices, IndexLess less) {
  std::uint32_t* a = indices.data();
  const std::size_t n = indices.size();
  for (std::size_t i = n / 2; i-- > 0;) sift_down(a, i, n, less);
  for (std::size_t end = n; end > 1; --end) {
    std::swap(a[0], a[end - 1]);
    sift_down(a, 0, end - 1, less);
  }
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
