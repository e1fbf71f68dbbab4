//! A small client of the server, for tests, the load tool and scripts: plain
//! HTTP/1.1 requests (one connection each) and the game's WebSocket.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// An HTTP response.
#[derive(Clone, Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Response {
    /// The body as JSON (`null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
    /// A header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

fn bad(m: impl Into<String>) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, m.into())
}

/// A connection to `addr`, from the local address `from` when given (a load
/// tool on loopback plays many clients from many 127.x.y.z addresses).
async fn tcp(from: Option<IpAddr>, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let s = match from {
        None => TcpStream::connect(addr).await?,
        Some(ip) => {
            let socket = if ip.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
            socket.bind(SocketAddr::new(ip, 0))?;
            socket.connect(addr).await?
        }
    };
    s.set_nodelay(true)?;
    Ok(s)
}

/// One HTTP request with a raw body.
pub async fn request_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &[u8],
) -> std::io::Result<Response> {
    request_from(None, addr, method, path, token, body).await
}

/// One HTTP request with a raw body, from the local address `from`.
pub async fn request_from(
    from: Option<IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &[u8],
) -> std::io::Result<Response> {
    let mut s = tcp(from, addr).await?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await?;
    if !body.is_empty() {
        // The server may answer (413) and close before reading a large body.
        let _ = s.write_all(body).await;
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> std::io::Result<Response> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| bad("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| bad("headers are not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 =
        status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad("bad status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if headers.iter().any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked")) {
        body = dechunk(&body)?;
    }
    Ok(Response { status, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

fn dechunk(mut b: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").ok_or_else(|| bad("bad chunk"))?;
        let size_text = std::str::from_utf8(&b[..eol]).map_err(|_| bad("bad chunk size"))?;
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| bad("bad chunk size"))?;
        b = &b[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if b.len() < size + 2 {
            return Err(bad("truncated chunk"));
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// `GET path`.
pub async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> std::io::Result<Response> {
    request_raw(addr, "GET", path, token, b"").await
}

/// `POST path` with a JSON body.
pub async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: &Value) -> std::io::Result<Response> {
    request_raw(addr, "POST", path, token, body.to_string().as_bytes()).await
}

/// `POST path` with a JSON body, from the local address `from`.
pub async fn post_from(
    from: Option<IpAddr>,
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> std::io::Result<Response> {
    request_from(from, addr, "POST", path, token, body.to_string().as_bytes()).await
}

/// A game's WebSocket.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Open the WebSocket of game `id` (before the hello).
pub async fn connect(addr: SocketAddr, id: &str) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
    connect_from(None, addr, id).await
}

/// Open the WebSocket of game `id` from the local address `from`.
pub async fn connect_from(
    from: Option<IpAddr>,
    addr: SocketAddr,
    id: &str,
) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(tcp(from, addr).await?);
    let (ws, _) =
        tokio_tungstenite::client_async_with_config(format!("ws://{addr}/api/games/{id}/ws"), stream, Some(config))
            .await?;
    Ok(ws)
}

/// Send a JSON message.
pub async fn send(ws: &mut Ws, v: &Value) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    ws.send(Message::text(v.to_string())).await
}

/// What came from the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A text frame: its raw text and its JSON.
    Frame(String, Value),
    /// The server closed the socket, with this close code.
    Closed(Option<u16>),
    /// Nothing came in time.
    Timeout,
}

/// The next text frame (pings and pongs skipped).
pub async fn recv(ws: &mut Ws, timeout: Duration) -> Incoming {
    loop {
        match tokio::time::timeout(timeout, ws.next()).await {
            Err(_) => return Incoming::Timeout,
            Ok(None) | Ok(Some(Err(_))) => return Incoming::Closed(None),
            Ok(Some(Ok(Message::Text(t)))) => {
                let v = serde_json::from_str(&t).unwrap_or(Value::Null);
                return Incoming::Frame(t.to_string(), v);
            }
            Ok(Some(Ok(Message::Close(c)))) => return Incoming::Closed(c.map(|c| u16::from(c.code))),
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// The next text frame as JSON, or `None` if the socket closed or nothing came.
pub async fn recv_json(ws: &mut Ws, timeout: Duration) -> Option<Value> {
    match recv(ws, timeout).await {
        Incoming::Frame(_, v) => Some(v),
        _ => None,
    }
}
