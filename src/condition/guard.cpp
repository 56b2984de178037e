// What the compiled form knows beyond the tree: key sets for `in` on constant lists, and guards
// (condition.h) that let a graph node dispatch its edges by hash (graph/handoff_graph.cpp).
#include "condition/condition.h"

namespace handoff::condition {
namespace {

// Below this many items a list is scanned: comparing a few cells costs less than hashing.
constexpr std::uint32_t kMinSetItems = 8;

}  // namespace

bool Condition::constant_keys(std::uint32_t index, std::vector<ScalarKey>& out) const {
  TapeView tape = constants_.view(strings_);
  ValueRef value(&tape, index);
  ScalarKey key;
  if (value.kind() != Kind::Array) {
    if (value.kind() == Kind::Object) return false;
    if (scalar_key(value, *strings_, key)) out.push_back(key);  // a NaN constant would have no key: it equals nothing
    return true;
  }
  if (value.truncated()) return false;
  ValueRef element = value.first_child();
  for (std::uint32_t i = 0; i < value.count(); ++i, element = element.next_sibling()) {
    if (element.kind() == Kind::Array || element.kind() == Kind::Object) return false;
    if (scalar_key(element, *strings_, key)) out.push_back(key);
  }
  return true;
}

void Condition::specialize() {
  TapeView tape = constants_.view(strings_);
  auto is_scalar = [&](const Operand& o) {
    if (o.source != Operand::Source::Constant) return false;
    Kind kind = ValueRef(&tape, o.index).kind();
    return kind != Kind::Array && kind != Kind::Object;
  };
  for (Node& node : nodes_) {
    switch (node.op) {
      case Op::Eq:
      case Op::Ne:
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
        if (is_scalar(node.rhs)) node.scalar = kScalarRhs;
        else if (is_scalar(node.lhs)) node.scalar = kScalarLhs;
        break;
      case Op::In:
      case Op::NotIn: {
        if (is_scalar(node.lhs)) node.scalar = kScalarLhs;
        if (node.rhs.source != Operand::Source::Constant) break;
        ValueRef list(&tape, node.rhs.index);
        if (list.kind() != Kind::Array || list.count() < kMinSetItems) break;
        std::vector<ScalarKey> keys;
        if (!constant_keys(node.rhs.index, keys)) break;
        KeyTable set;
        for (const ScalarKey& key : keys) {
          bool inserted;
          set.find_or_insert(key, 1, inserted);
        }
        node.set = static_cast<std::uint32_t>(sets_.size());
        sets_.push_back(std::move(set));
        break;
      }
      default:
        break;
    }
  }
}

void Condition::text_levels(std::vector<std::uint8_t>& levels) const {
  TapeView tape = constants_.view(strings_);
  auto is_slot = [](const Operand& o) { return o.source == Operand::Source::Slot; };
  auto is_string_literal = [&](const Operand& o) {
    return o.source == Operand::Source::Constant && ValueRef(&tape, o.index).kind() == Kind::String;
  };
  auto raise = [&](const Operand& o, std::uint8_t level) {
    if (is_slot(o) && levels[o.index] < level) levels[o.index] = level;
  };
  for (const Node& node : nodes_) {
    switch (node.op) {
      case Op::Eq:
      case Op::Ne:
        // With a literal, ids decide (a string is interned or is no literal); path with path: text.
        if (is_slot(node.lhs) && is_slot(node.rhs)) {
          raise(node.lhs, kTextAll);
          raise(node.rhs, kTextAll);
        }
        break;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
        // Strings are ordered by their text; any other pair is false whatever it holds.
        if (is_slot(node.rhs) || is_string_literal(node.rhs)) raise(node.lhs, kTextTop);
        if (is_slot(node.lhs) || is_string_literal(node.lhs)) raise(node.rhs, kTextTop);
        break;
      case Op::In:
      case Op::NotIn:
        if (is_slot(node.rhs)) {
          // A string container is searched by text; an array's elements and an object's keys are
          // compared with the item, which is text only when the item is a path too.
          raise(node.rhs, is_slot(node.lhs) ? kTextAll : kTextTop);
          raise(node.lhs, kTextAll);
        } else if (is_string_literal(node.rhs)) {
          raise(node.lhs, kTextTop);  // a substring of the literal
        }
        break;
      default:
        break;
    }
  }
}

// `p == c`, `c == p` (c a scalar) and `p in [scalars]`.
bool Condition::comparison_guard(const Node& node, Guard& out) const {
  const Operand* path = nullptr;
  const Operand* constant = nullptr;
  if (node.op == Op::Eq) {
    if (node.lhs.source == Operand::Source::Slot && node.rhs.source == Operand::Source::Constant) {
      path = &node.lhs;
      constant = &node.rhs;
    } else if (node.rhs.source == Operand::Source::Slot && node.lhs.source == Operand::Source::Constant) {
      path = &node.rhs;
      constant = &node.lhs;
    }
    if (path == nullptr) return false;
    TapeView tape = constants_.view(strings_);
    Kind kind = ValueRef(&tape, constant->index).kind();
    if (kind == Kind::Array || kind == Kind::Object) return false;
  } else if (node.op == Op::In) {
    if (node.lhs.source != Operand::Source::Slot || node.rhs.source != Operand::Source::Constant) return false;
    TapeView tape = constants_.view(strings_);
    if (ValueRef(&tape, node.rhs.index).kind() != Kind::Array) return false;
    path = &node.lhs;
    constant = &node.rhs;
  } else {
    return false;
  }
  std::vector<ScalarKey> keys;
  if (!constant_keys(constant->index, keys)) return false;
  out.slot = path->index;
  out.keys = std::move(keys);
  out.exact = true;
  return true;
}

bool Condition::guard(Guard& out) const {
  if (root_.source != Operand::Source::Node) return false;
  const Node& root = nodes_[root_.index];
  switch (root.op) {
    case Op::Eq:
    case Op::In:
      return comparison_guard(root, out);
    case Op::Or: {
      // Every operand a test of the same path: the union of their keys.
      Guard all;
      for (std::uint32_t i = 0; i < root.count; ++i) {
        const Operand& child = children_[root.first + i];
        Guard one;
        if (child.source != Operand::Source::Node || !comparison_guard(nodes_[child.index], one)) return false;
        if (i > 0 && one.slot != all.slot) return false;
        all.slot = one.slot;
        all.keys.insert(all.keys.end(), one.keys.begin(), one.keys.end());
      }
      all.exact = true;
      out = std::move(all);
      return true;
    }
    case Op::And:
      for (std::uint32_t i = 0; i < root.count; ++i) {
        const Operand& child = children_[root.first + i];
        if (child.source == Operand::Source::Node && comparison_guard(nodes_[child.index], out)) {
          out.exact = false;
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

}  // namespace handoff::condition
