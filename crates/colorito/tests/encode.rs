//! Integer actions and observation planes (`Encode`), checked against values
//! worked out by hand from `docs/encoding/colorito.md` and the board of
//! `docs/rules/colorito.md`, not against the code that computes them.

mod common;

use common::{home_except, place, play, refs};
use plateau_colorito::{Cell, Colorito, ColoritoState, Move};
use plateau_core::{Encode, Game, State, Turn};

const PLANES: usize = 76;

fn cell(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

fn go(from: &str, to: &str) -> Move {
    Move::Go { from: cell(from), to: cell(to) }
}

fn observe(s: &ColoritoState, seat: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; PLANES * 100];
    s.observe(seat, &mut out);
    out
}

fn at(obs: &[f32], plane: usize, row: usize, col: usize) -> f32 {
    obs[plane * 100 + row * 10 + col]
}

// Plane numbers, as listed in the documentation.
const MINE: usize = 0;
const THEIRS: usize = 1;
const MY_PIECE_1: usize = 2;
const THEIR_PIECE_1: usize = 22;
const MY_HOME: usize = 42;
const THEIR_HOME: usize = 43;
const CELL_MY_LOW: usize = 44;
const CELL_NUMBER_1: usize = 48;
const MY_TARGETS: usize = 68;
const THEIR_TARGETS: usize = 69;
const MY_MOVES: usize = 70;
const THEIR_MOVES: usize = 71;
const TO_MOVE: usize = 72;
const FIRST_PLAYER: usize = 73;
const EXTRA_MOVE: usize = 74;
const GAME_OVER: usize = 75;

#[test]
fn action_space_and_shape_per_variant() {
    // 100 from-cells × 100 to-cells + 1 pass, on the one 10 × 10 board.
    for (variant, options) in [
        ("standard", vec![]),
        ("just-colours", vec![]),
        ("strict", vec![]),
        ("standard", vec![("first", "blue")]),
        ("strict", vec![("just-colours", "true"), ("max-moves", "15")]),
    ] {
        let s = Colorito::new(variant, &options).unwrap().start(0);
        assert_eq!(s.actions(), 10_001, "{variant} {options:?}");
        assert_eq!(s.observation_shape(), [76, 10, 10], "{variant} {options:?}");
    }
}

#[test]
fn plane_names() {
    let s = Colorito::standard().start(0);
    let names = s.plane_names();
    assert_eq!(names.len(), 76);
    let expect = [
        (0, "mine"),
        (1, "theirs"),
        (2, "my_piece_1"),
        (21, "my_piece_20"),
        (22, "their_piece_1"),
        (41, "their_piece_20"),
        (42, "my_home"),
        (43, "their_home"),
        (44, "cell_my_low"),
        (45, "cell_my_high"),
        (46, "cell_their_low"),
        (47, "cell_their_high"),
        (48, "cell_number_1"),
        (67, "cell_number_20"),
        (68, "my_targets"),
        (69, "their_targets"),
        (70, "my_moves"),
        (71, "their_moves"),
        (72, "to_move"),
        (73, "first_player"),
        (74, "extra_move"),
        (75, "game_over"),
    ];
    for (i, n) in expect {
        assert_eq!(names[i], n, "plane {i}");
    }
    let unique: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), 76);
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')));
}

#[test]
fn actions_of_start_moves_worked_by_hand() {
    // Red to move: cells are their own indices (rank·10 + file).
    let red = Colorito::standard().start(0);
    // c1 = 2, c3 = 22: R3 jumps over Y13 onto the red c3.
    assert_eq!(red.action(go("c1", "c3")), 222);
    // d2 = 13, d3 = 23: Y14 steps onto the yellow d3.
    assert_eq!(red.action(go("d2", "d3")), 1323);
    // g1 = 6, g3 = 26: R7 jumps over Y17 onto the red g3.
    assert_eq!(red.action(go("g1", "g3")), 626);
    assert_eq!(red.action(Move::Pass), 10_000);
    for (a, m) in [(222, go("c1", "c3")), (1323, go("d2", "d3")), (626, go("g1", "g3"))] {
        assert!(red.is_legal(m), "{m}");
        assert_eq!(red.move_of(a), Some(m));
    }

    // Blue to move (Blue first): cells turned half a turn, 99 − index.
    let blue = Colorito::new("standard", &[("first", "blue")]).unwrap().start(0);
    assert_eq!(blue.to_move(), Turn::Seat(1));
    // c10 = 92 ↦ 7, c8 = 72 ↦ 27: D8 jumps over L18 onto the dark-blue c8.
    assert_eq!(blue.action(go("c10", "c8")), 727);
    // d9 = 83 ↦ 16, d8 = 73 ↦ 26: L17 steps onto the light-blue d8.
    assert_eq!(blue.action(go("d9", "d8")), 1626);
    assert_eq!(blue.action(Move::Pass), 10_000);
    for (a, m) in [(727, go("c10", "c8")), (1626, go("d9", "d8"))] {
        assert!(blue.is_legal(m), "{m}");
        assert_eq!(blue.move_of(a), Some(m));
    }
    // The same number names the turned move for the other side: 222 for
    // Blue is h10 (99 − 2 = 97) to h8 (99 − 22 = 77).
    assert_eq!(blue.move_of(222), Some(go("h10", "h8")));
    assert_eq!(red.move_of(727), Some(go("h1", "h3")));
}

#[test]
fn actions_that_name_no_move() {
    for s in [Colorito::standard().start(0), Colorito::new("standard", &[("first", "blue")]).unwrap().start(0)] {
        for a in [10_001, 10_002, 20_000, usize::MAX, usize::MAX - 1, 1 << 40] {
            assert_eq!(s.move_of(a), None, "{a}");
        }
        // from == to: a1-a1, b1-b1, j10-j10, e5-e5 (44·101 = 4444).
        for a in [0, 101, 9999, 4444] {
            assert_eq!(s.move_of(a), None, "{a}");
        }
        assert_eq!(s.move_of(10_000), Some(Move::Pass));
        // A move that parses but is illegal still has an action that names it.
        let m = s.move_of(1).unwrap();
        assert!(!s.is_legal(m));
        assert_eq!(s.action(m), 1);
    }
    assert_eq!(Colorito::standard().start(0).move_of(1), Some(go("a1", "b1")));
    // Pass is not legal at the start (there are moves).
    assert!(!Colorito::standard().start(0).is_legal(Move::Pass));
}

/// Relative cell colours, rows 0–9 in the observer's frame, written by hand
/// from the board of the rules: `m` my low colour, `M` my high colour, `t`
/// the opponent's low colour, `T` its high colour. Red's frame is the board
/// (row 0 = rank 1, D D D…; rank 3 reads D L R Y …); Blue's is the board
/// turned half a turn (row 0 = rank 10 read from j to a), with dark blue
/// and light blue Blue's own.
const RED_FRAME: [&str; 10] = [
    "tttttttttt", // rank 1, dark blue
    "TTTTTTTTTT", // rank 2, light blue
    "tTmMtTmMtT", // rank 3: D L R Y D L R Y D L
    "mMtTmMtTmM", // rank 4: R Y D L …
    "tTmMtTmMtT", // rank 5
    "mMtTmMtTmM", // rank 6
    "tTmMtTmMtT", // rank 7
    "mMtTmMtTmM", // rank 8
    "MMMMMMMMMM", // rank 9, yellow
    "mmmmmmmmmm", // rank 10, red
];
const BLUE_FRAME: [&str; 10] = [
    "tttttttttt", // rank 10, red
    "TTTTTTTTTT", // rank 9, yellow
    "TtMmTtMmTt", // rank 8 from j to a: Y R L D Y R L D Y R
    "MmTtMmTtMm", // rank 7 from j to a: L D Y R …
    "TtMmTtMmTt", // rank 6
    "MmTtMmTtMm", // rank 5
    "TtMmTtMmTt", // rank 4
    "MmTtMmTtMm", // rank 3
    "MMMMMMMMMM", // rank 2, light blue
    "mmmmmmmmmm", // rank 1, dark blue
];

/// The observation of the start position of the standard game (Red moves
/// first, max-moves 300), worked by hand. In both frames piece *n* of each
/// colour is in the same place: my pieces 1–10 on row 0 (column n − 1), 11–20
/// on row 1 (column n − 11); the opponent's 1–10 on row 9 (column 10 − n),
/// 11–20 on row 8 (column 20 − n). Cell numbers: row 0 carries 1…10, row 1
/// 11…20, row 8 20…11, row 9 10…1 (left to right).
fn expected_start(seat: usize) -> Vec<f32> {
    let mut e = vec![0.0f32; PLANES * 100];
    let mut set = |plane: usize, row: usize, col: usize| e[plane * 100 + row * 10 + col] = 1.0;
    for n in 1..=10 {
        set(MINE, 0, n - 1);
        set(MY_PIECE_1 + n - 1, 0, n - 1);
        set(THEIRS, 9, 10 - n);
        set(THEIR_PIECE_1 + n - 1, 9, 10 - n);
        set(CELL_NUMBER_1 + n - 1, 0, n - 1);
        set(CELL_NUMBER_1 + n - 1, 9, 10 - n);
    }
    for n in 11..=20 {
        set(MINE, 1, n - 11);
        set(MY_PIECE_1 + n - 1, 1, n - 11);
        set(THEIRS, 8, 20 - n);
        set(THEIR_PIECE_1 + n - 1, 8, 20 - n);
        set(CELL_NUMBER_1 + n - 1, 1, n - 11);
        set(CELL_NUMBER_1 + n - 1, 8, 20 - n);
    }
    let grid = if seat == 0 { RED_FRAME } else { BLUE_FRAME };
    for (row, line) in grid.iter().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            let k = "mMtT".find(ch).unwrap();
            set(CELL_MY_LOW + k, row, col);
        }
    }
    for col in 0..10 {
        set(MY_TARGETS, 8, col);
        set(MY_TARGETS, 9, col);
        set(THEIR_TARGETS, 0, col);
        set(THEIR_TARGETS, 1, col);
    }
    for i in 0..100 {
        // Red moves first and is to move; no move made yet.
        e[TO_MOVE * 100 + i] = if seat == 0 { 1.0 } else { 0.0 };
        e[FIRST_PLAYER * 100 + i] = if seat == 0 { 1.0 } else { 0.0 };
    }
    e
}

fn assert_same(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: plane {} row {} col {}", i / 100, i % 100 / 10, i % 10);
    }
}

#[test]
fn start_observation_cell_by_cell() {
    let s = Colorito::standard().start(0);
    for seat in 0..2 {
        assert_same(&observe(&s, seat), &expected_start(seat), &format!("seat {seat}"));
    }
    // The two seats differ: the turn, the first player, the middle colours.
    assert_ne!(observe(&s, 0), observe(&s, 1));
}

#[test]
fn observation_after_two_moves() {
    let g = Colorito::standard();
    let mut s = g.start(0);
    play(&mut s, "c1-c3"); // R3 from c1 to c3
    play(&mut s, "d9-d8"); // L17 from d9 to d8
    assert_eq!(s.to_move(), Turn::Seat(0));
    for seat in 0..2 {
        let mut want = expected_start(seat);
        let mut put = |plane: usize, row: usize, col: usize, v: f32| want[plane * 100 + row * 10 + col] = v;
        if seat == 0 {
            // Red: c1 is (0, 2), c3 (2, 2); d9 is (8, 3), d8 (7, 3).
            for p in [MINE, MY_PIECE_1 + 2] {
                put(p, 0, 2, 0.0);
                put(p, 2, 2, 1.0);
            }
            for p in [THEIRS, THEIR_PIECE_1 + 16] {
                put(p, 8, 3, 0.0);
                put(p, 7, 3, 1.0);
            }
        } else {
            // Blue: d9 is (0, 6), d8 (2, 6); c1 is (9, 7), c3 (7, 7).
            for p in [MINE, MY_PIECE_1 + 16] {
                put(p, 1, 6, 0.0);
                put(p, 2, 6, 1.0);
            }
            for p in [THEIRS, THEIR_PIECE_1 + 2] {
                put(p, 9, 7, 0.0);
                put(p, 7, 7, 1.0);
            }
        }
        for i in 0..100 {
            want[MY_MOVES * 100 + i] = 1.0 / 300.0;
            want[THEIR_MOVES * 100 + i] = 1.0 / 300.0;
        }
        assert_same(&observe(&s, seat), &want, &format!("seat {seat}"));
    }
    // Red's piece R3 on c3 seen by both: my_piece_3 for Red, their_piece_3
    // for Blue, on opposite corners of the turned grid.
    assert_eq!(at(&observe(&s, 0), MY_PIECE_1 + 2, 2, 2), 1.0);
    assert_eq!(at(&observe(&s, 1), THEIR_PIECE_1 + 2, 7, 7), 1.0);
}

#[test]
fn pieces_at_home_standard_and_just_colours() {
    // R1 on its target j10, D1 on its target a1, R2 on a10 (red, rank 10,
    // not its target i10), Y11 on e5.
    let pieces = [("j10", "R1"), ("a1", "D1"), ("a10", "R2"), ("e5", "Y11")];
    let s = place(&Colorito::standard(), "red", (4, 4), &pieces);
    let red = observe(&s, 0);
    let blue = observe(&s, 1);
    // Red's frame: j10 = (9, 9), a1 = (0, 0), a10 = (9, 0).
    assert_eq!(at(&red, MY_HOME, 9, 9), 1.0);
    assert_eq!(at(&red, THEIR_HOME, 0, 0), 1.0);
    assert_eq!(at(&red, MY_HOME, 9, 0), 0.0);
    assert_eq!(red[MY_HOME * 100..(MY_HOME + 2) * 100].iter().sum::<f32>(), 2.0);
    // Blue's frame: a1 = (9, 9), j10 = (0, 0): the mirror image.
    assert_eq!(at(&blue, MY_HOME, 9, 9), 1.0);
    assert_eq!(at(&blue, THEIR_HOME, 0, 0), 1.0);
    assert_eq!(blue[MY_HOME * 100..(MY_HOME + 2) * 100].iter().sum::<f32>(), 2.0);
    assert_eq!(at(&red, MY_MOVES, 3, 3), 4.0 / 300.0);

    // Just-colours: R2 on any red cell of rank 10 is home too.
    let s = place(&Colorito::new("just-colours", &[]).unwrap(), "red", (4, 4), &pieces);
    let red = observe(&s, 0);
    assert_eq!(at(&red, MY_HOME, 9, 9), 1.0);
    assert_eq!(at(&red, MY_HOME, 9, 0), 1.0);
    // Red's targets are still ranks 9 and 10 (every cell there is red or
    // yellow on the standard board).
    for col in 0..10 {
        assert_eq!(at(&red, MY_TARGETS, 9, col), 1.0);
        assert_eq!(at(&red, MY_TARGETS, 8, col), 1.0);
        assert_eq!(at(&red, MY_TARGETS, 7, col), 0.0);
    }
}

#[test]
fn move_counts_extra_move_and_the_end() {
    // Red (first) and Blue each one move from completing: R1 on j8 (jump
    // over j9 to j10), D1 on a3 (jump over a2 to a1); max-moves 30.
    let g = Colorito::new("standard", &[("max-moves", "30")]).unwrap();
    let v = home_except(&[("j8", "R1"), ("a3", "D1")]);
    let mut s = place(&g, "red", (20, 20), &refs(&v));
    let red = observe(&s, 0);
    assert_eq!(at(&red, MY_MOVES, 0, 0), 20.0 / 30.0);
    assert_eq!(at(&red, THEIR_MOVES, 9, 9), 20.0 / 30.0);
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    for seat in 0..2 {
        let o = observe(&s, seat);
        assert!(o[EXTRA_MOVE * 100..(EXTRA_MOVE + 1) * 100].iter().all(|&x| x == 1.0));
        assert_eq!(at(&o, GAME_OVER, 4, 4), 0.0);
        assert_eq!(at(&o, TO_MOVE, 5, 5), if seat == 1 { 1.0 } else { 0.0 });
        assert_eq!(at(&o, FIRST_PLAYER, 0, 0), if seat == 0 { 1.0 } else { 0.0 });
    }
    let blue = observe(&s, 1);
    assert_eq!(at(&blue, MY_MOVES, 0, 0), 20.0 / 30.0);
    assert_eq!(at(&blue, THEIR_MOVES, 0, 0), 21.0 / 30.0);
    // Blue's extra move a3-a1: a3 = 20 ↦ 79, a1 = 0 ↦ 99.
    assert_eq!(s.action(go("a3", "a1")), 7999);
    play(&mut s, "a3-a1");
    assert_eq!(s.to_move(), Turn::Over);
    for seat in 0..2 {
        let o = observe(&s, seat);
        assert_eq!(at(&o, GAME_OVER, 0, 0), 1.0);
        assert_eq!(at(&o, TO_MOVE, 0, 0), 0.0);
        assert_eq!(at(&o, EXTRA_MOVE, 0, 0), 0.0);
        assert_eq!(at(&o, MY_MOVES, 0, 0), 21.0 / 30.0);
        // Every piece home: 20 of each side on its home planes.
        assert_eq!(o[MY_HOME * 100..(MY_HOME + 1) * 100].iter().sum::<f32>(), 20.0);
        assert_eq!(o[THEIR_HOME * 100..(THEIR_HOME + 1) * 100].iter().sum::<f32>(), 20.0);
    }
}

/// The standard board turned half a turn with the sides' colours swapped
/// (red ↔ dark blue, yellow ↔ light blue), written out by hand.
fn mirrored_board() -> String {
    // Rank 10 first. Rank k of the mirror is rank 11 − k of the standard
    // board read from j to a with the colours swapped: the numbered ranks
    // come out as they were; rank 8 is rank 3 (D L R Y D L R Y D L) reversed
    // (L D Y R …) and swapped (Y R L D …).
    let lines = [
        "R10 R9 R8 R7 R6 R5 R4 R3 R2 R1",
        "Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11",
        "Y R L D Y R L D Y R", // rank 8
        "L D Y R L D Y R L D", // rank 7
        "Y R L D Y R L D Y R",
        "L D Y R L D Y R L D",
        "Y R L D Y R L D Y R",
        "L D Y R L D Y R L D", // rank 3
        "L11 L12 L13 L14 L15 L16 L17 L18 L19 L20",
        "D1 D2 D3 D4 D5 D6 D7 D8 D9 D10",
    ];
    lines.join("/")
}

/// The mirror of a piece name: R ↔ D, Y ↔ L, the number kept.
fn mirror_piece(p: &str) -> String {
    let (c, n) = p.split_at(1);
    let c = match c {
        "R" => "D",
        "D" => "R",
        "Y" => "L",
        "L" => "Y",
        _ => panic!("{p}"),
    };
    format!("{c}{n}")
}

/// The cell turned half a turn: file a ↔ j, rank 1 ↔ 10.
fn mirror_cell(c: Cell) -> Cell {
    Cell::new(9 - c.file(), 9 - c.rank()).unwrap()
}

/// The mirror image of a position (text form): ranks and files reversed,
/// colours swapped, sides swapped.
fn mirror_text(s: &ColoritoState) -> String {
    let mut lines = s.to_text().lines().map(str::to_string).collect::<Vec<_>>();
    let to_move = if lines[0].ends_with("red") { "blue" } else { "red" };
    let counts: Vec<&str> = lines[1].trim_start_matches("moves:").split_whitespace().collect();
    let head = format!("to-move: {to_move}\nmoves: {} {}\n", counts[1], counts[0]);
    let mut ranks: Vec<String> = lines
        .drain(2..)
        .map(|l| {
            let mut cells: Vec<String> =
                l.split_whitespace().map(|t| if t == "." { ".".to_string() } else { mirror_piece(t) }).collect();
            cells.reverse();
            cells.join(" ")
        })
        .collect();
    ranks.reverse();
    head + &ranks.join("\n")
}

#[test]
fn the_two_points_of_view_mirror_each_other() {
    let g = Colorito::standard();
    let board = mirrored_board();
    let h = Colorito::new("standard", &[("board", board.as_str()), ("first", "blue")]).unwrap();
    let mut s = g.start(0);
    let mut moves = Vec::new();
    for ply in 0..12 {
        let m = h.position(&mirror_text(&s)).unwrap();
        // Red's view of a position is Blue's view of its mirror image, and
        // the other way round.
        assert_same(&observe(&s, 0), &observe(&m, 1), &format!("ply {ply}, Red / mirrored Blue"));
        assert_same(&observe(&s, 1), &observe(&m, 0), &format!("ply {ply}, Blue / mirrored Red"));
        // The mover's actions are the same numbers.
        s.legal_moves(&mut moves);
        let mut a: Vec<usize> = moves.iter().map(|&mv| s.action(mv)).collect();
        let mut b: Vec<usize> = moves
            .iter()
            .map(|&mv| match mv {
                Move::Go { from, to } => m.action(Move::Go { from: mirror_cell(from), to: mirror_cell(to) }),
                Move::Pass => m.action(Move::Pass),
            })
            .collect();
        let mut legal_m = Vec::new();
        m.legal_moves(&mut legal_m);
        let mut c: Vec<usize> = legal_m.iter().map(|&mv| m.action(mv)).collect();
        a.sort();
        b.sort();
        c.sort();
        assert_eq!(a, b, "ply {ply}");
        assert_eq!(a, c, "ply {ply}: the mirrored position has the mirrored moves");
        let mv = moves[(ply * 7 + 3) % moves.len()];
        s.apply(mv);
    }
}

#[test]
fn conformance_laws_on_all_variants_quickly() {
    // The kit checks the Encode laws at every position; a few short games
    // per variant here (the long runs are in conformance.rs).
    for (variant, options) in [
        ("standard", vec![("max-moves", "10")]),
        ("just-colours", vec![("max-moves", "10")]),
        ("strict", vec![("max-moves", "10"), ("first", "blue")]),
    ] {
        plateau_conformance::Kit::new(5).run::<Colorito>(variant, &options);
    }
}
