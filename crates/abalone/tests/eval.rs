//! Abalone's evaluations: `v1` unchanged (numbers recorded from the code of
//! 2026-11-30 before `v2` was written), `v2` as `round(Σ weight · term)`
//! with antisymmetric terms, each new term against a hand count and a
//! cell-by-cell recount, and a side ahead that takes the finish.

use plateau_abalone::board::{Cell, cells};
use plateau_abalone::{Abalone, AbaloneState, LAYOUTS, Rules, parse_position};
use plateau_core::{Evaluate, Game, State, Turn};

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn pos(text: &str) -> AbaloneState {
    parse_position(text, Rules::default()).unwrap()
}

/// An empty board with a few marbles, given as cell lists, then the side to
/// move and the marbles pushed out by each side ("b 0 0").
fn board(black: &str, white: &str, rest: &str) -> AbaloneState {
    let mut rows: Vec<String> = Vec::new();
    for row in (0..9u8).rev() {
        let mut r = String::new();
        for n in 1..=9u8 {
            let Some(c) = Cell::new(row, n) else { continue };
            let name = c.to_string();
            r.push(if black.split_whitespace().any(|x| x == name) {
                'b'
            } else if white.split_whitespace().any(|x| x == name) {
                'w'
            } else {
                '1'
            });
        }
        rows.push(r);
    }
    pos(&format!("{} {rest}", rows.join("/")))
}

/// Positions of seeded random playouts from three layouts (push-outs played
/// half the time they are there, so that material varies), each with its
/// plies since the last push-out.
fn playout_positions(per_layout: usize) -> Vec<AbaloneState> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::new();
    let (mut moves, mut noisy) = (Vec::new(), Vec::new());
    for (name, _, _) in LAYOUTS.iter().take(3) {
        for _ in 0..per_layout / 100 + 1 {
            let mut s = Abalone::with_layout(name, Rules::default()).unwrap().start(0);
            for _ in 0..100 {
                if s.outcome().is_some() {
                    break;
                }
                out.push(s.clone());
                s.noisy_moves(&mut noisy);
                s.legal_moves(&mut moves);
                let mv = if !noisy.is_empty() && xorshift(&mut seed).is_multiple_of(2) {
                    noisy[(xorshift(&mut seed) % noisy.len() as u64) as usize]
                } else {
                    moves[(xorshift(&mut seed) % moves.len() as u64) as usize]
                };
                s.apply(mv);
            }
        }
    }
    out
}

/// `v1`'s evaluation of these positions for Black and for White, computed by
/// the code of 2026-11-30 (before `v2`) on positions of random playouts.
const V1: [(&str, i32, i32); 24] = [
    ("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0", 0, 0),
    ("ww1ww/www1ww/1wwww2/8/5w3/2bb1b2/b1bbbb1/3b2/bbbbb w 0 0", -8, 8),
    ("w3w/1ww2w/1wwww1w/1ww1w3/3b5/1b2wb2/2bbbb1/bbbb1b/2bb1 b 0 0", 2, -2),
    ("w4/1wwww1/w1w1ww1/2www1w1/3bbw3/1b3b2/1bbbb2/b1bb1b/1bb2 w 0 0", -15, 15),
    ("1w3/ww1ww1/ww2w2/3ww2w/4bw1w1/b3bw2/2b1bb1/bb1bbb/1bbb1 b 0 0", -24, 24),
    ("ww3/w3w1/ww1w3/3ww2w/4b2w1/b2b4/bb2bw1/2b1bw/1b1bb w 1 3", -281, 281),
    ("ww3/4w1/ww1b3/w1wbw1w1/2b2w1w1/4b1w1/bb2b1w/4b1/1b1bb b 1 3", -292, 292),
    ("w4/1w3w/ww1b2w/w1w1w1ww/1b3b1w1/3b1b2/bb5/1b2bw/3bb w 1 3", -269, 269),
    ("ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0 0", 0, 0),
    ("w2bb/www1bb/4bb1/1www1b2/2b6/2b1ww2/b1b2ww/2bw1w/bb1w1 w 0 0", -5, 5),
    ("3b1/ww2bb/wbww1bb/w1w1b3/3b1bww1/2b1w3/b1b2w1/3w1w/bb1w1 b 0 0", 5, -5),
    ("3b1/ww2bb/w2b1b1/wwwwb3/4b1wb1/2b2bw1/b1bw2w/3w1w/b1b1w w 0 0", 23, -23),
    ("3b1/w1w1b1/w2bbb1/w1ww1wb1/2b1bw1b1/6w1/b1bw1b1/4ww/bwbw1 b 0 0", 21, -21),
    ("w4/w1w3/1wbbb2/wb1wb1b1/4bwbb1/4ww2/1bb2bw/3bww/bw1w1 w 0 0", 84, -84),
    ("w1w2/1b1b2/1w1b1b1/wb2b3/2wwbw2b/3bwwb1/1bb2w1/3bww/b1w1w b 0 0", 34, -34),
    ("2b2/1w1b2/1wbb1b1/w1b1w3/2w1bwbb1/3b1w2/2bwww1/b1bww1/1b2w w 1 0", 147, -147),
    ("5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b 0 0", 0, 0),
    ("5/w3b1/wwwbbbb/1bw3bw/1w4ww1/2b1w3/bbb1w2/bb4/3ww w 1 1", 26, -26),
    ("5/w3b1/wwwbbbb/1b2ww1w/1wwb3b1/3b3w/b2b3/b5/b1www b 1 1", 49, -49),
    ("4b/w3b1/wwwbbb1/1b2w3/1w1b2wbw/2w3w1/1b1b3/1b1b1w/b1ww1 w 1 1", 84, -84),
    ("w1b2/4b1/3bb2/2w2b2/wwbb1wwbw/2ww4/1b2b1w/1b1b1w/b1w2 b 2 1", 301, -301),
    ("w1b1b/4b1/3b1b1/3w1b2/wwbbww1w1/2ww4/1b5/2bbww/b1b2 w 3 1", 283, -283),
    ("1b3/w2b2/3bbb1/2b3b1/wwb1wwww1/2ww4/1b2bb1/4w1/b1bw1 b 3 1", 294, -294),
    ("b4/w1b3/2b4/2b1bb2/1w1w1bb2/2ww1www/w3bb1/b4w/b1b1w w 3 1", 349, -349),
];

#[test]
fn v1_is_the_evaluation_of_before_issue_20() {
    assert_eq!(AbaloneState::EVALS, &["v1", "v2"]);
    for (text, black, white) in V1 {
        let s = pos(text);
        assert_eq!((s.evaluate_version(0, 0), s.evaluate_version(1, 0)), (black, white), "{text}");
    }
}

fn terms(s: &AbaloneState, seat: usize) -> Vec<f32> {
    let mut t = vec![0.0; AbaloneState::TERMS.len()];
    s.terms(seat, &mut t);
    t
}

fn term(s: &AbaloneState, seat: usize, name: &str) -> f32 {
    let i = AbaloneState::TERMS.iter().position(|n| *n == name).unwrap_or_else(|| panic!("no term {name}"));
    terms(s, seat)[i]
}

#[test]
fn v2_is_the_weighted_sum_of_antisymmetric_terms() {
    let w = AbaloneState::weights();
    assert_eq!(w.len(), AbaloneState::TERMS.len());
    let positions = playout_positions(600);
    assert!(positions.len() > 500);
    let mut decided = 0;
    for s in &positions {
        for seat in 0..2 {
            let t = terms(s, seat);
            let mut sum = 0.0f32;
            for i in 0..t.len() {
                sum += w[i] * t[i];
            }
            assert_eq!(s.evaluate(seat), sum.round() as i32);
            assert_eq!(s.evaluate_version(seat, 1), s.evaluate(seat));
            assert!(t.iter().all(|x| x.abs() <= 100.0), "{t:?}");
        }
        let (a, b) = (terms(s, 0), terms(s, 1));
        assert_eq!(a, b.iter().map(|x| -x).collect::<Vec<_>>());
        decided += (s.pushed_out_by(0) != s.pushed_out_by(1)) as usize;
    }
    assert!(decided > 50, "positions with a lead: {decided}");
}

// Cell-by-cell recounts of the terms, independent of the bit sets.

fn neighbours(c: Cell) -> impl Iterator<Item = (usize, Option<Cell>)> {
    (0..6).map(move |d| (d, c.step(d)))
}

fn on(s: &AbaloneState, seat: usize, c: Option<Cell>) -> bool {
    c.is_some_and(|c| s.marbles(seat) & c.bit() != 0)
}

fn edge_count(s: &AbaloneState, seat: usize) -> f32 {
    cells(s.marbles(seat)).filter(|&c| neighbours(c).any(|(_, n)| n.is_none())).count() as f32
}

fn press_count(s: &AbaloneState, seat: usize) -> f32 {
    let mut n = 0;
    for c in cells(s.marbles(1 - seat)) {
        for (d, next) in neighbours(c) {
            if next.is_none() && on(s, seat, c.step((d + 3) % 6)) {
                n += 1;
            }
        }
    }
    n as f32
}

fn isolated_count(s: &AbaloneState, seat: usize) -> f32 {
    cells(s.marbles(seat)).filter(|&c| !neighbours(c).any(|(_, n)| on(s, seat, n))).count() as f32
}

fn pairs(s: &AbaloneState, seat: usize) -> f32 {
    let n: usize = cells(s.marbles(seat)).map(|c| neighbours(c).filter(|&(_, n)| on(s, seat, n)).count()).sum();
    n as f32 / 2.0
}

/// The pushing moves of `seat`, were it to move: the generator's in-line
/// moves of 2 or 3 marbles with an opponent marble in front.
fn pushing_moves(s: &AbaloneState, seat: usize) -> f32 {
    let text = plateau_abalone::format_position(s);
    let mut parts: Vec<&str> = text.split(' ').collect();
    parts[1] = if seat == 0 { "b" } else { "w" };
    let s = pos(&parts.join(" "));
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves
        .iter()
        .filter(|m| {
            let d = m.dir();
            let mut front = Some(m.cell());
            for _ in 0..m.marbles() {
                front = front.and_then(|c| c.step(d));
            }
            matches!(m.kind(), plateau_abalone::MoveKind::InLine(_)) && on(&s, 1 - seat, front)
        })
        .count() as f32
}

#[test]
fn the_terms_are_their_cell_by_cell_counts() {
    for s in playout_positions(300) {
        for me in 0..2 {
            let them = 1 - me;
            let (cm, ct) = (s.pushed_out_by(me) as f32, s.pushed_out_by(them) as f32);
            let lead = cm - ct;
            assert_eq!(term(&s, me, "material"), lead);
            assert_eq!(term(&s, me, "cohesion"), pairs(&s, me) - pairs(&s, them));
            assert_eq!(term(&s, me, "edge"), edge_count(&s, them) - edge_count(&s, me));
            let edge_ahead = if lead > 0.0 { lead * edge_count(&s, them) } else { lead * edge_count(&s, me) };
            assert_eq!(term(&s, me, "edge_ahead"), edge_ahead);
            assert_eq!(term(&s, me, "progress"), cm * cm - ct * ct);
            assert_eq!(term(&s, me, "press"), press_count(&s, me) - press_count(&s, them));
            assert_eq!(term(&s, me, "isolated"), isolated_count(&s, them) - isolated_count(&s, me));
            assert_eq!(term(&s, me, "sumito"), pushing_moves(&s, me) - pushing_moves(&s, them));
        }
    }
}

#[test]
fn each_new_term_on_a_hand_made_position() {
    // White e1 on the west edge; black e2 behind it going west, f2 behind it
    // going south-west: 2 presses for Black. Black f2 is on the edge (f1 and
    // g2 are off the board) but no white marble is behind it. White e1 and
    // black f2 are edge marbles; black e2 and f2 are neighbours; white e1
    // and the lone white i9 have no white neighbour.
    let s = board("e2 f2", "e1 i9", "b 0 0");
    assert_eq!(term(&s, 0, "press"), 2.0);
    assert_eq!(term(&s, 1, "press"), -2.0);
    assert_eq!(term(&s, 0, "isolated"), 2.0);
    assert_eq!(term(&s, 0, "edge"), 1.0);
    assert_eq!(term(&s, 0, "edge_ahead"), 0.0);
    assert_eq!(term(&s, 0, "progress"), 0.0);
    assert_eq!(term(&s, 0, "stall"), 0.0);
    // No line of two: no push.
    assert_eq!(term(&s, 0, "sumito"), 0.0);

    // Sumito: Black c3 d4 (a line going north-east) cannot push the three
    // White e5 f6 g7, which push them back (3 push 2: d4 c3 to b2, an empty
    // cell): -1 for Black.
    let s = board("c3 d4", "e5 f6 g7", "b 0 0");
    assert_eq!(term(&s, 0, "sumito"), -1.0);
    // Black c3 d4 pushes e5 (f6 empty); White's e5 f5 go north-west and
    // south-east into empty cells, and a lone marble never pushes: +1.
    let s = board("c3 d4 e4", "e5 f5", "b 0 0");
    assert_eq!(term(&s, 0, "sumito"), 1.0);
    assert_eq!(term(&s, 1, "sumito"), -1.0);

    // Black ahead 3 to 1: edge_ahead is the lead (2) times the white edge
    // marbles (e1, i9); progress 9 - 1.
    let s = board("e2 f2", "e1 i9", "b 3 1");
    assert_eq!(term(&s, 0, "edge_ahead"), 4.0);
    assert_eq!(term(&s, 1, "edge_ahead"), -4.0);
    assert_eq!(term(&s, 0, "progress"), 8.0);
    assert_eq!(term(&s, 0, "material"), 2.0);
    // White ahead: Black's edge marble (f2) times White's lead of 1, for White.
    let s = board("e2 f2", "e1 i9", "b 1 2");
    assert_eq!(term(&s, 1, "edge_ahead"), 1.0);
    assert_eq!(term(&s, 0, "progress"), -3.0);
    // Marbles to win 3: every marble counts double (scaled to 6 to win).
    let rules = Rules { marbles_to_win: 3, ..Rules::default() };
    let s = parse_position("5/6/7/8/4b4/8/7/6/w4 b 2 1", rules).unwrap();
    assert_eq!(term(&s, 0, "material"), 2.0);
    assert_eq!(term(&s, 0, "progress"), 16.0 - 4.0);

    // Stall: four quiet plies since the position with Black ahead.
    let mut s = board("e5 e6", "a1 i9", "b 2 0");
    for mv in ["e5d5", "a1b2", "d5e5", "b2a1"] {
        let m = s.parse_move(mv).unwrap();
        s.apply(m);
    }
    assert_eq!(term(&s, 0, "stall"), -0.4);
    assert_eq!(term(&s, 1, "stall"), 0.4);
}

/// A fixed-depth negamax on `v2` with the game's own end: the move it plays.
fn best(s: &mut AbaloneState, depth: u32) -> String {
    fn negamax(s: &mut AbaloneState, depth: u32) -> i32 {
        let seat = match s.to_move() {
            Turn::Over => {
                let o = s.outcome().unwrap();
                // For the side that would move now.
                return if o.is_draw() {
                    0
                } else if o.is_winner(s.side()) {
                    1_000_000
                } else {
                    -1_000_000
                };
            }
            Turn::Seat(seat) => seat,
        };
        if depth == 0 {
            return s.evaluate(seat);
        }
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut best = i32::MIN + 1;
        for mv in moves {
            let u = s.apply(mv);
            best = best.max(-negamax(s, depth - 1));
            s.undo(mv, u);
        }
        best
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut best = (i32::MIN, String::new());
    for mv in moves {
        let u = s.apply(mv);
        let v = -negamax(s, depth - 1);
        s.undo(mv, u);
        if v > best.0 {
            best = (v, s.format_move(mv));
        }
    }
    best.1
}

#[test]
fn a_side_ahead_pushes_the_next_marble_out() {
    // Black 5 to 0 ahead pushes the sixth marble out (2 push 1 on a1).
    let mut s = board("c3 b2 e5 e6", "a1 g7 g8 h8", "b 5 0");
    assert_eq!(best(&mut s, 2), "c3b2");
    // Black ahead 3 to 0 takes the fourth marble (c3 b2 push a1 off) rather
    // than a quiet move that holds the centre.
    let mut s = board("c3 b2 e5 e6", "a1 e4 f4 g7", "b 3 0");
    assert_eq!(best(&mut s, 2), "c3b2");
}

/// Quiescence asks whether every legal move is noisy (a push-out); Abalone
/// answers from its marbles next to empty cells before counting moves. The
/// answer is the one counting gives, on every playout position.
#[test]
fn only_noisy_moves_agrees_with_counting_the_legal_moves() {
    let (mut moves, mut noisy) = (Vec::new(), Vec::new());
    let mut with_noisy = 0;
    for s in playout_positions(600) {
        s.legal_moves(&mut moves);
        s.noisy_moves(&mut noisy);
        let counted = !noisy.is_empty() && noisy.len() == moves.len();
        assert_eq!(s.only_noisy_moves(&noisy), counted, "{}", plateau_abalone::format_position(&s));
        if s.has_quiet_step() {
            // Then some legal move is not a push-out.
            assert!(moves.iter().any(|m| !noisy.contains(m)), "{}", plateau_abalone::format_position(&s));
        }
        with_noisy += !noisy.is_empty() as usize;
    }
    assert!(with_noisy >= 20, "only {with_noisy} positions with a push-out");
    // A side with no marble next to an empty cell: the answer comes from
    // counting (the lone black marble in the corner, walled in, cannot move).
    let walled = "5/6/7/8/9/8/7/ww4/bw3 b 0 0";
    let s = pos(walled);
    s.legal_moves(&mut moves);
    s.noisy_moves(&mut noisy);
    assert_eq!(s.only_noisy_moves(&noisy), !noisy.is_empty() && noisy.len() == moves.len(), "{walled}");
    assert!(!s.has_quiet_step(), "the walled-in marble has no quiet step");
    assert!(pos("5/6/7/8/9/8/7/ww4/bw3 w 0 0").has_quiet_step());
}
