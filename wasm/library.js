// The one function both WebAssembly modules import from JavaScript (em++ --js-library): a lazy
// route's read of a path's value (wasm/transfer.h LazySlots), answered by the js/marshal.js
// StateWriter that js/runtime.js passes to the module factory as `slotReader`.
mergeInto(LibraryManager.library, {
  hg_js_read_slot: function (slot) {
    return Module['slotReader'].readSlot(slot);
  },
});
