// Runs the code of a Markdown document and compares what it prints with the output the document
// shows, so that docs cannot drift from the code (issue 13: "docs that run").
//
// The markers are words in a fenced block's info string, after the language, so they render as
// ordinary code blocks on GitHub and npm:
//
//   ```js            a snippet: part of the document's one script, run in order, top to bottom
//   ```text output   what the snippet just above printed (console.log), compared exactly; it must
//                    be the next fenced block after its snippet
//   ```js skip       shown, never run (it needs a network or a key); it cannot have an output
//
// Other fenced blocks (```ts, a diagram in plain ```) are prose. A snippet that prints something
// must show it in an output block, and an output block must follow a snippet that runs: both are
// errors, so a marker cannot be forgotten silently. The script runs as one ES module in a child
// Node process, in `cwd` (the package root, so `import … from 'handoff-graph'` resolves to this
// package); UPDATE_DOCS=1 in the test that uses this file rewrites the output blocks instead
// (review the diff).
import { spawn } from 'node:child_process';

const FENCE = /^(`{3,})(.*)$/;

/**
 * The fenced blocks of `markdown` that matter here: [{ code, line, skip, output?: { text, line,
 * start, end } }], one per ```js block in order (`line` is 1-based; `start`/`end` are the line
 * indexes of the output's text, for rewriting).
 */
export function extractSnippets(markdown) {
  const lines = markdown.split('\n');
  const snippets = [];
  let previous = null; // the last fenced block: { kind: 'snippet' | 'other', snippet? }
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open === null) continue;
    const [, ticks, info] = open;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const close = lines.findIndex((l, k) => k > i && l.startsWith(ticks) && l.slice(ticks.length).trim() === '');
    if (close === -1) throw new Error(`line ${i + 1}: a fenced block that is never closed`);
    const text = lines.slice(i + 1, close).join('\n');
    if (words.includes('output')) {
      if (previous?.kind !== 'snippet') throw new Error(`line ${i + 1}: an output block that does not follow a snippet`);
      if (previous.snippet.skip) throw new Error(`line ${i + 1}: an output block after a snippet marked skip, which never runs`);
      previous.snippet.output = { text, line: i + 1, start: i + 1, end: close };
      previous = { kind: 'other' };
    } else if (words[0] === 'js' || words[0] === 'javascript') {
      const snippet = { code: text, line: i + 1, skip: words.includes('skip') };
      snippets.push(snippet);
      previous = { kind: 'snippet', snippet };
    } else {
      previous = { kind: 'other' };
    }
    i = close;
  }
  return snippets;
}

const MARK = (n) => `\u001edoc-snippet ${n}\u001e`;

/**
 * Runs the snippets (skipped ones left out) as one module in a child process. Resolves to
 * [{ snippet, printed }] for the snippets that ran, `printed` being exactly what each wrote to
 * stdout; rejects with the child's stderr when the script fails.
 */
export async function runSnippets(snippets, { cwd, env = {}, timeoutMs = 60_000 } = {}) {
  const running = snippets.filter((s) => !s.skip);
  const script = running.map((s, n) => `console.log(${JSON.stringify(MARK(n))});\n${s.code}`).join('\n');
  const child = spawn(process.execPath, ['--input-type=module'], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  child.stdin.end(script);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the document's script failed (${signal ?? `exit code ${code}`}):\n${stderr}`);
  return running.map((snippet, n) => {
    const from = stdout.indexOf(`${MARK(n)}\n`);
    const to = n + 1 < running.length ? stdout.indexOf(`${MARK(n + 1)}\n`) : stdout.length;
    if (from === -1 || to === -1) throw new Error(`snippet at line ${snippet.line} did not run to its end`);
    return { snippet, printed: stdout.slice(from + MARK(n).length + 1, to) };
  });
}

/** The problems of a run: [{ line, message }] for each snippet whose printed text differs from its output block. */
export function differences(results) {
  const problems = [];
  for (const { snippet, printed } of results) {
    const shown = snippet.output === undefined ? '' : `${snippet.output.text}\n`;
    if (snippet.output === undefined && printed === '') continue;
    if (printed === shown) continue;
    const a = shown.split('\n');
    const b = printed.split('\n');
    const k = a.findIndex((l, i) => l !== b[i]);
    const where = snippet.output === undefined ? `the snippet at line ${snippet.line} printed output that the document does not show` : `the output at line ${snippet.output.line} differs from what its snippet printed`;
    problems.push({ line: snippet.line, message: `${where}, at output line ${k + 1}:\n  shown:   ${JSON.stringify(a[k] ?? '(end)')}\n  printed: ${JSON.stringify(b[k] ?? '(end)')}` });
  }
  return problems;
}

/** `markdown` with each output block replaced by what its snippet printed (for UPDATE_DOCS=1). */
export function rewriteOutputs(markdown, results) {
  const lines = markdown.split('\n');
  const replacements = results.filter((r) => r.snippet.output !== undefined).sort((x, y) => y.snippet.output.start - x.snippet.output.start);
  for (const { snippet, printed } of replacements) {
    lines.splice(snippet.output.start, snippet.output.end - snippet.output.start, ...printed.replace(/\n$/, '').split('\n'));
  }
  return lines.join('\n');
}
