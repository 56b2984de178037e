// src/core/json_parse.h: the same text as nlohmann's dump, the same values as nlohmann's own parser (duplicates in their first place
// with their last value, numbers kept apart by kind, discarded when not JSON), the index that large
// objects use, and the depth flag. nlohmann is the oracle: the core's value is json::Value.
#include "core/json_parse.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "json_oracle.h"

namespace {

using handoff::core::parse_json;
using handoff::json_oracle::from_oracle;
using handoff::json_oracle::Json;
using handoff::json_oracle::Oracle;
using handoff::json_oracle::same;

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
    Oracle expected = Oracle::parse(text, nullptr, /*allow_exceptions=*/false);
    Json parsed = parse_json(text).value;
    ASSERT_EQ(parsed.is_discarded(), expected.is_discarded());
    if (expected.is_discarded()) continue;
    EXPECT_EQ(parsed.dump(), expected.dump());
    EXPECT_TRUE(same(parsed, expected));
  }
}

// nlohmann's parser decides, and the core's reader (its own since issue 21) must agree on every
// text: whether it is JSON, and the value, number kinds included.
void expect_as_nlohmann(const std::string& text) {
  Oracle expected = Oracle::parse(text, nullptr, /*allow_exceptions=*/false);
  Json parsed = parse_json(text).value;
  ASSERT_EQ(parsed.is_discarded(), expected.is_discarded()) << ::testing::PrintToString(text);
  if (expected.is_discarded()) return;
  ASSERT_EQ(parsed.dump(), expected.dump()) << ::testing::PrintToString(text);
  // Number kinds too, at every depth: dump() prints an int64 and a uint64 alike.
  ASSERT_TRUE(same(parsed, expected)) << ::testing::PrintToString(text);
}

TEST(JsonParse, EdgesOfTheGrammarAsNlohmann) {
  using namespace std::string_literals;
  const std::vector<std::string> texts = {
      "-", "-a", "1.", ".5", "1e", "1e+", "1E+2", "1e-2", "-1.5E-3", "0.0", "-0.0", "00", "-01", "1.5.2", "2e308", "-2e308",
      "9223372036854775807", "-9223372036854775809", "18446744073709551616", "[-0,0,-1,1]", "123456789012345678901234567890",
      "\"\\u00e9\"", "\"\\uD834\\uDD1E\"", "\"\\uDD1E\"", "\"\\uD834x\"", "\"\\uD834\\u0041\"", "\"\\uD834\\\"", "\"\\u12\"",
      "\"\\u12G4\"", "\"\\x\"", "\"\\/\\b\\f\\n\\r\\t\"", "\"\t\"", "\"\x7f\"", "\"\xC2\x80\"", "\"\xC1\xBF\"", "\"\xE0\x9F\xBF\"",
      "\"\xE0\xA0\x80\"", "\"\xED\x9F\xBF\"", "\"\xED\xA0\x80\"", "\"\xF0\x8F\xBF\xBF\"", "\"\xF0\x90\x80\x80\"",
      "\"\xF4\x8F\xBF\xBF\"", "\"\xF4\x90\x80\x80\"", "\"\xF5\x80\x80\x80\"", "\"\xFF\"", "\"\x80\"", "\"\xE2\x82\"",
      "\xEF\xBB", "\xEF\xBB\xBF", "\xEF\xBB\xBF 1", "\xEF 1", " \xEF\xBB\xBF" "1", "tru", "truee", "nulll", "[true,false,null]",
      "[1 2]", "{\"a\":1,}", "{\"a\"}", "{1:2}", "{\"a\":1 \"b\":2}", "[", "]", "[[]", "[]]", "{}}", "\"", "\"abc",
      "1\0 2"s, "[1]\0x"s, "\0"s, "[1\0]"s, "\"a\0b\""s, " \r\n\t1 \r\n\t", "\f1", "[\"a\",{\"b\":[{},[]]}]",
      "{\"\":0,\"\":1}", "{\"a\":{\"a\":{\"a\":1}},\"a\":2}",
  };
  for (const std::string& text : texts) expect_as_nlohmann(text);
}

// Random texts from JSON's pieces and stray bytes, and valid documents with a byte changed.
TEST(JsonParse, RandomTextsAsNlohmann) {
  std::mt19937 random(21);
  const std::vector<std::string> pieces = {
      "{", "}", "[", "]", ",", ":", " ", "\"", "\"k\"", "\"\\u", "D83D", "\\uDE00", "\\", "n", "null", "true", "false", "0", "-",
      "1", "9", ".", "e", "E", "+", "18446744073709551615", "9223372036854775808", "\xC3\xA9", "\xED\xA0\x80", "\xF0\x9F\x98\x80",
      "\x01", "\t", std::string(1, '\0'), "\xEF\xBB\xBF", "\"a\":1", "[1,2]",
  };
  for (int round = 0; round < 200000; ++round) {
    std::string text;
    const int count = static_cast<int>(random() % 12) + 1;
    for (int k = 0; k < count; ++k) text += pieces[random() % pieces.size()];
    expect_as_nlohmann(text);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const std::vector<std::string> documents = {
      R"({"agents":[{"id":"triage","entry":true,"tools":[]}],"edges":[{"from":"triage","to":"billing","when":"x > 1e3"}]})",
      R"({"active":"a","hops":2,"selections":{"a":1},"variables":{"tier":"gold","n":-12,"f":1.25e-7,"s":"\u00e9\ud83d\ude00"}})",
      R"([0,-0,1.0,-1e+2,18446744073709551615,-9223372036854775808,"\"\\\/\b\f\n\r\t",null,true,false,{},[]])",
  };
  for (int round = 0; round < 100000; ++round) {
    std::string text = documents[random() % documents.size()];
    const int edits = static_cast<int>(random() % 3) + 1;
    for (int k = 0; k < edits; ++k) {
      const std::size_t at = random() % text.size();
      switch (random() % 3) {
        case 0: text[at] = static_cast<char>(random() % 256); break;
        case 1: text.erase(at, 1); break;
        default: text.insert(at, 1, "{}[],:\"\\-.e0"[random() % 12]); break;
      }
      if (text.empty()) text = " ";
    }
    expect_as_nlohmann(text);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// dump_json writes what nlohmann's dump(-1, ' ', false, replace) writes, on random values: strings
// of random bytes (ill-formed UTF-8 included), numbers of every kind, nesting (made as the
// oracle's values, then copied into ours).
TEST(JsonDump, WritesWhatNlohmannWrites) {
  std::mt19937_64 random(21);
  const std::vector<std::string> fragments = {
      "a", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", std::string(1, '\0'), "\x1f", "\x7f", "\xC3\xA9", "\xE2\x82\xAC",
      "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\x80", "\xBF", "\xC0\x80", "\xC1\xBF",
      "\xE0\x80\x80", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\x9F\xBF", "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80",
      "\xFE", "\xFF", "\xEF\xBB\xBF",
  };
  auto text = [&] {
    std::string s;
    const int count = static_cast<int>(random() % 6);
    for (int k = 0; k < count; ++k) {
      if (random() % 4 == 0) s += static_cast<char>(random() % 256);
      else s += fragments[random() % fragments.size()];
    }
    return s;
  };
  std::function<Oracle(int)> make = [&](int depth) -> Oracle {
    switch (random() % (depth > 3 ? 7 : 9)) {
      case 0: return nullptr;
      case 1: return random() % 2 == 0;
      case 2: return static_cast<std::int64_t>(random());
      case 3: return static_cast<std::uint64_t>(random());
      case 4: {
        std::uint64_t bits = random();
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        const double picks[] = {d, 0.0, -0.0, 1.0, 0.1, 1e23, 5e-324, 1.7976931348623157e308, -1.5, 1e21, 123456789.125};
        return picks[random() % 11];
      }
      case 5:
      case 6: return text();
      case 7: {
        Oracle a = Oracle::array();
        for (int k = static_cast<int>(random() % 4); k > 0; --k) a.push_back(make(depth + 1));
        return a;
      }
      default: {
        Oracle o = Oracle::object();
        for (int k = static_cast<int>(random() % 4); k > 0; --k) o[text()] = make(depth + 1);
        return o;
      }
    }
  };
  for (int round = 0; round < 100000; ++round) {
    Oracle value = make(0);
    const Json ours = from_oracle(value);
    ASSERT_TRUE(same(ours, value));
    ASSERT_EQ(handoff::core::dump_json(ours), value.dump(-1, ' ', false, Oracle::error_handler_t::replace));
  }
  const double specials[] = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
  for (double d : specials) EXPECT_EQ(handoff::core::dump_json(Json(d)), Oracle(d).dump());
  EXPECT_EQ(handoff::core::dump_json(Json(Json::value_t::discarded)), Oracle(Oracle::value_t::discarded).dump());
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
    Oracle expected = Oracle::parse(text, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(parsed.is_discarded());
    EXPECT_EQ(parsed.dump(), expected.dump());
    EXPECT_TRUE(same(parsed, expected));
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
