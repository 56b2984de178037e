// Writes the values a route reads from a JavaScript state into WebAssembly memory.
//
// The C++ core evaluates conditions on a "tape" of 16-byte cells (src/condition/value.h). For a
// route, this module resolves only the node's paths on the state object, reading own enumerable
// properties and nothing through the prototype chain, and writes the values found there as cells
// through typed-array views of WebAssembly memory; then one numeric call routes. The state is
// never serialized, so a route costs the same whether the state holds 10 keys or 5,000 messages.
// src/condition/json_state.cpp is the native twin of this file: the same rules, the same cells.

import { Cell, CellKind, Constants, Limits, TransferHeader } from './contract.js';

const { Null: KIND_NULL, False: KIND_FALSE, True: KIND_TRUE, Number: KIND_NUMBER, String: KIND_STRING, Array: KIND_ARRAY, Object: KIND_OBJECT } = CellKind;
const { Truncated: TRUNCATED, NoStringId: NO_ID } = Constants;
const { MaxCompareDepth: MAX_COMPARE_DEPTH, MaxStateCells: MAX_STATE_CELLS, MaxMarshalWork: MAX_MARSHAL_WORK } = Limits;
// A cell is CELL_WORDS uint32 words; a number's double fills words W0 and W1.
const { length: CELL_WORDS, kind: KIND, a: A, w0: W0, w1: W1 } = Cell;
const CELL_DOUBLES = CELL_WORDS / 2;
const NUMBER_DOUBLE = W0 / 2;

const MISSING = Symbol('missing');
const { propertyIsEnumerable: isEnumerable } = Object.prototype;
const { isArray } = Array;
const encoder = new TextEncoder();

/**
 * Reads own enumerable property `key` of `object`, or MISSING, for values written whole (the
 * members of a compared object or array). A getter that throws reads as null; a Proxy trap that
 * throws propagates, so that the caller drops the whole Proxy.
 */
function readMember(object, key) {
  if (!isEnumerable.call(object, key)) return MISSING;
  try {
    return object[key];
  } catch (error) {
    const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
    if (descriptor !== undefined && typeof descriptor.get === 'function') return null;
    throw error;
  }
}

/**
 * The value at `steps` (from the core: [isIndex, key, index] each) in `state`, or null. Missing
 * keys, indexes out of range, steps through non-containers and anything that throws (a getter or
 * a Proxy trap on the way) read as null. This is the per-route hot loop: no allocation, one
 * try for the whole walk.
 */
export function resolvePath(state, steps) {
  let value = state;
  try {
    for (let s = 0; s < steps.length; s++) {
      if (typeof value !== 'object' || value === null) return null;
      const step = steps[s];
      let key = step[1];
      if (isArray(value)) {
        if (!step[0]) return null;
        const length = value.length;
        key = step[2] < 0 ? step[2] + length : step[2];
        if (key < 0 || key >= length) return null;
      }
      if (!isEnumerable.call(value, key)) return null;
      value = value[key];
    }
  } catch {
    return null;
  }
  return value;
}

export class StateWriter {
  /**
   * @param {object} exports `reserve(cells, bytes, slots)` → header pointer, and `memory()`.
   */
  constructor(exports) {
    this.exports = exports;
    this.cells = 0;
    this.bytes = 0;
    this.exhausted = false;
    this.work = 0;
    this.slotStart = 0;
    this.slotCount = 0;
    this.busy = false;
    this.ids = null;
    this.reserve(256, 4096, 64);
  }

  // Asks the core for room (contents are kept) and re-reads where everything now lives.
  reserve(cells, bytes, slots) {
    const header = this.exports.reserve(cells, bytes, slots) >>> 2;
    this.refreshViews();
    const h = this.u32;
    this.cellWords = h[header + TransferHeader.cells] >>> 2;
    this.cellDoubles = h[header + TransferHeader.cells] >>> 3;
    this.bytesBase = h[header + TransferHeader.bytes];
    this.slotWords = h[header + TransferHeader.slots] >>> 2;
    this.cellCapacity = h[header + TransferHeader.cellCapacity];
    this.byteCapacity = h[header + TransferHeader.byteCapacity];
    this.slotCapacity = h[header + TransferHeader.slotCapacity];
  }

  refreshViews() {
    const { buffer } = this.exports.memory();
    this.u32 = new Uint32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.u8 = new Uint8Array(buffer);
  }

  /**
   * Writes the values at `paths` of `state`, then returns `fn(a, b, cells)`: the core call that
   * reads them. Reading a state can run user code (getters, Proxy traps) that evaluates another
   * condition meanwhile; such a nested call saves the outer call's cells and restores them after,
   * so the outer answer does not change.
   */
  call(state, paths, ids, fn, a, b) {
    if (!this.busy) {
      this.busy = true;
      try {
        return fn(a, b, paths.length === 0 ? 0 : this.write(state, paths, ids));
      } finally {
        this.busy = false;
      }
    }
    if (paths.length === 0) return fn(a, b, 0);
    const saved = this.#save();
    try {
      return fn(a, b, this.write(state, paths, ids));
    } finally {
      this.#restore(saved);
    }
  }

  #save() {
    if (this.u32.length === 0) this.refreshViews();
    const { cells, bytes, slotCount } = this;
    return {
      counters: { cells, bytes, exhausted: this.exhausted, work: this.work, slotStart: this.slotStart, ids: this.ids, slotCount },
      cellWords: this.u32.slice(this.cellWords, this.cellWords + cells * CELL_WORDS),
      bytes: this.u8.slice(this.bytesBase, this.bytesBase + bytes),
      slots: this.u32.slice(this.slotWords, this.slotWords + slotCount),
    };
  }

  // The nested call may have grown memory and moved the transfer area: write back where it is now.
  #restore(saved) {
    if (this.u32.length === 0) this.refreshViews();
    this.u32.set(saved.cellWords, this.cellWords);
    this.u8.set(saved.bytes, this.bytesBase);
    this.u32.set(saved.slots, this.slotWords);
    Object.assign(this, saved.counters);
  }

  /**
   * Writes the value at each path of `state`; slot i starts at the cell the core finds in the slot
   * table. `ids` maps the strings the core knows to their ids. Returns the number of cells.
   */
  write(state, paths, ids) {
    // Growing WebAssembly memory (by anyone) detaches old views.
    if (this.u32.length === 0) this.refreshViews();
    if (paths.length > this.slotCapacity) this.reserve(this.cellCapacity, this.byteCapacity, paths.length);
    this.cells = 0;
    this.bytes = 0;
    this.exhausted = false;
    this.work = 0;
    this.ids = ids;
    this.slotCount = paths.length;
    for (let i = 0; i < paths.length; i++) {
      const value = resolvePath(state, paths[i]);
      this.slotStart = this.cells;
      this.u32[this.slotWords + i] = this.cells;
      this.value(value, 0);
    }
    return this.cells;
  }

  cell(kind, a) {
    if (this.cells >= this.cellCapacity) this.reserve(this.cellCapacity * 2, this.byteCapacity, this.slotCapacity);
    const w = this.cellWords + this.cells * CELL_WORDS;
    this.u32[w + KIND] = kind;
    this.u32[w + A] = a;
    return this.cells++;
  }

  value(v, depth) {
    this.work++;
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.cell(v ? KIND_TRUE : KIND_FALSE, 0);
        return;
      case 'bigint':
        this.number(Number(v));
        return;
      case 'object':
        if (v !== null) {
          this.container(v, depth);
          return;
        }
    }
    // null, undefined, functions and symbols
    this.cell(KIND_NULL, 0);
  }

  number(n) {
    const index = this.cell(KIND_NUMBER, 0);
    this.f64[this.cellDoubles + index * CELL_DOUBLES + NUMBER_DOUBLE] = n;
  }

  string(s) {
    const id = this.ids.get(s);
    if (id !== undefined) {
      this.cell(KIND_STRING, id);
      return;
    }
    // Unknown to the core: send the UTF-8 bytes (lone surrogates become U+FFFD, as the spec says).
    const index = this.cell(KIND_STRING, NO_ID);
    const worst = s.length * 3;
    if (this.bytes + worst > this.byteCapacity) {
      this.reserve(this.cellCapacity, Math.max(this.byteCapacity * 2, this.bytes + worst), this.slotCapacity);
    }
    const at = this.bytesBase + this.bytes;
    let written = 0;
    const u8 = this.u8;
    for (; written < s.length && written < 64; written++) {
      const c = s.charCodeAt(written);
      if (c >= 0x80) break;
      u8[at + written] = c;
    }
    if (written < s.length) {
      written = encoder.encodeInto(s, u8.subarray(at, this.bytesBase + this.byteCapacity)).written;
    }
    const w = this.cellWords + index * CELL_WORDS;
    this.u32[w + W0] = this.bytes;
    this.u32[w + W1] = written;
    this.bytes += written;
  }

  // An array or an object (every non-array object reads as its own enumerable string keys).
  // Deeper than any comparison looks, or larger than the budgets, only the size is kept: a path's
  // value over MAX_STATE_CELLS is cut as a whole and the next path starts afresh, while
  // MAX_MARSHAL_WORK counts every cell ever written. json_state.cpp applies the same rules.
  container(v, depth) {
    const start = this.cells;
    const bytesStart = this.bytes;
    try {
      const array = isArray(v);
      const kind = array ? KIND_ARRAY : KIND_OBJECT;
      const keys = array ? null : Object.keys(v);
      const count = array ? v.length : keys.length;
      if (depth > MAX_COMPARE_DEPTH || this.work > MAX_MARSHAL_WORK) {
        this.truncated(kind, count);
        return;
      }
      this.cell(kind, 0);
      let members = 0;
      for (let i = 0; i < count && !this.exhausted; i++) {
        if (array) {
          const element = readMember(v, i);
          this.value(element === MISSING ? null : element, depth + 1);
        } else {
          const key = keys[i];
          const member = readMember(v, key);
          if (member === MISSING) continue;  // removed by a getter while we read
          this.work++;
          this.string(key);
          this.value(member, depth + 1);
        }
        members++;
        if (this.cells - this.slotStart > MAX_STATE_CELLS || this.work > MAX_MARSHAL_WORK) this.exhausted = true;
      }
      if (this.exhausted) {
        this.cells = start;
        this.bytes = bytesStart;
        this.truncated(kind, count);
        if (depth === 0) this.exhausted = false;  // only this path's value is cut
        return;
      }
      const w = this.cellWords + start * CELL_WORDS;
      this.u32[w + A] = members;
      this.u32[w + W0] = this.cells - start;
    } catch {
      // A Proxy trap threw: the whole value reads as null.
      this.cells = start;
      this.bytes = bytesStart;
      this.cell(KIND_NULL, 0);
    }
  }

  truncated(kind, count) {
    const index = this.cell(kind | TRUNCATED, count >>> 0);
    this.u32[this.cellWords + index * CELL_WORDS + W0] = 1;
  }
}
