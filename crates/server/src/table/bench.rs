//! A game's per-move path without sockets, for the benchmark
//! (`benches/moves.rs`) and its test: a real table of a catalogue game with
//! two seated players and two spectators subscribed (channels in place of
//! sockets), playing random legal moves through the same code as a move from
//! a socket.

use std::time::{Duration, Instant};

use super::*;
use crate::pool::AiPool;
use crate::state::Limits;
use crate::store::{Durability, Writer};

/// Spectators subscribed besides the seats.
const SPECTATORS: usize = 2;

/// A game after this many plies starts again (Abalone's random games go on
/// for ever).
const MAX_PLIES: usize = 200;

/// One game's table and its readers' channels.
pub struct MoveBench {
    rt: tokio::runtime::Runtime,
    ctx: Arc<TableCtx>,
    game: String,
    table: Table,
    readers: Vec<mpsc::Receiver<Utf8Bytes>>,
    rng: u64,
    games: u64,
    dir: std::path::PathBuf,
    /// Frames the readers received.
    pub frames: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The last frame each reader received (seats first, then spectators).
    pub last: Vec<Option<Utf8Bytes>>,
}

impl MoveBench {
    /// A table of `game` (its default set-up) whose every seat is a person,
    /// stored in a fresh SQLite file (synchronous `NORMAL`: commits are real
    /// transactions, not waiting for the disk).
    pub fn new(game: &str) -> Result<MoveBench, String> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        let dir = std::env::temp_dir().join(format!("plateau-bench-{game}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("bench.sqlite").display());
        let ctx = rt.block_on(async {
            let store = crate::store::open(&url, Durability::Normal).await.map_err(|e| e.to_string())?;
            Ok::<_, String>(Arc::new(TableCtx::new(
                plateau_games::registry(),
                Writer::spawn(store.clone()),
                AiPool::new(1),
                Limits::default(),
                store,
                None,
            )))
        })?;
        let table = rt.block_on(new_table(&ctx, game, 0))?;
        let mut b = MoveBench {
            rt,
            ctx,
            game: game.to_string(),
            table: table.0,
            readers: Vec::new(),
            rng: 0x9E37_79B9_7F4A_7C15,
            games: 1,
            dir,
            frames: 0,
            bytes: 0,
            last: Vec::new(),
        };
        b.subscribe(&table.1)?;
        Ok(b)
    }

    fn subscribe(&mut self, tokens: &[String]) -> Result<(), String> {
        self.readers.clear();
        let who: Vec<Option<&str>> =
            tokens.iter().map(|t| Some(t.as_str())).chain(std::iter::repeat_n(None, SPECTATORS)).collect();
        for token in who {
            let (tx, rx) = mpsc::channel(1024);
            // The browser's form: gestures with the legal moves.
            self.table.subscribe(token, None, None, true, tx).map_err(|e| e.message)?;
            self.readers.push(rx);
        }
        self.drain();
        Ok(())
    }

    fn drain(&mut self) {
        self.last.resize(self.readers.len(), None);
        for (r, last) in self.readers.iter_mut().zip(&mut self.last) {
            *last = None;
            while let Ok(f) = r.try_recv() {
                self.frames += 1;
                self.bytes += f.len() as u64;
                *last = Some(f);
            }
        }
    }

    /// The seat to move now, if the game is live.
    pub fn to_move(&self) -> Option<Seat> {
        self.table.to_move()
    }

    /// The legal moves now, by the rules.
    pub fn legal_moves(&self) -> Vec<String> {
        self.table.m.legal_moves()
    }

    /// Play one random legal move and return the time it took: with
    /// `commit`, the whole path of a move from a socket (the checks, the
    /// rules, the write queued to the group-commit writer and its commit
    /// awaited, every reader's frame made and queued); without, the rules
    /// and the frames only (the events published as if committed). Picking
    /// the move and starting a new game when one ends are not timed.
    pub fn step(&mut self, commit: bool) -> Duration {
        if self.table.row.status != Status::Live || self.table.m.ply() >= MAX_PLIES {
            self.restart();
        }
        let moves = self.table.m.legal_moves();
        let Turn::Seat(seat) = self.table.m.to_move() else {
            self.restart();
            return Duration::ZERO;
        };
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let mv = moves[(self.rng % moves.len().max(1) as u64) as usize % moves.len().max(1)].clone();
        let version = Some(self.table.version);
        let t = Instant::now();
        if commit {
            let table = &mut self.table;
            let r = self.rt.block_on(table.play(seat, &mv, version));
            if let Err(e) = r {
                panic!("{} refused {mv}: {}", self.game, e.message);
            }
        } else {
            let canonical = match self.table.m.play(&mv) {
                Ok(c) => c,
                Err(e) => panic!("{} refused {mv}: {}", self.game, e.message),
            };
            let row = EventRow {
                version: self.table.version + 1,
                kind: EventKind::Move,
                seat: Some(seat),
                data: canonical,
                at: now_ms(),
            };
            self.table.publish(vec![row], false);
        }
        let took = t.elapsed();
        self.drain();
        took
    }

    fn restart(&mut self) {
        self.games += 1;
        let (table, tokens) = match self.rt.block_on(new_table(&self.ctx, &self.game, self.games)) {
            Ok(t) => t,
            Err(e) => panic!("a new {} game: {e}", self.game),
        };
        self.table = table;
        if let Err(e) = self.subscribe(&tokens) {
            panic!("subscribing to a new {} game: {e}", self.game);
        }
    }
}

impl Drop for MoveBench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A live game of `game` between people, stored, and its seats' tokens.
async fn new_table(ctx: &Arc<TableCtx>, game: &str, n: u64) -> Result<(Table, Vec<String>), String> {
    let setup = Setup { seed: n, ..Setup::default() };
    let m = ctx.registry.new_match(game, &setup).map_err(|e| e.to_string())?;
    let tokens: Vec<String> = (0..m.seats()).map(|s| format!("bench-token-{n}-{s}-0123456789abcdef")).collect();
    let seats: Vec<SeatRow> = tokens
        .iter()
        .enumerate()
        .map(|(s, t)| SeatRow {
            seat: s,
            kind: SeatKind::Human,
            player: None,
            name: Some(format!("P{s}")),
            token_hash: Some(ids::hash_token(t)),
            account: None,
        })
        .collect();
    let row = GameRow::live(format!("bench-{game}-{n}"), game, n, now_ms());
    ctx.writer
        .commit(vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }])
        .await
        .map_err(|e| e.to_string())?;
    Ok((Table::new(ctx.clone(), row, &seats, m, Vec::new()), tokens))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each move reaches the four readers once; only the seat to decide
    /// gets legal moves, and they are the rules' list. The views and the
    /// legal moves with their gestures, written straight, equal the JSON
    /// trees made from the rules' values (`AnyMatch::view`,
    /// `AnyMatch::legal_gestures`), for every game.
    #[test]
    fn every_reader_gets_one_frame_per_move_and_only_the_decider_its_moves() {
        for (game, commit) in
            [("abalone", true), ("abalone", false), ("abraxas", false), ("colorito", false), ("kabaleo", false)]
        {
            let mut b = MoveBench::new(game).unwrap();
            for i in 0..6 {
                let frames = b.frames;
                b.step(commit);
                assert_eq!(b.frames - frames, 4, "{game} move {i}");
                let Some(decider) = b.to_move() else { break };
                let legal: Vec<Value> = b.legal_moves().into_iter().map(Value::from).collect();
                let gestures: Vec<Value> = b
                    .table
                    .m
                    .legal_gestures()
                    .into_iter()
                    .map(|(mv, g)| json!({"move": mv, "select": g.select, "targets": g.targets}))
                    .collect();
                let hidden = b.table.m.info().hidden;
                for (r, f) in b.last.iter().enumerate() {
                    let v: Value = serde_json::from_str(f.as_ref().unwrap()).unwrap();
                    assert_eq!(v["type"], "update");
                    assert_eq!(v["version"], json!(i + 1));
                    assert_eq!(v["events"][0]["kind"], "move");
                    let reader = if hidden && r < 2 { Reader::Seat(r) } else { Reader::Spectator };
                    assert_eq!(v["view"], b.table.m.view(reader), "{game} reader {r}");
                    if r == decider {
                        assert_eq!(v["legal_moves"], Value::Array(legal.clone()), "{game} reader {r}");
                        assert_eq!(v["legal"], Value::Array(gestures.clone()), "{game} reader {r}");
                    } else {
                        assert!(v.get("legal_moves").is_none() && v.get("legal").is_none(), "reader {r}: {v}");
                    }
                }
            }
        }
    }
}
