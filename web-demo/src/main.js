// The handoff-graph web demo. It uses the package exactly as an application would: imported by name,
// resolved by the bundler to the package's browser entry, whose .wasm the bundler ships as an asset.
import { END, init } from 'handoff-graph';
import pkg from 'handoff-graph/package.json';

import { clear, coalesce, h } from './dom.js';
import { EXAMPLES, exampleByName } from './examples.js';
import { createConversationPanel, DEFAULT_SCRIPT } from './conversation.js';
import { createHandoffsPanel } from './handoffs.js';
import { createMachinePanel } from './machine.js';
import { renderDag, svgText } from './picture.js';
import { createRulesPanel } from './rules.js';
import { createTracePanel } from './trace.js';
import { linkFor, readHash } from './share.js';
import './style.css';

const app = document.getElementById('app');
try {
  await init();
} catch (error) {
  clear(app, h('div.fatal', { testid: 'error', role: 'alert' }, h('strong', {}, 'The WebAssembly core could not be loaded. '), String(error?.message ?? error)));
  throw error;
}

let view = 'graph';            // what the picture and the exports show: 'graph', 'machine' or 'swarm'
const notice = h('div.notice', { testid: 'notice', role: 'status', hidden: true });
const showNotice = (text, kind = 'info') => {
  notice.hidden = !text;
  notice.className = `notice ${kind}`;
  notice.textContent = text ?? '';
};

// ---- panels -----------------------------------------------------------------------------------
const schedulePicture = coalesce(() => renderPicture());
const rules = createRulesPanel({
  onChange: (user) => {
    if (user) setView('graph');
    schedulePicture();
  },
});
const machine = createMachinePanel({
  onChange: (user) => {
    if (user) setView('machine');
    schedulePicture();
  },
});

const section = (id, title, sub, ...children) =>
  h(`section.panel#${id}`, { 'aria-labelledby': `${id}-title` }, h('header.panel-head', {}, h('h2', { id: `${id}-title` }, title), sub ? h('p.sub', {}, sub) : null), children);
const sub = (title, ...children) => h('div.subsection', {}, h('h3', {}, title), children);

const r = rules.sections;
const rulesPanel = section(
  'rules',
  'Rules',
  "A node's edges are tried in order; the first whose condition holds on the state wins, and an edge without a condition always holds.",
  r.graphEditor.el,
  r.errorBox,
  sub('Edges', h('p.hint', {}, "Reorder a node's edges to change which one is tried first."), r.edgeList, r.form),
  sub('Check', h('p.hint', {}, 'check() decides every edge over every possible state: rules that never fire, states no edge matches, and a state that takes each edge.'), r.checkBox),
  sub(
    'Route',
    h('div.route-inputs', {}, h('label.field-label', {}, 'From node', r.nodeSelect), r.stateEditor.el),
    r.routeResult,
  ),
);

const m = machine.sections;
const machinePanel = section(
  'machine',
  'State machine',
  'Each state stands for an agent; here its update is scripted. After every step the edges route on the merged state, with $step, $state and $visits.',
  m.definitionEditor.el,
  m.scriptsEditor.el,
  m.stateEditor.el,
  m.errorBox,
  m.checkBox,
  m.controls,
  m.outcome,
  h('div.two.trace-row', {}, h('div', {}, h('div.field-label', {}, 'Trace'), m.trace), h('div', {}, m.stateLabel, m.stateView)),
);

let conversation = null;
let trace = null;
const handoffs = createHandoffsPanel({
  onChange: () => {
    conversation?.sync();
    trace?.rulesChanged();
    if (view === 'swarm') schedulePicture();
  },
});
const hs = handoffs.sections;
const handoffsPanel = section(
  'handoffs',
  'Handoffs',
  'A swarm: rule edges are taken by applyRules as soon as their condition holds; LLM edges are offered to the active agent as transfer_* tools (a hybrid, offer: true, only while its condition holds). Everything below is the Swarm API on a live session.',
  hs.definitionEditor.el,
  hs.errorBox,
  hs.variablesEditor.el,
  h('div.swarm-head', {}, hs.active, hs.controls),
  h('div.two.swarm-row', {},
    h('div', {}, h('label.field-label', {}, 'Tools offered now, as swarm.tools(session, format) returns them ', hs.formatSelect), hs.toolsView),
    h('div', {},
      sub('Tool call', h('p.hint', {}, 'swarm.applyToolCall(session, { name, arguments }): only a handoff moves the session.'), hs.callForm),
      h('div.field-label', {}, 'Outcome'),
      hs.outcomeBox,
      h('div.field-label.log-label', {}, 'This session'),
      hs.log,
    ),
  ),
);

conversation = createConversationPanel({
  handoffs,
  onChange: () => {
    handoffs.refresh();
    setView('swarm', true);
  },
});
const cs = conversation.sections;
const conversationPanel = section(
  'conversation',
  'Conversation',
  "swarm.runTurn() on the Handoffs panel's session, against a scripted model that streams like a provider adapter: the events appear as they arrive, and the handoffs are drawn on the picture. Nothing leaves the page.",
  cs.scriptEditor.el,
  cs.form,
  cs.status,
  cs.log,
);

trace = createTracePanel({ handoffs });
const ts = trace.sections;
const tracePanel = section(
  'trace',
  'Trace viewer',
  "A recording (the trace log of a swarm's sessions, docs/replay.md): every turn's events, the decisions a rule took (zero tokens) and those the model took, and the swarm at the selected event. Edit the rules in the Handoffs panel: the recording is replayed against them here, and the first decision that now comes out differently is marked.",
  ts.drop,
  ts.status,
  ts.verdict,
  h('div.trace-view', {}, h('div.field-label', {}, 'The swarm at the selected event'), ts.picture, ts.caption, h('div.field-label', {}, 'Timeline'), ts.timeline),
);
trace.dropTarget(tracePanel);

// ---- picture ----------------------------------------------------------------------------------
const svgWrap = h('div.svg-wrap');
const caption = h('p.caption', { testid: 'picture-caption' });
const viewButtons = {
  graph: h('button', { type: 'button', testid: 'picture-graph', on: { click: () => setView('graph', true) } }, 'Graph'),
  machine: h('button', { type: 'button', testid: 'picture-machine', on: { click: () => setView('machine', true) } }, 'Machine'),
  swarm: h('button', { type: 'button', testid: 'picture-swarm', on: { click: () => setView('swarm', true) } }, 'Swarm'),
};
const legend = h(
  'div.legend',
  {},
  h('span', {}, h('i.sw.fired'), 'route taken / fired edge'),
  h('span', {}, h('i.sw.dashed'), 'no condition'),
  h('span', {}, h('i.sw.node'), 'winner / current'),
);
const picturePanel = h(
  'section.panel.picture#picture',
  { 'aria-labelledby': 'picture-title' },
  h('header.panel-head.row', {}, h('h2', { id: 'picture-title' }, 'Picture'), h('div.segmented', { role: 'group', 'aria-label': 'Show' }, viewButtons.graph, viewButtons.machine, viewButtons.swarm)),
  svgWrap,
  caption,
  legend,
);

function setView(next, render = false) {
  if (view !== next) {
    view = next;
    render = true;
  }
  for (const [name, button] of Object.entries(viewButtons)) button.setAttribute('aria-pressed', String(name === view));
  updateExportNote();
  if (render) schedulePicture();
}

function renderPicture() {
  let svg;
  let text;
  let stale = false;
  if (view === 'graph') {
    const graph = rules.graph;
    stale = !rules.valid;
    const explanation = rules.explanation;
    svg = renderDag(graph ? graph.toDag(rules.exportOptions()) : { kind: 'graph', nodes: [], edges: [] }, { selected: rules.node, title: 'the graph of the Rules panel' });
    if (stale) text = graph ? 'The definition has problems: this is the last graph that loaded.' : 'No graph yet.';
    else if (explanation) {
      const winner = explanation.edges.find((e) => e.matched);
      text = winner ? `route('${explanation.node}', state) → ${explanation.result}, by edge #${winner.index}` : `route('${explanation.node}', state) → null: no edge matched`;
    } else text = 'Pick a node and a state in the Rules panel.';
  } else if (view === 'swarm') {
    const dag = conversation.dag();
    stale = dag === null;
    svg = renderDag(dag ?? { kind: 'swarm', nodes: [], edges: [] }, { selected: conversation.active, title: 'the swarm of the Handoffs panel' });
    const handoffCount = dag ? dag.edges.reduce((n, e) => n + e.firedCount, 0) : 0;
    text = dag
      ? `Swarm: ${conversation.active} has the conversation; ${handoffCount} handoff${handoffCount === 1 ? '' : 's'} taken in this conversation (marked with their counts).`
      : 'The swarm definition has problems.';
  } else {
    const dag = machine.dag();
    stale = machine.stale();
    svg = renderDag(dag ?? { kind: 'state-machine', nodes: [], edges: [] }, { current: machine.current(), failed: machine.failed(), title: `state machine ${machine.name}` });
    const run = dag?.run;
    if (stale) text = dag ? 'The definition has problems: this is the last machine that loaded.' : 'No machine yet.';
    else if (!run) text = `${machine.name}: not run yet. Step or Run it in the State machine panel.`;
    else {
      const reason = { end: 'reached END', 'max-steps': 'stopped at maxSteps', 'no-edge-matched': 'no edge matched', aborted: 'aborted', '': 'failed' }[run.reason] ?? run.reason;
      text = `${machine.name}: ${run.stepsRun} step${run.stepsRun === 1 ? '' : 's'}, ${reason}. Fired edges are marked with their counts.`;
    }
  }
  svgWrap.classList.toggle('stale', stale);
  svgWrap.replaceChildren(svg);
  caption.textContent = text;
}

// ---- export and share -------------------------------------------------------------------------
const exportNote = h('p.sub', { testid: 'export-note' });
const preview = h('pre.export-preview', { testid: 'export-preview', hidden: true });
const shareInput = h('input.share-url', { testid: 'share-url', readonly: true, placeholder: 'Copy link puts the graph and the state in the URL', 'aria-label': 'Share link' });
const shareStatus = h('span.muted', { testid: 'share-status', role: 'status' });

function model() {
  if (view === 'swarm') {
    const dag = conversation.dag();
    const { swarm, session } = handoffs.current();
    return dag && {
      base: swarm.name.replace(/[^\w.-]+/g, '-') || 'swarm',
      json: () => swarm.toJSON(),
      dag: () => swarm.toDag(session ? { session } : undefined),
      mermaid: () => swarm.toMermaid(session ? { session } : undefined),
      dot: () => swarm.toDot(session ? { session } : undefined),
    };
  }
  if (view === 'graph') {
    const g = rules.valid ? rules.graph : null;
    const options = rules.exportOptions();
    return g && {
      base: 'handoff-graph',
      json: () => g.toJSON(),
      dag: () => g.toDag(options),
      mermaid: () => g.toMermaid(options),
      dot: () => g.toDot(options),
    };
  }
  const mm = machine.stale() ? null : machine.machine;
  const options = machine.exportOptions();
  return mm && {
    base: mm.name.replace(/[^\w.-]+/g, '-') || 'machine',
    json: () => mm.toJSON(),
    dag: () => machine.dag(),
    mermaid: () => mm.toMermaid({ kind: 'state', ...options }),
    dot: () => mm.toDot(options),
  };
}

function updateExportNote() {
  exportNote.textContent =
    view === 'graph'
      ? 'Exports the graph of the Rules panel, with the route just taken marked.'
      : view === 'swarm'
        ? "Exports the swarm of the Handoffs panel (swarm.toDag, toMermaid, toDot), with the session's active agent and handoffs marked."
        : `Exports the state machine '${machine.name}', with the fired edges of the current run marked.`;
}

function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  preview.hidden = false;
  preview.textContent = `${filename}\n\n${text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text}`;
}

const EXPORTS = [
  { id: 'export-json', label: 'JSON definition', ext: '.json', type: 'application/json', text: (mod) => `${JSON.stringify(mod.json(), null, 2)}\n` },
  { id: 'export-dag', label: 'DAG JSON', ext: '.dag.json', type: 'application/json', text: (mod) => `${JSON.stringify(mod.dag(), null, 2)}\n` },
  { id: 'export-mermaid', label: 'Mermaid', ext: '.mmd', type: 'text/plain', text: (mod) => mod.mermaid() },
  { id: 'export-dot', label: 'DOT', ext: '.dot', type: 'text/vnd.graphviz', text: (mod) => mod.dot() },
  { id: 'export-svg', label: 'SVG', ext: '.svg', type: 'image/svg+xml', text: () => svgText(svgWrap.querySelector('svg')) },
];
const exportButtons = EXPORTS.map((x) =>
  h('button', {
    type: 'button',
    testid: x.id,
    on: {
      click: () => {
        renderPicture();  // the SVG of exactly what is exported
        const mod = model();
        if (!mod) {
          showNotice('Nothing to export: fix the problems in the definition first.', 'error');
          return;
        }
        if (mod[x.id.slice('export-'.length)] === null) {
          showNotice(`${x.label} is not available for the swarm picture.`, 'error');
          return;
        }
        download(`${mod.base}${x.ext}`, x.text(mod), x.type);
      },
    },
  }, x.label),
);

async function copyLink() {
  const url = linkFor({ view, rules: rules.snapshot(), machine: machine.snapshot(), swarm: handoffs.snapshot() });
  history.replaceState(null, '', url);
  shareInput.value = url;
  try {
    await navigator.clipboard.writeText(url);
    shareStatus.textContent = 'Copied to the clipboard.';
  } catch {
    shareInput.focus();
    shareInput.select();
    shareStatus.textContent = 'The link is in the address bar and above: copy it from there.';
  }
}

const exportPanel = section(
  'export',
  'Export and share',
  null,
  exportNote,
  h('div.buttons', {}, exportButtons),
  h('div.share', {}, h('button.primary', { type: 'button', testid: 'copy-link', on: { click: copyLink } }, 'Copy link'), shareInput),
  shareStatus,
  preview,
);

// ---- examples ---------------------------------------------------------------------------------
const exampleButtons = EXAMPLES.map((ex) =>
  h('button.example', { type: 'button', testid: `example-${ex.name}`, title: ex.blurb, on: { click: () => loadExample(ex.name, true) } },
    h('span.example-kind', {}, ex.kind), ex.title),
);

function loadExample(name, user = false) {
  const ex = exampleByName(name);
  if (ex.kind === 'graph') rules.load(ex);
  else if (ex.kind === 'machine') machine.load(ex);
  else handoffs.load(ex);
  for (const b of exampleButtons) b.setAttribute('aria-pressed', String(b.dataset.testid === `example-${name}`));
  if (ex.kind !== 'swarm') setView(ex.kind, true);
  showNotice(null);
  if (user) ({ graph: rulesPanel, machine: machinePanel, swarm: handoffsPanel })[ex.kind].scrollIntoView({ block: 'nearest' });
}

function restore() {
  let shared = null;
  let broken = null;
  try {
    shared = readHash(location.hash);
  } catch (error) {
    broken = error;
  }
  if (!shared) {
    loadExample('hybrid-swarm');
    loadExample('tool-router');
    loadExample('triage');
    if (broken) showNotice(`This link could not be restored (${broken.message}); showing the examples instead.`, 'error');
    return false;
  }
  rules.load(shared.rules ?? exampleByName('triage'));
  machine.load(shared.machine ?? exampleByName('tool-router'));
  handoffs.load(shared.swarm ?? exampleByName('hybrid-swarm'));
  for (const b of exampleButtons) b.setAttribute('aria-pressed', 'false');
  setView(shared.view === 'machine' ? 'machine' : 'graph', true);
  showNotice('Restored the graph and the state from the link.');
  return true;
}

// ---- page -------------------------------------------------------------------------------------
clear(
  app,
  h(
    'header.top',
    {},
    h('div.brand', {}, h('h1', {}, 'handoff-graph'), h('p', {}, 'Deterministic routing for multi-agent LLM systems: conditions on edges, resolved in WebAssembly, no tokens, no eval.')),
    h('nav.examples', { 'aria-label': 'Examples' }, h('span.examples-label', {}, 'Examples'), exampleButtons),
  ),
  notice,
  h('main.layout', {}, h('div.col-main', {}, rulesPanel, machinePanel, handoffsPanel, conversationPanel, tracePanel, exportPanel), h('div.col-side', {}, picturePanel)),
  h('footer.foot', {}, `handoff-graph ${pkg.version} · everything runs in this page: the routing is the package's WebAssembly core; nothing is sent anywhere. END is '${END}'.`),
);
restore();
conversation.load(DEFAULT_SCRIPT);
window.addEventListener('hashchange', () => restore());
renderPicture();
document.documentElement.dataset.ready = 'true';
