// Type-checked (never run) by `tsc -p tests/types`: tracing options (OpenTelemetry, the trace log)
// and durable state-machine runs, with misuse that must NOT compile marked @ts-expect-error.
import { StateMachine, Swarm, MemoryStore, type Run, type RunRecord, type RunStore, type TracingOptions } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { RedisStore } from 'handoff-graph/stores/redis';

async function observability(provider: { getTracer(name: string, version?: string): unknown }): Promise<void> {
  const tracing: TracingOptions = { tracerProvider: provider };
  const swarm = new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] }, { tracing, traceLogPath: new URL('file:///tmp/trace.jsonl') });
  void new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] }, { tracing: false, traceLogPath: 'trace.jsonl' });
  // @ts-expect-error: tracing is an object or false
  void new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] }, { tracing: true });
  const machine = new StateMachine({ name: 'm', start: 'a' }).addState('a');
  const store: RunStore = new MemoryStore();
  const run: Run = await machine.run({}, { store, runId: 'r1', tracing: false, traceLogPath: 'run.jsonl' });
  const resumed: Run = await machine.resume('r1', { store, onStep: (step) => void step.state });
  const exec = machine.resume('{"format":"handoff-graph/execution"}');
  for await (const event of machine.stream({}, { tracing: { api: { trace: {}, context: {} } } })) void event.type;
  const file: RunStore = new FileStore('/tmp/runs');
  const path: string = new FileStore('/tmp/runs').runPath('r1');
  const record: RunRecord | undefined = await file.getRun('r1');
  const redisKey = (client: ConstructorParameters<typeof RedisStore>[0]): string => new RedisStore(client).runKey('r1');
  // @ts-expect-error: resume(runId, options) needs a store
  void machine.resume('r1', {});
  // @ts-expect-error: a durable run's id is a string
  void machine.run({}, { store, runId: 7 });
  void [swarm, run, resumed, exec.done, path, record?.status, redisKey];
}
void observability;
