// @openai/agents Agents that follow a swarm (js/adapters/openai-agents.js).
import type { Agent, AgentInputItem, Model, ModelSettings, Tool } from '@openai/agents';
import type { Message, Session, Swarm } from '../index.js';

export interface OpenAIAgentsOptions {
  /** A model name or an SDK Model, for every agent (default: the SDK's). */
  model?: string | Model;
  modelSettings?: ModelSettings;
  /** The agents' own SDK tools, by swarm agent id. */
  tools?: Record<string, Tool<any>[]>;
  /** Other Agent options, by swarm agent id. */
  agentOptions?: Record<string, Record<string, unknown>>;
}

export interface SwarmAgents {
  /** The Agent the session's rules lead to now: start the run with it. */
  agent: Agent<any, any>;
  /** The Agents by swarm agent id. */
  agents: Record<string, Agent<any, any>>;
  /** The Agent of the session's active agent. */
  current(): Agent<any, any>;
}

/** One Agent per swarm agent, bound to `session`; handoffs offered, decided and carried by the swarm. */
export function toOpenAIAgents(swarm: Swarm, session: Session, options?: OpenAIAgentsOptions): SwarmAgents;
/** SDK conversation items → swarm messages. */
export function fromAgentItems(items: ReadonlyArray<unknown>): Message[];
/** Swarm messages → SDK input items. */
export function toAgentItems(messages: Message[]): AgentInputItem[];
