// The documented limits of the condition language (docs/limits.md).
//
// Conditions and states come from people the host may not trust, so every dimension a stranger
// controls is bounded here, and exceeding a bound is a clean error (or, for comparisons, `false`),
// never a crash, a hang or unbounded memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/contract.h"

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
inline constexpr int kMaxCompareDepth = contract::kMaxCompareDepth;
// Cells one path's value may take when marshalled (each scalar, array, object and key is a cell).
// A value larger than this keeps only its size: it is still truthy, but compares unequal. This
// bounds shared-reference blow-ups like `a = {x: b, y: b}` nested 64 times.
inline constexpr auto kMaxStateCells = static_cast<std::uint32_t>(contract::kMaxStateCells);
// Cells one evaluation may write in all, over every path, counting those of values that turned
// out too large. Past it, arrays and objects keep only their size. It bounds the time a condition
// with many paths into huge values can take.
inline constexpr auto kMaxMarshalWork = static_cast<std::uint32_t>(contract::kMaxMarshalWork);
// Element and member visits one evaluation may make in `==` and `in` over arrays and objects.
// Past it those comparisons are false. It bounds conditions that repeat `in` over huge values.
inline constexpr std::uint32_t kMaxCompareWork = std::uint32_t{1} << 26;

}  // namespace handoff::condition
