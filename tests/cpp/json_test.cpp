// The core's JSON reader and writer (src/core/json.h): parse_json reads what nlohmann's own parser
// reads, to the same values (repeated keys in their first place with their last value, numbers
// kept apart by kind), in time linear in the text, with the depth flag callers rely on; dump_json
// writes ill-formed UTF-8 as U+FFFD and never aborts.
#include "core/json.h"
#include "same_json.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace {

using handoff::core::dump_json;
using handoff::core::parse_json;
using Json = handoff::json::Value;

using handoff::testing::same_json;

void expect_as_nlohmann(const std::string& text) {
  Json expected = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  Json parsed = parse_json(text).value;
  ASSERT_EQ(parsed.is_discarded(), expected.is_discarded()) << ::testing::PrintToString(text);
  if (expected.is_discarded()) return;
  ASSERT_TRUE(same_json(parsed, expected)) << ::testing::PrintToString(text);
}

TEST(Json, ReadsWhatNlohmannReads) {
  using namespace std::string_literals;
  const std::vector<std::string> texts = {
      "null",
      "true",
      "false",
      "0",
      "-0",
      "1.5e300",
      "18446744073709551615",
      "18446744073709551616",
      "-9223372036854775808",
      "-9223372036854775809",
      "9223372036854775808",
      "1e400",
      "-1e400",
      "\"\\ud83d\\ude00 é\"",
      "[]",
      "{}",
      "[1,[2,[3,{}]]]",
      R"({"a":1,"b":2,"a":3})",
      R"({"b":{"x":1},"a":[{"y":null}],"b":{"z":2}})",
      "\xEF\xBB\xBF{\"bom\":1}",
      "\xEF\xBB{}",
      " \n\t{ \"spaced\" : [ 1 , 2 ] } ",
      "",
      "{",
      "[1,]",
      "{\"a\":}",
      "{\"a\" 1}",
      "nul",
      "\"\\ud800\"",
      "\"\xC3\"",
      "1 2",
      "[1] x",
      "{\"a\":1}\0 trailing"s,
      "01",
      "+1",
      "NaN",
      "'a'",
      "[\"\\u0000\"]",
      "1.",
      ".5",
      "1e",
      "1E+2",
      "-1.5E-3",
      "-0.0",
      "\"\xED\xA0\x80\"",
      "\"\xF4\x90\x80\x80\"",
  };
  for (const std::string& text : texts) expect_as_nlohmann(text);
}

TEST(Json, NumbersKeepTheirKind) {
  EXPECT_TRUE(parse_json("18446744073709551615").value.is_number_unsigned());
  EXPECT_TRUE(parse_json("-9223372036854775808").value.is_number_integer());
  EXPECT_FALSE(parse_json("-9223372036854775808").value.is_number_unsigned());
  EXPECT_TRUE(parse_json("18446744073709551616").value.is_number_float());
  EXPECT_TRUE(parse_json("1.0").value.is_number_float());
  EXPECT_TRUE(parse_json("1e400").value.is_discarded());  // an overflow is not a number
}

// Objects past the size where a key is found through the index: first place, last value, order.
TEST(Json, LargeObjectsKeepTheirOrderAndDuplicates) {
  for (int members : {31, 32, 33, 100, 5000}) {
    SCOPED_TRACE(members);
    std::string text = "{";
    for (int i = 0; i < members; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    // Every third key again, with a new value, then one more new key.
    for (int i = 0; i < members; i += 3) text += "\"k" + std::to_string(i) + "\":" + std::to_string(-i) + ",";
    text += "\"last\":{\"k0\":1,\"k0\":2}}";
    expect_as_nlohmann(text);
    Json parsed = parse_json(text).value;
    ASSERT_TRUE(parsed.is_object());
    EXPECT_EQ(parsed.size(), static_cast<std::size_t>(members) + 1);
    EXPECT_EQ(parsed.begin().key(), "k0");
    EXPECT_EQ(handoff::json::member(parsed, "k0"), Json(0));
    EXPECT_EQ(handoff::json::member(parsed, "k3"), Json(-3));
    EXPECT_EQ(handoff::json::member(parsed, "k4"), Json(4));
    EXPECT_EQ(dump_json(handoff::json::member(parsed, "last")), R"({"k0":2})");
  }
}

// 200,000 members: nlohmann's own parser makes n²/2 key comparisons (minutes); parse_json is
// linear, so this completes within the test.
TEST(Json, AnObjectOfManyMembersIsRead) {
  std::string text = "{";
  for (int i = 0; i < 200000; ++i) text += (i > 0 ? ",\"" : "\"") + std::to_string(i) + "\":true";
  text += ",\"0\":false}";
  Json parsed = parse_json(text).value;
  ASSERT_TRUE(parsed.is_object());
  EXPECT_EQ(parsed.size(), 200000u);
  EXPECT_EQ(parsed.begin().key(), "0");
  EXPECT_EQ(parsed.begin().value(), Json(false));
  EXPECT_EQ(std::prev(parsed.end()).key(), "199999");
}

TEST(Json, DepthIsFlaggedNotRefused) {
  auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_FALSE(parse_json(nested(512), 512).too_deep);
  auto deep = parse_json(nested(513), 512);
  EXPECT_TRUE(deep.too_deep);
  EXPECT_TRUE(deep.value.is_array());
  EXPECT_FALSE(parse_json(nested(100000)).too_deep);  // no limit asked: read iteratively
  EXPECT_TRUE(parse_json(nested(100000) + "]", 512).value.is_discarded());
  EXPECT_TRUE(parse_json("{\"a\":{\"b\":[1]}}", 2).too_deep);
  EXPECT_FALSE(parse_json("{\"a\":{\"b\":1}}", 2).too_deep);
}

// What users see: the texts the core writes for the values it meets.
TEST(Json, DumpWritesWhatTheExportsAnswered) {
  EXPECT_EQ(dump_json(Json(0.1)), "0.1");
  EXPECT_EQ(dump_json(Json(1e21)), "1e+21");
  EXPECT_EQ(dump_json(Json(2.0)), "2.0");
  EXPECT_EQ(dump_json(Json(-0.0)), "-0.0");
  EXPECT_EQ(dump_json(Json(5e-324)), "5e-324");
  EXPECT_EQ(dump_json(Json(std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(dump_json(Json(std::numeric_limits<double>::quiet_NaN())), "null");
  EXPECT_EQ(dump_json(Json(std::numeric_limits<std::int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(dump_json(Json(std::numeric_limits<std::uint64_t>::max())), "18446744073709551615");
  EXPECT_EQ(dump_json(Json("q\"\\\b\f\n\r\t\x01\x7f/é")), "\"q\\\"\\\\\\b\\f\\n\\r\\t\\u0001\x7f/é\"");
  // Each ill-formed sequence is one U+FFFD, and the byte that broke it starts what follows.
  EXPECT_EQ(dump_json(Json("a\xC3(b")), "\"a\xEF\xBF\xBD(b\"");
  EXPECT_EQ(dump_json(Json("\xFF\xFE")), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(dump_json(Json("\xE2\x82")), "\"\xEF\xBF\xBD\"");
  EXPECT_EQ(dump_json(Json("\xED\xA0\x80")), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(dump_json(Json{{"b", 1}, {"a", {1, "x", nullptr, true}}}), R"({"b":1,"a":[1,"x",null,true]})");
}

TEST(Json, MemberAnswersForAnyValue) {
  const Json object = {{"a", 1}};
  EXPECT_EQ(handoff::json::member(object, "a"), Json(1));
  EXPECT_TRUE(handoff::json::member(object, "b").is_null());
  EXPECT_TRUE(handoff::json::member(Json::array({1, 2}), "a").is_null());
  EXPECT_TRUE(handoff::json::member(Json("a"), "a").is_null());
}

// A million nested arrays and objects: built, moved and destroyed without a deep recursion.
TEST(Json, DeepValuesDieWithoutRecursion) {
  Json root;
  Json* at = &root;
  for (int i = 0; i < 1000000; ++i) {
    if (i % 2 == 0) {
      at->push_back(Json());
      at = &(*at)[0];
    } else {
      at = &(*at)["k"];
    }
  }
  *at = "bottom";
  Json moved = std::move(root);
  EXPECT_TRUE(moved.is_array());
}

}  // namespace
