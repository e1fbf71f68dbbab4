//! The referee side: run a program that speaks the protocol, tell it the
//! game as one seat may know it, and hold it to its time.
//!
//! The program's standard output is read by a thread of its own (so that a
//! silent engine never blocks the referee: every wait has a deadline); its
//! standard error is kept, its last lines, to explain a forfeit.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plateau_core::{AnyMatch, Reader};

use crate::protocol::{Command, Info, Limits, MAX_MOVETIME, Reply, VERSION};

/// How many lines of an engine's standard error are kept.
pub const STDERR_LINES: usize = 40;

/// The time an engine has to answer anything but `go`: the handshake,
/// `newgame`, `deal`, `position`, `isready`.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);

/// Why an engine failed. Each is a forfeit in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Start(String),
    /// The program ended (its exit status, in words).
    Exited(String),
    /// No answer in time.
    Timeout {
        /// What was awaited.
        what: String,
        /// How long the referee waited.
        after: Duration,
    },
    /// The engine answered `error …` to a command a correct engine accepts.
    Refused {
        /// The command.
        command: String,
        /// Its message.
        message: String,
    },
    /// An answer out of place.
    Protocol(String),
    /// The chosen move is not legal.
    Illegal {
        /// The move.
        mv: String,
        /// Why, as the rules say.
        why: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start(e) => write!(f, "could not start: {e}"),
            EngineError::Exited(s) => write!(f, "the engine ended ({s})"),
            EngineError::Timeout { what, after } => write!(f, "no {what} after {} ms", after.as_millis()),
            EngineError::Refused { command, message } => write!(f, "it answered {command:?} with: error {message}"),
            EngineError::Protocol(e) => write!(f, "protocol: {e}"),
            EngineError::Illegal { mv, why } => write!(f, "the illegal move {mv}: {why}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// A short word for reports: crash, timeout, illegal, refused, protocol.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineError::Start(_) | EngineError::Exited(_) => "crash",
            EngineError::Timeout { .. } => "timeout",
            EngineError::Illegal { .. } => "illegal move",
            EngineError::Refused { .. } => "refused",
            EngineError::Protocol(_) => "protocol",
        }
    }
}

/// A move an engine chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The move, in the canonical notation.
    pub mv: String,
    /// The `info` lines of the search, in order.
    pub infos: Vec<Info>,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
}

impl Played {
    /// The search time the engine reported last (`info … time MS`).
    pub fn reported_time(&self) -> Option<Duration> {
        self.infos.iter().rev().find_map(|i| i.time)
    }
}

/// What the engine's output thread passes on.
enum Line {
    Text(String),
    Bad(String),
}

/// A running engine.
pub struct Engine {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// `id name`, or the command when it gave none.
    pub name: String,
    /// `id author`.
    pub author: Option<String>,
    /// The games it claims (`games …`).
    pub games: Vec<String>,
    /// The optional parts of the protocol it asked for (`feature …`).
    pub features: Vec<String>,
    /// Lines that were not replies of the protocol (the last 100).
    pub noise: Vec<String>,
}

impl Engine {
    /// Start `command` (a program and its arguments, split as a shell
    /// would, without running a shell) and make the handshake.
    pub fn start(command: &str) -> Result<Engine, EngineError> {
        let words = shlex::split(command).ok_or_else(|| EngineError::Start(format!("cannot read {command:?}")))?;
        let (program, args) =
            words.split_first().ok_or_else(|| EngineError::Start("the engine's command is empty".into()))?;
        let mut child = std::process::Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Start(format!("{program}: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        // Bounded: an engine that writes without end is held up by its own
        // pipe, never by the referee's memory.
        let (tx, lines) = sync_channel(1024);
        std::thread::Builder::new()
            .name("engine-out".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                while let Ok(Some(line)) = crate::serve::read_line(&mut r) {
                    let line = match line {
                        Ok(l) => Line::Text(l),
                        Err(e) => Line::Bad(e),
                    };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let kept2 = kept.clone();
        std::thread::Builder::new()
            .name("engine-err".into())
            .spawn(move || {
                let mut r = BufReader::new(stderr);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    // At most 1 KiB of any one line is kept.
                    match std::io::BufRead::read_until(&mut r, b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf[..buf.len().min(1024)]).trim_end().to_string();
                            let mut k = kept2.lock().unwrap_or_else(|e| e.into_inner());
                            if k.len() == STDERR_LINES {
                                k.pop_front();
                            }
                            k.push_back(text);
                        }
                    }
                }
                let _ = r.read_to_end(&mut Vec::new());
            })
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let stdin = child.stdin.take();
        let mut e = Engine {
            command: command.to_string(),
            child,
            stdin,
            lines,
            stderr: kept,
            name: command.to_string(),
            author: None,
            games: Vec::new(),
            features: Vec::new(),
            noise: Vec::new(),
        };
        e.handshake()?;
        Ok(e)
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send(&Command::Plateau(VERSION))?;
        let deadline = Instant::now() + ANSWER_TIME;
        loop {
            match self.recv(deadline, "plateauok")? {
                Reply::Id { key, value } if key == "name" => self.name = value,
                Reply::Id { key, value } if key == "author" => self.author = Some(value),
                Reply::Id { .. } | Reply::Info(_) => {}
                Reply::Games(g) => self.games = g,
                Reply::Feature(x) => self.features.push(x),
                Reply::PlateauOk => return Ok(()),
                other => return Err(EngineError::Protocol(format!("{other} during the handshake"))),
            }
        }
    }

    /// The command it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Whether it claims to play `game`.
    pub fn plays(&self, game: &str) -> bool {
        self.games.iter().any(|g| g.eq_ignore_ascii_case(game))
    }

    /// Whether it asked for `legal` before each `go`.
    pub fn wants_legal(&self) -> bool {
        self.features.iter().any(|f| f == "legal")
    }

    /// The last lines it wrote on its standard error.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect()
    }

    /// Write one command.
    pub fn send(&mut self, c: &Command) -> Result<(), EngineError> {
        self.send_line(&c.to_string())
    }

    /// Write one line as it is (for the checker's bad input).
    pub fn send_line(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or_else(|| EngineError::Exited("its input is closed".into()))?;
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).map_err(|_| self.exited())
    }

    fn exited(&mut self) -> EngineError {
        // Give a dying process a moment to be reaped, for its status.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineError::Exited(status.to_string());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        EngineError::Exited("its output closed".into())
    }

    /// The next reply before `deadline`; lines that are not replies are
    /// kept in [`Engine::noise`] and skipped.
    pub fn recv(&mut self, deadline: Instant, what: &str) -> Result<Reply, EngineError> {
        let start = Instant::now();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Line::Text(line)) => match Reply::parse(&line) {
                    Ok(r) => return Ok(r),
                    Err(e) => self.note(format!("{line}   ({e})")),
                },
                Ok(Line::Bad(e)) => self.note(e),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout { what: what.to_string(), after: start.elapsed() });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    fn note(&mut self, line: String) {
        if self.noise.len() == 100 {
            self.noise.remove(0);
        }
        self.noise.push(line);
    }

    /// Send `c` and wait for `ok` (skipping `info` lines).
    pub fn ask(&mut self, c: &Command) -> Result<(), EngineError> {
        self.send(c)?;
        self.await_ok(&c.to_string())
    }

    fn await_ok(&mut self, command: &str) -> Result<(), EngineError> {
        let deadline = Instant::now() + ANSWER_TIME;
        loop {
            match self.recv(deadline, &format!("ok to {:?}", short(command)))? {
                Reply::Ok => return Ok(()),
                Reply::Info(_) => {}
                Reply::Error(message) => {
                    return Err(EngineError::Refused { command: short(command), message });
                }
                other => return Err(EngineError::Protocol(format!("{other} in answer to {:?}", short(command)))),
            }
        }
    }

    /// `isready` → `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + ANSWER_TIME;
        loop {
            match self.recv(deadline, "readyok")? {
                Reply::ReadyOk => return Ok(()),
                Reply::Info(_) => {}
                other => return Err(EngineError::Protocol(format!("{other} in answer to isready"))),
            }
        }
    }

    /// Start a game: `newgame` with the match's game, variant and options
    /// (and its seed, for a start drawn at random without secrets), then,
    /// for a start dealt with secrets, `deal` with what `reader` may know of
    /// it, never more.
    pub fn new_game(&mut self, m: &dyn AnyMatch, reader: Reader) -> Result<(), EngineError> {
        let info = m.info();
        let setup = m.setup();
        let mut options = Vec::new();
        for (k, v) in setup.options.iter() {
            if v.chars().any(char::is_whitespace) || v.is_empty() {
                return Err(EngineError::Protocol(format!(
                    "the option {k} has a value that newgame cannot carry on one line: use position record"
                )));
            }
            options.push((k.to_string(), v.to_string()));
        }
        let deal = m.deal(reader);
        let seed = (info.uses_seed && deal.is_none() && m.dealt_for().is_none()).then_some(setup.seed);
        self.ask(&Command::NewGame { game: info.name.to_string(), variant: setup.variant.clone(), seed, options })?;
        if let Some(d) = deal {
            self.ask(&Command::Deal(d))?;
        }
        Ok(())
    }

    /// Ask for a move in `m`: `position moves …` (and `legal …` if the
    /// engine wants it), then `go` with `limits`. The answer must come within
    /// the move time and `grace` (a search without a time limit has the
    /// longest move time, [`MAX_MOVETIME`]); the move must be legal.
    pub fn go(&mut self, m: &dyn AnyMatch, limits: Limits, grace: Duration) -> Result<Played, EngineError> {
        self.ask(&Command::PositionMoves(m.history()))?;
        if self.wants_legal() {
            self.ask(&Command::Legal(m.legal_moves()))?;
        }
        let go = Command::Go(limits);
        self.send(&go)?;
        let start = Instant::now();
        let budget = if limits.infinite { MAX_MOVETIME } else { limits.movetime.unwrap_or(MAX_MOVETIME) };
        let deadline = start + budget + grace;
        let mut infos = Vec::new();
        loop {
            match self.recv(deadline, "bestmove")? {
                Reply::Info(i) => {
                    if infos.len() < 1000 {
                        infos.push(i);
                    }
                }
                Reply::BestMove(mv) => {
                    let elapsed = start.elapsed();
                    let mut probe = m.clone_box();
                    return match probe.play(&mv) {
                        Ok(canonical) => Ok(Played { mv: canonical, infos, elapsed }),
                        Err(e) => Err(EngineError::Illegal { mv, why: e.to_string() }),
                    };
                }
                Reply::Error(message) => return Err(EngineError::Refused { command: go.to_string(), message }),
                other => return Err(EngineError::Protocol(format!("{other} while searching"))),
            }
        }
    }

    /// Say `quit` and give it `wait` to end; then end it.
    pub fn quit(mut self, wait: Duration) {
        let _ = self.send(&Command::Quit);
        self.stdin = None;
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the process has ended (and how).
    pub fn exit_status(&mut self) -> Option<String> {
        self.child.try_wait().ok().flatten().map(|s| s.to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A command for messages: its first 60 characters.
fn short(command: &str) -> String {
    if command.len() <= 60 {
        command.to_string()
    } else {
        let mut end = 60;
        while !command.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &command[..end])
    }
}
