//! Board files: the shipped one, custom ones through the `board` option, and
//! clear errors that name the line and the cell.

use plateau_colorito::{Board, Cell, Colorito, STANDARD_BOARD};
use plateau_core::{Game, State};

fn err(text: &str) -> String {
    Board::parse(text).unwrap_err().to_string()
}

#[test]
fn the_shipped_board_parses_and_round_trips() {
    let b = Board::parse(STANDARD_BOARD).unwrap();
    assert_eq!(Board::parse(&b.to_text()).unwrap(), b);
    assert_eq!(b.cell_text(Cell::parse("a10").unwrap()), "R10");
    assert_eq!(b.cell_text(Cell::parse("j1").unwrap()), "D10");
}

fn replace_cell(text: &str, rank: usize, file: usize, with: &str) -> String {
    let b = Board::standard().to_text();
    let _ = text;
    let mut lines: Vec<Vec<String>> = b.lines().map(|l| l.split_whitespace().map(str::to_string).collect()).collect();
    lines[10 - rank][file] = with.to_string();
    lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn broken_boards_are_refused_with_the_cell_and_the_problem() {
    // Sizes.
    let nine: String = STANDARD_BOARD.lines().filter(|l| !l.contains("rank 5")).collect::<Vec<_>>().join("\n");
    assert!(err(&nine).contains("the board has 9 ranks"), "{}", err(&nine));
    let eleven = format!("{STANDARD_BOARD}\nR Y D L R Y D L R Y\n");
    assert!(err(&eleven).contains("more than 10 ranks"), "{}", err(&eleven));
    let short = STANDARD_BOARD.replace("D   L   R   Y   D   L   R   Y   D   L   # rank 7", "D L R Y D L R Y D");
    let e = err(&short);
    assert!(e.contains("rank 7 has 9 cells"), "{e}");
    assert!(e.starts_with("line "), "{e}");
    // A bad colour letter, named with its cell.
    let e = err(&replace_cell(STANDARD_BOARD, 7, 2, "X"));
    assert!(e.contains("cell c7") && e.contains("colour letter"), "{e}");
    // A number out of range.
    let e = err(&replace_cell(STANDARD_BOARD, 5, 4, "R25"));
    assert!(e.contains("cell e5") && e.contains("out of range"), "{e}");
    // A number on the wrong colour.
    let e = err(&replace_cell(STANDARD_BOARD, 5, 4, "Y5"));
    assert!(e.contains("cell e5") && e.contains("yellow cell may carry only 11–20"), "{e}");
    // Garbage after the colour.
    let e = err(&replace_cell(STANDARD_BOARD, 4, 0, "R1x"));
    assert!(e.contains("cell a4"), "{e}");
    // A duplicate number: two targets for red 5.
    let e = err(&replace_cell(STANDARD_BOARD, 6, 0, "R5"));
    assert!(e.contains("cell a6") && e.contains("R5 appears again") && e.contains("f10"), "{e}");
    // A missing number: light blue 20 has no target, yellow 20 no start.
    let e = err(&replace_cell(STANDARD_BOARD, 2, 9, "L"));
    assert!(
        e.contains("no light blue cell carries 20")
            && e.contains("L20 has no target")
            && e.contains("Y20 has no start"),
        "{e}"
    );
}

#[test]
fn a_custom_board_file_is_used_and_checked() {
    let dir = std::env::temp_dir();
    let good = dir.join(format!("colorito-test-good-{}.board", std::process::id()));
    // The default board with the middle colours shifted by one file.
    let shifted: String = Board::standard()
        .to_text()
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if (2..8).contains(&i) {
                let mut cells: Vec<&str> = l.split_whitespace().collect();
                cells.rotate_left(1);
                cells.join(" ")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&good, &shifted).unwrap();
    let g = Colorito::new("standard", &[("board", good.to_str().unwrap())]).unwrap();
    assert_eq!(g.board().to_text(), Board::parse(&shifted).unwrap().to_text());
    assert_ne!(g.board(), &Board::standard());
    let s = g.start(0);
    assert!(s.count_moves() > 0);

    let bad = dir.join(format!("colorito-test-bad-{}.board", std::process::id()));
    std::fs::write(&bad, replace_cell(STANDARD_BOARD, 7, 2, "Q")).unwrap();
    let e = Colorito::new("standard", &[("board", bad.to_str().unwrap())]).unwrap_err().to_string();
    assert!(e.contains(bad.to_str().unwrap()) && e.contains("cell c7"), "{e}");

    // Just-colours needs ten cells of each colour in its target rank.
    let thin = dir.join(format!("colorito-test-thin-{}.board", std::process::id()));
    std::fs::write(&thin, replace_cell(STANDARD_BOARD, 10, 0, "Y")).unwrap_or(());
    // (That board is invalid anyway: R10 loses its target.)
    assert!(Colorito::new("just-colours", &[("board", thin.to_str().unwrap())]).is_err());
    for p in [good, bad, thin] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn board_option_default_names_the_shipped_board() {
    for v in ["", "default", "standard"] {
        let g = Colorito::new("standard", &[("board", v)]).unwrap();
        assert_eq!(g.board(), &Board::standard());
    }
}
