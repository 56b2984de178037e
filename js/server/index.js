// @ts-check
// handoff-graph/server in Node: the Fetch-API handler and serve() on node:http (docs/server.md).
export { createChatHandler, createHandler } from './handler.js';
export { DEFAULT_LIMITS } from './handler-options.js';
export { serve } from './node.js';

/**
 * @typedef {import('./handler-options.js').HandlerOptions} HandlerOptions
 * @typedef {import('./handler-options.js').ChatHandlerOptions} ChatHandlerOptions
 * @typedef {import('./handler-options.js').LeasedSessionStore} LeasedSessionStore
 * @typedef {import('./handler-options.js').ServerLimits} ServerLimits
 * @typedef {import('./handler-options.js').ServerModel} ServerModel
 * @typedef {import('./handler-options.js').ServerModelRequest} ServerModelRequest
 * @typedef {import('./handler-options.js').ServerError} ServerError
 * @typedef {import('./chat.js').ChatDataParts} ChatDataParts
 * @typedef {import('./chat.js').ChatMessageMetadata} ChatMessageMetadata
 * @typedef {import('./node.js').ServeOptions} ServeOptions
 * @typedef {import('./node.js').RunningServer} RunningServer
 */
