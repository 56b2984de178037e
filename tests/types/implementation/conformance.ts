// Each class of js/ typed in JSDoc fits its declaration in js/index.d.ts: an error here is a
// signature of the JavaScript that differs from the published one, until index.d.ts is emitted
// from the JavaScript (docs/architecture.md#typings). Compared: the members a user sees, not the
// package's own symbols (check's report, util.inspect, replay's twin, createMcpServer's hooks).
// Condition, Execution and Swarm are compared both ways, and the entries' init() and the functions
// of js/api.js (their parameters, where they return a class). HandoffGraph and StateMachine one
// way (the class fits the declaration): their methods return `this` (or an Execution), whose
// private fields the declaration lacks; their static fromJSON's parameters both ways, and
// HandoffGraph's methods' parameters both ways (Calls).
import type * as Published from '../../../js/index.js';
import type * as PublishedRouter from '../../../js/router.js';
import type { Condition, HandoffGraph, compileCondition, evaluateCondition, heapUsed } from '../../../js/api.js';
import type { check } from '../../../js/check.js';
import type { init as NodeInit } from '../../../js/node.js';
import type { init as RouterInit } from '../../../js/router-node.js';
import type { StateMachine } from '../../../js/machine.js';
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
  Holds<Both<typeof NodeInit, typeof Published.init>>,
  Holds<Both<typeof RouterInit, typeof PublishedRouter.init>>,
  Holds<Fits<Public<StateMachine<S>>, Public<Published.StateMachine<S>>>>,
  Holds<Both<Parameters<typeof StateMachine.fromJSON<S>>, Parameters<typeof Published.StateMachine.fromJSON<S>>>>,
  Holds<Fits<ReturnType<typeof StateMachine.fromJSON<S>>, Published.StateMachine<S>>>,
  Holds<Both<Public<Execution<S>>, Public<Published.Execution<S>>>>,
  Holds<Both<Public<Swarm>, Public<Published.Swarm>>>,
  Holds<Both<Parameters<typeof Swarm.fromJSON>, Parameters<typeof Published.Swarm.fromJSON>>>,
  Holds<Fits<ReturnType<typeof Swarm.fromJSON>, Published.Swarm>>,
  Holds<Fits<HandlerContext, Published.HandlerContext<Record<string, unknown>>>>,
];
