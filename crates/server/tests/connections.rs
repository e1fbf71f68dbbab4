//! Connection limits through the real server and real sockets on loopback:
//! time-outs of connections that send no request (or too slowly) and of idle
//! kept-alive ones, the cap per client address, the cap in all with its
//! reserve, and healthy WebSockets living past the time-outs while counting.
//!
//! Clients bind to several loopback addresses (127.0.0.0/8 is all loopback on
//! Linux) to be different client addresses.

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use plateau_client as client;
use std::time::Duration;

use common::*;
use plateau_server::{Config, ConnLimits, Limits};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{Instant, sleep, timeout};

/// Generous bound for anything to happen.
const BOUND: Duration = Duration::from_secs(20);

fn config(connections: ConnLimits) -> (Config, std::path::PathBuf) {
    let dir = temp_dir("conns");
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db_url(&dir),
        ai_threads: 1,
        // Many requests from one address: the HTTP rate limit is not tested here.
        limits: Limits { http_rate: 1000.0, http_burst: 1000.0, ..Limits::default() },
        connections,
        ..Default::default()
    };
    (config, dir)
}

async fn start_conns(connections: ConnLimits) -> TestServer {
    let (config, dir) = config(connections);
    let server = plateau_server::start(config).await.expect("server starts");
    let addr = server.addr();
    TestServer { server, addr, dir }
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// A TCP connection to the server from `src` (a loopback address).
async fn connect_from(src: Ipv4Addr, addr: SocketAddr) -> TcpStream {
    let sock = TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::from((src, 0))).unwrap();
    timeout(BOUND, sock.connect(addr)).await.expect("connect in time").expect("connect")
}

/// Read one response (head and a `content-length` body) from a kept-alive
/// connection: (status, body as JSON).
async fn read_response(s: &mut TcpStream) -> Option<(u16, Value)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let deadline = Instant::now() + BOUND;
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let status: u16 = head.split_whitespace().nth(1)?.parse().ok()?;
            let len: usize = head
                .lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
                .and_then(|(_, v)| v.trim().parse().ok())
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                let body = serde_json::from_slice(&buf[end + 4..end + 4 + len]).unwrap_or(Value::Null);
                return Some((status, body));
            }
        }
        let n = timeout(deadline.saturating_duration_since(Instant::now()), s.read(&mut chunk)).await.ok()?.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// One kept-alive request on `s`.
async fn request(s: &mut TcpStream, path: &str) -> Option<(u16, Value)> {
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: plateau\r\n\r\n").as_bytes()).await.ok()?;
    read_response(s).await
}

/// A new connection from `src` that made one request and stays open.
async fn open_kept(src: Ipv4Addr, addr: SocketAddr) -> TcpStream {
    let mut s = connect_from(src, addr).await;
    let (status, v) = request(&mut s, "/api/health").await.expect("an answer");
    assert_eq!(status, 200, "{v}");
    s
}

/// `GET /api/health` on a new connection from `src`, closed after: it
/// returns once the server has closed the connection, so its place is given
/// back (the server frees it before closing; a test that counts places must
/// not race the server's end of a connection it has already answered on).
async fn health_from(src: Ipv4Addr, addr: SocketAddr) -> (u16, Value) {
    let mut s = connect_from(src, addr).await;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: plateau\r\nConnection: close\r\n\r\n").await.unwrap();
    let answer = read_response(&mut s).await.expect("an answer");
    assert!(closed_by_server(&mut s).await, "the server keeps a `Connection: close` connection open");
    answer
}

/// Check that a connection from `src` is refused cleanly: a 503 with the
/// JSON code `too_many_connections`, then the end.
async fn assert_refused(src: Ipv4Addr, addr: SocketAddr) {
    let mut s = connect_from(src, addr).await;
    let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nHost: plateau\r\n\r\n").await;
    let mut raw = Vec::new();
    let _ = timeout(BOUND, s.read_to_end(&mut raw)).await.expect("the refusal ends in time");
    let text = String::from_utf8_lossy(&raw).to_string();
    assert!(text.starts_with("HTTP/1.1 503 "), "{text}");
    assert!(text.to_ascii_lowercase().contains("connection: close"), "{text}");
    let body: Value = serde_json::from_str(&text[text.find("\r\n\r\n").unwrap() + 4..]).unwrap();
    assert_eq!(body["code"], "too_many_connections", "{text}");
    assert!(body["message"].is_string());
}

/// Wait (at most `BOUND`) until the server closes `s`, reading and dropping
/// whatever it sends; true if it did.
async fn closed_by_server(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + BOUND;
    loop {
        match timeout(deadline.saturating_duration_since(Instant::now()), s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

fn short_timeouts() -> ConnLimits {
    ConnLimits { header_read_timeout: secs(1), keep_alive_idle: secs(6), limit_loopback: true, ..ConnLimits::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_partial_and_slowloris_connections_are_closed() {
    let s = start_conns(short_timeouts()).await;
    let addr = s.addr;
    let src = Ipv4Addr::new(127, 0, 0, 1);

    // Nothing at all.
    let mut silent = connect_from(src, addr).await;
    // Half a request line.
    let mut partial = connect_from(src, addr).await;
    partial.write_all(b"GET /api/hea").await.unwrap();
    // A request line and headers, one byte at a time, never ending.
    let slow = connect_from(src, addr).await;
    let (mut slow_read, mut slow_write) = slow.into_split();
    let trickle = tokio::spawn(async move {
        let text = b"GET /api/health HTTP/1.1\r\nHost: plateau\r\nX-Slow: ".iter().chain(std::iter::repeat(&b'a'));
        let started = Instant::now();
        for b in text.take(400) {
            if slow_write.write_all(&[*b]).await.is_err() {
                return started.elapsed();
            }
            sleep(Duration::from_millis(100)).await;
        }
        started.elapsed()
    });

    assert!(closed_by_server(&mut silent).await, "a silent connection is closed");
    assert!(closed_by_server(&mut partial).await, "a partial request line is closed");
    let mut buf = [0u8; 256];
    let slow_closed = matches!(timeout(BOUND, slow_read.read(&mut buf)).await, Ok(Ok(0)) | Ok(Err(_)));
    assert!(slow_closed, "a slowloris is closed");
    // The trickle stops when the server closed (a write fails), well before
    // its 40 s of bytes.
    let trickled = timeout(BOUND * 2, trickle).await.expect("the trickle ends").unwrap();
    assert!(trickled < Duration::from_secs(39), "{trickled:?}");

    // The server still answers.
    assert_eq!(health_from(src, addr).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_kept_alive_connections_are_closed() {
    let s = start_conns(short_timeouts()).await;
    let addr = s.addr;
    let src = Ipv4Addr::new(127, 0, 0, 1);
    let mut c = open_kept(src, addr).await;
    // Idle longer than the header time-out (1 s) but well within the idle
    // time-out (6 s): a kept-alive connection may wait between requests.
    sleep(Duration::from_secs(2)).await;
    let (status, _) = request(&mut c, "/api/health").await.expect("the connection still serves");
    assert_eq!(status, 200);
    // Then idle past the idle time-out: closed.
    let started = Instant::now();
    assert!(closed_by_server(&mut c).await, "an idle kept-alive connection is closed");
    eprintln!("closed after {:?} idle", started.elapsed());

    // A later request begun but not finished is closed too (header time-out
    // from its first byte).
    let mut c = open_kept(src, addr).await;
    c.write_all(b"GET /api/health HTTP/1.1\r\nHo").await.unwrap();
    assert!(closed_by_server(&mut c).await, "a half-sent second request is closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_capped() {
    let limits = ConnLimits {
        header_read_timeout: secs(60),
        keep_alive_idle: secs(60),
        max_per_ip: 20,
        max_total: 1_000,
        reserve: 10,
        limit_loopback: true,
        ..ConnLimits::default()
    };
    let s = start_conns(limits).await;
    let addr = s.addr;
    let crowd = Ipv4Addr::new(127, 0, 0, 1);
    let mut held = Vec::new();
    for _ in 0..20 {
        held.push(open_kept(crowd, addr).await);
    }
    assert_refused(crowd, addr).await;
    assert_refused(crowd, addr).await;
    // Another address is served.
    let (status, v) = health_from(Ipv4Addr::new(127, 0, 0, 2), addr).await;
    assert_eq!(status, 200, "{v}");
    // The connections held still work.
    for c in held.iter_mut().take(3) {
        assert_eq!(request(c, "/api/health").await.expect("answer").0, 200);
    }
    // One closes: the address may connect again (once the server saw it).
    drop(held.pop());
    let deadline = Instant::now() + BOUND;
    loop {
        let mut c = connect_from(crowd, addr).await;
        match request(&mut c, "/api/health").await {
            Some((200, _)) => break,
            other => {
                assert!(Instant::now() < deadline, "never admitted again: {other:?}");
                sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_global_cap_keeps_a_reserve_for_new_addresses() {
    let limits = ConnLimits {
        header_read_timeout: secs(60),
        keep_alive_idle: secs(60),
        max_per_ip: 50,
        max_total: 40,
        reserve: 8,
        reserve_per_ip: 2,
        limit_loopback: true,
    };
    let s = start_conns(limits).await;
    let addr = s.addr;
    // Four addresses take the 32 places open to all.
    let crowd: Vec<Ipv4Addr> = (1..=4).map(|i| Ipv4Addr::new(127, 0, 1, i)).collect();
    let mut held = Vec::new();
    for i in 0..32 {
        held.push(open_kept(crowd[i % 4], addr).await);
    }
    // They get no more: the rest is the reserve.
    for ip in &crowd {
        assert_refused(*ip, addr).await;
    }
    // A new address still gets its answer, from the reserve.
    let (status, v) = health_from(Ipv4Addr::new(127, 0, 2, 1), addr).await;
    assert_eq!(status, 200, "{v}");
    // Eight new addresses with one connection each fill the reserve...
    for i in 1..=8 {
        held.push(open_kept(Ipv4Addr::new(127, 0, 3, i), addr).await);
    }
    // ...and then the server is full, for everyone.
    assert_refused(Ipv4Addr::new(127, 0, 4, 1), addr).await;
    assert_refused(Ipv4Addr::new(127, 0, 3, 1), addr).await;
    assert_eq!(held.len(), 40);
    // Places come back as connections close.
    held.truncate(30);
    let deadline = Instant::now() + BOUND;
    loop {
        let mut c = connect_from(Ipv4Addr::new(127, 0, 4, 1), addr).await;
        match request(&mut c, "/api/health").await {
            Some((200, _)) => break,
            other => {
                assert!(Instant::now() < deadline, "never admitted again: {other:?}");
                sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthy_websockets_outlive_the_timeouts_and_count() {
    let limits = ConnLimits {
        header_read_timeout: secs(1),
        keep_alive_idle: secs(1),
        max_per_ip: 2,
        limit_loopback: true,
        ..ConnLimits::default()
    };
    let s = start_conns(limits).await;
    let addr = s.addr;
    // Created from another address: the client's pooled HTTP connection
    // must not count against 127.0.0.1's two.
    let r =
        client::post_from(Some(IpAddr::from([127, 0, 0, 2])), addr, "/api/games", None, &json!({ "game": "abalone" }))
            .await
            .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    let (id, token) = (v["id"].as_str().unwrap().to_string(), v["token"].as_str().map(str::to_string));
    let (mut a, _) = Client::open(addr, &id, token.as_deref(), None).await;
    let (mut b, _) = Client::open(addr, &id, None, None).await;
    // Both sockets count against the cap of 2 for 127.0.0.1.
    assert_refused(Ipv4Addr::new(127, 0, 0, 1), addr).await;
    // Silent for several times the header and idle time-outs...
    sleep(Duration::from_secs(4)).await;
    // ...they are still open and answer.
    for c in [&mut a, &mut b] {
        c.send(json!({ "type": "ping" })).await;
        let pong = c.until("pong").await;
        assert_eq!(pong["type"], "pong");
    }
    assert_refused(Ipv4Addr::new(127, 0, 0, 1), addr).await;
    // Once they close, the address may connect again.
    drop((a, b));
    let deadline = Instant::now() + BOUND;
    loop {
        let mut c = connect_from(Ipv4Addr::new(127, 0, 0, 1), addr).await;
        match request(&mut c, "/api/health").await {
            Some((200, _)) => break,
            other => {
                assert!(Instant::now() < deadline, "never admitted again: {other:?}");
                sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_waits_for_the_server_to_end() {
    let (config, dir) = config(short_timeouts());
    let server = plateau_server::start(config).await.expect("server starts");
    let addr = server.addr();
    let src = Ipv4Addr::new(127, 0, 0, 1);
    let _idle = open_kept(src, addr).await;
    timeout(BOUND * 2, server.stop()).await.expect("stops in time").unwrap();
    let _ = std::fs::remove_dir_all(dir);
    // Nothing listens any more.
    assert!(TcpStream::connect(addr).await.is_err());
}
