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
// UNINTERNED: not any string the core knows; UNSENT: the same, its bytes not sent (only its length).
const { Truncated: TRUNCATED, NoStringId: NO_ID, Uninterned: UNINTERNED, Unsent: UNSENT } = Constants;
// How much of a path's strings' text the core reads (Condition::text_levels in the core).
const { TextTop: TEXT_TOP, TextAll: TEXT_ALL } = Constants;
const { MaxCompareDepth: MAX_COMPARE_DEPTH, MaxStateCells: MAX_STATE_CELLS, MaxMarshalWork: MAX_MARSHAL_WORK } = Limits;
// A cell is CELL_WORDS uint32 words; a number's double fills words W0 and W1.
const { length: CELL_WORDS, kind: KIND, a: A, w0: W0, w1: W1 } = Cell;
const CELL_DOUBLES = CELL_WORDS / 2;
const NUMBER_DOUBLE = W0 / 2;

const MISSING = Symbol('missing');
const INDEX_NAMES = Array.from({ length: 1024 }, (_, i) => String(i));
const { propertyIsEnumerable: isEnumerable } = Object.prototype;
const { isArray } = Array;
const encoder = new TextEncoder();

/**
 * Reads own enumerable property `key` of `object`, or MISSING, for values written whole (the
 * members of a compared object or array). A getter that throws reads as null; a Proxy trap that
 * throws propagates, so that the caller drops the whole Proxy.
 */
function readMember(object, key) {
  // An element index as its string: propertyIsEnumerable converts a number to one on every call.
  const name = typeof key === 'number' && key < INDEX_NAMES.length ? INDEX_NAMES[key] : key;
  if (!isEnumerable.call(object, name)) return MISSING;
  try {
    return object[key];
  } catch (error) {
    return thrownRead(object, key, error);
  }
}

// A read of `key` that threw `error`: null when an own getter threw, else the error propagates
// (a Proxy trap), so that the caller drops the whole Proxy.
function thrownRead(object, key, error) {
  const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
  if (descriptor !== undefined && typeof descriptor.get === 'function') return null;
  throw error;
}

/** readMember for an element of an array, at a property load of its own (see readKeyAt). */
function readElement(array, i) {
  if (!isEnumerable.call(array, i < INDEX_NAMES.length ? INDEX_NAMES[i] : i)) return MISSING;
  try {
    return array[i];
  } catch (error) {
    return thrownRead(array, i, error);
  }
}

// Own enumerable key `key` of `object` (not an array), or null; the caller catches. A property
// load's inline cache belongs to its place in the code: one load reading every slot's key sees
// many keys and goes megamorphic (a hash probe per read), so the load is chosen by the path's
// slot, and in a node routed often each sees the one key of its slot (a shape check and a load).
function readKeyAt(slot, object, key) {
  if (isArray(object) || !isEnumerable.call(object, key)) return null;
  switch (slot) {
    case 0: return object[key];
    case 1: return object[key];
    case 2: return object[key];
    case 3: return object[key];
    case 4: return object[key];
    case 5: return object[key];
    case 6: return object[key];
    case 7: return object[key];
    default: return object[key];
  }
}

/**
 * The value at `steps` (from the core: [isIndex, key, index] each) in `state`, or null. Missing
 * keys, indexes out of range, steps through non-containers and anything that throws (a getter or
 * a Proxy trap on the way) read as null. Routes use the compiled form of the same walk
 * (`compilePaths`); this one serves error messages.
 */
export function resolvePath(state, steps) {
  return compilePath(steps)(state);
}

// Property keys as the engine stores them (internalized): a lookup with a key that is not costs
// a string-table search on every call, and the path keys the core hands over are fresh strings.
function internalize(key) {
  const keys = Object.keys({ [key]: 0 });
  return keys.length === 1 ? keys[0] : key;
}

// An index step reads an array element; on any other object it reads the key of its decimal text,
// which as a number is the same key when it is an array index (cheaper to look up).
const ARRAY_INDEX_LIMIT = 2 ** 32 - 1;
function objectKey(isIndex, key, index) {
  if (isIndex && index >= 0 && index < ARRAY_INDEX_LIMIT && String(index) === key) return index;
  return internalize(key);
}

// One step on anything: own enumerable properties only, nothing through the prototype chain. The
// caller catches (a revoked Proxy throws in isArray, a trap or getter anywhere).
function step(value, isIndex, key, index) {
  if (typeof value !== 'object' || value === null) return MISSING;
  if (isArray(value)) {
    if (!isIndex) return MISSING;
    const length = value.length;
    const i = index < 0 ? index + length : index;
    if (i < 0 || i >= length || !isEnumerable.call(value, i < INDEX_NAMES.length ? INDEX_NAMES[i] : i)) return MISSING;
    return value[i];
  }
  return isEnumerable.call(value, key) ? value[key] : MISSING;
}

/**
 * Compiles a path into a reader: `state` → the value at the path, or null. The per-route hot
 * loop: no allocation, one try for the whole walk, keys prepared once.
 */
export function compilePath(steps) {
  const n = steps.length;
  const isIndex = steps.map((s) => s[0]);
  const keys = steps.map((s) => objectKey(s[0], s[1], s[2]));
  const indexes = steps.map((s) => s[2]);
  if (n === 1 && !isIndex[0]) {
    // The commonest path, `category`: a top-level key.
    const key = keys[0];
    return (state) => {
      if (typeof state !== 'object' || state === null) return null;
      try {
        if (isArray(state) || !isEnumerable.call(state, key)) return null;
        return state[key];
      } catch {
        return null;
      }
    };
  }
  if (n === 2 && !isIndex[0] && !isIndex[1]) {
    // `user.tier`: two keys, two loads of their own (see readKeyAt).
    const [outer, inner] = keys;
    return (state) => {
      if (typeof state !== 'object' || state === null) return null;
      try {
        if (isArray(state) || !isEnumerable.call(state, outer)) return null;
        const value = state[outer];
        if (typeof value !== 'object' || value === null || isArray(value) || !isEnumerable.call(value, inner)) return null;
        return value[inner];
      } catch {
        return null;
      }
    };
  }
  if (!isIndex.includes(true)) {
    // A path of keys only (`user.tier`): step() without its array-index branch.
    return (state) => {
      let value = state;
      try {
        for (let s = 0; s < n; s++) {
          if (typeof value !== 'object' || value === null || isArray(value)) return null;
          const key = keys[s];
          if (!isEnumerable.call(value, key)) return null;
          value = value[key];
        }
      } catch {
        return null;
      }
      return value;
    };
  }
  return (state) => {
    let value = state;
    try {
      for (let s = 0; s < n; s++) {
        value = step(value, isIndex[s], keys[s], indexes[s]);
        if (value === MISSING) return null;
      }
    } catch {
      return null;
    }
    return value;
  };
}

/** The readers of a node's or condition's paths, compiled once; what `StateWriter.callLazy` takes. */
export class PathReaders {
  /**
   * @param paths the core's path steps
   * @param levels per path, how much of its strings' text the core may read (0 none, 1 the value's
   *   own string, 2 every string in it); by default all of it.
   */
  constructor(paths, levels = null) {
    this.count = paths.length;
    this.levels = paths.map((_, i) => (levels === null ? TEXT_ALL : levels[i]));
    this.read = paths.map(compilePath);
    // For a path that is one key (`category`), the key itself: the writer reads it inline.
    this.keys = paths.map((steps) => (steps.length === 1 && !steps[0][0] ? internalize(steps[0][1]) : null));
  }
}

/**
 * `(state) => fn(a, b, cells, first)` for one node or condition: `writer.callLazy` with its
 * arguments bound, made once per node so that a route is one closure call away. `fn` reads lazily
 * (hg_route, hg_evaluate): the core asks for a path's value when it first needs it;
 * `first` is the path it reads first whatever the state (or -1), written before the call.
 */
export function compileDecider(writer, readers, ids, fn, a, b, first) {
  const generic = (state) => writer.callLazy(state, readers, ids, fn, a, b, first);
  if (readers.count !== 1 || readers.keys[0] === null || first !== 0) return generic;
  // One path of one key, read first (`category == 'billing'`): read it here, write it with
  // callOne. While an outer call is reading (this one runs inside a getter), the generic path
  // saves its cells.
  const key = readers.keys[0];
  return (state) => {
    if (writer.busy) return generic(state);
    let v = null;
    if (typeof state === 'object' && state !== null) {
      try {
        if (!isArray(state) && isEnumerable.call(state, key)) v = state[key];
      } catch {
        v = null;
      }
    }
    return writer.callOne(v, readers, ids, fn, a, b);
  };
}

/**
 * The strings a core string table knows → their ids (marshalled state strings equal to one of them
 * travel as an integer), learnt in the table's order. Also whether any of them holds U+FFFD: while
 * none does, a state string with lone surrogates (read as U+FFFD) equals none of them either, so
 * the writer need not test unknown strings for lone surrogates.
 */
export class StringIds extends Map {
  replacementFree = true;

  /** Appends `strings`, the table's next entries. */
  learn(strings) {
    for (const s of strings) {
      // Internalized, as string literals and property names are: a lookup of one of those then
      // matches by pointer, and a miss against it needs no character comparison.
      this.set(internalize(s), this.size);
      if (this.replacementFree && s.includes('\uFFFD')) this.replacementFree = false;
    }
  }

  clear() {
    super.clear();
    this.replacementFree = true;
  }
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
    this.replacementFree = false;  // of `ids`: no string it holds contains U+FFFD
    this.textLevel = TEXT_ALL;  // of the path being written
    this.lazyState = null;  // the state and readers of the lazy call under way (callLazy)
    this.lazyReaders = null;
    // The graph or condition (its address) of the lazy call under way, and of the calls a getter
    // interrupted to make it: the core is using them until those calls return (inCall).
    this.lazyOwner = 0;
    this.outerOwners = [];
    this.deferred = [];  // [address, free] of what was disposed while the core was using it
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
    return this.u32;
  }

  /**
   * Writes only the value at path `first` of `state` (or none: -1), then returns
   * `fn(a, b, cells, first)`: the core call, during which the core asks for each other path's value when it first
   * needs it (readSlot). A path is read at most once per call, and only if the decision needs it.
   * Reading a state can run user code (getters, Proxy traps) that routes or evaluates meanwhile;
   * such a nested call saves the outer call's cells and restores them after.
   */
  callLazy(state, readers, ids, fn, a, b, first) {
    if (!this.busy) {
      this.busy = true;
      this.lazyOwner = a;
      try {
        return fn(a, b, this.#begin(state, readers, ids, first), first);
      } finally {
        this.busy = false;
        this.lazyOwner = 0;
        this.lazyState = null;  // the user's state is not kept past the call
        this.lazyReaders = null;
        if (this.deferred.length !== 0) this.#freeDeferred();
      }
    }
    return this.#callLazyNested(state, readers, ids, fn, a, b, first);
  }

  // callLazy from a getter or Proxy trap of a state being read: a method of its own, so that the
  // common path stays small enough for V8 to inline into the decider.
  #callLazyNested(state, readers, ids, fn, a, b, first) {
    const saved = this.save();
    this.outerOwners.push(this.lazyOwner);
    this.lazyOwner = a;
    try {
      return fn(a, b, this.#begin(state, readers, ids, first), first);
    } finally {
      this.outerOwners.pop();
      this.restore(saved);
      if (this.deferred.length !== 0) this.#freeDeferred();
    }
  }

  /**
   * Whether the core is in a lazy call on `address` (a graph or a condition): then a getter or
   * Proxy trap of the state it reads is running, and the object must not change or be freed.
   */
  inCall(address) {
    return this.busy && (this.lazyOwner === address || this.outerOwners.includes(address));
  }

  /** Runs `free` (freeing the object at `address`) now, or once no lazy call is using it. */
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

  // Starts a lazy call: no cells yet, then the value at path `first` if there is one.
  #begin(state, readers, ids, first) {
    const count = readers.count;
    this.reset(count, ids);
    this.lazyState = state;
    this.lazyReaders = readers;
    if (first >= 0 && first < count) this.readSlot(first);
    return this.cells;
  }

  /**
   * Reads the value at path `i` of the lazy call under way and writes it after the cells written
   * so far; returns its first cell (the core's hg_js_read_slot, wasm/transfer.h). Reading runs
   * user code (getters, Proxy traps), which may route meanwhile: such a nested call saves and
   * restores this call's cells, readers and state.
   */
  readSlot(i) {
    const readers = this.lazyReaders;
    const state = this.lazyState;
    const key = readers.keys[i];
    let v = null;
    if (key === null) {
      v = readers.read[i](state);
    } else if (typeof state === 'object' && state !== null) {
      try {
        v = readKeyAt(i, state, key);
      } catch {
        v = null;
      }
    }
    const start = this.cells;
    this.slot(i, v, this.ids, readers.levels[i]);
    return start;
  }

  // The cells and counters of the call under way, for a nested call to put back (restore).
  save() {
    if (this.u32.length === 0) this.refreshViews();
    const { cells, bytes, slotCount } = this;
    return {
      counters: {
        cells, bytes, exhausted: this.exhausted, work: this.work, slotStart: this.slotStart, ids: this.ids, slotCount,
        textLevel: this.textLevel, replacementFree: this.replacementFree, lazyState: this.lazyState, lazyReaders: this.lazyReaders,
        lazyOwner: this.lazyOwner,
      },
      cellWords: this.u32.slice(this.cellWords, this.cellWords + cells * CELL_WORDS),
      bytes: this.u8.slice(this.bytesBase, this.bytesBase + bytes),
      slots: this.u32.slice(this.slotWords, this.slotWords + slotCount),
    };
  }

  // The nested call may have grown memory and moved the transfer area: write back where it is now.
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
   * `callLazy` for one path whose value `v` the caller has read already (compileDecider's one-key
   * readers): writes it as slot 0 and returns `fn(a, b, cells, 0)` (a lazy core call then finds
   * its only path written). Not for nested calls.
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

  number(n) {
    const index = this.cell(KIND_NUMBER, 0);
    this.f64[this.cellDoubles + index * CELL_DOUBLES + NUMBER_DOUBLE] = n;
  }

  // A string at `depth` below the path's value (0: the value itself).
  string(s, depth) {
    const id = this.ids.get(s);
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
    let written = 0;
    const u8 = this.u8;
    const length = s.length;
    for (; written < length && written < 64; written++) {
      const c = s.charCodeAt(written);
      if (c >= 0x80) break;
      u8[at + written] = c;
    }
    const w = this.cellWords + index * CELL_WORDS;
    if (written < length) {
      written = encoder.encodeInto(s, u8.subarray(at, this.bytesBase + this.byteCapacity)).written;
    } else {
      this.u32[w + A] = UNINTERNED;
    }
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
          const element = readElement(v, i);
          this.value(element === MISSING ? null : element, depth + 1);
        } else {
          const key = keys[i];
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

  truncated(kind, count) {
    const index = this.cell(kind | TRUNCATED, count >>> 0);
    this.u32[this.cellWords + index * CELL_WORDS + W0] = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Eager writing: every path's value written before the core call. State machines use it (their
// hg_exec_* calls read the transfer area whole); routes, evaluations and explain() read lazily
// (StateWriter.callLazy), so these functions stay out of the handoff-graph/router bundle.

// Raw path arrays (as a state machine keeps them) → their compiled readers.
const compiledPaths = new WeakMap();
function readersOf(paths) {
  if (paths instanceof PathReaders) return paths;
  let readers = compiledPaths.get(paths);
  if (readers === undefined) {
    readers = new PathReaders(paths);
    compiledPaths.set(paths, readers);
  }
  return readers;
}

/**
 * Writes the values at `paths` of `state` with `writer`, then returns `fn(a, b, cells)`: the core
 * call that reads them. Reading a state can run user code (getters, Proxy traps) that evaluates
 * another condition meanwhile; such a nested call saves the outer call's cells and restores them
 * after, so the outer answer does not change.
 */
export function callEager(writer, state, paths, ids, fn, a, b) {
  const readers = readersOf(paths);
  if (!writer.busy) {
    writer.busy = true;
    try {
      return fn(a, b, readers.count === 0 ? 0 : writeAll(writer, state, readers, ids));
    } finally {
      writer.busy = false;
    }
  }
  if (readers.count === 0) return fn(a, b, 0);
  const saved = writer.save();
  try {
    return fn(a, b, writeAll(writer, state, readers, ids));
  } finally {
    writer.restore(saved);
  }
}

// Writes the value at each path of `state`; slot i starts at the cell the core finds in the slot
// table. `ids` maps the strings the core knows to their ids. Returns the number of cells.
function writeAll(writer, state, readers, ids) {
  const count = readers.count;
  writer.reset(count, ids);
  const { keys, read, levels } = readers;
  const plain = typeof state === 'object' && state !== null;
  // Each path is read, then written, in order: reading runs user code (getters, Proxy traps)
  // whose effects on the paths after it must be seen as they happen.
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    let v = null;
    if (key === null) {
      v = read[i](state);
    } else if (plain) {
      try {
        v = readKeyAt(i, state, key);
      } catch {
        v = null;
      }
    }
    writer.slot(i, v, ids, levels[i]);
  }
  return writer.cells;
}

// ---------------------------------------------------------------------------------------------
// Standalone conditions through raw exports (wasm/route_exports.cpp): compileCondition() costs the
// parse and little more. `module` is the Emscripten module; its `_hg_*` functions become the raw
// exports after their first call, so they are looked up on each use.

const decoder = new TextDecoder();

function text(module, result) {
  const words = new Uint32Array(module.HEAPU8.buffer, result, 3);
  return { index: words[0], text: decoder.decode(module.HEAPU8.subarray(words[1], words[1] + words[2])) };
}

/** Compiles `source` (well-formed); returns the condition's address, or { index, message }. */
export function compileStandalone(module, source) {
  const length = source.length;
  let at = module._hg_source_reserve(length * 3);
  let u8 = module.HEAPU8;
  let written = 0;
  for (; written < length; written++) {
    const c = source.charCodeAt(written);
    if (c >= 0x80) break;
    u8[at + written] = c;
  }
  if (written < length) {
    u8 = module.HEAPU8;  // the reserve may have grown memory before the loop; this is current
    at = module._hg_source_reserve(length * 3);
    written = encoder.encodeInto(source, u8.subarray(at, at + length * 3)).written;
  }
  const address = module._hg_condition_new(written);
  if (address !== 0) return address;
  const { index, text: message } = text(module, module._hg_compile_error());
  return { index, message };
}

/** What evaluating a standalone condition needs: its paths' steps and texts, and its strings. */
export function describeStandalone(module, address) {
  return JSON.parse(text(module, module._hg_condition_describe(address)).text);
}

/** Per route path of graph node `id` at `address`: how much text the core reads (PathReaders). */
export function nodeTextLevels(module, address, id, count) {
  const at = module._hg_node_text_levels(address, id);
  return Array.from(module.HEAPU8.subarray(at, at + count));
}

/** Frees a standalone condition; the shape FinalizationRegistry's callback expects. */
export class StandaloneHandle {
  constructor(module, address) {
    this.module = module;
    this.address = address;
  }

  delete() {
    this.module._hg_condition_delete(this.address);
  }
}
