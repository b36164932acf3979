'use strict';
// The client side of the contract: the workloads of contract/workload.go with the same
// names, the same ids per sequence number and the same checks of every answer.
//
// A client stack is an object with these async methods (safe for concurrent use by
// every caller of one connection): listPersons(), getPerson(id), getPersonLinks(id),
// createPerson(p), echo(s), stats(), increment(n) (n and the answer BigInt),
// streamTrades(count, sink) (sink gets each decoded trade in order and may throw to
// stop the stream). A refused call rejects with CallError and the contract code its
// protocol carried back; a call that did not complete with CallError of a transport kind.

const c = require('./contract');

const NAMES = ['person.list', 'person.get', 'person.links', 'person.create', 'person.compose',
  'person.program', 'echo', 'echo+stats', 'pingpong', 'stream'];

const pickId = (ds, seq) => (seq % ds.size) + 1;

async function checkList(s, ds) {
  const got = await s.listPersons();
  if (got.length !== ds.size) throw c.wrong(`ListPersons returned ${got.length} persons, want ${ds.size}`);
  got.forEach((g, i) => {
    if (!c.equal(g, ds.persons[i])) throw c.wrong(`ListPersons[${i}] = ${JSON.stringify(g)}, want ${JSON.stringify(ds.persons[i])}`);
  });
}

async function checkGet(s, ds, id) {
  const got = await s.getPerson(id);
  const want = ds.person(id);
  if (!c.equal(got, want)) throw c.wrong(`GetPerson(${id}) = ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

async function checkLinks(s, ds, id) {
  const got = await s.getPersonLinks(id);
  const want = ds.linksOf(id);
  if (got.length !== want.length) throw c.wrong(`GetPersonLinks(${id}) returned ${got.length} links, want ${want.length}`);
  got.forEach((g, i) => {
    if (!c.equal(g, want[i])) throw c.wrong(`GetPersonLinks(${id})[${i}] = ${JSON.stringify(g)}`);
  });
}

async function checkCreate(s, ds, id) {
  const p = { ...ds.person(id), id: 0 };
  const got = await s.createPerson(p);
  if (!(got.id > ds.size)) throw c.wrong(`CreatePerson assigned id ${got.id}, inside the data set's ids`);
  p.id = got.id;
  if (!c.equal(got, p)) throw c.wrong(`CreatePerson = ${JSON.stringify(got)}, want ${JSON.stringify(p)}`);
}

// A workload bound to its parameters and data set: one op per call of run.
class Workload {
  constructor(name, data, { payload = 0, increments = 0, trades = 0 } = {}) {
    if (!NAMES.includes(name)) throw new RangeError(`unknown workload ${JSON.stringify(name)} (known: ${NAMES.join(', ')})`);
    const echo = name === 'echo' || name === 'echo+stats';
    if (echo && !(payload >= 0 && payload <= c.MAX_PAYLOAD)) throw new RangeError(`${name}: payload ${payload} out of range [0, ${c.MAX_PAYLOAD}]`);
    if (name === 'pingpong' && !(increments >= 1 && increments <= c.MAX_INCREMENTS)) throw new RangeError(`${name}: increments ${increments} out of range [1, ${c.MAX_INCREMENTS}]`);
    if (name === 'stream' && !(trades >= 0 && trades <= c.MAX_TRADES)) throw new RangeError(`${name}: trades ${trades} out of range [0, ${c.MAX_TRADES}]`);
    this.name = name;
    this.data = data;
    this.payload = echo ? c.payload(payload) : '';
    this.payloadLen = Buffer.byteLength(this.payload);
    this.increments = increments;
    this.trades = trades;
  }

  // Runs op seq (a Number) once on s, checking every answer; rejects with CallError.
  async run(s, seq) {
    const ds = this.data;
    switch (this.name) {
      case 'person.get': return checkGet(s, ds, pickId(ds, seq));
      case 'person.list': return checkList(s, ds);
      case 'person.links': return checkLinks(s, ds, pickId(ds, seq));
      case 'person.create': return checkCreate(s, ds, pickId(ds, seq));
      case 'person.compose': {
        const a = pickId(ds, seq * 2);
        const b = pickId(ds, seq * 2 + 1);
        await checkList(s, ds);
        for (const id of [a, b]) {
          await checkGet(s, ds, id);
          await checkLinks(s, ds, id);
        }
        return checkCreate(s, ds, a);
      }
      case 'person.program': {
        // The metrifier original's programComposition: list, get of four ids, the links
        // of the first and the third, create (eight calls).
        const ids = [0, 1, 2, 3].map((i) => pickId(ds, seq * 4 + i));
        await checkList(s, ds);
        for (const id of ids) await checkGet(s, ds, id);
        await checkLinks(s, ds, ids[0]);
        await checkLinks(s, ds, ids[2]);
        return checkCreate(s, ds, ids[0]);
      }
      case 'echo': return this.checkEcho(s);
      case 'echo+stats': {
        await this.checkEcho(s);
        const st = await s.stats();
        // Concurrent ops of one benchmark all send payloads of this size.
        if (!(st.calls >= 1) || st.last_payload_len !== this.payloadLen) {
          throw c.wrong(`Stats = ${JSON.stringify(st)} after Echo of ${this.payloadLen} bytes`);
        }
        return undefined;
      }
      case 'pingpong': {
        let x = BigInt(seq);
        for (let k = 0; k < this.increments; k++) {
          const y = await s.increment(x);
          if (y !== x + 1n) throw c.wrong(`Increment(${x}) = ${y}`);
          x = y;
        }
        return undefined;
      }
      default: { // stream
        let got = 0;
        await s.streamTrades(this.trades, (t) => {
          const want = c.tradeAt(got);
          if (!c.sameTrade(t, want)) throw c.wrong(`trade ${got} = ${JSON.stringify(t, big)}, want ${JSON.stringify(want, big)}`);
          got++;
        });
        if (got !== this.trades) throw c.wrong(`stream delivered ${got} of ${this.trades} trades`);
        return undefined;
      }
    }
  }

  async checkEcho(s) {
    const got = await s.echo(this.payload);
    if (got !== this.payload) throw c.wrong(`Echo returned ${got.length} characters, want the ${this.payload.length} sent`);
  }
}

function big(_, v) { return typeof v === 'bigint' ? v.toString() : v; }

module.exports = { NAMES, Workload, pickId };
