// @ts-check
// The full module's side of the platform entries (node.js, browser.js, inline.js): instantiates
// dist/handoff-graph.wasm through its loader (dist/handoff-graph.mjs, em++'s output) and holds the
// raw exports of a state machine's step. Kept out of js/runtime.js, which the routing entry
// shares, so that handoff-graph/router's bundle carries none of it.
import { Branch, BranchesHeader, StepInfo } from './contract.js';
import { instantiate } from './runtime.js';

/**
 * `instantiate(wasmModule)` for makeInit: the full module, through `createModule` (its loader).
 * @param {unknown} createModule em++'s loader (dist/handoff-graph.mjs's default export)
 */
export function instantiateFull(createModule) {
  return (/** @type {WebAssembly.Module} */ wasmModule) => instantiate(createModule, wasmModule);
}

/** @typedef {ReturnType<typeof machineRuntime>} MachineRuntime the state machines' part of the runtime (js/runtime.js Runtime) */

// The Emscripten module's raw exports are untyped (no declarations are generated for them).
/**
 * What the full module's runtime has beyond the routing module's: the state machines' exports.
 * @param {any} module the instantiated Emscripten module
 */
function machineRuntime(module) {
  const infoAddress = module._hg_exec_info() >>> 2;
  let info = new Int32Array(module.HEAPU8.buffer, infoAddress * 4, StepInfo.length);
  return {
    execBegin: module._hg_exec_begin,
    execComplete: module._hg_exec_complete,
    execVerdict: module._hg_exec_verdict,
    execItems: module._hg_exec_items,
    // The fan-out step's branches: a copy of the words hg_exec_branches points at (contract.js
    // BranchesHeader, then Branch records), or null.
    /** @param {number} address */
    execBranches(address) {
      const at = module._hg_exec_branches(address) >>> 2;
      if (at === 0) return null;
      const heap = new Int32Array(module.HEAPU8.buffer);
      const count = heap[at + BranchesHeader.count];
      return heap.slice(at, at + BranchesHeader.length + count * Branch.length);
    },
    // What the last execBegin/execComplete did: int32 words laid out as contract.js StepInfo.
    execInfo() {
      if (info.length === 0) info = new Int32Array(module.HEAPU8.buffer, infoAddress * 4, StepInfo.length);
      return info;
    },
  };
}

/**
 * The full entries' part of makeInit's platform (js/runtime.js): the runtime's machine exports,
 * and the error for an init() after handoff-graph/router's.
 */
export const fullPlatform = {
  extend: machineRuntime,
  afterRouter: () =>
    new Error(
      "handoff-graph: handoff-graph/router was initialized first, with the routing module, which has no state machines, " +
        "swarms or exports; call the init() of 'handoff-graph' before the router's (the full module serves both), " +
        "or import everything from 'handoff-graph'",
    ),
};
