// Condition::slot_tests: what a condition asks of each slot's value (condition.h), read off the
// compiled tree for check/.
#include "condition/condition.h"

namespace handoff::condition {
namespace {

constexpr Cell kBoolCells[2] = {{static_cast<std::uint32_t>(Kind::False), 0, {0, 0}},
                                {static_cast<std::uint32_t>(Kind::True), 0, {0, 0}}};
constexpr TapeView kBools{kBoolCells, 2, nullptr, nullptr};

}  // namespace

void Condition::slot_tests(std::vector<SlotTest>& out, TapeView& constants) const {
  using Test = SlotTest;
  constants = constants_.view(strings_);
  auto truth = [&](Operand operand) {
    if (operand.source == Operand::Source::Slot) out.push_back({Test::Op::Truthy, operand.index, {}, kNoSlot});
  };
  // `slot op other`: a constant once; another node's boolean result as both booleans.
  auto against = [&](Test::Op op, Operand slot, Operand other) {
    if (slot.source != Operand::Source::Slot) return;
    switch (other.source) {
      case Operand::Source::Slot:
        out.push_back({op, slot.index, {}, other.index});
        return;
      case Operand::Source::Constant:
        out.push_back({op, slot.index, ValueRef(&constants, other.index), kNoSlot});
        return;
      case Operand::Source::Node:
        out.push_back({op, slot.index, ValueRef(&kBools, 0), kNoSlot});
        out.push_back({op, slot.index, ValueRef(&kBools, 1), kNoSlot});
        return;
    }
  };
  truth(root_);
  for (const Node& node : nodes_) {
    switch (node.op) {
      case Op::Or:
      case Op::And:
        for (std::uint32_t i = 0; i < node.count; ++i) truth(children_[node.first + i]);
        break;
      case Op::Not:
        truth(node.lhs);
        break;
      case Op::Eq:
      case Op::Ne:
        against(Test::Op::Equals, node.lhs, node.rhs);
        if (node.rhs.source != Operand::Source::Slot || node.lhs.source != Operand::Source::Slot) {
          against(Test::Op::Equals, node.rhs, node.lhs);
        }
        break;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
        against(Test::Op::Order, node.lhs, node.rhs);
        if (node.rhs.source != Operand::Source::Slot || node.lhs.source != Operand::Source::Slot) {
          against(Test::Op::Order, node.rhs, node.lhs);
        }
        break;
      case Op::In:
      case Op::NotIn:
        against(Test::Op::InConstant, node.lhs, node.rhs);
        if (node.rhs.source != Operand::Source::Slot || node.lhs.source != Operand::Source::Slot) {
          against(Test::Op::Contains, node.rhs, node.lhs);
        }
        break;
    }
  }
}

}  // namespace handoff::condition
