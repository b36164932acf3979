//! `wirebench-worker check`: a Rust client stack's own conformance run against a server
//! of the contract (the Go interop tests run it against the Go servers): every workload
//! with its answers verified, the refusals, edge values, and a stream stopped by its
//! receiver. One line per check, "ok ..." or "FAIL ..."; the caller exits non-zero on a
//! failure.
//!
//! It stays in Rust for the Rust clients: Go cannot make a Rust client's calls. The Rust
//! servers are held to the Go side's one contract check instead (conform.Check, what
//! `wirebench conform` runs), through Go clients (stack/rust's interop tests).

use std::sync::Arc;

use crate::contract::{self, Code, Dataset, Error, Person, PersonName};
use crate::workload::{NAMES, Params, Service, Workload};

/// Runs every check on s and returns the number of failures, printing a line for each.
pub async fn run<S: Service>(s: &S, data: Arc<Dataset>) -> usize {
    let mut failures = 0;
    let mut report = |name: String, r: Result<(), String>| match r {
        Ok(()) => println!("ok {name}"),
        Err(e) => {
            failures += 1;
            println!("FAIL {name}: {e}");
        }
    };
    let params = Params { payload: 100, increments: 10, trades: 1000 };
    for w in NAMES {
        let wl = Workload::new(w, params, data.clone()).expect("the default parameters are valid");
        for seq in 0..3 {
            report(format!("workload {w} op {seq}"), wl.run(s, seq).await.map_err(|e| e.to_string()));
        }
    }
    let size = data.size() as i64;
    for id in [0, -1, size + 1, i64::MAX] {
        let r = match s.get_person(id).await {
            Err(Error::Contract(Code::NotFound, _)) => Ok(()),
            other => Err(format!("{other:?}, want not_found")),
        };
        report(format!("GetPerson({id}) refused"), r);
        let r = match s.get_person_links(id).await {
            Err(Error::Contract(Code::NotFound, _)) => Ok(()),
            other => Err(format!("{other:?}, want not_found")),
        };
        report(format!("GetPersonLinks({id}) refused"), r);
    }
    let bad = Person {
        name: PersonName { first: "A".into(), last: "B".into(), ..Default::default() },
        email: "no-at-sign".into(),
        ..Default::default()
    };
    let r = match s.create_person(bad).await {
        Err(Error::Contract(Code::InvalidArgument, _)) => Ok(()),
        other => Err(format!("{other:?}, want invalid_argument")),
    };
    report("CreatePerson without '@' refused".into(), r);
    for payload in [String::new(), contract::payload(4 << 20), "héllo wörld ✓ 日本語 🚀 \"quoted\" \\ <tag>".to_string()] {
        let n = payload.len();
        let r = match s.echo(payload.clone()).await {
            Ok(got) if got == payload => Ok(()),
            Ok(got) => Err(format!("{} bytes back", got.len())),
            Err(e) => Err(e.to_string()),
        };
        report(format!("Echo of {n} bytes"), r);
    }
    let r = match s.stats().await {
        Ok(st) if st.calls >= 1 => Ok(()),
        other => Err(format!("{other:?}")),
    };
    report("Stats counts the echoes".into(), r);
    for n in [i64::MIN, -1, i64::MAX - 1] {
        let r = match s.increment(n).await {
            Ok(got) if got == n + 1 => Ok(()),
            other => Err(format!("{other:?}")),
        };
        report(format!("Increment({n})"), r);
    }
    let r = match s.stream_trades(-1, &mut |_| Ok(())).await {
        Err(Error::Contract(Code::InvalidArgument, _)) => Ok(()),
        other => Err(format!("{other:?}, want invalid_argument")),
    };
    report("StreamTrades(-1) refused".into(), r);
    let mut n = 0;
    let r = s
        .stream_trades(contract::MAX_TRADES, &mut |_| {
            n += 1;
            if n == 100 { Err(Error::wrong("enough")) } else { Ok(()) }
        })
        .await;
    report(
        "a stream stopped by its receiver".into(),
        if r == Err(Error::wrong("enough")) { Ok(()) } else { Err(format!("{r:?}, want the receiver's error")) },
    );
    report("GetPerson after a stopped stream".into(), s.get_person(1).await.map(|_| ()).map_err(|e| e.to_string()));
    failures
}
