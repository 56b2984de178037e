// Deciding one node's decision list exactly (docs/check.md).
//
// A node routes by trying its rules in order; the first that holds wins. Each rule's condition
// reads some paths, and each path's values fall into finitely many classes (domain.h), so the
// node's behaviour over every possible state is its behaviour over the combinations of those
// classes. `decide` enumerates them as a decision tree: it routes with the core's own evaluator,
// and when the evaluation first reads a path it takes that path's next class, so a path the
// decision does not read is never varied (an `or` that holds on its first operand reads no more).
// Every leaf is a partial assignment with a known outcome: a rule wins, or none does.
//
// The paths are treated as independent. Two paths may not be (`user` and `user.tier`), so the
// combinations include some no state has; a claim that no combination does something (an
// unsatisfiable or shadowed rule) is then still true of every state. A witness must be real:
// each leaf's assignment is written as a state, and the caller's Verifier routes that state with
// the core and must get the same outcome, or the leaf gives no witness.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check/domain.h"
#include "condition/condition.h"

namespace handoff::check {

// The largest decision tree one node's search may grow (leaves); past it the node is undecided.
inline constexpr std::size_t kMaxLeaves = std::size_t{1} << 16;

// The work one check() may do in all, in condition nodes evaluated (Condition::size, and one more
// per rule tried): what bounds a hostile definition's time (thousands of nodes, each with long
// conditions that make many combinations). Once spent, every node left is undecided.
inline constexpr std::uint64_t kMaxWork = std::uint64_t{1} << 27;
struct Budget {
  std::uint64_t left = kMaxWork;
};

struct Variable {
  condition::Path path;
  Range range;
  bool host = false;  // not a path: the answer of a host function (a machine's predicate edge)
};

struct Rule {
  const condition::Condition* condition = nullptr;  // none: holds whenever it is tried
  std::vector<std::uint32_t> vars;                  // the condition's slot s reads variable vars[s]
  std::vector<std::uint32_t> required;              // variables that must not be null as well
  std::optional<std::uint32_t> host;                // holds when this (host) variable is true
  bool never = false;                               // skipped by routing (a transfer edge)
};

struct RuleVerdict {
  // Host: decided by a host function, so neither a case nor a finding; Never: a transfer edge.
  enum class Kind : std::uint8_t { Case, Unsatisfiable, Shadowed, Undecided, Never, Host };
  Kind kind = Kind::Undecided;
  Json witness;  // Case: a state under which routing takes this rule
  // Shadowed: the earlier rules that each hold wherever this one does (`alone`); where no single
  // one does, every earlier rule that holds somewhere this one does.
  std::vector<std::uint32_t> shadowers;
  bool alone = false;
  std::string why;  // Undecided: what stopped the analysis
};

struct NodeVerdict {
  std::vector<RuleVerdict> rules;
  enum class Gap : std::uint8_t { None, Witness, Undecided } gap = Gap::None;
  Json gap_witness;  // Witness: a state no rule matches
  std::string gap_why;
};

// Whether routing `state` takes rule `rule` (-1: no rule), as the core decides it.
using Verifier = std::function<bool(const Json& state, std::int32_t rule)>;

NodeVerdict decide(const std::vector<Rule>& rules, const std::vector<Variable>& variables,
                   const condition::Interner& strings, const Verifier& verify, Budget& budget);

}  // namespace handoff::check
