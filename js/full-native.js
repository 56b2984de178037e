// The full module's classes that use raw exports instead of embind (issue 21: embind's runtime is
// most of the module's JavaScript glue). Each presents the method names the embind class had, so
// js/swarm.js and the others call it unchanged; js/runtime.js puts them on the loaded module.
//
// The ABI is the routing module's (wasm/router.cpp, js/router-native.js): strings go in as UTF-8
// that JS writes into the module's text area (hg_text_reserve) and passes as (offset, length)
// pairs; an answer that is not a number comes back as JSON text in the module's reply buffer
// (hg_reply), its length returned by the call, 0 meaning null. The reply belongs to the module
// and the next call overwrites it, so it is decoded at once: callers get a copy, never a view.
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
 * The Swarm class over wasm/bindings.cpp's hg_swarm_* exports: JSON text in, JSON text out.
 * @param {Record<string, any>} module
 */
export function swarmClass(module) {
  const { put, replyText, reply, orNull } = textCalls(module);
  return class Swarm {
    #at = module._hg_swarm_new();
    /** @param {string} text */
    load(text) { return orNull(module._hg_swarm_load(this.#at, ...put(text))); }
    toJSON() { return replyText(module._hg_swarm_to_json(this.#at)); }
    start() { return replyText(module._hg_swarm_start(this.#at)); }
    /** @param {string} session @param {string} format */
    tools(session, format) { return replyText(module._hg_swarm_tools(this.#at, ...put(session, format))); }
    /** @param {string} session */
    applyRules(session) { return replyText(module._hg_swarm_apply_rules(this.#at, ...put(session))); }
    /** @param {string} session @param {string} name @param {string} args @param {boolean} approved */
    applyToolCall(session, name, args, approved) {
      return replyText(module._hg_swarm_apply_tool_call(this.#at, ...put(session, name, args), approved ? 1 : 0));
    }
    /** @param {number} edge @param {string} variable @param {string} message */
    refuseHandoff(edge, variable, message) {
      return replyText(module._hg_swarm_refuse_handoff(this.#at, edge, ...put(variable, message)));
    }
    /** @param {string} outcome */
    toolResult(outcome) { return replyText(module._hg_swarm_tool_result(this.#at, ...put(outcome))); }
    /** @param {string} session @param {string} format @param {string} kind @param {string} direction */
    export(session, format, kind, direction) {
      return reply(module._hg_swarm_export(this.#at, ...put(session, format, kind, direction)));
    }
    delete() {
      if (this.#at !== 0) module._hg_swarm_delete(this.#at);
      this.#at = 0;
    }
  };
}
