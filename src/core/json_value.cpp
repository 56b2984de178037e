// See json_value.h. Reading and writing text live in json_parse.cpp (the one reader and writer).
#include "core/json_value.h"

#include <algorithm>

#include "core/json_parse.h"

namespace handoff::json {

static_assert(sizeof(Value) == 16, "a type and one 8-byte field, as nlohmann's value");

Value::Value(value_t type) : type_(type) {
  data_.integer = 0;
  if (type == value_t::string) data_.string = new std::string();
  else if (type == value_t::array) data_.array = new array_t();
  else if (type == value_t::object) data_.object = new object_t();
}

Value::Value(std::string&& s) : type_(value_t::string) { data_.string = new std::string(std::move(s)); }

Value::Value(array_t items) : type_(value_t::array) { data_.array = new array_t(std::move(items)); }

Value::Value(std::initializer_list<Value> items) {
  const bool object = std::all_of(items.begin(), items.end(), [](const Value& item) {
    return item.is_array() && item.data_.array->size() == 2 && item.data_.array->front().is_string();
  });
  if (!object) {
    type_ = value_t::array;
    data_.array = new array_t(items);
    return;
  }
  type_ = value_t::object;
  data_.object = new object_t();
  data_.object->reserve(items.size());
  for (const Value& pair : items) {
    const array_t& key_and_value = *pair.data_.array;
    const std::string& key = *key_and_value[0].data_.string;
    // As nlohmann's ordered_map::emplace: a repeated key keeps its first value.
    if (find(key) == end()) data_.object->emplace_back(key, key_and_value[1]);
  }
}

Value::Value(const Value& other) : type_(other.type_), data_(other.data_) {
  if (type_ == value_t::string) data_.string = new std::string(*other.data_.string);
  else if (type_ == value_t::array) data_.array = new array_t(*other.data_.array);
  else if (type_ == value_t::object) data_.object = new object_t(*other.data_.object);
}

// Both assignments take `other` first: it may be a part of this value (v = v["child"]).
Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this == &other) return *this;
  Value taken(std::move(other));
  release();
  type_ = taken.type_;
  data_ = taken.data_;
  taken.type_ = value_t::null;
  return *this;
}

namespace {

void take_child(Value& child, std::vector<Value>& into) {
  if (child.is_structured() && !child.empty()) into.push_back(std::move(child));
}

}  // namespace

// A container and every container in it are moved onto a stack of its own and freed there one at
// a time, each after its children that hold containers were moved out, so no destructor recurses.
void release_nested(Value& value) noexcept {
  std::vector<Value> stack;  // allocates only when a child holds a container
  Value top(std::move(value));
  for (;;) {
    if (top.type_ == Value::value_t::array) {
      for (Value& item : *top.data_.array) take_child(item, stack);
      delete top.data_.array;
    } else {
      for (Member& member : *top.data_.object) take_child(member.second, stack);
      delete top.data_.object;
    }
    top.type_ = Value::value_t::null;
    if (stack.empty()) return;
    top = std::move(stack.back());
    stack.pop_back();
  }
}

void Value::release() noexcept {
  if (type_ == value_t::string) delete data_.string;
  else if (type_ == value_t::array || type_ == value_t::object) release_nested(*this);
  type_ = value_t::null;
}

Value Value::parse(std::string_view text, std::nullptr_t, bool) { return core::parse_json(text).value; }

std::string Value::dump(int, char, bool, error_handler_t) const { return core::dump_json(*this); }

std::size_t Value::size() const {
  switch (type_) {
    case value_t::null:
    case value_t::discarded: return 0;
    case value_t::array: return data_.array->size();
    case value_t::object: return data_.object->size();
    default: return 1;
  }
}

Value& Value::operator[](std::size_t index) {
  if (!is_array()) *this = array();
  while (index >= data_.array->size()) data_.array->push_back(Value());  // push_back is in the module anyway; resize is not
  return (*data_.array)[index];
}

Value& Value::operator[](std::string_view key) {
  if (!is_object()) *this = object();
  for (Member& member : *data_.object) {
    if (member.first == key) return member.second;
  }
  data_.object->emplace_back(std::string(key), Value());
  return data_.object->back().second;
}

Value& Value::with(std::string_view key, Value value) & {
  (*this)[key] = std::move(value);
  return *this;
}

const Value& Value::operator[](std::string_view key) const {
  static const Value kMissing;
  const_iterator it = find(key);
  return it == end() ? kMissing : *it;
}

// clang-tidy would make the mutable accessors const: a value's parts are on the heap, so only
// the declaration says that a const value hands out no mutable access to them.
Value::iterator Value::begin() {  // NOLINT(readability-make-member-function-const)
  if (is_array()) return {data_.array->data(), nullptr};
  if (is_object()) return {nullptr, data_.object->data()};
  return {};
}

Value::iterator Value::end() {  // NOLINT(readability-make-member-function-const)
  if (is_array()) return {data_.array->data() + data_.array->size(), nullptr};
  if (is_object()) return {nullptr, data_.object->data() + data_.object->size()};
  return {};
}

Value::const_iterator Value::begin() const { return const_cast<Value*>(this)->begin(); }  // NOLINT(cppcoreguidelines-pro-type-const-cast): the same walk, read only
Value::const_iterator Value::end() const { return const_cast<Value*>(this)->end(); }  // NOLINT(cppcoreguidelines-pro-type-const-cast)

const Value::object_t& Value::items() const {
  static const object_t kNone;
  return is_object() ? *data_.object : kNone;
}

Value::iterator Value::find(std::string_view key) {  // NOLINT(readability-make-member-function-const)
  if (is_object()) {
    for (Member& member : *data_.object) {
      if (member.first == key) return {nullptr, &member};
    }
  }
  return end();
}

Value::const_iterator Value::find(std::string_view key) const { return const_cast<Value*>(this)->find(key); }  // NOLINT(cppcoreguidelines-pro-type-const-cast)

std::size_t Value::erase(std::string_view key) {  // NOLINT(readability-make-member-function-const)
  if (!is_object()) return 0;
  auto it = std::find_if(data_.object->begin(), data_.object->end(), [&](const Member& member) { return member.first == key; });
  if (it == data_.object->end()) return 0;
  data_.object->erase(it);
  return 1;
}

Value::iterator Value::erase(iterator at) {  // NOLINT(readability-make-member-function-const)
  if (at.member_ != nullptr) {
    auto next = data_.object->erase(data_.object->begin() + (at.member_ - data_.object->data()));
    return {nullptr, data_.object->data() + (next - data_.object->begin())};
  }
  auto next = data_.array->erase(data_.array->begin() + (at.item_ - data_.array->data()));
  return {data_.array->data() + (next - data_.array->begin()), nullptr};
}

void Value::push_back(Value item) {
  if (!is_array()) *this = array();
  data_.array->push_back(std::move(item));
}

bool operator==(const Value& a, const Value& b) {
  using T = Value::value_t;
  const Value::Data& x = a.data_;
  const Value::Data& y = b.data_;
  if (a.type_ == b.type_) {
    switch (a.type_) {
      case T::null: return true;
      case T::discarded: return false;
      case T::boolean: return x.boolean == y.boolean;
      case T::number_integer: return x.integer == y.integer;
      case T::number_unsigned: return x.unsigned_integer == y.unsigned_integer;
      case T::number_float: return x.number == y.number;
      case T::string: return *x.string == *y.string;
      case T::array: return *x.array == *y.array;
      case T::object: return *x.object == *y.object;
    }
  }
  // Numbers of different kinds, converted as nlohmann converts them.
  if (a.type_ == T::number_integer && b.type_ == T::number_float) return static_cast<double>(x.integer) == y.number;
  if (a.type_ == T::number_float && b.type_ == T::number_integer) return x.number == static_cast<double>(y.integer);
  if (a.type_ == T::number_unsigned && b.type_ == T::number_float) return static_cast<double>(x.unsigned_integer) == y.number;
  if (a.type_ == T::number_float && b.type_ == T::number_unsigned) return x.number == static_cast<double>(y.unsigned_integer);
  if (a.type_ == T::number_unsigned && b.type_ == T::number_integer) return static_cast<std::int64_t>(x.unsigned_integer) == y.integer;
  if (a.type_ == T::number_integer && b.type_ == T::number_unsigned) return x.integer == static_cast<std::int64_t>(y.unsigned_integer);
  return false;
}

}  // namespace handoff::json
