// A subgraph step: the state's machine (another StateMachine) run to its end as one step of this
// one, from the input mapping of the state (or a copy of it), its output mapping merged as the
// step's update. A snapshot taken meanwhile holds the child's latest snapshot, from which a
// resumed execution continues it (snapshot.js).
import { resolvePath } from '../marshal.js';
import { put } from '../values.js';

// What a run needs of a subgraph state: the JavaScript machine it runs, and its mappings
// ([key, path steps] each, from the core; null: the whole state).
export function subgraphOf(described, machine) {
  if (described === null || machine === undefined) return null;
  return { machine, input: described.input, output: described.output };
}

// A new object holding, under each key, the value at its path in `state` (null where none).
function mapped(state, pairs) {
  const out = {};
  for (const [key, steps] of pairs) put(out, key, resolvePath(state, steps));
  return out;
}

// Runs a subgraph state's machine to its end (or continues it from `childSnapshot`), on the
// state as it is now; resolves the update its output mapping makes and what the child did.
// `track` ({ exec, latest }) keeps the child's snapshot after each of its steps, for a snapshot
// of this execution taken meanwhile. A child's failure is this step's, with `subgraph` attached.
export async function runSubgraph(ex, state, signal, childSnapshot, track) {
  const { machine, input, output } = state.subgraph;
  const exec = childSnapshot !== null ? machine.resume(childSnapshot) : machine.start(input === null ? { ...ex.state } : mapped(ex.state, input));
  try {
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
    let run;
    try {
      run = await exec.run(signal === undefined || signal === null ? { onStep } : { onStep, signal });
    } catch (error) {
      if (typeof error === 'object' && error !== null) error.subgraph = Object.freeze({ state: state.name, steps: Array.isArray(error.steps) ? error.steps : [] });
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
