//! The checker for engine authors (`plateau engine-check`): it starts an
//! engine, plays a few positions of each game it claims, and checks its
//! answers: the handshake, legal moves in time, `position record`, `stop`
//! obeyed, errors (not crashes) on bad input, and `quit`.

use std::fmt;
use std::time::{Duration, Instant};

use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{AnyMatch, Reader, Registry, Setup, Turn};
use rand_chacha::ChaCha8Rng;

use crate::protocol::{Command, Limits, Reply};
use crate::referee::{ANSWER_TIME, Engine, EngineError};

/// What to check, and how hard.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The time given for each move.
    pub movetime: Duration,
    /// How late a `bestmove` may come after the move time (or after `stop`).
    pub grace: Duration,
    /// Positions played per game.
    pub positions: usize,
    /// The seed of the positions.
    pub seed: u64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { movetime: Duration::from_millis(200), grace: Duration::from_millis(500), positions: 4, seed: 1 }
    }
}

/// The result of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It passed.
    Pass,
    /// It failed.
    Fail,
    /// Not a check: something worth knowing.
    Note,
}

/// The checker's report, line by line.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each check and what it found.
    pub lines: Vec<(Status, String)>,
}

impl Report {
    fn add(&mut self, status: Status, text: impl Into<String>) {
        self.lines.push((status, text.into()));
    }

    /// The number of checks that failed.
    pub fn failed(&self) -> usize {
        self.lines.iter().filter(|(s, _)| *s == Status::Fail).count()
    }

    /// The number of checks that passed.
    pub fn passed(&self) -> usize {
        self.lines.iter().filter(|(s, _)| *s == Status::Pass).count()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, text) in &self.lines {
            let tag = match s {
                Status::Pass => "ok  ",
                Status::Fail => "FAIL",
                Status::Note => "    ",
            };
            writeln!(f, "{tag} {text}")?;
        }
        let verdict = if self.failed() == 0 { "the engine passed" } else { "the engine failed" };
        writeln!(f, "{verdict}: {} checks passed, {} failed", self.passed(), self.failed())
    }
}

/// Check the engine started by `command`.
pub fn check(registry: &Registry, command: &str, opts: &CheckOptions) -> Report {
    let mut r = Report::default();
    let mut e = match Engine::start(command) {
        Ok(e) => e,
        Err(err) => {
            r.add(Status::Fail, format!("handshake (plateau 1 → plateauok within {} s): {err}", ANSWER_TIME.as_secs()));
            return r;
        }
    };
    r.add(
        Status::Pass,
        format!(
            "handshake: {}{}, games: {}{}",
            e.name,
            e.author.as_deref().map(|a| format!(" by {a}")).unwrap_or_default(),
            if e.games.is_empty() { "(none)".to_string() } else { e.games.join(" ") },
            if e.features.is_empty() { String::new() } else { format!(", features: {}", e.features.join(" ")) }
        ),
    );
    let mut games = Vec::new();
    for g in &e.games {
        match registry.get(g) {
            Ok(entry) => games.push(entry.info().name),
            Err(_) => r.add(Status::Fail, format!("it claims {g:?}, which is not a game of Plateau")),
        }
    }
    if games.is_empty() {
        r.add(Status::Fail, "it claims no game of Plateau (games abalone colorito kabaleo abraxas)");
    }
    match e.is_ready() {
        Ok(()) => r.add(Status::Pass, "isready → readyok"),
        Err(err) => r.add(Status::Fail, format!("isready: {err}")),
    }
    bad_input(&mut e, &mut r, games.first().copied());
    for &game in &games {
        play_positions(registry, &mut e, &mut r, game, opts);
    }
    if let Some(&game) = games.first() {
        check_stop(registry, &mut e, &mut r, game, opts);
    }
    if !e.noise.is_empty() {
        r.add(Status::Note, format!("{} lines were not replies of the protocol, e.g. {:?}", e.noise.len(), e.noise[0]));
    }
    let tail = e.stderr_tail();
    if !tail.is_empty() {
        r.add(Status::Note, format!("its standard error ends with: {}", tail.last().cloned().unwrap_or_default()));
    }
    let mut e = e;
    let _ = e.send(&Command::Quit);
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut ended = None;
    while Instant::now() < deadline {
        if let Some(s) = e.exit_status() {
            ended = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    match ended {
        Some(s) => r.add(Status::Pass, format!("quit: it ended ({s})")),
        None => r.add(Status::Fail, "quit: it was still running 2 s later"),
    }
    r
}

/// Bad input must get `error …`, and the engine must go on.
fn bad_input(e: &mut Engine, r: &mut Report, game: Option<&'static str>) {
    let mut cases: Vec<(String, &str)> = vec![
        ("hello world".into(), "an unknown command"),
        ("newgame no-such-game".into(), "an unknown game"),
        ("go movetime soon".into(), "a malformed go"),
    ];
    if let Some(g) = game
        && !e.wants_legal()
    {
        cases.push((format!("newgame {g} variant=no-such-variant"), "an unknown variant"));
    }
    for (line, what) in cases {
        expect_error(e, r, &line, what);
    }
    if let Some(g) = game {
        if e.wants_legal() {
            r.add(
                Status::Note,
                "not checked: an unknown variant, an illegal move in position (the engine knows no rules: it takes \
                 its legal moves from the referee)",
            );
        } else if e.ask(&Command::NewGame { game: g.into(), variant: None, seed: None, options: Vec::new() }).is_ok() {
            // A game dealt at random with secrets needs its deal first; any
            // error is right for a position it cannot have.
            expect_error(e, r, "position moves zz99 zz99", "an illegal move in position");
        }
    }
}

fn expect_error(e: &mut Engine, r: &mut Report, line: &str, what: &str) {
    let answer = e.send_line(line).and_then(|_| e.recv(Instant::now() + ANSWER_TIME, "error"));
    match answer {
        Ok(Reply::Error(m)) => r.add(Status::Pass, format!("{what} ({line:?}) → error {m}")),
        Ok(other) => r.add(Status::Fail, format!("{what} ({line:?}) → {other}, not error …")),
        Err(err) => r.add(Status::Fail, format!("{what} ({line:?}): {err}")),
    }
    if let Err(err) = e.is_ready() {
        r.add(Status::Fail, format!("after {what}, isready: {err}"));
    }
}

/// Random positions of the game's default variant, each played from the
/// point of view of the seat to move.
fn positions(registry: &Registry, game: &str, opts: &CheckOptions) -> Vec<Box<dyn AnyMatch>> {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut out = Vec::new();
    for i in 0..opts.positions {
        let setup = Setup { seed: rng.random(), ..Setup::default() };
        let Ok(mut m) = registry.new_match(game, &setup) else { continue };
        let plies = i * 9 + rng.random_range(0..5);
        for _ in 0..plies {
            let moves = m.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = moves[rng.random_range(0..moves.len())].clone();
            if m.play(&pick).is_err() {
                break;
            }
        }
        while m.to_move() == Turn::Over {
            m.undo();
        }
        out.push(m);
    }
    out
}

fn play_positions(registry: &Registry, e: &mut Engine, r: &mut Report, game: &str, opts: &CheckOptions) {
    let limits = Limits::movetime(opts.movetime);
    let mut slowest = Duration::ZERO;
    let mut good = 0;
    let all = positions(registry, game, opts);
    for m in &all {
        let Turn::Seat(seat) = m.to_move() else { continue };
        let result = e.new_game(&**m, Reader::Seat(seat)).and_then(|_| e.go(&**m, limits, opts.grace));
        match result {
            Ok(p) => {
                good += 1;
                slowest = slowest.max(p.elapsed);
            }
            Err(err) => {
                r.add(Status::Fail, format!("{game} after {} plies (player {} to move): {err}", m.ply(), seat + 1));
                if matches!(err, EngineError::Exited(_)) {
                    return;
                }
            }
        }
    }
    if good > 0 {
        r.add(
            Status::Pass,
            format!(
                "{game}: {good} of {} positions answered with a legal move, the slowest in {} ms (movetime {} ms)",
                all.len(),
                slowest.as_millis(),
                opts.movetime.as_millis()
            ),
        );
    }
    // The same position as a record: what the seat may know, blank lines out.
    if let Some(m) = all.last()
        && let Turn::Seat(seat) = m.to_move()
    {
        let text = m.record(Reader::Seat(seat)).to_text();
        let result = (|| {
            e.send(&Command::PositionRecord)?;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                e.send_line(line)?;
            }
            e.send_line("")?;
            let deadline = Instant::now() + ANSWER_TIME;
            loop {
                match e.recv(deadline, "ok to position record")? {
                    Reply::Ok => break,
                    Reply::Info(_) => {}
                    Reply::Error(message) => {
                        return Err(EngineError::Refused { command: "position record".into(), message });
                    }
                    other => return Err(EngineError::Protocol(format!("{other} in answer to position record"))),
                }
            }
            if e.wants_legal() {
                e.ask(&Command::Legal(m.legal_moves()))?;
            }
            e.send(&Command::Go(limits))?;
            let deadline = Instant::now() + opts.movetime + opts.grace;
            loop {
                match e.recv(deadline, "bestmove")? {
                    Reply::Info(_) => {}
                    Reply::BestMove(mv) => {
                        let mut probe = m.clone_box();
                        return probe.play(&mv).map_err(|err| EngineError::Illegal { mv, why: err.to_string() });
                    }
                    Reply::Error(message) => return Err(EngineError::Refused { command: "go".into(), message }),
                    other => return Err(EngineError::Protocol(format!("{other} while searching"))),
                }
            }
        })();
        match result {
            Ok(mv) => r.add(Status::Pass, format!("{game}: position record (the seat's own record) → bestmove {mv}")),
            Err(err) => r.add(Status::Fail, format!("{game}: position record: {err}")),
        }
    }
}

/// `go infinite`, then `stop` after a moment: `bestmove` must come within
/// the grace.
fn check_stop(registry: &Registry, e: &mut Engine, r: &mut Report, game: &str, opts: &CheckOptions) {
    let Ok(m) = registry.new_match(game, &Setup { seed: opts.seed, ..Setup::default() }) else { return };
    let Turn::Seat(seat) = m.to_move() else { return };
    let result = (|| {
        e.new_game(&*m, Reader::Seat(seat))?;
        e.ask(&Command::PositionMoves(Vec::new()))?;
        if e.wants_legal() {
            e.ask(&Command::Legal(m.legal_moves()))?;
        }
        e.send(&Command::Go(Limits { infinite: true, ..Limits::default() }))?;
        // An engine may answer at once; or it thinks until stop.
        let early = Instant::now() + Duration::from_millis(300);
        let mut answered = None;
        loop {
            match e.recv(early, "bestmove") {
                Ok(Reply::BestMove(mv)) => {
                    answered = Some(mv);
                    break;
                }
                Ok(Reply::Info(_)) => {}
                Ok(other) => return Err(EngineError::Protocol(format!("{other} while searching"))),
                Err(EngineError::Timeout { .. }) => break,
                Err(err) => return Err(err),
            }
        }
        e.send(&Command::Stop)?;
        let stopped = Instant::now();
        let at_once = answered.is_some();
        let mv = match answered {
            Some(mv) => mv,
            None => loop {
                match e.recv(stopped + opts.grace, "bestmove after stop")? {
                    Reply::BestMove(mv) => break mv,
                    Reply::Info(_) => {}
                    other => return Err(EngineError::Protocol(format!("{other} after stop"))),
                }
            },
        };
        let waited = stopped.elapsed();
        let mut probe = m.clone_box();
        probe.play(&mv).map_err(|err| EngineError::Illegal { mv: mv.clone(), why: err.to_string() })?;
        e.is_ready()?;
        Ok((at_once, waited))
    })();
    match result {
        Ok((true, _)) => r.add(Status::Pass, format!("{game}: go infinite answered at once; stop afterwards ignored")),
        Ok((false, waited)) => {
            r.add(Status::Pass, format!("{game}: stop obeyed: bestmove {} ms after stop", waited.as_millis()))
        }
        Err(err) => r.add(Status::Fail, format!("{game}: go infinite, then stop: {err}")),
    }
}
