//! The generator of the six sheets `level-1` … `level-6`.
//!
//! ```text
//! cargo run --release -p plateau-abraxas --example sheet-gen            # print them
//! cargo run --release -p plateau-abraxas --example sheet-gen -- --write # write sheets/level-N.txt
//! ```
//!
//! Each level is a target number of dots, a symmetry (the lower levels are the
//! more regular) and a limit on how dots may cluster; dots are added one orbit
//! of the symmetry at a time, at cells drawn from Plateau's stable seeded
//! generator, whenever the orbit keeps the sheet within its limits. The
//! specification's constraint (no four dots in a row, column or diagonal) holds
//! at every level. The shipped files are exactly this program's output (a test
//! checks it), so changing a level means changing its line in [`LEVELS`] and
//! running with `--write`.

use plateau_abraxas::{BOARD, Cell, Dir, Sheet};
use plateau_core::rng::{setup_rng, shuffle};

/// The symmetry of a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// The eight symmetries of the square.
    Square,
    /// The four rotations.
    Rotations,
    /// The half turn.
    HalfTurn,
    /// None.
    None,
}

/// How dots may cluster. At every level no four cells in a line hold more
/// than two dots: a window of four with three dots would let a single stone
/// make a line on every turn, for ever, since the dots never move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cluster {
    /// No two dots side by side (in any of the eight directions).
    Apart,
    /// Two dots may touch.
    Pairs,
}

/// One level's recipe.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// The level, 1 to 6.
    pub level: usize,
    /// The number of dots.
    pub dots: u32,
    /// The symmetry.
    pub symmetry: Symmetry,
    /// The clustering allowed.
    pub cluster: Cluster,
    /// The first seed tried.
    pub seed: u64,
    /// How many sheets are drawn (from successive seeds); the one whose
    /// number of openings ([`openings`]) is the nearest to `openings` is kept.
    pub tries: u64,
    /// The number of openings aimed at.
    pub openings: u32,
}

/// The six recipes.
pub const LEVELS: [Recipe; 6] = [
    Recipe {
        level: 1,
        dots: 4,
        symmetry: Symmetry::Square,
        cluster: Cluster::Apart,
        seed: 100,
        tries: 40,
        openings: 8,
    },
    Recipe {
        level: 2,
        dots: 6,
        symmetry: Symmetry::HalfTurn,
        cluster: Cluster::Apart,
        seed: 200,
        tries: 40,
        openings: 14,
    },
    Recipe {
        level: 3,
        dots: 8,
        symmetry: Symmetry::HalfTurn,
        cluster: Cluster::Pairs,
        seed: 300,
        tries: 40,
        openings: 20,
    },
    Recipe {
        level: 4,
        dots: 14,
        symmetry: Symmetry::HalfTurn,
        cluster: Cluster::Pairs,
        seed: 400,
        tries: 40,
        openings: 38,
    },
    Recipe {
        level: 5,
        dots: 20,
        symmetry: Symmetry::None,
        cluster: Cluster::Pairs,
        seed: 500,
        tries: 40,
        openings: 58,
    },
    Recipe {
        level: 6,
        dots: 26,
        symmetry: Symmetry::None,
        cluster: Cluster::Pairs,
        seed: 600,
        tries: 40,
        openings: 84,
    },
];

fn cell(f: i32, r: i32) -> Cell {
    Cell::new(f as u8, r as u8).expect("on the board")
}

/// The orbit of a cell under a symmetry (the board's centre is e5).
pub fn orbit(c: Cell, sym: Symmetry) -> u128 {
    let (f, r) = (c.file() as i32, c.rank() as i32);
    let maps: Vec<(i32, i32)> = match sym {
        Symmetry::None => vec![(f, r)],
        Symmetry::HalfTurn => vec![(f, r), (8 - f, 8 - r)],
        Symmetry::Rotations => vec![(f, r), (8 - r, f), (8 - f, 8 - r), (r, 8 - f)],
        Symmetry::Square => {
            vec![(f, r), (8 - r, f), (8 - f, 8 - r), (r, 8 - f), (8 - f, r), (f, 8 - r), (r, f), (8 - r, 8 - f)]
        }
    };
    maps.into_iter().fold(0, |m, (f, r)| m | cell(f, r).bit())
}

/// Whether some four consecutive cells in a line hold at least three dots.
fn three_in_four(m: u128) -> bool {
    Dir::ALL.iter().any(|d| {
        let s = d.step();
        // Four-cell windows starting on the board, counted by pairs of bits.
        let w = [m, m >> s, m >> (2 * s), m >> (3 * s)];
        let mut starts = BOARD.0;
        for (i, _) in w.iter().enumerate().skip(1) {
            // The window must not wrap: its cells are a run of board cells.
            starts &= BOARD.0 >> (i as u32 * s);
        }
        let all3 = (w[0] & w[1] & w[2]) | (w[0] & w[1] & w[3]) | (w[0] & w[2] & w[3]) | (w[1] & w[2] & w[3]);
        all3 & starts & window_ok(s) != 0
    })
}

/// Window starts whose four cells are in one line (no wrap through the edge).
fn window_ok(s: u32) -> u128 {
    let mut ok = 0u128;
    for c in BOARD.iter() {
        let mut cur = Some(c);
        let dir = Dir::ALL.iter().copied().find(|d| d.step() == s).expect("a direction");
        for _ in 0..3 {
            cur = cur.and_then(|x| x.step(dir));
        }
        if cur.is_some() {
            ok |= c.bit();
        }
    }
    ok
}

fn neighbours(m: u128) -> u128 {
    let mut n = 0;
    for d in Dir::ALL {
        let s = d.step();
        n |= (m << s) | (m >> s);
    }
    n & BOARD.0
}

/// Whether a set of dots is within a cluster limit (and never has three dots
/// in four cells of a line, so never four in a line).
pub fn within(m: u128, cluster: Cluster) -> bool {
    if three_in_four(m) {
        return false;
    }
    match cluster {
        Cluster::Apart => neighbours(m) & m == 0,
        Cluster::Pairs => true,
    }
}

/// The number of openings of a set of dots: windows of four consecutive cells
/// in a line (row, column, diagonal) that hold two dots, so that two red
/// stones make a line there. The more openings, the more lines in reach.
pub fn openings(m: u128) -> u32 {
    let mut n = 0;
    for dir in Dir::ALL {
        for c in BOARD.iter() {
            let mut cells = vec![c];
            while cells.len() < 4 {
                match cells[cells.len() - 1].step(dir) {
                    Some(next) => cells.push(next),
                    None => break,
                }
            }
            if cells.len() == 4 && cells.iter().filter(|x| m & x.bit() != 0).count() == 2 {
                n += 1;
            }
        }
    }
    n
}

/// One sheet drawn for a recipe from `seed`, if the drawing reaches the
/// number of dots.
fn draw(recipe: &Recipe, seed: u64) -> Option<u128> {
    let mut rng = setup_rng(seed);
    let mut order: Vec<Cell> = BOARD.iter().collect();
    shuffle(&mut rng, &mut order);
    let mut dots = 0u128;
    for c in order {
        if dots.count_ones() == recipe.dots {
            break;
        }
        let o = orbit(c, recipe.symmetry);
        if dots & o != 0 || (dots | o).count_ones() > recipe.dots {
            continue;
        }
        if within(dots | o, recipe.cluster) {
            dots |= o;
        }
    }
    (dots.count_ones() == recipe.dots).then_some(dots)
}

/// The sheet of a recipe: of `tries` drawings, the one whose number of
/// openings is the nearest to the recipe's (the first of them on a tie).
pub fn generate(recipe: &Recipe) -> Sheet {
    let mut best: Option<(u32, u128)> = None;
    let mut found = 0;
    let mut seed = recipe.seed;
    while found < recipe.tries {
        assert!(seed < recipe.seed + 100_000, "too few sheets of {} dots for {recipe:?}", recipe.dots);
        if let Some(d) = draw(recipe, seed) {
            found += 1;
            let o = openings(d).abs_diff(recipe.openings);
            if best.is_none_or(|(b, _)| o < b) {
                best = Some((o, d));
            }
        }
        seed += 1;
    }
    let (_, dots) = best.expect("tries > 0");
    Sheet::from_dots(format!("level-{}", recipe.level), dots).expect("no four dots in a line")
}

/// The file text of a level.
pub fn file_text(recipe: &Recipe, sheet: &Sheet) -> String {
    format!(
        "# Abraxas sheet {} ({} dots, {} openings, symmetry {:?}, clusters {:?}), made by examples/sheet-gen.rs\n\
         # 9 rows, rank 9 first, files a to i; o = dot, . = no dot\n{}",
        sheet.name(),
        sheet.len(),
        openings(sheet.dots()),
        recipe.symmetry,
        recipe.cluster,
        sheet.to_grid()
    )
}

#[allow(dead_code)]
fn main() {
    let write = std::env::args().any(|a| a == "--write");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sheets");
    for r in &LEVELS {
        let sheet = generate(r);
        let text = file_text(r, &sheet);
        println!("{text}");
        if write {
            let path = dir.join(format!("level-{}.txt", r.level));
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            println!("(written to {})\n", path.display());
        }
    }
}
