//! The Rust worker's stacks: their names and sides (stack/rust in the Go module
//! registers them with their crate versions for `wirebench list`; a Go test keeps the
//! two equal), and how a server and a client of each are made.

pub mod capnp;
pub mod grpc;
pub mod http;
pub mod message;

use std::sync::Arc;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::contract::{self, Person, PersonLink, Reference, Stats, Trade};
use crate::transport::{Addr, Counter, Listener};
use crate::workload::Service;

/// The tokio release the worker runs on, as Cargo.toml pins it (InfoReply.runtime).
pub const TOKIO: &str = "1.54.1";

/// A stack of this worker: protocol, name, and the sides it implements.
pub struct StackInfo {
    pub protocol: &'static str,
    pub name: &'static str,
    pub server: bool,
    pub client: bool,
}

/// Every stack this worker runs, in the order `Info` lists them.
pub const STACKS: [StackInfo; 4] = [
    StackInfo { protocol: "grpc-proto", name: "tonic", server: true, client: true },
    StackInfo { protocol: "http-json", name: "axum", server: true, client: false },
    StackInfo { protocol: "http-json", name: "hyper", server: false, client: true },
    StackInfo { protocol: "capnp", name: "capnp-rpc", server: true, client: true },
];

/// Finds a stack of protocol with a side (server when `server`, else client).
pub fn lookup(protocol: &str, name: &str, server: bool) -> Result<&'static StackInfo, String> {
    let side = if server { "server" } else { "client" };
    let known: Vec<String> = STACKS
        .iter()
        .filter(|s| s.protocol == protocol && if server { s.server } else { s.client })
        .map(|s| s.name.to_string())
        .collect();
    if known.is_empty() {
        return Err(format!("the Rust worker has no {side} stack of protocol {protocol:?}"));
    }
    STACKS
        .iter()
        .find(|s| s.protocol == protocol && s.name == name && if server { s.server } else { s.client })
        .ok_or_else(|| format!("the Rust worker has no {protocol} {side} stack {name:?} (it has: {})", known.join(", ")))
}

/// A server being served, and the way to stop it.
pub struct Running {
    pub addr: Addr,
    shutdown: Shutdown,
    task: JoinHandle<Result<(), String>>,
}

/// The sending half of a server's shutdown signal.
pub struct Shutdown(Option<oneshot::Sender<()>>);

impl Shutdown {
    /// A shutdown and the future a server waits on.
    pub fn new() -> (Shutdown, impl std::future::Future<Output = ()> + Send + 'static) {
        let (tx, rx) = oneshot::channel();
        (Shutdown(Some(tx)), async move {
            let _ = rx.await;
        })
    }
}

impl Running {
    pub fn new(addr: Addr, shutdown: Shutdown, task: JoinHandle<Result<(), String>>) -> Running {
        Running { addr, shutdown, task }
    }

    /// Whether the server stopped by itself, and why.
    pub fn stopped(&self) -> bool {
        self.task.is_finished()
    }

    /// Stops the server: no new connections; those open are closed within a second.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.0.take() {
            let _ = tx.send(());
        }
        let abort = self.task.abort_handle();
        if tokio::time::timeout(std::time::Duration::from_secs(1), &mut self.task).await.is_err() {
            abort.abort();
        }
        if let Addr::Unix(p) = &self.addr {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Serves svc with the named server stack on ln; message is the message workload's
/// type, which only tonic and axum echo (None for another workload).
pub fn serve(
    protocol: &str,
    stack: &str,
    svc: Arc<Reference>,
    ln: Listener,
    limit: usize,
    message: Option<prost_reflect::MessageDescriptor>,
) -> Result<Running, String> {
    match (protocol, stack, message) {
        ("grpc-proto", "tonic", m) => grpc::serve(svc, ln, limit, m),
        ("http-json", "axum", m) => http::serve(svc, ln, limit, m),
        ("capnp", "capnp-rpc", None) => capnp::serve(svc, ln, limit),
        (_, _, Some(_)) => Err(format!("the {protocol} server stack {stack:?} does not echo a user's message (workload message)")),
        _ => Err(format!("no {protocol} server stack {stack:?} in the Rust worker")),
    }
}

/// A client of any of this worker's client stacks.
pub enum AnyClient {
    Tonic(grpc::Client),
    Hyper(http::Client),
    CapnpRpc(capnp::Client),
}

impl AnyClient {
    pub async fn connect(protocol: &str, stack: &str, target: &Addr, limit: usize, counter: Arc<Counter>) -> contract::Result<AnyClient> {
        match (protocol, stack) {
            ("grpc-proto", "tonic") => Ok(AnyClient::Tonic(grpc::Client::connect(target, limit, counter).await?)),
            ("http-json", "hyper") => Ok(AnyClient::Hyper(http::Client::connect(target, limit, counter).await?)),
            ("capnp", "capnp-rpc") => Ok(AnyClient::CapnpRpc(capnp::Client::connect(target, limit, counter).await?)),
            _ => Err(contract::Error::Transport("other", format!("no {protocol} client stack {stack:?} in the Rust worker"))),
        }
    }
}

macro_rules! each {
    ($self:ident, $c:ident => $e:expr) => {
        match $self {
            AnyClient::Tonic($c) => $e,
            AnyClient::Hyper($c) => $e,
            AnyClient::CapnpRpc($c) => $e,
        }
    };
}

impl Service for AnyClient {
    async fn list_persons(&self) -> contract::Result<Vec<Person>> {
        each!(self, c => c.list_persons().await)
    }
    async fn get_person(&self, id: i64) -> contract::Result<Person> {
        each!(self, c => c.get_person(id).await)
    }
    async fn get_person_links(&self, id: i64) -> contract::Result<Vec<PersonLink>> {
        each!(self, c => c.get_person_links(id).await)
    }
    async fn create_person(&self, p: Person) -> contract::Result<Person> {
        each!(self, c => c.create_person(p).await)
    }
    async fn echo(&self, payload: String) -> contract::Result<String> {
        each!(self, c => c.echo(payload).await)
    }
    async fn stats(&self) -> contract::Result<Stats> {
        each!(self, c => c.stats().await)
    }
    async fn increment(&self, n: i64) -> contract::Result<i64> {
        each!(self, c => c.increment(n).await)
    }
    async fn stream_trades(&self, count: i64, sink: &mut (dyn FnMut(Trade) -> contract::Result<()> + Send)) -> contract::Result<()> {
        each!(self, c => c.stream_trades(count, sink).await)
    }
}
