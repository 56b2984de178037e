// handoff-graph/mcp: a swarm served over MCP (docs/mcp.md), with `@modelcontextprotocol/sdk`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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

/** One server of an MCP configuration: a command to spawn (stdio), or a Streamable HTTP endpoint. */
export type McpServerConfig =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { type?: 'http' | 'streamable-http'; url: string; headers?: Record<string, string> };

/** A configuration in the shape MCP hosts share (Claude Desktop, `.mcp.json`). */
export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
}

/**
 * Connects every server of `config` with the SDK's Client (stdio or Streamable HTTP), for a Swarm's
 * `mcp` option. A mistake in the configuration is a TypeError naming it; a server that cannot be
 * connected rejects with an Error naming it, after the others are closed.
 */
export declare function connectMcpServers(
  config: McpConfig,
  client?: { name?: string; version?: string },
): Promise<{ clients: Record<string, Client>; close(): Promise<void> }>;

/** The text a model gets of a tools/call result: its text parts, then its structured content as JSON text. */
export declare function resultText(result: unknown): string;
