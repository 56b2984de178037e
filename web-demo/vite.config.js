// Builds the demo into web-demo/dist. `handoff-graph` resolves by package self-reference (this
// folder is inside the package, and has no package.json of its own), through the `browser`
// condition of its exports, exactly as for an application that installed it; the package's
// `new URL('./handoff-graph.wasm', import.meta.url)` (dist/handoff-graph.mjs) becomes a hashed asset.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
  server: { host: '127.0.0.1' },
});
