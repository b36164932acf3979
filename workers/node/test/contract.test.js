'use strict';
// The contract against the Go module's golden files (contract/golden_test.go writes them).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const c = require('../lib/contract');

// Integers of 16 digits or more are read as text (JSON.parse would round them).
const golden = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'contract', 'testdata', name), 'utf8')
  .replace(/(?<![\d."])(\d{16,})(?![\d."])/g, '"$1"'));

test('data sets equal the Go ones', () => {
  for (const [seed, size] of [[1n, 20], [42n, 100], [7n, 1], [(1n << 64n) - 1n, 5]]) {
    const g = golden(`dataset-${seed}-${size}.json`);
    let r = new c.Pcg(seed, c.DATASET_SEED2);
    g.pcg_uint64.forEach((want, i) => assert.strictEqual(r.uint64(), BigInt('0x' + want), `seed ${seed}: uint64 ${i}`));
    r = new c.Pcg(seed, c.DATASET_SEED2);
    for (const cs of g.intn) {
      const got = cs.values.map(() => r.intNBig(BigInt(cs.n)));
      assert.deepStrictEqual(got, cs.values.map(BigInt), `seed ${seed}: IntN(${cs.n})`);
    }
    const ds = new c.Dataset(seed, size);
    assert.deepStrictEqual(ds.persons, g.persons, `seed ${seed} size ${size}: persons`);
    g.links.forEach((links, i) => {
      assert.deepStrictEqual(ds.linksOf(i + 1).map((l) => [l.p1.id, l.p2.id]), links);
    });
  }
});

test('trades equal the Go ones', () => {
  for (const t of golden('trades.json').trades) {
    const got = c.tradeAt(t.id);
    assert.deepStrictEqual(got, { ...t, timestamp_nanos: BigInt(t.timestamp_nanos), side: t.side === 1 ? c.SELL : c.BUY });
  }
});

test('the reference refuses as the Go one', () => {
  const r = new c.Reference(new c.Dataset(1n, 20));
  assert.throws(() => r.getPerson(21), (e) => e.kind === c.NOT_FOUND);
  assert.throws(() => r.checkTrades(-1), (e) => e.kind === c.INVALID_ARGUMENT);
  const p = { ...r.getPerson(1) };
  assert.strictEqual(r.createPerson(p).id, 21);
  assert.throws(() => r.createPerson({ ...p, email: 'x' }), (e) => e.kind === c.INVALID_ARGUMENT);
  r.echo('héllo');
  assert.deepStrictEqual(r.stats(), { calls: 1, last_payload_len: 6 });
  assert.strictEqual(r.increment((1n << 63n) - 1n), -(1n << 63n));
  assert.strictEqual(c.payload(14), 'Hello World He');
  assert.throws(() => new c.Dataset(1n, 0), RangeError);
});
