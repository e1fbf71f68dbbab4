//! Alpha-beta search for two-player games of perfect information.
//!
//! Negamax over the game's [`Evaluate`], generalised to turns of several
//! decisions: the sign flips only when the player to decide changes (Abraxas's
//! scorer removes stones and plays again). Iterative deepening with aspiration
//! windows; principal-variation search; a transposition table on the game's
//! key; move ordering by the table move, the game's noisy moves (captures),
//! two killer moves per ply and a history table; quiescence search on the
//! noisy moves at the horizon. Time is checked every 256 nodes; a node budget
//! makes the search deterministic.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use plateau_core::{Evaluate, State, Turn};

use crate::Search;
use crate::player::{Score, SearchInfo};
use crate::spec::Budget;

/// A won game, in score units; `WIN - n` is a win in `n` plies.
pub const WIN: i32 = 1_000_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;
const MAX_QDEPTH: u32 = 8;
const ASPIRATION: i32 = 60;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    depth: i16,
    bound: Bound,
    score: i32,
    mv: Option<M>,
}

/// The alpha-beta searcher. Its transposition table persists between moves.
pub struct AlphaBeta<S: State> {
    /// Whether to play the game's planner's move where it has one
    /// ([`plateau_core::Evaluate::planned_move`]) instead of searching. On by
    /// default.
    pub use_plan: bool,
    /// The evaluation's version ([`plateau_core::Evaluate::EVALS`]; `None`:
    /// the latest). An older version also searches as alpha-beta did then.
    pub version: Option<usize>,
    /// Opening variety: with a generator, the first plies of a game choose
    /// at random among the moves within a small margin of the best.
    pub variety: Option<crate::PlayerRng>,
    budget: Budget,
    table: Vec<Option<Entry<S::Move>>>,
    killers: Vec<[Option<S::Move>; 2]>,
    history: Vec<u32>,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
    stop: Option<crate::StopFlag>,
    seldepth: u32,
    next_check: u64,
    scores: Vec<i64>,
    noisy_buffers: Vec<Vec<S::Move>>,
    buffers: Vec<Vec<S::Move>>,
}

const HISTORY_SIZE: usize = 1 << 14;

fn move_hash<M: Hash>(mv: &M) -> usize {
    let mut h = DefaultHasher::new();
    mv.hash(&mut h);
    h.finish() as usize & (HISTORY_SIZE - 1)
}

/// The table size used by players: 2^18 entries.
pub const DEFAULT_TABLE_BITS: u32 = 18;

impl<S: Evaluate> AlphaBeta<S> {
    /// A searcher with a budget and a table of 2^`table_bits` entries.
    pub fn new(budget: Budget, table_bits: u32) -> Self {
        AlphaBeta {
            use_plan: true,
            version: None,
            variety: None,
            budget,
            table: vec![None; 1 << table_bits],
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            nodes: 0,
            deadline: None,
            node_limit: None,
            stopped: false,
            stop: None,
            seldepth: 0,
            next_check: 0,
            scores: Vec::with_capacity(256),
            noisy_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            buffers: (0..MAX_PLY + MAX_QDEPTH as usize + 2).map(|_| Vec::with_capacity(128)).collect(),
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry<S::Move>> {
        self.table[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: Option<S::Move>, ply: usize) {
        let i = self.slot(key);
        if let Some(old) = self.table[i]
            && old.key == key
            && old.depth as i32 > depth
            && bound != Bound::Exact
        {
            return;
        }
        self.table[i] = Some(Entry { key, depth: depth as i16, bound, score: to_table(score, ply), mv });
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.stopped = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 256;
            if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stopped = true;
            }
            if let Some(f) = &self.stop
                && f.load(std::sync::atomic::Ordering::Relaxed)
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The value of a finished game for the player `seat`, `ply` plies from the root.
    fn terminal(state: &S, seat: usize, ply: usize) -> i32 {
        let v = state.outcome().map(|o| o.value(seat)).unwrap_or(0.0);
        if v > 0.0 {
            WIN - ply as i32
        } else if v < 0.0 {
            -(WIN - ply as i32)
        } else {
            0
        }
    }

    /// Order moves best first: the table move, noisy moves, killers, then by
    /// history. In place, with a reused score buffer: no allocation.
    fn order(&mut self, moves: &mut [S::Move], tt: Option<S::Move>, ply: usize, noisy: &[S::Move]) {
        let killers = self.killers[ply.min(MAX_PLY)];
        let scores = &mut self.scores;
        scores.clear();
        for m in moves.iter() {
            scores.push(if Some(*m) == tt {
                i64::MAX
            } else if noisy.contains(m) {
                1 << 40
            } else if Some(*m) == killers[0] {
                1 << 39
            } else if Some(*m) == killers[1] {
                1 << 38
            } else {
                self.history[move_hash(m)] as i64
            });
        }
        // Insertion sort, descending, stable.
        for i in 1..moves.len() {
            let (k, m) = (scores[i], moves[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < k {
                scores[j] = scores[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            scores[j] = k;
            moves[j] = m;
        }
    }

    /// The score of `mv` for `seat`, who plays it from `state`: recursing with
    /// the sign flipped only when the player to decide changes.
    fn child(&mut self, state: &mut S, seat: usize, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        match state.to_move() {
            Turn::Over => Self::terminal(state, seat, ply + 1),
            Turn::Seat(s) if s == seat => self.negamax(state, depth, alpha, beta, ply + 1),
            Turn::Seat(_) => -self.negamax(state, depth, -beta, -alpha, ply + 1),
        }
    }

    /// The score of a position that is not over, for the player to decide.
    fn negamax(&mut self, state: &mut S, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        let Turn::Seat(seat) = state.to_move() else { unreachable!("callers handle finished games") };
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(state, alpha, beta, ply, 0);
        }
        if self.out_of_budget() {
            return 0;
        }
        let key = state.key();
        let alpha0 = alpha;
        let mut tt_move = None;
        if let Some(e) = self.probe(key) {
            tt_move = e.mv;
            if e.depth as i32 >= depth {
                let s = from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        state.legal_moves(&mut moves);
        let mut noisy = std::mem::take(&mut self.noisy_buffers[ply]);
        state.noisy_moves(&mut noisy);
        self.order(&mut moves, tt_move, ply, &noisy);
        // A forced decision (one legal move) does not use up depth, so that
        // turns of several decisions are seen whole.
        let next = if moves.len() == 1 { depth } else { depth - 1 };
        let mut best = -INF;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = state.apply(mv);
            let score = if i == 0 {
                self.child(state, seat, next, alpha, beta, ply)
            } else {
                // Principal-variation search: prove the move worse with a
                // null window, search it fully only if that fails.
                let s = self.child(state, seat, next, alpha, alpha + 1, ply);
                if s > alpha && s < beta { self.child(state, seat, next, alpha, beta, ply) } else { s }
            };
            state.undo(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if !noisy.contains(&mv) {
                    let k = &mut self.killers[ply.min(MAX_PLY)];
                    if k[0] != Some(mv) {
                        k[1] = k[0];
                        k[0] = Some(mv);
                    }
                    let h = &mut self.history[move_hash(&mv)];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }
        self.buffers[ply] = moves;
        self.noisy_buffers[ply] = noisy;
        if self.stopped {
            return best.max(-WIN);
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, depth, bound, best, best_move, ply);
        best
    }

    /// Quiescence: the static evaluation, unless a noisy move (a capture)
    /// improves on it. When every legal move is noisy (a decision in the
    /// middle of a turn), the position may not be judged statically.
    fn quiescence(&mut self, state: &mut S, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        let Turn::Seat(seat) = state.to_move() else { unreachable!("callers handle finished games") };
        self.seldepth = self.seldepth.max(ply as u32);
        let stand = crate::evaluate(state, seat, self.version);
        if qdepth >= MAX_QDEPTH || ply + 2 >= self.buffers.len() {
            return stand;
        }
        let mut noisy = std::mem::take(&mut self.buffers[ply]);
        state.noisy_moves(&mut noisy);
        let forced = !noisy.is_empty() && noisy.len() == state.count_moves();
        let mut best = if forced { -INF } else { stand };
        if !forced {
            if stand >= beta {
                self.buffers[ply] = noisy;
                return stand;
            }
            alpha = alpha.max(stand);
        }
        for &mv in noisy.iter() {
            self.nodes += 1;
            let undo = state.apply(mv);
            let score = match state.to_move() {
                Turn::Over => Self::terminal(state, seat, ply + 1),
                Turn::Seat(s) if s == seat => self.quiescence(state, alpha, beta, ply + 1, qdepth + 1),
                Turn::Seat(_) => -self.quiescence(state, -beta, -alpha, ply + 1, qdepth + 1),
            };
            state.undo(mv, undo);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply] = noisy;
        if best == -INF { stand } else { best }
    }

    /// Search the root moves at one depth; `moves` is reordered best first.
    fn root(
        &mut self,
        state: &mut S,
        moves: &mut Vec<S::Move>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<S::Move>) {
        let Turn::Seat(seat) = state.to_move() else { return (0, None) };
        let mut best = -INF;
        let mut best_move = None;
        let mut scored: Vec<(i32, S::Move)> = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            self.nodes += 1;
            let undo = state.apply(mv);
            let score = if i == 0 {
                self.child(state, seat, depth - 1, alpha, beta, 0)
            } else {
                let s = self.child(state, seat, depth - 1, alpha, alpha + 1, 0);
                if s > alpha && s < beta { self.child(state, seat, depth - 1, alpha, beta, 0) } else { s }
            };
            state.undo(mv, undo);
            if self.stopped {
                break;
            }
            scored.push((score, mv));
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        if !self.stopped {
            // Next iteration: best first, then the rest in their order.
            scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            let searched: Vec<S::Move> = scored.iter().map(|&(_, m)| m).collect();
            let rest: Vec<S::Move> = moves.iter().copied().filter(|m| !searched.contains(m)).collect();
            *moves = searched.into_iter().chain(rest).collect();
            if let Some(m) = best_move {
                self.store(state.key(), depth, Bound::Exact, best, Some(m), 0);
            }
        }
        (best, best_move)
    }

    fn principal_variation(&self, state: &S, first: S::Move, max: usize) -> Vec<S::Move> {
        let mut pv = vec![first];
        let mut s = state.clone();
        s.apply(first);
        let mut seen = vec![s.key()];
        while pv.len() < max && s.to_move() != Turn::Over {
            let Some(e) = self.probe(s.key()) else { break };
            let Some(mv) = e.mv else { break };
            if !s.is_legal(mv) {
                break;
            }
            s.apply(mv);
            if seen.contains(&s.key()) {
                break;
            }
            seen.push(s.key());
            pv.push(mv);
        }
        pv
    }

    /// Choose a move: iterative deepening until a limit of the budget.
    pub fn best_move(&mut self, state: &S) -> (Vec<S::Move>, SearchInfo) {
        let start = Instant::now();
        if self.use_plan
            && let Some((mv, n)) = match self.version {
                None => state.planned_move(self.budget.time.map(|t| start + t / 2)),
                Some(v) => state.planned_move_version(self.budget.time.map(|t| start + t / 2), v),
            }
        {
            let info = SearchInfo { score: Some(Score::Plan(n)), time: start.elapsed(), ..SearchInfo::default() };
            return (vec![mv], info);
        }
        self.nodes = 0;
        self.next_check = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = self.budget.nodes;
        self.deadline = self.budget.time.map(|t| start + t.saturating_sub((t / 20).min(Duration::from_millis(5))));
        let max_depth = match self.budget.depth {
            Some(d) => d as i32,
            None if self.budget.is_unlimited() => 4,
            None => MAX_PLY as i32 - 1,
        };
        for k in self.killers.iter_mut() {
            *k = [None, None];
        }
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let mut s = state.clone();
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut noisy = Vec::new();
        s.noisy_moves(&mut noisy);
        let tt = self.probe(s.key()).and_then(|e| e.mv);
        self.order(&mut moves, tt, 0, &noisy);
        let mut best = (0, moves.first().copied());
        if moves.len() == 1
            && let Turn::Seat(seat) = s.to_move()
        {
            // Nothing to choose: report the static evaluation after the move.
            let undo = s.apply(moves[0]);
            best.0 = match s.to_move() {
                Turn::Over => Self::terminal(&s, seat, 1),
                Turn::Seat(t) if t == seat => crate::evaluate(&s, seat, self.version),
                Turn::Seat(t) => -crate::evaluate(&s, t, self.version),
            };
            s.undo(moves[0], undo);
        }
        let mut completed = 0;
        if moves.len() > 1 {
            let mut prev: i32 = 0;
            for depth in 1..=max_depth {
                let (mut lo, mut hi) = if depth >= 3 && prev.abs() < WIN - 1000 {
                    (prev - ASPIRATION, prev + ASPIRATION)
                } else {
                    (-INF, INF)
                };
                let result = loop {
                    let (score, mv) = self.root(&mut s, &mut moves, depth, lo, hi);
                    if self.stopped {
                        break None;
                    }
                    if score <= lo && lo > -INF {
                        lo = -INF;
                    } else if score >= hi && hi < INF {
                        hi = INF;
                    } else {
                        break Some((score, mv));
                    }
                };
                let Some((score, mv)) = result else { break };
                best = (score, mv);
                prev = score;
                completed = depth;
                if score.abs() > WIN - 1000 && (WIN - score.abs()) <= depth {
                    break; // a forced result within the horizon: nothing deeper changes it
                }
                if let (Some(d), Some(t)) = (self.deadline, self.budget.time)
                    && Instant::now() + t / 2 > d
                {
                    break; // the next depth would not finish
                }
            }
        }
        let (score, mv) = best;
        let mv = mv.expect("a position that is not over has a legal move");
        let pv = self.principal_variation(state, mv, completed.max(1) as usize);
        let info = SearchInfo {
            depth: completed as u32,
            nodes: self.nodes,
            time: start.elapsed(),
            score: Some(if score > WIN - 1000 {
                Score::Win((WIN - score) as u32)
            } else if score < -(WIN - 1000) {
                Score::Loss((WIN + score) as u32)
            } else {
                Score::Eval(score)
            }),
            pv: Vec::new(),
            returns: Vec::new(),
        };
        (pv, info)
    }
}

impl<S: Evaluate> Search<S> for AlphaBeta<S> {
    fn set_stop(&mut self, stop: crate::StopFlag) {
        self.stop = Some(stop);
    }
    fn search(&mut self, state: &S, _history: &[S::Move]) -> (Vec<S::Move>, SearchInfo) {
        self.best_move(state)
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score + ply as i32
    } else if score < -(WIN - 1000) {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score - ply as i32
    } else if score < -(WIN - 1000) {
        score + ply as i32
    } else {
        score
    }
}
