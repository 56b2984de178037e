#include "machine/task_template.h"

#include <algorithm>

#include "condition/unicode.h"
#include "core/json.h"

namespace handoff::machine {
namespace {

// `what` at character N (1-based, in code points, as people count them in an editor) of `text`,
// then `hint`: every message of parse() has this shape.
TemplateError error_at(const char* what, std::string_view text, std::size_t byte, const char* hint) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < byte && i < text.size();) {
    condition::unicode::decode_utf8(text, i);
    ++count;
  }
  return {std::string(what) + " at character " + std::to_string(count + 1) + hint};
}

}  // namespace

Expected<TaskTemplate, TemplateError> TaskTemplate::parse(std::string_view text) {
  TaskTemplate out;
  out.source_ = std::string(text);
  std::string literal;
  StringKeys names;  // the placeholders' names in order of first appearance, each once
  auto flush = [&] {
    if (!literal.empty()) out.pieces_.push_back({false, std::move(literal)});
    literal.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        literal += '}';
        i += 2;
        continue;
      }
      return unexpected(error_at("a lone '}'", text, i, " (write '}}' for a literal brace)"));
    }
    if (c != '{') {
      literal += c;
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      i += 2;
      continue;
    }
    std::size_t start = i + 1;
    std::size_t end = start;
    while (end < text.size() && text[end] != '}' && text[end] != '{') {
      char32_t ch = condition::unicode::decode_utf8(text, end);
      if (condition::unicode::is_white_space(ch)) {
        return unexpected(error_at("white space in the placeholder opened", text, i,
                                   " (a placeholder is {name}; write '{{' for a literal brace)"));
      }
    }
    if (end >= text.size() || text[end] == '{') {
      return unexpected(
          error_at("the placeholder opened", text, i, " is never closed (write '{{' for a literal brace)"));
    }
    if (end == start) {
      return unexpected(error_at("an empty placeholder '{}'", text, i, " (write '{{}}' for literal braces)"));
    }
    flush();
    std::string name(text.substr(start, end - start));
    names.insert(name);
    out.pieces_.push_back({true, std::move(name)});
    i = end + 1;
  }
  flush();
  out.variables_ = names.keys();
  return out;
}

std::string variable_text(const condition::Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return core::dump_json(value);
}

bool nests_deeper(const condition::Json& value, int limit) {
  std::vector<std::pair<const condition::Json*, int>> stack{{&value, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node->is_array() && !node->is_object()) continue;
    if (depth >= limit) return true;
    for (const auto& child : *node) stack.emplace_back(&child, depth + 1);
  }
  return false;
}

std::optional<std::string> TaskTemplate::render(const StringMap<std::string>& texts, std::size_t max_bytes) const {
  std::size_t size = 0;
  for (const Piece& piece : pieces_) {
    const std::string* text = piece.variable ? texts.find(piece.text) : &piece.text;
    size += text == nullptr ? 0 : text->size();
    if (size > max_bytes) return std::nullopt;
  }
  std::string out;
  out.reserve(size);
  for (const Piece& piece : pieces_) {
    if (const std::string* text = piece.variable ? texts.find(piece.text) : &piece.text) out += *text;
  }
  return out;
}

std::string TaskTemplate::render(const condition::Json& variables) const {
  StringMap<std::string> texts;
  for (const std::string& name : variables_) {
    if (auto it = variables.find(name); it != variables.end()) texts.emplace(name, variable_text(*it));
  }
  return *render(texts, static_cast<std::size_t>(-1));
}

}  // namespace handoff::machine
