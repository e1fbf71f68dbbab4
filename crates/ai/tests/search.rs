//! Searches find forced wins and are deterministic for a fixed budget.

use plateau_abalone::{Abalone, AbaloneState, Rules, parse_position};
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::mcts::{Mcts, MctsConfig};
use plateau_ai::{Budget, Score, Search};
use plateau_core::rand::SeedableRng;
use plateau_core::{Game, State};

fn pos(text: &str) -> AbaloneState {
    parse_position(text, Rules::default()).unwrap()
}

fn budget_depth(d: u32) -> Budget {
    Budget { depth: Some(d), ..Budget::default() }
}

/// Rows I to A: I5–I9, H4–H9, G3–G9, F2–F9, E1–E9, D1–D8, C1–C7, B1–B6, A1–A5.
/// Black has pushed out 5 marbles; e7 e8 push e9 off the board at once.
const PUSH_OUT_IN_ONE: &str = "w4/6/7/8/6bbw/8/7/6/5 b 5 0";

/// Black has pushed out 5; white's a1 is walled in by a2 b1 b2 and cannot
/// move; once a black marble stands on c1 (behind b1) or a3 (behind a2) or
/// c3 (behind b2), the push-out follows and white cannot prevent it.
const PUSH_OUT_IN_TWO: &str = "w4/6/7/8/9/b7/7/bb4/wb3 b 5 0";

#[test]
fn alpha_beta_finds_a_push_out_in_one() {
    let s = pos(PUSH_OUT_IN_ONE);
    let mut ab = AlphaBeta::<AbaloneState>::new(budget_depth(3), 16);
    let (pv, info) = ab.search(&s, &[]);
    assert_eq!(info.score, Some(Score::Win(1)), "{info:?}");
    assert_eq!(s.format_move(pv[0]), "e7e8");
}

#[test]
fn alpha_beta_finds_a_push_out_in_two() {
    let s = pos(PUSH_OUT_IN_TWO);
    let mut ab = AlphaBeta::<AbaloneState>::new(budget_depth(4), 16);
    let (pv, info) = ab.search(&s, &[]);
    assert_eq!(info.score, Some(Score::Win(3)), "{info:?}");
    // Whatever white answers, the win follows.
    let mut s = s.clone();
    s.apply(pv[0]);
    let mut replies = Vec::new();
    s.legal_moves(&mut replies);
    for r in replies {
        let mut t = s.clone();
        t.apply(r);
        let mut ab = AlphaBeta::<AbaloneState>::new(budget_depth(2), 16);
        let (_, info) = ab.search(&t, &[]);
        assert_eq!(info.score, Some(Score::Win(1)), "after {}", s.format_move(r));
    }
}

#[test]
fn searches_are_deterministic_for_a_node_or_iteration_budget() {
    let game = Abalone::with_layout("belgian-daisy", Rules::default()).unwrap();
    let s = game.start(0);
    let b = Budget { nodes: Some(20_000), ..Budget::default() };
    let (pv1, i1) = AlphaBeta::<AbaloneState>::new(b, 16).search(&s, &[]);
    let (pv2, i2) = AlphaBeta::<AbaloneState>::new(b, 16).search(&s, &[]);
    assert_eq!(pv1, pv2);
    assert_eq!(i1.nodes, i2.nodes);
    assert_eq!(i1.score, i2.score);

    let b = Budget { iterations: Some(2_000), ..Budget::default() };
    let rng = || rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (m1, j1) = Mcts::<AbaloneState>::new(b, rng(), MctsConfig::default()).search(&s, &[]);
    let (m2, j2) = Mcts::<AbaloneState>::new(b, rng(), MctsConfig::default()).search(&s, &[]);
    assert_eq!(m1, m2);
    assert_eq!(j1.nodes, j2.nodes);
}

#[test]
fn mcts_finds_the_push_out() {
    let s = pos(PUSH_OUT_IN_ONE);
    let b = Budget { iterations: Some(3_000), ..Budget::default() };
    let mut m = Mcts::<AbaloneState>::new(b, rand_chacha::ChaCha8Rng::seed_from_u64(1), MctsConfig::default());
    let (pv, _) = m.search(&s, &[]);
    assert_eq!(s.format_move(pv[0]), "e7e8");
}

#[test]
fn mcts_reports_every_seats_mean_return() {
    // Black pushes out its sixth marble in one move: most iterations end
    // in Black's win, whose returns are 1 and -1.
    let s = pos(PUSH_OUT_IN_ONE);
    let b = Budget { iterations: Some(3_000), ..Budget::default() };
    let mut m = Mcts::<AbaloneState>::new(b, rand_chacha::ChaCha8Rng::seed_from_u64(1), MctsConfig::default());
    let (_, info) = m.search(&s, &[]);
    assert_eq!(info.returns.len(), 2);
    assert!(info.returns[0] > 0.5, "{:?}", info.returns);
    // Abalone's returns and evaluations are zero-sum.
    assert!((info.returns[0] + info.returns[1]).abs() < 1e-3, "{:?}", info.returns);
    // Alpha-beta does not know them.
    let mut ab = AlphaBeta::<AbaloneState>::new(budget_depth(2), 16);
    assert!(ab.search(&s, &[]).1.returns.is_empty());
}

#[test]
fn time_limits_are_respected() {
    let game = Abalone::with_layout("belgian-daisy", Rules::default()).unwrap();
    let s = game.start(0);
    let b = Budget { time: Some(std::time::Duration::from_millis(150)), ..Budget::default() };
    let (_, info) = AlphaBeta::<AbaloneState>::new(b, 16).search(&s, &[]);
    // Depth 16 from the Belgian daisy takes far longer than anything a test
    // can wait for: that the search returned at all shows the deadline
    // stopped it. The bound below is only against a hang, generous for a
    // loaded machine and a debug build; it does not time the machine.
    assert!(info.time.as_secs() < 60, "{:?}", info.time);
    assert!(info.depth >= 1 && info.depth < 16, "{info:?}");
}
