'use strict';
// grpc-proto (docs/protocols.md) with @grpc/grpc-js, as Node services are written with
// it: the contract's schema loaded by @grpc/proto-loader (protobufjs), as grpc's Node
// examples do, @grpc/reflection on (so grpcurl and ghz need no proto file). Server
// `grpc-js`: one grpc.Server in the worker process. Client `grpc-js`: a grpc.Client per
// connection of the load model, each with its own subchannel pool (two clients never
// share an HTTP/2 connection). Refusals carry the contract's code as the gRPC status of
// the Go and Rust stacks. int64 fields travel as decimal strings (proto-loader's
// `longs: String`), so ids, increments and trade timestamps keep every bit.

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { ReflectionService } = require('@grpc/reflection');
const c = require('../contract');

const SCHEMA = path.join(__dirname, '..', '..', '..', '..', 'contract', 'schema', 'wirebench.proto');
const packageDefinition = protoLoader.loadSync(SCHEMA, { keepCase: true, longs: String, enums: String, defaults: true });
const pkg = grpc.loadPackageDefinition(packageDefinition).wirebench.v1;

const STATUS = { not_found: grpc.status.NOT_FOUND, invalid_argument: grpc.status.INVALID_ARGUMENT,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED, internal: grpc.status.INTERNAL };
const CODE = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [v, k]));

function errorOf(e) {
  const msg = e.details || e.message || '';
  if (e.code in CODE) return new c.CallError(CODE[e.code], msg);
  if (e.code === grpc.status.DEADLINE_EXCEEDED) return new c.CallError('timeout', msg);
  if (e.code === grpc.status.CANCELLED) return new c.CallError('canceled', msg);
  if (e.code === grpc.status.UNAVAILABLE) {
    const low = msg.toLowerCase();
    return new c.CallError(low.includes('refused') || low.includes('no such file') || low.includes('enoent') ? 'refused' : 'reset', msg);
  }
  return new c.CallError('other', `${e.code}: ${msg}`);
}

// ---- model <-> messages (proto-loader's plain objects)

function personMsg(p) {
  const m = { id: String(p.id), name: p.name, gender: p.gender, location: p.location, email: p.email };
  if (p.picture) m.picture = p.picture;
  return m;
}

function personOf(m) {
  const p = {
    id: Number(m.id),
    name: { title: m.name.title, first: m.name.first, last: m.name.last },
    gender: m.gender,
    location: { street: m.location.street, city: m.location.city, state: m.location.state, post_code: m.location.post_code },
    email: m.email,
  };
  if (m.picture) p.picture = { large: m.picture.large, medium: m.picture.medium, thumbnail: m.picture.thumbnail };
  return p;
}

const tradeMsg = (t) => ({ id: String(t.id), symbol: t.symbol, price: t.price, quantity: String(t.quantity),
  timestamp_nanos: String(t.timestamp_nanos), side: t.side });
const tradeOf = (m) => ({ id: Number(m.id), symbol: m.symbol, price: m.price, quantity: Number(m.quantity),
  timestamp_nanos: BigInt(m.timestamp_nanos), side: m.side });

// ---- server

function unary(fn) {
  return (call, cb) => {
    try {
      cb(null, fn(call.request));
    } catch (e) {
      if (e instanceof c.CallError) cb({ code: STATUS[e.kind] ?? grpc.status.INTERNAL, details: e.message });
      else cb({ code: grpc.status.INTERNAL, details: String(e) });
    }
  };
}

function serverOptions(limit) {
  return { 'grpc.max_receive_message_length': limit, 'grpc.max_send_message_length': limit };
}

// grpcAddress is a wirebench address as grpc-js names it.
function grpcAddress(addr) {
  if (addr.startsWith('tcp://')) return addr.slice(6);
  if (addr.startsWith('unix://')) return `unix:${addr.slice(7)}`;
  throw new RangeError(`address ${JSON.stringify(addr)}: want tcp://HOST:PORT or unix:///PATH`);
}

function boundAddress(addr, port) {
  if (!addr.startsWith('tcp://')) return addr;
  const hp = addr.slice(6);
  return `tcp://${hp.slice(0, hp.lastIndexOf(':'))}:${port}`;
}

class Server {
  constructor(svc, listen, limit) {
    this.listen = listen;
    this.server = new grpc.Server(serverOptions(limit));
    this.server.addService(pkg.PersonService.service, {
      ListPersons: unary(() => ({ persons: svc.listPersons().map(personMsg) })),
      GetPerson: unary((r) => personMsg(svc.getPerson(Number(r.id)))),
      GetPersonLinks: unary((r) => ({ links: svc.getPersonLinks(Number(r.id)).map((l) => ({ p1: personMsg(l.p1), p2: personMsg(l.p2) })) })),
      CreatePerson: unary((r) => personMsg(svc.createPerson(personOf(r)))),
    });
    this.server.addService(pkg.EchoService.service, {
      Echo: unary((r) => ({ payload: svc.echo(r.payload) })),
      Stats: unary(() => svc.stats()),
      Increment: unary((r) => ({ value: String(svc.increment(r.value)) })),
    });
    // StreamOriginalTrades is left out: grpc-js answers UNIMPLEMENTED (no Node stack
    // carries the REST vs gRPC original's trade).
    this.server.addService(pkg.TradeService.service, {
      StreamTrades: (call) => {
        const count = Number(call.request.count);
        try {
          svc.checkTrades(count);
        } catch (e) {
          call.emit('error', { code: STATUS[e.kind], details: e.message });
          return;
        }
        // Written as the stream drains: a slow reader holds the server back.
        let i = 0;
        let stopped = false;
        call.on('cancelled', () => { stopped = true; });
        const pump = () => {
          while (!stopped && i < count) {
            if (!call.write(tradeMsg(c.tradeAt(i++)))) {
              call.once('drain', pump);
              return;
            }
          }
          if (!stopped) call.end();
        };
        pump();
      },
    });
    new ReflectionService(packageDefinition).addToServer(this.server);
  }

  start() {
    return new Promise((resolve, reject) => {
      this.server.bindAsync(grpcAddress(this.listen), grpc.ServerCredentials.createInsecure(), (err, port) => {
        if (err) return reject(err);
        this.address = boundAddress(this.listen, port);
        return resolve();
      });
    });
  }

  stopped() { return false; }

  stop() {
    return new Promise((resolve) => {
      this.server.forceShutdown();
      resolve();
    });
  }
}

// ---- client

const promisify = (client, method) => (req) => new Promise((resolve, reject) => {
  client[method](req, (err, res) => (err ? reject(errorOf(err)) : resolve(res)));
});

class Client {
  constructor(target, limit) {
    const opts = { ...serverOptions(limit), 'grpc.use_local_subchannel_pool': 1 };
    const addr = grpcAddress(target);
    const creds = grpc.credentials.createInsecure();
    this.persons = new pkg.PersonService(addr, creds, opts);
    // The three services share one channel (one connection), as one client object's
    // stubs do in grpc-go and tonic.
    this.echoSvc = new pkg.EchoService(addr, creds, { ...opts, channelOverride: this.persons.getChannel() });
    this.tradesSvc = new pkg.TradeService(addr, creds, { ...opts, channelOverride: this.persons.getChannel() });
    this.call = {
      list: promisify(this.persons, 'ListPersons'), get: promisify(this.persons, 'GetPerson'),
      links: promisify(this.persons, 'GetPersonLinks'), create: promisify(this.persons, 'CreatePerson'),
      echo: promisify(this.echoSvc, 'Echo'), stats: promisify(this.echoSvc, 'Stats'), inc: promisify(this.echoSvc, 'Increment'),
    };
  }

  async connect() { await this.stats(); }

  async close() { this.persons.close(); }

  async listPersons() { return (await this.call.list({})).persons.map(personOf); }
  async getPerson(id) { return personOf(await this.call.get({ id: String(id) })); }
  async getPersonLinks(id) { return (await this.call.links({ id: String(id) })).links.map((l) => ({ p1: personOf(l.p1), p2: personOf(l.p2) })); }
  async createPerson(p) { return personOf(await this.call.create(personMsg(p))); }
  async echo(s) { return (await this.call.echo({ payload: s })).payload; }
  async stats() {
    const r = await this.call.stats({});
    return { calls: Number(r.calls), last_payload_len: Number(r.last_payload_len) };
  }
  async increment(n) { return BigInt((await this.call.inc({ value: String(n) })).value); }

  streamTrades(count, sink) {
    return new Promise((resolve, reject) => {
      const call = this.tradesSvc.StreamTrades({ count: String(count) });
      let failed = null;
      call.on('data', (m) => {
        if (failed) return;
        try {
          sink(tradeOf(m));
        } catch (e) {
          failed = e;
          call.cancel(); // the receiver stopped: the server's stream is cancelled
        }
      });
      call.on('error', (e) => reject(failed || errorOf(e)));
      call.on('end', () => (failed ? reject(failed) : resolve()));
    });
  }
}

module.exports = { Server, Client, grpcAddress, boundAddress, packageDefinition, errorOf };
