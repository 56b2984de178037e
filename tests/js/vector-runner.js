// Runs the shared vectors (tests/vectors/*.json) against the JavaScript API. Runtime-neutral: the
// Node suite and the Chromium page both import it and hand it the package they loaded.

import { expectEqual } from './same.js';

/** A case's condition: "condition", or "conditionRepeat" ([[text, count], ...]). */
export function conditionSource(c) {
  if (typeof c.condition === 'string') return c.condition;
  return c.conditionRepeat.map(([text, count]) => text.repeat(count)).join('');
}

function check(ok, message) {
  if (!ok) throw new Error(message);
}

function expectThrows(fn, what) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error(`${what}: expected an error, none was thrown`);
}

export function runConditionCase(api, c) {
  const source = conditionSource(c);
  if (c.error) {
    const error = expectThrows(() => api.compileCondition(source), 'compileCondition');
    check(error instanceof api.ConditionSyntaxError, `expected ConditionSyntaxError, got ${error}`);
    check(error instanceof SyntaxError, 'ConditionSyntaxError must extend SyntaxError');
    expectEqual(error.index, c.error.index, `index (${error.message})`);
    check(error.message.includes(c.error.message), `message "${error.message}" lacks "${c.error.message}"`);
    check(error.message.includes(`at column ${error.index + 1}`), `message "${error.message}" lacks its column`);
    check(error.condition === source, 'error.condition is not the source');
    return;
  }
  const condition = api.compileCondition(source);
  try {
    check(condition.source === source, 'condition.source is not the source');
    if (c.paths) expectEqual([...condition.paths], c.paths, 'paths');
    c.checks.forEach(([state, expected], i) => {
      expectEqual(condition.evaluate(state), expected, `check ${i} on ${JSON.stringify(state).slice(0, 200)}`);
    });
  } finally {
    condition.dispose();
  }
}

function expectEdgeError(api, fn, expected) {
  const error = expectThrows(fn, 'addEdge');
  if (expected.kind === 'syntax') {
    check(error instanceof api.ConditionSyntaxError, `expected ConditionSyntaxError, got ${error}`);
    expectEqual(error.index, expected.index, `syntax error index (${error.message})`);
  } else if (expected.kind === 'cycle') {
    check(error instanceof api.CycleError, `expected CycleError, got ${error}`);
    expectEqual(error.cycle, expected.cycle, 'cycle');
  } else {
    check(error instanceof TypeError, `expected TypeError, got ${error}`);
  }
}

export function runGraphScenario(api, scenario) {
  let graph = new api.HandoffGraph({ onCycle: scenario.onCycle ?? 'error' });
  try {
    scenario.ops.forEach((op, i) => {
      const where = `op ${i} (${op.op})`;
      switch (op.op) {
        case 'addEdge': {
          const options = op.description === undefined ? op.when : { when: op.when, description: op.description };
          if (op.error) expectEdgeError(api, () => graph.addEdge(op.from, op.to, options), op.error);
          else check(graph.addEdge(op.from, op.to, options) === graph, `${where}: addEdge must return the graph`);
          break;
        }
        case 'addNode': {
          const options = op.description === undefined ? undefined : { description: op.description };
          if (op.error) expectEdgeError(api, () => graph.addNode(op.id, options), op.error);
          else check(graph.addNode(op.id, options) === graph, `${where}: addNode must return the graph`);
          break;
        }
        case 'route':
          expectEqual(graph.route(op.node, op.state), op.expect, `${where} route(${op.node})`);
          break;
        case 'explain':
          expectEqual(graph.explain(op.node, op.state), op.expect, `${where} explain(${op.node})`);
          break;
        case 'nodes':
          expectEqual(graph.nodes(), op.expect, `${where} nodes()`);
          break;
        case 'edges':
          expectEqual(graph.edges(op.node), op.expect, `${where} edges(${op.node})`);
          break;
        case 'hasNode':
          expectEqual(graph.hasNode(op.id), op.expect, `${where} hasNode(${op.id})`);
          break;
        case 'size':
          expectEqual(graph.size, op.expect, `${where} size`);
          break;
        case 'isDag':
          expectEqual(graph.isDag(), op.expect, `${where} isDag()`);
          break;
        case 'roundTrip': {
          const saved = graph.toJSON();
          const fromObject = api.HandoffGraph.fromJSON(saved);
          const fromText = api.HandoffGraph.fromJSON(JSON.stringify(saved));
          expectEqual(fromObject.toJSON(), saved, `${where} toJSON after fromJSON`);
          expectEqual(fromText.toJSON(), saved, `${where} toJSON after fromJSON(text)`);
          expectEqual(fromObject.onCycle, graph.onCycle, `${where} onCycle`);
          fromText.dispose();
          graph.dispose();
          graph = fromObject;
          break;
        }
        default:
          throw new Error(`${where}: unknown op`);
      }
    });
  } finally {
    graph.dispose();
  }
}
