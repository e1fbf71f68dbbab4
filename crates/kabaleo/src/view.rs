//! What each reader may see, as data ([`KabaleoView`]) and as a terminal
//! drawing ([`render`]).
//!
//! The board (bases, piles), every stock, the turn and the history are public.
//! An objective is shown to its own seat, to the referee, and to everyone
//! once the game is over; to nobody else.

use std::fmt::Write as _;

use plateau_core::{Reader, Seat, State};
use serde::ser::SerializeMap;

use crate::colour::Colour;
use crate::game::seat_name;
use crate::score::Standing;
use crate::state::KabaleoState;

/// Counts per colour in play, serialized as a JSON object in the colours'
/// order (`{"R": 4, "O": 5, …}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourCounts(pub Vec<(Colour, usize)>);

impl serde::Serialize for ColourCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (c, n) in &self.0 {
            m.serialize_entry(c.letter_str(), n)?;
        }
        m.end()
    }
}

/// One location as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LocationView {
    /// Its number, from 1 (as in the notation).
    pub number: usize,
    /// The colour of its base.
    pub base: Colour,
    /// Its pieces, bottom to top.
    pub pile: Vec<Colour>,
    /// The colour it shows.
    pub shows: Colour,
}

/// One seat's stock, public.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StockView {
    /// The seat (0-based).
    pub seat: Seat,
    /// Its name.
    pub player: String,
    /// Pieces left per colour in play.
    pub pieces: ColourCounts,
    /// Pieces left in all.
    pub total: usize,
}

/// What one reader may see of a position.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct KabaleoView {
    /// Who this view is for.
    pub reader: Reader,
    /// The number of players.
    pub players: usize,
    /// The colours in play.
    pub colours: Vec<Colour>,
    /// Whether the golden rule is on.
    pub golden_rule: bool,
    /// The seat to move (none when the game is over).
    pub seat_to_move: Option<Seat>,
    /// The number of the location of the previous placement.
    pub last_location: Option<usize>,
    /// The number of the location the golden rule forbids to the seat to move.
    pub forbidden_location: Option<usize>,
    /// Pieces left in all stocks.
    pub pieces_left: usize,
    /// Every location.
    pub locations: Vec<LocationView>,
    /// Every stock.
    pub stocks: Vec<StockView>,
    /// Each seat's objective, when this reader may see it (else null).
    pub objectives: Vec<Option<Colour>>,
    /// The number of locations showing each colour.
    pub locations_per_colour: ColourCounts,
    /// The number of covered locations showing each colour.
    pub covered_per_colour: ColourCounts,
    /// The moves so far, in notation (public).
    pub moves: Vec<String>,
    /// Once the game is over: each player's colour, score and place.
    pub standings: Option<Vec<Standing>>,
    /// Once the game is over: what decided the winner.
    pub decided_by: Option<&'static str>,
}

/// Whether `reader` may see `seat`'s objective in `st`.
pub(crate) fn may_see_objective(st: &KabaleoState, reader: Reader, seat: Seat) -> bool {
    st.pieces_left() == 0 || reader.may_see(seat)
}

impl KabaleoView {
    /// The view of `st` for `reader`.
    pub fn new(st: &KabaleoState, reader: Reader) -> KabaleoView {
        let n = st.seats();
        let colours: Vec<Colour> = st.colours().iter().collect();
        let counts = |f: &dyn Fn(Colour) -> usize| ColourCounts(colours.iter().map(|&c| (c, f(c))).collect());
        KabaleoView {
            reader,
            players: n,
            colours: colours.clone(),
            golden_rule: st.golden_rule(),
            seat_to_move: st.to_move().seat(),
            last_location: st.last_location().map(|l| l + 1),
            forbidden_location: st.forbidden_location().map(|l| l + 1),
            pieces_left: st.pieces_left(),
            locations: (0..st.locations())
                .map(|l| LocationView { number: l + 1, base: st.base(l), pile: st.pile(l), shows: st.shows(l) })
                .collect(),
            stocks: (0..n)
                .map(|s| StockView {
                    seat: s,
                    player: seat_name(s),
                    pieces: counts(&|c| st.stock(s, c)),
                    total: st.stock_total(s),
                })
                .collect(),
            objectives: (0..n).map(|s| may_see_objective(st, reader, s).then(|| st.objective(s))).collect(),
            locations_per_colour: counts(&|c| st.locations_showing(c)),
            covered_per_colour: counts(&|c| st.covered_showing(c)),
            moves: st.history().map(|(_, m)| m.to_string()).collect(),
            standings: st.standings(),
            decided_by: st.decided_by().map(|d| d.as_str()),
        }
    }
}

const RESET: &str = "\x1b[0m";

fn chip(c: Colour, color: bool) -> String {
    if color { format!("{}{}{RESET}", c.ansi(), c.letter()) } else { c.letter().to_string() }
}

/// The drawing of `st` for `reader`: the locations in a grid (one column per
/// colour in play, four rows), every stock, the reader's own objective, and
/// everything at the end.
pub fn render(st: &KabaleoState, reader: Reader, color: bool) -> String {
    let n = st.seats();
    let mut out = String::new();
    let golden = if st.golden_rule() { ", golden rule" } else { "" };
    let _ = writeln!(out, "Kabaleo: {n} players, colours {}{golden}", st.colours());
    match st.to_move() {
        plateau_core::Turn::Seat(s) => {
            let _ = writeln!(out, "{} to move; {} pieces left.", seat_name(s), st.pieces_left());
        }
        plateau_core::Turn::Over => {
            let _ = writeln!(out, "Game over: every piece is placed.");
        }
    }
    if let (Reader::Seat(s), Some(_)) = (reader, st.to_move().seat())
        && s < n
    {
        let c = st.objective(s);
        let _ = writeln!(out, "You are {}; your secret colour is {} {}.", seat_name(s), chip(c, color), c.name());
    }
    out.push('\n');

    // The grid: cells of 10 columns.
    let cols = st.colours().len().max(1);
    let forbidden = st.forbidden_location();
    for row in 0..st.locations().div_ceil(cols) {
        let mut line = String::from(" ");
        for l in row * cols..((row + 1) * cols).min(st.locations()) {
            let mark = if forbidden == Some(l) { '*' } else { ' ' };
            let cell = if st.height(l) == 0 {
                let plain = format!("[{}]", st.base(l).letter());
                let text = if color { format!("[{}]", chip(st.base(l), true)) } else { plain.clone() };
                (text, plain.len())
            } else {
                let tail = format!("{}/{}", st.height(l), st.base(l).letter());
                (format!("{}{tail}", chip(st.shows(l), color)), 1 + tail.len())
            };
            let _ = write!(line, "{:>3}:{}{mark}", l + 1, cell.0);
            line.push_str(&" ".repeat(6usize.saturating_sub(cell.1)));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "  ([B] a bare base of colour B; T3/B a pile of 3 pieces topped by T on a B base)");
    if let Some(l) = forbidden {
        let _ = writeln!(out, "  (* location {} is forbidden by the golden rule)", l + 1);
    }
    let piles: Vec<String> = (0..st.locations())
        .filter(|&l| st.height(l) > 1)
        .map(|l| format!("{}:{}", l + 1, st.pile(l).iter().map(|c| c.letter()).collect::<String>()))
        .collect();
    if !piles.is_empty() {
        let _ = writeln!(out, "  piles, bottom to top: {}", piles.join(" "));
    }
    let showing: Vec<String> = st
        .colours()
        .iter()
        .map(|c| format!("{} {} ({} covered)", chip(c, color), st.locations_showing(c), st.covered_showing(c)))
        .collect();
    let _ = writeln!(out, "  showing: {}", showing.join(", "));
    out.push('\n');

    // Stocks and objectives.
    for s in 0..n {
        let arrow = if st.to_move().seat() == Some(s) { "▶" } else { " " };
        let you = if reader == Reader::Seat(s) { " (you)" } else { "" };
        let stock: Vec<String> =
            st.colours().iter().map(|c| format!("{}×{}", chip(c, color), st.stock(s, c))).collect();
        let objective = if may_see_objective(st, reader, s) {
            let c = st.objective(s);
            format!("objective {} {}", chip(c, color), c.name())
        } else {
            "objective secret".to_string()
        };
        let name = format!("{}{you}", seat_name(s));
        let _ = writeln!(out, "{arrow} {name:<15} {}  ({:>2} left)  {objective}", stock.join(" "), st.stock_total(s));
    }

    if let (Some(standings), Some(decider)) = (st.standings(), st.decided_by()) {
        out.push('\n');
        let winners: Vec<String> = standings.iter().filter(|s| s.winner).map(|s| s.player.clone()).collect();
        let verb = if winners.len() == 1 { "wins" } else { "share the win" };
        let _ = writeln!(out, "{} {verb} ({}).", winners.join(" and "), decider.as_str());
        let mut by_place: Vec<&Standing> = standings.iter().collect();
        by_place.sort_by_key(|s| (s.place, s.seat));
        for s in by_place {
            let _ = writeln!(
                out,
                "  {}. {:<9} {} {:<7} {:>2} locations, {:>2} covered, highest pile {}",
                s.place,
                s.player,
                chip(s.colour, color),
                s.colour.name(),
                s.score.locations,
                s.score.covered,
                s.score.highest_pile
            );
        }
    }
    out
}
