//! The computer players' worker threads.
//!
//! A fixed number of plain threads (never the async runtime's), fed by one FIFO
//! queue: a game whose computer seat must move sends a job (its player and a
//! copy of the match) and gets the player back with its choice. The threads run
//! at the lowest scheduling priority (`SCHED_IDLE` on Linux), so that searches
//! use only the processor time the request handling leaves free and many
//! computer games at once never delay the moves of people. At most one job per game is queued at a
//! time, so the queue is bounded by the number of games; the order is first
//! come, first served.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use plateau_ai::{AnyPlayer, Choice};
use plateau_core::AnyMatch;
use tokio::sync::oneshot;

/// What a job gives back: the player (none if it panicked) and its choice.
pub type JobResult = (Option<Box<dyn AnyPlayer>>, Result<Choice, String>);

struct Job {
    player: Option<Box<dyn AnyPlayer>>,
    spec: String,
    game: Box<dyn AnyMatch>,
    reply: oneshot::Sender<JobResult>,
}

/// The pool.
pub struct AiPool {
    tx: Mutex<mpsc::Sender<Job>>,
    queued: Arc<AtomicUsize>,
    threads: usize,
}

impl AiPool {
    /// Start `threads` worker threads (at least one).
    pub fn new(threads: usize) -> AiPool {
        let threads = threads.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let queued = Arc::new(AtomicUsize::new(0));
        for i in 0..threads {
            let rx = rx.clone();
            let queued = queued.clone();
            let spawned = std::thread::Builder::new().name(format!("plateau-ai-{i}")).spawn(move || {
                lower_priority();
                loop {
                    let job = {
                        let Ok(guard) = rx.lock() else { return };
                        match guard.recv() {
                            Ok(j) => j,
                            Err(_) => return,
                        }
                    };
                    queued.fetch_sub(1, Ordering::Relaxed);
                    let Job { player, spec, game, reply } = job;
                    let result = std::panic::catch_unwind(AssertUnwindSafe(move || {
                        // A player is made here, off the async runtime (a
                        // search's tables take time to allocate).
                        let made = match player {
                            Some(p) => Ok(p),
                            // A failure is the caller's to handle (the table
                            // logs it and plays a random move).
                            None => crate::state::make_player(game.info().name, &spec),
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
            });
            if let Err(e) = spawned {
                tracing::error!("could not start a computer player thread: {e}");
            }
        }
        AiPool { tx: Mutex::new(tx), queued, threads }
    }

    /// Queue a search by `player` (or, if none, a player made from `spec`) on
    /// `game`; the answer comes on the returned channel.
    pub fn submit(
        &self,
        player: Option<Box<dyn AnyPlayer>>,
        spec: &str,
        game: Box<dyn AnyMatch>,
    ) -> oneshot::Receiver<JobResult> {
        let (reply, rx) = oneshot::channel();
        self.queued.fetch_add(1, Ordering::Relaxed);
        let sent = match self.tx.lock() {
            Ok(tx) => tx.send(Job { player, spec: spec.to_string(), game, reply }).is_ok(),
            Err(_) => false,
        };
        if !sent {
            self.queued.fetch_sub(1, Ordering::Relaxed);
        }
        rx
    }

    /// Jobs waiting for a thread.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
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
