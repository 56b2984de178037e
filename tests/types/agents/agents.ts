// Type-checked (never run) by `tsc -p tests/types/agents`: toOpenAIAgents with the real
// @openai/agents types. A project of its own because @openai/agents' declarations do not compile
// with skipLibCheck off (their EventEmitter shim against @types/node's), which tests/types needs.
import { Runner, tool } from '@openai/agents';
import { z } from 'zod';

import { Swarm } from 'handoff-graph';
import { fromAgentItems, toAgentItems, toOpenAIAgents } from 'handoff-graph/adapters/openai-agents';

export async function agents(swarm: Swarm): Promise<void> {
  const session = swarm.createSession();
  const lookup = tool({ name: 'lookup_invoice', description: 'Looks an invoice up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => `invoice ${id}` });
  const { agent, agents, current } = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini', tools: { billing: [lookup] } });
  const result = await new Runner().run(agent, 'hi');
  void result.finalOutput;
  void agents.billing;
  void current();
  void toAgentItems(fromAgentItems(result.history));
  // @ts-expect-error: an unknown option
  toOpenAIAgents(swarm, session, { modle: 'x' });
}
