'use strict';
// connect-proto, connect-json and grpc-web (protocol/connectproto) served with
// @connectrpc/connect-node: one handler set for the three protocols, as connect-node
// serves them by default, on node:http2's h2c server (prior knowledge, as the Go Connect
// client speaks it). The services' descriptors are made at start from the contract's
// schema as @grpc/proto-loader parsed it (its serialized FileDescriptorProtos, read by
// @bufbuild/protobuf), so no generated code is kept. Messages are @bufbuild/protobuf's
// (int64 as BigInt). Refusals carry the Connect codes of the contract's names.

const http2 = require('node:http2');
const { create, createFileRegistry, fromBinary } = require('@bufbuild/protobuf');
const { FileDescriptorProtoSchema, FileDescriptorSetSchema } = require('@bufbuild/protobuf/wkt');
const { Code, ConnectError } = require('@connectrpc/connect');
const { connectNodeAdapter } = require('@connectrpc/connect-node');
const c = require('../contract');
const { packageDefinition, grpcAddress, boundAddress } = require('./grpc');

function registry() {
  const seen = new Map();
  for (const def of Object.values(packageDefinition)) {
    for (const b of def.fileDescriptorProtos || []) seen.set(Buffer.from(b).toString('base64'), b);
    for (const m of Object.values(def)) {
      for (const b of (m && m.requestType && m.requestType.fileDescriptorProtos) || []) seen.set(Buffer.from(b).toString('base64'), b);
    }
  }
  const file = [...seen.values()].map((b) => fromBinary(FileDescriptorProtoSchema, b));
  // protobufjs writes type names as the .proto spells them ("PersonName") and empty JSON
  // names; protoc's descriptors have fully qualified type names
  // (".wirebench.v1.PersonName": every type here is in its file's package) and each
  // field's lowerCamelCase JSON name ("post_code" → "postCode").
  const qualify = (f, name) => (name && !name.startsWith('.') ? `.${f.package}.${name}` : name);
  const camel = (n) => n.replace(/_([a-z0-9])/g, (_, ch) => ch.toUpperCase());
  for (const f of file) {
    for (const m of f.messageType) {
      for (const fd of m.field) {
        fd.typeName = qualify(f, fd.typeName);
        if (!fd.jsonName) fd.jsonName = camel(fd.name);
      }
    }
    for (const sv of f.service) {
      for (const md of sv.method) {
        md.inputType = qualify(f, md.inputType);
        md.outputType = qualify(f, md.outputType);
      }
    }
  }
  return createFileRegistry(create(FileDescriptorSetSchema, { file }));
}

const CODE = { not_found: Code.NotFound, invalid_argument: Code.InvalidArgument,
  resource_exhausted: Code.ResourceExhausted, internal: Code.Internal };

function guard(fn) {
  return async (req) => {
    try {
      return fn(req);
    } catch (e) {
      if (e instanceof c.CallError) throw new ConnectError(e.message, CODE[e.kind] ?? Code.Internal);
      throw e;
    }
  };
}

const personMsg = (p) => ({ id: BigInt(p.id), name: p.name, gender: p.gender,
  location: { street: p.location.street, city: p.location.city, state: p.location.state, postCode: p.location.post_code },
  email: p.email, picture: p.picture });

function personOf(m) {
  const p = {
    id: Number(m.id),
    name: { title: m.name?.title ?? '', first: m.name?.first ?? '', last: m.name?.last ?? '' },
    gender: m.gender,
    location: { street: m.location?.street ?? '', city: m.location?.city ?? '', state: m.location?.state ?? '', post_code: m.location?.postCode ?? '' },
    email: m.email,
  };
  if (m.picture) p.picture = { large: m.picture.large, medium: m.picture.medium, thumbnail: m.picture.thumbnail };
  return p;
}

class Server {
  constructor(svc, listen, limit) {
    this.listen = listen;
    const reg = registry();
    const side = reg.getEnum('wirebench.v1.Side');
    const SELL = side.values.find((v) => v.name === 'SELL').number;
    const BUY = side.values.find((v) => v.name === 'BUY').number;
    const routes = (router) => {
      router.service(reg.getService('wirebench.v1.PersonService'), {
        listPersons: guard(() => ({ persons: svc.listPersons().map(personMsg) })),
        getPerson: guard((r) => personMsg(svc.getPerson(Number(r.id)))),
        getPersonLinks: guard((r) => ({ links: svc.getPersonLinks(Number(r.id)).map((l) => ({ p1: personMsg(l.p1), p2: personMsg(l.p2) })) })),
        createPerson: guard((r) => personMsg(svc.createPerson(personOf(r)))),
      });
      router.service(reg.getService('wirebench.v1.EchoService'), {
        echo: guard((r) => ({ payload: svc.echo(r.payload) })),
        stats: guard(() => {
          const s = svc.stats();
          return { calls: BigInt(s.calls), lastPayloadLen: BigInt(s.last_payload_len) };
        }),
        increment: guard((r) => ({ value: svc.increment(r.value) })),
      });
      // StreamOriginalTrades is left out: connect-node answers unimplemented.
      router.service(reg.getService('wirebench.v1.TradeService'), {
        async *streamTrades(r) {
          const count = Number(r.count);
          try {
            svc.checkTrades(count);
          } catch (e) {
            throw new ConnectError(e.message, CODE[e.kind] ?? Code.Internal);
          }
          for (let i = 0; i < count; i++) {
            const t = c.tradeAt(i);
            yield { id: BigInt(t.id), symbol: t.symbol, price: t.price, quantity: BigInt(t.quantity),
              timestampNanos: t.timestamp_nanos, side: t.side === c.SELL ? SELL : BUY };
          }
        },
      });
    };
    this.server = http2.createServer(connectNodeAdapter({ routes, readMaxBytes: limit, writeMaxBytes: limit }));
    // Small answers on a kept connection: no Nagle delay.
    this.server.on('connection', (sock) => sock.setNoDelay(true));
  }

  start() {
    return new Promise((resolve, reject) => {
      const addr = grpcAddress(this.listen);
      const onError = (e) => reject(e);
      this.server.once('error', onError);
      const done = () => {
        this.server.off('error', onError);
        const a = this.server.address();
        this.address = typeof a === 'string' ? this.listen : boundAddress(this.listen, a.port);
        resolve();
      };
      if (addr.startsWith('unix:')) this.server.listen(addr.slice(5), done);
      else {
        const i = addr.lastIndexOf(':');
        this.server.listen(Number(addr.slice(i + 1)), addr.slice(0, i).replace(/^\[|\]$/g, ''), done);
      }
    });
  }

  stopped() { return false; }

  stop() {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      // Sessions still open are closed at once: the benchmark is over.
      setTimeout(resolve, 1000).unref();
    });
  }
}

module.exports = { Server };
