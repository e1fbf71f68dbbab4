//! The six sheets: the specification's constraint, the design's own, and
//! that the shipped files are the generator's output.

#[path = "../examples/sheet-gen.rs"]
#[allow(dead_code)]
mod generator;

use plateau_abraxas::sheet::LEVELS;
use plateau_abraxas::{BOARD, Dir, Sheet};

/// The largest number of dots in four consecutive cells of a line.
fn densest_window(dots: u128) -> u32 {
    let mut best = 0;
    for dir in Dir::ALL {
        for c in BOARD.iter() {
            let mut cells = vec![c];
            while cells.len() < 4 {
                match cells[cells.len() - 1].step(dir) {
                    Some(n) => cells.push(n),
                    None => break,
                }
            }
            if cells.len() == 4 {
                best = best.max(cells.iter().filter(|x| dots & x.bit() != 0).count() as u32);
            }
        }
    }
    best
}

#[test]
fn no_four_dots_in_a_line_and_at_most_two_in_any_four_cells() {
    for n in 1..=6 {
        let s = Sheet::level(n).unwrap();
        assert_eq!(s.name(), format!("level-{n}"));
        assert!(densest_window(s.dots()) <= 2, "level {n}:\n{}", s.to_grid());
    }
}

#[test]
fn more_dots_and_more_openings_level_by_level() {
    let sheets: Vec<Sheet> = (1..=6).map(|n| Sheet::level(n).unwrap()).collect();
    for w in sheets.windows(2) {
        assert!(w[1].len() > w[0].len(), "{} then {}", w[0].name(), w[1].name());
        assert!(generator::openings(w[1].dots()) > generator::openings(w[0].dots()));
    }
}

#[test]
fn shipped_sheets_are_the_generators_output() {
    for (recipe, (name, text)) in generator::LEVELS.iter().zip(LEVELS.iter()) {
        let sheet = generator::generate(recipe);
        assert_eq!(sheet.name(), *name);
        assert_eq!(generator::file_text(recipe, &sheet), *text, "run the sheet-gen example with --write");
    }
}

#[test]
fn the_checker_refuses_four_dots_in_every_direction() {
    for (dir, cells) in [
        ("row", ["c2", "d2", "e2", "f2"]),
        ("column", ["c2", "c3", "c4", "c5"]),
        ("diagonal", ["c2", "d3", "e4", "f5"]),
        ("anti-diagonal", ["f2", "e3", "d4", "c5"]),
    ] {
        let dots = cells.iter().fold(0u128, |m, c| m | plateau_abraxas::Cell::parse(c).unwrap().bit());
        let e = Sheet::from_dots("t", dots).unwrap_err();
        assert!(e.contains(dir), "{e}");
        let three = dots & !plateau_abraxas::Cell::parse(cells[3]).unwrap().bit();
        assert!(Sheet::from_dots("t", three).is_ok());
    }
}
