//! The integer actions and observation planes (`Encode`), against numbers
//! worked out by hand from `docs/encoding/abraxas.md`:
//! action = plane × 81 + cell with cell = 9 × rank + file (a1 = 0, d4 = 30);
//! Place 0.., Stop 81.., Relocate 162 + 81·from + to, Take 6723 +
//! 81·(256·dir + rest) + first, pass 89667; 89668 actions; 21 planes of 9×9.

use std::collections::BTreeSet;

use plateau_abraxas::{Abraxas, AbraxasState, Cell, Move, Sheet};
use plateau_core::{Encode, Game, Options, State};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The index of a cell written by hand: 9 × (rank − 1) + file.
fn ix(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 9 + (b[0] - b'a') as usize
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

fn level_1() -> AbraxasState {
    Abraxas::new(Sheet::level(1).unwrap()).start(0)
}

fn game_of(variant: &str, options: &[(&str, &str)]) -> Abraxas {
    let mut o = Options::new();
    for (k, v) in options {
        o.set(*k, *v);
    }
    Abraxas::configure(&Abraxas::INFO.resolve(Some(variant), &o).unwrap()).unwrap()
}

fn configured(variant: &str, options: &[(&str, &str)]) -> AbraxasState {
    game_of(variant, options).start(0)
}

/// A position with no dots: rows of ranks 9 down to 1 given from the
/// highest rank that is not empty.
fn pos(headers: &str, rows: &[&str]) -> AbraxasState {
    let mut t = headers.to_string();
    for _ in rows.len()..9 {
        t.push_str(".........\n");
    }
    for r in rows {
        t.push_str(r);
        t.push('\n');
    }
    Abraxas::new(Sheet::level(1).unwrap()).position(&t).unwrap_or_else(|e| panic!("{e}\n{t}"))
}

fn play(s: &mut AbraxasState, text: &str) {
    let mv = s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    s.try_apply(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn action_of(s: &AbraxasState, text: &str) -> usize {
    s.action(s.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn legal_actions(s: &AbraxasState) -> BTreeSet<usize> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|&m| s.action(m)).collect()
}

fn text_of(s: &AbraxasState, a: usize) -> Option<String> {
    s.move_of(a).map(|m| s.format_move(m))
}

#[test]
fn sizes_are_the_same_for_every_variant_and_option() {
    // 81 + 81 + 81·81 + 4·256·81 + 1 = 81 + 81 + 6561 + 82944 + 1.
    for v in ["level-1", "level-2", "level-3", "level-4", "level-5", "level-6"] {
        for opts in [
            &[][..],
            &[("plate-start", "top-right"), ("removal", "removed-not-adjacent")][..],
            &[("stones-to-win", "3"), ("max-plies", "50"), ("repetition", "off")][..],
        ] {
            let s = configured(v, opts);
            assert_eq!(s.actions(), 89668, "{v} {opts:?}");
            assert_eq!(s.observation_shape(), [21, 9, 9], "{v} {opts:?}");
        }
    }
    let names = level_1().plane_names();
    assert_eq!(
        names,
        [
            "dots",
            "holes",
            "red_stones",
            "my_stops",
            "their_stops",
            "red_circles",
            "score_row",
            "score_column",
            "score_diagonal",
            "score_anti_diagonal",
            "reserve",
            "my_taken",
            "their_taken",
            "my_stops_in_hand",
            "their_stops_in_hand",
            "phase_place",
            "phase_score",
            "phase_interlude",
            "my_decision",
            "stones_to_win",
            "ply",
        ]
    );
}

#[test]
fn placements_stops_and_pass_by_hand() {
    let s = level_1();
    assert_eq!(action_of(&s, "a1"), 0);
    assert_eq!(action_of(&s, "d4"), 30);
    assert_eq!(action_of(&s, "h8"), 70);
    assert_eq!(action_of(&s, "i9"), 80);
    assert_eq!(action_of(&s, "b:d4"), 111);
    assert_eq!(action_of(&s, "b:a2"), 90);
    assert_eq!(action_of(&s, "b:i9"), 161);
    assert_eq!(action_of(&s, "pass"), 89667);
    assert_eq!(s.move_of(30), Some(Move::Place(cell("d4"))));
    assert_eq!(s.move_of(111), Some(Move::Stop(cell("d4"))));
    assert_eq!(s.move_of(89667), Some(Move::Pass));
    // The start: the plate covers a1–h8, so the legal actions are the 64
    // cells of files a–h and ranks 1–8, and the same plus 81.
    let mut want = BTreeSet::new();
    for rank in 0..8 {
        for file in 0..8 {
            want.insert(9 * rank + file);
            want.insert(81 + 9 * rank + file);
        }
    }
    assert_eq!(legal_actions(&s), want);
    // i1 (8) is outside the plate: an action that names an illegal move.
    assert_eq!(s.move_of(8), Some(Move::Place(cell("i1"))));
    assert!(!s.is_legal(Move::Place(cell("i1"))));
}

#[test]
fn relocations_by_hand() {
    let s = level_1();
    let mv = Move::Relocate { from: cell("d4"), to: cell("f6") };
    assert_eq!(s.action(mv), 2642);
    assert_eq!(s.move_of(2642), Some(mv));
    // a1-b1: 162 + 0 + 1; g1-h8: 162 + 81·6 + 70; i9-i8: 162 + 81·80 + 71.
    // The last slot, i9-i9 (6722), is no move.
    assert_eq!(s.action(Move::Relocate { from: cell("a1"), to: cell("b1") }), 163);
    assert_eq!(s.action(Move::Relocate { from: cell("g1"), to: cell("h8") }), 718);
    assert_eq!(s.action(Move::Relocate { from: cell("i9"), to: cell("i8") }), 6713);
    assert_eq!(s.move_of(6722), None);
    // A stone to its own hole is no move.
    assert_eq!(s.move_of(162 + 81 * 30 + 30), None);
    assert_eq!(s.move_of(162), None);

    // The reserve empty (4 stones on the board, 10 + 10 taken): moves only.
    let s = pos("taken: 10 10\n", &["r.r.r.r.."]);
    assert_eq!(s.reserve(), 0);
    assert_eq!(action_of(&s, "a1-b1"), 163);
    assert_eq!(action_of(&s, "g1-h8"), 718);
    assert_eq!(text_of(&s, 163).as_deref(), Some("a1-b1"));
    assert!(s.is_legal(s.move_of(163).unwrap()));
    assert!(!s.is_legal(s.move_of(1).unwrap()), "no red stone from the empty reserve");
    // 4 stones × 60 empty holes, and 60 stop stones.
    assert_eq!(legal_actions(&s).len(), 4 * 60 + 60);
}

#[test]
fn out_of_range_and_nonsense_actions_name_nothing() {
    let s = level_1();
    for a in [89668, 89669, 100_000, 1 << 40, usize::MAX - 1, usize::MAX] {
        assert_eq!(s.move_of(a), None, "{a}");
    }
    // No line to score at the start: every removal action names nothing.
    for a in [6723, 6723 + 30, 27481, 48206, 89666] {
        assert_eq!(s.move_of(a), None, "{a}");
    }
}

#[test]
fn a_row_of_four() {
    // a2 b2 c2 and d2 placed: the push (right) makes b2 c2 d2 e2.
    let mut s = pos("", &["rrr......", "........."]);
    play(&mut s, "d2");
    // Take one stone, not an end one: c2 (11) or d2 (12), row: 6723 + cell.
    assert_eq!(legal_actions(&s), BTreeSet::from([6734, 6735]));
    assert_eq!(action_of(&s, "x:c2"), 6734);
    assert_eq!(text_of(&s, 6734).as_deref(), Some("x:c2"));
    assert_eq!(text_of(&s, 6735).as_deref(), Some("x:d2"));
    // b2 (10) is on the line but the restriction forbids it: a move, illegal.
    assert_eq!(text_of(&s, 6733).as_deref(), Some("x:b2"));
    assert!(!s.is_legal(s.move_of(6733).unwrap()));
    // c2 and e2: a move (two stones), illegal (one is taken from four).
    assert_eq!(text_of(&s, 6723 + 2 * 81 + 11).as_deref(), Some("x:c2,e2"));
    assert!(!s.is_legal(s.move_of(6896).unwrap()));
    // a2 (9): on no line; c2 and f2 (rest bit 2): past the line's end; c2 in
    // a column: no column to score.
    assert_eq!(s.move_of(6723 + 9), None);
    assert_eq!(s.move_of(6723 + 4 * 81 + 11), None);
    assert_eq!(s.move_of(6723 + 256 * 81 + 11), None);

    // The observation while scoring (seat 0 scores).
    let mut o = [0.0f32; 21 * 81];
    s.observe(0, &mut o);
    let row: Vec<usize> = ["b2", "c2", "d2", "e2"].iter().map(|c| ix(c)).collect();
    for i in 0..81 {
        let on = if row.contains(&i) { 1.0 } else { 0.0 };
        assert_eq!(o[2 * 81 + i], on, "red_stones {i}");
        assert_eq!(o[5 * 81 + i], on, "red_circles {i}");
        assert_eq!(o[6 * 81 + i], on, "score_row {i}");
        for p in 7..10 {
            assert_eq!(o[p * 81 + i], 0.0, "plane {p} {i}");
        }
        assert_eq!(o[10 * 81 + i], 20.0 / 24.0);
        assert_eq!((o[15 * 81 + i], o[16 * 81 + i], o[17 * 81 + i], o[18 * 81 + i]), (0.0, 1.0, 0.0, 1.0));
    }
    s.observe(1, &mut o);
    assert_eq!((o[16 * 81], o[18 * 81]), (1.0, 0.0), "seat 1 sees the scoring, not its decision");

    // Then the interlude: seat 1 may place a stop stone or pass.
    play(&mut s, "x:c2");
    let mut want: BTreeSet<usize> = BTreeSet::from([89667]);
    // The plate covers b1–i8; stones on b2 d2 e2.
    for rank in 0..8 {
        for file in 1..9 {
            if rank != 1 || ![1, 3, 4].contains(&file) {
                want.insert(81 + 9 * rank + file);
            }
        }
    }
    assert_eq!(legal_actions(&s), want);
    s.observe(1, &mut o);
    assert_eq!((o[11 * 81], o[12 * 81]), (0.0, 1.0 / 11.0), "seat 1: the opponent holds one stone");
    assert_eq!((o[15 * 81], o[16 * 81], o[17 * 81], o[18 * 81]), (0.0, 0.0, 1.0, 1.0));
    assert!(o[6 * 81..10 * 81].iter().all(|&v| v == 0.0), "no line left to score");
    s.observe(0, &mut o);
    assert_eq!((o[11 * 81], o[12 * 81]), (1.0 / 11.0, 0.0));
    assert_eq!((o[17 * 81], o[18 * 81]), (1.0, 0.0));
}

#[test]
fn a_row_of_five() {
    // a2 b2 c2 d2 and e2 placed: b2 … f2 (positions 0 … 4). Two stones are
    // taken; the three left must not be three in a row, so not {3,4}, {0,4},
    // {0,1}. The seven others, as first cell and rest:
    let mut s = pos("", &["rrrr.....", "........."]);
    play(&mut s, "e2");
    let want = BTreeSet::from([
        6723 + 2 * 81 + 10, // b2 d2: 6895
        6723 + 4 * 81 + 10, // b2 e2: 7057
        6723 + 81 + 11,     // c2 d2: 6815
        6723 + 2 * 81 + 11, // c2 e2: 6896
        6723 + 4 * 81 + 11, // c2 f2: 7058
        6723 + 81 + 12,     // d2 e2: 6816
        6723 + 2 * 81 + 12, // d2 f2: 6897
    ]);
    assert_eq!(legal_actions(&s), want);
    assert_eq!(action_of(&s, "x:c2,e2"), 6896);
    assert_eq!(action_of(&s, "x:e2,c2"), 6896);
    assert_eq!(text_of(&s, 7058).as_deref(), Some("x:c2,f2"));
    assert_eq!(text_of(&s, 6895).as_deref(), Some("x:b2,d2"));
    // b2 and f2 (rest bit 3): a move the restriction forbids; b2 c2 d2 (rest
    // 3): three stones, illegal.
    assert!(!s.is_legal(s.move_of(6723 + 8 * 81 + 10).unwrap()));
    assert!(!s.is_legal(s.move_of(6723 + 3 * 81 + 10).unwrap()));
}

#[test]
fn columns_and_diagonals() {
    // Column: d1 d2 d3, d4 placed: e1 … e4; take e2 (13) or e3 (22), dir 1.
    let mut s = pos("", &["...r.....", "...r.....", "...r....."]);
    play(&mut s, "d4");
    assert_eq!(legal_actions(&s), BTreeSet::from([6723 + 20736 + 13, 27481]));
    assert_eq!(action_of(&s, "x:e3"), 27481);
    // Diagonal a1–i9: a1 b2 c3, d4 placed: b1 c2 d3 e4; c2 (11) or d3 (21), dir 2.
    let mut s = pos("", &["..r......", ".r.......", "r........"]);
    play(&mut s, "d4");
    assert_eq!(legal_actions(&s), BTreeSet::from([48206, 48216]));
    assert_eq!(text_of(&s, 48206).as_deref(), Some("x:c2"));
    // Diagonal i1–a9: d1 c2 b3, a4 placed: e1 d2 c3 b4, from e1 up; d2 (12)
    // or c3 (20), dir 3: 6723 + 768·81 = 68931.
    let mut s = pos("", &[".r.......", "..r......", "...r....."]);
    play(&mut s, "a4");
    assert_eq!(legal_actions(&s), BTreeSet::from([68943, 68951]));
    assert_eq!(text_of(&s, 68951).as_deref(), Some("x:c3"));
    // The same stones as a row: none.
    assert_eq!(s.move_of(6723 + 20), None);
}

#[test]
fn a_stone_on_two_lines() {
    // Row a2 b2 c2 and column c1 c2 c3 c4, d2 placed: after the push the
    // row b2 c2 d2 e2 and the column d1 d2 d3 d4 cross at d2 (12).
    let mut s = pos("", &["..r......", "..r......", "rrr......", "..r......"]);
    play(&mut s, "d2");
    let acts = legal_actions(&s);
    // Row: c2 (11) or d2 (12); column: d2 (12) or d3 (21), dir 1 (+20736).
    assert_eq!(acts, BTreeSet::from([6734, 6735, 6723 + 20736 + 12, 6723 + 20736 + 21]));
    assert_eq!(text_of(&s, 6735).as_deref(), Some("x:d2/h"));
    assert_eq!(text_of(&s, 27471).as_deref(), Some("x:d2/v"));
}

/// The observation expected of level 1 by hand: the board planes as cell
/// lists, then the eleven constants.
fn expected(board: [&[&str]; 10], holes_at: (usize, usize), constants: [f32; 11]) -> Vec<f32> {
    let mut out = vec![0.0f32; 21 * 81];
    for (p, list) in board.iter().enumerate() {
        for c in list.iter() {
            out[p * 81 + ix(c)] = 1.0;
        }
    }
    // Plane 1, the holes: the 8×8 block from (file, rank) offset.
    let (df, dr) = holes_at;
    for rank in dr..dr + 8 {
        for file in df..df + 8 {
            out[81 + 9 * rank + file] = 1.0;
        }
    }
    for (k, v) in constants.iter().enumerate() {
        out[(10 + k) * 81..(11 + k) * 81].fill(*v);
    }
    out
}

const DOTS_1: &[&str] = &["e7", "c5", "g5", "e3"];

fn assert_planes(got: &[f32], want: &[f32], what: &str) {
    for i in 0..want.len() {
        assert_eq!(got[i], want[i], "{what}: plane {} cell {}", i / 81, i % 81);
    }
}

#[test]
fn observation_of_the_start() {
    let s = level_1();
    let mut o = vec![0.5f32; 21 * 81];
    // Seat 0 places first; seat 1 waits. Reserve 24/24, stops 3/3, 11/12.
    let common = |mine: f32| [1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, mine, 11.0 / 12.0, 0.0];
    let board: [&[&str]; 10] = [DOTS_1, &[], &[], &[], &[], DOTS_1, &[], &[], &[], &[]];
    s.observe(0, &mut o);
    assert_planes(&o, &expected(board, (0, 0), common(1.0)), "seat 0");
    s.observe(1, &mut o);
    assert_planes(&o, &expected(board, (0, 0), common(0.0)), "seat 1");
}

#[test]
fn observation_after_two_moves() {
    // Level 1, d4 (pushed right: e4), then b:c3 by the second player (the
    // push up: e4 to e5, c3 to c4). The plate is top-right (b2–i9), no line
    // (the red circles e5 and the dots e3 e7 c5 g5 make none), the first
    // player to place, ply 2.
    let mut s = level_1();
    play(&mut s, "d4");
    play(&mut s, "b:c3");
    assert!(s.to_text().contains("plate: top-right"), "{}", s.to_text());
    let circles: &[&str] = &["e5", "e7", "c5", "g5", "e3"];
    let mut o = vec![0.5f32; 21 * 81];
    s.observe(0, &mut o);
    let want = expected(
        [DOTS_1, &[], &["e5"], &[], &["c4"], circles, &[], &[], &[], &[]],
        (1, 1),
        [23.0 / 24.0, 0.0, 0.0, 1.0, 2.0 / 3.0, 1.0, 0.0, 0.0, 1.0, 11.0 / 12.0, 2.0 / 400.0],
    );
    assert_planes(&o, &want, "seat 0");
    s.observe(1, &mut o);
    let want = expected(
        [DOTS_1, &[], &["e5"], &["c4"], &[], circles, &[], &[], &[], &[]],
        (1, 1),
        [23.0 / 24.0, 0.0, 0.0, 2.0 / 3.0, 1.0, 1.0, 0.0, 0.0, 0.0, 11.0 / 12.0, 2.0 / 400.0],
    );
    assert_planes(&o, &want, "seat 1");
}

#[test]
fn a_finished_game_has_no_phase_and_no_decider() {
    // One stone to win: the first removal ends the game.
    let game = game_of("level-1", &[("stones-to-win", "1")]);
    let text = format!("{}rrr......\n.........\n", ".........\n".repeat(7));
    let mut s = game.position(&text).unwrap();
    play(&mut s, "d2");
    play(&mut s, "x:c2");
    assert!(s.outcome().is_some());
    let mut o = vec![0.5f32; 21 * 81];
    for seat in 0..2 {
        s.observe(seat, &mut o);
        assert!(o[15 * 81..19 * 81].iter().all(|&v| v == 0.0), "seat {seat}");
    }
    s.observe(0, &mut o);
    assert_eq!((o[11 * 81], o[12 * 81], o[19 * 81]), (1.0, 0.0, 1.0 / 12.0));
    assert!(legal_actions(&s).is_empty());
}

/// The two seats see the same board and constants, with mine and theirs
/// swapped and `my_decision` complementary, on positions of random games of
/// every level.
#[test]
fn points_of_view_mirror_each_other() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut a = vec![0.0f32; 21 * 81];
    let mut b = vec![0.0f32; 21 * 81];
    let mut moves = Vec::new();
    let mut checked = 0;
    for level in 1..=6 {
        let mut s = configured(&format!("level-{level}"), &[]);
        while s.outcome().is_none() && s.ply() < 300 {
            s.observe(0, &mut a);
            s.observe(1, &mut b);
            let swapped = |p: usize| match p {
                3 => 4,
                4 => 3,
                11 => 12,
                12 => 11,
                13 => 14,
                14 => 13,
                p => p,
            };
            for p in 0..21 {
                for i in 0..81 {
                    if p == 18 {
                        assert_eq!(a[p * 81 + i] + b[p * 81 + i], 1.0, "level {level} ply {}", s.ply());
                    } else {
                        assert_eq!(a[p * 81 + i], b[swapped(p) * 81 + i], "level {level} ply {} plane {p}", s.ply());
                    }
                }
            }
            checked += 1;
            s.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            s.apply(mv);
        }
    }
    assert!(checked > 200);
}
