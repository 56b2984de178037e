// Panel 6, Trace viewer: a recording (docs/replay.md: a trace log's lines, JSONL) opened from a file
// (the picker, or dropped on the panel) or the bundled sample, shown as a timeline of turns with
// their events (the user's input, model answers and tool calls, handoffs, blocked transfers,
// approvals, guardrail trips), each routing decision marked as a rule's (zero tokens) or the
// model's. Selecting an event draws the swarm of the Handoffs panel with the agent active at that
// event and the handoffs taken so far (swarm.toDag({ session, checkpoints })). Whenever the rules
// of the Handoffs panel change, the recording is replayed against them in the page
// (swarm.replay()), and the first decision that now comes out differently is marked.
import { clear, compact, h } from './dom.js';
import { renderDag } from './picture.js';
import { swarmDag } from './conversation.js';
import { SAMPLE_RECORDING } from './sample-recording.js';

const short = (text, max = 140) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A log's lines (JSONL text), and the sessions in it, in order of first appearance. */
export function readRecording(text) {
  const lines = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value.type !== 'string') throw new Error(`line ${i + 1} is not a trace log line (an object with a type)`);
    lines.push(value);
  }
  return sessionsOf(lines);
}

function sessionsOf(lines) {
  const sessions = new Map();
  for (const line of lines) {
    if (line.machine !== undefined) continue;
    const id = typeof line.session === 'string' ? line.session : '(no session)';
    if (!sessions.has(id)) sessions.set(id, []);
    sessions.get(id).push(line);
  }
  return sessions;
}

/** The timeline's items: the lines shown, each with what it says and whether it is a decision, by rule or by model. */
function describeLine(line) {
  switch (line.type) {
    case 'update':
      return line.outcome
        ? { who: 'rule', text: `host: updateState ${compact(line.variables)}, rule ${line.outcome.from} → ${line.outcome.to} (zero tokens)` }
        : { who: 'host', text: `host: updateState ${compact(line.variables)}, no rule fired` };
    case 'open':
      return line.approvalId === undefined ? { who: 'user', text: `user → ${line.agent}: ${line.input}` } : { who: 'user', text: `approval decided, the turn resumes at ${line.agent}` };
    case 'model': {
      const calls = line.toolCalls.map((c) => c.name).join(', ');
      const offered = line.tools.length === 0 ? 'no tools' : `offered ${line.tools.join(', ')}`;
      return { who: 'model', text: `${line.agent} (model, ${offered})${line.text ? `: ${line.text}` : ''}${calls ? ` · calls ${calls}` : ''}` };
    }
    case 'handoff':
      return line.via === 'tool'
        ? { who: 'model', text: `handoff by the model: ${line.from} → ${line.to} (${line.tool})` }
        : { who: 'rule', text: `handoff by ${line.via}: ${line.from} → ${line.to} (zero tokens)` };
    case 'handoff_blocked':
      return { who: 'blocked', text: `blocked: ${line.from} → ${line.to}: ${line.rejectionReason}` };
    case 'tool_result':
      return line.outcome?.type === 'tool' ? { who: 'tool', text: `tool ${line.outcome.tool} → ${line.result}` } : { who: 'result', text: `→ ${line.call?.name}: ${line.result}` };
    case 'approval_required':
      return { who: 'approval', text: `approval required: ${line.kind === 'handoff' ? `transfer to ${line.to}` : `tool ${line.tool}`}` };
    case 'approval_resolved':
      return { who: 'approval', text: `approval ${line.approved ? 'approved' : 'rejected'}${line.reason ? `: ${line.reason}` : ''}` };
    case 'guardrail_tripped':
      return { who: 'guardrail', text: `${line.kind} guardrail of ${line.agent} tripped${line.reason ? `: ${line.reason}` : ''}` };
    case 'workflow_step':
      return { who: 'rule', text: `workflow ${line.agent}: ${line.step?.state} → ${line.step?.next}` };
    case 'agent_tool':
      return line.event?.type === 'model' || line.event?.type === 'tool_result' ? { ...describeLine(line.event), nested: true } : null;
    case 'done':
      return { who: 'end', text: `done at ${line.agent} (${line.reason})` };
    case 'error':
      return line.source === undefined ? null : { who: 'end', text: `failed (${line.source}): ${line.message}` };
    default:
      return null;
  }
}

/** @param {{ handoffs: { current(): { swarm: any, session: any } } }} options */
export function createTracePanel({ handoffs }) {
  let sessions = new Map();
  let sessionId = null;
  let selected = -1;   // the selected line's index in the session's lines
  let report = null;   // the replay of the session against the Handoffs panel's rules
  let replays = 0;     // replays started (a later one supersedes an earlier one still running)

  const fileInput = h('input', { type: 'file', accept: '.jsonl,.json,.log,.txt', testid: 'trace-file', 'aria-label': 'Open a recording' });
  const sampleButton = h('button', { type: 'button', testid: 'trace-sample' }, 'Open the sample');
  const sessionSelect = h('select', { testid: 'trace-session', 'aria-label': 'Session' });
  const status = h('p.trace-status', { testid: 'trace-status', role: 'status' }, 'Open a recording: a trace log (traceLogPath), from a file, by dropping it here, or the sample.');
  const verdict = h('div.trace-verdict', { testid: 'trace-verdict', hidden: true });
  const timeline = h('ol.trace-timeline', { testid: 'trace-timeline' });
  const picture = h('div.svg-wrap.trace-picture', { testid: 'trace-picture' });
  const caption = h('p.caption', { testid: 'trace-caption' });
  const drop = h('div.trace-drop', { testid: 'trace-drop' }, h('label.field-label', {}, 'Recording ', fileInput), sampleButton, h('label.field-label', {}, 'Session ', sessionSelect));

  const lines = () => sessions.get(sessionId) ?? [];

  function open(text, name) {
    let read;
    try {
      read = readRecording(text);
    } catch (error) {
      status.textContent = `${name}: ${error.message}`;
      status.classList.add('error');
      return;
    }
    status.classList.remove('error');
    if (read.size === 0) {
      status.textContent = `${name}: no swarm session in it.`;
      return;
    }
    sessions = read;
    clear(sessionSelect, [...sessions.keys()].map((id) => h('option', { value: id }, id)));
    status.textContent = `${name}: ${sessions.size} session${sessions.size === 1 ? '' : 's'}.`;
    show([...sessions.keys()][0]);
  }

  function show(id) {
    sessionId = id;
    sessionSelect.value = id;
    selected = lines().length - 1;
    report = null;
    render();
    replay();
  }

  // The timeline item of the line a divergence names (the replay gives its position among the
  // session's lines, which the timeline shows in order), or -1.
  const divergentLine = () => report?.divergence?.line ?? -1;

  function render() {
    const all = lines();
    const diverged = divergentLine();
    const items = [];
    let turn = 0;
    for (const [i, line] of all.entries()) {
      if (line.type === 'open') {
        turn++;
        items.push(h('li.trace-turn', { 'data-turn': String(turn) }, `Turn ${line.turn ?? turn}`));
      }
      const shown = describeLine(line);
      if (shown === null) continue;
      const classes = ['trace-event', `who-${shown.who}`, shown.nested ? 'nested' : '', i === selected ? 'selected' : '', i === diverged ? 'diverged' : ''].filter(Boolean).join(' ');
      const badge = shown.who === 'rule' ? h('span.badge.rule', {}, 'rule · 0 tokens') : shown.who === 'model' ? h('span.badge.model', {}, 'model') : null;
      items.push(
        h('li', { class: classes, testid: `trace-event-${i}`, 'data-type': line.type, tabindex: '0', on: { click: () => select(i), keydown: (e) => (e.key === 'Enter' || e.key === ' ') && select(i) } },
          badge, h('span.trace-text', {}, short(shown.text)), i === diverged ? h('span.badge.diverged', {}, 'diverges') : null),
      );
    }
    clear(timeline, items);
    // The divergence (else the selected event) in view inside the timeline, without moving the page.
    const shownItem = timeline.querySelector('.diverged') ?? timeline.querySelector('.selected');
    if (shownItem instanceof HTMLElement) timeline.scrollTop = Math.max(0, shownItem.offsetTop - 60);
    drawPicture();
    renderVerdict();
  }

  function renderVerdict() {
    if (report === null) {
      verdict.hidden = true;
      return;
    }
    verdict.hidden = false;
    verdict.classList.toggle('differs', !report.same && report.divergence !== undefined);
    if (report.error) {
      verdict.textContent = `Cannot replay against the rules of the Handoffs panel: ${report.error}`;
      return;
    }
    const d = report.divergence;
    verdict.textContent = d === null
      ? `Replayed against the rules of the Handoffs panel: the same (${report.turns} turns, ${report.decisions} decisions).`
      : `Replayed against the rules of the Handoffs panel: differs at turn ${d.turn}, decision ${d.index} (${d.kind}): recorded ${compact(d.recorded)}, now ${compact(d.replayed)}.`;
  }

  // The agent active at the selected line, and the handoffs taken up to it (as checkpoints).
  function stateAt(index) {
    let active = null;
    const checkpoints = [];
    for (const line of lines().slice(0, index + 1)) {
      if (line.type === 'open' || line.type === 'model' || line.type === 'done') active = line.agent;
      const outcome = line.type === 'handoff' ? line : line.type === 'update' ? line.outcome : null;
      if (outcome) {
        checkpoints.push({ outcome: { ...outcome, type: 'handoff' } });
        active = outcome.to;
      }
    }
    return { active, checkpoints };
  }

  function drawPicture() {
    const { swarm } = handoffs.current();
    if (swarm === null || sessionId === null) {
      clear(picture);
      caption.textContent = swarm === null ? 'The swarm definition of the Handoffs panel has problems.' : '';
      return;
    }
    const { active, checkpoints } = stateAt(selected);
    let dag;
    try {
      dag = swarm.toDag({ session: { ...swarm.createSession(), ...(active ? { active } : {}) }, checkpoints });
    } catch {
      dag = swarm.toDag();  // the recording names agents or edges the rules no longer have
    }
    picture.replaceChildren(renderDag(swarmDag(dag), { selected: active ?? undefined, title: 'the swarm at the selected event' }));
    caption.textContent = `At the selected event: ${active ?? 'no agent'} has the conversation; ${checkpoints.length} handoff${checkpoints.length === 1 ? '' : 's'} taken so far.`;
  }

  function select(index) {
    selected = index;
    render();
  }

  /** Replays the session against the Handoffs panel's swarm, in the page. */
  async function replay() {
    const { swarm } = handoffs.current();
    const run = ++replays;
    if (swarm === null || sessionId === null) {
      report = null;
      renderVerdict();
      return;
    }
    let next;
    try {
      next = await swarm.replay(lines());
    } catch (error) {
      next = { same: false, error: error.message.replaceAll('\n', ' ') };
    }
    if (run !== replays) return;
    report = next;
    const diverged = divergentLine();
    if (diverged !== -1) selected = diverged;
    render();
  }

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (file) open(await file.text(), file.name);
  });
  sampleButton.addEventListener('click', () => open(SAMPLE_RECORDING.map((l) => JSON.stringify(l)).join('\n'), 'the sample'));
  sessionSelect.addEventListener('change', () => show(sessionSelect.value));
  const dropTarget = (panel) => {
    panel.addEventListener('dragover', (e) => {
      e.preventDefault();
      panel.classList.add('dragging');
    });
    panel.addEventListener('dragleave', () => panel.classList.remove('dragging'));
    panel.addEventListener('drop', async (e) => {
      e.preventDefault();
      panel.classList.remove('dragging');
      const file = e.dataTransfer?.files?.[0];
      if (file) open(await file.text(), file.name);
    });
  };

  return {
    sections: { drop, status, verdict, timeline, picture, caption },
    dropTarget,
    /** The Handoffs panel's rules changed: replay against them, and redraw. */
    rulesChanged() {
      if (sessionId === null) return;
      drawPicture();
      replay();
    },
    /** The last replay's report (for the test), or null. */
    get report() {
      return report;
    },
  };
}
