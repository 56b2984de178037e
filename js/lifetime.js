// @ts-check
// The lifetime of every JS object that owns a WebAssembly-side object (HandoffGraph, Condition,
// StateMachine, Execution, Swarm): one way to adopt it, to use it, to free it and to say it is gone.
//
// Each owner keeps its native object in one private field, set to null once disposed; that null
// is the only spelling of "disposed". A FinalizationRegistry frees the native side of an owner
// nobody disposed once the owner is collected (tree-sitter's finalization_registry.ts does the
// same); dispose() is still the way to free memory promptly.

export const disposeSymbol = Symbol.dispose ?? Symbol.for('nodejs.dispose');

/** The symbol Node's util.inspect (and console.log) looks up; a registered symbol, so no import. */
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * A WebAssembly-side object's JS handle (an embind object, or js/condition-compile.js's
 * StandaloneHandle): `delete()` frees it; PENDING marks one waiting to be registered.
 * @typedef {{ delete(): void, [PENDING]?: boolean }} Native
 */

const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((/** @type {Native} */ native) => {
        try {
          native.delete();
        } catch {
          // already gone
        }
      })
    : null;

// Owners adopted since the last flush are registered together in a microtask: an owner disposed
// before then (a condition compiled, used and disposed in one go) is never registered, which
// spares a register and an unregister, together several times the cost of a small compile. The
// registry would not free anything sooner: its callbacks run as tasks, after the code that
// adopted the owner has returned. `pending` holds owner, native, owner, native…; a native waiting
// there has PENDING set, cleared when it is registered or released.
const PENDING = Symbol('registration pending');
/** @type {(object | Native)[]} */
const pending = [];
let flushQueued = false;

function flush() {
  flushQueued = false;
  for (let i = 0; i < pending.length; i += 2) {
    const owner = pending[i];
    const native = /** @type {Native} */ (pending[i + 1]);
    if (native[PENDING] !== true) continue;  // released meanwhile
    native[PENDING] = false;
    /** @type {FinalizationRegistry<Native>} */ (registry).register(owner, native, owner);
  }
  pending.length = 0;
}

/**
 * Frees `native` when `owner` is collected without having been disposed.
 * @template {Native} N
 * @param {object} owner
 * @param {N} native
 * @returns {N}
 */
export function adopt(owner, native) {
  if (registry === null) return native;
  native[PENDING] = true;
  pending.push(owner, native);
  if (!flushQueued) {
    flushQueued = true;
    queueMicrotask(flush);
  }
  return native;
}

/**
 * Frees `native` now (the owner then sets its field to null).
 * @param {object} owner
 * @param {Native} native
 * @returns {void}
 */
export function release(owner, native) {
  if (native[PENDING] === true) {
    native[PENDING] = false;
    // The last adopted, as in compile-and-dispose loops: forgotten now, so the list stays short.
    if (pending[pending.length - 1] === native) {
      pending.pop();  // pop, not a length store, which V8 makes a runtime call
      pending.pop();
    }
  } else {
    registry?.unregister(owner);
  }
  native.delete();
}

/**
 * The error every use of a disposed owner throws.
 * @param {string} what
 * @returns {Error}
 */
export function disposedError(what) {
  return new Error(`this ${what} has been disposed; create a new one`);
}

/**
 * What console.log and util.inspect show of an owner: `label`, then `summary` as util.inspect
 * formats it (it passes its own `inspect` and `options`), or as JSON elsewhere.
 * @param {string} label
 * @param {unknown} summary
 * @param {object} options
 * @param {(value: unknown, options: object) => string} inspect
 * @returns {string}
 */
export function inspection(label, summary, options, inspect) {
  return `${label} ${typeof inspect === 'function' ? inspect(summary, options) : JSON.stringify(summary)}`;
}

/**
 * Gives `Class` `[Symbol.dispose]()` (for `using`), delegating to its dispose(). Classes call this
 * once, so the disposal protocol is written in one place.
 * @template {abstract new (...args: any) => { dispose(): void }} C
 * @param {C} Class
 * @returns {C}
 */
export function disposable(Class) {
  Object.defineProperty(Class.prototype, disposeSymbol, {
    /** @this {{ dispose(): void }} */
    value() {
      this.dispose();
    },
    writable: true,
    configurable: true,
  });
  return Class;
}
