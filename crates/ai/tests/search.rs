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
    // The latest version plays a win at once without searching; v1 finds
    // it by search.
    for version in [None, Some(0)] {
        let config = MctsConfig::for_version::<AbaloneState>(version);
        let mut m = Mcts::<AbaloneState>::new(b, rand_chacha::ChaCha8Rng::seed_from_u64(1), config);
        let (pv, info) = m.search(&s, &[]);
        assert_eq!(s.format_move(pv[0]), "e7e8", "{version:?}");
        assert_eq!(info.nodes == 0, version.is_none(), "{version:?}: {info:?}");
    }
}

#[test]
fn mcts_reports_every_seats_mean_return() {
    // Black pushes out its sixth marble in one move: most iterations end
    // in Black's win, whose returns are 1 and -1.
    let s = pos(PUSH_OUT_IN_ONE);
    let b = Budget { iterations: Some(3_000), ..Budget::default() };
    let mut m = Mcts::<AbaloneState>::new(
        b,
        rand_chacha::ChaCha8Rng::seed_from_u64(1),
        MctsConfig::for_version::<AbaloneState>(Some(0)),
    );
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

/// A Kabaleo position after `plies` moves (the middle one of the legal moves
/// each time) and the knowledge of the seat to move.
fn kabaleo(
    variant: &str,
    seed: u64,
    plies: usize,
) -> (plateau_kabaleo::KabaleoState, plateau_kabaleo::Knowledge, usize) {
    use plateau_core::{Hidden, Options};
    let settings = plateau_kabaleo::Kabaleo::INFO.resolve(Some(variant), &Options::new()).unwrap();
    let game = plateau_kabaleo::Kabaleo::configure(&settings).unwrap();
    let mut k = game.start(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        k.legal_moves(&mut moves);
        k.apply(moves[moves.len() / 2]);
    }
    let seat = k.to_move().seat().unwrap();
    let knowledge = k.knowledge(seat);
    (k, knowledge, seat)
}

/// Information-set MCTS of version v1 (`eval=v1`) is the search of
/// 2026-11-30: the same move, value and returns for the same seed and
/// iterations as that search gave (recorded before version v2 existed).
#[test]
fn ismcts_version_1_is_the_search_of_2026_11_30() {
    use plateau_ai::HiddenSearch;
    use plateau_ai::mcts::IsMcts;
    #[allow(clippy::type_complexity)]
    let recorded: &[(&str, u64, usize, bool, &str, Option<Score>, [f32; 4])] = &[
        ("4-players", 3, 8, false, "V2", Some(Score::Value(0.63414645)), [0.15755554, 0.4171111, -0.49, -0.084666684]),
        (
            "4-players",
            3,
            8,
            true,
            "R15",
            Some(Score::Value(0.5365854)),
            [-0.09755557, 0.3291111, -0.09777779, -0.1337778],
        ),
        ("3-players", 5, 4, false, "R3", Some(Score::Value(0.48039216)), [-0.47933334, 0.28633332, 0.193, 0.0]),
        ("3-players", 5, 4, true, "O4", Some(Score::Value(0.29710144)), [-0.015666667, 0.074666664, -0.059, 0.0]),
        (
            "4-players",
            9,
            20,
            false,
            "V19",
            Some(Score::Value(0.25670508)),
            [-0.5742222, 0.7497778, -0.2886667, 0.11311109],
        ),
        (
            "4-players",
            9,
            20,
            true,
            "V6",
            Some(Score::Value(0.0701754)),
            [0.014444432, 0.042666655, 0.028666656, -0.0857778],
        ),
    ];
    for &(variant, seed, plies, uniform, want, score, returns) in recorded {
        let (k, knowledge, seat) = kabaleo(variant, seed, plies);
        let mut m = IsMcts::<plateau_kabaleo::KabaleoState>::new(
            Budget { iterations: Some(1_500), ..Budget::default() },
            rand_chacha::ChaCha8Rng::seed_from_u64(4),
            MctsConfig { version: Some(0), ..MctsConfig::for_game::<plateau_kabaleo::KabaleoState>() },
        );
        m.use_beliefs = !uniform;
        let (mv, info) = m.search(&knowledge, seat);
        assert_eq!(k.format_move(mv), want, "{variant} seed {seed}");
        assert_eq!(info.score, score, "{variant} seed {seed}");
        assert_eq!(info.returns, returns[..info.returns.len()], "{variant} seed {seed}");
    }
}

/// The latest information-set MCTS is deterministic for a seed and a number
/// of iterations, and only ever plays legal moves.
#[test]
fn latest_ismcts_is_deterministic_for_an_iteration_budget() {
    use plateau_ai::HiddenSearch;
    use plateau_ai::mcts::IsMcts;
    let (k, knowledge, seat) = kabaleo("4-players", 3, 8);
    let run = || {
        IsMcts::<plateau_kabaleo::KabaleoState>::new(
            Budget { iterations: Some(1_000), ..Budget::default() },
            rand_chacha::ChaCha8Rng::seed_from_u64(9),
            MctsConfig::for_game::<plateau_kabaleo::KabaleoState>(),
        )
        .search(&knowledge, seat)
    };
    let (m1, i1) = run();
    let (m2, i2) = run();
    assert_eq!(m1, m2);
    assert_eq!(i1.nodes, 1_000);
    assert_eq!(i1.returns, i2.returns);
    assert!(k.is_legal(m1));
}

/// The mixed belief is the model's belief when the model is certain
/// (`model_prior` 1), uniform over the candidates when it is discarded (0),
/// and in between otherwise.
#[test]
fn mixed_beliefs_lie_between_the_model_and_chance() {
    use plateau_ai::belief::{RATIONALITY, infer, infer_mixed};
    use plateau_core::Secrets;
    type K = plateau_kabaleo::KabaleoState;
    for (variant, seed, plies) in [("4-players", 3u64, 12usize), ("3-players", 5, 9), ("4-players", 9, 20)] {
        let (_, knowledge, me) = kabaleo(variant, seed, plies);
        let model = infer::<K>(&knowledge, me, RATIONALITY);
        let certain = infer_mixed::<K>(&knowledge, me, RATIONALITY, 1.0);
        let chance = infer_mixed::<K>(&knowledge, me, RATIONALITY, 0.0);
        let half = infer_mixed::<K>(&knowledge, me, RATIONALITY, 0.5);
        for seat in 0..model.seats() {
            let cands = K::candidates(&knowledge, seat);
            let n = cands.count_ones() as f64;
            for v in 0..K::VALUES {
                let m = model.weights[seat][v];
                assert!((certain.weights[seat][v] - m).abs() < 1e-9, "{variant}: seat {seat} value {v}");
                let uniform = if cands >> v & 1 == 1 { 1.0 / n } else { 0.0 };
                assert!((chance.weights[seat][v] - uniform).abs() < 1e-9, "{variant}: seat {seat} value {v}");
                let h = half.weights[seat][v];
                assert!(
                    h >= m.min(uniform) - 1e-9 && h <= m.max(uniform) + 1e-9,
                    "{variant}: {h} not between {m} and {uniform}"
                );
            }
        }
    }
}

/// Each seat's fit to the model ([`plateau_ai::belief::infer_fitted`]),
/// computed here from its definition: replay the seat's moves, for each
/// candidate objective the model's probability of the move (softmax of the
/// opponent-model evaluation at `RATIONALITY`, a tenth spread uniformly)
/// against chance (one over the number of legal moves), the product over the
/// moves, the mean over the candidates: `R`; the fit is `p·R / (p·R + 1 − p)`.
/// The searching seat keeps the prior; the belief is `infer_mixed`'s.
#[test]
fn a_seats_fit_to_the_model_is_its_posterior_against_chance() {
    use plateau_ai::belief::{RATIONALITY, infer_fitted, infer_mixed};
    use plateau_core::Secrets;
    type K = plateau_kabaleo::KabaleoState;
    for (variant, seed, plies, prior) in [
        ("4-players", 3u64, 12usize, 0.9),
        ("3-players", 5, 9, 0.5),
        ("4-players", 9, 20, 0.9),
        ("4-players", 4, 0, 0.7),
    ] {
        let (_, knowledge, me) = kabaleo(variant, seed, plies);
        let (belief, fit) = infer_fitted::<K>(&knowledge, me, RATIONALITY, prior);
        assert_eq!(belief, infer_mixed::<K>(&knowledge, me, RATIONALITY, prior));
        let seats = belief.seats();
        let mut ratio = [[1f64; 8]; 4];
        let mut s = K::initial(&knowledge);
        let mut moves = Vec::new();
        for (seat, mv) in <K as Secrets>::history(&knowledge) {
            s.legal_moves(&mut moves);
            if seat != me && moves.len() > 1 {
                for (v, r) in ratio[seat].iter_mut().enumerate().take(K::VALUES) {
                    let q: Vec<f64> = moves
                        .iter()
                        .map(|&m| {
                            let mut t = s.clone();
                            t.apply(m);
                            t.evaluate_as(seat, v) as f64
                        })
                        .collect();
                    let z: f64 = q.iter().map(|x| (RATIONALITY * x).exp()).sum();
                    let chosen = q[moves.iter().position(|&m| m == mv).unwrap()];
                    let p = 0.9 * (RATIONALITY * chosen).exp() / z + 0.1 / moves.len() as f64;
                    *r *= p * moves.len() as f64;
                }
            }
            s.apply(mv);
        }
        for seat in 0..seats {
            let cands = K::candidates(&knowledge, seat);
            let want = if seat == me || cands.count_ones() < 2 {
                prior
            } else {
                let vals: Vec<usize> = (0..K::VALUES).filter(|v| cands >> v & 1 == 1).collect();
                let r = vals.iter().map(|&v| ratio[seat][v]).sum::<f64>() / vals.len() as f64;
                prior * r / (prior * r + 1.0 - prior)
            };
            assert!(
                (fit[seat] - want).abs() < 1e-9,
                "{variant} seed {seed}: seat {seat}: {} against {want}",
                fit[seat]
            );
        }
    }
}

/// A greedy player (the best move by the opponent-model evaluation for its
/// own objective) fits the model nearly surely after a few moves, and
/// better than a random one (whose few moves may still fit some objective).
#[test]
fn greedy_players_fit_the_model_random_ones_do_not() {
    use plateau_ai::belief::{MODEL_PRIOR, RATIONALITY, infer_fitted};
    use plateau_core::{Hidden, Options, Secrets};
    type K = plateau_kabaleo::KabaleoState;
    let settings = plateau_kabaleo::Kabaleo::INFO.resolve(Some("4-players"), &Options::new()).unwrap();
    let game = plateau_kabaleo::Kabaleo::configure(&settings).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut greedy, mut random) = (0.0, 0.0);
    let games = 6;
    for seed in 0..games {
        let mut k = game.start(seed);
        let mut moves = Vec::new();
        // Seat 1 plays greedily, seat 2 at random, the others take the middle move.
        for _ in 0..24 {
            let seat = k.to_move().seat().unwrap();
            k.legal_moves(&mut moves);
            let mv = match seat {
                1 => *moves
                    .iter()
                    .max_by_key(|&&m| {
                        let mut t = k.clone();
                        t.apply(m);
                        t.evaluate_as(1, k.secret(1))
                    })
                    .unwrap(),
                2 => moves[plateau_core::rand::RngExt::random_range(&mut rng, 0..moves.len())],
                _ => moves[moves.len() / 2],
            };
            k.apply(mv);
        }
        let (_, fit) = infer_fitted::<K>(&k.knowledge(0), 0, RATIONALITY, MODEL_PRIOR);
        greedy += fit[1];
        random += fit[2];
    }
    let (greedy, random) = (greedy / games as f64, random / games as f64);
    assert!(greedy > 0.95, "greedy: {greedy}");
    assert!(random < greedy - 0.1, "random: {random}, greedy: {greedy}");
}
