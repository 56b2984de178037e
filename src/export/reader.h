// Reading a definition document: typed members, with one problem per fault at its JSON pointer
// (RFC 6901). Shared by the graph, state machine and swarm loaders, so that every definition
// format reports faults the same way, in both WebAssembly modules and natively.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "condition/json_state.h"
#include "core/json.h"
#include "core/json_pointer.h"

namespace handoff::definition {

// `before` + `name` + `after`, for the many messages that quote a name ("agent '" + id + "' is
// declared twice"): one function, where a chain of concatenations was code at every message (issue 21).
[[gnu::noinline]] inline std::string quoted(const char* before, const std::string& name, const char* after) {
  return before + name + after;
}

// The same with two names: `before` + `first` + `between` + `second` + `after`.
[[gnu::noinline]] inline std::string quoted(const char* before, const std::string& first, const char* between, const std::string& second,
                                            const char* after) {
  return before + first + between + second + after;
}

struct Problem {
  std::string pointer;  // RFC 6901, e.g. "/edges/3/when"
  std::string message;
};

using handoff::pointer_token;

class Reader {
 public:
  using Json = condition::Json;

  std::vector<Problem> problems;

  void problem(std::string pointer, std::string message) { problems.push_back({std::move(pointer), std::move(message)}); }
  // A fixed message (and pointer): the strings are made here rather than at each of the many call sites.
  [[gnu::noinline]] void problem(const char* pointer, const char* message) { problem(std::string(pointer), std::string(message)); }
  [[gnu::noinline]] void problem(const std::string& pointer, const char* message) { problem(pointer, std::string(message)); }
  // At the member `key` of the value at `pointer`: the pointer made here for the same reason.
  [[gnu::noinline]] void member_problem(const std::string& pointer, const char* key, const char* message) {
    problem(pointer + "/" + key, std::string(message));
  }
  [[gnu::noinline]] void member_problem(const std::string& pointer, const char* key, std::string message) {
    problem(pointer + "/" + key, std::move(message));
  }

  // Reports members not in `known`: a misspelt key is a fault, not something to ignore.
  void only(const Json& object, const std::string& pointer, std::initializer_list<const char*> known) {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool ok = false;
      for (const char* k : known) ok = ok || it.key() == k;
      if (!ok) problem(pointer + "/" + pointer_token(it.key()), "unknown property '" + it.key() + "'");
    }
  }

  // A string member: nullptr when absent, null (if optional) or (reported) not a string.
  const std::string* string(const Json& object, const std::string& pointer, const char* key, bool required) {
    auto it = object.find(key);
    if (it == object.end()) {
      if (required) member_problem(pointer, key, "required");
      return nullptr;
    }
    if (!it->is_string()) {
      if (!(it->is_null() && !required)) member_problem(pointer, key, "expected a string");
      return nullptr;
    }
    return &it->get_ref<const std::string&>();
  }

  std::optional<bool> boolean(const Json& object, const std::string& pointer, const char* key) {
    auto it = object.find(key);
    if (it == object.end()) return std::nullopt;
    if (!it->is_boolean()) {
      member_problem(pointer, key, "expected true or false");
      return std::nullopt;
    }
    return it->get<bool>();
  }

  // The `format` and `version` members every definition starts with.
  void format_and_version(const Json& document, const char* format, int version) {
    if (const std::string* f = string(document, "", "format", true); f && *f != format) {
      problem("/format", "expected \"" + std::string(format) + "\"");
    }
    auto it = document.find("version");
    if (it == document.end()) {
      problem("/version", "required");
    } else if (!it->is_number_integer() || it->get<std::int64_t>() != version) {
      // Arrays and objects are named by kind: they may nest deeper than printing could go.
      std::string shown = it->is_array() ? "an array" : it->is_object() ? "an object" : core::dump_json(*it);
      problem("/version", "unsupported version " + shown + " (this library reads version " + std::to_string(version) + ")");
    }
  }

  // A count from 0 to 1,000,000.
  std::optional<std::uint32_t> count(const Json& object, const std::string& pointer, const char* key) {
    auto it = object.find(key);
    if (it == object.end()) return std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 1'000'000) {
      member_problem(pointer, key, "expected an integer from 0 to 1000000");
      return std::nullopt;
    }
    return it->get<std::uint32_t>();
  }
};

}  // namespace handoff::definition
