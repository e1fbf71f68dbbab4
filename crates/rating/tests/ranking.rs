//! Two-player games and final rankings, against figures worked by hand from
//! the paper's formulas.

use plateau_rating::{
    DAYS_PER_IDLE_PERIOD, DRAW, LOSS, MAX_DEVIATION, MIN_DEVIATION, Rating, WIN, expected_score, idle_periods,
    rate_ranking, rate_two, update,
};

fn close(got: f64, want: f64, tolerance: f64) -> bool {
    (got - want).abs() <= tolerance
}

fn rated(rating: f64, deviation: f64) -> Rating {
    Rating { rating, deviation, volatility: 0.06, games: 10 }
}

/// Three new players (1500, RD 350): each meets the two others. By hand, on
/// the Glicko-2 scale: φ = 350/173.7178 = 2.01476, g(φ) = 0.66907, every
/// E = ½, so 1/v = 2·g²·¼ = 0.22383. The middle player's surprises cancel
/// (Δ = 0): its rating stays exactly 1500. σ' stays 0.06 to five decimals,
/// φ* = √(φ² + σ²) = 2.01565, φ' = 1/√(1/φ*² + 1/v) = 1.45871 (RD 253.40)
/// for all three, and the winner's μ' = φ'²·g = 1.42368, i.e. 1747.32; the
/// last's is its mirror, 1252.68.
#[test]
fn three_new_players_winner_up_last_down_middle_unchanged() {
    let after = rate_ranking(&[(Rating::NEW, 1), (Rating::NEW, 2), (Rating::NEW, 3)]);
    let [first, middle, last] = [after[0], after[1], after[2]];
    assert!(close(first.rating, 1747.32, 0.01), "{first:?}");
    assert!(close(middle.rating, 1500.0, 1e-9), "{middle:?}");
    assert!(close(last.rating, 1252.68, 0.01), "{last:?}");
    for r in &after {
        assert!(close(r.deviation, 253.40, 0.01), "{r:?}");
        assert!(close(r.volatility, 0.06, 0.000005), "{r:?}");
        assert_eq!(r.games, 1);
    }
    // Symmetry: the winner gains what the last loses.
    assert!(close(first.rating - 1500.0, 1500.0 - last.rating, 1e-9));
}

/// Four equal players (1500, RD 100), ranks 1, 2, 2, 4 (a tie for second).
/// The tied players play a draw with each other and have one win and one
/// loss besides: they stay at 1500 with equal changes; first and last are
/// mirrors; the changes sum to zero.
#[test]
fn ties_give_equal_changes_and_equal_players_sum_to_zero() {
    let p = rated(1500.0, 100.0);
    let after = rate_ranking(&[(p, 1), (p, 2), (p, 2), (p, 4)]);
    assert_eq!(after[1], after[2]);
    assert!(close(after[1].rating, 1500.0, 1e-9));
    assert!(close(after[0].rating, 1567.74, 0.01), "{:?}", after[0]);
    assert!(close(after[3].rating, 1432.26, 0.01), "{:?}", after[3]);
    let sum: f64 = after.iter().map(|r| r.rating - 1500.0).sum();
    assert!(sum.abs() < 1e-9, "{sum}");
    // A four-way tie changes no rating.
    let all_tied = rate_ranking(&[(p, 3), (p, 3), (p, 3), (p, 3)]);
    for r in all_tied {
        assert!(close(r.rating, 1500.0, 1e-9));
        assert!(r.deviation < 100.0, "a draw is information: RD shrinks");
    }
}

/// Ranks need not be consecutive, and the order of the input is the order
/// of the output: permuting the players permutes the results.
#[test]
fn ranks_are_only_compared_and_order_is_kept() {
    let (a, b, c) = (rated(1600.0, 80.0), rated(1450.0, 200.0), rated(1500.0, 60.0));
    let one = rate_ranking(&[(a, 1), (b, 2), (c, 2)]);
    let two = rate_ranking(&[(a, 0), (b, 7), (c, 7)]);
    assert_eq!(one, two);
    let permuted = rate_ranking(&[(c, 2), (a, 1), (b, 2)]);
    assert_eq!(permuted, vec![one[2], one[0], one[1]]);
}

/// With two players a ranking is a two-player game.
#[test]
fn a_two_player_ranking_is_rate_two() {
    let (a, b) = (rated(1620.0, 70.0), rated(1480.0, 150.0));
    let (wa, wb) = rate_two(a, b, WIN);
    assert_eq!(rate_ranking(&[(a, 1), (b, 2)]), vec![wa, wb]);
    let (da, db) = rate_two(a, b, DRAW);
    assert_eq!(rate_ranking(&[(a, 1), (b, 1)]), vec![da, db]);
    let (la, lb) = rate_two(a, b, LOSS);
    assert_eq!(rate_ranking(&[(a, 2), (b, 1)]), vec![la, lb]);
}

/// No game without two players.
#[test]
fn fewer_than_two_players_change_nothing() {
    assert!(rate_ranking(&[]).is_empty());
    let alone = rated(1700.0, 90.0);
    assert_eq!(rate_ranking(&[(alone, 1)]), vec![alone]);
}

/// A game between new players, by hand: φ = 2.01476, g = 0.66907, E = ½,
/// 1/v = g²/4 = 0.11191, φ* = 2.01565, φ' = 1.67124 (RD 290.32), μ' =
/// φ'²·g/2 = 0.93435 (1662.31). The loser mirrors it.
#[test]
fn first_game_between_new_players() {
    let (w, l) = rate_two(Rating::NEW, Rating::NEW, WIN);
    assert!(close(w.rating, 1662.31, 0.01), "{w:?}");
    assert!(close(l.rating, 1337.69, 0.01), "{l:?}");
    assert!(close(w.deviation, 290.32, 0.01) && close(l.deviation, 290.32, 0.01));
    assert!(w.is_provisional() && l.is_provisional());
    assert_eq!((w.games, l.games), (1, 1));
}

/// A draw between equals moves no rating and shrinks both RDs.
#[test]
fn a_draw_between_equals_moves_no_rating() {
    let p = rated(1500.0, 120.0);
    let (a, b) = rate_two(p, p, DRAW);
    assert_eq!(a, b);
    assert!(close(a.rating, 1500.0, 1e-9));
    assert!(a.deviation < 120.0);
}

/// An upset moves more than an expected result.
#[test]
fn an_upset_moves_more_than_the_expected_result() {
    let (strong, weak) = (rated(1800.0, 60.0), rated(1400.0, 60.0));
    let (s_win, _) = rate_two(strong, weak, WIN);
    let (s_loss, _) = rate_two(strong, weak, LOSS);
    assert!(s_win.rating - 1800.0 > 0.0);
    assert!(1800.0 - s_loss.rating > 4.0 * (s_win.rating - 1800.0));
}

/// The expected score is symmetric, ½ between equals, and above ½ for the
/// higher rating; more uncertainty pulls it toward ½.
#[test]
fn expected_score_is_symmetric() {
    let (a, b) = (rated(1700.0, 50.0), rated(1500.0, 50.0));
    assert!(close(expected_score(a, b) + expected_score(b, a), 1.0, 1e-12));
    assert!(close(expected_score(a, a), 0.5, 1e-12));
    assert!(expected_score(a, b) > 0.7);
    let vague = rated(1700.0, 300.0);
    assert!(expected_score(vague, b) < expected_score(a, b));
}

/// RD crosses the provisional line after about ten games (ten exactly here) against
/// established opponents of the same strength, and settles near 60.
#[test]
fn provisional_for_about_ten_games() {
    let opponent = rated(1500.0, 60.0);
    let mut p = Rating::NEW;
    let mut games_to_establish = None;
    for game in 1..=200 {
        let score = if game % 2 == 0 { WIN } else { LOSS };
        p = update(p, &[(opponent, score)]);
        if games_to_establish.is_none() && !p.is_provisional() {
            games_to_establish = Some(game);
        }
    }
    let n = games_to_establish.expect("established");
    assert!((8..=20).contains(&n), "{n} games");
    assert!(p.deviation > MIN_DEVIATION && close(p.deviation, 60.0, 5.0), "{p:?}");
}

/// Idle periods widen RD as the paper's step 6, n times, up to 350.
#[test]
fn idleness_widens_rd_up_to_the_maximum() {
    let p = rated(1650.0, 60.0);
    let step = 0.06 * 173.7178;
    let month = p.after_idle(idle_periods(30.0));
    assert!(close(month.deviation, (60.0f64.powi(2) + 6.0 * step * step).sqrt(), 1e-9));
    assert_eq!((month.rating, month.volatility, month.games), (1650.0, 0.06, 10));
    assert!(!month.is_provisional());
    // 60 → 110 takes (110² − 60²)/(0.06·173.7178)² = 78.3 periods, 392 days.
    assert!(!p.after_idle(idle_periods(390.0)).is_provisional());
    assert!(p.after_idle(idle_periods(395.0)).is_provisional());
    assert_eq!(p.after_idle(1e9).deviation, MAX_DEVIATION);
    assert_eq!(p.after_idle(0.0), p);
    assert_eq!(p.after_idle(-3.0), p);
    assert_eq!(p.after_idle(f64::NAN), p);
    assert_eq!(idle_periods(DAYS_PER_IDLE_PERIOD), 1.0);
}

/// Damaged inputs do not spread: they are read as a new player's values.
#[test]
fn damaged_inputs_are_sanitized() {
    let bad = Rating { rating: f64::NAN, deviation: -1.0, volatility: f64::INFINITY, games: 4 };
    assert_eq!(bad.sanitized(), Rating { games: 4, ..Rating::NEW });
    let (a, b) = rate_two(bad, rated(1500.0, 80.0), f64::NAN);
    for r in [a, b] {
        assert!(r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite(), "{r:?}");
    }
    assert!(close(a.rating, 1500.0, 1e-9), "NaN score reads as a draw between equal ratings");
    let (too_much, _) = rate_two(rated(1500.0, 80.0), rated(1500.0, 80.0), 7.0);
    let (win, _) = rate_two(rated(1500.0, 80.0), rated(1500.0, 80.0), WIN);
    assert_eq!(too_much, win);
}

/// The stored form is the four named fields.
#[test]
fn serde_round_trip() {
    let r = rated(1612.5, 71.25);
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#"{"rating":1612.5,"deviation":71.25,"volatility":0.06,"games":10}"#);
    assert_eq!(serde_json::from_str::<Rating>(&json).unwrap(), r);
    assert_eq!(Rating::default(), Rating::NEW);
}
