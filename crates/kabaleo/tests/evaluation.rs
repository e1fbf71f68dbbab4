//! The computer players' evaluation of Kabaleo: version v1 is the one of
//! 2026-11-30, the latest is a weighted sum of terms (`weights.json`).

use plateau_core::{Evaluate, Game, State};
use plateau_kabaleo::{Colour, Deal, Kabaleo, KabaleoState, Position};

/// A position after `plies` moves chosen by a fixed rule from a seeded set-up.
fn position(players: usize, seed: u64, plies: usize) -> KabaleoState {
    let game = Kabaleo::new(players, Deal::Random, None, false).unwrap();
    let mut s = game.start(seed);
    let mut moves = Vec::new();
    for i in 0..plies {
        if s.outcome().is_some() {
            break;
        }
        s.legal_moves(&mut moves);
        s.apply(moves[(i * 7 + seed as usize * 13) % moves.len()]);
    }
    s
}

/// (players, seed, plies, every seat's evaluation), computed by the
/// evaluation of 2026-11-30 before version v2 existed.
const V1: &[(usize, u64, usize, &[i32])] = &[
    (2, 0, 0, &[0, 0]),
    (2, 0, 5, &[110, -110]),
    (2, 0, 12, &[-120, 120]),
    (2, 0, 20, &[-330, 330]),
    (2, 1, 0, &[0, 0]),
    (2, 1, 5, &[320, -320]),
    (2, 1, 12, &[310, -310]),
    (2, 1, 20, &[320, -320]),
    (2, 2, 0, &[0, 0]),
    (2, 2, 5, &[0, 0]),
    (2, 2, 12, &[630, -630]),
    (2, 2, 20, &[310, -310]),
    (3, 0, 0, &[0, 0, 0]),
    (3, 0, 5, &[-220, 210, -210]),
    (3, 0, 12, &[-230, -230, 230]),
    (3, 0, 20, &[-10, -220, 10]),
    (3, 1, 0, &[0, 0, 0]),
    (3, 1, 5, &[-320, 0, 0]),
    (3, 1, 12, &[-410, -90, 90]),
    (3, 1, 20, &[-110, 110, -110]),
    (3, 2, 0, &[0, 0, 0]),
    (3, 2, 5, &[-320, -10, 10]),
    (3, 2, 12, &[-100, 100, -110]),
    (3, 2, 20, &[-310, -200, 200]),
    (4, 0, 0, &[0, 0, 0, 0]),
    (4, 0, 5, &[-220, -10, 10, -220]),
    (4, 0, 12, &[100, -420, -100, -110]),
    (4, 0, 20, &[100, -200, -100, -210]),
    (4, 1, 0, &[0, 0, 0, 0]),
    (4, 1, 5, &[220, -220, -530, -430]),
    (4, 1, 12, &[-310, 100, -200, -100]),
    (4, 1, 20, &[-10, -20, 10, -330]),
    (4, 2, 0, &[0, 0, 0, 0]),
    (4, 2, 5, &[-100, -10, -110, 10]),
    (4, 2, 12, &[-420, 320, -320, -520]),
    (4, 2, 20, &[-200, 200, -420, -310]),
];

#[test]
fn version_1_is_the_evaluation_of_2026_11_30() {
    assert_eq!(KabaleoState::EVALS, &["v1", "v2"]);
    for &(players, seed, plies, want) in V1 {
        let s = position(players, seed, plies);
        let got: Vec<i32> = (0..players).map(|t| s.evaluate_version(t, 0)).collect();
        assert_eq!(got, want, "{players} players, seed {seed}, {plies} plies");
    }
}

#[test]
fn the_latest_evaluation_is_the_weighted_sum_of_its_terms() {
    let w = KabaleoState::weights();
    assert_eq!(w.len(), KabaleoState::TERMS.len());
    let mut t = vec![0f32; KabaleoState::TERMS.len()];
    let mut checked = 0;
    for players in 2..=4 {
        for seed in 0..20u64 {
            for plies in (0..36).step_by(3) {
                let s = position(players, seed, plies);
                if s.outcome().is_some() {
                    continue;
                }
                for seat in 0..players {
                    s.terms(seat, &mut t);
                    let sum: f32 = t.iter().zip(w).map(|(t, w)| t * w).sum();
                    assert_eq!(s.evaluate(seat), sum.round() as i32, "{players} players, seed {seed}, {plies} plies");
                    assert_eq!(s.evaluate_version(seat, 1), s.evaluate(seat));
                    assert!(t.iter().all(|x| x.abs() <= 100.0), "{t:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn two_seat_terms_are_antisymmetric() {
    let mut a = vec![0f32; KabaleoState::TERMS.len()];
    let mut b = a.clone();
    for seed in 0..20u64 {
        for plies in (0..24).step_by(2) {
            let s = position(2, seed, plies);
            s.terms(0, &mut a);
            s.terms(1, &mut b);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(*x, -*y, "seed {seed}, {plies} plies");
            }
        }
    }
}

/// Three players (red, orange, yellow), five colours, bases 1–4 red, 5–8
/// orange, 9–12 yellow, 13–16 green, 17–20 blue. By hand:
/// - red shows on 3, 4 (bare), 5, 9, 13 (covered): 5 locations, 3 covered;
/// - orange on 6, 7, 8 (bare), 1, 17 (covered): 5 locations, 2 covered;
/// - yellow on 10, 11, 12 (bare), 2 (covered): 4 locations, 1 covered;
/// - worth (100·locations + 10·covered): red 530, orange 520, yellow 410.
fn hand_made() -> KabaleoState {
    use Colour::*;
    let bases = [Red, Orange, Yellow, Green, Blue].iter().flat_map(|&c| [c; 4]).collect();
    let mut piles = vec![Vec::new(); 20];
    piles[0] = vec![Orange];
    piles[1] = vec![Yellow];
    piles[4] = vec![Red];
    piles[8] = vec![Red];
    piles[12] = vec![Red];
    piles[16] = vec![Red, Orange];
    let p = Position {
        golden_rule: false,
        bases,
        piles,
        // R O Y G B V
        stocks: vec![[1, 0, 2, 1, 1, 0], [0, 2, 1, 1, 1, 0], [1, 1, 1, 2, 1, 0]],
        objectives: vec![Red, Orange, Yellow],
        to_move: 0,
        last_location: None,
    };
    KabaleoState::from_position(&p).unwrap()
}

#[test]
fn each_term_on_a_hand_made_position() {
    let s = hand_made();
    assert_eq!(KabaleoState::TERMS, &["locations", "covered", "locations_vs_field", "own_stock"]);
    let mut t = [0f32; 4];
    // Red: the rival is orange (520). Locations 5 − 5, covered 3 − 2, field
    // 5 − (5 + 4)/2, own stock 1 red − 2 orange in orange's stock.
    s.terms(0, &mut t);
    assert_eq!(t, [0.0, 1.0, 0.5, -1.0]);
    // Orange: the rival is red (530). 5 − 5, 2 − 3, 5 − (5 + 4)/2, 2 − 1.
    s.terms(1, &mut t);
    assert_eq!(t, [0.0, -1.0, 0.5, 1.0]);
    // Yellow: the rival is red. 4 − 5, 1 − 3, 4 − (5 + 5)/2, 1 − 1.
    s.terms(2, &mut t);
    assert_eq!(t, [-1.0, -2.0, -1.0, 0.0]);
    // v1: worth minus the best other worth.
    assert_eq!(s.evaluate_version(0, 0), 530 - 520);
    assert_eq!(s.evaluate_version(1, 0), 520 - 530);
    assert_eq!(s.evaluate_version(2, 0), 410 - 530);
}
