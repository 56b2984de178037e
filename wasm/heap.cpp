// heapUsed() in both WebAssembly modules: the bytes the live allocations asked for, for leak checks.
//
// Both modules allocate with emmalloc, and no figure of the allocator's own serves a leak check
// that compares bytes exactly: mallinfo() counts every free region's header as used; a region's
// size depends on where it was carved (a leftover too small to split goes with it) and changes
// while it lives (aligning the next region's payload moves the boundary into the region before).
// So the same live allocations read a few bytes more or less from one moment to the next (a
// leak test saw 8 bytes "leak" that way). Here malloc and its siblings, which emmalloc defines
// weak, put each block's requested size in a header ahead of what the caller gets, and count it:
// whenever the same allocations are live the figure is the same, to the byte, and a leak shows
// as what the leaked blocks asked for. The price is 8 bytes per block.
#include <emscripten/emmalloc.h>
#include <emscripten/emscripten.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace {

// Just before the caller's pointer: how far into the emmalloc block it is, and the size asked for.
// 8 bytes, so a payload after it keeps emmalloc's 8-byte alignment.
struct Header {
  std::uint32_t offset;
  std::uint32_t size;
};
static_assert(sizeof(Header) == 8);

std::size_t live_bytes = 0;

Header* header_of(void* payload) { return static_cast<Header*>(payload) - 1; }

void* allocate(std::size_t alignment, std::size_t size) {
  const std::size_t offset = alignment > sizeof(Header) ? alignment : sizeof(Header);
  if (size > UINT32_MAX - offset) return nullptr;
  auto* block = static_cast<unsigned char*>(emmalloc_memalign(offset, size + offset));
  if (block == nullptr) return nullptr;
  void* payload = block + offset;
  *header_of(payload) = {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size)};
  live_bytes += size;
  return payload;
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) { return allocate(sizeof(Header), size); }

void* calloc(std::size_t count, std::size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* payload = malloc(count * size);
  if (payload != nullptr) std::memset(payload, 0, count * size);
  return payload;
}

void* memalign(std::size_t alignment, std::size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  return allocate(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* payload = allocate(alignment, size);
  if (payload == nullptr) return ENOMEM;
  *out = payload;
  return 0;
}

void free(void* payload) {
  if (payload == nullptr) return;
  const Header header = *header_of(payload);
  live_bytes -= header.size;
  emmalloc_free(static_cast<unsigned char*>(payload) - header.offset);
}

void* realloc(void* payload, std::size_t size) {
  if (payload == nullptr) return malloc(size);
  if (size == 0) {
    free(payload);
    return nullptr;
  }
  Header& header = *header_of(payload);
  // Resized in place when it can be (emmalloc_realloc_try leaves the block as it was when not).
  if (header.offset == sizeof(Header) && size <= UINT32_MAX - sizeof(Header) &&
      emmalloc_realloc_try(static_cast<unsigned char*>(payload) - sizeof(Header), size + sizeof(Header)) != nullptr) {
    live_bytes = live_bytes - header.size + size;
    header.size = static_cast<std::uint32_t>(size);
    return payload;
  }
  void* moved = malloc(size);
  if (moved == nullptr) return nullptr;  // the old block lives on, still counted
  std::memcpy(moved, payload, header.size < size ? header.size : size);
  free(payload);
  return moved;
}

std::size_t malloc_usable_size(void* payload) { return payload == nullptr ? 0 : header_of(payload)->size; }

EMSCRIPTEN_KEEPALIVE std::uint32_t hg_heap_used() { return static_cast<std::uint32_t>(live_bytes); }

}  // extern "C"
