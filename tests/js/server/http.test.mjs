// handoff-graph/server over real HTTP: createHandler on serve() (node:http), driven by fetch and,
// for what fetch cannot send, a raw socket. The routes, every client mistake (4xx with
// { error: { code, message } }, never a 500), authorize, one turn at a time per session (409),
// a model failing mid-turn, a turn timing out, losing its lease or its save, a client leaving
// mid-stream, and the options checks.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import { init, Swarm } from 'handoff-graph';
import { createHandler, DEFAULT_LIMITS, serve } from 'handoff-graph/server';
import { MemoryStore } from 'handoff-graph/stores/memory';

import scriptedModel from './fixtures/model.mjs';
import { parseEvents, readEvents, request, sleep, swarmDefinition, turn } from './harness.js';

await init();
const definition = await swarmDefinition();

// A model the test can hold: each call waits for `release()` when `hold` is on.
function gatedModel() {
  const gate = { hold: false, calls: 0, entered: null, waiters: [], signals: [] };
  let enteredResolve;
  gate.entered = new Promise((resolve) => (enteredResolve = resolve));
  gate.model = async (request) => {
    gate.calls++;
    gate.signals.push(request.signal);
    if (gate.hold) {
      enteredResolve();
      await new Promise((resolve) => gate.waiters.push(resolve));
    }
    return scriptedModel(request);
  };
  gate.release = () => {
    gate.hold = false;
    for (const w of gate.waiters.splice(0)) w();
  };
  return gate;
}

async function start(t, options = {}) {
  const swarm = new Swarm(definition);
  const store = options.store ?? new MemoryStore();
  const errors = [];
  const handler = createHandler({ swarm, store, model: scriptedModel, onError: (e) => errors.push(e), ...options });
  const server = await serve(handler, { port: 0 });
  t.after(async () => {
    server.server.closeAllConnections();
    await server.close();
    swarm.dispose();
  });
  return { url: server.url, store, errors, swarm, server };
}

// Every answer to a mistake: the status, JSON, { error: { code, message } }.
function assertError(response, status, code, what = '') {
  assert.equal(response.status, status, `${what}: status (${JSON.stringify(response.body)})`);
  assert.ok(response.headers.get('content-type').startsWith('application/json'), `${what}: JSON`);
  assert.deepEqual(Object.keys(response.body), ['error'], what);
  assert.deepEqual(Object.keys(response.body.error).sort(), ['code', 'message'], what);
  assert.equal(response.body.error.code, code, `${what}: ${response.body.error.message}`);
  assert.equal(typeof response.body.error.message, 'string');
  assert.ok(response.body.error.message.length > 0);
}

async function newSession(url, variables) {
  const created = await request(url, 'POST', 'sessions', variables === undefined ? undefined : { variables });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

describe('routes', () => {
  test('POST /sessions → 201 { id } with a Location; GET /sessions/:id → the session', async (t) => {
    const { url } = await start(t);
    const created = await request(url, 'POST', 'sessions', { variables: { plan: 'gold', tags: ['a'] } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), ['id']);
    const { id } = created.body;
    assert.equal(created.headers.get('location'), `/sessions/${id}`);
    const got = await request(url, 'GET', `sessions/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.format, 'handoff-graph/session');
    assert.deepEqual([got.body.id, got.body.version, got.body.active, got.body.turn], [id, 1, 'triage', 0]);
    assert.deepEqual(got.body.variables, { plan: 'gold', tags: ['a'] });
    // No body at all, or an empty object: a session with no variables.
    for (const body of [undefined, {}]) {
      const bare = await request(url, 'POST', 'sessions', body);
      assert.equal(bare.status, 201);
      assert.deepEqual((await request(url, 'GET', `sessions/${bare.body.id}`)).body.variables, {});
    }
  });

  test('session ids: 24 base64url characters (144 random bits), all different', async (t) => {
    const { url } = await start(t);
    const ids = await Promise.all(Array.from({ length: 200 }, () => newSession(url)));
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('POST /sessions/:id/turns streams one SSE message per swarm event, ending with done; the turn is saved', async (t) => {
    const { url } = await start(t);
    const id = await newSession(url);
    const response = await fetch(new URL(`sessions/${id}/turns`, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'My invoice is wrong' }) });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const text = await response.text();
    // The wire format: `event: <type>`, `data: <one line of JSON>`, a blank line.
    assert.match(text, /^(event: [a-z_]+\ndata: [^\n]+\n\n)+$/);
    const events = parseEvents(text);
    assert.deepEqual(events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result', 'chunk', 'done']);
    for (const e of events) assert.equal(e.data.type, e.event);
    assert.deepEqual(events[2].data, { type: 'handoff', via: 'tool', from: 'triage', to: 'billing', tool: 'transfer_to_billing', requiredVariables: [], resolvedVariables: {}, variables: {}, reason: null, edge: 0 });
    const done = events.at(-1).data;
    assert.deepEqual(done, {
      type: 'done', agent: 'billing', text: 'Billing here: you said "My invoice is wrong".', reason: 'answered',
      session: { id, version: 2, active: 'billing', turn: 1, hops: 1 },
    });
    const session = (await request(url, 'GET', `sessions/${id}`)).body;
    assert.deepEqual([session.version, session.active, session.turn, session.checkpoints], [2, 'billing', 1, []]);
    const { body } = await request(url, 'GET', `sessions/${id}/checkpoints`);
    const handoff = { type: 'handoff', via: 'tool', from: 'triage', to: 'billing', tool: 'transfer_to_billing', requiredVariables: [], resolvedVariables: {}, variables: {}, reason: null, edge: 0 };
    assert.deepEqual(body, { checkpoints: [{ turn: 1, hops: 1, active: 'billing', outcome: handoff }] });
    // A second turn: back to triage, one more checkpoint, version 3.
    const second = await turn(url, id, 'Something else');
    assert.deepEqual(second.events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result', 'chunk', 'done']);
    assert.equal(second.events.at(-1).data.session.version, 3);
    const log = (await request(url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
    assert.deepEqual(log.map((c) => [c.turn, c.outcome.from, c.outcome.to]), [[1, 'triage', 'billing'], [2, 'billing', 'triage']]);
  });

  test('the handler is a plain Fetch-API function: it answers a Request without any server', async () => {
    const swarm = new Swarm(definition);
    const handler = createHandler({ swarm, store: new MemoryStore(), model: scriptedModel });
    const created = await handler(new Request('http://any.host/sessions', { method: 'POST' }));
    assert.equal(created.status, 201);
    const { id } = await created.json();
    const streamed = await handler(new Request(`http://any.host/sessions/${id}/turns`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"text please"}' }));
    assert.deepEqual(parseEvents(await streamed.text()).map((e) => e.event), ['open', 'chunk', 'done']);
    swarm.dispose();
  });
});

describe('client mistakes: 4xx with { error: { code, message } }, never a 500', () => {
  let server;
  let id;
  const errors = [];
  const swarm = new Swarm(definition);
  before(async () => {
    const handler = createHandler({ swarm, store: new MemoryStore(), model: scriptedModel, limits: { maxBodyBytes: 1024 }, onError: (e) => errors.push(e) });
    server = await serve(handler, { port: 0 });
    id = await newSession(server.url);
  });
  after(async () => {
    assert.deepEqual(errors, [], 'no client mistake reached onError');
    await server.close();
    swarm.dispose();
  });

  test('malformed JSON, JSON that is not UTF-8, and bodies that are not objects: 400', async () => {
    for (const [route, body] of [['sessions', '{'], ['sessions', '{"variables": }'], [`sessions/${id}/turns`, '{"input": "unterminated'], [`sessions/${id}/turns`, 'null,']]) {
      assertError(await request(server.url, 'POST', route, body), 400, 'invalid_json', `${route} ${body}`);
    }
    assertError(await request(server.url, 'POST', `sessions/${id}/turns`, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'invalid_json', 'not UTF-8');
    for (const body of ['[]', 'null', '"text"', '42', 'true']) {
      assertError(await request(server.url, 'POST', 'sessions', body), 400, 'invalid_request', `POST /sessions ${body}`);
      assertError(await request(server.url, 'POST', `sessions/${id}/turns`, body), 400, 'invalid_request', `turn ${body}`);
    }
  });

  test('a wrong content type: 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/jsonx']) {
      const response = await request(server.url, 'POST', `sessions/${id}/turns`, '{"input":"hi"}', { 'content-type': type });
      assertError(response, 415, 'unsupported_media_type', type);
    }
    const none = await fetch(new URL(`sessions/${id}/turns`, server.url), { method: 'POST', body: new Blob(['{"input":"hi"}']) });
    assertError({ status: none.status, headers: none.headers, body: await none.json() }, 415, 'unsupported_media_type', 'no content-type');
    // Parameters and case are fine.
    const ok = await fetch(new URL('sessions', server.url), { method: 'POST', headers: { 'content-type': 'Application/JSON; Charset="UTF-8"' }, body: '{}' });
    assert.equal(ok.status, 201);
  });

  test('a body over limits.maxBodyBytes: 413, announced or streamed', async () => {
    const big = JSON.stringify({ input: 'x'.repeat(2000) });
    assertError(await request(server.url, 'POST', `sessions/${id}/turns`, big), 413, 'body_too_large', 'with content-length');
    assertError(await request(server.url, 'POST', 'sessions', JSON.stringify({ variables: { v: 'y'.repeat(5000) } })), 413, 'body_too_large', 'POST /sessions');
    // Chunked, no content-length: counted as it arrives.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"input":"' : 'z'.repeat(100)));
        controller.close();
      },
    });
    const streamed = await fetch(new URL(`sessions/${id}/turns`, server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunks, duplex: 'half' });
    assertError({ status: streamed.status, headers: streamed.headers, body: await streamed.json() }, 413, 'body_too_large', 'chunked');
    // Exactly at the limit is fine.
    const exact = JSON.stringify({ input: 'x'.repeat(1024 - '{"input":""}'.length) });
    assert.equal(Buffer.byteLength(exact), 1024);
    assert.equal((await turn(server.url, id, JSON.parse(exact).input)).status, 200);
  });

  test('missing, empty or mistyped input, unknown fields, bad variables: 400 saying what is wrong', async () => {
    const cases = [
      [`sessions/${id}/turns`, {}, /input is required/],
      [`sessions/${id}/turns`, undefined, /input is required/],
      [`sessions/${id}/turns`, { input: '' }, /non-empty string/],
      [`sessions/${id}/turns`, { input: 42 }, /non-empty string/],
      [`sessions/${id}/turns`, { input: ['hi'] }, /non-empty string/],
      [`sessions/${id}/turns`, { inptu: 'hi' }, /unknown field 'inptu' \(did you mean 'input'\?\)/],
      [`sessions/${id}/turns`, { input: 'hi', model: 'gpt-5' }, /unknown field 'model'/],
      ['sessions', { varibles: {} }, /unknown field 'varibles' \(did you mean 'variables'\?\)/],
      ['sessions', { variables: [1] }, /variables must be a JSON object/],
      ['sessions', { variables: 'x' }, /variables must be a JSON object/],
      ['sessions', { variables: null }, /variables must be a JSON object/],
      ['sessions', { id: 'mine' }, /unknown field 'id'/],
    ];
    for (const [route, body, message] of cases) {
      const response = await request(server.url, 'POST', route, body);
      assertError(response, 400, 'invalid_request', `${route} ${JSON.stringify(body)}`);
      assert.match(response.body.error.message, message);
    }
  });

  test('an unknown session: 404 on every route', async () => {
    const ghost = 'AAAAAAAAAAAAAAAAAAAAAAAA';
    assertError(await request(server.url, 'GET', `sessions/${ghost}`), 404, 'session_not_found');
    assertError(await request(server.url, 'GET', `sessions/${ghost}/checkpoints`), 404, 'session_not_found');
    assertError(await request(server.url, 'POST', `sessions/${ghost}/turns`, { input: 'hi' }), 404, 'session_not_found');
    assertError(await request(server.url, 'POST', `sessions/${ghost}/approvals/a1`, { approve: true }), 404, 'session_not_found');
  });

  test('hostile ids: traversal, prototype names, encodings, very long: 404, nothing reached', async () => {
    const hostile = [
      '..%2F..%2Fetc%2Fpasswd', '%2E%2E', '%2e%2e', '__proto__', 'constructor', 'hasOwnProperty', 'toString',
      '%00', 'a%00b', '%F0%9F%98%80', '%C3%A9', 'id;rm -rf', 'a%20b', 'x'.repeat(129), 'y'.repeat(5000), '%ZZ', '*', '{id}', 'a:b',
    ];
    for (const bad of hostile) {
      for (const [method, route, body] of [['GET', `sessions/${bad}`], ['GET', `sessions/${bad}/checkpoints`], ['POST', `sessions/${bad}/turns`, { input: 'hi' }], ['POST', `sessions/${bad}/approvals/a1`, { approve: true }]]) {
        const response = await request(server.url, method, route, body);
        assert.ok(response.status === 404, `${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
        assert.ok(['session_not_found', 'not_found'].includes(response.body.error.code), route);
      }
    }
    assert.equal(Object.prototype.polluted, undefined);
    // Ids of the right shape that merely name Object.prototype's members do not exist either.
    for (const name of ['__proto__', 'constructor', 'valueOf']) assertError(await request(server.url, 'GET', `sessions/${name}`), 404, 'session_not_found', name);
    // An approval id of the wrong shape.
    assertError(await request(server.url, 'POST', `sessions/${id}/approvals/${'%2e'.repeat(3)}`, { approve: true }), 404, 'approval_not_found');
  });

  test('variables named __proto__ and constructor are data, not prototypes', async () => {
    const created = await request(server.url, 'POST', 'sessions', '{"variables":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}}');
    assert.equal(created.status, 201);
    const session = (await request(server.url, 'GET', `sessions/${created.body.id}`)).body;
    assert.deepEqual(Object.keys(session.variables), ['__proto__', 'constructor']);
    assert.equal({}.polluted, undefined);
    assert.equal((await turn(server.url, created.body.id, 'text')).status, 200);
    assert.equal({}.polluted, undefined);
  });

  test('bodies nest at most 512 levels: deeper is 400, 512 works all the way through a turn', async (t) => {
    const { url } = await start(t, { limits: { maxBodyBytes: 1 << 20 } });
    const nested = (levels) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    for (const levels of [511, 600, 5000, 100_000]) {
      const response = await request(url, 'POST', 'sessions', `{"variables":{"a":${nested(levels)}}}`);
      assertError(response, 400, 'invalid_request', `${levels + 2} levels`);
      assert.match(response.body.error.message, /deeper than 512 levels/);
      assertError(await request(url, 'POST', `sessions/${id}/turns`, `{"input":"x","deep":${nested(levels)}}`), 400, 'invalid_request');
    }
    const created = await request(url, 'POST', 'sessions', `{"variables":{"a":${nested(510)}}}`);
    assert.equal(created.status, 201);
    assert.equal((await turn(url, created.body.id, 'deep')).events.at(-1).event, 'done');
    assert.equal((await request(url, 'GET', `sessions/${created.body.id}`)).status, 200);
  });

  test('a wrong method: 405 with Allow', async () => {
    const cases = [
      ['GET', 'sessions', 'POST'], ['DELETE', 'sessions', 'POST'], ['PUT', `sessions/${id}`, 'GET'], ['DELETE', `sessions/${id}`, 'GET'],
      ['GET', `sessions/${id}/turns`, 'POST'], ['POST', `sessions/${id}/checkpoints`, 'GET'], ['GET', `sessions/${id}/approvals/a1`, 'POST'], ['PATCH', `sessions/${id}/turns`, 'POST'],
    ];
    for (const [method, route, allow] of cases) {
      const response = await request(server.url, method, route);
      assertError(response, 405, 'method_not_allowed', `${method} ${route}`);
      assert.equal(response.headers.get('allow'), allow);
    }
  });

  test('an unknown route: 404', async () => {
    for (const route of ['', 'session', 'sessions/', `sessions/${id}/`, `sessions/${id}/turn`, `sessions/${id}/turns/1`, 'SESSIONS', `sessions/${id}/approvals`, 'favicon.ico', '%2fsessions']) {
      assertError(await request(server.url, 'GET', route), 404, 'not_found', route);
      assertError(await request(server.url, 'POST', route, {}), 404, 'not_found', route);
    }
  });

  test('what fetch cannot send (an absolute-form target, a broken request line): 400 from the socket', async () => {
    const raw = async (text) => {
      const socket = net.connect(server.port, '127.0.0.1');
      await once(socket, 'connect');
      socket.end(text);
      let reply = '';
      socket.setEncoding('utf8').on('data', (d) => (reply += d));
      await once(socket, 'close');
      return reply;
    };
    assert.match(await raw('GET http://elsewhere/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 400 /);
    assert.match(await raw('GET /sessions HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'), /^HTTP\/1\.1 400 /);
    assert.match(await raw('BREW /sessions HTCPCP/1.0\r\n\r\n'), /^HTTP\/1\.1 400 /);
    // Dot segments (fetch resolves them before sending; a raw client need not): resolved here
    // too, so they never reach a store as part of an id.
    for (const target of [`/sessions/../sessions/${id}`, '/sessions/./..', '/sessions/%2e%2e/turns', '/sessions/..']) {
      const reply = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assert.match(reply, /^HTTP\/1\.1 (200|404|405) /, target);
      assert.doesNotMatch(reply, /"internal"/);
    }
  });

  test('the approvals route: its body is checked (400), then the approval id (404 approval_not_found)', async () => {
    for (const body of [{}, { approve: 'yes' }, { approve: true, reason: 7 }, { approve: true, because: 'x' }]) {
      assertError(await request(server.url, 'POST', `sessions/${id}/approvals/appr_1`, body), 400, 'invalid_request', JSON.stringify(body));
    }
    const response = await request(server.url, 'POST', `sessions/${id}/approvals/appr_1`, { approve: false, reason: 'not now' });
    assertError(response, 404, 'approval_not_found');
    assertError(await request(server.url, 'POST', `sessions/${id}/approvals/__proto__`, { approve: true }), 404, 'approval_not_found');
  });
});

describe('authorize', () => {
  test('runs for every route with the request and the session id (null for POST /sessions), before the body is read', async (t) => {
    const seen = [];
    const authorize = async (request, sessionId) => {
      seen.push([request.method, new URL(request.url).pathname, sessionId]);
      const key = request.headers.get('x-key');
      if (key === null) return new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'x-key needed' } }), { status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Key' } });
      return key === 'good';
    };
    const { url } = await start(t, { authorize });
    const good = { 'x-key': 'good' };
    const created = await request(url, 'POST', 'sessions', {}, good);
    assert.equal(created.status, 201);
    const { id } = created.body;
    assert.equal((await request(url, 'GET', `sessions/${id}`, undefined, good)).status, 200);
    assert.equal((await request(url, 'GET', `sessions/${id}/checkpoints`, undefined, good)).status, 200);
    assert.equal((await turn(url, id, 'text', good)).status, 200);
    assert.equal((await request(url, 'POST', `sessions/${id}/approvals/a1`, { approve: true }, good)).status, 404);
    assert.deepEqual(seen, [
      ['POST', '/sessions', null], ['GET', `/sessions/${id}`, id], ['GET', `/sessions/${id}/checkpoints`, id],
      ['POST', `/sessions/${id}/turns`, id], ['POST', `/sessions/${id}/approvals/a1`, id],
    ]);
    // Refused: 403; a Response is sent as it is; a bad body is never read first.
    for (const [method, route, body] of [['POST', 'sessions', '{'], ['GET', `sessions/${id}`], ['GET', `sessions/${id}/checkpoints`], ['POST', `sessions/${id}/turns`, 'not json'], ['POST', `sessions/${id}/approvals/a1`, '{}']]) {
      assertError(await request(url, method, route, body, { 'x-key': 'bad' }), 403, 'forbidden', `${method} ${route}`);
      const challenged = await request(url, method, route, body);
      assert.equal(challenged.status, 401);
      assert.equal(challenged.headers.get('www-authenticate'), 'Key');
    }
    // A refused turn changed nothing.
    assert.equal((await request(url, 'GET', `sessions/${id}`, undefined, good)).body.version, 2);
  });

  test('an authorize that returns anything but true refuses (a forgotten return is not a yes)', async (t) => {
    for (const verdict of [undefined, null, 1, 'yes', {}, false]) {
      const { url } = await start(t, { authorize: () => verdict });
      assertError(await request(url, 'POST', 'sessions', {}), 403, 'forbidden', String(verdict));
    }
  });

  test('an authorize that throws: 500 internal, the error to onError and not to the client', async (t) => {
    const { url, errors } = await start(t, { authorize: () => Promise.reject(new Error('token service down')) });
    const response = await request(url, 'POST', 'sessions', {});
    assertError(response, 500, 'internal');
    assert.doesNotMatch(response.body.error.message, /token service/);
    assert.deepEqual(errors.map((e) => e.message), ['token service down']);
  });
});

describe('one turn at a time per session', () => {
  test('a second turn while one runs: 409 turn_in_progress; no update lost; other sessions unaffected', async (t) => {
    const gate = gatedModel();
    const { url, store } = await start(t, { model: gate.model });
    const id = await newSession(url);
    const other = await newSession(url);
    gate.hold = true;
    const first = turn(url, id, 'first');
    await gate.entered;
    const second = await turn(url, id, 'second');
    assertError({ status: second.status, headers: new Headers({ 'content-type': 'application/json' }), body: second.body }, 409, 'turn_in_progress');
    const raw = await fetch(new URL(`sessions/${id}/turns`, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"third"}' });
    assert.equal(raw.status, 409);
    assert.equal(raw.headers.get('retry-after'), '1');
    await raw.body.cancel();
    // Reads are not blocked, and show the session as it was.
    assert.equal((await request(url, 'GET', `sessions/${id}`)).body.version, 1);
    gate.release();
    const otherTurn = await turn(url, other, 'unrelated');
    assert.equal(otherTurn.status, 200);
    const done = (await first).events.at(-1);
    assert.equal(done.event, 'done');
    assert.equal(done.data.session.version, 2);
    // After it: the next turn runs.
    const next = await turn(url, id, 'fourth');
    assert.equal(next.events.at(-1).data.session.version, 3);
    const session = await store.get(id);
    const inputs = session.histories.triage.filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepEqual(inputs, ['first', 'fourth']);
    assert.deepEqual((await store.listCheckpoints(id)).map((c) => c.turn), [1, 2]);
  });

  test('many turns at once on one session: exactly one runs, the rest get 409, the log stays whole', async (t) => {
    const gate = gatedModel();
    const { url, store } = await start(t, { model: gate.model });
    const id = await newSession(url);
    gate.hold = true;
    let answered = 0;
    const racing = Array.from({ length: 20 }, (_, i) => turn(url, id, `racer ${i}`).then((r) => (answered++, r)));
    await gate.entered;
    // The model is held until every other racer has had its answer.
    while (answered < 19) await sleep(5);
    gate.release();
    const results = await Promise.all(racing);
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
    assert.equal(statuses.filter((s) => s === 409).length, 19);
    assert.equal((await store.get(id)).version, 2);
    assert.equal((await store.listCheckpoints(id)).length, 1);
  });
});

describe('the lease after a turn', () => {
  test('a renewal still on its way when the turn ends is waited for: it cannot take the lease again after the release', async (t) => {
    // A store whose first renewal reaches the backend late (as on a pool that runs it on another
    // connection, behind the turn's last writes): held until the turn has saved.
    const inner = new MemoryStore();
    let calls = 0;
    let renewalSent;
    const sent = new Promise((resolve) => (renewalSent = resolve));
    let letRenewalLand;
    const landing = new Promise((resolve) => (letRenewalLand = resolve));
    const store = Object.create(inner);
    store.acquireLease = async (...args) => {
      calls++;
      if (calls === 2) {
        renewalSent();
        await landing;
      }
      return inner.acquireLease(...args);
    };
    for (const method of ['get', 'save', 'listCheckpoints', 'releaseLease']) store[method] = inner[method].bind(inner);
    // The model answers once the first renewal has been sent.
    const model = async (request) => {
      await sent;
      return scriptedModel(request);
    };
    const { url } = await start(t, { store, model, limits: { turnLeaseMs: 150 } });
    const id = await newSession(url);
    const response = await fetch(new URL(`sessions/${id}/turns`, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"text please"}' });
    const reading = response.text();
    // The turn has saved (its version moved) while the renewal is still held; then it lands.
    while ((await inner.get(id)).version !== 2) await sleep(5);
    letRenewalLand();
    const events = parseEvents(await reading);
    assert.equal(events.at(-1).event, 'done');
    // The stream has ended: the lease is free, for good.
    assert.equal(await inner.acquireLease(id, 'next turn', 60_000), true, 'the finished turn does not hold the lease');
  });
});

describe('turns that fail', () => {
  test('a model error mid-turn: an error event ends the stream; the session keeps its last checkpoint; the turn can be retried', async (t) => {
    const { url, store, errors } = await start(t);
    const id = await newSession(url);
    assert.equal((await turn(url, id, 'first')).status, 200);
    const before = await store.get(id);
    const checkpointsBefore = await store.listCheckpoints(id);
    const failed = await turn(url, id, 'fail now');
    assert.equal(failed.status, 200);
    assert.deepEqual(failed.events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result', 'error']);
    assert.deepEqual(failed.events.at(-1).data, { type: 'error', error: { code: 'model_error', message: 'the model failed: the scripted model failed on purpose' } });
    assert.deepEqual(await store.get(id), before, 'the stored session is as it was');
    assert.deepEqual(await store.listCheckpoints(id), checkpointsBefore, 'the handoff of the failed turn is not in the log');
    assert.deepEqual(errors, [], 'a model failure is the model\'s, not the server\'s');
    const retried = await turn(url, id, 'again');
    assert.equal(retried.events.at(-1).event, 'done');
    assert.equal(retried.events.at(-1).data.session.version, before.version + 1);
  });

  test('limits.turnTimeoutMs: the turn stops with turn_timeout, the model call is aborted, nothing saved', async (t) => {
    const seen = [];
    const model = (request) => {
      seen.push(request.signal);
      return scriptedModel(request);
    };
    const { url, store } = await start(t, { model, limits: { turnTimeoutMs: 300 } });
    const id = await newSession(url);
    const result = await turn(url, id, 'hang here');
    assert.deepEqual(result.events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result', 'error']);
    assert.equal(result.events.at(-1).data.error.code, 'turn_timeout');
    assert.ok(seen.at(-1).aborted);
    assert.equal((await store.get(id)).version, 1);
    assert.deepEqual(await store.listCheckpoints(id), []);
    assert.equal((await turn(url, id, 'text')).status, 200, 'the lease was given back');
  });

  test('a client that leaves mid-turn: the model call is aborted, nothing is saved, the lease is given back', async (t) => {
    const seen = [];
    const model = (request) => {
      seen.push(request.signal);
      return scriptedModel(request);
    };
    const { url, store } = await start(t, { model });
    const id = await newSession(url);
    const leaving = new AbortController();
    const response = await fetch(new URL(`sessions/${id}/turns`, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hang on"}', signal: leaving.signal });
    const { events } = await readEvents(response, ({ event }) => event === 'tool_result' && leaving.abort());
    assert.deepEqual(events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result']);
    for (let i = 0; i < 200 && !seen.at(-1)?.aborted; i++) await sleep(10);
    assert.ok(seen.at(-1).aborted, 'the model call was aborted');
    let next;
    for (let i = 0; i < 100; i++) {
      next = await turn(url, id, 'text');
      if (next.status !== 409) break;
      await sleep(10);
    }
    assert.equal(next.status, 200);
    assert.equal(next.events.at(-1).data.session.version, 2, 'only the later turn was saved');
    assert.equal((await store.get(id)).turn, 1);
  });

  test('a turn that loses its lease stops with lease_lost and saves nothing', async (t) => {
    const inner = new MemoryStore();
    let stealing = false;
    // The store of another process that takes the lease once this one has stopped renewing it.
    const store = {
      get: (id) => inner.get(id),
      save: (s, o) => inner.save(s, o),
      listCheckpoints: (id) => inner.listCheckpoints(id),
      acquireLease: (id, holder, ttl) => (stealing ? Promise.resolve(false) : inner.acquireLease(id, holder, ttl)),
      releaseLease: (id, holder) => inner.releaseLease(id, holder),
    };
    const gate = gatedModel();
    const { url } = await start(t, { store, model: gate.model, limits: { turnLeaseMs: 150 } });
    const id = await newSession(url);
    gate.hold = true;
    const running = turn(url, id, 'first');
    await gate.entered;
    stealing = true;
    const result = await running;
    assert.equal(result.events.at(-1).event, 'error');
    assert.equal(result.events.at(-1).data.error.code, 'lease_lost');
    gate.release();
    assert.equal((await inner.get(id)).version, 1);
    assert.deepEqual(await inner.listCheckpoints(id), []);
  });

  test('a turn whose save loses the version race reports conflict; the other write stays', async (t) => {
    const gate = gatedModel();
    const { url, store } = await start(t, { model: gate.model });
    const id = await newSession(url);
    gate.hold = true;
    const running = turn(url, id, 'first');
    await gate.entered;
    // A writer that ignores leases (a script, another tool) saves the session meanwhile.
    const outside = await store.get(id);
    outside.variables.note = 'written outside';
    await store.save(outside, { checkpoints: [{ by: 'outside' }] });
    gate.release();
    const result = await running;
    assert.deepEqual(result.events.at(-1).data.error.code, 'conflict');
    const stored = await store.get(id);
    assert.deepEqual([stored.version, stored.variables.note, stored.turn], [2, 'written outside', 0]);
    assert.deepEqual(await store.listCheckpoints(id), [{ by: 'outside' }], 'the losing turn\'s checkpoints are not in the log');
  });

  test('a store that fails: 500 internal, reported to onError (the server\'s failure, not the client\'s)', async (t) => {
    const inner = new MemoryStore();
    const store = { ...Object.fromEntries(['save', 'listCheckpoints', 'acquireLease', 'releaseLease'].map((m) => [m, (...a) => inner[m](...a)])), get: async () => { throw new Error('store down'); } };
    const { url, errors } = await start(t, { store });
    const response = await request(url, 'GET', 'sessions/abcdefabcdefabcdefabcdef');
    assertError(response, 500, 'internal');
    assert.doesNotMatch(response.body.error.message, /store down/, 'internals stay in the server');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /store down/);
  });
});

describe('options', () => {
  const swarm = new Swarm(definition);
  after(() => swarm.dispose());
  const base = () => ({ swarm, store: new MemoryStore(), model: scriptedModel });

  test('createHandler: unknown keys and wrong values are TypeErrors that say which', () => {
    assert.throws(() => createHandler({ ...base(), modle: scriptedModel }), /createHandler options: unknown option 'modle' \(did you mean 'model'\?\); allowed: swarm, store, model, authorize, limits, toolFormat, onError/);
    assert.throws(() => createHandler({ ...base(), limits: { maxBodyByte: 10 } }), /unknown option 'maxBodyByte' \(did you mean 'maxBodyBytes'\?\)/);
    assert.throws(() => createHandler({ ...base(), limits: { maxBodyBytes: 0 } }), /limits.maxBodyBytes must be an integer from 1/);
    assert.throws(() => createHandler({ ...base(), limits: { turnLeaseMs: 50 } }), /at least 100/);
    assert.throws(() => createHandler({ ...base(), limits: { turnTimeoutMs: 1.5 } }), /turnTimeoutMs/);
    assert.throws(() => createHandler({ ...base(), limits: 'fast' }), /limits must be an object/);
    assert.throws(() => createHandler({ ...base(), swarm: {} }), /swarm must be a Swarm/);
    assert.throws(() => createHandler({ ...base(), model: 'gpt' }), /model must be a function/);
    assert.throws(() => createHandler({ ...base(), authorize: true }), /authorize must be a function/);
    assert.throws(() => createHandler({ ...base(), toolFormat: 'xml' }), /toolFormat must be one of/);
    const anthropicModel = Object.assign(() => ({ text: '' }), { toolFormat: 'anthropic' });
    assert.throws(
      () => createHandler({ ...base(), model: anthropicModel, toolFormat: 'openai-chat' }),
      /createHandler: the model sends tools in the 'anthropic' shape, but toolFormat is 'openai-chat': leave toolFormat out/,
    );
    assert.doesNotThrow(() => createHandler({ ...base(), model: anthropicModel, toolFormat: 'anthropic' }));
    assert.throws(() => createHandler({ ...base(), store: { get() {}, save() {}, listCheckpoints() {} } }), /it has no acquireLease\(\)/);
    assert.throws(() => createHandler(), /needs \{ swarm, store, model \}/);
    assert.throws(() => createHandler(null), /must be an object/);
    assert.deepEqual(DEFAULT_LIMITS, { maxBodyBytes: 1048576, maxModelCalls: 10, turnLeaseMs: 30000, turnTimeoutMs: 300000 });
  });

  test('serve: unknown keys are TypeErrors; it resolves to { url, host, port, server, close }; a taken port rejects', async () => {
    const handler = createHandler(base());
    await assert.rejects(serve(handler, { prot: 1 }), /serve options: unknown option 'prot' \(did you mean 'port'\?\); allowed: host, port/);
    await assert.rejects(serve(handler, { port: 70000 }), /port must be an integer/);
    await assert.rejects(serve('handler'), /handler must be a function/);
    const running = await serve(handler, { port: 0, host: '127.0.0.1' });
    assert.equal(running.url, `http://127.0.0.1:${running.port}/`);
    assert.equal(running.host, '127.0.0.1');
    await assert.rejects(serve(handler, { port: running.port }), /EADDRINUSE/);
    await running.close();
    await assert.rejects(fetch(running.url), /fetch failed/);
  });

  test("outside Node ('default' condition): createHandler is there, serve says why it is not", async () => {
    const fetchOnly = await import('../../../js/server/fetch.js');
    assert.equal(typeof fetchOnly.createHandler, 'function');
    assert.throws(() => fetchOnly.serve(), /runs on node:http/);
  });
});
