// The chat page of examples/chat-ui, served by Vite: `npx vite examples/chat-ui` (development) or
// `npx vite build examples/chat-ui && npx vite preview examples/chat-ui`. Both pass /chat on to
// the served swarm (HANDOFF_GRAPH_URL, default http://127.0.0.1:8787, where
// `npx handoff-graph serve` listens), so the page and its API share one origin.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const target = process.env.HANDOFF_GRAPH_URL ?? 'http://127.0.0.1:8787';
const proxy = { '/chat': { target, changeOrigin: true } };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', proxy },
  preview: { host: '127.0.0.1', proxy },
});
