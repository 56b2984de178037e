// The entry for `require('handoff-graph/router')` in Node, as js/require.cjs is for the full
// entry: where Node can require an ES module (20.19+, 22.12+) this hands out js/router-node.js
// itself, so that require and import share one runtime and one init(); older Nodes get
// dist/router.cjs, the same source bundled as CommonJS (a second runtime with its own init()).
'use strict';

try {
  module.exports = require('./router-node.js');
} catch (error) {
  if (error === null || typeof error !== 'object' || error.code !== 'ERR_REQUIRE_ESM') throw error;
  module.exports = require('../dist/router.cjs');
}
