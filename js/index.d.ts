// Type declarations for handoff-graph (hand-written: Emscripten 3.1.6 has no --emit-tsd).
// Checked by `tsc --strict` against tests/types/usage.ts. The shapes are in ./types.d.ts.
export type * from './types.js';
import type {
  AgentEnsembleDagModel,
  CheckReport,
  DagModel,
  DagOptions,
  DefinitionProblem,
  DisposableWhereDeclared,
  EdgeInfo,
  EdgeOptions,
  EdgePredicate,
  ExecutionSnapshot,
  Explanation,
  ExportOptions,
  FanOutOptions,
  GraphDefinition,
  Handler,
  HandoffGraphOptions,
  HandoffOutcome,
  InitOptions,
  MachineDefinition,
  MachineEvent,
  MachineReplayReport,
  MachineRunOptions,
  MapOptions,
  MermaidOptions,
  Message,
  NodeOptions,
  RecordingLine,
  ResumeRunOptions,
  Run,
  RunOptions,
  RunTurnOptions,
  Session,
  State,
  StateMachineOptions,
  StepRecord,
  StreamOptions,
  SubgraphOptions,
  SwarmAgent,
  SwarmDag,
  SwarmDefinition,
  SwarmEvent,
  SwarmOptions,
  SwarmPictureOptions,
  SwarmReplayReport,
  ToolCallInput,
  ToolFormat,
  ToolSchema,
  ToolsByFormat,
  ValidationProblem,
} from './types.js';

/**
 * Loads and instantiates the WebAssembly module once; later calls return the same promise. Draws
 * no random value (the first graph, condition, machine or swarm draws the hash key), so a
 * Cloudflare Worker may await it at its top level.
 */
export function init(options?: InitOptions): Promise<void>;

export class HandoffGraph {
  constructor(options?: HandoffGraphOptions);
  readonly onCycle: 'error' | 'allow';
  readonly size: number;
  addNode(id: string, options?: NodeOptions): this;
  addEdge(from: string, to: string, when?: string | null | EdgeOptions): this;
  route(node: string, state?: State): string | null;
  explain(node: string, state?: State): Explanation;
  nodes(): string[];
  edges(node: string): EdgeInfo[];
  hasNode(id: string): boolean;
  isDag(): boolean;
  toJSON(): GraphDefinition;
  static fromJSON(definition: GraphDefinition | string): HandoffGraph;
  toDag(options?: ExportOptions): DagModel;
  toMermaid(options?: MermaidOptions): string;
  toDot(options?: ExportOptions): string;
  dispose(): void;
}
export interface HandoffGraph extends DisposableWhereDeclared {}

export class Condition {
  /** Prefer compileCondition(source). */
  constructor(source: string);
  readonly source: string;
  /** The state paths the condition reads, distinct, sorted by code point. */
  readonly paths: readonly string[];
  evaluate(state?: State): boolean;
  dispose(): void;
}
export interface Condition extends DisposableWhereDeclared {}

export function compileCondition(source: string): Condition;
export function evaluateCondition(source: string, state?: State): boolean;
/** Bytes of WebAssembly heap in use, for leak checks. */
export function heapUsed(): number;
/**
 * What a routing design does over every possible state, before it runs: dead rules, gaps,
 * unreachable states and agents, each with a witness where it has one, and one state per edge
 * that takes it. `target`: a HandoffGraph, StateMachine or Swarm, or a definition (an object or
 * its JSON text) in any of the three formats.
 */
export function check(target: HandoffGraph | StateMachine<any> | Swarm | string | object): CheckReport;

/** The terminal pseudo-state: an edge to END finishes a run. */
export const END: '__end__';

export class StateMachine<S extends Record<string, unknown> = Record<string, unknown>> {
  constructor(options?: StateMachineOptions);
  readonly name: string;
  /** `handoffs`: the state is handoff-enabled (MAG's handoffs in a workflow) with this many choices per run. */
  addState(name: string, handler?: Handler<S> | null, options?: { feedbackOnRevisit?: boolean; task?: string; handoffs?: number }): this;
  /** A fan-out state: runs every branch state at once, merges their updates in `branches` order, then routes by its own edges. */
  addFanOut(name: string, branches: string[], options?: FanOutOptions): this;
  /** A map state (LangGraph's Send): runs `state` once per item of the list at `over`, merged in list order. */
  addMap(name: string, state: string, options: MapOptions): this;
  /** A subgraph state: runs another machine (its own maxSteps) to its end, with input and output mappings. */
  addSubgraph(name: string, machine: StateMachine<any>, options?: SubgraphOptions): this;
  addEdge(from: string, to: string, when?: string | null | { when?: string | null; description?: string }): this;
  /** A transfer edge of a handoff-enabled state: offered as ctx.transfers, taken when the handler calls ctx.transfer. */
  addEdge(from: string, to: string, transfer: { transfer: true; description?: string }): this;
  /** An edge decided by a function, called in declaration order with the conditions (never after
   *  the edge that won). Such a machine has no definition: toJSON() throws. */
  addEdge(from: string, to: string, predicate: EdgePredicate<S>, options?: { description?: string }): this;
  /** Throws GraphValidationError listing every problem. */
  validate(): this;
  run(state?: S, options?: MachineRunOptions): Promise<Run<S>>;
  start(state?: S): Execution<S>;
  resume(snapshot: ExecutionSnapshot | string): Execution<S>;
  /**
   * Continues the durable run `runId` from its last checkpoint in `store` to its end, on any
   * process. Rejects with code ERR_RUN_NOT_FOUND for an id the store does not have.
   */
  resume(runId: string, options: ResumeRunOptions): Promise<Run<S>>;
  stream(state?: S, options?: StreamOptions): AsyncGenerator<MachineEvent<S>, void, undefined>;
  toJSON(): MachineDefinition;
  /**
   * Replays a recorded run (its trace log lines or their JSONL text, its result, or its durable
   * record: docs/replay.md) on this machine's definition with the recorded updates; compares each
   * step's route. `state`: the initial state, when the recording does not hold it.
   */
  replay(recording: RecordingLine[] | string | { steps: readonly unknown[]; outputs: Record<string, unknown[]> } | { format: 'handoff-graph/run'; snapshot: unknown }, options?: { state?: Record<string, unknown> }): Promise<MachineReplayReport>;
  static fromJSON<S extends Record<string, unknown> = Record<string, unknown>>(
    definition: MachineDefinition | string,
    options?: { handlers?: Record<string, Handler<S>>; reducers?: Record<string, (previous: unknown, update: unknown, key: string) => unknown> },
  ): StateMachine<S>;
  toDag(options?: DagOptions & { format?: 'handoff-graph' }): DagModel;
  toDag(options: DagOptions & { format: 'agentensemble' }): AgentEnsembleDagModel;
  toMermaid(options?: MermaidOptions): string;
  toDot(options?: ExportOptions): string;
  dispose(): void;
}
export interface StateMachine<S extends Record<string, unknown> = Record<string, unknown>> extends DisposableWhereDeclared {}

/** One run, driven step by step (machine.start / machine.resume). */
export class Execution<S extends Record<string, unknown> = Record<string, unknown>> {
  private constructor();
  readonly state: S;
  readonly steps: StepRecord[];
  readonly stepsRun: number;
  /** null while running. */
  readonly reason: 'end' | 'max-steps' | 'aborted' | 'no-edge-matched' | null;
  readonly done: boolean;
  step(options?: { signal?: AbortSignal }): Promise<StepRecord | null>;
  run(options?: RunOptions): Promise<Run<S>>;
  stream(options?: StreamOptions): AsyncGenerator<MachineEvent<S>, void, undefined>;
  /** Per state, every visit's update in visit order. */
  readonly outputs: Run<S>['outputs'];
  result(): Omit<Run<S>, 'reason'> & { reason: Execution<S>['reason'] };
  abort(): void;
  snapshot(): ExecutionSnapshot;
  /** The machine's DAG model with this execution's steps marked. */
  toDag(options?: { format?: 'handoff-graph' }): DagModel;
  toDag(options: { format: 'agentensemble'; generatedAt?: string }): AgentEnsembleDagModel;
  dispose(): void;
}
export interface Execution<S extends Record<string, unknown> = Record<string, unknown>> extends DisposableWhereDeclared {}
export const TOOL_FORMATS: readonly ToolFormat[];

export class Swarm {
  constructor(definition: SwarmDefinition | string, options?: SwarmOptions);
  static fromJSON(definition: SwarmDefinition | string, options?: SwarmOptions): Swarm;
  readonly name: string;
  toJSON(): Required<Pick<SwarmDefinition, 'format' | 'version'>> & SwarmDefinition;
  /** A copy of the agent's definition. */
  agent(id: string): SwarmAgent | undefined;
  createSession(options?: { id?: string; variables?: Record<string, unknown> }): Session;
  /** The tools the active agent is offered now (its own, then the transfers), in an SDK's shape. */
  tools<F extends ToolFormat = 'openai-chat'>(session: Session, format?: F): ToolsByFormat[F];
  /** The AI SDK shape with each schema wrapped by `jsonSchema` from 'ai', ready for a ToolSet. */
  tools<S>(session: Session, format: 'ai-sdk', options: { jsonSchema: (schema: ToolSchema) => S }): Record<string, { description: string; inputSchema: S; strict: boolean }>;
  offered(session: Session): Array<{ name: string; to: string }>;
  applyRules(session: Session): HandoffOutcome | null;
  updateState(session: Session, variables: Record<string, unknown>): HandoffOutcome | null;
  applyToolCall(session: Session, call: ToolCallInput): HandoffOutcome;
  /** The text runTurn gives the model as a transfer call's result (for approval_required: that it was not run). */
  toolResult(outcome: Exclude<HandoffOutcome, { type: 'tool' }>): string;
  /** The active agent's instructions now. */
  instructions(session: Session): string;
  messages(session: Session): Message[];
  /** Throws (code ERR_APPROVAL_PENDING) while the session waits for an approval's decision. */
  runTurn(session: Session, input: string, options: RunTurnOptions): AsyncGenerator<SwarmEvent, void, undefined>;
  /**
   * Decides a pending approval and resumes its turn: approve runs the call, reject answers it
   * `Not approved: <reason>`. Throws (as the first step) ERR_APPROVAL_NOT_FOUND or ERR_APPROVAL_RESOLVED.
   */
  resolveApproval(
    session: Session,
    approvalId: string,
    options: RunTurnOptions & { approve: boolean; reason?: string },
  ): AsyncGenerator<SwarmEvent, void, undefined>;
  /**
   * Replays one session's recording (its trace log lines, or their JSONL text: docs/replay.md)
   * against this swarm's rules, with a model, tools and host functions that answer what was
   * recorded; rejects with RecordingError for a recording that cannot be read.
   */
  replay(recording: RecordingLine[] | string): Promise<SwarmReplayReport>;
  /** The DAG model: agents, edges with `via` and `tool`; with `session`, its active agent and handoffs marked. */
  toDag(options?: SwarmPictureOptions): SwarmDag;
  /** Mermaid flowchart: rules solid, LLM edges dotted, hybrids thick, continuations ending in a circle. */
  toMermaid(options?: SwarmPictureOptions & { kind?: 'flowchart' | 'state'; direction?: 'TD' | 'TB' | 'BT' | 'LR' | 'RL' }): string;
  /** Graphviz DOT: rules solid, LLM edges dashed, hybrids bold, continuations dotted. */
  toDot(options?: SwarmPictureOptions): string;
  dispose(): void;
}
export interface Swarm extends DisposableWhereDeclared {}

/** A save of a session that another writer saved first (optimistic versioning of the stores). */
export { ConflictError } from './stores/errors.js';

/** The in-memory SessionStore (browser-safe); FileStore, RedisStore and PostgresStore are 'handoff-graph/stores/file', '/redis' and '/postgres'. */
export { MemoryStore } from './stores/memory.js';

export class ConditionSyntaxError extends SyntaxError {
  constructor(message: string, details: { condition: string; index: number; edge?: { from: string; to: string } });
  /** The reason alone, without the condition and caret that `message` adds. */
  readonly reason: string;
  /** The edge whose condition this is, when addEdge raised the error. */
  readonly edge?: { from: string; to: string };
  readonly condition: string;
  /** 0-based offset of the offending character in `condition`, in UTF-16 code units. */
  readonly index: number;
}

export class CycleError extends Error {
  constructor(message: string, details: { from: string; to: string; cycle: string[] });
  readonly from: string;
  readonly to: string;
  /** The node ids of the cycle the edge would close, first and last equal. */
  readonly cycle: string[];
}

/**
 * A definition that cannot be loaded, with every problem at once: what the loader refuses, and in a
 * definition given as an object, each value JSON cannot hold (NaN, ±Infinity, undefined, a
 * function, a symbol, a BigInt, a class instance, a cycle, nesting deeper than 512 levels).
 */
export class DefinitionError extends Error {
  constructor(problems: DefinitionProblem[]);
  readonly problems: DefinitionProblem[];
}

/** A recording that cannot be replayed: each problem at its JSON pointer into the lines (`/3/input`). */
export class RecordingError extends Error {
  constructor(problems: DefinitionProblem[]);
  readonly problems: DefinitionProblem[];
}

export class GraphValidationError extends Error {
  constructor(problems: ValidationProblem[]);
  readonly problems: ValidationProblem[];
}

export class MaxStepsError extends Error {
  constructor(message: string, run: Run);
  /** The run so far (reason 'max-steps'). */
  readonly run: Run;
}

/** A run whose input lacks variables that the states' task templates name. */
export class MissingVariablesError extends Error {
  constructor(machine: string, missing: Array<{ state: string; variable: string }>);
  /** Each missing variable with the state whose task names it, in state order. */
  readonly missing: Array<{ state: string; variable: string }>;
}

export class NoEdgeMatchedError extends Error {
  constructor(message: string, details?: Record<string, unknown>);
  readonly stateName: string;
  /** The state's outgoing edges, in order; an edge decided by a function is
   *  { to, when: null, predicate: true, description }. */
  readonly candidates: Array<EdgeInfo & { predicate?: true; description?: string }>;
  /** What the conditions read: path → JSON preview of its value. */
  readonly read: Record<string, string>;
  /** The steps run, the failed one last (next and edge null). */
  readonly steps: StepRecord[];
}
