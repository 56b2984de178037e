// Type-checked (never run) by `tsc -p tests/types`: handoff-graph/server and the store additions
// it uses (leases, save with checkpoints); @ts-expect-error marks misuse that must NOT compile.
import { Swarm, type ModelResponse } from 'handoff-graph';
import { createChatHandler, createHandler, serve, DEFAULT_LIMITS, type ChatHandlerOptions, type HandlerOptions, type ServerError, type ServerModelRequest, type RunningServer } from 'handoff-graph/server';
import { MemoryStore } from 'handoff-graph/stores/memory';
import { FileStore } from 'handoff-graph/stores/file';

async function server(swarm: Swarm): Promise<void> {
  const model = async ({ agent, messages, signal }: ServerModelRequest): Promise<ModelResponse> => {
    signal.throwIfAborted();
    return { text: `${agent.id}: ${messages.length}` };
  };
  const handler: (request: Request) => Promise<Response> = createHandler({
    swarm,
    store: new MemoryStore(),
    model,
    authorize: async (request, sessionId) => (sessionId === null ? request.headers.has('authorization') : new Response(null, { status: 401 })),
    limits: { maxBodyBytes: 65536, maxModelCalls: 5, turnLeaseMs: 10_000, turnTimeoutMs: 60_000 },
    toolFormat: 'anthropic',
    onError: (error, request) => console.error(error, request.url),
  });
  const response: Response = await handler(new Request('http://localhost/sessions', { method: 'POST' }));
  const chatOptions: ChatHandlerOptions = { store: new MemoryStore(), model, authorize: (_request, chatId) => chatId !== null };
  const POST: (request: Request) => Promise<Response> = createChatHandler(swarm, chatOptions);
  void POST;
  // @ts-expect-error: the swarm is createChatHandler's first argument, not an option
  createChatHandler(swarm, { swarm, store: new MemoryStore(), model });
  const body = (await response.json()) as ServerError | { id: string };
  if ('error' in body) console.log(body.error.code, body.error.message);
  const running: RunningServer = await serve(handler, { host: '127.0.0.1', port: 0 });
  const url: string = running.url;
  const port: number = running.port;
  running.server.closeAllConnections();
  await running.close();
  void url, port;
  const max: number = DEFAULT_LIMITS.maxBodyBytes;
  void max;

  const options: HandlerOptions = { swarm, store: new FileStore('/tmp/sessions'), model };
  createHandler(options);
  // The model may stream, as runTurn's may; the turn's signal is always there.
  createHandler({
    swarm,
    store: new MemoryStore(),
    model: async function* ({ signal, tools, variables }: ServerModelRequest) {
      signal.throwIfAborted();
      void tools, variables;
      yield { type: 'text-delta' as const, delta: 'hi' };
    },
  });
  // An adapter's model carries its tool format.
  createHandler({ swarm, store: new MemoryStore(), model: Object.assign(model, { toolFormat: 'anthropic' as const }) });
  // @ts-expect-error: limits are numbers
  createHandler({ swarm, store: new MemoryStore(), model, limits: { maxBodyBytes: '1mb' } });
  // @ts-expect-error: an unknown limit
  createHandler({ swarm, store: new MemoryStore(), model, limits: { maxBody: 1 } });
  // @ts-expect-error: the store needs leases
  createHandler({ swarm, store: { get: async () => undefined, save: async () => {}, appendCheckpoint: async () => {}, listCheckpoints: async () => [] }, model });
  // @ts-expect-error: serve takes host and port only
  await serve(handler, { hostname: 'x' });
}

async function stores(swarm: Swarm): Promise<void> {
  const store = new MemoryStore();
  const session = swarm.createSession();
  await store.save(session, { checkpoints: [{ turn: 1 }, 'any JSON'] });
  const held: boolean = await store.acquireLease(session.id, 'holder', 30_000);
  const released: boolean = await store.releaseLease(session.id, 'holder');
  void held, released;
  // @ts-expect-error: checkpoints are a list
  await store.save(session, { checkpoints: { turn: 1 } });
  // @ts-expect-error: a TTL is a number of milliseconds
  await store.acquireLease(session.id, 'holder', '30s');
}

void server, stores;
