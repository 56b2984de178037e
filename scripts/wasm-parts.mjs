// What the bytes of a WebAssembly module are: each function body's size, attributed to a part of
// the code (the JSON library, the export renderers, ...) by its symbol name, plus the data
// and the other sections. Names come from the `.symbols` file that em++ --emit-symbol-map writes
// beside the module (`index:mangled name` per line), so the module measured is the shipped one.
// A part's gzipped figure is its bytes gzipped on their own: an estimate (gzip finds repeats
// across parts too), good for ranking the parts and for predicting what dropping one saves.
//
//   node scripts/wasm-parts.mjs build/wasm/handoff-graph.wasm [--json]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** Parts in order of precedence: the first pattern that matches a demangled name wins. */
export const PARTS = [
  ['JSON (nlohmann::ordered_json; the core\'s reader and writer, src/core/json.h)',
    /nlohmann::|handoff::json::|handoff::core::(parse_json|dump_json)|handoff::core::\(anonymous namespace\)::Builder/],
  ['export renderers (DAG, Mermaid, DOT)', /handoff::dag::/],
  ['swarm and handoff policy', /handoff::swarm::|handoff::policy|handoff::handoff/],
  ['state machine', /handoff::machine::/],
  ['definitions (toJSON/fromJSON)', /handoff::definition::|handoff::reader/],
  ['condition language', /handoff::condition::/],
  ['graph', /handoff::graph::/],
  ['bindings', /\(anonymous namespace\)::|^hg_/],
  ['C++ standard library', /std::|__cxa|__cxx|operator new|operator delete|__libcpp|__gxx/],
  ['C library, malloc', /./],
];

/** The unsigned LEB128 at `at`: [value, the offset after it]. */
export function leb(bytes, at) {
  let result = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [result, at];
}

/**
 * Sections and function bodies of a module: { sections: [{ id, name, size, payload }], bodies:
 * [Uint8Array], imported } (`size` counts the section's header, `payload` is its contents).
 */
export function parseModule(bytes) {
  const sections = [];
  const bodies = [];
  let imported = 0;
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    let name = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount'][id] ?? `section ${id}`;
    if (id === 0) {
      const [length, nameAt] = leb(bytes, start);
      name = `custom "${new TextDecoder().decode(bytes.subarray(nameAt, nameAt + length))}"`;
    }
    if (id === 2) {
      let [count, p] = leb(bytes, start);
      for (; count > 0; count--) {
        let length;
        [length, p] = leb(bytes, p);
        p += length;
        [length, p] = leb(bytes, p);
        p += length;
        const kind = bytes[p++];
        if (kind === 0) {
          imported++;
          [, p] = leb(bytes, p);
        } else if (kind === 1) {
          p += 1;
          const flags = bytes[p++];
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 2) {
          const flags = bytes[p++];
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 3) {
          p += 2;
        }
      }
    }
    if (id === 10) {
      let [count, p] = leb(bytes, start);
      for (; count > 0; count--) {
        let length;
        [length, p] = leb(bytes, p);
        bodies.push(bytes.subarray(p, p + length));
        p += length;
      }
    }
    sections.push({ id, name, size: end - at, payload: bytes.subarray(start, end) });
    at = end;
  }
  return { sections, bodies, imported };
}

/** index → demangled name, from em++'s --emit-symbol-map file. */
function symbolNames(file) {
  const names = new Map();
  if (!existsSync(file)) return names;
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const mangled = lines.map((line) => line.slice(line.indexOf(':') + 1));
  // em++ writes demangled names with some characters escaped as \XX (hex); older maps are mangled.
  const unescaped = mangled.map((name) => name.replace(/\\([0-9a-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))));
  const demangled = execFileSync('llvm-cxxfilt-14', { input: unescaped.join('\n'), maxBuffer: 64 << 20 }).toString().split('\n');
  for (const [i, line] of lines.entries()) names.set(Number(line.slice(0, line.indexOf(":"))), demangled[i] ?? unescaped[i]);
  return names;
}

/** Removes template arguments and parameter lists: what is left names the function's own namespace. */
function head(name) {
  let out = '';
  let depth = 0;
  for (const c of name) {
    if (c === '<' || c === '(') depth++;
    else if ((c === '>' || c === ')') && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out;
}

/** The part a function belongs to: by its own qualified name first, then by anything it names. */
export function partOf(name) {
  const own = head(name);
  const byOwn = PARTS.slice(0, -2).find(([, pattern]) => pattern.test(own));
  if (byOwn) return byOwn[0];
  if (/std::|__cxa|__cxx|operator new|operator delete/.test(own)) {
    // A standard template instantiated for one part (a vector of its records) counts as that part's.
    const byArgument = PARTS.slice(0, -3).find(([, pattern]) => pattern.test(name));
    return byArgument ? byArgument[0] : PARTS.at(-2)[0];
  }
  return PARTS.find(([, pattern]) => pattern.test(name))?.[0] ?? PARTS.at(-1)[0];
}

const gz = (buffers) => gzipSync(Buffer.concat(buffers), { level: 9 }).length;

/** The size report of the module at `file`: parts (function bodies by part) and the other sections. */
export function wasmParts(file) {
  const bytes = readFileSync(file);
  const { sections, bodies, imported } = parseModule(bytes);
  const names = symbolNames(`${file.replace(/\.wasm$/, '')}.mjs.symbols`).size > 0
    ? symbolNames(`${file.replace(/\.wasm$/, '')}.mjs.symbols`)
    : symbolNames(`${file}.symbols`);
  const byPart = new Map(PARTS.map(([part]) => [part, { part, functions: 0, bytes: 0, bodies: [], largest: [] }]));
  bodies.forEach((body, i) => {
    const name = names.get(imported + i) ?? '';
    const part = partOf(name);
    const entry = byPart.get(part);
    entry.functions++;
    entry.bytes += body.length;
    entry.bodies.push(body);
    entry.largest.push([body.length, name]);
  });
  const parts = [...byPart.values()].filter((p) => p.functions > 0).map(({ bodies: b, largest, ...rest }) => ({
    ...rest,
    gzip: gz(b),
    largest: largest.sort((x, y) => y[0] - x[0]).slice(0, 6).map(([size, name]) => `${name.slice(0, 90)} (${size})`),
  }));
  const code = sections.find((s) => s.id === 10)?.size ?? 0;
  return {
    file,
    bytes: bytes.length,
    gzip: gz([bytes]),
    named: names.size > 0,
    parts: parts.sort((a, b) => b.bytes - a.bytes),
    sections: sections.filter((s) => s.id !== 10).map(({ name, size }) => ({ name, size })).concat([{ name: 'code', size: code }]),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = wasmParts(process.argv[2]);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log(`${report.file}: ${report.bytes} bytes, ${report.gzip} gzipped${report.named ? '' : ' (no symbol map: run with --emit-symbol-map)'}`);
    for (const p of report.parts) console.log(`  ${p.part.padEnd(40)} ${String(p.functions).padStart(5)} fns ${String(p.bytes).padStart(8)} B ${String(p.gzip).padStart(7)} gz   ${p.largest[0] ?? ''}`);
    for (const s of report.sections) console.log(`  [${s.name}] ${s.size}`);
  }
}
