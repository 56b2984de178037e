// The two-agent support swarm every adapter test runs, and how to read a provider request the
// same way whatever its wire format. triage hands billing questions over with transfer_to_billing,
// which needs the session's accountId (a blocked call goes back to the model, which then asks the
// user for it); billing streams its answer in three pieces. The handoff carries only the last user
// message ('last-user'), so the second request shows what the context policy allows.

export const DEFINITION = {
  name: 'support',
  agents: [
    { id: 'triage', name: 'Triage', instructions: 'You triage support requests.', entry: true },
    { id: 'billing', name: 'Billing', instructions: 'You handle billing questions.' },
  ],
  edges: [
    { from: 'triage', to: 'billing', description: 'Billing questions: invoices, refunds, charges.', requires: ['accountId'], context: 'last-user' },
    { from: 'billing', to: 'triage', description: 'The question is not about billing.' },
  ],
};

export const QUESTION = 'Why was I charged twice this month?';
export const BILLING_ANSWER = ['Your second charge ', 'is a pending hold', '; it will drop off.'];
export const ASK_ACCOUNT = ['Could you give me ', 'your account number?'];

/** A provider request, read the same way for every format: { system, tools, turns, lastIsToolResult, lastToolResult }. */
export function readRequest({ path, body }) {
  if (path === '/v1/chat/completions') {
    const last = body.messages.at(-1);
    return {
      system: body.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n\n'),
      tools: (body.tools ?? []).map((t) => t.function.name),
      turns: body.messages.filter((m) => m.role !== 'system' && m.role !== 'developer').map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : `${m.role}:${m.content ?? ''}${m.tool_calls ? `[${m.tool_calls.map((c) => c.function.name)}]` : ''}`)),
      lastIsToolResult: last.role === 'tool',
      lastToolResult: last.role === 'tool' ? last.content : undefined,
    };
  }
  if (path === '/v1/responses') {
    const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
    const last = input.at(-1);
    const text = (content) => (typeof content === 'string' ? content : content.map((c) => c.text ?? '').join(''));
    return {
      system: [body.instructions ?? '', ...input.filter((i) => i.role === 'system' || i.role === 'developer').map((i) => text(i.content))].filter(Boolean).join('\n\n'),
      tools: (body.tools ?? []).map((t) => t.name),
      turns: input.filter((i) => i.role !== 'system' && i.role !== 'developer').map((i) => (i.type === 'function_call_output' ? `tool:${i.call_id}` : i.type === 'function_call' ? `call:${i.name}` : `${i.role}:${text(i.content)}`)),
      lastIsToolResult: last.type === 'function_call_output',
      lastToolResult: last.type === 'function_call_output' ? (typeof last.output === 'string' ? last.output : JSON.stringify(last.output)) : undefined,
    };
  }
  const last = body.messages.at(-1);
  const blocks = typeof last.content === 'string' ? [] : last.content;
  const result = blocks.find((b) => b.type === 'tool_result');
  return {
    system: typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n\n'),
    tools: (body.tools ?? []).map((t) => t.name),
    turns: body.messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `[${b.name}]` : `tool:${b.tool_use_id}`)).join('')}`),
    lastIsToolResult: result !== undefined,
    lastToolResult: result === undefined ? undefined : typeof result.content === 'string' ? result.content : result.content.map((c) => c.text).join(''),
  };
}

/** The scripted model behind the server: triage transfers (then asks for the account when blocked); billing answers. */
export function supportReply(record) {
  const request = readRequest(record);
  if (request.system.includes('You handle billing')) return { text: BILLING_ANSWER };
  if (request.lastIsToolResult) return { text: ASK_ACCOUNT };
  return { toolCalls: [{ id: `call_${record.index}`, name: 'transfer_to_billing', arguments: { reason: 'a billing question' } }] };
}

/** Collects a turn's events. */
export async function collect(turn) {
  const events = [];
  for await (const event of turn) events.push(event);
  return events;
}
