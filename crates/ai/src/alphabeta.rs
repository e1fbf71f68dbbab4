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
    /// Whether the latest version asks the game which moves to search and
    /// which decisions are free ([`plateau_core::Evaluate::search_moves`],
    /// [`plateau_core::Evaluate::free_decision`]); off, every legal move is
    /// searched and every decision uses depth (a full-width search, as a
    /// verifier needs). On by default; older versions never ask.
    pub use_pruning: bool,
    /// Whether the latest version keeps the static evaluations of a search
    /// in a cache, for games that give a key to keep them under
    /// ([`plateau_core::Evaluate::eval_key`]). On by default; the search's
    /// result is the same either way, only faster.
    pub use_eval_cache: bool,
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
    score_buffers: Vec<Vec<i64>>,
    noisy_buffers: Vec<Vec<S::Move>>,
    buffers: Vec<Vec<S::Move>>,
    /// Keys of the positions on the search path, by ply from the root.
    path: Vec<u64>,
    /// What the searcher remembers of the game it plays (repetitions).
    game: GameMemory<S::Move>,
    /// The latest version's static evaluations of this search, by
    /// [`plateau_core::Evaluate::eval_key`] mixed with the seat: `(key,
    /// score)`, emptied at each search (allocated at the first use).
    eval_cache: Vec<(u64, i32)>,
    /// The root moves of the last completed depth with their scores (exact
    /// for the moves within the variety margin of the best).
    root_scores: Vec<(i32, S::Move)>,
}

/// The positions of the game before the root that this searcher saw (at its
/// own roots and after its own moves), while the game goes on: a position
/// that comes back counts as a draw in the search (latest version), so that
/// a side ahead makes progress instead of shuffling.
struct GameMemory<M> {
    /// The moves of the game up to and including this searcher's last move.
    moves: Vec<M>,
    /// Keys of positions seen, with their ply in the game.
    keys: Vec<(usize, u64)>,
    /// A filter of `keys`: bit `key % 1024`.
    filter: [u64; 16],
}

impl<M: Copy + PartialEq> GameMemory<M> {
    fn new() -> Self {
        GameMemory { moves: Vec::new(), keys: Vec::new(), filter: [0; 16] }
    }

    /// Forget what is not of the game whose moves are `history` (a takeback,
    /// another game from the same start), and what is not before its
    /// current position.
    fn follow(&mut self, history: &[M]) {
        // The position after `p` moves is the same in both games while
        // their first `p` moves are.
        let common = history.iter().zip(&self.moves).take_while(|(a, b)| a == b).count();
        self.keys.retain(|&(ply, _)| ply <= common && ply < history.len());
        self.filter = [0; 16];
        for &(_, k) in &self.keys {
            self.filter[(k as usize >> 6) & 15] |= 1 << (k & 63);
        }
    }

    fn remember(&mut self, ply: usize, key: u64) {
        self.keys.push((ply, key));
        self.filter[(key as usize >> 6) & 15] |= 1 << (key & 63);
    }

    #[inline]
    fn contains(&self, key: u64) -> bool {
        self.filter[(key as usize >> 6) & 15] >> (key & 63) & 1 == 1 && self.keys.iter().any(|&(_, k)| k == key)
    }
}

/// Opening variety: in the first [`VARIETY_PLIES`] plies of a game, a
/// player with a generator chooses at random among the root moves that
/// score within [`VARIETY_MARGIN`] of the best at the last completed depth
/// (at least 2).
pub const VARIETY_PLIES: usize = 8;
/// See [`VARIETY_PLIES`]: in evaluation units (about ±1000 is decided).
pub const VARIETY_MARGIN: i32 = 15;

const HISTORY_BITS: u32 = 14;
/// The evaluation cache's size: 2^16 entries (1 MiB), emptied at each search.
const EVAL_CACHE_BITS: u32 = 16;
const HISTORY_SIZE: usize = 1 << HISTORY_BITS;

/// A multiplicative hash of a move's fields (a move is a few small
/// integers): the history table's index. SipHash, the standard library's
/// default, cost about a tenth of the search's time in move ordering.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn move_hash<M: Hash>(mv: &M) -> usize {
    let mut h = MoveHasher(0);
    mv.hash(&mut h);
    (h.finish() >> (64 - HISTORY_BITS)) as usize
}

/// The table size used by players: 2^18 entries.
pub const DEFAULT_TABLE_BITS: u32 = 18;

impl<S: Evaluate> AlphaBeta<S> {
    /// A searcher with a budget and a table of 2^`table_bits` entries.
    pub fn new(budget: Budget, table_bits: u32) -> Self {
        AlphaBeta {
            use_plan: true,
            use_pruning: true,
            use_eval_cache: true,
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
            score_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(128)).collect(),
            noisy_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            buffers: (0..MAX_PLY + MAX_QDEPTH as usize + 2).map(|_| Vec::with_capacity(128)).collect(),
            path: vec![0; MAX_PLY + 2],
            game: GameMemory::new(),
            eval_cache: Vec::new(),
            root_scores: Vec::new(),
        }
    }

    /// The static evaluation of `state` for `seat`: for the latest version,
    /// from the search's cache when the game gives a key
    /// ([`plateau_core::Evaluate::eval_key`]).
    #[inline]
    fn static_eval(&mut self, state: &S, seat: usize) -> i32 {
        if self.version.is_none()
            && self.use_eval_cache
            && let Some(key) = state.eval_key()
        {
            let key = key ^ (seat as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93);
            if self.eval_cache.is_empty() {
                self.eval_cache = vec![(0, 0); 1 << EVAL_CACHE_BITS];
            }
            let slot = (key >> (64 - EVAL_CACHE_BITS)) as usize;
            let (k, v) = self.eval_cache[slot];
            if k == key && key != 0 {
                return v;
            }
            let v = state.evaluate(seat);
            self.eval_cache[slot] = (key, v);
            return v;
        }
        crate::evaluate(state, seat, self.version)
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

    /// Score moves for ordering into `scores`: the table move, noisy moves,
    /// killers, then by history. No allocation.
    fn score_moves(
        &self,
        moves: &[S::Move],
        scores: &mut Vec<i64>,
        tt: Option<S::Move>,
        ply: usize,
        noisy: &[S::Move],
    ) {
        let killers = self.killers[ply.min(MAX_PLY)];
        scores.clear();
        for m in moves.iter() {
            scores.push(if Some(*m) == tt {
                i64::MAX
            } else if !noisy.is_empty() && noisy.contains(m) {
                1 << 40
            } else if Some(*m) == killers[0] {
                1 << 39
            } else if Some(*m) == killers[1] {
                1 << 38
            } else {
                self.history[move_hash(m)] as i64
            });
        }
    }

    /// Order moves best first (see [`AlphaBeta::score_moves`]), in place:
    /// a stable insertion sort, for the root.
    fn order(&mut self, moves: &mut [S::Move], tt: Option<S::Move>, ply: usize, noisy: &[S::Move]) {
        let mut scores = std::mem::take(&mut self.scores);
        self.score_moves(moves, &mut scores, tt, ply, noisy);
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
        self.scores = scores;
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
        let key = state.key();
        if self.version.is_none() && ply <= MAX_PLY {
            // A position already on the path or in the game: a draw (the
            // side ahead must find progress; the side behind may seek it).
            if self.path[..ply].contains(&key) || self.game.contains(key) {
                return 0;
            }
            self.path[ply] = key;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(state, alpha, beta, ply, 0);
        }
        if self.out_of_budget() {
            return 0;
        }
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
        let pruned = self.version.is_none() && self.use_pruning;
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        if pruned {
            state.search_moves(&mut moves);
        } else {
            state.legal_moves(&mut moves);
        }
        let mut noisy = std::mem::take(&mut self.noisy_buffers[ply]);
        state.noisy_moves(&mut noisy);
        // Ordered lazily: most nodes are cut off after a move or two, so the
        // best remaining move is picked before each is searched.
        let mut scores = std::mem::take(&mut self.score_buffers[ply]);
        self.score_moves(&moves, &mut scores, tt_move, ply, &noisy);
        // A forced decision (one legal move) does not use up depth, so that
        // turns of several decisions are seen whole; nor, for the latest
        // version with its pruning, does a decision the game calls free
        // (`Evaluate::free_decision`).
        let next = if moves.len() == 1 || (pruned && state.free_decision()) { depth } else { depth - 1 };
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            let mut top = i;
            for j in i + 1..moves.len() {
                if scores[j] > scores[top] {
                    top = j;
                }
            }
            moves.swap(i, top);
            scores.swap(i, top);
            let mv = moves[i];
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
        self.score_buffers[ply] = scores;
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
        // The budget holds here too: where many decisions in a row are noisy
        // (Abraxas's removals), quiescence alone can be huge. What a stopped
        // search returns is never used.
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let stand = self.static_eval(state, seat);
        if qdepth >= MAX_QDEPTH || ply + 2 >= self.buffers.len() {
            return stand;
        }
        let mut noisy = std::mem::take(&mut self.buffers[ply]);
        state.noisy_moves(&mut noisy);
        let forced = state.only_noisy_moves(&noisy);
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
    /// With a `margin`, every move within it of the best gets an exact score
    /// (for opening variety), kept in `root_scores`.
    fn root(
        &mut self,
        state: &mut S,
        moves: &mut Vec<S::Move>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        margin: i32,
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
                let floor = (alpha - margin).max(-INF);
                let s = self.child(state, seat, depth - 1, floor, floor + 1, 0);
                if s > floor && s < beta { self.child(state, seat, depth - 1, floor, beta, 0) } else { s }
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
            self.root_scores = scored;
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
        self.best_move_in_game(state, &[])
    }

    /// [`AlphaBeta::best_move`] in a game whose moves so far are `history`
    /// (the latest version remembers the game's positions, as draws if they
    /// come back, and varies its first moves when it has a generator).
    pub fn best_move_in_game(&mut self, state: &S, history: &[S::Move]) -> (Vec<S::Move>, SearchInfo) {
        let latest = self.version.is_none();
        if latest {
            self.game.follow(history);
        }
        let (pv, info) = self.search_root(state, history.len());
        if latest && let Some(&mv) = pv.first() {
            self.game.remember(history.len(), state.key());
            let mut after = state.clone();
            after.apply(mv);
            self.game.remember(history.len() + 1, after.key());
            self.game.moves.clear();
            self.game.moves.extend_from_slice(history);
            self.game.moves.push(mv);
        }
        (pv, info)
    }

    fn search_root(&mut self, state: &S, game_ply: usize) -> (Vec<S::Move>, SearchInfo) {
        let start = Instant::now();
        let margin = if self.variety.is_some() && self.version.is_none() && game_ply < VARIETY_PLIES {
            VARIETY_MARGIN
        } else {
            0
        };
        self.path[0] = state.key();
        self.root_scores.clear();
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
        self.eval_cache.fill((0, 0));
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
                let (mut lo, mut hi) = if depth >= 3 && prev.abs() < WIN - 1000 && margin == 0 {
                    (prev - ASPIRATION, prev + ASPIRATION)
                } else {
                    (-INF, INF)
                };
                let result = loop {
                    let (score, mv) = self.root(&mut s, &mut moves, depth, lo, hi, margin);
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
        let (score, mut mv) = best;
        if margin > 0
            && completed >= 2
            && score.abs() < WIN - 1000
            && let Some(rng) = self.variety.as_mut()
        {
            use plateau_core::rand::RngExt;
            let near: Vec<S::Move> =
                self.root_scores.iter().filter(|&&(v, _)| v > score - margin).map(|&(_, m)| m).collect();
            if near.len() > 1 {
                mv = Some(near[rng.random_range(0..near.len())]);
            }
        }
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
    fn search(&mut self, state: &S, history: &[S::Move]) -> (Vec<S::Move>, SearchInfo) {
        self.best_move_in_game(state, history)
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

#[cfg(test)]
mod tests {
    use plateau_abalone::{AbaloneState, Rules, parse_position};

    use super::*;

    /// Black has pushed out five marbles and is far ahead.
    const AHEAD: &str = "b1b1b/6/7/3ww3/3www3/3ww3/b6/6/b1b1b b 5 0";

    #[test]
    fn a_position_of_the_game_that_comes_back_is_a_draw_for_the_latest_version_only() {
        let p: AbaloneState = parse_position(AHEAD, Rules::default()).unwrap();
        let depth = Budget { depth: Some(1), ..Budget::default() };
        for version in [None, Some(0)] {
            let mut fresh = AlphaBeta::<AbaloneState>::new(depth, 12);
            fresh.version = version;
            let (pv, info) = fresh.best_move(&p);
            let m = pv[0];
            assert!(matches!(info.score, Some(Score::Eval(v)) if v > 0), "{info:?}");
            let mut after = p.clone();
            after.apply(m);
            // The position after m was played before in this game.
            let mut ab = AlphaBeta::<AbaloneState>::new(depth, 12);
            ab.version = version;
            ab.game.remember(0, after.key());
            let (pv, _) = ab.search_root(&p, 1);
            let m_score = ab.root_scores.iter().find(|&&(_, mv)| mv == m).map(|&(v, _)| v);
            if version.is_none() {
                assert_ne!(pv[0], m, "the latest version walks back into a played position");
                assert_eq!(m_score, Some(0), "a repetition scores as a draw");
            } else {
                assert_eq!(pv[0], m, "v1 knows nothing of the game");
            }
        }
    }

    /// The latest version answers a position's evaluation from its cache
    /// once judged (a value planted there comes back), per seat; older
    /// versions, or the cache switched off, judge again; a new search
    /// empties it.
    #[test]
    fn the_latest_version_keeps_evaluations_under_the_games_key_within_a_search() {
        use plateau_colorito::{Colorito, ColoritoState};
        use plateau_core::Game;
        let mut s = Colorito::standard().start(0);
        let mut moves = Vec::new();
        for _ in 0..6 {
            s.legal_moves(&mut moves);
            s.apply(moves[moves.len() / 2]);
        }
        let (red, blue) = (s.evaluate(0), s.evaluate(1));
        assert_ne!(red, 12_345);
        let mut ab = AlphaBeta::<ColoritoState>::new(Budget { depth: Some(2), ..Budget::default() }, 12);
        assert_eq!(ab.static_eval(&s, 0), red);
        let planted: Vec<usize> = (0..ab.eval_cache.len()).filter(|&i| ab.eval_cache[i].0 != 0).collect();
        assert_eq!(planted.len(), 1, "one position judged, one entry");
        ab.eval_cache[planted[0]].1 = 12_345;
        assert_eq!(ab.static_eval(&s, 0), 12_345, "the cache answers");
        assert_eq!(ab.static_eval(&s, 1), blue, "the other seat's value is its own");
        ab.use_eval_cache = false;
        assert_eq!(ab.static_eval(&s, 0), red, "switched off, judged again");
        ab.use_eval_cache = true;
        ab.version = Some(0);
        assert_eq!(ab.static_eval(&s, 0), s.evaluate_version(0, 0), "v1 never asks the cache");
        ab.version = None;
        assert_eq!(ab.static_eval(&s, 0), 12_345);
        ab.search(&s, &[]);
        assert_eq!(ab.static_eval(&s, 0), red, "a new search starts with an empty cache");
    }

    #[test]
    fn the_game_memory_follows_one_game_and_forgets_another_or_a_takeback() {
        let mut g = GameMemory::<u8>::new();
        g.follow(&[]);
        g.remember(0, 10);
        g.remember(1, 11);
        g.moves = vec![1];
        g.follow(&[1, 2]);
        assert!(g.contains(10) && g.contains(11) && !g.contains(12));
        g.remember(2, 12);
        g.remember(3, 13);
        g.moves = vec![1, 2, 3];
        // A takeback to ply 2: positions from ply 2 on are forgotten.
        g.follow(&[1, 2]);
        assert!(g.contains(10) && g.contains(11) && !g.contains(12) && !g.contains(13));
        // Another game: only its start (ply 0) is kept, the same position.
        g.moves = vec![1, 2];
        g.follow(&[5, 6, 7]);
        assert!(g.contains(10) && !g.contains(11));
    }
}
