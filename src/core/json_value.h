// The core's JSON value (issue 21): machine contexts, swarm sessions, definitions, exported DAGs and
// the records the WebAssembly module answers with are all this one small type. It has the part of
// nlohmann::ordered_json's interface the core and its tests use (is_*(), get<T>(), operator[],
// find, value(), push_back, initializer lists that make an object when every element is a
// [string, value] pair), but it is one class, not a template: nlohmann's basic_json instantiated
// its constructors, comparisons and conversions once per type it met, which was much of the full
// module's bindings, machine and renderers. The core builds its records with with() and compares
// with text directly, the smaller code (see there). nlohmann stays as the test oracle only (the
// differential tests in tests/cpp/json_parse_test.cpp and fuzz/json_fuzz.cpp) and for its double
// printer, which the writer calls (core/json_parse.cpp).
//
// Layout, as nlohmann's: a type tag and one 8-byte field (a boolean, an int64, a uint64, a double,
// or a pointer to a heap string, array or object), so a value costs 16 bytes and moving one copies
// 16 bytes. Objects keep their members in insertion order and find a key by a linear search, as
// ordered_json did; the reader (core/json_parse.h) indexes large objects while it reads them.
// Destroying a value never recurses: a nest of a million arrays is legal JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace handoff::json {

class Value;

// One member of an object: its key and its value.
using Member = std::pair<std::string, Value>;

class Value {
 public:
  // nlohmann's names, so that a switch over type() reads the same.
  enum class value_t : std::uint8_t { null, object, array, string, boolean, number_integer, number_unsigned, number_float, discarded };
  using array_t = std::vector<Value>;
  using object_t = std::vector<Member>;

  // Walks an array's items or an object's members (`key()` names a member); a scalar has none.
  template <bool Const>
  class basic_iterator {
    using V = std::conditional_t<Const, const Value, Value>;
    using M = std::conditional_t<Const, const Member, Member>;

   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using pointer = V*;
    using reference = V&;

    basic_iterator() = default;
    basic_iterator(V* item, M* member) : item_(item), member_(member) {}
    operator basic_iterator<true>() const  // NOLINT(google-explicit-constructor): as a container's iterator
      requires(!Const)
    {
      return {item_, member_};
    }

    const std::string& key() const { return member_->first; }
    V& value() const { return **this; }
    V& operator*() const { return member_ != nullptr ? member_->second : *item_; }
    V* operator->() const { return &**this; }
    basic_iterator& operator++() {
      if (member_ != nullptr) ++member_;
      else ++item_;
      return *this;
    }
    basic_iterator operator++(int) {
      basic_iterator before = *this;
      ++*this;
      return before;
    }
    basic_iterator& operator--() {
      if (member_ != nullptr) --member_;
      else --item_;
      return *this;
    }
    bool operator==(const basic_iterator& other) const { return item_ == other.item_ && member_ == other.member_; }
    bool operator!=(const basic_iterator& other) const { return !(*this == other); }

   private:
    V* item_ = nullptr;
    M* member_ = nullptr;
    friend class Value;
  };
  using iterator = basic_iterator<false>;
  using const_iterator = basic_iterator<true>;

  Value() noexcept { data_.integer = 0; }
  Value(std::nullptr_t) noexcept : Value() {}  // NOLINT(google-explicit-constructor): JSON's null
  explicit Value(value_t type);
  Value(bool b) noexcept : type_(value_t::boolean) { data_.boolean = b; }  // NOLINT(google-explicit-constructor)
  // A signed integer is an int64, an unsigned one a uint64, as nlohmann keeps them.
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
  Value(T n) noexcept {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_signed_v<T>) {
      type_ = value_t::number_integer;
      data_.integer = n;
    } else {
      type_ = value_t::number_unsigned;
      data_.unsigned_integer = n;
    }
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Value(T d) noexcept : type_(value_t::number_float) {  // NOLINT(google-explicit-constructor)
    data_.number = static_cast<double>(d);
  }
  Value(const char* s) : Value(std::string(s)) {}           // NOLINT(google-explicit-constructor)
  Value(std::string_view s) : Value(std::string(s)) {}      // NOLINT(google-explicit-constructor)
  Value(const std::string& s) : Value(std::string(s)) {}    // NOLINT(google-explicit-constructor)
  Value(std::string&& s);                                   // NOLINT(google-explicit-constructor)
  Value(array_t items);                                     // NOLINT(google-explicit-constructor)
  template <class T, std::enable_if_t<!std::is_same_v<T, Value>, int> = 0>
  Value(const std::vector<T>& items) : Value(array_t(items.begin(), items.end())) {}  // NOLINT(google-explicit-constructor)
  template <class A, class B>
  Value(const std::pair<A, B>& pair) : Value(array_t{Value(pair.first), Value(pair.second)}) {}  // NOLINT(google-explicit-constructor): [first, second]
  // nlohmann's rule: an object when every element is a two-element array whose first is a string
  // ({{"to", x}, {"when", y}}), else an array.
  Value(std::initializer_list<Value> items);

  Value(const Value& other);
  Value(Value&& other) noexcept : type_(other.type_), data_(other.data_) {
    other.type_ = value_t::null;
    other.data_.integer = 0;
  }
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value() { release(); }

  static Value array() { return Value(value_t::array); }
  static Value array(std::initializer_list<Value> items) { return Value(array_t(items)); }
  static Value object() { return Value(value_t::object); }
  static Value object(std::initializer_list<Value> members) { return members.size() == 0 ? object() : Value(members); }
  // The value of `text` (core::parse_json), discarded when it is not JSON (nlohmann's other
  // arguments: a callback, which must be null, and whether to throw, which this never does).
  static Value parse(std::string_view text, std::nullptr_t = nullptr, bool = false);

  value_t type() const { return type_; }
  bool is_null() const { return type_ == value_t::null; }
  bool is_boolean() const { return type_ == value_t::boolean; }
  bool is_number() const { return is_number_integer() || type_ == value_t::number_float; }
  bool is_number_integer() const { return type_ == value_t::number_integer || type_ == value_t::number_unsigned; }
  bool is_number_unsigned() const { return type_ == value_t::number_unsigned; }
  bool is_number_float() const { return type_ == value_t::number_float; }
  bool is_string() const { return type_ == value_t::string; }
  bool is_array() const { return type_ == value_t::array; }
  bool is_object() const { return type_ == value_t::object; }
  bool is_primitive() const { return !is_array() && !is_object(); }
  bool is_structured() const { return is_array() || is_object(); }
  bool is_discarded() const { return type_ == value_t::discarded; }

  // A boolean, a number (converted as static_cast does) or a string (a copy; empty if it is none);
  // ask for the type first.
  template <class T>
  T get() const {
    if constexpr (std::is_same_v<T, std::string>) {
      return is_string() ? *data_.string : std::string();
    } else if constexpr (std::is_same_v<T, Value>) {
      return *this;
    } else if constexpr (is_vector<T>::value) {
      T out;
      for (const Value& item : *this) out.push_back(item.get<typename T::value_type>());
      return out;
    } else {
      static_assert(std::is_arithmetic_v<T>, "get<T>: a boolean, a number, a string, a vector of them, or a Value");
      switch (type_) {
        case value_t::boolean: return static_cast<T>(data_.boolean);
        case value_t::number_integer: return static_cast<T>(data_.integer);
        case value_t::number_unsigned: return static_cast<T>(data_.unsigned_integer);
        case value_t::number_float: return static_cast<T>(data_.number);
        default: return T();
      }
    }
  }
  // The string, array or object itself (const std::string&, array_t&, object_t&); ask first.
  template <class Ref>
  Ref get_ref() const {
    using T = std::remove_cv_t<std::remove_reference_t<Ref>>;
    if constexpr (std::is_same_v<T, std::string>) return *data_.string;
    else if constexpr (std::is_same_v<T, array_t>) return *data_.array;
    else return *data_.object;
  }
  template <class Ref>
  Ref get_ref() {
    using T = std::remove_cv_t<std::remove_reference_t<Ref>>;
    if constexpr (std::is_same_v<T, std::string>) return *data_.string;
    else if constexpr (std::is_same_v<T, array_t>) return *data_.array;
    else return *data_.object;
  }

  // As nlohmann counts: null 0, a scalar 1, a container its elements.
  std::size_t size() const;
  bool empty() const { return size() == 0; }

  // An array's item (a null value becomes an array; the array grows to `index` + 1).
  Value& operator[](std::size_t index);
  const Value& operator[](std::size_t index) const { return (*data_.array)[index]; }
  // An object's member, added as null if absent (a null value becomes an object).
  Value& operator[](std::string_view key);
  template <class Char>  // a template, so that v[0] means an index, not a null key
  Value& operator[](Char* key) {
    return (*this)[std::string_view(key)];
  }
  // An object's member, or a null value if absent.
  const Value& operator[](std::string_view key) const;
  template <class Char>
  const Value& operator[](Char* key) const {
    return (*this)[std::string_view(key)];
  }
  const Value& front() const { return *begin(); }
  const Value& back() const { return is_object() ? data_.object->back().second : data_.array->back(); }
  Value& back() {  // NOLINT(readability-make-member-function-const): see begin()
    return is_object() ? data_.object->back().second : data_.array->back();
  }

  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  // An object's members, for `for (const auto& [key, member] : v.items())` (none if it is not one).
  const object_t& items() const;

  iterator find(std::string_view key);
  const_iterator find(std::string_view key) const;
  bool contains(std::string_view key) const { return is_object() && find(key) != end(); }
  std::size_t count(std::string_view key) const { return contains(key) ? 1 : 0; }
  // The member `key` as a T, or `fallback` when absent (or this is not an object).
  template <class T>
  T value(std::string_view key, const T& fallback) const {
    const_iterator it = find(key);
    return it == end() ? fallback : it->get<T>();
  }
  std::string value(std::string_view key, const char* fallback) const { return value<std::string>(key, fallback); }
  // This object with the member `key` set to `value` (appended, or replaced in its place), for
  // building a record member by member: Json::object().with("to", to).with("when", when). Smaller
  // code than an initializer list, which makes and frees a [key, value] array per member.
  Value& with(std::string_view key, Value value) &;
  Value&& with(std::string_view key, Value value) && { return std::move(with(key, std::move(value))); }
  // Removes the member `key`; how many were removed.
  std::size_t erase(std::string_view key);
  // Removes the member or item at `at`; the iterator to what followed it.
  iterator erase(iterator at);

  // Appends to an array (a null value becomes one).
  void push_back(Value item);
  template <class... Args>
  Value& emplace_back(Args&&... args) {
    push_back(Value(std::forward<Args>(args)...));
    return back();
  }

  // nlohmann's ==: numbers by value whatever their kind, containers element by element.
  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }
  // Whether this is the string `text` (status == "ready"), without making a value of the text;
  // null only equals null.
  friend bool operator==(const Value& a, std::string_view text) { return a.is_string() && *a.data_.string == text; }
  friend bool operator==(const Value& a, const char* text) { return a == std::string_view(text); }
  friend bool operator==(const Value& a, const std::string& text) { return a == std::string_view(text); }
  friend bool operator==(const Value& a, std::nullptr_t) { return a.is_null(); }
  friend bool operator!=(const Value& a, std::string_view text) { return !(a == text); }
  friend bool operator!=(const Value& a, const char* text) { return !(a == std::string_view(text)); }
  friend bool operator!=(const Value& a, const std::string& text) { return !(a == std::string_view(text)); }
  friend bool operator!=(const Value& a, std::nullptr_t) { return !a.is_null(); }

  // The compact text core::dump_json writes (the arguments are nlohmann's; only compact output).
  enum class error_handler_t { strict, replace, ignore };
  std::string dump(int indent = -1, char = ' ', bool = false, error_handler_t = error_handler_t::replace) const;

 private:
  template <class T>
  struct is_vector : std::false_type {};
  template <class T>
  struct is_vector<std::vector<T>> : std::true_type {};

  void release() noexcept;
  friend void release_nested(Value& value) noexcept;

  value_t type_ = value_t::null;
  union Data {
    bool boolean;
    std::int64_t integer;
    std::uint64_t unsigned_integer;
    double number;
    std::string* string;
    array_t* array;
    object_t* object;
  } data_;
};

}  // namespace handoff::json
