// Reads [{ condition, state }] (JSON, from a file) and prints the native answers as a JSON array:
// true / false, or "error <index>" for a syntax error. tests/js/determinism.test.mjs compares them
// with Node's and Chromium's answers on the same random cases.
#include <fstream>
#include <iostream>
#include <sstream>

#include "condition/condition.h"
#include "condition/json_state.h"

int main(int argc, char** argv) {
  using handoff::condition::Json;
  if (argc != 2) {
    std::cerr << "usage: evaluate_cases cases.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  Json cases = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!cases.is_array()) {
    std::cerr << "evaluate_cases: expected a JSON array\n";
    return 2;
  }
  Json out = Json::array();
  for (const Json& c : cases) {
    handoff::condition::Interner strings;
    auto compiled = handoff::condition::Condition::compile(c["condition"].get<std::string>(), strings);
    if (!compiled) {
      out.push_back("error " + std::to_string(compiled.error().index));
      continue;
    }
    out.push_back(handoff::condition::evaluate(compiled.value(), c["state"], strings));
  }
  std::cout << handoff::core::dump_json(out) << "\n";
  return 0;
}
