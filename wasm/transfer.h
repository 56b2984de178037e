// The transfer area both WebAssembly modules share the layout of (src/core/contract.h): the cells,
// string bytes and slot starts JavaScript writes a route's values into (js/marshal.js), grown on
// request and never shrunk, and the slot views the core's route reads them through.
// wasm/router.cpp uses it; wasm/bindings.cpp holds the same code inline (to be folded into this
// header when the route-path work on bindings.cpp has merged).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "condition/value.h"
#include "core/contract.h"

namespace handoff::transfer {

struct Area {
  std::vector<condition::Cell> cells;
  std::vector<char> bytes;
  std::vector<std::uint32_t> slots;
  contract::TransferHeader header = {};
  condition::TapeView tape;
  std::vector<condition::ValueRef> refs;

  template <class T>
  static void grow(std::vector<T>& v, std::uint32_t wanted) {
    if (v.size() < wanted) v.resize(std::max<std::size_t>(wanted, v.size() * 2));
  }

  // Makes room for at least the given numbers (contents are kept); returns where everything is now.
  const contract::TransferHeader* reserve(std::uint32_t cell_count, std::uint32_t byte_count, std::uint32_t slot_count) {
    grow(cells, cell_count);
    grow(bytes, byte_count);
    grow(slots, slot_count);
    auto address = [](const void* p) { return static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(p)); };
    auto count = [](std::size_t n) { return static_cast<std::int32_t>(n); };
    header = {address(cells.data()), address(bytes.data()), address(slots.data()),
              count(cells.size()),   count(bytes.size()),   count(slots.size())};
    return &header;
  }

  // The values JS wrote, as the slots of a route: slot i starts at the cell in slots[i].
  const condition::ValueRef* slot_values(const condition::Interner& strings, std::uint32_t cell_count, std::size_t slot_count) {
    tape = {cells.data(), cell_count, bytes.data(), &strings};
    refs.clear();
    for (std::size_t i = 0; i < slot_count; ++i) refs.emplace_back(&tape, slots[i]);
    return refs.data();
  }
};

}  // namespace handoff::transfer
