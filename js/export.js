// @ts-check
// Exports of graphs and machines (docs/format.md): the core renders the DAG model (ours, or
// AgentEnsemble's DagModel 1.3 for machines), Mermaid and DOT; this file only checks options and
// passes a run or trace along as JSON.

import { checkOptions } from './options.js';
import { describe } from './text.js';

const KINDS = ['flowchart', 'state'];
const DIRECTIONS = ['TD', 'TB', 'BT', 'LR', 'RL'];
const DAG_FORMATS = ['handoff-graph', 'agentensemble'];
// `highlight`, `run` and `trace` are one option under three names: a run or trace to mark.
const MARKS = ['highlight', 'run', 'trace'];
// Per format: the method users call, and its options.
/** @type {Record<'dag' | 'mermaid' | 'dot', { method: string, allowed: string[] }>} */
const FORMATS = {
  dag: { method: 'toDag', allowed: [...MARKS, 'format', 'generatedAt'] },
  dot: { method: 'toDot', allowed: MARKS },
  mermaid: { method: 'toMermaid', allowed: ['kind', 'direction', ...MARKS] },
};

// What the core reads of a machine run: its reason and each step's state, fired edge and branches. The
// rest (the state, the outputs) may be large, or hold what JSON cannot, and is not needed.
/**
 * @param {any} highlight a run, a trace or an execution's steps, as the caller gave it
 * @returns {unknown}
 */
function traceOf(highlight) {
  if (typeof highlight !== 'object' || highlight === null || Array.isArray(highlight) || !Array.isArray(highlight.steps)) return highlight;
  const steps = highlight.steps.map((/** @type {any} */ s) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
    // A fan-out step's branches are visits too (their states only).
    if (!Array.isArray(s.branches)) return { step: s.step, state: s.state, edge: s.edge };
    return { step: s.step, state: s.state, edge: s.edge, branches: s.branches.map((/** @type {any} */ b) => ({ state: b?.state })) };
  });
  return 'reason' in highlight ? { reason: highlight.reason, steps } : { steps };
}

/**
 * The `kind` and `direction` of a picture's options, checked, with their defaults: a flowchart
 * top-down, a state diagram left to right (Mermaid's; the other formats ignore them).
 * @param {{ kind?: string, direction?: string }} options
 */
export function pictureLayout({ kind = 'flowchart', direction = kind === 'state' ? 'LR' : 'TD' }) {
  if (!KINDS.includes(kind)) throw new TypeError(`kind must be 'flowchart' or 'state', got ${describe(kind)}`);
  if (!DIRECTIONS.includes(direction)) throw new TypeError(`direction must be one of ${DIRECTIONS.join(', ')}, got ${describe(direction)}`);
  return { kind, direction };
}

/**
 * @param {any} native a core HandoffGraph or Machine (an embind object)
 * @param {'dag' | 'mermaid' | 'dot'} format
 * @param {{ kind?: string, direction?: string, highlight?: unknown, run?: unknown, trace?: unknown,
 *           format?: string, generatedAt?: string }} options
 */
export function exportOf(native, format, options) {
  const { method, allowed } = FORMATS[format];
  options = checkOptions(options, allowed, `${method} options`);
  const { kind, direction } = pictureLayout(options);
  /** @type {string} */
  let rendered = format;
  let generatedAt = '';
  if (format === 'dag') {
    const { format: dagFormat = 'handoff-graph' } = options;
    if (!DAG_FORMATS.includes(dagFormat)) throw new TypeError(`format must be 'handoff-graph' or 'agentensemble', got ${describe(dagFormat)}`);
    if (options.generatedAt !== undefined && typeof options.generatedAt !== 'string') {
      throw new TypeError(`generatedAt must be an ISO-8601 string, got ${describe(options.generatedAt)}`);
    }
    if (dagFormat === 'agentensemble') {
      rendered = 'agentensemble';
      // The one member that is the host's clock (the core has none); fixed by callers that diff.
      generatedAt = options.generatedAt ?? new Date().toISOString();
    } else if (options.generatedAt !== undefined) {
      throw new TypeError("generatedAt is a member of AgentEnsemble's DagModel: use it with format: 'agentensemble'");
    }
  }
  const highlight = options.highlight ?? options.run ?? options.trace;
  const trace = highlight === undefined || highlight === null ? '' : JSON.stringify(traceOf(highlight));
  const out = native.export(trace, rendered, kind, direction, generatedAt);
  if (out.error !== undefined) throw new TypeError(out.error);
  return out.text;
}
