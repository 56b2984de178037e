// @ts-check
// Whether a value is a StateMachine, answered without importing js/machine.js: a Swarm checks its
// `workflows` option with it, so that an application that runs no workflow does not bundle the
// state machine's JavaScript (issue 21: the bundler leaves out what nothing imports). Every
// StateMachine the constructor makes, subclasses' included, is marked; nothing else is, not even
// an object made from StateMachine.prototype without the constructor.
/** @type {WeakSet<object>} */
const machines = new WeakSet();

/**
 * Marks `machine` as a StateMachine (its constructor calls this).
 * @param {object} machine
 * @returns {void}
 */
export function markStateMachine(machine) {
  machines.add(machine);
}

/**
 * Whether `value` was made by the StateMachine constructor.
 * @param {unknown} value
 * @returns {boolean}
 */
export function isStateMachine(value) {
  return machines.has(/** @type {object} a WeakSet answers false for any other value */ (value));
}
