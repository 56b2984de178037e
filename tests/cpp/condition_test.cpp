// Condition behaviour that the JSON vectors cannot express: inputs too large for a vector file,
// the tape's two string encodings, truncated values, and byte/UTF-16 index conversion.
#include <gtest/gtest.h>

#include <limits>

#include "condition/condition.h"
#include "condition/json_state.h"
#include "condition/limits.h"
#include "condition/value_text.h"

namespace handoff::condition {
namespace {

Expected<Condition, SyntaxError> compile(const std::string& source, Interner& strings) {
  return Condition::compile(source, strings);
}

TEST(Condition, HundredThousandOpenParenthesesIsACleanError) {
  Interner strings;
  auto c = compile(std::string(100000, '('), strings);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().index, static_cast<std::uint32_t>(kMaxNesting));
  EXPECT_NE(c.error().message.find("nested too deeply"), std::string::npos);
}

TEST(Condition, TenThousandNotsIsACleanError) {
  Interner strings;
  std::string source;
  for (int i = 0; i < 10000; ++i) source += "not ";
  auto c = compile(source + "x", strings);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("nested too deeply"), std::string::npos);
}

TEST(Condition, LongFlatChainsAreNotNesting) {
  Interner strings;
  std::string source = "x == 0";
  for (int i = 1; i < 20000; ++i) source += " or x == " + std::to_string(i);
  auto c = compile(source, strings);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(evaluate(c.value(), Json{{"x", 19999}}, strings));
  EXPECT_FALSE(evaluate(c.value(), Json{{"x", 20000}}, strings));
}

TEST(Condition, SourceLongerThanTheLimitIsRejected) {
  Interner strings;
  std::string source = "x == '" + std::string(kMaxSourceBytes, 'a') + "'";
  auto c = compile(source, strings);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().index, 0u);
  EXPECT_NE(c.error().message.find("condition too long"), std::string::npos);
}

TEST(Condition, ErrorIndexCountsUtf16CodeUnits) {
  Interner strings;
  // 'é' is 2 bytes and 1 unit; '😀' is 4 bytes and 2 units. The '=' is at unit 9.
  auto c = compile("'é😀' == x = 1", strings);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().index, 11u) << c.error().message;
  EXPECT_NE(c.error().message.find("at column 12"), std::string::npos) << c.error().message;
}

TEST(Condition, InvalidUtf8IsASyntaxErrorNotACrash) {
  Interner strings;
  auto c = compile("x == '\xff'", strings);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("invalid UTF-8"), std::string::npos);
  auto d = compile("\xc0\x80 == 1", strings);
  ASSERT_FALSE(d.ok());
}

// JavaScript sends known strings as interned ids and unknown ones as bytes; both must compare by
// content, whichever side carries which.
TEST(Condition, InternedAndByteStringsCompareByContent) {
  Interner strings;
  auto c = compile("x == 'gold' and 'ol' in x and x > 'a'", strings);
  ASSERT_TRUE(c.ok());
  for (bool interned : {true, false}) {
    TapeBuilder tape;
    std::uint32_t cell = tape.add_string("gold", interned ? strings.find("gold") : kNoId);
    TapeView view = tape.view(&strings);
    ValueRef slot(&view, cell);
    EXPECT_TRUE(c.value().evaluate(&slot)) << "interned=" << interned;
  }
}

TEST(Condition, TruncatedContainersKeepTruthinessButCompareUnequal) {
  Interner strings;
  auto truthy_c = compile("x", strings);
  auto equal_c = compile("x == x", strings);
  auto in_c = compile("1 in x", strings);
  ASSERT_TRUE(truthy_c.ok() && equal_c.ok() && in_c.ok());
  TapeBuilder tape;
  std::uint32_t cell = tape.add_truncated(Kind::Array, 3);
  TapeView view = tape.view(&strings);
  ValueRef slot(&view, cell);
  EXPECT_TRUE(truthy_c.value().evaluate(&slot));
  EXPECT_FALSE(equal_c.value().evaluate(&slot));
  EXPECT_FALSE(in_c.value().evaluate(&slot));
}

Json nested_array(int depth) {
  Json value = 1;
  for (int i = 0; i < depth; ++i) value = Json::array({value});
  return value;
}

TEST(Condition, DeepComparisonStopsAtTheDepthLimit) {
  Interner strings;
  auto c = compile("a == b", strings);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(evaluate(c.value(), Json{{"a", nested_array(kMaxCompareDepth)}, {"b", nested_array(kMaxCompareDepth)}}, strings));
  EXPECT_FALSE(evaluate(c.value(), Json{{"a", nested_array(kMaxCompareDepth + 1)}, {"b", nested_array(kMaxCompareDepth + 1)}}, strings));
  EXPECT_FALSE(evaluate(c.value(), Json{{"a", nested_array(500)}, {"b", nested_array(500)}}, strings));
}

TEST(Condition, AValueLargerThanTheCellBudgetKeepsOnlyItsSize) {
  Interner strings;
  Json big = Json::array();
  for (std::uint32_t i = 0; i < kMaxStateCells + 10; ++i) big.push_back(0);
  Json state = {{"big", big}, {"small", {1}}, {"name", "n"}};
  // Truthiness survives (the size is kept); equality does not; other paths are unaffected, even
  // when the big value is read first.
  for (const char* source : {"big and name == 'n'", "big == big or (small == [1] and name == 'n')"}) {
    auto c = compile(source, strings);
    ASSERT_TRUE(c.ok());
    EXPECT_TRUE(evaluate(c.value(), state, strings)) << source;
  }
  auto equal = compile("big == big", strings);
  EXPECT_FALSE(evaluate(equal.value(), state, strings));
}

TEST(Condition, RepeatedInOnAHugeObjectStaysExact) {
  Interner strings;
  Json object = Json::object();
  for (int i = 0; i < 20000; ++i) object["k" + std::to_string(i)] = i;
  // 300 scans of 20,000 keys: more work than any small fixed cap would allow, still exact.
  std::string source = "'k19999' in o";
  for (int i = 0; i < 300; ++i) source += " and 'k" + std::to_string(19999 - i) + "' in o";
  auto c = compile(source, strings);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(evaluate(c.value(), Json{{"o", object}}, strings));
}

TEST(Condition, PathsEscapeEveryControlCharacter) {
  Interner strings;
  auto c = compile("a['\\u0085x\\u007f\\u0001'] == 1", strings);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->paths()[0].text(), "a['\\u0085x\\u007F\\u0001']");
}

TEST(Condition, ObjectsEqualRegardlessOfKeyOrder) {
  Interner strings;
  auto c = compile("a == b", strings);
  ASSERT_TRUE(c.ok());
  Json a = Json::object();
  Json b = Json::object();
  for (int i = 0; i < 5000; ++i) a[std::to_string(i)] = i;
  for (int i = 4999; i >= 0; --i) b[std::to_string(i)] = i;
  EXPECT_TRUE(evaluate(c.value(), Json{{"a", a}, {"b", b}}, strings));
  b["0"] = -1;
  EXPECT_FALSE(evaluate(c.value(), Json{{"a", a}, {"b", b}}, strings));
}

TEST(ValueText, NumbersReadAsJavaScriptWritesThem) {
  std::vector<std::pair<double, std::string>> cases{
      {0, "0"}, {-0.0, "0"}, {3, "3"}, {-42, "-42"}, {0.1, "0.1"}, {1.5e-7, "1.5e-7"}, {0.000001, "0.000001"},
      {1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123.456, "123.456"}, {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {9007199254740993.0, "9007199254740992"}};
  for (const auto& [number, text] : cases) EXPECT_EQ(number_text(number), text) << text;
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "null");
}

TEST(ValueText, PreviewsCutAtSixtyCodePoints) {
  Interner strings;
  JsonStateWriter writer(strings);
  auto preview = [&](const Json& value) {
    writer.write(Json{{"v", value}}, {Path{{PathStep{false, "v", 0}}}});
    return preview_text(writer.slots()[0], 60);
  };
  EXPECT_EQ(preview(Json{{"a", 1}, {"b", {true, nullptr, "x"}}}), R"({"a":1,"b":[true,null,"x"]})");
  EXPECT_EQ(preview(std::string(58, 'z')), "\"" + std::string(58, 'z') + "\"");
  std::string accents;
  for (int i = 0; i < 70; ++i) accents += "\u00e9";
  EXPECT_EQ(preview(accents), "\"" + [] { std::string s; for (int i = 0; i < 56; ++i) s += "\u00e9"; return s; }() + "...");
}

}  // namespace
}  // namespace handoff::condition
