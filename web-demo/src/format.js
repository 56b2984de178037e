// Pretty JSON that keeps small objects and arrays on one line, so that an edge is one line.
function flat(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => flat(x) ?? 'null').join(', ')}]`;
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${flat(v[k])}`).join(', ')}}`;
}

/** A small state on one line, a larger one pretty-printed. */
export function formatState(value) {
  const one = flat(value);
  return one.length <= 72 ? one : formatJSON(value);
}

export function formatJSON(value, width = 96) {
  const out = (v, indent, depth) => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    const one = flat(v);
    if (depth > 0 && one.length + indent.length <= width) return one;
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((x) => inner + (out(x, inner, depth + 1) ?? 'null')).join(',\n')}\n${indent}]`;
    }
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${out(v[k], inner, depth + 1)}`).join(',\n')}\n${indent}}`;
  };
  return out(value, '', 0);
}
