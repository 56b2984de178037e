// handoff-graph/server: a swarm served over HTTP (docs/server.md).
import type { SessionStore, Swarm, SwarmAgent, Message, ModelResponse, ToolFormat } from '../index.js';

/** A session store the server can use: the SessionStore contract with turn leases. */
export interface LeasedSessionStore extends SessionStore {
  acquireLease(id: string, holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(id: string, holder: string): Promise<boolean>;
}

export interface ServerLimits {
  /** The largest request body, in bytes (default 1 MiB): larger ones get 413 body_too_large. */
  maxBodyBytes?: number;
  /** Model calls in one turn (runTurn's maxModelCalls, default 10). */
  maxModelCalls?: number;
  /** A turn's lease on its session, renewed every third of it while the turn runs (default 30000 ms). */
  turnLeaseMs?: number;
  /** A turn that runs longer is stopped, with an `error` event turn_timeout (default 300000 ms). */
  turnTimeoutMs?: number;
}

/** What the model function gets: runTurn's request, and the turn's AbortSignal. */
export interface ServerModelRequest {
  agent: SwarmAgent;
  messages: Message[];
  tools: unknown;
  /** Aborted when the client goes away, the turn times out or loses its lease. */
  signal: AbortSignal;
}

export interface HandlerOptions {
  swarm: Swarm;
  store: LeasedSessionStore;
  model: (request: ServerModelRequest) => ModelResponse | Promise<ModelResponse>;
  /**
   * Guards every route: true lets the request through; false answers 403; a Response is sent as
   * it is (a 401 with its WWW-Authenticate header, say). `sessionId` is null on POST /sessions, and
   * the chat id (read from the body) on POST /chat.
   */
  authorize?: (request: Request, sessionId: string | null) => boolean | Response | Promise<boolean | Response>;
  limits?: ServerLimits;
  /** The shape of the tools the model gets (default 'openai-chat'). */
  toolFormat?: ToolFormat;
  /** Told of the server's own failures (a store that fails, a 500); default console.error. */
  onError?: (error: unknown, request: Request) => void;
}

/** The body of every 4xx and 5xx answer, and the `data` of a turn's `error` event (with type 'error'). */
export interface ServerError {
  error: { code: string; message: string };
}

export const DEFAULT_LIMITS: Readonly<Required<ServerLimits>>;

/** The HTTP API over a swarm and a store, as a Fetch-API function. */
export function createHandler(options: HandlerOptions): (request: Request) => Promise<Response>;

/** createHandler's options but `swarm`: what createChatHandler takes. */
export type ChatHandlerOptions = Omit<HandlerOptions, 'swarm'>;

/**
 * POST /chat alone, for an application with its own server: the AI SDK's UI message stream
 * protocol, as useChat speaks it (docs/server.md#chat-uis-usechat). Any path; methods but POST get 405.
 * `authorize(request, chatId)` is called once the body is read (the chat id is in it).
 */
export function createChatHandler(swarm: Swarm, options: ChatHandlerOptions): (request: Request) => Promise<Response>;

/**
 * The data parts /chat streams, by name (the UI part's type is `data-<name>`): for the AI SDK's
 * `UIMessage<ChatMessageMetadata, ChatDataParts>` (a type, not an interface: the AI SDK wants an index signature).
 */
export type ChatDataParts = {
  /** The agent answering (part id 'agent', updated in place): at the start, after each handoff, and at the end with the turn's reason. */
  agent: { agent: string; name: string; turn?: number; reason?: string };
  /** A handoff: the swarm's `handoff` event without its type. */
  handoff: { from: string; to: string; via: string; [key: string]: unknown };
  /** A transfer the core refused (a missing or invalid required variable): the `handoff_blocked` event without its type. */
  'handoff-blocked': { from: string; to: string; missing: string[]; invalid: unknown[]; [key: string]: unknown };
  /** A guardrail that tripped: the `guardrail_tripped` event without its type. */
  guardrail: { [key: string]: unknown };
};

/** The metadata of the assistant message, from the stream's `finish`: where the session stands. */
export interface ChatMessageMetadata {
  agent: string;
  reason: string;
  session: { id: string; version: number; active: string; turn: number; hops: number };
}

export interface ServeOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
}

export interface RunningServer {
  /** Where it listens, e.g. 'http://127.0.0.1:8787/'. */
  url: string;
  host: string;
  port: number;
  /** The node:http Server (typed loosely here, so that these typings need no @types/node). */
  server: { closeAllConnections(): void; address(): unknown; [key: string]: unknown };
  /** Stops taking connections, closes idle ones; resolves when the requests under way have ended. */
  close(): Promise<void>;
}

/** Runs a Fetch-API handler on node:http; resolves once it listens. */
export function serve(handler: (request: Request) => Response | Promise<Response>, options?: ServeOptions): Promise<RunningServer>;
