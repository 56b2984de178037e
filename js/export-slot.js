// @ts-check
// Where js/api.js finds the export renderers' JavaScript (js/export.js: option checks, traces).
// The routing entry (handoff-graph/router) cannot render (its module has no renderers), so it does
// not carry that code: only the full entries (js/browser.js, js/node.js, js/inline.js) install it,
// when they load. Without it, or on the routing module, a HandoffGraph's export throws the error
// that names the entry to import instead.
import { requireRuntime } from './runtime.js';

/** @type {null | ((native: any, format: 'dag' | 'mermaid' | 'dot', options: object) => string)} */
let installed = null;

/**
 * Called once by each full entry with js/export.js's exportOf.
 * @param {(native: any, format: 'dag' | 'mermaid' | 'dot', options: object) => string} exportOf
 */
export function installExportOf(exportOf) {
  installed = exportOf;
}

/**
 * The graph `native` rendered by js/export.js's exportOf, through the full module's exportGraph.
 * @param {unknown} native the core's graph (an embind object)
 * @param {'dag' | 'mermaid' | 'dot'} format
 * @param {object} options
 * @returns {string}
 */
export function exportGraph(native, format, options) {
  const { module } = requireRuntime();
  if (installed === null || module.exportGraph === undefined) {
    throw new Error("handoff-graph/router has no exports (toDag, toMermaid, toDot): import them from 'handoff-graph'");
  }
  return installed({ export: (/** @type {unknown[]} */ ...args) => module.exportGraph(native, ...args) }, format, options);
}
