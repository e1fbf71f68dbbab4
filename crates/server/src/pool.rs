//! The computer players' worker threads.
//!
//! A fixed number of plain threads (never the async runtime's) run the
//! searches, at the lowest scheduling priority (`SCHED_IDLE` on Linux), so
//! that searches use only the processor time the request handling leaves free
//! and many computer games at once never delay the moves of people.
//!
//! Jobs are served **fairly**: each job belongs to an *owner* (the client that
//! created the game), every owner has its own line, and the threads take the
//! first job of each line in turn (round robin), so that one client's many
//! games wait behind each other, not in front of everybody else's. Quick jobs
//! (random and greedy players, the first levels, searches of a tenth of a
//! second or less) have lines of their own and one thread that runs nothing
//! else, so that a beginner's computer answers at once even while every other
//! thread is busy with five-second searches. The queue is bounded: past
//! [`AiPool::new`]'s `max_queued` jobs a new one is refused ([`PoolFull`]) and
//! the game asks again a little later. At most one job per game is queued at
//! a time.
//!
//! Other CPU work runs here too, as closures ([`AiPool::run`]): the analysis
//! board's searches in the lines of play (one per client at a time, a
//! bounded search), and the analysis of finished games one position per job
//! in lines of their own ([`Lane::Analysis`]), served round robin per client
//! as well, but only when no search of play waits, and by at most
//! `max_analysis` threads at once: play is never starved by analyses.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use plateau_ai::{AnyPlayer, Choice, Kind, PlayerSpec};
use plateau_core::AnyMatch;
use tokio::sync::oneshot;

/// What a job gives back: the player (none if it panicked) and its choice.
pub type JobResult = (Option<Box<dyn AnyPlayer>>, Result<Choice, String>);

/// The queue is full: ask again later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the computer players' queue is full")]
pub struct PoolFull;

enum Job {
    /// A computer seat's search.
    Play {
        player: Option<Box<dyn AnyPlayer>>,
        spec: String,
        game: Box<dyn AnyMatch>,
        reply: oneshot::Sender<JobResult>,
    },
    /// Any other work (it sends its own answer).
    Task(Box<dyn FnOnce() + Send>),
}

/// The lines a closure ([`AiPool::run`]) is queued in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// With the searches of play (a bounded, interactive search: the
    /// analysis board's).
    Play,
    /// The analysis of finished games: taken only when no search of play
    /// waits, by at most the pool's `max_analysis` threads at once.
    Analysis,
}

/// Lines of waiting items, one per owner, served in turn.
pub(crate) struct Lanes<T> {
    order: VecDeque<String>,
    lines: HashMap<String, VecDeque<T>>,
    len: usize,
}

impl<T> Default for Lanes<T> {
    fn default() -> Self {
        Lanes { order: VecDeque::new(), lines: HashMap::new(), len: 0 }
    }
}

impl<T> Lanes<T> {
    /// Queue `item` at the end of `owner`'s line.
    pub(crate) fn push(&mut self, owner: &str, item: T) {
        let line = match self.lines.get_mut(owner) {
            Some(l) => l,
            None => {
                self.order.push_back(owner.to_string());
                self.lines.entry(owner.to_string()).or_default()
            }
        };
        line.push_back(item);
        self.len += 1;
    }

    /// The first item of the next owner's line; that owner goes to the back.
    pub(crate) fn pop(&mut self) -> Option<T> {
        let owner = self.order.pop_front()?;
        let line = self.lines.get_mut(&owner)?;
        let item = line.pop_front();
        if line.is_empty() {
            self.lines.remove(&owner);
        } else {
            self.order.push_back(owner);
        }
        if item.is_some() {
            self.len -= 1;
        }
        item
    }

    /// The number of items waiting.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The first item of the line of the owner served least recently
    /// (`served`: when each owner was last served, by `tick`; never first),
    /// for owners whose lines empty between items (an analysis queues its
    /// next position only once the last is done): an owner back after
    /// such a gap is not put behind those that never left.
    pub(crate) fn pop_least_served(&mut self, served: &mut HashMap<String, u64>, tick: &mut u64) -> Option<T> {
        let (i, _) =
            self.order.iter().enumerate().min_by_key(|(i, o)| (served.get(o.as_str()).copied().unwrap_or(0), *i))?;
        let owner = self.order.remove(i)?;
        let line = self.lines.get_mut(&owner)?;
        let item = line.pop_front();
        if line.is_empty() {
            self.lines.remove(&owner);
        } else {
            self.order.push_back(owner.clone());
        }
        if item.is_some() {
            self.len -= 1;
        }
        if served.len() >= 4096 {
            served.retain(|o, _| self.lines.contains_key(o));
        }
        *tick += 1;
        served.insert(owner, *tick);
        item
    }
}

#[derive(Default)]
struct Queue {
    quick: Lanes<Job>,
    deep: Lanes<Job>,
    analysis: Lanes<Job>,
    /// When each owner of analysis jobs was last served.
    served: HashMap<String, u64>,
    tick: u64,
    /// Analysis jobs running now.
    analysing: usize,
    closed: bool,
}

struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
}

/// The pool.
pub struct AiPool {
    inner: Arc<Inner>,
    threads: usize,
    max_queued: usize,
    max_analysis: usize,
}

/// The most jobs waiting at once, by default (one per game whose computer
/// must move; a client has at most a few such games).
pub const MAX_QUEUED: usize = 4096;

/// The longest search that counts as quick.
const QUICK: Duration = Duration::from_millis(100);

/// Whether a player of `game` made from `spec` answers quickly (random,
/// greedy, a level whose search is shallow or short, or a search of at most a
/// tenth of a second).
pub fn is_quick(game: &str, spec: &str) -> bool {
    let Ok(mut parsed) = PlayerSpec::parse(spec) else { return true };
    if let Kind::Level(n) = parsed.kind {
        let Some(level) = plateau_games::players(game).ok().and_then(|p| p.levels().get(n as usize - 1).copied())
        else {
            return false;
        };
        match PlayerSpec::parse(level.spec) {
            Ok(p) => parsed = p,
            Err(_) => return false,
        }
    }
    let b = parsed.budget;
    match parsed.kind {
        Kind::Random | Kind::Greedy | Kind::Human => true,
        _ => {
            b.time.is_some_and(|t| t <= QUICK)
                || (b.time.is_none()
                    && (b.depth.is_some_and(|d| d <= 2)
                        || b.iterations.is_some_and(|i| i <= 2_000)
                        || b.nodes.is_some_and(|n| n <= 100_000)))
        }
    }
}

fn run_job(job: Job) {
    let (player, spec, game, reply) = match job {
        Job::Play { player, spec, game, reply } => (player, spec, game, reply),
        Job::Task(f) => {
            // A task catches its own panics (see `AiPool::run`).
            f();
            return;
        }
    };
    let result = std::panic::catch_unwind(AssertUnwindSafe(move || {
        // A player is made here, off the async runtime (a search's tables
        // take time to allocate).
        let made = match player {
            Some(p) => Ok(p),
            // A failure is the caller's to handle (the table logs it and
            // plays a random move).
            None => crate::players::make_player(game.info().name, &spec),
        };
        match made {
            Ok(mut player) => {
                let choice = player.choose(&*game).map_err(|e| e.to_string());
                (Some(player), choice)
            }
            Err(e) => (None, Err(e)),
        }
    }));
    let out: JobResult = match result {
        Ok(r) => r,
        Err(_) => (None, Err("the computer player failed".to_string())),
    };
    let _ = reply.send(out);
}

impl AiPool {
    /// Start `threads` worker threads (at least one) for every job and one
    /// more for quick jobs only, with at most [`MAX_QUEUED`] jobs waiting.
    pub fn new(threads: usize) -> AiPool {
        AiPool::with_queue(threads, MAX_QUEUED)
    }

    /// The same with at most `max_queued` jobs waiting.
    pub fn with_queue(threads: usize, max_queued: usize) -> AiPool {
        let threads = threads.max(1);
        let inner = Arc::new(Inner { queue: Mutex::new(Queue::default()), ready: Condvar::new() });
        // Analyses may take half the threads (at least one): the others are
        // left to play.
        let max_analysis = (threads / 2).max(1);
        for i in 0..=threads {
            let quick_only = i == threads;
            let inner = inner.clone();
            let name = if quick_only { "plateau-ai-quick".to_string() } else { format!("plateau-ai-{i}") };
            let spawned = std::thread::Builder::new().name(name).spawn(move || {
                lower_priority();
                loop {
                    let (job, analysis) = {
                        let Ok(mut q) = inner.queue.lock() else { return };
                        loop {
                            if q.closed {
                                return;
                            }
                            let next = if quick_only { q.quick.pop() } else { q.deep.pop().or_else(|| q.quick.pop()) };
                            if let Some(j) = next {
                                break (j, false);
                            }
                            let q2 = &mut *q;
                            if !quick_only
                                && q2.analysing < max_analysis
                                && let Some(j) = q2.analysis.pop_least_served(&mut q2.served, &mut q2.tick)
                            {
                                q.analysing += 1;
                                break (j, true);
                            }
                            q = match inner.ready.wait(q) {
                                Ok(q) => q,
                                Err(_) => return,
                            };
                        }
                    };
                    run_job(job);
                    if analysis {
                        if let Ok(mut q) = inner.queue.lock() {
                            q.analysing -= 1;
                        }
                        // Another thread may take the next analysis job now.
                        inner.ready.notify_all();
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::error!("could not start a computer player thread: {e}");
            }
        }
        AiPool { inner, threads, max_queued: max_queued.max(1), max_analysis }
    }

    /// Queue a search for `owner` by `player` (or, if none, a player made
    /// from `spec`) on `game`; the answer comes on the returned channel.
    pub fn submit(
        &self,
        owner: &str,
        player: Option<Box<dyn AnyPlayer>>,
        spec: &str,
        game: Box<dyn AnyMatch>,
    ) -> Result<oneshot::Receiver<JobResult>, PoolFull> {
        let quick = is_quick(game.info().name, spec);
        let (reply, rx) = oneshot::channel();
        let job = Job::Play { player, spec: spec.to_string(), game, reply };
        {
            let Ok(mut q) = self.inner.queue.lock() else { return Err(PoolFull) };
            if q.quick.len() + q.deep.len() + q.analysis.len() >= self.max_queued {
                return Err(PoolFull);
            }
            if quick {
                q.quick.push(owner, job);
            } else {
                q.deep.push(owner, job);
            }
        }
        self.inner.ready.notify_all();
        Ok(rx)
    }

    /// Queue `f` for `owner` in `lane`; its value (or the message of its
    /// panic) comes on the returned channel. A dropped receiver does not
    /// stop `f`: give it a stop flag to end it early.
    pub fn run<T, F>(&self, owner: &str, lane: Lane, f: F) -> Result<oneshot::Receiver<Result<T, String>>, PoolFull>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (reply, rx) = oneshot::channel();
        let task = Box::new(move || {
            let r = std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| "the computation failed".to_string());
            let _ = reply.send(r);
        });
        {
            let Ok(mut q) = self.inner.queue.lock() else { return Err(PoolFull) };
            if q.quick.len() + q.deep.len() + q.analysis.len() >= self.max_queued {
                return Err(PoolFull);
            }
            match lane {
                Lane::Play => q.deep.push(owner, Job::Task(task)),
                Lane::Analysis => q.analysis.push(owner, Job::Task(task)),
            }
        }
        self.inner.ready.notify_all();
        Ok(rx)
    }

    /// Jobs waiting for a thread.
    pub fn queued(&self) -> usize {
        self.inner.queue.lock().map(|q| q.quick.len() + q.deep.len() + q.analysis.len()).unwrap_or(0)
    }

    /// The most analysis jobs running at once.
    pub fn max_analysis(&self) -> usize {
        self.max_analysis
    }

    /// The number of threads for every job (there is one more for quick jobs).
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl Drop for AiPool {
    fn drop(&mut self) {
        if let Ok(mut q) = self.inner.queue.lock() {
            q.closed = true;
        }
        self.inner.ready.notify_all();
    }
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    // SCHED_IDLE: the thread runs only on processor time nothing else of
    // normal priority wants, and yields at once when a request needs it. On
    // Linux the policy and the nice value are per thread: this changes only
    // the calling one. If the policy is refused, fall back to nice 19.
    // SAFETY: sched_setscheduler and setpriority only read the values passed.
    unsafe {
        let param = libc::sched_param { sched_priority: 0 };
        if libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) != 0 {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_served_in_turn() {
        let mut l = Lanes::default();
        // A flood of 5 jobs from one owner, then one job each from two others.
        for i in 0..5 {
            l.push("flood", format!("f{i}"));
        }
        l.push("ann", "a0".to_string());
        l.push("bob", "b0".to_string());
        l.push("ann", "a1".to_string());
        assert_eq!(l.len(), 8);
        let order: Vec<String> = std::iter::from_fn(|| l.pop()).collect();
        assert_eq!(order, ["f0", "a0", "b0", "f1", "a1", "f2", "f3", "f4"]);
        assert_eq!(l.len(), 0);
        assert!(l.pop().is_none());
        // An owner whose line emptied joins at the back again.
        l.push("bob", "b1".to_string());
        l.push("ann", "a2".to_string());
        assert_eq!(l.pop().as_deref(), Some("b1"));
        assert_eq!(l.pop().as_deref(), Some("a2"));
    }

    #[test]
    fn an_owner_back_from_a_gap_is_served_first() {
        let (mut served, mut tick) = (HashMap::new(), 0);
        let mut l = Lanes::default();
        let mut pop = |l: &mut Lanes<&'static str>| l.pop_least_served(&mut served, &mut tick).unwrap();
        // Ann has two analyses (two items waiting), Bob one, whose next item
        // comes only once his last is done.
        l.push("ann", "a0");
        l.push("ann", "a1");
        l.push("bob", "b0");
        assert_eq!([pop(&mut l), pop(&mut l), pop(&mut l)], ["a0", "b0", "a1"]);
        // While b0 ran, Ann's line never emptied; then both queue more.
        l.push("ann", "a2");
        l.push("ann", "a3");
        l.push("bob", "b1");
        // Plain turns would serve Ann (first in the order) twice in a row;
        // Bob, served longer ago, comes first.
        assert_eq!(pop(&mut l), "b1");
        assert_eq!([pop(&mut l), pop(&mut l)], ["a2", "a3"]);
        assert_eq!(l.len(), 0);
        assert!(l.pop_least_served(&mut HashMap::new(), &mut 0).is_none());
    }

    #[test]
    fn analysis_jobs_take_at_most_their_share_of_the_threads() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        // Four threads: at most two analysis jobs at once.
        let pool = AiPool::with_queue(4, 64);
        assert_eq!(pool.max_analysis(), 2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut rxs = Vec::new();
        for i in 0..8 {
            let (running, most) = (running.clone(), most.clone());
            let rx = pool
                .run(&format!("c{}", i % 3), Lane::Analysis, move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                    i
                })
                .unwrap();
            rxs.push(rx);
        }
        let got: Vec<usize> = rxs.into_iter().map(|rx| rx.blocking_recv().unwrap().unwrap()).collect();
        assert_eq!(got, (0..8).collect::<Vec<_>>());
        assert!(most.load(Ordering::SeqCst) <= 2, "{} at once", most.load(Ordering::SeqCst));
        // A panic is an answer, not a lost thread.
        let rx = pool.run("c", Lane::Play, || -> usize { panic!("boom") }).unwrap();
        assert!(rx.blocking_recv().unwrap().is_err());
    }

    #[test]
    fn quick_players() {
        for quick in ["random", "greedy", "ai:1", "ai:2", "ai:3", "alphabeta:time=100ms", "mcts:iterations=500"] {
            assert!(is_quick("abalone", quick), "{quick}");
        }
        for deep in ["alphabeta:time=200ms", "ai:4", "ai:5", "ai:6", "alphabeta:time=1s", "mcts:time=5s"] {
            assert!(!is_quick("abalone", deep), "{deep}");
        }
        assert!(is_quick("kabaleo", "ai:3"));
        assert!(!is_quick("kabaleo", "ai:6"));
    }

    #[test]
    fn the_queue_is_bounded() {
        let pool = AiPool::with_queue(1, 2);
        let registry = plateau_games::registry();
        let setup = plateau_core::Setup::default();
        let m = registry.new_match("abalone", &setup).unwrap();
        // Jobs that take long enough to stay queued while more arrive: the
        // worker threads may take one each, so submit until refused.
        let mut accepted = Vec::new();
        let mut refused = false;
        for _ in 0..8 {
            match pool.submit("x", None, "alphabeta:time=2s", m.clone_box()) {
                Ok(rx) => accepted.push(rx),
                Err(PoolFull) => {
                    refused = true;
                    break;
                }
            }
        }
        assert!(refused, "a full queue refuses jobs");
        assert!(accepted.len() >= 2 && accepted.len() <= 4, "{} accepted", accepted.len());
    }
}
