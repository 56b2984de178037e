// The calls into either WebAssembly module over its raw exports (wasm/bindings.cpp and
// wasm/router.cpp share this ABI): strings go in as UTF-8 that JS writes into the module's text
// area (hg_text_reserve) and passes as (offset, length) pairs; an answer that is not a number
// comes back as JSON text in the module's reply buffer (hg_reply), its length returned by the
// call, 0 meaning null. The reply belongs to the module and the next call overwrites it, so it is
// decoded at once: callers get a copy, never a view. `module` is a loaded module as js/runtime.js
// holds it: its exports as `_hg_*` and `HEAPU8`.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The text calls over a loaded module (`HEAPU8` and the `_hg_*` exports of the Emscripten glue).
 * @param {Record<string, any>} module
 */
export function textCalls(module) {
  /**
   * Writes `texts` into the text area; returns [offset, length] for each, flattened.
   * @param {...string} texts
   * @returns {number[]}
   */
  function put(...texts) {
    let worst = 1;
    for (const t of texts) worst += t.length * 3;
    // Reserving may grow memory, so the view is made after it.
    const base = module._hg_text_reserve(worst) >>> 0;
    const area = new Uint8Array(module.HEAPU8.buffer, base, worst);
    const out = [];
    let at = 0;
    for (const t of texts) {
      const { written } = encoder.encodeInto(t, area.subarray(at));
      out.push(at, written);
      at += written;
    }
    return out;
  }
  /** @param {number} length */
  const replyText = (length) => decoder.decode(new Uint8Array(module.HEAPU8.buffer, module._hg_reply() >>> 0, length >>> 0));
  /** @param {number} length */
  const reply = (length) => JSON.parse(replyText(length));
  /** @param {number} length */
  const orNull = (length) => (length === 0 ? null : reply(length));
  return { put, replyText, reply, orNull };
}

/**
 * The HandoffGraph class over the hg_graph_* exports of either module (wasm/bindings.cpp,
 * wasm/router.cpp; the route itself is hg_route). The routing module has no exports (drawings).
 * @param {Record<string, any>} module
 */
export function graphClass(module) {
  const { put, replyText, reply, orNull } = textCalls(module);
  return class HandoffGraph {
    #at;
    /** @param {boolean} allowCycles */
    constructor(allowCycles) {
      this.#at = module._hg_graph_new(allowCycles ? 1 : 0);
    }
    address() { return this.#at; }
    /** @param {string} id @param {string} description */
    addNode(id, description) { return orNull(module._hg_graph_add_node(this.#at, ...put(id, description))); }
    /** @param {string} from @param {string} to @param {boolean} conditional @param {string} when @param {string} description */
    addEdge(from, to, conditional, when, description) {
      const [f, fl, t, tl, w, wl, d, dl] = put(from, to, when, description);
      return orNull(module._hg_graph_add_edge(this.#at, f, fl, t, tl, conditional ? 1 : 0, w, wl, d, dl));
    }
    /** @param {string} id */
    find(id) { return module._hg_graph_find(this.#at, ...put(id)); }
    /** @param {number} node */
    outEdges(node) { return reply(module._hg_graph_out_edges(this.#at, node)); }
    /** @param {number} node */
    routePaths(node) { return reply(module._hg_graph_route_paths(this.#at, node)); }
    nodeNames() { return reply(module._hg_graph_node_names(this.#at)); }
    allowsCycles() { return module._hg_graph_allows_cycles(this.#at) !== 0; }
    size() { return module._hg_graph_size(this.#at) >>> 0; }
    isDag() { return module._hg_graph_is_dag(this.#at) !== 0; }
    /** @param {number} from */
    stringsSince(from) { return reply(module._hg_graph_strings_since(this.#at, from)); }
    /** @param {number} node @param {number} cells @param {number} first */
    explain(node, cells, first) { return reply(module._hg_graph_explain(this.#at, node, cells, first)); }
    toJSON() { return replyText(module._hg_graph_to_json(this.#at)); }
    /** @param {string} text */
    loadJSON(text) { return orNull(module._hg_graph_load_json(this.#at, ...put(text))); }
    /** @param {string} trace @param {string} format @param {string} kind @param {string} direction @param {string} generatedAt */
    export(trace, format, kind, direction, generatedAt) {
      if (module._hg_graph_export === undefined) {
        throw new Error("handoff-graph/router has no exports (toDag, toMermaid, toDot): import them from 'handoff-graph'");
      }
      return reply(module._hg_graph_export(this.#at, ...put(trace, format, kind, direction, generatedAt)));
    }
    delete() {
      if (this.#at !== 0) module._hg_graph_delete(this.#at);
      this.#at = 0;
    }
  };
}
