// @ts-check
// What a handler gets (ctx): the state, step and visit, its task, the revision of a revisit (and
// its feedback text, written by the core), and, in a handoff-enabled state, the transfers offered
// and ctx.transfer(), through which the handler chooses the next state (the core checks it).
import { describe, wellFormed } from '../text.js';
import { jsonText } from './json-text.js';
import { live } from './run-state.js';

/**
 * @import { HandlerContext as PublicHandlerContext, Revision, TransferOption } from '../index.js'
 * @import { ExecutionRecord, NativeExecution } from './run-state.js'
 */

/**
 * A handoff-enabled state's transfers offered now, and what ctx.transfer() calls.
 * @typedef {{ transfers: readonly TransferOption[], choose: (choice: string) => void }} Handoff
 */

/** @type {readonly TransferOption[]} */
const NO_TRANSFERS = Object.freeze([]);

/**
 * A handoff-enabled state's transfers offered now, as the core lists them, and the function
 * ctx.transfer() calls: the core takes the choice, or refuses it (a RangeError).
 */
/**
 * @param {ExecutionRecord} ex
 * @returns {Handoff}
 */
export function handoffOf(ex) {
  const native = /** @type {NativeExecution} the step under way's */ (ex.handle.native);
  /** @type {(choice: string) => void} */
  const choose = (choice) => {
    live(ex);
    const refused = native.chooseTransfer(wellFormed(choice));
    if (refused !== null) throw new RangeError(refused);
  };
  /** @type {TransferOption[]} */
  const offered = JSON.parse(native.transfers());
  return { transfers: Object.freeze(offered.map(/** @type {(t: TransferOption) => TransferOption} */ (Object.freeze))), choose };
}

/**
 * What a handler gets. Its own members are plain values fixed when the step begins; `feedback`
 * (the revision text for a model) is a getter, so that the core writes it only for handlers that
 * read it: it is made from values fixed then (the state's name, the visit, the previous update),
 * by the module's free function, which no disposal can free. (A getter on each object would cost
 * half a microsecond per step; on the class it costs nothing.)
 * @implements {PublicHandlerContext<Record<string, unknown>>}
 */
export class HandlerContext {
  /** @type {string} */
  #stateName;
  /** @type {number} */
  #visit;
  /** @type {unknown} */
  #previous;
  /** @type {{ revisionText(state: string, visit: number, prior: string): string } | null} */
  #module;
  /** @type {string | undefined} */
  #text;
  /** @type {((choice: string) => void) | null} */
  #choose;

  /**
   * @param {Record<string, unknown>} state
   * @param {number} step
   * @param {number} visit
   * @param {string} stateName
   * @param {AbortSignal | undefined} signal
   * @param {Revision | null} revision
   * @param {string | null} task
   * @param {{ revisionText(state: string, visit: number, prior: string): string }} module the core's module (its free function revisionText)
   * @param {Handoff | null} [handoff]
   */
  constructor(state, step, visit, stateName, signal, revision, task, module, handoff = null) {
    this.state = state;
    this.step = step;
    this.visit = visit;
    this.stateName = stateName;
    this.signal = signal;
    this.revision = revision;
    this.task = task;
    this.#stateName = stateName;
    this.#visit = visit;
    this.#previous = revision?.previous;
    this.#module = revision === null ? null : module;
    // A handoff-enabled state's transfers offered now (the core's list; [] once its handoffs are used up).
    this.transfers = handoff === null ? NO_TRANSFERS : handoff.transfers;
    this.#choose = handoff === null ? null : handoff.choose;
  }

  /**
   * Chooses the next state through a transfer (its tool name, as the model called it, or the
   * state's name): the step goes there instead of along the regular edges. The core refuses
   * (RangeError) a transfer not offered now.
   */
  /**
   * @param {string} choice
   * @returns {void}
   */
  transfer(choice) {
    if (typeof choice !== 'string') throw new TypeError(`transfer(choice): choice must be a transfer tool's name or a state's, got ${describe(choice)}`);
    if (this.#choose === null) throw new RangeError(`state '${this.stateName}' is not handoff-enabled: it offers no transfers`);
    this.#choose(choice);
  }

  /**
   * On a revisit with feedback: the prior visit's output, then the seed's sentence; else null.
   * @returns {string | null}
   */
  get feedback() {
    if (this.#module === null) return null;
    this.#text ??= this.#module.revisionText(this.#stateName, this.#visit, jsonText(this.#previous));
    return this.#text;
  }
}
