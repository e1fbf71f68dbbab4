//! Two evaluations of Abraxas against each other, with the same alpha-beta
//! search and budget: the tool used to screen [`plateau_abraxas::eval`]'s
//! changes (the weights themselves come from `plateau tune`).
//!
//! ```text
//! cargo run --release -p plateau-abraxas --example duel -- [--games N] [--time MS | --nodes N]
//!     [--threads K] [--sheet level-1] [--openings PLIES] [--a SPEC] [--b SPEC]
//! ```
//!
//! A SPEC is `v2` (the latest evaluation, [`Evaluate::evaluate`], with the
//! weights of `weights.json`), `v2:later=20,stop_lead=10` (the same terms
//! with changed weights), `v1` (today's evaluation, [`Weights::DEFAULT`]),
//! `v1` with changed weights: `stop=60,capture=90`, or `first` (the crate's
//! first, untuned evaluation, kept here as a baseline). A `v2` spec searches
//! as alpha-beta's latest version does for Abraxas (the game's
//! `search_moves` and `free_decision`), others search every legal move with
//! every decision using depth; a suffix chooses: `v2+plain` (neither),
//! `v2+moves`, `v2+free`, `v1+moves+free`. By default A is `v2`
//! and B is `v1`. Games are played in
//! pairs from the same random opening (`--openings` plies, default 2), each
//! evaluation taking each seat once. Prints the score of A.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use plateau_abraxas::eval::{N_TERMS, TERMS, Weights, weighted};
use plateau_abraxas::{Abraxas, AbraxasState, AbraxasUndo, AbraxasView, Move, Phase, Sheet};
use plateau_ai::Budget;
use plateau_ai::alphabeta::AlphaBeta;
use plateau_core::{Evaluate, Game, MoveError, Outcome, Reader, Seat, State, Turn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug)]
enum Eval {
    First,
    Weighted(Weights),
    Terms([f32; N_TERMS]),
}

static EVALS: OnceLock<[Eval; 2]> = OnceLock::new();

/// Per evaluation: whether the search uses the game's
/// [`Evaluate::search_moves`] and [`Evaluate::free_decision`]
/// ([`search_flags`]).
static SEARCH: OnceLock<[(bool, bool); 2]> = OnceLock::new();

/// The search flags of a spec and the spec without them: without flags,
/// `v2` specs use both hooks and others neither; with flags (`+moves`,
/// `+free`, `+plain` for none), those named.
fn search_flags(spec: &str) -> ((bool, bool), String) {
    let mut parts = spec.split('+');
    let base = parts.next().unwrap_or_default().to_string();
    let flags: Vec<&str> = parts.collect();
    if flags.is_empty() {
        let v2 = base.starts_with("v2");
        return ((v2, v2), base);
    }
    ((flags.contains(&"moves"), flags.contains(&"free")), base)
}

/// The position, judged by evaluation `K` of [`EVALS`].
#[derive(Clone, PartialEq, Debug)]
struct Judged<const K: usize>(AbraxasState);

impl<const K: usize> State for Judged<K> {
    type Move = Move;
    type Undo = AbraxasUndo;
    type View = AbraxasView;
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Turn {
        self.0.to_move()
    }
    fn ply(&self) -> u32 {
        self.0.ply()
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.0.legal_moves(out)
    }
    fn count_moves(&self) -> usize {
        self.0.count_moves()
    }
    fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.0.check(mv)
    }
    fn apply(&mut self, mv: Move) -> AbraxasUndo {
        self.0.apply(mv)
    }
    fn undo(&mut self, mv: Move, undo: AbraxasUndo) {
        self.0.undo(mv, undo)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn key(&self) -> u64 {
        self.0.key()
    }
    fn format_move(&self, mv: Move) -> String {
        self.0.format_move(mv)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.0.parse_move(text)
    }
    fn view(&self, reader: Reader) -> AbraxasView {
        self.0.view(reader)
    }
    fn render(&self, reader: Reader, color: bool) -> String {
        self.0.render(reader, color)
    }
}

impl<const K: usize> Evaluate for Judged<K> {
    fn evaluate(&self, seat: Seat) -> i32 {
        match EVALS.get().expect("set")[K] {
            Eval::First => first(&self.0, seat),
            Eval::Weighted(w) => self.0.evaluate_with(&w, seat),
            Eval::Terms(w) => {
                let mut t = [0.0; N_TERMS];
                self.0.terms(seat, &mut t);
                weighted(&w, &t)
            }
        }
    }
    fn search_moves(&self, out: &mut Vec<Move>) {
        if SEARCH.get().expect("set")[K].0 { self.0.search_moves(out) } else { self.0.legal_moves(out) }
    }
    fn free_decision(&self) -> bool {
        SEARCH.get().expect("set")[K].1 && self.0.free_decision()
    }
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        match EVALS.get().expect("set")[K] {
            Eval::First => first_noisy(&self.0, out),
            Eval::Weighted(_) | Eval::Terms(_) => self.0.noisy_moves(out),
        }
    }
}

/// The crate's first evaluation, as it was before tuning.
fn first(s: &AbraxasState, seat: Seat) -> i32 {
    let t = |x: Seat| s.taken(x) as i32;
    let mut v = 100 * (t(0) - t(1));
    let need = s.stones_to_win() as i32;
    v += 15 * ((need - t(1)).max(0).pow(2) - (need - t(0)).max(0).pow(2)) / need.max(1);
    v += 10 * (s.stops_in_hand(0) as i32 - s.stops_in_hand(1) as i32);
    let sign = |x: Seat| if x == 0 { 1 } else { -1 };
    match (s.phase(), s.scorer()) {
        (Phase::Score, Some(x)) => v += sign(x) * (100 * s.pending_value() as i32 * 9 / 10 + 40),
        (Phase::Interlude, Some(x)) => v += sign(x) * 40,
        _ => {
            if let Turn::Seat(m) = s.to_move() {
                if !s.lines_after_push().is_empty() {
                    v += sign(m) * 70;
                } else if !s.line_threats().is_empty() {
                    v += sign(m) * 50;
                }
            }
        }
    }
    if seat == 0 { v } else { -v }
}

fn first_noisy(s: &AbraxasState, out: &mut Vec<Move>) {
    out.clear();
    if s.end().is_some() {
        return;
    }
    match s.phase() {
        Phase::Score => s.legal_moves(out),
        Phase::Place if s.reserve() > 0 => out.extend(s.line_threats().iter().map(Move::Place)),
        _ => {}
    }
}

fn parse_eval(spec: &str) -> Eval {
    if spec == "first" {
        return Eval::First;
    }
    if spec == "v1" {
        return Eval::Weighted(Weights::DEFAULT);
    }
    if let Some(rest) = spec.strip_prefix("v2") {
        let mut w = [0.0; N_TERMS];
        w.copy_from_slice(<AbraxasState as Evaluate>::weights());
        for kv in rest.trim_start_matches(':').split(',').filter(|p| !p.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{kv}: weights are name=value"));
            let i = TERMS.iter().position(|t| *t == k).unwrap_or_else(|| panic!("unknown term {k}"));
            w[i] = v.parse().unwrap_or_else(|_| panic!("{kv}: not a number"));
        }
        return Eval::Terms(w);
    }
    let mut w = Weights::DEFAULT;
    for kv in spec.split(',').filter(|p| !p.is_empty() && *p != "default") {
        let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{kv}: weights are name=value"));
        let v: i32 = v.parse().unwrap_or_else(|_| panic!("{kv}: not a number"));
        let f = match k {
            "stone" => &mut w.stone,
            "race" => &mut w.race,
            "stop" => &mut w.stop,
            "last_stop" => &mut w.last_stop,
            "capture" => &mut w.capture,
            "double" => &mut w.double,
            "unstoppable" => &mut w.unstoppable,
            "decided" => &mut w.decided,
            "block" => &mut w.block,
            "pending" => &mut w.pending,
            "again" => &mut w.again,
            _ => panic!("unknown weight {k}"),
        };
        *f = v;
    }
    Eval::Weighted(w)
}

struct Args {
    games: usize,
    budget: Budget,
    threads: usize,
    sheet: String,
    openings: usize,
    seed: u64,
}

/// One game; `a_first`: evaluation A plays the first seat. Returns A's points.
fn game(args: &Args, group: usize, a_first: bool, stats: &Mutex<(u64, u64, u64)>) -> f64 {
    let g = Abraxas::new(load_sheet(&args.sheet));
    let mut s = g.start(0);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(7919).wrapping_add(group as u64));
    let mut moves = Vec::new();
    for _ in 0..args.openings {
        s.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        s.apply(mv);
    }
    let mut a = AlphaBeta::<Judged<0>>::new(args.budget, 18);
    let mut b = AlphaBeta::<Judged<1>>::new(args.budget, 18);
    while let Turn::Seat(seat) = s.to_move() {
        let a_moves = (seat == 0) == a_first;
        let (mv, info) = if a_moves {
            let (pv, info) = a.best_move(&Judged::<0>(s.clone()));
            (pv[0], info)
        } else {
            let (pv, info) = b.best_move(&Judged::<1>(s.clone()));
            (pv[0], info)
        };
        if a_moves {
            let mut st = stats.lock().unwrap();
            st.0 += 1;
            st.1 += info.depth as u64;
            st.2 += info.nodes;
        }
        s.apply(mv);
    }
    let o = s.outcome().expect("over");
    let a_seat = if a_first { 0 } else { 1 };
    (o.value(a_seat) as f64 + 1.0) / 2.0
}

fn main() {
    let mut args = Args {
        games: 40,
        budget: Budget { time: Some(Duration::from_millis(100)), ..Budget::default() },
        threads: 2,
        sheet: "level-1".into(),
        openings: 2,
        seed: 1,
    };
    let (mut a, mut b) = ("v2".to_string(), "v1".to_string());
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let v = argv.get(i + 1).cloned().unwrap_or_default();
        match argv[i].as_str() {
            "--games" => args.games = v.parse().expect("games"),
            "--time" => {
                args.budget = Budget { time: Some(Duration::from_millis(v.parse().expect("ms"))), ..Budget::default() }
            }
            "--nodes" => args.budget = Budget { nodes: Some(v.parse().expect("nodes")), ..Budget::default() },
            "--threads" => args.threads = v.parse().expect("threads"),
            "--sheet" => args.sheet = v,
            "--openings" => args.openings = v.parse().expect("plies"),
            "--seed" => args.seed = v.parse().expect("seed"),
            "--a" => a = v,
            "--b" => b = v,
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let ((fa, a), (fb, b)) = (search_flags(&a), search_flags(&b));
    SEARCH.set([fa, fb]).expect("once");
    EVALS.set([parse_eval(&a), parse_eval(&b)]).expect("once");
    let pairs = args.games.div_ceil(2);
    let next = AtomicUsize::new(0);
    let points = Mutex::new(Vec::new());
    let stats = Mutex::new((0u64, 0u64, 0u64));
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= pairs * 2 {
                        break;
                    }
                    let p = game(&args, i / 2, i.is_multiple_of(2), &stats);
                    points.lock().unwrap().push(p);
                }
            });
        }
    });
    let points = points.into_inner().unwrap();
    let n = points.len() as f64;
    let score = points.iter().sum::<f64>() / n;
    let (wins, draws) = (points.iter().filter(|&&p| p == 1.0).count(), points.iter().filter(|&&p| p == 0.5).count());
    let st = stats.into_inner().unwrap();
    println!(
        "A {a} vs B {b} on {}: {} games, A +{wins} ={draws} -{}  score {:.1}%  (A: mean depth {:.1}, {} nodes a move)",
        args.sheet,
        points.len(),
        points.len() - wins - draws,
        100.0 * score,
        st.1 as f64 / st.0.max(1) as f64,
        st.2 / st.0.max(1)
    );
}

/// A sheet option value (a level, an inline sheet), or else a sheet file's
/// path: this tool reads the file itself (the game crate never does).
fn load_sheet(value: &str) -> Sheet {
    Sheet::from_option(value).unwrap_or_else(|e| {
        let text = std::fs::read_to_string(value).unwrap_or_else(|r| panic!("{e}; reading it as a file: {r}"));
        Sheet::parse(value, &text).unwrap_or_else(|e| panic!("{value}: {e}"))
    })
}
