// @ts-check
// Replays (docs/replay.md): a recorded session re-run against a swarm's rules, a recorded run
// against a machine's, to see which routing decisions a change of rules alters. Nothing here
// decides a route: a swarm replay runs the real Swarm (the same definition, its context policies,
// instructions, reducers and state hooks) with a model, tools, guardrails, extractors and workflow
// handlers that answer what the recording says, and compares each decision of the real turn loop
// with the recorded one; a machine replay runs the real StateMachine (the same definition and
// reducers) with handlers that return the recorded updates. Both stop at the first decision that
// differs: past it, the recorded answers no longer apply.
import { DefinitionError } from './errors.js';
import { isStateMachine } from './machine-brand.js';
import { decisionsOf, machineRecording, sameValue, swarmTurns, TWIN, updateDecision } from './recording.js';
import { clone } from './values.js';
import { replayMcpClients } from './mcp/replay-clients.js';

/** @import { MachineReplayReport, ModelAnswer, ModelRequest, ReplayDecisionKind, SwarmDefinition, SwarmReplayReport, ToolCallInput } from './index.js' */
/** @import { Decision, Line } from './recording.js' */

// What a replay uses of a StateMachine, of its twin and of an execution (js/machine.js), and of a
// Swarm (js/swarm.js): structural, so that the classes pass themselves in. Their sessions and
// options are `any` here until js/swarm/ is typed.
/**
 * @typedef {{ step: number, state: string, visit: number, next: string | null, edge: number | null }} ReplayStepRecord
 * @typedef {{ done: boolean, reason: string | null, steps: ReplayStepRecord[], step(): Promise<ReplayStepRecord | null>, dispose(): void }} ReplayExecution
 * @typedef {{ start(state: any): ReplayExecution, dispose(): void }} ReplayTwin (the recorded state, of whatever state type the machine has)
 * @typedef {{ name: string, toJSON(): { states: Array<Record<string, any>> }, [TWIN](handlers: Record<string, (ctx: { visit: number }) => any>): ReplayTwin }} ReplayMachine
 *   (the handlers return the recorded updates, of whatever state type the machine has)
 * @typedef {import('./swarm.js').Swarm} ReplaySwarm
 * @typedef {{ answers: TurnAnswers, workflow: Line | undefined, all: Line[] }} ReplayCursor where a replay is: the current turn's answers and workflow run, every guardrail trip
 */

// The definition of a machine to replay, and handlers that answer each state's visits with
// `update(name, visit)`. States whose steps a recording does not hold whole (fan-out, map and
// subgraph states, whose branches' updates are not step lines; handoff-enabled states, whose
// handler's choice is not recorded) and edges decided by functions (which a definition cannot
// hold) are refused with a TypeError that says so.
/**
 * @param {ReplayMachine} machine
 * @param {(name: string, visit: number) => unknown} update
 * @param {string} where
 * @returns {Record<string, (ctx: { visit: number }) => unknown>}
 */
function replayHandlers(machine, update, where) {
  let definition;
  try {
    definition = machine.toJSON();
  } catch (error) {
    throw new TypeError(`${where}: machine '${machine.name}' cannot be replayed: ${/** @type {Error} */ (error).message}`);
  }
  /** @type {Record<string, (ctx: { visit: number }) => unknown>} */
  const handlers = {};
  for (const state of definition.states) {
    const kind = state.branches !== undefined ? 'a fan-out' : state.map !== undefined ? 'a map' : state.subgraph !== undefined ? 'a subgraph' : state.handoffs !== undefined ? 'a handoff-enabled' : null;
    if (kind !== null) throw new TypeError(`${where}: state '${state.name}' of machine '${machine.name}' is ${kind} state, which replays do not cover yet (docs/replay.md#what-replays-do-not-cover)`);
    handlers[state.name] = (ctx) => update(state.name, ctx.visit) ?? undefined;
  }
  return handlers;
}

/** Thrown inside a replayed turn at the first decision that differs; caught by the replay. */
class Divergence extends Error {
  /** @param {NonNullable<SwarmReplayReport['divergence']>} divergence */
  constructor(divergence) {
    super('the replay diverged');
    this.divergence = divergence;
  }
}

// The recorded decisions of a turn, in order, each with its line's position in the recording, and
// a cursor over them: `check(decision)` compares the replay's next decision with the recorded one,
// throwing a Divergence at the first difference.
class Comparison {
  /** @type {Array<Decision & { line: number }>} */
  #recorded;
  /** @type {number} */
  #turn;
  /** @type {number} */
  #last;  // the turn's last line: where a decision the recording lacks is reported
  #position = 0;
  /** @type {{ count: number }} */
  #total;
  /** @type {Map<string, string | undefined>} */
  approvals;  // recorded approval id → replayed approval id
  /** @type {Divergence | null} */
  diverged = null;  // the first divergence, once found (a model call's may surface as the turn's failure)

  /**
   * @param {Array<Decision & { line: number }>} recorded
   * @param {number} turn
   * @param {number} last
   * @param {{ count: number }} total
   * @param {Map<string, string | undefined>} approvals
   */
  constructor(recorded, turn, last, total, approvals) {
    this.#recorded = recorded;
    this.#turn = turn;
    this.#last = last;
    this.#total = total;
    this.approvals = approvals;
  }

  get compared() {
    return this.#position;
  }

  /** @param {Decision} replayed */
  check(replayed) {
    const index = this.#position;
    const recorded = this.#recorded[index];
    this.#position++;
    this.#total.count++;
    if (recorded !== undefined && recorded.kind === replayed.kind && sameValue(recorded.value, replayed.value)) {
      if (recorded.approvalId !== undefined) this.approvals.set(recorded.approvalId, replayed.approvalId);
      return;
    }
    // A model call or a turn's end by another agent is the active agent differing.
    let kind = /** @type {ReplayDecisionKind} decisionsOf's kinds */ (recorded?.kind ?? replayed.kind);
    if (recorded !== undefined && recorded.kind === replayed.kind && (kind === 'tools' || kind === 'end') && /** @type {any} */ (recorded.value).agent !== /** @type {any} */ (replayed.value).agent) kind = 'agent';
    this.diverged = new Divergence({ turn: this.#turn, index, line: recorded?.line ?? this.#last, kind, recorded: recorded?.value ?? null, replayed: replayed.value });
    throw this.diverged;
  }

  /** The turn ended: a recorded decision the replay did not reach is a divergence. */
  finish() {
    const recorded = this.#recorded[this.#position];
    if (recorded === undefined) return;
    this.#total.count++;
    throw new Divergence({ turn: this.#turn, index: this.#position, line: recorded.line, kind: /** @type {ReplayDecisionKind} */ (recorded.kind), recorded: recorded.value, replayed: null });
  }
}

// The names of the tools of a model request, in any of the four formats.
/** @type {(tools: any) => unknown[]} */
const toolNames = (tools) => (Array.isArray(tools) ? tools.map((t) => t?.function?.name ?? t?.name) : Object.keys(tools ?? {}));

// A recorded turn's answers, consumed in order as the replayed turn asks for them.
class TurnAnswers {
  /**
   * @param {Line[]} lines
   * @param {number[]} at their positions in the recording
   */
  constructor(lines, at) {
    this.models = lines.filter((l) => l.type === 'model');
    this.tools = lines.filter((l) => l.type === 'tool');
    this.workflows = lines.filter((l) => l.type === 'workflow');
    this.trips = lines.filter((l) => l.type === 'guardrail_tripped' || (l.type === 'agent_tool' && l.event?.type === 'guardrail_tripped'));
    this.extract = lines.find((l) => l.type === 'extract');
    this.intents = lines.find((l) => l.type === 'intents');
    this.resolved = lines.find((l) => l.type === 'approval_resolved');
    // How the turn failed, when it did: the error event's source and the error's message.
    const failure = lines.find((l) => l.type === 'error' && l.source !== undefined);
    this.failure = failure === undefined ? null : { source: failure.source, message: failure.message };
    this.decisions = lines.flatMap((line, k) => decisionsOf(line).map((decision) => ({ ...decision, line: at[k] })));
  }
}

/**
 * The options of the replaying Swarm: the original's routing code (context policies, instructions,
 * reducers, state hooks, agent tools) with every answer taken from the recording.
 * @param {Record<string, any>} original the Swarm's options
 * @param {SwarmDefinition} definition
 * @param {ReplayCursor} current
 * @param {Line[]} recorded
 * @returns {Record<string, unknown>}
 */
function replayOptions(original, definition, current, recorded) {
  const { contexts, instructions, reducers, state, workflows = {}, inputGuardrails = {}, outputGuardrails = {} } = original;
  const toolNamesOfDefinition = new Set(definition.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
  const agentIds = new Set(definition.agents.map((a) => a.id));
  // Agent tools: the swarm's, and those the recording shows (a swarm loaded from its definition
  // alone, as the command loads it, has no options), when the definition still has both ends.
  /** @type {Record<string, string>} */
  const agentTools = {};
  for (const line of recorded) {
    if (line.type !== 'agent_tool' || typeof line.tool !== 'string' || typeof line.event?.agent !== 'string') continue;
    if (toolNamesOfDefinition.has(line.tool) && agentIds.has(line.event.agent) && line.event.agent !== line.agent) agentTools[line.tool] = line.event.agent;
  }
  Object.assign(agentTools, original.agentTools);
  const agentToolNames = new Set(Object.keys(agentTools));
  /** @type {Record<string, (args: unknown, ctx: { setVariables(variables: unknown): void }) => unknown>} */
  const handlers = {};
  for (const name of toolNamesOfDefinition) {
    if (agentToolNames.has(name)) continue;
    handlers[name] = (_args, ctx) => {
      const answers = current.answers;
      if (answers.tools.length === 0 && answers.failure?.source === 'tool') throw new Error(answers.failure.message);
      // A call the recording did not run: the replay has diverged, which its tool_result shows.
      if (answers.tools[0]?.tool !== name) return `(the recording has no result for this call of ${name})`;
      const line = /** @type {Line} checked above */ (answers.tools.shift());
      for (const variables of line.variables ?? []) ctx.setVariables(variables);
      return line.result;
    };
  }
  // Guardrails: each agent's, as many as the original had or the recording tripped, tripping where
  // the recording says one tripped.
  /** @type {(kind: 'input' | 'output', given: Record<string, unknown>) => Record<string, Array<() => { tripped: boolean, reason?: string }>>} */
  const guardrails = (kind, given) => {
    /** @type {Record<string, Array<() => { tripped: boolean, reason?: string }>>} */
    const out = {};
    for (const agent of definition.agents.map((a) => a.id)) {
      const count = Math.max(
        Object.hasOwn(given, agent) ? (Array.isArray(given[agent]) ? given[agent].length : 1) : 0,
        ...current.all.filter((t) => t.kind === kind && t.agent === agent).map((t) => t.guardrail + 1),
      );
      if (count === 0) continue;
      out[agent] = Array.from({ length: count }, (_, index) => () => {
        const next = current.answers.trips[0];
        const trip = next?.type === 'agent_tool' ? next.event : next;
        if (trip !== undefined && trip.kind === kind && trip.agent === agent && trip.guardrail === index) {
          current.answers.trips.shift();
          return { tripped: true, ...(trip.reason === null || trip.reason === undefined ? {} : { reason: trip.reason }) };
        }
        return { tripped: false };
      });
    }
    return out;
  };
  /** @type {Record<string, unknown>} */
  const replayWorkflows = {};
  for (const [agent, spec] of Object.entries(workflows)) {
    /** @type {ReplayMachine} */
    const machine = isStateMachine(spec) ? /** @type {any} a StateMachine */ (spec) : /** @type {any} */ (spec).machine;
    const handlers = replayHandlers(machine, (name, visit) => current.workflow?.outputs?.[name]?.[visit - 1], 'swarm.replay');
    replayWorkflows[agent] = {
      machine: machine[TWIN](handlers),
      input: () => {
        current.workflow = current.answers.workflows.shift();
        if (current.workflow === undefined) throw new Error(`the recording has no run of the workflow of agent '${agent}' here`);
        return clone(current.workflow.state);
      },
      output: () => /** @type {Line} set by input() */ (current.workflow).text,
      variables: () => /** @type {Line} */ (current.workflow).variables,
    };
  }
  return {
    ...(contexts === undefined ? {} : { contexts }),
    ...(instructions === undefined ? {} : { instructions }),
    ...(reducers === undefined ? {} : { reducers }),
    ...(state === undefined ? {} : { state }),
    handlers,
    agentTools,
    workflows: replayWorkflows,
    inputGuardrails: guardrails('input', inputGuardrails),
    outputGuardrails: guardrails('output', outputGuardrails),
    extractVariables: () => current.answers.extract?.variables ?? undefined,
    extractIntents: () => current.answers.intents?.intents ?? null,
    // MCP servers: stand-ins answering from the recording (js/mcp/replay-clients.js).
    mcp: replayMcpClients(definition, recorded, () => current.answers),
  };
}

/**
 * Replays one session's recording against the swarm `definition` (with the original's `options`);
 * `make(definition, options)` builds a Swarm. Resolves { same, turns, decisions, divergence }.
 * @param {unknown} recording
 * @param {{ definition: SwarmDefinition, options: Record<string, any>, make: (definition: SwarmDefinition, options: Record<string, unknown>) => ReplaySwarm }} swarmOf
 */
export async function replaySwarm(recording, { definition, options, make }) {
  const { session: sessionId, turns } = swarmTurns(recording);
  const trips = turns.flatMap((t) => t.lines).map((l) => (l.type === 'agent_tool' ? l.event : l)).filter((l) => l?.type === 'guardrail_tripped');
  /** @type {ReplayCursor} `answers`: set before each turn runs */
  const current = { answers: /** @type {any} */ (null), workflow: undefined, all: trips };
  let swarm;
  try {
    swarm = make(definition, replayOptions(options, definition, current, turns.flatMap((t) => t.lines)));
  } catch (error) {
    // Agent tools the recording names that the definition cannot take (a cycle): without them, the
    // replay diverges where the recording called one.
    if (!(error instanceof DefinitionError)) throw error;
    swarm = make(definition, replayOptions(options, definition, current, []));
  }
  const total = { count: 0 };
  /** @type {Map<string, string | undefined>} */
  const approvals = new Map();
  let replayed = 0;
  try {
    const first = turns[0].updates[0]?.before ?? turns[0].open.variables;
    const session = swarm.createSession({ id: sessionId ?? 'replay', variables: clone(first) });
    for (const [i, { open, lines, index, updates, at }] of turns.entries()) {
      replayed++;
      const answers = new TurnAnswers(lines, at.slice(updates.length));
      current.answers = answers;
      const turnNumber = Number.isSafeInteger(open.turn) ? open.turn : i + 1;
      const recorded = [
        ...updates.map((u, k) => ({ ...updateDecision(u.outcome), line: at[k] })),
        ...decisionsOf(open).map((decision) => ({ ...decision, line: index })),
        ...answers.decisions,
      ];
      const last = lines.length === 0 ? index : at[at.length - 1];
      const comparison = new Comparison(recorded, turnNumber, last, total, approvals);
      // The host's changes between turns: its updateState calls, each with the rule it fired
      // compared, and what it assigned directly (which fires nothing until the turn's rules).
      try {
        for (const update of updates) {
          if (!sameValue(session.variables, update.before)) session.variables = clone(update.before);
          let outcome = null;
          try {
            outcome = swarm.updateState(session, clone(update.variables));
          } catch (error) {
            if (!(error instanceof RangeError)) throw error;
          }
          comparison.check(updateDecision(outcome));
        }
      } catch (error) {
        if (error instanceof Divergence) return report(replayed, total, error.divergence);
        throw error;
      }
      if (!sameValue(session.variables, open.variables)) session.variables = clone(open.variables);
      /** @type {(request: ModelRequest) => ModelAnswer} */
      const model = (request) => {
        if (answers.models.length === 0 && answers.failure?.source === 'model') throw new Error(answers.failure.message);
        comparison.check({ kind: 'tools', value: { agent: request.agent.id, tools: toolNames(request.tools) } });
        const line = answers.models.shift();
        // A recording whose decisions name a model call it has no answer for: an empty answer.
        return line === undefined ? { text: '' } : { text: line.text, toolCalls: /** @type {ToolCallInput[]} the recorded calls */ (clone(line.toolCalls)) };
      };
      const turnOptions = { model, maxModelCalls: open.maxModelCalls };
      let events;
      if (open.approvalId === undefined) {
        events = swarm.runTurn(session, open.input, turnOptions);
      } else {
        const approvalId = approvals.get(open.approvalId);
        const pending = approvalId === undefined ? undefined : session.approvals?.[approvalId];
        const resumed = /** @type {string} found pending */ (approvalId);
        if (pending?.status !== 'pending') {
          total.count++;
          return report(replayed, total, { turn: turnNumber, index: 0, line: index, kind: 'approval', recorded: { approvalId: open.approvalId }, replayed: null });
        }
        events = swarm.resolveApproval(session, resumed, { approve: answers.resolved?.approved ?? false, ...(typeof answers.resolved?.reason === 'string' ? { reason: answers.resolved.reason } : {}), ...turnOptions });
      }
      try {
        for await (const event of events) {
          // A divergence in the model function fails the turn: its error event is not compared.
          if (comparison.diverged !== null) break;
          for (const decision of decisionsOf(event)) comparison.check(decision);
        }
        if (comparison.diverged !== null) return report(replayed, total, comparison.diverged.divergence);
      } catch (error) {
        if (comparison.diverged !== null) return report(replayed, total, comparison.diverged.divergence);
        // A recorded failure, replayed: its error event was compared; the turn is over.
        if (answers.failure === null) throw error;
      }
      try {
        comparison.finish();
      } catch (error) {
        if (error instanceof Divergence) return report(replayed, total, error.divergence);
        throw error;
      }
    }
    return report(replayed, total, null);
  } finally {
    swarm.dispose();
  }
}

/**
 * @param {number} turns
 * @param {{ count: number }} total
 * @param {SwarmReplayReport['divergence']} divergence
 * @returns {SwarmReplayReport}
 */
function report(turns, total, divergence) {
  return { same: divergence === null, turns, decisions: total.count, divergence };
}

/**
 * Replays a machine run's recording (machineRecording's forms) on `machine`'s definition: a twin
 * of it whose handlers return the recorded updates runs step by step, and each step's route (its
 * next state and edge) is compared with the recorded one. `state`: the initial state when the
 * recording does not hold it. Resolves the report swarm.replay gives, a run counting as one turn:
 * { same, turns: 1, decisions (the steps compared), divergence: null | { turn: 1, index (the
 * step's, from 0), kind, recorded, replayed } }.
 * @param {ReplayMachine} machine
 * @param {unknown} recording
 * @param {Record<string, unknown>} [state]
 */
export async function replayMachine(machine, recording, state) {
  const { state: recordedState, steps, reason } = machineRecording(recording);
  const updates = new Map(steps.map((s) => [`${s.visit}\u0000${s.state}`, s.update]));
  const handlers = replayHandlers(machine, (name, visit) => updates.get(`${visit}\u0000${name}`), 'machine.replay');
  const twin = machine[TWIN](handlers);
  const initial = recordedState ?? state ?? {};
  const execution = twin.start(clone(initial));
  // `compared`: the steps whose routes were the recorded ones.
  /** @type {(compared: number, divergence: MachineReplayReport['divergence']) => MachineReplayReport} */
  const done = (compared, divergence) => ({ same: divergence === null, turns: 1, decisions: compared + (divergence === null ? 0 : 1), divergence });
  try {
    for (const [index, recorded] of steps.entries()) {
      const expected = { step: recorded.step, state: recorded.state, visit: recorded.visit, next: recorded.next, edge: recorded.edge };
      if (execution.done) {
        return done(index, { turn: 1, index, kind: 'end', recorded: expected, replayed: { reason: execution.reason } });
      }
      let record;
      try {
        record = /** @type {ReplayStepRecord} not done: a step runs */ (await execution.step());
      } catch (error) {
        const name = /** @type {{ name?: unknown } | undefined} */ (error)?.name;
        if (name !== 'NoEdgeMatchedError' && name !== 'MaxStepsError') throw error;
        record = execution.steps.at(-1) ?? { step: recorded.step, state: recorded.state, visit: recorded.visit, next: null, edge: null };
      }
      const replayed = { step: record.step, state: record.state, visit: record.visit, next: record.next, edge: record.edge };
      if (!sameValue(expected, replayed)) {
        const kind = expected.state !== replayed.state || expected.visit !== replayed.visit ? 'state' : 'next';
        return done(index, { turn: 1, index, kind, recorded: expected, replayed });
      }
    }
    // The recorded run ended after its last step; the replayed one must too, for the same reason.
    const recordedEnd = reason ?? (steps[steps.length - 1].next === '__end__' ? 'end' : null);
    if (!execution.done || (recordedEnd !== null && execution.reason !== null && execution.reason !== recordedEnd)) {
      return done(steps.length, { turn: 1, index: steps.length, kind: 'end', recorded: { reason: recordedEnd }, replayed: { reason: execution.done ? execution.reason : null } });
    }
    return done(steps.length, null);
  } finally {
    execution.dispose();
    twin.dispose();
  }
}
