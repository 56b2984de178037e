// handoff-graph/mcp: a swarm served over MCP (docs/mcp.md), with `@modelcontextprotocol/sdk`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ModelFunction, SessionStore, Swarm } from '../index.js';

export interface McpServerOptions {
  /** Where the swarm sessions live (default: a MemoryStore). */
  store?: SessionStore;
  /** With a model, the swarm is one tool that runs a whole turn; without one, the host's model is the agents. */
  model?: ModelFunction;
  /** The swarm session to continue (or start) under this id (default: the transport's session id, else a new one). */
  sessionId?: string;
  /** With `model`: runTurn's maxModelCalls. */
  maxModelCalls?: number;
  /** Passed to the handlers of agents' own tools. */
  toolState?: unknown;
  /** The server's name in the MCP handshake (default: the swarm's name). */
  name?: string;
  version?: string;
}

/** The tool that records variables (and runs the rules), offered beside the active agent's tools. */
export declare const UPDATE_STATE: 'update_state';
/** The resource that holds the session (JSON). */
export declare const SESSION_URI: 'handoff-graph://session';
/** The prompt that holds the active agent's instructions. */
export declare const INSTRUCTIONS_PROMPT: 'instructions';

/** An SDK Server for `swarm`, to connect to one transport (stdio, or one Streamable HTTP session). */
export declare function createMcpServer(swarm: Swarm, options?: McpServerOptions): Server;

/** A node:http request handler serving `swarm` over Streamable HTTP at `path` (default '/mcp'): one swarm session per MCP session. */
export declare function createMcpHttpHandler(
  swarm: Swarm,
  options?: Omit<McpServerOptions, 'sessionId'>,
  where?: { path?: string },
): ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { close(): Promise<void> };

/** The text a model gets of a tools/call result: its text parts, then its structured content as JSON text. */
export declare function resultText(result: unknown): string;
