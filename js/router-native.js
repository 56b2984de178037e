// The routing module's side of handoff-graph/router: instantiates dist/handoff-graph-router.wasm
// (wasm/router.cpp: raw exports, no Emscripten glue) and presents it as the object js/runtime.js
// loads from the full module's glue: the `_hg_*` raw exports, `HEAPU8`, and a class with the
// embind class's method names (HandoffGraph), so js/api.js runs unchanged on either module.
// Strings go in as UTF-8 in the module's text area; answers that are not numbers come back as
// JSON text in its reply buffer.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The imports the standalone module asks for. `memory()` is the instance's memory, once there is one.
 * hg_js_number is wasm/router_libc.cpp's strtod: the digits a grammar accepted, as Number() reads them.
 */
function imports(memory) {
  return {
    env: {
      // Growth replaces the buffer; js/marshal.js re-reads its views when they are emptied.
      emscripten_notify_memory_growth() {},
      hg_js_number: (at, length) => Number(decoder.decode(new Uint8Array(memory().buffer, at >>> 0, length >>> 0))),
    },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        throw new WebAssembly.RuntimeError(`handoff-graph router module aborted (${code})`);
      },
    },
  };
}

/** Instantiates the compiled routing module; resolves with the glue-shaped object runtime.js takes. */
export async function instantiateRouter(wasmModule) {
  // A compiled Module instantiates to an Instance (not the { module, instance } bytes give).
  /** @type {WebAssembly.Memory} */
  let memory;
  const instance = /** @type {WebAssembly.Instance} */ (/** @type {unknown} */ (await WebAssembly.instantiate(wasmModule, imports(() => memory))));
  const x = /** @type {Record<string, any>} */ (instance.exports);
  memory = x.memory;
  x._initialize();

  // Writes `texts` into the text area; returns [offset, length] for each, flattened.
  function put(...texts) {
    let worst = 0;
    for (const t of texts) worst += t.length * 3;
    const base = x.hg_text_reserve(Math.max(worst, 1));
    const area = new Uint8Array(memory.buffer, base, Math.max(worst, 1));
    const out = [];
    let at = 0;
    for (const t of texts) {
      const { written } = encoder.encodeInto(t, area.subarray(at));
      out.push(at, written);
      at += written;
    }
    return out;
  }
  // Called with the length an export returned, so the reply is read after the call made it.
  const replyText = (length) => decoder.decode(new Uint8Array(memory.buffer, x.hg_reply(), length));
  const reply = (length) => JSON.parse(replyText(length));
  const orNull = (length) => (length === 0 ? null : reply(length));

  class HandoffGraph {
    #at;
    constructor(allowCycles) {
      this.#at = x.hg_graph_new(allowCycles ? 1 : 0);
    }
    address() { return this.#at; }
    addNode(id, description) { return orNull(x.hg_graph_add_node(this.#at, ...put(id, description))); }
    addEdge(from, to, conditional, when, description) {
      const [f, fl, t, tl, w, wl, d, dl] = put(from, to, when, description);
      return orNull(x.hg_graph_add_edge(this.#at, f, fl, t, tl, conditional ? 1 : 0, w, wl, d, dl));
    }
    find(id) { return x.hg_graph_find(this.#at, ...put(id)); }
    outEdges(node) { return reply(x.hg_graph_out_edges(this.#at, node)); }
    routePaths(node) { return reply(x.hg_graph_route_paths(this.#at, node)); }
    nodeNames() { return reply(x.hg_graph_node_names(this.#at)); }
    allowsCycles() { return x.hg_graph_allows_cycles(this.#at) !== 0; }
    size() { return x.hg_graph_size(this.#at) >>> 0; }
    isDag() { return x.hg_graph_is_dag(this.#at) !== 0; }
    stringsSince(from) { return reply(x.hg_graph_strings_since(this.#at, from)); }
    explain(node, cells) { return reply(x.hg_graph_explain(this.#at, node, cells)).map(Boolean); }
    toJSON() { return replyText(x.hg_graph_to_json(this.#at)); }
    loadJSON(text) { return orNull(x.hg_graph_load_json(this.#at, ...put(text))); }
    export() {
      throw new Error("handoff-graph/router has no exports (toDag, toMermaid, toDot): import them from 'handoff-graph'");
    }
    delete() { x.hg_graph_delete(this.#at); }
  }

  // One view per buffer: js/marshal.js reads HEAPU8 several times per compileCondition().
  let heap = new Uint8Array(memory.buffer);
  return {
    HandoffGraph,
    get HEAPU8() {
      if (heap.buffer !== memory.buffer) heap = new Uint8Array(memory.buffer);
      return heap;
    },
    _hg_contract_fingerprint: x.hg_contract_fingerprint,
    _hg_transfer_reserve: x.hg_transfer_reserve,
    _hg_route: x.hg_route,
    _hg_evaluate: x.hg_evaluate,
    _hg_heap_used: x.hg_heap_used,
    // Standalone conditions and a node's text levels (wasm/condition_abi.h), as js/marshal.js calls them.
    _hg_source_reserve: x.hg_source_reserve,
    _hg_condition_new: x.hg_condition_new,
    _hg_compile_error: x.hg_compile_error,
    _hg_condition_describe: x.hg_condition_describe,
    _hg_condition_delete: x.hg_condition_delete,
    _hg_node_text_levels: x.hg_node_text_levels,
  };
}
