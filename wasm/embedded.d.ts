// What js/inline.js imports the .wasm as: scripts/build.sh bundles it with esbuild's base64 loader
// (--loader:.wasm=base64), so the default export is the module's bytes as base64 text. Read only
// by `tsc -p js`; not part of the package.
declare module '*.wasm' {
  const base64: string;
  export default base64;
}
