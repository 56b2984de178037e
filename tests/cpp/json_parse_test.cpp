// src/core/json_parse.h: the same values as nlohmann's own parser (duplicates in their first place
// with their last value, numbers kept apart by kind, discarded when not JSON), the index that large
// objects use, and the depth flag.
#include "core/json_parse.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::ordered_json;
using handoff::core::parse_json;

TEST(JsonParse, ReadsWhatNlohmannReads) {
  const std::vector<std::string> texts = {
      "null", "true", "false", "0", "-0", "1.5e300", "18446744073709551615", "-9223372036854775808",
      "9223372036854775808", "1e400", "\"\\ud83d\\ude00 é\"", "[]", "{}", "[1,[2,[3,{}]]]",
      R"({"a":1,"b":2,"a":3})", R"({"b":{"x":1},"a":[{"y":null}],"b":{"z":2}})", "\xEF\xBB\xBF{\"bom\":1}",
      " \n\t{ \"spaced\" : [ 1 , 2 ] } ", "", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "nul", "\"\\ud800\"",
      "\"\xC3\"", "1 2", "[1] x", "{\"a\":1}\x00", "01", "+1", "NaN", "'a'", "[\"\\u0000\"]",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    Json expected = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    Json parsed = parse_json(text).value;
    ASSERT_EQ(parsed.is_discarded(), expected.is_discarded());
    if (expected.is_discarded()) continue;
    EXPECT_EQ(parsed.dump(), expected.dump());
    EXPECT_EQ(parsed.type(), expected.type());
  }
}

// Objects past the size where a key is found through the index: first place, last value, order.
TEST(JsonParse, LargeObjectsKeepNlohmannsOrderAndDuplicates) {
  for (int members : {31, 32, 33, 100, 5000}) {
    SCOPED_TRACE(members);
    std::string text = "{";
    for (int i = 0; i < members; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    // Every third key again, with a new value, then one more new key.
    for (int i = 0; i < members; i += 3) text += "\"k" + std::to_string(i) + "\":" + std::to_string(-i) + ",";
    text += "\"last\":{\"k0\":1,\"k0\":2}}";
    Json parsed = parse_json(text).value;
    Json expected = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(parsed.is_discarded());
    EXPECT_EQ(parsed.dump(), expected.dump());
    EXPECT_EQ(parsed.size(), static_cast<std::size_t>(members) + 1);
  }
}

// 200,000 members: nlohmann's parser takes n²/2 key comparisons (minutes); this one is linear.
TEST(JsonParse, AnObjectOfManyMembersIsRead) {
  std::string text = "{";
  for (int i = 0; i < 200000; ++i) text += (i > 0 ? ",\"" : "\"") + std::to_string(i) + "\":true";
  text += "}";
  Json parsed = parse_json(text).value;
  ASSERT_TRUE(parsed.is_object());
  EXPECT_EQ(parsed.size(), 200000u);
  EXPECT_EQ(parsed.begin().key(), "0");
  EXPECT_EQ(std::prev(parsed.end()).key(), "199999");
}

TEST(JsonParse, DepthIsFlaggedNotRefused) {
  auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_FALSE(parse_json(nested(512), 512).too_deep);
  auto deep = parse_json(nested(513), 512);
  EXPECT_TRUE(deep.too_deep);
  EXPECT_TRUE(deep.value.is_array());
  EXPECT_FALSE(parse_json(nested(100000)).too_deep);  // no limit asked: read iteratively
  EXPECT_TRUE(parse_json(nested(100000) + "]", 512).value.is_discarded());
}

}  // namespace
