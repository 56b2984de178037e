// @ts-check
// check(target): what a routing design does over every possible state, before it runs
// (docs/check.md). The core decides and writes the report (src/check/); this file only finds the
// core object to ask, loading a definition given as data first.
import { HandoffGraph } from './api.js';
import { checkReport } from './check-symbol.js';
import { plainDefinition } from './definition-json.js';
import { DefinitionError } from './errors.js';
import { StateMachine } from './machine.js';
import { describe } from './text.js';
import { Swarm } from './swarm.js';

/** @import { CheckReport } from './index.js' */

/** @type {Record<string, 'graph' | 'machine' | 'swarm'>} */
const FORMATS = {
  'handoff-graph': 'graph',
  'handoff-graph/state-machine': 'machine',
  'handoff-graph/swarm': 'swarm',
};

/**
 * What a routing design does over every possible state, before it runs: dead rules, gaps,
 * unreachable states and agents, each with a witness where it has one, and one state per edge
 * that takes it (docs/check.md). `target`: a HandoffGraph, StateMachine or Swarm, or a definition
 * (an object or its JSON text) in any of the three formats.
 *
 * @param {HandoffGraph | StateMachine<any> | Swarm | string | object} target
 * @returns {CheckReport}
 */
export function check(target) {
  // (Typed for callers; a JavaScript caller may pass anything: each case is checked.)
  if (target instanceof HandoffGraph || target instanceof StateMachine || target instanceof Swarm) return target[checkReport]();
  if (typeof target === 'string' || (typeof target === 'object' && target !== null && !Array.isArray(target))) {
    return checkDefinition(target, formatOf(target));
  }
  throw new TypeError(
    `check(target) takes a HandoffGraph, StateMachine or Swarm, or a definition (an object or its JSON text), got ${describe(target)}`,
  );
}

// Which of the three formats a definition is in: its `format`, or a swarm's `agents` (a swarm
// definition may leave `format` out).
/**
 * @param {string | object} definition
 * @returns {'graph' | 'machine' | 'swarm'}
 */
function formatOf(definition) {
  /** @type {unknown} */
  let document = definition;
  if (typeof definition === 'string') {
    try {
      document = JSON.parse(definition);
    } catch {
      throw new DefinitionError([{ pointer: '', message: 'not valid JSON' }]);
    }
  } else {
    document = plainDefinition(definition);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new DefinitionError([{ pointer: '', message: 'expected an object' }]);
  }
  const format = Object.hasOwn(document, 'format') ? /** @type {Record<string, unknown>} */ (document).format : undefined;
  if (format === undefined && Object.hasOwn(document, 'agents')) return 'swarm';
  if (typeof format === 'string' && Object.hasOwn(FORMATS, format)) return FORMATS[format];
  const expected = Object.keys(FORMATS)
    .map((name) => `'${name}'`)
    .join(', ');
  const message =
    format === undefined
      ? `check() needs 'format' to tell the definition's kind: ${expected}`
      : `unknown format ${typeof format === 'string' ? JSON.stringify(format) : describe(format)}: expected ${expected}`;
  throw new DefinitionError([{ pointer: '/format', message }]);
}

/**
 * @param {string | object} definition
 * @param {'graph' | 'machine' | 'swarm'} kind
 */
function checkDefinition(definition, kind) {
  if (kind === 'swarm') {
    // No options (see below).
    const swarm = new Swarm(/** @type {any} */ (definition), undefined);
    try {
      return swarm[checkReport]();
    } finally {
      swarm.dispose();
    }
  }
  // No options (swarm.js and machine.js document theirs as required): handlers do not change
  // what check() finds.
  const loaded = kind === 'machine' ? StateMachine.fromJSON(/** @type {any} checked by fromJSON */ (definition), undefined) : HandoffGraph.fromJSON(/** @type {any} checked by fromJSON */ (definition));
  try {
    return loaded[checkReport]();
  } finally {
    loaded.dispose();
  }
}
