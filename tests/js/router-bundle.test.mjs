// What the routing entry's browser bundle carries (issue 21): js/router.js bundled by esbuild as
// scripts/size-report.mjs does, and which source files end up in it. The routing module has no
// export renderers, so the renderers' JavaScript (js/export.js) must stay out of the routing
// bundle, and stay in the full one, which installs it (js/export-slot.js).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { build } from 'esbuild';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

async function bundledFiles(entry) {
  const result = await build({
    entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', loader: { '.wasm': 'file' },
    write: false, metafile: true, outdir: 'out', absWorkingDir: repo, logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

test('the routing bundle leaves out the export renderers, machines and swarms; the full bundle has the renderers', async () => {
  const router = await bundledFiles('js/router.js');
  for (const file of ['js/export.js', 'js/machine.js', 'js/swarm.js', 'js/full-native.js', 'js/full-module.js']) assert.ok(!router.includes(file), `${file} in the routing bundle`);
  assert.ok(router.includes('js/api.js'));
  const full = await bundledFiles('js/browser.js');
  assert.ok(full.includes('js/export.js') && full.includes('js/export-slot.js'));
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
