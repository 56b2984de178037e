// See json.h. nlohmann's own DOM parser inserts each member of an ordered_json object with a
// linear search of the members before it, so an object of n members took n²/2 key comparisons:
// 40,000 members (half a megabyte of text: a tool call's arguments, a session's variables, a
// definition) kept the WebAssembly module busy for 25 seconds. This builds the same value from
// nlohmann's SAX events, appending members to the object's vector and finding a repeated key
// through a StringIndex (seeded SipHash, so nobody can choose keys that collide) once an object
// has many members. nlohmann's parser keeps its own stack, so nesting has no limit, and its
// destructor does not recurse.
#include "core/json.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/string_index.h"

namespace handoff::core {
namespace {

using Json = json::Value;
using Members = Json::object_t::Container;  // the ordered_map's own vector, without its searches

// Up to this many members a linear search is faster than building an index.
constexpr std::size_t kIndexFrom = 32;

class Builder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  Builder(Json& root, int max_depth) : root_(root), max_depth_(max_depth) {}

  bool too_deep() const { return too_deep_; }

  bool null() { return put(nullptr); }
  bool boolean(bool b) { return put(b); }
  bool number_integer(number_integer_t n) { return put(n); }
  bool number_unsigned(number_unsigned_t n) { return put(n); }
  bool number_float(number_float_t d, const string_t& /*text*/) { return put(d); }
  bool string(string_t& s) { return put(std::move(s)); }
  bool binary(binary_t& /*bytes*/) { return false; }  // JSON text has none

  bool start_object(std::size_t /*unknown size*/) { return open(Json::value_t::object); }
  bool start_array(std::size_t /*unknown size*/) { return open(Json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  // The member `key` of the open object becomes where the next value goes: found (a repeated key
  // keeps its first place and gets the last value), else appended.
  bool key(string_t& key) {
    Open& open = open_.back();
    Members& members = open.value->get_ref<Json::object_t&>();
    if (!open.indexed && members.size() < kIndexFrom) {
      for (auto& member : members) {
        if (member.first == key) {
          slot_ = &member.second;
          return true;
        }
      }
    } else {
      if (!open.indexed) {
        open.indexed = true;
        for (std::size_t i = 0; i < members.size(); ++i) {
          open.index.insert(members[i].first, static_cast<std::uint32_t>(i), &members, member_key);
        }
      }
      const auto next = static_cast<std::uint32_t>(members.size());
      const std::uint32_t at = open.index.insert(key, next, &members, member_key);
      if (at != next) {
        slot_ = &members[at].second;
        return true;
      }
    }
    members.emplace_back(std::move(key), nullptr);
    slot_ = &members.back().second;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

 private:
  struct Open {
    Json* value;
    bool indexed = false;    // once the object has kIndexFrom members
    StringIndex index = {};  // key → member
  };

  static std::string_view member_key(const void* members, std::uint32_t i) {
    return (*static_cast<const Members*>(members))[i].first;
  }

  // Where the next value goes: the root, the open array's next item, or the member key() chose.
  Json* slot() {
    if (open_.empty()) return &root_;
    Json& container = *open_.back().value;
    if (container.is_array()) {
      auto& items = container.get_ref<Json::array_t&>();
      items.emplace_back();
      return &items.back();
    }
    return slot_;
  }

  bool put(Json&& value) {
    *slot() = std::move(value);
    return true;
  }

  bool open(Json::value_t type) {
    if (max_depth_ > 0 && open_.size() >= static_cast<std::size_t>(max_depth_)) too_deep_ = true;
    Json* at = slot();
    *at = Json(type);
    open_.push_back({at});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  Json& root_;
  int max_depth_;
  bool too_deep_ = false;
  Json* slot_ = nullptr;
  std::vector<Open> open_;
};

}  // namespace

ParsedJson parse_json(std::string_view text, int max_depth) {
  ParsedJson parsed;
  Builder builder(parsed.value, max_depth);
  if (!Json::sax_parse(text, &builder)) {
    parsed.value = Json(Json::value_t::discarded);
    return parsed;
  }
  parsed.too_deep = builder.too_deep();
  return parsed;
}

std::string dump_json(const json::Value& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace handoff::core

namespace handoff::json {

const Value& member(const Value& object, std::string_view key) {
  static const Value kMissing;
  auto it = object.find(key);
  return it == object.end() ? kMissing : *it;
}

}  // namespace handoff::json
