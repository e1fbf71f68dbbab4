//! Two evaluations of Abraxas against each other, with the same alpha-beta
//! search and budget: the tool used to tune [`plateau_abraxas::eval`].
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
    /// `--texel`: every placement's position, not only the quiet ones.
    all: bool,
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
        all: false,
    };
    let (mut a, mut b) = ("v2".to_string(), "v1".to_string());
    let mut texel: Option<usize> = None;
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
            "--all" => {
                args.all = true;
                i -= 1;
            }
            "--a" => a = v,
            "--texel" => texel = Some(v.parse().expect("games")),
            "--b" => b = v,
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let ((fa, a), (fb, b)) = (search_flags(&a), search_flags(&b));
    SEARCH.set([fa, fb]).expect("once");
    EVALS.set([parse_eval(&a), parse_eval(&b)]).expect("once");
    if let Some(games) = texel {
        return fit(&args, games);
    }
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

/// One self-play game of evaluation A with itself (`--texel`): the quiet
/// positions (no noisy move) with their terms for the first seat, and the
/// result for the first seat (1, ½, 0).
fn self_play(args: &Args, game_no: usize) -> (Vec<[f32; N_TERMS]>, f32) {
    let sheets: Vec<&str> = args.sheet.split(',').collect();
    let g = Abraxas::new(load_sheet(sheets[game_no % sheets.len()]));
    let mut s = g.start(0);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(104_729).wrapping_add(game_no as u64));
    let (mut moves, mut noisy) = (Vec::new(), Vec::new());
    for _ in 0..args.openings {
        s.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        s.apply(mv);
    }
    let mut a = AlphaBeta::<Judged<0>>::new(args.budget, 18);
    let mut out = Vec::new();
    while s.to_move() != Turn::Over {
        s.noisy_moves(&mut noisy);
        if noisy.is_empty() || (args.all && s.phase() == Phase::Place) {
            let mut t = [0.0; N_TERMS];
            s.terms(0, &mut t);
            out.push(t);
        }
        let (pv, _) = a.best_move(&Judged::<0>(s.clone()));
        s.apply(pv[0]);
    }
    let o = s.outcome().expect("over");
    (out, (o.value(0) + 1.0) / 2.0)
}

/// Mean log-loss of `P(win) = σ(k · Σ w·t)`.
fn log_loss(data: &[([f32; N_TERMS], f32)], w: &[f64], k: f64) -> f64 {
    let mut l = 0.0;
    for (t, y) in data {
        let z: f64 = k * w.iter().zip(t).map(|(w, t)| w * *t as f64).sum::<f64>();
        let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-9, 1.0 - 1e-9);
        let y = *y as f64;
        l -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    l / data.len().max(1) as f64
}

/// `--texel GAMES`: self-play of evaluation A, then the logistic regression
/// of the results on the terms (Newton's method, a small ridge towards A's
/// weights), with the scale `k` fitted to A's weights first and kept.
#[allow(clippy::needless_range_loop)]
fn fit(args: &Args, games: usize) {
    let Eval::Terms(w0) = EVALS.get().expect("set")[0] else { panic!("--texel needs --a v2[:…]") };
    let next = AtomicUsize::new(0);
    let (train, held) = (Mutex::new(Vec::new()), Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games {
                        break;
                    }
                    let (ps, y) = self_play(args, i);
                    let into = if i % 5 == 4 { &held } else { &train };
                    into.lock().unwrap().extend(ps.into_iter().map(|t| (t, y)));
                }
            });
        }
    });
    let (train, held) = (train.into_inner().unwrap(), held.into_inner().unwrap());
    let w0: Vec<f64> = w0.iter().map(|&w| w as f64).collect();
    // The scale: a golden-section search of k for A's weights.
    let (mut lo, mut hi) = (1e-5f64, 0.05f64);
    for _ in 0..60 {
        let (m1, m2) = (lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618);
        if log_loss(&train, &w0, m1) < log_loss(&train, &w0, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let k = (lo + hi) / 2.0;
    // Newton's method on b = k·w, with the ridge λ·|b − k·w0|².
    let n = N_TERMS;
    let prior: Vec<f64> = w0.iter().map(|w| w * k).collect();
    let mut b = prior.clone();
    let lambda = 1e-3 * train.len() as f64;
    for _ in 0..30 {
        let mut h = vec![vec![0.0f64; n]; n];
        let mut g = vec![0.0f64; n];
        for (t, y) in &train {
            let z: f64 = b.iter().zip(t).map(|(b, t)| b * *t as f64).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let r = p * (1.0 - p);
            for i in 0..n {
                g[i] += (p - *y as f64) * t[i] as f64;
                for j in 0..n {
                    h[i][j] += r * t[i] as f64 * t[j] as f64;
                }
            }
        }
        for i in 0..n {
            g[i] += lambda * (b[i] - prior[i]) / (k * k * 1e4);
            h[i][i] += lambda / (k * k * 1e4) + 1e-9;
        }
        let step = solve(h, g);
        for i in 0..n {
            b[i] -= step[i];
        }
    }
    let w: Vec<f64> = b.iter().map(|b| b / k).collect();
    println!(
        "{} games on {}, {} positions (+{} held out), k = {k:.6}\nlog-loss {:.4} -> {:.4}, held out {:.4} -> {:.4}",
        games,
        args.sheet,
        train.len(),
        held.len(),
        log_loss(&train, &w0, k),
        log_loss(&train, &w, k),
        log_loss(&held, &w0, k),
        log_loss(&held, &w, k)
    );
    let spec: Vec<String> = TERMS.iter().zip(&w).map(|(t, w)| format!("{t}={w:.0}")).collect();
    println!("v2:{}", spec.join(","));
}

/// The solution of `h · x = g` (Gaussian elimination with partial pivoting).
#[allow(clippy::needless_range_loop)]
fn solve(mut h: Vec<Vec<f64>>, mut g: Vec<f64>) -> Vec<f64> {
    let n = g.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| h[i][c].abs().total_cmp(&h[j][c].abs())).expect("rows");
        h.swap(c, p);
        g.swap(c, p);
        let d = h[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        for r in 0..n {
            if r != c {
                let f = h[r][c] / d;
                for k in c..n {
                    h[r][k] -= f * h[c][k];
                }
                g[r] -= f * g[c];
            }
        }
    }
    (0..n).map(|i| if h[i][i].abs() < 1e-12 { 0.0 } else { g[i] / h[i][i] }).collect()
}
