//! The group-commit writer's cost without a game, for the benchmark
//! (`benches/moves.rs`, group `commit`): moves of many games written as the
//! writer gets them under load, `k` games' moves in one transaction.

use std::time::{Duration, Instant};

use super::*;

/// A database of live games and the writer in front of it.
pub struct CommitBench {
    rt: tokio::runtime::Runtime,
    writer: Writer,
    store: Arc<dyn Storage>,
    /// Each game's id and the version of its last event.
    games: Vec<(String, u64)>,
    next: usize,
    dir: std::path::PathBuf,
}

impl CommitBench {
    /// `games` live Abalone games with their two seats, in a fresh SQLite
    /// file.
    pub fn new(games: usize, durability: Durability) -> Result<CommitBench, String> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        let dir = std::env::temp_dir().join(format!("plateau-commit-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("bench.sqlite").display());
        let (store, writer) = rt.block_on(async {
            let store = open(&url, durability).await.map_err(|e| e.to_string())?;
            // The transaction alone: no group-commit delay (which would
            // add its sleep to each step of `k` > 1 groups).
            let writer = Writer::spawn_with(store.clone(), Duration::ZERO);
            Ok::<_, String>((store, writer))
        })?;
        let mut ids = Vec::new();
        for g in 0..games {
            let id = format!("bench{g:07}");
            let row = GameRow::live(id.clone(), "abalone", g as u64, 0);
            let seats = (0..2)
                .map(|s| SeatRow {
                    seat: s,
                    kind: SeatKind::Human,
                    player: None,
                    name: Some(format!("P{s}")),
                    token_hash: Some(format!("{:064x}", g * 2 + s)),
                    account: None,
                })
                .collect();
            rt.block_on(writer.commit(vec![WriteOp::InsertGame { game: row, seats }])).map_err(|e| e.0)?;
            ids.push((id, 0));
        }
        Ok(CommitBench { rt, writer, store, games: ids, next: 0, dir })
    }

    /// One move of each of the next `k` games (in turn), queued to the
    /// writer at once ([`Writer::commit_all`]: one transaction, as under
    /// load) and their commit awaited; the time it took.
    pub fn step(&mut self, k: usize) -> Duration {
        let mut groups = Vec::with_capacity(k);
        for _ in 0..k {
            let n = self.games.len();
            let (id, version) = &mut self.games[self.next];
            self.next = (self.next + 1) % n;
            *version += 1;
            let event = EventRow {
                version: *version,
                kind: EventKind::Move,
                seat: Some((*version % 2) as usize),
                data: "c3c4d5".into(),
                at: 1_700_000_000_000 + *version as i64,
            };
            groups.push(vec![WriteOp::InsertEvent { game_id: id.clone(), event }]);
        }
        let t = Instant::now();
        for r in self.rt.block_on(self.writer.commit_all(groups)) {
            if let Err(e) = r {
                panic!("a commit failed: {e}");
            }
        }
        t.elapsed()
    }

    /// The events stored of the first game, read back (for the test).
    pub fn stored_versions(&self, game: usize) -> Vec<u64> {
        let id = self.games[game].0.clone();
        let stored = self.rt.block_on(self.store.load(&id)).ok().flatten();
        stored.map(|g| g.events.iter().map(|e| e.version).collect()).unwrap_or_default()
    }

    /// The transactions the writer committed.
    pub fn commits(&self) -> u64 {
        self.writer.stats.commits.load(Ordering::Relaxed)
    }
}

impl Drop for CommitBench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// k games' moves are one transaction, and every move is stored once,
    /// in order.
    #[test]
    fn k_moves_one_commit_all_stored() {
        let mut b = CommitBench::new(5, Durability::Normal).unwrap();
        let before = b.commits();
        b.step(4);
        assert_eq!(b.commits() - before, 1);
        b.step(4);
        assert_eq!(b.commits() - before, 2);
        // Games 0, 1, 2, 3, then 4, 0, 1, 2: game 0 has two moves, games
        // 3 and 4 one each.
        assert_eq!(b.stored_versions(0), [1, 2]);
        assert_eq!(b.stored_versions(2), [1, 2]);
        assert_eq!(b.stored_versions(3), [1]);
        assert_eq!(b.stored_versions(4), [1]);
    }
}
