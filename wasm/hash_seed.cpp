// The export that keys the core's string hashing (src/core/string_index.h) with random bits, in
// both WebAssembly modules: js/runtime.js calls it with crypto.getRandomValues() at the first call
// that needs the runtime (not in init(), which a Cloudflare Worker awaits where random values are
// refused), before any graph, condition or definition exists, so that keys a user chooses (node
// ids, JSON members, state objects) cannot be made to collide.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "core/string_index.h"

extern "C" EMSCRIPTEN_KEEPALIVE bool hg_seed_hashes(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return handoff::seed_string_hashes((static_cast<std::uint64_t>(b) << 32) | a, (static_cast<std::uint64_t>(d) << 32) | c);
}
