// handoff-graph/router: the routing subset of handoff-graph on the smaller routing module. The
// classes are the full entry's; on the routing module HandoffGraph's toDag, toMermaid and toDot
// throw (the export renderers are not in it: import them from 'handoff-graph').
export {
  HandoffGraph,
  Condition,
  compileCondition,
  evaluateCondition,
  heapUsed,
  ConditionSyntaxError,
  CycleError,
  DefinitionError,
  GraphValidationError,
  MaxStepsError,
  MissingVariablesError,
  NoEdgeMatchedError,
  RecordingError,
} from './index.js';
export type {
  CompiledWasmModule,
  EdgeInfo,
  EdgeOptions,
  ExplainedEdge,
  Explanation,
  GraphDefinition,
  HandoffGraphOptions,
  InitOptions,
  NodeOptions,
  State,
  WasmSource,
} from './index.js';
import type { InitOptions } from './index.js';

/**
 * Loads the routing module (dist/handoff-graph-router.wasm) once; later calls return the same
 * promise. After the full entry's init() it resolves with the full module, which serves both.
 */
export function init(options?: InitOptions): Promise<void>;
