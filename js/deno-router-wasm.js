// The routing module for Deno (js/router-deno.js), imported as js/deno-wasm.js imports the full one.
import source handoffGraphRouter from '../dist/handoff-graph-router.wasm';

export default handoffGraphRouter;
