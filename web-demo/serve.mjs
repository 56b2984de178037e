// Serves the built demo (web-demo/dist) on 127.0.0.1 and prints its URL. The port is $PORT if set
// (an error if it is taken), else 5173 if free, else any free port. `.wasm` goes out as
// application/wasm, which streaming compilation needs.
//
//   node web-demo/serve.mjs [folder]
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('./dist/', import.meta.url)));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

try {
  await stat(path.join(root, 'index.html'));
} catch {
  console.error(`serve: ${root} has no index.html; build the demo first (bash web-demo/build.sh)`);
  process.exit(1);
}

const server = createServer(async (req, res) => {
  const fail = (status, text) => {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${text}\n`);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    return fail(400, 'bad request');
  }
  let file = path.join(root, pathname);
  if (pathname.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) return fail(403, 'forbidden');
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      file = path.join(file, 'index.html');
      info = await stat(file);
    }
    const hashed = pathname.startsWith('/assets/');
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': info.size,
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  } catch {
    fail(404, 'not found');
  }
});

function listen(port) {
  return new Promise((resolve, reject) => {
    const onError = (error) => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
}

let port;
if (process.env.PORT) {
  const wanted = Number(process.env.PORT);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    console.error(`serve: PORT must be a port number, got '${process.env.PORT}'`);
    process.exit(1);
  }
  try {
    port = await listen(wanted);
  } catch (error) {
    console.error(`serve: cannot listen on 127.0.0.1:${wanted}: ${error.code ?? error.message}`);
    process.exit(1);
  }
} else {
  try {
    port = await listen(5173);
  } catch (error) {
    if (error.code !== 'EADDRINUSE') throw error;
    port = await listen(0);
  }
}

console.log(`handoff-graph demo: http://127.0.0.1:${port}/`);
console.log('(Ctrl-C to stop)');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
