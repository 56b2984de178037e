// The one function both WebAssembly modules import from JavaScript (em++ --js-library): a lazy
// route's read of a path's value (wasm/transfer.h LazySlots), answered by the js/state-writer.js
// StateWriter that js/runtime.js hands the module (Module.setSlotReader) once it is up. The reader
// is kept in the loader's own scope, not read from Module on each call: a lazy read is made per
// decision, and Module holds every export.
mergeInto(LibraryManager.library, {
  $slotReader: null,
  $slotReader__postset: "Module['setSlotReader'] = (reader) => { slotReader = reader; };",
  hg_js_read_slot__deps: ['$slotReader'],
  hg_js_read_slot: function (slot) {
    return slotReader.readSlot(slot);
  },
});
