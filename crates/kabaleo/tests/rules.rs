//! Every rule of a turn, the end and the scoring, on small hand-built positions.
//!
//! The 2-player positions use the bases `ROYG ROYG ROYG ROYG`: locations 1, 5,
//! 9, 13 are red, 2, 6, 10, 14 orange, 3, 7, 11, 15 yellow, 4, 8, 12, 16 green.

use plateau_core::{MoveErrorKind, Reader, State, Turn};
use plateau_kabaleo::{Colour, Decider, KabaleoState, Move, Position, Score};

const BASES2: &str = "bases ROYG ROYG ROYG ROYG\n";
const BASES4: &str = "bases ROYGBV ROYGBV ROYGBV ROYGBV\n";

fn st(text: &str) -> KabaleoState {
    let p = Position::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    KabaleoState::from_position(&p).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn play(s: &mut KabaleoState, text: &str) {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn legal(s: &KabaleoState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|&m| s.format_move(m)).collect()
}

fn refused(s: &KabaleoState, text: &str) -> String {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(!s.is_legal(mv), "{text} should be illegal");
    let mut work = s.clone();
    let e = work.try_apply(mv).expect_err("refused");
    assert_eq!(e.kind, MoveErrorKind::Illegal);
    assert_eq!(&work, s, "a refused move changed the state");
    e.message
}

#[test]
fn a_bare_base_refuses_its_own_colour() {
    let s = st(&format!("{BASES2}stock R1\nstock O1\nobjectives R O\n"));
    let moves = legal(&s);
    assert_eq!(moves.len(), 12, "{moves:?}");
    for l in [1, 5, 9, 13] {
        assert!(!moves.contains(&format!("R{l}")));
        let msg = refused(&s, &format!("R{l}"));
        assert!(msg.contains("bare red base"), "{msg}");
    }
    assert_eq!(s.count_moves(), 12);
}

#[test]
fn a_piece_on_a_bare_base_of_another_colour_shows_its_colour() {
    let mut s = st(&format!("{BASES2}stock R1 O1\nstock O1\nobjectives R O\n"));
    assert_eq!(s.shows(1), Colour::Orange);
    play(&mut s, "R2");
    assert_eq!(s.shows(1), Colour::Red);
    assert_eq!(s.pile(1), [Colour::Red]);
    assert_eq!(s.eval_counts(Colour::Red), (5, 1));
    assert_eq!(s.eval_counts(Colour::Orange), (3, 0));
    assert_eq!(s.stock(0, Colour::Red), 0);
}

#[test]
fn a_different_colour_goes_on_top_of_a_pile() {
    let mut s = st(&format!("{BASES2}piles 2:Y\nstock R1\nstock O1\nobjectives R O\n"));
    assert_eq!(s.shows(1), Colour::Yellow);
    play(&mut s, "R2");
    assert_eq!(s.pile(1), [Colour::Yellow, Colour::Red]);
    assert_eq!(s.top(1), Some(Colour::Red));
    assert_eq!(s.height(1), 2);
    assert_eq!(s.eval_counts(Colour::Yellow), (4, 0));
}

#[test]
fn the_same_colour_as_the_top_cancels_both_pieces() {
    let mut s = st(&format!("{BASES2}piles 2:YG\nstock R1 G2\nstock Y1 O1\nobjectives R O\n"));
    let before = s.clone();
    // G on a pile topped by G: both leave; Y shows again.
    play(&mut s, "G2");
    assert_eq!(s.pile(1), [Colour::Yellow]);
    assert_eq!(s.shows(1), Colour::Yellow);
    assert_eq!(s.stock(0, Colour::Green), 1, "the placed piece left the stock");
    assert_eq!(s.pieces_left(), 4);
    // Undo puts both back.
    let mut t = before.clone();
    let mv = t.parse_move("G2").unwrap();
    let u = t.apply(mv);
    assert_eq!(t, s);
    t.undo(mv, u);
    assert_eq!(t, before);
    assert_eq!(t.key(), before.key());
    // Y on Y cancels down to the bare orange base.
    play(&mut s, "Y2");
    assert_eq!(s.height(1), 0);
    assert_eq!(s.shows(1), Colour::Orange);
    assert_eq!(s.eval_counts(Colour::Orange), (4, 0));
    // Back on the bare base, the same-colour ban applies again: O2 is refused.
    play(&mut s, "R3");
    let msg = refused(&s, "O2");
    assert!(msg.contains("bare orange base"), "{msg}");
    assert!(legal(&s).contains(&"O3".to_string()));
}

#[test]
fn piles_have_no_height_limit() {
    // 4 players, every piece of the box but two on location 1 (a red base):
    // 34 pieces cycling O Y G B V R from the bottom.
    let cycle = ['O', 'Y', 'G', 'B', 'V', 'R'];
    let pile: String = (0..34).map(|i| cycle[i % 6]).collect();
    let text = format!("{BASES4}piles 1:{pile}\nstock V1\nstock R1\nstock -\nstock -\nobjectives R O Y G\n");
    let mut s = st(&text);
    assert_eq!(s.height(0), 34);
    assert_eq!(s.top(0), Some(Colour::Blue));
    let start = s.clone();
    play(&mut s, "V1");
    assert_eq!(s.height(0), 35);
    // R on V: 36 pieces high, the whole box on one location.
    let mut t = s.clone();
    play(&mut t, "R1");
    assert_eq!(t.height(0), 36);
    assert_eq!(t.top(0), Some(Colour::Red));
    assert_eq!(t.to_move(), Turn::Over);
    assert_eq!(t.highest_pile(Colour::Red), 36);
    let mut full: Vec<Colour> = pile.chars().map(|c| Colour::from_letter(c).unwrap()).collect();
    full.extend([Colour::Violet, Colour::Red]);
    assert_eq!(t.pile(0), full);
    // Undo all the way.
    let mut u = start.clone();
    let mv1 = Move::place(Colour::Violet, 0);
    let mv2 = Move::place(Colour::Red, 0);
    let u1 = u.apply(mv1);
    let u2 = u.apply(mv2);
    assert_eq!(u, t);
    u.undo(mv2, u2);
    u.undo(mv1, u1);
    assert_eq!(u, start);
}

#[test]
fn a_player_with_no_legal_placement_passes() {
    // 3 players: player 1 has nothing left, player 3 neither.
    let text = "bases ROYGB ROYGB ROYGB ROYGB\nstock -\nstock R2\nstock -\nobjectives R O Y\n";
    let mut s = st(text);
    assert_eq!(s.to_move(), Turn::Seat(0));
    assert_eq!(legal(&s), ["pass"]);
    assert_eq!(s.count_moves(), 1);
    play(&mut s, "PASS");
    assert_eq!(s.to_move(), Turn::Seat(1));
    // Player 2 can place: a pass is refused.
    let msg = refused(&s, "pass");
    assert!(msg.contains("may not pass"), "{msg}");
    play(&mut s, "R2");
    assert_eq!(legal(&s), ["pass"], "player 3 passes");
    play(&mut s, "pass");
    play(&mut s, "pass");
    play(&mut s, "R3");
    assert_eq!(s.to_move(), Turn::Over);
    let history: Vec<(usize, String)> = s.history().map(|(p, m)| (p, m.to_string())).collect();
    assert_eq!(history, [(0, "pass"), (1, "R2"), (2, "pass"), (0, "pass"), (1, "R3")].map(|(p, m)| (p, m.to_string())));
}

#[test]
fn play_goes_round_in_seat_order() {
    let mut s = st(&format!("{BASES4}stock R1 O1\nstock O2\nstock Y2\nstock G2\nobjectives R O Y G\nto-move 3\n"));
    let mut seats = Vec::new();
    for m in ["Y2", "G1", "R2", "O1", "Y4", "G2", "O3", "O5"] {
        seats.push(s.to_move().seat().unwrap());
        play(&mut s, m);
    }
    assert_eq!(seats, [2, 3, 0, 1, 2, 3, 0, 1]);
    assert_eq!(s.to_move(), Turn::Over);
    assert_eq!(s.first_mover(), 2);
}

#[test]
fn the_golden_rule_forbids_the_previous_location() {
    let text = format!("{BASES2}stock R2 O1\nstock Y2\nobjectives R O\ngolden-rule on\nlast 2\n");
    let mut s = st(&text);
    assert!(!legal(&s).iter().any(|m| m.ends_with('2') && m.len() == 2));
    let msg = refused(&s, "R2");
    assert!(msg.contains("golden rule") && msg.contains("location 2"), "{msg}");
    assert_eq!(s.forbidden_location(), Some(1));
    assert_eq!(legal(&s).len(), 11 + 12, "R: 12 minus location 2; O: 12, location 2 being an orange base anyway");
    play(&mut s, "R3");
    // Now location 3 is forbidden, to both colours, and 2 is free again.
    assert!(refused(&s, "Y3").contains("golden rule"));
    assert!(legal(&s).contains(&"Y2".to_string()));
    // Even cancelling the piece just placed is forbidden.
    let mut t = st(&format!("{BASES2}stock R1\nstock R1\nobjectives R O\ngolden-rule on\n"));
    play(&mut t, "R2");
    assert!(refused(&t, "R2").contains("golden rule"));
    // Without the golden rule the same cancel is legal.
    let mut t = st(&format!("{BASES2}stock R1\nstock R1\nobjectives R O\n"));
    play(&mut t, "R2");
    play(&mut t, "R2");
    assert_eq!(t.height(1), 0);
}

#[test]
fn a_pass_does_not_lift_the_golden_rule_ban() {
    let text = "bases ROYGB ROYGB ROYGB ROYGB\nstock R1\nstock -\nstock Y1\nobjectives R O Y\ngolden-rule on\n";
    let mut s = st(text);
    play(&mut s, "R2");
    play(&mut s, "pass");
    assert_eq!(s.to_move(), Turn::Seat(2));
    assert!(refused(&s, "Y2").contains("golden rule"));
}

#[test]
fn the_game_ends_when_every_piece_is_placed() {
    let mut s = st(&format!("{BASES2}stock R1\nstock O1\nobjectives R O\n"));
    assert!(s.outcome().is_none());
    play(&mut s, "R2");
    assert!(s.outcome().is_none());
    play(&mut s, "O1");
    assert_eq!(s.to_move(), Turn::Over);
    assert!(legal(&s).is_empty());
    assert_eq!(s.count_moves(), 0);
    let o = s.outcome().unwrap();
    assert_eq!(o.reason, "all pieces placed");
    // After the end, every move is refused with the reason.
    let mv = s.parse_move("R3").unwrap();
    assert_eq!(s.clone().try_apply(mv).unwrap_err().message, "the game is over");
}

#[test]
fn notation() {
    let s = st(&format!("{BASES2}stock R1\nstock O1\nobjectives R O\n"));
    assert_eq!(s.parse_move("R7").unwrap(), Move::place(Colour::Red, 6));
    assert_eq!(s.parse_move(" r7 ").unwrap(), Move::place(Colour::Red, 6));
    assert_eq!(s.parse_move("g16").unwrap(), Move::place(Colour::Green, 15));
    assert_eq!(s.parse_move("Pass").unwrap(), Move::PASS);
    assert_eq!(s.format_move(Move::place(Colour::Yellow, 10)), "Y11");
    assert_eq!(s.format_move(Move::PASS), "pass");
    for (bad, says) in [
        ("", "empty"),
        ("Z7", "not a colour letter"),
        ("7R", "not a colour letter"),
        ("B7", "blue (B) is not in play"),
        ("R", "no location number"),
        ("R0", "no location 0"),
        ("R17", "no location 17"),
        ("R99999999999999999999", "no location"),
        ("R7x", "not a location number"),
        ("R-1", "not a location number"),
        ("é", "not a colour letter"),
        ("passe", "not a colour letter"),
    ] {
        let e = s.parse_move(bad).expect_err(bad);
        assert_eq!(e.kind, MoveErrorKind::Syntax, "{bad}");
        assert!(e.message.contains(says), "{bad}: {}", e.message);
    }
}

#[test]
fn refusals_name_the_reason_and_change_nothing() {
    let s = st(&format!("{BASES2}stock R1\nstock O1\nobjectives R O\n"));
    assert!(refused(&s, "O3").contains("Player1 has no orange piece left"));
    assert!(refused(&s, "R5").contains("bare red base"));
    assert!(refused(&s, "pass").contains("may not pass"));
}

// ----- End and scoring -------------------------------------------------------

/// A finished 2-player game from piles alone.
fn end2(piles: &str) -> KabaleoState {
    st(&format!("{BASES2}piles {piles}\nstock -\nstock -\nobjectives R O\n"))
}

#[test]
fn the_colour_on_the_most_locations_wins() {
    let s = end2("2:R");
    assert_eq!(s.score(Colour::Red), Score { locations: 5, covered: 1, highest_pile: 1 });
    assert_eq!(s.score(Colour::Orange), Score { locations: 3, covered: 0, highest_pile: 0 });
    let o = s.outcome().unwrap();
    assert_eq!(o.winners(), [0]);
    assert_eq!(o.returns(), [1.0, -1.0]);
    assert_eq!(o.result_string(), "1-0");
    assert_eq!(s.decided_by(), Some(Decider::Locations));
}

#[test]
fn a_colour_nobody_drew_scores_for_nobody() {
    // Yellow shows on 7 locations but belongs to nobody: orange (4) beats red (1).
    let s = end2("1:Y 5:Y 9:Y 4:O");
    assert_eq!(s.locations_showing(Colour::Yellow), 7);
    assert_eq!(s.score(Colour::Red).locations, 1);
    assert_eq!(s.score(Colour::Orange).locations, 5);
    assert_eq!(s.outcome().unwrap().winners(), [1]);
}

#[test]
fn first_tie_break_most_covered_locations() {
    // Red: bases 9, 13 and piles 3, 4 → 4 locations, 2 covered.
    // Orange: bases 2, 6, 10 and pile 7 → 4 locations, 1 covered.
    let s = end2("1:Y 5:Y 3:R 4:R 14:G 7:O");
    assert_eq!(s.score(Colour::Red), Score { locations: 4, covered: 2, highest_pile: 1 });
    assert_eq!(s.score(Colour::Orange), Score { locations: 4, covered: 1, highest_pile: 1 });
    assert_eq!(s.outcome().unwrap().winners(), [0]);
    assert_eq!(s.decided_by(), Some(Decider::Covered));
    // Swapping the objectives swaps the winner.
    let t = st(&format!("{BASES2}piles 1:Y 5:Y 3:R 4:R 14:G 7:O\nstock -\nstock -\nobjectives O R\n"));
    assert_eq!(t.outcome().unwrap().winners(), [1]);
}

#[test]
fn second_tie_break_the_highest_pile() {
    // Both 4 locations, 1 covered; red tops a pile of 3, orange one of 2.
    let s = end2("1:YO 2:YGR");
    assert_eq!(s.score(Colour::Red), Score { locations: 4, covered: 1, highest_pile: 3 });
    assert_eq!(s.score(Colour::Orange), Score { locations: 4, covered: 1, highest_pile: 2 });
    assert_eq!(s.outcome().unwrap().winners(), [0]);
    assert_eq!(s.decided_by(), Some(Decider::HighestPile));
    // A higher pile topped by a colour nobody drew does not matter: green tops
    // 5 pieces on location 3; red (3) still beats orange (2).
    let s = end2("1:YO 2:YGR 3:GOGRG");
    assert_eq!(s.highest_pile(Colour::Green), 5);
    assert_eq!(s.score(Colour::Red), Score { locations: 4, covered: 1, highest_pile: 3 });
    assert_eq!(s.outcome().unwrap().winners(), [0]);
}

#[test]
fn players_still_tied_share_the_win() {
    let s = end2("1:YO 2:YR");
    let o = s.outcome().unwrap();
    assert_eq!(o.winners(), [0, 1]);
    assert!(o.is_draw());
    assert_eq!(o.result_string(), "1/2-1/2");
    assert_eq!(o.returns(), [0.0, 0.0]);
    assert_eq!(s.decided_by(), Some(Decider::Shared));
    // The untouched board is a tie too: 4 bare bases each.
    assert!(end2("").outcome().unwrap().is_draw());
}

#[test]
fn returns_follow_the_full_ranking_with_more_players() {
    let bases3 = "bases ROYGB ROYGB ROYGB ROYGB\n";
    // Bases: R 1 6 11 16, O 2 7 12 17, Y 3 8 13 18, G 4 9 14 19, B 5 10 15 20.
    // Red +2 (on 4 and 9): 6. Orange +1 (on 5), covered 1: 5. Yellow 4 bare; green 2.
    let s = st(&format!("{bases3}piles 4:R 9:R 5:O\nstock -\nstock -\nstock -\nobjectives Y R O\n"));
    assert_eq!(s.score(Colour::Red).locations, 6);
    assert_eq!(s.score(Colour::Orange).locations, 5);
    assert_eq!(s.score(Colour::Yellow).locations, 4);
    let o = s.outcome().unwrap();
    assert_eq!(o.winners(), [1]);
    assert_eq!(o.returns(), [-1.0, 1.0, 0.0]);
    assert_eq!(o.result_string(), "0-1-0");
    let places: Vec<usize> = s.standings().unwrap().iter().map(|p| p.place).collect();
    assert_eq!(places, [3, 1, 2]);

    // 4 players, two share the win, the two others tie behind: R and O 5 each
    // (1 covered), Y and G 3 each (0 covered).
    let s = st(&format!("{BASES4}piles 3:R 4:O\nstock -\nstock -\nstock -\nstock -\nobjectives Y R G O\n"));
    let o = s.outcome().unwrap();
    assert_eq!(o.winners(), [1, 3]);
    assert_eq!(o.result_string(), "0-1/2-0-1/2");
    for (r, want) in o.returns().iter().zip([-2.0 / 3.0, 2.0 / 3.0, -2.0 / 3.0, 2.0 / 3.0]) {
        assert!((r - want).abs() < 1e-6, "{:?}", o.returns());
    }
    assert_eq!(s.decided_by(), Some(Decider::Shared));
}

#[test]
fn the_end_reveals_everything() {
    let s = end2("2:R");
    let v = serde_json::to_value(s.view(Reader::Spectator)).unwrap();
    assert_eq!(v["objectives"], serde_json::json!(["R", "O"]));
    assert_eq!(v["standings"][0]["winner"], true);
    assert_eq!(v["standings"][0]["colour"], "R");
    assert_eq!(v["standings"][0]["locations"], 5);
    assert_eq!(v["locations_per_colour"], serde_json::json!({"R": 5, "O": 3, "Y": 4, "G": 4}));
    assert_eq!(v["decided_by"], "most locations");
    let tags = s.result_tags();
    assert_eq!(
        tags,
        [
            ("Objectives", "R O"),
            ("Locations", "R=5 O=3 Y=4 G=4"),
            ("Covered", "R=1 O=0 Y=0 G=0"),
            ("Decided", "most locations")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let drawing = s.render(Reader::Seat(1), false);
    assert!(drawing.contains("Player1 wins (most locations)"), "{drawing}");
    assert!(drawing.contains("objective R red") && drawing.contains("objective O orange"), "{drawing}");
}

#[test]
fn positions_are_checked_and_round_trip() {
    for (bad, says) in [
        (format!("{BASES2}stock R1\nobjectives R\n"), "2 to 4 players"),
        (format!("{BASES2}stock R1\nstock R1\nobjectives R R\n"), "two players have"),
        (format!("{BASES2}stock R1\nstock R1\nobjectives R B\n"), "not in play"),
        (format!("{BASES2}piles 1:R\nstock -\nstock -\nobjectives R O\n"), "refused or cancelled"),
        (format!("{BASES2}piles 2:RR\nstock -\nstock -\nobjectives R O\n"), "refused or cancelled"),
        (format!("{BASES2}stock R6\nstock R1\nobjectives R O\n"), "7 red pieces"),
        (format!("{BASES2}stock B1\nstock R1\nobjectives R O\n"), "not in play"),
        ("bases ROYG ROYG ROYG ROYR\nstock -\nstock -\nobjectives R O\n".to_string(), "5 red bases"),
        ("bases ROYGB ROYGB ROYGB ROYGB\nstock -\nstock -\nobjectives R O\n".to_string(), "4 colours"),
        (format!("{BASES2}stock -\nstock -\nobjectives R O\nto-move 3\n"), "player 3 to move"),
    ] {
        let p = Position::parse(&bad).unwrap();
        let e = KabaleoState::from_position(&p).expect_err(&bad);
        assert!(e.0.contains(says), "{bad}: {e}");
    }
    for bad in ["", "bases ROYX", "bases ROYG\nstock R9\n", "bases ROYG\npiles 3=R", "oops 1", "bases ROYG\nstock -"] {
        assert!(Position::parse(bad).is_err(), "{bad:?}");
    }
    let text =
        format!("{BASES2}piles 1:YO 2:YGR\nstock R1 G1\nstock O2\nobjectives R O\nto-move 2\ngolden-rule on\nlast 2\n");
    let s = st(&text);
    let p = s.position();
    assert_eq!(Position::parse(&p.to_string()).unwrap(), p);
    assert_eq!(KabaleoState::from_position(&p).unwrap(), s);
}

proptest::proptest! {
    #[test]
    fn parsing_never_panics(text in "\\PC{0,12}") {
        let s = st(&format!("{BASES2}stock R1\nstock O1\nobjectives R O\n"));
        if let Ok(mv) = s.parse_move(&text) {
            proptest::prop_assert_eq!(s.parse_move(&s.format_move(mv)).unwrap(), mv);
            let mut work = s.clone();
            let legal = s.is_legal(mv);
            proptest::prop_assert_eq!(work.try_apply(mv).is_ok(), legal);
        }
        let _ = Position::parse(&text);
        let _ = Position::parse(&format!("{BASES2}{text}"));
    }
}
