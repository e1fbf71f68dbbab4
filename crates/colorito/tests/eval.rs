//! The evaluation for computer players: antisymmetric, even at the start,
//! better for the side ahead in the race, exact in the extra move, and
//! alpha-beta finds a race won in one move.

mod common;

use common::*;
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::{Budget, Score, Search};
use plateau_colorito::{Colorito, ColoritoState, EVAL_MOVE, Side};
use plateau_core::{Evaluate, Game, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn standard() -> Colorito {
    Colorito::standard()
}

fn all_variants() -> Vec<Colorito> {
    let mut v = Vec::new();
    for just in ["false", "true"] {
        for strict in ["false", "true"] {
            for first in ["red", "blue"] {
                v.push(
                    Colorito::new("standard", &[("just-colours", just), ("strict", strict), ("first", first)]).unwrap(),
                );
            }
        }
    }
    v
}

#[test]
fn the_start_is_even_for_every_variant() {
    for g in all_variants() {
        let s = g.start(0);
        assert_eq!(s.evaluate(0), 0, "{g:?}");
        assert_eq!(s.race_estimate(Side::Red), s.race_estimate(Side::Blue));
        assert!(s.race_estimate(Side::Red) > 20 * EVAL_MOVE, "every piece needs at least one move");
    }
}

#[test]
fn antisymmetric_along_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut v = Vec::new();
    let mut checked = 0;
    for g in all_variants() {
        for _ in 0..3 {
            let mut s = g.start(0);
            while s.to_move() != Turn::Over && s.ply() < 200 {
                assert_eq!(s.evaluate(0), -s.evaluate(1), "\n{}", s.to_text());
                checked += 1;
                s.legal_moves(&mut v);
                s.apply(v[rng.random_range(0..v.len())]);
            }
        }
    }
    assert!(checked > 3000);
}

/// Red and Blue each one move from completing: R1 on j8 (jump over j9 to
/// j10), D1 on a3 (jump over a2 to a1); `blue_away` moves more Blue pieces out.
fn race_end(to_move: &str, blue_away: &[(&str, &str)]) -> ColoritoState {
    let mut moved = vec![("j8", "R1"), ("a3", "D1")];
    moved.extend_from_slice(blue_away);
    let moves = if to_move == "red" { (20, 20) } else { (21, 20) };
    place(&standard(), to_move, moves, &refs(&home_except(&moved)))
}

#[test]
fn one_move_from_home_costs_about_one_move() {
    // Both pieces are two cells from home with the jump home at hand.
    let s = race_end("red", &[]);
    let r = s.race_estimate(Side::Red);
    assert!((EVAL_MOVE..2 * EVAL_MOVE).contains(&r), "{r}");
    assert_eq!(s.race_estimate(Side::Blue), r);
    assert_eq!(s.evaluate(0), 0, "equal moves made and needed: a draw");
    assert_eq!(s.evaluate(1), 0);
    // Pieces next to their targets cost a move each: R1 on j9 steps onto
    // j10, then Y11 on j8 onto j9.
    let g = standard();
    let s = place(&g, "red", (20, 20), &refs(&home_except(&[("j9", "R1"), ("j8", "Y11")])));
    assert_eq!(s.race_estimate(Side::Red), 2 * EVAL_MOVE);
}

#[test]
fn the_extra_move_is_judged_exactly() {
    // Blue can complete with its extra move: a draw.
    let mut s = race_end("red", &[]);
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    assert_eq!(s.evaluate(1), 0);
    assert_eq!(s.evaluate(0), 0);
    // Blue cannot (two pieces away): Red has won.
    let mut s = race_end("red", &[("e5", "D2")]);
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    assert!(s.evaluate(0) >= 10 * EVAL_MOVE, "{}", s.evaluate(0));
    assert_eq!(s.evaluate(1), -s.evaluate(0));
}

#[test]
fn the_side_ahead_in_the_race_scores_better() {
    // Red needs one move; Blue has five pieces back in the middle.
    let s = race_end("blue", &[("e5", "D2"), ("i5", "D3"), ("c6", "D4"), ("g6", "D5")]);
    assert!(s.evaluate(0) >= 4 * EVAL_MOVE, "{}", s.evaluate(0));
    assert_eq!(s.evaluate(1), -s.evaluate(0));
    // A piece home improves its side's value (even though D3 on i5 loses
    // the company of D5 on g6).
    let near = race_end("blue", &[("e5", "D2"), ("i5", "D3"), ("c6", "D4")]);
    assert!(near.evaluate(1) > s.evaluate(1), "{} vs {}", near.evaluate(1), s.evaluate(1));
    // Leaving a piece behind alone costs: D2 going from e5 (next to D4 on c6)
    // to e3 leaves D4 with nobody within two cells.
    let alone = race_end("blue", &[("e3", "D2"), ("i5", "D3"), ("c6", "D4"), ("g6", "D5")]);
    assert!(alone.evaluate(1) < s.evaluate(1), "{} vs {}", alone.evaluate(1), s.evaluate(1));
    // A side that has made one move more must be further ahead to be even.
    let red_moved_more = race_end("blue", &[]);
    assert_eq!(red_moved_more.evaluate(0), -EVAL_MOVE);
}

#[test]
fn a_jump_at_hand_and_a_stranded_piece() {
    let g = standard();
    let at = |moved: &[(&str, &str)]| place(&g, "red", (20, 20), &refs(&home_except(moved))).race_estimate(Side::Red);
    // R6 (home e10) on e4, Blue's D2 and D3 on e5 and e7: R6 jumps over them
    // onto e6 and e8, two cells from home.
    let ladder = at(&[("e4", "R6"), ("e5", "D2"), ("e7", "D3")]);
    // The same pieces with D2 and D3 out of the way: R6 cannot move for now.
    let no_ladder = at(&[("e4", "R6"), ("a5", "D2"), ("a7", "D3")]);
    assert!(ladder < no_ladder, "{ladder} vs {no_ladder}");
    // On the red cell e6, nothing within two cells: R6 cannot move until
    // others come for it; it costs more than on e4, two cells further but
    // two cells from Blue's home row.
    let stranded = at(&[("e6", "R6"), ("a5", "D2"), ("a7", "D3")]);
    assert!(stranded > no_ladder, "{stranded} vs {no_ladder}");
}

#[test]
fn alpha_beta_finds_the_race_won_in_one_move() {
    // Red completes with j8-j10; Blue, two pieces away, cannot answer.
    let s = race_end("red", &[("e5", "D2")]);
    let mut ab = AlphaBeta::<ColoritoState>::new(Budget { depth: Some(3), ..Budget::default() }, 14);
    ab.use_plan = false; // the search itself (the planner plays j8-j10 too: tests/plan.rs)
    let (pv, info) = ab.search(&s, &[]);
    assert_eq!(s.format_move(pv[0]), "j8-j10");
    assert_eq!(info.score, Some(Score::Win(2)), "{info:?}");
}

#[test]
fn a_target_held_by_a_stuck_opponent_need_not_be_filled() {
    let g = standard();
    // Blue's D1 is stuck on j10, R1's target, among Red's home pieces (with
    // R1 on g8, no chain of D1 ends on a welcoming cell); Red needs only R2
    // home (i8 over i9 onto i10) to finish by the blocking rule.
    let blocked = place(&g, "red", (30, 30), &refs(&home_except(&[("g8", "R1"), ("i8", "R2"), ("j10", "D1")])));
    // The same race with D1 home and j10 free: R1 must come home too.
    let free = place(&g, "red", (30, 30), &refs(&home_except(&[("g8", "R1"), ("i8", "R2")])));
    assert!(blocked.race_estimate(Side::Red) < free.race_estimate(Side::Red));
    assert!(blocked.race_estimate(Side::Red) <= 2 * EVAL_MOVE, "{}", blocked.race_estimate(Side::Red));
    let mut ab = AlphaBeta::<ColoritoState>::new(Budget { depth: Some(2), ..Budget::default() }, 14);
    ab.use_plan = false; // the search itself
    let (pv, info) = ab.search(&blocked, &[]);
    assert_eq!(blocked.format_move(pv[0]), "i8-i10");
    // Red moved first: Blue's extra move cannot complete its set.
    assert_eq!(info.score, Some(Score::Win(2)), "{info:?}");
}

#[test]
fn a_target_held_by_an_opponent_that_can_leave_costs_one_move() {
    let g = standard();
    // Blue's D1 and D2 sit on j10 and i10, R1's and R2's targets; one of
    // them can still jump out. Red's yellow Y19 is one step from b9. With Y19 home,
    // every target Red lacks would be held by Blue: Red would win by the
    // blocking rule unless Blue leaves first.
    let far = [("g7", "R1"), ("c7", "R2"), ("b8", "Y19")];
    let movable =
        place(&g, "blue", (31, 30), &refs(&home_except(&[far[0], far[1], far[2], ("j10", "D1"), ("i10", "D2")])));
    let mut moves = Vec::new();
    movable.legal_moves(&mut moves);
    let from_home: Vec<String> = moves
        .iter()
        .map(|&m| movable.format_move(m))
        .filter(|m| m.starts_with("i10") || m.starts_with("j10"))
        .collect();
    assert!(!from_home.is_empty(), "D1 or D2 can leave Red's home");
    // The same with j10 and i10 free: R1 and R2 must come home from afar.
    let free = place(&g, "blue", (31, 30), &refs(&home_except(&far)));
    let (m, f) = (movable.race_estimate(Side::Red), free.race_estimate(Side::Red));
    // One move for Y19, one for each blocker that may leave (a blocker
    // that cannot move at all costs nothing).
    let leaving = ["i10", "j10"].iter().filter(|c| from_home.iter().any(|m| m.starts_with(**c))).count() as i32;
    assert_eq!(leaving, 1, "{from_home:?}");
    assert_eq!(m, EVAL_MOVE + leaving * EVAL_MOVE, "{m}");
    assert!(m < f, "{m} vs {f}");
}

/// Positions along deterministic games (seeded): from the start, each move
/// the best by v1's evaluation for the mover seven times in ten, otherwise a
/// random one; every fifth ply of each game is kept.
fn sample_positions(seed: u64, games: usize) -> Vec<ColoritoState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut v = Vec::new();
    let g = standard();
    for _ in 0..games {
        let mut s = g.start(0);
        while s.to_move() != Turn::Over && s.ply() < 240 {
            if s.ply().is_multiple_of(5) {
                out.push(s.clone());
            }
            s.legal_moves(&mut v);
            let mv = if rng.random_range(0..10) < 7 {
                let seat = match s.to_move() {
                    Turn::Seat(t) => t,
                    _ => 0,
                };
                *v.iter()
                    .max_by_key(|&&m| {
                        let mut n = s.clone();
                        n.apply(m);
                        n.evaluate_version(seat, 0)
                    })
                    .unwrap()
            } else {
                v[rng.random_range(0..v.len())]
            };
            s.apply(mv);
        }
    }
    out
}

/// v1 is today's evaluation: its values on the sampled positions were
/// recorded from the code before v2 was written (2026-12-01).
#[test]
fn v1_is_the_evaluation_as_it_was() {
    let ps = sample_positions(2026, 3);
    assert_eq!(ps.len(), 133);
    let vals: Vec<i32> = ps.iter().step_by(3).map(|s| s.evaluate_version(0, 0)).collect();
    let recorded = [
        0, -264, -160, -438, -669, -465, -395, 178, 389, 475, 409, 520, 720, 1403, 925, 740, 0, 7728, 1399, 409, -663,
        -1580, -1945, -1287, -74, -301, -358, -358, -394, -696, 161, -739, 0, -1218, -1341, -1857, -1912, -1250, -2092,
        -1397, -1052, -1566, -1290, -1224, -1150,
    ];
    assert_eq!(vals, recorded);
    for s in &ps {
        assert_eq!(s.evaluate_version(1, 0), -s.evaluate_version(0, 0));
    }
}

fn terms_of(s: &ColoritoState, seat: usize) -> Vec<f32> {
    let mut t = vec![0f32; ColoritoState::TERMS.len()];
    s.terms(seat, &mut t);
    t
}

#[test]
fn v2_is_the_weighted_sum_of_its_terms_and_they_are_antisymmetric() {
    let w = ColoritoState::weights();
    assert_eq!(w.len(), ColoritoState::TERMS.len());
    assert_eq!(ColoritoState::EVALS, &["v1", "v2"]);
    let mut ps = sample_positions(99, 4);
    // And random playouts of every variant.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut v = Vec::new();
    for g in all_variants() {
        let mut s = g.start(0);
        while s.to_move() != Turn::Over && s.ply() < 150 {
            ps.push(s.clone());
            s.legal_moves(&mut v);
            s.apply(v[rng.random_range(0..v.len())]);
        }
    }
    assert!(ps.len() > 1000);
    for s in &ps {
        let (t0, t1) = (terms_of(s, 0), terms_of(s, 1));
        for (a, b) in t0.iter().zip(&t1) {
            assert_eq!(*a, -*b, "\n{}", s.to_text());
        }
        let sum: f32 = t0.iter().zip(w).map(|(t, w)| t * w).sum();
        assert_eq!(s.evaluate(0), sum.round() as i32);
        assert_eq!(s.evaluate_version(0, 1), s.evaluate(0));
        assert_eq!(s.evaluate(1), -s.evaluate(0));
    }
}

#[test]
fn the_new_terms_by_hand() {
    use plateau_colorito::eval::term;
    let g = standard();
    // Red's R1 still on its start cell a1 (Blue's D1's target), king
    // distance 9 from its target j10; Blue's D1 on e5, king distance 4 from
    // a1; the other 38 pieces home. Each side has 19 of 20 home.
    let s = place(&g, "red", (40, 40), &refs(&home_except(&[("a1", "R1"), ("e5", "D1")])));
    let t = terms_of(&s, 0);
    let near = |a: f32, b: f32| (a - b).abs() < 1e-5;
    // Pieces on their start cells, weighted by the opponent's share home.
    assert!(near(t[term::START_LATE], -19.0 / 20.0), "{t:?}");
    // Pieces on the opponent's targets, likewise.
    assert!(near(t[term::IN_OPP_HOME], -19.0 / 20.0), "{t:?}");
    // Distance beyond four (9 - 4 = 5 for R1, 0 for D1), weighted by one's
    // own share home.
    assert!(near(t[term::STRAGGLERS], -5.0 * 19.0 / 20.0), "{t:?}");
    // R1's start cell a1 is a corner of the board: one piece, unweighted.
    assert_eq!(t[term::CORNER_START], -1.0);
    assert_eq!(t[term::TEMPO], 0.0);
    // Blue's D1 on its start cell j10 (a corner) and Red's R2 on its start
    // cell b1 (not a corner); R1 on c3 and D2 on e5 away; 18 home each. The
    // start cells' term weighs both pieces alike (0.9 − 0.9), the corner
    // term counts only D1's.
    let s = place(&g, "red", (40, 40), &refs(&home_except(&[("c3", "R1"), ("b1", "R2"), ("j10", "D1"), ("e5", "D2")])));
    let t = terms_of(&s, 0);
    assert_eq!(t[term::CORNER_START], 1.0);
    assert!(near(t[term::START_LATE], 0.0), "{t:?}");
    assert_eq!(terms_of(&s, 1)[term::CORNER_START], -1.0);
    // Red has made one move more: tempo -1.
    let s = place(&g, "blue", (41, 40), &refs(&home_except(&[("a1", "R1"), ("e5", "D1")])));
    assert_eq!(terms_of(&s, 0)[term::TEMPO], -1.0);
    // The extra move: only the decided term, ±30 moves (Blue, two pieces
    // away, cannot complete after Red completes).
    let mut s = race_end("red", &[("e5", "D2")]);
    play(&mut s, "j8-j10");
    let t = terms_of(&s, 0);
    assert_eq!(t[term::DECIDED], 30.0);
    assert!(t.iter().enumerate().all(|(i, x)| i == term::DECIDED || *x == 0.0));
}

/// Alpha-beta's cache of evaluations (under `Evaluate::eval_key`) changes
/// nothing but the time: on positions along sampled games, the same line,
/// score and node count with it as without.
#[test]
fn the_search_with_the_evaluation_cache_is_the_search_without() {
    let ps = sample_positions(11, 2);
    let mut searched = 0;
    for s in ps.iter().step_by(4) {
        if s.to_move() == Turn::Over {
            continue;
        }
        let run = |cache: bool| {
            let mut ab = AlphaBeta::<ColoritoState>::new(Budget { depth: Some(3), ..Budget::default() }, 16);
            ab.use_plan = false;
            ab.use_eval_cache = cache;
            let (pv, info) = ab.search(s, &[]);
            (pv, info.score, info.nodes)
        };
        assert_eq!(run(true), run(false), "{s:?}");
        searched += 1;
    }
    assert!(searched >= 10, "{searched} positions searched");
}

/// The cache's key is the position's key with each side's count of moves
/// mixed in (v2's tempo term reads them): a piece that goes out and back
/// gives the same position and key, not the same evaluation key.
#[test]
fn the_evaluation_key_tells_apart_the_same_position_after_more_moves() {
    let s = standard().start(0);
    let mut t = s.clone();
    for mv in ["a1-c3", "a10-c8", "c3-a1", "c8-a10"] {
        let m = t.parse_move(mv).unwrap();
        t.apply(m);
    }
    assert_eq!(t.key(), s.key(), "the same position");
    assert!(s.eval_key().is_some());
    assert_ne!(t.eval_key(), s.eval_key());
    assert_eq!(t.eval_key(), t.clone().eval_key());
}
