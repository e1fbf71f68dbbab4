//! The integer actions and observation planes of `docs/encoding/abalone.md`,
//! checked against numbers worked out by hand from the documented formula
//! (`action = 42·cell + 7·dir + kind`) and against positions described by hand.

use plateau_abalone::{Abalone, AbaloneState, Rules, format_position, parse_position};
use plateau_core::{Encode, Game, Options, State, Turn};

fn configured(variant: &str, options: &[(&str, &str)]) -> AbaloneState {
    let mut o = Options::new();
    for (k, v) in options {
        o.set(*k, *v);
    }
    let settings = Abalone::INFO.resolve(Some(variant), &o).unwrap();
    Abalone::configure(&settings).unwrap().start(0)
}

fn standard() -> AbaloneState {
    configured("standard", &[])
}

fn play(s: &mut AbaloneState, text: &str) {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn action(s: &AbaloneState, text: &str) -> usize {
    s.action(s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn observe(s: &AbaloneState, seat: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; 9 * 81];
    s.observe(seat, &mut out);
    out
}

/// The value of `plane` at a cell such as `e5`, from the documented layout
/// (height = row A..I, width = number − 1), computed here independently.
fn at(obs: &[f32], plane: usize, cell: &str) -> f32 {
    let b = cell.as_bytes();
    let (h, w) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
    obs[plane * 81 + h * 9 + w]
}

/// The 61 cell names of the hexagon, and the 20 grid points off it, by the
/// rule of the rules' text: row A has numbers 1–5, row I numbers 5–9.
fn grid_points() -> Vec<(String, bool)> {
    let mut v = Vec::new();
    for h in 0..9i32 {
        for w in 0..9i32 {
            let name = format!("{}{}", (b'a' + h as u8) as char, w + 1);
            v.push((name, (w - h).abs() <= 4));
        }
    }
    v
}

/// Check every plane of `obs` against the marbles and constants given.
fn check_planes(obs: &[f32], mine: &str, theirs: &str, constants: [f32; 6]) {
    let mine: Vec<&str> = mine.split_whitespace().collect();
    let theirs: Vec<&str> = theirs.split_whitespace().collect();
    let points = grid_points();
    assert_eq!(points.iter().filter(|(_, on)| *on).count(), 61);
    for (cell, on) in &points {
        let c = cell.as_str();
        let expect = [
            f32::from(u8::from(*on)),
            f32::from(u8::from(mine.contains(&c))),
            f32::from(u8::from(theirs.contains(&c))),
        ];
        for (p, e) in expect.iter().enumerate() {
            assert_eq!(at(obs, p, c), *e, "plane {p} at {c}");
        }
        for (k, v) in constants.iter().enumerate() {
            let e = if *on { *v } else { 0.0 };
            assert_eq!(at(obs, 3 + k, c), e, "plane {} at {c}", 3 + k);
        }
    }
}

const STANDARD_BLACK: &str = "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5";
const STANDARD_WHITE: &str = "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7";

#[test]
fn action_space_and_shape_are_the_same_for_every_configuration() {
    // 61 cells × 6 directions × 7 kinds = 2,562; 9 planes over 9 × 9.
    let configs: [(&str, &[(&str, &str)]); 9] = [
        ("standard", &[]),
        ("belgian-daisy", &[]),
        ("german-daisy", &[]),
        ("alien", &[]),
        ("snakes", &[]),
        ("domination", &[]),
        ("standard", &[("marbles-to-win", "1"), ("max-plies", "40")]),
        ("standard", &[("repetition", "off")]),
        ("standard", &[("position", "5/6/7/8/4b4/8/7/6/5 w 0 0")]),
    ];
    for (variant, options) in configs {
        let s = configured(variant, options);
        assert_eq!(s.actions(), 2562, "{variant} {options:?}");
        assert_eq!(s.observation_shape(), [9, 9, 9], "{variant} {options:?}");
        assert_eq!(
            s.plane_names(),
            [
                "cell_exists",
                "mine",
                "theirs",
                "pushed_out_by_me",
                "pushed_out_by_them",
                "my_turn",
                "is_black",
                "repeated",
                "ply_progress"
            ]
        );
    }
}

#[test]
fn actions_of_moves_worked_by_hand() {
    let s = standard();
    // Cells: a1–a5 0–4, b1–b6 5–10, c1–c7 11–17, d 18–25, e 26–34, f 35–42,
    // g 43–49, h 50–55, i5–i9 56–60. Directions: E 0, NE 1, NW 2, W 3, SW 4,
    // SE 5.
    // c3 (13) alone to d3, north-west (2), single (0): 42·13 + 7·2 + 0.
    assert_eq!(action(&s, "c3d3"), 560);
    // a3 (2) b4 c5 to b4 c5 d6, north-east (1), in-line 3 (2): 84 + 7 + 2.
    assert_eq!(action(&s, "a3b4"), 93);
    // b3 (7) c3 to c3 d3, north-west (2), in-line 2 (1): 294 + 14 + 1.
    assert_eq!(action(&s, "b3c3"), 309);
    // c3 c4 c5 sideways to d3 d4 d5: cell c3 (13), north-west (2), the line on
    // axis 0 = (2 + 1 + 0) mod 3, so j = 0, three marbles: kind 3 + 0 + 1 = 4.
    assert_eq!(action(&s, "c3c5d3"), 564);
    // The same line to d4 d5 d6, north-east (1): axis 0 = (1 + 1 + 1) mod 3,
    // j = 1, kind 3 + 2 + 1 = 6: 546 + 7 + 6.
    assert_eq!(action(&s, "c3c5d4"), 559);
    // Both ends written the other way round (c5 first, moving to d6): the
    // same move.
    assert_eq!(action(&s, "c5c3d6"), 559);
    // c4 (14) c5 to d4 d5, north-west, two marbles on axis 0: kind 3: 588 + 14 + 3.
    assert_eq!(action(&s, "c4c5d4"), 605);
    // b5 (9) b6 to c6 c7, north-east, j = 1, two marbles: kind 5: 378 + 7 + 5.
    assert_eq!(action(&s, "b5b6c6"), 390);

    // White: i5 (56) h5 g5 to h5 g5 f5, south-east (5), in-line 3: 2352 + 35 + 2.
    let mut w = s.clone();
    play(&mut w, "c3d3");
    assert_eq!(action(&w, "i5h5"), 2389);

    // Broadside lines along the other axes, on an otherwise empty board.
    let p = parse_position("5/6/7/4b3/4b4/8/7/6/5 b 0 0", Rules::default()).unwrap();
    // e5 (30) f6 (line on axis 1) to e6 f7, east (0): axis 1 = (0 + 1 + 0) mod 3,
    // j = 0, two marbles: kind 3: 1260 + 0 + 3.
    assert_eq!(action(&p, "e5f6e6"), 1263);
    let q = parse_position("5/6/2b4/3b4/4b4/8/7/6/5 b 0 0", Rules::default()).unwrap();
    // e5 (30) f5 g5 (axis 2) to e4 f4 g4, west (3): axis 2 = (3 + 1 + 1) mod 3,
    // j = 1, three marbles: kind 6: 1260 + 21 + 6.
    assert_eq!(action(&q, "e5g5e4"), 1287);
    // The same line to d4 e4 f4, south-west (4): axis 2 = (4 + 1 + 0) mod 3,
    // j = 0, kind 4: 1260 + 28 + 4.
    assert_eq!(action(&q, "e5g5d4"), 1292);
    for (st, text) in [(&p, "e5f6e6"), (&q, "e5g5e4"), (&q, "e5g5d4")] {
        assert!(st.is_legal(st.parse_move(text).unwrap()), "{text}");
    }
}

#[test]
fn actions_name_their_moves_back() {
    let s = standard();
    let name = |a: usize| s.move_of(a).map(|m| s.format_move(m));
    assert_eq!(name(560).as_deref(), Some("c3d3"));
    assert_eq!(name(93).as_deref(), Some("a3b4"));
    assert_eq!(name(559).as_deref(), Some("c3c5d4"));
    assert_eq!(name(2389).as_deref(), Some("i5h5"));
    // Action 0: a1 alone east (to a2), a move the board can express (illegal
    // here: a2 is occupied).
    assert_eq!(name(0).as_deref(), Some("a1a2"));
    assert!(!s.is_legal(s.move_of(0).unwrap()));
    // g7 (47), south-east (5), kind 6: the line g7 h8 i9 (axis 1 =
    // (5 + 1 + 1) mod 3) to f7 g8 h9: 1974 + 35 + 6.
    assert_eq!(name(2015).as_deref(), Some("g7i9f7"));
    // The last action, 2561 = 2520 + 35 + 6, would start the same kind of
    // line at i9, the corner: no such line.
    assert_eq!(name(2561), None);
}

#[test]
fn move_of_refuses_out_of_range_and_impossible_actions() {
    let s = standard();
    for a in [2562, 2563, 10_000, 1 << 40, usize::MAX - 1, usize::MAX] {
        assert_eq!(s.move_of(a), None, "{a}");
    }
    // a1 (0) alone west (3) or south-west (4): off the board.
    assert_eq!(s.move_of(21), None);
    assert_eq!(s.move_of(28), None);
    // i9 (60) with two marbles in front of it going east (kind 2): 2520 + 0 + 2.
    assert_eq!(s.move_of(2522), None);
    // a5 (4) and a6 (no such cell) sideways north-west: 168 + 14 + 3.
    assert_eq!(s.move_of(185), None);
    // e9 (34) alone east: e9 is the end of row E (the grid point after it is
    // f1, off the board; two steps on would wrap to f2).
    assert_eq!(s.move_of(42 * 34), None);
    // e9 e8 e7 ... an in-line 3 from e7 (32) east: e8, e9 on the board.
    assert_eq!(s.move_of(42 * 32 + 2).map(|m| s.format_move(m)).as_deref(), Some("e7e8"));
    // Exactly 1,842 actions name a move (counted independently: 312 singles,
    // 312 + 258 in-line, 264 + 216 broadside lines per j).
    assert_eq!((0..2562).filter(|&a| s.move_of(a).is_some()).count(), 1842);
    for a in 0..2562 {
        if let Some(m) = s.move_of(a) {
            assert_eq!(s.action(m), a);
        }
    }
}

#[test]
fn a_line_of_four_written_in_notation_gets_the_three_marble_slot() {
    let s = parse_position("5/6/7/8/4bbbb1/8/7/6/5 b 0 0", Rules::default()).unwrap();
    // e5 (30) e6 e7 e8 east: the slot of three marbles from e5, 1260 + 0 + 2,
    // which reads back as the same text (and is illegal too).
    assert_eq!(action(&s, "e5e6"), 1262);
    let m = s.move_of(1262).unwrap();
    assert_eq!(s.format_move(m), "e5e6");
    assert!(!s.is_legal(m));
}

#[test]
fn legal_moves_of_the_standard_start_as_actions() {
    let s = standard();
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut actions: Vec<usize> = moves.iter().map(|&m| s.action(m)).collect();
    actions.sort();
    actions.dedup();
    assert_eq!(actions.len(), 44);
    for a in [560, 93, 309, 564, 559, 605, 390] {
        assert!(actions.contains(&a), "{a}");
    }
}

#[test]
fn observation_of_the_standard_start() {
    let s = standard();
    // Black (seat 0): own marbles on rows A, B and c3–c5; to move; no marbles
    // pushed out; black; nothing repeated; no max-plies.
    let black = observe(&s, 0);
    check_planes(&black, STANDARD_BLACK, STANDARD_WHITE, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    let white = observe(&s, 1);
    check_planes(&white, STANDARD_WHITE, STANDARD_BLACK, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(at(&black, 1, "a1"), 1.0);
    assert_eq!(at(&white, 2, "a1"), 1.0);
    assert_eq!(at(&white, 1, "i9"), 1.0);
    assert_eq!(at(&black, 0, "a6"), 0.0);
    assert_eq!(at(&black, 0, "i4"), 0.0);
}

/// The position's text written by hand: White to move, a row of nine empty
/// cells, runs at both ends of a row, and two-digit counts of marbles
/// pushed out (possible with `marbles-to-win` above 9).
#[test]
fn position_text_with_white_to_move_and_two_digit_counts() {
    let text = "5/6/7/8/4w4/8/7/6/b4 w 13 10";
    let s = parse_position(text, Rules::default()).unwrap();
    assert_eq!(format_position(&s), text);
    let text = "w4/3b2/7/8/9/8/7/6/4w b 0 12";
    let s = parse_position(text, Rules::default()).unwrap();
    assert_eq!(format_position(&s), text);
}

#[test]
fn observation_after_two_moves_from_notation() {
    let mut s = configured("standard", &[("max-plies", "40")]);
    play(&mut s, "a3b4");
    play(&mut s, "i5h5");
    // a3 b4 c5 moved north-east: a3 empty, d6 black. i5 h5 g5 moved
    // south-east: i5 empty, f5 white.
    assert_eq!(format_position(&s), "1wwww/wwwwww/2www2/3w4/9/5b2/2bbb2/bbbbbb/bb1bb b 0 0");
    let black = "a1 a2 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5 d6";
    let white = "i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7 f5";
    // Two plies of 40: 0.05.
    check_planes(&observe(&s, 0), black, white, [0.0, 0.0, 1.0, 1.0, 0.0, 0.05]);
    check_planes(&observe(&s, 1), white, black, [0.0, 0.0, 0.0, 0.0, 0.0, 0.05]);
}

#[test]
fn pushed_out_marbles_are_shares_of_marbles_to_win() {
    // White to move; Black has pushed out 3, White 1; marbles-to-win 6.
    let text = "5/6/7/8/4b4/4w3/7/6/5 w 3 1";
    let s = configured("standard", &[("position", text)]);
    check_planes(&observe(&s, 1), "d5", "e5", [1.0 / 6.0, 0.5, 1.0, 0.0, 0.0, 0.0]);
    check_planes(&observe(&s, 0), "e5", "d5", [0.5, 1.0 / 6.0, 0.0, 1.0, 0.0, 0.0]);
    // With marbles-to-win 4, 3 of 4 and 1 of 4.
    let s = configured("standard", &[("position", text), ("marbles-to-win", "4")]);
    check_planes(&observe(&s, 0), "e5", "d5", [0.75, 0.25, 0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn a_finished_game_is_nobody_s_turn() {
    // Black's e7 e8 push White's e9 off the board; with marbles-to-win 1
    // that wins.
    let s = parse_position("5/6/7/8/6bbw/8/7/6/5 b 0 0", Rules { marbles_to_win: 1, ..Rules::default() }).unwrap();
    let mut s = s;
    play(&mut s, "e7e8");
    assert_eq!(s.to_move(), Turn::Over);
    // e7 e8 pushed e9's white marble out: Black has e8 e9, White nothing.
    check_planes(&observe(&s, 0), "e8 e9", "", [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    check_planes(&observe(&s, 1), "", "e8 e9", [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_repeated_position_is_marked() {
    let mut s = standard();
    for text in ["c3d3", "g5f5", "d3c3"] {
        play(&mut s, text);
        assert_eq!(at(&observe(&s, 0), 7, "e5"), 0.0, "{text}");
    }
    play(&mut s, "f5g5");
    // The start again, Black to move: its second occurrence.
    check_planes(&observe(&s, 0), STANDARD_BLACK, STANDARD_WHITE, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]);
    check_planes(&observe(&s, 1), STANDARD_WHITE, STANDARD_BLACK, [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn the_two_points_of_view_mirror_each_other() {
    let mut s = configured("belgian-daisy", &[("max-plies", "100")]);
    let mut moves = Vec::new();
    for ply in 0..60 {
        let (a, b) = (observe(&s, 0), observe(&s, 1));
        let plane = |o: &[f32], p: usize| o[p * 81..(p + 1) * 81].to_vec();
        assert_eq!(plane(&a, 0), plane(&b, 0));
        assert_eq!(plane(&a, 1), plane(&b, 2));
        assert_eq!(plane(&a, 2), plane(&b, 1));
        assert_eq!(plane(&a, 3), plane(&b, 4));
        assert_eq!(plane(&a, 4), plane(&b, 3));
        for p in [5, 6] {
            let sum: Vec<f32> = plane(&a, p).iter().zip(plane(&b, p)).map(|(x, y)| x + y).collect();
            assert_eq!(sum, plane(&a, 0), "plane {p} at ply {ply}");
        }
        for p in [7, 8] {
            assert_eq!(plane(&a, p), plane(&b, p));
        }
        s.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        // A fixed, varied walk through the game.
        let mv = moves[(ply * 7 + 3) % moves.len()];
        s.apply(mv);
    }
}

#[test]
fn conformance_from_a_given_position_without_repetition_rule() {
    // The Encode laws of the kit on a configuration the layouts' runs do not
    // cover: a given position (White to move, marbles already pushed out).
    let kit = plateau_conformance::Kit::new(10);
    let position = ("position", "2ww1/wwwwww/2www2/3w4/9/5b2/2bbb2/bbbbb1/bb1bb w 2 1");
    let stats = kit.run::<Abalone>("standard", &[position, ("repetition", "off"), ("max-plies", "200")]);
    assert_eq!(stats.finished, 10, "{stats}");
}
