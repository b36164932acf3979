//! Runs a workload against clients under a load model, one phase at a time as the driver
//! asks (engine/engine.go's Session). Closed model: `concurrency` callers call back to
//! back, caller i taking sequence numbers i, i+n, i+2n, ...; open model: arrivals at
//! their scheduled times, at most `concurrency` in flight, an arrival that finds every
//! slot busy waiting for one (counted in overflow), its response time and lag counted
//! from its scheduled time.
//!
//! Recording: callers share a few recorder shards (a caller always uses the same one),
//! each behind its own lock, drained at a phase end when no call is in flight.
//!
//! A phase's calls run as tasks of a JoinSet the phase owns: dropping the phase's future
//! (the driver cancelled the run) aborts every call in flight.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hdrhistogram::Histogram;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::contract::{Error, Pcg};
use crate::workload::{Service, Workload};

/// The histogram range of record/record.go: 1 ns to 60 s at 3 significant digits.
pub const LOWEST_NS: u64 = 1;
pub const HIGHEST_NS: u64 = 60_000_000_000;
pub const SIG_FIGS: u8 = 3;

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(LOWEST_NS, HIGHEST_NS, SIG_FIGS).expect("valid histogram bounds")
}

/// HdrHistogram's V2 compressed encoding in base64, which the Go driver's
/// hdrhistogram-go decodes.
pub fn encode_histogram(h: &Histogram<u64>) -> Result<String, String> {
    use base64::Engine;
    use hdrhistogram::serialization::Serializer;
    let mut buf = Vec::new();
    hdrhistogram::serialization::V2DeflateSerializer::new()
        .serialize(h, &mut buf)
        .map_err(|e| format!("encoding a histogram: {e:?}"))?;
    Ok(base64::engine::general_purpose::STANDARD.encode(buf))
}

/// A normalized load model share (load.Model after Normalize and Share).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub open: bool,
    pub concurrency: usize,
    pub connections: usize,
    pub rate: f64,
    pub poisson: bool,
}

/// The default bound on calls in flight of the open model (load.DefaultMaxInFlight).
const DEFAULT_MAX_IN_FLIGHT: i32 = 1000;

impl Model {
    /// load.Model.Normalize, then load.Share for share k of n.
    pub fn new(kind: &str, concurrency: i32, connections: i32, rate: f64, arrival: &str, k: i32, n: i32) -> Result<Model, String> {
        let mut concurrency = concurrency;
        let mut poisson = false;
        let open = match kind {
            "closed" => {
                if concurrency < 1 {
                    return Err(format!("closed model: concurrency {concurrency}, want at least 1"));
                }
                if rate != 0.0 {
                    return Err("closed model: a rate needs the open model".into());
                }
                false
            }
            "open" => {
                if !(rate > 0.0) || rate.is_infinite() {
                    return Err(format!("open model: rate {rate}, want a positive number of ops per second"));
                }
                match arrival {
                    "" | "constant" => {}
                    "poisson" => poisson = true,
                    _ => return Err(format!("open model: arrival {arrival:?}, want constant or poisson")),
                }
                if concurrency == 0 {
                    concurrency = DEFAULT_MAX_IN_FLIGHT;
                }
                if concurrency < 1 {
                    return Err(format!("open model: max in flight {concurrency}, want at least 1"));
                }
                true
            }
            _ => return Err(format!("load model {kind:?}, want closed or open")),
        };
        let connections = if connections == 0 { 1 } else { connections };
        if connections < 1 || connections > concurrency {
            return Err(format!(
                "connections {connections}, want 1 to {concurrency} (the calls in flight): a connection needs a caller"
            ));
        }
        if n < 1 || k < 0 || k >= n {
            return Err(format!("load share {k} of {n}"));
        }
        if n > concurrency {
            return Err(format!("{n} load generators for {concurrency} calls in flight: each needs at least one"));
        }
        let deal = |total: i32| total / n + i32::from(k < total % n);
        let concurrency = deal(concurrency);
        let connections = deal(connections).max(1).min(concurrency);
        Ok(Model {
            open,
            concurrency: concurrency as usize,
            connections: connections as usize,
            rate: if open { rate / n as f64 } else { 0.0 },
            poisson,
        })
    }
}

/// What one phase asks for: exactly one of duration and ops.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseSpec {
    pub duration: Option<Duration>,
    pub ops: Option<u64>,
    pub restart_schedule: bool,
    /// Open model: a rate that replaces the model's from this phase on (0: keep).
    pub rate: f64,
}

/// What a phase measured.
#[derive(Debug)]
pub struct Interval {
    pub start_unix_nanos: i64,
    pub end_unix_nanos: i64,
    pub ops: i64,
    pub errors: HashMap<String, i64>,
    pub first_errors: HashMap<String, String>,
    pub resp: Histogram<u64>,
    /// Empty in the closed model, where service time is response time.
    pub service: Histogram<u64>,
    pub lag: Option<Histogram<u64>>,
    pub clamped: i64,
    pub overflow: i64,
}

struct Recorder {
    ops: i64,
    clamped: i64,
    errors: HashMap<String, i64>,
    first_errors: HashMap<String, String>,
    resp: Histogram<u64>,
    service: Option<Histogram<u64>>,
    lag: Option<Histogram<u64>>,
}

impl Recorder {
    fn new(open: bool) -> Recorder {
        Recorder {
            ops: 0,
            clamped: 0,
            errors: HashMap::new(),
            first_errors: HashMap::new(),
            resp: new_histogram(),
            service: open.then(new_histogram),
            lag: open.then(new_histogram),
        }
    }

    fn record(&mut self, intended: Instant, start: Instant, end: Instant) {
        let r = end.saturating_duration_since(intended).as_nanos() as u64;
        self.ops += 1;
        if r > HIGHEST_NS {
            self.clamped += 1; // response time is the longest of the three
        }
        record_clamped(&mut self.resp, r);
        if let Some(s) = &mut self.service {
            record_clamped(s, end.saturating_duration_since(start).as_nanos() as u64);
        }
        if let Some(l) = &mut self.lag {
            record_clamped(l, start.saturating_duration_since(intended).as_nanos() as u64);
        }
    }

    /// A failed call enters no latency histogram: a fast error is no fast answer.
    fn error(&mut self, e: &Error) {
        let kind = e.kind();
        *self.errors.entry(kind.to_string()).or_insert(0) += 1;
        self.first_errors.entry(kind.to_string()).or_insert_with(|| e.to_string());
    }

    fn drain_into(&mut self, iv: &mut Interval) {
        iv.ops += self.ops;
        iv.clamped += self.clamped;
        for (k, n) in self.errors.drain() {
            *iv.errors.entry(k).or_insert(0) += n;
        }
        for (k, t) in self.first_errors.drain() {
            iv.first_errors.entry(k).or_insert(t);
        }
        iv.resp.add(&self.resp).expect("same histogram bounds");
        self.resp.reset();
        if let Some(s) = &mut self.service {
            iv.service.add(&*s).expect("same histogram bounds");
            s.reset();
        }
        if let (Some(l), Some(ivl)) = (&mut self.lag, &mut iv.lag) {
            ivl.add(&*l).expect("same histogram bounds");
            l.reset();
        }
        self.ops = 0;
        self.clamped = 0;
    }
}

/// Records v clamped into the range (below 1 ns is a clock step; the call took time).
fn record_clamped(h: &mut Histogram<u64>, v: u64) {
    h.record(v.clamp(LOWEST_NS, HIGHEST_NS)).expect("a value within the bounds");
}

/// The session's configuration. seq_offset and seq_stride place its sequence numbers
/// among other client workers' (0 and 1 alone).
pub struct Config<S> {
    pub workload: Workload,
    pub clients: Vec<Arc<S>>,
    pub model: Model,
    pub call_timeout: Option<Duration>,
    pub arrival_seed: u64,
    pub seq_offset: u64,
    pub seq_stride: u64,
}

/// A load generator's state across phases. Owned by one task.
pub struct Session<S> {
    cfg: Arc<Config<S>>,
    shards: Arc<Vec<Mutex<Recorder>>>,
    /// Closed model: caller i's next k (its next seq is offset + stride*(i + k*n)).
    next: Vec<u64>,
    // Open-model schedule.
    pacer: Option<Pacer>,
    rate: f64,
    begin: Instant,
    pending: Option<Instant>,
    next_seq: u64,
}

impl<S: Service> Session<S> {
    pub fn new(cfg: Config<S>) -> Result<Session<S>, String> {
        if cfg.clients.len() != cfg.model.connections || cfg.clients.is_empty() {
            return Err(format!("{} clients for {} connections", cfg.clients.len(), cfg.model.connections));
        }
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shards = cfg.model.concurrency.min(2 * cpus).min(32).max(1);
        let open = cfg.model.open;
        Ok(Session {
            next: (0..cfg.model.concurrency as u64).collect(),
            rate: cfg.model.rate,
            cfg: Arc::new(cfg),
            shards: Arc::new((0..shards).map(|_| Mutex::new(Recorder::new(open))).collect()),
            pacer: None,
            begin: Instant::now(),
            pending: None,
            next_seq: 0,
        })
    }

    /// Runs one phase and returns what it measured.
    pub async fn phase(&mut self, ph: PhaseSpec) -> Result<Interval, String> {
        if ph.duration.is_some() == ph.ops.is_some() {
            return Err("a phase needs exactly one of a duration and an op count".into());
        }
        if ph.rate < 0.0 || !ph.rate.is_finite() {
            return Err(format!("phase rate {}, want a positive rate (or 0 to keep the model's)", ph.rate));
        }
        let open = self.cfg.model.open;
        if ph.rate > 0.0 && !open {
            return Err("a phase rate needs the open model".into());
        }
        let start_wall = unix_nanos();
        let start = Instant::now();
        let overflow = if open { self.run_open(ph, start).await } else { self.run_closed(ph, start).await };
        let end = Instant::now(); // the last call's end: merging is not part of the phase
        let end_wall = start_wall + end.duration_since(start).as_nanos() as i64;
        let mut iv = Interval {
            start_unix_nanos: start_wall,
            end_unix_nanos: end_wall,
            ops: 0,
            errors: HashMap::new(),
            first_errors: HashMap::new(),
            resp: new_histogram(),
            service: new_histogram(),
            lag: open.then(new_histogram),
            clamped: 0,
            overflow,
        };
        for s in self.shards.iter() {
            s.lock().expect("recorder lock").drain_into(&mut iv);
        }
        Ok(iv)
    }

    async fn run_closed(&mut self, ph: PhaseSpec, start: Instant) -> i64 {
        let deadline = ph.duration.map(|d| start + d);
        let budget = ph.ops.map(|n| Arc::new(AtomicI64::new(n as i64)));
        let n = self.cfg.model.concurrency as u64;
        let mut set = JoinSet::new();
        for (i, next) in self.next.iter().copied().enumerate() {
            let cfg = self.cfg.clone();
            let shards = self.shards.clone();
            let budget = budget.clone();
            set.spawn(async move {
                let client = &cfg.clients[i % cfg.clients.len()];
                let shard = &shards[i % shards.len()];
                let mut k = next;
                loop {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    if budget.as_ref().is_some_and(|b| b.fetch_sub(1, Ordering::Relaxed) <= 0) {
                        break;
                    }
                    let seq = cfg.seq_offset.wrapping_add(cfg.seq_stride.wrapping_mul(k));
                    call(&cfg, client, shard, seq, None).await;
                    k += n;
                }
                (i, k)
            });
        }
        while let Some(r) = set.join_next().await {
            if let Ok((i, k)) = r {
                self.next[i] = k;
            }
        }
        0
    }

    async fn run_open(&mut self, ph: PhaseSpec, start: Instant) -> i64 {
        if ph.restart_schedule || ph.rate > 0.0 || self.pacer.is_none() {
            if ph.rate > 0.0 {
                self.rate = ph.rate;
            }
            self.pacer = Some(Pacer::new(self.cfg.model.poisson, self.rate, self.cfg.arrival_seed));
            self.begin = start;
            self.pending = None;
        }
        let deadline = ph.duration.map(|d| start + d);
        let slots = Arc::new(Semaphore::new(self.cfg.model.concurrency));
        let mut set = JoinSet::new();
        let mut overflow = 0;
        let mut n = 0u64;
        while ph.ops.is_none_or(|ops| n < ops) {
            let at = match self.pending.take() {
                Some(at) => at,
                None => self.begin + Duration::from_nanos(self.pacer.as_mut().expect("a schedule").next()),
            };
            if deadline.is_some_and(|d| at >= d) {
                self.pending = Some(at); // it belongs to the next phase
                break;
            }
            tokio::time::sleep_until(at.into()).await;
            let permit = match slots.clone().try_acquire_owned() {
                Ok(p) => p,
                Err(_) => {
                    overflow += 1;
                    slots.clone().acquire_owned().await.expect("the semaphore is never closed")
                }
            };
            let seq = self.cfg.seq_offset.wrapping_add(self.cfg.seq_stride.wrapping_mul(self.next_seq));
            self.next_seq += 1;
            let cfg = self.cfg.clone();
            let shards = self.shards.clone();
            set.spawn(async move {
                let client = &cfg.clients[(seq % cfg.clients.len() as u64) as usize];
                let shard = &shards[(seq % shards.len() as u64) as usize];
                call(&cfg, client, shard, seq, Some(at)).await;
                drop(permit);
            });
            n += 1;
            // Reap finished calls as we go, so the set does not grow with the phase.
            while set.try_join_next().is_some() {}
        }
        while set.join_next().await.is_some() {}
        overflow
    }
}

/// Makes one call intended at `intended` (None: at its start) and records it.
async fn call<S: Service>(cfg: &Config<S>, client: &S, shard: &Mutex<Recorder>, seq: u64, intended: Option<Instant>) {
    let start = Instant::now();
    let op = cfg.workload.run(client, seq);
    let result = match cfg.call_timeout {
        Some(limit) => match tokio::time::timeout(limit, op).await {
            Ok(r) => r,
            Err(_) => Err(Error::Transport("timeout", format!("call timeout: no answer within {limit:?}"))),
        },
        None => op.await,
    };
    let end = Instant::now();
    let mut rec = shard.lock().expect("recorder lock");
    match result {
        Ok(()) => rec.record(intended.unwrap_or(start), start, end),
        Err(e) => rec.error(&e),
    }
}

/// The open model's arrival schedule (load/load.go): offsets in nanoseconds from the
/// schedule's start, never decreasing. Constant: offset i is i/rate, from the index so
/// rounding does not build up. Poisson: exponential gaps of mean 1/rate drawn by
/// inversion from a PCG seeded as the Go pacer's (seed, 0x5851f42d4c957f2d), so the
/// schedule is alike in law to Go's (which draws with a ziggurat), not arrival for arrival.
enum Pacer {
    Constant { rate: f64, i: u64 },
    Poisson { rate: f64, r: Pcg, t: f64 },
}

impl Pacer {
    fn new(poisson: bool, rate: f64, seed: u64) -> Pacer {
        if poisson {
            Pacer::Poisson { rate, r: Pcg::new(seed, 0x5851f42d4c957f2d), t: 0.0 }
        } else {
            Pacer::Constant { rate, i: 0 }
        }
    }

    fn next(&mut self) -> u64 {
        match self {
            Pacer::Constant { rate, i } => {
                let d = (*i as f64 * 1e9 / *rate) as u64;
                *i += 1;
                d
            }
            Pacer::Poisson { rate, r, t } => {
                let d = (*t * 1e9) as u64;
                *t += -(1.0 - r.float64()).ln() / *rate;
                d
            }
        }
    }
}

pub fn unix_nanos() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_deals_calls_and_connections() {
        // 10 calls over 3 generators: 4, 3, 3; 2 connections: 1, 1, and at least 1.
        let m = Model::new("closed", 10, 2, 0.0, "", 0, 3).unwrap();
        assert_eq!((m.concurrency, m.connections), (4, 1));
        let m = Model::new("closed", 10, 2, 0.0, "", 2, 3).unwrap();
        assert_eq!((m.concurrency, m.connections), (3, 1));
        // An open model's rate is split evenly; max in flight defaults to 1000.
        let m = Model::new("open", 0, 0, 900.0, "poisson", 1, 3).unwrap();
        assert_eq!((m.concurrency, m.rate, m.poisson), (333, 300.0, true));
    }

    #[test]
    fn bad_models_are_refused() {
        assert!(Model::new("closed", 0, 0, 0.0, "", 0, 1).is_err());
        assert!(Model::new("closed", 4, 5, 0.0, "", 0, 1).is_err()); // a connection needs a caller
        assert!(Model::new("open", 4, 1, 0.0, "", 0, 1).is_err());
        assert!(Model::new("open", 4, 1, 10.0, "bursty", 0, 1).is_err());
        assert!(Model::new("spiral", 4, 1, 0.0, "", 0, 1).is_err());
        assert!(Model::new("closed", 2, 1, 0.0, "", 0, 3).is_err()); // 3 generators, 2 calls
    }

    #[test]
    fn constant_pacer_offsets_come_from_the_index() {
        // 3 per second: 0, 1/3 s, 2/3 s, 1 s.
        let mut p = Pacer::new(false, 3.0, 1);
        let got: Vec<u64> = (0..4).map(|_| p.next()).collect();
        assert_eq!(got, vec![0, 333_333_333, 666_666_666, 1_000_000_000]);
    }
}
