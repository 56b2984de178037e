// Runs tests/vectors/handoffs.json against the JavaScript API (Node and Chromium both use it).
//
// A scenario's `validate` ({ variable: message }) is the host's state hook: it refuses any value of
// the variables it names with that message (tests/cpp/handoff_test.cpp does the same natively).

import { expectEqual } from './same.js';

export function runHandoffScenario(api, scenario) {
  let swarm;
  try {
    const refusals = scenario.validate ?? {};
    const validate = (key) => (Object.hasOwn(refusals, key) ? refusals[key] : true);
    swarm = new api.Swarm(scenario.swarm, scenario.validate === undefined ? undefined : { state: { validate } });
  } catch (error) {
    if (!scenario.problems || !(error instanceof api.DefinitionError)) throw error;
    expectEqual(error.problems.map((p) => p.pointer), scenario.problems, 'problems');
    return;
  }
  if (scenario.problems) throw new Error('expected definition problems, the swarm loaded');
  try {
    let session;
    scenario.ops.forEach((op, i) => {
      const where = `op ${i} (${op.op})`;
      switch (op.op) {
        case 'session': session = swarm.createSession({ variables: op.variables ?? {} }); break;
        case 'offered': expectEqual(swarm.offered(session), op.expect, where); break;
        case 'tools': expectEqual(swarm.tools(session, op.format), op.expect, where); break;
        case 'applyRules': expectEqual(swarm.applyRules(session), op.expect, where); break;
        case 'setVariables': Object.assign(session.variables, op.variables); break;
        case 'call': expectEqual(swarm.applyToolCall(session, { name: op.name, arguments: op.arguments }), op.expect, where); break;
        case 'state':
          expectEqual({ active: session.active, hops: session.hops, selections: session.selections, variables: session.variables }, op.expect, where);
          break;
        default: throw new Error(`${where}: unknown op`);
      }
    });
  } finally {
    swarm.dispose();
  }
}
