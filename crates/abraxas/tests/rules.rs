//! Every rule, option and decision, on small hand-built positions.

use plateau_abraxas::{Abraxas, AbraxasState, Cell, End, Move, Phase, PlatePos, Removal, Sheet};
use plateau_core::options::inline_content;
use plateau_core::{Game, MoveErrorKind, Reader, State, Turn};

fn game() -> Abraxas {
    Abraxas::new(Sheet::level(1).unwrap())
}

fn pos(text: &str) -> AbraxasState {
    game().position(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A position from header lines and the rows of ranks 9 down to 1 (given
/// from the highest rank that is not empty: missing top rows are empty).
fn grid(headers: &str, rows: &[&str]) -> String {
    let mut t = headers.to_string();
    for _ in rows.len()..9 {
        t.push_str(".........\n");
    }
    for r in rows {
        t.push_str(r);
        t.push('\n');
    }
    t
}

fn play(s: &mut AbraxasState, text: &str) -> String {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}\n{s:?}"));
    let canon = s.format_move(mv);
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}\n{s:?}"));
    canon
}

fn refuse(s: &mut AbraxasState, text: &str) -> String {
    let before = s.clone();
    let err = match s.parse_move(text) {
        Err(e) => e.message,
        Ok(mv) => s.try_apply(mv).map(|_| ()).expect_err(text).message,
    };
    assert!(*s == before, "a refused move changed the state");
    err
}

fn legal(s: &AbraxasState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| s.format_move(m)).collect();
    t.sort();
    t
}

fn takes(s: &AbraxasState) -> Vec<String> {
    legal(s).into_iter().filter(|m| m.starts_with("x:")).collect()
}

fn lines(s: &AbraxasState) -> Vec<String> {
    s.pending_lines().iter().map(|l| l.to_string()).collect()
}

fn c(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

#[test]
fn the_push_goes_counter_clockwise_and_stones_ride_with_the_plate() {
    let mut s = pos(&grid("", &[]));
    assert_eq!(s.plate(), PlatePos::BottomLeft);
    play(&mut s, "a1");
    assert_eq!(s.plate(), PlatePos::BottomRight);
    assert!(s.red_stones().contains(c("b1")));
    play(&mut s, "h8");
    assert_eq!(s.plate(), PlatePos::TopRight);
    assert!(s.red_stones().contains(c("b2")) && s.red_stones().contains(c("h9")));
    play(&mut s, "b:c3");
    assert_eq!(s.plate(), PlatePos::TopLeft);
    assert!(s.red_stones().contains(c("a2")) && s.stop_stones(0).contains(c("b3")));
    play(&mut s, "e5");
    assert_eq!(s.plate(), PlatePos::BottomLeft);
    assert!(s.red_stones().contains(c("a1")), "back where it was placed after four pushes");
    assert!(s.red_stones().contains(c("e4")));
    assert_eq!(s.reserve(), 21);
    assert_eq!(s.stops_in_hand(0), 2);
    // A hole is named by the cell it is over now: i1 is outside the plate at
    // bottom-left.
    assert!(refuse(&mut s, "i1").contains("not under the plate"));
    assert!(refuse(&mut s, "a1").contains("not empty"));
}

#[test]
fn plate_start_option() {
    for (name, p) in [("bottom-right", PlatePos::BottomRight), ("top-left", PlatePos::TopLeft)] {
        let settings = Abraxas::INFO
            .resolve(None, &plateau_core::Options::from_pairs([format!("plate-start={name}").as_str()]).unwrap())
            .unwrap();
        let g = Abraxas::configure(&settings).unwrap();
        assert_eq!(g.start(0).plate(), p);
    }
}

#[test]
fn what_is_red() {
    // A stop stone hides its dot; a red stone over a dot is red; an empty hole
    // over a dot is red; a dot outside the plate is red.
    let s = pos(&grid("plate: bottom-left\n", &["o.......o", "S.R.o....", "........."]));
    let red = s.red_circles();
    assert!(!red.contains(c("a2")), "a stop stone covers its dot");
    assert!(red.contains(c("c2")), "red stone over a dot");
    assert!(red.contains(c("e2")), "uncovered dot in a hole");
    assert!(red.contains(c("a3")), "uncovered dot in a hole");
    assert!(red.contains(c("i3")), "dot outside the plate");
    assert_eq!(red.len(), 4);
}

#[test]
fn a_line_at_placement_broken_by_the_push_does_not_count() {
    let mut s = pos(&grid("", &["ooo......", ".........", ".........", ".........", "........."]));
    // a5 b5 c5 are dots: d5 makes four at placement.
    play(&mut s, "d5");
    // The stone rode to e5; d5 has no dot: no line.
    assert_eq!(s.phase(), Phase::Place);
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert!(s.lines_made().is_empty());
    assert!(s.red_circles().contains(c("a5")) && s.red_stones().contains(c("e5")));
}

#[test]
fn a_line_made_by_the_push_alone_scores_for_the_placer() {
    let text = grid("", &[".rr.oo..."]);
    let mut s = pos(&text);
    assert!(s.lines_after_push().len() == 4, "the analysis sees it coming");
    play(&mut s, "h8");
    assert_eq!(s.phase(), Phase::Score);
    assert_eq!(s.to_move(), Turn::Seat(0));
    assert_eq!(lines(&s), ["c1–f1"]);
    // c1 d1 stones, e1 f1 dots: take one stone, not an end if possible: d1.
    assert_eq!(takes(&s), ["x:d1"]);
}

#[test]
fn a_line_through_a_dot_outside_the_plate() {
    let mut s = pos(&grid("", &["Rr.......", ".........", "........."]));
    play(&mut s, "c3");
    assert_eq!(s.plate(), PlatePos::BottomRight);
    assert_eq!(lines(&s), ["a3–d3"]);
    // a3 is a dot outside the plate; b3 c3 d3 stones. Taking d3 would leave
    // a3 b3 c3 side by side.
    assert_eq!(takes(&s), ["x:b3", "x:c3"]);
    assert!(refuse(&mut s, "x:d3").contains("side by side"));
    assert!(refuse(&mut s, "x:a3").contains("no red stone"));
}

const CROSS: [&str; 5] = [".rr.r....", "...r.....", "...r.....", "...r.....", "........."];

#[test]
fn two_lines_at_once_scoring_the_first_breaks_the_second() {
    let mut s = pos(&grid("", &CROSS));
    play(&mut s, "d5");
    assert_eq!(lines(&s), ["c5–f5", "e2–e5"]);
    // e5 lies on both lines: from the row it is a middle stone, from the
    // column an end one. The text names the line when a single stone lies on
    // two lines.
    assert_eq!(takes(&s), ["x:d5", "x:e3", "x:e4", "x:e5/h"]);
    let e = s.parse_move("x:e5").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Illegal);
    assert!(e.message.contains("x:e5/h or x:e5/v"), "{}", e.message);
    assert!(refuse(&mut s, "x:e5/v").contains("side by side"));
    // A direction no line through the stone has: say which lines hold it.
    assert_eq!(
        refuse(&mut s, "x:e5/d"),
        "no diagonal a1–i9 (d) line to score holds e5: it lies on the row (h) c5–f5 and the column (v) e2–e5; \
         write x:e5/h or x:e5/v"
    );
    assert_eq!(
        refuse(&mut s, "x:e3/h"),
        "no row (h) line to score holds e3: it lies on the column (v) e2–e5; write x:e3/v"
    );
    play(&mut s, "X:E5/H");
    // e5 has no dot: the column lost a circle and no longer scores.
    assert!(s.pending_lines().is_empty());
    assert_eq!(s.taken(0), 1);
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(s.to_move(), Turn::Seat(1));
    // The lines just made stay marked until the next push.
    assert_eq!(s.made_cells().len(), 7);
}

#[test]
fn a_removal_over_a_dot_leaves_the_crossing_line_standing() {
    let mut rows = CROSS;
    rows[0] = ".rr.R....";
    let mut s = pos(&grid("", &rows));
    play(&mut s, "d5");
    assert_eq!(lines(&s), ["c5–f5", "e2–e5"]);
    play(&mut s, "x:e5/h");
    // e5's dot is red again: the column still stands and scores.
    assert_eq!(lines(&s), ["e2–e5"]);
    assert_eq!(s.phase(), Phase::Score);
    assert_eq!(takes(&s), ["x:e3", "x:e4"]);
    play(&mut s, "x:e4");
    assert_eq!(s.taken(0), 2);
    assert_eq!(s.phase(), Phase::Interlude);
}

#[test]
fn the_scorer_chooses_the_order() {
    let mut rows = CROSS;
    rows[0] = ".rr.R....";
    let mut s = pos(&grid("", &rows));
    play(&mut s, "d5");
    // Column first: taking e4 does not touch the row, which then scores.
    play(&mut s, "x:e4");
    assert_eq!(lines(&s), ["c5–f5"]);
    play(&mut s, "x:d5");
    assert_eq!(s.taken(0), 2);
}

#[test]
fn a_line_of_five_and_a_line_of_six() {
    let mut s = pos(&grid("", &[".rrrr....", ".........", ".........", "........."]));
    play(&mut s, "f4");
    assert_eq!(lines(&s), ["c4–g4"]);
    // Two of five, the three left not side by side: C(5,2) − 3 = 7 choices.
    assert_eq!(takes(&s), ["x:c4,e4", "x:c4,f4", "x:d4,e4", "x:d4,f4", "x:d4,g4", "x:e4,f4", "x:e4,g4"]);
    play(&mut s, "x:g4,D4");
    assert_eq!(s.taken(0), 2);

    let mut s = pos(&grid("", &[".rrrrr...", ".........", ".........", "........."]));
    play(&mut s, "g4");
    assert_eq!(lines(&s), ["c4–h4"]);
    // Three of six: C(6,3) − 4 = 16 choices.
    assert_eq!(takes(&s).len(), 16);
    assert!(refuse(&mut s, "x:c4,d4").contains("take exactly 3"));
    assert!(refuse(&mut s, "x:c4,d4,e4").contains("side by side"));
    play(&mut s, "x:c4,e4,h4");
    assert_eq!(s.taken(0), 3);
    assert_eq!(s.red_stones().len(), 3);
}

#[test]
fn a_line_with_fewer_stones_than_it_gives_yields_them_all() {
    // After the push: c5 d5 dots, e5 stone, f5 g5 dots, h5 stone: 6 circles,
    // 2 stones, L − 3 = 3.
    let mut s = pos(&grid("", &["..oR.oo..", ".........", ".........", ".........", "........."]));
    play(&mut s, "g5");
    assert_eq!(lines(&s), ["c5–h5"]);
    assert_eq!(takes(&s), ["x:e5,h5"]);
    assert!(refuse(&mut s, "x:e5").contains("take them all"));
    play(&mut s, "x:h5,e5");
    assert_eq!(s.taken(0), 2);
}

fn with_removal(r: Removal) -> Abraxas {
    game().with_removal(r)
}

#[test]
fn removal_restriction_both_readings() {
    let text = grid("", &[".rrrr....", ".........", ".........", "........."]);
    let mut s = with_removal(Removal::RemovedNotAdjacent).position(&text).unwrap();
    play(&mut s, "f4");
    // No two stones taken side by side: c4–g4 gives 6 pairs.
    assert_eq!(takes(&s), ["x:c4,e4", "x:c4,f4", "x:c4,g4", "x:d4,f4", "x:d4,g4", "x:e4,g4"]);
    assert!(refuse(&mut s, "x:c4,d4").contains("must not be neighbours"));
    let text6 = grid("", &[".rrrrr...", ".........", ".........", "........."]);
    let mut s = with_removal(Removal::RemovedNotAdjacent).position(&text6).unwrap();
    play(&mut s, "g4");
    assert_eq!(takes(&s), ["x:c4,e4,g4", "x:c4,e4,h4", "x:c4,f4,h4", "x:d4,f4,h4"]);
    // A line of four: one stone, never a neighbour of another: any stone.
    let text4 = grid("", &[".rrr.....", ".........", ".........", "........."]);
    let mut s = with_removal(Removal::RemovedNotAdjacent).position(&text4).unwrap();
    play(&mut s, "e4");
    assert_eq!(takes(&s), ["x:c4", "x:d4", "x:e4", "x:f4"]);
    // The default reading on the same line: the middle ones only.
    let mut s = with_removal(Removal::RemainingNotAdjacent).position(&text4).unwrap();
    play(&mut s, "e4");
    assert_eq!(takes(&s), ["x:d4", "x:e4"]);
    assert!(refuse(&mut s, "x:c4").contains("side by side"));
}

#[test]
fn the_restriction_yields_when_the_stones_allow_no_such_choice() {
    // After the push: c5 stone, d5 e5 dots, f5 stone. Either end leaves three
    // side by side, and there is no other stone: both are allowed.
    let mut s = pos(&grid("", &[".r.oo....", ".........", ".........", ".........", "........."]));
    play(&mut s, "e5");
    assert_eq!(lines(&s), ["c5–f5"]);
    assert_eq!(takes(&s), ["x:c5", "x:f5"]);
}

#[test]
fn the_out_of_turn_stop_stone_then_the_scorer_plays_again() {
    let mut s = pos(&grid("", &[".rr.oo..."]));
    play(&mut s, "h8");
    play(&mut s, "x:d1");
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.scorer(), Some(0));
    let l = legal(&s);
    assert!(l.contains(&"pass".to_string()));
    assert_eq!(l.len(), 1 + s.empty_holes().len() as usize);
    assert!(l.iter().all(|m| m == "pass" || m.starts_with("b:")));
    assert!(refuse(&mut s, "d4").contains("may now place a stop stone"));
    let plate = s.plate();
    // The stop stone covers the dot at e1: no push follows.
    play(&mut s, "b:e1");
    assert_eq!(s.plate(), plate);
    assert!(s.stop_stones(1).contains(c("e1")));
    assert!(!s.red_circles().contains(c("e1")));
    assert_eq!(s.stops_in_hand(1), 2);
    assert_eq!(s.phase(), Phase::Place);
    assert_eq!(s.to_move(), Turn::Seat(0), "the scorer plays again");
    // Stop stones stay for good: never taken, never moved within the plate.
    play(&mut s, "b8");
    assert!(s.stop_stones(1).contains(c("e2")));
    assert!(refuse(&mut s, "x:e2").contains("no line to score"));
}

#[test]
fn declining_the_interlude_and_chains_of_extra_turns() {
    let mut s = pos(&grid("", &[".rr.oo..."]));
    play(&mut s, "h8");
    play(&mut s, "x:d1");
    play(&mut s, "pass");
    assert_eq!(s.to_move(), Turn::Seat(0));
    assert_eq!(s.stops_in_hand(1), 3);
    // The scorer's new turn; this one makes no line, so the turn passes.
    play(&mut s, "b7");
    assert_eq!(s.to_move(), Turn::Seat(1));
}

#[test]
fn the_interlude_is_skipped_without_stop_stones() {
    let mut s = pos(&grid("stops: 3 0\n", &[".rr.oo..."]));
    play(&mut s, "h8");
    play(&mut s, "x:d1");
    assert_eq!(s.phase(), Phase::Place);
    assert_eq!(s.to_move(), Turn::Seat(0));
}

#[test]
fn three_stop_stones_each() {
    let mut s = pos(&grid("", &[]));
    for (i, m) in ["b:a1", "b:h8", "b:c3", "b:d4", "b:e5", "b:f6"].iter().enumerate() {
        play(&mut s, m);
        assert_eq!(s.stops_in_hand(i % 2), 2 - (i / 2) as u8);
    }
    assert!(refuse(&mut s, "b:a4").contains("no stop stone left"));
    assert!(legal(&s).iter().all(|m| !m.starts_with("b:")));
}

#[test]
fn a_stop_stone_in_ones_own_turn_is_followed_by_the_push_and_may_score() {
    let mut s = pos(&grid("", &[".rr.oo..."]));
    play(&mut s, "b:h8");
    assert_eq!(s.plate(), PlatePos::BottomRight);
    assert_eq!(lines(&s), ["c1–f1"]);
    assert_eq!(s.to_move(), Turn::Seat(0));
}

#[test]
fn relocation_once_the_reserve_is_empty() {
    let text = grid(
        "taken: 10 10\n",
        &["r........", ".........", "....r....", ".........", ".........", "..r......", ".........", ".......r."],
    );
    let mut s = pos(&text);
    assert_eq!(s.reserve(), 0);
    assert!(refuse(&mut s, "d4").contains("reserve is empty"));
    assert_eq!(s.count_moves(), 4 * 60 + 60);
    assert_eq!(legal(&s).len(), 300);
    assert!(refuse(&mut s, "d4-e4").contains("no red stone over d4"));
    assert!(refuse(&mut s, "c3-e6").contains("not empty"));
    play(&mut s, "C3-D3");
    assert!(s.red_stones().contains(c("e3")), "moved, then pushed");
    assert!(!s.red_stones().contains(c("d3")));
    assert_eq!(s.red_stones().len(), 4);
    // While the reserve lasts, a stone may not be moved.
    let mut s = pos(&grid("", &["..r......"]));
    assert!(refuse(&mut s, "c1-d1").contains("only once the reserve is empty"));
}

#[test]
fn the_win_at_eleven_is_immediate() {
    let mut s = pos(&grid("taken: 10 3\n", &[".rr.oo..."]));
    play(&mut s, "h8");
    play(&mut s, "x:d1");
    assert_eq!(s.to_move(), Turn::Over);
    assert_eq!(s.end(), Some(End::Win(0)));
    let o = s.outcome().unwrap();
    assert!(o.is_winner(0) && !o.is_winner(1));
    assert_eq!(o.reason, "stones taken");
    assert_eq!(s.result_tags(), [("Taken".to_string(), "11-3".to_string())]);
    // Even with a line left to score.
    let mut rows = CROSS;
    rows[0] = ".rr.R....";
    let mut s = pos(&grid("taken: 10 0\n", &rows));
    play(&mut s, "d5");
    play(&mut s, "x:e5/h");
    assert_eq!(s.end(), Some(End::Win(0)));
    assert!(legal(&s).is_empty());
}

#[test]
fn stones_to_win_option() {
    let g = game().with_stones_to_win(2);
    let mut s = g.position(&grid("taken: 1 0\n", &[".rr.oo..."])).unwrap();
    play(&mut s, "h8");
    play(&mut s, "x:d1");
    assert_eq!(s.end(), Some(End::Win(0)));
}

#[test]
fn third_repetition_is_a_draw() {
    let text = grid(
        "taken: 10 10\n",
        &["r........", ".........", "......r..", ".........", "...r.....", ".........", ".........", "r........"],
    );
    let mut s = pos(&text);
    // Player 1 moves the stone of hole (0,0) to hole (1,0) and back; player 2
    // the stone of hole (0,7) to (1,7) and back. Holes are named by the cells
    // they are over, which change with every push.
    let cell_of = |s: &AbraxasState, hf: u8, hr: u8| {
        let (dx, dy) = s.plate().offset();
        Cell::new(hf + dx, hr + dy).unwrap().to_string()
    };
    let plan = [((0, 0), (1, 0)), ((0, 7), (1, 7)), ((1, 0), (0, 0)), ((1, 7), (0, 7))];
    let start = s.key();
    for round in 0..2 {
        for (i, ((ff, fr), (tf, tr))) in plan.iter().enumerate() {
            assert!(s.end().is_none(), "round {round} move {i}");
            let mv = format!("{}-{}", cell_of(&s, *ff, *fr), cell_of(&s, *tf, *tr));
            play(&mut s, &mv);
        }
        assert_eq!(s.key(), start);
    }
    assert_eq!(s.end(), Some(End::Repetition));
    assert!(s.outcome().unwrap().is_draw());
}

#[test]
fn repetition_off_plays_on_after_the_third_repetition() {
    // The moves of third_repetition_is_a_draw, three rounds: the start
    // position comes back after plies 4, 8 and 12; with repetition=off
    // nothing ends.
    let text = grid(
        "taken: 10 10\n",
        &["r........", ".........", "......r..", ".........", "...r.....", ".........", ".........", "r........"],
    );
    let mut s = game().with_repetition_draw(false).position(&text).unwrap();
    let cell_of = |s: &AbraxasState, hf: u8, hr: u8| {
        let (dx, dy) = s.plate().offset();
        Cell::new(hf + dx, hr + dy).unwrap().to_string()
    };
    let plan = [((0, 0), (1, 0)), ((0, 7), (1, 7)), ((1, 0), (0, 0)), ((1, 7), (0, 7))];
    let start = s.key();
    for round in 0..3 {
        for ((ff, fr), (tf, tr)) in plan {
            assert!(s.end().is_none(), "round {round}");
            let mv = format!("{}-{}", cell_of(&s, ff, fr), cell_of(&s, tf, tr));
            play(&mut s, &mv);
        }
        assert_eq!(s.key(), start);
    }
    assert_eq!(s.end(), None);
    assert_eq!(s.ply(), 12);
    assert_eq!(s.to_move(), Turn::Seat(0));
}

#[test]
fn max_plies_ends_in_a_draw() {
    let g = game().with_max_plies(3);
    let mut s = g.position(&grid("", &[])).unwrap();
    play(&mut s, "b2");
    play(&mut s, "c3");
    assert!(s.end().is_none());
    play(&mut s, "d4");
    assert_eq!(s.end(), Some(End::MoveCap));
    assert_eq!(s.outcome().unwrap().reason, "move cap");
    assert_eq!(g.ply_bound(), Some(3));
}

#[test]
fn notation_round_trips_and_errors_say_what_was_wrong() {
    let mut s = game().start(0);
    for (input, canon) in [("D4", "d4"), (" b:H8 ", "b:h8"), ("B:a1", "b:a1")] {
        let mv = s.parse_move(input).unwrap();
        assert_eq!(s.format_move(mv), canon);
    }
    assert_eq!(s.parse_move("PASS").unwrap(), Move::Pass);
    for bad in ["", "z9", "d0", "d10", "b:", "x:", "x:d4,d4", "d4-d4", "d4-", "hello", "x:d4/q"] {
        let e = s.parse_move(bad);
        assert!(e.is_err(), "{bad:?} parsed");
    }
    assert!(s.parse_move("z9").unwrap_err().message.contains("files are a to i"));
    assert!(s.parse_move("x:d4").unwrap_err().message.contains("no line to score"));
    assert!(refuse(&mut s, "pass").contains("only for declining"));
    // Wrong player's phase: removals only by the scorer.
    let mut s = pos(&grid("", &[".rr.oo..."]));
    play(&mut s, "h8");
    assert!(refuse(&mut s, "e5").contains("must first take stones"));
    assert_eq!(play(&mut s, "x:D1"), "x:d1");
}

#[test]
fn text_form_round_trips_and_reports_errors() {
    let text = grid(
        "plate: top-right\nto-move: 2\ntaken: 3 4\nstops: 2 1\n",
        &["..R......", ".........", "....s..t.", "o........"],
    );
    let s = pos(&text);
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.reserve(), 24 - 1 - 7);
    let back = pos(&s.to_text());
    assert!(back == s);
    assert_eq!(back.key(), s.key());
    let err = |t: &str| game().position(t).unwrap_err();
    let outside = [
        "r........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ];
    assert!(err(&grid("", &outside)).contains("cell a9: a stone outside the plate"));
    assert!(err(&grid("", &["oooo....."])).contains("a line of four (row)"));
    assert!(err(&grid("", &["...q....."])).contains("cell d1"));
    assert!(err(&grid("", &["........"])).contains("8 cells"));
    assert!(err("plate: middle\n").contains("plate"));
    assert!(err(&grid("taken: 11 0\n", &[])).contains("already holds"));
    assert!(err(&grid("taken: 12 12\n", &["r........"])).contains("only 24"));
    assert!(err(&grid("stops: 3 3\n", &["s........"])).contains("each player has 3"));
}

#[test]
fn sheet_option_levels_inline_content_and_errors() {
    let resolve = |v: &str| {
        let opts = plateau_core::Options::from_pairs([format!("sheet={v}").as_str()]).unwrap();
        Abraxas::configure(&Abraxas::INFO.resolve(None, &opts).unwrap())
    };
    assert_eq!(resolve("LEVEL-3").unwrap().sheet().name(), "level-3");
    let s = Sheet::level(4).unwrap();
    assert_eq!(resolve(&s.to_inline()).unwrap().sheet().dots(), s.dots());
    let e = resolve("..../o").unwrap_err().to_string();
    assert!(e.contains("inline sheet"), "{e}");
    // A sheet file's text, made one line as the command line does (comments
    // and blank lines dropped), is accepted inline.
    let file = format!("# mine\n\n{}", s.to_grid());
    assert_eq!(resolve(&inline_content(&file)).unwrap().sheet().dots(), s.dots());
    let bad = grid("", &["...o.....", "....o....", ".....o...", "......o.."]);
    let e = resolve(&inline_content(&bad)).unwrap_err().to_string();
    assert!(e.contains("d4, e3, f2, g1") || e.contains("g1, f2, e3, d4"), "{e}");
    assert!(e.contains("anti-diagonal"), "{e}");
    let e = resolve(&inline_content(&grid("", &["...x....."]))).unwrap_err().to_string();
    assert!(e.contains("cell d1"), "{e}");
    let e = resolve("/no/such/file").unwrap_err().to_string();
    assert!(e.contains("neither level-1") && e.contains("\"/no/such/file\""), "{e}");
}

/// The sheet option never touches the file system: a path is refused with the
/// same words whether or not the file exists, and no file's text shows.
#[test]
fn a_sheet_path_is_never_read() {
    let resolve = |v: &str| {
        let opts = plateau_core::Options::from_pairs([format!("sheet={v}").as_str()]).unwrap();
        Abraxas::configure(&Abraxas::INFO.resolve(None, &opts).unwrap()).map(|g| g.sheet().dots())
    };
    let dir = std::env::temp_dir().join(format!("abraxas-sheet-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.txt");
    let p = path.to_str().unwrap();
    // Three dots: e7, c5 and g5 (rank 9 first).
    let text = ".........\n.........\n....o....\n.........\n..o...o..\n.........\n.........\n.........\n.........\n";
    let before = resolve(p).unwrap_err().to_string();
    std::fs::write(&path, text).unwrap();
    let after = resolve(p).unwrap_err().to_string();
    assert_eq!(before, after, "the error must not depend on whether the file exists");
    assert!(!after.contains("o..."), "{after}");
    // The same sheet given inline is accepted: three dots.
    let dots = resolve(".........  /......... /....o..../........./..o...o../........./........./........./.........")
        .unwrap();
    assert_eq!(dots.count_ones(), 3);
    let cells = |names: &[&str]| names.iter().map(|n| Cell::parse(n).unwrap().bit()).fold(0u128, |a, b| a | b);
    assert_eq!(dots, cells(&["e7", "c5", "g5"]));
    std::fs::remove_dir_all(&dir).ok();
    // Devices and secrets: refused at once, nothing read, same shape of error.
    for p in ["/dev/zero", "/etc/shadow", "/etc/passwd", "/nonexistent/shadow"] {
        let e = resolve(p).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "option sheet: sheet {p:?} is neither level-1 … level-6 nor an inline sheet (9 rows of o and . \
                 separated by /, rank 9 first); a sheet file is read only by the command line (sheet=@FILE)"
            )
        );
    }
    // A long value is echoed cut short.
    let long = format!("/{}", "a".repeat(500));
    let e = resolve(&long).unwrap_err().to_string();
    assert!(e.len() < 400 && !e.contains(&"a".repeat(61)), "{e}");
}

#[test]
fn render_and_view_show_dots_plate_stones_red_and_lines_made() {
    let mut rows = CROSS;
    rows[0] = ".rr.R....";
    let mut s = pos(&grid("", &rows));
    play(&mut s, "d5");
    let d = s.render(Reader::Spectator, false);
    assert!(d.contains("[●]"), "{d}");
    assert!(d.contains("plate bottom-right (b1–i8)"), "{d}");
    assert!(d.contains("Lines made by the last push: c5–f5, e2–e5"), "{d}");
    assert!(d.contains('·'), "frame cells outside the plate: {d}");
    let colored = s.render(Reader::Spectator, true);
    assert!(colored.contains("\x1b[1;31m"));
    let v = serde_json::to_value(s.view(Reader::Spectator)).unwrap();
    assert_eq!(v["phase"], "score");
    assert_eq!(v["plate"], "bottom-right");
    assert_eq!(v["lines_to_score"].as_array().unwrap().len(), 2);
    assert_eq!(v["scorer"], 0);
}

#[test]
fn analysis_helpers_match_play() {
    // For positions met in random games, line_threats lists exactly the
    // empty holes whose red placement makes a line through the placed stone.
    use rand::{RngExt, SeedableRng};
    for level in 1..=6 {
        let g = Abraxas::new(Sheet::level(level).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(level as u64);
        let mut s = g.start(0);
        let mut moves = Vec::new();
        for _ in 0..60 {
            if s.to_move() == Turn::Over {
                break;
            }
            if s.phase() == Phase::Place && s.reserve() > 0 && s.lines_after_push().is_empty() {
                let threats = s.line_threats();
                for hole in s.empty_holes().iter() {
                    let mut t = s.clone();
                    t.apply(Move::Place(hole));
                    let landed = Cell::from_index(s.plate().push_mask(hole.bit()).trailing_zeros() as u8).unwrap();
                    let through = t.made_cells().contains(landed);
                    assert_eq!(threats.contains(hole), through, "level {level} hole {hole}\n{s:?}");
                }
            }
            use plateau_core::Evaluate;
            assert_eq!(s.evaluate(0), -s.evaluate(1));
            s.noisy_moves(&mut moves);
            assert!(moves.iter().all(|&m| s.is_legal(m)));
            s.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            s.apply(mv);
            assert_eq!(s.key(), s.compute_key());
        }
    }
}

#[test]
fn made_up_moves_are_refused_without_panicking() {
    use plateau_abraxas::{Dir, Line, Take};
    let mut s = pos(&grid("", &[".rr.oo..."]));
    play(&mut s, "h8");
    for (start, dir, len) in
        [("i1", Dir::Row, 9), ("i9", Dir::Diagonal, 9), ("a9", Dir::Column, 4), ("d1", Dir::Row, 0)]
    {
        let mv = Move::Take(Take { line: Line { start: c(start), dir, len }, stones: 0xFFFF });
        assert!(!s.is_legal(mv));
        let _ = s.format_move(mv);
        assert_eq!(s.line_value(Line { start: c(start), dir, len }), 0);
        let before = s.clone();
        assert!(s.try_apply(mv).is_err());
        assert!(s == before);
    }
}

fn gesture(s: &AbraxasState, text: &str) -> (Vec<String>, Vec<String>) {
    let g = s.gesture(s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")));
    let mut select = g.select;
    select.sort();
    (select, g.targets)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn gestures_select_then_click() {
    let mut s = pos(&grid("", &CROSS));
    assert_eq!(gesture(&s, "d4"), (vec![], strings(&["d4"])));
    assert_eq!(gesture(&s, "b:d4"), (strings(&["stop"]), strings(&["d4"])));
    play(&mut s, "d5");
    // A removal: the stones taken, then `take`; a single stone on two lines
    // to score names the line, as the notation does.
    assert_eq!(gesture(&s, "x:e4"), (strings(&["e4"]), strings(&["take"])));
    assert_eq!(gesture(&s, "x:e5/h"), (strings(&["e5"]), strings(&["take/h"])));
    play(&mut s, "x:e5/h");
    assert_eq!(s.phase(), Phase::Interlude);
    assert_eq!(gesture(&s, "pass"), (vec![], strings(&["pass"])));
    assert_eq!(gesture(&s, "b:a8"), (strings(&["stop"]), strings(&["a8"])));
    // A longer line: several stones selected.
    let mut s = pos(&grid("", &["rrrrr...."]));
    play(&mut s, "h8");
    let takes = takes(&s);
    assert!(!takes.is_empty());
    assert_eq!(gesture(&s, &takes[0]).1, strings(&["take"]));
    assert_eq!(gesture(&s, &takes[0]).0.len(), 2);
    // Once the reserve is empty, a stone moves: select it, click the hole.
    let s = pos(&grid("taken: 10 10\n", &["r.r.r.r.."]));
    assert_eq!(s.reserve(), 0);
    assert_eq!(gesture(&s, "a1-d5"), (strings(&["a1"]), strings(&["d5"])));
}
