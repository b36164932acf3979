'use strict';
// lib/bytes.js: the bytes of the process's client sockets, over HTTP/2 (a socket that
// http2 takes over, as grpc-js's are) and HTTP/1.1, counted whole, closed sockets
// included.

const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const http2 = require('node:http2');
const bytes = require('../lib/bytes');

const BODY = 'x'.repeat(5000);

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const closed = (server) => new Promise((resolve) => server.close(resolve));

test('an HTTP/2 session counts its frames both ways', async () => {
  bytes.start();
  const [s0, r0] = bytes.totals();
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200 });
    stream.end(BODY);
  });
  const port = await listen(server);
  const session = http2.connect(`http://127.0.0.1:${port}`);
  const got = await new Promise((resolve, reject) => {
    const req = session.request({ ':path': '/' });
    let n = 0;
    req.on('data', (d) => { n += d.length; });
    req.on('end', () => resolve(n));
    req.on('error', reject);
    req.end();
  });
  const [s1, r1] = bytes.totals(); // while the session is open
  await new Promise((resolve) => session.close(resolve));
  await closed(server);
  const [s2, r2] = bytes.totals(); // after it closed
  assert.strictEqual(got, BODY.length);
  // Sent: at least HTTP/2's 24-byte connection preface and a 9-byte frame header.
  // (and less than the body: the server's socket, which sent it, is not a client's).
  assert.ok(s1 - s0 >= 24 + 9 && s1 - s0 < BODY.length, `sent ${s1 - s0}`);
  // Received: the body and at least one DATA frame's 9-byte header.
  assert.ok(r1 - r0 >= BODY.length + 9, `received ${r1 - r0}`);
  assert.ok(s2 >= s1 && r2 >= r1, 'a closed socket keeps its counts');
});

test('an HTTP/1.1 agent counts its request and answer', async () => {
  bytes.start();
  const [s0, r0] = bytes.totals();
  const server = http.createServer((req, res) => res.end(BODY));
  const port = await listen(server);
  const agent = new http.Agent({ keepAlive: true });
  const got = await new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/persons/1', agent }, (res) => {
      let n = 0;
      res.on('data', (d) => { n += d.length; });
      res.on('end', () => resolve(n));
    }).on('error', reject);
  });
  agent.destroy();
  await closed(server);
  const [s1, r1] = bytes.totals();
  assert.strictEqual(got, BODY.length);
  const line = 'GET /persons/1 HTTP/1.1\r\n'.length;
  assert.ok(s1 - s0 >= line && s1 - s0 < BODY.length, `sent ${s1 - s0}`);
  assert.ok(r1 - r0 >= BODY.length, `received ${r1 - r0}`);
});
