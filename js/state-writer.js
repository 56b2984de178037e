// @ts-check
// Writes the values a route reads from a JavaScript state into WebAssembly memory, and runs the
// core calls that read them.
//
// The C++ core evaluates conditions on a "tape" of 16-byte cells (src/condition/value.h). For a
// route, the writer resolves only the node's paths on the state object (js/paths.js) and writes
// the values found there as cells through typed-array views of WebAssembly memory; then numeric
// calls route. The state is never serialized, so a route costs the same whether the state holds
// 10 keys or 5,000 messages. src/condition/json_state.cpp is the native twin of this file: the
// same rules, the same cells.
//
// A route or evaluation reads lazily (StateWriter.route): the core calls back for a path
// (hg_js_read_slot, wasm/transfer.h LazySlots) when its decision first needs it, and the writer
// reads that path and writes it after the cells written so far. State machines write every path
// before one call (StateWriter.callEager).

import { Cell, CellKind, Constants, Limits, TransferHeader } from './contract.js';
import { MISSING, PathReaders, readElement, readMember, readTopKey } from './paths.js';
import { writeUtf8 } from './utf8.js';

const { Null: KIND_NULL, False: KIND_FALSE, True: KIND_TRUE, Number: KIND_NUMBER, String: KIND_STRING, Array: KIND_ARRAY, Object: KIND_OBJECT } = CellKind;
// UNINTERNED: not any string the core knows; UNSENT: the same, its bytes not sent (only its length).
const { Truncated: TRUNCATED, NoStringId: NO_ID, Uninterned: UNINTERNED, Unsent: UNSENT } = Constants;
// How much of a path's strings' text the core reads (Condition::text_levels in the core).
const { TextTop: TEXT_TOP, TextAll: TEXT_ALL } = Constants;
const { MaxCompareDepth: MAX_COMPARE_DEPTH, MaxStateCells: MAX_STATE_CELLS, MaxMarshalWork: MAX_MARSHAL_WORK } = Limits;
// A cell is CELL_WORDS uint32 words; a number's double fills words W0 and W1.
const { length: CELL_WORDS, kind: KIND, a: A, w0: W0, w1: W1 } = Cell;
const CELL_DOUBLES = CELL_WORDS / 2;
const NUMBER_DOUBLE = W0 / 2;
const { isArray } = Array;

/**
 * @import { PathSteps } from './machine/definition.js'
 * @import { KnownStrings } from './paths.js'
 */

/**
 * A lazy core call, hg_route or hg_evaluate: `(a, b, cells, first)`, where `a` is the graph or
 * condition, `b` the node, `cells` the cells written and `first` the path written before the call.
 * @template R
 * @typedef {(a: number, b: number, cells: number, first: number) => R} LazyCall
 */
/**
 * An eager core call, a state machine's step: `(a, b, cells)`.
 * @template R
 * @typedef {(a: number, b: number | undefined, cells: number) => R} EagerCall
 */
/**
 * What `reserve` and `memory` are: the core's hg_transfer_reserve (room for `cells`, `bytes` and
 * `slots`; returns the transfer header's address) and WebAssembly memory's current bytes.
 * @typedef {{ reserve(cells: number, bytes: number, slots: number): number, memory(): Uint8Array }} WriterExports
 */
/**
 * A call's cells and counters, saved while a nested call writes its own (StateWriter.save).
 * @typedef {object} SavedCall
 * @property {Record<string, unknown>} counters
 * @property {Uint32Array} cellWords
 * @property {Uint8Array} bytes
 * @property {Uint32Array} slots
 */

/**
 * `(state) => answer` for one node or condition: `writer.route` with its arguments bound, made
 * once per node so that a route is one closure call away. `fn(a, b, cells, first)` is hg_route or
 * hg_evaluate, which read lazily; `first` is the path the core reads first whatever the state (or
 * -1), written before the call.
 * @param {StateWriter} writer @param {PathReaders} readers @param {KnownStrings} ids @param {LazyCall<number>} fn
 * @param {number} a @param {number} b @param {number} first @returns {(state: unknown) => number}
 */
export function compileDecider(writer, readers, ids, fn, a, b, first) {
  const generic = (/** @type {unknown} */ state) => writer.route(state, readers, ids, fn, a, b, first);
  if (readers.count !== 1 || readers.keys[0] === null || first !== 0) return generic;
  // One path of one key, read first (`category == 'billing'`): read it here, write it with
  // callOne. While an outer call is reading (this one runs inside a getter), the generic path
  // saves its cells.
  const key = readers.keys[0];
  return (/** @type {unknown} */ state) => (writer.busy ? generic(state) : writer.callOne(readTopKey(state, key), readers, ids, fn, a, b));
}

export class StateWriter {
  /**
   * @param {WriterExports} exports `reserve(cells, bytes, slots)` → header pointer, and `memory()`.
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
    /** @type {KnownStrings | null} */ this.ids = null;
    this.replacementFree = false;  // of `ids`: no string it holds contains U+FFFD
    /** @type {number} */ this.textLevel = TEXT_ALL;  // of the path being written
    /** @type {unknown} */ this.lazyState = null;  // the state and readers of the lazy call under way (route)
    /** @type {PathReaders | null} */ this.lazyReaders = null;
    // The graph or condition (its address) whose call is under way, and those of the calls a
    // getter interrupted to make it: the core is using them until those calls return (inCall).
    this.owner = 0;
    /** @type {number[]} */ this.outerOwners = [];
    // [address, free] of what was disposed while the core was using it
    /** @type {[address: number, free: () => void][]} */ this.deferred = [];
    // Set by reserve() and refreshViews(), below; declared here for the type checker.
    /** @type {Uint32Array} */ this.u32;
    /** @type {Float64Array} */ this.f64;
    /** @type {Uint8Array} */ this.u8;
    /** @type {number} */ this.cellWords;
    /** @type {number} */ this.cellDoubles;
    /** @type {number} */ this.bytesBase;
    /** @type {number} */ this.slotWords;
    /** @type {number} */ this.cellCapacity;
    /** @type {number} */ this.byteCapacity;
    /** @type {number} */ this.slotCapacity;
    this.reserve(256, 4096, 64);
  }

  /**
   * Asks the core for room (contents are kept) and re-reads where everything now lives.
   * @param {number} cells @param {number} bytes @param {number} slots
   */
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

  /** @returns {Uint32Array} */
  refreshViews() {
    const { buffer } = this.exports.memory();
    this.u32 = new Uint32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.u8 = new Uint8Array(buffer);
    return this.u32;
  }

  /**
   * Writes only the value at path `first` of `state` (or none: -1), then returns
   * `fn(a, b, cells, first)`: the core call, during which the core asks for each other path's
   * value when it first needs it (readSlot). A path is read at most once per call, and only if the
   * decision needs it. Reading a state can run user code (getters, Proxy traps) that routes or
   * evaluates meanwhile; such a nested call saves the outer call's cells and restores them after.
   * @template R @param {unknown} state @param {PathReaders} readers @param {KnownStrings} ids @param {LazyCall<R>} fn
   * @param {number} a @param {number} b @param {number} first @returns {R}
   */
  route(state, readers, ids, fn, a, b, first) {
    if (!this.busy) {
      this.busy = true;
      this.owner = a;
      try {
        return fn(a, b, this.#begin(state, readers, ids, first), first);
      } finally {
        this.lazyState = null;  // the user's state is not kept past the call
        this.lazyReaders = null;
        this.#done();
      }
    }
    return this.#routeNested(state, readers, ids, fn, a, b, first);
  }

  // route() from a getter or Proxy trap of a state being read: a method of its own (no closure
  // either, whose captured arguments V8 would store on every call), so that the common path stays
  // small enough for V8 to inline into the decider.
  /**
   * @template R
   * @param {unknown} state
   * @param {PathReaders} readers
   * @param {KnownStrings} ids
   * @param {LazyCall<R>} fn
   * @param {number} a
   * @param {number} b
   * @param {number} first
   * @returns {R}
   */
  #routeNested(state, readers, ids, fn, a, b, first) {
    const saved = this.#enterNested(a);
    try {
      return fn(a, b, this.#begin(state, readers, ids, first), first);
    } finally {
      this.#leaveNested(saved);
    }
  }

  /**
   * Starts a lazy call: no cells yet, then the value at path `first` if there is one.
   * @param {unknown} state @param {PathReaders} readers @param {KnownStrings} ids @param {number} first @returns {number}
   */
  #begin(state, readers, ids, first) {
    this.reset(readers.count, ids);
    this.lazyState = state;
    this.lazyReaders = readers;
    if (first >= 0 && first < readers.count) this.readSlot(first);
    return this.cells;
  }

  /**
   * Reads the value at path `i` of the lazy call under way and writes it after the cells written
   * so far; returns its first cell (the core's hg_js_read_slot, wasm/transfer.h). Reading runs
   * user code (getters, Proxy traps), which may route meanwhile: such a nested call saves and
   * restores this call's cells, readers and state.
   * @param {number} i @returns {number}
   */
  readSlot(i) {
    const readers = /** @type {PathReaders} */ (this.lazyReaders);
    const start = this.cells;
    this.slot(i, readers.value(i, this.lazyState), /** @type {KnownStrings} */ (this.ids), readers.levels[i]);
    return start;
  }

  /**
   * Writes the values at every path of `readers` (or raw path steps) of `state`, in order, then
   * returns `fn(a, b, cells)`: the core call that reads them all (a state machine's step).
   * @template R @param {unknown} state @param {PathReaders | PathSteps[]} paths @param {KnownStrings} ids
   * @param {EagerCall<R>} fn @param {number} a @param {number} [b] @returns {R}
   */
  callEager(state, paths, ids, fn, a, b) {
    const readers = readersOf(paths);
    if (this.busy) return this.#callEagerNested(state, readers, ids, fn, a, b);
    this.busy = true;
    this.owner = a;
    try {
      return fn(a, b, this.#writeAll(state, readers, ids));
    } finally {
      this.#done();
    }
  }

  /**
   * @template R
   * @param {unknown} state
   * @param {PathReaders} readers
   * @param {KnownStrings} ids
   * @param {EagerCall<R>} fn
   * @param {number} a
   * @param {number | undefined} b
   * @returns {R}
   */
  #callEagerNested(state, readers, ids, fn, a, b) {
    const saved = this.#enterNested(a);
    try {
      return fn(a, b, this.#writeAll(state, readers, ids));
    } finally {
      this.#leaveNested(saved);
    }
  }

  // Writes the value at each path of `state`; slot i starts at the cell the core finds in the slot
  // table. Each path is read, then written, in order: reading runs user code (getters, Proxy
  // traps) whose effects on the paths after it must be seen as they happen. Returns the cells.
  /** @param {unknown} state @param {PathReaders} readers @param {KnownStrings} ids @returns {number} */
  #writeAll(state, readers, ids) {
    const count = readers.count;
    if (count === 0) return 0;
    this.reset(count, ids);
    for (let i = 0; i < count; i++) this.slot(i, readers.value(i, state), ids, readers.levels[i]);
    return this.cells;
  }

  // A call made while another is reading its state (from a getter or Proxy trap): the outer
  // call's cells are saved, to be put back when this one returns (#leaveNested).
  /** @param {number} a @returns {SavedCall} */
  #enterNested(a) {
    const saved = this.save();
    this.outerOwners.push(this.owner);
    this.owner = a;
    return saved;
  }

  /** @param {SavedCall} saved */
  #leaveNested(saved) {
    this.outerOwners.pop();
    this.restore(saved);
    if (this.deferred.length !== 0) this.#freeDeferred();
  }

  #done() {
    this.busy = false;
    this.owner = 0;
    if (this.deferred.length !== 0) this.#freeDeferred();
  }

  /**
   * Whether the core is in a call on `address` (a graph or a condition): then a getter or Proxy
   * trap of the state it reads is running, and the object must not change or be freed.
   * @param {number} address @returns {boolean}
   */
  inCall(address) {
    return this.busy && (this.owner === address || this.outerOwners.includes(address));
  }

  /**
   * Runs `free` (freeing the object at `address`) now, or once no call is using it.
   * @param {number} address @param {() => void} free
   */
  release(address, free) {
    if (this.inCall(address)) this.deferred.push([address, free]);
    else free();
  }

  #freeDeferred() {
    const waiting = this.deferred;
    this.deferred = [];
    for (const entry of waiting) {
      if (this.inCall(entry[0])) this.deferred.push(entry);
      else entry[1]();
    }
  }

  /**
   * The cells and counters of the call under way, for a nested call to put back (restore).
   * @returns {SavedCall}
   */
  save() {
    if (this.u32.length === 0) this.refreshViews();
    const { cells, bytes, slotCount } = this;
    return {
      counters: {
        cells, bytes, exhausted: this.exhausted, work: this.work, slotStart: this.slotStart, ids: this.ids, slotCount,
        textLevel: this.textLevel, replacementFree: this.replacementFree, lazyState: this.lazyState, lazyReaders: this.lazyReaders,
        owner: this.owner,
      },
      cellWords: this.u32.slice(this.cellWords, this.cellWords + cells * CELL_WORDS),
      bytes: this.u8.slice(this.bytesBase, this.bytesBase + bytes),
      slots: this.u32.slice(this.slotWords, this.slotWords + slotCount),
    };
  }

  /**
   * The nested call may have grown memory and moved the transfer area: write back where it is now.
   * @param {SavedCall} saved
   */
  restore(saved) {
    if (this.u32.length === 0) this.refreshViews();
    this.u32.set(saved.cellWords, this.cellWords);
    this.u8.set(saved.bytes, this.bytesBase);
    this.u32.set(saved.slots, this.slotWords);
    Object.assign(this, saved.counters);
  }

  /**
   * Starts a call's writing: no cells or bytes yet, room for `count` slots, `ids` the strings the
   * core knows (an eager, lazy or one-path call alike).
   * @param {number} count @param {KnownStrings} ids
   */
  reset(count, ids) {
    // Growing WebAssembly memory (by anyone) detaches old views.
    if (this.u32.length === 0) this.refreshViews();
    if (count > this.slotCapacity) this.reserve(this.cellCapacity, this.byteCapacity, count);
    this.cells = 0;
    this.bytes = 0;
    this.exhausted = false;
    this.work = 0;
    if (this.ids !== ids) this.ids = ids;  // a pointer store costs a write barrier
    this.replacementFree = ids.replacementFree === true;
    this.slotCount = count;
  }

  /**
   * `route` for one path whose value `v` the caller has read already (compileDecider's one-key
   * readers): writes it as slot 0 and returns `fn(a, b, cells, 0)` (the core then finds its only
   * path written). Not for nested calls.
   * @param {unknown} v @param {PathReaders} readers @param {KnownStrings} ids @param {LazyCall<number>} fn @param {number} a
   * @param {number} b @returns {number}
   */
  callOne(v, readers, ids, fn, a, b) {
    this.busy = true;
    try {
      this.reset(1, ids);
      this.slot(0, v, ids, readers.levels[0]);
      return fn(a, b, this.cells, 0);
    } finally {
      this.busy = false;
    }
  }

  // Writes `v`, the value at path `i`, as slot i: scalars here, containers and strings the core
  // does not know by value().
  /** @param {number} i @param {unknown} v @param {KnownStrings} ids @param {number} level */
  slot(i, v, ids, level) {
    const u32 = this.u32.length === 0 ? this.refreshViews() : this.u32;  // a getter may have grown memory
    const cell = this.cells;
    u32[this.slotWords + i] = cell;
    this.textLevel = level;
    if (cell < this.cellCapacity) {
      const w = this.cellWords + cell * CELL_WORDS;
      if (typeof v === 'string') {
        const id = ids.get(v);
        this.work++;
        if (id === undefined) {
          if (level < TEXT_TOP && (this.replacementFree || v.isWellFormed())) {
            // unknownString's first case, here: the commonest unknown string, known to be none.
            u32[w + KIND] = KIND_STRING;
            u32[w + A] = UNSENT;
            u32[w + W0] = 0;
            u32[w + W1] = v.length;
            this.cells = cell + 1;
          } else {
            this.unknownString(v, level >= TEXT_TOP);
          }
        } else {
          u32[w + KIND] = KIND_STRING;
          u32[w + A] = id;
          this.cells = cell + 1;
        }
        return;
      }
      if (typeof v === 'number') {
        u32[w + KIND] = KIND_NUMBER;
        this.f64[this.cellDoubles + cell * CELL_DOUBLES + NUMBER_DOUBLE] = v;
        this.cells = cell + 1;
        this.work++;
        return;
      }
    }
    this.slotStart = cell;
    this.value(v, 0);
  }

  /**
   * Writes a cell of `kind` whose first word is `a`; returns its index.
   * @param {number} kind @param {number} a @returns {number}
   */
  cell(kind, a) {
    // Reading the state may have run code (a getter, a Proxy trap) that grew memory, which
    // detaches the views.
    if (this.u32.length === 0) this.refreshViews();
    if (this.cells >= this.cellCapacity) this.reserve(this.cellCapacity * 2, this.byteCapacity, this.slotCapacity);
    const w = this.cellWords + this.cells * CELL_WORDS;
    this.u32[w + KIND] = kind;
    this.u32[w + A] = a;
    return this.cells++;
  }

  // `typeof v === '…'` tests compile to type checks; a `switch (typeof v)` calls a builtin.
  /** @param {unknown} v @param {number} depth */
  value(v, depth) {
    this.work++;
    if (typeof v === 'string') {
      this.string(v, depth);
    } else if (typeof v === 'number') {
      this.number(v);
    } else if (typeof v === 'boolean') {
      this.cell(v ? KIND_TRUE : KIND_FALSE, 0);
    } else if (typeof v === 'object' && v !== null) {
      this.container(v, depth);
    } else if (typeof v === 'bigint') {
      this.number(Number(v));
    } else {
      this.cell(KIND_NULL, 0);  // null, undefined, functions and symbols
    }
  }

  /** @param {number} n */
  number(n) {
    const index = this.cell(KIND_NUMBER, 0);
    this.f64[this.cellDoubles + index * CELL_DOUBLES + NUMBER_DOUBLE] = n;
  }

  /**
   * A string at `depth` below the path's value (0: the value itself).
   * @param {string} s @param {number} depth
   */
  string(s, depth) {
    const id = /** @type {KnownStrings} */ (this.ids).get(s);
    if (id !== undefined) {
      this.cell(KIND_STRING, id);
      return;
    }
    const sendText = this.textLevel === TEXT_ALL || (depth === 0 && this.textLevel === TEXT_TOP);
    if (!sendText && (this.replacementFree || s.isWellFormed())) {
      // unknownString's first case, here: the commonest unknown string, known to be none.
      const index = this.cell(KIND_STRING, UNSENT);
      const w = this.cellWords + index * CELL_WORDS;
      this.u32[w + W0] = 0;
      this.u32[w + W1] = s.length;
      return;
    }
    this.unknownString(s, sendText);
  }

  // A string the map does not hold. A well-formed one is no string the core knows, and the cell
  // says so; unless `sendText`, it then goes without its bytes (no comparison will read them).
  // One with lone surrogates may still equal a known string once they become U+FFFD (as the
  // spec says they read), so its bytes go and the core looks it up; unless no known string holds
  // U+FFFD (`replacementFree`, from StringIds), when it cannot equal any either.
  /** @param {string} s @param {boolean} sendText */
  unknownString(s, sendText) {
    const index = this.cell(KIND_STRING, NO_ID);
    if (!sendText && (this.replacementFree || s.isWellFormed())) {
      const w = this.cellWords + index * CELL_WORDS;
      this.u32[w + A] = UNSENT;
      this.u32[w + W0] = 0;
      this.u32[w + W1] = s.length;  // enough for truthiness: zero exactly when the text is empty
      return;
    }
    const worst = s.length * 3;
    if (this.bytes + worst > this.byteCapacity) {
      this.reserve(this.cellCapacity, Math.max(this.byteCapacity * 2, this.bytes + worst), this.slotCapacity);
    }
    const at = this.bytesBase + this.bytes;
    const written = writeUtf8(s, this.u8, at, this.bytesBase + this.byteCapacity);
    const w = this.cellWords + index * CELL_WORDS;
    // ASCII (as many bytes as units) is well-formed, so it is no string the map lacks: uninterned.
    if (written === s.length) this.u32[w + A] = UNINTERNED;
    this.u32[w + W0] = this.bytes;
    this.u32[w + W1] = written;
    this.bytes += written;
  }

  // An array or an object (every non-array object reads as its own enumerable string keys).
  // Deeper than any comparison looks, or larger than the budgets, only the size is kept: a path's
  // value over MAX_STATE_CELLS is cut as a whole and the next path starts afresh, while
  // MAX_MARSHAL_WORK counts every cell ever written. json_state.cpp applies the same rules.
  /**
   * @param {import('./paths.js').StateValue} v an object or array of the state
   * @param {number} depth
   */
  container(v, depth) {
    const start = this.cells;
    const bytesStart = this.bytes;
    try {
      const array = isArray(v);
      const kind = array ? KIND_ARRAY : KIND_OBJECT;
      const keys = array ? null : Object.keys(v);
      const count = array ? v.length : /** @type {string[]} */ (keys).length;
      if (depth > MAX_COMPARE_DEPTH || this.work > MAX_MARSHAL_WORK) {
        this.truncated(kind, count);
        return;
      }
      this.cell(kind, 0);
      let members = 0;
      for (let i = 0; i < count && !this.exhausted; i++) {
        if (array) {
          const element = readElement(v, i);
          this.value(element === MISSING ? null : element, depth + 1);
        } else {
          const key = /** @type {string[]} */ (keys)[i];
          const member = readMember(v, key);
          if (member === MISSING) continue;  // removed by a getter while we read
          this.work++;
          this.string(key, depth + 1);
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
      if (this.u32.length === 0) this.refreshViews();
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

  /** @param {number} kind @param {number} count */
  truncated(kind, count) {
    const index = this.cell(kind | TRUNCATED, count >>> 0);
    this.u32[this.cellWords + index * CELL_WORDS + W0] = 1;
  }
}

// Raw path arrays (as a state machine keeps them) → their compiled readers.
/** @type {WeakMap<PathSteps[], PathReaders>} */
const compiledPaths = new WeakMap();
/** @param {PathReaders | PathSteps[]} paths @returns {PathReaders} */
function readersOf(paths) {
  if (paths instanceof PathReaders) return paths;
  let readers = compiledPaths.get(paths);
  if (readers === undefined) {
    readers = new PathReaders(paths);
    compiledPaths.set(paths, readers);
  }
  return readers;
}
