// What every object owning WebAssembly memory shares: the dispose symbol, and a safety net that
// frees the WebAssembly side when a JS wrapper nobody disposed is collected (tree-sitter's
// finalization_registry.ts does the same).

export const disposeSymbol = Symbol.dispose ?? Symbol.for('nodejs.dispose');

export const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((native) => {
        try {
          native.delete();
        } catch {
          // already gone
        }
      })
    : null;
