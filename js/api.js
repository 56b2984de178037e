// @ts-check
// The public API (api.md): HandoffGraph and conditions, adapted to JavaScript idioms. Decisions
// live in the C++ core; this file checks argument types, turns core errors into the documented
// error classes, owns disposal, and keeps the per-node routing data the marshaller needs.
import { checkReport } from './check-symbol.js';
import { definitionText } from './definition-json.js';
import { ConditionSyntaxError, CycleError, DefinitionError } from './errors.js';
import { exportGraph } from './export-slot.js';
import { adopt, disposable, disposedError, inspectSymbol, release } from './lifetime.js';
import { checkOptions, edgeArguments, requireArguments } from './options.js';
import { StandaloneHandle, compileStandalone, describeStandalone, nodeTextLevels } from './condition-compile.js';
import { PathReaders, StringIds } from './paths.js';
import { requireRuntime } from './runtime.js';
import { compileDecider } from './state-writer.js';
import { describe, wellFormed } from './text.js';

/**
 * @import {
 *   CheckReport, DagModel, DefinitionProblem, EdgeInfo, EdgeOptions, ExportOptions, Explanation, GraphDefinition,
 *   HandoffGraphOptions, MermaidOptions, NodeOptions, State,
 * } from './index.js'
 * @import { PathSteps } from './machine/definition.js'
 * @import { NativeGraph, NodeRoute } from './native-graph.js'
 */


/**
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
function requireNodeId(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string node id, got ${describe(value)}`);
  return wellFormed(value);
}

/**
 * @param {{ index: number, message: string }} error
 * @param {string} source
 * @param {{ from: string, to: string }} [edge]
 * @returns {ConditionSyntaxError}
 */
function syntaxError(error, source, edge) {
  return new ConditionSyntaxError(error.message, { condition: source, index: error.index, edge });
}

// Node id → what route() needs for it. A graph is usually routed from the same node many times
// in a row, so the last one found is remembered; deleting any entry (a node gained an edge) or
// clearing forgets it.
/** @extends {Map<string, NodeRoute>} */
class RouteCache extends Map {
  /** @type {string | null} */
  #lastNode = null;
  /** @type {NodeRoute | undefined} */
  #lastRoute = undefined;

  /**
   * @param {string} node
   * @returns {NodeRoute | undefined}
   */
  lookup(node) {
    if (node === this.#lastNode) return this.#lastRoute;
    const route = this.get(node);
    if (route !== undefined) {
      this.#lastNode = node;
      this.#lastRoute = route;
    }
    return route;
  }

  /**
   * @param {string} node
   * @returns {boolean}
   */
  delete(node) {
    this.#lastNode = null;
    this.#lastRoute = undefined;
    return super.delete(node);
  }

  clear() {
    this.#lastNode = null;
    this.#lastRoute = undefined;
    super.clear();
  }
}

export class HandoffGraph {
  /** @type {NativeGraph | null} */
  #native = null;  // set by #adopt, which the constructor calls
  /** @type {number} */
  #address = 0;
  #ids = new StringIds();
  // node id → { id, paths, targets, decide }: what route() needs, built on first use, dropped when
  // the node gains an edge.
  #routes = new RouteCache();

  /** @param {HandoffGraphOptions} [options] */
  constructor(options) {
    const { onCycle = 'error' } = checkOptions(options, ['onCycle'], 'HandoffGraph options');
    if (onCycle !== 'error' && onCycle !== 'allow') {
      throw new TypeError(`onCycle must be 'error' or 'allow', got ${describe(onCycle)}`);
    }
    this.#adopt(new (requireRuntime().module.HandoffGraph)(onCycle === 'allow'));
  }

  /** @param {NativeGraph} native */
  #adopt(native) {
    this.#native = native;
    this.#address = native.address();
    this.#routes.clear();
    this.#ids.clear();
    this.#ids.learn(native.stringsSince(0));
    adopt(this, native);
  }

  /** @returns {NativeGraph} */
  get #live() {
    if (this.#native === null) throw disposedError('HandoffGraph');
    return this.#native;
  }

  /**
   * 'error' (an edge that would close a cycle throws CycleError) or 'allow'.
   * @returns {'error' | 'allow'}
   */
  get onCycle() {
    return this.#live.allowsCycles() ? 'allow' : 'error';
  }

  // The core is routing on this graph and a getter or Proxy trap of the state called a method
  // that would change it: refused, since the route under way reads the graph (lazy reading).
  /** @param {string} what */
  #requireIdle(what) {
    if (requireRuntime().writer.inCall(this.#address)) {
      throw new Error(`${what}: this graph is routing a state whose getter or Proxy trap called it; change it after route() returns`);
    }
  }

  /**
   * Adds node `id`.
   * @overload
   * @param {string} id
   * @param {NodeOptions} [options]
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} id
   * @param {NodeOptions} [options]
   * @returns {this}
   */
  addNode(id, options) {
    const native = this.#live;
    this.#requireIdle('addNode');
    requireArguments(arguments.length, ['id'], 'addNode(id, options?)');
    id = requireNodeId(id, 'addNode(id)');
    const { description = '' } = checkOptions(options, ['description'], 'addNode options');
    if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
    const error = native.addNode(id, wellFormed(description));
    if (error !== null) throw new TypeError(error.message);
    return this;
  }

  /**
   * Adds an edge from `from` to `to`, taken when the condition `when` holds (always without one).
   * @overload
   * @param {string} from
   * @param {string} to
   * @param {string | null | EdgeOptions} [when]
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} from
   * @param {string} to
   * @param {string | null | EdgeOptions} [when]
   * @returns {this}
   */
  addEdge(from, to, when) {
    const native = this.#live;
    this.#requireIdle('addEdge');
    requireArguments(arguments.length, ['from', 'to'], 'addEdge(from, to, when?)');
    from = requireNodeId(from, 'addEdge(from)');
    to = requireNodeId(to, 'addEdge(…, to)');
    const { source, description } = edgeArguments(when);
    const conditional = typeof source === 'string';
    const error = native.addEdge(from, to, conditional ? wellFormed(source) : undefined, wellFormed(description));
    if (error !== null) {
      // A syntax error is the condition's, so there is one.
      if (error.kind === 'syntax') throw syntaxError(error, /** @type {string} */ (source), { from, to });
      if (error.kind === 'cycle') throw new CycleError(error.message, { from, to, cycle: error.cycle });
      throw new TypeError(`addEdge(${JSON.stringify(from)}, ${JSON.stringify(to)}): ${error.message}`);
    }
    this.#routes.delete(from);
    this.#ids.learn(native.stringsSince(this.#ids.size));
    return this;
  }

  /**
   * @param {string} node
   * @returns {NodeRoute | null}
   */
  #route(node) {
    let route = this.#routes.lookup(node);
    if (route === undefined) {
      const id = this.#live.find(wellFormed(node));
      if (id < 0) return null;  // not cached: the node may be created later
      const { module, writer, route: coreRoute } = requireRuntime();
      const steps = /** @type {NativeGraph} */ (this.#native).routePaths(id);
      const paths = new PathReaders(steps, nodeTextLevels(module, this.#address, id, steps.length));
      const targets = /** @type {NativeGraph} */ (this.#native).outEdges(id).map((edge) => edge.to);
      const ids = this.#ids;
      const address = this.#address;
      route = {
        id,
        paths,
        targets,
        // One call: the core returns the winning edge's position, asking for each path's value
        // when it first needs it (the one it always reads first is written before the call).
        decide: compileDecider(writer, paths, ids, coreRoute, address, id, module._hg_node_first_read(address, id)),
      };
      this.#routes.set(node, route);
    }
    return route;
  }

  /**
   * The `to` of the first outgoing edge of `node` whose condition holds on `state`, or null.
   * @param {string} node
   * @param {State} [state]
   * @returns {string | null}
   */
  route(node, state) {
    if (this.#native === null) throw disposedError('HandoffGraph');
    if (typeof node !== 'string') requireNodeId(node, 'route(node)');
    const route = this.#route(node);
    if (route === null) return null;
    const index = route.decide(state);
    return index < 0 ? null : route.targets[index];
  }

  /**
   * What route() did on `state`, edge by edge.
   * @param {string} node
   * @param {State} [state]
   * @returns {Explanation}
   */
  explain(node, state) {
    const native = this.#live;
    node = requireNodeId(node, 'explain(node)');
    const route = this.#route(node);
    if (route === null) return { node, result: null, edges: [] };
    const runtime = requireRuntime();
    // Asked before the state is read: a getter may dispose the graph, which is freed once the
    // core call below returns.
    const outEdges = native.outEdges(route.id);
    // Read lazily as route() reads (the graph is in use meanwhile: writer.inCall), except that
    // the core asks for every path, in order, from the first.
    const flags = runtime.writer.route(state, route.paths, this.#ids, (_, id, cells, first) => native.explain(id, cells, first), this.#address, route.id, 0);
    const edges = outEdges.map((edge, index) => ({
      index,
      to: edge.to,
      when: edge.when,
      matched: flags[2 * index + 1],
      evaluated: flags[2 * index],
    }));
    const winner = edges.find((edge) => edge.matched);
    return { node, result: winner === undefined ? null : winner.to, edges };
  }

  /**
   * Every node id, sorted by code point.
   * @returns {string[]}
   */
  nodes() {
    return this.#live.nodeNames();
  }

  /**
   * `node`'s outgoing edges in insertion order; [] for an unknown node.
   * @param {string} node
   * @returns {EdgeInfo[]}
   */
  edges(node) {
    const native = this.#live;
    node = requireNodeId(node, 'edges(node)');
    const id = native.find(node);
    return id < 0 ? [] : native.outEdges(id).map(({ to, when }) => ({ to, when }));
  }

  /**
   * @param {string} id
   * @returns {boolean}
   */
  hasNode(id) {
    return this.#live.find(requireNodeId(id, 'hasNode(id)')) >= 0;
  }

  /** @returns {number} */
  get size() {
    return this.#live.size();
  }

  /**
   * Whether the graph has no cycle now.
   * @returns {boolean}
   */
  isDag() {
    return this.#live.isDag();
  }

  /**
   * check()'s report (js/check.js); the full module only.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @returns {CheckReport}
   */
  [checkReport]() {
    const { module } = requireRuntime();
    if (module.checkGraph === undefined) throw new Error("check() needs the full module: import it from 'handoff-graph', not 'handoff-graph/router'");
    return module.checkGraph(this.#live);
  }

  /**
   * The definition (docs/format.md): `HandoffGraph.fromJSON(g.toJSON())` rebuilds g.
   * @returns {GraphDefinition}
   */
  toJSON() {
    return JSON.parse(this.#live.toJSON());
  }

  /**
   * Builds a graph from a definition (an object or its JSON text); throws DefinitionError, also
   * for a value in the object that JSON cannot hold (definition-json.js).
   * @param {GraphDefinition | string} definition
   * @returns {HandoffGraph}
   */
  static fromJSON(definition) {
    const text = definitionText(definition);
    const graph = new HandoffGraph();
    const problems = /** @type {NativeGraph} */ (graph.#native).loadJSON(text);
    if (problems !== null) {
      graph.dispose();
      throw new DefinitionError(problems);
    }
    graph.#adopt(/** @type {NativeGraph} */ (graph.#native));
    return graph;
  }

  /**
   * The DAG model (docs/format.md); `trace` (routing hops or explain() results) marks fired edges.
   * @param {ExportOptions} [options]
   * @returns {DagModel}
   */
  toDag(options = {}) {
    return JSON.parse(exportGraph(this.#live, 'dag', options));
  }

  /**
   * Mermaid text: `kind` 'flowchart' (default) or 'state', `direction`, `highlight` (a trace).
   * @param {MermaidOptions} [options]
   * @returns {string}
   */
  toMermaid(options = {}) {
    return exportGraph(this.#live, 'mermaid', options);
  }

  /**
   * Graphviz DOT text; `highlight` (a trace) marks fired edges.
   * @param {ExportOptions} [options]
   * @returns {string}
   */
  toDot(options = {}) {
    return exportGraph(this.#live, 'dot', options);
  }

  /**
   * Frees the WebAssembly side (once no route on it is still reading a state, when a getter calls
   * this). Safe to call twice; any other use afterwards throws.
   * @returns {void}
   */
  dispose() {
    if (this.#native === null) return;
    const native = this.#native;
    requireRuntime().writer.release(this.#address, () => release(this, native));
    this.#native = null;
    this.#routes.clear();
  }

  /**
   * What console.log and util.inspect show: the nodes and edge counts, or that it is disposed.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {number} _depth
   * @param {object} options
   * @param {(value: unknown, options: object) => string} inspect
   * @returns {string}
   */
  [inspectSymbol](_depth, options, inspect) {
    if (this.#native === null) return 'HandoffGraph <disposed>';
    const nodes = this.nodes();
    const edges = nodes.reduce((sum, node) => sum + /** @type {NativeGraph} */ (this.#native).outEdges(/** @type {NativeGraph} */ (this.#native).find(node)).length, 0);
    const summary = { nodes, edges, onCycle: this.onCycle };
    return `HandoffGraph ${typeof inspect === 'function' ? inspect(summary, options) : JSON.stringify(summary)}`;
  }
}
disposable(HandoffGraph);

export class Condition {
  /** @type {StandaloneHandle | null} */
  #native;
  /** @type {number} */
  #address;
  /** @type {StringIds | null} */
  #ids = null;  // the interned strings' ids (StringIds), learnt with the paths on first use
  /** @type {string} */
  #source;
  /** @type {readonly string[] | null} */
  #pathTexts = null;
  /** @type {((state: unknown) => number) | null} */
  #decide = null;

  /**
   * Prefer compileCondition(source).
   * @param {string} source
   */
  constructor(source) {
    const runtime = requireRuntime();
    if (typeof source !== 'string') throw new TypeError(`a condition must be a string, got ${describe(source)}`);
    const compiled = compileStandalone(runtime.module, wellFormed(source));
    if (typeof compiled !== 'number') throw syntaxError(compiled, source);
    this.#native = new StandaloneHandle(runtime.module, compiled);
    this.#address = compiled;
    this.#source = source;
    adopt(this, this.#native);
  }

  // The paths and strings, fetched from the core on first use rather than by every compile.
  #describe() {
    if (this.#native === null) {
      // Disposed before anything asked: describe a fresh copy.
      const copy = new Condition(this.#source);
      this.#pathTexts = copy.paths;
      copy.dispose();
      return;
    }
    const runtime = requireRuntime();
    const { paths, texts, strings, levels } = describeStandalone(runtime.module, this.#address);
    this.#pathTexts = Object.freeze(texts);
    this.#ids = new StringIds();
    this.#ids.learn(strings);
    const evaluate = runtime.evaluate;
    const first = runtime.module._hg_condition_first_read(this.#address);
    this.#decide = compileDecider(runtime.writer, new PathReaders(paths, levels), this.#ids, (address, _, cells, at) => evaluate(address, cells, at), this.#address, 0, first);
  }

  /**
   * The original string.
   * @returns {string}
   */
  get source() {
    return this.#source;
  }

  /**
   * The state paths the condition reads, distinct, sorted by code point.
   * @returns {readonly string[]}
   */
  get paths() {
    if (this.#pathTexts === null) this.#describe();
    return /** @type {readonly string[]} #describe() set it */ (this.#pathTexts);
  }

  /**
   * Whether the condition holds on `state`; never throws for any state.
   * @param {State} [state]
   * @returns {boolean}
   */
  evaluate(state) {
    if (this.#native === null) throw disposedError('Condition');
    if (this.#decide === null) this.#describe();
    return /** @type {(state: unknown) => number} #describe() set it */ (this.#decide)(state) === 1;
  }

  /** @returns {void} */
  dispose() {
    if (this.#native === null) return;
    const native = this.#native;
    // Once no evaluation of it is still reading a state (a getter may dispose it meanwhile).
    requireRuntime().writer.release(this.#address, () => release(this, native));
    this.#native = null;
  }

  /**
   * What console.log and util.inspect show: the source and the paths it reads.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {number} _depth
   * @param {object} options
   * @param {(value: unknown, options: object) => string} inspect
   * @returns {string}
   */
  [inspectSymbol](_depth, options, inspect) {
    const summary = { paths: this.paths, disposed: this.#native === null };
    const shown = typeof inspect === 'function' ? inspect(summary, options) : JSON.stringify(summary);
    return `Condition ${JSON.stringify(this.#source)} ${shown}`;
  }
}
disposable(Condition);

/**
 * Parses `source` once; throws ConditionSyntaxError.
 * @overload
 * @param {string} source
 * @returns {Condition}
 */
/**
 * (One signature: it reads `arguments.length`, which tsc would otherwise declare as `...args: any[]`.)
 * @param {string} source
 * @returns {Condition}
 */
export function compileCondition(source) {
  requireArguments(arguments.length, ['source'], 'compileCondition(source)');
  return new Condition(source);
}

// evaluateCondition's cache: the most recently used compiled conditions, bounded so that a
// stream of distinct conditions cannot grow memory without limit.
const CACHE_SIZE = 256;
/** @type {Map<string, Condition>} */
const cache = new Map();

/**
 * Compiles (once, cached) and evaluates `source` on `state`.
 * @param {string} source
 * @param {State} [state]
 * @returns {boolean}
 */
export function evaluateCondition(source, state) {
  let condition = cache.get(source);
  if (condition === undefined) {
    condition = new Condition(source);
    if (cache.size >= CACHE_SIZE) {
      const [oldest, evicted] = /** @type {[string, Condition]} the cache is full */ (cache.entries().next().value);
      cache.delete(oldest);
      evicted.dispose();
    }
  } else {
    cache.delete(source);  // re-insert: Map order is recency order
  }
  cache.set(source, condition);
  return condition.evaluate(state);
}

/**
 * Bytes of WebAssembly heap in use (for leak checks).
 * @returns {number}
 */
export function heapUsed() {
  return requireRuntime().heapUsed();
}
