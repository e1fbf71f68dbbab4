//! The two-piece planner ([`pair_plan`]): the last pieces of a race brought
//! home by a helper when the IDA* planner has nothing in reach, checked
//! against a naive breadth-first search over positions built from text with
//! the naive move generator of `common`.

mod common;

use std::collections::{BTreeMap, VecDeque};

use common::*;
use plateau_colorito::{Board, Cell, Colorito, ColoritoState, Piece, Side, pair_plan, plan};
use plateau_core::{Evaluate, State};

/// The fewest moves for Red's pieces `a` and `b` to be both home when only
/// they move, every other piece standing still and only Red's pieces jumped
/// over (the planner never counts on an opponent piece), by a naive
/// breadth-first search: every position is built from its text and its
/// moves enumerated path by path.
fn naive_pair(g: &Colorito, pieces: &[(String, String)], a: &str, b: &str) -> Option<usize> {
    let board = Board::standard();
    let target = |p: &str| board.target(Piece::parse(p).unwrap());
    let cell_of = |p: &str| Cell::parse(&pieces.iter().find(|(_, q)| q == p).unwrap().0).unwrap();
    let others: Vec<(String, String)> = pieces.iter().filter(|(_, q)| q != a && q != b).cloned().collect();
    let start = (cell_of(a), cell_of(b));
    let goal = (target(a), target(b));
    let mut dist = BTreeMap::from([(start, 0usize)]);
    let mut queue = VecDeque::from([start]);
    while let Some((ca, cb)) = queue.pop_front() {
        let d = dist[&(ca, cb)];
        let mut list = others.clone();
        list.push((ca.to_string(), a.to_string()));
        list.push((cb.to_string(), b.to_string()));
        let s = place(g, "red", (30, 30), &refs(&list));
        let red = |c: Cell| s.piece_at(c).is_some_and(|p| p.side() == Side::Red);
        for (moving, from) in [(0, ca), (1, cb)] {
            for to in naive_targets_over(g, &s, false, false, from, &red) {
                let next = if moving == 0 { (to, cb) } else { (ca, to) };
                if dist.contains_key(&next) {
                    continue;
                }
                if next == goal {
                    return Some(d + 1);
                }
                dist.insert(next, d + 1);
                queue.push_back(next);
            }
        }
    }
    None
}

/// Follows the planner move by move: each plan must be shorter than the one
/// before (no back and forth), and the moves played must bring every Red
/// piece home within the first plan's length.
fn follow(mut s: ColoritoState) {
    let (_, n) = pair_plan(&s, Side::Red, None).expect("a plan");
    let mut last = n + 1;
    let mut played = 0;
    while s.home_count(Side::Red) < 20 {
        let (mv, m) =
            pair_plan(&s, Side::Red, None).unwrap_or_else(|| panic!("no plan after {played} moves\n{}", s.to_text()));
        assert!(m < last, "{m} after {last}\n{}", s.to_text());
        assert!(s.is_legal(mv));
        s = red_moves_again(&s, mv);
        last = m;
        played += 1;
    }
    assert!(played <= n, "{played} moves for a plan of {n}");
}

/// Blue's L20 one cell from its target, so that Blue has not finished.
const BLUE_AWAY: (&str, &str) = ("j3", "L20");

/// The recorded position where only Y19 is away, deep in Blue's home.
fn deep() -> ColoritoState {
    Colorito::standard().position(include_str!("data/race-end-deep.txt")).unwrap()
}

#[test]
fn a_lone_piece_is_brought_home_by_a_helper() {
    let g = Colorito::standard();
    // R6 alone on e6 (target e10), nothing within two cells: it cannot move
    // until a home piece comes out to be jumped over, and that piece must go
    // back. Every other Red piece is home.
    let pieces = home_except(&[("e6", "R6"), BLUE_AWAY]);
    let s = place(&g, "red", (30, 30), &refs(&pieces));
    assert!(moves(&s).iter().all(|m| !m.starts_with("e6")), "R6 cannot move");
    let (mv, n) = pair_plan(&s, Side::Red, None).expect("a plan");
    assert!(s.is_legal(mv));
    // No longer than the best helper alone by the naive search over every
    // Red piece as the helper (7 moves), and no shorter than the shortest
    // plan of all, moving any pieces (IDA* with a large budget: 5).
    let helpers: Vec<String> =
        (0..20).map(|id| Piece::from_id(id).unwrap().to_string()).filter(|p| p != "R6").collect();
    let best_pair = helpers.iter().filter_map(|h| naive_pair(&g, &pieces, "R6", h)).min().expect("some helper");
    assert_eq!(best_pair, 7);
    let (_, shortest) = plan(&s, Side::Red, 5_000_000).expect("a plan");
    assert_eq!(shortest, 5);
    assert!((shortest..=best_pair as u32).contains(&n), "{n}");
    follow(s);
}

#[test]
fn a_piece_on_anothers_target_and_a_lone_piece_come_home() {
    let g = Colorito::standard();
    // Y11 stands on i9, Y12's target, next to its own (j9); Y12 is alone on
    // b6, where no single helper can bring it home (the naive search says
    // so for every Red piece): it takes two.
    let pieces = home_except(&[("i9", "Y11"), ("b6", "Y12"), BLUE_AWAY]);
    let home_y11: Vec<(String, String)> = pieces
        .iter()
        .map(|(c, p)| if p == "Y11" { ("j9".to_string(), p.clone()) } else { (c.clone(), p.clone()) })
        .collect();
    for id in 0..20 {
        let h = Piece::from_id(id).unwrap().to_string();
        if h != "Y12" {
            assert_eq!(naive_pair(&g, &home_y11, "Y12", &h), None, "{h}");
        }
    }
    let s = place(&g, "red", (30, 30), &refs(&pieces));
    let (mv, _) = pair_plan(&s, Side::Red, None).expect("a plan");
    assert!(s.is_legal(mv));
    follow(s);
}

#[test]
fn the_recorded_piece_deep_in_the_opponents_home_comes_home() {
    let s = deep();
    assert_eq!(20 - s.home_count(Side::Red), 1);
    // Beyond the IDA* planner's budget.
    assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Red, 60_000), None);
    let (mv, n) = pair_plan(&s, Side::Red, None).expect("a plan");
    assert!(n > 10, "{n}");
    // Alpha-beta's planner (v2) plays it; v1 has no such planner.
    assert_eq!(s.planned_move(None), Some((mv, n)));
    assert_eq!(s.planned_move_version(None, 0), None);
    follow(s);
}

#[test]
fn no_pair_plan_with_more_than_six_away_or_none_away() {
    let g = Colorito::standard();
    let seven = home_except(&[
        ("e6", "R6"),
        ("a4", "R7"),
        ("c4", "R8"),
        ("g4", "R9"),
        ("i4", "R10"),
        ("a6", "R5"),
        ("c6", "R4"),
        BLUE_AWAY,
    ]);
    let s = place(&g, "red", (30, 30), &refs(&seven));
    assert_eq!(pair_plan(&s, Side::Red, None), None);
    let none = home_except(&[BLUE_AWAY]);
    let s = place(&g, "red", (30, 30), &refs(&none));
    assert_eq!(pair_plan(&s, Side::Red, None), None);
}

#[test]
fn the_plan_does_not_jump_over_a_racing_opponent_piece() {
    let g = Colorito::standard();
    // R6 on e6 with Blue's L15 racing on e7 right above it (e8, red, is one
    // jump away): the planner does not count on L15 staying.
    let pieces = home_except(&[("e6", "R6"), ("e7", "L15")]);
    let s = place(&g, "red", (30, 30), &refs(&pieces));
    assert!(moves(&s).contains(&"e6-e8".to_string()), "the jump is legal");
    let (mv, n) = pair_plan(&s, Side::Red, None).expect("a plan");
    assert_ne!(mv.to_string(), "e6-e8");
    assert!(n >= 5, "{n}");
}

#[test]
fn a_piece_kept_out_by_the_opponent_is_excused() {
    let g = Colorito::standard();
    // Blue's D1 holds j10, R1's target (its number welcomes D1); R1 waits on
    // a4, on none of Red's targets. R6 is alone on e6. Once R6 is home, every
    // Red target not held by its piece is held by Blue: Red has finished by
    // the blocking rule, without R1 moving.
    let pieces = home_except(&[("e6", "R6"), ("a4", "R1"), ("j10", "D1")]);
    let mut s = place(&g, "red", (30, 30), &refs(&pieces));
    let (_, n) = pair_plan(&s, Side::Red, None).expect("a plan");
    for _ in 0..n {
        let (mv, _) = pair_plan(&s, Side::Red, None).expect("a plan");
        assert_ne!(mv.to_string().get(..2), Some("a4"), "R1 never moves");
        s = red_moves_again(&s, mv);
        if s.in_extra_move() {
            break;
        }
    }
    assert!(s.in_extra_move(), "Red finished by the blocking rule\n{}", s.to_text());
    assert_eq!(s.home_count(Side::Red), 19);
    // R1 on another Red target (i10, R2's, with R2 on e6 instead): no plan,
    // R1 must leave it first.
    let pieces = home_except(&[("e6", "R2"), ("i10", "R1"), ("j10", "D1")]);
    let s = place(&g, "red", (30, 30), &refs(&pieces));
    assert_eq!(pair_plan(&s, Side::Red, None), None);
}
