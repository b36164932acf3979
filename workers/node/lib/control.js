'use strict';
// The control API (control/controlpb/control.proto) served with @grpc/grpc-js, as the
// Go worker (worker/worker.go) and the Rust and Python workers serve it: Info,
// RunServer (setup, then a process reading per mark), RunClient (setup, contract check,
// Ready, then one Interval per Phase the driver asks for), Quit. Everything runs on
// Node's one JavaScript thread: the control API, the grpc-js server stack and the load
// generator's calls (the Fastify server has its own cluster processes).

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const c = require('./contract');
const proc = require('./proc');
const bytes = require('./bytes');
const stacks = require('./stacks');
const { model, Session, encodeHistogram } = require('./engine');
const { Workload } = require('./workload');
const { grpcAddress, boundAddress } = require('./stacks/grpc');
const pkgJson = require('../package.json');

const PROTO = path.join(__dirname, '..', '..', '..', 'control', 'controlpb', 'control.proto');
const def = protoLoader.loadSync(PROTO, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const cpb = grpc.loadPackageDefinition(def).wirebench.control.v1;

function runtime() {
  return `Node.js ${process.version} (V8 ${process.versions.v8}, @grpc/grpc-js ${require('@grpc/grpc-js/package.json').version})`;
}

const stackNames = () => stacks.STACKS.map((s) => `${s.protocol}/${s.name}`);

// What both sides check of a setup's benchmark once: the data set and the limit.
function checkBenchmark(b, server) {
  const name = server ? b.server_stack : b.client_stack;
  const options = server ? b.server_options : b.client_options;
  stacks.lookup(b.protocol, name, server ? stacks.SERVER : stacks.CLIENT);
  for (const k of Object.keys(options || {})) throw new RangeError(`${b.protocol} stack ${name} has no option ${JSON.stringify(k)} (it has none)`);
  if (!['', 'tcp', 'unix'].includes(b.transport)) throw new RangeError(`transport ${JSON.stringify(b.transport)}: the Node worker's stacks speak tcp and unix`);
  if (b.trade === 'original') {
    throw new RangeError(`the ${name} ${server ? 'server' : 'client'} stack of ${b.protocol} does not carry the original trade shape (trade: original)`);
  }
  const max = Number(b.max_message_size);
  if (max < 0) throw new RangeError(`max message size ${max}, want 0 (the default) or more`);
  return { data: new c.Dataset(BigInt(b.data_seed), b.data_size), limit: max || c.DEFAULT_MAX_MESSAGE_SIZE };
}

const status = (code, details) => Object.assign(new Error(details), { code, details });

// A duplex stream's messages, one at a time.
function reader(call) {
  const queue = [];
  const waiting = [];
  let ended = false;
  const push = (v) => (waiting.length ? waiting.shift()(v) : queue.push(v));
  call.on('data', (m) => push(m));
  call.on('end', () => { ended = true; push(null); });
  call.on('error', () => { ended = true; push(null); });
  call.on('cancelled', () => { ended = true; push(null); });
  return () => (queue.length ? Promise.resolve(queue.shift()) : ended ? Promise.resolve(null) : new Promise((r) => waiting.push(r)));
}

async function runServer(call) {
  const next = reader(call);
  const first = await next();
  if (!first || first.arg !== 'setup') return call.emit('error', status(grpc.status.INVALID_ARGUMENT, 'RunServer: the first message must be a setup'));
  const b = first.setup.benchmark;
  let server;
  try {
    const { data, limit } = checkBenchmark(b, true);
    if (first.setup.tls_cert_pem && first.setup.tls_cert_pem.length) throw new RangeError("the Node worker's servers do not speak TLS");
    server = stacks.newServer(b.protocol, b.server_stack, new c.Reference(data), data, BigInt(b.data_seed), first.setup.listen, limit);
  } catch (e) {
    return call.emit('error', status(grpc.status.INVALID_ARGUMENT, e.message));
  }
  try {
    await server.start();
  } catch (e) {
    return call.emit('error', status(grpc.status.UNAVAILABLE, `starting ${b.server_stack} on ${first.setup.listen}: ${e.message}`));
  }
  try {
    call.write({ address: server.address, proc: proc.readProc(true) });
    // Each mark is answered with a reading; the end of the stream stops the server.
    for (let m = await next(); m; m = await next()) {
      if (m.arg !== 'mark') return call.emit('error', status(grpc.status.INVALID_ARGUMENT, 'RunServer: want a mark'));
      if (server.stopped()) return call.emit('error', status(grpc.status.INTERNAL, `${b.server_stack} server stopped`));
      call.write({ proc: proc.readProc(true) });
    }
    call.end();
  } finally {
    await server.stop();
  }
  return undefined;
}

async function runClient(call) {
  const next = reader(call);
  const first = await next();
  if (!first || first.arg !== 'setup') return call.emit('error', status(grpc.status.INVALID_ARGUMENT, 'RunClient: the first message must be a setup'));
  const setup = first.setup;
  const b = setup.benchmark;
  let m;
  let workload;
  let clients;
  let data;
  const share = setup.share_index;
  const count = Math.max(setup.share_count, 1);
  try {
    let limit;
    ({ data, limit } = checkBenchmark(b, false));
    if (setup.link) throw new RangeError('the Node worker does not implement links (ClientSetup.link)');
    if (setup.tls_ca_pem && setup.tls_ca_pem.length) throw new RangeError("the Node worker's clients do not speak TLS");
    const l = b.load || {};
    m = model(l.kind, l.concurrency, l.connections, l.rate, l.arrival, share, count);
    workload = new Workload(b.workload, data, { payload: Number(b.payload), increments: Number(b.increments), trades: Number(b.trades) });
    clients = Array.from({ length: m.connections }, () => stacks.newClient(b.protocol, b.client_stack, setup.address, limit));
  } catch (e) {
    return call.emit('error', status(grpc.status.INVALID_ARGUMENT, e.message));
  }
  // Bytes are counted from the connections' start, as the Go worker's counter does: the
  // first interval carries the connect and the contract check too.
  bytes.start();
  let [lastSent, lastRecv] = bytes.totals();
  try {
    for (const cl of clients) {
      try {
        await cl.connect();
      } catch (e) {
        return call.emit('error', status(grpc.status.UNAVAILABLE, `connecting to ${setup.address} over ${b.protocol} with ${b.client_stack}: ${e}`));
      }
    }
    const callTimeoutMs = Number(b.call_timeout_nanos) > 0 ? Number(b.call_timeout_nanos) / 1e6 : 0;
    // The contract check: the op once per connection, answers verified.
    const checkMs = Math.max(callTimeoutMs, 30000);
    for (let i = 0; i < clients.length; i++) {
      let timer;
      try {
        await Promise.race([workload.run(clients[i], i), new Promise((_, rej) => {
          timer = setTimeout(() => rej(new Error(`no answer within ${checkMs} ms`)), checkMs);
        })]);
      } catch (e) {
        return call.emit('error', status(grpc.status.FAILED_PRECONDITION, `the target failed the contract check (connection ${i + 1}): ${e}`));
      } finally {
        clearTimeout(timer);
      }
    }
    const session = new Session({ workload, clients, model: m, callTimeoutMs,
      arrivalSeed: BigInt.asUintN(64, BigInt(b.arrival_seed) + BigInt(share)), seqOffset: share, seqStride: count });
    call.write({ ready: { proc: proc.readProc() } });
    for (let msg = await next(); msg; msg = await next()) {
      if (msg.arg !== 'phase') return call.emit('error', status(grpc.status.INVALID_ARGUMENT, 'RunClient: want a phase'));
      const ph = msg.phase;
      const before = proc.cpuNanos();
      let iv;
      try {
        iv = await session.phase(Number(ph.duration_nanos) > 0 ? Number(ph.duration_nanos) : null,
          Number(ph.ops) > 0 ? Number(ph.ops) : null, ph.restart_schedule, ph.rate / count);
      } catch (e) {
        return call.emit('error', status(grpc.status.INVALID_ARGUMENT, e.message));
      }
      const after = proc.cpuNanos();
      const [sent, recv] = bytes.totals();
      const [dSent, dRecv] = [sent - lastSent, recv - lastRecv];
      [lastSent, lastRecv] = [sent, recv];
      const closed = iv.lag === null;
      call.write({ interval: {
        phase: ph.kind, index: ph.index, start_unix_nanos: String(iv.startUnixNanos), end_unix_nanos: String(iv.endUnixNanos),
        ops: String(iv.ops), errors: Object.fromEntries(Object.entries(iv.errors).map(([k, v]) => [k, String(v)])),
        first_errors: iv.firstErrors, response_histogram: encodeHistogram(iv.resp),
        // A closed model's service time is its response time: left empty, as allowed.
        service_histogram: closed ? '' : encodeHistogram(iv.service),
        lag_histogram: closed ? '' : encodeHistogram(iv.lag),
        clamped: String(iv.clamped), overflow: String(iv.overflow),
        // grpc-js and node:http's agent own their sockets: node:net's counts of them
        // (lib/bytes.js).
        bytes_sent: String(dSent), bytes_received: String(dRecv),
        cpu_nanos: String(after - before), proc: proc.readProc(),
      } });
    }
    call.end();
  } finally {
    for (const cl of clients) await cl.close();
  }
  return undefined;
}

// Serves the control API on listen until Quit or the end of standard input.
function serveWorker(listen) {
  return new Promise((resolve, reject) => {
    const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 << 20, 'grpc.max_send_message_length': 64 << 20 });
    let quitting = false;
    const quit = () => {
      if (quitting) return;
      quitting = true;
      server.tryShutdown(() => resolve(0));
      setTimeout(() => { server.forceShutdown(); resolve(0); }, 1000).unref();
    };
    server.addService(cpb.Worker.service, {
      Info: (_, cb) => cb(null, { version: pkgJson.version, stacks: stackNames(), cpus: proc.affinity().length, runtime: runtime(),
        pid: process.pid, host: proc.host(), features: [] }),
      Quit: (_, cb) => { cb(null, {}); setImmediate(quit); },
      RunServer: (call) => { runServer(call).catch((e) => call.emit('error', status(grpc.status.INTERNAL, String(e)))); },
      RunClient: (call) => { runClient(call).catch((e) => call.emit('error', status(grpc.status.INTERNAL, String(e)))); },
    });
    server.bindAsync(grpcAddress(listen), grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) return reject(err);
      process.stdout.write(`listening on ${boundAddress(listen, port)}\n`);
      process.stdin.on('end', quit);
      process.stdin.on('error', quit);
      process.stdin.resume();
      return undefined;
    });
  });
}

module.exports = { serveWorker, runtime, stackNames, checkBenchmark };
