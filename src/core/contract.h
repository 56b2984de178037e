// The contract between the core and JavaScript: every kind, status, limit and record layout that
// js/ reads from WebAssembly memory or from a raw export's return value is declared here, once.
//
// Each list is an X-macro, so that one declaration gives the C++ types below, the JS constants
// (scripts/gen-contract.mjs writes js/contract.js from this file; `npm test` fails when that file
// is stale) and a fingerprint of the whole contract. The module exports the fingerprint
// (hg_contract_fingerprint) and init() compares it with the one js/contract.js was generated with,
// so a .wasm built from another version of this header fails loudly instead of misreading memory.
//
// Syntax the generator reads: `#define HANDOFF_CONTRACT_<GROUP>(X)` followed by `X(Name, value)`
// entries (enums and constants) or `X(field)` entries (records of 32-bit words), one per line.
#pragma once

#include <cstdint>
#include <string_view>

// The kinds of a tape cell (condition/value.h): the low byte of a cell's first word.
#define HANDOFF_CONTRACT_CELL_KIND(X) \
  X(Null, 0)                          \
  X(False, 1)                         \
  X(True, 2)                          \
  X(Number, 3)                        \
  X(String, 4)                        \
  X(Array, 5)                         \
  X(Object, 6)

// Flags and sentinels of tape cells and of step records. A string cell's id is an interned id or
// one of NoStringId (not looked up), Uninterned (looked up, known to no table) and Unsent (the
// same, its bytes not sent: w1 is its length); TextNone/TextTop/TextAll say per route path how
// much of its strings' text the core reads (condition.h, Condition::text_levels).
#define HANDOFF_CONTRACT_CONSTANTS(X) \
  X(Truncated, 0x100)                 \
  X(NoStringId, 0xFFFFFFFF)           \
  X(Uninterned, 0xFFFFFFFE)           \
  X(Unsent, 0xFFFFFFFD)               \
  X(TextNone, 0)                      \
  X(TextTop, 1)                       \
  X(TextAll, 2)                       \
  X(NextEnd, -1)                      \
  X(NextNone, -2)                     \
  X(NoEdge, -1)

// The limits the JS state writer enforces while it writes cells (condition/limits.h explains each).
#define HANDOFF_CONTRACT_LIMITS(X) \
  X(MaxCompareDepth, 64)           \
  X(MaxStateCells, 1048576)        \
  X(MaxMarshalWork, 8388608)

// Where an execution is (machine/execution.h). AwaitingPredicate: routing reached an edge the host
// decides with a function; StepInfo.edge says which, and hg_exec_verdict answers.
#define HANDOFF_CONTRACT_EXEC_STATUS(X) \
  X(Ready, 0)                           \
  X(InStep, 1)                          \
  X(End, 2)                             \
  X(MaxSteps, 3)                        \
  X(NoEdgeMatched, 4)                   \
  X(Aborted, 5)                         \
  X(AwaitingPredicate, 6)

// A tape cell: four little-endian uint32 words (condition/value.h documents their meaning).
#define HANDOFF_CONTRACT_CELL(X) \
  X(kind)                        \
  X(a)                           \
  X(w0)                          \
  X(w1)

// Where the transfer area is now: what hg_transfer_reserve returns a pointer to (uint32 words).
#define HANDOFF_CONTRACT_TRANSFER_HEADER(X) \
  X(cells)                                  \
  X(bytes)                                  \
  X(slots)                                  \
  X(cellCapacity)                           \
  X(byteCapacity)                           \
  X(slotCapacity)

// What the last hg_exec_begin / hg_exec_complete / hg_exec_verdict did (int32 words at
// hg_exec_info()): the step under way, or the record of the step just routed. `revision` is 1
// when revision feedback applies to the visit begun. While the status is AwaitingPredicate,
// `edge` is the position (among the state's outgoing edges) of the edge whose function decides.
#define HANDOFF_CONTRACT_STEP_INFO(X) \
  X(status)                           \
  X(step)                             \
  X(state)                            \
  X(visit)                            \
  X(next)                             \
  X(edge)                             \
  X(revision)

// A fan-out step's branches (machine/execution.h), at what hg_exec_branches returns: this header,
// then `count` BRANCH records. `revision` is 1 when revision feedback applies to the branch's visit.
#define HANDOFF_CONTRACT_BRANCHES_HEADER(X) \
  X(count)                                  \
  X(concurrency)

#define HANDOFF_CONTRACT_BRANCH(X) \
  X(state)                         \
  X(visit)                         \
  X(revision)

// The reducers a definition may name for a key of the state (a machine's or a swarm's `reducers`):
// js/reducers.js implements each but `custom`, which names a function the host passes. The names
// are the definition format's; the values only number them.
#define HANDOFF_CONTRACT_REDUCER(X) \
  X(replace, 0)                     \
  X(append, 1)                      \
  X(merge, 2)                       \
  X(sum, 3)                         \
  X(custom, 4)

namespace handoff::contract {

#define HANDOFF_CONTRACT_ENUMERATOR(name, value) name = (value),
#define HANDOFF_CONTRACT_FIELD(name) std::int32_t name;

enum class CellKind : std::uint32_t { HANDOFF_CONTRACT_CELL_KIND(HANDOFF_CONTRACT_ENUMERATOR) };
enum class ExecStatus : std::int32_t { HANDOFF_CONTRACT_EXEC_STATUS(HANDOFF_CONTRACT_ENUMERATOR) };

struct StepInfo {
  HANDOFF_CONTRACT_STEP_INFO(HANDOFF_CONTRACT_FIELD)
};
static_assert(sizeof(StepInfo) == 7 * sizeof(std::int32_t), "JS reads StepInfo as int32 words");

struct TransferHeader {
  HANDOFF_CONTRACT_TRANSFER_HEADER(HANDOFF_CONTRACT_FIELD)
};

struct BranchesHeader {
  HANDOFF_CONTRACT_BRANCHES_HEADER(HANDOFF_CONTRACT_FIELD)
};

struct BranchInfo {
  HANDOFF_CONTRACT_BRANCH(HANDOFF_CONTRACT_FIELD)
};

#undef HANDOFF_CONTRACT_ENUMERATOR
#undef HANDOFF_CONTRACT_FIELD

// The reducers' names, in the contract's order.
#define HANDOFF_CONTRACT_NAME(name, value) #name,
inline constexpr std::string_view kReducerNames[] = {HANDOFF_CONTRACT_REDUCER(HANDOFF_CONTRACT_NAME)};
#undef HANDOFF_CONTRACT_NAME

#define HANDOFF_CONTRACT_CONSTANT(name, value) inline constexpr std::int64_t k##name = (value);
HANDOFF_CONTRACT_CONSTANTS(HANDOFF_CONTRACT_CONSTANT)
HANDOFF_CONTRACT_LIMITS(HANDOFF_CONTRACT_CONSTANT)
#undef HANDOFF_CONTRACT_CONSTANT

// FNV-1a (32-bit) over the canonical text of every list: "GROUP:Name=value;" for enums and
// constants and "GROUP:field=position;" for records, groups in the order below. The generator
// computes the same text and hash from this file.
namespace detail {

constexpr std::uint32_t mix(std::uint32_t hash, std::string_view text) {
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

constexpr std::uint32_t mix(std::uint32_t hash, std::int64_t number) {
  char digits[24] = {};
  int n = 0;
  bool negative = number < 0;
  std::uint64_t magnitude = negative ? static_cast<std::uint64_t>(-(number + 1)) + 1 : static_cast<std::uint64_t>(number);
  do {
    digits[n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (negative) hash = mix(hash, "-");
  while (n > 0) hash = mix(hash, std::string_view(&digits[--n], 1));
  return hash;
}

constexpr std::uint32_t fingerprint() {
  std::uint32_t h = 2166136261u;
  std::int64_t position = 0;
#define HANDOFF_CONTRACT_HASH_VALUE(group) \
  [&](std::string_view name, std::int64_t value) { h = mix(mix(mix(mix(mix(h, group), ":"), name), "="), value); h = mix(h, ";"); }
#define HANDOFF_CONTRACT_ENTRY(name, value) add(#name, static_cast<std::int64_t>(value));
#define HANDOFF_CONTRACT_RECORD_ENTRY(name) add(#name, position++);
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("CELL_KIND");
    HANDOFF_CONTRACT_CELL_KIND(HANDOFF_CONTRACT_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("CONSTANTS");
    HANDOFF_CONTRACT_CONSTANTS(HANDOFF_CONTRACT_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("LIMITS");
    HANDOFF_CONTRACT_LIMITS(HANDOFF_CONTRACT_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("EXEC_STATUS");
    HANDOFF_CONTRACT_EXEC_STATUS(HANDOFF_CONTRACT_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("CELL");
    position = 0;
    HANDOFF_CONTRACT_CELL(HANDOFF_CONTRACT_RECORD_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("TRANSFER_HEADER");
    position = 0;
    HANDOFF_CONTRACT_TRANSFER_HEADER(HANDOFF_CONTRACT_RECORD_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("STEP_INFO");
    position = 0;
    HANDOFF_CONTRACT_STEP_INFO(HANDOFF_CONTRACT_RECORD_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("BRANCHES_HEADER");
    position = 0;
    HANDOFF_CONTRACT_BRANCHES_HEADER(HANDOFF_CONTRACT_RECORD_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("BRANCH");
    position = 0;
    HANDOFF_CONTRACT_BRANCH(HANDOFF_CONTRACT_RECORD_ENTRY)
  }
  {
    auto add = HANDOFF_CONTRACT_HASH_VALUE("REDUCER");
    HANDOFF_CONTRACT_REDUCER(HANDOFF_CONTRACT_ENTRY)
  }
#undef HANDOFF_CONTRACT_HASH_VALUE
#undef HANDOFF_CONTRACT_ENTRY
#undef HANDOFF_CONTRACT_RECORD_ENTRY
  return h;
}

}  // namespace detail

inline constexpr std::uint32_t kFingerprint = detail::fingerprint();

}  // namespace handoff::contract
