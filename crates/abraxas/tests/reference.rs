//! The bitboard rules against a naive implementation written here straight
//! from `docs/rules/abraxas.md` and the decisions of the crate's
//! documentation: a 9×9 grid of cells, the plate as an offset, the push as a
//! move of every stone, lines as runs found cell by cell, every choice of
//! stones to take enumerated as a subset. The sheets are read from the data
//! files in `sheets/`. Nothing of the crate generates or applies the naive
//! moves: the crate's moves are compared as (kind, cells).
//!
//! - perft(1–3) from the start, with the move lists compared at every node
//!   above the leaves (level 1 and bottom-left, the default; level 6,
//!   top-right, `removed-not-adjacent`).
//! - Random games on every sheet and both readings of the restriction,
//!   compared at every ply up to the end (stones taken, repetition, move cap).

use std::collections::{BTreeMap, BTreeSet};

use plateau_abraxas::{Abraxas, AbraxasState, Move, PlatePos, Removal, Sheet};
use plateau_core::perft::perft;
use plateau_core::{Game, State, Turn};

const SHEETS: [&str; 6] = [
    include_str!("../sheets/level-1.txt"),
    include_str!("../sheets/level-2.txt"),
    include_str!("../sheets/level-3.txt"),
    include_str!("../sheets/level-4.txt"),
    include_str!("../sheets/level-5.txt"),
    include_str!("../sheets/level-6.txt"),
];

/// The dots of a sheet file: `dots[file][rank]`.
fn dots(level: usize) -> [[bool; 9]; 9] {
    let rows: Vec<&str> = SHEETS[level - 1].lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 9);
    let mut d = [[false; 9]; 9];
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.len(), 9);
        for (f, c) in cells.iter().enumerate() {
            d[f][8 - i] = *c == "o";
        }
    }
    d
}

/// The plate's positions in the order of the push, as the (file, rank)
/// offset of the cell under its bottom-left hole: bottom-left covers a1–h8,
/// bottom-right b1–i8, top-right b2–i9, top-left a2–h9.
const PLATE: [(usize, usize); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];

/// Rows, columns and both diagonals.
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

type Pos = (usize, usize);

fn name((f, r): Pos) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
enum Stone {
    Red,
    Stop(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Place,
    Score,
    Interlude,
}

/// A naive position.
#[derive(Clone)]
struct Naive {
    dots: [[bool; 9]; 9],
    removed_not_adjacent: bool,
    to_win: usize,
    max_plies: usize,
    /// Stones by board cell.
    grid: BTreeMap<Pos, Stone>,
    plate: usize,
    reserve: usize,
    taken: [usize; 2],
    stops: [usize; 2],
    phase: Phase,
    /// Who decides now.
    mover: usize,
    /// The scorer while lines are scored and in the interlude.
    scorer: usize,
    /// The lines still to score (their cells, in order).
    pending: Vec<Vec<Pos>>,
    ply: usize,
    seen: Vec<String>,
    over: bool,
}

#[derive(Clone, Debug)]
enum NMove {
    Place(Pos),
    Stop(Pos),
    Relocate(Pos, Pos),
    Take(Vec<Pos>, Vec<Pos>),
    Pass,
}

impl NMove {
    fn key(&self) -> String {
        let list = |v: &[Pos]| {
            let mut v: Vec<String> = v.iter().map(|&p| name(p)).collect();
            v.sort();
            v.join(",")
        };
        match self {
            NMove::Place(p) => format!("place {}", name(*p)),
            NMove::Stop(p) => format!("stop {}", name(*p)),
            NMove::Relocate(a, b) => format!("move {} {}", name(*a), name(*b)),
            NMove::Take(line, stones) => format!("take {} from {}", list(stones), list(line)),
            NMove::Pass => "pass".to_string(),
        }
    }
}

/// The crate's move in the same form.
fn key(m: Move) -> String {
    let cells = |bits: u128| {
        let mut v: Vec<String> = plateau_abraxas::Bitboard(bits).iter().map(|c| c.to_string()).collect();
        v.sort();
        v.join(",")
    };
    match m {
        Move::Place(c) => format!("place {c}"),
        Move::Stop(c) => format!("stop {c}"),
        Move::Relocate { from, to } => format!("move {from} {to}"),
        Move::Take(t) => format!("take {} from {}", cells(t.mask()), cells(t.line.mask())),
        Move::Pass => "pass".to_string(),
    }
}

/// The subsets of `k` elements of `v`.
fn subsets(v: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    if v.len() < k {
        return Vec::new();
    }
    let mut out = subsets(&v[1..], k - 1);
    for s in &mut out {
        s.insert(0, v[0]);
    }
    out.extend(subsets(&v[1..], k));
    out
}

impl Naive {
    fn new(level: usize, plate: usize, removed_not_adjacent: bool) -> Naive {
        let mut s = Naive {
            dots: dots(level),
            removed_not_adjacent,
            to_win: 11,
            max_plies: 400,
            grid: BTreeMap::new(),
            plate,
            reserve: 24,
            taken: [0, 0],
            stops: [3, 3],
            phase: Phase::Place,
            mover: 0,
            scorer: 0,
            pending: Vec::new(),
            ply: 0,
            seen: Vec::new(),
            over: false,
        };
        s.seen.push(s.position());
        s
    }

    fn holes(&self) -> Vec<Pos> {
        let (dx, dy) = PLATE[self.plate];
        (0..8).flat_map(|r| (0..8).map(move |f| (f + dx, r + dy))).collect()
    }

    fn empty_holes(&self) -> Vec<Pos> {
        self.holes().into_iter().filter(|p| !self.grid.contains_key(p)).collect()
    }

    /// A red circle: a red stone, or a visible dot (no stone over it).
    fn red(&self, p: Pos) -> bool {
        match self.grid.get(&p) {
            Some(Stone::Red) => true,
            Some(Stone::Stop(_)) => false,
            None => self.dots[p.0][p.1],
        }
    }

    /// Every maximal run of 4 or more red circles.
    fn lines(&self) -> Vec<Vec<Pos>> {
        let mut out = Vec::new();
        let at = |f: i32, r: i32| (0..9).contains(&f) && (0..9).contains(&r) && self.red((f as usize, r as usize));
        for (df, dr) in DIRS {
            for f in 0..9i32 {
                for r in 0..9i32 {
                    // A run starts here: red, and the cell before is not.
                    if !at(f, r) || at(f - df, r - dr) {
                        continue;
                    }
                    let mut run = Vec::new();
                    let (mut x, mut y) = (f, r);
                    while at(x, y) {
                        run.push((x as usize, y as usize));
                        x += df;
                        y += dr;
                    }
                    if run.len() >= 4 {
                        out.push(run);
                    }
                }
            }
        }
        out
    }

    /// What the rules depend on, for repetition (who placed a stop stone is
    /// not part of it).
    fn position(&self) -> String {
        let stones: Vec<String> = self
            .grid
            .iter()
            .map(|(&p, s)| format!("{}{}", name(p), if *s == Stone::Red { "r" } else { "s" }))
            .collect();
        let mut pending: Vec<String> = self.pending.iter().map(|l| format!("{:?}", l)).collect();
        pending.sort();
        format!(
            "{} {} {:?} {:?} {:?} {} {:?} {:?}",
            stones.join(" "),
            self.plate,
            self.taken,
            self.stops,
            self.phase,
            self.mover,
            if self.phase == Phase::Place { None } else { Some(self.scorer) },
            pending
        )
    }

    fn moves(&self) -> Vec<NMove> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let empty = self.empty_holes();
        match self.phase {
            Phase::Place => {
                if self.reserve > 0 {
                    out.extend(empty.iter().map(|&h| NMove::Place(h)));
                } else {
                    for (&from, s) in &self.grid {
                        if *s == Stone::Red {
                            out.extend(empty.iter().map(|&h| NMove::Relocate(from, h)));
                        }
                    }
                }
                if self.stops[self.mover] > 0 {
                    out.extend(empty.iter().map(|&h| NMove::Stop(h)));
                }
            }
            Phase::Interlude => {
                out.extend(empty.iter().map(|&h| NMove::Stop(h)));
                out.push(NMove::Pass);
            }
            Phase::Score => {
                for line in &self.pending {
                    let with_stone: Vec<usize> =
                        (0..line.len()).filter(|&i| self.grid.get(&line[i]) == Some(&Stone::Red)).collect();
                    let k = line.len() - 3;
                    let cells = |which: &[usize]| which.iter().map(|&i| line[i]).collect::<Vec<_>>();
                    if with_stone.len() <= k {
                        out.push(NMove::Take(line.clone(), cells(&with_stone)));
                        continue;
                    }
                    let all = subsets(&with_stone, k);
                    let allowed: Vec<&Vec<usize>> = all
                        .iter()
                        .filter(|w| {
                            if self.removed_not_adjacent {
                                !w.windows(2).any(|p| p[1] == p[0] + 1)
                            } else {
                                let rest: Vec<usize> = (0..line.len()).filter(|i| !w.contains(i)).collect();
                                !(rest.len() == 3 && rest[1] == rest[0] + 1 && rest[2] == rest[1] + 1)
                            }
                        })
                        .collect();
                    let choice: Vec<&Vec<usize>> = if allowed.is_empty() { all.iter().collect() } else { allowed };
                    out.extend(choice.into_iter().map(|w| NMove::Take(line.clone(), cells(w))));
                }
            }
        }
        out
    }

    fn push(&mut self) {
        let next = (self.plate + 1) % 4;
        let (ox, oy) = PLATE[self.plate];
        let (nx, ny) = PLATE[next];
        self.grid = self.grid.iter().map(|(&(f, r), &s)| ((f + nx - ox, r + ny - oy), s)).collect();
        self.plate = next;
    }

    fn apply(&self, m: &NMove) -> Naive {
        let mut s = self.clone();
        s.ply += 1;
        let me = self.mover;
        match (self.phase, m) {
            (Phase::Place, _) => {
                match *m {
                    NMove::Place(h) => {
                        s.grid.insert(h, Stone::Red);
                        s.reserve -= 1;
                    }
                    NMove::Relocate(a, b) => {
                        s.grid.remove(&a);
                        s.grid.insert(b, Stone::Red);
                    }
                    NMove::Stop(h) => {
                        s.grid.insert(h, Stone::Stop(me));
                        s.stops[me] -= 1;
                    }
                    _ => unreachable!(),
                }
                s.push();
                s.pending = s.lines();
                if s.pending.is_empty() {
                    s.mover = 1 - me;
                } else {
                    s.phase = Phase::Score;
                    s.scorer = me;
                }
            }
            (Phase::Score, NMove::Take(line, stones)) => {
                let red_before: Vec<Pos> = s.grid.keys().copied().filter(|&p| s.red(p)).collect();
                for p in stones {
                    assert_eq!(s.grid.remove(p), Some(Stone::Red));
                }
                s.taken[me] += stones.len();
                // The line is done; a line that lost a red circle is broken.
                s.pending.retain(|l| l != line);
                let lost: Vec<Pos> = red_before.into_iter().filter(|&p| !s.red(p)).collect();
                s.pending.retain(|l| !l.iter().any(|p| lost.contains(p)));
                if s.taken[me] >= s.to_win {
                    s.over = true;
                } else if s.pending.is_empty() {
                    if s.stops[1 - me] > 0 {
                        s.phase = Phase::Interlude;
                        s.mover = 1 - me;
                    } else {
                        s.phase = Phase::Place;
                    }
                }
            }
            (Phase::Interlude, _) => {
                if let NMove::Stop(h) = *m {
                    s.grid.insert(h, Stone::Stop(me));
                    s.stops[me] -= 1;
                }
                s.phase = Phase::Place;
                s.mover = s.scorer;
            }
            _ => unreachable!("{m:?} in {:?}", self.phase),
        }
        if !s.over {
            let here = s.position();
            s.seen.push(here.clone());
            if s.seen.iter().filter(|p| **p == here).count() >= 3 || s.ply >= s.max_plies {
                s.over = true;
            }
        }
        if !s.over && s.moves().is_empty() {
            s.over = true;
        }
        s
    }
}

fn game(level: usize, plate: usize, removed_not_adjacent: bool) -> Abraxas {
    let removal = if removed_not_adjacent { Removal::RemovedNotAdjacent } else { Removal::RemainingNotAdjacent };
    Abraxas::new(Sheet::level(level).unwrap()).with_plate_start(PlatePos::ALL[plate]).with_removal(removal)
}

fn board_of(e: &AbraxasState) -> BTreeMap<String, Stone> {
    let mut g = BTreeMap::new();
    for c in e.red_stones().iter() {
        g.insert(c.to_string(), Stone::Red);
    }
    for seat in 0..2 {
        for c in e.stop_stones(seat).iter() {
            assert!(g.insert(c.to_string(), Stone::Stop(seat)).is_none(), "two stones on {c}");
        }
    }
    g
}

/// Compare one node; the crate's moves by key.
fn compare(e: &AbraxasState, n: &Naive, what: &str) -> BTreeMap<String, Move> {
    let grid: BTreeMap<String, Stone> = n.grid.iter().map(|(&p, &s)| (name(p), s)).collect();
    assert_eq!(board_of(e), grid, "{what}: stones");
    assert_eq!(e.plate(), PlatePos::ALL[n.plate], "{what}: plate");
    assert_eq!([e.taken(0) as usize, e.taken(1) as usize], n.taken, "{what}: taken");
    assert_eq!([e.stops_in_hand(0) as usize, e.stops_in_hand(1) as usize], n.stops, "{what}: stops in hand");
    assert_eq!(e.reserve() as usize, n.reserve, "{what}: reserve");
    assert_eq!(e.to_move() == Turn::Over, n.over, "{what}: game over");
    if !n.over {
        assert_eq!(e.to_move(), Turn::Seat(n.mover), "{what}: to move");
        let phase = match e.phase() {
            plateau_abraxas::Phase::Place => Phase::Place,
            plateau_abraxas::Phase::Score => Phase::Score,
            plateau_abraxas::Phase::Interlude => Phase::Interlude,
        };
        assert_eq!(phase, n.phase, "{what}: phase");
    }
    let mut v = Vec::new();
    e.legal_moves(&mut v);
    let fast: BTreeMap<String, Move> = v.iter().map(|&m| (key(m), m)).collect();
    assert_eq!(fast.len(), v.len(), "{what}: duplicate moves");
    let slow: BTreeSet<String> = n.moves().iter().map(NMove::key).collect();
    let fast_keys: BTreeSet<String> = fast.keys().cloned().collect();
    assert_eq!(
        fast_keys,
        slow,
        "{what}: only the crate: {:?}; only the naive rules: {:?}",
        fast_keys.difference(&slow).collect::<Vec<_>>(),
        slow.difference(&fast_keys).collect::<Vec<_>>()
    );
    assert_eq!(e.count_moves(), v.len(), "{what}: count_moves");
    // Every move's text reads back as the move.
    for &m in &v {
        let text = e.format_move(m);
        assert_eq!(e.parse_move(&text).ok(), Some(m), "{what}: {text}");
    }
    fast
}

fn walk(e: &mut AbraxasState, n: &Naive, depth: u32, path: &mut Vec<String>, scoring: &mut u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    let fast = compare(e, n, &path.join(" / "));
    if n.phase == Phase::Score {
        *scoring += 1;
    }
    let moves = n.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut leaves = 0;
    for m in moves {
        let mv = fast[&m.key()];
        let u = e.apply(mv);
        path.push(m.key());
        leaves += walk(e, &n.apply(&m), depth - 1, path, scoring);
        path.pop();
        e.undo(mv, u);
    }
    leaves
}

#[test]
fn perft_trees_match_the_naive_rules() {
    let deep = if cfg!(debug_assertions) { 2 } else { 3 };
    // (level, plate start, removed-not-adjacent, perft 1–3 from the crate's
    // documentation for the default game).
    let cases: [(usize, usize, bool, Option<[u64; 3]>); 2] =
        [(1, 0, false, Some([128, 16_128, 1_997_904])), (6, 2, true, None)];
    for (level, plate, rna, figures) in cases {
        let g = game(level, plate, rna);
        let mut e = g.start(0);
        let n = Naive::new(level, plate, rna);
        for d in 1..=deep {
            let mut scoring = 0;
            let naive = walk(&mut e, &n, d, &mut Vec::new(), &mut scoring);
            assert_eq!(perft(&mut e, d), naive, "level {level} perft({d})");
            if let Some(f) = figures {
                assert_eq!(naive, f[d as usize - 1], "level {level} perft({d}): the documented figure");
            }
            if d == 3 {
                // Lines already come at depth 2: the comparison covered removals.
                assert!(scoring > 0, "level {level}: no line within two plies");
            }
        }
    }
}

#[test]
fn random_games_match_the_naive_rules() {
    let mut seed: u64 = 0xab7a;
    let mut next = |k: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % k
    };
    let games = if cfg!(debug_assertions) { 1 } else { 3 };
    let (mut finished, mut kinds) = (0, BTreeSet::new());
    for level in 1..=6 {
        for rna in [false, true] {
            for round in 0..games {
                let plate = (level + round) % 4;
                let g = game(level, plate, rna);
                let mut e = g.start(0);
                let mut n = Naive::new(level, plate, rna);
                for ply in 0.. {
                    let fast = compare(&e, &n, &format!("level {level} rna {rna} ply {ply}"));
                    if n.over {
                        finished += 1;
                        break;
                    }
                    let moves = n.moves();
                    // In the interlude, pass half the time (one move of
                    // some sixty otherwise).
                    let m = if n.phase == Phase::Interlude && next(2) == 0 {
                        NMove::Pass
                    } else {
                        moves[next(moves.len())].clone()
                    };
                    kinds.insert(m.key().split(' ').next().unwrap().to_string());
                    e.apply(fast[&m.key()]);
                    n = n.apply(&m);
                }
            }
        }
    }
    assert_eq!(finished, 6 * 2 * games);
    assert_eq!(kinds.len(), 5, "every kind of move was played: {kinds:?}");
}
