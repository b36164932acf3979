'use strict';
// The benchmark contract (contract/ in the Go module) in JavaScript: the seeded data set
// (byte for byte the Go one, checked against contract/testdata), trades, payloads, the
// reference service every server stack serves, and the errors a service refuses calls
// with. Model values are plain objects shaped as the http-json mapping's JSON (a person
// without a picture has no "picture" key); ids are Numbers (the data set's ids and the
// ids a server assigns stay far below 2^53).

const DEFAULT_SEED = 1n;
const DEFAULT_SIZE = 20;
const LINKS_PER_PERSON = 3;
const MAX_TRADES = 10_000_000;
const MAX_PAYLOAD = 64 << 20;
const MAX_INCREMENTS = 1_000_000;
const DEFAULT_MAX_MESSAGE_SIZE = 16 << 20;

const NOT_FOUND = 'not_found';
const INVALID_ARGUMENT = 'invalid_argument';
const RESOURCE_EXHAUSTED = 'resource_exhausted';
const INTERNAL = 'internal';
const CODES = [NOT_FOUND, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL];

// Why a call failed, whatever the protocol: kind is a contract code (a refusal),
// "wrong_answer", or a transport kind of record/errors.go ("timeout", "canceled",
// "refused", "reset", "other").
class CallError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
  toString() {
    return this.kind === 'wrong_answer' ? `wrong answer: ${this.message}` : `${this.kind}: ${this.message}`;
  }
}

const wrong = (m) => new CallError('wrong_answer', m);

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;

// Go's math/rand/v2 PCG (128-bit LCG, DXSM output) and the parts of rand.Rand the data
// set draws with, bit for bit.
class Pcg {
  static MUL = (2549297995355413924n << 64n) | 4865540595714422341n;
  static INC = (6364136223846793005n << 64n) | 1442695040888963407n;
  static CHEAP_MUL = 0xda942042e4dd58b5n;

  constructor(seed1, seed2) {
    this.state = ((BigInt(seed1) & M64) << 64n) | (BigInt(seed2) & M64);
  }

  uint64() {
    this.state = (this.state * Pcg.MUL + Pcg.INC) & M128;
    let hi = this.state >> 64n;
    const lo = this.state & M64;
    hi ^= hi >> 32n;
    hi = (hi * Pcg.CHEAP_MUL) & M64;
    hi ^= hi >> 48n;
    return (hi * (lo | 1n)) & M64;
  }

  // Go's rand.Rand.IntN for n > 0 on a 64-bit machine (Lemire's method), as a Number
  // (the data set's n are small).
  intN(n) {
    return Number(this.intNBig(BigInt(n)));
  }

  intNBig(N) {
    if (N <= 0n) throw new Error(`intN of ${N}`);
    if ((N & (N - 1n)) === 0n) return this.uint64() & (N - 1n);
    let prod = this.uint64() * N;
    if ((prod & M64) < N) {
      const thresh = ((-N) & M64) % N;
      while ((prod & M64) < thresh) prod = this.uint64() * N;
    }
    return prod >> 64n;
  }

  float64() {
    return Number(this.uint64() & ((1n << 53n) - 1n)) / 2 ** 53;
  }
}

const TITLES = ['mr', 'ms', 'mrs', 'miss', 'dr'];
const FIRST_NAMES = ['Amelia', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hiroshi', 'Ingrid',
  'Jonas', 'Kofi', 'Lucía', 'Mateo', 'Nadia', 'Oskar', 'Priya'];
const LAST_NAMES = ['Almeida', 'Berg', 'Castro', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Hansen', 'Ivanova',
  'Jensen', 'Kowalski', 'Laurent', 'Moreau', 'Nakamura', 'Olsen'];
const STREETS = ['Maple Street', 'High Street', 'Station Road', 'Church Lane', 'Mill Road', 'Park Avenue',
  'Victoria Road', 'Green Lane'];
const CITIES = ['Aberdeen', 'Bergen', 'Coimbra', 'Dresden', 'Eindhoven', 'Florence', 'Gdańsk', 'Helsinki',
  'Innsbruck', 'Lyon'];
const STATES = ['Aberdeenshire', 'Vestland', 'Centro', 'Saxony', 'North Brabant', 'Tuscany', 'Pomerania',
  'Uusimaa', 'Tyrol', 'Rhône'];
const DATASET_SEED2 = 0x9e3779b97f4a7c15n;

const pick = (r, s) => s[r.intN(s.length)];

// The draws happen in exactly the order of contract.newPerson: gender, first, last, city,
// title, street number, street, post code, then the picture number.
function newPerson(r, id) {
  const male = r.intN(2) === 0;
  const [gender, folder] = male ? ['male', 'men'] : ['female', 'women'];
  const first = pick(r, FIRST_NAMES);
  const last = pick(r, LAST_NAMES);
  const city = r.intN(CITIES.length);
  const title = pick(r, TITLES);
  const number = 1 + r.intN(9999);
  const street = `${number} ${pick(r, STREETS)}`;
  const postCode = String(r.intN(100000)).padStart(5, '0');
  const email = `${first}.${last}.${id}@example.com`.toLowerCase();
  const p = {
    id,
    name: { title, first, last },
    gender,
    location: { street, city: CITIES[city], state: STATES[city], post_code: postCode },
    email,
  };
  // One person in four has no picture, so every protocol must carry "absent".
  if (id % 4 !== 0) {
    const n = r.intN(100);
    p.picture = {
      large: `https://randomuser.me/api/portraits/${folder}/${n}.jpg`,
      medium: `https://randomuser.me/api/portraits/med/${folder}/${n}.jpg`,
      thumbnail: `https://randomuser.me/api/portraits/thumb/${folder}/${n}.jpg`,
    };
  }
  return p;
}

// The deterministic person store of contract/dataset.go. Immutable.
class Dataset {
  constructor(seed, size) {
    if (!(size >= 1 && size <= 1_000_000)) throw new RangeError(`data set size ${size} out of range [1, 1000000]`);
    const r = new Pcg(seed, DATASET_SEED2);
    this.persons = [];
    for (let i = 0; i < size; i++) this.persons.push(newPerson(r, i + 1));
    this.links = this.persons.map((p, i) => {
      const out = [];
      for (let k = 1; k <= LINKS_PER_PERSON && k < size; k++) out.push({ p1: p, p2: this.persons[(i + k) % size] });
      return out;
    });
  }
  get size() { return this.persons.length; }
  person(id) { return id >= 1 && id <= this.persons.length ? this.persons[id - 1] : undefined; }
  linksOf(id) { return id >= 1 && id <= this.links.length ? this.links[id - 1] : undefined; }
}

const SYMBOLS = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'ASML', 'SAP', 'TSM'];
const TRADE_EPOCH = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z in Unix ns
const BUY = 'BUY';
const SELL = 'SELL';

// Trade i of a StreamTrades stream: every field depends on i only. timestamp_nanos is
// a BigInt (it is above 2^53).
function tradeAt(i) {
  return {
    id: i,
    symbol: SYMBOLS[i % SYMBOLS.length],
    price: (10000 + (i % 90000)) / 100,
    quantity: 1 + (i % 500),
    timestamp_nanos: TRADE_EPOCH + BigInt(i) * 1_000_000n,
    side: i % 2 === 1 ? SELL : BUY,
  };
}

function sameTrade(a, b) {
  return a.id === b.id && a.symbol === b.symbol && a.price === b.price && a.quantity === b.quantity &&
    a.timestamp_nanos === b.timestamp_nanos && a.side === b.side;
}

// A deterministic payload of size bytes: "Hello World " repeated and cut to size.
function payload(size) {
  return 'Hello World '.repeat(Math.floor(size / 12) + 1).slice(0, size);
}

function validateNewPerson(p) {
  const n = p.name || {};
  if (!n.first || !n.last) throw new CallError(INVALID_ARGUMENT, 'person needs a first and a last name');
  const email = p.email || '';
  if (!email.includes('@')) throw new CallError(INVALID_ARGUMENT, `person email ${JSON.stringify(email)} has no '@'`);
}

// The in-memory service every server stack serves (contract/reference.go). One per
// process: Node runs a process's JavaScript on one thread. (The cluster servers keep
// their counters in the primary: stacks/fastify.js.)
class Reference {
  constructor(data) {
    this.data = data;
    this.nextId = data.size;
    this.calls = 0;
    this.lastLen = 0;
  }
  listPersons() { return this.data.persons; }
  getPerson(id) {
    const p = this.data.person(id);
    if (!p) throw new CallError(NOT_FOUND, `no person with id ${id}`);
    return p;
  }
  getPersonLinks(id) {
    const l = this.data.linksOf(id);
    if (!l) throw new CallError(NOT_FOUND, `no person with id ${id}`);
    return l;
  }
  createPerson(p) {
    validateNewPerson(p);
    return { ...p, id: ++this.nextId };
  }
  echo(s) {
    this.calls++;
    this.lastLen = Buffer.byteLength(s, 'utf8');
    return s;
  }
  stats() { return { calls: this.calls, last_payload_len: this.lastLen }; }
  increment(n) { return BigInt.asIntN(64, BigInt(n) + 1n); }
  *trades(count) {
    for (let i = 0; i < count; i++) yield tradeAt(i);
  }
  checkTrades(count) {
    if (!(count >= 0 && count <= MAX_TRADES)) {
      throw new CallError(INVALID_ARGUMENT, `trade count ${count} out of range [0, ${MAX_TRADES}]`);
    }
  }
}

// Deep equality of the contract's JSON-shaped values (a missing key differs from any
// value, as "picture" absent differs from present).
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !equal(a[k], b[k])) return false;
  return true;
}

module.exports = {
  DEFAULT_SEED, DEFAULT_SIZE, LINKS_PER_PERSON, MAX_TRADES, MAX_PAYLOAD, MAX_INCREMENTS, DEFAULT_MAX_MESSAGE_SIZE,
  NOT_FOUND, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL, CODES, BUY, SELL,
  CallError, wrong, Pcg, Dataset, DATASET_SEED2, tradeAt, sameTrade, payload, validateNewPerson, Reference, equal,
};
