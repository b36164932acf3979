'use strict';
// The http-json client with node:http, as Node services call a JSON API without a
// framework: an http.Agent with keep-alive per connection of the load model (its pool
// of HTTP/1.1 connections shared by that connection's callers), JSON bodies with
// JSON.parse/stringify (int64 increments written and read from their digits, since
// JSON numbers beyond 2^53 lose bits in JavaScript). Refusals are read from the
// contract's error body, or from the status of another server's answer; the trade
// stream is read line by line as it comes.

const http = require('node:http');
const c = require('../contract');

function refusal(status, text) {
  try {
    const b = JSON.parse(text);
    if (b && c.CODES.includes(b.code)) return new c.CallError(b.code, String(b.message ?? ''));
  } catch { /* not the contract's body */ }
  const code = { 404: c.NOT_FOUND, 400: c.INVALID_ARGUMENT, 413: c.RESOURCE_EXHAUSTED, 500: c.INTERNAL }[status];
  return code ? new c.CallError(code, text.slice(0, 200)) : c.wrong(`status ${status}: ${text.slice(0, 200)}`);
}

function transport(e) {
  if (e instanceof c.CallError) return e;
  const code = e && e.code;
  if (code === 'ECONNREFUSED' || code === 'ENOENT') return new c.CallError('refused', e.message);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return new c.CallError('reset', e.message);
  if (code === 'ETIMEDOUT') return new c.CallError('timeout', e.message);
  return new c.CallError('other', `${code || (e && e.name)}: ${e && e.message}`);
}

class Client {
  constructor(target, limit) {
    this.limit = limit;
    this.agent = new http.Agent({ keepAlive: true, noDelay: true });
    if (target.startsWith('tcp://')) {
      const hp = target.slice(6);
      const i = hp.lastIndexOf(':');
      this.base = { host: hp.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(hp.slice(i + 1)) };
    } else if (target.startsWith('unix://')) {
      this.base = { socketPath: target.slice(7) };
    } else {
      throw new RangeError(`target ${JSON.stringify(target)}: want tcp://HOST:PORT or unix:///PATH`);
    }
  }

  async connect() { await this.stats(); }

  async close() { this.agent.destroy(); }

  request(method, path, body, onResponse) {
    return new Promise((resolve, reject) => {
      const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = http.request({ ...this.base, agent: this.agent, method, path, headers }, (res) => {
        onResponse(res, resolve, reject);
      });
      req.on('error', (e) => reject(transport(e)));
      req.end(body);
    });
  }

  // A call's whole answer as text; rejects with the refusal of a non-200 answer.
  async callText(method, path, body) {
    return this.request(method, path, body, (res, resolve, reject) => {
      const chunks = [];
      let n = 0;
      res.on('data', (d) => {
        n += d.length;
        if (n > this.limit) {
          res.destroy();
          reject(new c.CallError(c.RESOURCE_EXHAUSTED, `response body over the client's limit of ${this.limit} bytes`));
        } else chunks.push(d);
      });
      res.on('error', (e) => reject(transport(e)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(refusal(res.statusCode, text));
        else resolve(text);
      });
    });
  }

  async callJson(method, path, body) {
    const text = await this.callText(method, path, body === undefined ? undefined : JSON.stringify(body));
    try {
      return JSON.parse(text);
    } catch (e) {
      throw c.wrong(`${path}: answer is not the contract's JSON: ${e.message}`);
    }
  }

  async listPersons() { return (await this.callJson('GET', '/persons')).persons; }
  async getPerson(id) { return this.callJson('GET', `/persons/${id}`); }
  async getPersonLinks(id) { return (await this.callJson('GET', `/persons/${id}/links`)).links; }
  async createPerson(p) { return this.callJson('POST', '/persons', p); }
  async echo(s) {
    const b = await this.callJson('POST', '/echo', { payload: s });
    if (!('payload' in b)) throw c.wrong('echo answer without "payload"');
    return b.payload;
  }
  async stats() { return this.callJson('GET', '/stats'); }
  async increment(n) {
    const text = await this.callText('POST', '/increment', `{"value":${n}}`);
    const m = /"value"\s*:\s*(-?\d+)/.exec(text);
    if (!m) throw c.wrong(`increment answer without "value": ${text.slice(0, 200)}`);
    return BigInt(m[1]);
  }

  streamTrades(count, sink) {
    return this.request('GET', `/trades?count=${count}`, undefined, (res, resolve, reject) => {
      if (res.statusCode !== 200) {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => reject(refusal(res.statusCode, Buffer.concat(chunks).toString('utf8'))));
        return;
      }
      let buf = '';
      let delivered = 0;
      let done = false;
      const fail = (e) => {
        if (done) return;
        done = true;
        res.destroy(); // the receiver stopped: the connection is closed, not drained
        reject(e);
      };
      res.setEncoding('utf8');
      res.on('data', (d) => {
        if (done) return;
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          let l;
          try {
            l = JSON.parse(line.replace(/"timestamp_nanos":(\d+)/, '"timestamp_nanos":"$1"'));
          } catch (e) {
            return fail(c.wrong(`trade stream line ${delivered + 1}: ${e.message}`));
          }
          if (l.error) return fail(new c.CallError(c.CODES.includes(l.error.code) ? l.error.code : c.INTERNAL, String(l.error.message)));
          if (l.end) {
            done = true;
            return l.end.count === delivered ? resolve() : reject(c.wrong(`stream ended with count ${l.end.count} after ${delivered} trades`));
          }
          if (!('id' in l)) return fail(c.wrong(`trade stream line ${delivered + 1} is neither a trade nor an end`));
          try {
            sink({ ...l, timestamp_nanos: BigInt(l.timestamp_nanos) });
          } catch (e) {
            return fail(e);
          }
          delivered++;
        }
        if (buf.length > this.limit) fail(new c.CallError(c.RESOURCE_EXHAUSTED, `a stream line over the client's limit of ${this.limit} bytes`));
        return undefined;
      });
      res.on('error', (e) => fail(transport(e)));
      res.on('end', () => fail(new c.CallError('reset', `the trade stream ended after ${delivered} trades without its end line`)));
    });
  }
}

module.exports = { Client };
