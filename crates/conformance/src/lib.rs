//! The conformance kit: the random-playout checks every game and every variant
//! of Plateau must pass, as OpenSpiel's random simulation tests do for its games.
//!
//! A game's test suite calls it once per variant:
//!
//! ```ignore
//! #[test]
//! fn conformance_standard() {
//!     plateau_conformance::Kit::new(500).run::<Abalone>("standard", &[]);
//! }
//! ```
//!
//! Each playout starts from a seeded start position and plays random legal
//! moves to the end (or to the kit's ply cap when the rules give no bound),
//! checking at every step:
//!
//! - the turn, the outcome and the legal moves agree (over ⇔ outcome ⇔ no move);
//! - legal moves are unique, `count_moves`, `check` and `is_legal` agree with
//!   them (every generated move passes `check`);
//! - every move's text is unique and parses back to the same move;
//! - every move has a gesture (what to select, where to click), and no
//!   selection and click make two different moves;
//! - the writers the server uses give the same text: `write_move` appends
//!   the move's text, `write_gesture_json` the gesture as serde_json writes it;
//! - a clone equals the original, with the same key;
//! - applying then undoing each legal move restores the exact state and key;
//! - moves legal elsewhere but not here fail `check` with an error that says
//!   why, and `try_apply` refuses them with the same error; garbled texts are
//!   refused by `parse_move` or `try_apply`; nothing refused changes the state;
//! - every view serializes and every drawing renders;
//! - at random plies and at the end, replaying the record from the start gives
//!   the same state and key (so incremental hashing is right), and the record's
//!   text round-trips through the type-erased layer;
//! - the game ends within its documented ply bound; the returns are consistent
//!   with the winners;
//! - undoing every move through the type-erased layer gives the start again;
//! - integer actions and observations ([`plateau_core::Encode`]): the action
//!   space and the observation shape are those of the start position; legal
//!   moves have distinct actions below the size of the space, and each
//!   action names its move again; random actions name no move or a move
//!   whose action they are; every seat's observation fills its shape with
//!   numbers in `0..=1`, and two seats of a two-seat game do not see the
//!   same numbers at the start (each sees from its own side).
//!
//! For games with hidden information, [`Kit::run_hidden`] also checks, at every
//! step, that what each seat (and a spectator) is shown is a function of what it
//! knows only: states sampled from a seat's knowledge give that seat the same
//! view, drawing, legal moves, move texts, error messages and observation
//! as the true state.

pub mod lessons;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use plateau_core::erased::{AnyMatch, Match, Registry};
use plateau_core::rand::{Rng, RngExt, SeedableRng};
use plateau_core::{Encode, Game, Hidden, MoveErrorKind, Options, Reader, Record, Setup, State, Turn, entry};
use rand_chacha::ChaCha8Rng;

/// The kit's settings.
#[derive(Clone, Debug)]
pub struct Kit {
    /// Random games per variant.
    pub playouts: usize,
    /// The seed of the first playout; playout `i` uses `seed + i`, both for the
    /// game's set-up and for the moves.
    pub seed: u64,
    /// Plies after which a playout stops when the game's rules give no bound.
    pub ply_cap: u64,
    /// At most this many legal moves per position are applied and undone.
    pub undo_sample: usize,
    /// Full replays from the start checked per playout (besides the end).
    pub replays_per_playout: usize,
    /// States sampled from each seat's knowledge per position (hidden games).
    pub samples: usize,
}

/// What the kit saw, for reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Playouts run.
    pub playouts: usize,
    /// Playouts that reached the end of the game.
    pub finished: usize,
    /// Plies played in all.
    pub plies: u64,
    /// The longest playout.
    pub max_plies: u64,
    /// The most legal moves seen in one position.
    pub max_moves: usize,
    /// How the games ended, by reason.
    pub endings: BTreeMap<String, usize>,
    /// How many seats won, over finished games, by seat.
    pub wins: Vec<usize>,
}

impl Stats {
    /// Mean plies per playout.
    pub fn mean_plies(&self) -> f64 {
        self.plies as f64 / self.playouts.max(1) as f64
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} playouts, {} finished, {:.1} plies on average (max {}), up to {} legal moves; endings {:?}; wins by seat {:?}",
            self.playouts,
            self.finished,
            self.mean_plies(),
            self.max_plies,
            self.max_moves,
            self.endings,
            self.wins
        )
    }
}

impl Kit {
    /// A kit with `playouts` random games per variant and default settings.
    pub fn new(playouts: usize) -> Self {
        Kit { playouts, seed: 1, ply_cap: 2_000, undo_sample: 64, replays_per_playout: 2, samples: 4 }
    }

    /// Run the checks on one variant with options (`name=value` pairs).
    ///
    /// # Panics
    /// On the first failed check, with the playout's seed, the ply and the
    /// moves so far, so that the failure can be replayed.
    pub fn run<G: Game>(&self, variant: &str, options: &[(&str, &str)]) -> Stats {
        self.run_with::<G>(variant, options, |_, _, _| {})
    }

    /// As [`Kit::run`], and check at every position that what each reader is
    /// shown depends only on what it knows.
    pub fn run_hidden<G: Game>(&self, variant: &str, options: &[(&str, &str)]) -> Stats
    where
        G::State: Hidden,
    {
        let samples = self.samples;
        self.run_with::<G>(variant, options, move |state, rng, ctx| check_hidden(state, rng, samples, ctx))
    }

    fn run_with<G: Game>(
        &self,
        variant: &str,
        options: &[(&str, &str)],
        mut extra: impl FnMut(&G::State, &mut ChaCha8Rng, &Ctx),
    ) -> Stats {
        let mut opts = Options::new();
        for (k, v) in options {
            opts.set(*k, *v);
        }
        let settings =
            G::INFO.resolve(Some(variant), &opts).unwrap_or_else(|e| panic!("variant {variant} with {opts}: {e}"));
        let game = G::configure(&settings).unwrap_or_else(|e| panic!("configure {variant}: {e}"));
        let registry = Registry::new().with(entry::<G>());
        let mut stats = Stats { wins: vec![0; game.seats()], ..Stats::default() };
        let mut pool: Vec<<G::State as State>::Move> = Vec::new();
        for i in 0..self.playouts {
            let seed = self.seed.wrapping_add(i as u64);
            let setup = Setup { variant: Some(variant.to_string()), options: opts.clone(), seed };
            self.playout::<G>(&game, &setup, &registry, &mut pool, &mut stats, &mut extra);
        }
        stats
    }

    fn playout<G: Game>(
        &self,
        game: &G,
        setup: &Setup,
        registry: &Registry,
        pool: &mut Vec<<G::State as State>::Move>,
        stats: &mut Stats,
        extra: &mut impl FnMut(&G::State, &mut ChaCha8Rng, &Ctx),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ 0x5EED_C0DE);
        let start = game.start(setup.seed);
        let mut state = start.clone();
        let mut texts: Vec<String> = Vec::new();
        let mut moves = Vec::new();
        let cap = game.ply_bound().map(|b| b.saturating_add(1)).unwrap_or(self.ply_cap);
        let replay_at: Vec<u64> =
            (0..self.replays_per_playout).map(|_| rng.random_range(1..cap.clamp(2, 300))).collect();
        let mut ply = 0u64;
        loop {
            let ctx = Ctx { setup, ply, texts: &texts };
            assert_eq!(state.ply() as u64, ply, "{}: ply counter", ctx);
            check_position(&state, &mut moves, pool, &mut rng, self.undo_sample, &ctx);
            check_encoding(&state, &start, &moves, &mut rng, &ctx);
            extra(&state, &mut rng, &ctx);
            stats.max_moves = stats.max_moves.max(moves.len());
            if replay_at.contains(&ply) {
                check_replay::<G>(registry, setup, &texts, &state, &ctx);
            }
            if state.to_move() == Turn::Over {
                let o = state.outcome().expect("checked");
                stats.finished += 1;
                *stats.endings.entry(o.reason.to_string()).or_default() += 1;
                for s in o.winners() {
                    stats.wins[s] += 1;
                }
                break;
            }
            if ply >= cap {
                if let Some(b) = game.ply_bound() {
                    panic!("{ctx}: the game did not end within its bound of {b} plies");
                }
                *stats.endings.entry("(kit's ply cap)".to_string()).or_default() += 1;
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let text = state.format_move(mv);
            if pool.len() < 4096 {
                pool.push(mv);
            } else {
                let i = rng.random_range(0..pool.len());
                pool[i] = mv;
            }
            state.try_apply(mv).unwrap_or_else(|e| panic!("{ctx}: legal move {text} refused: {e}"));
            texts.push(text);
            ply += 1;
        }
        let ctx = Ctx { setup, ply, texts: &texts };
        stats.playouts += 1;
        stats.plies += ply;
        stats.max_plies = stats.max_plies.max(ply);
        let m = check_replay::<G>(registry, setup, &texts, &state, &ctx);
        check_records(&*m, registry, &state, &ctx);
        check_undo_all::<G>(m, &start, &ctx);
    }
}

/// Where a check failed.
struct Ctx<'a> {
    setup: &'a Setup,
    ply: u64,
    texts: &'a [String],
}

impl std::fmt::Display for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "variant {:?} options [{}] seed {} ply {} after moves [{}]",
            self.setup.variant.as_deref().unwrap_or("default"),
            self.setup.options,
            self.setup.seed,
            self.ply,
            self.texts.join(" ")
        )
    }
}

fn check_position<S: State>(
    state: &S,
    moves: &mut Vec<S::Move>,
    pool: &[S::Move],
    rng: &mut ChaCha8Rng,
    undo_sample: usize,
    ctx: &Ctx,
) {
    let turn = state.to_move();
    let outcome = state.outcome();
    state.legal_moves(moves);
    match turn {
        Turn::Over => {
            let o = outcome.unwrap_or_else(|| panic!("{ctx}: over but no outcome"));
            assert!(moves.is_empty(), "{ctx}: over but {} legal moves", moves.len());
            check_outcome(&o, state.seats(), ctx);
        }
        Turn::Seat(s) => {
            assert!(s < state.seats(), "{ctx}: seat {s} to move of {}", state.seats());
            assert!(outcome.is_none(), "{ctx}: seat {s} to move but the game has an outcome");
            assert!(!moves.is_empty(), "{ctx}: seat {s} to move has no legal move (a pass must be a move)");
        }
    }
    assert_eq!(state.count_moves(), moves.len(), "{ctx}: count_moves disagrees with legal_moves");

    // Uniqueness of moves and of their texts; notation round trip.
    let mut seen = HashSet::with_capacity(moves.len());
    let mut texts = HashSet::with_capacity(moves.len());
    for &mv in moves.iter() {
        assert!(seen.insert(mv), "{ctx}: move {mv:?} generated twice");
        let text = state.format_move(mv);
        assert!(!text.is_empty() && !text.chars().any(char::is_whitespace), "{ctx}: bad move text {text:?}");
        assert!(texts.insert(text.clone()), "{ctx}: two moves written {text}");
        let mut written = String::from("…");
        state.write_move(mv, &mut written);
        assert_eq!(written, format!("…{text}"), "{ctx}: write_move differs from format_move");
        match state.parse_move(&text) {
            Ok(back) => assert_eq!(back, mv, "{ctx}: {text} parses to another move"),
            Err(e) => panic!("{ctx}: {text} does not parse back: {e}"),
        }
        if let Err(e) = state.check(mv) {
            panic!("{ctx}: check refuses generated move {text}: {e}");
        }
        assert!(state.is_legal(mv), "{ctx}: is_legal refuses generated move {text}");
    }

    // Gestures: every move has a target; a selection and a target name one
    // move at most.
    let mut pointed = HashSet::with_capacity(moves.len() * 2);
    for &mv in moves.iter() {
        let g = state.gesture(mv);
        assert!(!g.targets.is_empty(), "{ctx}: the gesture of {} has no target", state.format_move(mv));
        let mut written = String::from("{");
        state.write_gesture_json(mv, &mut written);
        written.push('}');
        let expected = serde_json::to_string(&g).expect("a gesture serializes");
        assert_eq!(
            written,
            expected,
            "{ctx}: write_gesture_json of {} differs from the gesture",
            state.format_move(mv)
        );
        let mut select = g.select.clone();
        select.sort();
        for t in &g.targets {
            assert!(
                pointed.insert((select.clone(), t.clone())),
                "{ctx}: selecting {select:?} and clicking {t} makes two different moves"
            );
        }
    }

    // Clone.
    let copy = state.clone();
    assert!(copy == *state, "{ctx}: clone differs");
    assert_eq!(copy.key(), state.key(), "{ctx}: clone has another key");

    // Apply and undo.
    let mut work = state.clone();
    let step = (moves.len() / undo_sample.max(1)).max(1);
    for &mv in moves.iter().step_by(step) {
        let undo = work.apply(mv);
        assert_eq!(work.ply(), state.ply() + 1, "{ctx}: apply did not count the ply");
        work.undo(mv, undo);
        if work != *state {
            panic!("{ctx}: undo of {} does not restore the state:\n{work:?}\nvs\n{state:?}", state.format_move(mv));
        }
        assert_eq!(work.key(), state.key(), "{ctx}: undo of {} changes the key", state.format_move(mv));
    }

    // Illegal moves from other positions are refused and change nothing.
    for _ in 0..8 {
        if pool.is_empty() {
            break;
        }
        let mv = pool[rng.random_range(0..pool.len())];
        if seen.contains(&mv) {
            continue;
        }
        let refusal = state.check(mv).expect_err(&format!("{ctx}: check accepts ungenerated move {mv:?}"));
        assert_eq!(refusal.kind, MoveErrorKind::Illegal, "{ctx}: check refuses {mv:?} as a syntax error");
        assert!(!refusal.message.trim().is_empty(), "{ctx}: check refuses {mv:?} without saying why");
        assert!(!state.is_legal(mv), "{ctx}: is_legal accepts ungenerated move {mv:?}");
        let err = work.try_apply(mv);
        assert_eq!(err.err(), Some(refusal), "{ctx}: try_apply and check disagree on the illegal move {mv:?}");
        assert!(work == *state, "{ctx}: a refused move changed the state");
    }

    // Garbled texts never panic; whatever parses is legal or refused cleanly.
    for _ in 0..4 {
        let text = garble(moves.first().map(|&m| state.format_move(m)).unwrap_or_default(), rng);
        if let Ok(mv) = state.parse_move(&text) {
            let legal = seen.contains(&mv);
            let r = work.try_apply(mv);
            assert_eq!(r.is_ok(), legal, "{ctx}: {text:?} parsed to {mv:?}; try_apply disagrees with legality");
            if let Ok(u) = r {
                work.undo(mv, u);
            }
            assert!(work == *state, "{ctx}: trying {text:?} changed the state");
        }
    }

    // Every reader's view serializes; drawings render.
    let mut readers = vec![Reader::Spectator, Reader::Referee];
    readers.extend((0..state.seats()).map(Reader::Seat));
    for r in readers {
        let v = serde_json::to_value(state.view(r));
        assert!(v.is_ok(), "{ctx}: the view for {r:?} does not serialize");
        let _ = state.render(r, true);
    }
    let _ = state.render(Reader::Spectator, false);
}

fn check_encoding<S: Encode>(state: &S, start: &S, moves: &[S::Move], rng: &mut ChaCha8Rng, ctx: &Ctx) {
    let n = state.actions();
    assert_eq!(n, start.actions(), "{ctx}: the action space changed since the start");
    let shape = state.observation_shape();
    assert_eq!(shape, start.observation_shape(), "{ctx}: the observation shape changed since the start");
    assert_eq!(state.plane_names().len(), shape[0], "{ctx}: one name per plane");
    let mut actions = HashSet::with_capacity(moves.len());
    for &mv in moves {
        let a = state.action(mv);
        let text = state.format_move(mv);
        assert!(a < n, "{ctx}: the action {a} of {text} is not below {n}");
        assert!(actions.insert(a), "{ctx}: two legal moves have the action {a} ({text})");
        assert_eq!(state.move_of(a), Some(mv), "{ctx}: the action {a} of {text} names another move");
    }
    for _ in 0..16 {
        let a = rng.random_range(0..n + 2);
        if let Some(mv) = state.move_of(a) {
            assert!(a < n, "{ctx}: the action {a} is out of range but names a move");
            assert_eq!(state.action(mv), a, "{ctx}: the action {a} names a move whose action is another");
            assert_eq!(state.is_legal(mv), actions.contains(&a), "{ctx}: the action {a}: legality disagrees");
        }
    }
    let size = shape.iter().product::<usize>();
    assert!(size > 0, "{ctx}: an empty observation");
    let mut seen = Vec::new();
    for seat in 0..state.seats() {
        let mut out = vec![f32::NAN; size];
        state.observe(seat, &mut out);
        if let Some(i) = out.iter().position(|v| !(0.0..=1.0).contains(v)) {
            panic!("{ctx}: seat {seat}'s observation has {} at {i} (not written, or outside 0..=1)", out[i]);
        }
        seen.push(out);
    }
    if state.ply() == 0 && state.seats() == 2 {
        assert!(seen[0] != seen[1], "{ctx}: both seats observe the same numbers at the start (no point of view)");
    }
}

fn check_outcome(o: &plateau_core::Outcome, seats: usize, ctx: &Ctx) {
    assert_eq!(o.seats(), seats, "{ctx}: outcome seats");
    let sum: f32 = o.returns().iter().sum();
    assert!(sum.abs() < 1e-4, "{ctx}: returns {:?} do not sum to zero", o.returns());
    let winners = o.winners();
    assert!(!winners.is_empty(), "{ctx}: nobody wins and it is not a draw");
    let best = o.returns().iter().cloned().fold(f32::MIN, f32::max);
    for s in 0..seats {
        let v = o.value(s);
        assert!((-1.0..=1.0).contains(&v), "{ctx}: return {v} out of range");
        if o.is_winner(s) {
            assert_eq!(v, best, "{ctx}: winner {s} has return {v}, not the best {best}");
        } else {
            assert!(v < best, "{ctx}: loser {s} has the best return");
        }
    }
    if o.is_draw() {
        assert!(o.returns().iter().all(|&v| v == 0.0), "{ctx}: draw with non-zero returns");
    }
    assert!(!o.reason.is_empty(), "{ctx}: outcome without a reason");
}

fn garble(base: String, rng: &mut ChaCha8Rng) -> String {
    const JUNK: &[char] =
        &['a', 'z', '0', '9', '-', ':', ',', ' ', 'x', 'é', '\u{0}', 'Z', '1', '5', 'p', 'R', '.', 'b'];
    let mut chars: Vec<char> = base.chars().collect();
    match rng.random_range(0..6) {
        0 => {
            if !chars.is_empty() {
                chars.remove(rng.random_range(0..chars.len()));
            }
        }
        1 => chars.insert(rng.random_range(0..=chars.len()), JUNK[rng.random_range(0..JUNK.len())]),
        2 => {
            if !chars.is_empty() {
                let i = rng.random_range(0..chars.len());
                chars[i] = JUNK[rng.random_range(0..JUNK.len())];
            }
        }
        3 => chars = (0..rng.random_range(0..12)).map(|_| JUNK[rng.random_range(0..JUNK.len())]).collect(),
        4 => chars.extend(base.chars()),
        _ => {
            let n: u64 = rng.next_u64();
            return format!("{base}{n}");
        }
    }
    chars.into_iter().collect()
}

fn check_replay<G: Game>(
    registry: &Registry,
    setup: &Setup,
    texts: &[String],
    state: &G::State,
    ctx: &Ctx,
) -> Box<dyn AnyMatch> {
    let mut m = registry.new_match(G::INFO.name, setup).unwrap_or_else(|e| panic!("{ctx}: new match: {e}"));
    for (i, t) in texts.iter().enumerate() {
        let canon = m.play(t).unwrap_or_else(|e| panic!("{ctx}: replay refused ply {}: {t}: {e}", i + 1));
        assert_eq!(&canon, t, "{ctx}: replay wrote ply {} differently", i + 1);
    }
    let typed = m.as_any().downcast_ref::<Match<G>>().expect("a match of G");
    if typed.state() != state {
        panic!("{ctx}: replaying the moves gives another state:\n{:?}\nvs\n{state:?}", typed.state());
    }
    assert_eq!(typed.state().key(), state.key(), "{ctx}: replaying the moves gives another key (incremental hash?)");
    m
}

fn check_records(m: &dyn AnyMatch, registry: &Registry, state: &impl State, ctx: &Ctx) {
    let over = m.outcome().is_some();
    let mut readers = vec![Reader::Referee, Reader::Spectator];
    readers.extend((0..m.seats()).map(Reader::Seat));
    for r in readers {
        let rec = m.record(r);
        let text = rec.to_text();
        let parsed = Record::parse(&text).unwrap_or_else(|e| panic!("{ctx}: own record does not parse: {e}\n{text}"));
        assert_eq!(parsed.moves, m.history(), "{ctx}: record moves");
        if m.info().hidden && !over && r != Reader::Referee {
            assert!(parsed.tag("Seed").is_none(), "{ctx}: a live hidden game's record for {r:?} carries the seed");
            continue;
        }
        let back = registry
            .replay(&parsed, None, None)
            .unwrap_or_else(|e| panic!("{ctx}: own record does not replay: {e}\n{text}"));
        assert_eq!(back.key(), state.key(), "{ctx}: record replay gives another position");
        assert_eq!(
            back.outcome().map(|o| o.result_string()),
            m.outcome().map(|o| o.result_string()),
            "{ctx}: record replay result"
        );
        assert_eq!(back.record(r).to_text(), text, "{ctx}: record does not round-trip");
    }
    // A bare numbered move list replays too.
    let mut bare = String::new();
    for (i, t) in m.history().iter().enumerate() {
        if i % 2 == 0 {
            let _ = write!(bare, "{}.", i / 2 + 1);
        }
        let _ = write!(bare, "{t} ");
    }
    let rec = Record::parse(&bare).unwrap_or_else(|e| panic!("{ctx}: bare list does not parse: {e}"));
    let mut setup_only = m.record(Reader::Referee);
    setup_only.moves = rec.moves;
    setup_only.result = None;
    setup_only.tags.retain(|(k, _)| k != "Result");
    let back =
        registry.replay(&setup_only, None, None).unwrap_or_else(|e| panic!("{ctx}: bare list does not replay: {e}"));
    assert_eq!(back.key(), state.key(), "{ctx}: bare list replay gives another position");
}

fn check_undo_all<G: Game>(mut m: Box<dyn AnyMatch>, start: &G::State, ctx: &Ctx) {
    while m.undo() {}
    assert_eq!(m.ply(), 0, "{ctx}: undo all");
    let typed = m.as_any().downcast_ref::<Match<G>>().expect("a match of G");
    assert!(typed.state() == start, "{ctx}: undoing every move does not give the start position");
}

fn check_hidden<S: Hidden + Encode>(state: &S, rng: &mut ChaCha8Rng, samples: usize, ctx: &Ctx) {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| state.format_move(m)).collect();
    let probes = ["pass", "R1", "Z9", "x", ""];
    for seat in 0..state.seats() {
        let k = state.knowledge(seat);
        let view = serde_json::to_string(&state.view(Reader::Seat(seat))).expect("view");
        let spectator = serde_json::to_string(&state.view(Reader::Spectator)).expect("view");
        let drawing = state.render(Reader::Seat(seat), false);
        let mut observed = vec![0.0; state.observation_shape().iter().product()];
        state.observe(seat, &mut observed);
        let mut sampled_obs = observed.clone();
        for _ in 0..samples {
            let sampled = S::sample(&k, rng);
            assert!(
                sampled.knowledge(seat) == k,
                "{ctx}: a state sampled from seat {seat}'s knowledge gives another knowledge"
            );
            let v = serde_json::to_string(&sampled.view(Reader::Seat(seat))).expect("view");
            assert_eq!(v, view, "{ctx}: seat {seat}'s view depends on what it does not know");
            let sv = serde_json::to_string(&sampled.view(Reader::Spectator)).expect("view");
            assert_eq!(sv, spectator, "{ctx}: the spectator's view depends on hidden information");
            assert_eq!(sampled.render(Reader::Seat(seat), false), drawing, "{ctx}: seat {seat}'s drawing leaks");
            assert_eq!(sampled.to_move(), state.to_move(), "{ctx}: the turn depends on hidden information");
            sampled.observe(seat, &mut sampled_obs);
            assert!(sampled_obs == observed, "{ctx}: seat {seat}'s observation depends on what it does not know");
            let mut sm = Vec::new();
            sampled.legal_moves(&mut sm);
            let st: Vec<String> = sm.iter().map(|&m| sampled.format_move(m)).collect();
            assert_eq!(st, texts, "{ctx}: legal moves depend on hidden information");
            for (&a, &b) in moves.iter().zip(sm.iter()) {
                assert_eq!(state.gesture(a), sampled.gesture(b), "{ctx}: gestures depend on hidden information");
                assert_eq!(state.action(a), sampled.action(b), "{ctx}: actions depend on hidden information");
            }
            for p in probes.iter().copied().chain(texts.iter().take(3).map(String::as_str)) {
                let a = state.parse_move(p).map_err(|e| e.to_string());
                let b = sampled.parse_move(p).map_err(|e| e.to_string());
                assert_eq!(a, b, "{ctx}: parsing {p:?} depends on hidden information");
            }
        }
    }
}
