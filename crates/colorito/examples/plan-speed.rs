//! How often v2's planner finds a plan, and how long it takes, on the
//! positions of recorded games: every third position of each record whose
//! side to move has at most eight pieces away (the planner's gate), grouped
//! by the pieces away and the planner's first bound (`finish_bound`).
//!
//! ```text
//! plateau arena --game colorito --player alphabeta:nodes=3000 \
//!   --player alphabeta:nodes=3000,eval=v1 --games 20 --threads 2 \
//!   --openings random:4 --records /tmp/records
//! cargo run --release -p plateau-colorito --example plan-speed -- /tmp/records [BUDGET]
//! ```
//!
//! `BUDGET` is the planner's, in positions whose bound it computes (60,000
//! by default, as alpha-beta gives it). The planner's gate on its first
//! bound (`PLAN2_SLACK` in `eval.rs`) was chosen from this table.

use std::collections::BTreeMap;
use std::time::Instant;

use plateau_colorito::Colorito;
use plateau_colorito::eval::{finish_bound, plan_v2};
use plateau_core::record::Record;
use plateau_core::{Game, State, Turn};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: plan-speed DIR [BUDGET]")?;
    let budget: u64 = match args.next() {
        Some(b) => b.parse().map_err(|e| format!("budget {b:?}: {e}"))?,
        None => 60_000,
    };
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).map_err(|e| format!("{dir}: {e}"))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    // (away, first bound) -> (positions, plans, milliseconds)
    let mut table = BTreeMap::<(u32, Option<u32>), (u32, u32, f64)>::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let rec = Record::parse(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        let mut s = Colorito::standard().start(0);
        for (i, m) in rec.moves.iter().enumerate() {
            let side = s.side_to_move();
            let away = 20 - s.home_count(side);
            if away <= 8 && i % 3 == 0 && s.to_move() != Turn::Over {
                let t = Instant::now();
                let plan = plan_v2(&s, side, budget);
                let ms = t.elapsed().as_secs_f64() * 1e3;
                let e = table.entry((away, finish_bound(&s, side))).or_default();
                e.0 += 1;
                e.1 += plan.is_some() as u32;
                e.2 += ms;
            }
            let mv = s.parse_move(m).map_err(|e| format!("{}: move {m}: {e}", f.display()))?;
            if !s.is_legal(mv) {
                return Err(format!("{}: move {m} is not legal", f.display()));
            }
            s.apply(mv);
        }
    }
    println!("away  bound  positions  plans  ms each");
    let (mut n, mut found, mut ms) = (0, 0, 0.0);
    for ((away, bound), (k, plans, t)) in &table {
        // Above 1,000: a piece with no way home at all.
        let bound = bound.filter(|&b| b <= 1000).map_or("none".to_string(), |b| b.to_string());
        println!("{away:4}  {bound:>5}  {k:9}  {plans:5}  {:7.2}", t / *k as f64);
        (n, found, ms) = (n + k, found + plans, ms + t);
    }
    println!("{n} positions, {found} plans, {ms:.0} ms in all, {:.2} ms each", ms / n.max(1) as f64);
    Ok(())
}
