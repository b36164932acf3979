//! wirebench's Rust worker: serves the control API (control/controlpb) so that the Go
//! driver starts and drives it as it does the Go and JVM workers, and runs the Rust
//! stacks (stack/). docs/rust-worker.md.

mod check;
mod contract;
mod control;
mod engine;
mod proc;
mod stack;
mod transport;
mod workload;

#[cfg(test)]
mod tests;

mod generated {
    #![allow(clippy::all, dead_code)]
    pub mod control {
        include!("gen/wirebench.control.v1.rs");
    }
    pub mod pb {
        include!("gen/wirebench.v1.rs");
    }
    #[allow(unused_parens, clippy::all)]
    pub mod wirebench_capnp {
        include!("gen/wirebench_capnp.rs");
    }
    /// The grpc-proto schema's file descriptor set, for server reflection.
    pub const DESCRIPTOR: &[u8] = include_bytes!("gen/wirebench_descriptor.bin");
}

use std::process::ExitCode;
use std::sync::Arc;

use tokio::io::AsyncReadExt;
use tokio::sync::Notify;

use crate::contract::{Dataset, Reference};
use crate::transport::{Addr, Counter, Listener};

const USAGE: &str = "\
wirebench-worker: wirebench's Rust worker (docs/rust-worker.md).

Usage:
  wirebench-worker worker --listen ADDR
      Serve the control API on ADDR (unix:///PATH or tcp://HOST:PORT), print
      \"listening on ADDR\", and run until a driver sends Quit or stdin closes.
  wirebench-worker serve --protocol P [--stack S] --listen ADDR
      Serve the contract with a server stack (default data set) until stdin closes.
  wirebench-worker check --protocol P [--stack S] --address ADDR
      Check a server of the contract with a client stack; exit 1 on a failure
      (--target ADDR: the same, its name before 2026-11-29).
  wirebench-worker list
      Print this worker's stacks, as protocol/stack and side.
  wirebench-worker version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let flags = match parse_flags(&args[1..]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("wirebench-worker: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let result = match cmd.as_str() {
        "worker" => rt.block_on(worker(&flags)),
        "serve" => rt.block_on(serve(&flags)),
        "check" => rt.block_on(check(&flags)),
        "list" => {
            for s in &stack::STACKS {
                let side = match (s.server, s.client) {
                    (true, true) => "server and client",
                    (true, false) => "server",
                    _ => "client",
                };
                println!("{}/{}\t{side}", s.protocol, s.name);
            }
            Ok(())
        }
        "version" => {
            println!("wirebench-worker {} ({})", env!("CARGO_PKG_VERSION"), control::runtime());
            Ok(())
        }
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wirebench-worker: {e}");
            ExitCode::FAILURE
        }
    }
}

struct Flags {
    listen: Option<String>,
    protocol: Option<String>,
    stack: Option<String>,
    address: Option<String>,
}

fn parse_flags(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags { listen: None, protocol: None, stack: None, address: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let slot = match name {
            "--listen" => &mut f.listen,
            "--protocol" | "-p" => &mut f.protocol,
            "--stack" => &mut f.stack,
            // --target: --address's name before 2026-11-29, which older drivers pass.
            "--address" | "--target" => &mut f.address,
            _ => return Err(format!("unknown flag {a:?}")),
        };
        let v = match inline {
            Some(v) => v,
            None => it.next().ok_or_else(|| format!("{name} needs a value"))?.clone(),
        };
        *slot = Some(v);
    }
    Ok(f)
}

fn need<'a>(v: &'a Option<String>, name: &str) -> Result<&'a str, String> {
    v.as_deref().ok_or_else(|| format!("missing --{name}"))
}

/// Resolves --stack for a side: the named one, or the protocol's only one.
fn stack_of(f: &Flags, server: bool) -> Result<(String, String), String> {
    let protocol = need(&f.protocol, "protocol")?.to_string();
    let name = match &f.stack {
        Some(s) => s.clone(),
        None => stack::STACKS
            .iter()
            .find(|s| s.protocol == protocol && if server { s.server } else { s.client })
            .map(|s| s.name.to_string())
            .unwrap_or_default(),
    };
    stack::lookup(&protocol, &name, server)?;
    Ok((protocol, name))
}

/// Resolves when stdin reaches end of file: the driver that started us ended or died.
async fn stdin_closed() {
    let mut buf = [0u8; 256];
    let mut stdin = tokio::io::stdin();
    while let Ok(n) = stdin.read(&mut buf).await {
        if n == 0 {
            break;
        }
    }
}

async fn worker(f: &Flags) -> Result<(), String> {
    let addr = Addr::parse(need(&f.listen, "listen")?)?;
    let ln = Listener::bind(&addr).await.map_err(|e| format!("listen on {addr}: {e}"))?;
    let quit = Arc::new(Notify::new());
    let svc = crate::generated::control::worker_server::WorkerServer::new(control::WorkerService { quit: quit.clone() })
        .max_decoding_message_size(64 << 20)
        .max_encoding_message_size(64 << 20);
    let router = tonic::transport::Server::builder().add_service(svc);
    println!("listening on {}", ln.addr());
    let stop = async move {
        tokio::select! {
            _ = quit.notified() => {}
            _ = stdin_closed() => {}
        }
    };
    let r = match ln {
        Listener::Tcp(l) => router.serve_with_incoming_shutdown(tokio_stream::wrappers::TcpListenerStream::new(l), stop).await,
        Listener::Unix(l, p) => {
            let r = router.serve_with_incoming_shutdown(tokio_stream::wrappers::UnixListenerStream::new(l), stop).await;
            let _ = std::fs::remove_file(p);
            r
        }
    };
    r.map_err(|e| format!("control API: {e}"))
}

async fn serve(f: &Flags) -> Result<(), String> {
    let (protocol, name) = stack_of(f, true)?;
    let addr = Addr::parse(need(&f.listen, "listen")?)?;
    let ln = Listener::bind(&addr).await.map_err(|e| format!("listen on {addr}: {e}"))?;
    let data = Dataset::new(contract::DEFAULT_SEED, contract::DEFAULT_SIZE)?;
    let running = stack::serve(&protocol, &name, Arc::new(Reference::new(Arc::new(data))), ln, contract::DEFAULT_MAX_MESSAGE_SIZE as usize, None)?;
    println!("listening on {}", running.addr);
    stdin_closed().await;
    running.stop().await;
    Ok(())
}

async fn check(f: &Flags) -> Result<(), String> {
    let (protocol, name) = stack_of(f, false)?;
    let target = Addr::parse(need(&f.address, "address")?)?;
    let data = Arc::new(Dataset::new(contract::DEFAULT_SEED, contract::DEFAULT_SIZE)?);
    let client = stack::AnyClient::connect(&protocol, &name, &target, contract::DEFAULT_MAX_MESSAGE_SIZE as usize, Arc::new(Counter::default()))
        .await
        .map_err(|e| format!("connecting to {target}: {e}"))?;
    match check::run(&client, data).await {
        0 => Ok(()),
        n => Err(format!("{n} checks failed against {target} with {protocol}/{name}")),
    }
}
