'use strict';
// The Node worker's stacks: names, sides and packages (stack/node registers the same on
// the Go side; a test compares the two lists), and how to make each side.

const SERVER = 'server';
const CLIENT = 'client';

const STACKS = [
  { protocol: 'grpc-proto', name: 'grpc-js', sides: [SERVER, CLIENT], packages: ['@grpc/grpc-js', '@grpc/proto-loader', '@grpc/reflection'] },
  { protocol: 'http-json', name: 'fastify', sides: [SERVER], packages: ['fastify'] },
  { protocol: 'http-json', name: 'node-http', sides: [CLIENT], packages: [] },
  // One handler set serves the three Connect protocols (lib/stacks/connect.js).
  ...['connect-proto', 'connect-json', 'grpc-web'].map((protocol) => ({ protocol, name: 'connect-node', sides: [SERVER],
    packages: ['@connectrpc/connect-node', '@connectrpc/connect', '@bufbuild/protobuf'] })),
];

function lookup(protocol, name, side) {
  const s = STACKS.find((x) => x.protocol === protocol && x.name === name);
  if (!s) {
    throw new RangeError(`no ${side} stack ${JSON.stringify(name)} of protocol ${JSON.stringify(protocol)} in the Node worker (it has: ${STACKS.map((x) => `${x.protocol}/${x.name}`).join(', ')})`);
  }
  if (!s.sides.includes(side)) throw new RangeError(`${protocol} stack ${name} has no ${side} side in the Node worker`);
  return s;
}

// An unstarted server (start() binds it; .address is then the bound address).
function newServer(protocol, name, svc, data, dataSeed, listen, limit) {
  lookup(protocol, name, SERVER);
  if (protocol === 'grpc-proto') return new (require('./grpc').Server)(svc, listen, limit);
  if (name === 'connect-node') return new (require('./connect').Server)(svc, listen, limit);
  return new (require('./fastify').ClusterServer)(data, dataSeed, listen, limit);
}

// An unconnected client (connect() opens it).
function newClient(protocol, name, target, limit) {
  lookup(protocol, name, CLIENT);
  if (protocol === 'grpc-proto') return new (require('./grpc').Client)(target, limit);
  return new (require('./httpclient').Client)(target, limit);
}

module.exports = { SERVER, CLIENT, STACKS, lookup, newServer, newClient };
