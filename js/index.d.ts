// Type declarations for handoff-graph (hand-written: Emscripten 3.1.6 has no --emit-tsd).
// Checked by `tsc --strict` against tests/types/usage.ts.

/** Where the WebAssembly module comes from; by default the .wasm beside the package's JS. */
export type WasmSource = URL | string | ArrayBuffer | Uint8Array | WebAssembly.Module;

export interface InitOptions {
  wasm?: WasmSource;
}

/** Loads and instantiates the WebAssembly module once; later calls return the same promise. */
export function init(options?: InitOptions): Promise<void>;

/** A JSON-like state; only the paths a condition names are ever read. */
export type State = unknown;

export interface HandoffGraphOptions {
  /** 'error' (default): an edge that would close a cycle throws CycleError. */
  onCycle?: 'error' | 'allow';
}

export interface EdgeOptions {
  when?: string | null;
  description?: string;
}

export interface NodeOptions {
  description?: string;
}

export interface EdgeInfo {
  to: string;
  /** The condition as written, or null for an unconditional edge. */
  when: string | null;
}

export interface ExplainedEdge extends EdgeInfo {
  index: number;
  matched: boolean;
  /** false for the edges after the winner: routing stopped before them. */
  evaluated: boolean;
}

export interface Explanation {
  node: string;
  result: string | null;
  edges: ExplainedEdge[];
}

export interface GraphDefinition {
  format: 'handoff-graph';
  version: 1;
  onCycle?: 'error' | 'allow';
  nodes?: Array<{ id: string; description?: string }>;
  edges?: Array<{ from: string; to: string; when?: string | null; description?: string }>;
}

export class HandoffGraph {
  constructor(options?: HandoffGraphOptions);
  readonly onCycle: 'error' | 'allow';
  readonly size: number;
  addNode(id: string, options?: NodeOptions): this;
  addEdge(from: string, to: string, when?: string | null | EdgeOptions): this;
  route(node: string, state?: State): string | null;
  explain(node: string, state?: State): Explanation;
  nodes(): string[];
  edges(node: string): EdgeInfo[];
  hasNode(id: string): boolean;
  isDag(): boolean;
  toJSON(): GraphDefinition;
  static fromJSON(definition: GraphDefinition | string): HandoffGraph;
  dispose(): void;
  [Symbol.dispose](): void;
}

export class Condition {
  /** Prefer compileCondition(source). */
  constructor(source: string);
  readonly source: string;
  /** The state paths the condition reads, distinct, sorted by code point. */
  readonly paths: readonly string[];
  evaluate(state?: State): boolean;
  dispose(): void;
  [Symbol.dispose](): void;
}

export function compileCondition(source: string): Condition;
export function evaluateCondition(source: string, state?: State): boolean;
/** Bytes of WebAssembly heap in use, for leak checks. */
export function heapUsed(): number;

export class ConditionSyntaxError extends SyntaxError {
  constructor(message: string, details: { condition: string; index: number });
  readonly condition: string;
  /** 0-based offset of the offending character in `condition`, in UTF-16 code units. */
  readonly index: number;
}

export class CycleError extends Error {
  constructor(message: string, details: { from: string; to: string; cycle: string[] });
  readonly from: string;
  readonly to: string;
  /** The node ids of the cycle the edge would close, first and last equal. */
  readonly cycle: string[];
}

export interface DefinitionProblem {
  /** JSON pointer of the value at fault, e.g. "/edges/3/when". */
  pointer: string;
  message: string;
}

export class DefinitionError extends Error {
  constructor(problems: DefinitionProblem[]);
  readonly problems: DefinitionProblem[];
}

export interface ValidationProblem {
  code: string;
  message: string;
}

export class GraphValidationError extends Error {
  constructor(problems: ValidationProblem[]);
  readonly problems: ValidationProblem[];
}

export class MaxStepsError extends Error {
  constructor(message: string, run: unknown);
  readonly run: unknown;
}

export class NoEdgeMatchedError extends Error {
  constructor(message: string, details?: Record<string, unknown>);
}
