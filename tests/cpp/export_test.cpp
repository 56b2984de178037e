// Exports natively: every golden file in tests/golden/ (the WebAssembly build is checked against
// the same files by tests/js/export.test.mjs), plus the properties the golden files rely on.
#include <gtest/gtest.h>

#include <set>

#include "export_golden.h"

namespace handoff::golden {
namespace {

// tests/golden, next to the shared vectors.
const std::filesystem::path kGoldenDir = std::filesystem::path(HANDOFF_VECTORS_DIR) / ".." / "golden";

// The first line where two texts differ, for a readable failure.
std::string first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(a, la));
    bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return "the texts differ only in a final newline";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (more_a ? la : "<end>") + "\n  actual: " + (more_b ? lb : "<end>");
    }
  }
}

TEST(ExportGolden, EveryInputMatchesItsGoldenFilesByteForByte) {
  auto names = input_names(kGoldenDir);
  ASSERT_GE(names.size(), 8u) << "golden inputs in " << kGoldenDir;
  std::size_t compared = 0;
  for (const std::string& name : names) {
    auto input = Json::parse(read_file(kGoldenDir / (name + ".input.json")), nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(input.is_discarded()) << name << ".input.json is not JSON";
    auto rendered = render(input);
    ASSERT_TRUE(rendered.ok()) << name << ": " << rendered.error();
    for (const std::string& suffix : suffixes()) {
      auto path = kGoldenDir / (name + suffix);
      ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing: run bash scripts/update-golden.sh";
      std::string golden = read_file(path);
      const std::string& actual = rendered->at(suffix);
      EXPECT_TRUE(golden == actual) << name << suffix << " differs from the golden file; "
                                    << first_difference(golden, actual);
      ++compared;
    }
  }
  EXPECT_EQ(compared, names.size() * suffixes().size());
}

// No orphans: every golden export file (NAME.dag.json, NAME.dot, …) belongs to an input, so a
// removed or renamed input cannot leave stale files behind. (Other files and folders are not ours.)
TEST(ExportGolden, NoOrphanedGoldenFiles) {
  std::set<std::string> names;
  for (const std::string& name : input_names(kGoldenDir)) names.insert(name);
  for (const auto& entry : std::filesystem::directory_iterator(kGoldenDir)) {
    if (!entry.is_regular_file()) continue;
    std::string file = entry.path().filename().string();
    for (const std::string& suffix : suffixes()) {
      if (file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
        EXPECT_TRUE(names.count(file.substr(0, file.size() - suffix.size()))) << "orphaned golden file " << entry.path();
      }
    }
  }
}

// A definition read back and written again is the same document (the golden definitions are
// toJSON outputs, so they must be fixed points).
TEST(ExportGolden, DefinitionsRoundTrip) {
  for (const std::string& name : input_names(kGoldenDir)) {
    auto document = Json::parse(read_file(kGoldenDir / (name + ".definition.json")), nullptr, false);
    ASSERT_FALSE(document.is_discarded()) << name;
    auto again = render(Json{{"definition", document}});
    ASSERT_TRUE(again.ok()) << name << ": " << again.error();
    EXPECT_EQ(again->at(".definition.json"), pretty(document)) << name;
  }
}

// Exports are deterministic: the same model renders the same bytes, every time.
TEST(ExportGolden, RenderingIsDeterministic) {
  for (const std::string& name : input_names(kGoldenDir)) {
    auto input = Json::parse(read_file(kGoldenDir / (name + ".input.json")), nullptr, false);
    auto first = render(input);
    auto second = render(input);
    ASSERT_TRUE(first.ok() && second.ok()) << name;
    EXPECT_EQ(first.value(), second.value()) << name;
  }
}

}  // namespace
}  // namespace handoff::golden
