// Each class of js/ typed in JSDoc fits its declaration in js/index.d.ts: an error here is a
// signature of the JavaScript that differs from the published one, until index.d.ts is emitted
// from the JavaScript (docs/architecture.md#typings). Compared: the members a user sees, not the
// package's own symbols (check's report, util.inspect, replay's twin, createMcpServer's hooks).
// Condition, Execution and Swarm are compared both ways, and the entries' init() and the functions
// of js/api.js (their parameters, where they return a class). HandoffGraph and StateMachine one
// way (the class fits the declaration): their methods return `this` (or an Execution), whose
// private fields the declaration lacks; their static fromJSON's parameters both ways, and
// HandoffGraph's methods' parameters both ways (Calls). The errors and END too (below).
import type * as Published from '../../../js/index.js';
import type * as PublishedRouter from '../../../js/router.js';
import type { Condition, HandoffGraph, compileCondition, evaluateCondition, heapUsed } from '../../../js/api.js';
import type { check } from '../../../js/check.js';
import type * as Errors from '../../../js/errors.js';
import type { init as NodeInit } from '../../../js/node.js';
import type { init as RouterInit } from '../../../js/router-node.js';
import type * as RouterEntry from '../../../js/router-node.js';
import type * as NodeEntry from '../../../js/node.js';
import type { END, StateMachine } from '../../../js/machine.js';
import type { Execution } from '../../../js/machine/execution.js';
import type { HandlerContext } from '../../../js/machine/handler-context.js';
import type { Swarm } from '../../../js/swarm.js';

// [Symbol.dispose] is added at run time by js/lifetime.js disposable(), which JSDoc cannot
// declare; index.d.ts declares it (DisposableWhereDeclared). Said here, for these checks only.
declare module '../../../js/api.js' {
  interface HandoffGraph extends Published.DisposableWhereDeclared {}
  interface Condition extends Published.DisposableWhereDeclared {}
}
declare module '../../../js/machine.js' {
  interface StateMachine<S> extends Published.DisposableWhereDeclared {}
}
declare module '../../../js/machine/execution.js' {
  interface Execution<S> extends Published.DisposableWhereDeclared {}
}
declare module '../../../js/swarm.js' {
  interface Swarm extends Published.DisposableWhereDeclared {}
}

type Fits<A, B> = [A] extends [B] ? true : false;
type Both<A, B> = Fits<A, B> extends true ? Fits<B, A> : false;
type Holds<T extends true> = T;
// The members a user sees: named ones, and [Symbol.dispose].
type Public<T> = { [K in keyof T as K extends string | typeof Symbol.dispose ? K : never]: T[K] };
// What a caller passes: each method's parameters (its return aside), each property as it is.
type Calls<T> = { [K in keyof T]: T[K] extends (...args: infer P) => unknown ? P : T[K] };

type S = { topic: string; notes: string[]; score?: number };

export type Checks = [
  Holds<Fits<Public<HandoffGraph>, Public<Published.HandoffGraph>>>,
  Holds<Both<Calls<Public<HandoffGraph>>, Calls<Public<Published.HandoffGraph>>>>,
  Holds<Both<ConstructorParameters<typeof HandoffGraph>, ConstructorParameters<typeof Published.HandoffGraph>>>,
  Holds<Both<Parameters<typeof HandoffGraph.fromJSON>, Parameters<typeof Published.HandoffGraph.fromJSON>>>,
  Holds<Fits<ReturnType<typeof HandoffGraph.fromJSON>, Published.HandoffGraph>>,
  Holds<Both<Public<Condition>, Public<Published.Condition>>>,
  Holds<Both<ConstructorParameters<typeof Condition>, ConstructorParameters<typeof Published.Condition>>>,
  Holds<Both<Parameters<typeof compileCondition>, Parameters<typeof Published.compileCondition>>>,
  Holds<Fits<ReturnType<typeof compileCondition>, Published.Condition>>,
  Holds<Both<typeof evaluateCondition, typeof Published.evaluateCondition>>,
  Holds<Both<typeof heapUsed, typeof Published.heapUsed>>,
  Holds<Fits<typeof check, typeof Published.check>>,
  Holds<Both<typeof END, typeof Published.END>>,
  // The errors: both ways where the two agree. ConditionSyntaxError's `edge` is set only when
  // there is one (the class fits the declaration's optional `edge`); MaxStepsError takes any object
  // as its run; NoEdgeMatchedError's fields come from Object.assign (docs/architecture.md#typings).
  Holds<Both<Public<Errors.CycleError>, Public<Published.CycleError>>>,
  Holds<Both<Public<Errors.DefinitionError>, Public<Published.DefinitionError>>>,
  Holds<Both<Public<Errors.GraphValidationError>, Public<Published.GraphValidationError>>>,
  Holds<Both<Public<Errors.MissingVariablesError>, Public<Published.MissingVariablesError>>>,
  Holds<Both<Public<Errors.RecordingError>, Public<Published.RecordingError>>>,
  Holds<Both<Public<Errors.MaxStepsError>, Public<Published.MaxStepsError>>>,
  Holds<Fits<Public<Errors.ConditionSyntaxError>, Public<Published.ConditionSyntaxError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.CycleError>, ConstructorParameters<typeof Published.CycleError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.DefinitionError>, ConstructorParameters<typeof Published.DefinitionError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.GraphValidationError>, ConstructorParameters<typeof Published.GraphValidationError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.MissingVariablesError>, ConstructorParameters<typeof Published.MissingVariablesError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.RecordingError>, ConstructorParameters<typeof Published.RecordingError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.ConditionSyntaxError>, ConstructorParameters<typeof Published.ConditionSyntaxError>>>,
  Holds<Both<ConstructorParameters<typeof Errors.NoEdgeMatchedError>, ConstructorParameters<typeof Published.NoEdgeMatchedError>>>,
  Holds<Fits<ConstructorParameters<typeof Published.MaxStepsError>, ConstructorParameters<typeof Errors.MaxStepsError>>>,
  Holds<Both<typeof NodeInit, typeof Published.init>>,
  Holds<Both<typeof RouterInit, typeof PublishedRouter.init>>,
  // Every value an entry exports is declared (router.d.ts once left out two of its errors).
  Holds<Fits<Exclude<keyof typeof RouterEntry, keyof typeof PublishedRouter>, never>>,
  Holds<Fits<Exclude<keyof typeof NodeEntry, keyof typeof Published>, never>>,
  Holds<Fits<Public<StateMachine<S>>, Public<Published.StateMachine<S>>>>,
  Holds<Both<Parameters<typeof StateMachine.fromJSON<S>>, Parameters<typeof Published.StateMachine.fromJSON<S>>>>,
  Holds<Fits<ReturnType<typeof StateMachine.fromJSON<S>>, Published.StateMachine<S>>>,
  Holds<Both<Public<Execution<S>>, Public<Published.Execution<S>>>>,
  Holds<Both<Public<Swarm>, Public<Published.Swarm>>>,
  Holds<Both<Parameters<typeof Swarm.fromJSON>, Parameters<typeof Published.Swarm.fromJSON>>>,
  Holds<Fits<ReturnType<typeof Swarm.fromJSON>, Published.Swarm>>,
  Holds<Fits<HandlerContext, Published.HandlerContext<Record<string, unknown>>>>,
];
