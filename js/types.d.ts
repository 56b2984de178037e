// The shapes of handoff-graph's API (interfaces and unions: types only, no values), re-exported by
// the entry (js/index.js), and what JSDoc cannot declare on the classes: [Symbol.dispose], added
// at run time by js/lifetime.js disposable(), and ConditionSyntaxError's optional `edge`, both by
// declaration merging (below). The classes and functions themselves are typed in their JSDoc, and
// their declarations emitted from it (docs/architecture.md#typings).
import type { StateMachine } from './machine.js';

// The disposable classes are Disposable where the environment declares Symbol.dispose; each also
// has dispose() everywhere. A member keyed by Symbol.dispose's type where it is declared (never
// elsewhere), not `extends DisposableWhereDeclared`: tsc's declaration emit for a JavaScript class
// takes a merged interface's `extends` for the class's own (`extends HandoffGraph_base`, undefined).
// tsc copies these members into the classes it emits, naming Symbol.dispose outright there;
// scripts/typings.mjs drops that copy, so that only this conditional one is published.
declare const disposeSymbol: SymbolConstructor extends { readonly dispose: infer D extends symbol } ? D : never;
declare module './api.js' {
  interface HandoffGraph {
    [disposeSymbol](): void;
  }
  interface Condition {
    [disposeSymbol](): void;
  }
}
declare module './machine.js' {
  interface StateMachine<S extends Record<string, unknown> = Record<string, unknown>> {
    [disposeSymbol](): void;
  }
}
declare module './machine/execution.js' {
  interface Execution<S extends Record<string, unknown> = Record<string, unknown>> {
    [disposeSymbol](): void;
  }
}
declare module './swarm.js' {
  interface Swarm {
    [disposeSymbol](): void;
  }
}
declare module './errors.js' {
  interface ConditionSyntaxError {
    /** The edge whose condition this is, when addEdge raised the error. */
    readonly edge?: { from: string; to: string };
  }
}

/**
 * A compiled `WebAssembly.Module`, named through `globalThis` so that these typings compile where
 * no WebAssembly types are declared (lib ["es2022"] with @types/node and no DOM): there it is
 * `never`, as no value of that type can be written anyway.
 */
export type CompiledWasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never) => infer M } } ? M : never;

/**
 * `{ [Symbol.dispose](): void }` where the environment's typings declare `Symbol.dispose` (lib
 * "esnext" or "esnext.disposable", or @types/node), so that `using` works there; `{}` elsewhere,
 * so that these typings also compile with lib ["es2022", "dom"] alone. The disposable classes
 * (HandoffGraph, Condition, StateMachine, Execution, Swarm) have that member where it is declared
 * (disposeSymbol above), and dispose() everywhere.
 */
export type DisposableWhereDeclared = {
  [K in SymbolConstructor extends { readonly dispose: infer D extends symbol } ? D : never]: () => void;
};

/** Where the WebAssembly module comes from; by default the .wasm beside the package's JS. */
/** A fetch `Response` where the environment's typings declare one (DOM, @types/node); `never` elsewhere. */
export type WasmResponse = typeof globalThis extends { Response: abstract new (...args: never) => infer R } ? R : never;

/** What init({ wasm }) takes, from this realm or another (an edge runtime's host, an iframe). */
export type WasmSource = URL | string | ArrayBuffer | Uint8Array | WasmResponse | CompiledWasmModule;

export interface InitOptions {
  wasm?: WasmSource;
}

/** A JSON-like state; only the paths a condition names are ever read. */
export type State = unknown;

export interface HandoffGraphOptions {
  /** 'error' (default): an edge that would close a cycle throws CycleError. */
  onCycle?: 'error' | 'allow';
}

export interface EdgeOptions {
  when?: string | null;
  description?: string;
}

export interface NodeOptions {
  description?: string;
}

export interface EdgeInfo {
  to: string;
  /** The condition as written, or null for an unconditional edge. */
  when: string | null;
}

export interface ExplainedEdge extends EdgeInfo {
  index: number;
  matched: boolean;
  /** false for the edges after the winner: routing stopped before them. */
  evaluated: boolean;
}

export interface Explanation {
  node: string;
  result: string | null;
  edges: ExplainedEdge[];
}

export interface GraphDefinition {
  format: 'handoff-graph';
  version: 1;
  onCycle?: 'error' | 'allow';
  nodes?: Array<{ id: string; description?: string }>;
  edges?: Array<{ from: string; to: string; when?: string | null; description?: string }>;
}

export interface ExportOptions {
  /** A run (machines: a run result or { steps }) or a routing trace (graphs: [{ node, edge }] or
   *  explain() results) whose fired edges are marked. `run` and `trace` are aliases. In pictures
   *  of a finished machine run (a run with a reason), the edges that did not fire are greyed. */
  highlight?: unknown;
  run?: unknown;
  trace?: unknown;
}

export interface DagOptions extends ExportOptions {
  /** 'handoff-graph' (default): our DAG model. 'agentensemble' (state machines only):
   *  AgentEnsemble's DagModel, schema 1.3, graph mode. */
  format?: 'handoff-graph' | 'agentensemble';
  /** With format 'agentensemble': its generatedAt (ISO-8601; default: now). */
  generatedAt?: string;
}

export interface MermaidOptions extends ExportOptions {
  kind?: 'flowchart' | 'state';
  direction?: 'TD' | 'TB' | 'BT' | 'LR' | 'RL';
}

export interface DagNode {
  id: string;
  type: 'node' | 'state' | 'end';
  start?: true;
  description?: string;
  visits?: number;
}

export interface DagEdge {
  from: string;
  to: string;
  /** Position among `from`'s outgoing edges. */
  position: number;
  when: string | null;
  unconditional: boolean;
  /** A state machine's edge decided by a function (addEdge(from, to, fn)). */
  predicate?: true;
  description?: string;
  fired: boolean;
  firedCount: number;
  firedAtSteps: number[];
}

export interface DagModel {
  format: 'handoff-graph/dag';
  version: 1;
  kind: 'graph' | 'state-machine';
  name?: string;
  nodes: DagNode[];
  edges: DagEdge[];
  run?: { reason: string; stepsRun: number; lastState: string | null };
}

/** AgentEnsemble's DagModel, schema 1.3, graph mode (machine.toDag({ format: 'agentensemble' })). */
export interface AgentEnsembleDagModel {
  schemaVersion: '1.3';
  type: 'dag';
  workflow: 'GRAPH';
  generatedAt: string;
  agents: [];
  tasks: Array<{
    /** "0", "1", … in declaration order; the END cap is the last. */
    id: string;
    /** "<state>: <task>", the state's name without a task, "END" for the cap. */
    description: string;
    expectedOutput: string;
    agentRole: string;
    dependsOn: [];
    parallelGroup: 0;
    onCriticalPath: false;
    nodeType: 'graph-state' | 'graph-end';
    mapReduceLevel: null;
    loopMaxIterations: null;
    loopBody: null;
  }>;
  parallelGroups: [];
  criticalPath: [];
  mapReduceMode: null;
  mode: 'graph';
  graphEdges: Array<{ fromStateId: string; toStateId: string; conditionDescription: string | null; unconditional: boolean; fired: boolean }>;
  graphStartStateId: string | null;
  /** 'terminal' (END), 'maxSteps', or our reason ('aborted', 'no-edge-matched'); null without a run. */
  graphTerminationReason: string | null;
  graphStepsRun: number | null;
}

/** A value JSON can hold. */
export type CheckJson = null | boolean | number | string | CheckJson[] | { [key: string]: CheckJson };

/** One thing check() found (docs/check.md). */
export interface CheckFinding {
  code:
    | 'unsatisfiable-condition'
    | 'shadowed-edge'
    | 'no-match'
    | 'unreachable'
    | 'no-exit'
    | 'undecided'
    | (string & {});
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** A JSON Pointer into the target's definition (toJSON()), e.g. '/edges/3'. */
  pointer: string;
  /** The node, state or agent it concerns. */
  node?: string;
  /** The index of the edge it concerns, in the definition's `edges`. */
  edge?: number;
  /** A state (plain JSON) showing it: for no-match, one that matches no edge. */
  witness?: CheckJson;
  /** shadowed-edge: the earlier edges that take its states first. */
  shadowedBy?: number[];
}
/** A state under which routing takes one edge (docs/check.md). */
export interface CheckCase {
  node: string;
  edge: number;
  to: string;
  state: { [key: string]: CheckJson };
  pointer: string;
  /** A swarm's continuation edge: taken once the agent has no selections left. */
  exhausted?: true;
}
export interface CheckReport {
  /** No finding of severity 'error'. */
  ok: boolean;
  findings: CheckFinding[];
  cases: CheckCase[];
}

/** A key's reducer: a built-in's name, or a function of the previous value, the update's and the key. */
export type Reducer = 'replace' | 'append' | 'merge' | 'sum' | ((previous: unknown, update: unknown, key: string) => unknown);

export interface StateMachineOptions {
  name?: string;
  start?: string;
  /** Default 50; an integer from 1 to 1,000,000. */
  maxSteps?: number;
  /** 'return' (default): resolve with reason 'max-steps'; 'throw': reject with MaxStepsError;
   *  'return-with-flag': resolve, and every run result carries `maxStepsReached`. */
  onMaxSteps?: 'return' | 'throw' | 'return-with-flag';
  /** Default true: revisits get `ctx.revision` and `ctx.feedback`. */
  feedbackOnRevisit?: boolean;
  /** States whose revisits get no feedback (each must be declared). */
  noFeedbackStates?: string[];
  /** How each key of a handler's update is merged into the state; 'replace' by default. */
  reducers?: Record<string, Reducer>;
}

export interface Revision<S = Record<string, unknown>> {
  visit: number;
  /** The update this state's handler returned on its previous visit (null if it returned nothing). */
  previous: Partial<S> | null;
  /** A ready sentence for a prompt: which visit this is and that the previous update is attached. */
  feedback: string;
}

export interface HandlerContext<S = Record<string, unknown>> {
  state: S;
  /** 1-based number of the step being run. */
  step: number;
  /** 1-based visit of this state. */
  visit: number;
  stateName: string;
  signal: AbortSignal | undefined;
  /** Set on revisits when feedback is on; null otherwise. */
  revision: Revision<S> | null;
  /** On the same revisits: the prior visit's output, then "Graph state '<name>' visit #N. Prior
   *  visit's output is provided above; refine your response based on it." Null otherwise. */
  feedback: string | null;
  /** The state's task with its {placeholders} filled from the input variables; null without one. */
  task: string | null;
  /** In a branch of a fan-out: its position among the branches (in a map, the item's index in the list). */
  index?: number;
  /** In a branch of a map: the list's item it runs for. */
  item?: unknown;
  /**
   * A handoff-enabled state's transfers offered now (its transfer edges, while it has handoffs
   * left in this run); [] otherwise. Give them to the model as tools.
   */
  transfers: readonly TransferOption[];
  /** The model chose: the step goes to this transfer (its tool name or the state's name). RangeError when not offered. */
  transfer(choice: string): void;
}

/** A transfer a handoff-enabled state offers: `to` is a state name or END. */
export interface TransferOption {
  readonly name: string;
  readonly to: string;
  readonly description: string;
}

/** A branch of a fan-out step: a visit of a branch state. */
export interface BranchRecord {
  state: string;
  visit: number;
}

/** addFanOut's options. */
export interface FanOutOptions {
  /** At most this many branches run at once (an integer from 1 to 1,000,000); all at once by default. */
  concurrency?: number;
}

/** addSubgraph's options: which values go in and come out (paths as conditions write them). */
export interface SubgraphOptions {
  /** { childKey: 'parent.path' }: the child's initial state; without it, a copy of the parent's whole state. */
  input?: Record<string, string>;
  /** { parentKey: 'child.path' }: the step's update; without it, the child's whole final state. */
  output?: Record<string, string>;
}

/** What a subgraph step's machine did (its own run). */
export interface SubgraphRecord {
  machine: string;
  reason: 'end' | 'max-steps' | 'aborted';
  stepsRun: number;
}

/** addMap's options. */
export interface MapOptions extends FanOutOptions {
  /** The path of the list in the state, as conditions write paths: 'docs', 'plan.tasks'. */
  over: string;
}

/** What an edge function gets: the merged state, the step, and the update just returned. */
export interface EdgeContext<S = Record<string, unknown>> {
  readonly state: S;
  readonly step: number;
  readonly visit: number;
  readonly stateName: string;
  readonly lastOutput: Partial<S> | null;
}

export type EdgePredicate<S = Record<string, unknown>> = (ctx: EdgeContext<S>) => boolean;

export type Handler<S = Record<string, unknown>> =
  (ctx: HandlerContext<S>) => Partial<S> | void | null | undefined | Promise<Partial<S> | void | null | undefined>;

export interface StepRecord {
  step: number;
  state: string;
  visit: number;
  /** The next state, END, or null when no edge matched. */
  next: string | null;
  /** 0-based index of the fired edge among the state's outgoing edges; null when none fired. */
  edge: number | null;
  /** A fan-out step's branches, in the order their updates merged; absent on other steps. */
  branches?: BranchRecord[];
  /** A subgraph step's: what its machine did; absent on other steps. */
  subgraph?: SubgraphRecord;
  durationMs: number;
}

export interface Run<S = Record<string, unknown>> {
  reason: 'end' | 'max-steps' | 'aborted';
  stepsRun: number;
  state: S;
  steps: StepRecord[];
  /** Per state, every visit's update in visit order (null for a visit that returned nothing). */
  outputs: Record<string, Array<Partial<S> | null>>;
  /** Only with onMaxSteps 'return-with-flag': whether the run stopped at maxSteps. */
  maxStepsReached?: boolean;
}

export interface RunOptions extends TraceOptions {
  onStep?: (step: StepRecord) => void;
  signal?: AbortSignal;
}

/**
 * Spans and a trace log (docs/server.md, "Tracing"). `tracing` defaults to the global tracer
 * provider of the application's `@opentelemetry/api` (an optional peer dependency) when Node can
 * import it; `false` makes no spans.
 */
export interface TraceOptions {
  tracing?: TracingOptions | false;
  /** Node only: a file to append one JSON object per event to (a path or a file: URL): the run's recording (docs/replay.md). */
  traceLogPath?: string | URL;
}

/** Where spans go (typed structurally: this package does not depend on @opentelemetry/api). */
export interface TracingOptions {
  /** A TracerProvider of the OpenTelemetry SDK, instead of the global one. */
  tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /**
   * The module `@opentelemetry/api` itself (`import * as api from '@opentelemetry/api'`), for
   * runtimes where this package does not import it (browsers, bundles, handoff-graph/inline).
   */
  api?: { trace: object; context: object };
}

/** machine.run()'s options: with `store` and `runId`, a durable run (docs/state-machine.md). */
export interface MachineRunOptions extends RunOptions {
  /** Checkpoints the run after every step (MemoryStore, FileStore, RedisStore, PostgresStore). */
  store?: RunStore;
  /** The id the run is checkpointed and resumed under; taken ids are refused (ERR_RUN_EXISTS). */
  runId?: string;
}

/** resume(runId, { store })'s options. */
export interface ResumeRunOptions extends RunOptions {
  store: RunStore;
}

/** The record of a durable run in its store, replaced after every step. */
export interface RunRecord {
  format: 'handoff-graph/run';
  id: string;
  /** Optimistic versioning, as a session's: 0 before the first save. */
  version: number;
  machine: string;
  status: 'running' | 'done';
  stepsRun?: number;
  /** The execution after the last step checkpointed. */
  snapshot: ExecutionSnapshot;
  updatedAt?: string;
}

/** What durable runs need of a store (MemoryStore, FileStore, RedisStore and PostgresStore have it). */
export interface RunStore {
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Saves if the stored version equals `run.version` (0 when none), then bumps it; else ConflictError. */
  saveRun(run: RunRecord): Promise<void>;
  deleteRun?(id: string): Promise<boolean>;
}

export interface StreamOptions extends TraceOptions {
  signal?: AbortSignal;
}

export type MachineEvent<S = Record<string, unknown>> =
  | { type: 'step:start'; step: number; stateName: string; visit: number; branches?: BranchRecord[] }
  | { type: 'step:end'; step: StepRecord }
  | { type: 'end'; run: Run<S> };

export interface ExecutionSnapshot {
  format: 'handoff-graph/execution';
  /** 2 for snapshots that hold fan-out steps or a fan-out under way. */
  version: 1 | 2;
  machine: string;
  /** Identifies the machine's definition; resume() refuses a machine that changed. */
  definition: string;
  status: string;
  current: string;
  step: number;
  visits: Record<string, number>;
  steps: Array<Omit<StepRecord, 'durationMs'>>;
  /** With status 'fan-out' (taken while a fan-out's branches ran): its branches, and which completed. */
  branches?: Array<BranchRecord & { done: boolean }>;
  /** With status 'fan-out': the updates of the completed branches, by branch (null for the others). */
  branchOutputs?: unknown[];
  /** With status 'subgraph' (taken while a subgraph ran): the subgraph's own snapshot, as of its last step. */
  subgraph?: ExecutionSnapshot;
  /** The values the task templates were filled with (machines with templates). */
  variables?: Record<string, unknown>;
  state: unknown;
  updates: Record<string, unknown>;
  /** Every visit's update per state (absent in snapshots of earlier versions). */
  outputs?: Record<string, unknown[]>;
  durations: number[];
}

export interface MachineDefinition {
  format: 'handoff-graph/state-machine';
  version: 1;
  name: string;
  start?: string;
  maxSteps: number;
  onMaxSteps: 'return' | 'throw' | 'return-with-flag';
  feedbackOnRevisit: boolean;
  noFeedbackStates?: string[];
  states: Array<{
    name: string; feedbackOnRevisit?: false; task?: string; handoffs?: number;
    /** A fan-out state's branches. */
    branches?: string[];
    /** A map state's state and list path. */
    map?: { state: string; over: string };
    concurrency?: number;
    /** A subgraph state's machine, and its mappings. */
    subgraph?: MachineDefinition;
    input?: Record<string, string>;
    output?: Record<string, string>;
  }>;
  edges: Array<{ from: string; to: string; when?: string; description?: string; transfer?: true }>;
  reducers: Record<string, 'replace' | 'append' | 'merge' | 'sum' | 'custom'>;
}

// ------------------------------------------------------------------------------------------
// Handoffs (docs/handoffs.md)

export type ToolFormat = 'openai-responses' | 'openai-chat' | 'anthropic' | 'ai-sdk';

export interface AgentTool {
  name: string;
  /** Required: the model reads it to decide when to call the tool. */
  description: string;
  /** A JSON Schema of type "object" (default: no arguments). */
  parameters?: Record<string, unknown>;
  /** A call pauses the turn until a human decides (swarm.resolveApproval). */
  approval?: boolean;
}

export interface SwarmAgent {
  id: string;
  tools?: AgentTool[];
  name?: string;
  description?: string;
  instructions?: string;
  /** The agent a new session starts with (the first agent when none is marked). */
  entry?: boolean;
  /**
   * How many handoffs this agent may select in a session; null disables its transfer tools (MAG's
   * `handoffs: null`). Once none are left, its `continuation` edges are taken.
   */
  handoffs?: number | null;
  /** MAG's output_nodes: at least two agents, one transfer tool each (the agent's only LLM edges). */
  outputNodes?: string[];
  /** SwarmForge's visible variables: the session variables this agent's model requests carry (default: all). */
  visibleVariables?: string[];
  /**
   * MCP servers whose tools the agent is offered, after its own tools and before its transfers
   * (docs/mcp.md): each the name of a client in the Swarm's `mcp` option, or `{ server, prefix }`
   * (`prefix` goes before each of that server's tool names).
   */
  mcpServers?: Array<string | { server: string; prefix?: string }>;
  /** Names of the agent's MCP tools (as offered, prefix included) whose calls pause the turn for approval. */
  mcpApproval?: string[];
}

/**
 * A connected MCP client (`Client` of `@modelcontextprotocol/sdk`, after `connect()`, over any
 * transport): what the Swarm calls of it.
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal }): Promise<{ tools: Array<{ name: string; description?: string; inputSchema?: object }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: any, options?: { signal?: AbortSignal }): Promise<unknown>;
  fallbackNotificationHandler?: (notification: any) => Promise<void>;
}

export interface RequiredVariable {
  name: string;
  /** 'state' (default): a session variable that must be set; 'model': a tool argument. */
  from?: 'state' | 'model';
  type?: 'string' | 'number' | 'integer' | 'boolean';
  description?: string;
}

export interface SwarmEdge {
  from: string;
  to: string;
  description?: string;
  /** A rule: taken automatically when it holds. With `offer: true`, a tool offered while it holds. */
  when?: string;
  offer?: boolean;
  toolName?: string;
  requires?: Array<string | RequiredVariable>;
  /** What history the target receives: 'full', 'last-user', 'none' or a custom policy's name. */
  context?: string;
  includeSystem?: boolean;
  /** LLM edges only: a transfer call pauses the turn until a human decides (swarm.resolveApproval). */
  approval?: boolean;
  /** A rule taken only once the source agent has no handoffs left (its `handoffs` used up, or null). */
  continuation?: boolean;
}

export interface SwarmDefinition {
  format?: 'handoff-graph/swarm';
  version?: 1;
  name?: string;
  /** Handoffs a session may take in all (default 10). */
  maxHops?: number;
  context?: string;
  includeSystem?: boolean;
  /** 'per-target' (default): one transfer_to_<agent> tool per edge; 'single': one transfer_to_agent tool, its `agent` an enum. */
  transferTools?: 'per-target' | 'single';
  agents: SwarmAgent[];
  edges?: SwarmEdge[];
}

export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  [key: string]: unknown;
}

/** `edge` is a copy of the edge taken, as in `swarm.toJSON()`; `session` is the session itself. */
export type ContextPolicy = (messages: Message[], info: { from: string; to: string; edge: SwarmEdge; session: Session }) => Message[];

export interface Session {
  format: 'handoff-graph/session';
  version: number;
  id: string;
  swarm: string;
  active: string;
  hops: number;
  turn: number;
  selections: Record<string, number>;
  variables: Record<string, unknown>;
  histories: Record<string, Message[]>;
  /** Where the last turn is (absent before the first); 'failed' comes with `error`, the message. */
  status?: AgentStatus;
  error?: string;
  /** The approvals asked in this session, by id (absent until the first); at most one is pending. */
  approvals?: Record<string, Approval>;
  /** Handoffs, blocked and rejected transfers, and tool runs of this session (moved to the store's log when runTurn is given one). */
  checkpoints: Array<
    | { turn: number; hops: number; active: string; outcome: HandoffOutcome }
    | { turn: number; hops: number; active: string; tool: string; arguments: Record<string, unknown>; result: string; by: 'handler' | 'mock' | 'missing' | 'agent' }
    /** A call of an MCP tool: `server` ran it. */
    | { turn: number; hops: number; active: string; tool: string; arguments: Record<string, unknown>; result: string; by: 'mcp'; server: string }
    | { turn: number; hops: number; active: string; approval: { approvalId: string; approved: boolean; reason?: string } }
    | { turn: number; hops: number; active: string; guardrail: { kind: 'input' | 'output'; agent: string; guardrail: number; reason: string | null } }
  >;
}

/** What a human is asked to approve: a call of an `approval: true` tool, or a transfer on an `approval: true` edge. */
export type ApprovalRequest =
  | { approvalId: string; agent: string; kind: 'tool'; tool: string; arguments: Record<string, unknown> }
  | { approvalId: string; agent: string; kind: 'handoff'; tool: string; to: string; edge: number; arguments: Record<string, unknown> };

/**
 * An approval as the session keeps it. A pending one also holds what its turn needs to resume
 * (the model response's calls, the user input); those fields are the Swarm's, not an API.
 */
export type Approval = ApprovalRequest & { turn: number } & (
  | { status: 'pending'; [resumeData: string]: unknown }
  | { status: 'approved' | 'rejected'; reason?: string }
);

export interface ToolCall {
  id?: string;
  name: string;
  /** An object, or its JSON text (as OpenAI sends it). */
  arguments?: unknown;
}

/**
 * What a tool call or a rule did. `edge` is the index, in the definition's `edges`, of the edge that
 * fired or was blocked. A handoff's `variables` are the required variables as the session holds
 * them after it (the model's values normalized and reduced by the state hooks and reducers).
 */
export type HandoffOutcome =
  /** A call of an agent's own tool, for the host to run; of an MCP tool, with the server and its own name for the tool. */
  | { type: 'tool'; agent: string; tool: string; arguments: Record<string, unknown>; mcp?: { server: string; tool: string } }
  | {
      type: 'handoff';
      via: 'tool' | 'rule' | 'continuation';
      from: string;
      to: string;
      edge: number;
      tool?: string;
      /** The names of the variables the edge requires (SwarmForge's handoff event). */
      requiredVariables: string[];
      /** The values the handoff went with: the same as `variables`. */
      resolvedVariables: Record<string, unknown>;
      variables: Record<string, unknown>;
      reason: string | null;
    }
  | { type: 'handoff_blocked'; from: string; to: string; edge: number; tool: string; missing: string[]; invalid: Array<{ name: string; expected: string }>; rejectionReason: string }
  | { type: 'rejected'; reason: string }
  /** A call of an `approval: true` tool or edge: nothing changed; a human decides (runTurn pauses). */
  | { type: 'approval_required'; kind: 'tool'; agent: string; tool: string; arguments: Record<string, unknown> }
  | { type: 'approval_required'; kind: 'handoff'; agent: string; tool: string; from: string; to: string; edge: number; arguments: Record<string, unknown> };

/** A call of a response that was not run (an earlier call transferred the conversation). */
export interface NotRunOutcome {
  type: 'not_run';
  reason: string;
}

/** A call a human rejected: the model got `Not approved: <reason>` (or `Not approved.`). */
export interface NotApprovedOutcome {
  type: 'not_approved';
  reason: string | null;
}

export interface ModelResponse {
  text?: string;
  /** In any shape applyToolCall accepts. */
  toolCalls?: ToolCallInput[];
  finishReason?: string | null;
  usage?: unknown;
  /** The provider's response: runTurn reports it on a `response` event. */
  raw?: unknown;
}

/** A tool call as an SDK hands it over: each becomes { id, name, arguments }. */
export type ToolCallInput =
  | ToolCall
  | { id?: string; name: string; input?: unknown; args?: unknown }
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { toolCallId: string; toolName: string; input?: unknown; args?: unknown };

/** Parts of a streamed model answer, after the AI SDK's LanguageModel stream parts. */
export type ModelStreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input?: unknown }
  | { type: 'finish'; finishReason?: string | null; usage?: unknown; raw?: unknown };

/** What runTurn gives the model function for one model call (plain values). */
export interface ModelRequest<F extends ToolFormat = ToolFormat> {
  agent: SwarmAgent;
  /** The instructions as a system message (when there are any), then the history. */
  messages: Message[];
  /** The tools offered now, in `toolFormat`'s shape. */
  tools: ToolsByFormat[F];
  toolFormat: F;
  instructions: string;
  /** The agent's history, as its context policies made it. */
  history: Message[];
  /** The session's variables: those the agent's visibleVariables name, or all. */
  variables: Record<string, unknown>;
  /** The agent's behaviour config: runTurn's `agentConfig[agent.id]`, or {}. */
  config: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** The whole answer, or an async iterable of stream parts. */
export type ModelAnswer = ModelResponse | AsyncIterable<ModelStreamPart>;

/** runTurn's model: one model call. An adapter's carries its `toolFormat`. */
export type ModelFunction = ((request: ModelRequest<any>) => ModelAnswer | void | Promise<ModelAnswer | void>) & { readonly toolFormat?: ToolFormat };

/** What an agent tool's nested conversation reports (inside `agent_tool` events). */
export type AgentToolEvent = Extract<SwarmEvent, { type: 'chunk' | 'response' | 'tool_use' | 'tool_result' | 'tool_mock_required' | 'workflow_step' | 'workflow_done' | 'agent_tool' | 'mcp_unavailable' }>;

export type SwarmEvent =
  /** `approvalId`: when resolveApproval resumes the turn. */
  | { type: 'open'; agent: string; turn: number; approvalId?: string }
  | ({ type: 'handoff' } & Omit<Extract<HandoffOutcome, { type: 'handoff' }>, 'type'>)
  | ({ type: 'handoff_blocked' } & Omit<Extract<HandoffOutcome, { type: 'handoff_blocked' }>, 'type'>)
  /** `by: 'mcp'` and `server`: a call of an MCP tool (docs/mcp.md). */
  | { type: 'tool_use'; agent: string; call: ToolCall; by?: 'mcp'; server?: string }
  | { type: 'tool_result'; agent: string; call: ToolCall; result: string; outcome: HandoffOutcome | NotRunOutcome | NotApprovedOutcome; by?: 'mcp'; server?: string }
  /** An MCP server of the agent could not be listed (or has no client): the agent is offered none of its tools until it can be. */
  | { type: 'mcp_unavailable'; agent: string; server: string; message: string }
  | { type: 'tool_mock_required'; agent: string; tool: string; arguments: Record<string, unknown> }
  | { type: 'state_rejected'; source: 'extract' | 'intent' | 'workflow'; key: string; message: string }
  /**
   * An event of an agent tool's nested conversation (options.agentTools), reported during agent
   * `agent`'s call `callId` of tool `tool`, between that call's tool_use and tool_result. `event`
   * is the nested agent's own (its `agent` is that agent); an agent_tool event itself when the
   * nested agent asks another in turn.
   */
  | { type: 'agent_tool'; agent: string; tool: string; callId: string; event: AgentToolEvent }
  /** A workflow agent's machine finished a step (`step`: the machine's step record). */
  | { type: 'workflow_step'; agent: string; machine: string | null; step: StepRecord }
  /** A workflow agent's machine ended; its answer follows as a `chunk`. */
  | { type: 'workflow_done'; agent: string; machine: string | null; reason: Run['reason']; stepsRun: number }
  /** With runTurn's `statusEvents`: the session's status changed (llm4s's AgentStatus). */
  | { type: 'status'; status: AgentStatus; agent: string; to?: string; reason?: string | null; error?: string }
  /** A model call or a tool handler failed: the session is back as before the turn, marked failed; the error is rethrown next. */
  | { type: 'error'; agent: string; source: 'model' | 'tool' | 'workflow' | 'turn'; tool?: string; message: string }
  /** Queued intents (extractIntents): intent `index` of `count` starts, then is answered. */
  | { type: 'intent'; index: number; count: number; text: string; variables: Record<string, unknown> }
  | { type: 'intent_done'; index: number; agent: string; text: string; reason: DoneReason }
  | { type: 'chunk'; agent: string; text: string }
  /** After a model call whose answer carried the provider's raw response (every adapter's does). */
  | { type: 'response'; agent: string; text: string; toolCalls: ToolCall[]; finishReason: string | null; usage: unknown; raw: unknown }
  /** The turn pauses on this call (and the calls after it in the same response) until resolveApproval. */
  | ({ type: 'approval_required'; call: ToolCall } & ApprovalRequest)
  | { type: 'approval_resolved'; approvalId: string; approved: boolean; reason: string | null }
  /** `guardrail`: the index of the one that tripped in the agent's list. */
  | { type: 'guardrail_tripped'; kind: 'input' | 'output'; agent: string; guardrail: number; reason: string | null }
  /**
   * `session` is the session object runTurn was given (updated in place), not a copy.
   * 'approval-required': the turn paused; `approvalId` names the approval it waits for.
   */
  | {
      type: 'done';
      agent: string;
      text: string;
      reason: DoneReason;
      approvalId?: string;
      /** With queued intents: each intent's answer, and the texts of the intents not started. */
      answers?: IntentAnswer[];
      queued?: string[];
      session: Session;
    };

export type DoneReason = 'answered' | 'max-model-calls' | 'approval-required' | 'guardrail-tripped';

/** llm4s's AgentStatus: where a session's turn is. */
export type AgentStatus = 'in_progress' | 'waiting_for_tools' | 'handoff_requested' | 'complete' | 'failed';

export interface IntentAnswer {
  index: number;
  intent: string;
  agent: string;
  text: string;
  reason: DoneReason;
}

/** What extractIntents returns for one intent: its text, and variables merged before it is routed. */
export type Intent = string | { text: string; variables?: Record<string, unknown> };

export interface ToolContext {
  session: Session;
  /** The session's variables. */
  state: Record<string, unknown>;
  agent: SwarmAgent | undefined;
  /** The user input of the turn. */
  input: string;
  /** What the host passed to runTurn (clients, credentials); never stored in the session. */
  toolState: unknown;
  call: ToolCall;
  /** Changes variables through the reducers and state hooks: { ok: true } or { ok: false, key, message }. */
  setVariables(variables: Record<string, unknown>): { ok: true } | { ok: false; key: string; message: string };
}

/** A key that is not one of these (or of `state`'s) is a TypeError naming it, with a suggestion. */
export interface SwarmOptions {
  contexts?: Record<string, ContextPolicy>;
  /** By tool name: run when the model calls the tool; the result is fed back (JSON unless a string). */
  handlers?: Record<string, (args: Record<string, unknown>, ctx: ToolContext) => unknown>;
  /** By tool name: a fixed result, or a function of the arguments (for tests and demos). */
  mocks?: Record<string, unknown>;
  /** By agent id: instructions computed at each model call. */
  instructions?: Record<string, (info: { state: Record<string, unknown>; agent: SwarmAgent | undefined; session: Session }) => string>;
  /** By variable: how updates merge ('replace' by default). */
  reducers?: Record<string, Reducer>;
  /** Applied to every change of variables (tool arguments, extractVariables, handlers, updateState). */
  state?: {
    normalize?(key: string, value: unknown, ctx: { session: Session; agent: string; source: string }): unknown;
    /** true to accept; false or a message to refuse the whole change. */
    validate?(key: string, value: unknown, ctx: { session: Session; agent: string; source: string }): boolean | string;
  };
  extractVariables?(input: string, ctx: { session: Session; agent: string }): Record<string, unknown> | null | undefined | Promise<Record<string, unknown> | null | undefined>;
  /** Queued-intent routing: several intents of one input, routed and answered one after another (null or [] for one). */
  extractIntents?(input: string, ctx: { session: Session; agent: string }): Intent[] | null | undefined | Promise<Intent[] | null | undefined>;
  /** By agent id: checks of the user's input for that agent (not inherited across handoffs). */
  inputGuardrails?: Record<string, Guardrail | Guardrail[]>;
  /** By agent id: checks of that agent's final answer before it joins the history. */
  outputGuardrails?: Record<string, Guardrail | Guardrail[]>;
  /** OpenTelemetry spans of every turn (default: the global tracer provider, when installed). */
  tracing?: TracingOptions | false;
  /** Node only: a file to append one JSON object per event of every turn to: each session's recording (docs/replay.md). */
  traceLogPath?: string | URL;
  /** By agent id: agents whose turn is a StateMachine run instead of model calls. */
  workflows?: Record<string, StateMachine<any> | AgentWorkflow>;
  /** By tool name (a tool declared in the definition): the agent a call runs as a nested conversation, its answer the result. */
  agentTools?: Record<string, string>;
  /** By server name (as agents' `mcpServers` name them): connected MCP clients whose tools those agents are offered (docs/mcp.md). */
  mcp?: Record<string, McpClientLike>;
}

/** A workflow agent's machine and mappings (docs/handoffs.md#agents-that-are-workflows-and-agents-as-tools). */
export interface AgentWorkflow {
  machine: StateMachine<any>;
  /** The machine's initial state (default: the agent's visible variables and `input`). */
  input?(ctx: { input: string; variables: Record<string, unknown>; agent: SwarmAgent }): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The agent's answer (default: the final state's `answer`, which must be a string). */
  output?(state: Record<string, any>): string | Promise<string>;
  /** Variables to merge into the session after the answer (then the rules are taken). */
  variables?(state: Record<string, any>): Record<string, unknown> | null | undefined | Promise<Record<string, unknown> | null | undefined>;
}

/** A guardrail: `text` is the user's input or the agent's answer; `ctx` holds copies. */
export type Guardrail = (
  text: string,
  ctx: { kind: 'input' | 'output'; agent: SwarmAgent; variables: Record<string, unknown>; input: string },
) => GuardrailVerdict | Promise<GuardrailVerdict>;
export interface GuardrailVerdict {
  tripped: boolean;
  reason?: string;
}

export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  save(session: Session, options?: SaveOptions): Promise<void>;
  appendCheckpoint(id: string, checkpoint: unknown): Promise<void>;
  listCheckpoints(id: string): Promise<unknown[]>;
  /**
   * Turn leases, for handoff-graph/server (docs/server.md): takes the lease of session `id` for
   * `holder` for `ttlMs`, or extends it when `holder` has it; false while another's lease lasts.
   * A store that has it also keeps `save(session, { checkpoints })` atomic.
   */
  acquireLease?(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` still has it (true), else false. */
  releaseLease?(id: string, holder: string): Promise<boolean>;
}

export interface SaveOptions {
  /** Appended to the session's checkpoint log in the same atomic step as the save: both or neither. */
  checkpoints?: unknown[];
}

// Type aliases, not interfaces: the SDKs take parameters as { [key: string]: unknown }, which an
// object type alias satisfies and an interface (no implicit index signature) does not.
export type TransferArgumentSchema = {
  type: 'string' | 'number' | 'integer' | 'boolean' | ['string' | 'number' | 'integer' | 'boolean', 'null'];
  description?: string;
  /** The single transfer tool's `agent`: the targets offered now. */
  enum?: string[];
};
/** A transfer tool's parameters: strict (every property required, `reason` nullable). */
export type TransferSchema = {
  type: 'object';
  properties: { reason: TransferArgumentSchema } & Record<string, TransferArgumentSchema>;
  required: string[];
  additionalProperties: false;
};
/** Parameters of a tool: a transfer's, or an agent tool's own JSON Schema. */
export type ToolSchema = TransferSchema | { type: 'object'; [key: string]: unknown };
/**
 * `strict` is true when the schema meets OpenAI's strict mode (transfer tools always do; an agent's
 * own tool when its schema is written that way), false otherwise: the schema is sent as written.
 */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ToolSchema;
  strict: boolean;
}
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: ToolSchema; strict: boolean };
}
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ToolSchema;
}
export type AiSdkTools = Record<string, { description: string; inputSchema: ToolSchema; strict: boolean }>;
export interface ToolsByFormat {
  'openai-responses': OpenAIResponsesTool[];
  'openai-chat': OpenAIChatTool[];
  anthropic: AnthropicTool[];
  'ai-sdk': AiSdkTools;
}

export interface SwarmPictureOptions {
  /** Marks the session's active agent and the handoffs its checkpoints record. */
  session?: Session;
  /** The checkpoint log to read instead of session.checkpoints (a store's listCheckpoints()). */
  checkpoints?: unknown[];
}

/** Swarm.toDag(): the DAG model of a swarm (docs/format.md). */
export interface SwarmDag {
  format: 'handoff-graph/dag';
  version: 1;
  kind: 'swarm';
  name?: string;
  nodes: Array<{ id: string; type: 'agent'; start?: true; description?: string; active?: true }>;
  edges: Array<{
    from: string;
    to: string;
    position: number;
    when: string | null;
    unconditional: boolean;
    via: 'rule' | 'llm' | 'hybrid' | 'continuation';
    tool?: string;
    description?: string;
    fired: boolean;
    firedCount: number;
    /** With a session: the ordinals (1-based) of the session's handoffs along this edge. */
    firedAtSteps: number[];
  }>;
}

/** runTurn's options (and resolveApproval's, besides approve and reason). */
export interface RunTurnOptions {
  model: ModelFunction;
  /** Default: the model's own toolFormat, else 'openai-chat'. */
  toolFormat?: ToolFormat;
  /** The agents' behaviour config (JSON), by agent id: the model request's `config`. */
  agentConfig?: Record<string, Record<string, unknown>>;
  /** With toolFormat 'ai-sdk': `jsonSchema` from 'ai', to wrap the schemas. */
  jsonSchema?: (schema: ToolSchema) => unknown;
  maxModelCalls?: number;
  signal?: AbortSignal;
  store?: SessionStore;
  toolState?: unknown;
  /** Yield a `status` event whenever the session's status changes (default false). */
  statusEvents?: boolean;
}

export interface DefinitionProblem {
  /** JSON pointer of the value at fault, e.g. "/edges/3/when". */
  pointer: string;
  message: string;
}

/** A line of a recording (docs/format.md#recordings): a trace log line, `type` first. */
export interface RecordingLine {
  type: string;
  [field: string]: unknown;
}

/** What a replay compares (docs/replay.md#what-is-compared). */
export type ReplayDecisionKind = 'agent' | 'tools' | 'rule' | 'outcome' | 'approval' | 'guardrail' | 'next' | 'end';

/** swarm.replay(): `same`, or the first decision that differs, with both values (null: none was made). */
export interface SwarmReplayReport {
  same: boolean;
  /** The turns replayed, the diverging one included. */
  turns: number;
  /** The decisions compared, the diverging one included. */
  decisions: number;
  /**
   * `index`: the decision's among its turn's, from 0; `line`: the position, from 0, of the
   * recording's line that holds the recorded decision (for a decision the recording lacks, its
   * turn's last line).
   */
  divergence: null | { turn: number; index: number; line: number; kind: ReplayDecisionKind; recorded: unknown; replayed: unknown };
}

/** machine.replay(): swarm.replay's report, the run counting as one turn whose decisions are its steps' routes. */
export interface MachineReplayReport {
  same: boolean;
  /** 1: a run. */
  turns: number;
  /** The steps compared, the diverging one included. */
  decisions: number;
  /** `index`: the step's, from 0; `recorded` and `replayed` hold `{ step, state, visit, next, edge }` (or the run's end, `{ reason }`). */
  divergence: null | { turn: number; index: number; kind: 'next' | 'state' | 'end'; recorded: unknown; replayed: unknown };
}

export interface ValidationProblem {
  code: string;
  message: string;
  /** Where in the machine's definition (`toJSON()`): "/start", "/edges/2/to", "/states/0"; "" for the whole machine. */
  pointer: string;
}

// Only what is marked `export` above is exported (disposeSymbol is not).
export {};
