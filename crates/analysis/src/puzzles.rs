//! Puzzles for Abalone and Abraxas: positions from computer self-play where the
//! side to move has exactly one move that wins material (Abalone: marbles
//! pushed out; Abraxas: red stones taken) or the game, verified by search.
//!
//! # How a puzzle is made ([`generate`])
//!
//! 1. **Self-play.** Games between the players of [`PuzzleSettings::players`]
//!    (each seat's player drawn from the list, every choice seeded), after a
//!    few random opening moves, all drawn from the seed: the same seed makes
//!    the same games.
//! 2. **Candidates.** Every position after the opening is *examined*: it is a
//!    candidate when some legal move wins material within its mover's turn
//!    (the rest of a turn of several decisions, Abraxas's removals, played
//!    greedily for the most material), or when the self-play searcher saw a
//!    forced win there.
//! 3. **Uniqueness.** Every legal move of a candidate is searched to the
//!    verification depth ([`PuzzleSettings::depth`] plies from the puzzle's
//!    position, one alpha-beta search of `depth − 1` plies after each move,
//!    with quiescence on captures). The best move must score at least
//!    [`PuzzleSettings::margin`] evaluation units above every other move
//!    (the games' units: an Abraxas stone is 100, an Abalone marble about
//!    183, ±1000 about decided, a forced win 1,000,000 less its length).
//! 4. **The move wins, and keeps it.** The best move must itself win the
//!    game, or material within its turn (the puzzle is the capture that
//!    works, not a quiet preparation); and unless the search sees a forced
//!    win, along the search's line from the best move to the horizon (and,
//!    at its end, the opponent's best immediate capture taken off), the
//!    solver's material lead must have grown by at least one marble or stone.
//! 5. **The line.** When the opponent is to move after the solver's move, its
//!    reply is the search's; if the solver then again has a unique winning
//!    move by the same tests, the line goes on (up to
//!    [`PuzzleSettings::max_solver_moves`] solver moves). The line stops at
//!    the first solver move that is not unique, or where the solver would
//!    decide twice in a row (Abraxas's removals after a line: the puzzle is
//!    the placement that makes the line), so it always alternates and ends
//!    with a solver's move.
//!
//! Positions met twice, and more than [`PuzzleSettings::max_per_game`]
//! puzzles from one game, are not kept. [`PuzzleStats`] counts the games,
//! positions examined, candidates, unique ones and kept ones, and why each
//! candidate was rejected.
//!
//! # Which games
//!
//! The crate knows games only through the type-erased layer; what a puzzle
//! needs beyond it, each game says itself in its own crate
//! ([`plateau_core::Game::puzzles`]): where its view counts each seat's
//! material, what winning it is called, and its built-in set (the game
//! crate's `puzzles.json`). The games that say it are those [`builtin`] and
//! [`generate`] accept ([`games`]).

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use plateau_ai::{AnyPlayer, PlayerSpec, Score};
use plateau_core::{AnyMatch, Options, Reader, Record, Setup, Turn};
use serde::{Deserialize, Serialize};

use crate::game::AnalysisError;

/// One puzzle.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Stable: the game and the first 8 hex digits of the FNV-1a hash of the
    /// record and the solution (`abalone-3f9a2c1b`).
    pub id: String,
    /// The game's name.
    pub game: String,
    /// The variant played.
    pub variant: String,
    /// The record reaching the puzzle's position from the game's start.
    pub record: String,
    /// The seat the solver plays (the seat to move in the position).
    pub seat: usize,
    /// The winning line: solver's move, opponent's reply, solver's move, …
    /// (odd length), in canonical notation.
    pub solution: Vec<String>,
    /// What the line wins: `win` (the game, by force), or the game's word for
    /// material (`push-out`, `capture`).
    pub theme: String,
}

impl Puzzle {
    /// The number of the solver's moves in the line.
    pub fn length(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// What a generation did.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
pub struct PuzzleStats {
    /// Self-play games played (or begun).
    pub games: usize,
    /// Positions examined (after the openings).
    pub positions: usize,
    /// Positions where some move wins material or the game (step 2).
    pub candidates: usize,
    /// Candidates whose best move is unique by the margin (step 3).
    pub unique: usize,
    /// Puzzles kept: unique, and the best move keeps its gain (step 4).
    pub kept: usize,
    /// Why candidates were not kept, with how many each.
    pub rejected: BTreeMap<String, usize>,
}

impl PuzzleStats {
    fn reject(&mut self, why: &str) {
        *self.rejected.entry(why.to_string()).or_default() += 1;
    }
}

/// The budgets of a generation and of a verification.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PuzzleSettings {
    /// The self-play players' specs; each seat of each game gets one, drawn
    /// from the seed (and seeded itself). Budgets by depth or nodes keep a
    /// generation reproducible; a time budget would not.
    pub players: Vec<String>,
    /// Random moves that open each self-play game: at least this many ...
    pub opening_min: usize,
    /// ... and at most this many.
    pub opening_max: usize,
    /// The verification depth: plies searched from the puzzle's position.
    pub depth: u32,
    /// The node budget of each search after a root move (None: the depth alone).
    pub nodes: Option<u64>,
    /// How much better, in the game's evaluation units, the solution's move
    /// must score than every other move.
    pub margin: i64,
    /// The most solver moves in one line.
    pub max_solver_moves: usize,
    /// The most puzzles kept from one self-play game.
    pub max_per_game: usize,
    /// The most self-play games.
    pub max_games: usize,
    /// The most plies of one self-play game.
    pub max_plies: usize,
    /// A wall-clock limit on the whole generation, in milliseconds (None: no
    /// limit). Generation stops at the first game's end past it.
    pub time_ms: Option<u64>,
}

/// The caps on [`PuzzleSettings`] (and on `wanted`): whatever a caller asks,
/// a generation never goes beyond them.
pub mod caps {
    /// The most puzzles one generation may ask for.
    pub const WANTED: usize = 1000;
    /// The deepest verification.
    pub const DEPTH: u32 = 6;
    /// The largest node budget of one search.
    pub const NODES: u64 = 5_000_000;
    /// The most self-play players listed.
    pub const PLAYERS: usize = 16;
    /// The most random opening moves.
    pub const OPENING: usize = 40;
    /// The most solver moves in a line.
    pub const SOLVER_MOVES: usize = 5;
    /// The most self-play games.
    pub const GAMES: usize = 100_000;
    /// The most plies of one game.
    pub const PLIES: usize = 2000;
    /// The longest generation, in milliseconds (a day).
    pub const TIME_MS: u64 = 86_400_000;
}

impl PuzzleSettings {
    /// The settings the built-in sets were made with.
    pub fn for_game(game: &str) -> PuzzleSettings {
        let abraxas = game.eq_ignore_ascii_case("abraxas");
        PuzzleSettings {
            players: ["greedy", "alphabeta:depth=1", "alphabeta:depth=2"].map(String::from).to_vec(),
            opening_min: 2,
            opening_max: 6,
            // Abraxas's turns have several decisions (placement, removals,
            // the opponent's stop stone): one more ply sees a turn whole.
            depth: if abraxas { 5 } else { 4 },
            nodes: Some(200_000),
            margin: 100,
            max_solver_moves: 3,
            max_per_game: 2,
            max_games: 2000,
            max_plies: 400,
            time_ms: None,
        }
    }

    /// The settings checked against [`caps`].
    pub fn check(&self) -> Result<(), AnalysisError> {
        let bad = |m: String| Err(AnalysisError(m));
        if self.players.is_empty() || self.players.len() > caps::PLAYERS {
            return bad(format!("between 1 and {} self-play players", caps::PLAYERS));
        }
        for p in &self.players {
            PlayerSpec::parse(p).map_err(|e| AnalysisError(format!("self-play player {p:?}: {e}")))?;
        }
        if self.opening_min > self.opening_max || self.opening_max > caps::OPENING {
            return bad(format!("the opening is opening_min ..= opening_max random moves, at most {}", caps::OPENING));
        }
        if !(2..=caps::DEPTH).contains(&self.depth) {
            return bad(format!("the verification depth is 2 to {} plies", caps::DEPTH));
        }
        if self.nodes.is_some_and(|n| n == 0 || n > caps::NODES) {
            return bad(format!("the node budget is 1 to {}", caps::NODES));
        }
        if self.margin <= 0 {
            return bad("the margin must be positive".into());
        }
        if !(1..=caps::SOLVER_MOVES).contains(&self.max_solver_moves) {
            return bad(format!("a line has 1 to {} solver moves", caps::SOLVER_MOVES));
        }
        if self.max_per_game == 0 {
            return bad("at least one puzzle per game".into());
        }
        if self.max_games == 0 || self.max_games > caps::GAMES {
            return bad(format!("1 to {} self-play games", caps::GAMES));
        }
        if self.max_plies == 0 || self.max_plies > caps::PLIES {
            return bad(format!("1 to {} plies a game", caps::PLIES));
        }
        if self.time_ms.is_some_and(|t| t > caps::TIME_MS) {
            return bad(format!("at most {} ms", caps::TIME_MS));
        }
        Ok(())
    }
}

/// A game puzzles are made for: its name and what it tells about its
/// material and its built-in set ([`plateau_core::puzzle::Puzzles`], from
/// the game's crate).
pub struct PuzzleGame {
    /// The game's name.
    pub name: &'static str,
    /// Where its view counts material, the theme's word, the built-in set.
    pub spec: &'static plateau_core::puzzle::Puzzles,
}

/// The games of the catalogue that have puzzles (material to win).
pub fn games() -> Vec<&'static str> {
    plateau_games::registry().games().filter(|e| e.puzzles().is_some()).map(|e| e.info().name).collect()
}

fn puzzle_game(name: &str) -> Result<PuzzleGame, AnalysisError> {
    let found = plateau_games::registry().get(name).ok().and_then(|e| e.puzzles().map(|spec| (e.info().name, spec)));
    found.map(|(name, spec)| PuzzleGame { name, spec }).ok_or_else(|| {
        AnalysisError(format!("no puzzles for {name:?}: puzzles are made for {}", games().join(" and ")))
    })
}

/// The built-in puzzle set of `game` (empty for a game without puzzles).
pub fn builtin(game: &str) -> Vec<Puzzle> {
    puzzle_game(game).ok().and_then(|g| serde_json::from_str(g.spec.builtin).ok()).unwrap_or_default()
}

/// The stable id of a puzzle: its game and the first 8 hex digits of the
/// 64-bit FNV-1a hash of its record, a newline and its moves joined by spaces.
pub fn puzzle_id(game: &str, record: &str, solution: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let text = format!("{record}\n{}", solution.join(" "));
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{}-{:08x}", game.to_ascii_lowercase(), h >> 32)
}

/// The puzzle's position: its record replayed.
pub fn position(p: &Puzzle) -> Result<Box<dyn AnyMatch>, AnalysisError> {
    let record = Record::parse(&p.record).map_err(|e| AnalysisError(format!("puzzle {}: {e}", p.id)))?;
    let m = plateau_games::registry()
        .replay(&record, Some(&p.game), None)
        .map_err(|e| AnalysisError(format!("puzzle {}: {e}", p.id)))?;
    if m.to_move() != Turn::Seat(p.seat) {
        return Err(AnalysisError(format!("puzzle {}: seat {} is not to move in its position", p.id, p.seat)));
    }
    Ok(m)
}

// ---------------------------------------------------------------------------
// Judging moves

/// A forced win, in search units (as plateau-ai's alpha-beta).
const WIN: i64 = 1_000_000;
/// Scores above this are forced wins.
const WON: i64 = WIN - 1000;

/// Each seat's material, from the view.
fn material(g: &PuzzleGame, m: &dyn AnyMatch) -> [i64; 2] {
    let view = m.view(Reader::Referee);
    g.spec.material.map(|ptr| view.pointer(ptr).and_then(|v| v.as_i64()).unwrap_or(0))
}

/// `seat`'s material lead.
fn lead(g: &PuzzleGame, m: &dyn AnyMatch, seat: usize) -> i64 {
    let mat = material(g, m);
    mat[seat] - mat[1 - seat]
}

fn won_by(m: &dyn AnyMatch, seat: usize) -> bool {
    m.outcome().is_some_and(|o| o.is_winner(seat) && !o.is_draw())
}

/// What a move gains within its mover's turn: the lead after the move and the
/// rest of the turn (each further decision of the same seat chosen for the
/// most material, at most 8), less the lead before; and whether it won.
fn turn_gain(g: &PuzzleGame, m: &dyn AnyMatch, mv: &str, seat: usize) -> Option<(i64, bool)> {
    let before = lead(g, m, seat);
    let mut c = m.clone_box();
    c.play(mv).ok()?;
    for _ in 0..8 {
        if c.to_move() != Turn::Seat(seat) {
            break;
        }
        let mut best: Option<(i64, bool, String)> = None;
        for next in c.legal_moves() {
            let mut d = c.clone_box();
            if d.play(&next).is_err() {
                continue;
            }
            let v = (lead(g, d.as_ref(), seat), won_by(d.as_ref(), seat));
            if best.as_ref().is_none_or(|b| (v.1, v.0) > (b.1, b.0)) {
                best = Some((v.0, v.1, next));
            }
        }
        let (_, _, next) = best?;
        c.play(&next).ok()?;
    }
    Some((lead(g, c.as_ref(), seat) - before, won_by(c.as_ref(), seat)))
}

/// Whether some legal move of the seat to move wins material or the game
/// within its turn.
fn has_gain(g: &PuzzleGame, m: &dyn AnyMatch) -> bool {
    let Turn::Seat(seat) = m.to_move() else { return false };
    m.legal_moves().iter().any(|mv| turn_gain(g, m, mv, seat).is_some_and(|(gain, won)| won || gain > 0))
}

fn score_value(s: Option<Score>) -> i64 {
    match s {
        Some(Score::Eval(v)) => v as i64,
        Some(Score::Win(n)) => WIN - n as i64,
        Some(Score::Loss(n)) => -(WIN - n as i64),
        Some(Score::Value(v)) => (v as f64 * 1000.0) as i64,
        Some(Score::Plan(_)) | None => 0,
    }
}

/// One root move, judged.
struct Judged {
    mv: String,
    /// For the solver, in search units.
    score: i64,
    /// The search's line after the move (from the position after it).
    line: Vec<String>,
}

/// The verifying player: alpha-beta to `depth - 1` plies, no planner.
fn judge_player(game: &str, settings: &PuzzleSettings) -> Result<Box<dyn AnyPlayer>, AnalysisError> {
    // Full width (`prune=off`): a move is unique only if every other legal
    // move, searched whole, scores less.
    let mut spec = format!("alphabeta:depth={},plan=off,prune=off", settings.depth.saturating_sub(1).max(1));
    if let Some(n) = settings.nodes {
        spec.push_str(&format!(",nodes={n}"));
    }
    let players = plateau_games::players(game).map_err(|e| AnalysisError(e.to_string()))?;
    players.create_from(&spec).map_err(|e| AnalysisError(e.to_string()))
}

/// Every legal move of the position, searched; best first (ties in the order
/// of the legal moves). One fresh player per position, its moves searched in
/// the order of the legal moves: the same position always gets the same
/// judgement.
fn judge(m: &dyn AnyMatch, settings: &PuzzleSettings) -> Result<Vec<Judged>, AnalysisError> {
    let Turn::Seat(seat) = m.to_move() else { return Ok(Vec::new()) };
    let mut player = judge_player(m.info().name, settings)?;
    let mut out = Vec::new();
    for mv in m.legal_moves() {
        let mut c = m.clone_box();
        c.play(&mv).map_err(|e| AnalysisError(format!("{mv}: {e}")))?;
        let (score, line) = match c.to_move() {
            Turn::Over => {
                let o = c.outcome();
                let v = if won_by(c.as_ref(), seat) {
                    WIN - 1
                } else if o.is_some_and(|o| o.is_draw()) {
                    0
                } else {
                    -(WIN - 1)
                };
                (v, Vec::new())
            }
            Turn::Seat(next) => {
                let choice = player.choose(c.as_ref()).map_err(|e| AnalysisError(e.to_string()))?;
                let v = score_value(choice.info.score);
                (if next == seat { v } else { -v }, choice.info.pv)
            }
        };
        out.push(Judged { mv, score, line });
    }
    out.sort_by_key(|j| std::cmp::Reverse(j.score));
    Ok(out)
}

/// A solver's move found unique and winning.
struct Step {
    mv: String,
    /// The opponent's reply the search expects, when the opponent moves next.
    reply: Option<String>,
    /// The search sees a forced win, or the move wins the game at once.
    wins: bool,
}

/// Why a position is not (or no longer) a puzzle step.
#[derive(Debug)]
enum Reject {
    /// The position has one legal move.
    Forced,
    /// Several moves within the margin of the best.
    NotUnique,
    /// The best move does not keep a material gain (nor win).
    GainNotKept,
    /// The best move wins nothing within its turn (a quiet move).
    Quiet,
    Error(AnalysisError),
}

impl Reject {
    fn reason(&self) -> &'static str {
        match self {
            Reject::Forced => "one legal move",
            Reject::NotUnique => "several moves within the margin",
            Reject::GainNotKept => "best move keeps no gain",
            Reject::Quiet => "best move wins nothing at once",
            Reject::Error(_) => "error",
        }
    }
}

/// The solver's unique winning move in `m`, by steps 3 and 4 of the module
/// documentation.
fn solve_step(g: &PuzzleGame, m: &dyn AnyMatch, settings: &PuzzleSettings) -> Result<Step, Reject> {
    let Turn::Seat(seat) = m.to_move() else { return Err(Reject::Forced) };
    let judged = judge(m, settings).map_err(Reject::Error)?;
    let best = match judged.as_slice() {
        [] | [_] => return Err(Reject::Forced),
        [best, second, ..] => {
            if best.score - second.score < settings.margin {
                return Err(Reject::NotUnique);
            }
            best
        }
    };
    let before = lead(g, m, seat);
    let mut c = m.clone_box();
    c.play(&best.mv).map_err(|e| Reject::Error(AnalysisError(e.to_string())))?;
    let reply = match c.to_move() {
        Turn::Seat(s) if s != seat => best.line.first().cloned(),
        _ => None,
    };
    let wins = best.score > WON || won_by(c.as_ref(), seat);
    if !won_by(c.as_ref(), seat) && turn_gain(g, m, &best.mv, seat).is_none_or(|(gain, _)| gain <= 0) {
        return Err(Reject::Quiet);
    }
    if !wins {
        // The gain at the horizon: the search's line played out, less what the
        // opponent could take at once at its end.
        for mv in &best.line {
            if c.play(mv).is_err() {
                break;
            }
        }
        let mut after = lead(g, c.as_ref(), seat);
        if let Turn::Seat(o) = c.to_move()
            && o != seat
        {
            let back = c.legal_moves().iter().filter_map(|mv| turn_gain(g, c.as_ref(), mv, o)).map(|x| x.0).max();
            after -= back.unwrap_or(0).max(0);
        }
        if after <= before || (won_by(c.as_ref(), 1 - seat) && c.outcome().is_some()) {
            return Err(Reject::GainNotKept);
        }
    }
    Ok(Step { mv: best.mv.clone(), reply, wins })
}

/// The puzzle line from `m` (the solver to move): its moves and whether it
/// wins the game; `Err` when the first step is not a puzzle.
fn solve_line(g: &PuzzleGame, m: &dyn AnyMatch, settings: &PuzzleSettings) -> Result<(Vec<String>, bool), Reject> {
    let first = solve_step(g, m, settings)?;
    let mut line = vec![first.mv.clone()];
    let mut wins = first.wins;
    let mut c = m.clone_box();
    let mut reply = first.reply;
    c.play(&first.mv).map_err(|e| Reject::Error(AnalysisError(e.to_string())))?;
    while line.len().div_ceil(2) < settings.max_solver_moves {
        let Some(r) = reply.take() else { break };
        let mut d = c.clone_box();
        if d.play(&r).is_err() || d.to_move().seat().is_none() {
            break;
        }
        let Ok(step) = solve_step(g, d.as_ref(), settings) else { break };
        if d.play(&step.mv).is_err() {
            break;
        }
        line.push(r);
        line.push(step.mv);
        wins |= step.wins;
        reply = step.reply;
        c = d;
    }
    Ok((line, wins))
}

// ---------------------------------------------------------------------------
// Generation

/// Generate up to `wanted` puzzles of `game` from computer self-play seeded by
/// `seed`, each verified by search (see the module documentation);
/// `progress` is told the figures after every game and every puzzle kept.
/// CPU-heavy: run it off any async runtime.
pub fn generate(
    game: &str,
    wanted: usize,
    seed: u64,
    settings: &PuzzleSettings,
    progress: &mut dyn FnMut(&PuzzleStats),
) -> Result<(Vec<Puzzle>, PuzzleStats), AnalysisError> {
    let g = &puzzle_game(game)?;
    settings.check()?;
    if wanted > caps::WANTED {
        return Err(AnalysisError(format!("at most {} puzzles at a time", caps::WANTED)));
    }
    let registry = plateau_games::registry();
    let players = plateau_games::players(g.name).map_err(|e| AnalysisError(e.to_string()))?;
    let specs: Vec<PlayerSpec> = settings
        .players
        .iter()
        .map(|p| PlayerSpec::parse(p).map_err(|e| AnalysisError(e.to_string())))
        .collect::<Result<_, _>>()?;
    let start = Instant::now();
    let deadline = settings.time_ms.map(|t| start + Duration::from_millis(t));
    let mut stats = PuzzleStats::default();
    let mut puzzles = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut rng = plateau_core::rng::setup_rng(seed);
    while puzzles.len() < wanted && stats.games < settings.max_games {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        stats.games += 1;
        let setup = Setup { variant: None, options: Options::new(), seed: 0 };
        let mut m = registry.new_match(g.name, &setup).map_err(|e| AnalysisError(e.to_string()))?;
        let mut seats: Vec<Box<dyn AnyPlayer>> = Vec::new();
        for _ in 0..m.seats() {
            let mut spec = specs[plateau_core::rng::below(&mut rng, specs.len() as u64) as usize].clone();
            spec.seed = Some(plateau_core::rng::below(&mut rng, u64::MAX));
            seats.push(players.create(&spec).map_err(|e| AnalysisError(e.to_string()))?);
        }
        let opening = settings.opening_min
            + plateau_core::rng::below(&mut rng, (settings.opening_max - settings.opening_min + 1) as u64) as usize;
        let mut from_game = 0;
        while m.ply() < settings.max_plies && puzzles.len() < wanted {
            let Turn::Seat(seat) = m.to_move() else { break };
            if m.ply() < opening {
                let moves = m.legal_moves();
                let mv = &moves[plateau_core::rng::below(&mut rng, moves.len() as u64) as usize];
                m.play(mv).map_err(|e| AnalysisError(e.to_string()))?;
                continue;
            }
            let choice = seats[seat].choose(m.as_ref()).map_err(|e| AnalysisError(e.to_string()))?;
            stats.positions += 1;
            let sees_win = matches!(choice.info.score, Some(Score::Win(_)));
            if from_game < settings.max_per_game && (sees_win || has_gain(g, m.as_ref())) {
                stats.candidates += 1;
                if !seen.insert(m.key()) {
                    stats.reject("position met before");
                } else {
                    match solve_line(g, m.as_ref(), settings) {
                        Err(Reject::Error(e)) => return Err(e),
                        Err(r) => {
                            if matches!(r, Reject::GainNotKept | Reject::Quiet) {
                                stats.unique += 1;
                            }
                            stats.reject(r.reason());
                        }
                        Ok((solution, wins)) => {
                            stats.unique += 1;
                            let record = m.record(Reader::Referee).to_text();
                            puzzles.push(Puzzle {
                                id: puzzle_id(g.name, &record, &solution),
                                game: g.name.to_string(),
                                variant: m.variant().to_string(),
                                record,
                                seat,
                                solution,
                                theme: if wins { "win" } else { g.spec.gain }.to_string(),
                            });
                            stats.kept += 1;
                            from_game += 1;
                            progress(&stats);
                        }
                    }
                }
            }
            m.play(&choice.mv).map_err(|e| AnalysisError(e.to_string()))?;
        }
        progress(&stats);
    }
    Ok((puzzles, stats))
}

/// Check a puzzle again: its id, its record replays to a position where its
/// seat is to move, its line alternates and is legal, and every solver move of
/// the line is the unique winning move by search with `settings` (the
/// opponent's replies need only be legal).
pub fn verify(p: &Puzzle, settings: &PuzzleSettings) -> Result<(), AnalysisError> {
    let g = &puzzle_game(&p.game)?;
    settings.check()?;
    if p.id != puzzle_id(&p.game, &p.record, &p.solution) {
        return Err(AnalysisError(format!("puzzle {}: the id is not the hash of its record and solution", p.id)));
    }
    if p.solution.len().is_multiple_of(2) {
        return Err(AnalysisError(format!("puzzle {}: the line must end with a solver's move", p.id)));
    }
    let mut m = position(p)?;
    for (i, mv) in p.solution.iter().enumerate() {
        let mover = if i % 2 == 0 { p.seat } else { 1 - p.seat };
        if m.to_move() != Turn::Seat(mover) {
            return Err(AnalysisError(format!("puzzle {}: move {} is not seat {mover}'s", p.id, i + 1)));
        }
        if i % 2 == 0 {
            let step = solve_step(g, m.as_ref(), settings).map_err(|r| match r {
                Reject::Error(e) => e,
                r => AnalysisError(format!("puzzle {}: move {}: {}", p.id, i + 1, r.reason())),
            })?;
            if &step.mv != mv {
                return Err(AnalysisError(format!(
                    "puzzle {}: move {}: the search's unique move is {}, not {mv}",
                    p.id,
                    i + 1,
                    step.mv
                )));
            }
        }
        let played = m.play(mv).map_err(|e| AnalysisError(format!("puzzle {}: move {} {mv}: {e}", p.id, i + 1)))?;
        if &played != mv {
            return Err(AnalysisError(format!("puzzle {}: move {} is written {played}, not {mv}", p.id, i + 1)));
        }
    }
    Ok(())
}

/// A solver's attempt, judged.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The right move: the opponent's reply (None when the puzzle is solved).
    Right {
        /// The opponent's reply from the line.
        reply: Option<String>,
        /// Whether that was the line's last move.
        solved: bool,
    },
    /// Not the move: the line's move.
    Wrong {
        /// The solution's move here.
        expected: String,
    },
}

/// The longest move text accepted.
const MAX_MOVE_TEXT: usize = 200;

/// Judge the solver's move `mv` after the moves `so_far` (both sides', which
/// must be the line's first moves, an even number of them). Right when it is
/// the line's move; at the line's last move, also any move that wins the game
/// at once when the line's move does. Errors: moves so far that are not the
/// line's, a puzzle already solved, a move that cannot be read or is illegal.
pub fn check(p: &Puzzle, so_far: &[String], mv: &str) -> Result<Verdict, AnalysisError> {
    let k = so_far.len();
    if k >= p.solution.len() {
        return Err(AnalysisError("the puzzle is already solved".into()));
    }
    if k % 2 == 1 {
        return Err(AnalysisError("the opponent is to move: send the moves so far with its reply".into()));
    }
    if mv.len() > MAX_MOVE_TEXT || so_far.iter().any(|s| s.len() > MAX_MOVE_TEXT) {
        return Err(AnalysisError("move text too long".into()));
    }
    let mut m = position(p)?;
    for (i, given) in so_far.iter().enumerate() {
        let played = m.play(given).map_err(|e| AnalysisError(format!("move {} {given:?}: {e}", i + 1)))?;
        if played != p.solution[i] {
            return Err(AnalysisError(format!("move {} {given:?} is not the puzzle's line", i + 1)));
        }
    }
    let expected = &p.solution[k];
    let mut tried = m.clone_box();
    let played = tried.play(mv).map_err(|e| AnalysisError(format!("{mv:?}: {e}")))?;
    let last = k + 1 == p.solution.len();
    let right = if &played == expected {
        true
    } else if last {
        // An alternative that also wins the game at once, where the line's
        // move does.
        let mut line = m.clone_box();
        line.play(expected).map_err(|e| AnalysisError(e.to_string()))?;
        won_by(line.as_ref(), p.seat) && won_by(tried.as_ref(), p.seat)
    } else {
        false
    };
    Ok(if right {
        Verdict::Right { reply: p.solution.get(k + 1).cloned(), solved: last }
    } else {
        Verdict::Wrong { expected: expected.clone() }
    })
}
