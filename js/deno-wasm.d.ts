// Only Deno loads the .js beside this file (an `import source` of a .wasm): a compiled module.
declare const wasmModule: WebAssembly.Module;
export default wasmModule;
