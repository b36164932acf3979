"""Readings of this process and its machine, as sysstat and internal/host take them for
the Go worker. A server of several processes (uvicorn's and granian's workers) is this
process and its descendants: their CPU time and RSS are summed (children that have
exited and been waited for count through this process's cutime/cstime)."""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import time

_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


# Supervisors of server process groups (stacks/dieexec.py), left out of readings: an
# idle interpreter's RSS is not the server's.
SUPERVISORS: set[int] = set()


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Asks for sig when the parent dies (PR_SET_PDEATHSIG)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, sig, 0, 0, 0)


def cpu_nanos() -> int:
    """This process's CPU time (user + system, every thread)."""
    return time.clock_gettime_ns(time.CLOCK_PROCESS_CPUTIME_ID)


def affinity() -> list[int]:
    return sorted(os.sched_getaffinity(0))


def format_cpu_list(cpus: list[int]) -> str:
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(out)


def _stat(pid: int):
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    fields = s[s.rindex(")") + 2:].split()
    # fields[0] is the state (field 3); ppid is field 4, utime 14, stime 15, cutime 16,
    # cstime 17, rss 24.
    return int(fields[1]), int(fields[11]), int(fields[12]), int(fields[13]), int(fields[14]), int(fields[21])


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = _stat(int(d))[0]
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for c in children.get(p, ()):
            out.append(c)
            todo.append(c)
    return out


def _status_kb(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def read(tree: bool = False, pc=None) -> dict:
    """A reading of this process (tree: and its descendants), cumulative since it
    started, as control.ProcStats fields."""
    me = os.getpid()
    cpu = cpu_nanos()
    rss = _status_kb(me, "VmRSS:")
    peak = _status_kb(me, "VmHWM:")
    if tree:
        _, _, _, cu, cs, _ = _stat(me)
        cpu += (cu + cs) * 1_000_000_000 // _TICK
        for pid in _descendants(me):
            if pid in SUPERVISORS:
                continue
            try:
                _, ut, st, cu, cs, _ = _stat(pid)
            except (OSError, ValueError, IndexError):
                continue  # exited meanwhile
            cpu += (ut + st + cu + cs) * 1_000_000_000 // _TICK
            rss += _status_kb(pid, "VmRSS:")
            peak += _status_kb(pid, "VmHWM:")
    return {"time_unix_nanos": time.time_ns(), "cpu_nanos": cpu, "rss_bytes": rss,
            "peak_rss_bytes": peak, "cpus": len(affinity())}


def _key_value(path: str, key: str) -> str:
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k.strip() == key:
                    return v.strip()
    except OSError:
        pass
    return ""


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def parse_cpu_list(s: str) -> list[int]:
    out = []
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def host() -> dict:
    """The machine, as internal/host describes it."""
    online = _read("/sys/devices/system/cpu/online")
    cores = len(parse_cpu_list(online)) if online else os.cpu_count() or 1
    mem = _key_value("/proc/meminfo", "MemTotal")
    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    os_name = f"linux/{arch}"
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            os_name += f" ({line.split('=', 1)[1].strip(chr(34))})"
    return {
        "hostname": _read("/proc/sys/kernel/hostname"),
        "cpu_model": _key_value("/proc/cpuinfo", "model name"),
        "cores": cores,
        "memory_bytes": int(mem.split()[0]) * 1024 if mem else 0,
        "kernel": _read("/proc/sys/kernel/osrelease"),
        "os": os_name,
        "cpus": format_cpu_list(affinity()),
    }
