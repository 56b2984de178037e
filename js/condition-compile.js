// @ts-check
// Standalone conditions through raw exports (wasm/route_exports.cpp): compileCondition() costs the
// parse and little more. `module` is the Emscripten module; its `_hg_*` functions become the raw
// exports after their first call, so they are looked up on each use.
import { writeUtf8 } from './utf8.js';

/**
 * @import { PathSteps } from './machine/definition.js'
 * @import { WasmModule } from './runtime.js'
 */

const decoder = new TextDecoder();

/**
 * The core's answer at `result`: [index, text address, text length] words.
 * @param {WasmModule} module
 * @param {number} result
 * @returns {{ index: number, text: string }}
 */
function text(module, result) {
  const words = new Uint32Array(module.HEAPU8.buffer, result, 3);
  return { index: words[0], text: decoder.decode(module.HEAPU8.subarray(words[1], words[1] + words[2])) };
}

/**
 * Compiles `source` (well-formed); returns the condition's address, or { index, message }.
 * @param {WasmModule} module
 * @param {string} source
 * @returns {number | { index: number, message: string }}
 */
export function compileStandalone(module, source) {
  const room = source.length * 3;
  const at = module._hg_source_reserve(room);
  // Read after the reserve, which may have grown memory (detaching older views).
  const written = writeUtf8(source, module.HEAPU8, at, at + room);
  const address = module._hg_condition_new(written);
  if (address !== 0) return address;
  const { index, text: message } = text(module, module._hg_compile_error());
  return { index, message };
}

/**
 * What evaluating a standalone condition needs: its paths' steps and texts, and its strings.
 * @param {WasmModule} module
 * @param {number} address
 * @returns {{ paths: PathSteps[], texts: string[], strings: string[], levels: number[] }}
 */
export function describeStandalone(module, address) {
  return JSON.parse(text(module, module._hg_condition_describe(address)).text);
}

/**
 * Per route path of graph node `id` at `address`: how much text the core reads (PathReaders).
 * @param {WasmModule} module
 * @param {number} address
 * @param {number} id
 * @param {number} count
 * @returns {number[]}
 */
export function nodeTextLevels(module, address, id, count) {
  const at = module._hg_node_text_levels(address, id);
  return Array.from(module.HEAPU8.subarray(at, at + count));
}

/** Frees a standalone condition; the shape FinalizationRegistry's callback expects. */
export class StandaloneHandle {
  /**
   * @param {WasmModule} module
   * @param {number} address
   */
  constructor(module, address) {
    this.module = module;
    this.address = address;
  }

  delete() {
    this.module._hg_condition_delete(this.address);
  }
}
