// How the Node entries load: time from process start to the first route, and memory, for the
// ways a process can reach the package (import, require, both), and for the two designs measured
// against the one shipped (docs/architecture.md, "One runtime per process"):
//   shipped   `require` hands out the ES module itself (js/require.cjs, Node 20.19+ / 22.12+)
//   wrap-cjs  the ESM entry re-exports the CommonJS build (dist/index.cjs) for both
//   registry  ESM source and CommonJS build both loaded, sharing one runtime under a global symbol
//             (measured as its load cost: both copies of the code loaded, one module instantiated)
// Run: node bench/entries.mjs [runs]   (needs bash scripts/build.sh)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const js = fileURLToPath(new URL('../js/', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

const ROUTE = `g => { g.addEdge('triage', 'billing', "category == 'billing'"); g.addEdge('triage', 'human'); return g.route('triage', { category: 'billing' }); }`;
const REPORT = `(hg) => { const r = (${ROUTE})(new hg.HandoffGraph()); if (r !== 'billing') throw new Error(r);
  const cpu = process.cpuUsage(); console.log(JSON.stringify({ ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss })); }`;

const cases = {
  'import (ESM)': `const hg = await import(${JSON.stringify(`${js}node.js`)}); await hg.init(); (${REPORT})(hg);`,
  'require, shipped (require(esm) of the same module)': `const hg = require(${JSON.stringify(`${js}require.cjs`)}); await hg.init(); (${REPORT})(hg);`,
  'import + require, shipped (one runtime)': `const a = await import(${JSON.stringify(`${js}node.js`)}); const b = require(${JSON.stringify(`${js}require.cjs`)});
    if (a.init !== b.init) throw new Error('two runtimes'); await a.init(); (${REPORT})(b);`,
  'require, CommonJS build (the fallback for older Nodes)': `const hg = require(${JSON.stringify(`${dist}index.cjs`)}); await hg.init(); (${REPORT})(hg);`,
  'import, wrap-cjs (ESM entry re-exports dist/index.cjs)': `const a = await import(${JSON.stringify(`${dist}index.cjs`)});
    await a.default.init(); (${REPORT})(a.default);`,
  'import + require, wrap-cjs (ESM entry re-exports dist/index.cjs)': `const a = await import(${JSON.stringify(`${dist}index.cjs`)}); const b = require(${JSON.stringify(`${dist}index.cjs`)});
    await a.default.init(); (${REPORT})(b);`,
  'import + require, registry (both copies loaded, one instantiated)': `const a = await import(${JSON.stringify(`${js}node.js`)}); const b = require(${JSON.stringify(`${dist}index.cjs`)});
    await a.init(); (${REPORT})(a);`,
};

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(`node ${process.version}, ${runs} runs each, medians at the first route: wall time and CPU time since process start (CPU time is steadier on a busy machine), and RSS`);
for (const [name, body] of Object.entries(cases)) {
  const script = `const { createRequire } = await import('node:module'); const require = createRequire(${JSON.stringify(`${js}x.js`)}); ${body}`;
  const samples = [];
  for (let i = 0; i < runs; i++) {
    samples.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })));
  }
  const ms = median(samples.map((s) => s.ms));
  const cpuMs = median(samples.map((s) => s.cpuMs));
  const rss = median(samples.map((s) => s.rss)) / 2 ** 20;
  console.log(`${name.padEnd(68)} ${ms.toFixed(0).padStart(5)} ms wall ${cpuMs.toFixed(0).padStart(5)} ms CPU ${rss.toFixed(1).padStart(6)} MiB`);
}
