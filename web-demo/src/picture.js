// The picture: a DAG model (graph.toDag() / machine.toDag() / execution.toDag()) laid out by dagre
// and drawn as a standalone SVG (its styles are inside it, so the exported file looks the same).
import dagre from '@dagrejs/dagre';

const NS = 'http://www.w3.org/2000/svg';
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';
const FONT_NODE = `600 13px ${SANS}`;
const FONT_SUB = `11px ${SANS}`;
const FONT_LABEL = `11.5px ${MONO}`;
const LABEL_LINE = 15;
const WRAP = 34;
export const ACCENT = '#e4572e';

const STYLE = `
  .node rect { fill: #ffffff; stroke: #94a3b8; stroke-width: 1.5; }
  .node text { font: ${FONT_NODE}; fill: #0f172a; }
  .node text.sub { font: ${FONT_SUB}; fill: #64748b; }
  .node.selected rect { stroke: #0f172a; stroke-width: 2.5; }
  .node.visited rect { stroke: ${ACCENT}; stroke-width: 2; }
  .node.winner rect, .node.current rect { fill: #fdebe5; stroke: ${ACCENT}; stroke-width: 2.5; }
  .node.failed rect { fill: #fef2f2; stroke: #dc2626; stroke-width: 2.5; }
  .node.end rect { fill: #1e293b; stroke: #1e293b; }
  .node.end text { fill: #ffffff; }
  .node.end.reached rect { fill: ${ACCENT}; stroke: ${ACCENT}; }
  .node.missing rect { fill: #fef2f2; stroke: #dc2626; stroke-dasharray: 4 3; }
  .node.missing text.sub { fill: #b91c1c; }
  .start-dot { fill: #1e293b; }
  .edge { fill: none; stroke: #94a3b8; stroke-width: 1.5; }
  .edge.unconditional { stroke-dasharray: 6 4; }
  .edge.fired { stroke: ${ACCENT}; stroke-width: 3; }
  .edge.start { stroke: #1e293b; }
  .edge.branch { stroke-width: 3; stroke-dasharray: 2 3; }
  .edge-label rect { fill: #ffffff; stroke: #e2e8f0; }
  .edge-label text { font: ${FONT_LABEL}; fill: #334155; }
  .edge-label text .pos { fill: #94a3b8; }
  .edge-label text .always { fill: #64748b; font-style: italic; }
  .edge-label.fired rect { fill: #fff7f4; stroke: ${ACCENT}; }
  .edge-label text .count { fill: ${ACCENT}; font-weight: 700; }
  .empty { font: ${FONT_SUB}; fill: #64748b; }
`;

let canvas;
function measure(text, font) {
  canvas ??= document.createElement('canvas').getContext('2d');
  canvas.font = font;
  return canvas.measureText(text).width;
}

function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

/** Splits a condition into lines of about WRAP characters, at spaces. */
function wrap(text) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > WRAP) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** Spans of an edge label: [{ text, cls }] per line. */
function labelOf(edge, siblings, counted) {
  const lines = edge.when === null ? [[{ text: edge.position === 0 ? 'always' : 'otherwise', cls: 'always' }]] : wrap(edge.when).map((t) => [{ text: t }]);
  if (siblings > 1) lines[0].unshift({ text: `#${edge.position} `, cls: 'pos' });
  if (counted && edge.firedCount > 0) lines[lines.length - 1].push({ text: ` ×${edge.firedCount}`, cls: 'count' });
  return lines;
}

/** A smooth path through dagre's points. */
function pathOf(points) {
  if (points.length < 3) return `M${points.map((p) => `${p.x},${p.y}`).join(' L')}`;
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i];
    const q = points[i + 1];
    const end = i === points.length - 2 ? q : { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    d += ` Q${p.x},${p.y} ${end.x},${end.y}`;
  }
  return d;
}

/**
 * @param dag a DagModel
 * @param {{ selected?: string, current?: string, failed?: boolean, title?: string }} marks
 * @returns {SVGSVGElement}
 */
export function renderDag(dag, { selected, current, failed = false, title } = {}) {
  const machine = dag.kind === 'state-machine';
  const counted = machine && dag.run !== undefined;
  const nodes = new Map(dag.nodes.map((n) => [n.id, n]));
  for (const e of dag.edges) for (const id of [e.from, e.to]) if (!nodes.has(id)) nodes.set(id, { id, type: 'missing' });
  const outDegree = new Map();
  for (const e of dag.edges) outDegree.set(e.from, (outDegree.get(e.from) ?? 0) + 1);
  const winners = new Set(machine ? [] : dag.edges.filter((e) => e.fired).map((e) => e.to));

  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 52, edgesep: 18, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const START = '\u0000start';
  const start = dag.nodes.find((n) => n.start);
  if (start) g.setNode(START, { width: 12, height: 12 });
  // Nodes in the order the edges name them (the start first): dagre then tends to lay a node's
  // edges out left to right in routing order.
  const order = new Map();
  if (start) order.set(start.id, 0);
  for (const e of dag.edges) for (const id of [e.from, e.to]) if (!order.has(id)) order.set(id, order.size);
  const placed = [...nodes.values()].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  for (const n of placed) {
    const label = n.type === 'end' ? 'END' : n.id;
    const sub = n.type === 'missing' ? 'not declared' : counted && n.type === 'state' ? `visits ${n.visits ?? 0}` : null;
    const width = Math.max(56, measure(label, FONT_NODE) + 30, sub ? measure(sub, FONT_SUB) + 24 : 0);
    g.setNode(n.id, { width, height: sub ? 48 : 36, label, sub, model: n });
  }
  if (start) g.setEdge(START, start.id, { width: 0, height: 0, start: true }, 'start');
  // A fan-out's links to its branches (a map's to its state): bold, labelled, never "fired";
  // added last first, as the edges are, so that the first branch is drawn leftmost.
  for (const n of dag.nodes) {
    const branches = n.map ? [n.map.state] : [...(n.branches ?? [])].reverse();
    const text = n.map ? `each in ${n.map.over}` : 'parallel';
    for (const b of branches) {
      if (!nodes.has(b)) continue;
      const lines = [[{ text }]];
      g.setEdge(n.id, b, { width: measure(text, FONT_LABEL) + 12, height: LABEL_LINE + 6, labelpos: 'c', lines, branch: true, model: { from: n.id, to: b } }, `branch:${n.id}:${b}`);
    }
  }
  // Edges added last first: dagre's ordering then puts a node's edge #0 leftmost.
  for (let i = dag.edges.length - 1; i >= 0; i--) {
    const e = dag.edges[i];
    const lines = labelOf(e, outDegree.get(e.from), counted);
    const width = Math.max(...lines.map((l) => measure(l.map((s) => s.text).join(''), FONT_LABEL))) + 12;
    g.setEdge(e.from, e.to, { width, height: lines.length * LABEL_LINE + 6, labelpos: 'c', lines, model: e }, `e${i}`);
  }
  dagre.layout(g);

  // The bounds of everything drawn (dagre's own size leaves out the loops of self-edges).
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const grow = (x, y, w = 0, hgt = 0) => {
    minX = Math.min(minX, x - w / 2);
    maxX = Math.max(maxX, x + w / 2);
    minY = Math.min(minY, y - hgt / 2);
    maxY = Math.max(maxY, y + hgt / 2);
  };
  for (const id of g.nodes()) {
    const n = g.node(id);
    grow(n.x, n.y, n.width, n.height);
  }
  for (const e of g.edges()) {
    const edge = g.edge(e);
    for (const p of edge.points) grow(p.x, p.y);
    if (edge.lines) grow(edge.x, edge.y, edge.width, edge.height);
  }
  const pad = 14;
  const svg = el('svg', { role: 'img', 'data-testid': 'graph-svg', 'font-family': SANS });
  svg.append(el('title', {}, title ?? (machine ? `state machine ${dag.name ?? ''}` : 'graph')));
  svg.append(el('style', {}, STYLE));
  if (g.nodeCount() === 0) {
    svg.setAttribute('viewBox', '0 0 320 80');
    svg.setAttribute('width', 320);
    svg.setAttribute('height', 80);
    svg.append(el('text', { x: 160, y: 44, 'text-anchor': 'middle', class: 'empty' }, 'No nodes yet: add an edge.'));
    return svg;
  }
  const width = maxX - minX + 2 * pad;
  const height = maxY - minY + 2 * pad;
  svg.setAttribute('viewBox', `${minX - pad} ${minY - pad} ${width} ${height}`);
  svg.setAttribute('width', Math.ceil(width));
  svg.setAttribute('height', Math.ceil(height));

  const marker = (id, color) =>
    el('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 9, markerHeight: 9, markerUnits: 'userSpaceOnUse', orient: 'auto' },
      el('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
  svg.append(el('defs', {}, marker('hg-arrow', '#94a3b8'), marker('hg-arrow-fired', ACCENT), marker('hg-arrow-start', '#1e293b')));

  const edgesLayer = el('g', { class: 'edges' });
  const labelsLayer = el('g', { class: 'edge-labels' });
  const nodesLayer = el('g', { class: 'nodes' });
  // Fired edges last, so that they are drawn over the others.
  const ordered = g.edges().sort((a, b) => Number(g.edge(a).model?.fired ?? 0) - Number(g.edge(b).model?.fired ?? 0));
  for (const e of ordered) {
    const edge = g.edge(e);
    if (edge.start) {
      edgesLayer.append(el('path', { class: 'edge start', d: pathOf(edge.points), 'marker-end': 'url(#hg-arrow-start)' }));
      continue;
    }
    const m = edge.model;
    const cls = ['edge', edge.branch ? 'branch' : '', m.unconditional ? 'unconditional' : '', m.fired ? 'fired' : ''].filter(Boolean).join(' ');
    const path = el('path', {
      class: cls,
      d: pathOf(edge.points),
      'marker-end': `url(#${m.fired ? 'hg-arrow-fired' : 'hg-arrow'})`,
      'data-from': m.from,
      'data-to': m.to,
      'data-position': m.position,
      'data-fired': m.fired,
      'data-count': m.firedCount,
    });
    if (m.description) path.append(el('title', {}, m.description));
    edgesLayer.append(path);
    const top = edge.y - edge.height / 2;
    const text = el('text', { x: edge.x, 'text-anchor': 'middle' });
    edge.lines.forEach((line, i) => {
      const tspan = el('tspan', { x: edge.x, y: top + 3 + LABEL_LINE * (i + 1) - 4 });
      for (const span of line) tspan.append(span.cls ? el('tspan', { class: span.cls }, span.text) : document.createTextNode(span.text));
      text.append(tspan);
    });
    labelsLayer.append(
      el('g', { class: `edge-label${m.fired ? ' fired' : ''}` },
        el('rect', { x: edge.x - edge.width / 2, y: top, width: edge.width, height: edge.height, rx: 4 }),
        text),
    );
  }
  for (const id of g.nodes()) {
    const n = g.node(id);
    if (id === START) {
      nodesLayer.append(el('circle', { class: 'start-dot', cx: n.x, cy: n.y, r: 6 }));
      continue;
    }
    const model = n.model;
    const classes = ['node', model.type];
    if (id === selected) classes.push('selected');
    if (winners.has(id)) classes.push('winner');
    if (machine && (model.visits ?? 0) > 0) classes.push('visited');
    if (machine && id === current) classes.push(failed ? 'failed' : 'current');
    if (model.type === 'end' && dag.run?.reason === 'end') classes.push('reached');
    const group = el('g', { class: classes.join(' '), 'data-node': id, transform: `translate(${n.x},${n.y})` });
    if (model.description) group.append(el('title', {}, model.description));
    const rx = model.type === 'end' ? n.height / 2 : 8;
    group.append(el('rect', { x: -n.width / 2, y: -n.height / 2, width: n.width, height: n.height, rx }));
    if (n.sub) {
      group.append(el('text', { y: -3, 'text-anchor': 'middle' }, n.label));
      group.append(el('text', { class: 'sub', y: 13, 'text-anchor': 'middle' }, n.sub));
    } else group.append(el('text', { y: 4.5, 'text-anchor': 'middle' }, n.label));
    nodesLayer.append(group);
  }
  svg.append(edgesLayer, labelsLayer, nodesLayer);
  return svg;
}

/** The SVG as a standalone file. */
export function svgText(svg) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
