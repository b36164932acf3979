'use strict';
// The http-json service (docs/protocols.md) with Fastify, deployed as Node services are
// with the cluster module: one worker process per CPU the server may use (the driver's
// pinning decides), the primary (the Node worker itself) sharing the listening socket
// between them. Each process runs the same Fastify app: JSON schema-less routes with
// Fastify's own JSON parsing and serialization; refusals carry the contract's JSON error
// body {"code":"not_found","message":"..."} with the status of its code; the trade
// stream is NDJSON, one trade a line, ended by {"end":{"count":N}}, written as the
// socket drains.
//
// The reference service's mutable state (the next id CreatePerson assigns, the Echo
// counters) lives in the primary, reached over the cluster's IPC channel: each process
// has its own heap, as a multi-process service keeps shared state outside any one.

const cluster = require('node:cluster');
const path = require('node:path');
const c = require('../contract');
const proc = require('../proc');

const STATUS = { not_found: 404, invalid_argument: 400, resource_exhausted: 413, internal: 500 };
const BATCH = 256; // trades per write, as the Go and Rust servers batch them

const tradeLine = (t) => `{"id":${t.id},"symbol":"${t.symbol}","price":${t.price},"quantity":${t.quantity},"timestamp_nanos":${t.timestamp_nanos},"side":"${t.side}"}`;

// buildApp is the Fastify application over svc (whose createPerson and stats may be
// async), request bodies bounded by limit bytes.
function buildApp(svc, limit) {
  const fastify = require('fastify')({ logger: false, bodyLimit: limit });
  const refuse = (reply, code, message, status) => reply.code(status || STATUS[code] || 500).send({ code, message });
  fastify.setErrorHandler((err, req, reply) => {
    if (err instanceof c.CallError) return refuse(reply, err.kind, err.message);
    if (err.statusCode === 413) return refuse(reply, c.RESOURCE_EXHAUSTED, err.message);
    if (err.statusCode >= 400 && err.statusCode < 500) return refuse(reply, c.INVALID_ARGUMENT, err.message, 400);
    return refuse(reply, c.INTERNAL, String(err.message));
  });
  fastify.setNotFoundHandler((req, reply) => refuse(reply, c.NOT_FOUND, `no route ${req.url.split('?')[0]}`));
  const personId = (text) => {
    if (!/^-?\d+$/.test(text)) throw new c.CallError(c.NOT_FOUND, `no person with id ${JSON.stringify(text)}`);
    return Number(text);
  };
  const body = (req, key) => {
    const b = req.body;
    if (b === null || typeof b !== 'object' || !(key in b)) throw new c.CallError(c.INVALID_ARGUMENT, `body: missing ${JSON.stringify(key)}`);
    return b[key];
  };
  fastify.get('/persons', async () => ({ persons: svc.listPersons() }));
  fastify.post('/persons', async (req) => {
    if (req.body === null || typeof req.body !== 'object') throw new c.CallError(c.INVALID_ARGUMENT, 'bad request body: want a person');
    return svc.createPerson(req.body);
  });
  fastify.get('/persons/:id', async (req) => svc.getPerson(personId(req.params.id)));
  fastify.get('/persons/:id/links', async (req) => ({ links: svc.getPersonLinks(personId(req.params.id)) }));
  fastify.post('/echo', async (req) => {
    const p = body(req, 'payload');
    if (typeof p !== 'string') throw new c.CallError(c.INVALID_ARGUMENT, 'echo body: "payload" is not a string');
    return { payload: svc.echo(p) };
  });
  fastify.post('/increment', async (req, reply) => {
    const v = body(req, 'value');
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new c.CallError(c.INVALID_ARGUMENT, 'increment body: "value" is not an integer');
    // The value may be any int64: the answer is written from the body's own digits.
    const raw = /"value"\s*:\s*(-?\d+)/.exec(req.rawText || '');
    const n = raw ? BigInt(raw[1]) : BigInt(v);
    reply.type('application/json');
    return `{"value":${svc.increment(n)}}`;
  });
  // int64 values beyond 2^53 lose bits in JSON.parse: the raw text is kept for /increment.
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    try {
      req.rawText = text;
      done(null, JSON.parse(text));
    } catch (e) {
      done(new c.CallError(c.INVALID_ARGUMENT, `bad request body: ${e.message}`));
    }
  });
  fastify.get('/stats', async () => svc.stats());
  fastify.get('/trades', (req, reply) => {
    const text = req.query.count;
    if (text === undefined) return refuse(reply, c.INVALID_ARGUMENT, 'missing query parameter count, e.g. /trades?count=100');
    if (!/^-?\d+$/.test(text)) return refuse(reply, c.INVALID_ARGUMENT, `count ${JSON.stringify(text)} is not an integer`);
    const count = Number(text);
    try {
      svc.checkTrades(count);
    } catch (e) {
      return refuse(reply, e.kind, e.message);
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    let i = 0;
    const pump = () => {
      while (i < count) {
        const lines = [];
        for (let k = 0; k < BATCH && i < count; k++) lines.push(tradeLine(c.tradeAt(i++)));
        if (!res.write(lines.join('\n') + '\n')) {
          res.once('drain', pump);
          return;
        }
      }
      res.end(`{"end":{"count":${count}}}\n`);
    };
    res.on('close', () => { i = count + 1; });
    pump();
    return undefined;
  });
  return fastify;
}

// ClusterServer runs the app in cluster workers, one per CPU of this process's affinity.
class ClusterServer {
  constructor(data, dataSeed, listen, limit) {
    this.workers = proc.affinity().length;
    this.listen = listen;
    this.limit = limit;
    this.env = { WIREBENCH_DATA_SEED: String(dataSeed), WIREBENCH_DATA_SIZE: String(data.size), WIREBENCH_MAX_MESSAGE_SIZE: String(limit),
      WIREBENCH_LISTEN: listen };
    this.state = { nextId: data.size, calls: 0, lastLen: 0 };
    this.procs = [];
    this.dead = false;
  }

  onMessage(w, m) {
    const s = this.state;
    if (m.op === 'echoed') {
      s.calls++;
      s.lastLen = m.n;
    } else if (m.op === 'newId') {
      w.send({ id: m.id, value: ++s.nextId });
    } else if (m.op === 'stats') {
      w.send({ id: m.id, value: { calls: s.calls, last_payload_len: s.lastLen } });
    }
  }

  async start(timeoutMs = 30000) {
    cluster.setupPrimary({ exec: path.join(__dirname, 'fastify-worker.js'), args: [], silent: false });
    const listening = [];
    for (let i = 0; i < this.workers; i++) {
      const w = cluster.fork(this.env);
      w.on('message', (m) => this.onMessage(w, m));
      w.on('exit', () => { if (!this.stopping) this.dead = true; });
      this.procs.push(w);
      listening.push(new Promise((resolve, reject) => {
        w.once('message', (m) => (m.op === 'listening' ? resolve(m.address) : null));
        w.once('exit', (code) => reject(new Error(`a fastify worker exited with ${code} before listening`)));
      }));
    }
    let timer;
    const timeout = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`fastify did not listen within ${timeoutMs} ms`)), timeoutMs); });
    try {
      const addrs = await Promise.race([Promise.all(listening), timeout]);
      this.address = addrs[0];
    } catch (e) {
      await this.stop();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  stopped() { return this.dead; }

  async stop() {
    this.stopping = true;
    await Promise.all(this.procs.map((w) => new Promise((resolve) => {
      if (w.isDead()) return resolve();
      w.once('exit', resolve);
      w.kill('SIGTERM');
      return undefined;
    })));
  }
}

module.exports = { buildApp, ClusterServer };
