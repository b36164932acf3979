//! grpc-proto with tonic and prost, as a tonic user writes a service: the generated
//! service traits implemented over the reference service, tonic-reflection on (so
//! grpcurl and ghz need no proto file), and the generated clients over a channel. The
//! adapters convert between the contract's model and prost's messages, as an
//! application with a domain model does; that cost is part of what is measured.

use std::pin::Pin;
use std::sync::Arc;

use futures_util::Stream;
use hyper_util::rt::TokioIo;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Channel, Endpoint, Server};
use tonic::{Request, Response, Status};

use crate::contract::{self, Code, Error, Person, PersonLink, Reference, Stats, Trade};
use crate::generated::pb;
use crate::generated::pb::echo_service_client::EchoServiceClient;
use crate::generated::pb::echo_service_server::{EchoService, EchoServiceServer};
use crate::generated::pb::person_service_client::PersonServiceClient;
use crate::generated::pb::person_service_server::{PersonService, PersonServiceServer};
use crate::generated::pb::trade_service_client::TradeServiceClient;
use crate::generated::pb::trade_service_server::{TradeService, TradeServiceServer};
use crate::stack::{Running, Shutdown};
use crate::transport::{self, Addr, Counter, Listener};
use crate::workload::Service;

// ---- model <-> messages

fn person_to_pb(p: &Person) -> pb::Person {
    pb::Person {
        id: p.id,
        name: Some(pb::PersonName { title: p.name.title.clone(), first: p.name.first.clone(), last: p.name.last.clone() }),
        gender: p.gender.clone(),
        location: Some(pb::Location {
            street: p.location.street.clone(),
            city: p.location.city.clone(),
            state: p.location.state.clone(),
            post_code: p.location.post_code.clone(),
        }),
        email: p.email.clone(),
        picture: p.picture.as_ref().map(|x| pb::Picture {
            large: x.large.clone(),
            medium: x.medium.clone(),
            thumbnail: x.thumbnail.clone(),
        }),
    }
}

fn person_from_pb(p: pb::Person) -> Person {
    let name = p.name.unwrap_or_default();
    let loc = p.location.unwrap_or_default();
    Person {
        id: p.id,
        name: contract::PersonName { title: name.title, first: name.first, last: name.last },
        gender: p.gender,
        location: contract::Location { street: loc.street, city: loc.city, state: loc.state, post_code: loc.post_code },
        email: p.email,
        picture: p.picture.map(|x| contract::Picture { large: x.large, medium: x.medium, thumbnail: x.thumbnail }),
    }
}

fn link_to_pb(l: &PersonLink) -> pb::PersonLink {
    pb::PersonLink { p1: Some(person_to_pb(&l.p1)), p2: Some(person_to_pb(&l.p2)) }
}

fn trade_to_pb(t: &Trade) -> pb::Trade {
    pb::Trade {
        id: t.id,
        symbol: t.symbol.clone(),
        price: t.price,
        quantity: t.quantity,
        timestamp_nanos: t.timestamp_nanos,
        side: match t.side {
            contract::Side::Buy => pb::Side::Buy as i32,
            contract::Side::Sell => pb::Side::Sell as i32,
        },
    }
}

fn trade_from_pb(t: pb::Trade) -> contract::Result<Trade> {
    let side = match pb::Side::try_from(t.side) {
        Ok(pb::Side::Buy) => contract::Side::Buy,
        Ok(pb::Side::Sell) => contract::Side::Sell,
        Err(_) => return Err(Error::wrong(format!("trade {} has side {}, neither BUY nor SELL", t.id, t.side))),
    };
    Ok(Trade { id: t.id, symbol: t.symbol, price: t.price, quantity: t.quantity, timestamp_nanos: t.timestamp_nanos, side })
}

fn status_of(e: Error) -> Status {
    match e {
        Error::Contract(Code::NotFound, m) => Status::not_found(m),
        Error::Contract(Code::InvalidArgument, m) => Status::invalid_argument(m),
        Error::Contract(Code::ResourceExhausted, m) => Status::resource_exhausted(m),
        Error::Contract(Code::Internal, m) => Status::internal(m),
        other => Status::internal(other.to_string()),
    }
}

/// The contract error a client sees for a status: the contract's codes come back as
/// themselves; the rest are failures in transit.
fn error_of(s: Status) -> Error {
    let m = s.message().to_string();
    match s.code() {
        tonic::Code::NotFound => Error::Contract(Code::NotFound, m),
        tonic::Code::InvalidArgument => Error::Contract(Code::InvalidArgument, m),
        tonic::Code::ResourceExhausted => Error::Contract(Code::ResourceExhausted, m),
        tonic::Code::Internal => Error::Contract(Code::Internal, m),
        tonic::Code::DeadlineExceeded => Error::Transport("timeout", m),
        tonic::Code::Cancelled => Error::Transport("canceled", m),
        tonic::Code::Unavailable => {
            let lower = format!("{s:?}").to_lowercase();
            let kind = if lower.contains("refused") || lower.contains("no such file") { "refused" } else { "reset" };
            Error::Transport(kind, format!("unavailable: {m}"))
        }
        c => Error::Transport("other", format!("{c:?}: {m}")),
    }
}

// ---- server

/// The tonic server's services: the reference service behind the generated traits.
#[derive(Clone)]
struct Handlers {
    svc: Arc<Reference>,
}

#[tonic::async_trait]
impl PersonService for Handlers {
    async fn list_persons(&self, _: Request<pb::ListPersonsRequest>) -> Result<Response<pb::PersonList>, Status> {
        Ok(Response::new(pb::PersonList { persons: self.svc.list_persons().iter().map(person_to_pb).collect() }))
    }

    async fn get_person(&self, req: Request<pb::PersonId>) -> Result<Response<pb::Person>, Status> {
        let p = self.svc.get_person(req.into_inner().id).map_err(status_of)?;
        Ok(Response::new(person_to_pb(p)))
    }

    async fn get_person_links(&self, req: Request<pb::PersonId>) -> Result<Response<pb::PersonLinkList>, Status> {
        let l = self.svc.get_person_links(req.into_inner().id).map_err(status_of)?;
        Ok(Response::new(pb::PersonLinkList { links: l.iter().map(link_to_pb).collect() }))
    }

    async fn create_person(&self, req: Request<pb::Person>) -> Result<Response<pb::Person>, Status> {
        let p = self.svc.create_person(person_from_pb(req.into_inner())).map_err(status_of)?;
        Ok(Response::new(person_to_pb(&p)))
    }
}

#[tonic::async_trait]
impl EchoService for Handlers {
    async fn echo(&self, req: Request<pb::EchoMessage>) -> Result<Response<pb::EchoMessage>, Status> {
        Ok(Response::new(pb::EchoMessage { payload: self.svc.echo(req.into_inner().payload) }))
    }

    async fn stats(&self, _: Request<pb::StatsRequest>) -> Result<Response<pb::StatsReply>, Status> {
        let s = self.svc.stats();
        Ok(Response::new(pb::StatsReply { calls: s.calls, last_payload_len: s.last_payload_len }))
    }

    async fn increment(&self, req: Request<pb::Number>) -> Result<Response<pb::Number>, Status> {
        Ok(Response::new(pb::Number { value: self.svc.increment(req.into_inner().value) }))
    }
}

#[tonic::async_trait]
impl TradeService for Handlers {
    type StreamTradesStream = Pin<Box<dyn Stream<Item = Result<pb::Trade, Status>> + Send>>;

    /// The trades are pulled one at a time as HTTP/2 flow control lets tonic send them.
    async fn stream_trades(&self, req: Request<pb::TradesRequest>) -> Result<Response<Self::StreamTradesStream>, Status> {
        let trades = self.svc.trades(req.into_inner().count).map_err(status_of)?;
        Ok(Response::new(Box::pin(tokio_stream::iter(trades.map(|t| Ok(trade_to_pb(&t)))))))
    }

    type StreamOriginalTradesStream = Pin<Box<dyn Stream<Item = Result<pb::OriginalTrade, Status>> + Send>>;

    /// Refused: the Rust stacks do not carry the REST vs gRPC original's trade.
    async fn stream_original_trades(
        &self,
        _: Request<pb::TradesRequest>,
    ) -> Result<Response<Self::StreamOriginalTradesStream>, Status> {
        Err(Status::unimplemented("tonic does not carry the original trade shape (trade: original)"))
    }
}

/// Serves svc on ln with tonic until shut down; messages up to limit bytes.
pub fn serve(svc: Arc<Reference>, ln: Listener, limit: usize, message: Option<prost_reflect::MessageDescriptor>) -> Result<Running, String> {
    let h = Handlers { svc };
    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(crate::generated::DESCRIPTOR)
        .build_v1()
        .map_err(|e| format!("server reflection: {e}"))?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(crate::generated::DESCRIPTOR)
        .build_v1alpha()
        .map_err(|e| format!("server reflection: {e}"))?;
    let router = Server::builder()
        .add_service(PersonServiceServer::new(h.clone()).max_decoding_message_size(limit).max_encoding_message_size(limit))
        .add_service(EchoServiceServer::new(h.clone()).max_decoding_message_size(limit).max_encoding_message_size(limit))
        .add_service(TradeServiceServer::new(h).max_decoding_message_size(limit).max_encoding_message_size(limit))
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_optional_service(message.map(|d| crate::stack::message::MessageService::new(d, limit)));
    let addr = ln.addr();
    let (shutdown, signal) = Shutdown::new();
    let task = match ln {
        Listener::Tcp(l) => {
            // tonic's own listener with TCP_NODELAY on, as `Server::serve(addr)` sets it
            // by default: a custom incoming stream would leave Nagle's algorithm on, and
            // an answer's trailers would wait for the peer's delayed ACK (about 40 ms).
            let incoming = TcpIncoming::from(l).with_nodelay(Some(true));
            tokio::spawn(async move { router.serve_with_incoming_shutdown(incoming, signal).await.map_err(|e| e.to_string()) })
        }
        Listener::Unix(l, _) => {
            let incoming = tokio_stream::wrappers::UnixListenerStream::new(l);
            tokio::spawn(async move { router.serve_with_incoming_shutdown(incoming, signal).await.map_err(|e| e.to_string()) })
        }
    };
    Ok(Running::new(addr, shutdown, task))
}

// ---- client

/// The client's HTTP/2 connection window: the largest HTTP/2 allows, where tonic leaves
/// hyper's 5 MiB. h2 0.4.20 (tonic 0.14.9's) closes a client's connection with GOAWAY
/// ENHANCE_YOUR_CALM "too_many_data_frames" once the DATA frames of under 256 bytes it holds
/// unread cost more than half the connection window (each counted as 256 bytes less its
/// payload; the "data frame budget", which neither tonic nor hyper 1.12 lets a user set).
/// A stream of trades is such frames (about 36 bytes each): a receiver that falls 12,000
/// trades behind, as a starved one on a loaded machine does, lost its connection and every
/// call on it (seen as "GetPerson after a stopped stream" failing in CI, and reproduced
/// under load: docs/rust-worker.md). Each stream's own window (hyper's 2 MiB) still bounds
/// what a server may send unread, so this moves the budget, not the flow control of one
/// stream.
const CONNECTION_WINDOW: u32 = (1 << 31) - 1;

/// A tonic client of one HTTP/2 connection (one channel), shared by its callers.
pub struct Client {
    persons: PersonServiceClient<Channel>,
    echo: EchoServiceClient<Channel>,
    trades: TradeServiceClient<Channel>,
}

impl Client {
    /// Connects to target, counting the connection's bytes into counter.
    pub async fn connect(target: &Addr, limit: usize, counter: Arc<Counter>) -> Result<Client, Error> {
        let target = target.clone();
        let channel = Endpoint::from_static("http://wirebench.invalid")
            .initial_connection_window_size(CONNECTION_WINDOW)
            .connect_with_connector(tower::service_fn(move |_| {
                let (target, counter) = (target.clone(), counter.clone());
                async move { transport::dial(&target, counter).await.map(TokioIo::new) }
            }))
            .await
            .map_err(|e| {
                let text = format!("{e:?}").to_lowercase();
                let kind = if text.contains("refused") || text.contains("notfound") { "refused" } else { "other" };
                Error::Transport(kind, format!("connecting: {e}"))
            })?;
        Ok(Client {
            persons: PersonServiceClient::new(channel.clone()).max_decoding_message_size(limit).max_encoding_message_size(limit),
            echo: EchoServiceClient::new(channel.clone()).max_decoding_message_size(limit).max_encoding_message_size(limit),
            trades: TradeServiceClient::new(channel).max_decoding_message_size(limit).max_encoding_message_size(limit),
        })
    }
}

impl Service for Client {
    async fn list_persons(&self) -> contract::Result<Vec<Person>> {
        let r = self.persons.clone().list_persons(pb::ListPersonsRequest {}).await.map_err(error_of)?;
        Ok(r.into_inner().persons.into_iter().map(person_from_pb).collect())
    }

    async fn get_person(&self, id: i64) -> contract::Result<Person> {
        let r = self.persons.clone().get_person(pb::PersonId { id }).await.map_err(error_of)?;
        Ok(person_from_pb(r.into_inner()))
    }

    async fn get_person_links(&self, id: i64) -> contract::Result<Vec<PersonLink>> {
        let r = self.persons.clone().get_person_links(pb::PersonId { id }).await.map_err(error_of)?;
        Ok(r.into_inner()
            .links
            .into_iter()
            .map(|l| PersonLink {
                p1: person_from_pb(l.p1.unwrap_or_default()),
                p2: person_from_pb(l.p2.unwrap_or_default()),
            })
            .collect())
    }

    async fn create_person(&self, p: Person) -> contract::Result<Person> {
        let r = self.persons.clone().create_person(person_to_pb(&p)).await.map_err(error_of)?;
        Ok(person_from_pb(r.into_inner()))
    }

    async fn echo(&self, payload: String) -> contract::Result<String> {
        let r = self.echo.clone().echo(pb::EchoMessage { payload }).await.map_err(error_of)?;
        Ok(r.into_inner().payload)
    }

    async fn stats(&self) -> contract::Result<Stats> {
        let r = self.echo.clone().stats(pb::StatsRequest {}).await.map_err(error_of)?.into_inner();
        Ok(Stats { calls: r.calls, last_payload_len: r.last_payload_len })
    }

    async fn increment(&self, n: i64) -> contract::Result<i64> {
        Ok(self.echo.clone().increment(pb::Number { value: n }).await.map_err(error_of)?.into_inner().value)
    }

    async fn stream_trades(&self, count: i64, sink: &mut (dyn FnMut(Trade) -> contract::Result<()> + Send)) -> contract::Result<()> {
        let mut stream = self.trades.clone().stream_trades(pb::TradesRequest { count }).await.map_err(error_of)?.into_inner();
        // Returning early drops the stream, which cancels the call (RST_STREAM).
        while let Some(t) = stream.message().await.map_err(error_of)? {
            sink(trade_from_pb(t)?)?;
        }
        Ok(())
    }
}
