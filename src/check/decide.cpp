#include "check/decide.h"

#include <cmath>
#include <memory>
#include <optional>

#include "condition/json_state.h"

namespace handoff::check {
namespace {

using condition::Kind;
using condition::ValueRef;
using Test = condition::Condition::SlotTest;

constexpr condition::Cell kNullCell{static_cast<std::uint32_t>(Kind::Null), 0, {0, 0}};
constexpr condition::TapeView kNullTape{&kNullCell, 1, nullptr, nullptr};

// What lets the tree skip combinations that only rename the samples of a component's classes
// (domain.h, Sample): every combination it skips renames into one it tries, with the same answers.
struct Symmetry {
  std::vector<std::int32_t> component;         // per variable: its component, or -1
  std::vector<std::uint32_t> component_size;   // per component: its paths that may hold any value
  std::vector<const std::vector<Sample>*> samples;  // per variable: its values' places (class ids local)
  std::vector<std::uint32_t> class_base;       // per component: its first class's number among all
  std::vector<std::uint32_t> class_start;      // per class: where its samples' counts start in `taken`
  std::vector<std::uint32_t> class_size;
  std::vector<bool> class_ordered;
  std::uint32_t sample_count = 0;
};

// The decision tree, walked depth first: read(var) gives the variable's value on the current
// branch, choosing the first of its domain when this branch has not read it yet; next() moves
// to the next leaf. Routing is deterministic, so rerunning it after next() reads the variables
// of the unchanged prefix in the same order and reaches the changed one. A variable of a component
// takes only the values in canonical order (Symmetry): a class's sample once the one before it is
// taken, and in an interval, no more samples skipped than there are component paths left unread.
class Tree {
 public:
  Tree(const std::vector<std::vector<ValueRef>>& values, const Symmetry& symmetry)
      : values_(values),
        symmetry_(symmetry),
        at_(values.size(), kUnread),
        taken_(symmetry.sample_count, 0),
        distinct_(symmetry.class_size.size(), 0),
        top_(symmetry.class_size.size(), 0),
        read_in_(symmetry.component_size.size(), 0),
        gaps_(symmetry.component_size.size(), 0) {}

  ValueRef read(std::uint32_t var) {
    if (at_[var] == kUnread) {
      std::uint32_t value = 0;
      while (!allowed(var, value, false)) ++value;  // the first value of a class is always allowed
      at_[var] = static_cast<std::uint32_t>(choices_.size());
      choices_.push_back({var, value});
      take(var, value, +1);
      if (std::int32_t component = component_of(var); component >= 0) ++read_in_[component];
    }
    return values_[var][choices_[at_[var]].value];
  }

  bool next() {
    while (!choices_.empty()) {
      Choice& back = choices_.back();
      take(back.var, back.value, -1);
      std::uint32_t value = back.value + 1;
      while (value < values_[back.var].size() && !allowed(back.var, value, true)) ++value;
      if (value < values_[back.var].size()) {
        back.value = value;
        take(back.var, value, +1);
        return true;
      }
      std::int32_t component = component_of(back.var);
      if (component >= 0) --read_in_[component];
      at_[back.var] = kUnread;
      choices_.pop_back();
    }
    return false;
  }

  struct Choice {
    std::uint32_t var;
    std::uint32_t value;
  };
  const std::vector<Choice>& choices() const { return choices_; }

 private:
  std::int32_t component_of(std::uint32_t var) const {
    return symmetry_.component.empty() ? -1 : symmetry_.component[var];
  }

  // The class of the variable's value (a number among all classes), or -1.
  std::int32_t class_of(std::uint32_t var, std::uint32_t value) const {
    std::int32_t component = component_of(var);
    if (component < 0) return -1;
    const Sample& sample = (*symmetry_.samples[var])[value];
    if (sample.cls < 0) return -1;
    return static_cast<std::int32_t>(symmetry_.class_base[component]) + sample.cls;
  }

  // Samples skipped in an interval class whose samples up to `top` are taken, `distinct` of them.
  static std::uint32_t skipped(std::uint32_t top, std::uint32_t distinct) { return top - distinct; }

  bool allowed(std::uint32_t var, std::uint32_t value, bool counted) const {
    std::int32_t cls = class_of(var, value);
    if (cls < 0) return true;
    const std::uint32_t index = (*symmetry_.samples[var])[value].index;
    const std::uint32_t start = symmetry_.class_start[cls];
    if (!symmetry_.class_ordered[cls]) return index == 0 || taken_[start + index - 1] > 0;
    const auto component = static_cast<std::uint32_t>(component_of(var));
    const std::uint32_t left = symmetry_.component_size[component] - read_in_[component] - (counted ? 0 : 1);
    const std::uint32_t distinct = distinct_[cls] + (taken_[start + index] == 0 ? 1 : 0);
    const std::uint32_t top = std::max(top_[cls], index + 1);
    const std::uint32_t gaps = gaps_[component] - skipped(top_[cls], distinct_[cls]) + skipped(top, distinct);
    return gaps <= left;
  }

  // Counts the variable's value as taken (+1) or no longer (-1).
  void take(std::uint32_t var, std::uint32_t value, int change) {
    std::int32_t component = component_of(var);
    if (component < 0) return;
    std::int32_t cls = class_of(var, value);
    if (cls < 0) return;
    const std::uint32_t start = symmetry_.class_start[cls];
    const std::uint32_t index = (*symmetry_.samples[var])[value].index;
    const std::uint32_t before = skipped(top_[cls], distinct_[cls]);
    if (change > 0) {
      if (taken_[start + index]++ == 0) ++distinct_[cls];
      top_[cls] = std::max(top_[cls], index + 1);
    } else {
      if (--taken_[start + index] == 0) --distinct_[cls];
      while (top_[cls] > 0 && taken_[start + top_[cls] - 1] == 0) --top_[cls];
    }
    if (symmetry_.class_ordered[cls]) gaps_[component] = gaps_[component] - before + skipped(top_[cls], distinct_[cls]);
  }

  static constexpr std::uint32_t kUnread = 0xFFFFFFFFu;
  const std::vector<std::vector<ValueRef>>& values_;
  const Symmetry& symmetry_;
  std::vector<std::uint32_t> at_;  // per variable: its place in choices_, or kUnread
  std::vector<Choice> choices_;
  std::vector<std::uint32_t> taken_;     // per sample: the variables on this branch that hold it
  std::vector<std::uint32_t> distinct_;  // per class: its samples taken
  std::vector<std::uint32_t> top_;       // per class: one past its highest sample taken
  std::vector<std::uint32_t> read_in_;   // per component: its variables on this branch
  std::vector<std::uint32_t> gaps_;      // per component: samples skipped in its interval classes
};

class Router {
 public:
  Router(const std::vector<Rule>& rules, Tree& tree) : rules_(rules), tree_(tree) {
    std::size_t slots = 0;
    for (const Rule& rule : rules) slots = std::max(slots, rule.vars.size());
    unread_.resize(slots);
  }

  // Condition nodes evaluated so far, at most (one more per rule tried).
  std::uint64_t work = 0;

  bool holds(std::size_t index) {
    const Rule& rule = rules_[index];
    work += 1 + (rule.condition != nullptr ? rule.condition->size() : 0);
    if (rule.never) return false;
    if (rule.host) return tree_.read(*rule.host).kind() == Kind::True;
    if (rule.condition != nullptr) {
      Reader reader(tree_, rule);
      if (!rule.condition->evaluate(unread_.data(), &reader)) return false;
    }
    for (std::uint32_t var : rule.required) {
      if (tree_.read(var).kind() == Kind::Null) return false;
    }
    return true;
  }

  std::int32_t route() {
    for (std::size_t i = 0; i < rules_.size(); ++i) {
      if (holds(i)) return static_cast<std::int32_t>(i);
    }
    return -1;
  }

 private:
  class Reader final : public condition::SlotReader {
   public:
    Reader(Tree& tree, const Rule& rule) : tree_(tree), rule_(rule) {}
    ValueRef read(std::uint32_t slot) override { return tree_.read(rule_.vars[slot]); }

   private:
    Tree& tree_;
    const Rule& rule_;
  };

  const std::vector<Rule>& rules_;
  Tree& tree_;
  std::vector<ValueRef> unread_;
};

// Sets the value at `path` in `state`, making the objects on the way; false when an earlier
// value is in the way (a scalar where the path needs a container).
bool put(Json& state, const condition::Path& path, const Json& value) {
  Json* at = &state;
  for (const condition::PathStep& step : path.steps) {
    if (at->is_null()) *at = Json::object();
    if (at->is_object()) {
      at = &(*at)[step.key];
    } else if (at->is_array() && step.is_index) {
      auto size = static_cast<std::int64_t>(at->size());
      std::int64_t index = step.index < 0 ? step.index + size : step.index;
      if (index < 0 || index > 64) return false;
      while (static_cast<std::int64_t>(at->size()) <= index) at->push_back(nullptr);
      at = &(*at)[static_cast<std::size_t>(index)];
    } else {
      return false;
    }
  }
  *at = value;
  return true;
}

bool finite(const Json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_array() || value.is_object()) {
    for (const Json& item : value) {
      if (!finite(item)) return false;
    }
  }
  return true;
}

// Holds the node's domains and answers questions about its decision list.
class Node {
 public:
  Node(const std::vector<Rule>& rules, const std::vector<Variable>& variables, const condition::Interner& strings)
      : rules_(rules), variables_(variables) {
    std::vector<std::vector<Test>> tests(variables.size());
    std::vector<Test> found;
    std::vector<std::vector<std::uint32_t>> reads(rules.size());  // the variables each rule reads
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const Rule& rule = rules[r];
      reads[r] = rule.required;
      if (rule.host) reads[r].push_back(*rule.host);
      if (rule.condition != nullptr) {
        found.clear();
        views_.push_back(std::make_unique<condition::TapeView>());
        rule.condition->slot_tests(found, *views_.back());
        for (Test test : found) {
          std::uint32_t var = rule.vars[test.slot];
          if (test.other != condition::Condition::kNoSlot) test.other = rule.vars[test.other];
          test.slot = var;
          reads[r].push_back(var);
          tests[var].push_back(test);
          if (test.other != condition::Condition::kNoSlot) {
            reads[r].push_back(test.other);
            tests[test.other].push_back(test);
          }
        }
      }
      for (std::uint32_t var : rule.required)
        tests[var].push_back({Test::Op::Equals, var, ValueRef(&kNullTape, 0), condition::Condition::kNoSlot});
    }
    // Paths compared with one another (`x == y`) make a component, whose domains are found together.
    std::vector<std::uint32_t> root(variables.size());
    for (std::uint32_t v = 0; v < root.size(); ++v) root[v] = v;
    auto find = [&](std::uint32_t v) {
      while (root[v] != v) v = root[v] = root[root[v]];
      return v;
    };
    std::vector<bool> compared(variables.size(), false);
    for (const std::vector<Test>& list : tests) {
      for (const Test& test : list) {
        if (test.other == condition::Condition::kNoSlot) continue;
        compared[test.slot] = compared[test.other] = true;
        root[find(test.slot)] = find(test.other);
      }
    }
    std::vector<std::optional<Domain>> joint(variables.size());
    for (std::uint32_t v = 0; v < variables.size(); ++v) {
      if (!compared[v] || joint[v]) continue;
      std::vector<std::uint32_t> members;
      std::vector<std::uint32_t> local(variables.size(), 0);
      for (std::uint32_t u = v; u < variables.size(); ++u) {
        if (compared[u] && find(u) == find(v)) {
          local[u] = static_cast<std::uint32_t>(members.size());
          members.push_back(u);
        }
      }
      std::vector<std::vector<Test>> member_tests;
      std::vector<Range> ranges;
      for (std::uint32_t u : members) {
        member_tests.push_back(tests[u]);
        for (Test& test : member_tests.back()) {
          test.slot = local[test.slot];
          if (test.other != condition::Condition::kNoSlot) test.other = local[test.other];
        }
        ranges.push_back(variables[u].range);
      }
      std::vector<Domain> domains = component_domains(member_tests, ranges, strings);
      for (std::size_t m = 0; m < members.size(); ++m) joint[members[m]] = std::move(domains[m]);
    }
    std::vector<std::string> incomplete(variables.size());  // per variable: why its domain is not complete
    for (std::size_t v = 0; v < variables.size(); ++v) {
      Domain domain;
      if (variables[v].host) {
        domain.values = {false, true};
      } else if (joint[v]) {
        domain = std::move(*joint[v]);
      } else {
        domain = domain_of(tests[v], variables[v].range, strings);
      }
      if (domain.values.empty()) domain.values.emplace_back(nullptr);
      if (!domain.complete) {
        incomplete[v] = "path `" + variables[v].path.text() + "`: " + domain.incomplete_because;
        if (complete_) {
          complete_ = false;
          incomplete_because_ = incomplete[v];
        }
      }
      writers_.push_back(std::make_unique<condition::JsonStateWriter>(strings));
      write_values(*writers_.back(), domain.values);
      values_.push_back(writers_.back()->slots());
      domains_.push_back(std::move(domain));
    }
    // The components whose samples the tree may rename (Symmetry).
    std::vector<std::int32_t> component_at(variables.size(), -1);  // by the component's root
    for (std::uint32_t v = 0; v < variables.size(); ++v) {
      const Domain& d = domains_[v];
      if (d.samples.empty()) continue;
      if (symmetry_.component.empty()) {
        symmetry_.component.assign(variables.size(), -1);
        symmetry_.samples.assign(variables.size(), nullptr);
      }
      std::int32_t& component = component_at[find(v)];
      if (component < 0) {
        component = static_cast<std::int32_t>(symmetry_.component_size.size());
        symmetry_.component_size.push_back(0);
        symmetry_.class_base.push_back(static_cast<std::uint32_t>(symmetry_.class_size.size()));
        for (std::uint32_t size : d.class_sizes) {
          symmetry_.class_start.push_back(symmetry_.sample_count);
          symmetry_.class_size.push_back(size);
          symmetry_.class_ordered.push_back(false);
          symmetry_.sample_count += size;
        }
        for (const Sample& sample : d.samples) {
          if (sample.cls >= 0) symmetry_.class_ordered[symmetry_.class_base.back() + sample.cls] = sample.ordered;
        }
      }
      symmetry_.component[v] = component;
      symmetry_.samples[v] = &d.samples;
      ++symmetry_.component_size[component];
    }
    std::string why;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      for (std::uint32_t var : reads[r]) {
        if (why.empty()) why = incomplete[var];
      }
      incomplete_up_to_.push_back(why);
    }
  }

  bool complete() const { return complete_; }
  const std::string& incomplete_because() const { return incomplete_because_; }
  // Whether the domains of every variable that rules 0 to `rule` read are complete: what decides
  // whether that rule can be taken (the rules after it are never tried before it wins), and why not.
  const std::string& incomplete_up_to(std::size_t rule) const { return incomplete_up_to_[rule]; }

  // Walks every leaf of the whole list: `leaf(outcome, tree)` for each; false when the tree
  // outgrew kMaxLeaves.
  template <class Leaf>
  bool each_leaf(Leaf&& leaf, Budget& budget) const {
    Tree tree(values_, symmetry_);
    Router router(rules_, tree);
    std::size_t leaves = 0;
    bool whole = true;
    do {
      if (++leaves > kMaxLeaves || router.work > budget.left) {
        whole = false;
        break;
      }
      leaf(router.route(), tree);
    } while (tree.next());
    budget.left -= std::min(router.work, budget.left);
    return whole;
  }

  // Whether some combination makes every rule of `which` hold and none of `unless`; nullopt when
  // undecided.
  std::optional<bool> all_hold(Budget& budget, const std::vector<std::size_t>& which,
                               const std::vector<std::size_t>& unless = {}) const {
    Tree tree(values_, symmetry_);
    Router router(rules_, tree);
    std::size_t leaves = 0;
    std::optional<bool> found = false;
    do {
      if (++leaves > kMaxLeaves || router.work > budget.left) {
        found = std::nullopt;
        break;
      }
      bool all = true;
      for (std::size_t i : which) all = all && router.holds(i);
      for (std::size_t i : unless) all = all && !router.holds(i);
      if (all) {
        found = true;
        break;
      }
    } while (tree.next());
    budget.left -= std::min(router.work, budget.left);
    return found;
  }

  // The leaf's assignment as a state: the paths it read, with their values (null ones left out);
  // nullopt when it cannot be one (a host's answer, a value JSON cannot hold, paths in each other's way).
  std::optional<Json> state_of(const Tree& tree) const {
    std::vector<const Tree::Choice*> choices;
    for (const Tree::Choice& choice : tree.choices()) {
      if (variables_[choice.var].host) return std::nullopt;
      if (!domains_[choice.var].values[choice.value].is_null()) choices.push_back(&choice);
    }
    std::stable_sort(choices.begin(), choices.end(), [&](const Tree::Choice* a, const Tree::Choice* b) {
      return variables_[a->var].path.steps.size() < variables_[b->var].path.steps.size();
    });
    Json state = Json::object();
    for (const Tree::Choice* choice : choices) {
      const Json& value = domains_[choice->var].values[choice->value];
      if (!finite(value) || !put(state, variables_[choice->var].path, value)) return std::nullopt;
    }
    return state;
  }

 private:
  const std::vector<Rule>& rules_;
  const std::vector<Variable>& variables_;
  std::vector<std::unique_ptr<condition::TapeView>> views_;           // the rules' constants, for their tests
  std::vector<std::unique_ptr<condition::JsonStateWriter>> writers_;  // each variable's values, on a tape
  std::vector<std::vector<ValueRef>> values_;
  std::vector<Domain> domains_;
  bool complete_ = true;
  std::string incomplete_because_;
  std::vector<std::string> incomplete_up_to_;  // per rule: empty when complete
  Symmetry symmetry_;
};

}  // namespace

NodeVerdict decide(const std::vector<Rule>& rules, const std::vector<Variable>& variables,
                   const condition::Interner& strings, const Verifier& verify, Budget& budget) {
  Node node(rules, variables, strings);
  NodeVerdict verdict;
  verdict.rules.resize(rules.size());
  std::vector<bool> wins(rules.size(), false);
  std::vector<bool> witnessed(rules.size(), false);
  bool gap = false;
  bool gap_witnessed = false;
  bool whole = node.each_leaf(
      [&](std::int32_t outcome, const Tree& tree) {
        const auto rule = static_cast<std::size_t>(outcome);
        if (outcome < 0)
          gap = true;
        else
          wins[rule] = true;
        if (outcome < 0 ? gap_witnessed : witnessed[rule]) return;
        std::optional<Json> state = node.state_of(tree);
        if (!state || !verify(*state, outcome)) return;
        if (outcome < 0) {
          gap_witnessed = true;
          verdict.gap_witness = std::move(*state);
        } else {
          witnessed[rule] = true;
          verdict.rules[rule].witness = std::move(*state);
        }
      },
      budget);
  const std::string too_many =
      budget.left == 0 ? "check's work budget for this definition ran out"
                       : "its conditions make more than " + std::to_string(kMaxLeaves) + " combinations to try";
  for (std::size_t i = 0; i < rules.size(); ++i) {
    RuleVerdict& rule = verdict.rules[i];
    if (rules[i].never) {
      rule.kind = RuleVerdict::Kind::Never;
    } else if (witnessed[i]) {
      rule.kind = RuleVerdict::Kind::Case;
    } else if (rules[i].host) {
      rule.kind = RuleVerdict::Kind::Host;
    } else if (!whole || wins[i]) {
      rule.why = !whole ? too_many
                        : "no state was found that takes it: the values it needs are not all possible at once (paths "
                          "inside one another, a number JSON cannot hold, or a machine's counts past its steps)";
    } else if (!node.incomplete_up_to(i).empty()) {
      rule.why = node.incomplete_up_to(i);
    } else if (std::optional<bool> sat = node.all_hold(budget, {i}); !sat.value_or(true)) {
      rule.kind = RuleVerdict::Kind::Unsatisfiable;
    } else if (!sat.has_value()) {
      rule.why = too_many;  // the budget ran out while deciding this rule alone
    } else {
      // Named: the earlier rules that hold wherever this one does, each alone; where none does,
      // every earlier rule that holds somewhere this one does.
      rule.kind = RuleVerdict::Kind::Shadowed;
      std::vector<std::uint32_t> overlapping;
      for (std::size_t j = 0; j < i; ++j) {
        if (rules[j].never || rules[j].host || !node.all_hold(budget, {j, i}).value_or(true)) continue;
        overlapping.push_back(static_cast<std::uint32_t>(j));
        if (!node.all_hold(budget, {i}, {j}).value_or(true)) rule.shadowers.push_back(static_cast<std::uint32_t>(j));
      }
      rule.alone = !rule.shadowers.empty();
      if (!rule.alone) rule.shadowers = std::move(overlapping);
    }
  }
  if (gap_witnessed) {
    verdict.gap = NodeVerdict::Gap::Witness;
  } else if (!whole) {
    verdict.gap = NodeVerdict::Gap::Undecided;
    verdict.gap_why = too_many;
  } else if (gap) {
    verdict.gap = NodeVerdict::Gap::Undecided;
    verdict.gap_why = "no state was found that matches none: the values it needs are not all possible at once";
  } else if (!node.complete()) {
    verdict.gap = NodeVerdict::Gap::Undecided;
    verdict.gap_why = node.incomplete_because();
  }
  return verdict;
}

}  // namespace handoff::check
