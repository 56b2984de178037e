// Panel 1, Rules: the graph definition (JSON, validated by HandoffGraph.fromJSON as you type), a
// form to add and reorder edges, a state and a node; route() + explain() recomputed on every edit,
// and check() on every edit: findings beside their edges, and the states that take each edge.
import { DefinitionError, HandoffGraph, check, compileCondition } from 'handoff-graph';

import { h, clear } from './dom.js';
import { createEditor } from './editor.js';
import { formatJSON, formatState } from './format.js';
import { lineColumn, parseJSON } from './jsonpos.js';
import { caretSnippet, conditionError, locate, renderProblems } from './problems.js';

const pathsCache = new Map();
function pathsOf(when) {
  if (!pathsCache.has(when)) {
    const c = compileCondition(when);
    pathsCache.set(when, [...c.paths]);
    c.dispose();
  }
  return pathsCache.get(when);
}

export function createRulesPanel({ onChange }) {
  let graph = null;            // the graph of the definition, or the last one that was valid
  let graphValid = false;
  let parsedDefinition = null;
  let parsedState = null;
  let explanation = null;
  let preferredNode = null;
  let report = null;           // check(graph) of the valid graph

  const graphEditor = createEditor({
    testid: 'graph-editor',
    label: 'Graph definition',
    hint: 'JSON read by HandoffGraph.fromJSON; checked as you type',
    rows: 15,
    onInput: () => update(true),
  });
  const stateEditor = createEditor({
    testid: 'state-editor',
    label: 'State',
    hint: 'JSON: the state route() reads',
    rows: 5,
    onInput: () => update(true),
  });
  const nodeSelect = h('select.node-select', {
    testid: 'node-select',
    'aria-label': 'Node to route from',
    on: {
      change: () => {
        preferredNode = nodeSelect.value;
        update(true);
      },
    },
  });
  const errorBox = h('div.problems', { testid: 'error', role: 'alert', hidden: true });
  const routeResult = h('div.route-result', { testid: 'route-result', 'aria-live': 'polite' });
  const edgeList = h('div.edge-list', { testid: 'edge-list' });
  const checkBox = h('div.check-report', { testid: 'check-report', 'aria-live': 'polite' });

  // The add-edge form.
  const nodesList = h('datalist', { id: 'hg-node-names' });
  const fromInput = h('input', { testid: 'edge-from', placeholder: 'from', list: 'hg-node-names', 'aria-label': 'from' });
  const toInput = h('input', { testid: 'edge-to', placeholder: 'to', list: 'hg-node-names', 'aria-label': 'to' });
  const whenInput = h('input.mono', {
    testid: 'edge-when',
    placeholder: "condition, e.g. tier == 'gold' (empty: always)",
    'aria-label': 'condition',
    spellcheck: 'false',
  });
  const descInput = h('input', { testid: 'edge-description', placeholder: 'description (optional)', 'aria-label': 'description' });
  const whenError = h('div.inline-error', { testid: 'edge-when-error', hidden: true, role: 'status' });
  const addButton = h('button.primary', { type: 'submit', testid: 'add-edge' }, 'Add edge');
  const form = h(
    'form.add-edge',
    {
      on: {
        submit: (event) => {
          event.preventDefault();
          addEdge();
        },
      },
    },
    h('div.add-edge-row', {}, fromInput, h('span.arrow', {}, '→'), toInput),
    h('div.add-edge-row', {}, whenInput),
    whenError,
    h('div.add-edge-row', {}, descInput, addButton),
    nodesList,
  );
  for (const input of [fromInput, toInput, whenInput]) input.addEventListener('input', checkForm);

  function checkForm() {
    const when = whenInput.value;
    const error = when.trim() === '' ? null : conditionError(when);
    if (error) {
      clear(whenError, h('div.problem-message', {}, error.reason), caretSnippet(when, error.index));
      whenError.dataset.index = error.index;
      whenError.dataset.column = error.index + 1;
      whenInput.setAttribute('aria-invalid', 'true');
    } else {
      whenError.replaceChildren();
      delete whenError.dataset.index;
      delete whenError.dataset.column;
      whenInput.removeAttribute('aria-invalid');
    }
    whenError.hidden = !error;
    const ready = parsedDefinition?.ok && fromInput.value.trim() !== '' && toInput.value.trim() !== '' && !error;
    addButton.disabled = !ready;
    return ready;
  }

  /** Changes the definition as an object and writes it back to the editor. */
  function editDefinition(change) {
    if (!parsedDefinition?.ok) return;
    const definition = structuredClone(parsedDefinition.value);
    if (!Array.isArray(definition.edges)) definition.edges = [];
    change(definition);
    graphEditor.value = formatJSON(definition);
    update(true);
  }

  function addEdge() {
    if (!checkForm()) return;
    const edge = { from: fromInput.value.trim(), to: toInput.value.trim() };
    if (whenInput.value.trim() !== '') edge.when = whenInput.value;
    if (descInput.value.trim() !== '') edge.description = descInput.value.trim();
    preferredNode = edge.from;
    whenInput.value = '';
    descInput.value = '';
    toInput.value = '';
    editDefinition((d) => d.edges.push(edge));
  }

  /** Moves edge i before/after the nearest edge with the same `from` (routing order is per node). */
  function move(i, direction) {
    editDefinition((d) => {
      const from = d.edges[i]?.from;
      let j = i + direction;
      while (j >= 0 && j < d.edges.length && d.edges[j]?.from !== from) j += direction;
      if (j < 0 || j >= d.edges.length) return;
      [d.edges[i], d.edges[j]] = [d.edges[j], d.edges[i]];
    });
  }

  function renderEdgeList() {
    const edges = parsedDefinition?.ok && Array.isArray(parsedDefinition.value.edges) ? parsedDefinition.value.edges : null;
    if (edges === null) {
      clear(edgeList, h('p.muted', {}, parsedDefinition?.ok ? 'No edges yet.' : 'Fix the JSON to edit edges here.'));
      return;
    }
    const rows = edges.map((e, i) => {
      const from = e?.from;
      const sameFrom = edges.map((x, k) => (x?.from === from ? k : -1)).filter((k) => k >= 0);
      const rank = sameFrom.indexOf(i);
      const bad = typeof e?.when === 'string' && conditionError(e.when) !== null;
      const findings = graphValid && report ? report.findings.filter((f) => f.edge === i) : [];
      return h(
        'li.edge-row',
        { 'data-index': i, class: bad ? 'invalid' : findings.length ? 'flagged' : '' },
        h('span.edge-pos', { title: `edge #${rank} of '${from}'` }, `#${rank}`),
        h('span.edge-ends', {}, h('b', {}, String(from)), ' → ', h('b', {}, String(e?.to))),
        h(
          'span.edge-body',
          {},
          h('code.edge-when', {}, e?.when == null ? h('i', {}, 'always') : String(e.when)),
          findings.map((f) => h(`div.edge-finding.${f.severity}`, { testid: `edge-finding-${i}`, 'data-code': f.code }, h('b', {}, f.code), ' ', f.message)),
        ),
        h(
          'span.edge-actions',
          {},
          h('button.icon', { type: 'button', title: `Try earlier among ${from}'s edges`, 'aria-label': `move edge ${i} up`, testid: `edge-up-${i}`, disabled: rank <= 0, on: { click: () => move(i, -1) } }, '↑'),
          h('button.icon', { type: 'button', title: `Try later among ${from}'s edges`, 'aria-label': `move edge ${i} down`, testid: `edge-down-${i}`, disabled: rank === sameFrom.length - 1, on: { click: () => move(i, 1) } }, '↓'),
          h('button.icon.danger', { type: 'button', title: 'Remove this edge', 'aria-label': `remove edge ${i}`, testid: `edge-remove-${i}`, on: { click: () => editDefinition((d) => d.edges.splice(i, 1)) } }, '✕'),
        ),
      );
    });
    clear(edgeList, rows.length ? h('ol.edge-rows', {}, rows) : h('p.muted', {}, 'No edges yet.'));
  }

  function renderNodes() {
    const nodes = graph ? graph.nodes() : [];
    const withEdges = nodes.filter((n) => graph.edges(n).length > 0);
    let chosen = preferredNode && nodes.includes(preferredNode) ? preferredNode : null;
    if (chosen === null && nodes.includes(nodeSelect.value)) chosen = nodeSelect.value;
    chosen ??= withEdges[0] ?? nodes[0] ?? '';
    clear(
      nodeSelect,
      nodes.map((n) => {
        const count = graph.edges(n).length;
        return h('option', { value: n, selected: n === chosen }, `${n}  (${count} edge${count === 1 ? '' : 's'})`);
      }),
    );
    nodeSelect.value = chosen;
    clear(nodesList, nodes.map((n) => h('option', { value: n })));
    if (fromInput.value === '' && chosen) fromInput.placeholder = `from (e.g. ${chosen})`;
  }

  /** Loads a state into the route panel, routing from `node`. */
  function loadState(node, state) {
    preferredNode = node;
    stateEditor.value = formatState(state);
    update(true);
  }

  function renderCheck() {
    if (!graphValid || report === null) {
      clear(checkBox, h('p.muted', {}, 'Fix the problems in the definition to check it again.'));
      return;
    }
    const nodeFindings = report.findings.filter((f) => f.edge === undefined);
    const edgeFindings = report.findings.length - nodeFindings.length;
    const summary =
      report.findings.length === 0
        ? h('p.check-ok', { testid: 'check-summary' }, `No findings: every edge can be taken, and every state matches an edge.`)
        : h('p.check-summary', { testid: 'check-summary' }, `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}` +
            (edgeFindings ? ` (${edgeFindings} beside the edges above)` : ''));
    const nodes = nodeFindings.map((f) =>
      h(
        `div.edge-finding.${f.severity}`,
        { testid: 'node-finding', 'data-code': f.code },
        h('b', {}, f.code),
        ' ',
        f.message,
        f.witness !== undefined && f.node !== undefined
          ? h('button.small', { type: 'button', testid: 'load-witness', on: { click: () => loadState(f.node, f.witness) } }, 'Load this state')
          : null,
      ),
    );
    const rows = report.cases.map((c) =>
      h(
        'tr',
        { 'data-edge': c.edge },
        h('td.num', {}, `${c.edge}`),
        h('td', {}, h('b', {}, c.node), ' → ', h('b', {}, c.to)),
        h('td', {}, h('code', {}, JSON.stringify(c.state))),
        h('td', {}, h('button.small', { type: 'button', testid: `load-case-${c.edge}`, on: { click: () => loadState(c.node, c.state) } }, 'Route it')),
      ),
    );
    clear(
      checkBox,
      summary,
      nodes,
      rows.length
        ? h(
            'table.explain.cases',
            { testid: 'check-cases' },
            h('caption', {}, 'States that take each edge'),
            h('thead', {}, h('tr', {}, h('th', {}, 'edge'), h('th', {}, 'route'), h('th', {}, 'state'), h('th'))),
            h('tbody', {}, rows),
          )
        : null,
    );
  }

  function renderRoute() {
    explanation = null;
    routeResult.dataset.state = 'idle';
    if (!graphValid) {
      clear(routeResult, h('p.muted', {}, 'Fix the problems in the definition to route again.'));
      return;
    }
    if (!parsedState.ok) {
      clear(routeResult, h('p.muted', {}, 'The state is not valid JSON yet.'));
      return;
    }
    const node = nodeSelect.value;
    if (!node) {
      clear(routeResult, h('p.muted', {}, 'The graph has no nodes yet: add an edge.'));
      return;
    }
    explanation = graph.explain(node, parsedState.value);
    const { result, edges } = explanation;
    const winner = edges.find((e) => e.matched);
    routeResult.dataset.state = 'routed';
    routeResult.dataset.result = result ?? '';
    const head =
      edges.length === 0
        ? h('div.route-line', {}, h('code', {}, `route('${node}', state)`), ' → ', h('strong.null', { testid: 'route-winner' }, 'null'),
            h('span.muted', {}, ` '${node}' has no outgoing edges`))
        : result === null
          ? h('div.route-line.none', {}, h('code', {}, `route('${node}', state)`), ' → ', h('strong.null', { testid: 'route-winner' }, 'null'),
              h('span.muted', {}, ' no edge matched'))
          : h('div.route-line', {}, h('code', {}, `route('${node}', state)`), ' → ', h('strong.winner-name', { testid: 'route-winner' }, result),
              h('span.muted', {}, ` by edge #${winner.index}`));
    const yes = (v, text = 'yes') => h('span', { class: v ? 'yes' : 'no' }, v ? `✓ ${text}` : '✗ no');
    const rows = edges.map((e) =>
      h(
        'tr',
        {
          class: e.matched ? 'winner' : e.evaluated ? 'failed' : 'skipped',
          'data-index': e.index,
          'data-to': e.to,
          'data-evaluated': e.evaluated,
          'data-matched': e.matched,
        },
        h('td.num', {}, `#${e.index}`),
        h('td', {}, h('b', {}, e.to)),
        h(
          'td',
          {},
          e.when === null ? h('i.muted', {}, 'always (no condition)') : h('code', {}, e.when),
          e.when === null ? null : h('div.reads', {}, 'reads ', pathsOf(e.when).map((p, i) => [i ? ', ' : '', h('code', {}, p)])),
        ),
        h('td', {}, e.evaluated ? yes(true) : h('span.skip', { title: 'routing stopped at the winner' }, '— skipped')),
        h('td', {}, e.evaluated ? yes(e.matched) : h('span.skip', {}, '—')),
        h('td', {}, e.matched ? h('span.badge', {}, 'winner') : null),
      ),
    );
    clear(
      routeResult,
      head,
      edges.length
        ? h(
            'table.explain',
            {},
            h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'to'), h('th', {}, 'condition'), h('th', {}, 'evaluated'), h('th', {}, 'matched'), h('th'))),
            h('tbody', {}, rows),
          )
        : null,
    );
  }

  function update(user) {
    const problems = [];
    // The definition.
    const text = graphEditor.value;
    parsedDefinition = parseJSON(text);
    const definitionProblems = [];
    if (!parsedDefinition.ok) {
      definitionProblems.push({ source: 'Graph definition', message: `not valid JSON: ${parsedDefinition.message}`, start: parsedDefinition.offset, end: parsedDefinition.offset + 1 });
    } else {
      try {
        const next = HandoffGraph.fromJSON(parsedDefinition.value);
        if (graph !== null) graph.dispose();
        graph = next;
        graphValid = true;
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        for (const p of error.problems) definitionProblems.push(locate({ source: 'Graph definition', ...p }, parsedDefinition, text));
      }
    }
    if (definitionProblems.length > 0) graphValid = false;
    report = graphValid ? check(graph) : null;
    for (const p of definitionProblems) if (p.line === undefined && p.start !== undefined) Object.assign(p, lineColumn(text, p.start));
    graphEditor.setMarks(definitionProblems.filter((p) => p.start !== undefined).map((p) => ({ start: p.start, end: p.end, message: p.message })));
    problems.push(...definitionProblems);

    // The state.
    const stateText = stateEditor.value;
    parsedState = stateText.trim() === '' ? { ok: true, value: {} } : parseJSON(stateText);
    if (!parsedState.ok) {
      const p = { source: 'State', message: `not valid JSON: ${parsedState.message}`, start: parsedState.offset, end: parsedState.offset + 1, editor: 'state' };
      Object.assign(p, lineColumn(stateText, p.start));
      problems.push(p);
      stateEditor.setMarks([{ start: p.start, end: p.end, message: p.message }]);
    } else stateEditor.setMarks([]);

    renderProblems(errorBox, problems, {
      onSelect: (p) => (p.editor === 'state' ? stateEditor : graphEditor).select(p.start, p.end),
    });
    renderEdgeList();
    renderNodes();
    renderRoute();
    renderCheck();
    checkForm();
    onChange?.(user);
  }

  return {
    sections: { graphEditor, stateEditor, nodeSelect, errorBox, routeResult, edgeList, form, checkBox },
    /** @param {{ graph?: unknown, state?: unknown, node?: string }} example */
    load({ graph: definition, state, node }) {
      graphEditor.value = typeof definition === 'string' ? definition : formatJSON(definition);
      stateEditor.value = state === undefined ? '{}' : typeof state === 'string' ? state : formatState(state);
      preferredNode = node ?? null;
      update(false);
    },
    /** What a share link keeps: parsed JSON where it parses, else the text as typed. */
    snapshot() {
      return {
        graph: parsedDefinition?.ok ? parsedDefinition.value : graphEditor.value,
        state: parsedState?.ok && stateEditor.value.trim() !== '' ? parsedState.value : stateEditor.value,
        node: nodeSelect.value || undefined,
      };
    },
    get graph() {
      return graph;
    },
    get valid() {
      return graphValid;
    },
    get node() {
      return nodeSelect.value;
    },
    get explanation() {
      return explanation;
    },
    get report() {
      return report;
    },
    /** Export options that mark the route just taken. */
    exportOptions() {
      return explanation && graphValid ? { trace: [explanation] } : {};
    },
  };
}

