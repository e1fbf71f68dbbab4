//! The conformance kit over every variant and the important options.
//!
//! Random games on the default board never finish within 300 moves a side
//! (they end by max-moves), so the end of the game by the rules (blocking,
//! equal moves, the loser's score) is also exercised on a small "swap" board
//! shipped with the tests, where each side's targets are the rank next to its
//! starts.

use plateau_colorito::Colorito;
use plateau_conformance::Kit;

/// Every playout must reach the end of the game (the games are bounded by
/// `max-moves`); returns how the games ended.
fn run(playouts: usize, variant: &str, options: &[(&str, &str)]) -> plateau_conformance::Stats {
    let stats = Kit::new(playouts).run::<Colorito>(variant, options);
    eprintln!("{variant} {options:?}: {stats}");
    assert_eq!(stats.finished, playouts, "{variant} {options:?}: {stats}");
    stats
}

#[test]
fn conformance_standard() {
    run(6, "standard", &[]);
    run(150, "standard", &[("max-moves", "15")]);
}

#[test]
fn conformance_just_colours() {
    run(6, "just-colours", &[]);
    run(150, "just-colours", &[("max-moves", "15")]);
}

#[test]
fn conformance_strict() {
    run(6, "strict", &[]);
    run(150, "strict", &[("max-moves", "15")]);
}

#[test]
fn conformance_strict_just_colours() {
    run(4, "strict", &[("just-colours", "true")]);
    run(100, "strict", &[("just-colours", "true"), ("max-moves", "15")]);
}

#[test]
fn conformance_blue_first() {
    run(4, "standard", &[("first", "blue")]);
    run(100, "just-colours", &[("first", "blue"), ("max-moves", "15")]);
}

/// Red starts on rank 1 and must reach rank 2, where Blue's dark-blue pieces
/// start, and so on: games end quickly, by every rule.
const SWAP_BOARD: &str = "\
L11 L12 L13 L14 L15 L16 L17 L18 L19 L20
Y11 Y12 Y13 Y14 Y15 Y16 Y17 Y18 Y19 Y20
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R1  R2  R3  R4  R5  R6  R7  R8  R9  R10
D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
";

#[test]
fn conformance_finished_games_on_a_swap_board() {
    let board = plateau_core::options::inline_content(SWAP_BOARD);
    let p = board.as_str();
    for (variant, extra) in
        [("standard", None), ("just-colours", None), ("strict", None), ("standard", Some(("first", "blue")))]
    {
        let mut opts = vec![("board", p), ("max-moves", "80"), ("score-nodes", "20000")];
        opts.extend(extra);
        let stats = run(60, variant, &opts);
        // Some games end by the rules (blocking, equal moves, completion),
        // not only by the move cap.
        assert!(stats.endings.keys().any(|k| k != "max-moves"), "{variant}: {stats}");
    }
}
