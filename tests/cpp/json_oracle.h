// nlohmann::ordered_json as the oracle for the core's JSON value (src/core/json_value.h), for the
// differential tests (tests/cpp/json_parse_test.cpp) and the fuzz target (fuzz/json_fuzz.cpp):
// whether a value of ours is the oracle's, number kinds included, and the oracle's value as ours.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_value.h"

namespace handoff::json_oracle {

using Json = json::Value;
using Oracle = nlohmann::ordered_json;

// Whether `ours` is the oracle's value: the same kinds (int64, uint64, double: bit for bit), the
// same strings, the same members in the same order.
inline bool same(const Json& ours, const Oracle& theirs) {
  using T = Json::value_t;
  using O = Oracle::value_t;
  switch (theirs.type()) {
    case O::null: return ours.is_null();
    case O::boolean: return ours.is_boolean() && ours.get<bool>() == theirs.get<bool>();
    case O::number_integer: return ours.type() == T::number_integer && ours.get<std::int64_t>() == theirs.get<std::int64_t>();
    case O::number_unsigned: return ours.type() == T::number_unsigned && ours.get<std::uint64_t>() == theirs.get<std::uint64_t>();
    case O::number_float: {
      const double a = ours.get<double>();
      const double b = theirs.get<double>();
      return ours.type() == T::number_float && (std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b));
    }
    case O::string: return ours.is_string() && ours.get_ref<const std::string&>() == theirs.get_ref<const std::string&>();
    case O::array: {
      if (!ours.is_array() || ours.size() != theirs.size()) return false;
      for (std::size_t i = 0; i < theirs.size(); ++i) {
        if (!same(ours[i], theirs[i])) return false;
      }
      return true;
    }
    case O::object: {
      if (!ours.is_object() || ours.size() != theirs.size()) return false;
      auto member = ours.items().begin();
      for (const auto& [key, value] : theirs.items()) {
        if (member->first != key || !same(member->second, value)) return false;
        ++member;
      }
      return true;
    }
    default: return false;
  }
}

// The oracle's value as ours, kinds included.
inline Json from_oracle(const Oracle& v) {
  using O = Oracle::value_t;
  switch (v.type()) {
    case O::null: return nullptr;
    case O::boolean: return v.get<bool>();
    case O::number_integer: return v.get<std::int64_t>();
    case O::number_unsigned: return v.get<std::uint64_t>();
    case O::number_float: return v.get<double>();
    case O::string: return v.get_ref<const std::string&>();
    case O::array: {
      Json a = Json::array();
      for (const Oracle& item : v) a.push_back(from_oracle(item));
      return a;
    }
    case O::object: {
      Json o = Json::object();
      for (const auto& [key, value] : v.items()) o[key] = from_oracle(value);
      return o;
    }
    default: return Json(Json::value_t::discarded);
  }
}

}  // namespace handoff::json_oracle
