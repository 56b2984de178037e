// What the full module's Emscripten glue provides (CMakeLists.txt: --js-library).
// hg_js_number is wasm/router_libc.cpp's strtod, which the full module links as the routing module
// does (issue 21: musl's strtod and printf are about 21 KB): Number() over the digits a grammar
// accepted, exact as strtod is (ECMA-262 rounds to nearest).
mergeInto(LibraryManager.library, {
  hg_js_number: function (at, length) {
    return Number(UTF8ToString(at, length));
  },
});
