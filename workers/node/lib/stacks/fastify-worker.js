'use strict';
// A cluster worker of the fastify server (fastify.js): the Fastify app over the data set
// the environment names, its shared state in the primary (over IPC), listening on
// WIREBENCH_LISTEN (the primary shares the socket between its workers). It exits when
// the primary goes away.

const c = require('../contract');
const { buildApp } = require('./fastify');

process.on('disconnect', () => process.exit(0));

const data = new c.Dataset(BigInt(process.env.WIREBENCH_DATA_SEED), Number(process.env.WIREBENCH_DATA_SIZE));
const limit = Number(process.env.WIREBENCH_MAX_MESSAGE_SIZE);
const listen = process.env.WIREBENCH_LISTEN;

let nextReq = 0;
const pending = new Map();
process.on('message', (m) => {
  const r = pending.get(m.id);
  if (r) {
    pending.delete(m.id);
    r(m.value);
  }
});
const ask = (op) => new Promise((resolve) => {
  const id = ++nextReq;
  pending.set(id, resolve);
  process.send({ op, id });
});

// The reference service with its mutable state in the primary.
const local = new c.Reference(data);
const svc = {
  listPersons: () => local.listPersons(),
  getPerson: (id) => local.getPerson(id),
  getPersonLinks: (id) => local.getPersonLinks(id),
  checkTrades: (n) => local.checkTrades(n),
  increment: (n) => local.increment(n),
  async createPerson(p) {
    c.validateNewPerson(p);
    return { ...p, id: await ask('newId') };
  },
  echo(s) {
    process.send({ op: 'echoed', n: Buffer.byteLength(s, 'utf8') });
    return s;
  },
  stats: () => ask('stats'),
};

const app = buildApp(svc, limit);
let opts;
if (listen.startsWith('unix://')) {
  opts = { path: listen.slice(7) };
} else {
  const hp = listen.slice(6);
  const i = hp.lastIndexOf(':');
  opts = { host: hp.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(hp.slice(i + 1)) };
}
app.listen(opts).then(() => {
  const a = app.server.address();
  const address = typeof a === 'string' ? listen : `tcp://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  // Answers are small writes on kept-alive connections: no Nagle delay.
  app.server.on('connection', (sock) => { if (sock.setNoDelay) sock.setNoDelay(true); });
  process.send({ op: 'listening', address });
}, (e) => {
  console.error(`fastify worker: listen on ${listen}: ${e.message}`);
  process.exit(1);
});
