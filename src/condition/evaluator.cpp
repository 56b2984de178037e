// The evaluator: walks the compiled tree over a marshalled state (conditions.md §4).
#include <cmath>
#include <optional>

#include "condition/condition.h"
#include "condition/limits.h"

namespace handoff::condition {
namespace {

constexpr Cell kBoolCells[2] = {{static_cast<std::uint32_t>(Kind::False), 0, {0, 0}},
                                {static_cast<std::uint32_t>(Kind::True), 0, {0, 0}}};
constexpr TapeView kBools{kBoolCells, 2, nullptr, nullptr};

// Comparing two large objects whose keys come in different orders costs a scan per key; this
// caps the total so that no state can make one comparison quadratic in its size.
constexpr std::uint32_t kMaxKeyProbes = std::uint32_t{1} << 22;


bool same_string(ValueRef a, ValueRef b) {
  if (a.string_id() != kNoId && b.string_id() != kNoId) return a.string_id() == b.string_id();
  return a.text() == b.text();
}

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
        if (a.count() != b.count()) return false;
        return kind == Kind::Array ? equal_elements(a, b, depth) : equal_members(a, b, depth);
    }
    return false;
  }

  bool contains(ValueRef container, ValueRef item) {
    switch (container.kind()) {
      case Kind::String:
        return item.kind() == Kind::String && container.text().find(item.text()) != std::string_view::npos;
      case Kind::Array: {
        if (container.truncated()) return false;
        ValueRef element = container.first_child();
        for (std::uint32_t i = 0; i < container.count(); ++i, element = element.next_sibling()) {
          if (equals(element, item, 0)) return true;
        }
        return false;
      }
      case Kind::Object:
        if (container.truncated() || item.kind() != Kind::String) return false;
        return find_key(container, item).has_value();
      default:
        return false;
    }
  }

 private:
  bool equal_elements(ValueRef a, ValueRef b, int depth) {
    ValueRef x = a.first_child();
    ValueRef y = b.first_child();
    for (std::uint32_t i = 0; i < a.count(); ++i, x = x.next_sibling(), y = y.next_sibling()) {
      if (!equals(x, y, depth + 1)) return false;
    }
    return true;
  }

  bool equal_members(ValueRef a, ValueRef b, int depth) {
    // Key order does not matter, but it usually agrees: try b's member at the same position first.
    ValueRef key = a.first_child();
    ValueRef same_position = b.first_child();
    for (std::uint32_t i = 0; i < a.count(); ++i) {
      ValueRef value = key.next_sibling();
      std::optional<ValueRef> other;
      if (same_string(key, same_position)) {
        other = same_position.next_sibling();
      } else {
        other = find_key(b, key);
        if (!other) return false;
      }
      if (!equals(value, *other, depth + 1)) return false;
      key = value.next_sibling();
      same_position = same_position.next_sibling().next_sibling();
    }
    return true;
  }

  std::optional<ValueRef> find_key(ValueRef object, ValueRef wanted) {
    ValueRef key = object.first_child();
    for (std::uint32_t i = 0; i < object.count(); ++i) {
      if (probes_ == 0) return std::nullopt;
      --probes_;
      ValueRef value = key.next_sibling();
      if (same_string(key, wanted)) return value;
      key = value.next_sibling();
    }
    return std::nullopt;
  }

  std::uint32_t probes_ = kMaxKeyProbes;
};

}  // namespace

bool truthy(ValueRef v) {
  switch (v.kind()) {
    case Kind::Null:
    case Kind::False: return false;
    case Kind::True: return true;
    case Kind::Number: return v.number() != 0 && !std::isnan(v.number());
    case Kind::String: return !v.text().empty();
    case Kind::Array:
    case Kind::Object: return v.count() != 0;
  }
  return false;
}

bool equals(ValueRef a, ValueRef b) { return Comparison().equals(a, b, 0); }
bool contains(ValueRef container, ValueRef item) { return Comparison().contains(container, item); }

class Evaluation {
 public:
  Evaluation(const Condition& condition, const TapeView& state, const std::uint32_t* slot_cells)
      : condition_(condition),
        state_(state),
        constants_(condition.constants_.view(condition.strings_)),
        slot_cells_(slot_cells) {}

  bool run() { return test(condition_.root_); }

 private:
  using Operand = Condition::Operand;
  using Op = Condition::Op;

  ValueRef value(Operand operand) {
    switch (operand.source) {
      case Operand::Source::Slot: return {&state_, slot_cells_[operand.index]};
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
      case Op::Eq: return comparison_.equals(value(n.lhs), value(n.rhs), 0);
      case Op::Ne: return !comparison_.equals(value(n.lhs), value(n.rhs), 0);
      case Op::In: return comparison_.contains(value(n.rhs), value(n.lhs));
      case Op::NotIn: return !comparison_.contains(value(n.rhs), value(n.lhs));
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: return order(n.op, value(n.lhs), value(n.rhs));
    }
    return false;
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
  const TapeView& state_;
  TapeView constants_;
  const std::uint32_t* slot_cells_;
  Comparison comparison_;
};

bool Condition::evaluate(const TapeView& state, const std::uint32_t* slot_cells) const {
  return Evaluation(*this, state, slot_cells).run();
}

}  // namespace handoff::condition
