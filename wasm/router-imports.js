// The imports of the routing module that js/router-native.js provides, declared so that em++
// accepts them (it writes no glue for the standalone module, so this body never runs):
// hg_js_read_slot is js/marshal.js StateWriter.readSlot, a lazy route's read (wasm/transfer.h).
mergeInto(LibraryManager.library, {
  hg_js_read_slot: function () {},
});
