// Exports of graphs and machines (docs/format.md): the core renders the DAG model, Mermaid and
// DOT; this file only checks options and passes a run or trace along as JSON.

import { describe } from './text.js';

const KINDS = ['flowchart', 'state'];
const DIRECTIONS = ['TD', 'TB', 'BT', 'LR', 'RL'];

/**
 * @param native a core HandoffGraph or Machine
 * @param {'dag' | 'mermaid' | 'dot'} format
 * @param {{ kind?: string, direction?: string, highlight?: unknown, run?: unknown, trace?: unknown }} options
 */
export function exportOf(native, format, options = {}) {
  if (typeof options !== 'object' || options === null) throw new TypeError(`export options must be an object, got ${describe(options)}`);
  const { kind = 'flowchart', direction = kind === 'state' ? 'LR' : 'TD' } = options;
  if (!KINDS.includes(kind)) throw new TypeError(`kind must be 'flowchart' or 'state', got ${describe(kind)}`);
  if (!DIRECTIONS.includes(direction)) throw new TypeError(`direction must be one of ${DIRECTIONS.join(', ')}, got ${describe(direction)}`);
  const highlight = options.highlight ?? options.run ?? options.trace;
  const trace = highlight === undefined || highlight === null ? '' : JSON.stringify(highlight);
  const out = native.export(trace, format, kind, direction);
  if (out.error !== undefined) throw new TypeError(`cannot mark this trace: ${out.error}`);
  return out.text;
}
