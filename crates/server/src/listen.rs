//! Accepting and keeping connections: the accept loop, the caps on open
//! connections (per client address and in all, with a reserve), and the
//! time-outs of a connection that is not in a request.
//!
//! Each accepted connection is served by hyper's HTTP/1 server (with upgrades,
//! for the WebSockets) in its own task. Its place in the counts (a [`Permit`])
//! lives inside its socket wrapper, so that an upgraded WebSocket, which takes
//! the socket over, keeps counting until it closes.
//!
//! Time-outs (HTTP only; an upgraded WebSocket has its own hello time-out and
//! pings): a connection must send a complete request head within
//! `header_read_timeout` of being opened; after a response, it must start its
//! next request within `keep_alive_idle`, and complete that request's head
//! within `header_read_timeout` of its first byte. A watchdog in the
//! connection's task enforces these; hyper's own `header_read_timeout` is set
//! to the sum of both as a second line. (In hyper 1.x that timer starts
//! whenever the connection is ready for a new request head: at the start and
//! again right after each response, so it covers the idle keep-alive time
//! too, and alone it could not give the two time-outs different lengths.)

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, watch};
use tokio::time::Instant;

/// The limits on connections: how many, and how long one may sit idle.
#[derive(Clone, Debug)]
pub struct ConnLimits {
    /// A connection must send a complete request head within this time of
    /// being opened, and a later request's head within this time of its first
    /// byte (against silent connections, partial request lines and slowloris
    /// headers).
    pub header_read_timeout: Duration,
    /// A kept-alive connection that starts no new request for this long after
    /// its last response is closed.
    pub keep_alive_idle: Duration,
    /// Open connections (WebSockets included) from one client address at once;
    /// 0: no cap. IPv6 addresses are counted by their /64 network.
    pub max_per_ip: usize,
    /// Open connections in all. Lowered at start to three quarters of the
    /// process's limit of open files when that is smaller.
    pub max_total: usize,
    /// The last `reserve` places of `max_total` are given only to addresses
    /// holding fewer than `reserve_per_ip` connections, so that a few
    /// addresses holding many connections cannot lock everyone else out.
    pub reserve: usize,
    /// See `reserve`.
    pub reserve_per_ip: usize,
    /// Whether `max_per_ip` applies to loopback addresses (127.0.0.0/8, ::1).
    /// Off by default: on loopback are the load tool and a reverse proxy on
    /// the same machine, whose connections carry every client's.
    pub limit_loopback: bool,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            header_read_timeout: Duration::from_secs(10),
            keep_alive_idle: Duration::from_secs(75),
            max_per_ip: 256,
            max_total: 16_000,
            reserve: 500,
            reserve_per_ip: 8,
            limit_loopback: false,
        }
    }
}

/// Refused connections being answered at once; past this, a refused
/// connection is closed without an answer.
const REFUSING: usize = 128;
/// Time to write the refusal and let the client read it.
const REFUSE_TIME: Duration = Duration::from_secs(2);
/// Pause of the accept loop after an error such as running out of file
/// descriptors (EMFILE, ENFILE).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// At most one warning per this long about refusals or accept errors.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// The process's limit of open files (soft), if known.
pub fn fd_limit() -> Option<u64> {
    #[cfg(unix)]
    // SAFETY: getrlimit only writes the struct passed.
    unsafe {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 && r.rlim_cur != libc::RLIM_INFINITY {
            #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
            return Some(r.rlim_cur as u64);
        }
    }
    None
}

impl ConnLimits {
    /// The limits as enforced, given the limit of open files: `max_total` at
    /// most the limit less a quarter (at least 256 files are left for the
    /// database, the refusals and the rest), the reserve at most half of it.
    pub fn effective(&self, fds: Option<u64>) -> ConnLimits {
        let mut l = self.clone();
        if let Some(n) = fds {
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            let room = n.saturating_sub((n / 4).max(256)).max(16);
            l.max_total = l.max_total.min(room);
        }
        l.max_total = l.max_total.max(1);
        l.reserve = l.reserve.min(l.max_total / 2);
        l
    }
}

/// The counts of open connections, by address and in all.
pub(crate) struct Gate {
    limits: ConnLimits,
    counts: Mutex<Counts>,
    refused_per_ip: AtomicU64,
    refused_full: AtomicU64,
    last_warning: Mutex<Option<Instant>>,
}

struct Counts {
    total: usize,
    by_ip: HashMap<IpAddr, usize>,
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The address holds `max_per_ip` connections.
    PerIp,
    /// The server is full (or only the reserve is left, and the address holds
    /// too many connections to use it).
    Full,
}

/// A connection's place in the counts, given back when dropped.
pub(crate) struct Permit {
    gate: Arc<Gate>,
    key: IpAddr,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut c = self.gate.counts.lock().unwrap_or_else(|p| p.into_inner());
        c.total -= 1;
        if let Some(n) = c.by_ip.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                c.by_ip.remove(&self.key);
            }
        }
    }
}

/// The key an address is counted under: IPv4 (also when mapped into IPv6),
/// or the /64 network of an IPv6 address (one customer's usual allocation).
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None if v6.is_loopback() => ip,
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

impl Gate {
    pub(crate) fn new(limits: ConnLimits) -> Arc<Gate> {
        Arc::new(Gate {
            limits,
            counts: Mutex::new(Counts { total: 0, by_ip: HashMap::new() }),
            refused_per_ip: AtomicU64::new(0),
            refused_full: AtomicU64::new(0),
            last_warning: Mutex::new(None),
        })
    }

    /// Admit a connection from `ip`, or say why not.
    pub(crate) fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Permit, Refusal> {
        let l = &self.limits;
        let key = address_key(ip);
        let loopback = key.is_loopback();
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let held = c.by_ip.get(&key).copied().unwrap_or(0);
        if l.max_per_ip > 0 && held >= l.max_per_ip && (l.limit_loopback || !loopback) {
            drop(c);
            self.refused(Refusal::PerIp);
            return Err(Refusal::PerIp);
        }
        let open_to_all = l.max_total - l.reserve;
        if c.total >= l.max_total || (c.total >= open_to_all && held >= l.reserve_per_ip) {
            drop(c);
            self.refused(Refusal::Full);
            return Err(Refusal::Full);
        }
        c.total += 1;
        *c.by_ip.entry(key).or_insert(0) += 1;
        Ok(Permit { gate: self.clone(), key })
    }

    /// Open connections in all.
    pub(crate) fn open(&self) -> usize {
        self.counts.lock().unwrap_or_else(|p| p.into_inner()).total
    }

    fn refused(&self, why: Refusal) {
        match why {
            Refusal::PerIp => self.refused_per_ip.fetch_add(1, Ordering::Relaxed),
            Refusal::Full => self.refused_full.fetch_add(1, Ordering::Relaxed),
        };
        if self.may_warn() {
            let per_ip = self.refused_per_ip.swap(0, Ordering::Relaxed);
            let full = self.refused_full.swap(0, Ordering::Relaxed);
            tracing::warn!(
                "refused connections: {per_ip} over the cap of {} per address, {full} over the cap of {} in all \
                 ({} open)",
                self.limits.max_per_ip,
                self.limits.max_total,
                self.open()
            );
        }
    }

    fn may_warn(&self) -> bool {
        let mut last = self.last_warning.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < WARN_EVERY) {
            return false;
        }
        *last = Some(now);
        true
    }
}

/// The body of a refusal, and the whole answer.
fn refusal_answer(why: Refusal, limits: &ConnLimits) -> Vec<u8> {
    let message = match why {
        Refusal::PerIp => format!("too many connections from your address (at most {})", limits.max_per_ip),
        Refusal::Full => "the server has too many connections: try again later".to_string(),
    };
    let body = serde_json::json!({ "code": "too_many_connections", "message": message }).to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 10\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Answer a refused connection: the 503 at once (without reading the
/// request), then close, reading what the client sent meanwhile so that the
/// close does not reset the answer away. All within [`REFUSE_TIME`].
async fn refuse(mut tcp: TcpStream, answer: Vec<u8>) {
    let _ = tcp.set_nodelay(true);
    let _ = tokio::time::timeout(REFUSE_TIME, async {
        tcp.write_all(&answer).await?;
        tcp.shutdown().await?;
        let mut buf = [0u8; 2048];
        while tcp.read(&mut buf).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

/// What a connection is doing, for its watchdog.
struct ConnState {
    /// False once the connection task is over (the socket may live on,
    /// upgraded): reads no longer need to be noted.
    watching: AtomicBool,
    inner: Mutex<Phase>,
    notify: Notify,
}

struct Phase {
    /// Requests in progress (until their response's body is dropped).
    busy: usize,
    /// Whether a response was sent.
    served: bool,
    /// When the connection was opened or the last response ended.
    idle_since: Instant,
    /// The first byte received since then, if any.
    first_byte: Option<Instant>,
}

impl ConnState {
    fn new() -> ConnState {
        ConnState {
            watching: AtomicBool::new(true),
            inner: Mutex::new(Phase { busy: 0, served: false, idle_since: Instant::now(), first_byte: None }),
            notify: Notify::new(),
        }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn on_read(&self) {
        if !self.watching.load(Ordering::Relaxed) {
            return;
        }
        let mut p = self.phase();
        if p.busy == 0 && p.first_byte.is_none() {
            p.first_byte = Some(Instant::now());
            drop(p);
            self.notify.notify_one();
        }
    }

    /// When the connection is to be closed if nothing changes.
    fn deadline(&self, l: &ConnLimits) -> Option<Instant> {
        let p = self.phase();
        if p.busy > 0 {
            None
        } else if !p.served {
            Some(p.idle_since + l.header_read_timeout)
        } else if let Some(t) = p.first_byte {
            Some(t + l.header_read_timeout)
        } else {
            Some(p.idle_since + l.keep_alive_idle)
        }
    }
}

/// A request in progress: from the request head to the end of its response.
struct Busy(Arc<ConnState>);

impl Busy {
    fn new(s: Arc<ConnState>) -> Busy {
        s.phase().busy += 1;
        Busy(s)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut p = self.0.phase();
        p.busy -= 1;
        p.served = true;
        p.idle_since = Instant::now();
        p.first_byte = None;
        drop(p);
        self.0.notify.notify_one();
    }
}

/// A connection's socket: notes the bytes received for the watchdog and
/// holds the connection's place in the counts (given back when the socket is
/// shut down or dropped, WebSocket or not).
struct Socket {
    permit: Option<Permit>,
    state: Arc<ConnState>,
    tcp: TcpStream,
}

impl AsyncRead for Socket {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.state.on_read();
        }
        r
    }
}

impl AsyncWrite for Socket {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // The place is given back before the client can see the end, so that
        // it may connect again at once.
        self.permit = None;
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        // Give the place back before the socket closes (fields drop in order,
        // but be explicit).
        self.permit = None;
    }
}

/// A response body that ends its request's [`Busy`] when dropped (hyper
/// drops it once sent in full).
struct Tracked {
    inner: axum::body::Body,
    _busy: Busy,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The router as one connection's hyper service: adds `ConnectInfo` (the
/// client's address) to every request, and tracks the request in progress.
#[derive(Clone)]
struct ConnService {
    router: Router,
    peer: SocketAddr,
    state: Arc<ConnState>,
}

impl hyper::service::Service<hyper::Request<Incoming>> for ConnService {
    type Response = hyper::Response<Tracked>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn call(&self, mut req: hyper::Request<Incoming>) -> Self::Future {
        use tower_service::Service;
        req.extensions_mut().insert(ConnectInfo(self.peer));
        let busy = Busy::new(self.state.clone());
        // The router is always ready.
        let fut = self.router.clone().call(req);
        Box::pin(async move {
            let res = fut.await?;
            Ok(res.map(|inner| Tracked { inner, _busy: busy }))
        })
    }
}

/// Serve one connection until it ends, is upgraded, times out, or the server
/// stops (then the request in progress is finished first).
async fn serve_conn(
    tcp: TcpStream,
    peer: SocketAddr,
    permit: Permit,
    router: Router,
    limits: Arc<ConnLimits>,
    mut stop: watch::Receiver<bool>,
) {
    // Small frames must leave at once: no Nagle delay.
    let _ = tcp.set_nodelay(true);
    let state = Arc::new(ConnState::new());
    let socket = Socket { permit: Some(permit), state: state.clone(), tcp };
    let service = ConnService { router, peer, state: state.clone() };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_read_timeout + limits.keep_alive_idle);
    let conn = builder.serve_connection(TokioIo::new(socket), service).with_upgrades();
    tokio::pin!(conn);
    let mut stopping = *stop.borrow();
    if stopping {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        let deadline = state.deadline(&limits);
        let notified = state.notify.notified();
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!("connection from {peer}: {e}");
                }
                break;
            }
            _ = notified => {}
            _ = tokio::time::sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                if state.deadline(&limits).is_some_and(|d| d <= Instant::now()) {
                    tracing::debug!("connection from {peer}: closed, idle or too slow to send a request");
                    break;
                }
            }
            r = stop.changed(), if !stopping => {
                if r.is_err() || *stop.borrow() {
                    stopping = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
    state.watching.store(false, Ordering::Relaxed);
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// How long [`serve`] waits for the connections in progress once stopped.
const STOP_GRACE: Duration = Duration::from_secs(30);

/// Accept connections until `stopped` resolves, then wait (at most
/// [`STOP_GRACE`]) for the requests in progress.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    stopped: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let gate = Gate::new(limits.clone());
    let limits = Arc::new(limits);
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a clone; closed() resolves when all ended.
    let (done_tx, done_rx) = watch::channel(());
    let mut last_error_log: Option<Instant> = None;
    tokio::pin!(stopped);
    loop {
        let accepted = tokio::select! {
            _ = &mut stopped => break,
            r = listener.accept() => r,
        };
        let (tcp, peer) = match accepted {
            Ok(x) => x,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // EMFILE, ENFILE, ENOBUFS…: connections or files will be
                // closed (time-outs); wait a little and go on.
                if last_error_log.is_none_or(|t| t.elapsed() >= WARN_EVERY) {
                    last_error_log = Some(Instant::now());
                    tracing::error!("accepting a connection: {e} ({} open); pausing the accept loop", gate.open());
                }
                tokio::select! {
                    _ = &mut stopped => break,
                    _ = tokio::time::sleep(ACCEPT_BACKOFF) => continue,
                }
            }
        };
        match gate.admit(peer.ip()) {
            Ok(permit) => {
                let (router, limits, stop, done) = (router.clone(), limits.clone(), stop_rx.clone(), done_rx.clone());
                tokio::spawn(async move {
                    serve_conn(tcp, peer, permit, router, limits, stop).await;
                    drop(done);
                });
            }
            Err(why) => match refusing.clone().try_acquire_owned() {
                Ok(slot) => {
                    let answer = refusal_answer(why, &limits);
                    tokio::spawn(async move {
                        refuse(tcp, answer).await;
                        drop(slot);
                    });
                }
                Err(_) => drop(tcp),
            },
        }
    }
    drop(listener);
    drop(done_rx);
    let _ = stop_tx.send(true);
    if tokio::time::timeout(STOP_GRACE, done_tx.closed()).await.is_err() {
        tracing::warn!("stopping: connections still open after {} s, left behind", STOP_GRACE.as_secs());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        let v6: IpAddr = "2001:db8:1:2:3:4:5:6".parse().unwrap();
        assert_eq!(address_key(v6), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(address_key(mapped), "10.1.2.3".parse::<IpAddr>().unwrap());
        assert!(address_key("::1".parse().unwrap()).is_loopback());
    }

    #[test]
    fn effective_limits_follow_the_file_limit() {
        let l = ConnLimits::default();
        assert_eq!(l.effective(None).max_total, 16_000);
        assert_eq!(l.effective(Some(1_048_576)).max_total, 16_000);
        assert_eq!(l.effective(Some(20_000)).max_total, 15_000);
        let small = l.effective(Some(1_024));
        assert_eq!(small.max_total, 768);
        assert!(small.reserve <= 384);
    }

    #[tokio::test]
    async fn gate_caps_and_reserve() {
        let l = ConnLimits { max_per_ip: 3, max_total: 10, reserve: 4, reserve_per_ip: 2, ..ConnLimits::default() };
        let gate = Gate::new(l);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<Permit> = (0..3).map(|_| gate.admit(a).unwrap()).collect();
        assert_eq!(gate.admit(a).err(), Some(Refusal::PerIp));
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let more: Vec<Permit> = (0..3).map(|_| gate.admit(b).unwrap()).collect();
        // 6 open = 10 - 4: only addresses holding fewer than 2 may come in.
        assert_eq!(gate.admit("10.0.0.3".parse().unwrap()).ok().map(|_| ()), Some(()));
        let fresh: Vec<Permit> = (4..8).map(|i| gate.admit(IpAddr::from([10, 0, 1, i])).unwrap()).collect();
        assert_eq!(gate.open(), 10);
        assert_eq!(gate.admit(IpAddr::from([10, 0, 2, 1])).err(), Some(Refusal::Full));
        drop((held, more, fresh));
        assert_eq!(gate.open(), 0);
        assert!(gate.counts.lock().unwrap().by_ip.is_empty());
    }
}
