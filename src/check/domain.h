// The values one path can hold, up to what a node's conditions can tell apart (docs/check.md).
//
// A condition compares a path's value only with constants (or tests its truth), so the values fall
// into finitely many classes: for `x < 3 or x == 'a'`, null, each boolean, the numbers below 3, 3
// itself, those above, 'a', the other strings, and so on. A Domain holds one value of each class
// that some test can tell apart from the others; two values that every test answers alike are one
// class, and only the first is kept. Paths compared with one another (`a < b`) get their domains
// together (component_domains). When the tests are of a kind whose classes this file cannot
// enumerate exactly (`in` between two paths, more `c in x` constants than it combines, a
// `x in 'text'` text longer than it takes apart), the domain says it is incomplete: its values
// are still real values, good for finding witnesses, but they prove nothing about the values left
// out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "condition/condition.h"
#include "condition/json_state.h"
#include "core/json.h"

namespace handoff::check {

using Json = json::Value;

// What a path may hold at all: anything (a state's path), an integer in [min, max] (the machine's
// $step and $visits counts), or one value (the machine's $state).
struct Range {
  enum class Kind : std::uint8_t { Any, Integer, Constant };
  Kind kind = Kind::Any;
  double min = 0;
  double max = 0;
  bool prefer_high = false;  // Integer: keep the highest value of each class, not the lowest
  Json constant;
};

// Where a value of a compared path stands among the samples of its class (component_domains). The
// samples of one class can be renamed into one another (keeping their order, in an interval)
// without changing any test's answer, so a search need only try them in a canonical order: a class's
// next sample once the one before it is taken, and an interval's samples leaving no more of them
// skipped than there are paths left to take them.
struct Sample {
  std::int32_t cls = -1;    // -1: a value that stands alone
  std::uint32_t index = 0;  // its place among its class's samples, in increasing order where ordered
  bool ordered = false;     // the class is an interval
};

struct Domain {
  std::vector<Json> values;  // one per class, null first where null is possible
  bool complete = true;
  std::string incomplete_because;  // when not complete: why, for the report
  // For the paths of a component that may hold any value, one per value (else empty): the
  // component's classes are numbered from 0, and class_sizes[c] is how many samples class c has.
  std::vector<Sample> samples;
  std::vector<std::uint32_t> class_sizes;
};

// The tests must all be on one path; their constants must be readable (Condition::slot_tests).
Domain domain_of(const std::vector<condition::Condition::SlotTest>& tests, const Range& range,
                 const condition::Interner& strings);

// The domains of paths compared with one another (`x == y`, `a < b`): a component of a node's
// paths joined by such tests. tests[i] holds path i's tests, their `slot` and `other` indices
// into `tests`; ranges[i] what path i may hold. Every path gets the constants of the whole
// component, and each class of values as many different values as the component has paths, so
// that any state's values map onto them keeping every test's answer (domain.cpp). Where that
// argument does not cover the tests, each domain is today's incomplete one, with the reason.
std::vector<Domain> component_domains(const std::vector<std::vector<condition::Condition::SlotTest>>& tests,
                                      const std::vector<Range>& ranges, const condition::Interner& strings);

// Writes `values` on the writer's tape: its slots()[i] is then values[i].
void write_values(condition::JsonStateWriter& writer, const std::vector<Json>& values);

// A tape value as JSON (a condition's constant).
Json json_of(condition::ValueRef value);

// Whether `values`, written on one tape, stay within the marshal budgets (condition/limits.h): a
// tape past them keeps only the sizes of its later containers, which compare unequal to all.
bool fits_one_tape(const std::vector<Json>& values);

}  // namespace handoff::check
