'use strict';
// The command line's flags: check's --address, and --target, its name before
// 2026-11-29, read as it.
const test = require('node:test');
const assert = require('node:assert');
const { parseFlags } = require('../lib/args');

test('check takes the address as --address and as --target', () => {
  for (const flag of ['--address', '--target']) {
    const a = parseFlags(['--protocol', 'grpc-proto', '--stack', 'grpc-js', flag, 'tcp://127.0.0.1:9']);
    assert.strictEqual(a.address, 'tcp://127.0.0.1:9', flag);
    assert.strictEqual(a.target, undefined, flag);
  }
  assert.strictEqual(parseFlags(['--target=unix:///tmp/x.sock']).address, 'unix:///tmp/x.sock');
  assert.strictEqual(parseFlags([])['data-size'], '20');
});

test('--target and --address together are refused', () => {
  assert.throws(() => parseFlags(['--target', 'tcp://127.0.0.1:1', '--address', 'tcp://127.0.0.1:2']), /give --address/);
});
