// A compiled condition: parse once (`Condition::compile`), evaluate many times (`evaluate`).
//
// The compiled form is a small tree whose leaves are operands: a state slot (the value found at
// one of the condition's paths), a constant (a literal, stored on the condition's own tape), or the
// boolean result of another node. `and`/`or` nodes are n-ary, so a long chain is one flat node, and
// the only nesting is what the source nests, which the parser bounds (limits.h). Evaluation is
// total: every combination of values has an answer, and nothing throws or allocates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "condition/path.h"
#include "condition/scalar_key.h"
#include "condition/value.h"
#include "core/expected.h"

namespace handoff::condition {

struct SyntaxError {
  std::uint32_t index = 0;  // 0-based offset of the offending character, in UTF-16 code units
  std::string message;      // "<problem> at column <index + 1>"
};

class Condition {
 public:
  // `strings` interns the condition's string literals; it must outlive the condition. Conditions
  // that share an interner (the edges of one graph) can share one marshalled state.
  static Expected<Condition, SyntaxError> compile(std::string_view source, Interner& strings);

  const std::string& source() const { return source_; }
  // The size of the compiled tree (its nodes and their operands): a bound on the steps of one
  // evaluation, apart from the comparisons of arrays and objects, which limits.h bounds.
  std::size_t size() const { return nodes_.size() + children_.size() + 1; }
  // The distinct paths read, sorted by their text. Slot i holds the value at paths()[i] until
  // bind_slots renumbers the slots.
  const std::vector<Path>& paths() const { return paths_; }

  // Renumber the slots: the value at paths()[i] will be read from slot ids[i]. A graph node gives
  // all its edges one slot table, so a state is marshalled once per route, not once per edge.
  void bind_slots(const std::vector<std::uint32_t>& ids);

  // `slots[s]` is the value for slot s (a Null cell when the path found nothing). Slots may point
  // into different tapes: a state machine supplies its reserved names from its own. With a
  // `reader`, a slot may be unread (ValueRef::unread) until the evaluation needs it: then
  // reader->read(s) supplies it (a lazy route reads only the paths its decision needs).
  bool evaluate(const ValueRef* slots, SlotReader* reader = nullptr) const;

  // The slot every evaluation reads first, whatever the values, or kNoSlot (SlotReader: a route
  // may read that slot before it starts without changing what it reads or in which order).
  static constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;
  std::uint32_t first_read() const;

  // A necessary condition on one slot, for dispatching a node's edges by hash (graph/): the
  // condition can hold only if the slot's value is `==` one of `keys`; when `exact`, it holds
  // exactly then. Found for `p == c`, `c == p` and `p in [scalars]` (the whole condition), for an
  // `or` of those on one path, and for the first such test among an `and`'s operands.
  // How much of the text of strings the writer must send for each slot (levels[slot], raised to
  // the need of this condition; the vector must already cover its slots): kTextNone when only
  // literals are compared with the slot's strings (an interned id or kUnsent then decides),
  // kTextTop when the slot's own string may be read (`x < 'm'`, `'ell' in x`), kTextAll when any
  // string inside its value may be (`x == y`, `x in y`). Truthiness needs only the length.
  static constexpr auto kTextNone = static_cast<std::uint8_t>(contract::kTextNone);
  static constexpr auto kTextTop = static_cast<std::uint8_t>(contract::kTextTop);
  static constexpr auto kTextAll = static_cast<std::uint8_t>(contract::kTextAll);
  void text_levels(std::vector<std::uint8_t>& levels) const;

  // What the condition tests about each slot's value, for check/ (the analysis that decides a
  // node's conditions by enumerating classes of values): the slot's value is only ever compared
  // with `constant` by `op`, or tested for truth. A comparison with the boolean result of another
  // part of the condition (`(a == 1) == b`) is listed twice, with `true` and with `false`; one
  // between two slots is listed once, with `other` set.
  struct SlotTest {
    enum class Op : std::uint8_t {
      Truthy,    // `slot` used as a condition
      Equals,    // `==` or `!=`
      Order,     // `<` `<=` `>` `>=`, with the slot on either side
      InConstant,  // `slot in constant` (or `not in`)
      Contains,  // `constant in slot`
    };
    Op op = Op::Truthy;
    std::uint32_t slot = 0;
    ValueRef constant;  // none for Truthy, and when `other` is set
    std::uint32_t other = kNoSlot;  // a comparison between `slot` and this other slot
  };
  // Appends the tests; their constants read through `constants`, which the call sets to the
  // condition's own constants and which must stay where it is while they are used.
  void slot_tests(std::vector<SlotTest>& out, TapeView& constants) const;

  struct Guard {
    std::uint32_t slot = 0;
    std::vector<ScalarKey> keys;
    bool exact = false;
  };
  bool guard(Guard& out) const;

 private:
  friend class Parser;
  friend class Evaluation;

  struct Operand {
    enum class Source : std::uint8_t { Slot, Constant, Node };
    Source source = Source::Constant;
    std::uint32_t index = 0;
  };
  enum class Op : std::uint8_t { Or, And, Not, Eq, Ne, Lt, Le, Gt, Ge, In, NotIn };
  static constexpr std::uint32_t kNoSet = 0xFFFFFFFFu;
  struct Node {
    Op op;
    Operand lhs;  // Not: the operand; comparisons: both sides
    Operand rhs;
    std::uint32_t first = 0;  // Or/And: children are children_[first, first + count)
    std::uint32_t count = 0;
    std::uint32_t set = kNoSet;  // In/NotIn on a constant list of scalars: its keys, in sets_
    // Comparisons with a scalar literal (a string, number, boolean or null), which the evaluator
    // decides without the general comparison: kScalarRhs (`x == 'a'`, `x > 3`) or kScalarLhs
    // (`'a' == x`, `'urgent' in tags`).
    std::uint8_t scalar = 0;
  };
  static constexpr std::uint8_t kScalarRhs = 1;
  static constexpr std::uint8_t kScalarLhs = 2;

  std::uint32_t first_slot(Operand operand) const;

  template <class Fn>
  void for_each_operand(Fn&& fn);
  // Gives every `in` on a constant list of enough scalars a key set and marks comparisons with a
  // scalar literal (called once, by compile).
  void specialize();
  // The keys of the constant at `index` if it is a scalar, or of its elements if it is an array
  // of scalars; false for anything else (a nested list).
  bool constant_keys(std::uint32_t index, std::vector<ScalarKey>& out) const;
  bool comparison_guard(const Node& node, Guard& out) const;

  std::string source_;
  std::vector<Node> nodes_;
  std::vector<Operand> children_;
  Operand root_;
  TapeBuilder constants_;
  const Interner* strings_ = nullptr;
  std::vector<Path> paths_;
  std::vector<KeyTable> sets_;
};

// Value semantics shared by the evaluator and anything else that compares state values.
bool truthy(ValueRef v);
bool equals(ValueRef a, ValueRef b);
bool contains(ValueRef container, ValueRef item);  // `item in container`
// How `<` `<=` `>` `>=` see two values: -1, 0 or 1 for numbers with numbers (NaN: kUnordered) and
// strings with strings (code point order); kUnordered for every other pair, which all four reject.
inline constexpr int kUnordered = 2;
int order(ValueRef a, ValueRef b);

}  // namespace handoff::condition
