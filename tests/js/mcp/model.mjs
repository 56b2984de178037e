// A scripted model for `handoff-graph mcp … --model module:…` in tests/js/mcp-server.test.mjs:
// triage hands a request for a person over, and whoever has the conversation answers.
export default async function model({ agent, messages }) {
  const last = messages.at(-1);
  if (agent.id === 'triage' && last.role === 'user' && /person/.test(last.content)) return { toolCalls: [{ id: `t${messages.length}`, name: 'transfer_to_human', arguments: { reason: null, ticketId: 'T-5' } }] };
  return { text: `${agent.id} answers: ${messages.filter((m) => m.role === 'user').at(-1).content}` };
}
