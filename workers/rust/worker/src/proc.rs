//! Readings of this process and its machine, as sysstat and internal/host take them
//! for the Go worker: CPU time of the whole process (its CPU clock, in nanoseconds),
//! RSS and peak RSS (/proc/self/status VmRSS, VmHWM), the CPUs it may run on.

use std::fs;

use crate::generated::control::{Host, ProcStats};

/// The process's CPU time (user + system, every thread, exited ones included).
pub fn cpu_nanos() -> i64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec, which ts is.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as i64 * 1_000_000_000 + ts.tv_nsec as i64
}

/// The CPUs this process may run on (its affinity mask).
pub fn affinity() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity fills it for this process.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
    }
}

/// A Linux CPU list: "0-3,6".
pub fn format_cpu_list(cpus: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        out.push(if i == j { cpus[i].to_string() } else { format!("{}-{}", cpus[i], cpus[j]) });
        i = j + 1;
    }
    out.join(",")
}

fn status_kb(status: &str, key: &str) -> i64 {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A reading of this process, cumulative since it started.
pub fn read() -> Result<ProcStats, String> {
    let status = fs::read_to_string("/proc/self/status").map_err(|e| format!("reading /proc/self/status: {e}"))?;
    Ok(ProcStats {
        time_unix_nanos: crate::engine::unix_nanos(),
        cpu_nanos: cpu_nanos(),
        rss_bytes: status_kb(&status, "VmRSS:"),
        peak_rss_bytes: status_kb(&status, "VmHWM:"),
        cpus: affinity().len() as i32,
    })
}

fn key_value(path: &str, key: &str) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// The machine, as internal/host describes it.
pub fn host() -> Host {
    let online = fs::read_to_string("/sys/devices/system/cpu/online")
        .ok()
        .and_then(|s| parse_cpu_list(s.trim()))
        .map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |c| c.len());
    let mem = key_value("/proc/meminfo", "MemTotal")
        .and_then(|v| v.trim_end_matches("kB").trim().parse::<i64>().ok())
        .map_or(0, |kb| kb * 1024);
    let distro = fs::read_to_string("/etc/os-release").ok().and_then(|t| {
        t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
    });
    let mut os = format!("{}/{}", std::env::consts::OS, go_arch());
    if let Some(d) = distro {
        os = format!("{os} ({d})");
    }
    Host {
        hostname: fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default(),
        cpu_model: key_value("/proc/cpuinfo", "model name").unwrap_or_default(),
        cores: online as i32,
        memory_bytes: mem,
        kernel: fs::read_to_string("/proc/sys/kernel/osrelease").map(|s| s.trim().to_string()).unwrap_or_default(),
        os,
        cpus: format_cpu_list(&affinity()),
    }
}

/// The architecture in Go's words, so hosts read alike whatever the worker's language.
fn go_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        a => a,
    }
}

pub fn parse_cpu_list(s: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<usize>().ok()?..=b.parse::<usize>().ok()?),
            None => out.push(part.parse().ok()?),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_round_trip() {
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
        assert_eq!(format_cpu_list(&[1]), "1");
        assert_eq!(parse_cpu_list("0-3,6"), Some(vec![0, 1, 2, 3, 6]));
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn cpu_time_grows_with_work() {
        let before = cpu_nanos();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(cpu_nanos() > before);
    }
}
