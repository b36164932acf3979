//! The control API (control/controlpb/control.proto) served with tonic, as the Go
//! worker (worker/worker.go) and the JVM worker serve it: Info, RunServer (setup, then
//! a process reading per mark), RunClient (setup, contract check, Ready, then one
//! Interval per Phase the driver asks for), Quit.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::Stream;
use tokio::sync::{Notify, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use crate::contract::{self, Dataset, Reference};
use crate::engine::{self, Config, Model, PhaseSpec, Session};
use crate::generated::control::worker_server::Worker;
use crate::generated::control::{
    Benchmark, ClientArgs, ClientStatus, InfoReply, InfoRequest, Interval, QuitReply, QuitRequest, Ready, ServerArgs,
    ServerStatus, client_args, client_status, server_args,
};
use crate::stack::{self, AnyClient};
use crate::transport::{Addr, Counter, Listener};
use crate::workload::{Params, Workload};
use crate::proc;

/// The worker. Each RunServer or RunClient stream is independent. Safe for concurrent use.
pub struct WorkerService {
    pub quit: Arc<Notify>,
}

/// The runtime, as InfoReply.runtime reports it.
pub fn runtime() -> String {
    format!("rustc {} (tokio {})", env!("WIREBENCH_RUSTC_VERSION"), stack::TOKIO)
}

/// The stacks this worker runs, as "protocol/stack".
pub fn stack_names() -> Vec<String> {
    stack::STACKS.iter().map(|s| format!("{}/{}", s.protocol, s.name)).collect()
}

fn invalid(m: impl Into<String>) -> Status {
    Status::invalid_argument(m.into())
}

fn proc_stats() -> Result<crate::generated::control::ProcStats, Status> {
    proc::read().map_err(|e| Status::internal(format!("reading process statistics: {e}")))
}

/// What both sides check of a setup's benchmark once.
pub(crate) struct Checked {
    data: Arc<Dataset>,
    limit: usize,
}

pub(crate) fn check_benchmark(b: &Benchmark, server: bool) -> Result<Checked, Status> {
    let (stack, options) = if server { (&b.server_stack, &b.server_options) } else { (&b.client_stack, &b.client_options) };
    stack::lookup(&b.protocol, stack, server).map_err(invalid)?;
    if let Some(name) = options.keys().next() {
        return Err(invalid(format!("{} stack {stack} has no option {name:?} (it has none)", b.protocol)));
    }
    if b.transport != "tcp" && b.transport != "unix" && !b.transport.is_empty() {
        return Err(invalid(format!("transport {:?}: the Rust worker's stacks speak tcp and unix", b.transport)));
    }
    // No Rust stack carries the REST vs gRPC original's trade (the driver refuses such a
    // run first: stack/rust registers the stacks without it); refuse it here too rather
    // than stream the compact one.
    if b.trade == "original" {
        return Err(invalid(format!(
            "the {stack} {} stack of {} does not carry the original trade shape (trade: original)",
            if server { "server" } else { "client" },
            b.protocol
        )));
    }
    if b.max_message_size < 0 {
        return Err(invalid(format!("max message size {}, want 0 (the default) or more", b.max_message_size)));
    }
    let limit = if b.max_message_size == 0 { contract::DEFAULT_MAX_MESSAGE_SIZE } else { b.max_message_size };
    let data = Dataset::new(b.data_seed, b.data_size).map_err(invalid)?;
    Ok(Checked { data: Arc::new(data), limit: usize::try_from(limit).unwrap_or(usize::MAX) })
}

type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

#[tonic::async_trait]
impl Worker for WorkerService {
    type RunServerStream = BoxStream<ServerStatus>;
    type RunClientStream = BoxStream<ClientStatus>;

    async fn info(&self, _: Request<InfoRequest>) -> Result<Response<InfoReply>, Status> {
        Ok(Response::new(InfoReply {
            version: env!("CARGO_PKG_VERSION").to_string(),
            stacks: stack_names(),
            cpus: proc::affinity().len() as i32,
            runtime: runtime(),
            pid: std::process::id() as i32,
            host: Some(proc::host()),
            // No "link": a link's proxy is the Go worker's (ClientSetup.link is refused).
            features: vec![],
        }))
    }

    async fn quit(&self, _: Request<QuitRequest>) -> Result<Response<QuitReply>, Status> {
        self.quit.notify_one();
        Ok(Response::new(QuitReply {}))
    }

    async fn run_server(&self, req: Request<Streaming<ServerArgs>>) -> Result<Response<Self::RunServerStream>, Status> {
        let mut inbound = req.into_inner();
        let setup = match inbound.message().await?.and_then(|m| m.arg) {
            Some(server_args::Arg::Setup(s)) => s,
            _ => return Err(invalid("RunServer: the first message must be a setup")),
        };
        let b = setup.benchmark.ok_or_else(|| invalid("setup without a benchmark"))?;
        let c = check_benchmark(&b, true)?;
        let addr = Addr::parse(&setup.listen).map_err(invalid)?;
        let ln = Listener::bind(&addr).await.map_err(|e| Status::unavailable(format!("listen on {addr}: {e}")))?;
        let svc = Arc::new(Reference::new(c.data));
        let message = if b.workload == "message" {
            Some(stack::message::descriptor(&b.message_schema, &b.message_name).map_err(invalid)?)
        } else {
            None
        };
        let running = stack::serve(&b.protocol, &b.server_stack, svc, ln, c.limit, message).map_err(invalid)?;
        let first = ServerStatus { address: running.addr.to_string(), proc: Some(proc_stats()?) };
        let (tx, rx) = mpsc::channel(4);
        let _ = tx.send(Ok(first)).await;
        let name = b.server_stack.clone();
        tokio::spawn(async move {
            // Each mark is answered with a reading; the end of the stream (or its
            // failure: the driver went away) stops the server.
            loop {
                let status = match inbound.message().await {
                    Ok(Some(ServerArgs { arg: Some(server_args::Arg::Mark(_)) })) if running.stopped() => {
                        Err(Status::internal(format!("{name} server stopped")))
                    }
                    Ok(Some(ServerArgs { arg: Some(server_args::Arg::Mark(_)) })) => {
                        proc_stats().map(|p| ServerStatus { address: String::new(), proc: Some(p) })
                    }
                    Ok(Some(_)) => Err(invalid("RunServer: want a mark")),
                    Ok(None) | Err(_) => break,
                };
                let failed = status.is_err();
                if tx.send(status).await.is_err() || failed {
                    break;
                }
            }
            running.stop().await;
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn run_client(&self, req: Request<Streaming<ClientArgs>>) -> Result<Response<Self::RunClientStream>, Status> {
        let mut inbound = req.into_inner();
        let setup = match inbound.message().await?.and_then(|m| m.arg) {
            Some(client_args::Arg::Setup(s)) => s,
            _ => return Err(invalid("RunClient: the first message must be a setup")),
        };
        let b = setup.benchmark.ok_or_else(|| invalid("setup without a benchmark"))?;
        let c = check_benchmark(&b, false)?;
        if setup.link.is_some() {
            return Err(invalid("the Rust worker does not implement links (ClientSetup.link)"));
        }
        let (share, count) = (setup.share_index, setup.share_count.max(1));
        let load = b.load.clone().unwrap_or_default();
        let model = Model::new(&load.kind, load.concurrency, load.connections, load.rate, &load.arrival, share, count)
            .map_err(invalid)?;
        let params = Params { payload: b.payload, increments: b.increments, trades: b.trades };
        let workload = Workload::new(&b.workload, params, c.data).map_err(invalid)?;
        let target = Addr::parse(&setup.address).map_err(|e| invalid(format!("address: {e}")))?;
        let counter = Arc::new(Counter::default());
        let mut clients = Vec::with_capacity(model.connections);
        for _ in 0..model.connections {
            let connect = AnyClient::connect(&b.protocol, &b.client_stack, &target, c.limit, counter.clone());
            let client = match tokio::time::timeout(Duration::from_secs(10), connect).await {
                Ok(Ok(c)) => c,
                Ok(Err(e)) => {
                    return Err(Status::unavailable(format!(
                        "connecting to {target} over {} with {}: {e}",
                        b.protocol, b.client_stack
                    )));
                }
                Err(_) => return Err(Status::unavailable(format!("connecting to {target}: no connection within 10s"))),
            };
            clients.push(Arc::new(client));
        }
        let call_timeout = (b.call_timeout_nanos > 0).then(|| Duration::from_nanos(b.call_timeout_nanos as u64));
        // The contract check: the op once per connection, answers verified, with a limit
        // long enough for a cold server.
        let limit = call_timeout.unwrap_or_default().max(Duration::from_secs(30));
        for (i, cl) in clients.iter().enumerate() {
            let r = tokio::time::timeout(limit, workload.run(cl.as_ref(), i as u64)).await;
            let fail = match r {
                Ok(Ok(())) => continue,
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {limit:?}"),
            };
            return Err(Status::failed_precondition(format!(
                "the target failed the contract check (connection {}): {fail}",
                i + 1
            )));
        }
        let mut session = Session::new(Config {
            workload,
            clients,
            model,
            call_timeout,
            arrival_seed: b.arrival_seed.wrapping_add(share as u64),
            seq_offset: share as u64,
            seq_stride: count as u64,
        })
        .map_err(invalid)?;
        let (tx, rx) = mpsc::channel(4);
        let ready = ClientStatus { status: Some(client_status::Status::Ready(Ready { proc: Some(proc_stats()?) })) };
        let _ = tx.send(Ok(ready)).await;
        let rate_share = count as f64;
        tokio::spawn(async move {
            let (mut last_sent, mut last_recv) = (0i64, 0i64);
            loop {
                let ph = match inbound.message().await {
                    Ok(Some(ClientArgs { arg: Some(client_args::Arg::Phase(p)) })) => p,
                    Ok(Some(_)) => {
                        let _ = tx.send(Err(invalid("RunClient: want a phase"))).await;
                        return;
                    }
                    Ok(None) | Err(_) => return, // the run is over, or the driver went away
                };
                let spec = PhaseSpec {
                    duration: (ph.duration_nanos > 0).then(|| Duration::from_nanos(ph.duration_nanos as u64)),
                    ops: (ph.ops > 0).then_some(ph.ops as u64),
                    restart_schedule: ph.restart_schedule,
                    rate: ph.rate / rate_share,
                };
                // The phase's CPU is read around the phase alone.
                let before = proc::cpu_nanos();
                let iv = tokio::select! {
                    iv = session.phase(spec) => iv,
                    _ = tx.closed() => return, // cancelled: dropping the phase aborts its calls
                };
                let after = proc::cpu_nanos();
                let msg = iv.and_then(|iv| interval_message(&ph.kind, ph.index, iv)).map(|mut m| {
                    m.cpu_nanos = after - before;
                    let (sent, recv) = (counter.sent.load(Ordering::Relaxed), counter.received.load(Ordering::Relaxed));
                    (m.bytes_sent, m.bytes_received) = (sent - last_sent, recv - last_recv);
                    (last_sent, last_recv) = (sent, recv);
                    m
                });
                let status = match msg {
                    Ok(mut m) => proc_stats().map(|p| {
                        m.proc = Some(p);
                        ClientStatus { status: Some(client_status::Status::Interval(m)) }
                    }),
                    Err(e) => Err(invalid(e)),
                };
                let failed = status.is_err();
                if tx.send(status).await.is_err() || failed {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}

fn interval_message(kind: &str, index: i32, iv: engine::Interval) -> Result<Interval, String> {
    let closed = iv.lag.is_none();
    Ok(Interval {
        phase: kind.to_string(),
        index,
        start_unix_nanos: iv.start_unix_nanos,
        end_unix_nanos: iv.end_unix_nanos,
        ops: iv.ops,
        errors: iv.errors,
        response_histogram: engine::encode_histogram(&iv.resp)?,
        // A closed model's service time is its response time: left empty, as the
        // control API allows.
        service_histogram: if closed { String::new() } else { engine::encode_histogram(&iv.service)? },
        lag_histogram: match &iv.lag {
            Some(l) => engine::encode_histogram(l)?,
            None => String::new(),
        },
        clamped: iv.clamped,
        overflow: iv.overflow,
        bytes_sent: 0,
        bytes_received: 0,
        cpu_nanos: 0,
        proc: None,
        first_errors: iv.first_errors,
        link_cpu_nanos: 0,
    })
}

