// Type-checked (never run) by `tsc -p tests/types`: handoff-graph/mcp and the Swarm's `mcp` option.
// Misuse that must NOT compile is marked with @ts-expect-error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Swarm, type SwarmEvent } from 'handoff-graph';
import { createMcpHttpHandler, createMcpServer, UPDATE_STATE } from 'handoff-graph/mcp';
import { FileStore } from 'handoff-graph/stores/file';

async function consume(client: Client): Promise<void> {
  const swarm = new Swarm(
    { agents: [{ id: 'clerk', mcpServers: ['files', { server: 'github', prefix: 'gh_' }], mcpApproval: ['gh_create_issue'] }] },
    { mcp: { files: client, github: client } },
  );
  const session = swarm.createSession();
  for await (const event of swarm.runTurn(session, 'hi', { model: async () => ({ text: 'ok' }) })) {
    if (event.type === 'tool_result' && event.by === 'mcp') console.log(event.server, event.result);
    if (event.type === 'mcp_unavailable') console.log(event.server, event.message);
  }
  // @ts-expect-error a prefix goes with a server
  new Swarm({ agents: [{ id: 'a', mcpServers: [{ prefix: 'x_' }] }] });
  const events: SwarmEvent[] = [];
  void events;
}

async function serve(swarm: Swarm): Promise<void> {
  const server = createMcpServer(swarm, { store: new FileStore('/tmp/sessions'), sessionId: 'conv-1' });
  await server.connect(new StdioServerTransport());
  const handler = createMcpHttpHandler(swarm, { store: new FileStore('/tmp/sessions') }, { path: '/mcp' });
  await handler.close();
  const name: 'update_state' = UPDATE_STATE;
  void name;
  // @ts-expect-error no such option
  createMcpServer(swarm, { stor: new FileStore('/tmp/sessions') });
}

void consume;
void serve;
