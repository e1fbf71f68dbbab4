//! Helpers of the server's integration tests: a real server on a real socket
//! with a real database, and clients as a program would be.
//!
//! The database is a SQLite file in the test's directory, or, when
//! `PLATEAU_TEST_POSTGRES` holds the URL of a PostgreSQL database
//! (`postgres://USER@127.0.0.1:PORT/postgres`, as `scripts/postgres.sh` sets
//! it), a fresh database on that server per test directory (`CREATE DATABASE
//! t_…`), dropped with the [`TestServer`] (or left for the cluster's removal).
//! A server started again on the same directory finds the same database.

#![allow(dead_code)]

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use plateau_client::{self as client, Incoming, Ws};
use plateau_server::{Config, Limits, Server};
use serde_json::{Value, json};

pub const WAIT: Duration = Duration::from_secs(20);

pub struct TestServer {
    pub server: Server,
    pub addr: SocketAddr,
    pub dir: PathBuf,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some(base) = postgres() {
            let name = pg_name(&self.dir);
            on_postgres(base, move |mut c| async move {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
            });
        }
    }
}

/// The PostgreSQL server the tests run on, if any.
pub fn postgres() -> Option<String> {
    std::env::var("PLATEAU_TEST_POSTGRES").ok().filter(|u| !u.is_empty())
}

/// The name of the PostgreSQL database of a test directory.
fn pg_name(dir: &std::path::Path) -> String {
    let base = dir.file_name().unwrap().to_string_lossy().to_lowercase();
    let name: String = base.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("t_{}", &name[name.len().saturating_sub(60)..])
}

/// Run `f` on a connection to the PostgreSQL server at `base`, on a thread
/// of its own (from synchronous code, and from a `Drop`).
fn on_postgres<F, Fut>(base: String, f: F)
where
    F: FnOnce(sqlx::PgConnection) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            use sqlx::Connection;
            let c = sqlx::PgConnection::connect(&base).await.expect("connect to PLATEAU_TEST_POSTGRES");
            f(c).await;
        });
    })
    .join()
    .expect("PostgreSQL set-up");
}

/// The database URL of a test directory: its SQLite file, or its database
/// on the PostgreSQL server of `PLATEAU_TEST_POSTGRES` (created if missing).
pub fn db_url(dir: &std::path::Path) -> String {
    let Some(base) = postgres() else {
        return format!("sqlite://{}", dir.join("plateau.sqlite").display());
    };
    let name = pg_name(dir);
    let n = name.clone();
    on_postgres(base.clone(), move |mut c| async move {
        let exists: Option<(i32,)> = sqlx::query_as("SELECT 1 FROM pg_database WHERE datname = $1")
            .bind(&n)
            .fetch_optional(&mut c)
            .await
            .unwrap();
        if exists.is_none() {
            sqlx::query(&format!("CREATE DATABASE {n}")).execute(&mut c).await.expect("create the test database");
        }
    });
    let (server, _) = base.rsplit_once('/').expect("PLATEAU_TEST_POSTGRES is postgres://USER@HOST:PORT/DATABASE");
    format!("{server}/{name}")
}

/// Every value the server's database holds, as bytes: the SQLite file and
/// its log, or each row of each table as text on PostgreSQL.
pub async fn database_bytes(s: &TestServer) -> Vec<Vec<u8>> {
    if postgres().is_none() {
        let db = std::fs::read(s.dir.join("plateau.sqlite")).unwrap();
        let wal = std::fs::read(s.dir.join("plateau.sqlite-wal")).unwrap_or_default();
        return vec![db, wal];
    }
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(&db_url(&s.dir)).await.expect("open the database");
    let tables: Vec<(String,)> =
        sqlx::query_as("SELECT tablename::TEXT FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
            .fetch_all(&mut c)
            .await
            .unwrap();
    let mut out = Vec::new();
    for (t,) in tables {
        let rows: Vec<(String,)> =
            sqlx::query_as(&format!("SELECT CAST(t AS TEXT) FROM {t} t")).fetch_all(&mut c).await.unwrap();
        out.extend(rows.into_iter().map(|(r,)| r.into_bytes()));
    }
    out
}

pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "plateau-server-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A server's configuration on the database in `dir` (to stop it and start
/// it again on the same database).
pub fn config(dir: &std::path::Path) -> Config {
    Config { addr: "127.0.0.1:0".parse().unwrap(), db: db_url(dir), ai_threads: 1, ..Default::default() }
}

pub async fn start() -> TestServer {
    start_with(Limits::default()).await
}

pub async fn start_with(limits: Limits) -> TestServer {
    let dir = temp_dir("test");
    start_in(dir, limits).await
}

pub async fn start_in(dir: PathBuf, limits: Limits) -> TestServer {
    start_threads(dir, limits, 2).await
}

/// A server with `ai_threads` threads for computer players (and the one for
/// quick players).
pub async fn start_threads(dir: PathBuf, limits: Limits, ai_threads: usize) -> TestServer {
    let config =
        Config { addr: "127.0.0.1:0".parse().unwrap(), db: db_url(&dir), ai_threads, limits, ..Default::default() };
    let server = plateau_server::start(config).await.expect("server starts");
    let addr = server.addr();
    TestServer { server, addr, dir }
}

pub async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let r = client::post(addr, path, token, &body).await.expect("http");
    (r.status, r.json())
}

pub async fn get(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, Value) {
    let r = client::get(addr, path, token).await.expect("http");
    (r.status, r.json())
}

/// Create a game; returns (id, creator's token, full answer).
pub async fn create(addr: SocketAddr, body: Value) -> (String, Option<String>, Value) {
    let (status, v) = post(addr, "/api/games", None, body).await;
    assert_eq!(status, 201, "create: {v}");
    (v["id"].as_str().unwrap().to_string(), v["token"].as_str().map(str::to_string), v)
}

/// Join an open seat; returns (seat, token).
pub async fn join(addr: SocketAddr, id: &str, name: &str) -> (usize, String) {
    let (status, v) = post(addr, &format!("/api/games/{id}/join"), None, json!({ "name": name })).await;
    assert_eq!(status, 200, "join: {v}");
    (v["seat"].as_u64().unwrap() as usize, v["token"].as_str().unwrap().to_string())
}

/// A WebSocket client that keeps every raw frame it received.
pub struct Client {
    pub ws: Ws,
    pub frames: Vec<String>,
    pub version: u64,
    pub seat: Option<usize>,
    pub legal: Option<Vec<String>>,
    pub status: String,
}

impl Client {
    /// Connect and say hello; returns the client and the welcome frame.
    pub async fn open(addr: SocketAddr, id: &str, token: Option<&str>, since: Option<u64>) -> (Client, Value) {
        let mut ws = client::connect(addr, id).await.expect("ws connect");
        let mut hello = json!({ "type": "hello" });
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        if let Some(v) = since {
            hello["version"] = json!(v);
        }
        client::send(&mut ws, &hello).await.unwrap();
        let mut c = Client { ws, frames: Vec::new(), version: 0, seat: None, legal: None, status: String::new() };
        let w = c.next().await;
        assert_eq!(w["type"], "welcome", "{w}");
        (c, w)
    }

    /// The next frame (panics if none comes in time).
    pub async fn next(&mut self) -> Value {
        match client::recv(&mut self.ws, WAIT).await {
            Incoming::Frame(raw, v) => {
                self.frames.push(raw);
                self.absorb(&v);
                v
            }
            other => panic!("expected a frame, got {other:?}"),
        }
    }

    /// The next frame, or how the socket ended.
    pub async fn incoming(&mut self, wait: Duration) -> Incoming {
        let i = client::recv(&mut self.ws, wait).await;
        if let Incoming::Frame(raw, v) = &i {
            self.frames.push(raw.clone());
            self.absorb(v);
        }
        i
    }

    fn absorb(&mut self, v: &Value) {
        let s = match v["type"].as_str() {
            Some("welcome") | Some("state") => &v["state"],
            Some("error") if v.get("state").is_some() => &v["state"],
            Some("update") => v,
            _ => return,
        };
        if let Some(n) = s["version"].as_u64() {
            self.version = n;
        }
        if v["type"] == "welcome" {
            self.seat = s["you"].as_u64().map(|x| x as usize);
        }
        if let Some(st) = s["status"].as_str() {
            self.status = st.to_string();
        }
        self.legal = s["legal_moves"].as_array().map(|a| a.iter().map(|m| m.as_str().unwrap().to_string()).collect());
    }

    pub async fn ws_send_raw(&mut self, text: &str) {
        use futures_util::SinkExt;
        self.ws.send(tokio_tungstenite::tungstenite::Message::text(text.to_string())).await.unwrap();
    }

    pub async fn send(&mut self, v: Value) {
        client::send(&mut self.ws, &v).await.unwrap();
    }

    /// Read frames until one of type `ty` comes.
    pub async fn until(&mut self, ty: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// Read frames until an update at least at `version`.
    pub async fn until_version(&mut self, version: u64) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == "update" && v["version"].as_u64().unwrap() >= version {
                return v;
            }
        }
    }
}

/// A small random generator for tests (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The seed a game was dealt from, read from the server's database as a
/// referee would (a client never learns it before the end of a game with
/// hidden information).
pub async fn stored_seed(s: &TestServer, id: &str) -> u64 {
    use sqlx::Connection;
    let (seed,): (i64,) = if postgres().is_some() {
        let mut c = sqlx::PgConnection::connect(&db_url(&s.dir)).await.expect("open the database");
        sqlx::query_as("SELECT seed FROM games WHERE id = $1").bind(id).fetch_one(&mut c).await.expect("the game")
    } else {
        let url = format!("sqlite://{}?mode=ro", s.dir.join("plateau.sqlite").display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.expect("open the database");
        sqlx::query_as("SELECT seed FROM games WHERE id = ?").bind(id).fetch_one(&mut c).await.expect("the game")
    };
    seed as u64
}

// Requests written by hand (the HTTP client keeps no cookies), from a
// chosen loopback address, with the accounts of players.

/// An answer, read raw.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: Value,
    pub raw: String,
}

impl Answer {
    pub fn code(&self) -> Option<&str> {
        self.body["code"].as_str()
    }
    /// A text field of the body (panics, with the answer, if missing).
    pub fn str(&self, k: &str) -> String {
        self.body[k].as_str().unwrap_or_else(|| panic!("no {k} in {}", self.raw)).to_string()
    }
    /// The `Set-Cookie` header's whole value.
    pub fn set_cookie(&self) -> Option<&str> {
        self.head.lines().find_map(|l| {
            l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")).map(|(_, v)| v.trim())
        })
    }
    /// `plateau_session=…`, as sent back.
    pub fn cookie(&self) -> String {
        let c = self.set_cookie().unwrap_or_else(|| panic!("no cookie in {}", self.raw));
        c.split(';').next().unwrap().to_string()
    }
}

/// One request from `from` (a loopback address), with extra headers.
pub async fn request(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from.parse::<IpAddr>().unwrap(), 0)).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, text) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = serde_json::from_str(text).unwrap_or(Value::Null);
    Answer { status, head: head.to_string(), body, raw: raw.clone() }
}

/// Same-origin headers (as a browser sends from the server's own page) with
/// a cookie.
pub fn same_origin(addr: SocketAddr, cookie: &str) -> Vec<(String, String)> {
    vec![("Cookie".into(), cookie.to_string()), ("Origin".into(), format!("http://{addr}"))]
}

pub fn refs(h: &[(String, String)]) -> Vec<(&str, &str)> {
    h.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

pub async fn sign_up(addr: SocketAddr, from: &str, name: &str, password: &str) -> Answer {
    request(addr, from, "POST", "/api/accounts", &[], Some(&json!({ "name": name, "password": password }))).await
}

pub async fn log_in(addr: SocketAddr, from: &str, name: &str, password: &str) -> Answer {
    request(addr, from, "POST", "/api/session", &[], Some(&json!({ "name": name, "password": password }))).await
}

pub async fn whoami(addr: SocketAddr, cookie: &str) -> Answer {
    request(addr, "127.0.0.1", "GET", "/api/session", &[("Cookie", cookie)], None).await
}

/// A new account: its session cookie and a personal access token for
/// programs (`Bearer pat_…`).
pub async fn account(addr: SocketAddr, name: &str) -> (String, String) {
    let a = sign_up(addr, "127.0.0.1", name, "correct horse battery").await;
    assert_eq!(a.status, 201, "{}", a.raw);
    let cookie = a.cookie();
    let t = request(
        addr,
        "127.0.0.1",
        "POST",
        "/api/account/tokens",
        &refs(&same_origin(addr, &cookie)),
        Some(&json!({ "label": "tests" })),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.raw);
    (cookie, t.body["token"].as_str().unwrap().to_string())
}

/// A game's WebSocket opened with these headers (a browser's cookie and
/// origin, a program's access token), before the hello.
pub async fn ws_with(addr: SocketAddr, id: &str, headers: &[(&'static str, String)]) -> Client {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(*k, v.parse().unwrap());
    }
    let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("ws connect");
    Client { ws, frames: Vec::new(), version: 0, seat: None, legal: None, status: String::new() }
}

/// Read the socket's raw bytes, writing none (a WebSocket library answers
/// the server's pings while it reads, and so breaks the silence), until the
/// server ends the connection: whether they end with a close frame of this
/// code and reason (the server's frames are not masked: `0x88`, the length,
/// the code in two bytes, the reason).
pub async fn closed_for_silence(ws: &mut Ws, code: u16, reason: &str) -> bool {
    use tokio::io::AsyncReadExt;
    let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = ws.get_mut() else { panic!("a plain TCP socket") };
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(WAIT, tcp.read_to_end(&mut bytes)).await;
    assert!(read.is_ok(), "the server did not end a silent socket's connection");
    let mut close = vec![0x88, (2 + reason.len()) as u8];
    close.extend_from_slice(&code.to_be_bytes());
    close.extend_from_slice(reason.as_bytes());
    bytes.ends_with(&close)
}
