// @ts-check
// A subgraph step: the state's machine (another StateMachine) run to its end as one step of this
// one, from the input mapping of the state (or a copy of it), its output mapping merged as the
// step's update. A snapshot taken meanwhile holds the child's latest snapshot, from which a
// resumed execution continues it (snapshot.js).
import { resolvePath } from '../paths.js';
import { put } from '../values.js';

/**
 * @import { ExecutionSnapshot, Run, SubgraphRecord } from '../index.js'
 * @import { StateMachine } from '../machine.js'
 * @import { NativeMapping, PreparedState, SubgraphState } from './definition.js'
 * @import { ExecutionRecord, Update } from './run-state.js'
 */

// What a run needs of a subgraph state: the JavaScript machine it runs, and its mappings
// ([key, path steps] each, from the core; null: the whole state).
/**
 * @param {{ input: NativeMapping, output: NativeMapping } | null} described
 * @param {StateMachine<any> | undefined} machine
 * @returns {SubgraphState | null}
 */
export function subgraphOf(described, machine) {
  if (described === null || machine === undefined) return null;
  return { machine, input: described.input, output: described.output };
}

// A new object holding, under each key, the value at its path in `state` (null where none).
/**
 * @param {Record<string, unknown>} state
 * @param {Exclude<NativeMapping, null>} pairs
 * @returns {Record<string, unknown>}
 */
function mapped(state, pairs) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, steps] of pairs) put(out, key, resolvePath(state, steps));
  return out;
}

// Runs a subgraph state's machine to its end (or continues it from `childSnapshot`), on the
// state as it is now; resolves the update its output mapping makes and what the child did.
// `track` ({ exec, latest }) keeps the child's snapshot after each of its steps, for a snapshot
// of this execution taken meanwhile. A child's failure is this step's, with `subgraph` attached.
/**
 * @param {ExecutionRecord} ex
 * @param {PreparedState} state a subgraph state
 * @param {AbortSignal | undefined} signal
 * @param {ExecutionSnapshot | null} childSnapshot
 * @param {ExecutionRecord['child']} track
 * @returns {Promise<{ update: Update, run: SubgraphRecord }>}
 */
export async function runSubgraph(ex, state, signal, childSnapshot, track) {
  const { machine, input, output } = /** @type {SubgraphState} */ (state.subgraph);
  const exec = childSnapshot !== null ? machine.resume(childSnapshot) : machine.start(input === null ? { ...ex.state } : mapped(ex.state, input));
  try {
    /** @type {(() => void) | undefined} */
    let onStep;
    if (track !== null) {
      const keep = () => {
        try {
          track.latest = exec.snapshot();
        } catch {
          track.latest = null;  // a state JSON cannot hold: this execution's snapshot() says so
        }
      };
      track.exec = exec;
      keep();
      onStep = keep;
    }
    /** @type {Run<Record<string, unknown>>} */
    let run;
    try {
      run = await exec.run(signal === undefined || signal === null ? { onStep } : { onStep, signal });
    } catch (error) {
      if (typeof error === 'object' && error !== null) {
        const failure = /** @type {{ subgraph?: unknown, steps?: unknown }} */ (error);
        failure.subgraph = Object.freeze({ state: state.name, steps: Array.isArray(failure.steps) ? failure.steps : [] });
      }
      throw error;
    }
    return {
      update: output === null ? run.state : mapped(run.state, output),
      run: Object.freeze({ machine: machine.name, reason: run.reason, stepsRun: run.stepsRun }),
    };
  } finally {
    exec.dispose();
  }
}
