//! What alpha-beta's latest version adds to the search of issue 20: it
//! remembers the game's positions and counts one that comes back as a draw,
//! so that a side ahead never walks back into a position already played;
//! and, with a generator, it varies its first moves among near-equal ones.

use plateau_abalone::{Abalone, AbaloneState, Rules, parse_position};
use plateau_ai::alphabeta::{AlphaBeta, VARIETY_MARGIN};
use plateau_ai::{Budget, Score, Search};
use plateau_core::rand::SeedableRng;
use plateau_core::{Game, State, Turn};

fn depth(d: u32) -> Budget {
    Budget { depth: Some(d), ..Budget::default() }
}

/// A Belgian-daisy middlegame (the AWC 2015 final after 20 plies), Black
/// to move.
const MIDDLEGAME: &str = "2b2/2b1bb/3w3/3wwbbb/3w1w3/3wbww1/2bwb2/b1wbbb/2w1w b 2 0";

/// Black has pushed out five marbles; White's seven stand as a hexagon
/// around e5, where every line through them is three long: no push can
/// ever reach them, and no side can make progress. Searches that do not
/// know the game shuffle back and forth.
const LOCKED: &str = "b1b1b/6/7/3ww3/3www3/3ww3/b6/6/b1b1b b 5 0";

/// Self-play between two latest searchers at depth 3 from `start`, with
/// the game's history handed to each search as players get it. Returns,
/// for every move, whether the position after it had occurred before in
/// the game (the test's own list, not the searcher's memory) and the score
/// the searcher gave it.
fn self_play(start: &AbaloneState, plies: usize, version: Option<usize>) -> Vec<(bool, Option<Score>)> {
    let mut players = [AlphaBeta::<AbaloneState>::new(depth(3), 16), AlphaBeta::<AbaloneState>::new(depth(3), 16)];
    for p in players.iter_mut() {
        p.version = version;
    }
    let mut s = start.clone();
    let mut seen = vec![s.key()];
    let mut history = Vec::new();
    let mut out = Vec::new();
    while out.len() < plies {
        let Turn::Seat(seat) = s.to_move() else { break };
        let (pv, info) = players[seat].search(&s, &history);
        s.apply(pv[0]);
        history.push(pv[0]);
        out.push((seen.contains(&s.key()), info.score));
        seen.push(s.key());
    }
    out
}

#[test]
fn the_latest_search_never_walks_back_into_a_played_position_when_it_judges_itself_ahead() {
    for text in [MIDDLEGAME, LOCKED] {
        let start = parse_position(text, Rules { repetition_draw: false, ..Rules::default() }).unwrap();
        check_no_repetition_when_ahead(&start);
    }
}

fn check_no_repetition_when_ahead(start: &AbaloneState) {
    let moves = self_play(start, 80, None);
    let repeats: Vec<_> = moves.iter().filter(|(again, _)| *again).collect();
    for (_, score) in &repeats {
        match score {
            Some(Score::Eval(v)) => assert!(*v <= 0, "a repetition chosen at {v:+}: {moves:?}"),
            Some(Score::Loss(_)) | None => {}
            other => panic!("a repetition chosen while {other:?}"),
        }
    }
}

#[test]
fn opening_variety_chooses_among_near_equal_moves_and_only_with_a_generator() {
    let game = Abalone::configure(&Abalone::INFO.resolve(Some("belgian-daisy"), &Default::default()).unwrap()).unwrap();
    let start = game.start(0);
    let mut chosen = std::collections::HashSet::new();
    for seed in 0..12 {
        let mut ab = AlphaBeta::<AbaloneState>::new(depth(3), 16);
        ab.variety = Some(rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let (pv, _) = ab.search(&start, &[]);
        chosen.insert(pv[0]);
    }
    assert!(chosen.len() >= 2, "twelve seeds chose {chosen:?}");
    // Each choice is within the margin of the best, by an independent
    // judgement: a fresh depth-2 search of the position after each move
    // (the opponent's best reply, negated), compared with the best of all.
    let judge = |mv| {
        let mut s = start.clone();
        s.apply(mv);
        let (_, info) = AlphaBeta::<AbaloneState>::new(depth(2), 16).search(&s, &[mv]);
        match info.score {
            Some(Score::Eval(v)) => -v,
            other => panic!("{other:?}"),
        }
    };
    let mut all = Vec::new();
    start.legal_moves(&mut all);
    let best = all.iter().map(|&m| judge(m)).max().unwrap();
    for &m in &chosen {
        // Depth-3 scores of near-equal moves may differ from the fresh
        // searches' by a little more than the margin (tables, bounds):
        // allow three margins, far less than a marble (183).
        assert!(judge(m) >= best - 3 * VARIETY_MARGIN, "{} judged {} against {best}", start.format_move(m), judge(m));
    }
    // Without a generator, or later in the game, the same move every time.
    let plain: std::collections::HashSet<_> =
        (0..4).map(|_| AlphaBeta::<AbaloneState>::new(depth(3), 16).search(&start, &[]).0[0]).collect();
    assert_eq!(plain.len(), 1);
}
