'use strict';
// Runs a workload against clients under a load model, one phase at a time as the driver
// asks (engine/engine.go's Session, as the Rust and Python workers do it), on Node's one
// JavaScript thread. Closed model: `concurrency` callers call back to back, caller i
// taking sequence numbers i, i+n, ...; open model: arrivals at their scheduled times, at
// most `concurrency` in flight, an arrival finding every slot busy waiting for one
// (counted in overflow), its response time and lag counted from its scheduled time.
// Histograms are hdr-histogram-js's (1 ns to 60 s, 3 significant digits), encoded in
// HdrHistogram's V2 compressed form, base64, which the Go driver decodes.

const hdr = require('hdr-histogram-js');
const { CallError, Pcg } = require('./contract');

const LOWEST_NS = 1;
const HIGHEST_NS = 60_000_000_000;
const DEFAULT_MAX_IN_FLIGHT = 1000;

const newHistogram = () => hdr.build({ lowestDiscernibleValue: LOWEST_NS, highestTrackableValue: HIGHEST_NS,
  numberOfSignificantValueDigits: 3, bitBucketSize: 64, useWebAssembly: false });
const encodeHistogram = (h) => hdr.encodeIntoCompressedBase64(h);
const now = () => Number(process.hrtime.bigint());

// A normalized load model share (load.Model after Normalize and Share).
function model(kind, concurrency, connections, rate, arrival, k, n) {
  let poisson = false;
  let open;
  if (kind === 'closed') {
    if (concurrency < 1) throw new RangeError(`closed model: concurrency ${concurrency}, want at least 1`);
    if (rate !== 0) throw new RangeError('closed model: a rate needs the open model');
    open = false;
  } else if (kind === 'open') {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`open model: rate ${rate}, want a positive number of ops per second`);
    if (arrival === 'poisson') poisson = true;
    else if (arrival !== '' && arrival !== 'constant') throw new RangeError(`open model: arrival ${JSON.stringify(arrival)}, want constant or poisson`);
    if (concurrency === 0) concurrency = DEFAULT_MAX_IN_FLIGHT;
    if (concurrency < 1) throw new RangeError(`open model: max in flight ${concurrency}, want at least 1`);
    open = true;
  } else {
    throw new RangeError(`load model ${JSON.stringify(kind)}, want closed or open`);
  }
  connections = connections || 1;
  if (connections < 1 || connections > concurrency) {
    throw new RangeError(`connections ${connections}, want 1 to ${concurrency} (the calls in flight): a connection needs a caller`);
  }
  if (n < 1 || k < 0 || k >= n) throw new RangeError(`load share ${k} of ${n}`);
  if (n > concurrency) throw new RangeError(`${n} load generators for ${concurrency} calls in flight: each needs at least one`);
  const deal = (total) => Math.floor(total / n) + (k < total % n ? 1 : 0);
  const c = deal(concurrency);
  return { open, concurrency: c, connections: Math.min(Math.max(deal(connections), 1), c), rate: open ? rate / n : 0, poisson };
}

// The open model's arrival schedule (load/load.go): offsets in ns from its start.
class Pacer {
  constructor(poisson, rate, seed) {
    this.poisson = poisson;
    this.rate = rate;
    this.i = 0;
    this.t = 0;
    this.r = poisson ? new Pcg(seed, 0x5851f42d4c957f2dn) : null;
  }
  next() {
    if (!this.poisson) return Math.floor((this.i++ * 1e9) / this.rate);
    const d = Math.floor(this.t * 1e9);
    this.t += -Math.log(1 - this.r.float64()) / this.rate;
    return d;
  }
}

class Interval {
  constructor(open) {
    this.ops = 0;
    this.clamped = 0;
    this.overflow = 0;
    this.errors = {};
    this.firstErrors = {};
    this.resp = newHistogram();
    this.service = open ? newHistogram() : null;
    this.lag = open ? newHistogram() : null;
  }
  record(intended, start, end) {
    const r = end - intended;
    this.ops++;
    if (r > HIGHEST_NS) this.clamped++;
    this.resp.recordValue(Math.min(Math.max(r, LOWEST_NS), HIGHEST_NS));
    if (this.service) {
      this.service.recordValue(Math.min(Math.max(end - start, LOWEST_NS), HIGHEST_NS));
      this.lag.recordValue(Math.min(Math.max(start - intended, LOWEST_NS), HIGHEST_NS));
    }
  }
  // A failed call enters no latency histogram: a fast error is no fast answer.
  error(e) {
    const err = e instanceof CallError ? e : new CallError('other', `${e && e.name}: ${e && e.message}`);
    this.errors[err.kind] = (this.errors[err.kind] || 0) + 1;
    if (!(err.kind in this.firstErrors)) this.firstErrors[err.kind] = err.toString();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function withTimeout(p, ms) {
  if (!ms) return p;
  let timer;
  return Promise.race([p, new Promise((_, rej) => {
    timer = setTimeout(() => rej(new CallError('timeout', `call timeout: no answer within ${ms} ms`)), ms);
  })]).finally(() => clearTimeout(timer));
}

// A load generator's state across phases. Owned by the one JavaScript thread.
class Session {
  constructor({ workload, clients, model: m, callTimeoutMs, arrivalSeed, seqOffset, seqStride }) {
    if (clients.length !== m.connections || clients.length === 0) throw new RangeError(`${clients.length} clients for ${m.connections} connections`);
    Object.assign(this, { workload, clients, model: m, callTimeoutMs, arrivalSeed, seqOffset, seqStride });
    this.next = Array.from({ length: m.concurrency }, (_, i) => i);
    this.pacer = null;
    this.rate = m.rate;
    this.begin = 0;
    this.pending = null;
    this.nextSeq = 0;
  }

  async call(iv, client, seq, intended) {
    const start = now();
    try {
      await withTimeout(this.workload.run(client, seq), this.callTimeoutMs);
    } catch (e) {
      iv.error(e);
      return;
    }
    iv.record(intended === null ? start : intended, start, now());
  }

  // One phase: exactly one of durationNs and ops (Numbers, or null).
  async phase(durationNs, ops, restart = false, rate = 0) {
    if ((durationNs === null) === (ops === null)) throw new RangeError('a phase needs exactly one of a duration and an op count');
    if (rate < 0 || !Number.isFinite(rate)) throw new RangeError(`phase rate ${rate}, want a positive rate (or 0 to keep the model's)`);
    if (rate > 0 && !this.model.open) throw new RangeError('a phase rate needs the open model');
    const iv = new Interval(this.model.open);
    const wall = BigInt(Date.now()) * 1_000_000n;
    const start = now();
    if (this.model.open) await this.runOpen(iv, durationNs, ops, restart, rate, start);
    else await this.runClosed(iv, durationNs, ops, start);
    iv.startUnixNanos = wall;
    iv.endUnixNanos = wall + BigInt(now() - start);
    return iv;
  }

  async runClosed(iv, durationNs, ops, start) {
    const deadline = durationNs === null ? null : start + durationNs;
    let budget = ops;
    const n = this.model.concurrency;
    const caller = async (i) => {
      const client = this.clients[i % this.clients.length];
      let k = this.next[i];
      for (;;) {
        if (deadline !== null && now() >= deadline) break;
        if (budget !== null) {
          if (budget <= 0) break;
          budget--;
        }
        await this.call(iv, client, this.seqOffset + this.seqStride * k, null);
        k += n;
      }
      this.next[i] = k;
    };
    await Promise.all(this.next.map((_, i) => caller(i)));
  }

  async runOpen(iv, durationNs, ops, restart, rate, start) {
    if (restart || rate > 0 || this.pacer === null) {
      if (rate > 0) this.rate = rate;
      this.pacer = new Pacer(this.model.poisson, this.rate, this.arrivalSeed);
      this.begin = start;
      this.pending = null;
    }
    const deadline = durationNs === null ? null : start + durationNs;
    let free = this.model.concurrency;
    const waiters = [];
    const inflight = new Set();
    for (let n = 0; ops === null || n < ops; n++) {
      const at = this.pending !== null ? this.pending : this.begin + this.pacer.next();
      this.pending = null;
      if (deadline !== null && at >= deadline) {
        this.pending = at; // it belongs to the next phase
        break;
      }
      const wait = at - now();
      if (wait > 0) await sleep(wait / 1e6);
      if (free === 0) {
        iv.overflow++;
        await new Promise((r) => waiters.push(r));
      }
      free--;
      const seq = this.seqOffset + this.seqStride * this.nextSeq++;
      const p = this.call(iv, this.clients[seq % this.clients.length], seq, at).finally(() => {
        inflight.delete(p);
        free++;
        const w = waiters.shift();
        if (w) w();
      });
      inflight.add(p);
    }
    await Promise.all([...inflight]);
  }
}

module.exports = { model, Pacer, Session, Interval, newHistogram, encodeHistogram, HIGHEST_NS };
