// @ts-check
// Recordings (docs/replay.md): what the trace log holds of a session's turns or a machine's run,
// read back for a replay. A swarm recording is one session's lines in order: each turn opens with
// an `open` line that carries the recording's version and what the turn started from, then the
// turn's events and the answers of the model, the tools and the host's functions; a machine
// recording is a run's `start` line and its `step` lines, each with its update. This file reads
// both (an array of lines, or JSONL text), checks them, splits a session into turns, and turns
// events into the routing decisions a replay compares. It decides nothing: the replays in
// js/replay.js re-run the real Swarm and StateMachine and compare what they decided.
import { plainDefinition } from './definition-json.js';
import { DefinitionError, RecordingError } from './errors.js';
import { closest } from './options.js';
import { describe } from './text.js';
import { isRecord } from './values.js';

/** The version of the recording format this library writes and reads (the open and start lines' `recording`). */
export const RECORDING_VERSION = 1;

/** A machine's private way to build its twin for a replay: the same definition, the given handlers. */
export const TWIN = Symbol('handoff-graph.twin');

// What a swarm recording's lines may be: the turn's events (as the trace log writes them, without
// chunks) and the recording's own lines.
const SWARM_LINES = new Set([
  'open', 'handoff', 'handoff_blocked', 'tool_use', 'tool_result', 'response', 'approval_required', 'approval_resolved',
  'guardrail_tripped', 'intent', 'intent_done', 'status', 'workflow_step', 'workflow_done', 'agent_tool', 'tool_mock_required',
  'state_rejected', 'error', 'done', 'chunk', 'mcp_unavailable',
  'model', 'tool', 'extract', 'intents', 'workflow', 'update',
]);
const MACHINE_LINES = new Set(['start', 'step', 'end', 'error']);

// A recording's line is JSON, checked here field by field before anything reads it: `any` is the
// honest type of its fields in this file.
/** @typedef {{ type: string, [field: string]: any }} Line a recording's line */
/** @typedef {{ step: number, state: string, visit: number, next: string | null, edge: number | null, update: Record<string, unknown> | null }} ReplayStep */
/** @typedef {{ kind: string, value: unknown, approvalId?: string }} Decision a routing decision a replay compares */
/**
 * @typedef {{ open: Line, lines: Line[], index: number, updates: Line[], at: number[] }} SwarmTurn
 * a recorded turn (swarmTurns); `at`: the recording's positions of `updates`, then of `lines`
 */

/** @type {(pointer: string, message: string) => RecordingError} */
const problem = (pointer, message) => new RecordingError([{ pointer, message }]);

// The fields of the lines a replay reads (docs/format.md#recordings), besides `type` and what the
// trace log adds to every line; another field is a mistake, named with the closest known one.
const LOG_FIELDS = ['type', 'time', 'swarm', 'session', 'machine', 'runId'];
/** @type {Record<string, string[]>} */
const LINE_FIELDS = {
  open: ['agent', 'turn', 'approvalId', 'recording', 'input', 'variables', 'maxModelCalls'],
  model: ['agent', 'tools', 'text', 'toolCalls'],
  tool: ['agent', 'tool', 'callId', 'by', 'result', 'variables'],
  extract: ['variables'],
  intents: ['intents'],
  workflow: ['agent', 'state', 'outputs', 'text', 'variables'],
  update: ['variables', 'before', 'outcome'],
  approval_resolved: ['approvalId', 'approved', 'reason'],
  start: ['recording', 'state', 'step'],
  step: ['step', 'state', 'visit', 'next', 'edge', 'durationMs', 'branches', 'subgraph', 'update'],
  end: ['reason', 'stepsRun'],
};

/**
 * @param {Line} line
 * @param {number} i
 */
function checkFields(line, i) {
  const known = LINE_FIELDS[line.type];
  if (known === undefined) return;
  const allowed = [...LOG_FIELDS, ...known];
  for (const key of Object.keys(line)) {
    if (allowed.includes(key)) continue;
    const suggestion = closest(key, allowed);
    throw problem(`/${i}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, `unknown field '${key}' of a '${line.type}' line${suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`}`);
  }
}

/**
 * The lines of a JSONL text that hold a line of the recording (blank ones skipped), each with its
 * number in the text (from 1): what readLines reads, in order.
 * @param {string} text
 * @returns {Array<{ number: number, text: string }>}
 */
export function textLines(text) {
  return text.split('\n').flatMap((line, i) => (line.trim() === '' ? [] : [{ number: i + 1, text: line }]));
}

/**
 * The lines of a recording given as an array of objects or as JSONL text (one JSON object a
 * line; blank lines skipped): plain JSON data, each an object with a string `type`. Values JSON
 * cannot hold are problems at their pointer (`/3/variables/n`); a JSONL line that does not parse
 * is one at `/<its index>` naming the line.
 * @param {unknown} recording
 * @param {string} what how a message names the call, e.g. 'swarm.replay(recording)'
 * @returns {Line[]}
 */
export function readLines(recording, what) {
  /** @type {unknown[]} */
  let lines;
  if (typeof recording === 'string') {
    lines = [];
    for (const { number, text } of textLines(recording)) {
      try {
        lines.push(JSON.parse(text));
      } catch (error) {
        throw problem(`/${lines.length}`, `line ${number} is not JSON (${error instanceof RangeError ? 'it nests too deeply' : /** @type {Error} */ (error).message})`);
      }
    }
  } else if (Array.isArray(recording)) {
    try {
      lines = /** @type {unknown[]} */ (plainDefinition(recording));
    } catch (error) {
      if (error instanceof DefinitionError) throw new RecordingError(error.problems);
      throw error;
    }
  } else {
    throw new TypeError(`${what} takes a recording: an array of its lines or their JSONL text, got ${describe(recording)}`);
  }
  for (const [i, line] of lines.entries()) {
    if (!isRecord(line)) throw problem(`/${i}`, `a recording's line is an object, got ${describe(line)}`);
    if (typeof line.type !== 'string') throw problem(`/${i}/type`, `a recording's line has a string type, got ${describe(line.type)}`);
  }
  return /** @type {Line[]} each checked above */ (lines);
}

/**
 * @param {boolean} ok
 * @param {string} pointer
 * @param {string} message
 */
function expect(ok, pointer, message) {
  if (!ok) throw problem(pointer, message);
}

/** @type {(value: unknown, test: (item: unknown) => boolean) => boolean} */
const isArrayOf = (value, test) => Array.isArray(value) && value.every(test);

// The recording's own lines, checked for what a replay reads of them.
/**
 * @param {Line} line
 * @param {number} i
 */
function checkSwarmLine(line, i) {
  /** @type {(key: string) => string} */
  const at = (key) => `/${i}/${key}`;
  expect(SWARM_LINES.has(line.type), at('type'), `unknown line type '${line.type}' in a swarm recording`);
  checkFields(line, i);
  switch (line.type) {
    case 'open':
      expect(line.recording === RECORDING_VERSION, at('recording'), line.recording === undefined
        ? 'the turn has no recording version: its log was written before recordings were complete (handoff-graph 0.1), so it cannot be replayed'
        : `recording version ${describe(line.recording)} is not one this library reads (${RECORDING_VERSION})`);
      expect(typeof line.agent === 'string', at('agent'), 'expected the agent id');
      expect(isRecord(line.variables), at('variables'), 'expected the session\'s variables (an object)');
      expect(Number.isSafeInteger(line.maxModelCalls) && line.maxModelCalls >= 0, at('maxModelCalls'), 'expected an integer >= 0');
      if (line.approvalId === undefined) expect(typeof line.input === 'string', at('input'), 'expected the turn\'s input (a string)');
      else expect(typeof line.approvalId === 'string', at('approvalId'), 'expected a string');
      break;
    case 'model':
      expect(typeof line.agent === 'string', at('agent'), 'expected the agent id');
      expect(isArrayOf(line.tools, (t) => typeof t === 'string'), at('tools'), 'expected the names of the tools offered');
      expect(typeof line.text === 'string', at('text'), 'expected the answer\'s text');
      expect(isArrayOf(line.toolCalls, isRecord), at('toolCalls'), 'expected the answer\'s tool calls (an array of objects)');
      break;
    case 'tool':
      expect(typeof line.tool === 'string', at('tool'), 'expected the tool\'s name');
      expect(typeof line.result === 'string', at('result'), 'expected the result (a string)');
      if (line.variables !== undefined) expect(isArrayOf(line.variables, isRecord), at('variables'), 'expected the variables the tool set (an array of objects)');
      break;
    case 'extract':
      expect(line.variables === null || isRecord(line.variables), at('variables'), 'expected the variables extracted (an object or null)');
      break;
    case 'intents':
      expect(line.intents === null || isArrayOf(line.intents, isRecord), at('intents'), 'expected the intents (an array of { text, variables } or null)');
      break;
    case 'workflow':
      expect(typeof line.agent === 'string', at('agent'), 'expected the agent id');
      expect(isRecord(line.state), at('state'), 'expected the state the machine started from');
      expect(isRecord(line.outputs), at('outputs'), 'expected every visit\'s update, by state');
      expect(typeof line.text === 'string', at('text'), 'expected the answer');
      break;
    case 'update':
      expect(isRecord(line.variables), at('variables'), 'expected the variables given to updateState (an object)');
      expect(isRecord(line.before), at('before'), 'expected the session\'s variables before the update (an object)');
      expect(line.outcome === null || isRecord(line.outcome), at('outcome'), 'expected the rule that fired (a handoff outcome) or null');
      break;
    case 'approval_resolved':
      expect(typeof line.approved === 'boolean', at('approved'), 'expected true or false');
      break;
    default:
  }
}

/**
 * A swarm recording read and split into turns: [{ open, lines, index, updates, at }] in order
 * (`index`: the open line's position in the recording; `updates`: the host's changes between the
 * turn before and this one, its `update` lines; `at`: the position of each of `updates`, then of
 * `lines`). The lines must be one session's (those without a `session` field are taken as its);
 * any other line before the first open is a problem.
 * @param {unknown} recording
 * @returns {{ session: string | undefined, turns: SwarmTurn[] }}
 */
export function swarmTurns(recording) {
  const lines = readLines(recording, 'swarm.replay(recording)');
  /** @type {SwarmTurn[]} */
  const turns = [];
  /** @type {Line[]} */
  let updates = [];
  /** @type {number[]} */
  let updatesAt = [];
  /** @type {unknown} */
  let session;
  for (const [i, line] of lines.entries()) {
    checkSwarmLine(line, i);
    if (line.session !== undefined) {
      session ??= line.session;
      expect(line.session === session, `/${i}/session`, `a recording is one session's lines: this one is of session ${describe(line.session)}, the first of ${describe(session)} (the command splits a log by session)`);
    }
    if (line.type === 'update') {
      updates.push(line);
      updatesAt.push(i);
    } else if (line.type === 'open') {
      turns.push({ open: line, lines: [], index: i, updates, at: updatesAt });
      updates = [];
      updatesAt = [];
    } else if (turns.length === 0) throw problem(`/${i}`, `the recording starts with a '${line.type}' line: a turn starts with its 'open' line`);
    else {
      const turn = turns[turns.length - 1];
      turn.lines.push(line);
      turn.at.push(i);
    }
  }
  if (turns.length === 0) throw problem('', 'the recording has no turn (no open line)');
  return { session: typeof session === 'string' ? session : undefined, turns };
}

// What a decision is compared on: an outcome's routing fields, not its texts for the model.
/**
 * @param {unknown} outcome
 * @returns {unknown}
 */
function outcomeOf(outcome) {
  if (!isRecord(outcome)) return outcome ?? null;
  const { type } = outcome;
  if (type === 'handoff') return { type, from: outcome.from, to: outcome.to, edge: outcome.edge, tool: outcome.tool ?? null };
  if (type === 'handoff_blocked') return { type, from: outcome.from, to: outcome.to, edge: outcome.edge, tool: outcome.tool, missing: outcome.missing, invalid: outcome.invalid };
  if (type === 'tool') return { type, agent: outcome.agent, tool: outcome.tool };
  if (type === 'approval_required') return { type, kind: outcome.kind, tool: outcome.tool, to: outcome.to ?? null };
  return { type, reason: outcome.reason ?? null };
}

/**
 * The decision of a change between turns: the rule it fired, or null.
 * @param {unknown} outcome
 * @returns {Decision}
 */
export function updateDecision(outcome) {
  return { kind: 'rule', value: isRecord(outcome) ? { via: outcome.via, from: outcome.from, to: outcome.to, edge: outcome.edge } : null };
}

/**
 * The routing decisions an event (or a recording's line) holds, in order, each { kind, value }:
 * `agent` (the active agent a turn opens with), `tools` (a model call's agent and the tools it was
 * offered), `rule` (a rule or continuation handoff), `outcome` (what a tool call did), `approval`
 * (a call that paused for a person), `guardrail` (a guardrail that tripped), `next` (a workflow
 * machine's next state) and `end` (how the turn ended). `ids` receives an approval's id.
 * @param {{ type: string, [field: string]: any }} event
 * @returns {Decision[]}
 */
export function decisionsOf(event) {
  switch (event.type) {
    case 'open':
      return [{ kind: 'agent', value: event.agent }];
    case 'model':
      return [{ kind: 'tools', value: { agent: event.agent, tools: event.tools } }];
    case 'handoff':
      return event.via === 'tool' ? [] : [{ kind: 'rule', value: { via: event.via, from: event.from, to: event.to, edge: event.edge } }];
    case 'tool_result':
      return [{ kind: 'outcome', value: { agent: event.agent, call: event.call?.name ?? null, .../** @type {object} */ (outcomeOf(event.outcome)) } }];
    case 'approval_required':
      return [{ kind: 'approval', value: { agent: event.agent, kind: event.kind, tool: event.tool, to: event.to ?? null, edge: event.edge ?? null }, approvalId: event.approvalId }];
    case 'guardrail_tripped':
      return [{ kind: 'guardrail', value: { kind: event.kind, agent: event.agent, guardrail: event.guardrail } }];
    case 'workflow_step':
      return [{ kind: 'next', value: { agent: event.agent, state: event.step?.state, visit: event.step?.visit, next: event.step?.next, edge: event.step?.edge } }];
    case 'agent_tool':
      return isRecord(event.event) ? decisionsOf(/** @type {{ type: string }} an event */ (event.event)) : [];
    case 'done':
      return [{ kind: 'end', value: { agent: event.agent, reason: event.reason } }];
    case 'error':
      // The event of a failed turn (the log's own error line has a `name`, not a `source`).
      return event.source === undefined ? [] : [{ kind: 'end', value: { agent: event.agent, reason: 'error', source: event.source } }];
    default:
      return [];
  }
}

/**
 * Whether two JSON values are equal (key order aside).
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((/** @type {unknown} */ x, /** @type {number} */ i) => sameValue(x, b[i]));
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  const other = Object.keys(b).filter((k) => b[k] !== undefined);
  return keys.length === other.length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

// ------------------------------------------------------------------------------------------
// Machine recordings

/**
 * A machine recording read: { state (the initial state, or null when the recording does not
 * hold it), steps: [{ step, state, visit, next, edge, update }], reason (how the run ended, when
 * the recording says) }. Takes the trace log's lines of one run (an array or JSONL text: a
 * `start` line, `step` lines with their `update`, an `end` line), or an object with `steps` and
 * `outputs` (a run's result, an execution's snapshot, or a durable run's record, whose
 * `snapshot` holds them), the updates then read from `outputs`.
 * @param {unknown} recording
 * @returns {{ state: Record<string, unknown> | null, steps: ReplayStep[], reason: string | null }}
 */
export function machineRecording(recording) {
  if (isRecord(recording)) return fromRun(recording);
  // Step records without a type (run.steps, each given its `update`) are step lines.
  if (Array.isArray(recording) && recording.length > 0 && recording.every((s) => isRecord(s) && s.type === undefined && typeof s.step === 'number')) {
    recording = recording.map((s) => ({ type: 'step', ...s }));
  }
  const lines = readLines(recording, 'machine.replay(steps)');
  /** @type {Record<string, unknown> | null} */
  let state = null;
  /** @type {string | null} */
  let reason = null;
  /** @type {ReplayStep[]} */
  const steps = [];
  for (const [i, line] of lines.entries()) {
    /** @type {(key: string) => string} */
    const at = (key) => `/${i}/${key}`;
    expect(MACHINE_LINES.has(line.type), at('type'), `unknown line type '${line.type}' in a machine recording`);
    checkFields(line, i);
    if (line.type === 'start') {
      expect(steps.length === 0 && state === null, `/${i}`, 'a recording is one run: a second start line');
      expect(line.recording === RECORDING_VERSION, at('recording'), line.recording === undefined
        ? 'the run has no recording version: its log was written before recordings were complete, so it cannot be replayed'
        : `recording version ${describe(line.recording)} is not one this library reads (${RECORDING_VERSION})`);
      expect(isRecord(line.state), at('state'), 'expected the state the run started from (an object)');
      expect(line.step === 0, at('step'), `a replay starts from the first step; this run was resumed after step ${describe(line.step)}`);
      state = line.state;
    } else if (line.type === 'step') {
      expect(Object.hasOwn(line, 'update'), at('update'), "the step has no update: run.steps alone do not hold the updates; replay the run itself (its steps and outputs), its trace log (traceLogPath) or its durable record, or give each step its update");
      steps.push(checkStep(line, i, steps.length + 1));
    } else if (line.type === 'end') {
      reason = typeof line.reason === 'string' ? line.reason : null;
    }
  }
  expect(steps.length > 0, '', 'the recording has no step');
  return { state, steps, reason };
}

/**
 * @param {Record<string, any>} step
 * @param {number} i
 * @param {number} number
 * @returns {ReplayStep}
 */
function checkStep(step, i, number) {
  /** @type {(key: string) => string} */
  const at = (key) => `/${i}/${key}`;
  expect(Number.isSafeInteger(step.step) && step.step === number, at('step'), `expected step ${number} (a run's steps in order, from the first)`);
  expect(typeof step.state === 'string', at('state'), 'expected the name of the state that ran');
  expect(Number.isSafeInteger(step.visit) && step.visit >= 1, at('visit'), 'expected the visit (an integer >= 1)');
  expect(step.next === null || typeof step.next === 'string', at('next'), 'expected the next state (a name or null)');
  expect(step.edge === null || Number.isSafeInteger(step.edge), at('edge'), 'expected the edge index (an integer or null)');
  expect(step.update === undefined || step.update === null || isRecord(step.update), at('update'), 'expected the step\'s update (an object or null)');
  return { step: step.step, state: step.state, visit: step.visit, next: step.next, edge: step.edge, update: step.update ?? null };
}

// A run's result, a snapshot or a durable run's record: steps, with the updates from `outputs`.
/**
 * @param {Record<string, unknown>} given
 * @returns {{ state: Record<string, unknown> | null, steps: ReplayStep[], reason: string | null }}
 */
function fromRun(given) {
  /** @type {Record<string, any>} */
  let run;
  try {
    run = /** @type {Record<string, any>} */ (plainDefinition(given));
  } catch (error) {
    if (error instanceof DefinitionError) throw new RecordingError(error.problems);
    throw error;
  }
  let base = '';
  /** @type {Record<string, unknown> | null} */
  let state = null;
  if (run.format === 'handoff-graph/run') {
    expect(isRecord(run.snapshot), '/snapshot', 'a durable run\'s record holds its snapshot');
    if (isRecord(run.input)) state = run.input;
    run = run.snapshot;
    base = '/snapshot';
  }
  expect(Array.isArray(run.steps), `${base}/steps`, 'expected the run\'s steps (an array)');
  expect(isRecord(run.outputs), `${base}/outputs`, 'expected every visit\'s update, by state (a run\'s outputs): the steps alone do not hold the updates');
  const steps = run.steps.map((/** @type {any} */ step, /** @type {number} */ i) => {
    expect(isRecord(step), `${base}/steps/${i}`, `a step is an object, got ${describe(step)}`);
    const updates = run.outputs[step.state];
    const update = Array.isArray(updates) ? updates[step.visit - 1] : undefined;
    expect(update !== undefined, `${base}/outputs/${String(step.state).replaceAll('~', '~0').replaceAll('/', '~1')}`, `no update for visit ${describe(step.visit)} of state ${describe(step.state)}`);
    return checkStep({ ...step, update }, i, i + 1);
  });
  expect(steps.length > 0, `${base}/steps`, 'the run has no step');
  const reason = typeof run.reason === 'string' ? run.reason : typeof run.status === 'string' && run.status !== 'ready' && run.status !== 'running' ? run.status : null;
  return { state, steps, reason };
}
