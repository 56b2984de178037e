// Writes the golden exports: for every tests/golden/NAME.input.json, the files NAME.definition.json,
// NAME.dag.json, NAME.flowchart.mmd, NAME.state.mmd and NAME.dot, as the native core renders them.
// Run through scripts/update-golden.sh, then review the diff by eye before committing.
//
//   export_golden DIR            write the files
//   export_golden --check DIR    write nothing; exit 1 if a file would change
#include <cstdio>
#include <cstring>

#include "export_golden.h"

int main(int argc, char** argv) {
  bool check = argc == 3 && std::strcmp(argv[1], "--check") == 0;
  if (argc != 2 && !check) {
    std::fprintf(stderr, "usage: export_golden [--check] DIR\n");
    return 2;
  }
  std::filesystem::path dir = argv[argc - 1];
  auto names = handoff::golden::input_names(dir);
  if (names.empty()) {
    std::fprintf(stderr, "export_golden: no *.input.json in %s\n", dir.c_str());
    return 2;
  }
  int changed = 0;
  for (const std::string& name : names) {
    auto input = handoff::golden::Json::parse(handoff::golden::read_file(dir / (name + ".input.json")), nullptr, false);
    if (input.is_discarded()) {
      std::fprintf(stderr, "export_golden: %s.input.json is not JSON\n", name.c_str());
      return 1;
    }
    auto rendered = handoff::golden::render(input);
    if (!rendered) {
      std::fprintf(stderr, "export_golden: %s: %s\n", name.c_str(), rendered.error().c_str());
      return 1;
    }
    for (const auto& [suffix, text] : rendered.value()) {
      auto path = dir / (name + suffix);
      if (std::filesystem::exists(path) && handoff::golden::read_file(path) == text) continue;
      ++changed;
      std::printf("%s %s\n", check ? "differs:" : "wrote", path.c_str());
      if (check) continue;
      std::ofstream out(path, std::ios::binary);
      out << text;
    }
  }
  std::printf("%zu inputs, %d file(s) %s\n", names.size(), changed, check ? "differ" : "written");
  return check && changed > 0 ? 1 : 0;
}
