// A state's task text with `{name}` placeholders (docs/state-machine.md, "Task templates"): the
// seed's template variables. Placeholders are filled from the run's input variables (the initial
// state's top-level keys) once, before the first step, so that natively and in JavaScript a task
// reads the same: the core parses and renders, the host only hands over the values.
//
// Syntax: `{name}` is a placeholder (name: one or more characters, none of them white space or
// a brace); `{{` is a literal `{` and `}}` a literal `}`. Anything else with a brace is an error,
// so a prompt's JSON example cannot be taken for a placeholder by accident.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "condition/json_state.h"
#include "core/expected.h"
#include "core/string_index.h"

namespace handoff::machine {

struct TemplateError {
  std::string message;  // says what is wrong and where: "… at character 12"
};

class TaskTemplate {
 public:
  static Expected<TaskTemplate, TemplateError> parse(std::string_view text);

  const std::string& source() const { return source_; }
  // The placeholders' names, each once, in order of first appearance.
  const std::vector<std::string>& variables() const { return variables_; }
  // The text with every placeholder replaced by its variable's text (variable_text of its
  // value); nullopt when it would be longer than `max_bytes`. `texts` must hold every name
  // variables() lists.
  std::optional<std::string> render(const StringMap<std::string>& texts, std::size_t max_bytes) const;
  // The same, from the values (for tests and callers without a size limit).
  std::string render(const condition::Json& variables) const;

 private:
  struct Piece {
    bool variable;
    std::string text;  // literal text (braces unescaped), or the variable's name
  };
  std::string source_;
  std::vector<Piece> pieces_;
  std::vector<std::string> variables_;
};

// A variable's value as a task shows it: a string as it is, anything else as compact JSON.
// Printing JSON recurses once per level: check nests_deeper first.
std::string variable_text(const condition::Json& value);

// Whether arrays and objects in `value` nest deeper than `limit` levels (checked without
// recursion, so any value can be asked).
bool nests_deeper(const condition::Json& value, int limit);

}  // namespace handoff::machine
