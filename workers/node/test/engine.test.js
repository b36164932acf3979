'use strict';
// The load model's share and the open model's schedule (engine.js), as the Go, Rust and
// Python engines compute them, and a closed phase over a real grpc-js server and client
// on a Unix socket that counts exactly its op budget.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const hdr = require('hdr-histogram-js');
const c = require('../lib/contract');
const { model, Pacer, Session, encodeHistogram } = require('../lib/engine');
const { Workload } = require('../lib/workload');
const grpcStack = require('../lib/stacks/grpc');

test('a share deals calls and connections', () => {
  // 10 calls over 3 generators: 4, 3, 3; 2 connections: 1, 1, and at least 1.
  assert.deepStrictEqual([model('closed', 10, 2, 0, '', 0, 3).concurrency, model('closed', 10, 2, 0, '', 0, 3).connections], [4, 1]);
  assert.strictEqual(model('closed', 10, 2, 0, '', 2, 3).concurrency, 3);
  // An open model's rate is split evenly; max in flight defaults to 1000.
  const m = model('open', 0, 0, 900, 'poisson', 1, 3);
  assert.deepStrictEqual([m.concurrency, m.rate, m.poisson], [333, 300, true]);
});

test('bad models are refused', () => {
  for (const args of [['closed', 0, 0, 0, '', 0, 1], ['closed', 4, 5, 0, '', 0, 1], ['open', 4, 1, 0, '', 0, 1],
    ['open', 4, 1, 10, 'bursty', 0, 1], ['spiral', 4, 1, 0, '', 0, 1], ['closed', 2, 1, 0, '', 0, 3]]) {
    assert.throws(() => model(...args), RangeError, JSON.stringify(args));
  }
});

test('constant pacer offsets come from the index', () => {
  // 3 per second: 0, 1/3 s, 2/3 s, 1 s.
  const p = new Pacer(false, 3, 1n);
  assert.deepStrictEqual([p.next(), p.next(), p.next(), p.next()], [0, 333333333, 666666666, 1000000000]);
});

test('a closed phase counts its op budget', async () => {
  const data = new c.Dataset(1n, 20);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-node-'));
  const listen = `unix://${path.join(dir, 's.sock')}`;
  const server = new grpcStack.Server(new c.Reference(data), listen, 1 << 20);
  await server.start();
  const clients = [new grpcStack.Client(listen, 1 << 20), new grpcStack.Client(listen, 1 << 20)];
  try {
    for (const cl of clients) await cl.connect();
    const s = new Session({ workload: new Workload('person.get', data), clients, model: model('closed', 4, 2, 0, '', 0, 1),
      callTimeoutMs: 5000, arrivalSeed: 1n, seqOffset: 0, seqStride: 1 });
    let iv = await s.phase(null, 123);
    assert.deepStrictEqual([iv.ops, iv.errors], [123, {}]);
    assert.strictEqual(hdr.decodeFromCompressedBase64(encodeHistogram(iv.resp)).totalCount, 123);
    iv = await s.phase(200e6, null);
    assert.ok(iv.ops > 0);
    assert.ok(iv.endUnixNanos - iv.startUnixNanos >= 200_000_000n);
  } finally {
    for (const cl of clients) await cl.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
