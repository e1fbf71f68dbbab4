//! The server's metrics, served at `GET /metrics` in the Prometheus text
//! format (version 0.0.4) by the `prometheus-client` crate.
//!
//! The registry and every handle live here, in one [`Metrics`] owned by the
//! games' shared context (`TableCtx`). Recording on the hot paths is a few
//! relaxed atomic operations, with no lock and no allocation: a move adds one
//! to a counter and one observation to a [`Histogram`] (two more atomics),
//! and the writer observes each commit the same way. Everything else (games
//! in memory, connections, the computer players' queue and threads, the
//! writer's counters) is read when `/metrics` is scraped.
//!
//! Nothing here names a game, a client, a token or an address: every metric
//! is one number for the whole instance.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet, prometheus_text};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use crate::AppState;
use crate::store::WriterStats;

/// The upper bounds of the buckets of the duration histograms, in seconds:
/// from half a millisecond to two seconds (slower goes to `+Inf`).
pub const DURATION_BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0];

/// A histogram of durations over [`DURATION_BUCKETS`], lock-free: an
/// observation is a binary search over the bounds and two relaxed atomic
/// additions (the bucket's count and the sum in nanoseconds). The text form
/// is made when scraped; its `_count` is the sum of the buckets read then.
pub struct Histogram {
    /// The bounds in nanoseconds.
    bounds: [u64; DURATION_BUCKETS.len()],
    /// One count per bound (not cumulative), and the last for `+Inf`.
    counts: [AtomicU64; DURATION_BUCKETS.len() + 1],
    /// The sum of the observations, in nanoseconds.
    sum_nanos: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            bounds: DURATION_BUCKETS.map(|s| (s * 1e9).round() as u64),
            counts: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_nanos: AtomicU64::new(0),
        }
    }
}

impl Histogram {
    /// Count one duration.
    pub fn observe(&self, d: Duration) {
        let nanos = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let i = self.bounds.partition_point(|&b| b < nanos);
        self.counts[i].fetch_add(1, Relaxed);
        self.sum_nanos.fetch_add(nanos, Relaxed);
    }

    /// The number of observations so far.
    pub fn count(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Relaxed)).sum()
    }
}

impl fmt::Debug for Histogram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Histogram").field("count", &self.count()).finish()
    }
}

impl EncodeMetric for Histogram {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), fmt::Error> {
        let counts: [u64; DURATION_BUCKETS.len() + 1] = std::array::from_fn(|i| self.counts[i].load(Relaxed));
        let count = counts.iter().sum();
        let buckets: [(f64, u64); DURATION_BUCKETS.len()] = std::array::from_fn(|i| (DURATION_BUCKETS[i], counts[i]));
        let sum = self.sum_nanos.load(Relaxed) as f64 / 1e9;
        encoder.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// A histogram that another part owns (the writer's commits), registered by
/// a handle.
#[derive(Debug)]
struct Shared<T>(Arc<T>, fn(&T) -> &Histogram);

impl<T: fmt::Debug> EncodeMetric for Shared<T> {
    fn encode(&self, encoder: MetricEncoder) -> Result<(), fmt::Error> {
        (self.1)(&self.0).encode(encoder)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

/// A counter kept by another part (the writer's), read when scraped.
#[derive(Debug)]
struct ReadCounter<T>(Arc<T>, fn(&T) -> u64);

impl<T: fmt::Debug> EncodeMetric for ReadCounter<T> {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), fmt::Error> {
        encoder.encode_counter::<NoLabelSet, u64, u64>(&(self.1)(&self.0), None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Counter
    }
}

/// The processor time of this process so far (user and system, every
/// thread: the runtime's, the database's, the computer players'), in
/// seconds, from `getrusage(RUSAGE_SELF)`.
pub fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage writes the struct it is given and reads nothing else.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(ru.ru_utime) + secs(ru.ru_stime)
}

/// The process's processor time, read when scraped (the standard
/// `process_cpu_seconds_total`: the load tool divides its growth by the
/// moves committed meanwhile).
#[derive(Debug)]
struct ProcessCpu;

impl EncodeMetric for ProcessCpu {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), fmt::Error> {
        encoder.encode_counter::<NoLabelSet, f64, u64>(&process_cpu_seconds(), None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Counter
    }
}

/// The registry and the handles the server records into.
pub(crate) struct Metrics {
    registry: Registry,
    /// Moves committed (every seat's, computers' too).
    moves: Counter,
    /// From a move taken up by its game's task to its commit and broadcast.
    move_seconds: Arc<Histogram>,
    games_in_memory: Gauge,
    connections: Gauge,
    ai_queued: Gauge,
    ai_threads: Gauge,
    live_games: Gauge,
    leases_held: Gauge,
    /// Analyses of finished games queued (asked for the first time).
    pub(crate) analyses_queued: Counter,
    /// Analyses finished and stored by this instance (failed ones too).
    pub(crate) analyses_done: Counter,
    /// Analysis-board searches started.
    pub(crate) board_searches: Counter,
    /// Analysis-board searches stopped before their time (the request was
    /// dropped, or the client asked for another).
    pub(crate) board_stopped: Counter,
}

/// What is read from the rest of the server when `/metrics` is scraped.
pub(crate) struct Sample {
    pub games_in_memory: usize,
    pub connections: usize,
    pub ai_queued: usize,
    pub ai_threads: usize,
    /// Live games in the database (every instance's).
    pub live_games: u64,
    /// Leases this instance holds (0 alone on SQLite).
    pub leases_held: usize,
}

fn gauge_of(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Metrics {
    /// The registry with every metric, reading the writer's counters from
    /// `writer`.
    pub(crate) fn new(writer: Arc<WriterStats>) -> Metrics {
        let mut registry = Registry::default();
        let moves = Counter::default();
        let move_seconds = Arc::new(Histogram::default());
        let games_in_memory = Gauge::default();
        let connections = Gauge::default();
        let ai_queued = Gauge::default();
        let ai_threads = Gauge::default();
        let live_games = Gauge::default();
        let leases_held = Gauge::default();
        let analyses_queued = Counter::default();
        let analyses_done = Counter::default();
        let board_searches = Counter::default();
        let board_stopped = Counter::default();
        registry.register("plateau_analyses_queued", "Analyses of finished games queued", analyses_queued.clone());
        registry.register(
            "plateau_analyses_done",
            "Analyses of finished games run to their end by this instance (failed ones too)",
            analyses_done.clone(),
        );
        registry.register("plateau_board_searches", "Analysis-board searches started", board_searches.clone());
        registry.register(
            "plateau_board_stopped",
            "Analysis-board searches stopped early (request dropped or replaced)",
            board_stopped.clone(),
        );
        registry.register("plateau_moves", "Moves committed, every seat's (computers' too)", moves.clone());
        registry.register(
            "process_cpu_seconds",
            "Processor time of the server process (user and system, every thread), in seconds",
            ProcessCpu,
        );
        registry.register(
            "plateau_move_seconds",
            "Time from a move taken up by its game's task to its commit and broadcast",
            Shared(move_seconds.clone(), |h| h),
        );
        registry.register(
            "plateau_games_in_memory",
            "Games in memory, each with its task (live, open, or finished and not yet evicted)",
            games_in_memory.clone(),
        );
        registry.register("plateau_connections", "Game and lobby WebSockets open", connections.clone());
        registry.register("plateau_ai_queued", "Computer players' jobs waiting for a thread", ai_queued.clone());
        registry.register("plateau_ai_threads", "Threads of the computer players' pool", ai_threads.clone());
        registry.register("plateau_live_games", "Live games in the database, on every instance", live_games.clone());
        registry.register(
            "plateau_leases_held",
            "Games this instance owns by a lease (instances sharing PostgreSQL; 0 on SQLite)",
            leases_held.clone(),
        );
        registry.register(
            "plateau_commit_seconds",
            "Duration of the group-commit writer's transactions of waiting writes, failed ones too",
            Shared(writer.clone(), |w: &WriterStats| &w.commit_seconds),
        );
        registry.register(
            "plateau_commits",
            "Transactions committed by the group-commit writer",
            ReadCounter(writer.clone(), |w: &WriterStats| w.commits.load(Relaxed)),
        );
        registry.register(
            "plateau_write_groups",
            "Groups of writes committed (one per change of a game or other caller)",
            ReadCounter(writer.clone(), |w: &WriterStats| w.groups.load(Relaxed)),
        );
        registry.register(
            "plateau_commit_delays",
            "Transactions the SQLite writer delayed to gather more writes (--commit-delay)",
            ReadCounter(writer.clone(), |w: &WriterStats| w.delays.load(Relaxed)),
        );
        registry.register(
            "plateau_write_failures",
            "Groups of writes the database refused",
            ReadCounter(writer, |w: &WriterStats| w.failures.load(Relaxed)),
        );
        Metrics {
            registry,
            moves,
            move_seconds,
            games_in_memory,
            connections,
            ai_queued,
            ai_threads,
            live_games,
            leases_held,
            analyses_queued,
            analyses_done,
            board_searches,
            board_stopped,
        }
    }

    /// A move was committed and broadcast; its game's task took it up at
    /// `taken`.
    pub(crate) fn moved(&self, taken: Instant) {
        self.moves.inc();
        self.move_seconds.observe(taken.elapsed());
    }

    /// The text exposition, with the gauges set from `sample`.
    pub(crate) fn render(&self, sample: &Sample) -> Result<String, fmt::Error> {
        self.games_in_memory.set(gauge_of(sample.games_in_memory));
        self.connections.set(gauge_of(sample.connections));
        self.ai_queued.set(gauge_of(sample.ai_queued));
        self.ai_threads.set(gauge_of(sample.ai_threads));
        self.live_games.set(i64::try_from(sample.live_games).unwrap_or(i64::MAX));
        self.leases_held.set(gauge_of(sample.leases_held));
        let mut text = String::with_capacity(4096);
        prometheus_text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// `GET /metrics`: the Prometheus text exposition.
pub(crate) async fn scrape(State(st): State<AppState>) -> Response {
    let s = &st.0;
    let sample = Sample {
        games_in_memory: s.ctx.in_memory(),
        connections: s.connections.load(Relaxed),
        ai_queued: s.ctx.pool.queued(),
        ai_threads: s.ctx.pool.threads(),
        live_games: match s.store.count_live().await {
            Ok(n) => n,
            Err(e) => {
                return crate::ApiError::storage(e).into_response();
            }
        },
        leases_held: s.ctx.cluster.as_ref().map_or(0, |c| c.held()),
    };
    match s.ctx.metrics.render(&sample) {
        Ok(text) => ([(header::CONTENT_TYPE, prometheus_text::CONTENT_TYPE)], text).into_response(),
        Err(_) => {
            crate::ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the metrics could not be encoded")
                .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_upper_bounds() {
        let h = Histogram::default();
        h.observe(Duration::from_micros(500));
        h.observe(Duration::from_micros(501));
        h.observe(Duration::from_secs(3));
        assert_eq!(h.counts[0].load(Relaxed), 1);
        assert_eq!(h.counts[1].load(Relaxed), 1);
        assert_eq!(h.counts[DURATION_BUCKETS.len()].load(Relaxed), 1);
        assert_eq!(h.count(), 3);
    }

    #[test]
    fn text_form() {
        let m = Metrics::new(Arc::new(WriterStats::default()));
        m.moved(Instant::now());
        let text = m
            .render(&Sample {
                games_in_memory: 2,
                connections: 3,
                ai_queued: 0,
                ai_threads: 1,
                live_games: 4,
                leases_held: 5,
            })
            .unwrap();
        for line in [
            "plateau_moves_total 1",
            "plateau_move_seconds_count 1",
            "plateau_move_seconds_bucket{le=\"+Inf\"} 1",
            "plateau_games_in_memory 2",
            "plateau_connections 3",
            "plateau_live_games 4",
            "plateau_leases_held 5",
            "plateau_commits_total 0",
            "plateau_commit_seconds_count 0",
            "plateau_write_failures_total 0",
            "plateau_commit_delays_total 0",
            "# TYPE plateau_move_seconds histogram",
            "# TYPE process_cpu_seconds_total counter",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} missing from\n{text}");
        }
        let cpu = |text: &str| -> f64 {
            let line = text.lines().find(|l| l.starts_with("process_cpu_seconds_total ")).expect("the CPU line");
            line["process_cpu_seconds_total ".len()..].parse().expect("a number")
        };
        let before = cpu(&text);
        // Burn some processor time: the counter grows by at least part of it.
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let after = cpu(&m
            .render(&Sample {
                games_in_memory: 0,
                connections: 0,
                ai_queued: 0,
                ai_threads: 0,
                live_games: 0,
                leases_held: 0,
            })
            .unwrap());
        assert!(before > 0.0 && after > before, "{before} then {after}");
    }
}
