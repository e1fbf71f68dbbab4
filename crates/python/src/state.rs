//! `plateau.State`: one game in progress, of any game, through the
//! type-erased layer of `plateau-core` (`AnyMatch`).

use plateau_core::{AnyMatch, Reader, Record, Setup, Turn};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{self, value_error};
use crate::registry;

/// One game in progress of any of Plateau's games: its set-up, its position
/// and the moves played. Moves are text in the game's notation.
///
/// ``State(game, variant=None, options=None, seed=0)`` starts a new game:
/// ``game`` is a name from :func:`plateau.games`, ``variant`` one of its
/// variants (``None``: the default), ``options`` a dict of option values
/// (strings, integers or booleans), ``seed`` the seed of every random choice
/// of the set-up (Kabaleo's deal; other games ignore it).
///
/// A ``State`` holds the whole truth (the referee's knowledge): for a game with
/// hidden information, ask ``view(seat)``, ``information_state(seat)`` or
/// ``record(seat)`` for what one seat may know.
#[pyclass(module = "plateau._plateau", name = "State")]
pub struct State {
    pub(crate) m: Box<dyn AnyMatch>,
}

/// A return (an `f32` in the core) as the `f64` of its shortest decimal
/// form: ⅓ is 0.33333334, not 0.3333333134651184.
fn shortest(r: f32) -> f64 {
    r.to_string().parse().unwrap_or(f64::from(r))
}

impl State {
    /// The deal text of `seat` as this state may tell it without revealing
    /// other seats' secrets: `Ok(None)` for games without a dealt start, or
    /// when the state was built from a full deal (the core cannot mask it).
    /// An error when the state does not know that seat's secrets (built
    /// from another seat's or a spectator's deal).
    fn seat_deal(&self, seat: usize) -> PyResult<Option<String>> {
        // A full deal (made by the referee) is masked for the seat by the core.
        self.check_knows(seat)?;
        Ok(self.m.deal(Reader::Seat(seat)))
    }

    /// An error unless this state knows `seat`'s secrets (a state built
    /// from another seat's or a spectator's deal does not).
    fn check_knows(&self, seat: usize) -> PyResult<()> {
        match self.m.dealt_for() {
            Some(r) if !r.may_see(seat) => Err(value_error(format!(
                "this state was built from what {} knows (a record's Deal tag): it does not know seat {seat}'s secrets",
                match r {
                    Reader::Seat(s) => format!("seat {s}"),
                    _ => "a spectator".to_string(),
                }
            ))),
            _ => Ok(()),
        }
    }

    fn current(&self) -> Option<usize> {
        self.m.to_move().seat()
    }
}

#[pymethods]
impl State {
    #[new]
    #[pyo3(signature = (game, variant=None, options=None, seed=0))]
    fn new(game: &str, variant: Option<String>, options: Option<&Bound<'_, PyDict>>, seed: u64) -> PyResult<Self> {
        let setup = Setup { variant, options: convert::options(options)?, seed };
        let m = registry().new_match(game, &setup).map_err(value_error)?;
        Ok(State { m })
    }

    /// Replay a record (the one record format of ``plateau replay`` and
    /// ``plateau arena --records``), checking every move. ``game`` and
    /// ``variant`` are for a bare move list without tags. A record of one
    /// seat of a game with hidden information (a ``Deal`` tag instead of the
    /// ``Seed``) starts from that deal: the other seats' secrets are then
    /// made-up values consistent with it. Raises ``ValueError`` with the
    /// reason when the record is not valid.
    #[staticmethod]
    #[pyo3(signature = (text, game=None, variant=None))]
    fn from_record(text: &str, game: Option<&str>, variant: Option<&str>) -> PyResult<Self> {
        let record = Record::parse(text).map_err(value_error)?;
        let m = registry().replay(&record, game, variant).map_err(value_error)?;
        Ok(State { m })
    }

    /// The game's registry name (``"abalone"``).
    #[getter]
    fn game(&self) -> &'static str {
        self.m.info().name
    }

    /// The variant played (``"custom"`` when the options match no variant).
    #[getter]
    fn variant(&self) -> &'static str {
        self.m.variant()
    }

    /// The options as they were set (not the variant's presets): a dict of
    /// names to text values.
    #[getter]
    fn options(&self) -> std::collections::BTreeMap<String, String> {
        self.m.setup().options.0.clone()
    }

    /// The number of seats (players).
    #[getter]
    fn num_players(&self) -> usize {
        self.m.seats()
    }

    /// The seat (0-based) whose decision it is, or ``None`` once the game is
    /// over. In Abraxas one turn is several decisions, of both players.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.current()
    }

    /// The number of moves played since the start.
    #[getter]
    fn ply(&self) -> usize {
        self.m.ply()
    }

    /// The name of a seat as players know it (``"Black"``).
    fn seat_name(&self, seat: i64) -> PyResult<String> {
        Ok(self.m.seat_name(convert::seat_index(&*self.m, seat)?))
    }

    /// The legal moves in the game's notation, each once (empty when the game
    /// is over). Legal moves are public in every game.
    fn legal_moves(&self) -> Vec<String> {
        self.m.legal_moves()
    }

    /// Play a move given in the game's notation and return its canonical
    /// text. An illegal or unreadable move raises ``ValueError`` with the
    /// rules' message and changes nothing.
    fn apply(&mut self, r#move: &str) -> PyResult<String> {
        self.m.play(r#move).map_err(value_error)
    }

    /// Take back the last move (or the result of a game ended off the board,
    /// such as a resignation read from a record). Raises ``ValueError`` when
    /// there is nothing to take back.
    fn undo(&mut self) -> PyResult<()> {
        if self.m.undo() { Ok(()) } else { Err(value_error("there is no move to take back")) }
    }

    /// An independent copy.
    fn clone(&self) -> State {
        State { m: self.m.clone_box() }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Pickling: a state is its referee's record, replayed by
    /// :meth:`from_record` (so that states cross process boundaries, as
    /// ``multiprocessing`` needs).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_record = slf.get_type().getattr("from_record")?;
        let record = slf.borrow_mut().record(None)?;
        Ok((from_record, (record,)))
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.m.outcome().is_some() || self.m.to_move() == Turn::Over
    }

    /// One return per seat once the game is over, in -1..1, higher is
    /// better, summing to zero (two players: 1 win, -1 loss, 0 draw; more
    /// players: by rank). All zeros while the game goes on.
    fn returns(&self) -> Vec<f64> {
        match self.m.outcome() {
            Some(o) => o.returns().iter().map(|&r| shortest(r)).collect(),
            None => vec![0.0; self.m.seats()],
        }
    }

    /// The result as a record writes it (``"1-0"``, ``"0-1"``,
    /// ``"1/2-1/2"``, ``"0-1-0"``), or ``None`` while the game goes on.
    fn result(&self) -> Option<String> {
        self.m.outcome().map(|o| o.result_string())
    }

    /// Why the game ended (``"push-out"``), or ``None`` while it goes on.
    fn termination(&self) -> Option<&'static str> {
        self.m.outcome().map(|o| o.reason)
    }

    /// The moves played, in canonical notation.
    fn history(&self) -> Vec<String> {
        self.m.history()
    }

    /// The seat that made each move of :meth:`history`.
    fn movers(&self) -> Vec<usize> {
        self.m.movers()
    }

    /// The record of the game so far as ``reader`` may see it: a seat
    /// number, ``"spectator"`` or ``"referee"`` (``None``, the default: the
    /// referee, the full record). For a game with hidden information still in
    /// progress, every reader but the referee gets a ``Deal`` tag (the start
    /// as that reader knows it) instead of the seed. ``plateau replay`` and
    /// :meth:`from_record` read it.
    #[pyo3(signature = (reader=None))]
    fn record(&mut self, reader: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let reader = convert::reader(&*self.m, reader)?;
        self.m.settle();
        Ok(self.m.record(reader).to_text())
    }

    /// What ``reader`` (a seat number, ``"spectator"`` or ``"referee"``, the
    /// default) may see of the position, as the game's JSON view (a dict).
    #[pyo3(signature = (reader=None))]
    fn view<'py>(&mut self, py: Python<'py>, reader: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let reader = convert::reader(&*self.m, reader)?;
        self.m.settle();
        convert::json(py, &self.m.view(reader))
    }

    /// The position drawn for a terminal as ``reader`` may see it (no
    /// colours).
    #[pyo3(signature = (reader=None))]
    fn render(&self, reader: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let reader = convert::reader(&*self.m, reader)?;
        Ok(self.m.render(reader, false))
    }

    /// For a game whose start is dealt at random with secrets (Kabaleo):
    /// the start as ``seat`` knows it, one line in the game's own form, each
    /// secret it may not see written ``?`` (what an engine playing that seat
    /// is told, and what a seat's record carries as its ``Deal`` tag).
    /// ``None`` for other games, and for a state built from a full deal (a
    /// referee's ``Deal`` tag), whose deal cannot be masked yet. Raises
    /// ``ValueError`` for a state built from another seat's deal.
    fn deal(&self, seat: i64) -> PyResult<Option<String>> {
        let seat = convert::seat_index(&*self.m, seat)?;
        self.seat_deal(seat)
    }

    /// Everything ``seat`` may know, as a dict:
    ///
    /// - ``game``, ``variant``, ``options``, ``num_players``, ``seat``;
    /// - ``ply``, ``current_player``, ``legal_moves`` (public in every game),
    ///   ``history`` and ``movers`` (the public moves and who made them);
    /// - ``deal``: the seat's deal (see :meth:`deal`);
    /// - ``view``: the seat's view of the position (see :meth:`view`);
    /// - ``start_view``: the seat's view of the start;
    /// - ``result`` and ``returns``: once the game is over, else ``None``.
    ///
    /// Nothing in it depends on what the seat may not see (other seats'
    /// secrets, the seed of a hidden deal). Raises ``ValueError`` for a state
    /// built from another seat's deal.
    fn information_state<'py>(&mut self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyDict>> {
        let seat = convert::seat_index(&*self.m, seat)?;
        self.m.settle();
        let deal = self.seat_deal(seat)?;
        let reader = Reader::Seat(seat);
        let mut start = self.m.clone_box();
        while start.undo() {}
        let d = PyDict::new(py);
        d.set_item("game", self.m.info().name)?;
        d.set_item("variant", self.m.variant())?;
        let options = PyDict::new(py);
        for (k, v) in self.m.setup().options.iter() {
            options.set_item(k, v)?;
        }
        d.set_item("options", options)?;
        d.set_item("num_players", self.m.seats())?;
        d.set_item("seat", seat)?;
        d.set_item("ply", self.m.ply())?;
        d.set_item("current_player", self.current())?;
        d.set_item("legal_moves", PyList::new(py, self.m.legal_moves())?)?;
        d.set_item("history", PyList::new(py, self.m.history())?)?;
        d.set_item("movers", PyList::new(py, self.m.movers())?)?;
        d.set_item("deal", deal)?;
        d.set_item("view", convert::json(py, &self.m.view(reader))?)?;
        d.set_item("start_view", convert::json(py, &start.view(reader))?)?;
        d.set_item("result", self.result())?;
        d.set_item("returns", self.m.outcome().map(|o| o.returns().iter().map(|&r| shortest(r)).collect::<Vec<_>>()))?;
        Ok(d)
    }

    /// A complete state consistent with what ``seat`` knows, drawn at
    /// random: the seat's deal (:meth:`deal`) with the secrets the seat may
    /// not see drawn uniformly among the values consistent with it (from
    /// ``rng_seed``: the same seed, the same draw), and the public moves
    /// replayed and checked. What ISMCTS-style searches sample. For a game
    /// without hidden information, a copy. Raises ``ValueError`` when the
    /// state does not know the seat's deal (built from another seat's).
    #[pyo3(signature = (seat, rng_seed=0))]
    fn sample(&self, seat: i64, rng_seed: u64) -> PyResult<State> {
        let seat = convert::seat_index(&*self.m, seat)?;
        if !self.m.info().hidden {
            return Ok(self.clone());
        }
        // The seat's deal (checked: this state knows it), then drawn.
        self.seat_deal(seat)?.ok_or_else(|| value_error("this game has no deal"))?;
        let deal = self
            .m
            .sample_deal(Reader::Seat(seat), rng_seed)
            .ok_or_else(|| value_error("the seat's deal could not be completed"))?;
        let setup = Setup { seed: 0, ..self.m.setup().clone() };
        let entry = registry().get(self.m.info().name).map_err(value_error)?;
        let mut m = entry.new_match_dealt(&setup, &deal).map_err(value_error)?;
        for (i, mv) in self.m.history().iter().enumerate() {
            m.play(mv).map_err(|e| value_error(format!("replaying ply {} ({mv}) from the deal: {e}", i + 1)))?;
        }
        if let (None, Some(o)) = (m.outcome(), self.m.outcome()) {
            m.adjudicate(o);
        }
        Ok(State { m })
    }

    /// The size of the action space of this game and variant: every move is
    /// one integer action in ``range(num_distinct_actions)``, the same for
    /// every position of the game (the encoding of each game is documented
    /// in ``docs/encoding/``).
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.m.action_space()
    }

    /// The legal moves as integer actions, in the order of
    /// :meth:`legal_moves` (empty when the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.m.legal_actions(&mut out);
        out
    }

    /// A NumPy ``int8`` array of ``num_distinct_actions`` elements: 1 for
    /// the legal actions, 0 elsewhere (all 0 when the game is over).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut legal = Vec::new();
        self.m.legal_actions(&mut legal);
        let n = self.m.action_space();
        convert::numpy_array(py, n, "int8", &[n], |mask| {
            for a in legal {
                mask[a] = 1;
            }
        })
    }

    /// Play a move given as an integer action and return its text in the
    /// game's notation. An action that names no legal move raises
    /// ``ValueError`` with the reason and changes nothing.
    fn apply_action(&mut self, action: i64) -> PyResult<String> {
        let a = usize::try_from(action).map_err(|_| value_error(format!("an action is not negative: {action}")))?;
        self.m.play_action(a).map_err(value_error)
    }

    /// The move an action names in this position, in the game's notation.
    /// Raises ``ValueError`` when it names none here (out of range, or not a
    /// move this position can express). The move may be illegal here.
    fn action_to_move(&self, action: i64) -> PyResult<String> {
        usize::try_from(action)
            .ok()
            .and_then(|a| self.m.action_text(a))
            .ok_or_else(|| value_error(format!("the action {action} names no move in this position")))
    }

    /// The action of a move given in the game's notation (legal here or
    /// not, as long as this position can read it). Raises ``ValueError``
    /// when the text is not a move.
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        self.m.action_of(r#move).map_err(value_error)
    }

    /// The shape of an observation tensor: ``(planes, height, width)``, the
    /// same for every position of the game and variant.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [p, h, w] = self.m.observation_shape();
        (p, h, w)
    }

    /// The name of each plane of an observation tensor, in order (their
    /// meaning: ``docs/encoding/``).
    fn observation_planes(&self) -> Vec<String> {
        self.m.plane_names()
    }

    /// What ``seat`` may see of the position as a NumPy ``float32`` array
    /// of :attr:`observation_shape`, from that seat's point of view (its
    /// pieces first), every value in 0..1. For a game with hidden
    /// information it holds the seat's own secrets and nothing of the
    /// others'.
    fn observation_tensor<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = convert::seat_index(&*self.m, seat)?;
        self.check_knows(seat)?;
        let shape = self.m.observation_shape();
        let mut out = vec![0f32; shape.iter().product()];
        self.m.observe(seat, &mut out);
        convert::numpy_array(py, out.len() * 4, "float32", &shape, |bytes| {
            for (b, v) in bytes.chunks_exact_mut(4).zip(&out) {
                b.copy_from_slice(&v.to_ne_bytes());
            }
        })
    }

    /// Perft: the number of leaf positions after exactly ``depth`` moves
    /// from here (the GIL is released while counting).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let m = self.m.clone_box();
        py.detach(move || m.perft(depth))
    }

    fn __repr__(&self) -> String {
        let turn = match self.current() {
            Some(s) => format!("current_player={s}"),
            None => format!("result={:?}", self.result().unwrap_or_default()),
        };
        format!("<plateau.State {} variant={:?} ply={} {turn}>", self.m.info().name, self.m.variant(), self.m.ply())
    }

    fn __str__(&self) -> String {
        self.m.render(Reader::Referee, false)
    }
}
