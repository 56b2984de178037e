// Where js/api.js finds the export renderers' JavaScript (js/export.js: option checks, traces).
// The routing entry (handoff-graph/router) cannot render (its module has no renderers), so it does
// not carry that code: only the full entries (js/browser.js, js/node.js, js/inline.js) install it,
// when they load. Until then a HandoffGraph's export goes straight to its module, which on the
// routing module throws the error that names the entry to import instead.

/** @type {null | ((native: any, format: 'dag' | 'mermaid' | 'dot', options: object) => string)} */
let installed = null;

/** Called once by each full entry with js/export.js's exportOf. */
export function installExportOf(exportOf) {
  installed = exportOf;
}

/** js/export.js's exportOf when a full entry has loaded; otherwise the module's own answer. */
export function exportGraph(native, format, options) {
  if (installed === null) return native.export();
  return installed(native, format, options);
}
