//! What a run checks at the end: a few games read back (rated, clocked,
//! held by the run's accounts, as asked), and every move a client saw
//! acknowledged found in its game's record, at its place.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::accounts::Account;
use super::seat::{Shared, Slot};
use super::{LoadConfig, Src, spread};
use crate as client;

/// What is wrong with a game's state (`GET /api/games/{id}`) for a run of
/// `cfg` with accounts `pool`: its rating, time control, clocks, accounts.
pub(super) fn check_game(cfg: &LoadConfig, pool: &[Account], state: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if state["rated"].as_bool() != Some(cfg.rated) {
        problems.push(format!("rated is {}, not {}", state["rated"], cfg.rated));
    }
    match cfg.clock {
        Some(c) => {
            let want = json!({ "initial": c.initial, "increment": c.increment });
            if state["clock"] != want {
                problems.push(format!("its clock is {}, not {want}", state["clock"]));
            }
            if state["clocks"].as_array().is_none_or(|a| a.len() != 2 || !a.iter().all(Value::is_i64)) {
                problems.push(format!("its clocks are {}", state["clocks"]));
            }
        }
        None => {
            if !state["clock"].is_null() {
                problems.push(format!("it has a clock ({}) where none was asked", state["clock"]));
            }
        }
    }
    let seats = state["seats"].as_array().map(Vec::as_slice).unwrap_or_default();
    if seats.len() != 2 {
        problems.push(format!("it has {} seats", seats.len()));
    }
    for seat in seats {
        let account = seat["account"].as_str();
        let ours = account.is_some_and(|a| pool.iter().any(|p| p.name == a));
        if !pool.is_empty() && !ours {
            problems
                .push(format!("seat {} is held by {}, not one of the run's accounts", seat["seat"], seat["account"]));
        }
        if pool.is_empty() && account.is_some() {
            problems.push(format!("seat {} is held by account {}", seat["seat"], seat["account"]));
        }
    }
    problems
}

/// The moves a game's clients saw acknowledged, by ply: who made each and
/// its text (`None`: a ply no client of the run saw).
pub(super) type Acked = Vec<Option<(usize, String)>>;

/// The plies of the acknowledged moves (`acked`) that a game's record
/// (`moves` and their `movers`, in order) does not have at their place: the
/// acknowledged moves lost.
pub(super) fn lost_moves(acked: &Acked, moves: &[String], movers: &[usize]) -> Vec<usize> {
    acked
        .iter()
        .enumerate()
        .filter_map(|(ply, a)| {
            let (seat, mv) = a.as_ref()?;
            let kept = moves.get(ply) == Some(mv) && movers.get(ply) == Some(seat);
            (!kept).then_some(ply)
        })
        .collect()
}

/// A game's record (`GET /api/games/{id}/record`): its moves and who made
/// each, from the first server that answers, starting at `first` and going
/// round the list (an instance may be dead, another taking its games over)
/// for up to 15 s; once some read found no server at all (`nobody`), each
/// server once. A refusal for too many requests is waited out.
pub(super) async fn read_record(
    servers: &[SocketAddr],
    first: usize,
    src: Src,
    id: &str,
    nobody: &AtomicBool,
) -> Result<(Vec<String>, Vec<usize>), String> {
    let started = Instant::now();
    let mut failing_since = Instant::now();
    let mut k = first % servers.len();
    let mut tries = 0;
    loop {
        tries += 1;
        let addr = servers[k];
        let path = format!("/api/games/{id}/record");
        let problem = match client::request_from(src.ip(addr), addr, "GET", &path, None, b"").await {
            Ok(r) if r.status == 200 => {
                let v = r.json();
                let moves: Option<Vec<String>> = serde_json::from_value(v["moves"].clone()).ok();
                let movers: Option<Vec<usize>> = serde_json::from_value(v["movers"].clone()).ok();
                return match (moves, movers) {
                    (Some(m), Some(s)) => Ok((m, s)),
                    _ => Err(format!("{addr}: a record without its moves and movers: {}", r.body)),
                };
            }
            // A refusal that another try will not change.
            Ok(r) if (400..500).contains(&r.status) && r.status != 408 && r.status != 429 => {
                return Err(format!("{addr}: {} {}", r.status, r.body));
            }
            // Too many requests from this address (not on loopback, every
            // read comes from one): wait as asked, for up to 5 minutes in all.
            Ok(r) if r.status == 429 && started.elapsed() < Duration::from_secs(300) => {
                let wait = r.header("retry-after").and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(1);
                tokio::time::sleep(Duration::from_secs(wait.clamp(1, 10))).await;
                tries = 0;
                failing_since = Instant::now();
                continue;
            }
            Ok(r) => format!("{addr}: {} {}", r.status, r.body),
            Err(e) => format!("{addr}: {e}"),
        };
        let once_round = tries >= servers.len() && nobody.load(Ordering::Relaxed);
        if once_round || failing_since.elapsed() > Duration::from_secs(15) {
            nobody.store(true, Ordering::Relaxed);
            return Err(problem);
        }
        k = spread::next(k, servers.len());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What the check of the acknowledged moves found.
#[derive(Default)]
pub(super) struct Kept {
    /// Games whose record was read and compared.
    pub(super) games: u64,
    /// Acknowledged moves compared.
    pub(super) moves: u64,
    /// Acknowledged moves missing from their game's record (or another
    /// move in their place).
    pub(super) lost: u64,
    /// The first few of them, in words.
    pub(super) samples: Vec<String>,
    /// Games whose record could not be read, with why.
    pub(super) unread: Vec<String>,
}

/// Read the record of every game the run played (from any server that
/// answers, a few at a time) and look for every move a client saw
/// acknowledged in it.
pub(super) async fn acknowledged_moves(shared: &Shared) -> Kept {
    let slots: Vec<Arc<Slot>> = match shared.slots.lock() {
        Ok(map) => map.values().cloned().collect(),
        Err(_) => return Kept { unread: vec!["the games' list".into()], ..Kept::default() },
    };
    let servers: Arc<[SocketAddr]> = shared.servers.clone().into();
    let reading = Arc::new(Semaphore::new(16));
    let nobody = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for slot in slots {
        let acked: Acked = slot.acked.lock().map(|a| a.clone()).unwrap_or_default();
        if acked.iter().all(Option::is_none) {
            continue;
        }
        let (servers, reading, nobody) = (servers.clone(), reading.clone(), nobody.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = reading.acquire().await;
            let first = spread::creation(slot.lane, servers.len());
            let src = Src { kind: 1, i: slot.lane };
            let record = read_record(&servers, first, src, &slot.id, &nobody).await;
            (slot.id.clone(), acked, record)
        }));
    }
    let mut kept = Kept::default();
    for t in tasks {
        let Ok((id, acked, record)) = t.await else { continue };
        let (moves, movers) = match record {
            Ok(r) => r,
            Err(e) => {
                kept.unread.push(format!("game {id}: {e}"));
                continue;
            }
        };
        kept.games += 1;
        kept.moves += acked.iter().filter(|a| a.is_some()).count() as u64;
        for ply in lost_moves(&acked, &moves, &movers) {
            kept.lost += 1;
            if kept.samples.len() < 5
                && let Some((seat, mv)) = &acked[ply]
            {
                let there = match (moves.get(ply), movers.get(ply)) {
                    (Some(m), Some(s)) => format!("seat {s}'s {m}"),
                    _ => format!("nothing (the record has {} moves)", moves.len()),
                };
                kept.samples
                    .push(format!("game {id} ply {}: seat {seat}'s {mv} acknowledged, {there} in the record", ply + 1));
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acked(moves: &[(usize, &str)]) -> Acked {
        moves.iter().map(|&(s, m)| Some((s, m.to_string()))).collect()
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_record_with_every_acknowledged_move_loses_none() {
        let a = acked(&[(0, "a1b2"), (1, "c3d4"), (0, "e5f6")]);
        assert!(lost_moves(&a, &strings(&["a1b2", "c3d4", "e5f6"]), &[0, 1, 0]).is_empty());
        // Later moves the clients never saw acknowledged are no loss.
        assert!(lost_moves(&a, &strings(&["a1b2", "c3d4", "e5f6", "g7h8"]), &[0, 1, 0, 1]).is_empty());
        // Nor are plies no client saw.
        let mut gaps = a.clone();
        gaps[1] = None;
        assert!(lost_moves(&gaps, &strings(&["a1b2", "zzzz", "e5f6"]), &[0, 1, 0]).is_empty());
        assert!(lost_moves(&Vec::new(), &[], &[]).is_empty());
    }

    #[test]
    fn missing_moves_are_counted_by_ply() {
        let a = acked(&[(0, "a1b2"), (1, "c3d4"), (0, "e5f6"), (1, "g7h8")]);
        // The record stops short: the last two acknowledged moves are lost.
        assert_eq!(lost_moves(&a, &strings(&["a1b2", "c3d4"]), &[0, 1]), [2, 3]);
        // Empty record: all of them.
        assert_eq!(lost_moves(&a, &[], &[]), [0, 1, 2, 3]);
    }

    #[test]
    fn a_move_replaced_or_out_of_order_is_lost() {
        let a = acked(&[(0, "a1b2"), (1, "c3d4"), (0, "e5f6")]);
        // Another move at ply 2 (the acknowledged one lost, the game went on
        // from an older position).
        assert_eq!(lost_moves(&a, &strings(&["a1b2", "zzzz", "e5f6"]), &[0, 1, 0]), [1]);
        // The same moves in another order.
        assert_eq!(lost_moves(&a, &strings(&["a1b2", "e5f6", "c3d4"]), &[0, 0, 1]), [1, 2]);
        // The right move by the wrong seat.
        assert_eq!(lost_moves(&a, &strings(&["a1b2", "c3d4", "e5f6"]), &[0, 0, 0]), [1]);
    }
}
