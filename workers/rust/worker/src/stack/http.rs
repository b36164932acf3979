//! http-json (docs/protocols.md) as a Rust web service is written: an axum router with
//! serde_json bodies on the server, and hyper-util's pooled client with serde_json on
//! the client. Refusals carry the contract's JSON error body
//! {"code":"not_found","message":"..."} with the status of its code; the trade stream is
//! NDJSON, one trade a line, ended by {"end":{"count":N}}.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde::{Deserialize, Serialize};

use crate::contract::{self, Code, Error, Person, PersonLink, Reference, Stats, Trade};
use crate::stack::{Running, Shutdown};
use crate::transport::{self, Addr, Conn, Counter, Listener};
use crate::workload::Service;

// ---- bodies

#[derive(Serialize, Deserialize)]
struct PersonList<T> {
    persons: T,
}

#[derive(Serialize, Deserialize)]
struct LinkList<T> {
    links: T,
}

#[derive(Serialize, Deserialize)]
struct EchoBody {
    payload: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct ValueBody {
    value: Option<i64>,
}

#[derive(Serialize, Deserialize)]
struct ErrorBody {
    code: String,
    message: String,
}

#[derive(Serialize, Deserialize)]
struct EndCount {
    count: i64,
}

/// The last line of a complete stream.
#[derive(Serialize)]
struct EndLine {
    end: EndCount,
}

/// Any line of a trade stream as read: a trade, or the end or error line.
#[derive(Deserialize)]
struct StreamLine {
    id: Option<i64>,
    symbol: Option<String>,
    price: Option<f64>,
    quantity: Option<i64>,
    timestamp_nanos: Option<i64>,
    side: Option<contract::Side>,
    end: Option<EndCount>,
    error: Option<ErrorBody>,
}

impl StreamLine {
    fn trade(self) -> Option<Trade> {
        Some(Trade {
            id: self.id?,
            symbol: self.symbol?,
            price: self.price?,
            quantity: self.quantity?,
            timestamp_nanos: self.timestamp_nanos?,
            side: self.side?,
        })
    }
}

fn status_of(c: Code) -> StatusCode {
    match c {
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::ResourceExhausted => StatusCode::PAYLOAD_TOO_LARGE,
        Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

// ---- server

/// A refusal as an answer: the status of its code and the JSON error body.
struct Refusal(Code, String);

impl From<Error> for Refusal {
    fn from(e: Error) -> Refusal {
        match e {
            Error::Contract(c, m) => Refusal(c, m),
            other => Refusal(Code::Internal, other.to_string()),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (status_of(self.0), Json(ErrorBody { code: self.0.wire().into(), message: self.1 })).into_response()
    }
}

type Answer<T> = Result<T, Refusal>;
type Svc = State<Arc<Reference>>;

/// Parses a request body, or refuses it as the contract says: 413 over the limit, 400
/// for anything else wrong with it.
fn read_body<T: for<'de> Deserialize<'de>>(body: Result<Bytes, BytesRejection>) -> Answer<T> {
    let bytes = body.map_err(|r| {
        let code = if r.status() == StatusCode::PAYLOAD_TOO_LARGE { Code::ResourceExhausted } else { Code::InvalidArgument };
        Refusal(code, r.body_text())
    })?;
    serde_json::from_slice(&bytes).map_err(|e| Refusal(Code::InvalidArgument, format!("bad request body: {e}")))
}

fn person_id(text: &str) -> Answer<i64> {
    // Not an id, so no person: the same answer as an unknown id.
    text.parse().map_err(|_| Refusal(Code::NotFound, format!("no person with id {text:?}")))
}

async fn list_persons(State(svc): Svc) -> Response {
    Json(PersonList { persons: svc.list_persons() }).into_response()
}

async fn get_person(State(svc): Svc, Path(id): Path<String>) -> Answer<Response> {
    Ok(Json(svc.get_person(person_id(&id)?)?).into_response())
}

async fn get_person_links(State(svc): Svc, Path(id): Path<String>) -> Answer<Response> {
    Ok(Json(LinkList { links: svc.get_person_links(person_id(&id)?)? }).into_response())
}

async fn create_person(State(svc): Svc, body: Result<Bytes, BytesRejection>) -> Answer<Json<Person>> {
    Ok(Json(svc.create_person(read_body(body)?)?))
}

async fn echo(State(svc): Svc, body: Result<Bytes, BytesRejection>) -> Answer<Json<EchoBody>> {
    let b: EchoBody = read_body(body)?;
    let payload = b.payload.ok_or_else(|| Refusal(Code::InvalidArgument, "echo body: missing \"payload\"".into()))?;
    Ok(Json(EchoBody { payload: Some(svc.echo(payload)) }))
}

async fn increment(State(svc): Svc, body: Result<Bytes, BytesRejection>) -> Answer<Json<ValueBody>> {
    let b: ValueBody = read_body(body)?;
    let v = b.value.ok_or_else(|| Refusal(Code::InvalidArgument, "increment body: missing \"value\"".into()))?;
    Ok(Json(ValueBody { value: Some(svc.increment(v)) }))
}

async fn stats(State(svc): Svc) -> Json<Stats> {
    Json(svc.stats())
}

#[derive(Deserialize)]
struct TradesQuery {
    count: Option<String>,
}

/// Trades per chunk of the stream: each chunk is one write (and one HTTP chunk).
const BATCH: usize = 256;

async fn stream_trades(State(svc): Svc, Query(q): Query<TradesQuery>) -> Answer<Response> {
    let text = q.count.ok_or_else(|| Refusal(Code::InvalidArgument, "missing query parameter count, e.g. /trades?count=100".into()))?;
    let count: i64 = text.parse().map_err(|_| Refusal(Code::InvalidArgument, format!("count {text:?} is not an integer")))?;
    let mut trades = svc.trades(count)?;
    let mut done = false;
    // Chunks are made as hyper asks for them, so a slow reader holds the server back
    // rather than filling its memory.
    let chunks = std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut buf = Vec::with_capacity(BATCH * 112);
        let mut n = 0;
        for t in trades.by_ref().take(BATCH) {
            serde_json::to_writer(&mut buf, &t).expect("a trade encodes");
            buf.push(b'\n');
            n += 1;
        }
        if n < BATCH {
            serde_json::to_writer(&mut buf, &EndLine { end: EndCount { count } }).expect("the end line encodes");
            buf.push(b'\n');
            done = true;
        }
        Some(Ok::<_, Infallible>(Bytes::from(buf)))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson"), (header::CACHE_CONTROL, "no-store")],
        Body::from_stream(futures_util::stream::iter(chunks)),
    )
        .into_response())
}

async fn no_route(uri: Uri) -> Refusal {
    Refusal(Code::NotFound, format!("no route {}", uri.path()))
}

async fn not_allowed(method: Method, uri: Uri) -> Response {
    let r = Refusal(Code::InvalidArgument, format!("method {method} is not allowed on {}", uri.path())).into_response();
    (StatusCode::METHOD_NOT_ALLOWED, r).into_response()
}

/// POST /message/echo of the message workload's type (stack::message).
async fn echo_message(desc: Arc<prost_reflect::MessageDescriptor>, body: Result<Bytes, BytesRejection>) -> Answer<Response> {
    let bytes = body.map_err(|r| {
        let code = if r.status() == StatusCode::PAYLOAD_TOO_LARGE { Code::ResourceExhausted } else { Code::InvalidArgument };
        Refusal(code, r.body_text())
    })?;
    let out = crate::stack::message::echo_json(&desc, &bytes).map_err(|m| Refusal(Code::InvalidArgument, m))?;
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], out).into_response())
}

/// The http-json routes over svc, request bodies bounded by limit bytes, and the
/// message workload's route when the server has a message type.
pub fn router(svc: Arc<Reference>, limit: usize, message: Option<prost_reflect::MessageDescriptor>) -> Router {
    let mut r = Router::new();
    if let Some(d) = message {
        let d = Arc::new(d);
        r = r.route("/message/echo", post(move |body: Result<Bytes, BytesRejection>| echo_message(d.clone(), body)));
    }
    r
        .route("/persons", get(list_persons).post(create_person))
        .route("/persons/{id}", get(get_person))
        .route("/persons/{id}/links", get(get_person_links))
        .route("/echo", post(echo))
        .route("/increment", post(increment))
        .route("/stats", get(stats))
        .route("/trades", get(stream_trades))
        .fallback(no_route)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(svc)
}

/// Serves svc on ln with axum until shut down.
pub fn serve(svc: Arc<Reference>, ln: Listener, limit: usize, message: Option<prost_reflect::MessageDescriptor>) -> Result<Running, String> {
    let app = router(svc, limit, message);
    let addr = ln.addr();
    let (shutdown, signal) = Shutdown::new();
    let task = match ln {
        Listener::Tcp(l) => {
            // Answers are small writes on kept-alive connections: without no-delay,
            // Nagle's algorithm and delayed ACKs would add tens of milliseconds.
            let l = l.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            tokio::spawn(async move { axum::serve(l, app).with_graceful_shutdown(signal).await.map_err(|e| e.to_string()) })
        }
        Listener::Unix(l, _) => {
            tokio::spawn(async move { axum::serve(l, app).with_graceful_shutdown(signal).await.map_err(|e| e.to_string()) })
        }
    };
    Ok(Running::new(addr, shutdown, task))
}

// ---- client

impl Connection for Conn {
    fn connected(&self) -> Connected {
        Connected::new()
    }
}

type Connector = tower::util::BoxCloneSyncService<Uri, TokioIo<Conn>, std::io::Error>;
type HttpClient = hyper_util::client::legacy::Client<Connector, Full<Bytes>>;

/// A hyper-util pooled HTTP/1.1 client: its callers share a pool of kept-alive
/// connections to the target (one per call in flight).
pub struct Client {
    http: HttpClient,
    base: String,
    limit: usize,
}

impl Client {
    /// A client of target, counting its connections' bytes into counter. The first
    /// connection is opened at once, so an unreachable target fails here.
    pub async fn connect(target: &Addr, limit: usize, counter: Arc<Counter>) -> contract::Result<Client> {
        let t = target.clone();
        let connector: Connector = tower::util::BoxCloneSyncService::new(tower::service_fn(move |_: Uri| {
            let (t, counter) = (t.clone(), counter.clone());
            let f: Pin<Box<dyn Future<Output = std::io::Result<TokioIo<Conn>>> + Send>> =
                Box::pin(async move { transport::dial(&t, counter).await.map(TokioIo::new) });
            f
        }));
        let base = match target {
            Addr::Tcp(hp) => format!("http://{hp}"),
            Addr::Unix(_) => "http://localhost".to_string(),
        };
        let http = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector);
        let c = Client { http, base, limit };
        c.stats().await.map_err(|e| match e {
            Error::Transport(k, m) => Error::Transport(k, format!("connecting: {m}")),
            other => other,
        })?;
        Ok(c)
    }

    fn request(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> hyper::Request<Full<Bytes>> {
        let mut b = hyper::Request::builder().method(method).uri(format!("{}{path}", self.base));
        if body.is_some() {
            b = b.header(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        b.body(Full::new(Bytes::from(body.unwrap_or_default()))).expect("a valid request")
    }

    /// Makes a call and returns the body of its 200 answer, or the refusal it carried.
    async fn call(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> contract::Result<Bytes> {
        let resp = self.http.request(self.request(method, path, body)).await.map_err(|e| client_error(&e))?;
        let status = resp.status();
        let bytes = Limited::new(resp.into_body(), self.limit).collect().await.map_err(|e| self.body_error(e))?.to_bytes();
        if status != StatusCode::OK {
            return Err(refusal(status, &bytes));
        }
        Ok(bytes)
    }

    async fn call_json<T: for<'de> Deserialize<'de>>(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> contract::Result<T> {
        let bytes = self.call(method, path, body).await?;
        serde_json::from_slice(&bytes).map_err(|e| Error::wrong(format!("{path}: answer is not the contract's JSON: {e}")))
    }

    fn body_error(&self, e: Box<dyn std::error::Error + Send + Sync>) -> Error {
        if e.is::<http_body_util::LengthLimitError>() {
            return Error::contract(Code::ResourceExhausted, format!("response body over the client's limit of {} bytes", self.limit));
        }
        match e.downcast::<hyper::Error>() {
            Ok(h) => hyper_error(&h),
            Err(e) => Error::Transport("other", e.to_string()),
        }
    }
}

/// The refusal an error answer carries: its body's code, or the code of its status
/// when the body says none (another server's).
fn refusal(status: StatusCode, body: &[u8]) -> Error {
    if let Ok(b) = serde_json::from_slice::<ErrorBody>(body) {
        if let Some(c) = Code::from_wire(&b.code) {
            return Error::Contract(c, b.message);
        }
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
    match status.as_u16() {
        404 => Error::Contract(Code::NotFound, text),
        400 => Error::Contract(Code::InvalidArgument, text),
        413 => Error::Contract(Code::ResourceExhausted, text),
        500 => Error::Contract(Code::Internal, text),
        s => Error::wrong(format!("status {s}: {text}")),
    }
}

fn io_cause<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a std::io::Error> {
    let mut cur = Some(e);
    while let Some(c) = cur {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            return Some(io);
        }
        cur = c.source();
    }
    None
}

fn client_error(e: &hyper_util::client::legacy::Error) -> Error {
    if let Some(io) = io_cause(e) {
        return Error::Transport(transport::io_kind(io), e_text(e));
    }
    if let Some(h) = std::error::Error::source(e).and_then(|s| s.downcast_ref::<hyper::Error>()) {
        return hyper_error(h);
    }
    Error::Transport(if e.is_connect() { "refused" } else { "other" }, e_text(e))
}

fn hyper_error(h: &hyper::Error) -> Error {
    if let Some(io) = io_cause(h) {
        return Error::Transport(transport::io_kind(io), e_text(h));
    }
    let kind = if h.is_canceled() {
        "canceled"
    } else if h.is_incomplete_message() || h.is_closed() {
        "reset"
    } else {
        "other"
    };
    Error::Transport(kind, e_text(h))
}

/// An error with its causes, one line.
fn e_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).expect("the contract's bodies encode")
}

impl Service for Client {
    async fn list_persons(&self) -> contract::Result<Vec<Person>> {
        Ok(self.call_json::<PersonList<Vec<Person>>>(Method::GET, "/persons", None).await?.persons)
    }

    async fn get_person(&self, id: i64) -> contract::Result<Person> {
        self.call_json(Method::GET, &format!("/persons/{id}"), None).await
    }

    async fn get_person_links(&self, id: i64) -> contract::Result<Vec<PersonLink>> {
        Ok(self.call_json::<LinkList<Vec<PersonLink>>>(Method::GET, &format!("/persons/{id}/links"), None).await?.links)
    }

    async fn create_person(&self, p: Person) -> contract::Result<Person> {
        self.call_json(Method::POST, "/persons", Some(encode(&p))).await
    }

    async fn echo(&self, payload: String) -> contract::Result<String> {
        let b: EchoBody = self.call_json(Method::POST, "/echo", Some(encode(&EchoBody { payload: Some(payload) }))).await?;
        b.payload.ok_or_else(|| Error::wrong("echo answer without \"payload\""))
    }

    async fn stats(&self) -> contract::Result<Stats> {
        self.call_json(Method::GET, "/stats", None).await
    }

    async fn increment(&self, n: i64) -> contract::Result<i64> {
        let b: ValueBody = self.call_json(Method::POST, "/increment", Some(encode(&ValueBody { value: Some(n) }))).await?;
        b.value.ok_or_else(|| Error::wrong("increment answer without \"value\""))
    }

    async fn stream_trades(&self, count: i64, sink: &mut (dyn FnMut(Trade) -> contract::Result<()> + Send)) -> contract::Result<()> {
        let req = self.request(Method::GET, &format!("/trades?count={count}"), None);
        let resp = self.http.request(req).await.map_err(|e| client_error(&e))?;
        let status = resp.status();
        let mut body = resp.into_body();
        if status != StatusCode::OK {
            let bytes = Limited::new(body, self.limit).collect().await.map_err(|e| self.body_error(e))?.to_bytes();
            return Err(refusal(status, &bytes));
        }
        // Lines are cut from the frames as they come; a line may span frames. Returning
        // early drops the body, and hyper closes the connection rather than drain it.
        let mut buf: Vec<u8> = Vec::new();
        let mut delivered = 0i64;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| hyper_error(&e))?;
            let Ok(data) = frame.into_data() else { continue };
            buf.extend_from_slice(&data);
            let mut start = 0;
            while let Some(i) = buf[start..].iter().position(|&b| b == b'\n') {
                let line = &buf[start..start + i];
                start += i + 1;
                let l: StreamLine = serde_json::from_slice(line)
                    .map_err(|e| Error::wrong(format!("trade stream line {}: {e}", delivered + 1)))?;
                if let Some(err) = l.error {
                    let code = Code::from_wire(&err.code).unwrap_or(Code::Internal);
                    return Err(Error::Contract(code, err.message));
                }
                if let Some(end) = l.end {
                    if end.count != delivered {
                        return Err(Error::wrong(format!("stream ended with count {} after {delivered} trades", end.count)));
                    }
                    return Ok(());
                }
                match l.trade() {
                    Some(t) => sink(t)?,
                    None => return Err(Error::wrong(format!("trade stream line {} is neither a trade nor an end", delivered + 1))),
                }
                delivered += 1;
            }
            buf.drain(..start);
            if buf.len() > self.limit {
                return Err(Error::contract(Code::ResourceExhausted, format!("a stream line over the client's limit of {} bytes", self.limit)));
            }
        }
        Err(Error::Transport("reset", format!("the trade stream ended after {delivered} trades without its end line")))
    }
}
