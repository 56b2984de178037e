// Problems shown inline: each { source, pointer?, message } is located in its editor's text (a JSON
// pointer from DefinitionError, an offset from a JSON syntax error) and, for a condition that does
// not parse, at the very character ConditionSyntaxError.index names.
import { compileCondition, ConditionSyntaxError } from 'handoff-graph';

import { h } from './dom.js';
import { lineColumn } from './jsonpos.js';

/** The syntax error of a condition, or null if it parses (or is not a string). */
export function conditionError(source) {
  if (typeof source !== 'string') return null;
  try {
    compileCondition(source).dispose();
    return null;
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return error;
    return null;
  }
}

/** Where a JSON pointer's value (with its key) is in the text, walking up to the nearest that exists. */
function spanOf(parsed, pointer) {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const span = parsed.span(p);
    // A problem about a missing key of the document itself marks nothing rather than everything.
    if (span && (p !== '' || pointer === '')) return { start: span.keyStart ?? span.start, end: span.end };
    if (p === '') return null;
  }
}

/**
 * Locates a { pointer, message } problem in an editor whose text parsed to `parsed`.
 * Returns the problem with { start, end, line, column } and, for a condition, { condition, index }.
 */
export function locate(problem, parsed, text) {
  const out = { ...problem };
  if (parsed?.ok && problem.pointer !== undefined) {
    const value = valueAt(parsed.value, problem.pointer);
    const error = /\/when$/.test(problem.pointer) ? conditionError(value) : null;
    if (error) {
      out.condition = value;
      out.index = error.index;
      out.start = parsed.offsetInString(problem.pointer, error.index);
      out.end = out.start + 1;
    } else {
      const span = spanOf(parsed, problem.pointer);
      if (span) Object.assign(out, { start: span.start, end: span.end });
    }
  }
  if (out.start !== undefined && out.start !== null) Object.assign(out, lineColumn(text, out.start));
  return out;
}

export function valueAt(root, pointer) {
  if (pointer === '') return root;
  let value = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** A condition with its offending character marked and a caret under it. */
export function caretSnippet(condition, index) {
  const lineStart = condition.lastIndexOf('\n', index - 1) + 1;
  const nl = condition.indexOf('\n', index);
  const line = condition.slice(lineStart, nl < 0 ? condition.length : nl);
  const col = index - lineStart;
  const bad = line.slice(col, col + 1);
  return h(
    'div.snippet',
    {},
    h('code.snippet-line', {}, line.slice(0, col), h('mark.error', {}, bad === '' ? ' ' : bad), line.slice(col + 1)),
    h('code.snippet-caret', { 'aria-hidden': 'true' }, h('span.pad', {}, line.slice(0, col)), '^ ', h('span.caret-note', {}, `column ${index + 1}`)),
  );
}

/** Renders located problems into `box` (hidden when there are none); a click selects the spot. */
/** @param {{ onSelect?: (problem: any) => void }} [options] */
export function renderProblems(box, problems, options = {}) {
  const { onSelect } = options;
  box.replaceChildren();
  box.hidden = problems.length === 0;
  if (problems.length === 0) return;
  const list = h('ul.problem-list');
  for (const p of problems) {
    const where = [h('span.problem-source', {}, p.source)];
    if (p.pointer !== undefined && p.pointer !== '') where.push(h('code.pointer', {}, p.pointer));
    if (p.line !== undefined) where.push(h('span.problem-loc', {}, `line ${p.line}, col ${p.column}`));
    const item = h(
      'li.problem',
      {
        class: p.severity === 'warning' ? 'warning' : '',
        'data-pointer': p.pointer,
        'data-index': p.index,
        'data-column': p.index !== undefined ? p.index + 1 : undefined,
      },
      h('div.problem-where', {}, where),
      h('div.problem-message', {}, p.message),
      p.condition !== undefined ? caretSnippet(p.condition, p.index) : null,
      p.detail ? h('div.problem-detail', {}, p.detail) : null,
    );
    if (p.start !== undefined && onSelect) {
      item.classList.add('clickable');
      item.title = 'Show it in the editor';
      item.addEventListener('click', () => onSelect(p));
    }
    list.append(item);
  }
  box.append(list);
}
