// @ts-check
// What js/api.js reads of the core's graph (an embind object), and what it keeps per node: types
// only. Here, not in api.js: a typedef is exported by its module, and api.js's exports are the
// package's (docs/architecture.md#typings).
/**
 * @import { DefinitionProblem, EdgeInfo } from './index.js'
 * @import { PathSteps } from './machine/definition.js'
 * @import { PathReaders } from './paths.js'
 */

/**
 * An error the core reports for an edge: a condition's syntax, a cycle, or another refusal.
 * @typedef {{ kind: string, message: string, index: number, cycle: string[] }} EdgeError
 */
/**
 * The core's graph (wasm/graph_bindings.cpp, an embind object).
 * @typedef {object} NativeGraph
 * @property {() => number} address
 * @property {(id: string, description: string) => { message: string } | null} addNode
 * @property {(from: string, to: string, when: string | undefined, description: string) => EdgeError | null} addEdge
 * @property {(id: string) => number} find the node's id, or -1
 * @property {(id: number) => EdgeInfo[]} outEdges
 * @property {(id: number) => PathSteps[]} routePaths
 * @property {() => string[]} nodeNames
 * @property {() => boolean} allowsCycles
 * @property {() => number} size
 * @property {() => boolean} isDag
 * @property {(from: number) => string[]} stringsSince
 * @property {(id: number, cells: number, first: number) => boolean[]} explain [evaluated, matched] per outgoing edge
 * @property {() => string} toJSON
 * @property {(text: string) => DefinitionProblem[] | null} loadJSON
 * @property {() => void} delete
 */
/**
 * What route() needs for a node (HandoffGraph's cache).
 * @typedef {{ id: number, paths: PathReaders, targets: string[], decide: (state: unknown) => number }} NodeRoute
 */

export {};
