// A local HTTP server that speaks three providers' wire formats, for testing the real SDK clients
// (`openai`, `@anthropic-ai/sdk`, the AI SDK's `@ai-sdk/openai`, `@openai/agents`) with no network:
//
//   POST /v1/chat/completions   OpenAI Chat Completions (JSON, or server-sent events with stream: true)
//   POST /v1/responses          OpenAI Responses (JSON, or typed server-sent events)
//   POST /v1/messages           Anthropic Messages (JSON, or typed server-sent events)
//
// Each answer comes from `reply(request)`, a function of what was received ({ path, body, headers,
// index }) returning a provider-neutral script: `{ text?: string | string[], toolCalls?: [{ id,
// name, arguments }], hang?: true }`. `text` as an array is sent in that many stream events; `hang`
// keeps a stream open after what was sent, until the client goes away (for abort tests). Every
// request is kept in `requests` (with `closedEarly` when the client hung up before the end), so
// tests assert on what the SDKs really sent.
import { createServer } from 'node:http';

const sse = (res, event, data) => res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);

function pieces(text) {
  if (text === undefined) return [];
  return Array.isArray(text) ? text : [text];
}

const argumentsText = (args) => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));
const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

// ---- Chat Completions ----------------------------------------------------------------------------
function chat(script, stream, res, id) {
  const text = pieces(script.text).join('');
  const calls = (script.toolCalls ?? []).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c.arguments) } }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl-${id}`, created: 1_700_000_000, model: 'scripted' };
  if (!stream) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: 'assistant', content: text === '' ? null : text, refusal: null, ...(calls.length > 0 ? { tool_calls: calls } : {}) } }],
      usage,
    }));
    return;
  }
  res.setHeader('content-type', 'text/event-stream');
  const chunk = (delta, finishReason = null) => sse(res, null, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] });
  chunk({ role: 'assistant', content: '' });
  for (const piece of pieces(script.text)) chunk({ content: piece });
  calls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    // Arguments in two pieces, as the API splits them.
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)]) if (part) chunk({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  if (script.hang) return;
  chunk({}, finish);
  sse(res, null, { ...base, object: 'chat.completion.chunk', choices: [], usage });
  res.end('data: [DONE]\n\n');
}

// ---- Responses -----------------------------------------------------------------------------------
function responses(script, stream, res, id) {
  const text = pieces(script.text).join('');
  const message = { type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
  const calls = (script.toolCalls ?? []).map((c, i) => ({ type: 'function_call', id: `fc_${id}_${i}`, call_id: c.id, name: c.name, arguments: argumentsText(c.arguments), status: 'completed' }));
  const output = [...(text === '' ? [] : [message]), ...calls];
  const response = (status, out) => ({
    id: `resp_${id}`, object: 'response', created_at: 1_700_000_000, status, model: 'scripted', output: out, error: null, incomplete_details: null,
    instructions: null, metadata: {}, parallel_tool_calls: false, temperature: null, tool_choice: 'auto', tools: [], top_p: null,
    usage: status === 'completed' ? { input_tokens: 11, output_tokens: 7, total_tokens: 18, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } : null,
  });
  if (!stream) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(response('completed', output)));
    return;
  }
  res.setHeader('content-type', 'text/event-stream');
  let sequence = 0;
  const event = (type, data) => sse(res, type, { type, sequence_number: sequence++, ...data });
  event('response.created', { response: response('in_progress', []) });
  let index = 0;
  if (text !== '' || script.hang) {
    event('response.output_item.added', { output_index: index, item: { ...message, status: 'in_progress', content: [] } });
    event('response.content_part.added', { output_index: index, item_id: message.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const piece of pieces(script.text)) event('response.output_text.delta', { output_index: index, item_id: message.id, content_index: 0, delta: piece, logprobs: [] });
    if (script.hang) return;
    event('response.output_text.done', { output_index: index, item_id: message.id, content_index: 0, text, logprobs: [] });
    event('response.content_part.done', { output_index: index, item_id: message.id, content_index: 0, part: message.content[0] });
    event('response.output_item.done', { output_index: index, item: message });
    index++;
  }
  for (const call of calls) {
    event('response.output_item.added', { output_index: index, item: { ...call, arguments: '', status: 'in_progress' } });
    event('response.function_call_arguments.delta', { output_index: index, item_id: call.id, delta: call.arguments });
    event('response.function_call_arguments.done', { output_index: index, item_id: call.id, arguments: call.arguments });
    event('response.output_item.done', { output_index: index, item: call });
    index++;
  }
  event('response.completed', { response: response('completed', output) });
  res.end();
}

// ---- Anthropic Messages --------------------------------------------------------------------------
function messages(script, stream, res, id) {
  const text = pieces(script.text).join('');
  const uses = (script.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments ?? {} }));
  const content = [...(text === '' ? [] : [{ type: 'text', text }]), ...uses];
  const stop = uses.length > 0 ? 'tool_use' : 'end_turn';
  const message = { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'scripted', content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 7 } };
  if (!stream) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(message));
    return;
  }
  res.setHeader('content-type', 'text/event-stream');
  const event = (type, data) => sse(res, type, { type, ...data });
  event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 11, output_tokens: 1 } } });
  let index = 0;
  if (text !== '' || script.hang) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of pieces(script.text)) event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    if (script.hang) return;
    event('content_block_stop', { index });
    index++;
  }
  for (const use of uses) {
    event('content_block_start', { index, content_block: { ...use, input: {} } });
    const json = JSON.stringify(use.input);
    const half = Math.ceil(json.length / 2);
    for (const part of [json.slice(0, half), json.slice(half)]) if (part) event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
    event('content_block_stop', { index });
    index++;
  }
  event('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } });
  event('message_stop', {});
  res.end();
}

const ROUTES = { '/v1/chat/completions': chat, '/v1/responses': responses, '/v1/messages': messages };

/**
 * Starts the server on 127.0.0.1 and a free port. `reply(request)` gives each answer's script
 * (see above); it may also be set later (`server.reply = …`). Resolves to { url, openaiURL,
 * requests, reply, close() }.
 */
export async function startProviderServer(reply = () => ({ text: 'ok' })) {
  const requests = [];
  const state = { reply };
  const server = createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (piece) => {
      data += piece;
    });
    req.on('end', async () => {
      const route = ROUTES[new URL(req.url, 'http://x').pathname];
      if (req.method !== 'POST' || route === undefined) {
        res.statusCode = 404;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } }));
        return;
      }
      let body;
      try {
        body = JSON.parse(data);
      } catch {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
        return;
      }
      const record = { path: new URL(req.url, 'http://x').pathname, body, headers: req.headers, index: requests.length, closedEarly: false };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.closedEarly = true;
      });
      try {
        const script = await state.reply(record);
        route(script, body.stream === true, res, `${record.index}`);
      } catch (error) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: { message: String(error?.message ?? error), type: 'server_error' } }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    openaiURL: `${url}/v1`,
    requests,
    get reply() {
      return state.reply;
    },
    set reply(fn) {
      state.reply = fn;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
