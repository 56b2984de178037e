// @ts-check
// The one way js/check.js reaches the core object of a StateMachine or a Swarm: each class has a
// method under this symbol that returns the core's check() report (src/check/check.h). A symbol
// the package does not export, so the method is not part of either class's API.
export const checkReport = Symbol('handoff-graph check report');
