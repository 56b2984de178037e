// Type-checked (never run) by `tsc -p tests/types`: uses every exported signature, and marks
// misuse that must NOT compile with @ts-expect-error (tsc fails if such a line compiles).
import {
  init, HandoffGraph, Condition, compileCondition, evaluateCondition, heapUsed, check, type CheckReport,
  ConditionSyntaxError, CycleError, DefinitionError, GraphValidationError, MaxStepsError, NoEdgeMatchedError,
  StateMachine, Execution, END, Swarm, TOOL_FORMATS, type Session, type HandoffOutcome, type AgentStatus, type SwarmDag, type TransferOption, type SwarmEvent, type Approval,
  type Explanation, type EdgeInfo, type GraphDefinition, type WasmSource, type Run, type StepRecord,
  type MachineEvent, type ExecutionSnapshot, type HandlerContext, type DagModel,
  RecordingError, type RecordingLine, type SwarmReplayReport, type MachineReplayReport, type ReplayDecisionKind,
  MissingVariablesError, type AgentEnsembleDagModel, type EdgeContext, type BranchRecord, type FanOutOptions, type MapOptions, type SubgraphOptions, type SubgraphRecord, type AgentWorkflow, type AgentToolEvent,
} from 'handoff-graph';

interface Ticket extends Record<string, unknown> {
  question: string;
  decision?: 'A' | 'done';
  log?: string[];
}

async function machines(): Promise<void> {
  const m = new StateMachine<Ticket>({ name: 'router', start: 'analyze', maxSteps: 20, onMaxSteps: 'throw', reducers: { log: 'append', n: (a, b) => b } });
  m.addState('analyze', async (ctx: HandlerContext<Ticket>) => ({ decision: ctx.visit < 3 ? 'A' : 'done' }))
    .addState('toolA', (ctx) => {
      const previous: Partial<Ticket> | null | undefined = ctx.revision?.previous;
      void previous;
      return { log: [ctx.stateName] };
    }, { feedbackOnRevisit: false })
    .addState('quiet')
    .addEdge('analyze', 'toolA', "decision == 'A'")
    .addEdge('analyze', END)
    .addEdge('toolA', 'analyze', { when: null });
  // @ts-expect-error: a handler returns an object (a partial update) or nothing
  m.addState('bad', () => 42);
  const run: Run<Ticket> = await m.run({ question: 'q' }, { onStep: (s: StepRecord) => void s.edge, signal: new AbortController().signal });
  const reason: 'end' | 'max-steps' | 'aborted' = run.reason;
  const exec: Execution<Ticket> = m.start({ question: 'q' });
  const record: StepRecord | null = await exec.step();
  const saved: ExecutionSnapshot = exec.snapshot();
  const resumed = m.resume(JSON.parse(JSON.stringify(saved)) as ExecutionSnapshot);
  for await (const event of m.stream({ question: 'q' })) {
    const e: MachineEvent<Ticket> = event;
    if (e.type === 'step:end') void e.step.next;
  }
  const definition = m.toJSON();
  const copy: StateMachine<Ticket> = StateMachine.fromJSON<Ticket>(definition, { handlers: { analyze: () => ({ decision: 'done' }) } });
  const dag: DagModel = copy.toDag({ highlight: run });
  const text: string = copy.toMermaid({ kind: 'state', direction: 'LR', highlight: run }) + copy.toDot({ run }) + resumed.toDag().kind;
  void [reason, record, resumed.done, m.validate(), dag, text];
}
void machines;

// Fan-out and map states (docs/state-machine.md#fan-out).
async function fanOuts(): Promise<void> {
  const m = new StateMachine<{ docs: string[]; found?: string[] }>({ name: 'fan', start: 'search', reducers: { found: 'append' } })
    .addFanOut('search', ['web', 'papers'], { concurrency: 2 })
    .addMap('each', 'one', { over: 'docs', concurrency: 4 })
    .addState('web', async (ctx) => ({ found: [`${ctx.stateName}#${ctx.index ?? 0}`] }))
    .addState('papers', (ctx) => (ctx.signal?.aborted ? null : { found: [] }))
    .addState('one', (ctx) => ({ found: [String(ctx.item)] }))
    .addEdge('search', 'each')
    .addEdge('each', END);
  // @ts-expect-error: a map needs { over }
  m.addMap('broken', 'one', { concurrency: 2 });
  // @ts-expect-error: branches are a list of names
  m.addFanOut('broken', 'web');
  const run = await m.run({ docs: ['a'] });
  const branches: BranchRecord[] | undefined = run.steps[0].branches;
  const visit: number | undefined = branches?.[0].visit;
  const snapshot = m.start({ docs: [] }).snapshot();
  const version: 1 | 2 = snapshot.version;
  const done: boolean | undefined = snapshot.branches?.[0].done;
  const fanOutOptions: FanOutOptions = { concurrency: 3 };
  const mapOptions: MapOptions = { over: 'plan.tasks' };
  const states = m.toJSON().states.map((s) => s.branches ?? s.map?.state ?? s.concurrency);
  for await (const event of m.stream({ docs: [] })) if (event.type === 'step:start') void event.branches;
  void [visit, version, done, fanOutOptions, mapOptions, states];
}
void fanOuts;

// Subgraph states (docs/state-machine.md#subgraphs).
async function subgraphs(): Promise<void> {
  const child = new StateMachine<{ topic?: string; summary?: string }>({ name: 'team', start: 'a' }).addState('a').addEdge('a', END);
  const options: SubgraphOptions = { input: { topic: 'question' }, output: { findings: 'summary' } };
  const m = new StateMachine<{ question: string; findings?: string }>({ name: 'desk', start: 'research' })
    .addSubgraph('research', child, options)
    .addEdge('research', END);
  // @ts-expect-error: mappings are paths (strings)
  m.addSubgraph('bad', child, { input: { topic: 1 } });
  const run = await m.run({ question: 'q' });
  const record: SubgraphRecord | undefined = run.steps[0].subgraph;
  const inner: ExecutionSnapshot | undefined = m.start({ question: 'q' }).snapshot().subgraph;
  const nested = m.toJSON().states[0].subgraph?.states.length;
  void [record?.stepsRun, inner, nested];
}
void subgraphs;

// The AgentEnsemble rows (docs/coming-from-agentensemble.md).
async function agentEnsemble(): Promise<void> {
  const m = new StateMachine<Ticket>({ name: 'agent', start: 'analyze', onMaxSteps: 'return-with-flag', noFeedbackStates: ['toolA'] })
    .addState('analyze', (ctx) => {
      const prompt: string = `${ctx.task ?? ''}\n${ctx.feedback ?? ''}`;
      void prompt;
      return { decision: 'A' };
    }, { task: 'Answer {question}' })
    .addState('toolA')
    .addEdge('analyze', 'toolA', (ctx: EdgeContext<Ticket>) => ctx.lastOutput?.decision === 'A', { description: 'decided A' })
    .addEdge('analyze', END)
    .addEdge('toolA', END);
  // @ts-expect-error: an edge function returns a boolean
  m.addEdge('analyze', END, () => 'yes');
  // @ts-expect-error: not one of the onMaxSteps values
  void new StateMachine({ onMaxSteps: 'RETURN_WITH_FLAG' });
  const run = await m.run({ question: 'why?' });
  const flag: boolean | undefined = run.maxStepsReached;
  const visits: Array<Partial<Ticket> | null> | undefined = run.outputs.analyze;
  const ae: AgentEnsembleDagModel = m.toDag({ format: 'agentensemble', highlight: run, generatedAt: '2025-01-01T00:00:00Z' });
  const native: DagModel = m.toDag({ format: 'handoff-graph' });
  const exec = m.start({ question: 'q' });
  const fromExec: AgentEnsembleDagModel = exec.toDag({ format: 'agentensemble' });
  const missing: Array<{ state: string; variable: string }> = new MissingVariablesError('agent', []).missing;
  void [flag, visits, ae.graphEdges[0]?.conditionDescription, native.kind, fromExec.mode, exec.outputs, missing];
}
void agentEnsemble;

async function swarms(): Promise<void> {
  const swarm = new Swarm({
    name: 'support',
    agents: [{ id: 'triage', entry: true, handoffs: 2 }, { id: 'human', name: 'Human' }],
    edges: [{ from: 'triage', to: 'human', requires: ['ticketId', { name: 'urgency', from: 'model', type: 'integer' }] }],
  }, { contexts: { summary: (messages) => messages.slice(-2) } });
  const session: Session = swarm.createSession({ variables: { ticketId: 'T-1' } });
  const outcome: HandoffOutcome = swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: '{"urgency": 2}' });
  if (outcome.type === 'handoff_blocked') void outcome.rejectionReason;
  const formats: readonly string[] = TOOL_FORMATS;
  void [swarm.tools(session, 'anthropic'), swarm.updateState(session, { x: 1 }), formats];
  for await (const event of swarm.runTurn(session, 'hi', { model: async () => ({ text: 'hello' }) })) {
    const e: SwarmEvent = event;
    if (e.type === 'done') void e.session.active;
    if (e.type === 'approval_required') {
      const id: string = e.approvalId;
      if (e.kind === 'handoff') void e.to;
      for await (const next of swarm.resolveApproval(session, id, { approve: false, reason: 'no', model: async () => ({ text: 'ok' }) })) {
        if (next.type === 'done' && next.reason === 'approval-required') void next.approvalId;
        if (next.type === 'tool_result' && next.outcome.type === 'not_approved') void next.outcome.reason;
      }
      // @ts-expect-error: approve is required
      swarm.resolveApproval(session, id, { model: async () => ({ text: 'ok' }) });
    }
  }
  const pending: Record<string, Approval> | undefined = session.approvals;
  const guarded = new Swarm({ agents: [{ id: 'a' }] }, {
    inputGuardrails: { a: (text) => ({ tripped: text.length > 10 }) },
    outputGuardrails: { a: [async (text, ctx) => ({ tripped: ctx.kind === 'output' && text === '', reason: 'empty' })] },
  });
  for await (const e of guarded.runTurn(guarded.createSession(), 'hi', { model: async () => ({ text: 'x' }) })) {
    if (e.type === 'guardrail_tripped') void [e.kind, e.guardrail, e.reason];
  }
  void pending;
  // Agents that are workflows and agents as tools (issue 18).
  const machine = new StateMachine({ start: 'a' }).addState('a', () => ({ answer: 'hi' })).addEdge('a', END);
  const agentWorkflow: AgentWorkflow = { machine, input: ({ input, variables }) => ({ ...variables, input }), output: (state) => String(state.answer), variables: (state) => ({ seen: state.answer }) };
  const manager = new Swarm({
    agents: [{ id: 'm', entry: true, tools: [{ name: 'ask', description: 'Ask r' }] }, { id: 'r' }, { id: 'w' }],
    edges: [],
  }, { workflows: { w: agentWorkflow, r: machine }, agentTools: { ask: 'r' } });
  for await (const e of manager.runTurn(manager.createSession(), 'hi', { model: async () => ({ text: 'x' }) })) {
    if (e.type === 'workflow_step') void [e.agent, e.step.state, e.machine];
    if (e.type === 'workflow_done') void [e.reason, e.stepsRun];
    if (e.type === 'error' && e.source === 'workflow') void e.message;
    if (e.type === 'agent_tool') {
      const nested: AgentToolEvent = e.event;
      void [e.agent, e.tool, e.callId];
      if (nested.type === 'chunk') void nested.text.toUpperCase();
      if (nested.type === 'agent_tool') void nested.event.type;
      // @ts-expect-error: a nested conversation does not hand off
      if (nested.type === 'handoff') void nested;
    }
  }
  // @ts-expect-error: an agent tool names an agent id
  void new Swarm({ agents: [{ id: 'a' }] }, { agentTools: { ask: { agent: 'a' } } });
  // The seed systems' rows (issue 17): MAG's handoffs null, outputNodes and continuation edges,
  // SwarmForge's single transfer tool, handoff variables and queued intents, llm4s's status.
  const mag = new Swarm({
    transferTools: 'single',
    agents: [{ id: 'check', handoffs: null, outputNodes: ['a', 'b'] }, { id: 'a' }, { id: 'b' }],
    edges: [{ from: 'check', to: 'a', continuation: true }],
  }, { extractIntents: (input) => [input, { text: input, variables: { topic: 'x' } }] });
  const magSession = mag.createSession();
  const status: AgentStatus | undefined = magSession.status;
  const moved = mag.applyRules(magSession);
  if (moved !== null && moved.type === 'handoff') void [moved.via === 'continuation', moved.requiredVariables[0], moved.resolvedVariables];
  for await (const e of mag.runTurn(magSession, 'hi', { model: async () => ({ text: 'x' }), statusEvents: true })) {
    if (e.type === 'status') void [e.status, e.to, e.error];
    if (e.type === 'error') void [e.source, e.message];
    if (e.type === 'intent') void [e.index, e.count, e.text];
    if (e.type === 'done' && e.answers !== undefined) void [e.answers[0]?.agent, e.queued];
  }
  const picture: string = mag.toMermaid({ session: magSession, direction: 'LR' }) + mag.toDot({ session: magSession, checkpoints: [] });
  const dag: SwarmDag = mag.toDag();
  void [picture, dag.edges[0]?.via, dag.nodes[0]?.active];
  // A handoff-enabled StateMachine state (MAG's handoffs in a workflow).
  const workflow = new StateMachine({ name: 'w', start: 'check' })
    .addState('check', (ctx) => {
      const options: readonly TransferOption[] = ctx.transfers;
      if (options[0] !== undefined) ctx.transfer(options[0].name);
    }, { handoffs: 2 })
    .addEdge('check', 'fix', { transfer: true, description: 'Fix it' })
    .addEdge('check', END, { transfer: true })
    .addEdge('check', END);
  // @ts-expect-error: a transfer edge is { transfer: true }
  workflow.addEdge('check', 'fix', { transfer: false });
  // @ts-expect-error: transferTools is 'per-target' or 'single'
  void new Swarm({ transferTools: 'one', agents: [{ id: 'a' }] });
  void status;
}
void swarms;

async function main(): Promise<void> {
  const sources: WasmSource[] = [new URL('file:///x.wasm'), 'x.wasm', new ArrayBuffer(8), new Uint8Array(8)];
  // Where WebAssembly is declared (lib dom here), a compiled module is a WasmSource too.
  const compiled: WasmSource = new WebAssembly.Module(new Uint8Array(8));
  // And a fetch Response (init() compiles its body).
  const response: WasmSource = new Response(new Uint8Array(8));
  void compiled;
  void response;
  // @ts-expect-error: unknown init options are errors (and rejected at run time)
  await init({ wasmm: 'x.wasm' });
  await init();
  await init({ wasm: sources[0] });
  // @ts-expect-error: init takes an options object, not a number
  await init(5);

  const g: HandoffGraph = new HandoffGraph({ onCycle: 'allow' });
  // @ts-expect-error: onCycle is 'error' | 'allow'
  new HandoffGraph({ onCycle: 'sometimes' });
  const policy: 'error' | 'allow' = g.onCycle;
  const chained: HandoffGraph = g
    .addNode('triage', { description: 'first stop' })
    .addEdge('triage', 'billing', "category == 'billing'")
    .addEdge('triage', 'support', { when: "category == 'support'", description: 'Support questions' })
    .addEdge('triage', 'human', null)
    .addEdge('triage', 'human');
  // @ts-expect-error: node ids are strings
  g.addEdge(1, 'b');
  const next: string | null = chained.route('triage', { category: 'billing' });
  const next2: string | null = g.route('triage');
  const why: Explanation = g.explain('triage', {});
  const firstEdge: boolean = why.edges[0].evaluated && why.edges[0].matched;
  const ids: string[] = g.nodes();
  const edges: EdgeInfo[] = g.edges('triage');
  const when: string | null = edges[0].when;
  const has: boolean = g.hasNode('triage');
  const size: number = g.size;
  const dag: boolean = g.isDag();
  const definition: GraphDefinition = g.toJSON();
  const copy: HandoffGraph = HandoffGraph.fromJSON(definition);
  const drawn: string = copy.toMermaid({ kind: 'flowchart', highlight: [why] }) + copy.toDot({ trace: [{ node: 'triage', edge: 0 }] });
  const firedCount: number = copy.toDag().edges[0].firedCount;
  void [drawn, firedCount];
  HandoffGraph.fromJSON(JSON.stringify(definition));
  copy.dispose();
  g[Symbol.dispose]();
  {
    // Where Symbol.dispose is declared (lib esnext.disposable here), the classes are Disposable.
    using scoped = new HandoffGraph();
    using condition = compileCondition('x');
    const disposables: Disposable[] = [scoped, condition, new StateMachine({ name: 'm', start: 'a' })];
    void disposables;
  }

  const c: Condition = compileCondition("user.tier == 'gold'");
  const source: string = c.source;
  const paths: readonly string[] = c.paths;
  const holds: boolean = c.evaluate({ user: { tier: 'gold' } }) && evaluateCondition('x > 1', { x: 2 });
  c.dispose();
  const used: number = heapUsed();

  try {
    compileCondition('x = 1');
  } catch (e) {
    if (e instanceof ConditionSyntaxError) {
      const at: number = e.index;
      const text: string = e.condition;
      const base: SyntaxError = e;
      void [at, text, base];
    } else if (e instanceof CycleError) {
      const cycle: string[] = e.cycle;
      const ends: string = e.from + e.to;
      void [cycle, ends];
    } else if (e instanceof DefinitionError) {
      const pointer: string = e.problems[0].pointer;
      void pointer;
    } else if (e instanceof GraphValidationError) {
      const code: string = e.problems[0].code;
      void code;
    } else if (e instanceof MaxStepsError || e instanceof NoEdgeMatchedError) {
      const message: string = e.message;
      void message;
    }
  }
  void [policy, next, next2, firstEdge, ids, when, has, size, dag, source, paths, holds, used];
}

void main;

// check(): the report's findings narrow by code and severity.
{
  const report: CheckReport = check('{"format":"handoff-graph","version":1,"nodes":[],"edges":[]}');
  const ok: boolean = report.ok;
  for (const f of report.findings) {
    const s: 'error' | 'warning' | 'info' = f.severity;
    const by: number[] | undefined = f.shadowedBy;
    void s;
    void by;
  }
  for (const c of report.cases) {
    const to: string = c.to;
    void to;
  }
  void ok;
}
// @ts-expect-error: check() takes a graph, machine, swarm or definition
check(42);

// Replays (docs/replay.md): reports, and the recording's forms.
async function replays(swarm: Swarm, machine: StateMachine, run: Run<Record<string, unknown>>) {
  const report: SwarmReplayReport = await swarm.replay('{"type":"open"}\n');
  if (report.divergence !== null) {
    const kind: ReplayDecisionKind = report.divergence.kind;
    const turn: number = report.divergence.turn;
    void [kind, turn];
  }
  const lines: RecordingLine[] = [{ type: 'open', agent: 'a' }];
  void (await swarm.replay(lines)).same;
  const steps: MachineReplayReport = await machine.replay(run, { state: { topic: 'x' } });
  if (steps.divergence !== null) void [steps.turns, steps.divergence.turn, steps.divergence.index];
  try {
    await machine.replay(lines);
  } catch (e) {
    if (e instanceof RecordingError) void e.problems[0].pointer;
  }
  // @ts-expect-error: a recording is lines, their text, a run or a durable record
  void machine.replay(42);
}
void replays;
