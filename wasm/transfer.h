// The transfer area both WebAssembly modules share the layout of (src/core/contract.h): the cells,
// string bytes and slot starts JavaScript writes a route's values into (js/state-writer.js), grown on
// request and never shrunk, and the slot views the core's route reads them through: all written
// before the call (Area::slot_values, a state machine's step), or each when the route first needs
// it (LazySlots: routes, evaluations, explain()).
// wasm/route_exports.cpp owns the area; both modules link it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <new>
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

// js/state-writer.js StateWriter.readSlot: writes the value at the current call's path `slot` into the
// transfer area after the cells written so far and returns its first cell. It runs user code (a
// getter, a Proxy trap), which may route or evaluate meanwhile (a nested call: StateWriter saves
// and restores the outer call's cells around it) and may grow memory and move the area.
extern "C" __attribute__((import_module("env"), import_name("hg_js_read_slot"))) std::uint32_t hg_js_read_slot(std::uint32_t slot);

// The slots of one lazy route or evaluation (condition::SlotReader), on the caller's stack so that
// a nested call has its own: every slot unread, except `first`, which JS wrote before the call
// from cell 0 (the slot the core reads first whatever the values, Condition::first_read).
class LazySlots final : public condition::SlotReader {
 public:
  // Inlined: the routing module, compiled for size, otherwise calls it, once per route.
  [[gnu::always_inline]] LazySlots(const Area& area, const condition::Interner& strings, std::size_t count, std::uint32_t first,
                                   std::uint32_t cell_count)
      : area_(area), tape_{area.cells.data(), cell_count, area.bytes.data(), &strings} {
    if (count > kInline) {
      spill_.resize(count);
      refs_ = spill_.data();
    } else {
      // Only the slots the route has, unread: zeroing all of the room (a memset call) cost a
      // one-path route more than the rest of its WebAssembly.
      refs_ = reinterpret_cast<condition::ValueRef*>(inline_);
      for (std::size_t i = 0; i < count; ++i) new (&refs_[i]) condition::ValueRef();
    }
    if (first < count) refs_[first] = condition::ValueRef(&tape_, 0);
  }
  [[gnu::always_inline]] ~LazySlots() = default;
  LazySlots(const LazySlots&) = delete;
  LazySlots& operator=(const LazySlots&) = delete;

  const condition::ValueRef* slots() const { return refs_; }

  // Asks for each of the first `count` slots not read yet, in order: explain() reads the whole
  // state, as a route that tried every edge would (hg_graph_explain).
  void read_all(std::size_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (refs_[i].unread()) read(i);
    }
  }

  condition::ValueRef read(std::uint32_t slot) override {
    std::uint32_t cell = hg_js_read_slot(slot);
    // The area may have moved (memory grown, or reserved anew by a nested call's writer).
    tape_.cells = area_.cells.data();
    tape_.bytes = area_.bytes.data();
    tape_.size = static_cast<std::uint32_t>(area_.cells.size());
    refs_[slot] = condition::ValueRef(&tape_, cell);
    return refs_[slot];
  }

 private:
  const Area& area_;
  condition::TapeView tape_;
  static constexpr std::size_t kInline = 8;
  alignas(condition::ValueRef) std::byte inline_[kInline * sizeof(condition::ValueRef)];
  std::vector<condition::ValueRef> spill_;
  condition::ValueRef* refs_ = nullptr;
};

}  // namespace handoff::transfer
