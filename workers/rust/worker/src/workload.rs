//! The client side of the contract: the `Service` every client stack implements, and the
//! workloads (contract/workload.go) with the same names, the same ids per sequence number
//! and the same checks of the answers.

use std::future::Future;
use std::sync::Arc;

use crate::contract::{self, Dataset, Error, Person, PersonLink, Result, Stats, Trade};

/// The benchmark service as a client calls it. Implementations must be safe for
/// concurrent use: every caller of a connection shares one value. Dropping a call's
/// future cancels the call (the engine's call timeout and a stopped run do that).
///
/// A refused call fails with `Error::Contract` carrying the code its protocol carried
/// back; a call that did not complete with `Error::Transport`.
pub trait Service: Send + Sync + 'static {
    fn list_persons(&self) -> impl Future<Output = Result<Vec<Person>>> + Send;
    fn get_person(&self, id: i64) -> impl Future<Output = Result<Person>> + Send;
    fn get_person_links(&self, id: i64) -> impl Future<Output = Result<Vec<PersonLink>>> + Send;
    /// Returns p with the id the server assigned.
    fn create_person(&self, p: Person) -> impl Future<Output = Result<Person>> + Send;
    fn echo(&self, payload: String) -> impl Future<Output = Result<String>> + Send;
    fn stats(&self) -> impl Future<Output = Result<Stats>> + Send;
    fn increment(&self, n: i64) -> impl Future<Output = Result<i64>> + Send;
    /// Has the server send count trades and hands each, decoded, to sink in order; when
    /// sink fails, the stream is dropped (not drained) and its error returned.
    fn stream_trades(
        &self,
        count: i64,
        sink: &mut (dyn FnMut(Trade) -> Result<()> + Send),
    ) -> impl Future<Output = Result<()>> + Send;
}

/// The workload parameters; each workload reads those it uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Params {
    pub payload: i64,
    pub increments: i64,
    pub trades: i64,
}

/// A workload bound to its parameters and data set: one op per call of `run`.
#[derive(Clone, Debug)]
pub struct Workload {
    kind: Kind,
    data: Arc<Dataset>,
    payload: Arc<String>,
    increments: i64,
    trades: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    List,
    Get,
    Links,
    Create,
    Compose,
    Program,
    Echo,
    EchoStats,
    PingPong,
    Stream,
}

/// The workload names, in the Go order.
pub const NAMES: [&str; 10] = [
    "person.list",
    "person.get",
    "person.links",
    "person.create",
    "person.compose",
    "person.program",
    "echo",
    "echo+stats",
    "pingpong",
    "stream",
];

impl Workload {
    /// The named workload over data, after checking the parameters it uses.
    pub fn new(name: &str, p: Params, data: Arc<Dataset>) -> std::result::Result<Workload, String> {
        let kind = match name {
            "person.list" => Kind::List,
            "person.get" => Kind::Get,
            "person.links" => Kind::Links,
            "person.create" => Kind::Create,
            "person.compose" => Kind::Compose,
            "person.program" => Kind::Program,
            "echo" => Kind::Echo,
            "echo+stats" => Kind::EchoStats,
            "pingpong" => Kind::PingPong,
            "stream" => Kind::Stream,
            _ => return Err(format!("unknown workload {name:?} (known: {})", NAMES.join(", "))),
        };
        if matches!(kind, Kind::Echo | Kind::EchoStats) && !(0..=contract::MAX_PAYLOAD).contains(&p.payload) {
            return Err(format!("{name}: payload {} out of range [0, {}]", p.payload, contract::MAX_PAYLOAD));
        }
        if kind == Kind::PingPong && !(1..=contract::MAX_INCREMENTS).contains(&p.increments) {
            return Err(format!("{name}: increments {} out of range [1, {}]", p.increments, contract::MAX_INCREMENTS));
        }
        if kind == Kind::Stream && !(0..=contract::MAX_TRADES).contains(&p.trades) {
            return Err(format!("{name}: trades {} out of range [0, {}]", p.trades, contract::MAX_TRADES));
        }
        let payload = if matches!(kind, Kind::Echo | Kind::EchoStats) { contract::payload(p.payload as usize) } else { String::new() };
        Ok(Workload { kind, data, payload: Arc::new(payload), increments: p.increments, trades: p.trades })
    }

    /// Runs op seq once on s, checking every answer.
    pub async fn run<S: Service>(&self, s: &S, seq: u64) -> Result<()> {
        let ds = &*self.data;
        match self.kind {
            Kind::List => check_list(s, ds).await,
            Kind::Get => check_get(s, ds, pick_id(ds, seq)).await,
            Kind::Links => check_links(s, ds, pick_id(ds, seq)).await,
            Kind::Create => check_create(s, ds, pick_id(ds, seq)).await,
            Kind::Compose => {
                let (a, b) = (pick_id(ds, seq.wrapping_mul(2)), pick_id(ds, seq.wrapping_mul(2).wrapping_add(1)));
                check_list(s, ds).await?;
                for id in [a, b] {
                    check_get(s, ds, id).await?;
                    check_links(s, ds, id).await?;
                }
                check_create(s, ds, a).await
            }
            // The metrifier original's programComposition: list, get of four ids, the
            // links of the first and the third, create (eight calls).
            Kind::Program => {
                let ids: Vec<i64> = (0..4).map(|i| pick_id(ds, seq.wrapping_mul(4).wrapping_add(i))).collect();
                check_list(s, ds).await?;
                for &id in &ids {
                    check_get(s, ds, id).await?;
                }
                check_links(s, ds, ids[0]).await?;
                check_links(s, ds, ids[2]).await?;
                check_create(s, ds, ids[0]).await
            }
            Kind::Echo => check_echo(s, &self.payload).await,
            Kind::EchoStats => {
                check_echo(s, &self.payload).await?;
                let st = s.stats().await?;
                // Concurrent ops of one benchmark all send payloads of this size, so the
                // latest Echo's length is known even under load.
                if st.calls < 1 || st.last_payload_len != self.payload.len() as i64 {
                    return Err(Error::wrong(format!("Stats = {st:?} after Echo of {} bytes", self.payload.len())));
                }
                Ok(())
            }
            Kind::PingPong => {
                let mut x = seq as i64;
                for _ in 0..self.increments {
                    let y = s.increment(x).await?;
                    if y != x.wrapping_add(1) {
                        return Err(Error::wrong(format!("Increment({x}) = {y}")));
                    }
                    x = y;
                }
                Ok(())
            }
            Kind::Stream => {
                let mut i = 0i64;
                s.stream_trades(self.trades, &mut |t| {
                    let want = contract::trade_at(i);
                    if t != want {
                        return Err(Error::wrong(format!("trade {i} = {t:?}, want {want:?}")));
                    }
                    i += 1;
                    Ok(())
                })
                .await?;
                if i != self.trades {
                    return Err(Error::wrong(format!("stream delivered {i} of {} trades", self.trades)));
                }
                Ok(())
            }
        }
    }
}

/// The id of op seq: the data set's ids taken in turn.
pub fn pick_id(ds: &Dataset, seq: u64) -> i64 {
    (seq % ds.size() as u64) as i64 + 1
}

async fn check_list<S: Service>(s: &S, ds: &Dataset) -> Result<()> {
    let got = s.list_persons().await?;
    let want = ds.persons();
    if got.len() != want.len() {
        return Err(Error::wrong(format!("ListPersons returned {} persons, want {}", got.len(), want.len())));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return Err(Error::wrong(format!("ListPersons[{i}] = {g:?}, want {w:?}")));
        }
    }
    Ok(())
}

async fn check_get<S: Service>(s: &S, ds: &Dataset, id: i64) -> Result<()> {
    let got = s.get_person(id).await?;
    let want = ds.person(id).expect("pick_id stays within the data set");
    if &got != want {
        return Err(Error::wrong(format!("GetPerson({id}) = {got:?}, want {want:?}")));
    }
    Ok(())
}

async fn check_links<S: Service>(s: &S, ds: &Dataset, id: i64) -> Result<()> {
    let got = s.get_person_links(id).await?;
    let want = ds.links(id).expect("pick_id stays within the data set");
    if got.len() != want.len() {
        return Err(Error::wrong(format!("GetPersonLinks({id}) returned {} links, want {}", got.len(), want.len())));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return Err(Error::wrong(format!("GetPersonLinks({id})[{i}] = {g:?}, want {w:?}")));
        }
    }
    Ok(())
}

async fn check_create<S: Service>(s: &S, ds: &Dataset, id: i64) -> Result<()> {
    let mut p = ds.person(id).expect("pick_id stays within the data set").clone();
    p.id = 0;
    let got = s.create_person(p.clone()).await?;
    if got.id <= ds.size() as i64 {
        return Err(Error::wrong(format!("CreatePerson assigned id {}, inside the data set's ids", got.id)));
    }
    p.id = got.id;
    if got != p {
        return Err(Error::wrong(format!("CreatePerson = {got:?}, want {p:?}")));
    }
    Ok(())
}

async fn check_echo<S: Service>(s: &S, payload: &str) -> Result<()> {
    let got = s.echo(payload.to_string()).await?;
    if got != payload {
        return Err(Error::wrong(format!("Echo returned {} bytes, want the {} sent", got.len(), payload.len())));
    }
    Ok(())
}
