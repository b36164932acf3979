'use strict';
// The Node worker's command line: `worker --listen ADDR` (the control API, for the
// driver), `serve --protocol P --stack S [--listen ADDR]` (one server by hand, until
// interrupted or its stdin closes), `check --protocol P --stack S --address ADDR` (a
// client stack's own checks against a server; --target ADDR, its name before
// 2026-11-29, is read as --address), `list` (the stacks). Usage errors exit 2.

const { parseFlags } = require('./lib/args');
const c = require('./lib/contract');
const stacks = require('./lib/stacks');

function usage(msg) {
  process.stderr.write(`wirebench-node-worker: ${msg}\nusage: node worker.js worker --listen ADDR | serve --protocol P --stack S [--listen ADDR] | check --protocol P --stack S --address ADDR | list\n`);
  process.exit(2);
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  let a;
  try {
    a = parseFlags(rest);
  } catch (e) {
    return usage(e.message);
  }
  if (cmd === 'list') {
    for (const s of stacks.STACKS) process.stdout.write(`${s.protocol}/${s.name}\t${s.sides.join(' and ')}\n`);
    return 0;
  }
  if (cmd === 'worker') {
    if (!a.listen) return usage('worker needs --listen');
    return require('./lib/control').serveWorker(a.listen);
  }
  if (cmd !== 'serve' && cmd !== 'check') return usage(`unknown command ${JSON.stringify(cmd)}`);
  let data;
  try {
    if (!a.protocol || !a.stack) throw new RangeError(`${cmd} needs --protocol and --stack`);
    stacks.lookup(a.protocol, a.stack, cmd === 'serve' ? stacks.SERVER : stacks.CLIENT);
    data = new c.Dataset(BigInt(a['data-seed']), Number(a['data-size']));
  } catch (e) {
    return usage(e.message);
  }
  if (cmd === 'check') {
    if (!a.address) return usage('check needs --address');
    const client = stacks.newClient(a.protocol, a.stack, a.address, c.DEFAULT_MAX_MESSAGE_SIZE);
    try {
      await client.connect();
      return (await require('./lib/check').run(client, data)) ? 1 : 0;
    } catch (e) {
      process.stdout.write(`FAIL connecting to ${a.address}: ${e}\n`);
      return 1;
    } finally {
      await client.close();
    }
  }
  const server = stacks.newServer(a.protocol, a.stack, new c.Reference(data), data, BigInt(a['data-seed']), a.listen || 'tcp://127.0.0.1:0', c.DEFAULT_MAX_MESSAGE_SIZE);
  await server.start();
  process.stdout.write(`listening on ${server.address}\n`);
  await new Promise((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
    process.stdin.on('end', resolve);
    process.stdin.resume();
  });
  await server.stop();
  return 0;
}

main().then((code) => process.exit(code ?? 0), (e) => {
  process.stderr.write(`wirebench-node-worker: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
