// @ts-check
// `handoff-graph check FILE…`: check() on definition files, for CI (docs/check.md#the-command).
// One line per finding, `FILE:POINTER: severity code: message`, the witness on the next line;
// exit status 1 when a finding is an error (with --strict, a warning too) or a file cannot be
// read or loaded, 2 for a usage mistake.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

import { check, init } from './node.js';

export const CHECK_USAGE = `Usage: handoff-graph check <definition.json>... [--strict] [--json]

Checks graph, state machine and swarm definitions (docs/check.md): rules that never fire,
states that match no edge, unreachable states and agents, states with no way to END.

  --strict    exit 1 on warnings too (errors always do)
  --json      print one JSON report per file: [{ file, ok, findings, cases } | { file, error }]
  -h, --help  this text`;

export class CheckUsageError extends Error {}

/**
 * Runs the command; resolves to the exit status.
 * @param {string[]} argv
 * @param {(line: string) => void} [out]
 * @returns {Promise<number>}
 */
export async function checkCommand(argv, out = console.log) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { strict: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CheckUsageError(/** @type {Error} */ (error).message);
  }
  const { values, positionals: files } = parsed;
  if (values.help) {
    out(CHECK_USAGE);
    return 0;
  }
  if (files.length === 0) throw new CheckUsageError('check needs at least one definition file');
  await init();
  /** @type {Array<{ file: string, error?: string, findings?: any[] }>} */
  const reports = [];
  let failed = false;
  for (const file of files) {
    let report;
    try {
      report = { file, ...check(await readFile(file, 'utf8')) };
    } catch (e) {
      const error = /** @type {Error} */ (e);
      reports.push({ file, error: error.message });
      failed = true;
      if (!values.json) out(`${file}: error: ${error.message}`);
      continue;
    }
    reports.push(report);
    for (const f of report.findings) {
      if (f.severity === 'error' || (values.strict && f.severity === 'warning')) failed = true;
      if (values.json) continue;
      out(`${file}:${f.pointer}: ${f.severity} ${f.code}: ${f.message}`);
      if (f.witness !== undefined) out(`  witness: ${JSON.stringify(f.witness)}`);
    }
  }
  if (values.json) {
    out(JSON.stringify(reports, null, 2));
  } else {
    const count = reports.reduce((n, r) => n + (r.findings?.length ?? 0), 0);
    out(`${files.length} file${files.length === 1 ? '' : 's'} checked, ${count} finding${count === 1 ? '' : 's'}`);
  }
  return failed ? 1 : 0;
}
