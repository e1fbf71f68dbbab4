//! The endgame planner: the shortest way for one side to finish (its set
//! completed, or the blocking rule) with the other side's pieces fixed, and
//! alpha-beta playing it where the evaluation cannot see the way.

mod common;

use common::*;
use plateau_ai::alphabeta::AlphaBeta;
use plateau_ai::{Budget, Score as SearchScore, Search};
use plateau_colorito::{Colorito, ColoritoState, Move, Score, Side, min_moves, plan};
use plateau_core::{Evaluate, Game, State};
use std::time::Instant;

/// A position from an arena game in which alpha-beta, without the planner,
/// shuffled for over 100 moves to the `max-moves` draw: Red needs only Y19
/// on b9 (a10, R10's target, is held by Blue's D10, so the blocking rule
/// excuses R10), but Y19 on f8 has nothing to jump over and Red's home is
/// full: home pieces must step out to make a path and go back.
const SHUFFLE: &str = include_str!("data/race-end-shuffle.txt");

fn shuffle() -> ColoritoState {
    Colorito::standard().position(SHUFFLE).unwrap()
}

#[test]
fn the_plan_is_shortest_and_followed_to_the_finish() {
    let mut s = shuffle();
    let (_, n) = plan(&s, Side::Red, 200_000).expect("a plan");
    assert_eq!(n, 7);
    // Every move of the plan brings the finish one move nearer, and the last
    // one finishes by the blocking rule (Blue then has its extra move).
    for left in (1..=n).rev() {
        let (mv, m) = plan(&s, Side::Red, 200_000).expect("a plan");
        assert_eq!(m, left, "{}", s.to_text());
        s = red_moves_again(&s, mv);
    }
    assert!(s.in_extra_move(), "{}", s.to_text());
    assert_eq!(s.home_count(Side::Red), 19);
}

#[test]
fn a_target_held_by_the_opponent_needs_no_piece() {
    let s = shuffle();
    // Completing the set is impossible while D10 holds a10: the loser's score
    // says so; the planner finishes by the blocking rule instead.
    assert_eq!(min_moves(&s, Side::Red, 200_000), Score::Unreachable);
    assert!(plan(&s, Side::Red, 200_000).is_some());
}

#[test]
fn no_plan_when_the_budget_cannot_prove_the_shortest() {
    assert_eq!(plan(&shuffle(), Side::Red, 50), None);
}

#[test]
fn alpha_beta_plays_the_plan_unless_told_not_to() {
    let s = shuffle();
    let (mv, n) = s.planned_move(None).expect("few pieces away: the planner answers");
    let budget = Budget { nodes: Some(20_000), ..Budget::default() };
    let mut ab = AlphaBeta::<ColoritoState>::new(budget, 14);
    let (pv, info) = ab.search(&s, &[]);
    assert_eq!(pv, vec![mv]);
    assert_eq!(info.score, Some(SearchScore::Plan(n)));
    let mut ab = AlphaBeta::<ColoritoState>::new(budget, 14);
    ab.use_plan = false;
    let (_, info) = ab.search(&s, &[]);
    assert!(matches!(info.score, Some(SearchScore::Eval(_))), "{info:?}");
}

#[test]
fn no_plan_from_the_start_or_in_the_extra_move() {
    let g = Colorito::standard();
    // At the start every piece is away (and the blocking rule would make any
    // plan that ignores the opponent's moves meaningless).
    assert_eq!(g.start(0).planned_move(None), None);
    // Once Red has finished, Blue's extra move is judged by the search
    // exactly.
    let mut s = shuffle();
    for _ in 0..7 {
        let (mv, _) = plan(&s, Side::Red, 200_000).unwrap();
        s = red_moves_again(&s, mv);
    }
    assert!(s.in_extra_move());
    assert_eq!(s.planned_move(None), None);
}

#[test]
fn a_planner_out_of_time_gives_up() {
    // An 8-move plan that takes thousands of positions to prove shortest
    // (from an arena game); the deadline is checked every 1,024 positions.
    let s = Colorito::standard().position(include_str!("data/race-end-long.txt")).unwrap();
    let (_, n) = s.planned_move_version(None, 0).expect("a plan within the budget");
    assert_eq!(n, 8);
    assert_eq!(s.planned_move_version(Some(Instant::now()), 0), None);
    // v2's planner finds it with fewer positions, and gives up in time too
    // where it has no plan to remember (a new thread: a plan found on this
    // one would be followed).
    assert_eq!(s.planned_move_version(None, 1).map(|p| p.1), Some(8));
    let fresh = s.clone();
    let late = std::thread::spawn(move || fresh.planned_move_version(Some(Instant::now()), 1)).join().unwrap();
    assert_eq!(late, None);
    assert_eq!(s.planned_move_version(Some(Instant::now()), 1).map(|p| p.1), Some(8));
}

#[test]
fn the_plan_does_not_lean_on_an_opponent_piece_still_racing() {
    // Red lacks only R5 (target f10); a step to e6 and jumps over Blue's D1
    // on e7 and Red's home pieces bring it home in one move, but D1 is not
    // home and may move away: the planner counts on Red's own pieces only.
    let g = Colorito::standard();
    let s = place(&g, "red", (30, 30), &refs(&home_except(&[("e5", "R5"), ("e7", "D1")])));
    assert!(moves(&s).contains(&"e5-f10".to_string()));
    let (_, n) = plan(&s, Side::Red, 100_000).expect("a plan without D1");
    assert!(n > 1, "{n}");
}

/// Six of Red's pieces away (beyond v1's planner, which waits for five), R1
/// excused by the blocking rule (Blue's D1 holds j10): the position of
/// `race-end-long.txt` with Y16, Y20 and R3 out of Red's home.
fn six_away() -> ColoritoState {
    let long = include_str!("data/race-end-long.txt");
    let text = long
        .replace("Y20 Y19 Y18 Y17 Y16", ".   Y19 Y18 Y17 .  ")
        .replace(".   .   .   .   R8  .   .   .   R1  .", "Y20 .   .   .   R8  Y16 .   R3  R1  .")
        .replace("R4  R3  R2", "R4  .   R2");
    Colorito::standard().position(&text).unwrap()
}

#[test]
fn v2_plans_beyond_v1s_reach_and_its_plans_are_shortest() {
    let s = six_away();
    assert_eq!(20 - s.home_count(Side::Red), 7, "six pieces away and R1 excused");
    assert_eq!(s.planned_move_version(None, 0), None, "v1 waits for five pieces away");
    let (_, n) = s.planned_move_version(None, 1).expect("v2 plans");
    // The shortest, as v1's IDA* on the admissible race distance proves
    // with a large budget.
    let (_, shortest) = plan(&s, Side::Red, 5_000_000).expect("a way");
    assert_eq!(n, shortest);
    // Followed move by move, it finishes in exactly that many moves.
    let mut s = s;
    for left in (1..=n).rev() {
        let (mv, m) = plateau_colorito::eval::plan_v2(&s, Side::Red, 1_000_000).expect("a plan");
        assert_eq!(m, left, "{}", s.to_text());
        s = red_moves_again(&s, mv);
    }
    assert!(s.in_extra_move(), "{}", s.to_text());
}

#[test]
fn v2_finds_the_same_shortest_plans_as_v1_within_its_budget() {
    // The recorded race ends: 7 and 8 moves (v1's tests above). v2's budget
    // counts every position whose bound it computes: it needs about 6,700
    // and 40,000 of them here, within the 60,000 a move allows.
    for (text, n) in [(SHUFFLE, 7), (include_str!("data/race-end-long.txt"), 8)] {
        let s = Colorito::standard().position(text).unwrap();
        assert_eq!(plan(&s, Side::Red, 200_000).map(|p| p.1), Some(n));
        assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Red, 60_000).map(|p| p.1), Some(n));
        let (mv, m) = s.planned_move_version(None, 1).expect("v2 plans");
        assert_eq!(m, n);
        assert!(s.is_legal(mv));
        // A budget far below what the plan needs gives up.
        assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Red, 1_000), None);
    }
}

#[test]
fn the_bound_of_a_stranded_piece_counts_the_helper_it_needs() {
    use plateau_colorito::eval::finish_bound;
    let g = Colorito::standard();
    // Every piece home but R6, alone on e6 (target e10): nothing within two
    // cells, so its way home needs at least one move of its own and one
    // cell (e7, or another next to it) filled by another piece first.
    let s = place(&g, "red", (30, 30), &refs(&home_except(&[("e6", "R6")])));
    assert_eq!(finish_bound(&s, Side::Red), Some(2));
    assert!(plan(&s, Side::Red, 1_000_000).unwrap().1 >= 2);
    // With Red's Y16 on e7 (e9, its target, empty): R6 needs one move (over
    // e7, and over e9 once Y16 is back); Y16 cannot reach e9 alone (e8 is
    // empty): one move of its own and one to fill e8 first. So 1 + 2.
    let s = place(&g, "red", (30, 30), &refs(&home_except(&[("e6", "R6"), ("e7", "Y16")])));
    assert_eq!(finish_bound(&s, Side::Red), Some(3));
    assert!(plan(&s, Side::Red, 1_000_000).unwrap().1 >= 3);
    // Two pieces next to home: one move each, no helper needed.
    let s = place(&g, "red", (30, 30), &refs(&home_except(&[("j9", "R1"), ("j8", "Y11")])));
    assert_eq!(finish_bound(&s, Side::Red), Some(2));
    // Finished: 0.
    let s = place(&g, "red", (30, 30), &refs(&home_except(&[])));
    assert_eq!(finish_bound(&s, Side::Red), Some(0));
}

#[test]
fn alpha_beta_v2_plays_the_longer_plan() {
    let s = six_away();
    let (mv, n) = s.planned_move(None).expect("v2 plans");
    let budget = Budget { nodes: Some(20_000), ..Budget::default() };
    let mut ab = AlphaBeta::<ColoritoState>::new(budget, 14);
    let (pv, info) = ab.search(&s, &[]);
    assert_eq!(pv, vec![mv]);
    assert_eq!(info.score, Some(SearchScore::Plan(n)));
}

#[test]
fn a_piece_walled_in_by_racing_opponent_pieces_cannot_be_planned_home() {
    use plateau_colorito::eval::finish_bound;
    let g = Colorito::standard();
    // Red's R6 on e5, its eight neighbours held by Blue pieces still racing
    // (not home): the planner may neither jump over nor land on them (they
    // may leave), so R6 has no way home. Its bound once looped without end
    // here (its search for a way grew nothing and never stopped).
    let blue: Vec<String> = (20..28).map(|id| plateau_colorito::Piece::from_id(id).unwrap().to_string()).collect();
    let around = ["d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"];
    let mut moved: Vec<(&str, &str)> = around.iter().zip(&blue).map(|(c, p)| (*c, p.as_str())).collect();
    moved.push(("e5", "R6"));
    let s = place(&g, "red", (30, 30), &refs(&home_except(&moved)));
    assert!(finish_bound(&s, Side::Red).is_some_and(|b| b > 100), "{:?}", finish_bound(&s, Side::Red));
    assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Red, 60_000), None);
    assert_eq!(s.planned_move_version(None, 1), None);
}

#[test]
fn v2_follows_a_plan_found_once_when_there_is_no_time_to_search_again() {
    let s = six_away();
    let (mv, n) = s.planned_move_version(None, 1).expect("v2 plans");
    assert!(n > 3, "{n}");
    let mut s = red_moves_again(&s, mv);
    // A budget of a single position is no time to search: IDA* gives up.
    assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Red, 1), None);
    // Yet with its deadline already passed, v2 follows the plan it found,
    // one move shorter each time, every move legal, to the finish.
    for left in (1..n).rev() {
        let (mv, m) = s.planned_move_version(Some(Instant::now()), 1).expect("the plan found before");
        assert_eq!(m, left, "{}", s.to_text());
        assert!(s.is_legal(mv), "{mv:?}\n{}", s.to_text());
        s = red_moves_again(&s, mv);
    }
    assert!(s.in_extra_move(), "{}", s.to_text());
}

#[test]
fn a_remembered_plan_is_dropped_when_the_opponent_gets_in_its_way() {
    let s = six_away();
    let (mv, n) = s.planned_move_version(None, 1).expect("v2 plans");
    let after = red_moves_again(&s, mv);
    let (next, _) = after.planned_move_version(Some(Instant::now()), 1).expect("the plan found before");
    // Blue's L20 is put on the cell the plan's next move ends on: that move
    // is no longer legal, and neither is the rest of the plan.
    let Move::Go { to, .. } = next else { panic!("{next:?}") };
    let mut text = after.to_text();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (file, rank) = (to.index() % 10, to.index() / 10);
    let row = 2 + (9 - rank);
    let mut cells: Vec<String> = lines[row].split_whitespace().map(str::to_string).collect();
    let from_blue = lines.iter().position(|l| l.contains("L20")).expect("L20 on the board");
    assert_ne!(from_blue, row);
    cells[file] = "L20".to_string();
    let mut lines = lines;
    lines[from_blue] = lines[from_blue].replace("L20", ".");
    lines[row] = cells.join(" ");
    text = lines.join("\n");
    let blocked = Colorito::standard().position(&text).unwrap();
    assert!(!blocked.is_legal(next));
    if let Some((mv, _)) = blocked.planned_move_version(Some(Instant::now()), 1) {
        assert!(blocked.is_legal(mv), "{mv:?}");
    }
    // Searched anew with time, the plan found is legal too.
    let (mv, m) = blocked.planned_move_version(None, 1).expect("a new plan");
    assert!(blocked.is_legal(mv), "{mv:?}");
    assert!(m > 0 && m < 80, "{m} (the first plan had {n})");
}

#[test]
fn v2_does_not_search_for_a_plan_far_beyond_its_first_bound() {
    // Three pieces away, a first bound of 6 and a 12-move finish: IDA*
    // would have to raise its bound six times (without the gate it finds
    // the plan within 2,000,000 positions; a move allows it 60,000), so it
    // does not start (before, on the recorded positions of three pieces
    // away and bound 6, it took its whole budget, 17 ms a call, for no
    // plan). The group planner still gives alpha-beta a plan there, longer
    // than the shortest, which v1's IDA* proves with 3,000,000 positions.
    let s = Colorito::standard().position(include_str!("data/race-end-far.txt")).unwrap();
    assert_eq!(20 - s.home_count(Side::Blue), 3);
    assert_eq!(plateau_colorito::eval::finish_bound(&s, Side::Blue), Some(6));
    assert_eq!(plan(&s, Side::Blue, 3_000_000).map(|p| p.1), Some(12), "a finish exists");
    assert_eq!(plateau_colorito::eval::plan_v2(&s, Side::Blue, 2_000_000), None);
    let (mv, n) = s.planned_move_version(None, 1).expect("the group planner's plan");
    assert_eq!(plateau_colorito::pair_plan(&s, Side::Blue, None), Some((mv, n)));
    assert!(s.is_legal(mv) && n >= 12, "{mv:?} in {n}");
    // Within two of the pieces away it still searches: the recorded race
    // end of 8 moves, 3 pieces away (R1 excused) and a first bound of 5.
    let long = Colorito::standard().position(include_str!("data/race-end-long.txt")).unwrap();
    assert_eq!(20 - long.home_count(Side::Red), 4);
    assert_eq!(plateau_colorito::eval::finish_bound(&long, Side::Red), Some(5));
    assert_eq!(plateau_colorito::eval::plan_v2(&long, Side::Red, 60_000).map(|p| p.1), Some(8));
}
