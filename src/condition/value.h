// The value model the evaluator reads: a flat, pre-order "tape" of 16-byte cells.
//
// A route reads a handful of paths from a possibly huge state. Whoever holds the state (JavaScript,
// or the core's json::Value natively) resolves those paths and writes only the values found there onto a
// tape; the evaluator never sees anything else. The tape is plain data on purpose: JavaScript
// writes it through typed-array views of WebAssembly memory without one boundary call per value,
// and the native writer (json_state.h) produces the same cells, so both runtimes evaluate the same
// bytes with the same code.
//
// Cell layout (all little-endian uint32 words; JS writes them directly):
//   word 0  kind (Kind), plus kTruncated for a container whose children were not written
//   word 1  String: interned id, kNoId (not looked up), kUninterned (known to be no interned
//           string) or kUnsent (the same, bytes not sent).   Array/Object: elements / members
//   word 2+3 Number: the double.  String: byte offset and length in the byte arena.
//            Array/Object: word 2 = cells in the subtree, itself included (1 when truncated)
// An object's members are written as a String key cell followed by the value's subtree.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"
#include "core/string_index.h"

namespace handoff::condition {

using Kind = contract::CellKind;

inline constexpr auto kTruncated = static_cast<std::uint32_t>(contract::kTruncated);
inline constexpr auto kNoId = static_cast<std::uint32_t>(contract::kNoStringId);
// A string the writer looked up and did not find: unequal to every interned string (so to every
// string literal), which spares the evaluator a lookup of its bytes.
inline constexpr auto kUninterned = static_cast<std::uint32_t>(contract::kUninterned);
// The same, written without its bytes: word 2 is 0 and word 3 its length, enough for truthiness.
// A writer sends it only where Condition::text_levels says no comparison reads the text.
inline constexpr auto kUnsent = static_cast<std::uint32_t>(contract::kUnsent);
// Interned ids are below every marker above.
inline constexpr std::uint32_t kFirstMarker = kUnsent;

struct alignas(8) Cell {  // 8-aligned so JS can write the double through a Float64Array
  std::uint32_t kind;
  std::uint32_t a;
  std::uint32_t w[2];
};
static_assert(sizeof(Cell) == 16, "JS writes cells as four uint32 words");

// Strings seen in conditions, each stored once under a small id. A state string equal to a known
// string can then travel as its id (an integer compare) instead of as bytes.
class Interner {
 public:
  std::uint32_t intern(std::string_view text);
  std::uint32_t find(std::string_view text) const;  // kNoId when unknown
  std::string_view view(std::uint32_t id) const { return *strings_[id]; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(strings_.size()); }

 private:
  static std::string_view key_of(const void* strings, std::uint32_t id) {
    return *(*static_cast<const Strings*>(strings))[id];
  }

  // Each string in a place of its own, which never moves, so views of it stay valid (a vector of
  // pointers: a deque's growth was 2 KB of the routing module's code, inlined where strings are added).
  using Strings = std::vector<std::unique_ptr<const std::string>>;
  Strings strings_;
  StringIndex ids_;                  // over strings_, once there are more than a few
};

struct TapeView {
  const Cell* cells = nullptr;
  std::uint32_t size = 0;
  const char* bytes = nullptr;
  const Interner* strings = nullptr;
};

// A read-only handle on one value of a tape.
class ValueRef {
 public:
  // A slot not read yet (a lazy route, SlotReader): no value until the reader supplies one.
  ValueRef() = default;
  ValueRef(const TapeView* tape, std::uint32_t index) : tape_(tape), index_(index) {}

  bool unread() const { return tape_ == nullptr; }

  Kind kind() const { return static_cast<Kind>(cell().kind & 0xFF); }
  bool truncated() const { return (cell().kind & kTruncated) != 0; }
  double number() const {
    double d;
    std::memcpy(&d, cell().w, sizeof d);
    return d;
  }
  // The interned id, or kNoId / kUninterned.
  std::uint32_t string_id() const { return cell().a; }
  bool interned() const { return cell().a < kFirstMarker; }
  std::string_view text() const {
    const Cell& c = cell();
    if (c.a < kFirstMarker) return tape_->strings->view(c.a);
    return {tape_->bytes + c.w[0], c.w[1]};
  }
  // Whether a string is empty; also for kUnsent, whose text is not there.
  bool empty_string() const {
    const Cell& c = cell();
    return c.a < kFirstMarker ? tape_->strings->view(c.a).empty() : c.w[1] == 0;
  }
  std::uint32_t count() const { return cell().a; }  // elements of an array, members of an object

  // Children, for an untruncated array or object: elements, or key, value, key, value...
  ValueRef first_child() const { return {tape_, index_ + 1}; }
  ValueRef next_sibling() const { return {tape_, index_ + extent()}; }

  bool operator==(const ValueRef& other) const { return tape_ == other.tape_ && index_ == other.index_; }

 private:
  const Cell& cell() const { return tape_->cells[index_]; }
  std::uint32_t extent() const {
    Kind k = kind();
    return (k == Kind::Array || k == Kind::Object) ? cell().w[0] : 1;
  }

  const TapeView* tape_ = nullptr;
  std::uint32_t index_ = 0;
};

// Reads a route's slots on demand: whoever holds the state resolves a path only when evaluation
// first needs its value, so an `or` that holds on its first operand never reads the others.
// `read(slot)` resolves and writes the value at the slot's path and returns it; the caller asks
// once per slot and route (the reader keeps what it returned).
class SlotReader {
 public:
  virtual ValueRef read(std::uint32_t slot) = 0;

 protected:
  SlotReader() = default;
  SlotReader(const SlotReader&) = default;
  SlotReader& operator=(const SlotReader&) = default;
  ~SlotReader() = default;
};

// Appends cells; used for a condition's constants and by the native state writer.
class TapeBuilder {
 public:
  std::uint32_t add_null() { return add({static_cast<std::uint32_t>(Kind::Null), 0, {0, 0}}); }
  std::uint32_t add_bool(bool b) {
    return add({static_cast<std::uint32_t>(b ? Kind::True : Kind::False), 0, {0, 0}});
  }
  std::uint32_t add_number(double d);
  // `id` is the interned id of `text`, kNoId or kUninterned; the bytes are always kept too.
  std::uint32_t add_string(std::string_view text, std::uint32_t id);
  // Open a container; close it with end_container once its children are added.
  std::uint32_t begin_container(Kind kind);
  void end_container(std::uint32_t index, std::uint32_t count);
  std::uint32_t add_truncated(Kind kind, std::uint32_t count);

  std::uint32_t size() const { return static_cast<std::uint32_t>(cells_.size()); }
  // Drop every cell from `index` on (the bytes they point at stay; they are only unreachable).
  void truncate(std::uint32_t index) { cells_.resize(index); }
  void clear() {
    cells_.clear();
    bytes_.clear();
  }
  TapeView view(const Interner* strings) const {
    return {cells_.data(), size(), bytes_.data(), strings};
  }

 private:
  std::uint32_t add(Cell c) {
    cells_.push_back(c);
    return size() - 1;
  }

  std::vector<Cell> cells_;
  std::string bytes_;
};

}  // namespace handoff::condition
