// docs/server.md runs: its swarm.json and model.mjs are written to a directory, its serve command
// is run (as node js/cli.js, the package's bin, on a free port), and each command of its curl
// session is run with bash against that server; what they print must be what the page shows,
// the session id and the port aside; then its POST /chat (the AI SDK's UI message stream), the
// stream's random id part aside. UPDATE_DOCS=1 rewrites the page's outputs instead.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { startCli } from './harness.js';

const run = promisify(execFile);
const DOC = new URL('../../../docs/server.md', import.meta.url);
const DOC_ORIGIN = 'http://127.0.0.1:8787';

// The fenced block after `<!-- server-doc: LABEL -->`: { start, end, text } (offsets of the text).
function blocks(doc) {
  const found = new Map();
  for (const m of doc.matchAll(/<!-- server-doc: ([^>]+?) -->\n```[a-z]*\n([\s\S]*?)```/g)) {
    const start = m.index + m[0].length - 3 - m[2].length;
    found.set(m[1], { start, end: start + m[2].length, text: m[2] });
  }
  return found;
}

// A console block: [{ command, output }], the output being the lines up to the next `$ `.
function session(text) {
  const steps = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps.at(-1).output.push(line);
  }
  return steps.map((s) => ({ command: s.command, output: s.output.join('\n').replace(/\n+$/, '') }));
}

test('docs/server.md: the session from curl to done prints what the page shows', async (t) => {
  const doc = await readFile(DOC, 'utf8');
  const found = blocks(doc);
  for (const label of ['file swarm.json', 'file model.mjs', 'serve', 'session', 'chat']) assert.ok(found.has(label), `docs/server.md has a <!-- server-doc: ${label} --> block`);
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-docs-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const [label, { text }] of found) if (label.startsWith('file ')) await writeFile(path.join(dir, label.slice(5)), text);

  const [serveStep] = session(found.get('serve').text);
  assert.match(serveStep.command, /^npx handoff-graph serve /);
  const server = await startCli([...serveStep.command.replace(/^npx handoff-graph /, '').split(' '), '--port', '0'], { cwd: dir });
  t.after(() => server.stop('SIGKILL'));
  assert.ok(server.url, server.output().stderr);
  const origin = server.url.replace(/\/$/, '');
  assert.equal(server.output().stdout.replaceAll(origin, DOC_ORIGIN).trimEnd(), serveStep.output);

  const steps = session(found.get('session').text);
  let actualId;
  let docId;
  const outputs = [];
  for (const step of steps) {
    const assignment = /^ID=(\S+)$/.exec(step.command);
    if (assignment) {
      assert.equal(assignment[1], docId, 'the page sets ID to the id it showed');
      outputs.push('');
      continue;
    }
    const command = step.command.replaceAll(DOC_ORIGIN, origin);
    const { stdout } = await run('bash', ['-c', command], { cwd: dir, env: { ...process.env, ID: actualId ?? '' } });
    if (actualId === undefined) {
      actualId = JSON.parse(stdout).id;
      docId = JSON.parse(step.output).id;
      assert.match(actualId, /^[A-Za-z0-9_-]{24}$/);
      assert.match(docId, /^[A-Za-z0-9_-]{24}$/, 'the page shows an id of the right shape');
    }
    outputs.push(stdout.replaceAll(actualId, docId).replaceAll(origin, DOC_ORIGIN).replace(/\n+$/, ''));
  }

  // POST /chat (the UI message stream): its random part of the message and text ids (one per
  // stream) is shown as the page has it.
  const chatSteps = session(found.get('chat').text);
  const chatOutputs = [];
  for (const step of chatSteps) {
    const { stdout } = await run('bash', ['-c', step.command.replaceAll(DOC_ORIGIN, origin)], { cwd: dir });
    const shown = /"msg-([0-9a-f]{18})"/.exec(step.output)?.[1];
    const printed = /"msg-([0-9a-f]{18})"/.exec(stdout)?.[1];
    chatOutputs.push((shown && printed ? stdout.replaceAll(printed, shown) : stdout).replace(/\n+$/, ''));
  }

  if (process.env.UPDATE_DOCS === '1') {
    let page = doc;
    for (const [label, list, outs] of [['chat', chatSteps, chatOutputs], ['session', steps, outputs]]) {
      const { start, end } = found.get(label);
      const text = list.map((s, i) => [`$ ${s.command}`, ...(outs[i] === '' ? [] : [outs[i]])].join('\n')).join('\n');
      page = `${page.slice(0, start)}${text}\n${page.slice(end)}`;
    }
    await writeFile(DOC, page);
    t.diagnostic('docs/server.md: outputs rewritten');
    return;
  }
  for (const [i, step] of steps.entries()) assert.equal(outputs[i], step.output, `docs/server.md: what \`${step.command}\` prints`);
  for (const [i, step] of chatSteps.entries()) assert.equal(chatOutputs[i], step.output, `docs/server.md: what \`${step.command}\` prints`);
  assert.match(chatOutputs[0], /^data: \{"type":"start","messageId":"msg-[0-9a-f]{18}"\}\n[\s\S]*\ndata: \[DONE\]$/);
});
