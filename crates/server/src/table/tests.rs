//! A game's task when the rules fail: a panic while a move is applied leaves
//! the match half-changed, and the table rebuilds it from its committed
//! events instead of going on with it. When the database refuses a move,
//! the seat hears why with the state to act on.

use std::sync::atomic::{AtomicBool, Ordering};

use plateau_core::{ConfigError, Encode, Game, GameInfo, MoveError, OptionSpec, Settings, State, VariantSpec};

use super::*;
use crate::pool::AiPool;
use crate::state::Limits;
use crate::store::{Durability, Writer};

/// A counter that two players add 1 or 2 to; adding 2 panics halfway
/// (after the count changed, before the turn did) while `FAIL` is set.
#[derive(Clone, Debug, PartialEq)]
struct Counter {
    count: u32,
    plies: u32,
}

static FAIL: AtomicBool = AtomicBool::new(false);

/// The count that ends a game.
const END: u32 = 10;

/// The threads on which a finished game's results and views were computed.
static FINAL_WORK: std::sync::Mutex<Vec<std::thread::ThreadId>> = std::sync::Mutex::new(Vec::new());

fn note_final_work() {
    FINAL_WORK.lock().unwrap().push(std::thread::current().id());
}

#[derive(Clone, Debug)]
struct CounterGame;

static INFO: GameInfo = GameInfo {
    name: "counter",
    title: "Counter",
    summary: "A test game.",
    min_seats: 2,
    max_seats: 2,
    hidden: false,
    uses_seed: false,
    has_draws: false,
    notation: "1 or 2",
    variants: &[VariantSpec { name: "standard", help: "", options: &[] }],
    options: &[] as &[OptionSpec],
};

impl Game for CounterGame {
    type State = Counter;
    const INFO: &'static GameInfo = &INFO;
    fn configure(_: &Settings) -> Result<Self, ConfigError> {
        Ok(CounterGame)
    }
    fn seats(&self) -> usize {
        2
    }
    fn seat_name(&self, seat: Seat) -> String {
        format!("P{seat}")
    }
    fn start(&self, _: u64) -> Counter {
        Counter { count: 0, plies: 0 }
    }
    fn ply_bound(&self) -> Option<u64> {
        None
    }
}

impl State for Counter {
    type Move = u32;
    type Undo = ();
    type View = u32;
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Turn {
        Turn::Seat((self.plies % 2) as usize)
    }
    fn ply(&self) -> u32 {
        self.plies
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend([1, 2]);
    }
    fn check(&self, mv: u32) -> Result<(), MoveError> {
        if mv == 1 || mv == 2 { Ok(()) } else { Err(MoveError::illegal("add 1 or 2")) }
    }
    fn apply(&mut self, mv: u32) {
        self.count += mv;
        if mv == 2 && FAIL.load(Ordering::Relaxed) {
            panic!("the rules fail halfway");
        }
        self.plies += 1;
    }
    fn undo(&mut self, mv: u32, _: ()) {
        self.count -= mv;
        self.plies -= 1;
    }
    /// Over at 10: the seat that reached it wins.
    fn outcome(&self) -> Option<Outcome> {
        (self.count >= END).then(|| {
            let winner = ((self.plies + 1) % 2) as usize;
            Outcome::shared_win(2, &[winner], "count")
        })
    }
    fn key(&self) -> u64 {
        u64::from(self.count) << 32 | u64::from(self.plies)
    }
    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, MoveError> {
        text.parse().map_err(|_| MoveError::syntax("a number"))
    }
    fn view(&self, _: Reader) -> u32 {
        if self.count >= END {
            note_final_work();
        }
        self.count
    }
    /// The expensive part of a finished game (as Colorito's score search).
    fn result_tags(&self) -> Vec<(String, String)> {
        note_final_work();
        vec![("Count".into(), self.count.to_string())]
    }
    fn render(&self, _: Reader, _: bool) -> String {
        self.count.to_string()
    }
}

/// Actions 0 and 1 add 1 and 2; the count to reach in binary.
impl Encode for Counter {
    fn actions(&self) -> usize {
        2
    }
    fn action(&self, mv: u32) -> usize {
        mv as usize - 1
    }
    fn move_of(&self, action: usize) -> Option<u32> {
        (action < 2).then_some(action as u32 + 1)
    }
    fn observation_shape(&self) -> [usize; 3] {
        [1, 1, 1]
    }
    fn plane_names(&self) -> Vec<String> {
        vec!["count".into()]
    }
    fn observe(&self, _: Seat, out: &mut [f32]) {
        out[0] = (self.count as f32 / END as f32).min(1.0);
    }
}

/// A live counter game between two people, stored, and its table.
async fn counter_table(tag: &str) -> (Table, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("plateau-table-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store =
        crate::store::open(&format!("sqlite://{}", dir.join("t.sqlite").display()), Durability::Normal).await.unwrap();
    let registry = plateau_core::Registry::new().with(plateau_core::entry::<CounterGame>());
    let ctx =
        Arc::new(TableCtx::new(registry, Writer::spawn(store.clone()), AiPool::new(1), Limits::default(), store, None));
    let m = ctx.registry.new_match("counter", &Setup::default()).unwrap();
    let seat = |s: usize| SeatRow {
        seat: s,
        kind: SeatKind::Human,
        player: None,
        name: Some(format!("P{s}")),
        token_hash: Some(format!("{s}")),
        account: None,
    };
    let seats = vec![seat(0), seat(1)];
    let row = GameRow::live(format!("game-{tag}"), "counter", 0, 0);
    ctx.writer.commit(vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }]).await.unwrap();
    (Table::new(ctx.clone(), row, &seats, m, Vec::new()), dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_while_a_move_is_applied_rebuilds_the_match_from_the_stored_events() {
    let (mut t, dir) = counter_table("panic").await;
    t.play(0, "1", None).await.unwrap();
    assert_eq!(t.m.view(Reader::Spectator), json!(1));
    // The rules panic halfway through "2": the count changed, the turn did not.
    FAIL.store(true, Ordering::Relaxed);
    let e = t.play(1, "2", None).await.unwrap_err();
    assert_eq!(e.code, "internal");
    FAIL.store(false, Ordering::Relaxed);
    // The match is the committed one again: count 1, seat 1 to move, one move.
    assert_eq!(t.m.view(Reader::Spectator), json!(1), "the half-applied move is gone");
    assert_eq!(t.m.to_move(), Turn::Seat(1));
    assert_eq!(t.m.history(), ["1"]);
    assert_eq!(t.version, 1);
    // The game goes on from there.
    t.play(1, "2", None).await.unwrap();
    assert_eq!(t.m.view(Reader::Spectator), json!(3));
    assert_eq!(t.events.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

// The runtime of this test is the test's own thread alone: work done on it
// is work done on the async runtime.
#[tokio::test(flavor = "current_thread")]
async fn a_finished_games_results_are_computed_off_the_runtime_once() {
    let (mut t, dir) = counter_table("settle").await;
    let runtime_thread = std::thread::current().id();
    let mut seat = 0;
    while t.m.outcome().is_none() {
        t.play(seat, "1", None).await.unwrap();
        seat = 1 - seat;
    }
    assert_eq!(t.row.status, Status::Finished);
    let computed = FINAL_WORK.lock().unwrap().len();
    assert!(computed > 0, "the result was computed");
    // Everything a reader may ask of the finished game now answers from what
    // was computed: nothing more is computed, on the runtime or anywhere.
    for seat in [None, Some(0), Some(1)] {
        let _ = t.state_json(seat, true, true);
        let _ = t.record_json(seat);
        let _ = t.position_json(seat, t.m.ply() as u64).await.unwrap();
    }
    let rows: Vec<Value> = t.events.iter().map(event_json).collect();
    assert_eq!(rows.last().unwrap()["tags"], json!([["Count", "10"]]), "the result is stored with game_over");
    let work = FINAL_WORK.lock().unwrap().clone();
    assert_eq!(work.len(), computed, "reads after the end computed the result again");
    assert!(work.iter().all(|&id| id != runtime_thread), "a finished game's result was computed on the runtime");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_database_refuses_is_answered_with_the_state_to_act_on() {
    let (mut t, dir) = counter_table("refused").await;
    let (tx, mut rx) = mpsc::channel(16);
    t.subs.push(Sub { id: 7, seat: Some(0), gestures: false, tx, account_name: None });
    // Another connection holds the row the move's event would be: the
    // commit fails, as a database that fails would.
    let db = rusqlite::Connection::open(dir.join("t.sqlite")).unwrap();
    db.execute(
        "INSERT INTO events (game_id, version, kind, seat, data, at) VALUES ('game-refused', 1, 'move', 0, '1', 0)",
        [],
    )
    .unwrap();
    let action = Action::Move { text: "1".into(), version: 0 };
    t.handle(Cmd::Act { who: Who::Sub(7), action, reply: None }).await;
    let frame: Value = serde_json::from_str(rx.try_recv().expect("an answer to the move").as_str()).unwrap();
    assert_eq!(frame["type"], "error", "{frame}");
    assert_eq!(frame["code"], "storage", "{frame}");
    // Nothing changed, and the seat is told so: the position it must move in.
    let state = &frame["state"];
    assert_eq!((state["version"].as_u64(), state["ply"].as_u64(), state["you"].as_u64()), (Some(0), Some(0), Some(0)));
    assert_eq!(state["to_move"], 0, "{frame}");
    assert_eq!(state["legal_moves"], json!(["1", "2"]), "{frame}");
    assert_eq!((t.version, t.m.ply()), (0, 0));
    // The database well again, the same move from that state goes in.
    db.execute("DELETE FROM events WHERE game_id = 'game-refused'", []).unwrap();
    let action = Action::Move { text: "1".into(), version: state["version"].as_u64().unwrap() };
    t.handle(Cmd::Act { who: Who::Sub(7), action, reply: None }).await;
    let frame: Value = serde_json::from_str(rx.try_recv().expect("the move's update").as_str()).unwrap();
    assert_eq!(frame["type"], "update", "{frame}");
    assert_eq!(frame["version"], 1, "{frame}");
    let _ = std::fs::remove_dir_all(&dir);
}
