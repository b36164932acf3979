//! The message workload on the Rust worker's servers (docs/your-service.md): a user's
//! own message, of a type the driver sends as a FileDescriptorSet, echoed with
//! prost-reflect's dynamic messages — tonic's gRPC method
//! wirebench.v1.MessageService/Echo (protobuf binary), and axum's POST /message/echo
//! (the protobuf JSON mapping, through prost-reflect's serde support). Each request is
//! decoded into a DynamicMessage of the type, and that decoded message is the answer,
//! encoded again.

use std::convert::Infallible;
use std::future::{Ready, ready};
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, BufMut};
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::{Body, StdError, http};
use tonic::{Request, Response, Status};

/// The gRPC service and method of the echo.
pub const SERVICE: &str = "wirebench.v1.MessageService";
const PATH: &str = "/wirebench.v1.MessageService/Echo";

/// The message type named `name` in `schema`, a serialized FileDescriptorSet holding
/// its file and every import.
pub fn descriptor(schema: &[u8], name: &str) -> Result<MessageDescriptor, String> {
    let pool = DescriptorPool::decode(schema).map_err(|e| format!("message_schema: {e}"))?;
    let name = name.strip_prefix('.').unwrap_or(name);
    pool.get_message_by_name(name).ok_or_else(|| format!("message_name {name}: no such message in message_schema"))
}

/// tonic's codec of dynamic messages of one type.
#[derive(Clone)]
struct DynCodec(MessageDescriptor);

struct DynEncoder;
struct DynDecoder(MessageDescriptor);

impl Codec for DynCodec {
    type Encode = DynamicMessage;
    type Decode = DynamicMessage;
    type Encoder = DynEncoder;
    type Decoder = DynDecoder;

    fn encoder(&mut self) -> DynEncoder {
        DynEncoder
    }

    fn decoder(&mut self) -> DynDecoder {
        DynDecoder(self.0.clone())
    }
}

impl Encoder for DynEncoder {
    type Item = DynamicMessage;
    type Error = Status;

    fn encode(&mut self, item: DynamicMessage, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.encode(dst).map_err(|e| Status::internal(format!("encoding the answer: {e}")))
    }
}

impl Decoder for DynDecoder {
    type Item = DynamicMessage;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<DynamicMessage>, Status> {
        let n = src.remaining();
        let m = DynamicMessage::decode(self.0.clone(), src.copy_to_bytes(n))
            .map_err(|e| Status::internal(format!("decoding {}: {e}", self.0.full_name())))?;
        Ok(Some(m))
    }
}

/// The echo itself: the decoded request is the answer.
struct Echo;

impl tonic::server::UnaryService<DynamicMessage> for Echo {
    type Response = DynamicMessage;
    type Future = Ready<Result<Response<DynamicMessage>, Status>>;

    fn call(&mut self, req: Request<DynamicMessage>) -> Self::Future {
        ready(Ok(Response::new(req.into_inner())))
    }
}

/// The tonic service of the echo, as tonic-build generates one for a method of a
/// .proto, with the dynamic codec.
#[derive(Clone)]
pub struct MessageService {
    desc: MessageDescriptor,
    limit: usize,
}

impl MessageService {
    pub fn new(desc: MessageDescriptor, limit: usize) -> MessageService {
        MessageService { desc, limit }
    }
}

impl tonic::server::NamedService for MessageService {
    const NAME: &'static str = SERVICE;
}

type BoxFuture<T, E> = Pin<Box<dyn std::future::Future<Output = Result<T, E>> + Send + 'static>>;

impl<B> tower::Service<http::Request<B>> for MessageService
where
    B: Body + Send + 'static,
    B::Error: Into<StdError> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        if req.uri().path() != PATH {
            return Box::pin(async move { Ok(Status::unimplemented(format!("{SERVICE} has only Echo")).into_http()) });
        }
        let codec = DynCodec(self.desc.clone());
        let limit = self.limit;
        Box::pin(async move {
            let mut grpc = tonic::server::Grpc::new(codec).apply_max_message_size_config(Some(limit), Some(limit));
            Ok(grpc.unary(Echo, req).await)
        })
    }
}

/// axum's side: the body, the message in the protobuf JSON mapping, decoded and
/// encoded again; Err is the refusal's message (400, invalid_argument).
pub fn echo_json(desc: &MessageDescriptor, body: &[u8]) -> Result<Vec<u8>, String> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let m = DynamicMessage::deserialize(desc.clone(), &mut de).map_err(|e| format!("bad request body: {e}"))?;
    de.end().map_err(|e| format!("bad request body: {e}"))?;
    let mut out = serde_json::to_vec(&m).map_err(|e| format!("encoding the answer: {e}"))?;
    out.put_u8(b'\n');
    Ok(out)
}
