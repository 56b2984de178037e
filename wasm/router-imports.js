// The imports of the routing module that js/router-native.js provides, declared so that em++
// accepts them (it writes no glue for the standalone module, so these bodies never run):
// hg_js_number is wasm/router_libc.cpp's strtod, Number() over the digits a grammar accepted;
// hg_js_read_slot is js/marshal.js StateWriter.readSlot, a lazy route's read (wasm/transfer.h).
mergeInto(LibraryManager.library, {
  hg_js_number: function () {},
  hg_js_read_slot: function () {},
});
