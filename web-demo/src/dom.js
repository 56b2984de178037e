// A tiny DOM helper: h('div.class#id', { attrs, on: { click } }, ...children).

export function h(tag, props = {}, ...children) {
  // 'section.panel#rules': a tag, classes, and an optional #id at the end.
  const [head, id] = tag.split('#');
  const [name, ...classes] = head.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length > 0) el.className = classes.join(' ');
  if (id) el.id = id;
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    // data-* and aria-* take "true"/"false" as text; other attributes are present or absent.
    if (/^(data|aria)-/.test(key)) {
      el.setAttribute(key, String(value));
      continue;
    }
    if (value === false) continue;
    if (key === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (key === 'text') el.textContent = value;
    else if (key === 'class') el.className = [el.className, value].filter(Boolean).join(' ');
    else if (key === 'testid') el.dataset.testid = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Calls fn at most once per animation frame, with the latest arguments. */
export function coalesce(fn) {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      fn();
    });
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** JSON for display: short values on one line. */
export function compact(value) {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text;
}
