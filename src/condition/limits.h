// The documented limits of the condition language (docs/limits.md).
//
// Conditions and states come from people the host may not trust, so every dimension a stranger
// controls is bounded here, and exceeding a bound is a clean error (or, for comparisons, `false`),
// never a crash, a hang or unbounded memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace handoff::condition {

// Parentheses, prefix `not`s and list brackets opened and not yet closed.
inline constexpr int kMaxNesting = 128;
// Source length in UTF-8 bytes (so at least 262,144 characters are always accepted).
inline constexpr std::size_t kMaxSourceBytes = std::size_t{1} << 20;
// Steps in one path: `a.b[0]` has three.
inline constexpr std::size_t kMaxPathSteps = 256;
// Items in one list literal.
inline constexpr std::size_t kMaxListItems = 65536;
// Levels of arrays/objects that `==` and `in` descend below the compared values; deeper is unequal.
inline constexpr int kMaxCompareDepth = 64;
// Cells one state may marshal for one evaluation (each scalar, array, object and key is a cell).
// Past it the remaining values are marked too deep to compare, which bounds shared-reference
// blow-ups like `a = {x: b, y: b}` nested 64 times.
inline constexpr std::uint32_t kMaxStateCells = std::uint32_t{1} << 20;

}  // namespace handoff::condition
