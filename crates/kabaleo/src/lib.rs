//! Kabaleo (Jean-Luc Renaud, Gigamic 2011) for Plateau: 2 to 4 players place
//! coloured pieces on coloured bases, each wanting their **secret** colour to
//! show on the most locations.
//!
//! The rules implemented are those of `docs/rules/kabaleo.md`:
//!
//! - **Material.** Colours in play = players + 2, by default the first of
//!   red, orange, yellow, green, blue, violet (`R O Y G B V`); option
//!   `colours` chooses others. 4 bases and 6 pieces of each colour in play.
//! - **Set-up** (all from the game's seed, with [`plateau_core::rng`], in a
//!   fixed order documented on [`Kabaleo`]'s set-up): each player draws a
//!   distinct objective among the colours in play; the bases are laid out at
//!   random and numbered `1…N` (16, 20 or 24) in that order; the pieces are
//!   dealt (`deal=random`: shuffled, 12, 10 or 9 each; `deal=even`: 3 of each
//!   colour each with 2 players, 2 of each with 3; refused with 4); the first
//!   player is drawn; play goes in seat order. The seed is the set-up's
//!   ([`plateau_core::Setup::seed`], the record's `Seed` tag), not an option:
//!   options are written in every record, and the seed reveals the
//!   objectives, so it must stay out of a record in progress.
//! - **A turn** places one piece of the mover's stock on a location: on a
//!   bare base only if the colours differ; on a pile, a different colour goes
//!   on top, the same colour as the top **cancels** (both leave the game for
//!   good, the location shows what is now on top, possibly the bare base, on
//!   which the same-colour ban applies again). Piles have no height limit.
//!   With `golden-rule=true` the location of the previous placement is
//!   forbidden (a pass does not lift the ban). A player with no legal
//!   placement passes (**Decision**); from the start this never happens, as
//!   every stock has the same size and a player holding a piece can always
//!   place it, so a game is exactly one ply per piece.
//! - **End.** When every piece is placed, each location counts for the colour
//!   it shows; the objectives are revealed; a player's colour is ranked by
//!   locations, then covered locations (piles of at least one piece) showing
//!   it, then the height of the highest pile it tops (**interpretation** of
//!   "the player whose colour tops the single highest pile": among the tied
//!   players, the one whose colour tops the highest pile). Players still
//!   tied share the win. Returns follow the full ranking
//!   ([`plateau_core::Outcome::ranked`]).
//!
//! # Hidden information
//!
//! A player sees every base, pile and stock and its own objective; the
//! others' objectives only at the end; a spectator none until the end
//! ([`KabaleoView`], [`render`]). Nothing derived from another seat's
//! objective reaches a player before the end: views, drawings, legal moves,
//! move texts and error messages depend on public facts only, and a live
//! game's record for a player carries no seed (the core's
//! [`AnyMatch::record`](plateau_core::AnyMatch::record) does that). [`Knowledge`] is what one seat
//! knows, including the public history; [`Knowledge::assignments`],
//! [`Knowledge::sample_uniform`] and [`Knowledge::sample_weighted`] give the
//! complete states consistent with it.
//!
//! # Notation
//!
//! A placement is the colour letter and the location number: `R7` places a
//! red piece on location 7 (input in either case, `r7`). A pass is `pass`.
//!
//! # Actions and observations
//!
//! [`KabaleoState`] implements [`plateau_core::Encode`] (module `encode`,
//! documented in `docs/encoding/kabaleo.md`): a placement is
//! `rank of its colour among the colours in play × locations + location
//! index`, the pass is the last action; an observation is one column per
//! location, with the whole of every pile, the stocks and the observer's own
//! objective, never another seat's.
//!
//! # Representation
//!
//! A state is a few hundred bytes, no heap: a pile is a stack of 3-bit
//! colours in a `u128` with its height (a cancel pops, its undo pushes the
//! placed colour back), bit masks of bare bases and of bases per colour make
//! move generation a few mask operations per colour, the counts of locations
//! and covered locations showing each colour and the Zobrist key are updated
//! incrementally, and the public history is a fixed array of one-byte moves.
//!
//! ```
//! use plateau_core::{Game, Reader, State};
//! use plateau_kabaleo::Kabaleo;
//!
//! let game = Kabaleo::new(3, plateau_kabaleo::Deal::Random, None, false).unwrap();
//! let mut state = game.start(42);
//! let mv = state.parse_move("r7").unwrap();
//! if state.try_apply(mv).is_ok() {
//!     assert_eq!(state.history().next().unwrap().1.to_string(), "R7");
//! }
//! let view = state.view(Reader::Seat(0));
//! assert!(view.objectives[0].is_some());
//! ```

#![warn(missing_docs)]

mod ai;
mod colour;
mod encode;
mod game;
mod hidden;
pub mod lessons;
mod position;
mod score;
mod state;
mod view;

pub use colour::{COLOURS, Colour, ColourSet};
pub use game::{BASES_PER_COLOUR, Deal, INFO, Kabaleo, PIECES_PER_COLOUR};
pub use hidden::{Assignment, Knowledge, SampleError, Weights};
pub use position::{Position, PositionError};
pub use score::{Decider, Score, Standing};
pub use state::{KabaleoState, MAX_HEIGHT, MAX_LOCATIONS, MAX_PIECES, Move, Undo};
pub use view::{ColourCounts, KabaleoView, LocationView, StockView, render};
