// @ts-check
// handoff-graph/server in Node: the Fetch-API handler and serve() on node:http (docs/server.md).
export { createChatHandler, createHandler, DEFAULT_LIMITS } from './handler.js';
export { serve } from './node.js';

/**
 * @typedef {import('./handler.js').HandlerOptions} HandlerOptions
 * @typedef {import('./handler.js').ChatHandlerOptions} ChatHandlerOptions
 * @typedef {import('./handler.js').LeasedSessionStore} LeasedSessionStore
 * @typedef {import('./handler.js').ServerLimits} ServerLimits
 * @typedef {import('./handler.js').ServerModel} ServerModel
 * @typedef {import('./handler.js').ServerModelRequest} ServerModelRequest
 * @typedef {import('./handler.js').ServerError} ServerError
 * @typedef {import('./chat.js').ChatDataParts} ChatDataParts
 * @typedef {import('./chat.js').ChatMessageMetadata} ChatMessageMetadata
 * @typedef {import('./node.js').ServeOptions} ServeOptions
 * @typedef {import('./node.js').RunningServer} RunningServer
 */
