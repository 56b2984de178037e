// The entry for `require('handoff-graph')` in Node. Where Node can require an ES module (20.19+,
// 22.12+) this hands out js/node.js itself, the very module `import` loads, so a process that
// does both has one runtime: one init() serves both, and errors are instanceof across them
// (docs/architecture.md, "One runtime per process"). Older Nodes get dist/index.cjs, the same
// source bundled as CommonJS: it works, but as a second runtime with its own init().
'use strict';

try {
  module.exports = require('./node.js');
} catch (error) {
  if (error === null || typeof error !== 'object' || error.code !== 'ERR_REQUIRE_ESM') throw error;
  module.exports = require('../dist/index.cjs');
}
