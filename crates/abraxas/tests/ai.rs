//! The computer players on Abraxas: alpha-beta finds the last stone, plays
//! through removals and interludes (decisions of a turn made by both
//! players), and every player returns legal moves.

use plateau_abraxas::{Abraxas, AbraxasState, Move, Phase, Sheet};
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::greedy::Greedy;
use plateau_ai::mcts::{Mcts, MctsConfig};
use plateau_ai::{Budget, Score, Search};
use plateau_core::rand::SeedableRng;
use plateau_core::{Evaluate, Game, State, Turn};
use rand_chacha::ChaCha8Rng;

fn game() -> Abraxas {
    Abraxas::new(Sheet::level(1).unwrap())
}

/// A position with these headers and rank 1 as given (ranks 2 to 9 empty,
/// no dots but those of rank 1).
fn rank1(headers: &str, rank1: &str) -> AbraxasState {
    let mut t = headers.to_string();
    for _ in 0..8 {
        t.push_str(".........\n");
    }
    t.push_str(rank1);
    t.push('\n');
    game().position(&t).unwrap_or_else(|e| panic!("{e}\n{t}"))
}

fn play(s: &mut AbraxasState, text: &str) {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn depth(d: u32) -> Budget {
    Budget { depth: Some(d), ..Budget::default() }
}

fn search(s: &AbraxasState, d: u32) -> (Vec<String>, Option<Score>) {
    let mut ab = AlphaBeta::<AbraxasState>::new(depth(d), 16);
    let (pv, info) = ab.search(s, &[]);
    let mut t = s.clone();
    let mut texts = Vec::new();
    for mv in pv {
        texts.push(t.format_move(mv));
        t.apply(mv);
    }
    (texts, info.score)
}

/// Player 1 holds 10 stones; a1 b1 c1 are stones: d1 makes a row of four
/// that the push carries to b1–e1, and its removal is the 11th stone.
#[test]
fn alpha_beta_takes_the_last_stone() {
    let s = rank1("taken: 10 0\n", "rrr......");
    let (pv, score) = search(&s, 3);
    assert_eq!(score, Some(Score::Win(2)), "{pv:?}");
    assert_eq!(pv[0], "d1");
    assert!(pv[1].starts_with("x:"), "{pv:?}");
}

/// The last stone through a dot: with dots on e1 and f1, b1 c1 and a red
/// stone on d1 show c1–f1 after the push; a1 makes b1–f1 (five circles).
#[test]
fn alpha_beta_takes_the_last_stone_through_the_dots() {
    let s = rank1("taken: 10 0\n", ".rr..oo..");
    let (pv, score) = search(&s, 3);
    assert_eq!(score, Some(Score::Win(2)), "{pv:?}");
    assert!(["a1", "d1"].contains(&pv[0].as_str()), "{pv:?}");
}

/// Player 2 has no stop stone left, so nothing breaks a chain: player 1, at
/// 9, scores the row, refills the gap the removal leaves and scores again.
#[test]
fn alpha_beta_finds_a_chain_to_the_win() {
    let s = rank1("taken: 9 0\nstops: 3 0\n", "rrr......");
    let (pv, score) = search(&s, 5);
    assert_eq!(score, Some(Score::Win(4)), "{pv:?}");
    assert_eq!(pv[0], "d1");
}

/// A removal decides the game: player 1 (at 8) scores a row of five stones
/// and takes two; only a choice that leaves three of four cells of a window
/// lets the next stone make a line again (player 2 has no stop stone).
#[test]
fn alpha_beta_chooses_the_removal_that_keeps_the_chain() {
    let mut s = rank1("taken: 8 0\nstops: 3 0\n", "rrrr.....");
    play(&mut s, "e1");
    assert_eq!(s.phase(), Phase::Score);
    let (pv, score) = search(&s, 4);
    assert_eq!(score, Some(Score::Win(3)), "{pv:?}");
    // The row is b1–f1 after the push: keeping b1 c1 e1 or b1 d1 e1 or
    // c1 e1 f1 or c1 d1 f1 leaves one gap in a window of four.
    assert!(["x:b1,d1", "x:b1,e1", "x:c1,f1", "x:d1,f1"].contains(&pv[0].as_str()), "{pv:?}");
    // Every other removal leaves no line in reach.
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    for mv in moves {
        let text = s.format_move(mv);
        if ["x:b1,d1", "x:b1,e1", "x:c1,f1", "x:d1,f1"].contains(&text.as_str()) {
            continue;
        }
        let mut t = s.clone();
        t.apply(mv);
        assert!(t.line_threats().is_empty(), "{text}");
    }
}

/// In the interlude, player 2 must put a stop stone in the gap the removal
/// left, or player 1 (now at 10) refills it and wins.
#[test]
fn alpha_beta_blocks_the_chain_in_the_interlude() {
    let mut s = rank1("taken: 9 0\n", "rrr......");
    play(&mut s, "d1");
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let take = s.format_move(moves[0]);
    play(&mut s, &take);
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.taken(0), 10);
    let gap = s.line_threats();
    assert_eq!(gap.len(), 1, "one gap in the row");
    let gap = gap.iter().next().unwrap();
    let (pv, score) = search(&s, 4);
    assert_eq!(pv[0], format!("b:{gap}"), "{pv:?}");
    assert!(!matches!(score, Some(Score::Loss(_))), "{score:?}");
    // The interlude's stop stone is noisy, pass is not.
    let mut noisy = Vec::new();
    s.noisy_moves(&mut noisy);
    assert!(noisy.contains(&Move::Stop(gap)));
    assert!(!noisy.contains(&Move::Pass));
    // Passing loses at once.
    play(&mut s, "pass");
    let (_, score) = search(&s, 3);
    assert_eq!(score, Some(Score::Win(2)));
}

/// Every player returns a legal move at every step of games on every sheet,
/// removals and interludes included.
#[test]
fn players_play_legal_moves_through_whole_games() {
    for level in [1, 6] {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        let mut s = g.start(0);
        let mut ab = AlphaBeta::<AbraxasState>::new(Budget { nodes: Some(3_000), ..Budget::default() }, 14);
        let mut mcts = Mcts::<AbraxasState>::new(
            Budget { iterations: Some(200), ..Budget::default() },
            ChaCha8Rng::seed_from_u64(level as u64),
            MctsConfig::default(),
        );
        let mut greedy = Greedy::new(ChaCha8Rng::seed_from_u64(3));
        let mut history = Vec::new();
        let mut phases = [0usize; 3];
        while let Turn::Seat(seat) = s.to_move() {
            phases[s.phase() as usize] += 1;
            let (pv, _) = match (s.ply() % 3, seat) {
                (0, _) => ab.search(&s, &history),
                (1, _) => mcts.search(&s, &history),
                _ => greedy.search(&s, &history),
            };
            assert!(s.is_legal(pv[0]), "{:?}\n{s:?}", pv[0]);
            s.apply(pv[0]);
            history.push(pv[0]);
        }
        assert!(phases[1] > 0, "level {level}: removals were played");
        assert!(s.outcome().is_some());
    }
}

#[test]
fn searches_are_deterministic_for_a_node_budget() {
    let mut s = game().start(0);
    for m in ["d4", "e5", "c3", "f6"] {
        play(&mut s, m);
    }
    let b = Budget { nodes: Some(20_000), ..Budget::default() };
    let (pv1, i1) = AlphaBeta::<AbraxasState>::new(b, 16).search(&s, &[]);
    let (pv2, i2) = AlphaBeta::<AbraxasState>::new(b, 16).search(&s, &[]);
    assert_eq!(pv1, pv2);
    assert_eq!((i1.nodes, i1.score), (i2.nodes, i2.score));
}

/// A node budget bounds the whole search, quiescence included: where many
/// decisions in a row are noisy (a removal after a capture, then the
/// interlude), quiescence alone once ran for minutes on a budget of 2,000
/// nodes (found by `plateau tune` on level 3).
#[test]
fn a_node_budget_bounds_quiescence_too() {
    const BUDGET: u64 = 2_000;
    for level in [1, 3, 6] {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        for seed in 0..12u64 {
            let mut s = g.start(0);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut moves = Vec::new();
            for _ in 0..4 {
                s.legal_moves(&mut moves);
                s.apply(moves[plateau_core::rand::RngExt::random_range(&mut rng, 0..moves.len())]);
            }
            let mut ab = AlphaBeta::<AbraxasState>::new(Budget { nodes: Some(BUDGET), ..Budget::default() }, 14);
            ab.version = Some(0);
            while s.to_move() != Turn::Over && s.ply() < 200 {
                let (pv, info) = ab.search(&s, &[]);
                // The root's last move may finish one child's search after
                // the limit: a few nodes over at most, never thousands.
                assert!(
                    info.nodes <= BUDGET + 256,
                    "level {level}, seed {seed}, ply {}: {} nodes",
                    s.ply(),
                    info.nodes
                );
                s.apply(pv[0]);
            }
        }
    }
}
