// What the full module's Emscripten glue provides beyond embind's own (CMakeLists.txt: --js-library).
//  * hg_js_number is wasm/router_libc.cpp's strtod, which the full module links as the routing
//    module does (issue 21: musl's strtod and printf are about 21 KB): Number() over the digits a
//    grammar accepted, exact as strtod is (ECMA-262 rounds to nearest).
//  * embind registers std::wstring and the typed memory views for every module; the bindings use
//    neither, so their registrations are no-ops here, which leaves their converters (UTF-16 and
//    UTF-32 codecs, about 0.6 KB gzipped) out of the glue. Binding either would fail loudly
//    (UnboundTypeError), not silently.
mergeInto(LibraryManager.library, {
  hg_js_number: function (at, length) {
    return Number(UTF8ToString(at, length));
  },
  _embind_register_std_wstring: function () {},
  _embind_register_memory_view: function () {},
});
