// Exports of graphs and machines (docs/format.md): the core renders the DAG model, Mermaid and
// DOT; this file only checks options and passes a run or trace along as JSON.

import { checkOptions } from './options.js';
import { describe } from './text.js';

const KINDS = ['flowchart', 'state'];
const DIRECTIONS = ['TD', 'TB', 'BT', 'LR', 'RL'];
// `highlight`, `run` and `trace` are one option under three names: a run or trace to mark.
const MARKS = ['highlight', 'run', 'trace'];
// Per format: the method users call, and its options.
const FORMATS = {
  dag: { method: 'toDag', allowed: MARKS },
  dot: { method: 'toDot', allowed: MARKS },
  mermaid: { method: 'toMermaid', allowed: ['kind', 'direction', ...MARKS] },
};

/**
 * @param native a core HandoffGraph or Machine
 * @param {'dag' | 'mermaid' | 'dot'} format
 * @param {{ kind?: string, direction?: string, highlight?: unknown, run?: unknown, trace?: unknown }} options
 */
export function exportOf(native, format, options) {
  const { method, allowed } = FORMATS[format];
  options = checkOptions(options, allowed, `${method} options`);
  const { kind = 'flowchart', direction = kind === 'state' ? 'LR' : 'TD' } = options;
  if (!KINDS.includes(kind)) throw new TypeError(`kind must be 'flowchart' or 'state', got ${describe(kind)}`);
  if (!DIRECTIONS.includes(direction)) throw new TypeError(`direction must be one of ${DIRECTIONS.join(', ')}, got ${describe(direction)}`);
  const highlight = options.highlight ?? options.run ?? options.trace;
  const trace = highlight === undefined || highlight === null ? '' : JSON.stringify(highlight);
  const out = native.export(trace, format, kind, direction);
  if (out.error !== undefined) throw new TypeError(`cannot mark this trace: ${out.error}`);
  return out.text;
}
