//! Hand-built positions (tests, studies, puzzles) and their text form.
//!
//! ```text
//! bases R O Y G  R O Y G  R O Y G  R O Y G
//! piles 1:OY 6:G
//! stock R3 O3 Y3 G3
//! stock R3 O2 Y3 G2
//! objectives R Y
//! to-move 2
//! golden-rule on
//! last 6
//! ```
//!
//! One line per fact, `key value…`; `#` starts a comment. `bases` lists the
//! base colours of locations 1, 2, … (spaces optional); `piles` gives the
//! pieces of a location bottom to top (`6:G` is one green piece on location
//! 6), every other location being bare; one `stock` line per seat, in seat
//! order (`-` for an empty stock); `objectives` one colour per seat;
//! `to-move` the seat to move, counted from 1 (default 1); `golden-rule`
//! `on`/`off` (default off); `last` the location of the previous placement
//! (default none).

use std::fmt;

use plateau_core::{MAX_SEATS, Seat};

use crate::colour::{COLOURS, Colour, ColourSet};
use crate::game::{BASES_PER_COLOUR, PIECES_PER_COLOUR};
use crate::state::MAX_LOCATIONS;

/// A position to build a state from, checked by
/// [`KabaleoState::from_position`](crate::KabaleoState::from_position):
///
/// - 2 to 4 seats (one stock and one objective each);
/// - the material of the box: the colours in play are those of the bases,
///   `seats + 2` of them, with exactly 4 bases each;
/// - no pile rests on a base of its bottom piece's colour, and no two
///   touching pieces of a pile share a colour (they would have cancelled);
/// - at most 6 pieces of each colour in piles and stocks together, all of
///   colours in play;
/// - objectives of distinct colours in play; a seat to move and a last
///   location that exist.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Whether the golden rule is on.
    pub golden_rule: bool,
    /// The base colour of each location, in location order.
    pub bases: Vec<Colour>,
    /// The pieces of each location, bottom to top (missing entries are bare).
    pub piles: Vec<Vec<Colour>>,
    /// Each seat's stock: a count per colour, indexed by [`Colour::index`].
    pub stocks: Vec<[u8; COLOURS]>,
    /// Each seat's objective.
    pub objectives: Vec<Colour>,
    /// The seat to move.
    pub to_move: Seat,
    /// The location (0-based) of the previous placement, for the golden rule.
    pub last_location: Option<usize>,
}

/// A hand-built position that breaks the rules' material or invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

fn err<T>(message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError(message.into()))
}

impl Position {
    /// Check the position (see [`Position`]).
    pub fn check(&self) -> Result<(), PositionError> {
        let seats = self.stocks.len();
        if !(2..=MAX_SEATS).contains(&seats) {
            return err(format!("{seats} stocks: Kabaleo is for 2 to 4 players"));
        }
        if self.objectives.len() != seats {
            return err(format!("{} objectives for {seats} players", self.objectives.len()));
        }
        let n = self.bases.len();
        let in_play = self.bases.iter().fold(ColourSet::EMPTY, |s, &c| s.with(c));
        if in_play.len() != seats + 2 {
            return err(format!(
                "{seats} players play with {} colours, but the bases have {} ({in_play})",
                seats + 2,
                in_play.len()
            ));
        }
        for c in in_play.iter() {
            let k = self.bases.iter().filter(|&&b| b == c).count();
            if k != BASES_PER_COLOUR {
                return err(format!("{k} {} bases: there are {BASES_PER_COLOUR} of each colour", c.name()));
            }
        }
        debug_assert!(n <= MAX_LOCATIONS);
        if self.piles.len() > n {
            return err(format!("piles for {} locations, but there are {n}", self.piles.len()));
        }
        let mut pieces = [0usize; COLOURS];
        for (l, pile) in self.piles.iter().enumerate() {
            for (k, &c) in pile.iter().enumerate() {
                let below = if k == 0 { self.bases[l] } else { pile[k - 1] };
                if c == below {
                    return err(format!(
                        "location {}: a {} piece on a {} {} would have been refused or cancelled",
                        l + 1,
                        c.name(),
                        c.name(),
                        if k == 0 { "base" } else { "piece" }
                    ));
                }
                pieces[c.index()] += 1;
            }
        }
        for stock in &self.stocks {
            for (i, &k) in stock.iter().enumerate() {
                pieces[i] += k as usize;
            }
        }
        for c in Colour::ALL {
            if pieces[c.index()] > 0 && !in_play.contains(c) {
                return err(format!("{} pieces, but {} is not in play", c.name(), c.name()));
            }
            if pieces[c.index()] > PIECES_PER_COLOUR {
                return err(format!(
                    "{} {} pieces in piles and stocks: there are {PIECES_PER_COLOUR} of each colour",
                    pieces[c.index()],
                    c.name()
                ));
            }
        }
        let mut seen = ColourSet::EMPTY;
        for &c in &self.objectives {
            if !in_play.contains(c) {
                return err(format!("objective {} is not in play", c.name()));
            }
            if seen.contains(c) {
                return err(format!("two players have the objective {}", c.name()));
            }
            seen = seen.with(c);
        }
        if self.to_move >= seats {
            return err(format!("player {} to move, but there are {seats}", self.to_move + 1));
        }
        if let Some(l) = self.last_location
            && l >= n
        {
            return err(format!("last location {} does not exist", l + 1));
        }
        Ok(())
    }

    /// Parse the text form (see the module documentation). The result is not
    /// checked yet: [`KabaleoState::from_position`](crate::KabaleoState::from_position) does.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut p = Position::default();
        let mut objectives_seen = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |m: String| PositionError(format!("line {}: {m}", i + 1));
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match key.to_ascii_lowercase().as_str() {
                "bases" => {
                    p.bases = colours(rest).map_err(at)?;
                    if p.bases.len() > MAX_LOCATIONS {
                        return Err(at(format!("{} bases: at most {MAX_LOCATIONS}", p.bases.len())));
                    }
                }
                "piles" => {
                    for tok in rest.split_whitespace() {
                        let (num, pieces) = tok
                            .split_once(':')
                            .ok_or_else(|| at(format!("{tok:?}: a pile is N:COLOURS, like 6:OG")))?;
                        let l: usize = num
                            .parse()
                            .ok()
                            .filter(|&l| (1..=MAX_LOCATIONS).contains(&l))
                            .ok_or_else(|| at(format!("{num:?} is not a location number")))?;
                        if p.piles.len() < l {
                            p.piles.resize(l, Vec::new());
                        }
                        p.piles[l - 1] = colours(pieces).map_err(at)?;
                    }
                }
                "stock" => {
                    if p.stocks.len() == MAX_SEATS {
                        return Err(at(format!("more than {MAX_SEATS} stocks")));
                    }
                    let mut stock = [0u8; COLOURS];
                    for tok in rest.split_whitespace().filter(|t| *t != "-") {
                        let mut ch = tok.chars();
                        let c = ch
                            .next()
                            .and_then(Colour::from_letter)
                            .ok_or_else(|| at(format!("{tok:?}: a stock entry is a colour and a count, like R3")))?;
                        let k: u8 = ch
                            .as_str()
                            .parse()
                            .ok()
                            .filter(|&k| k as usize <= PIECES_PER_COLOUR)
                            .ok_or_else(|| at(format!("{tok:?}: the count must be 0 to {PIECES_PER_COLOUR}")))?;
                        stock[c.index()] = k;
                    }
                    p.stocks.push(stock);
                }
                "objectives" => {
                    p.objectives = colours(rest).map_err(at)?;
                    objectives_seen = true;
                }
                "to-move" => {
                    let s: usize = rest
                        .parse()
                        .ok()
                        .filter(|&s| (1..=MAX_SEATS).contains(&s))
                        .ok_or_else(|| at(format!("{rest:?} is not a player number")))?;
                    p.to_move = s - 1;
                }
                "golden-rule" => {
                    p.golden_rule = match rest.to_ascii_lowercase().as_str() {
                        "on" | "true" | "yes" => true,
                        "off" | "false" | "no" => false,
                        _ => return Err(at(format!("{rest:?} is not on or off"))),
                    }
                }
                "last" => {
                    p.last_location = if rest.eq_ignore_ascii_case("none") {
                        None
                    } else {
                        let l: usize = rest
                            .parse()
                            .ok()
                            .filter(|&l| (1..=MAX_LOCATIONS).contains(&l))
                            .ok_or_else(|| at(format!("{rest:?} is not a location number")))?;
                        Some(l - 1)
                    }
                }
                other => {
                    return Err(at(format!(
                        "unknown key {other:?}; the keys are bases, piles, stock, objectives, to-move, golden-rule, last"
                    )));
                }
            }
        }
        if p.bases.is_empty() {
            return err("no bases line");
        }
        if p.stocks.is_empty() {
            return err("no stock lines");
        }
        if !objectives_seen {
            return err("no objectives line");
        }
        if p.piles.len() < p.bases.len() {
            p.piles.resize(p.bases.len(), Vec::new());
        }
        Ok(p)
    }
}

fn colours(text: &str) -> Result<Vec<Colour>, String> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|ch| Colour::from_letter(ch).ok_or_else(|| format!("{ch:?} is not a colour letter (R O Y G B V)")))
        .collect()
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bases: String = self.bases.iter().map(|c| c.letter()).collect();
        writeln!(f, "bases {bases}")?;
        let piles: Vec<String> = self
            .piles
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .map(|(l, p)| format!("{}:{}", l + 1, p.iter().map(|c| c.letter()).collect::<String>()))
            .collect();
        if !piles.is_empty() {
            writeln!(f, "piles {}", piles.join(" "))?;
        }
        for stock in &self.stocks {
            let items: Vec<String> = Colour::ALL
                .iter()
                .filter(|c| stock[c.index()] > 0)
                .map(|c| format!("{}{}", c.letter(), stock[c.index()]))
                .collect();
            writeln!(f, "stock {}", if items.is_empty() { "-".to_string() } else { items.join(" ") })?;
        }
        let objectives: Vec<String> = self.objectives.iter().map(|c| c.letter().to_string()).collect();
        writeln!(f, "objectives {}", objectives.join(" "))?;
        writeln!(f, "to-move {}", self.to_move + 1)?;
        writeln!(f, "golden-rule {}", if self.golden_rule { "on" } else { "off" })?;
        match self.last_location {
            Some(l) => writeln!(f, "last {}", l + 1),
            None => writeln!(f, "last none"),
        }
    }
}
