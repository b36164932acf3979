'use strict';
// The command line's flags (worker.js): every command's, by name. check's --address
// is the server's; --target is its name before 2026-11-29, which older drivers pass,
// read as --address.
const { parseArgs } = require('node:util');

function parseFlags(args) {
  const a = parseArgs({ args, options: { listen: { type: 'string' }, protocol: { type: 'string' }, stack: { type: 'string' },
    address: { type: 'string' }, target: { type: 'string' },
    'data-seed': { type: 'string', default: '1' }, 'data-size': { type: 'string', default: '20' } } }).values;
  if (a.target !== undefined) {
    if (a.address !== undefined) throw new TypeError('--target is --address under its former name: give --address');
    a.address = a.target;
    delete a.target;
  }
  return a;
}

module.exports = { parseFlags };
