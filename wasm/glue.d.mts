// The types of the loaders em++ writes for both modules (dist/handoff-graph.mjs and
// dist/handoff-graph-router.mjs, each beside its .wasm; scripts/build.sh copies this file beside
// each as its .d.mts): a factory that takes the instantiateWasm hook (js/runtime.js compiles the
// module itself, for every runtime) and resolves with the module: its embind classes and
// functions, its raw exports as `_name`, and setSlotReader (wasm/library.js).
export interface ModuleOptions {
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}
declare function createModule(options: ModuleOptions): Promise<any>;
export default createModule;
/** The .wasm beside the loader, or null where there is no import.meta.url (the full module's loader only). */
export declare function wasmLocation(): URL | null;
