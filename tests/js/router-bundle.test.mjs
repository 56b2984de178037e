// What the routing entry's browser bundle carries (issue 21): js/router.js bundled by esbuild as
// scripts/size-report.mjs does, and which source files end up in it. The routing module has no
// export renderers, so the renderers' JavaScript (js/export.js) must stay out of the routing
// bundle, and stay in the full one, which installs it (js/export-slot.js). An application that
// imports one part of the full entry bundles only what that part reaches.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { build } from 'esbuild';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

// The source files whose code is in `entry`'s browser bundle; `contents`, if given, is the
// entry's code (resolved from the repository's root).
async function bundledFiles(entry, contents) {
  const result = await build({
    ...(contents === undefined ? { entryPoints: [entry] } : { stdin: { contents, resolveDir: repo, sourcefile: entry } }),
    bundle: true, minify: true, format: 'esm', platform: 'browser', loader: { '.wasm': 'file' },
    write: false, metafile: true, outdir: 'out', absWorkingDir: repo, logLevel: 'silent',
  });
  // What the output carries: metafile.inputs would also list the modules tree-shaking left out.
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint !== undefined);
  return Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([file]) => file);
}

test('the routing bundle leaves out the export renderers, machines and swarms; the full bundle has the renderers', async () => {
  const router = await bundledFiles('js/router.js');
  for (const file of ['js/export.js', 'js/machine.js', 'js/swarm.js', 'js/full-module.js', 'dist/handoff-graph.mjs']) assert.ok(!router.includes(file), `${file} in the routing bundle`);
  assert.ok(router.includes('js/api.js'));
  const full = await bundledFiles('js/browser.js');
  assert.ok(full.includes('js/export.js') && full.includes('js/export-slot.js'));
});

test('an application bundles the part it imports: machines without swarms, swarms without machines (scripts/size-report.mjs)', async () => {
  const importing = (names) => bundledFiles('app.js', `export { init, ${names} } from './js/browser.js';`);
  const machines = await importing('StateMachine');
  assert.ok(machines.includes('js/machine.js') && !machines.includes('js/swarm.js'));
  // A Swarm checks its workflows with js/machine-brand.js: the machine's code comes only with a workflow's machine.
  const swarms = await importing('Swarm');
  assert.ok(swarms.includes('js/swarm.js') && swarms.includes('js/machine-brand.js') && !swarms.includes('js/machine.js'));
  const graphs = await importing('HandoffGraph, compileCondition');
  for (const file of ['js/machine.js', 'js/swarm.js', 'js/durable.js', 'js/tracing.js']) assert.ok(!graphs.includes(file), `${file} in a graph-only bundle`);
});

test("one process, both entries, the full module: the routing entry's HandoffGraph renders", async () => {
  const script = `import { init, HandoffGraph as Full } from 'handoff-graph';
    import { HandoffGraph } from 'handoff-graph/router';
    await init();
    const g = new HandoffGraph().addEdge('a', 'b');
    let unknownKey = '';
    try { g.toDot({ colour: 1 }); } catch (e) { unknownKey = e.constructor.name + ': ' + e.message; }
    console.log(JSON.stringify({ same: Full === HandoffGraph, mermaid: g.toMermaid(), unknownKey }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, timeout: 30_000 });
  const out = JSON.parse(stdout.trim().split('\n').at(-1));
  assert.equal(out.same, true);
  assert.match(out.mermaid, /flowchart TD/);
  assert.match(out.unknownKey, /^TypeError: .*colour/);
});
