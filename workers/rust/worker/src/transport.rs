//! wirebench addresses (transport/ in the Go module): tcp://HOST:PORT and
//! unix:///PATH; listening on them; and client connections that count the bytes they
//! carry, so the driver gets bytes per op from Rust clients as from Go ones.

use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream, UnixListener, UnixStream};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    Tcp(String),
    Unix(PathBuf),
}

impl Addr {
    /// Parses a wirebench address as transport.Parse does: tcp://host:port,
    /// unix:///path, a bare /path (unix) or a bare host:port (tcp).
    pub fn parse(s: &str) -> Result<Addr, String> {
        let tcp = |hp: &str| -> Result<Addr, String> {
            match hp.rsplit_once(':') {
                Some((h, p)) if !h.is_empty() && p.parse::<u16>().is_ok() => Ok(Addr::Tcp(hp.to_string())),
                _ => Err(format!("address {s:?}: want tcp://host:port (port 0 picks a free one)")),
            }
        };
        if s.is_empty() {
            Err("empty address: want tcp://host:port or unix:///path".into())
        } else if s.starts_with('/') {
            Ok(Addr::Unix(s.into()))
        } else if let Some(hp) = s.strip_prefix("tcp://") {
            tcp(hp)
        } else if let Some(p) = s.strip_prefix("unix://") {
            if !p.starts_with('/') {
                return Err(format!("address {s:?}: want unix:///absolute/path (three slashes)"));
            }
            Ok(Addr::Unix(p.into()))
        } else if !s.contains("://") {
            tcp(s)
        } else {
            Err(format!("address {s:?}: want tcp://host:port or unix:///path"))
        }
    }
}

impl std::fmt::Display for Addr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Addr::Tcp(a) => write!(f, "tcp://{a}"),
            Addr::Unix(p) => write!(f, "unix://{}", p.display()),
        }
    }
}

/// A bound listener and the address it is bound to (a free port filled in).
pub enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener, PathBuf),
}

impl Listener {
    /// Listens on a. For unix, a stale socket file (nobody accepts on it) is removed
    /// first; a live one makes listen fail.
    pub async fn bind(a: &Addr) -> io::Result<Listener> {
        match a {
            Addr::Tcp(hp) => Ok(Listener::Tcp(TcpListener::bind(hp).await?)),
            Addr::Unix(p) => {
                if p.exists() {
                    if UnixStream::connect(p).await.is_ok() {
                        return Err(io::Error::new(io::ErrorKind::AddrInUse, format!("{} is in use", p.display())));
                    }
                    std::fs::remove_file(p)?;
                }
                Ok(Listener::Unix(UnixListener::bind(p)?, p.clone()))
            }
        }
    }

    pub fn addr(&self) -> Addr {
        match self {
            Listener::Tcp(l) => Addr::Tcp(l.local_addr().map(|a| a.to_string()).unwrap_or_default()),
            Listener::Unix(_, p) => Addr::Unix(p.clone()),
        }
    }
}

/// Bytes sent and received over every connection that shares it. Safe for concurrent use.
#[derive(Debug, Default)]
pub struct Counter {
    pub sent: AtomicI64,
    pub received: AtomicI64,
}

/// A client connection, counting what it carries into its Counter.
pub struct Conn {
    inner: Inner,
    counter: Arc<Counter>,
}

enum Inner {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// Connects to a, counting into counter.
pub async fn dial(a: &Addr, counter: Arc<Counter>) -> io::Result<Conn> {
    let inner = match a {
        Addr::Tcp(hp) => {
            let s = TcpStream::connect(hp).await?;
            // What a user of either stack gets: tonic and hyper clients set no-delay.
            s.set_nodelay(true)?;
            Inner::Tcp(s)
        }
        Addr::Unix(p) => Inner::Unix(UnixStream::connect(p).await?),
    };
    Ok(Conn { inner, counter })
}

impl AsyncRead for Conn {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let me = &mut *self;
        let r = match &mut me.inner {
            Inner::Tcp(s) => Pin::new(s).poll_read(cx, buf),
            Inner::Unix(s) => Pin::new(s).poll_read(cx, buf),
        };
        me.counter.received.fetch_add((buf.filled().len() - before) as i64, Ordering::Relaxed);
        r
    }
}

impl AsyncWrite for Conn {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let r = match &mut me.inner {
            Inner::Tcp(s) => Pin::new(s).poll_write(cx, buf),
            Inner::Unix(s) => Pin::new(s).poll_write(cx, buf),
        };
        if let Poll::Ready(Ok(n)) = r {
            me.counter.sent.fetch_add(n as i64, Ordering::Relaxed);
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let r = match &mut me.inner {
            Inner::Tcp(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Inner::Unix(s) => Pin::new(s).poll_write_vectored(cx, bufs),
        };
        if let Poll::Ready(Ok(n)) = r {
            me.counter.sent.fetch_add(n as i64, Ordering::Relaxed);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.inner {
            Inner::Tcp(s) => Pin::new(s).poll_flush(cx),
            Inner::Unix(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.inner {
            Inner::Tcp(s) => Pin::new(s).poll_shutdown(cx),
            Inner::Unix(s) => Pin::new(s).poll_shutdown(cx),
        }
    }
}

/// The error kind (record/errors.go) of an I/O error met in transit.
pub fn io_kind(e: &io::Error) -> &'static str {
    use io::ErrorKind::*;
    match e.kind() {
        ConnectionRefused | NotFound => "refused",
        ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof | NotConnected => "reset",
        TimedOut => "timeout",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_as_the_go_driver_writes_them() {
        assert_eq!(Addr::parse("tcp://127.0.0.1:0"), Ok(Addr::Tcp("127.0.0.1:0".into())));
        assert_eq!(Addr::parse("unix:///tmp/x.sock"), Ok(Addr::Unix("/tmp/x.sock".into())));
        assert_eq!(Addr::parse("/tmp/x.sock"), Ok(Addr::Unix("/tmp/x.sock".into())));
        assert_eq!(Addr::parse("[::1]:80"), Ok(Addr::Tcp("[::1]:80".into())));
        assert!(Addr::parse("unix://tmp/x.sock").is_err()); // two slashes: a host, not a path
        assert!(Addr::parse("tcp://nohost").is_err());
        assert!(Addr::parse("udp://1.2.3.4:5").is_err());
        assert!(Addr::parse("").is_err());
        assert_eq!(Addr::parse("unix:///a/b").unwrap().to_string(), "unix:///a/b");
    }
}
