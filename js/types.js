// @ts-check
// Nothing at run time: the package's shapes are types only, declared in js/types.d.ts, which
// TypeScript reads in place of this file. js/index.js re-exports them (`export *`), so that the
// declarations emitted from it export them too (docs/architecture.md#typings).
export {};
