//! Board files: the shipped one, custom ones given inline through the `board`
//! option (never read from a path), and clear errors that name the line and
//! the cell.

use plateau_colorito::{Board, Cell, Colorito, STANDARD_BOARD};
use plateau_core::options::inline_content;
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

/// The default board with the middle colours shifted by one file, as a
/// board file's text.
fn shifted_board_file() -> String {
    let lines: Vec<String> = Board::standard()
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
        .collect();
    format!("# shifted\n{}\n", lines.join("   # a rank\n"))
}

#[test]
fn a_custom_board_given_inline_is_used_and_checked() {
    let shifted = shifted_board_file();
    // The file's text made one line as the command line does.
    let g = Colorito::new("standard", &[("board", &inline_content(&shifted))]).unwrap();
    assert_eq!(g.board(), &Board::parse(&shifted).unwrap());
    assert_ne!(g.board(), &Board::standard());
    // Rank 8 (the third line) now starts with yellow: a8 is Y, b8 D.
    assert_eq!(g.board().cell_text(Cell::parse("a8").unwrap()), "Y");
    assert_eq!(g.board().cell_text(Cell::parse("b8").unwrap()), "D");
    let s = g.start(0);
    assert!(s.count_moves() > 0);
    // The inline form written by the board parses back to the same board.
    assert_eq!(Board::parse(&g.board().to_inline()).unwrap(), *g.board());
    assert_eq!(Board::standard().to_inline().split('/').count(), 10);

    let bad = inline_content(&replace_cell(STANDARD_BOARD, 7, 2, "Q"));
    let e = Colorito::new("standard", &[("board", &bad)]).unwrap_err().to_string();
    assert!(e.starts_with("option board: not a valid inline board") && e.contains("cell c7"), "{e}");
    // Ten ranks of cells, but a mistyped one: still a precise error.
    let typo = inline_content(&replace_cell(STANDARD_BOARD, 5, 0, "R?"));
    let e = Colorito::new("standard", &[("board", &typo)]).unwrap_err().to_string();
    assert!(e.contains("cell a5"), "{e}");
    // Comments are not allowed inline.
    let e = Board::parse("R1 # x/D").unwrap_err().to_string();
    assert!(e.contains("no comments"), "{e}");
    // (That board is invalid anyway: R10 loses its target.)
    let thin = inline_content(&replace_cell(STANDARD_BOARD, 10, 0, "Y"));
    assert!(Colorito::new("just-colours", &[("board", &thin)]).is_err());
    // A multi-line value is refused by the option model: one line only.
    let e = Colorito::new("standard", &[("board", &shifted)]).unwrap_err().to_string();
    assert!(e.contains("one line"), "{e}");
}

/// The board option never touches the file system: a path is refused with
/// the same words whether or not the file exists, and no file's text shows.
#[test]
fn a_board_path_is_never_read() {
    let path = std::env::temp_dir().join(format!("colorito-test-path-{}.board", std::process::id()));
    let p = path.to_str().unwrap();
    let _ = std::fs::remove_file(&path);
    let before = Colorito::new("standard", &[("board", p)]).unwrap_err().to_string();
    std::fs::write(&path, STANDARD_BOARD).unwrap();
    let after = Colorito::new("standard", &[("board", p)]).unwrap_err().to_string();
    let _ = std::fs::remove_file(&path);
    assert_eq!(before, after, "the error must not depend on whether the file exists");
    assert!(!after.contains("L15") && !after.contains("Y19"), "{after}");
    // The same content given inline is accepted.
    assert_eq!(
        Colorito::new("standard", &[("board", &inline_content(STANDARD_BOARD))]).unwrap().board(),
        &Board::standard()
    );
    for p in ["/dev/zero", "/etc/passwd", "/nonexistent/colorito.board", "../../etc/hostname", "boards/standard.board"]
    {
        let e = Colorito::new("standard", &[("board", p)]).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "option board: {p:?} is neither standard nor an inline board (the ten ranks, rank 10 first, \
                 separated by /, each of ten cells like R10 or D); a board file is read only by the command line \
                 (board=@FILE)"
            )
        );
    }
    // A long value is echoed cut short.
    let long = format!("/{}", "z".repeat(500));
    let e = Colorito::new("standard", &[("board", &long)]).unwrap_err().to_string();
    assert!(e.len() < 400 && !e.contains(&"z".repeat(61)), "{e}");
}

/// A board given inline is in the record's `Option` tag and replays exactly.
#[test]
fn an_inline_board_replays_from_the_record() {
    use plateau_core::{Options, Reader, Record, Registry, Setup, entry};
    let registry = Registry::new().with(entry::<Colorito>());
    let board = inline_content(&shifted_board_file());
    let mut options = Options::new();
    options.set("board", board.clone());
    let setup = Setup { variant: None, options, seed: 0 };
    let mut m = registry.new_match("colorito", &setup).unwrap();
    for _ in 0..12 {
        let mv = m.legal_moves()[0].clone();
        m.play(&mv).unwrap();
    }
    let text = m.record(Reader::Referee).to_text();
    assert!(text.contains(&format!("[Option \"board={board}\"]")), "{text}");
    let back = registry.replay(&Record::parse(&text).unwrap(), None, None).unwrap();
    assert_eq!(back.setup().options.iter().collect::<Vec<_>>(), [("board", board.as_str())]);
    assert_eq!(back.history(), m.history());
    assert_eq!(back.key(), m.key());
    assert_eq!(back.view(Reader::Referee), m.view(Reader::Referee));
    let g = back.as_any().downcast_ref::<plateau_core::Match<Colorito>>().unwrap().game().board().clone();
    assert_eq!(g, Board::parse(&shifted_board_file()).unwrap());
}

#[test]
fn board_option_default_names_the_shipped_board() {
    for v in ["", "default", "standard"] {
        let g = Colorito::new("standard", &[("board", v)]).unwrap();
        assert_eq!(g.board(), &Board::standard());
    }
}
