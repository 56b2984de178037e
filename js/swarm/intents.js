// @ts-check
// Queued intents (SwarmForge's; options.extractIntents): one input carrying several intents,
// answered one after another, each as a turn would answer it.
import { checkOptions } from '../options.js';
import { describe } from '../text.js';
import { clone, isRecord } from '../values.js';
import { finish } from './checkpoints.js';
import { converse } from './conversation.js';
import { guard, tripGuardrail } from './guardrails.js';
import { rules } from './routing.js';
import { change } from './variables.js';

/**
 * @import { IntentAnswer, Session, SwarmEvent } from '../index.js'
 * @import { Ending } from './checkpoints.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { Turn } from './turn-options.js'
 */

/** @typedef {{ text: string, variables: Record<string, unknown> }} QueuedIntent An intent of the input, checked. */

// Queued intents: each { text, variables }, or null when the input is one intent.
/**
 * @param {unknown} given what options.extractIntents returned
 * @returns {QueuedIntent[] | null}
 */
export function checkIntents(given) {
  if (given === undefined || given === null) return null;
  if (!Array.isArray(given)) throw new TypeError(`options.extractIntents must return an array of intents (strings or { text, variables }), null or undefined, got ${describe(given)}`);
  if (given.length === 0) return null;
  return given.map((intent, i) => {
    if (typeof intent === 'string') return { text: intent, variables: {} };
    /** @type {{ text?: unknown, variables?: unknown }} */
    const { text, variables = {} } = checkOptions(intent, ['text', 'variables'], `intent ${i}`);
    if (typeof text !== 'string') throw new TypeError(`intent ${i}: text must be a string, got ${describe(text)}`);
    if (!isRecord(variables)) throw new TypeError(`intent ${i}: variables must be an object, got ${describe(variables)}`);
    return { text, variables };
  });
}

/**
 * Queued intents (SwarmForge's): one input carrying several intents, answered one after another.
 * Each intent in turn: an `intent` event, its variables merged (as extractVariables' are), the
 * rules applied, the active agent's input guardrails, the intent's text as the user message, and
 * model calls until that agent answers (maxModelCalls each). An intent that ends otherwise (a
 * pause for an approval, a guardrail, the budget) ends the turn: `done.queued` holds the intents
 * not started. `done.text` is the answers joined by a blank line; `done.answers` has each.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} input
 * @param {QueuedIntent[]} intents
 * @param {number} checkpointsBefore
 * @param {Turn} options
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
export async function* answerIntents(sw, session, input, intents, checkpointsBefore, options) {
  /** @type {IntentAnswer[]} */
  const answers = [];
  /** @type {Ending} */
  let end = { text: '', reason: 'answered' };
  for (const [index, intent] of intents.entries()) {
    yield { type: 'intent', index, count: intents.length, text: intent.text, variables: clone(intent.variables) };
    if (Object.keys(intent.variables).length > 0) {
      const changed = change(sw, session, intent.variables, 'intent');
      if (!changed.ok) yield { type: 'state_rejected', source: 'intent', key: changed.key, message: changed.message };
    }
    yield* rules(sw, session, options.trace);
    const tripped = await guard(sw, 'input', session.active, intent.text, session, input);
    if (tripped !== null) {
      end = yield* tripGuardrail(session, tripped);
    } else {
      session.histories[session.active].push({ role: 'user', content: intent.text });
      end = yield* converse(sw, session, intent.text, '', options);
      answers.push({ index, intent: intent.text, agent: session.active, text: end.text, reason: end.reason });
      yield { type: 'intent_done', index, agent: session.active, text: end.text, reason: end.reason };
    }
    if (end.reason !== 'answered') {
      end = { ...end, queued: intents.slice(index + 1).map((i) => i.text) };
      break;
    }
  }
  const text = answers.filter((a) => a.text.length > 0).map((a) => a.text).join('\n\n');
  yield* finish(session, checkpointsBefore, options, { queued: [], ...end, text, answers });
}
