//! The bit-set move generator against a naive one written here straight from
//! `docs/rules/abalone.md`: every cell, every direction, groups of 1 to 3
//! marbles, in-line moves (with sumito pushes) and broadside moves, on a plain
//! grid of rows and numbers, with its own make-move, push-out and threefold
//! repetition. Nothing of the crate is used to generate or apply the naive
//! moves: the crate's moves are compared as Aba-Pro text.
//!
//! - At every node of a perft tree (the root and depths 1 and 2), the legal
//!   moves are the same list and `count_moves` agrees; the boards after each
//!   move are the same; perft(1–3) agree (and equal the published figures of
//!   the rules file).
//! - Along random games from every layout, the same at every ply, up to the
//!   end of the game (push-out, repetition).

use std::collections::{BTreeMap, BTreeSet};

use plateau_abalone::board::{Cell, cells};
use plateau_abalone::{Abalone, AbaloneState, Rules, parse_position};
use plateau_core::perft::perft;
use plateau_core::{Game, State, Turn};

/// The cells of each row, A to I, as the rules list them:
/// `A1–A5, B1–B6, C1–C7, D1–D8, E1–E9, F2–F9, G3–G9, H4–H9, I5–I9`.
const ROWS: [(i8, i8); 9] = [(1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (2, 9), (3, 9), (4, 9), (5, 9)];

/// The six neighbours of (r, n): (r, n−1), (r, n+1), (r+1, n), (r+1, n+1),
/// (r−1, n), (r−1, n−1), as steps; direction `i` and `i ^ 1` are opposite.
const STEPS: [(i8, i8); 6] = [(0, -1), (0, 1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

/// The layouts of the rules file, Black then White.
const LAYOUTS: [(&str, &str, &str); 6] = [
    ("standard", "A1 A2 A3 A4 A5 B1 B2 B3 B4 B5 B6 C3 C4 C5", "H4 H5 H6 H7 H8 H9 I5 I6 I7 I8 I9 G5 G6 G7"),
    ("belgian-daisy", "A1 A2 B1 B2 B3 C2 C3 G7 G8 H7 H8 H9 I8 I9", "A4 A5 B4 B5 B6 C5 C6 G4 G5 H4 H5 H6 I5 I6"),
    ("german-daisy", "B1 B2 C1 C2 C3 D2 D3 F7 F8 G7 G8 G9 H8 H9", "B5 B6 C5 C6 C7 D6 D7 F3 F4 G3 G4 G5 H4 H5"),
    ("alien", "B3 B4 C3 C5 F5 F6 G4 G6 G8 H5 H8 I5 I7 I9", "A1 A3 A5 B2 B5 C2 C4 C6 D4 D5 G5 G7 H6 H7"),
    ("snakes", "D3 D4 D5 D6 D7 E8 F9 G9 H9 I5 I6 I7 I8 I9", "A1 A2 A3 A4 A5 B1 C1 D1 E2 F3 F4 F5 F6 F7"),
    ("domination", "B6 C6 C7 D6 D7 D8 E4 E6 F2 F3 F4 G3 G4 H4", "B1 C1 C2 D1 D2 D3 D4 F6 F7 F8 F9 G8 G9 H9"),
];

type Pos = (i8, i8);

fn on_board((r, n): Pos) -> bool {
    (0..9).contains(&r) && (ROWS[r as usize].0..=ROWS[r as usize].1).contains(&n)
}

fn add((r, n): Pos, (dr, dn): (i8, i8), k: i8) -> Pos {
    (r + k * dr, n + k * dn)
}

fn name((r, n): Pos) -> String {
    format!("{}{}", (b'a' + r as u8) as char, n)
}

fn parse_cell(t: &str) -> Pos {
    let b = t.as_bytes();
    ((b[0].to_ascii_lowercase() - b'a') as i8, (b[1] - b'0') as i8)
}

/// A position: what stands on each cell (0 Black, 1 White), the side to
/// move, the marbles each side pushed out, and the positions met so far.
#[derive(Clone)]
struct Naive {
    grid: BTreeMap<Pos, u8>,
    side: u8,
    out: [u8; 2],
    to_win: u8,
    seen: Vec<(BTreeMap<Pos, u8>, u8)>,
}

/// A naive move: the marbles that move (trailing first for in-line moves),
/// the direction, and its Aba-Pro text in a canonical form.
#[derive(Clone)]
struct NMove {
    line: Vec<Pos>,
    dir: usize,
    key: String,
}

impl Naive {
    fn layout(name_: &str, to_win: u8) -> Naive {
        let (_, b, w) = LAYOUTS.iter().find(|(n, _, _)| *n == name_).unwrap();
        let mut grid = BTreeMap::new();
        for (side, list) in [(0, b), (1, w)] {
            for c in list.split_whitespace() {
                assert!(on_board(parse_cell(c)));
                assert!(grid.insert(parse_cell(c), side).is_none());
            }
        }
        let mut s = Naive { grid, side: 0, out: [0, 0], to_win, seen: Vec::new() };
        s.seen.push((s.grid.clone(), s.side));
        s
    }

    fn from_grid(grid: BTreeMap<Pos, u8>, side: u8, out: [u8; 2], to_win: u8) -> Naive {
        let mut s = Naive { grid, side, out, to_win, seen: Vec::new() };
        s.seen.push((s.grid.clone(), s.side));
        s
    }

    fn at(&self, c: Pos) -> Option<u8> {
        self.grid.get(&c).copied()
    }

    /// The game is over: a side pushed out `to_win` marbles, or the position
    /// (with the side to move) occurs for the third time.
    fn over(&self) -> bool {
        self.out.iter().any(|&o| o >= self.to_win)
            || self.seen.iter().filter(|(g, s)| *g == self.grid && *s == self.side).count() >= 3
    }

    fn moves(&self) -> Vec<NMove> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        let me = self.side;
        let all: Vec<Pos> = (0..9i8).flat_map(|r| (1..=9i8).map(move |n| (r, n))).filter(|&c| on_board(c)).collect();
        for &c in &all {
            for (dir, &d) in STEPS.iter().enumerate() {
                for size in 1..=3i8 {
                    let line: Vec<Pos> = (0..size).map(|k| add(c, d, k)).collect();
                    if !line.iter().all(|&p| on_board(p) && self.at(p) == Some(me)) {
                        continue;
                    }
                    // In-line: along the line, trailing marble `c`.
                    let front = add(c, d, size);
                    let ok = if !on_board(front) {
                        false
                    } else {
                        match self.at(front) {
                            None => true,
                            Some(x) if x == me => false,
                            Some(_) => {
                                // The opponent's contiguous run in front.
                                let mut run = 0;
                                while on_board(add(front, d, run)) && self.at(add(front, d, run)) == Some(1 - me) {
                                    run += 1;
                                }
                                let beyond = add(front, d, run);
                                size > run && (!on_board(beyond) || self.at(beyond).is_none())
                            }
                        }
                    };
                    if ok {
                        out.push(NMove { key: format!("{}{}", name(c), name(add(c, d, 1))), line: line.clone(), dir });
                    }
                    // Broadside: a line of 2 or 3 along axis `d` (each line
                    // once: only the axes 1, 2 and 4 of STEPS), moving
                    // sideways into empty cells.
                    if size >= 2 && [1, 2, 4].contains(&dir) {
                        for (side_dir, &s) in STEPS.iter().enumerate() {
                            if side_dir == dir || side_dir == dir ^ 1 {
                                continue;
                            }
                            if line.iter().all(|&p| on_board(add(p, s, 1)) && self.at(add(p, s, 1)).is_none()) {
                                let (a, b) = (line[0], line[line.len() - 1]);
                                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                                out.push(NMove {
                                    key: format!("{}{}{}", name(lo), name(hi), name(add(lo, s, 1))),
                                    line: line.clone(),
                                    dir: side_dir,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the move pushes opponent marbles.
    fn pushes(&self, m: &NMove) -> bool {
        let d = STEPS[m.dir];
        let inline = m.line.len() == 1 || add(m.line[0], d, 1) == m.line[1];
        inline && self.at(add(m.line[0], d, m.line.len() as i8)).is_some()
    }

    fn apply(&self, m: &NMove) -> Naive {
        let mut s = self.clone();
        let d = STEPS[m.dir];
        let me = self.side;
        let inline = m.line.len() == 1 || add(m.line[0], d, 1) == m.line[1];
        if inline {
            // Push the opponent's run in front first, from its far end.
            let front = add(m.line[0], d, m.line.len() as i8);
            let mut run = 0;
            while self.at(add(front, d, run)) == Some(1 - me) {
                run += 1;
            }
            for k in (0..run).rev() {
                let from = add(front, d, k);
                s.grid.remove(&from);
                let to = add(from, d, 1);
                if on_board(to) {
                    s.grid.insert(to, 1 - me);
                } else {
                    s.out[me as usize] += 1;
                }
            }
        }
        for p in &m.line {
            s.grid.remove(p);
        }
        for p in &m.line {
            s.grid.insert(add(*p, d, 1), me);
        }
        s.side = 1 - me;
        s.seen.push((s.grid.clone(), s.side));
        s
    }
}

/// The crate's move text in the canonical form of the naive keys: in-line
/// as written; broadside with the lower end first and that end's target.
fn canonical(text: &str) -> String {
    assert!(text.len() == 4 || text.len() == 6, "{text}");
    if text.len() == 4 {
        return text.to_string();
    }
    let (p, q, t) = (parse_cell(&text[0..2]), parse_cell(&text[2..4]), parse_cell(&text[4..6]));
    let d = (t.0 - p.0, t.1 - p.1);
    let (lo, hi) = if p < q { (p, q) } else { (q, p) };
    format!("{}{}{}", name(lo), name(hi), name(add(lo, d, 1)))
}

fn board_of(e: &AbaloneState) -> BTreeMap<Pos, u8> {
    let mut g = BTreeMap::new();
    for side in 0..2 {
        for c in cells(e.marbles(side)) {
            g.insert((c.row() as i8, c.number() as i8), side as u8);
        }
    }
    g
}

/// Compare the two generators at one node; return the engine's moves by key.
fn compare(e: &AbaloneState, n: &Naive, what: &str) -> BTreeMap<String, plateau_abalone::Move> {
    assert_eq!(board_of(e), n.grid, "{what}: boards differ");
    assert_eq!(e.side() as u8, n.side, "{what}: side to move");
    assert_eq!([e.pushed_out_by(0), e.pushed_out_by(1)], n.out, "{what}: marbles pushed out");
    assert_eq!(e.to_move() == Turn::Over, n.over(), "{what}: game over");
    let mut v = Vec::new();
    e.legal_moves(&mut v);
    let fast: BTreeMap<String, _> = v.iter().map(|&m| (canonical(&e.format_move(m)), m)).collect();
    assert_eq!(fast.len(), v.len(), "{what}: duplicate moves");
    let slow: BTreeSet<String> = n.moves().into_iter().map(|m| m.key).collect();
    let fast_keys: BTreeSet<String> = fast.keys().cloned().collect();
    assert_eq!(
        fast_keys,
        slow,
        "{what}: only the crate: {:?}; only the naive generator: {:?}",
        fast_keys.difference(&slow).collect::<Vec<_>>(),
        slow.difference(&fast_keys).collect::<Vec<_>>()
    );
    assert_eq!(e.count_moves(), v.len(), "{what}: count_moves");
    fast
}

/// Walk the tree to `depth`, comparing every node above the leaves; returns
/// the naive leaf count.
fn walk(e: &mut AbaloneState, n: &Naive, depth: u32, path: &mut Vec<String>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let fast = compare(e, n, &path.join(" "));
    let mut leaves = 0;
    for m in n.moves() {
        let mv = fast[&m.key];
        let u = e.apply(mv);
        let child = n.apply(&m);
        path.push(m.key.clone());
        if depth == 1 {
            // The leaves: the position reached is the same.
            assert_eq!(board_of(e), child.grid, "{}", path.join(" "));
            leaves += 1;
        } else {
            leaves += walk(e, &child, depth - 1, path);
        }
        path.pop();
        e.undo(mv, u);
    }
    leaves
}

fn layout(name_: &str) -> AbaloneState {
    Abalone::with_layout(name_, Rules::default()).unwrap().start(0)
}

#[test]
fn perft_trees_match_the_naive_generator() {
    // The figures of the rules file, for the layouts that have them.
    let published: [(&str, &[u64]); 6] = [
        ("standard", &[44, 1_936, 98_912]),
        ("belgian-daisy", &[52, 2_692, 149_322]),
        ("german-daisy", &[80, 6_244, 493_480]),
        ("alien", &[48]),
        ("snakes", &[98]),
        ("domination", &[80]),
    ];
    // German daisy's depth 3 costs a few seconds without optimisation.
    let deep = if cfg!(debug_assertions) { 2 } else { 3 };
    for (name_, figures) in published {
        let depth = if figures.len() == 3 { deep } else { 2 };
        let mut e = layout(name_);
        let n = Naive::layout(name_, 6);
        for d in 1..=depth {
            let naive = walk(&mut e, &n, d, &mut Vec::new());
            assert_eq!(perft(&mut e, d), naive, "{name_} perft({d})");
            if let Some(&f) = figures.get(d as usize - 1) {
                assert_eq!(naive, f, "{name_} perft({d}): the rules file's figure");
            }
        }
    }
}

#[test]
fn root_move_lists_are_the_rules_file_lists() {
    // The standard layout: 44 moves; spot checks worked out by hand from the
    // layout.
    let mut e = layout("standard");
    let n = Naive::layout("standard", 6);
    let fast = compare(&e, &n, "standard");
    assert_eq!(fast.len(), 44);
    // Spot checks of each kind: a single marble, in-line 2 and 3, broadside 2
    // and 3 (canonical form: lower end first).
    for m in ["c3d3", "b1c2", "a1b2", "c3c4d4", "c3c5d3", "a5b6"] {
        assert!(fast.contains_key(m), "{m}");
    }
    let _ = walk(&mut e, &n, 1, &mut Vec::new());
}

#[test]
fn random_games_match_the_naive_generator() {
    // A small linear congruential generator: the games only need to vary.
    let mut seed: u64 = 0x5eed;
    let mut next = |k: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % k
    };
    let games = if cfg!(debug_assertions) { 2 } else { 6 };
    let mut finished = 0;
    let mut pushes = 0;
    for (name_, _, _) in LAYOUTS {
        for _ in 0..games {
            let mut e = layout(name_);
            let mut n = Naive::layout(name_, 6);
            for ply in 0..1000 {
                let fast = compare(&e, &n, &format!("{name_} ply {ply}"));
                if n.over() {
                    finished += 1;
                    break;
                }
                let moves = n.moves();
                // Prefer pushes, so that games reach push-outs and their end.
                let pushing: Vec<&NMove> = moves.iter().filter(|m| n.pushes(m)).collect();
                let m = if !pushing.is_empty() && next(2) == 0 {
                    pushing[next(pushing.len())].clone()
                } else {
                    moves[next(moves.len())].clone()
                };
                pushes += usize::from(n.pushes(&m));
                e.apply(fast[&m.key]);
                n = n.apply(&m);
            }
        }
    }
    // The games did reach their ends and pushed: the comparison covered them.
    assert!(finished >= LAYOUTS.len(), "{finished} games finished");
    assert!(pushes > 100, "{pushes} pushes");
}

#[test]
fn scattered_positions_match_the_naive_generator() {
    // Random positions in the text form, with many contacts between the
    // sides: every kind of push and blocked push.
    let mut seed: u64 = 17;
    let mut next = |k: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % k
    };
    let rounds = if cfg!(debug_assertions) { 100 } else { 1000 };
    for round in 0..rounds {
        let mut rows = Vec::new();
        let mut grid = BTreeMap::new();
        let (mut nb, mut nw) = (0u8, 0u8);
        for r in (0..9i8).rev() {
            let (lo, hi) = ROWS[r as usize];
            let mut row = String::new();
            for num in lo..=hi {
                match next(3) {
                    0 if nb < 14 => {
                        row.push('b');
                        grid.insert((r, num), 0);
                        nb += 1
                    }
                    1 if nw < 14 => {
                        row.push('w');
                        grid.insert((r, num), 1);
                        nw += 1
                    }
                    _ => row.push('1'),
                }
            }
            rows.push(row);
        }
        let side = (round % 2) as u8;
        // Up to 5 pushed out already, so that one more push-out may win.
        let out = [(14 - nw).min(5), (14 - nb).min(5)];
        let text = format!("{} {} {} {}", rows.join("/"), ["b", "w"][side as usize], out[0], out[1]);
        let e = parse_position(&text, Rules::default()).unwrap_or_else(|err| panic!("{text}: {err}"));
        let n = Naive::from_grid(grid, side, out, 6);
        let fast = compare(&e, &n, &text);
        // And one ply on: each move gives the same board.
        for m in n.moves() {
            let mut e2 = e.clone();
            e2.apply(fast[&m.key]);
            assert_eq!(board_of(&e2), n.apply(&m).grid, "{text} {}", m.key);
        }
    }
    // `Cell` and the crate's cell names agree with the naive names.
    for c in Cell::all() {
        assert_eq!(c.to_string(), name((c.row() as i8, c.number() as i8)));
    }
}
