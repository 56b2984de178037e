// heapUsed() in both WebAssembly modules, for leak checks: the bytes of the regions emmalloc has
// handed out, headers included, read from emmalloc's own figures.
//
// emmalloc_dynamic_heap_size() - emmalloc_free_dynamic_memory() alone also counts the 8-byte
// header of every free region, so the same live blocks read 8 bytes more or less as frees in
// another order split or merge the free space (a leak test saw 8 bytes "leak" that way). Taking
// those headers off too (the number of free regions is what the fragmentation map returns) leaves
// the sum of the regions in use. mallinfo() is not used: this emmalloc's free-region counts there
// stop at one per bucket.
#include <emscripten/emmalloc.h>
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>

extern "C" EMSCRIPTEN_KEEPALIVE std::uint32_t hg_heap_used() {
  std::size_t by_size[32];
  const std::size_t free_regions = emmalloc_compute_free_dynamic_memory_fragmentation_map(by_size);
  constexpr std::size_t kRegionHeader = 2 * sizeof(std::uint32_t);  // emmalloc.c's REGION_HEADER_SIZE
  return static_cast<std::uint32_t>(emmalloc_dynamic_heap_size() - emmalloc_free_dynamic_memory() -
                                    free_regions * kRegionHeader);
}
