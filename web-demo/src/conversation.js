// Panel 5, Conversation: a swarm turn run in the page, on the Handoffs panel's swarm and session,
// against a scripted model (no network). The script gives each agent its replies in order; the
// scripted model streams each reply word by word, as a provider adapter would, so the events of
// swarm.runTurn() appear as they arrive: the text growing in the agent's bubble, tool calls,
// blocked transfers with the reason the model gets, handoffs. Stop aborts the turn, which leaves
// the session as it was. The handoffs taken are drawn on the picture (swarmDag()).
import { clear, compact, h, sleep } from './dom.js';
import { createEditor } from './editor.js';
import { formatJSON } from './format.js';
import { parseJSON } from './jsonpos.js';

export const DEFAULT_SCRIPT = {
  triage: [
    { text: 'Let me find someone for you.', toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'asked for a person', ticketId: null } }] },
    { text: 'Could you give me your ticket number first?' },
    { toolCalls: [{ name: 'transfer_to_human', arguments: { reason: 'asked for a person', ticketId: 'T-1042' } }] },
  ],
  human: [{ text: 'Hi, this is Sam. I have ticket T-1042 open; let us sort it out.' }],
  billing: [{ text: 'Your refund is on its way.' }],
};
const FIRST_INPUT = 'My router keeps dropping. Can I talk to a person?';

/**
 * A runTurn model that plays `script` (replies by agent id, in order; the last one repeats),
 * streamed a word at a time every `delayMs`. `calls` counts the replies taken per agent.
 */
export function scriptedModel(script, { delayMs = 30, calls = new Map() } = {}) {
  let ids = 0;
  return async function* model({ agent, signal }) {
    const replies = Array.isArray(script[agent.id]) ? script[agent.id] : [];
    const n = calls.get(agent.id) ?? 0;
    calls.set(agent.id, n + 1);
    const reply = replies[Math.min(n, replies.length - 1)] ?? { text: `(no script for ${agent.id})` };
    for (const word of String(reply.text ?? '').match(/\S+\s*/g) ?? []) {
      await sleep(delayMs);
      signal?.throwIfAborted();
      yield { type: 'text-delta', delta: word };
    }
    for (const call of reply.toolCalls ?? []) yield { type: 'tool-call', toolCallId: `call_${++ids}`, toolName: call.name, input: call.arguments ?? {} };
    yield { type: 'finish', finishReason: reply.toolCalls?.length ? 'tool_calls' : 'stop', raw: { scripted: reply } };
  };
}

/**
 * The swarm's DAG model (swarm.toDag({ session }): the core marks the session's active agent and
 * the handoffs its checkpoints record) in the shape picture.js draws: edges labelled by how they
 * are taken (rule, tool, both, continuation), `fired` with how often the session took them.
 */
export function swarmDag(dag) {
  const label = (e) => {
    if (e.via === 'llm') return `tool ${e.tool}`;
    if (e.via === 'hybrid') return `tool ${e.tool} while ${e.when}`;
    if (e.via === 'continuation') return e.when === null ? 'continuation' : `continuation when ${e.when}`;
    return e.when;
  };
  return {
    ...dag,
    nodes: dag.nodes.map((n) => ({ ...n, type: 'state' })),
    edges: dag.edges.map((e) => ({ ...e, when: e.fired ? `${label(e)} ×${e.firedCount}` : label(e), unconditional: e.via === 'llm' })),
  };
}

export function createConversationPanel({ handoffs, onChange }) {
  const calls = new Map();
  let running = null;   // the AbortController of the turn under way
  let session = null;   // the session the log belongs to

  const scriptEditor = createEditor({
    testid: 'conversation-script',
    label: 'Scripted model',
    hint: 'JSON: replies by agent id, in order ({ text, toolCalls: [{ name, arguments }] }); streamed a word at a time',
    rows: 8,
    onInput: () => readScript(),
  });
  const input = h('input.conversation-input', { testid: 'conversation-input', type: 'text', value: FIRST_INPUT, 'aria-label': 'Your message' });
  const send = h('button.primary', { type: 'submit', testid: 'conversation-send' }, 'Send');
  const stop = h('button', { type: 'button', testid: 'conversation-stop', disabled: true, on: { click: () => running?.abort(new DOMException('Stopped by the user', 'AbortError')) } }, 'Stop');
  const status = h('div.conversation-status', { testid: 'conversation-status', role: 'status', 'data-state': 'idle' }, 'Send a message to run a turn.');
  const log = h('ol.conversation-log', { testid: 'conversation-log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const form = h(
    'form.conversation-form',
    {
      on: {
        submit: (event) => {
          event.preventDefault();
          turn();
        },
      },
    },
    input,
    send,
    stop,
  );

  function readScript() {
    const parsed = parseJSON(scriptEditor.value);
    const ok = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
    scriptEditor.setMarks(ok ? [] : [{ start: parsed.offset ?? 0, end: (parsed.offset ?? 0) + 1, message: parsed.message ?? 'the script must be a JSON object' }]);
    send.disabled = !ok || running !== null;
    return ok ? parsed.value : null;
  }

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  /** A new conversation when the Handoffs panel has a new session (a new definition, Reset). */
  function sync() {
    const current = handoffs.current().session;
    if (current === session) return;
    running?.abort();
    session = current;
    calls.clear();
    clear(log);
    setStatus('idle', 'Send a message to run a turn.');
  }

  const item = (type, ...children) => h('li.conversation-item', { 'data-type': type }, children);

  async function turn() {
    sync();
    const { swarm, session: live } = handoffs.current();
    const script = readScript();
    const text = input.value.trim();
    if (!swarm || !live || !script || text === '' || running !== null) return;
    running = new AbortController();
    send.disabled = true;
    stop.disabled = false;
    setStatus('running', 'Running the turn…');
    log.append(item('user', h('span.who', {}, 'you'), h('span.said', {}, text)));
    const model = scriptedModel(script, { calls });
    const callsBefore = new Map(calls);
    let bubble = null;
    let bubbleAgent = null;
    try {
      for await (const event of swarm.runTurn(live, text, { model, signal: running.signal })) {
        if (event.type === 'chunk') {
          if (bubble === null || bubbleAgent !== event.agent) {
            bubbleAgent = event.agent;
            bubble = h('span.said', { testid: 'conversation-text' });
            log.append(h('li.conversation-item', { 'data-type': 'agent', 'data-agent': event.agent }, h('span.who', {}, event.agent), bubble));
          }
          bubble.append(event.text);
          bubble.dataset.chunks = String(Number(bubble.dataset.chunks ?? 0) + 1);
        } else {
          bubble = null;
          if (event.type === 'tool_use') log.append(item('tool_use', h('span.who', {}, event.agent), h('code', {}, `${event.call.name}(${compact(event.call.arguments)})`)));
          else if (event.type === 'handoff') {
            log.append(item('handoff', h('span.badge', {}, event.via === 'rule' ? 'handoff by rule' : 'handoff'), ` ${event.from} → ${event.to}`));
          } else if (event.type === 'handoff_blocked') {
            log.append(item('handoff_blocked', h('span.badge.warn', {}, 'blocked'), ` ${event.from} → ${event.to}: `, h('span.reason', {}, event.rejectionReason)));
          } else if (event.type === 'tool_result' && event.outcome.type === 'rejected') {
            log.append(item('rejected', h('span.badge.bad', {}, 'rejected'), ` ${event.outcome.reason}`));
          } else if (event.type === 'done') {
            setStatus('done', `Done: ${event.agent} has the conversation (${event.reason}).`);
          }
        }
        log.scrollTop = log.scrollHeight;
        onChange?.();
      }
      input.value = '';
    } catch (error) {
      if (!running.signal.aborted) throw error;
      // runTurn put the session back as it was; so do the script's counters and the picture.
      calls.clear();
      for (const [k, v] of callsBefore) calls.set(k, v);
      log.append(item('aborted', h('span.badge.bad', {}, 'stopped'), ' the turn was aborted; the session is as it was before it'));
      setStatus('aborted', 'Stopped: the session is as it was before the turn.');
      onChange?.();
    } finally {
      running = null;
      stop.disabled = true;
      readScript();
    }
  }

  return {
    sections: { scriptEditor, form, status, log },
    load(script = DEFAULT_SCRIPT) {
      scriptEditor.value = formatJSON(script);
      readScript();
      sync();
    },
    sync,
    /** The swarm's picture with this conversation's handoffs, or null without a swarm. */
    dag() {
      const { swarm, session: live } = handoffs.current();
      return swarm ? swarmDag(swarm.toDag(live ? { session: live } : undefined)) : null;
    },
    get active() {
      return handoffs.current().session?.active;
    },
  };
}
