'use strict';
// `worker.js check`: a Node client stack's own conformance run against a server of the
// contract (the Go interop tests run it against the Go servers), as the Rust and Python
// workers' checks: every workload with its answers verified, the refusals, edge values,
// and a stream stopped by its receiver. One line per check, "ok ..." or "FAIL ...";
// returns the number of failures.

const c = require('./contract');
const { NAMES, Workload } = require('./workload');

async function run(s, data, out = (l) => process.stdout.write(`${l}\n`)) {
  let failures = 0;
  const report = (name, err) => {
    if (err === null) out(`ok ${name}`);
    else {
      failures++;
      out(`FAIL ${name}: ${err}`);
    }
  };
  const attempt = async (name, fn) => {
    try {
      report(name, await fn());
    } catch (e) {
      report(name, String(e));
    }
  };
  const refused = (name, code, fn) => attempt(name, async () => {
    try {
      const got = await fn();
      return `answered ${JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? String(v) : v)).slice(0, 200)}, want ${code}`;
    } catch (e) {
      return e.kind === code ? null : `${e}, want ${code}`;
    }
  });
  for (const w of NAMES) {
    const wl = new Workload(w, data, { payload: 100, increments: 10, trades: 1000 });
    for (let seq = 0; seq < 3; seq++) await attempt(`workload ${w} op ${seq}`, async () => { await wl.run(s, seq); return null; });
  }
  for (const id of [0, -1, data.size + 1, 2 ** 53 - 1]) {
    await refused(`GetPerson(${id}) refused`, c.NOT_FOUND, () => s.getPerson(id));
    await refused(`GetPersonLinks(${id}) refused`, c.NOT_FOUND, () => s.getPersonLinks(id));
  }
  await refused("CreatePerson without '@' refused", c.INVALID_ARGUMENT, () => s.createPerson({ ...data.person(1), email: 'no-at-sign' }));
  for (const p of ['', c.payload(4 << 20), 'héllo wörld ✓ 日本語 🚀 "quoted" \\ <tag>']) {
    await attempt(`Echo of ${Buffer.byteLength(p)} bytes`, async () => {
      const got = await s.echo(p);
      return got === p ? null : `${got.length} characters back`;
    });
  }
  await attempt('Stats counts the echoes', async () => {
    const st = await s.stats();
    return st.calls >= 1 ? null : JSON.stringify(st);
  });
  for (const n of [-(1n << 63n), -1n, (1n << 63n) - 2n]) {
    await attempt(`Increment(${n})`, async () => {
      const got = await s.increment(n);
      return got === n + 1n ? null : String(got);
    });
  }
  await refused('StreamTrades(-1) refused', c.INVALID_ARGUMENT, () => s.streamTrades(-1, () => {}));
  await attempt('a stream stopped by its receiver', async () => {
    let seen = 0;
    try {
      await s.streamTrades(c.MAX_TRADES, () => {
        if (++seen === 100) throw c.wrong('enough');
      });
      return 'the stream ran to its end';
    } catch (e) {
      return e.kind === 'wrong_answer' && e.message === 'enough' ? null : String(e);
    }
  });
  await attempt('GetPerson after a stopped stream', async () => { await s.getPerson(1); return null; });
  return failures;
}

module.exports = { run };
