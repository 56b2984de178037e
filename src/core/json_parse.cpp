// See json_parse.h. The builder mirrors nlohmann's DOM parser (json_sax_dom_parser), with two
// differences: a key is looked up through an index once its object has many members, and a new
// member is appended without searching again.
#include "core/json_parse.h"
#include "core/string_index.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace handoff::core {
namespace {

using Json = nlohmann::ordered_json;

using Members = Json::object_t::Container;

// Up to this many members a linear search is faster than building an index.
constexpr std::size_t kIndexFrom = 32;

class Builder {
 public:
  Builder(Json& root, int max_depth) : root_(root), max_depth_(max_depth) {}

  bool too_deep() const { return too_deep_; }

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool value) { return put(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return put(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return put(Json(value)); }
  bool number_float(Json::number_float_t value, const Json::string_t& /*text*/) { return put(Json(value)); }
  bool string(Json::string_t& value) { return put(Json(std::move(value))); }
  bool binary(Json::binary_t& value) { return put(Json::binary(std::move(value))); }

  bool start_object(std::size_t /*elements*/) { return open(Json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  // The member `key` of the innermost object: found (its first place; the value that follows
  // replaces the earlier one) or appended.
  bool key(Json::string_t& key) {
    Open& open = open_.back();
    // The members as the vector they are (ordered_map's own operator[] and emplace search by key).
    Members& members = open.value->get_ref<Json::object_t&>();
    if (Json* found = member(open, members, key)) {
      slot_ = found;
      return true;
    }
    if (open.indexed) open.index.insert(key, static_cast<std::uint32_t>(members.size()), &members, member_key);
    members.emplace_back(std::move(key), nullptr);
    slot_ = &members.back().second;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const nlohmann::detail::exception& /*error*/) {
    return false;
  }

 private:
  struct Open {
    Json* value;
    bool indexed = false;  // once the object has kIndexFrom members
    StringIndex index = {};  // key → member
  };

  static std::string_view member_key(const void* members, std::uint32_t i) {
    return (*static_cast<const Members*>(members))[i].first;
  }

  // The value of member `key`, or null: a linear search among a few members, else the index
  // (built when the object first has kIndexFrom members).
  static Json* member(Open& open, Members& members, const std::string& key) {
    if (!open.indexed && members.size() < kIndexFrom) {
      for (auto& m : members) {
        if (m.first == key) return &m.second;
      }
      return nullptr;
    }
    if (!open.indexed) {
      open.indexed = true;
      for (std::size_t i = 0; i < members.size(); ++i) open.index.insert(members[i].first, static_cast<std::uint32_t>(i), &members, member_key);
    }
    std::uint32_t at = open.index.find(key, &members, member_key);
    return at == StringIndex::kAbsent ? nullptr : &members[at].second;
  }

  // Where the next value goes: the root, the member whose key came last, or the array's end.
  Json* target() {
    if (open_.empty()) return &root_;
    Json* container = open_.back().value;
    if (container->is_object()) return slot_;
    container->get_ref<Json::array_t&>().emplace_back();
    return &container->get_ref<Json::array_t&>().back();
  }

  bool put(Json&& value) {
    *target() = std::move(value);
    return true;
  }

  bool open(Json&& container) {
    if (max_depth_ > 0 && open_.size() >= static_cast<std::size_t>(max_depth_)) too_deep_ = true;
    Json* at = target();
    *at = std::move(container);
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
  // nlohmann's JSON parser itself, not Json::sax_parse, which would also instantiate the binary
  // formats' readers for this handler.
  using Adapter = decltype(nlohmann::detail::input_adapter(text));
  nlohmann::detail::parser<Json, Adapter> parser(nlohmann::detail::input_adapter(text), nullptr, /*allow_exceptions_=*/false,
                                                /*skip_comments=*/false);
  if (!parser.sax_parse(&builder, /*strict=*/true)) {
    parsed.value = Json(Json::value_t::discarded);
    return parsed;
  }
  parsed.too_deep = builder.too_deep();
  return parsed;
}

}  // namespace handoff::core
