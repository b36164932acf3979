//! capnp (Cap'n Proto RPC) with capnp-rpc, as a capnp-rpc user writes a service: the
//! generated `wirebench::Server` and `trade_sink::Server` traits implemented over the
//! reference service, each connection a two-party `RpcSystem` driven on a tokio
//! `LocalSet`, with the connection's Wirebench capability as its bootstrap. The schema
//! is the contract's (contract/schema/wirebench.capnp), so Go's capnp stack, pycapnp and
//! this one interoperate; the wire behaviour follows protocol/capnprpc:
//!
//! - refusals travel as `failed` exceptions whose reason reads
//!   "wirebench:<code>: <message>";
//! - streamTrades: the client passes a TradeSink; the server pushes trades in batches of
//!   STREAM_BATCH with `-> stream` calls (at most STREAM_WINDOW bytes unacknowledged),
//!   then calls done(count) and returns; a sink that stops failing its pushes stops the
//!   server;
//! - a received frame over the message limit (plus FRAME_SLACK for the RPC envelope) is
//!   refused from its header, which ends the connection.
//!
//! capnp-rpc's objects are not `Send`, so an `RpcSystem` lives on one thread. The server
//! runs one thread per core, each a current-thread runtime with a `LocalSet`, and hands
//! each accepted connection to the next one in turn. A client runs its connection on a
//! thread of its own and takes calls from any task through a channel; dropping a call's
//! future cancels its question.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;

use capnp_rpc::{RpcSystem, rpc_twoparty_capnp::Side as VatSide, twoparty};
use futures_util::io::{BufReader, BufWriter};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, oneshot};
use tokio_util::compat::{TokioAsyncReadCompatExt, TokioAsyncWriteCompatExt};

use crate::contract::{self, Code, Error, Person, PersonLink, Reference, Stats, Trade};
use crate::generated::wirebench_capnp::{location, person, person_link, person_name, picture, trade, trade_sink, wirebench};
use crate::stack::{Running, Shutdown};
use crate::transport::{self, Addr, Counter, Listener};
use crate::workload::Service;

/// Trades per TradeSink.push (protocol/capnprpc's StreamBatch): about 14 KiB a push.
const STREAM_BATCH: usize = 256;

/// Bytes of pushes a server has sent on one stream and not had acknowledged
/// (protocol/capnprpc's StreamWindow).
const STREAM_WINDOW: usize = 256 << 10;

/// Added to the message limit for the framing and the RPC envelope around the
/// application's content (protocol/capnprpc's frameSlack).
const FRAME_SLACK: usize = 64 << 10;

/// The reason prefix of an exception that carries a contract error.
const ERR_PREFIX: &str = "wirebench:";

/// Reader options of a connection whose messages may carry limit bytes: capnp refuses a
/// frame whose header announces more words than the traversal limit before reading it.
fn reader_options(limit: usize) -> capnp::message::ReaderOptions {
    let mut o = capnp::message::ReaderOptions::new();
    o.traversal_limit_in_words(Some((limit + FRAME_SLACK) / 8));
    o
}

// ---- model <-> messages

fn text(r: capnp::Result<capnp::text::Reader<'_>>) -> capnp::Result<String> {
    Ok(r?.to_string()?)
}

fn write_person(mut w: person::Builder<'_>, p: &Person) {
    w.set_id(p.id);
    write_name(w.reborrow().init_name(), &p.name);
    w.set_gender(p.gender.as_str());
    write_location(w.reborrow().init_location(), &p.location);
    w.set_email(p.email.as_str());
    // No picture: the pointer stays null (the schema's convention for absence).
    if let Some(x) = &p.picture {
        let mut pic: picture::Builder<'_> = w.init_picture();
        pic.set_large(x.large.as_str());
        pic.set_medium(x.medium.as_str());
        pic.set_thumbnail(x.thumbnail.as_str());
    }
}

fn write_name(mut n: person_name::Builder<'_>, x: &contract::PersonName) {
    n.set_title(x.title.as_str());
    n.set_first(x.first.as_str());
    n.set_last(x.last.as_str());
}

fn write_location(mut l: location::Builder<'_>, x: &contract::Location) {
    l.set_street(x.street.as_str());
    l.set_city(x.city.as_str());
    l.set_state(x.state.as_str());
    l.set_post_code(x.post_code.as_str());
}

fn read_person(r: person::Reader<'_>) -> capnp::Result<Person> {
    let n = r.get_name()?;
    let l = r.get_location()?;
    let picture = if r.has_picture() {
        let x = r.get_picture()?;
        Some(contract::Picture { large: text(x.get_large())?, medium: text(x.get_medium())?, thumbnail: text(x.get_thumbnail())? })
    } else {
        None
    };
    Ok(Person {
        id: r.get_id(),
        name: contract::PersonName { title: text(n.get_title())?, first: text(n.get_first())?, last: text(n.get_last())? },
        gender: text(r.get_gender())?,
        location: contract::Location {
            street: text(l.get_street())?,
            city: text(l.get_city())?,
            state: text(l.get_state())?,
            post_code: text(l.get_post_code())?,
        },
        email: text(r.get_email())?,
        picture,
    })
}

fn write_link(mut w: person_link::Builder<'_>, l: &PersonLink) {
    write_person(w.reborrow().init_p1(), &l.p1);
    write_person(w.init_p2(), &l.p2);
}

fn write_trade(mut w: trade::Builder<'_>, t: &Trade) {
    w.set_id(t.id);
    w.set_symbol(t.symbol.as_str());
    w.set_price(t.price);
    w.set_quantity(t.quantity);
    w.set_timestamp_nanos(t.timestamp_nanos);
    w.set_side(match t.side {
        contract::Side::Buy => crate::generated::wirebench_capnp::Side::Buy,
        contract::Side::Sell => crate::generated::wirebench_capnp::Side::Sell,
    });
}

fn read_trade(r: trade::Reader<'_>) -> contract::Result<Trade> {
    let bad = |e: capnp::Error| Error::wrong(format!("trade: {e}"));
    let side = match r.get_side() {
        Ok(crate::generated::wirebench_capnp::Side::Buy) => contract::Side::Buy,
        Ok(crate::generated::wirebench_capnp::Side::Sell) => contract::Side::Sell,
        Err(capnp::NotInSchema(v)) => return Err(Error::wrong(format!("trade {} has side {v}, neither buy nor sell", r.get_id()))),
    };
    Ok(Trade {
        id: r.get_id(),
        symbol: text(r.get_symbol()).map_err(bad)?,
        price: r.get_price(),
        quantity: r.get_quantity(),
        timestamp_nanos: r.get_timestamp_nanos(),
        side,
    })
}

/// The exception a server method fails with for a refusal of the service.
fn exception(e: Error) -> capnp::Error {
    match e {
        Error::Contract(c, m) => capnp::Error::failed(format!("{ERR_PREFIX}{}: {m}", c.wire())),
        other => capnp::Error::failed(format!("{ERR_PREFIX}{}: {other}", Code::Internal.wire())),
    }
}

/// The contract error an exception carries, when its reason holds one (capnp-rpc may
/// put text before it, such as "remote exception: "); else the failure in transit.
fn error_of(e: capnp::Error) -> Error {
    if let Some(at) = e.extra.find(ERR_PREFIX) {
        let rest = &e.extra[at + ERR_PREFIX.len()..];
        if let Some((code, msg)) = rest.split_once(": ") {
            if let Some(c) = Code::from_wire(code) {
                return Error::Contract(c, msg.to_string());
            }
        }
    }
    let kind = match e.kind {
        capnp::ErrorKind::Disconnected => "reset",
        _ => "other",
    };
    Error::Transport(kind, format!("capnp: {e}"))
}

fn invalid(what: &str, e: capnp::Error) -> capnp::Error {
    exception(Error::contract(Code::InvalidArgument, format!("{what}: {e}")))
}

// ---- server

/// The Wirebench capability of one connection, over the reference service.
struct Handler {
    svc: Arc<Reference>,
}

impl wirebench::Server for Handler {
    fn list_persons(
        self: Rc<Self>,
        _: wirebench::ListPersonsParams,
        mut results: wirebench::ListPersonsResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        let ps = self.svc.list_persons();
        let mut l = results.get().init_persons(ps.len() as u32);
        for (i, p) in ps.iter().enumerate() {
            write_person(l.reborrow().get(i as u32), p);
        }
        std::future::ready(Ok(()))
    }

    fn get_person(
        self: Rc<Self>,
        params: wirebench::GetPersonParams,
        mut results: wirebench::GetPersonResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        std::future::ready((|| {
            let p = self.svc.get_person(params.get()?.get_id()).map_err(exception)?;
            write_person(results.get().init_person(), p);
            Ok(())
        })())
    }

    fn get_person_links(
        self: Rc<Self>,
        params: wirebench::GetPersonLinksParams,
        mut results: wirebench::GetPersonLinksResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        std::future::ready((|| {
            let links = self.svc.get_person_links(params.get()?.get_id()).map_err(exception)?;
            let mut l = results.get().init_links(links.len() as u32);
            for (i, x) in links.iter().enumerate() {
                write_link(l.reborrow().get(i as u32), x);
            }
            Ok(())
        })())
    }

    fn create_person(
        self: Rc<Self>,
        params: wirebench::CreatePersonParams,
        mut results: wirebench::CreatePersonResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        std::future::ready((|| {
            let p = params.get()?.get_person().and_then(read_person).map_err(|e| invalid("person", e))?;
            let p = self.svc.create_person(p).map_err(exception)?;
            write_person(results.get().init_person(), &p);
            Ok(())
        })())
    }

    fn echo(
        self: Rc<Self>,
        params: wirebench::EchoParams,
        mut results: wirebench::EchoResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        std::future::ready((|| {
            let payload = text(params.get()?.get_payload()).map_err(|e| invalid("payload", e))?;
            let out = self.svc.echo(payload);
            results.get().set_payload(out.as_str());
            Ok(())
        })())
    }

    fn stats(
        self: Rc<Self>,
        _: wirebench::StatsParams,
        mut results: wirebench::StatsResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        let s = self.svc.stats();
        let mut r = results.get();
        r.set_calls(s.calls);
        r.set_last_payload_len(s.last_payload_len);
        std::future::ready(Ok(()))
    }

    fn increment(
        self: Rc<Self>,
        params: wirebench::IncrementParams,
        mut results: wirebench::IncrementResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        std::future::ready((|| {
            let n = self.svc.increment(params.get()?.get_value());
            results.get().set_value(n);
            Ok(())
        })())
    }

    /// Pushes the trades to the caller's sink in batches; each push waits only while
    /// the stream's window is full. done's return means every push was processed, and
    /// a push that failed fails done (or a later push), which ends the call.
    fn stream_trades(
        self: Rc<Self>,
        params: wirebench::StreamTradesParams,
        _: wirebench::StreamTradesResults,
    ) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        async move {
            let (count, sink) = {
                let p = params.get()?;
                let sink: trade_sink::Client = p.get_sink().map_err(|e| invalid("streamTrades needs a sink", e))?;
                (p.get_count(), sink)
            };
            let mut trades = self.svc.trades(count).map_err(exception)?;
            let mut batch: Vec<Trade> = Vec::with_capacity(STREAM_BATCH.min(count.max(1) as usize));
            let mut sent: i64 = 0;
            loop {
                batch.clear();
                batch.extend(trades.by_ref().take(STREAM_BATCH));
                if batch.is_empty() {
                    break;
                }
                let mut req = sink.push_request();
                let mut l = req.get().init_trades(batch.len() as u32);
                for (i, t) in batch.iter().enumerate() {
                    write_trade(l.reborrow().get(i as u32), t);
                }
                req.send().await?;
                sent += batch.len() as i64;
            }
            let mut done = sink.done_request();
            done.get().set_count(sent);
            done.send().promise.await?;
            Ok(())
        }
    }
}

/// Serves one connection until it ends.
async fn serve_conn<S: AsyncRead + AsyncWrite + 'static>(stream: S, svc: Arc<Reference>, limit: usize) {
    let (r, w) = tokio::io::split(stream);
    let mut network = twoparty::VatNetwork::new(
        BufReader::with_capacity(64 << 10, r.compat()),
        BufWriter::with_capacity(64 << 10, w.compat_write()),
        VatSide::Server,
        reader_options(limit),
    );
    network.set_window_size(STREAM_WINDOW);
    let boot: wirebench::Client = capnp_rpc::new_client(Handler { svc });
    // The connection's end (the peer left, a frame refused) is no error of the server.
    let _ = RpcSystem::new(Box::new(network), Some(boot.client)).await;
}

/// A connection accepted on the server's runtime, for one of its RPC threads.
enum Accepted {
    Tcp(std::net::TcpStream),
    Unix(std::os::unix::net::UnixStream),
}

/// Starts one RPC thread: a current-thread runtime with a LocalSet serving the
/// connections it receives, until the server stops (the channel closes); its
/// connections then end with it.
fn rpc_thread(i: usize, svc: Arc<Reference>, limit: usize) -> Result<mpsc::UnboundedSender<Accepted>, String> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("capnp: a runtime: {e}"))?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Accepted>();
    std::thread::Builder::new()
        .name(format!("capnp-rpc-{i}"))
        .spawn(move || {
            let local = tokio::task::LocalSet::new();
            local.block_on(&rt, async move {
                while let Some(c) = rx.recv().await {
                    match c {
                        Accepted::Tcp(s) => {
                            if let Ok(s) = tokio::net::TcpStream::from_std(s) {
                                tokio::task::spawn_local(serve_conn(s, svc.clone(), limit));
                            }
                        }
                        Accepted::Unix(s) => {
                            if let Ok(s) = tokio::net::UnixStream::from_std(s) {
                                tokio::task::spawn_local(serve_conn(s, svc.clone(), limit));
                            }
                        }
                    }
                }
            });
        })
        .map_err(|e| format!("capnp: a thread: {e}"))?;
    Ok(tx)
}

/// Serves svc on ln with capnp-rpc until shut down; messages up to limit bytes.
pub fn serve(svc: Arc<Reference>, ln: Listener, limit: usize) -> Result<Running, String> {
    let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let threads = (0..n).map(|i| rpc_thread(i, svc.clone(), limit)).collect::<Result<Vec<_>, _>>()?;
    let addr = ln.addr();
    let (shutdown, signal) = Shutdown::new();
    let task = tokio::spawn(async move {
        tokio::pin!(signal);
        let mut next = 0usize;
        loop {
            let accepted = tokio::select! {
                _ = &mut signal => return Ok(()),
                r = accept(&ln) => r,
            };
            // A failed accept (out of descriptors, a connection reset while queued) is
            // the connection's, not the server's: go on, after a pause against a spin.
            let Ok(c) = accepted else {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                continue;
            };
            if threads[next % threads.len()].send(c).is_err() {
                return Err("capnp: an RPC thread ended".to_string());
            }
            next = next.wrapping_add(1);
        }
    });
    Ok(Running::new(addr, shutdown, task))
}

async fn accept(ln: &Listener) -> std::io::Result<Accepted> {
    match ln {
        Listener::Tcp(l) => {
            let (s, _) = l.accept().await?;
            s.set_nodelay(true)?;
            Ok(Accepted::Tcp(s.into_std()?))
        }
        Listener::Unix(l, _) => Ok(Accepted::Unix(l.accept().await?.0.into_std()?)),
    }
}

// ---- client

/// A call for the client's RPC thread: given the bootstrap capability, the future that
/// makes the call and answers its caller.
type Job = Box<dyn FnOnce(wirebench::Client) -> Pin<Box<dyn Future<Output = ()>>> + Send>;

/// A capnp-rpc client of one connection, shared by its callers: the connection's
/// RpcSystem runs on a thread of its own, which makes the calls sent to it. Dropping
/// the Client ends the thread and closes the connection.
pub struct Client {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Client {
    /// Connects to target, counting the connection's bytes into counter.
    pub async fn connect(target: &Addr, limit: usize, counter: Arc<Counter>) -> contract::Result<Client> {
        let (jobs, mut rx) = mpsc::unbounded_channel::<Job>();
        let (ready_tx, ready_rx) = oneshot::channel::<contract::Result<()>>();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Error::Transport("other", format!("capnp: a runtime: {e}")))?;
        let target = target.clone();
        std::thread::Builder::new()
            .name("capnp-rpc-client".into())
            .spawn(move || {
                let local = tokio::task::LocalSet::new();
                local.block_on(&rt, async move {
                    let conn = match transport::dial(&target, counter).await {
                        Ok(c) => c,
                        Err(e) => {
                            let _ = ready_tx.send(Err(Error::Transport(transport::io_kind(&e), format!("capnp: dial {target}: {e}"))));
                            return;
                        }
                    };
                    let (r, w) = tokio::io::split(conn);
                    let network = twoparty::VatNetwork::new(
                        BufReader::with_capacity(64 << 10, r.compat()),
                        BufWriter::with_capacity(64 << 10, w.compat_write()),
                        VatSide::Client,
                        reader_options(limit),
                    );
                    let mut system = RpcSystem::new(Box::new(network), None);
                    let boot: wirebench::Client = system.bootstrap(VatSide::Server);
                    tokio::task::spawn_local(system);
                    // The bootstrap question is asked with the first call (capnp-rpc
                    // pipelines calls on it): a peer that is no Cap'n Proto server
                    // fails that call.
                    if ready_tx.send(Ok(())).is_err() {
                        return;
                    }
                    while let Some(job) = rx.recv().await {
                        tokio::task::spawn_local(job(boot.clone()));
                    }
                });
            })
            .map_err(|e| Error::Transport("other", format!("capnp: a thread: {e}")))?;
        ready_rx.await.map_err(|_| Error::Transport("other", "capnp: the connection's thread ended".into()))??;
        Ok(Client { jobs })
    }

    /// Runs call on the RPC thread and returns its answer. Dropping the returned future
    /// drops the call's, which cancels the question.
    fn run<T, F, Fut>(&self, call: F) -> impl Future<Output = contract::Result<T>> + Send + 'static
    where
        T: Send + 'static,
        F: FnOnce(wirebench::Client) -> Fut + Send + 'static,
        Fut: Future<Output = contract::Result<T>> + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |boot| {
            Box::pin(async move {
                let mut tx = tx;
                tokio::select! {
                    r = call(boot) => { let _ = tx.send(r); }
                    _ = tx.closed() => {}
                }
            })
        });
        let sent = self.jobs.send(job);
        async move {
            sent.map_err(|_| Error::Transport("reset", "capnp: the connection's thread ended".into()))?;
            rx.await.map_err(|_| Error::Transport("reset", "capnp: the connection's thread ended".into()))?
        }
    }
}

impl Service for Client {
    async fn list_persons(&self) -> contract::Result<Vec<Person>> {
        self.run(|boot| async move {
            let r = boot.list_persons_request().send().promise.await.map_err(error_of)?;
            let l = r.get().and_then(|r| r.get_persons()).map_err(error_of)?;
            l.iter().map(read_person).collect::<capnp::Result<Vec<_>>>().map_err(error_of)
        })
        .await
    }

    async fn get_person(&self, id: i64) -> contract::Result<Person> {
        self.run(move |boot| async move {
            let mut req = boot.get_person_request();
            req.get().set_id(id);
            let r = req.send().promise.await.map_err(error_of)?;
            r.get().and_then(|r| read_person(r.get_person()?)).map_err(error_of)
        })
        .await
    }

    async fn get_person_links(&self, id: i64) -> contract::Result<Vec<PersonLink>> {
        self.run(move |boot| async move {
            let mut req = boot.get_person_links_request();
            req.get().set_id(id);
            let r = req.send().promise.await.map_err(error_of)?;
            let l = r.get().and_then(|r| r.get_links()).map_err(error_of)?;
            l.iter()
                .map(|x| Ok(PersonLink { p1: read_person(x.get_p1()?)?, p2: read_person(x.get_p2()?)? }))
                .collect::<capnp::Result<Vec<_>>>()
                .map_err(error_of)
        })
        .await
    }

    async fn create_person(&self, p: Person) -> contract::Result<Person> {
        self.run(move |boot| async move {
            let mut req = boot.create_person_request();
            write_person(req.get().init_person(), &p);
            let r = req.send().promise.await.map_err(error_of)?;
            r.get().and_then(|r| read_person(r.get_person()?)).map_err(error_of)
        })
        .await
    }

    async fn echo(&self, payload: String) -> contract::Result<String> {
        self.run(move |boot| async move {
            let mut req = boot.echo_request();
            req.get().set_payload(payload.as_str());
            let r = req.send().promise.await.map_err(error_of)?;
            r.get().and_then(|r| text(r.get_payload())).map_err(error_of)
        })
        .await
    }

    async fn stats(&self) -> contract::Result<Stats> {
        self.run(|boot| async move {
            let r = boot.stats_request().send().promise.await.map_err(error_of)?;
            let s = r.get().map_err(error_of)?;
            Ok(Stats { calls: s.get_calls(), last_payload_len: s.get_last_payload_len() })
        })
        .await
    }

    async fn increment(&self, n: i64) -> contract::Result<i64> {
        self.run(move |boot| async move {
            let mut req = boot.increment_request();
            req.get().set_value(n);
            let r = req.send().promise.await.map_err(error_of)?;
            Ok(r.get().map_err(error_of)?.get_value())
        })
        .await
    }

    /// Passes a TradeSink whose pushes travel, decoded, to this task through a channel
    /// of a few batches: a slow sink holds back the pushes, and so the server. When
    /// sink fails, the channel closes: the TradeSink fails that push and every later
    /// one, and the call is dropped (cancelled), which stops the server.
    async fn stream_trades(&self, count: i64, sink: &mut (dyn FnMut(Trade) -> contract::Result<()> + Send)) -> contract::Result<()> {
        let (batches, mut rx) = mpsc::channel::<contract::Result<Vec<Trade>>>(4);
        let (done_tx, done_rx) = oneshot::channel::<i64>();
        let call = self.run(move |boot| async move {
            let receiver: trade_sink::Client = capnp_rpc::new_client(Sink { batches, done: std::cell::Cell::new(Some(done_tx)) });
            let mut req = boot.stream_trades_request();
            req.get().set_count(count);
            req.get().set_sink(receiver);
            req.send().promise.await.map_err(error_of)?;
            Ok(())
        });
        let mut call = std::pin::pin!(call);
        let mut n: i64 = 0;
        let mut finished = None;
        // Trades are handed to sink until the call returns; those pushed before it
        // returned are all in the channel by then (done waits for every push).
        loop {
            tokio::select! {
                biased;
                b = rx.recv() => match b {
                    Some(b) => {
                        for t in b? {
                            sink(t)?;
                            n += 1;
                        }
                    }
                    None => break,
                },
                r = &mut call, if finished.is_none() => finished = Some(r),
            }
            if finished.is_some() {
                while let Ok(b) = rx.try_recv() {
                    for t in b? {
                        sink(t)?;
                        n += 1;
                    }
                }
                break;
            }
        }
        let r = match finished {
            Some(r) => r,
            None => call.await,
        };
        r?;
        let done = done_rx.await.ok();
        if n != count || done != Some(count) {
            return Err(Error::Transport("other", format!("capnp streamTrades: stream ended after {n} of {count} trades (done count {done:?})")));
        }
        Ok(())
    }
}

/// The client's TradeSink for one streamTrades call. capnp-rpc runs its pushes one at
/// a time, in order, and done after them.
struct Sink {
    batches: mpsc::Sender<contract::Result<Vec<Trade>>>,
    done: std::cell::Cell<Option<oneshot::Sender<i64>>>,
}

impl trade_sink::Server for Sink {
    fn push(self: Rc<Self>, params: trade_sink::PushParams) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        let decoded = (|| -> capnp::Result<contract::Result<Vec<Trade>>> {
            let l = params.get()?.get_trades()?;
            Ok(l.iter().map(read_trade).collect())
        })();
        async move {
            let b = decoded?;
            let failed = b.is_err();
            if self.batches.send(b).await.is_err() || failed {
                return Err(capnp::Error::failed("the receiver stopped the stream".into()));
            }
            Ok(())
        }
    }

    fn done(self: Rc<Self>, params: trade_sink::DoneParams, _: trade_sink::DoneResults) -> impl Future<Output = Result<(), capnp::Error>> + 'static {
        let r = params.get().map(|p| p.get_count());
        if let (Ok(n), Some(tx)) = (&r, self.done.take()) {
            let _ = tx.send(*n);
        }
        std::future::ready(r.map(|_| ()))
    }
}
