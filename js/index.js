// @ts-check
// The package's declarations are emitted from this file (dist/index.d.ts, which package.json's
// exports give every condition of 'handoff-graph' and of 'handoff-graph/inline'): the Node entry,
// whose names every entry exports (js/browser.js, js/deno.js, js/inline.js), and the shapes
// (js/types.d.ts). No entry imports it; docs/architecture.md#typings says why it exists.
export * from './node.js';
export * from './types.js';
