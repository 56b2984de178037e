// Reorders the functions of a linked WebAssembly module so that gzip compresses it better (issue 21).
//
// gzip finds repeats only within its last 32 KB, and the linker lays functions out by source order,
// so look-alike code (the readers' "expected a string" branches, the renderers' loops, std::string
// and vector instantiations) is spread over the whole code section. This pass puts each function
// after the ones it shares the most byte sequences with, greedily (trying a few context lengths and
// starting points, keeping the order that gzips smallest), then renumbers the functions:
// every call, ref.func, export, element segment and start is rewritten to the new index, and the
// symbol map em++ wrote beside the module (`index:name` per line) is rewritten to match. Nothing
// else changes: the bodies are the same instructions, so the module behaves exactly as before.
// Deterministic: the same module in gives the same module out.
//
//   node scripts/wasm-reorder.mjs MODULE.wasm [--symbols MODULE.wasm.symbols] [--dry-run]
//
// It reads the instruction set clang emits for this project (the MVP, plus the 0xFC prefix's
// saturating conversions and bulk memory); anything it cannot decode stops it with an error rather
// than leaving a call unrenumbered.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

import { leb as readU, parseModule } from './wasm-parts.mjs';

// ---- LEB128 ----

/** Skips a signed LEB128 (any width). */
function skipLeb(bytes, at) {
  while (bytes[at++] & 0x80);
  return at;
}

function writeU(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const vec = (items) => [...writeU(items.length), ...items.flat()];
const section = (id, payload) => Buffer.concat([Buffer.from([id, ...writeU(payload.length)]), Buffer.from(payload)]);

// ---- instructions ----

// Opcodes by the immediates that follow them (the rest of 0x00–0xC4 have none).
const ONE_INDEX = new Set([0x0c, 0x0d, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26]); // br, br_if, local.*, global.*, table.get/set
const MEMARG = (op) => op >= 0x28 && op <= 0x3e;

/**
 * A function body with every function index it names (call, ref.func) mapped through `renumber`;
 * the rest is copied byte for byte.
 */
function renumberBody(body, renumber, where) {
  const out = [];
  let copied = 0;
  const flushTo = (at) => {
    for (let i = copied; i < at; i++) out.push(body[i]);
    copied = at;
  };
  // Locals: vec of (count, type).
  let [groups, at] = readU(body, 0);
  for (; groups > 0; groups--) {
    [, at] = readU(body, at);
    at++;
  }
  while (at < body.length) {
    const op = body[at++];
    if (op === 0x10 || op === 0x12 || op === 0xd2) { // call f, return_call f, ref.func f
      flushTo(at);
      const [index, next] = readU(body, at);
      out.push(...writeU(renumber(index)));
      at = copied = next;
    } else if (op === 0x02 || op === 0x03 || op === 0x04) { // block, loop, if: a block type
      at = body[at] === 0x40 || (body[at] >= 0x6f && body[at] <= 0x7f) ? at + 1 : skipLeb(body, at);
    } else if (ONE_INDEX.has(op)) {
      at = skipLeb(body, at);
    } else if (op === 0x0e) { // br_table: vec(label) label
      let count;
      [count, at] = readU(body, at);
      for (let i = 0; i <= count; i++) at = skipLeb(body, at);
    } else if (op === 0x11 || op === 0x13) { // call_indirect, return_call_indirect: type, table
      at = skipLeb(body, skipLeb(body, at));
    } else if (op === 0x1c) { // select with types: vec(valtype)
      let count;
      [count, at] = readU(body, at);
      at += count;
    } else if (MEMARG(op)) {
      at = skipLeb(body, skipLeb(body, at));
    } else if (op === 0x3f || op === 0x40) { // memory.size, memory.grow: memory index
      at = skipLeb(body, at);
    } else if (op === 0x41 || op === 0x42) { // i32.const, i64.const
      at = skipLeb(body, at);
    } else if (op === 0x43) {
      at += 4;
    } else if (op === 0x44) {
      at += 8;
    } else if (op === 0xd0) { // ref.null t
      at++;
    } else if (op === 0xfc) {
      let sub;
      [sub, at] = readU(body, at);
      if (sub <= 7) continue; // saturating truncations
      if (sub === 8) at = skipLeb(body, at) + 1; // memory.init data, mem
      else if (sub === 9) at = skipLeb(body, at); // data.drop
      else if (sub === 10) at += 2; // memory.copy
      else if (sub === 11) at += 1; // memory.fill
      else throw new Error(`${where}: 0xFC ${sub} is not an instruction this pass knows`);
    } else if ((op >= 0x06 && op <= 0x09) || op === 0x18 || op === 0x19 || (op > 0xc4 && op !== 0xd1)) {
      // exception handling (its immediates are not read here), and the prefixes not listed above
      throw new Error(`${where}: opcode 0x${op.toString(16)} at byte ${at - 1} is not one this pass knows`);
    }
  }
  flushTo(body.length);
  return out;
}

// ---- the module ----

/** The module's sections and imported-function count (scripts/wasm-parts.mjs), refusing what this pass cannot rewrite. */
function parse(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100 || bytes.readUInt32LE(4) !== 1) throw new Error('not a WebAssembly module (version 1)');
  const { sections, imported } = parseModule(bytes);
  if (sections.some((s) => s.id === 0)) throw new Error('the module has custom sections (names, DWARF): this pass does not rewrite them');
  return { sections, imported };
}

/** A vector at `at`: [items, the offset after it]. */
function readVec(payload, at, readItem) {
  let [count, p] = readU(payload, at);
  const items = [];
  for (; count > 0; count--) {
    const [item, next] = readItem(payload, p);
    items.push(item);
    p = next;
  }
  return [items, p];
}

const listOf = (payload, readItem) => readVec(payload, 0, readItem)[0];

// ---- the order ----

/** The distinct 4-byte sequences a body holds, as numbers. */
function shingles(body) {
  const set = new Set();
  for (let i = 0; i + 4 <= body.length; i++) set.add(((body[i] << 24) | (body[i + 1] << 16) | (body[i + 2] << 8) | body[i + 3]) >>> 0);
  return [...set];
}

/**
 * A new order of the bodies: starting from `first`, each next one is the unplaced body that shares
 * the largest share of its 4-byte sequences with the last `recent` placed ones (ties: the earlier).
 * Each body's count of shared sequences is kept up to date as bodies enter and leave that context,
 * through an index from each sequence to the bodies that hold it.
 */
function similarityOrder(sets, holders, first, recent) {
  const n = sets.length;
  const placed = new Uint8Array(n);
  const shared = new Float64Array(n);
  const inContext = new Map(); // sequence -> how many of the context's bodies hold it
  const enter = (body) => {
    for (const s of sets[body]) {
      const count = inContext.get(s) ?? 0;
      inContext.set(s, count + 1);
      if (count === 0) for (const h of holders.get(s)) shared[h]++;
    }
  };
  const leave = (body) => {
    for (const s of sets[body]) {
      const count = inContext.get(s);
      if (count === 1) {
        inContext.delete(s);
        for (const h of holders.get(s)) shared[h]--;
      } else {
        inContext.set(s, count - 1);
      }
    }
  };
  const order = [first];
  placed[first] = 1;
  enter(first);
  for (let k = 1; k < n; k++) {
    let best = -1;
    let bestScore = -1;
    for (let i = 0; i < n; i++) {
      if (placed[i]) continue;
      const score = shared[i] / Math.max(1, sets[i].length);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    placed[best] = 1;
    order.push(best);
    enter(best);
    if (order.length > recent) leave(order[order.length - 1 - recent]);
  }
  return order;
}

/**
 * The greedy order for each context length in `recents` from each of `starts` starting bodies (the
 * first body and the largest ones), and of those the one whose code section gzips smallest: the
 * greedy result moves by a few hundred bytes gzipped with both.
 */
function bestOrder(bodies, { recents = [2, 4, 8, 12], starts = 4 } = {}) {
  const sets = bodies.map(shingles);
  const holders = new Map();
  sets.forEach((set, body) => {
    for (const s of set) {
      const list = holders.get(s);
      if (list) list.push(body);
      else holders.set(s, [body]);
    }
  });
  const largest = bodies.map((b, i) => [b.length, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
  const firsts = [...new Set([0, ...largest])].slice(0, Math.min(starts, bodies.length));
  let best = null;
  for (const recent of recents) {
    for (const first of firsts) {
      const order = similarityOrder(sets, holders, first, recent);
      const size = gzipSync(Buffer.concat(order.map((i) => bodies[i])), { level: 9 }).length;
      if (best === null || size < best.size) best = { order, size };
    }
  }
  return best.order;
}

// ---- the pass ----

/** The module `bytes` with its functions reordered: { bytes, oldToNew } (indices include imports). */
export function reorderFunctions(bytes, options = {}) {
  const unknown = Object.keys(options).filter((key) => key !== 'recents' && key !== 'starts');
  if (unknown.length > 0) throw new TypeError(`reorderFunctions: unknown option ${unknown.join(', ')} (known: recents, starts)`);
  const { sections, imported } = parse(bytes); // imported: how many functions are imports
  const payloadOf = (id) => sections.find((s) => s.id === id)?.payload;
  const types = listOf(payloadOf(3), (p, at) => {
    const start = at;
    const next = skipLeb(p, at);
    return [p.subarray(start, next), next];
  });
  const bodies = listOf(payloadOf(10), (p, at) => {
    const [size, start] = readU(p, at);
    return [p.subarray(start, start + size), start + size];
  });
  if (types.length !== bodies.length) throw new Error('the function and code sections disagree');

  const order = bestOrder(bodies, options);
  const oldToNew = new Uint32Array(imported + bodies.length);
  for (let i = 0; i < imported; i++) oldToNew[i] = i;
  order.forEach((old, position) => { oldToNew[imported + old] = imported + position; });
  const renumber = (index) => {
    if (index >= oldToNew.length) throw new Error(`function index ${index} is out of range`);
    return oldToNew[index];
  };

  const rewritten = new Map();
  rewritten.set(3, vec(order.map((old) => [...types[old]])));
  rewritten.set(10, vec(order.map((old) => {
    const body = renumberBody(bodies[old], renumber, `function ${imported + old}`);
    return [...writeU(body.length), ...body];
  })));
  if (payloadOf(7)) {
    rewritten.set(7, vec(listOf(payloadOf(7), (p, at) => {
      const [length, nameAt] = readU(p, at);
      const kind = p[nameAt + length];
      const [index, next] = readU(p, nameAt + length + 1);
      return [[...p.subarray(at, nameAt + length + 1), ...writeU(kind === 0 ? renumber(index) : index)], next];
    })));
  }
  if (payloadOf(8)) rewritten.set(8, writeU(renumber(readU(payloadOf(8), 0)[0])));
  if (payloadOf(9)) {
    rewritten.set(9, vec(listOf(payloadOf(9), (p, at) => {
      const [flags, exprAt] = readU(p, at);
      if (flags !== 0) throw new Error(`element segment kind ${flags}: this pass reads only kind 0 (active, table 0, function indices)`);
      // The offset: i32.const n, end.
      if (p[exprAt] !== 0x41) throw new Error('an element segment whose offset is not i32.const: this pass reads only those');
      const end = skipLeb(p, exprAt + 1);
      if (p[end] !== 0x0b) throw new Error('an element segment whose offset is more than i32.const: this pass reads only those');
      const [functions, next] = readVec(p, end + 1, readU);
      return [[...p.subarray(at, end + 1), ...vec(functions.map((f) => writeU(renumber(f))))], next];
    })));
  }

  const out = [Buffer.from(bytes.subarray(0, 8))];
  for (const s of sections) out.push(rewritten.has(s.id) ? section(s.id, rewritten.get(s.id)) : section(s.id, s.payload));
  return { bytes: Buffer.concat(out), oldToNew };
}

/** em++'s symbol map (`index:name` lines) renumbered, in the new index order. */
export function renumberSymbols(text, oldToNew) {
  return `${text.split('\n').filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return [oldToNew[Number(line.slice(0, colon))], line.slice(colon + 1)];
    })
    .sort((a, b) => a[0] - b[0])
    .map(([index, name]) => `${index}:${name}`)
    .join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // strict: an unknown or misspelt flag (`--dryrun`) is an error, never a rewrite it did not ask for.
  const { values, positionals } = parseArgs({
    options: { symbols: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error('usage: node scripts/wasm-reorder.mjs MODULE.wasm [--symbols MODULE.wasm.symbols] [--dry-run]');
  const [file] = positionals;
  // A map named on the command line must exist; em++'s default one is rewritten when it is there.
  const symbols = values.symbols ?? `${file}.symbols`;
  if (values.symbols !== undefined && !existsSync(symbols)) throw new Error(`wasm-reorder: no symbol map at ${symbols}`);
  const bytes = readFileSync(file);
  const { bytes: reordered, oldToNew } = reorderFunctions(bytes);
  new WebAssembly.Module(reordered); // validates, or throws
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  console.log(`wasm-reorder: ${file}: ${bytes.length} -> ${reordered.length} bytes, ${gz(bytes)} -> ${gz(reordered)} gzipped`);
  if (!values['dry-run']) {
    writeFileSync(file, reordered);
    if (existsSync(symbols)) writeFileSync(symbols, renumberSymbols(readFileSync(symbols, 'utf8'), oldToNew));
  }
}
