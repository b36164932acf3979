'use strict';
// Readings of this process and its machine, as sysstat and internal/host take them for
// the Go worker. A server of several processes (the cluster module's workers) is this
// process and its descendants: their CPU time and RSS are summed from /proc.

const fs = require('node:fs');
const os = require('node:os');

const TICK = 100; // USER_HZ on Linux
const PAGE = 4096;

function affinity() {
  // /proc/self/status Cpus_allowed_list: the CPUs this process may run on.
  const m = /Cpus_allowed_list:\s*(\S+)/.exec(read('/proc/self/status'));
  return m ? parseCpuList(m[1]) : os.cpus().map((_, i) => i);
}

function parseCpuList(s) {
  const out = [];
  for (const part of s.split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a; i <= (b === undefined ? a : b); i++) out.push(i);
  }
  return out;
}

function formatCpuList(cpus) {
  const out = [];
  for (let i = 0; i < cpus.length;) {
    let j = i;
    while (j + 1 < cpus.length && cpus[j + 1] === cpus[j] + 1) j++;
    out.push(i === j ? `${cpus[i]}` : `${cpus[i]}-${cpus[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

function read(path) {
  try { return fs.readFileSync(path, 'utf8'); } catch { return ''; }
}

// [ppid, utime, stime, cutime, cstime] in ticks, or null.
function stat(pid) {
  const s = read(`/proc/${pid}/stat`);
  if (!s) return null;
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return [Number(f[1]), Number(f[11]), Number(f[12]), Number(f[13]), Number(f[14])];
}

function statusBytes(pid, key) {
  const m = new RegExp(`${key}:\\s*(\\d+)`).exec(read(`/proc/${pid}/status`));
  return m ? Number(m[1]) * 1024 : 0;
}

function descendants(root) {
  const children = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = stat(d);
    if (!st) continue;
    if (!children.has(st[0])) children.set(st[0], []);
    children.get(st[0]).push(Number(d));
  }
  const out = [];
  const todo = [root];
  while (todo.length) {
    for (const c of children.get(todo.pop()) || []) { out.push(c); todo.push(c); }
  }
  return out;
}

// This process's CPU time (user + system, every thread) in ns.
function cpuNanos() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

// A reading of this process (tree: and its descendants), as control.ProcStats fields.
function readProc(tree = false) {
  let cpu = cpuNanos();
  let rss = statusBytes(process.pid, 'VmRSS');
  let peak = statusBytes(process.pid, 'VmHWM');
  if (tree) {
    const me = stat(process.pid);
    if (me) cpu += (me[3] + me[4]) * (1e9 / TICK);
    for (const pid of descendants(process.pid)) {
      const st = stat(pid);
      if (!st) continue;
      cpu += (st[1] + st[2] + st[3] + st[4]) * (1e9 / TICK);
      rss += statusBytes(pid, 'VmRSS');
      peak += statusBytes(pid, 'VmHWM');
    }
  }
  // Field names as control.proto spells them (proto-loader's keepCase).
  return { time_unix_nanos: String(BigInt(Date.now()) * 1_000_000n), cpu_nanos: String(Math.round(cpu)),
    rss_bytes: String(rss), peak_rss_bytes: String(peak), cpus: affinity().length };
}

function host() {
  const online = read('/sys/devices/system/cpu/online').trim();
  const pretty = /PRETTY_NAME="?([^"\n]*)"?/.exec(read('/etc/os-release'));
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] || process.arch;
  const model = /model name\s*:\s*(.*)/.exec(read('/proc/cpuinfo'));
  return {
    hostname: os.hostname(),
    cpu_model: model ? model[1].trim() : '',
    cores: online ? parseCpuList(online).length : os.cpus().length,
    memory_bytes: String(os.totalmem()),
    kernel: os.release(),
    os: `linux/${arch}${pretty ? ` (${pretty[1]})` : ''}`,
    cpus: formatCpuList(affinity()),
  };
}

module.exports = { affinity, cpuNanos, readProc, host, parseCpuList, formatCpuList, PAGE };
