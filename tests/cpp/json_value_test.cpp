// src/core/json_value.h: the core's JSON value behaves as the part of nlohmann::ordered_json it
// replaced (nlohmann is the oracle here): initializer lists, number kinds and their comparison,
// member order, the accessors on a missing member, and no recursion when a deep value dies.
#include "core/json_value.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using Json = handoff::json::Value;
using Oracle = nlohmann::ordered_json;

TEST(JsonValue, InitializerListsAsNlohmann) {
  const std::string who = "billing";
  const Json built = {{"to", who}, {"when", nullptr}, {"tags", {"a", "b"}}, {"pair", {"k", 1}}, {"n", -1}, {"u", 2u}, {"f", 0.5}};
  const Oracle oracle = {{"to", who}, {"when", nullptr}, {"tags", {"a", "b"}}, {"pair", {"k", 1}}, {"n", -1}, {"u", 2u}, {"f", 0.5}};
  EXPECT_EQ(built.dump(), oracle.dump());
  EXPECT_TRUE(built["pair"].is_array());  // a lone [string, value] is an array; the list of them an object
  EXPECT_EQ(Json({1, 2, 3}).dump(), Oracle({1, 2, 3}).dump());
  EXPECT_EQ(Json::array({{{"name", "x"}, {"expected", "y"}}}).dump(), Oracle::array({{{"name", "x"}, {"expected", "y"}}}).dump());
  EXPECT_EQ(Json::array({"reason"}).dump(), "[\"reason\"]");
  // A repeated key in a list keeps its first value, as ordered_map::emplace does.
  EXPECT_EQ(Json({{"a", 1}, {"a", 2}}).dump(), Oracle({{"a", 1}, {"a", 2}}).dump());
  EXPECT_EQ(Json::object().dump(), "{}");
  EXPECT_EQ(Json::array().dump(), "[]");
  EXPECT_EQ(Json(std::vector<std::string>{"x", "y"}).dump(), "[\"x\",\"y\"]");
}

TEST(JsonValue, NumberKindsAndEquality) {
  EXPECT_TRUE(Json(1).is_number_integer());
  EXPECT_FALSE(Json(1).is_number_unsigned());
  EXPECT_TRUE(Json(1u).is_number_unsigned());
  EXPECT_TRUE(Json(std::uint64_t{18446744073709551615u}).is_number_unsigned());
  EXPECT_TRUE(Json(1.0).is_number_float());
  EXPECT_TRUE(Json(true).is_boolean());
  // As nlohmann's ==: numbers by value whatever their kind; nothing else across types.
  EXPECT_EQ(Json(1), Json(1u));
  EXPECT_EQ(Json(1), Json(1.0));
  EXPECT_EQ(Json(1u), Json(1.0));
  EXPECT_NE(Json(1), Json(true));
  EXPECT_NE(Json("1"), Json(1));
  EXPECT_EQ(Json({{"a", {1, 2}}}), Json({{"a", {1u, 2.0}}}));
  EXPECT_NE(Json({{"a", 1}, {"b", 2}}), Json({{"b", 2}, {"a", 1}}));  // ordered, as ordered_json
  EXPECT_NE(Json(Json::value_t::discarded), Json(Json::value_t::discarded));
  // Against text, without making a value of it: only a string equals text, only null equals null.
  EXPECT_TRUE(Json("ready") == "ready");
  EXPECT_TRUE(Json("ready") != std::string("end"));
  EXPECT_TRUE(Json("ready") == std::string_view("ready"));
  EXPECT_FALSE(Json(1) == "1");
  EXPECT_FALSE(Json() == "");
  EXPECT_TRUE(Json() == nullptr);
  EXPECT_FALSE(Json("") == nullptr);
  EXPECT_TRUE(Json(false) != nullptr);
}

TEST(JsonValue, MembersKeepTheirPlace) {
  Json o = Json::object();
  o["b"] = 1;
  o["a"] = 2;
  o["b"] = 3;
  EXPECT_EQ(o.dump(), "{\"b\":3,\"a\":2}");
  EXPECT_EQ(o.erase("b"), 1u);
  EXPECT_EQ(o.erase("b"), 0u);
  EXPECT_EQ(o.dump(), "{\"a\":2}");
  Json n;  // null becomes an object, or an array, as nlohmann's does
  n["x"] = "y";
  EXPECT_EQ(n.dump(), "{\"x\":\"y\"}");
  Json a;
  a.push_back(1);
  a.emplace_back("two");
  EXPECT_EQ(a.dump(), "[1,\"two\"]");
  for (auto it = o.begin(); it != o.end(); ++it) EXPECT_EQ(it.key(), "a");
  const Json& c = o;
  EXPECT_TRUE(c["missing"].is_null());  // const access to a missing member reads null
  EXPECT_FALSE(c.contains("missing"));
  EXPECT_EQ(c.value("a", 0), 2);
  EXPECT_EQ(c.value("missing", std::string("fallback")), "fallback");
  EXPECT_EQ(c.value("missing", "text"), "text");
  EXPECT_EQ(Json(nullptr).size(), 0u);
  EXPECT_EQ(Json("s").size(), 1u);
}

// with(): a record member by member; a repeated key keeps its place and takes the new value.
TEST(JsonValue, WithBuildsRecords) {
  const std::string text = "x";
  Json record = Json::object().with("b", 1).with("a", text).with("b", 2u);
  EXPECT_EQ(record.dump(), "{\"b\":2,\"a\":\"x\"}");
  EXPECT_TRUE(record["b"].is_number_unsigned());
  const Json nested = Json::object().with("inner", Json::object().with("k", nullptr)).with("list", Json::array({"s", 1.5}));
  EXPECT_EQ(nested.dump(), Oracle({{"inner", {{"k", nullptr}}}, {"list", {"s", 1.5}}}).dump());
  Json appended;
  appended.with("first", true);  // a null value becomes an object
  EXPECT_EQ(appended.dump(), "{\"first\":true}");
}

TEST(JsonValue, AssignsFromItsOwnParts) {
  Json v = {{"child", {{"leaf", 1}}}, {"other", 2}};
  v = v["child"];
  EXPECT_EQ(v.dump(), "{\"leaf\":1}");
  Json w = {{"child", {1, 2}}};
  w = std::move(w["child"]);
  EXPECT_EQ(w.dump(), "[1,2]");
  Json copy = w;
  copy.push_back(3);
  EXPECT_EQ(w.dump(), "[1,2]");  // a copy is deep
}

// A million nested arrays and objects: built, copied away and destroyed without a deep recursion.
TEST(JsonValue, DeepValuesDieWithoutRecursion) {
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
  EXPECT_TRUE(root.is_null());
  EXPECT_TRUE(moved.is_array());
}

}  // namespace
