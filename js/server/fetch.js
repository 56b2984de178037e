// @ts-check
// handoff-graph/server outside Node (Deno, Bun, workers, bundlers for the browser): the Fetch-API
// handler only. Hand createHandler(...) to the runtime's own server (Deno.serve(handler),
// `export default { fetch: handler }`); serve() is the node:http adapter and is not here.
export { createChatHandler, createHandler } from './handler.js';
export { DEFAULT_LIMITS } from './handler-options.js';

export function serve() {
  throw new Error("serve() runs on node:http and this runtime resolved 'handoff-graph/server' without the 'node' condition: pass createHandler(...) to the runtime's own server instead (Deno.serve(handler), export default { fetch: handler })");
}
