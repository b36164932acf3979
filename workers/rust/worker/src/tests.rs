//! Each stack's server and client together in one process, over TCP and a Unix socket:
//! the client's own conformance checks (check.rs) against the server, a closed-model
//! phase with its ops and histogram, and refusals the Go suite also checks over the
//! wire (stack/rust's interop tests run the Go clients against these servers).

use std::sync::Arc;
use std::time::Duration;

use crate::contract::{Dataset, Reference};
use crate::engine::{Config, Model, PhaseSpec, Session};
use crate::stack::{self, AnyClient};
use crate::transport::{Addr, Counter, Listener};
use crate::workload::{Params, Workload};

const LIMIT: usize = 16 << 20;

fn data() -> Arc<Dataset> {
    Arc::new(Dataset::new(1, 20).unwrap())
}

async fn start(protocol: &str, server: &str, network: &str, dir: &std::path::Path) -> stack::Running {
    let addr = match network {
        "unix" => Addr::Unix(dir.join(format!("{server}.sock"))),
        _ => Addr::Tcp("127.0.0.1:0".into()),
    };
    let ln = Listener::bind(&addr).await.unwrap();
    stack::serve(protocol, server, Arc::new(Reference::new(data())), ln, LIMIT, None).unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("wirebench-rust-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const PAIRS: [(&str, &str, &str); 3] =
    [("grpc-proto", "tonic", "tonic"), ("http-json", "axum", "hyper"), ("capnp", "capnp-rpc", "capnp-rpc")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_stack_pair_passes_the_checks() {
    let dir = temp_dir("checks");
    for (protocol, server, client) in PAIRS {
        for network in ["tcp", "unix"] {
            let running = start(protocol, server, network, &dir).await;
            let counter = Arc::new(Counter::default());
            let c = AnyClient::connect(protocol, client, &running.addr, LIMIT, counter.clone()).await.unwrap();
            let failures = tokio::time::timeout(Duration::from_secs(120), crate::check::run(&c, data())).await.unwrap();
            assert_eq!(failures, 0, "{protocol} {server}/{client} over {network}");
            assert!(counter.sent.load(std::sync::atomic::Ordering::Relaxed) > 4 << 20, "the 4 MiB echo was counted");
            running.stop().await;
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_phase_counts_its_ops() {
    let dir = temp_dir("phase");
    for (protocol, server, client) in PAIRS {
        let running = start(protocol, server, "tcp", &dir).await;
        let model = Model::new("closed", 4, 2, 0.0, "", 0, 1).unwrap();
        let mut clients = Vec::new();
        for _ in 0..model.connections {
            let c = AnyClient::connect(protocol, client, &running.addr, LIMIT, Arc::new(Counter::default())).await.unwrap();
            clients.push(Arc::new(c));
        }
        let workload = Workload::new("person.get", Params::default(), data()).unwrap();
        let mut s = Session::new(Config {
            workload,
            clients,
            model,
            call_timeout: Some(Duration::from_secs(30)),
            arrival_seed: 1,
            seq_offset: 0,
            seq_stride: 1,
        })
        .unwrap();
        let iv = s.phase(PhaseSpec { ops: Some(200), ..Default::default() }).await.unwrap();
        assert_eq!(iv.ops, 200, "{protocol}: every op of the budget, once");
        assert!(iv.errors.is_empty(), "{protocol}: {:?}", iv.first_errors);
        assert_eq!(iv.resp.len(), 200);
        assert!(iv.lag.is_none());
        let enc = crate::engine::encode_histogram(&iv.resp).unwrap();
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD.decode(enc).unwrap();
        let back: hdrhistogram::Histogram<u64> =
            hdrhistogram::serialization::Deserializer::new().deserialize(&mut &bytes[..]).unwrap();
        assert_eq!(back.len(), 200);
        assert_eq!(back.max(), iv.resp.max());
        // A phase needs exactly one of a duration and an op count.
        assert!(s.phase(PhaseSpec::default()).await.is_err());
        running.stop().await;
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_answer_and_a_dead_server_are_told_apart() {
    let dir = temp_dir("errors");
    // A server with another data set answers GetPerson with another person.
    let ln = Listener::bind(&Addr::Tcp("127.0.0.1:0".into())).await.unwrap();
    let other = Arc::new(Reference::new(Arc::new(Dataset::new(2, 20).unwrap())));
    let running = stack::serve("grpc-proto", "tonic", other, ln, LIMIT, None).unwrap();
    let c = AnyClient::connect("grpc-proto", "tonic", &running.addr, LIMIT, Arc::new(Counter::default())).await.unwrap();
    let w = Workload::new("person.get", Params::default(), data()).unwrap();
    assert_eq!(w.run(&c, 0).await.unwrap_err().kind(), "wrong_answer");
    let addr = running.addr.clone();
    running.stop().await;
    let err = AnyClient::connect("http-json", "hyper", &addr, LIMIT, Arc::new(Counter::default())).await.err().unwrap();
    assert_eq!(err.kind(), "refused");
    std::fs::remove_dir_all(dir).ok();
}

/// A setup asking for the original's trade is refused on both sides, naming the stack
/// and the shape: no Rust stack carries it, and none may stream the compact one instead.
#[test]
fn the_original_trade_shape_is_refused() {
    use crate::generated::control::Benchmark;
    for (server, stack) in [(true, "tonic"), (false, "tonic")] {
        let mut b = Benchmark {
            protocol: "grpc-proto".into(),
            workload: "stream".into(),
            trades: 10,
            trade: "original".into(),
            data_seed: 1,
            data_size: 20,
            ..Default::default()
        };
        if server {
            b.server_stack = stack.into();
        } else {
            b.client_stack = stack.into();
        }
        let err = crate::control::check_benchmark(&b, server).err().expect("trade: original accepted");
        let side = if server { "server" } else { "client" };
        let want = format!("the {stack} {side} stack of grpc-proto does not carry the original trade shape (trade: original)");
        assert!(err.message().contains(&want), "{}: want {want}", err.message());
        b.trade = "compact".into();
        assert!(crate::control::check_benchmark(&b, server).is_ok(), "trade: compact refused");
    }
}

#[test]
fn check_takes_the_address_under_its_former_name_too() {
    // --address was --target before 2026-11-29: both name the server, spaced or joined.
    for flag in ["--address", "--target"] {
        let f = crate::parse_flags(&[flag.to_string(), "tcp://127.0.0.1:9".to_string()]).unwrap();
        assert_eq!(f.address.as_deref(), Some("tcp://127.0.0.1:9"), "{flag}");
    }
    let f = crate::parse_flags(&["--target=unix:///tmp/x.sock".to_string()]).unwrap();
    assert_eq!(f.address.as_deref(), Some("unix:///tmp/x.sock"));
}
