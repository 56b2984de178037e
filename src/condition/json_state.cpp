#include "condition/json_state.h"

#include "condition/limits.h"

namespace handoff::condition {

const Json* resolve(const Json& state, const Path& path) {
  const Json* current = &state;
  for (const PathStep& step : path.steps) {
    if (current->is_object()) {
      auto it = current->find(step.key);
      if (it == current->end()) return nullptr;
      current = &*it;
    } else if (current->is_array() && step.is_index) {
      auto size = static_cast<std::int64_t>(current->size());
      std::int64_t i = step.index < 0 ? step.index + size : step.index;
      if (i < 0 || i >= size) return nullptr;
      current = &(*current)[static_cast<std::size_t>(i)];
    } else {
      return nullptr;
    }
  }
  return current;
}

void JsonStateWriter::write(const Json& state, const std::vector<Path>& paths) {
  tape_.clear();
  exhausted_ = false;
  work_ = 0;
  std::vector<std::uint32_t> cells;
  cells.reserve(paths.size());
  for (const Path& path : paths) cells.push_back(write_path(state, path));
  view_ = tape_.view(&strings_);
  slots_.clear();
  for (std::uint32_t cell : cells) slots_.emplace_back(&view_, cell);
}

void JsonStateWriter::begin(const Json& state, const std::vector<Path>& paths) {
  tape_.clear();
  exhausted_ = false;
  work_ = 0;
  state_ = &state;
  paths_ = &paths;
  view_ = tape_.view(&strings_);
  slots_.assign(paths.size(), ValueRef());
}

ValueRef JsonStateWriter::read(std::uint32_t slot) {
  std::uint32_t cell = write_path(*state_, (*paths_)[slot]);
  view_ = tape_.view(&strings_);  // the cells may have moved; every ValueRef reads through view_
  slots_[slot] = ValueRef(&view_, cell);
  return slots_[slot];
}

std::uint32_t JsonStateWriter::write_path(const Json& state, const Path& path) {
  path_start_ = tape_.size();
  static const Json kMissing;  // null
  const Json* value = resolve(state, path);
  write_value(value == nullptr ? kMissing : *value, 0);
  return path_start_;
}

// Containers deeper than any comparison looks, or larger than the budgets in limits.h, keep only
// their size (enough for truthiness) and compare unequal to everything. A path's value that
// outgrows kMaxStateCells is cut as a whole, and the next path starts afresh; kMaxMarshalWork
// counts every cell ever written, cut ones included. js/state-writer.js applies the same rules.
void JsonStateWriter::write_value(const Json& value, int depth) {
  ++work_;
  switch (value.type()) {
    case Json::value_t::boolean: tape_.add_bool(value.get<bool>()); return;
    case Json::value_t::number_integer: tape_.add_number(static_cast<double>(value.get<std::int64_t>())); return;
    case Json::value_t::number_unsigned: tape_.add_number(static_cast<double>(value.get<std::uint64_t>())); return;
    case Json::value_t::number_float: tape_.add_number(value.get<double>()); return;
    case Json::value_t::string: {
      const auto& text = value.get_ref<const std::string&>();
      std::uint32_t id = strings_.find(text);
      tape_.add_string(text, id == kNoId ? kUninterned : id);
      return;
    }
    case Json::value_t::array:
    case Json::value_t::object: {
      Kind kind = value.is_array() ? Kind::Array : Kind::Object;
      auto count = static_cast<std::uint32_t>(value.size());
      if (depth > kMaxCompareDepth || work_ > kMaxMarshalWork) {
        tape_.add_truncated(kind, count);
        return;
      }
      std::uint32_t start = tape_.begin_container(kind);
      for (auto it = value.begin(); it != value.end() && !exhausted_; ++it) {
        if (kind == Kind::Object) {
          ++work_;
          std::uint32_t id = strings_.find(it.key());
          tape_.add_string(it.key(), id == kNoId ? kUninterned : id);
        }
        write_value(*it, depth + 1);
        if (tape_.size() - path_start_ > kMaxStateCells || work_ > kMaxMarshalWork) exhausted_ = true;
      }
      if (exhausted_) {
        tape_.truncate(start);
        tape_.add_truncated(kind, count);
        if (depth == 0) exhausted_ = false;  // only this path's value is cut
      } else {
        tape_.end_container(start, count);
      }
      return;
    }
    default: tape_.add_null(); return;  // null, and the binary/discarded kinds JSON text never produces
  }
}

bool evaluate(const Condition& condition, const Json& state, const Interner& strings) {
  JsonStateWriter writer(strings);
  writer.begin(state, condition.paths());
  return condition.evaluate(writer.slots().data(), &writer);
}

}  // namespace handoff::condition
