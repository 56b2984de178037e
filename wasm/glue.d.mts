// The full module's loader (wasm/glue.mjs, shipped as dist/handoff-graph.mjs) as js/ uses it: a
// factory that takes the instantiateWasm hook and resolves the module with its raw exports
// (js/full-native.js makes classes of them). scripts/build.sh copies this file beside the loader
// as dist/handoff-graph.d.mts.
export interface GlueOptions {
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}
declare function createHandoffGraphModule(options: GlueOptions): Promise<any>;
export default createHandoffGraphModule;
/** The .wasm beside the loader, or null where there is no import.meta.url. */
export declare function wasmLocation(): URL | null;
