// A chat page without a framework over POST /chat of handoff-graph/server (docs/server.md#chat-uis-usechat),
// with the AI SDK's own client pieces: DefaultChatTransport sends useChat's request and parses the
// UI message stream, readUIMessageStream turns its chunks into the assistant message as it grows.
// (With React, useChat does all of this: see docs/server.md.)
import { DefaultChatTransport, readUIMessageStream } from 'ai';

const transport = new DefaultChatTransport({ api: './chat' });
// The chat id is the session id on the server: 1 to 128 of A-Z a-z 0-9 _ -.
const chatId = crypto.randomUUID().replaceAll('-', '');
/** The conversation as UI messages: { id, role, parts, metadata }. */
const messages = [];
let busy = false;

const $ = (id) => document.getElementById(id);
const element = (tag, className, text, testId) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (testId) node.dataset.testid = testId;
  return node;
};

function renderPart(message, part) {
  if (part.type === 'text') return element('p', 'text', part.text, 'text');
  if (part.type === 'data-agent') return element('div', 'agent', `${part.data.name} is answering`, 'agent');
  if (part.type === 'data-handoff') return element('div', 'handoff', `handed over from ${part.data.from} to ${part.data.to}`, 'handoff');
  if (part.type === 'data-handoff-blocked') return element('div', 'blocked', `transfer to ${part.data.to} blocked: missing ${part.data.missing.join(', ')}`, 'blocked');
  if (!part.type.startsWith('tool-')) return null;
  const name = part.type.slice('tool-'.length);
  if (part.state === 'approval-requested') {
    const box = element('div', 'approval', undefined, 'approval');
    box.append(element('span', 'tool', `${name}(${JSON.stringify(part.input)}) needs your approval: `));
    for (const [label, approved] of [['Approve', true], ['Reject', false]]) {
      const button = element('button', undefined, label, label.toLowerCase());
      button.onclick = () => decide(message, part, approved);
      box.append(button);
    }
    return box;
  }
  const outcome = part.state === 'output-available' ? ` → ${part.output}` : part.state === 'output-denied' ? ' → rejected' : part.state === 'approval-responded' ? ' → decided, waiting' : '';
  return element('div', 'tool', `${name}(${JSON.stringify(part.input ?? {})})${outcome}`, 'tool');
}

function render() {
  const list = $('messages');
  list.replaceChildren(
    ...messages.map((message) => {
      const box = element('div', `message ${message.role}`, undefined, message.role);
      for (const part of message.parts) {
        const node = renderPart(message, part);
        if (node !== null) box.append(node);
      }
      return box;
    }),
  );
}

// Sends the conversation; the answer streams into a new assistant message, or into `continuing`
// (the message an approval decision resumes).
async function send(continuing) {
  busy = true;
  $('error').textContent = '';
  try {
    const stream = await transport.sendMessages({ chatId, messages, trigger: 'submit-message', messageId: continuing?.id, abortSignal: undefined });
    let index = continuing === undefined ? -1 : messages.indexOf(continuing);
    for await (const message of readUIMessageStream({ message: continuing === undefined ? undefined : structuredClone(continuing), stream, onError: (error) => ($('error').textContent = error.message) })) {
      if (index === -1) index = messages.push(message) - 1;
      else messages[index] = message;
      render();
    }
  } catch (error) {
    // A 4xx from the server: its text is { "error": { "code", "message" } }.
    $('error').textContent = error.message;
  } finally {
    busy = false;
  }
}

function decide(message, part, approved) {
  if (busy) return;
  Object.assign(part, { state: 'approval-responded', approval: { ...part.approval, approved } });
  render();
  send(message);
}

$('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = $('input').value.trim();
  if (text === '' || busy) return;
  $('input').value = '';
  messages.push({ id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] });
  render();
  send();
});
