// @ts-check
// The one way JavaScript passes a string into WebAssembly memory: its UTF-8 bytes written where the
// core reserved room (a condition's source, js/condition-compile.js; a state's strings,
// js/state-writer.js), then a call with numbers only. Embind's std::string arguments are not used
// for anything JavaScript writes per decision or per compile (docs/architecture.md, "Strings into
// WebAssembly").

const encoder = new TextEncoder();

// ASCII strings up to this length are copied unit by unit, which is cheaper than the TextEncoder
// call for them; longer ones go to TextEncoder at once, whose copy is faster than the loop.
const COPY_LIMIT = 16;

/**
 * Writes `s` as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder does) into `u8` from `at`,
 * stopping at `end`, which must leave room for `s.length * 3` bytes; returns the bytes written.
 * They equal `s.length` exactly when `s` is ASCII.
 * @param {string} s
 * @param {Uint8Array} u8
 * @param {number} at
 * @param {number} end
 * @returns {number}
 */
export function writeUtf8(s, u8, at, end) {
  const length = s.length;
  if (length <= COPY_LIMIT) {
    let written = 0;
    for (; written < length; written++) {
      const c = s.charCodeAt(written);
      if (c >= 0x80) break;
      u8[at + written] = c;
    }
    if (written === length) return written;
  }
  return encoder.encodeInto(s, u8.subarray(at, end)).written;
}
