// The evaluator: walks the compiled tree over a marshalled state (conditions.md §4).
#include <cmath>
#include <optional>
#include <string_view>

#include "condition/condition.h"
#include "condition/limits.h"

namespace handoff::condition {
namespace {

constexpr Cell kBoolCells[2] = {{static_cast<std::uint32_t>(Kind::False), 0, {0, 0}},
                                {static_cast<std::uint32_t>(Kind::True), 0, {0, 0}}};
constexpr TapeView kBools{kBoolCells, 2, nullptr, nullptr};


bool same_string(ValueRef a, ValueRef b) {
  std::uint32_t x = a.string_id();
  std::uint32_t y = b.string_id();
  bool x_interned = x < kFirstMarker;
  bool y_interned = y < kFirstMarker;
  if (x_interned && y_interned) return x == y;
  // An interned string and one known not to be: different, without reading bytes.
  if ((x_interned && y != kNoId) || (y_interned && x != kNoId)) return false;
  return a.text() == b.text();
}

// `v == c` for a scalar literal c (interned if a string): what Comparison::equals answers, without
// its generality.
bool equals_scalar(ValueRef v, ValueRef c) {
  Kind kind = c.kind();
  if (v.kind() != kind) return false;
  switch (kind) {
    case Kind::Number: return v.number() == c.number();
    case Kind::String: {
      std::uint32_t id = v.string_id();
      if (id < kFirstMarker) return id == c.string_id();
      return id == kNoId && v.text() == c.text();
    }
    default: return true;  // null, false, true
  }
}

// Deep comparisons, with a work budget (limits.h) shared by one evaluation.
class Comparison {
 public:
  bool equals(ValueRef a, ValueRef b, int depth) {
    Kind kind = a.kind();
    if (kind != b.kind()) return false;
    switch (kind) {
      case Kind::Null:
      case Kind::False:
      case Kind::True: return true;
      case Kind::Number: return a.number() == b.number();
      case Kind::String: return same_string(a, b);
      case Kind::Array:
      case Kind::Object:
        if (a.truncated() || b.truncated() || depth >= kMaxCompareDepth) return false;
        if (a.count() != b.count() || !spend(a.count())) return false;
        return kind == Kind::Array ? equal_elements(a, b, depth) : equal_members(a, b, depth);
    }
    return false;
  }

  // `item in list` for a constant list of scalars whose keys are `set`: one lookup, charged to the
  // budget as the scan it replaces would be, so that every answer stays the same.
  bool contains_key(ValueRef list, const KeyTable& set, ValueRef item, const Interner& strings) {
    if (!spend(list.count())) return false;
    ScalarKey key;
    return scalar_key(item, strings, key) && set.find(key) != KeyTable::kAbsent;
  }

  // `item in container` for a scalar literal item: contains() without recursing into equals().
  bool contains_scalar(ValueRef container, ValueRef item) {
    if (container.kind() != Kind::Array) return contains(container, item);
    if (container.truncated() || !spend(container.count())) return false;
    ValueRef element = container.first_child();
    for (std::uint32_t i = 0; i < container.count(); ++i, element = element.next_sibling()) {
      if (equals_scalar(element, item)) return true;
    }
    return false;
  }

  bool contains(ValueRef container, ValueRef item) {
    switch (container.kind()) {
      case Kind::String:
        return item.kind() == Kind::String && container.text().find(item.text()) != std::string_view::npos;
      case Kind::Array: {
        if (container.truncated() || !spend(container.count())) return false;
        ValueRef element = container.first_child();
        for (std::uint32_t i = 0; i < container.count(); ++i, element = element.next_sibling()) {
          if (equals(element, item, 0)) return true;
        }
        return false;
      }
      case Kind::Object: {
        if (container.truncated() || item.kind() != Kind::String || !spend(container.count())) return false;
        ValueRef key = container.first_child();
        for (std::uint32_t i = 0; i < container.count(); ++i) {
          if (same_string(key, item)) return true;
          key = key.next_sibling().next_sibling();
        }
        return false;
      }
      default:
        return false;
    }
  }

 private:
  bool spend(std::uint32_t visits) {
    if (visits > work_left_) {
      work_left_ = 0;
      return false;
    }
    work_left_ -= visits;
    return true;
  }

  bool equal_elements(ValueRef a, ValueRef b, int depth) {
    ValueRef x = a.first_child();
    ValueRef y = b.first_child();
    for (std::uint32_t i = 0; i < a.count(); ++i, x = x.next_sibling(), y = y.next_sibling()) {
      if (!equals(x, y, depth + 1)) return false;
    }
    return true;
  }

  // Key order does not matter. It usually agrees, so walk both objects in step; at the first key
  // that differs, index the rest of b's members by key and look the rest of a's up there.
  bool equal_members(ValueRef a, ValueRef b, int depth) {
    ValueRef key = a.first_child();
    ValueRef other = b.first_child();
    std::uint32_t i = 0;
    for (; i < a.count() && same_string(key, other); ++i) {
      if (!equals(key.next_sibling(), other.next_sibling(), depth + 1)) return false;
      key = key.next_sibling().next_sibling();
      other = other.next_sibling().next_sibling();
    }
    if (i == a.count()) return true;
    std::vector<ValueRef> rest;  // b's remaining keys, indexed by their text
    StringIndex index;
    for (std::uint32_t j = i; j < b.count(); ++j) {
      rest.push_back(other);
      index.insert(other.text(), j - i, &rest, key_text);
      other = other.next_sibling().next_sibling();
    }
    for (; i < a.count(); ++i) {
      std::uint32_t found = index.find(key.text(), &rest, key_text);
      if (found == StringIndex::kAbsent || !equals(key.next_sibling(), rest[found].next_sibling(), depth + 1)) return false;
      key = key.next_sibling().next_sibling();
    }
    return true;
  }

  static std::string_view key_text(const void* keys, std::uint32_t i) {
    return (*static_cast<const std::vector<ValueRef>*>(keys))[i].text();
  }

  std::uint32_t work_left_ = kMaxCompareWork;
};

}  // namespace

bool truthy(ValueRef v) {
  switch (v.kind()) {
    case Kind::Null:
    case Kind::False: return false;
    case Kind::True: return true;
    case Kind::Number: return v.number() != 0 && !std::isnan(v.number());
    case Kind::String: return !v.empty_string();
    case Kind::Array:
    case Kind::Object: return v.count() != 0;
  }
  return false;
}

bool equals(ValueRef a, ValueRef b) { return Comparison().equals(a, b, 0); }

int order(ValueRef a, ValueRef b) {
  if (a.kind() == Kind::Number && b.kind() == Kind::Number) {
    double x = a.number();
    double y = b.number();
    return x < y ? -1 : x > y ? 1 : x == y ? 0 : kUnordered;
  }
  if (a.kind() != Kind::String || b.kind() != Kind::String) return kUnordered;
  int c = a.text().compare(b.text());
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}
bool contains(ValueRef container, ValueRef item) { return Comparison().contains(container, item); }

// Operands are evaluated left to right, and a slot is read (SlotReader) when its value is first
// needed: the order in which a lazy route reads paths is this walk's (docs/conditions.md).
class Evaluation {
 public:
  Evaluation(const Condition& condition, const ValueRef* slots, SlotReader* reader)
      : condition_(condition), constants_(condition.constants_.view(condition.strings_)), slots_(slots), reader_(reader) {}

  bool run() { return test(condition_.root_); }

 private:
  using Operand = Condition::Operand;
  using Op = Condition::Op;

  ValueRef value(Operand operand) {
    switch (operand.source) {
      case Operand::Source::Slot: {
        ValueRef v = slots_[operand.index];
        return v.unread() ? reader_->read(operand.index) : v;
      }
      case Operand::Source::Constant: return {&constants_, operand.index};
      case Operand::Source::Node: return {&kBools, node(operand.index) ? 1u : 0u};
    }
    return {&kBools, 0};
  }

  bool test(Operand operand) {
    return operand.source == Operand::Source::Node ? node(operand.index) : truthy(value(operand));
  }

  bool node(std::uint32_t index) {
    const Condition::Node& n = condition_.nodes_[index];
    switch (n.op) {
      case Op::Or:
        for (std::uint32_t i = 0; i < n.count; ++i) {
          if (test(condition_.children_[n.first + i])) return true;
        }
        return false;
      case Op::And:
        for (std::uint32_t i = 0; i < n.count; ++i) {
          if (!test(condition_.children_[n.first + i])) return false;
        }
        return true;
      case Op::Not: return !test(n.lhs);
      case Op::Eq: return equal(n);
      case Op::Ne: return !equal(n);
      case Op::In: return contains(n);
      case Op::NotIn: return !contains(n);
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: {
        ValueRef lhs = value(n.lhs);
        return order(n.op, lhs, value(n.rhs));
      }
    }
    return false;
  }

  ValueRef constant(Operand operand) const { return {&constants_, operand.index}; }

  bool equal(const Condition::Node& n) {
    if (n.scalar == Condition::kScalarRhs) return equals_scalar(value(n.lhs), constant(n.rhs));
    if (n.scalar == Condition::kScalarLhs) return equals_scalar(value(n.rhs), constant(n.lhs));
    ValueRef lhs = value(n.lhs);
    return comparison_.equals(lhs, value(n.rhs), 0);
  }

  bool contains(const Condition::Node& n) {
    if (n.set != Condition::kNoSet) {
      ValueRef item = value(n.lhs);
      return comparison_.contains_key(value(n.rhs), condition_.sets_[n.set], item, *condition_.strings_);
    }
    if (n.scalar == Condition::kScalarLhs) return comparison_.contains_scalar(value(n.rhs), constant(n.lhs));
    ValueRef item = value(n.lhs);
    return comparison_.contains(value(n.rhs), item);
  }

  // Numbers with numbers, strings with strings (code point order, which UTF-8 byte order is);
  // every other pair is false for all four operators.
  static bool order(Op op, ValueRef a, ValueRef b) {
    int sign;
    if (a.kind() == Kind::Number && b.kind() == Kind::Number) {
      double x = a.number();
      double y = b.number();
      switch (op) {
        case Op::Lt: return x < y;
        case Op::Le: return x <= y;
        case Op::Gt: return x > y;
        default: return x >= y;
      }
    }
    if (a.kind() != Kind::String || b.kind() != Kind::String) return false;
    int c = a.text().compare(b.text());
    sign = c < 0 ? -1 : c > 0 ? 1 : 0;
    switch (op) {
      case Op::Lt: return sign < 0;
      case Op::Le: return sign <= 0;
      case Op::Gt: return sign > 0;
      default: return sign >= 0;
    }
  }

  const Condition& condition_;
  TapeView constants_;
  const ValueRef* slots_;
  SlotReader* reader_;
  Comparison comparison_;
};

// The slot an evaluation reaches first whatever the values (Evaluation's walk: the first operand
// of `and`/`or`/`not`, a comparison's left side, then its right), or kNoSlot when it may decide
// before reading any (a literal first: `true or x`).
std::uint32_t Condition::first_slot(Operand operand) const {
  for (;;) {
    if (operand.source == Operand::Source::Slot) return operand.index;
    if (operand.source == Operand::Source::Constant) return kNoSlot;
    const Node& n = nodes_[operand.index];
    switch (n.op) {
      case Op::Or:
      case Op::And:
        if (n.count == 0) return kNoSlot;
        operand = children_[n.first];
        break;
      case Op::Not: operand = n.lhs; break;
      default: {
        // Both sides of a comparison are read, the left first; a literal is not read.
        if (n.lhs.source != Operand::Source::Constant) return first_slot(n.lhs);
        operand = n.rhs;
      }
    }
  }
}

bool Condition::evaluate(const ValueRef* slots, SlotReader* reader) const {
  return Evaluation(*this, slots, reader).run();
}

std::uint32_t Condition::first_read() const { return first_slot(root_); }

}  // namespace handoff::condition
