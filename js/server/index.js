// @ts-check
// handoff-graph/server in Node: the Fetch-API handler and serve() on node:http (docs/server.md).
export { createChatHandler, createHandler, DEFAULT_LIMITS } from './handler.js';
export { serve } from './node.js';
