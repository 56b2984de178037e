#include "condition/value.h"

namespace handoff::condition {

namespace {

// A few strings (a condition's own table, a small graph's) are found by comparing them in turn,
// which costs less than hashing and spares the map's allocations on every compileCondition();
// the map is built when the table outgrows this.
constexpr std::uint32_t kLinearStrings = 8;

}  // namespace

std::uint32_t Interner::intern(std::string_view text) {
  if (std::uint32_t known = find(text); known != kNoId) return known;
  auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(std::make_unique<const std::string>(text));
  // All strings so far when the index is built, the new one after that.
  if (id >= kLinearStrings) {
    for (std::uint32_t i = id == kLinearStrings ? 0 : id; i <= id; ++i) ids_.insert(*strings_[i], i, &strings_, key_of);
  }
  return id;
}

std::uint32_t Interner::find(std::string_view text) const {
  if (strings_.size() > kLinearStrings) {
    std::uint32_t id = ids_.find(text, &strings_, key_of);
    return id == StringIndex::kAbsent ? kNoId : id;
  }
  for (std::uint32_t id = 0; id < strings_.size(); ++id) {
    if (*strings_[id] == text) return id;
  }
  return kNoId;
}

std::uint32_t TapeBuilder::add_number(double d) {
  Cell c{static_cast<std::uint32_t>(Kind::Number), 0, {0, 0}};
  std::memcpy(c.w, &d, sizeof d);
  return add(c);
}

std::uint32_t TapeBuilder::add_string(std::string_view text, std::uint32_t id) {
  Cell c{static_cast<std::uint32_t>(Kind::String), id,
         {static_cast<std::uint32_t>(bytes_.size()), static_cast<std::uint32_t>(text.size())}};
  bytes_.append(text);
  return add(c);
}

std::uint32_t TapeBuilder::begin_container(Kind kind) {
  return add({static_cast<std::uint32_t>(kind), 0, {1, 0}});
}

void TapeBuilder::end_container(std::uint32_t index, std::uint32_t count) {
  cells_[index].a = count;
  cells_[index].w[0] = size() - index;
}

std::uint32_t TapeBuilder::add_truncated(Kind kind, std::uint32_t count) {
  return add({static_cast<std::uint32_t>(kind) | kTruncated, count, {1, 0}});
}

}  // namespace handoff::condition
