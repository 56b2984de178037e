// The full module for Deno (js/deno.js): a source phase import, which Deno compiles from its module
// graph, as it loads code, so reading it needs no --allow-read. Only Deno loads this file: the
// syntax is newer than the tools that check js/ (tsc reads deno-wasm.d.ts instead).
import source handoffGraph from '../dist/handoff-graph.wasm';

export default handoffGraph;
