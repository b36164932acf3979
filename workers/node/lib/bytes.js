'use strict';
// Bytes on the wire of the worker's client connections, as the Go worker's counting
// connection (protocol/transport's Counter) gives them for its clients: what the client
// sent and received over its connections, framing and headers included.
//
// The client stacks' libraries make their own sockets (grpc-js's subchannels and
// node:http's agents, each with net.connect), and node:diagnostics_channel hands every
// client socket over as it is made ('net.client.socket', TCP and Unix alike). node:net
// counts a socket's bytes at its handle (bytesWritten, bytesRead), beneath the
// JavaScript stream, so the HTTP/2 frames nghttp2 writes and reads on a socket that
// http2 has taken over are counted as HTTP/1.1's are, and a closed socket keeps its
// counts. The totals are the process's client sockets': the driver starts a client
// worker per target, which runs one session at a time (a remote worker that holds
// several sessions at once would count their connections together).

const dc = require('node:diagnostics_channel');

const live = new Set();
let closedSent = 0;
let closedRecv = 0;
let subscribed = false;

function onSocket({ socket }) {
  live.add(socket);
  socket.once('close', () => {
    closedSent += socket.bytesWritten || 0;
    closedRecv += socket.bytesRead || 0;
    live.delete(socket);
  });
}

// Starts counting the client sockets made from now on (once per process).
function start() {
  if (subscribed) return;
  dc.subscribe('net.client.socket', onSocket);
  subscribed = true;
}

// The bytes sent and received by every client socket made since start().
function totals() {
  let sent = closedSent;
  let recv = closedRecv;
  for (const s of live) {
    sent += s.bytesWritten || 0;
    recv += s.bytesRead || 0;
  }
  return [sent, recv];
}

module.exports = { start, totals };
