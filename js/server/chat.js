// @ts-check
// POST /chat's protocol: the AI SDK's UI message stream (what `useChat`, `Chat` and
// `readUIMessageStream` of the npm package `ai` read), spoken without depending on it
// (docs/server.md#chat-uis-usechat). Two halves:
//   chatRequest(body)       what useChat sent (`id`, `messages`, `trigger`, `messageId`): a new
//                           user message (its text), or the answer to a tool approval (the last
//                           assistant message's tool parts in state 'approval-responded');
//   chatFormat({ swarm })   the turn's events as UI message chunks, one `data: <JSON>` server-sent
//                           event each, ended by `data: [DONE]`.
// Only the last message is read: the conversation lives in the session, in the server's store, so
// a client cannot rewrite the history the agents see by sending another one.

/** @import { Swarm } from '../index.js' */

/**
 * The data parts /chat streams, by name (the UI part's type is `data-<name>`): for the AI SDK's
 * `UIMessage<ChatMessageMetadata, ChatDataParts>` (a type alias, not an interface: the AI SDK
 * wants an index signature).
 * @typedef {object} ChatDataParts
 * @property {{ agent: string, name: string, turn?: number, reason?: string }} agent The agent
 *   answering (part id 'agent', updated in place): at the start, after each handoff, and at the
 *   end with the turn's reason.
 * @property {{ from: string, to: string, via: string, [key: string]: unknown }} handoff A handoff:
 *   the swarm's `handoff` event without its type.
 * @property {{ from: string, to: string, missing: string[], invalid: unknown[], [key: string]: unknown }} handoff-blocked
 *   A transfer the core refused (a missing or invalid required variable): the `handoff_blocked`
 *   event without its type.
 * @property {{ [key: string]: unknown }} guardrail A guardrail that tripped: the
 *   `guardrail_tripped` event without its type.
 */

/**
 * The metadata of the assistant message, from the stream's `finish`: where the session stands.
 * @typedef {object} ChatMessageMetadata
 * @property {string} agent
 * @property {string} reason
 * @property {{ id: string, version: number, active: string, turn: number, hops: number }} session
 */

// A request body is a client's JSON, read here field by field and checked: `any` is its honest
// type in this file. So is a turn's event (a SwarmEvent, or the handler's open / done / error),
// read by its `type`.

/**
 * A client's mistake: the handler answers it with a 400 `invalid_request` carrying this message.
 * @param {string} message
 */
function invalid(message) {
  return new TypeError(message);
}

/** @type {(value: unknown) => value is Record<string, any>} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** @type {(part: unknown) => part is Record<string, any>} */
const isToolPart = (part) => isObject(part) && typeof part.type === 'string' && (part.type.startsWith('tool-') || part.type === 'dynamic-tool');

/**
 * What a POST /chat body asks for: { id, kind: 'message', input } or { id, kind: 'approval',
 * decisions: [{ approvalId, approved, reason? }] }. Throws a 400 for anything else.
 * @param {any} body the request's JSON
 * @returns {{ id: string, kind: 'message', input: string } | { id: string, kind: 'approval', decisions: Array<{ approvalId: string, approved: boolean, reason?: string }> }}
 */
export function chatRequest(body) {
  const { id, messages, trigger } = body;
  if (typeof id !== 'string') throw invalid('id (the chat id, which is the session id) is required: a string');
  if (trigger !== undefined && trigger !== 'submit-message') {
    if (trigger === 'regenerate-message') throw invalid("trigger 'regenerate-message' is not served: a turn that was saved cannot be taken back (send a new message instead)");
    throw invalid(`trigger must be 'submit-message', got ${JSON.stringify(trigger)?.slice(0, 60) ?? typeof trigger}`);
  }
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages must be a non-empty array of UI messages (useChat sends them)');
  const last = messages.at(-1);
  if (!isObject(last) || !Array.isArray(last.parts)) throw invalid('the last message must be a UI message: an object with a role and an array of parts');
  if (last.role === 'user') {
    /** @type {any[]} */
    const texts = last.parts.filter((/** @type {unknown} */ part) => isObject(part) && part.type === 'text');
    if (texts.some((part) => typeof part.text !== 'string')) throw invalid("a text part's text must be a string");
    const input = texts.map((part) => part.text).join('\n');
    if (input.length === 0) throw invalid('the last message (the user\'s) has no text: the swarm takes text (a file part alone is not served)');
    return { id, kind: 'message', input };
  }
  if (last.role === 'assistant') {
    /** @type {Array<{ approvalId: string, approved: boolean, reason?: string }>} */
    const decisions = [];
    for (const part of last.parts) {
      if (!isToolPart(part) || part.state !== 'approval-responded') continue;
      const { approval } = part;
      if (!isObject(approval) || typeof approval.id !== 'string' || typeof approval.approved !== 'boolean') {
        throw invalid("a tool part in state 'approval-responded' must have approval: { id, approved, reason? } (addToolApprovalResponse makes it)");
      }
      if (approval.reason !== undefined && typeof approval.reason !== 'string') throw invalid("an approval's reason must be a string");
      decisions.push({ approvalId: approval.id, approved: approval.approved, ...(approval.reason === undefined ? {} : { reason: approval.reason }) });
    }
    if (decisions.length > 0) return { id, kind: 'approval', decisions };
    throw invalid("the last message is the assistant's and answers no tool approval: send the user's message, or an approval response (addToolApprovalResponse)");
  }
  throw invalid(`the last message's role must be 'user' (a new message) or 'assistant' (an approval response), got ${JSON.stringify(last.role)?.slice(0, 40) ?? typeof last.role}`);
}

// The headers of the AI SDK's own servers (its UI_MESSAGE_STREAM_HEADERS): the protocol's version,
// no caching, no proxy buffering. `no-cache`, not the routes' `no-store`: Chromium reports a
// streamed fetch with `no-store` as failed (net::ERR_ABORTED) now and then, after it was read to
// its end (playwright issue 42742; tests/browser/chat-ui.test.mjs saw it).
export const CHAT_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'x-vercel-ai-ui-message-stream': 'v1',
};

function randomPart() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// A tool call's arguments as the UI shows them: JSON text is parsed; text that is not JSON stays text.
/**
 * @param {unknown} args
 * @returns {unknown}
 */
function input(args) {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

// An event's fields but its type (and the live session a `done` carries).
/**
 * @param {Record<string, unknown>} event
 * @returns {Record<string, unknown>}
 */
function fieldsOf(event) {
  const { type: _type, session: _session, ...rest } = event;
  return rest;
}

/**
 * The turn's events written as the UI message stream. `continuing`: the stream resumes an
 * assistant message the client has (an approval's answer), so it starts no new message.
 * Chunks: text parts (`text-start` / `text-delta` / `text-end`) from the agents' text; tool parts
 * (`tool-input-available`, `tool-output-available`, `tool-output-denied` for a call a person
 * rejected, `tool-approval-request` for a call that waits for one); and data parts:
 * `data-agent` (id 'agent': the agent answering, updated in place), `data-handoff`,
 * `data-handoff-blocked`, `data-guardrail`. The `finish` chunk's messageMetadata says where the
 * session stands: { agent, reason, session: { id, version, active, turn, hops } }.
 * @param {{ swarm: Swarm, continuing?: boolean }} options
 */
export function chatFormat({ swarm, continuing = false }) {
  const prefix = randomPart();
  let texts = 0;
  /** @type {{ id: string, agent: string } | null} */
  let openText = null;
  /** @type {(chunk: Record<string, unknown>) => string} */
  const data = (chunk) => `data: ${JSON.stringify(chunk)}\n\n`;
  /** @type {(id: string) => string} */
  const agentName = (id) => {
    try {
      return swarm.agent(id)?.name ?? id;
    } catch {
      return id;
    }
  };
  /** @type {(agent: string, extra?: Record<string, unknown>) => string} */
  const agentPart = (agent, extra = {}) => data({ type: 'data-agent', id: 'agent', data: { agent, name: agentName(agent), ...extra } });
  const closeText = () => {
    if (openText === null) return '';
    const chunk = data({ type: 'text-end', id: openText.id });
    openText = null;
    return chunk;
  };
  return {
    headers: CHAT_HEADERS,
    start: () => data(continuing ? { type: 'start' } : { type: 'start', messageId: `msg-${prefix}` }) + data({ type: 'start-step' }),
    /**
     * @param {{ type: string, [field: string]: any }} event
     * @returns {string}
     */
    event(event) {
      switch (event.type) {
        case 'open':
          return agentPart(event.agent, { turn: event.turn });
        case 'chunk': {
          let out = '';
          if (openText !== null && openText.agent !== event.agent) out += closeText();
          if (openText === null) {
            openText = { id: `text-${prefix}-${++texts}`, agent: event.agent };
            out += data({ type: 'text-start', id: openText.id });
          }
          return out + data({ type: 'text-delta', id: openText.id, delta: event.text });
        }
        case 'tool_use':
          return closeText() + data({ type: 'tool-input-available', toolCallId: event.call.id, toolName: event.call.name, input: input(event.call.arguments) });
        case 'tool_result':
          if (event.outcome?.type === 'not_approved') return closeText() + data({ type: 'tool-output-denied', toolCallId: event.call.id });
          return closeText() + data({ type: 'tool-output-available', toolCallId: event.call.id, output: event.result });
        case 'approval_required':
          return closeText() + data({ type: 'tool-approval-request', approvalId: event.approvalId, toolCallId: event.call.id });
        case 'handoff':
          return closeText() + data({ type: 'data-handoff', data: fieldsOf(event) }) + agentPart(event.to);
        case 'handoff_blocked':
          return closeText() + data({ type: 'data-handoff-blocked', data: fieldsOf(event) });
        case 'guardrail_tripped':
          return closeText() + data({ type: 'data-guardrail', data: fieldsOf(event) });
        case 'done': {
          const messageMetadata = { agent: event.agent, reason: event.reason, session: event.session };
          const finishReason = event.reason === 'approval-required' ? 'tool-calls' : 'stop';
          return closeText() + agentPart(event.agent, { reason: event.reason }) + data({ type: 'finish-step' }) + data({ type: 'finish', finishReason, messageMetadata });
        }
        case 'error':
          return closeText() + data({ type: 'error', errorText: `${event.error.code}: ${event.error.message}` });
        default:
          return '';
      }
    },
    end: () => 'data: [DONE]\n\n',
  };
}
