// Loads the shared test vectors (tests/vectors/*.json), which every runtime runs.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

#include "condition/json_state.h"

namespace handoff::testing {

inline condition::Json load_vectors(const std::string& file) {
  std::ifstream in(std::string(HANDOFF_VECTORS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return condition::Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
}

// A case's condition: "condition", or "conditionRepeat" ([[text, count], ...]) for long inputs.
inline std::string condition_source(const condition::Json& c) {
  if (c.contains("condition")) return c["condition"].get<std::string>();
  std::string out;
  for (const auto& part : c["conditionRepeat"]) {
    const auto& text = part[0].get_ref<const std::string&>();
    for (int i = 0; i < part[1].get<int>(); ++i) out += text;
  }
  return out;
}

// Registers one GoogleTest test per case (named after its "name"), so every vector is reported
// on its own.
template <class Fn>
void register_cases(const char* suite, const condition::Json& cases, Fn run) {
  for (const auto& c : cases) {
    std::string name = c["name"].get<std::string>();
    for (char& ch : name) {
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    ::testing::RegisterTest(suite, name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [c, run]() -> ::testing::Test* {
                              struct Case : ::testing::Test {
                                condition::Json c;
                                Fn run;
                                Case(condition::Json c, Fn run) : c(std::move(c)), run(run) {}
                                void TestBody() override { run(c); }
                              };
                              return new Case(c, run);
                            });
  }
}

}  // namespace handoff::testing
