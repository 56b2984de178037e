// A plain <textarea> (so typing, paste, undo and Playwright's fill() all just work) over a backdrop
// that repeats its text with error ranges marked: the marks sit exactly under the offending
// characters and scroll with the text.
import { h } from './dom.js';

export function createEditor({ testid, label, rows = 12, onInput, hint }) {
  const backdrop = h('pre.editor-backdrop', { 'aria-hidden': 'true' });
  const textarea = h('textarea.editor-input', {
    testid,
    rows,
    spellcheck: 'false',
    autocapitalize: 'off',
    autocomplete: 'off',
    wrap: 'off',
    'aria-label': label,
  });
  const id = `ed-${testid}`;
  textarea.id = id;
  const wrap = h('div.editor', {}, backdrop, textarea);
  const el = h('div.field', {}, h('label.field-label', { for: id }, label, hint ? h('span.hint', {}, hint) : null), wrap);
  let marks = [];

  const paint = () => {
    const text = textarea.value;
    const parts = [];
    let at = 0;
    const sorted = marks
      .map((m) => ({ ...m, start: Math.max(0, Math.min(m.start, text.length)), end: Math.max(m.end, m.start + 1) }))
      .sort((a, b) => a.start - b.start);
    for (const m of sorted) {
      if (m.start < at) continue;
      parts.push(text.slice(at, m.start));
      const inside = text.slice(m.start, Math.min(m.end, text.length));
      // A mark on a line break or past the end shows as one marked space at the end of the line.
      const shown = inside === '' || inside === '\n' ? ' ' : inside;
      parts.push(h('mark', { class: m.kind ?? 'error', title: m.message ?? '' }, shown));
      if (inside === '\n') parts.push('\n');
      at = Math.max(m.start, Math.min(m.end, text.length));
    }
    parts.push(text.slice(at), '\n ');
    backdrop.replaceChildren(...parts.map((p) => (typeof p === 'string' ? document.createTextNode(p) : p)));
    sync();
  };
  const sync = () => {
    backdrop.scrollTop = textarea.scrollTop;
    backdrop.scrollLeft = textarea.scrollLeft;
  };
  textarea.addEventListener('scroll', sync);
  textarea.addEventListener('input', () => {
    paint();
    onInput?.();
  });

  return {
    el,
    textarea,
    get value() {
      return textarea.value;
    },
    /** Replaces the text without firing input (the caller recomputes). */
    set value(text) {
      textarea.value = text;
      paint();
    },
    setMarks(next) {
      marks = next;
      paint();
    },
    /** Focuses and selects [start, end), scrolling it into view. */
    select(start, end = start + 1) {
      textarea.focus();
      textarea.setSelectionRange(start, Math.max(end, start));
      const line = textarea.value.slice(0, start).split('\n').length - 1;
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
      textarea.scrollTop = Math.max(0, line * lineHeight - textarea.clientHeight / 3);
      sync();
    },
  };
}
