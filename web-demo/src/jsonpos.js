// JSON with positions: JSON.parse gives the value; this scanner gives, for every JSON pointer, where
// its value (and key) sits in the text, so that problems reported by pointer (DefinitionError) can be
// marked in the editor, and where a syntax error is, which JSON.parse does not say reliably.

class JSONPositionError extends Error {
  constructor(message, offset) {
    super(message);
    this.offset = offset;
  }
}

const escapeToken = (key) => key.replaceAll('~', '~0').replaceAll('/', '~1');

function scan(text) {
  const spans = new Map();  // pointer -> { start, end, keyStart?, keyEnd? }
  let i = 0;
  const fail = (message, at = i) => {
    throw new JSONPositionError(message, Math.min(at, text.length));
  };
  const describe = (at) => (at >= text.length ? 'end of input' : `'${text[at]}'`);
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = () => {
    const start = i;
    i++;  // the opening quote
    while (true) {
      if (i >= text.length) fail('unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in a string (write \\n, \\t)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail('invalid escape');
      } else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = (pointer) => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') i++;
      else {
        const seen = new Set();
        while (true) {
          ws();
          if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe(i)}`);
          const keyStart = i;
          const key = string();
          const keyEnd = i;
          ws();
          if (text[i] !== ':') fail(`expected ':' after the property name, found ${describe(i)}`);
          i++;
          const child = `${pointer}/${escapeToken(key)}`;
          value(child);
          if (!seen.has(key)) Object.assign(spans.get(child), { keyStart, keyEnd });
          seen.add(key);
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          fail(`expected ',' or '}', found ${describe(i)}`);
        }
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') i++;
      else {
        for (let n = 0; ; n++) {
          value(`${pointer}/${n}`);
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          fail(`expected ',' or ']', found ${describe(i)}`);
        }
      }
    } else if (c === '"') string();
    else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m || m[0] === '-') fail('invalid number');
      i += m[0].length;
    } else {
      const word = /^(true|false|null)\b/.exec(text.slice(i));
      if (!word) fail(c === "'" ? "strings take double quotes in JSON" : `expected a value, found ${describe(i)}`);
      i += word[0].length;
    }
    spans.set(pointer, { start, end: i });
  };
  value('');
  ws();
  if (i < text.length) fail(`unexpected ${describe(i)} after the end of the value`);
  return spans;
}

/** Line and column (both 1-based) of an offset in text. */
export function lineColumn(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Parses text. Success: { ok: true, value, span(pointer), offsetInString(pointer, index) }.
 * Failure: { ok: false, message, offset }.
 */
export function parseJSON(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    try {
      scan(text);
    } catch (located) {
      if (located instanceof JSONPositionError) return { ok: false, message: located.message, offset: located.offset };
    }
    return { ok: false, message: String(error.message), offset: 0 };
  }
  let spans = null;
  const spansOf = () => (spans ??= scan(text));
  return {
    ok: true,
    value,
    /** Where the value at pointer is: { start, end, keyStart?, keyEnd? } or null. */
    span: (pointer) => spansOf().get(pointer) ?? null,
    /** The text offset of code unit `index` of the string at pointer (escapes counted right). */
    offsetInString(pointer, index) {
      const span = spansOf().get(pointer);
      if (!span || text[span.start] !== '"') return null;
      let at = span.start + 1;
      for (let n = 0; n < index && at < span.end - 1; n++) at += text[at] !== '\\' ? 1 : text[at + 1] === 'u' ? 6 : 2;
      return at;
    },
  };
}

export const pointerOf = (...tokens) => tokens.map((t) => `/${escapeToken(String(t))}`).join('');
