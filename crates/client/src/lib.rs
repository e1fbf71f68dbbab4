//! A client of the Plateau server, for tests, the load tool and scripts:
//! HTTP requests (on `reqwest`, one connection each) and a game's WebSocket
//! (on `tokio-tungstenite`), optionally from a chosen local address; and the
//! load tool behind `plateau loadtest` ([`loadtest`]).

#![warn(missing_docs)]

pub mod loadtest;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
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

/// The HTTP client for requests from `from` (one per local address, kept
/// for the life of the process; no connection is kept between requests, so
/// that each request is one connection, as a test or a new visitor makes).
fn http(from: Option<IpAddr>) -> std::io::Result<reqwest::Client> {
    static CLIENTS: OnceLock<Mutex<HashMap<Option<IpAddr>, reqwest::Client>>> = OnceLock::new();
    let mut map = CLIENTS.get_or_init(Mutex::default).lock().map_err(|_| std::io::Error::other("client cache"))?;
    if let Some(c) = map.get(&from) {
        return Ok(c.clone());
    }
    let c = reqwest::Client::builder()
        .local_address(from)
        .pool_max_idle_per_host(0)
        .tcp_nodelay(true)
        .no_proxy()
        .timeout(Duration::from_secs(120))
        .build()
        .map_err(std::io::Error::other)?;
    map.insert(from, c.clone());
    Ok(c)
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
    request_with(from, addr, method, path, token, &[], body).await
}

/// One HTTP request with a raw body and extra headers (a `Cookie`, an
/// `Origin`…), from the local address `from`.
pub async fn request_with(
    from: Option<IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Response> {
    let method = reqwest::Method::from_bytes(method.as_bytes()).map_err(std::io::Error::other)?;
    let mut req = http(from)?
        .request(method, format!("http://{addr}{path}"))
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_vec());
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.map_err(std::io::Error::other)?;
    let status = res.status().as_u16();
    let headers = res
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_ascii_lowercase(), String::from_utf8_lossy(v.as_bytes()).into_owned()))
        .collect();
    let body = res.text().await.map_err(std::io::Error::other)?;
    Ok(Response { status, headers, body })
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
