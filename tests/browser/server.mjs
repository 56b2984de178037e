// A tiny static file server for the browser tests (node:http only): serves a folder, by default
// the repository root, on 127.0.0.1 with a free port, the MIME types browsers insist on
// (application/wasm for streaming compilation, text/javascript for module scripts), and
// optionally a Content-Security-Policy header on every response.
//
//   const server = await start({ csp: "script-src 'self' 'wasm-unsafe-eval'" });
//   server.url;            // 'http://127.0.0.1:PORT/'
//   await server.close();
//
// `node tests/browser/server.mjs` serves the repository until Ctrl-C (for poking at page.html).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export function contentType(file) {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function plain(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${text}\n`);
}

/**
 * Starts serving `root` (default: the repository root).
 * @param {{ csp?: string, root?: string, headers?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, root: string, close: () => Promise<void> }>}
 */
export async function start({ csp, root = repoRoot, headers = {} } = {}) {
  const base = path.resolve(root);
  const extra = { ...headers };
  if (csp !== undefined) extra['Content-Security-Policy'] = csp;

  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return plain(res, 405, 'method not allowed');
      }
      let pathname;
      try {
        pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      } catch {
        return plain(res, 400, 'bad request');
      }
      if (pathname.includes('\0')) return plain(res, 400, 'bad request');
      let file = path.join(base, pathname);
      if (file !== base && !file.startsWith(base + path.sep)) return plain(res, 403, 'forbidden');
      let info = await stat(file);
      if (info.isDirectory()) {
        file = path.join(file, 'index.html');
        info = await stat(file);
      }
      if (!info.isFile()) return plain(res, 404, 'not found');
      res.writeHead(200, {
        'Content-Type': contentType(file),
        'Content-Length': info.size,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        ...extra,
      });
      if (req.method === 'HEAD') return res.end();
      const stream = createReadStream(file);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    } catch (error) {
      if (error?.code === 'ENOENT' || error?.code === 'ENOTDIR') return plain(res, 404, 'not found');
      if (!res.headersSent) return plain(res, 500, String(error));
      res.destroy();
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address();

  let closing = null;
  return {
    url: `http://127.0.0.1:${port}/`,
    root: base,
    close() {
      closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();  // a browser's keep-alive sockets would hold close() open
      });
      return closing;
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await start({ csp: process.env.CSP });
  console.log(`serving ${server.root} at ${server.url}tests/browser/page.html?mode=triage`);
}
