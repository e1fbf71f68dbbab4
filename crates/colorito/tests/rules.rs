//! Every rule, option and decision of `docs/rules/colorito.md`, on small hand-built
//! positions.

mod common;

use common::*;
use plateau_colorito::{Board, Cell, Colorito, Colour, Move, Piece, Score, Side};
use plateau_core::perft::perft;
use plateau_core::{Game, MoveErrorKind, Reader, State, Turn};

fn standard() -> Colorito {
    Colorito::standard()
}

fn cell(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

// ---------------------------------------------------------------- board

#[test]
fn default_board_is_the_specified_layout() {
    let b = Board::standard();
    let rank = |r: usize| -> String {
        (0..10).map(|f| b.cell_text(Cell::new(f, r - 1).unwrap())).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(rank(10), "R10 R9 R8 R7 R6 R5 R4 R3 R2 R1");
    assert_eq!(rank(9), "Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11");
    assert_eq!(rank(3), "D L R Y D L R Y D L");
    assert_eq!(rank(4), "R Y D L R Y D L R Y");
    assert_eq!(rank(2), "L11 L12 L13 L14 L15 L16 L17 L18 L19 L20");
    assert_eq!(rank(1), "D1 D2 D3 D4 D5 D6 D7 D8 D9 D10");
    for r in 3..=8 {
        for f in 0..10 {
            let want = Colour::ALL[(f + 2 * (r % 2)) % 4];
            assert_eq!(b.colour(Cell::new(f, r - 1).unwrap()), want);
        }
    }
    // No two middle cells of the same colour touch, not even diagonally.
    for r in 2..8 {
        for f in 0..10 {
            let c = Cell::new(f, r).unwrap();
            for (df, dr) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)] {
                let (g, s) = (f as i32 + df, r as i32 + dr);
                if (0..10).contains(&g) && (2..8).contains(&s) {
                    assert_ne!(b.colour(c), b.colour(Cell::new(g as usize, s as usize).unwrap()));
                }
            }
        }
    }
    // Start and target are symmetric through the centre.
    for id in 0..40 {
        let p = Piece::from_id(id).unwrap();
        assert_eq!(b.start(p).index(), 99 - b.target(p).index(), "{p}");
    }
}

#[test]
fn start_position() {
    let g = standard();
    let s = g.start(0);
    for n in 1..=10u8 {
        let f = (n - 1) as usize;
        assert_eq!(s.piece_at(Cell::new(f, 0).unwrap()), Piece::new(Colour::Red, n), "red {n} on rank 1");
        assert_eq!(s.piece_at(Cell::new(9 - f, 9).unwrap()), Piece::new(Colour::DarkBlue, n), "dark blue {n}");
    }
    for n in 11..=20u8 {
        let f = (n - 11) as usize;
        assert_eq!(s.piece_at(Cell::new(f, 1).unwrap()), Piece::new(Colour::Yellow, n), "yellow {n} on rank 2");
        assert_eq!(s.piece_at(Cell::new(9 - f, 8).unwrap()), Piece::new(Colour::LightBlue, n), "light blue {n}");
    }
    assert_eq!(s.to_move(), Turn::Seat(0));
    assert_eq!(g.seat_name(0), "Red");
    assert_eq!(g.seat_name(1), "Blue");
    assert_eq!(s.race_distance(Side::Red), 20);
    assert_eq!(s.race_distance(Side::Blue), 20);
}

#[test]
fn start_moves_and_perft() {
    let mut s = standard().start(0);
    assert_eq!(
        moves(&s),
        ["a1-c3", "c1-c3", "c2-d3", "d2-d3", "e1-c3", "e1-g3", "e2-d3", "g1-g3", "g2-h3", "h2-h3", "i1-g3", "i2-h3"]
    );
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut s, d)).collect();
    assert_eq!(counts, [12, 144, 1836, 23409, 311049]);
}

#[test]
fn variant_perft() {
    for (variant, options, want) in [
        ("just-colours", &[][..], [12, 144, 1692, 19881]),
        ("strict", &[][..], [12, 144, 1572, 17161]),
        ("strict", &[("just-colours", "true")][..], [12, 144, 1428, 14161]),
        ("standard", &[("first", "blue")][..], [12, 144, 1836, 23409]),
    ] {
        let mut s = Colorito::new(variant, options).unwrap().start(0);
        let counts: Vec<u64> = (1..=4).map(|d| perft(&mut s, d)).collect();
        assert_eq!(counts, want, "{variant} {options:?}");
    }
}

// ---------------------------------------------------------------- moves

#[test]
fn a_step_goes_to_an_adjacent_welcoming_empty_cell() {
    let g = standard();
    // R5 alone on e5 (dark blue): its red neighbours are e4 and e6.
    assert_eq!(colour(&g, "e5"), Colour::DarkBlue);
    assert_eq!(colour(&g, "e4"), Colour::Red);
    assert_eq!(colour(&g, "e6"), Colour::Red);
    let s = place(&g, "red", (0, 0), &[("e5", "R5")]);
    assert_eq!(moves(&s), ["e5-e4", "e5-e6"]);
    // An occupied neighbour is no step (and here no jump: e3 behind e4 is not red).
    let s = place(&g, "red", (0, 0), &[("e5", "R5"), ("e4", "D1")]);
    assert_eq!(moves(&s), ["e5-e6"]);
}

#[test]
fn a_cell_welcomes_by_number_too() {
    let g = standard();
    // R3 on d2: c1 carries 3 (its start), c3 is red.
    let s = place(&g, "red", (0, 0), &[("d2", "R3")]);
    assert_eq!(g.board().number(cell("c1")), Some(3));
    assert_eq!(moves(&s), ["d2-c1", "d2-c3"]);
    // Dark blue 3 on h9 is welcomed by h10 (red, number 3) and by g8 (dark blue).
    assert_eq!(colour(&g, "g8"), Colour::DarkBlue);
    let s = place(&g, "blue", (1, 0), &[("h9", "D3")]);
    assert_eq!(moves(&s), ["h9-g8", "h9-h10"]);
}

#[test]
fn jump_chain_changes_direction_and_only_the_end_must_welcome() {
    let g = standard();
    // R3 on c3 jumps NE over d4 onto e5 (dark blue: not welcoming, allowed in
    // between), then E over f5 onto g5 (red): c3-g5.
    assert_eq!(colour(&g, "e5"), Colour::DarkBlue);
    assert_eq!(colour(&g, "g5"), Colour::Red);
    let s = place(&g, "red", (0, 0), &[("c3", "R3"), ("d4", "D1"), ("f5", "D2")]);
    let m = moves(&s);
    assert!(m.contains(&"c3-g5".to_string()), "{m:?}");
    // It cannot stop on e5.
    assert!(!m.contains(&"c3-e5".to_string()));
    let mut t = s.clone();
    let err = t.try_apply(t.parse_move("c3-e5").unwrap()).unwrap_err();
    assert_eq!(err.kind, MoveErrorKind::Illegal);
    assert!(err.message.contains("e5"), "{}", err.message);
    assert_eq!(t, s);
}

#[test]
fn step_then_jump_through_a_foreign_colour() {
    let g = standard();
    // Same position: R3 steps c3→c4 (dark blue) then jumps E over d4 onto e4 (red).
    assert_eq!(colour(&g, "c4"), Colour::DarkBlue);
    assert_eq!(colour(&g, "e4"), Colour::Red);
    let pieces = [("c3", "R3"), ("d4", "D1"), ("f5", "D2")];
    let s = place(&g, "red", (0, 0), &pieces);
    assert_eq!(moves(&s), ["c3-e4", "c3-g5"]);

    // Strict: the step must land on a welcoming cell, so c3-e4 is refused;
    // the pure jump chain c3-g5 stays.
    let strict = Colorito::new("strict", &[]).unwrap();
    let mut s = place(&strict, "red", (0, 0), &pieces);
    assert_eq!(moves(&s), ["c3-g5"]);
    let before = s.clone();
    let err = s.try_apply(Move::parse("c3e4").unwrap()).unwrap_err();
    assert!(err.message.contains("cannot reach e4"), "{}", err.message);
    assert_eq!(s, before);
}

#[test]
fn strict_allows_a_step_onto_a_welcoming_cell_before_jumping() {
    let strict = Colorito::new("strict", &[]).unwrap();
    // R5 on e5 steps onto e6 (red, so strict allows it), then jumps N over e7
    // onto e8 (red).
    assert_eq!(colour(&strict, "e6"), Colour::Red);
    assert_eq!(colour(&strict, "e8"), Colour::Red);
    let s = place(&strict, "red", (0, 0), &[("e5", "R5"), ("e7", "D1")]);
    assert!(moves(&s).contains(&"e5-e8".to_string()), "{:?}", moves(&s));
}

#[test]
fn no_move_ends_where_it_started() {
    let g = standard();
    // R5 on e4 (red) jumps over e5 to e6 and could jump back to e4: never a move.
    let mut s = place(&g, "red", (0, 0), &[("e4", "R5"), ("e5", "D1")]);
    assert_eq!(moves(&s), ["e4-e6"]);
    let err = s.try_apply(Move::parse("e4e4").unwrap()).unwrap_err();
    assert!(err.message.contains("cannot end where it started"), "{}", err.message);
}

#[test]
fn two_paths_to_one_cell_are_one_move() {
    let g = standard();
    // R3 on c3 reaches c5 (red) by a jump N over c4, and by a jump E over d3
    // onto e3 then NW over d4 onto c5: one move, c3-c5, listed once.
    assert_eq!(colour(&g, "c5"), Colour::Red);
    let s = place(&g, "red", (0, 0), &[("c3", "R3"), ("c4", "D1"), ("d3", "D2"), ("d4", "D3")]);
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let c3c5 = Move::Go { from: cell("c3"), to: cell("c5") };
    assert_eq!(v.iter().filter(|&&m| m == c3c5).count(), 1, "{v:?}");
    let mut t = v.clone();
    t.sort();
    t.dedup();
    assert_eq!(t.len(), v.len());
    assert_eq!(s.count_moves(), v.len());
}

#[test]
fn pass_when_no_move_and_only_then() {
    let g = standard();
    // R5 in the corner a1, boxed in: no step, no jump, no step-then-jump.
    let mut s = place(
        &g,
        "red",
        (0, 0),
        &[("a1", "R5"), ("a2", "L11"), ("b1", "D2"), ("b2", "L12"), ("a3", "D3"), ("c3", "D4"), ("c1", "D5")],
    );
    assert_eq!(moves(&s), ["pass"]);
    assert_eq!(s.count_moves(), 1);
    play(&mut s, "pass");
    assert_eq!(s.to_move(), Turn::Seat(1));
    assert_eq!(s.moves_made(), [1, 0]);
    // Blue has moves, so it may not pass.
    let before = s.clone();
    let err = s.try_apply(Move::Pass).unwrap_err();
    assert!(err.message.contains("may pass only"), "{}", err.message);
    assert_eq!(s, before);
}

#[test]
fn only_own_pieces_move_and_errors_say_why() {
    let g = standard();
    let mut s = g.start(0);
    let before = s.clone();
    let e = s.try_apply(Move::parse("a10-a8").unwrap()).unwrap_err();
    assert!(e.message.contains("Blue's piece"), "{}", e.message);
    let e = s.try_apply(Move::parse("e5-e6").unwrap()).unwrap_err();
    assert!(e.message.contains("no piece on e5"), "{}", e.message);
    let e = s.try_apply(Move::parse("a1-a2").unwrap()).unwrap_err();
    assert!(e.message.contains("Y11 stands there"), "{}", e.message);
    let e = s.try_apply(Move::parse("a1-a3").unwrap()).unwrap_err();
    assert!(e.message.contains("cannot end on a3"), "{}", e.message);
    assert_eq!(s, before);
}

// ---------------------------------------------------------------- notation

#[test]
fn notation() {
    let s = standard().start(0);
    let go = Move::Go { from: cell("c1"), to: cell("c3") };
    for t in ["c1-c3", "c1c3", "C1-C3", "C1c3", "  c1-c3 ", "c1 c3"] {
        assert_eq!(s.parse_move(t).unwrap(), go, "{t}");
    }
    assert_eq!(s.format_move(go), "c1-c3");
    assert_eq!(s.parse_move("PASS").unwrap(), Move::Pass);
    assert_eq!(s.format_move(Move::Pass), "pass");
    let j = Move::Go { from: cell("j10"), to: cell("a10") };
    assert_eq!(s.format_move(j), "j10-a10");
    assert_eq!(s.parse_move("j10a10").unwrap(), j);
    for bad in ["", "c1", "c1-", "k1-c3", "c11-c3", "c0-c3", "c1-c3-c5", "c01-c3", "é1-c3", "11-c3", "c1-c3x", "passe"]
    {
        let e = s.parse_move(bad).unwrap_err();
        assert_eq!(e.kind, MoveErrorKind::Syntax, "{bad:?}");
        assert!(e.message.contains("c1-c3"), "{bad:?}: {}", e.message);
    }
}

// ---------------------------------------------------------------- the end

/// Red and Blue each one move from completing: R1 on j8 (jump over j9 to
/// j10), D1 on a3 (jump over a2 to a1).
fn race_end(g: &Colorito, to_move: &str, moves: (u16, u16)) -> plateau_colorito::ColoritoState {
    let v = home_except(&[("j8", "R1"), ("a3", "D1")]);
    place(g, to_move, moves, &refs(&v))
}

#[test]
fn extra_move_then_draw_on_equal_moves() {
    let g = standard();
    let mut s = race_end(&g, "red", (20, 20));
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    assert_eq!(s.to_move(), Turn::Seat(1), "Blue gets one more move");
    assert!(s.outcome().is_none());
    play(&mut s, "a3-a1");
    let o = s.outcome().unwrap();
    assert!(o.is_draw());
    assert_eq!(o.reason, "equal moves");
    assert_eq!(s.to_move(), Turn::Over);
    assert_eq!(s.winner(), None);
    assert_eq!(s.score(), None);
    let tags = s.result_tags();
    assert!(tags.contains(&("Winner".into(), "none".into())), "{tags:?}");
    assert!(tags.contains(&("RedMoves".into(), "21".into())));
    assert!(tags.contains(&("BlueMoves".into(), "21".into())));
    assert!(!tags.iter().any(|(k, _)| k == "Score"));
}

#[test]
fn extra_move_then_first_player_wins_and_the_loser_is_scored() {
    let g = standard();
    let mut s = race_end(&g, "red", (20, 20));
    play(&mut s, "j8-j10");
    // Blue wastes its extra move: D2 steps from b1 onto a1, in D1's way.
    play(&mut s, "b1-a1");
    let o = s.outcome().unwrap();
    assert!(o.is_winner(0) && !o.is_winner(1));
    assert_eq!(o.reason, "set completed");
    assert_eq!(o.result_string(), "1-0");
    // Hand count: D2 steps back a1-b1, then D1 jumps a3-a1: 2 moves, and no
    // fewer (two pieces are away).
    assert_eq!(s.score(), Some((Side::Blue, Score::Exact(2))));
    let tags = s.result_tags();
    for t in [("Winner", "Red"), ("Loser", "Blue"), ("Score", "-2"), ("ScoreExact", "true"), ("RedMoves", "21")] {
        assert!(tags.contains(&(t.0.to_string(), t.1.to_string())), "{t:?} in {tags:?}");
    }
    let v = serde_json::to_value(s.view(Reader::Referee)).unwrap();
    assert_eq!(v["winner"], "red");
    assert_eq!(v["moves"]["red"], 21);
    assert_eq!(v["moves"]["blue"], 21);
    assert_eq!(v["score"]["value"], -2);
    assert_eq!(v["score"]["exact"], true);
    assert_eq!(v["score"]["side"], "blue");
    assert!(s.render(Reader::Spectator, false).contains("Red wins"));
}

#[test]
fn the_second_player_completing_first_wins_at_once() {
    let g = standard();
    // Red (first) makes a move that does not complete; Blue completes: equal
    // moves, Blue wins.
    let mut s = race_end(&g, "red", (20, 20));
    play(&mut s, "j8-i8");
    assert!(s.outcome().is_none() && !s.in_extra_move());
    play(&mut s, "a3-a1");
    let o = s.outcome().unwrap();
    assert!(o.is_winner(1) && !o.is_winner(0));
    assert_eq!(s.winner(), Some(Side::Blue));
    // Hand count: R1 steps i8-j8 (yellow: allowed inside a move) and jumps
    // over j9 onto j10: one move.
    assert_eq!(s.score(), Some((Side::Red, Score::Exact(1))));
}

#[test]
fn first_blue_gives_red_the_extra_move() {
    let g = Colorito::new("standard", &[("first", "blue")]).unwrap();
    assert_eq!(g.start(0).to_move(), Turn::Seat(1));
    let mut s = race_end(&g, "blue", (20, 20));
    play(&mut s, "a3-a1");
    assert!(s.in_extra_move());
    assert_eq!(s.to_move(), Turn::Seat(0));
    play(&mut s, "j8-j10");
    assert!(s.outcome().unwrap().is_draw());
}

#[test]
fn blocking_rule_declares_the_blocked_player_winner() {
    // Blue moves first; Red's move brings R1 home to j10, and every other red
    // target holds a blue piece (on its start): Red is declared the winner.
    let g = Colorito::new("standard", &[("first", "blue")]).unwrap();
    let b = g.board().clone();
    let mut pieces: Vec<(String, String)> = Vec::new();
    for id in 0..40 {
        let p = Piece::from_id(id).unwrap();
        let c = match p.to_string().as_str() {
            "R1" => "j8".to_string(),
            "D1" => "e5".to_string(), // off its start j10, R1's target; not home
            _ => b.start(p).to_string(),
        };
        pieces.push((c, p.to_string()));
    }
    let mut s = place(&g, "red", (4, 5), &refs(&pieces));
    assert!(s.outcome().is_none());
    play(&mut s, "j8-j10");
    let o = s.outcome().unwrap();
    assert!(o.is_winner(0) && !o.is_winner(1));
    assert_eq!(o.reason, "blocking rule");
    // Blue's targets hold red pieces that stay put: Blue can never complete.
    assert_eq!(s.score(), Some((Side::Blue, Score::Unreachable)));
    let tags = s.result_tags();
    assert!(tags.contains(&("Score".into(), "unreachable".into())), "{tags:?}");
    let v = serde_json::to_value(s.view(Reader::Referee)).unwrap();
    assert_eq!(v["score"]["value"], serde_json::Value::Null);
    assert_eq!(v["ending"], "blocking rule");
}

/// Red to move: R3 on h8 jumps over h9 to h10 (home). D1 and D3 are away
/// from their starts j10 and h10; every other piece is on its start, except
/// that `r2` says where R2 stands (its start b1, or j10: R1's target).
fn blocking_setup(g: &Colorito, r2: &str) -> plateau_colorito::ColoritoState {
    let b = g.board().clone();
    let mut pieces: Vec<(String, String)> = Vec::new();
    for id in 0..40 {
        let p = Piece::from_id(id).unwrap();
        let c = match p.to_string().as_str() {
            "R3" => "h8".to_string(),
            "R2" => r2.to_string(),
            "D3" => "c5".to_string(),
            "D1" if r2 == "j10" => "e5".to_string(),
            _ => b.start(p).to_string(),
        };
        pieces.push((c, p.to_string()));
    }
    place(g, "red", (5, 5), &refs(&pieces))
}

#[test]
fn blocking_by_the_first_player_gives_the_extra_move() {
    let g = standard();
    let mut s = blocking_setup(&g, "b1");
    play(&mut s, "h8-h10");
    // R3 is home; every other red target holds a blue piece.
    assert!(s.in_extra_move(), "Red finished by blocking: Blue has one more move");
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    s.apply(v[0]);
    assert_eq!(s.winner(), Some(Side::Red));
    assert_eq!(s.outcome().unwrap().reason, "blocking rule");
}

#[test]
fn blocking_needs_a_right_piece_home() {
    // Decision: at the start every target of each side holds an opponent's
    // piece, yet nobody is blocked, since no right piece is home.
    let g = standard();
    let mut s = g.start(0);
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    s.apply(v[0]);
    assert!(s.outcome().is_none() && !s.in_extra_move());
    s.legal_moves(&mut v);
    s.apply(v[0]);
    assert!(s.outcome().is_none() && !s.in_extra_move());
}

#[test]
fn a_target_held_by_a_wrong_own_piece_does_not_block() {
    // As in the blocking test, but j10 (R1's target) holds R2, not a blue piece.
    let g = standard();
    let mut s = blocking_setup(&g, "j10");
    play(&mut s, "h8-h10");
    assert!(s.outcome().is_none() && !s.in_extra_move());
}

/// Red completes with j8-j10; Blue's D1 and D2 have swapped targets (a1 and
/// b1), and Blue's extra move takes L20 off its target (j2-j3).
#[test]
fn score_of_a_finished_game_against_a_hand_count() {
    let run = |g: &Colorito| {
        let v = home_except(&[("j8", "R1"), ("b1", "D1"), ("a1", "D2")]);
        let mut s = place(g, "red", (30, 30), &refs(&v));
        play(&mut s, "j8-j10");
        play(&mut s, "j2-j3");
        assert_eq!(s.winner(), Some(Side::Red));
        s
    };
    // Hand count: L20 j3-j2; D1 b1-a3 (jump over a2); D2 a1-b1; D1 a3-a1
    // (jump over a2): 4 moves. No fewer: three pieces are away, and neither
    // D1 nor D2 can get home before the other has made a move that brings
    // no piece home.
    let s = run(&standard());
    assert_eq!(s.race_distance(Side::Blue), 3);
    assert_eq!(s.score(), Some((Side::Blue, Score::Exact(4))));
    let tags = s.result_tags();
    assert!(tags.contains(&("Score".into(), "-4".into())), "{tags:?}");
    assert!(tags.contains(&("ScoreExact".into(), "true".into())), "{tags:?}");

    // With a budget of one position, the search proves only the bound 3.
    let s = run(&Colorito::new("standard", &[("score-nodes", "1")]).unwrap());
    assert_eq!(s.score(), Some((Side::Blue, Score::AtLeast(3))));
    let tags = s.result_tags();
    assert!(tags.contains(&("Score".into(), "-3".into())), "{tags:?}");
    assert!(tags.contains(&("ScoreExact".into(), "false".into())), "{tags:?}");
    let v = serde_json::to_value(s.view(Reader::Referee)).unwrap();
    assert_eq!(v["score"]["exact"], false);
    assert!(v["score"]["text"].as_str().unwrap().contains("lower bound"));
}

#[test]
fn max_moves_ends_in_a_draw() {
    let g = Colorito::new("standard", &[("max-moves", "2")]).unwrap();
    assert_eq!(g.ply_bound(), Some(4));
    let mut s = g.start(0);
    let mut v = Vec::new();
    for ply in 0..4 {
        assert!(s.outcome().is_none(), "ply {ply}");
        s.legal_moves(&mut v);
        s.apply(v[0]);
    }
    let o = s.outcome().unwrap();
    assert!(o.is_draw());
    assert_eq!(o.reason, "max-moves");
    assert_eq!(s.moves_made(), [2, 2]);
    let tags = s.result_tags();
    assert!(tags.contains(&("Winner".into(), "none".into())));
    // Default: 300 moves each.
    assert_eq!(standard().ply_bound(), Some(600));
}

#[test]
fn a_finish_on_the_last_allowed_move_still_counts() {
    let g = Colorito::new("standard", &[("max-moves", "21")]).unwrap();
    let mut s = race_end(&g, "red", (20, 20));
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    play(&mut s, "b1-a1");
    assert_eq!(s.winner(), Some(Side::Red));
}

// ---------------------------------------------------------------- variants

#[test]
fn just_colours_ignores_numbers() {
    let g = Colorito::new("just-colours", &[]).unwrap();
    // R3 on d2: c1 carries 3 but is dark blue; only c3 (red) welcomes it.
    let s = place(&g, "red", (0, 0), &[("d2", "R3")]);
    assert_eq!(moves(&s), ["d2-c3"]);
    // Perft from the start differs from the standard game only by welcome.
    let mut s = g.start(0);
    assert_eq!(perft(&mut s, 1), 12);
}

#[test]
fn just_colours_home_is_any_cell_of_the_colour_in_the_target_rank() {
    let g = Colorito::new("just-colours", &[]).unwrap();
    // Red pieces on rank 10 in reverse order, yellow on rank 9 shuffled: all
    // home. R1 comes last from j8 onto j10 by a jump over j9.
    let mut pieces: Vec<(String, String)> = Vec::new();
    for n in 2..=10u8 {
        pieces.push((Cell::new((n - 2) as usize, 9).unwrap().to_string(), format!("R{n}")));
    }
    for n in 11..=20u8 {
        pieces.push((Cell::new((n - 11) as usize, 8).unwrap().to_string(), format!("Y{n}")));
    }
    pieces.push(("j8".into(), "R1".into()));
    for n in 1..=10u8 {
        pieces.push((Cell::new((n - 1) as usize, 0).unwrap().to_string(), format!("D{n}")));
    }
    for n in 11..=19u8 {
        pieces.push((Cell::new((n - 11) as usize, 1).unwrap().to_string(), format!("L{n}")));
    }
    pieces.push(("e5".into(), "L20".into()));
    let mut s = place(&g, "red", (30, 30), &refs(&pieces));
    assert_eq!(s.home_count(Side::Red), 19);
    assert_eq!(s.race_distance(Side::Red), 1);
    play(&mut s, "j8-j10");
    assert!(s.in_extra_move());
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let waste = v.iter().copied().find(|m| !matches!(m, Move::Go { to, .. } if to.rank() == 1)).unwrap();
    s.apply(waste);
    assert_eq!(s.winner(), Some(Side::Red));
    // The same position under the standard rules is not complete: numbers count.
    let std = standard();
    let s = place(&std, "red", (30, 30), &refs(&pieces));
    assert_eq!(s.home_count(Side::Red), 1, "only R6 happens to be on its numbered target e10");
}

#[test]
fn strict_and_just_colours_combine() {
    let g = Colorito::new("strict", &[("just-colours", "true")]).unwrap();
    // No step-then-jump through c4.
    let s = place(&g, "red", (0, 0), &[("c3", "R3"), ("d4", "D1"), ("f5", "D2")]);
    assert_eq!(moves(&s), ["c3-g5"]);
    // R3 on d2 does not go to c1 (numbers are ignored).
    let s = place(&g, "red", (0, 0), &[("d2", "R3")]);
    assert_eq!(moves(&s), ["d2-c3"]);
}

#[test]
fn options_are_checked() {
    assert!(Colorito::new("standard", &[("first", "green")]).is_err());
    assert!(Colorito::new("standard", &[("max-moves", "0")]).is_err());
    assert!(Colorito::new("nope", &[]).is_err());
    let e = Colorito::new("standard", &[("board", "/nonexistent/colorito.board")]).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/colorito.board"), "{e}");
    let e = Colorito::new("standard", &[("max-moves", "10001")]).unwrap_err().to_string();
    assert_eq!(e, "option max-moves: 10001 must be from 1 to 10000");
}

/// The score search's budget is capped for a server's clients; every variant
/// with the default options is within the cap.
#[test]
fn score_nodes_is_capped_for_untrusted_clients() {
    use plateau_core::{Options, Setup};
    let info = <Colorito as Game>::INFO;
    let setup = |variant: &str, nodes: Option<&str>| {
        let mut options = Options::new();
        if let Some(n) = nodes {
            options.set("score-nodes", n);
        }
        Setup { variant: Some(variant.to_string()), options, seed: 0 }
    };
    for v in info.variants {
        assert_eq!(info.check_untrusted(&setup(v.name, None)), Ok(()), "{}", v.name);
    }
    assert_eq!(info.check_untrusted(&setup("standard", Some("750000"))), Ok(()));
    assert_eq!(info.check_untrusted(&setup("standard", Some("0"))), Ok(()));
    let e = info.check_untrusted(&setup("strict", Some("750001"))).unwrap_err().to_string();
    assert_eq!(e, "option score-nodes: at most 750000 on a server");
    let e = info.check_untrusted(&setup("standard", Some("1000000000000"))).unwrap_err().to_string();
    assert_eq!(e, "option score-nodes: at most 750000 on a server");
    // The command line (trusted) keeps the whole range.
    assert!(Colorito::new("standard", &[("score-nodes", "1000000000000")]).is_ok());
    assert_eq!(info.option("score-nodes").unwrap().default, "750000");
}

// ---------------------------------------------------------------- positions

#[test]
fn position_text_round_trips() {
    let g = standard();
    let mut s = g.start(0);
    let mut v = Vec::new();
    for _ in 0..7 {
        s.legal_moves(&mut v);
        s.apply(v[v.len() / 2]);
    }
    let t = s.to_text();
    let back = g.position(&t).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.key(), s.key());
    // Errors.
    assert!(g.position("to-move: red\n").unwrap_err().to_string().contains("10 rank lines"));
    let mut bad = text("red", (0, 0), &[("a1", "R1")]);
    bad = bad.replacen("R1", "R11", 1);
    assert!(g.position(&bad).unwrap_err().to_string().contains("cell a1"));
    let twice = text("red", (0, 0), &[("a1", "R1")]).replacen(". ", "R1 ", 1);
    assert!(g.position(&twice).unwrap_err().to_string().contains("already"));
    assert!(g.position(&text("blue", (0, 0), &[])).is_err(), "Blue to move needs Red one move ahead");
}

#[test]
fn keys_follow_moves_and_undo() {
    let g = standard();
    let mut s = g.start(0);
    let k0 = s.key();
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let mv = v[3];
    let u = s.apply(mv);
    assert_ne!(s.key(), k0);
    let rebuilt = g.position(&s.to_text()).unwrap();
    assert_eq!(rebuilt.key(), s.key());
    s.undo(mv, u);
    assert_eq!(s.key(), k0);
    assert_eq!(s, g.start(0));
}
