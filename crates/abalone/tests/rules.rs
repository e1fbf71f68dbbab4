//! Every rule and figure of `docs/rules/abalone.md`.

use plateau_abalone::{Abalone, AbaloneState, MoveKind, Rules, format_position, parse_position};
use plateau_core::{Game, MoveErrorKind, Options, Reader, State, Turn};

fn layout(name: &str) -> AbaloneState {
    Abalone::with_layout(name, Rules::default()).unwrap().start(0)
}

fn pos(text: &str) -> AbaloneState {
    parse_position(text, Rules::default()).unwrap()
}

fn pos_rules(text: &str, rules: Rules) -> AbaloneState {
    parse_position(text, rules).unwrap()
}

fn moves(s: &AbaloneState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let mut t: Vec<String> = v.into_iter().map(|m| s.format_move(m)).collect();
    t.sort();
    t
}

fn play(s: &mut AbaloneState, text: &str) {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn refused(s: &AbaloneState, text: &str) -> String {
    let mut work = s.clone();
    let err = match work.parse_move(text) {
        Err(e) => e,
        Ok(mv) => work.try_apply(mv).expect_err(text),
    };
    assert!(work == *s, "a refused move changed the state");
    err.message
}

/// An empty board with a few marbles, given as cell lists.
fn board(black: &str, white: &str, side: &str) -> AbaloneState {
    let mut rows: Vec<String> = Vec::new();
    for row in (0..9u8).rev() {
        let mut r = String::new();
        for n in 1..=9u8 {
            let Some(c) = plateau_abalone::board::Cell::new(row, n) else { continue };
            let name = c.to_string();
            if black.split_whitespace().any(|x| x == name) {
                r.push('b');
            } else if white.split_whitespace().any(|x| x == name) {
                r.push('w');
            } else {
                r.push('1');
            }
        }
        rows.push(r);
    }
    pos(&format!("{} {side}", rows.join("/")))
}

#[test]
fn move_counts_from_every_layout() {
    let expect = [
        ("standard", 44, Some([14, 12, 8, 8, 2])),
        ("belgian-daisy", 52, Some([20, 20, 4, 8, 0])),
        ("german-daisy", 80, Some([28, 28, 8, 16, 0])),
        ("alien", 48, None),
        ("snakes", 98, None),
        ("domination", 80, None),
    ];
    let singles = [("alien", 28), ("snakes", 40), ("domination", 28)];
    for (name, total, kinds) in expect {
        let s = layout(name);
        let mut v = Vec::new();
        s.legal_moves(&mut v);
        assert_eq!(v.len(), total, "{name}");
        assert_eq!(s.count_moves(), total, "{name}");
        let mut k = [0; 5];
        for m in &v {
            k[match m.kind() {
                MoveKind::Single => 0,
                MoveKind::InLine(2) => 1,
                MoveKind::InLine(_) => 2,
                MoveKind::Broadside(2) => 3,
                MoveKind::Broadside(_) => 4,
            }] += 1;
        }
        if let Some(kinds) = kinds {
            assert_eq!(k, kinds, "{name}: single / in-line 2 / in-line 3 / broadside 2 / broadside 3");
        }
        if let Some((_, single)) = singles.iter().find(|(n, _)| *n == name) {
            assert_eq!(k[0], *single, "{name} singles");
        }
    }
}

#[test]
fn three_push_one_with_a_marble_two_beyond() {
    // The common bug behind a wrong Belgian perft(2) (2,692, checked against
    // a naive generator in tests/reference.rs): refusing a 3-against-1 push
    // when the cell two beyond the pushed marble is occupied. Black c3 d4 e5
    // push white f6 to g7, which is empty; h8 beyond it holds a white marble.
    let s = board("c3 d4 e5", "f6 h8", "b");
    assert!(moves(&s).contains(&"c3d4".to_string()), "3 push 1 with a marble two beyond");
    let mut s = s;
    play(&mut s, "c3d4");
    assert_eq!(format_position(&s), board_text("d4 e5 f6", "g7 h8", "w"));
}

#[test]
fn single_marble_moves_to_any_empty_neighbour_and_never_pushes() {
    let s = board("e5", "e6", "b");
    let m = moves(&s);
    assert_eq!(m, ["e5d4", "e5d5", "e5e4", "e5f5", "e5f6"]);
    assert!(refused(&s, "e5e6").contains("single marble never pushes"));
    // On the edge: never off the board.
    let s = board("a1", "", "b");
    assert_eq!(moves(&s), ["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn sumito_two_push_one_and_three_push_one_or_two() {
    // 2 push 1 into an empty cell.
    let mut s = board("e3 e4", "e5", "b");
    play(&mut s, "e3e4");
    assert_eq!(format_position(&s), format_position(&board("e4 e5", "e6", "w")));
    // 3 push 2.
    let mut s = board("e1 e2 e3", "e4 e5", "b");
    play(&mut s, "e1e2");
    assert_eq!(format_position(&s), format_position(&board("e2 e3 e4", "e5 e6", "w")));
    // 3 push 1.
    let mut s = board("e1 e2 e3", "e4", "b");
    play(&mut s, "e1e2");
    assert_eq!(format_position(&s), format_position(&board("e2 e3 e4", "e5", "w")));
}

#[test]
fn equal_or_weaker_lines_never_push() {
    let s = board("e3 e4", "e5 e6", "b");
    assert!(refused(&s, "e3e4").contains("2 against 2"));
    let s = board("e1 e2 e3", "e4 e5 e6", "b");
    assert!(refused(&s, "e1e2").contains("3 against 3"));
    let s = board("e4", "e5", "b");
    assert!(refused(&s, "e4e5").contains("single"));
}

#[test]
fn four_marbles_never_move() {
    let s = board("e1 e2 e3 e4", "", "b");
    assert!(refused(&s, "e1e2").contains("four or more"));
    // The front three may move; so may the front two and the front one.
    let m = moves(&s);
    assert!(m.contains(&"e2e3".to_string()));
    assert!(m.contains(&"e3e4".to_string()));
    assert!(m.contains(&"e4e5".to_string()));
}

#[test]
fn no_push_against_own_marble_behind_the_run() {
    let s = board("e1 e2 e3 e5", "e4", "b");
    assert!(refused(&s, "e1e2").contains("own marble"));
    // Nor against an opponent marble beyond the run (that is a longer run).
    let s = board("e2 e3", "e4 e5", "b");
    assert!(refused(&s, "e2e3").contains("2 against 2"));
}

#[test]
fn push_out_and_marbles_to_win() {
    // Black e7 e8 pushes white e9 off the board.
    let rules = Rules { marbles_to_win: 2, ..Rules::default() };
    let mut s = pos_rules(&board_text("e7 e8", "e9 a1", "b"), rules);
    play(&mut s, "e7e8");
    assert_eq!(s.pushed_out_by(0), 1);
    assert_eq!(s.marbles(1).count_ones(), 1);
    assert!(s.to_move() != Turn::Over);
    // With marbles-to-win 1 the same push wins at once.
    let rules = Rules { marbles_to_win: 1, ..Rules::default() };
    let mut s = pos_rules(&board_text("e7 e8", "e9 a1", "b"), rules);
    play(&mut s, "e7e8");
    let o = s.outcome().unwrap();
    assert_eq!(o.winners(), vec![0]);
    assert_eq!(o.reason, "push-out");
    assert_eq!(s.to_move(), Turn::Over);
    assert!(moves(&s).is_empty());
    // Undo brings the marble back.
    let mut s = pos_rules(&board_text("e7 e8", "e9 a1", "b"), rules);
    let before = s.clone();
    let mv = s.parse_move("e7e8").unwrap();
    let u = s.apply(mv);
    s.undo(mv, u);
    assert!(s == before);
}

fn board_text(black: &str, white: &str, side: &str) -> String {
    format_position(&board(black, white, side))
}

#[test]
fn broadside_moves_never_push() {
    let s = board("c3 c4", "d3", "b");
    // c3c4 moving north-west would put c3 on d3 (occupied): refused.
    assert!(refused(&s, "c3c4d3").contains("broadside"));
    // Moving north-east, to d4 and d5, is fine.
    assert!(moves(&s).contains(&"c3c4d4".to_string()));
    // A line of three.
    let s = board("c3 c4 c5", "", "b");
    assert!(moves(&s).contains(&"c3c5d4".to_string()));
}

#[test]
fn push_by_two_with_a_third_behind_is_its_own_move() {
    let s = board("e1 e2 e3", "e4", "b");
    let m = moves(&s);
    assert!(m.contains(&"e1e2".to_string()), "three push one");
    assert!(m.contains(&"e2e3".to_string()), "the front two push one, e1 stays");
    let mut a = s.clone();
    play(&mut a, "e2e3");
    assert_eq!(format_position(&a), board_text("e1 e3 e4", "e5", "w"));
}

#[test]
fn broadside_notation_accepts_both_orders() {
    let s = layout("standard");
    let a = s.parse_move("c3c5d3").unwrap();
    let b = s.parse_move("C5C3D5").unwrap();
    assert_eq!(a, b);
    assert_eq!(s.format_move(b), "c3c5d3");
    assert_eq!(s.parse_move("c3-c5-d3").unwrap(), a);
    // An in-line move written broadside-style is a syntax error.
    let e = s.parse_move("c3c5c4").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Syntax);
    for bad in ["", "a1", "a1b2c", "z1a1", "a1a3", "a1b2c3d4", "é1a2", "a1 b2 x"] {
        assert!(s.parse_move(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn inline_notation_is_trailing_marble_then_its_target() {
    let s = layout("standard");
    // a1 b2 c3 is a line of three along north-east: the trailing marble is a1.
    let mv = s.parse_move("A1B2").unwrap();
    assert_eq!(mv.marbles(), 3);
    assert_eq!(s.format_move(mv), "a1b2");
    assert!(s.parse_move("a1c3").is_err());
    let e = s.parse_move("i5h5").unwrap_err();
    assert!(e.message.contains("no black marble"), "{e}");
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut s = board("a1", "i9", "b");
    for _ in 0..2 {
        play(&mut s, "a1a2");
        play(&mut s, "i9i8");
        play(&mut s, "a2a1");
        assert_eq!(s.to_move(), Turn::Seat(1));
        play(&mut s, "i8i9");
    }
    // The start position (black to move) now occurs for the third time.
    let o = s.outcome().expect("threefold repetition");
    assert!(o.is_draw());
    assert_eq!(o.reason, "threefold repetition");
}

#[test]
fn repetition_counts_only_the_same_side_to_move() {
    let mut s = board("a1", "i9", "b");
    play(&mut s, "a1a2");
    play(&mut s, "i9i8");
    play(&mut s, "a2a1");
    play(&mut s, "i8i9");
    assert_eq!(s.repetitions(), 2);
    assert!(s.outcome().is_none());
}

/// A record of another system (no repetition rule): c3 and g5 step out and
/// back twice, so that the start position, Black to move, occurs for the
/// third time after ply 8 (start, ply 4, ply 8: counted by hand); then the game
/// goes on.
const FOREIGN_RECORD: &str = "[Game \"abalone\"]\n[Variant \"standard\"]\n\n\
    1.c3d3 g5f5 2.d3c3 f5g5 3.c3d3 g5f5 4.d3c3 f5g5 5.a1b2 i5h5 *\n";

fn replay(text: &str, options: &[&str]) -> Result<Box<dyn plateau_core::AnyMatch>, plateau_core::RecordError> {
    let mut record = plateau_core::Record::parse(text).unwrap();
    for o in options {
        record.tags.push(("Option".into(), o.to_string()));
    }
    plateau_core::Registry::new().with(plateau_core::entry::<Abalone>()).replay(&record, None, None)
}

#[test]
fn a_record_with_a_threefold_repetition_replays_with_repetition_off() {
    // By default (the specification), the ninth move comes after the draw.
    let e = replay(FOREIGN_RECORD, &[]).err().expect("refused by default");
    assert_eq!(e.to_string(), "ply 9 (a1b2): the game is over");
    let e = replay(FOREIGN_RECORD, &["repetition=draw"]).err().expect("refused with repetition=draw");
    assert_eq!(e.to_string(), "ply 9 (a1b2): the game is over");
    // The first eight plies alone end in a draw by repetition.
    let eight = FOREIGN_RECORD.replace("5.a1b2 i5h5 ", "");
    let m = replay(&eight, &[]).unwrap();
    let o = m.outcome().expect("threefold repetition");
    assert!(o.is_draw());
    assert_eq!(o.reason, "threefold repetition");
    assert_eq!(m.ply(), 8);
    // With repetition=off the record replays to its end, and the game goes on.
    let m = replay(FOREIGN_RECORD, &["repetition=off"]).unwrap();
    assert_eq!(m.ply(), 10);
    assert_eq!(m.outcome(), None);
    assert_eq!(m.to_move(), Turn::Seat(0));
}

#[test]
fn repetition_off_never_draws_by_repetition() {
    let rules = Rules { repetition_draw: false, ..Rules::default() };
    let mut s = pos_rules(&board_text("a1", "i9", "b"), rules);
    for _ in 0..5 {
        play(&mut s, "a1a2");
        play(&mut s, "i9i8");
        play(&mut s, "a2a1");
        play(&mut s, "i8i9");
    }
    assert_eq!(s.repetitions(), 6);
    assert_eq!(s.outcome(), None);
}

#[test]
fn a_side_without_moves_draws() {
    // White's only marble at a1 is walled in by black marbles it cannot push
    // (single marbles never push).
    let s = pos(&board_text("a2 b1 b2 e5", "a1", "w"));
    let o = s.outcome().expect("no legal move");
    assert!(o.is_draw());
    assert_eq!(o.reason, "no legal move");
    assert!(moves(&s).is_empty());
}

#[test]
fn max_plies_ends_the_game() {
    let settings = Abalone::INFO.resolve(Some("standard"), Options::new().set("max-plies", "2")).unwrap();
    let mut s = Abalone::configure(&settings).unwrap().start(0);
    play(&mut s, "a1b2");
    play(&mut s, "i5h5");
    let o = s.outcome().unwrap();
    assert!(o.is_draw());
    assert_eq!(o.reason, "max-plies");
    // More marbles pushed out wins.
    let rules = Rules { max_plies: Some(1), ..Rules::default() };
    let mut s = pos_rules(&board_text("e7 e8 a1", "e9 a5", "b"), rules);
    play(&mut s, "e7e8");
    assert_eq!(s.outcome().unwrap().winners(), vec![0]);
}

#[test]
fn options_are_validated() {
    for (k, v) in
        [("marbles-to-win", "0"), ("marbles-to-win", "15"), ("max-plies", "-1"), ("layout", "square"), ("colour", "x")]
    {
        assert!(Abalone::INFO.resolve(None, Options::new().set(k, v)).is_err(), "{k}={v}");
    }
    let bad_positions = [
        "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb b",
        "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb b",
        "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb x",
        "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 20",
        "wwwwq/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b",
        "bbbbb/bbbbbb/2bbb2/8/9/8/2bbb2/bbbbbb/bbbbb b",
    ];
    for p in bad_positions {
        let settings = Abalone::INFO.resolve(None, Options::new().set("position", p)).unwrap();
        assert!(Abalone::configure(&settings).is_err(), "{p}");
    }
}

#[test]
fn position_text_round_trips() {
    for (name, _, _) in plateau_abalone::LAYOUTS {
        let s = layout(name);
        let text = format_position(&s);
        assert!(parse_position(&text, Rules::default()).unwrap() == s, "{name}: {text}");
    }
    assert_eq!(format_position(&layout("standard")), "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0");
}

#[test]
fn view_and_drawing() {
    let s = layout("belgian-daisy");
    let v = s.view(Reader::Spectator);
    assert_eq!(v.black.len(), 14);
    assert_eq!(v.to_move, Some("black"));
    assert_eq!(v.captured.black, 0);
    let drawing = s.render(Reader::Spectator, false);
    assert_eq!(drawing.lines().count(), 10);
    // Row I of the Belgian daisy: white i5 i6, i7 empty, black i8 i9.
    let top = drawing.lines().next().unwrap();
    assert!(top.contains("I ○ ○ · ● ●"), "{drawing}");
}

#[test]
fn conformance_all_layouts() {
    let kit = plateau_conformance::Kit::new(60);
    for (name, _, _) in plateau_abalone::LAYOUTS {
        let stats = kit.run::<Abalone>(name, &[("max-plies", "300")]);
        println!("{name}: {stats}");
        assert_eq!(stats.finished, 60, "{name}: every game ends, by max-plies at the latest: {stats}");
    }
}

#[test]
fn conformance_short_games() {
    let mut kit = plateau_conformance::Kit::new(200);
    kit.ply_cap = 3000;
    let stats = kit.run::<Abalone>("belgian-daisy", &[("marbles-to-win", "1")]);
    println!("marbles-to-win=1: {stats}");
    assert_eq!(stats.finished, 200, "{stats}");
    assert!(stats.endings.contains_key("push-out"), "{stats}");
    let stats = kit.run::<Abalone>("standard", &[("max-plies", "40")]);
    assert_eq!(stats.finished, 200);
}

#[test]
fn a_real_game_in_aba_pro_numbered_form_replays() {
    let text = include_str!("games/awc-2015-final.txt");
    let registry = plateau_core::Registry::new().with(plateau_core::entry::<Abalone>());
    let record = plateau_core::Record::parse(text).unwrap();
    let m = registry.replay(&record, None, None).unwrap();
    assert_eq!(m.ply(), 115);
    let v = m.view(Reader::Referee);
    assert_eq!(v["captured"]["black"], 5);
    assert_eq!(v["captured"]["white"], 1);
    // Written again and read back, it is the same game.
    let again = plateau_core::Record::parse(&m.record(Reader::Referee).to_text()).unwrap();
    assert_eq!(again.tag("Event"), Some("Abalone World Championship 2015, final"));
    let back = registry.replay(&again, None, None).unwrap();
    assert_eq!(back.key(), m.key());
    assert_eq!(back.history(), m.history());
}

#[test]
fn gestures_select_the_marbles_and_point_where_they_go() {
    let s = board("c3 c4 e1 e2", "e3", "b");
    let g = |text: &str| s.gesture(s.parse_move(text).unwrap());
    // In-line push: select both marbles, click the pushed marble's cell.
    assert_eq!(g("e1e2").select, ["e1", "e2"]);
    assert_eq!(g("e1e2").targets, ["e3"]);
    // Broadside north-east: c3→d4, c4→d5; d4 is also north-west's, so only d5.
    assert_eq!(g("c3c4d4").select, ["c3", "c4"]);
    assert_eq!(g("c3c4d4").targets, ["d5"]);
    assert_eq!(g("c3c4d3").targets, ["d3"]);
    // A single marble.
    assert_eq!(g("c3b3").select, ["c3"]);
    assert_eq!(g("c3b3").targets, ["b3"]);
}
