//! Storage: what the server keeps, behind the narrow [`Storage`] trait, and the
//! group-commit [`Writer`] in front of it.
//!
//! A game is stored as its set-up (game, variant, options, seed), its seats
//! (kind, computer player spec, name, hash of the token) and its events (moves,
//! seats joined and left, draw offers, resignations, results), numbered by the
//! game's version. A game is rebuilt by replaying its events; nothing derived
//! from the rules is stored except the summary columns used to list games.
//!
//! The SQL is portable (TEXT and BIGINT columns, no engine-specific types; the
//! writes are built with sqlx's query builder, which writes each engine's
//! placeholders). Two backends implement [`Storage`] with the same statements
//! and the same migrations: SQLite ([`SqliteStore`], here) and PostgreSQL
//! ([`postgres::PgStore`], selected by the `postgres://` URL scheme, whose
//! commit sends `BEGIN`, the statements and `COMMIT` in one transaction rather
//! than one multi-statement query).
//!
//! Every write goes through the [`Writer`]: a single task that takes every write
//! waiting, from every game, and commits them in one transaction (group
//! commit). A caller's future resolves only once its writes are durable.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use plateau_core::Options;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, QueryBuilder, Row, Sqlite};
use tokio::sync::{mpsc, oneshot};

pub(crate) mod analysis;
pub(crate) mod bench;
pub(crate) mod bots;
pub mod chat;
pub(crate) mod players;
pub mod postgres;
mod sqlite_thread;

/// A boxed future, for the object-safe [`Storage`] trait.
pub type BoxFut<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A storage failure.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// The message of a write refused because its instance no longer owns the
/// game (its lease's epoch has moved on: see `crate::cluster`).
const FENCED: &str = "this instance no longer owns the game: another has taken it over";

impl StoreError {
    /// A write refused for a stale lease.
    pub fn fenced() -> StoreError {
        StoreError(FENCED.to_string())
    }
    /// Whether the write was refused for a stale lease.
    pub fn is_fenced(&self) -> bool {
        self.0 == FENCED
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        StoreError(e.to_string())
    }
}

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for players: some human seat is open.
    Open,
    /// Every seat is taken and the game is not over.
    Live,
    /// Over, with a result.
    Finished,
    /// Called off before the first move.
    Aborted,
}

impl Status {
    /// The stored and displayed name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Live => "live",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }
    /// From the stored name.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "open" => Some(Status::Open),
            "live" => Some(Status::Live),
            "finished" => Some(Status::Finished),
            "aborted" => Some(Status::Aborted),
            _ => None,
        }
    }
}

/// The row of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// The registry name of the game (`abalone`).
    pub game: String,
    /// The variant as asked (None: the default).
    pub variant: Option<String>,
    /// The options as asked.
    pub options: Options,
    /// The seed of the set-up.
    pub seed: u64,
    /// Where the game is in its life.
    pub status: Status,
    /// The result string once over (`1-0`).
    pub result: Option<String>,
    /// Why it ended.
    pub termination: Option<String>,
    /// The number of moves, as of the last status change.
    pub ply: u64,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once agreed.
    pub rematch: Option<String>,
    /// Creation time, in milliseconds since 1970.
    pub created_at: i64,
    /// Time of the last status change, in milliseconds since 1970.
    pub updated_at: i64,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The time control, if any.
    pub clock: Option<crate::clock::TimeControl>,
}

impl GameRow {
    /// A live, unrated game of `game` with no variant, options, clock or
    /// moves yet, made at `at` (milliseconds): the row the tests and benches
    /// start from.
    pub(crate) fn live(id: String, game: &str, seed: u64, at: i64) -> GameRow {
        GameRow {
            id,
            game: game.to_string(),
            variant: None,
            options: Default::default(),
            seed,
            status: Status::Live,
            result: None,
            termination: None,
            ply: 0,
            rematch_of: None,
            rematch: None,
            created_at: at,
            updated_at: at,
            rated: false,
            clock: None,
        }
    }
}

/// Whether a seat is a person or a computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person, with a token once the seat is taken.
    Human,
    /// A computer player playing on the server.
    Computer,
}

/// The row of one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat, from 0.
    pub seat: usize,
    /// Person or computer.
    pub kind: SeatKind,
    /// The computer player's spec.
    pub player: Option<String>,
    /// The player's display name.
    pub name: Option<String>,
    /// The SHA-256 of the seat's token, once taken.
    pub token_hash: Option<String>,
    /// The account holding the seat (a person's, or a computer level's in a
    /// rated game).
    pub account: Option<String>,
}

impl SeatRow {
    /// A person's seat, open.
    pub fn open(seat: usize) -> SeatRow {
        SeatRow { seat, kind: SeatKind::Human, player: None, name: None, token_hash: None, account: None }
    }
}

/// What an event is. Stored, and sent to clients, as its snake_case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A move (`data`: its text).
    Move,
    /// A person took a seat (`data`: `{"player"}`).
    Join,
    /// A person gave a seat back.
    Leave,
    /// A seat offered (or accepted) a draw.
    DrawOffer,
    /// A seat declined the draw offered.
    DrawDecline,
    /// A seat resigned.
    Resign,
    /// The game was called off.
    Abort,
    /// A seat asked for a rematch.
    RematchOffer,
    /// Everyone agreed: the rematch (`data`: `{"rematch"}`).
    Rematch,
    /// The game ended (`data`: the result).
    GameOver,
    /// A seat's time ran out (`seat`: whose).
    Flag,
    /// A seat claimed the game of a player gone too long (`seat`: who
    /// claimed; `data`: `{"gone", "draw"}`).
    Claim,
    /// The clocks set again when a live game was loaded after a stop
    /// (`data`: `{"clocks"}`, each seat's time in ms).
    Clock,
    /// A seat asked to take back its last move.
    TakebackOffer,
    /// A seat accepted the takeback asked.
    TakebackAccept,
    /// A seat declined the takeback asked.
    TakebackDecline,
    /// Moves taken back (`seat`: who asked; `data`: `{"plies"}`, how many).
    Takeback,
}

impl EventKind {
    /// Every kind.
    pub const ALL: [EventKind; 17] = [
        EventKind::Move,
        EventKind::Join,
        EventKind::Leave,
        EventKind::DrawOffer,
        EventKind::DrawDecline,
        EventKind::Resign,
        EventKind::Abort,
        EventKind::RematchOffer,
        EventKind::Rematch,
        EventKind::GameOver,
        EventKind::Flag,
        EventKind::Claim,
        EventKind::Clock,
        EventKind::TakebackOffer,
        EventKind::TakebackAccept,
        EventKind::TakebackDecline,
        EventKind::Takeback,
    ];

    /// Its stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Move => "move",
            EventKind::Join => "join",
            EventKind::Leave => "leave",
            EventKind::DrawOffer => "draw_offer",
            EventKind::DrawDecline => "draw_decline",
            EventKind::Resign => "resign",
            EventKind::Abort => "abort",
            EventKind::RematchOffer => "rematch_offer",
            EventKind::Rematch => "rematch",
            EventKind::GameOver => "game_over",
            EventKind::Flag => "flag",
            EventKind::Claim => "claim",
            EventKind::Clock => "clock",
            EventKind::TakebackOffer => "takeback_offer",
            EventKind::TakebackAccept => "takeback_accept",
            EventKind::TakebackDecline => "takeback_decline",
            EventKind::Takeback => "takeback",
        }
    }

    /// The kind of a stored name.
    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Whether an event of this kind changes what a move is chosen on (the
    /// position, the status or the seats).
    pub fn changes_position(self) -> bool {
        !matches!(
            self,
            EventKind::DrawOffer
                | EventKind::DrawDecline
                | EventKind::RematchOffer
                | EventKind::Rematch
                | EventKind::Clock
                | EventKind::TakebackOffer
                | EventKind::TakebackAccept
                | EventKind::TakebackDecline
        )
    }
}

/// One stored event of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// The game's version after this event (1 for the first event).
    pub version: u64,
    /// What happened.
    pub kind: EventKind,
    /// The seat that acted, if any.
    pub seat: Option<usize>,
    /// The move text, or a JSON object.
    pub data: String,
    /// When, in milliseconds since 1970.
    pub at: i64,
}

/// A game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Its row.
    pub game: GameRow,
    /// Its seats, in order.
    pub seats: Vec<SeatRow>,
    /// Its events, in order of version.
    pub events: Vec<EventRow>,
    /// The last messages of its players' room, oldest first.
    pub chat: Vec<chat::ChatRow>,
}

/// One write.
#[derive(Clone, Debug)]
pub enum WriteOp {
    /// A new game and its seats.
    InsertGame {
        /// The game.
        game: GameRow,
        /// Its seats.
        seats: Vec<SeatRow>,
    },
    /// An event of a game.
    InsertEvent {
        /// The game.
        game_id: String,
        /// The event.
        event: EventRow,
    },
    /// A seat taken or left.
    UpdateSeat {
        /// The game.
        game_id: String,
        /// The seat.
        seat: usize,
        /// The new name.
        name: Option<String>,
        /// The new token hash (None: the seat is open again).
        token_hash: Option<String>,
        /// The account now holding it.
        account: Option<String>,
    },
    /// Each seat's outcome (`win`, `draw`, `loss`) once the game is over.
    Outcomes {
        /// The game.
        game_id: String,
        /// Per seat, in order.
        outcomes: Vec<&'static str>,
    },
    /// A rated game's new rating of one account, and its history row.
    Rate(players::RatingChange),
    /// A message of a game's players' room.
    InsertChat {
        /// The game.
        game_id: String,
        /// The message.
        message: chat::ChatRow,
    },
    /// The proof that the writer still owns the game (several instances on
    /// one PostgreSQL): the group is refused unless the game's lease still
    /// has this owner and epoch (the fencing token). One instance alone
    /// (SQLite) never writes it.
    Fence {
        /// The game.
        game_id: String,
        /// The instance.
        owner: String,
        /// The lease's epoch when the instance took the game.
        epoch: i64,
    },
    /// The lease of a game just created, held by its creating instance
    /// (epoch 1). Never written by one instance alone (SQLite).
    NewLease {
        /// The game.
        game_id: String,
        /// The instance.
        owner: String,
    },
    /// A change of status (and the summary columns).
    UpdateGame {
        /// The game.
        game_id: String,
        /// The new status.
        status: Status,
        /// The result string.
        result: Option<String>,
        /// Why it ended.
        termination: Option<String>,
        /// The number of moves.
        ply: u64,
        /// The rematch's id.
        rematch: Option<String>,
        /// The seed of the set-up (set when a game with hidden information
        /// is dealt, at its start).
        seed: u64,
        /// When.
        at: i64,
    },
}

/// A page of a listing.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Which games.
    pub status: Status,
    /// At most this many.
    pub limit: u32,
    /// Start after this (updated_at, id), from the previous page.
    pub after: Option<(i64, String)>,
}

/// A listed game.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Its row.
    pub game: GameRow,
    /// Its seats.
    pub seats: Vec<SeatRow>,
    /// Moves played so far.
    pub moves: u64,
}

/// What the server needs of a database.
pub trait Storage: players::PlayerStore + bots::BotStore + analysis::AnalysisStore + Send + Sync + 'static {
    /// Apply these groups of writes in one transaction: all or nothing.
    fn commit<'a>(&'a self, groups: &'a [Vec<WriteOp>]) -> BoxFut<'a, Result<(), StoreError>>;
    /// A game with its seats and events.
    fn load<'a>(&'a self, id: &'a str) -> BoxFut<'a, Result<Option<StoredGame>, StoreError>>;
    /// A page of games of one status, most recently changed first.
    fn list<'a>(&'a self, q: &'a Listing) -> BoxFut<'a, Result<Vec<Listed>, StoreError>>;
    /// The number of live games.
    fn count_live(&self) -> BoxFut<'_, Result<u64, StoreError>>;
    /// The ids of the live games with a computer seat (to resume at start).
    fn resumable(&self) -> BoxFut<'_, Result<Vec<String>, StoreError>>;

    // Accounts. These writes go straight to the database (not through the
    // group-commit writer) and are durable when they return.

    /// Create an account; `false` if its name (`name_key`) is taken.
    fn create_account<'a>(&'a self, a: &'a AccountRow) -> BoxFut<'a, Result<bool, StoreError>>;
    /// The account of a name key (the name in lower case).
    fn account_by_name<'a>(&'a self, name_key: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>>;
    /// Open a session (and delete the sessions expired before `s.created_at`).
    fn insert_session<'a>(&'a self, s: &'a SessionRow) -> BoxFut<'a, Result<(), StoreError>>;
    /// The account of a session not expired at `now`.
    fn session_account<'a>(&'a self, id_hash: &'a str, now: i64) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>>;
    /// Close a session.
    fn delete_session<'a>(&'a self, id_hash: &'a str) -> BoxFut<'a, Result<(), StoreError>>;
    /// Set an account's password hash and close all its sessions but `keep`,
    /// in one transaction.
    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a str>,
    ) -> BoxFut<'a, Result<(), StoreError>>;
    /// Add an access token if the account has fewer than `max`; `false` if not.
    fn insert_token<'a>(&'a self, t: &'a TokenRow, max: usize) -> BoxFut<'a, Result<bool, StoreError>>;
    /// An account's access tokens, oldest first.
    fn tokens_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<TokenRow>, StoreError>>;
    /// Revoke an account's access token; `false` if it has none of that id.
    fn delete_token<'a>(&'a self, account_id: &'a str, id: &'a str) -> BoxFut<'a, Result<bool, StoreError>>;
    /// The account of an access token.
    fn token_account<'a>(&'a self, token_hash: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>>;

    /// The PostgreSQL pool, when the database is PostgreSQL: several
    /// instances may share it (leases, notifications, the shared lobby).
    fn postgres(&self) -> Option<&sqlx::PgPool> {
        None
    }

    /// A committer that blocks, for the [`Writer`] to run on a thread of
    /// its own (a SQLite file: its own connection, without sqlx's thread
    /// between the writer and SQLite). Given once; `None` after, and for
    /// the databases the writer commits to through [`Storage::commit`].
    fn take_blocking_committer(&self) -> Option<Box<dyn BlockingCommit>> {
        None
    }
}

/// A committer run on the writer's own thread: the same contract as
/// [`Storage::commit`] (one transaction, all or nothing, durable when it
/// returns `Ok`), blocking.
pub trait BlockingCommit: Send + 'static {
    /// Apply these groups of writes in one transaction.
    fn commit(&mut self, groups: &[Vec<WriteOp>]) -> Result<(), StoreError>;
}

/// The row of one account.
#[derive(Clone, PartialEq, Eq)]
pub struct AccountRow {
    /// Its id.
    pub id: String,
    /// The name as chosen.
    pub name: String,
    /// The name in lower case (unique).
    pub name_key: String,
    /// The password's Argon2id hash (a PHC string).
    pub password: String,
    /// Creation time, in milliseconds since 1970.
    pub created_at: i64,
    /// Whether the account is a bot (`bots.rs`): it plays only through
    /// challenges.
    pub bot: bool,
}

impl std::fmt::Debug for AccountRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccountRow").field("id", &self.id).field("name", &self.name).finish_non_exhaustive()
    }
}

/// A login session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// The SHA-256 of the session id (the cookie's value).
    pub id_hash: String,
    /// Whose.
    pub account_id: String,
    /// When opened, in milliseconds since 1970.
    pub created_at: i64,
    /// When it ends, in milliseconds since 1970.
    pub expires_at: i64,
}

/// A personal access token (without its secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    /// Its id (public).
    pub id: String,
    /// Whose.
    pub account_id: String,
    /// The owner's label.
    pub label: String,
    /// The SHA-256 of the token.
    pub token_hash: String,
    /// Creation time, in milliseconds since 1970.
    pub created_at: i64,
}

/// How hard commits are made durable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Synced to the disk at every commit: survives a power cut.
    Full,
    /// Written to the operating system at every commit, synced at
    /// checkpoints: survives the server being killed (kill -9), not a power cut.
    Normal,
}

/// Open the database at `url`: `sqlite://PATH` (or a bare path; the file and
/// its directory are created) or `postgres://…` (`postgresql://…`; the
/// database must exist), with the migrations applied.
pub async fn open(url: &str, durability: Durability) -> Result<Arc<dyn Storage>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Arc::new(postgres::PgStore::open(url, durability).await?));
    }
    let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    if path.is_empty() {
        return Err(StoreError("the database path is empty".into()));
    }
    let memory = path == ":memory:";
    if !memory
        && let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(|e| StoreError(format!("creating {}: {e}", dir.display())))?;
    }
    let opts = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(match durability {
            Durability::Full => SqliteSynchronous::Full,
            Durability::Normal => SqliteSynchronous::Normal,
        })
        .page_size(1024)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(if memory { 1 } else { 4 })
        .min_connections(1)
        .connect_with(opts.clone())
        .await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    let writer = opts.connect().await?;
    // The group-commit writer's own connection (a file only: a second
    // connection to `:memory:` would be another database).
    let committer = if memory {
        None
    } else {
        let path = path.to_string();
        let c = tokio::task::spawn_blocking(move || sqlite_thread::Committer::open(&path, durability))
            .await
            .map_err(|e| StoreError(e.to_string()))??;
        Some(c)
    };
    Ok(Arc::new(SqliteStore {
        pool,
        writer: tokio::sync::Mutex::new(writer),
        committer: std::sync::Mutex::new(committer),
    }))
}

/// The SQLite backend: a pool of connections for reads, one connection for
/// the writes made straight (accounts, sessions, players, bots), and the
/// group-commit writer's own connection, taken by the [`Writer`] to its
/// thread (`store/sqlite_thread.rs`).
pub struct SqliteStore {
    pool: SqlitePool,
    writer: tokio::sync::Mutex<sqlx::SqliteConnection>,
    committer: std::sync::Mutex<Option<sqlite_thread::Committer>>,
}

/// Rows per multi-row INSERT (SQLite allows 32766 bound values).
const ROWS_PER_INSERT: usize = 1000;

/// The events of a commit that writes nothing else (at most
/// [`ROWS_PER_INSERT`] of them; one instance alone writes no fence), in
/// order.
fn events_alone(groups: &[Vec<WriteOp>]) -> Option<Vec<(&str, &EventRow)>> {
    let mut events = Vec::new();
    for op in groups.iter().flatten() {
        match op {
            WriteOp::InsertEvent { game_id, event } => events.push((game_id.as_str(), event)),
            WriteOp::Fence { .. } | WriteOp::NewLease { .. } => {}
            _ => return None,
        }
    }
    (!events.is_empty() && events.len() <= ROWS_PER_INSERT).then_some(events)
}

/// `INSERT INTO events … VALUES (…), (…)` of these rows.
fn push_events(q: &mut QueryBuilder<Sqlite>, rows: &[(&str, &EventRow)]) {
    q.push(" INSERT INTO events (game_id, version, kind, seat, data, at) ");
    q.push_values(rows, |mut b, (id, e)| {
        b.push_bind(id.to_string())
            .push_bind(e.version as i64)
            .push_bind(e.kind.as_str())
            .push_bind(e.seat.map(|s| s as i64))
            .push_bind(e.data.clone())
            .push_bind(e.at);
    });
}

impl SqliteStore {
    /// One transaction, sent as one multi-statement query: a single round
    /// trip to SQLite's thread however many writes it holds.
    async fn commit_inner(&self, groups: &[Vec<WriteOp>]) -> Result<(), StoreError> {
        if let Some(events) = events_alone(groups) {
            return self.insert_events(&events).await;
        }
        let mut q: QueryBuilder<Sqlite> = QueryBuilder::new("BEGIN IMMEDIATE;");
        let mut events: Vec<(&str, &EventRow)> = Vec::new();
        for op in groups.iter().flatten() {
            match op {
                WriteOp::InsertGame { game, seats } => {
                    let options = serde_json::to_string(&game.options).map_err(|e| StoreError(e.to_string()))?;
                    q.push(
                        " INSERT INTO games (id, game, variant, options, seed, status, result, termination, ply, \
                         rematch_of, rematch, created_at, updated_at, rated, clock) ",
                    );
                    q.push_values(std::iter::once(game), |mut b, game| {
                        b.push_bind(game.id.clone())
                            .push_bind(game.game.clone())
                            .push_bind(game.variant.clone())
                            .push_bind(options.clone())
                            .push_bind(game.seed as i64)
                            .push_bind(game.status.as_str())
                            .push_bind(game.result.clone())
                            .push_bind(game.termination.clone())
                            .push_bind(game.ply as i64)
                            .push_bind(game.rematch_of.clone())
                            .push_bind(game.rematch.clone())
                            .push_bind(game.created_at)
                            .push_bind(game.updated_at)
                            .push_bind(game.rated as i64)
                            .push_bind(game.clock.map(|c| c.to_json()));
                    });
                    q.push(";");
                    if !seats.is_empty() {
                        q.push(" INSERT INTO seats (game_id, seat, kind, player, name, token_hash, account_id) ");
                        q.push_values(seats, |mut b, s| {
                            b.push_bind(game.id.clone())
                                .push_bind(s.seat as i64)
                                .push_bind(match s.kind {
                                    SeatKind::Human => "human",
                                    SeatKind::Computer => "computer",
                                })
                                .push_bind(s.player.clone())
                                .push_bind(s.name.clone())
                                .push_bind(s.token_hash.clone())
                                .push_bind(s.account.clone());
                        });
                        q.push(";");
                    }
                }
                WriteOp::InsertEvent { game_id, event } => events.push((game_id, event)),
                WriteOp::InsertChat { game_id, message } => chat::push_insert(&mut q, game_id, message),
                WriteOp::UpdateSeat { game_id, seat, name, token_hash, account } => {
                    q.push(" UPDATE seats SET name = ").push_bind(name.clone());
                    q.push(", token_hash = ").push_bind(token_hash.clone());
                    q.push(", account_id = ").push_bind(account.clone());
                    q.push(" WHERE game_id = ").push_bind(game_id.clone());
                    q.push(" AND seat = ").push_bind(*seat as i64).push(";");
                }
                WriteOp::Outcomes { game_id, outcomes } => {
                    for (seat, o) in outcomes.iter().enumerate() {
                        q.push(" UPDATE seats SET outcome = ").push_bind(*o);
                        q.push(" WHERE game_id = ").push_bind(game_id.clone());
                        q.push(" AND seat = ").push_bind(seat as i64).push(";");
                    }
                }
                WriteOp::Rate(c) => players::push_rate(&mut q, c),
                // One instance alone owns every game: no lease to check.
                WriteOp::Fence { .. } | WriteOp::NewLease { .. } => {}
                WriteOp::UpdateGame { game_id, status, result, termination, ply, rematch, seed, at } => {
                    q.push(" UPDATE games SET status = ").push_bind(status.as_str());
                    q.push(", result = ").push_bind(result.clone());
                    q.push(", termination = ").push_bind(termination.clone());
                    q.push(", ply = ").push_bind(*ply as i64);
                    q.push(", rematch = ").push_bind(rematch.clone());
                    q.push(", seed = ").push_bind(*seed as i64);
                    q.push(", updated_at = ").push_bind(*at);
                    q.push(" WHERE id = ").push_bind(game_id.clone()).push(";");
                }
            }
        }
        for chunk in events.chunks(ROWS_PER_INSERT) {
            push_events(&mut q, chunk);
            q.push(";");
        }
        q.push(" COMMIT;");
        let mut conn = self.writer.lock().await;
        let r = q.build().persistent(false).execute(&mut *conn).await;
        if let Err(e) = r {
            // Whatever statement failed, leave no transaction open.
            let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
            return Err(e.into());
        }
        Ok(())
    }

    /// The usual commit under play, moves and nothing else: one multi-row
    /// `INSERT` alone, its own transaction (atomic and durable as one), and
    /// a statement prepared once per number of rows and kept (the
    /// connection's cache). Against `BEGIN`, the `INSERT` and `COMMIT` sent
    /// as one text: no text parsed again, one result sent back from
    /// SQLite's thread instead of three, and no statement journal (SQLite
    /// keeps one, a copy of every page the statement changes, for a
    /// multi-row `INSERT` inside a transaction, to undo the statement alone).
    async fn insert_events(&self, events: &[(&str, &EventRow)]) -> Result<(), StoreError> {
        let mut q: QueryBuilder<Sqlite> = QueryBuilder::new("");
        push_events(&mut q, events);
        let mut conn = self.writer.lock().await;
        q.build().persistent(true).execute(&mut *conn).await?;
        Ok(())
    }

    async fn seats_of(&self, ids: &[&str]) -> Result<Vec<(String, SeatRow)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q: QueryBuilder<Sqlite> = QueryBuilder::new(
            "SELECT game_id, seat, kind, player, name, token_hash, account_id FROM seats WHERE game_id IN (",
        );
        let mut sep = q.separated(", ");
        for id in ids {
            sep.push_bind(*id);
        }
        q.push(") ORDER BY game_id, seat");
        let rows = q.build().fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok((r.try_get::<String, _>("game_id")?, seat_row(r)?))).collect()
    }
}

/// The columns the store reads, by name, from a row of either backend
/// (SQLite's or PostgreSQL's): one reader of each stored row for both.
pub(crate) trait Cols {
    /// A `TEXT` column.
    fn text(&self, c: &str) -> Result<String, StoreError>;
    /// A `TEXT` column that may be `NULL`.
    fn opt_text(&self, c: &str) -> Result<Option<String>, StoreError>;
    /// A `BIGINT` column.
    fn int(&self, c: &str) -> Result<i64, StoreError>;
    /// A `BIGINT` column that may be `NULL`.
    fn opt_int(&self, c: &str) -> Result<Option<i64>, StoreError>;
    /// An `INTEGER` column (four bytes in PostgreSQL) that may be `NULL`.
    fn opt_int32(&self, c: &str) -> Result<Option<i32>, StoreError>;
    /// A `DOUBLE PRECISION` column.
    fn real(&self, c: &str) -> Result<f64, StoreError>;
}

macro_rules! cols_for {
    ($row:ty) => {
        impl Cols for $row {
            fn text(&self, c: &str) -> Result<String, StoreError> {
                Ok(self.try_get(c)?)
            }
            fn opt_text(&self, c: &str) -> Result<Option<String>, StoreError> {
                Ok(self.try_get(c)?)
            }
            fn int(&self, c: &str) -> Result<i64, StoreError> {
                Ok(self.try_get(c)?)
            }
            fn opt_int(&self, c: &str) -> Result<Option<i64>, StoreError> {
                Ok(self.try_get(c)?)
            }
            fn opt_int32(&self, c: &str) -> Result<Option<i32>, StoreError> {
                Ok(self.try_get(c)?)
            }
            fn real(&self, c: &str) -> Result<f64, StoreError> {
                Ok(self.try_get(c)?)
            }
        }
    };
}
cols_for!(sqlx::sqlite::SqliteRow);
cols_for!(sqlx::postgres::PgRow);

pub(crate) fn seat_row(r: &impl Cols) -> Result<SeatRow, StoreError> {
    Ok(SeatRow {
        seat: r.opt_int32("seat")?.unwrap_or(0).max(0) as usize,
        kind: match r.text("kind")?.as_str() {
            "computer" => SeatKind::Computer,
            _ => SeatKind::Human,
        },
        player: r.opt_text("player")?,
        name: r.opt_text("name")?,
        token_hash: r.opt_text("token_hash")?,
        account: r.opt_text("account_id")?,
    })
}

pub(crate) fn game_row(r: &impl Cols) -> Result<GameRow, StoreError> {
    let options = r.text("options")?;
    let status = r.text("status")?;
    Ok(GameRow {
        id: r.text("id")?,
        game: r.text("game")?,
        variant: r.opt_text("variant")?,
        options: serde_json::from_str(&options).map_err(|e| StoreError(format!("stored options: {e}")))?,
        seed: r.int("seed")? as u64,
        status: Status::parse(&status).ok_or_else(|| StoreError(format!("stored status {status:?}")))?,
        result: r.opt_text("result")?,
        termination: r.opt_text("termination")?,
        ply: r.int("ply")? as u64,
        rematch_of: r.opt_text("rematch_of")?,
        rematch: r.opt_text("rematch")?,
        created_at: r.int("created_at")?,
        updated_at: r.int("updated_at")?,
        rated: r.int("rated")? != 0,
        clock: match r.opt_text("clock")? {
            Some(c) => Some(
                crate::clock::TimeControl::from_json(&c).map_err(|e| StoreError(format!("stored clock {c:?}: {e}")))?,
            ),
            None => None,
        },
    })
}

/// An event row (`version, kind, seat, data, at`).
pub(crate) fn event_row(r: &impl Cols) -> Result<EventRow, StoreError> {
    let k = r.text("kind")?;
    Ok(EventRow {
        version: r.int("version")? as u64,
        kind: EventKind::parse(&k).ok_or_else(|| StoreError(format!("stored event kind {k:?}")))?,
        seat: r.opt_int32("seat")?.map(|s| s.max(0) as usize),
        data: r.text("data")?,
        at: r.int("at")?,
    })
}

pub(crate) fn account_row(r: &impl Cols) -> Result<AccountRow, StoreError> {
    Ok(AccountRow {
        id: r.text("id")?,
        name: r.text("name")?,
        name_key: r.text("name_key")?,
        password: r.text("password")?,
        created_at: r.int("created_at")?,
        bot: r.int("bot")? != 0,
    })
}

/// The moves of game `g` on the board: its move events less the moves taken
/// back. A `takeback` event's data is exactly `{"plies":N}` (serde_json's
/// compact form of one key, `table/takeback.rs`): the number is read from
/// the tenth character, portably (SUBSTR and CAST exist in SQLite and
/// PostgreSQL alike).
pub(crate) const MOVES_SQL: &str = "((SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.kind = 'move') - \
     (SELECT COALESCE(SUM(CAST(SUBSTR(e.data, 10, LENGTH(e.data) - 10) AS BIGINT)), 0) FROM events e \
      WHERE e.game_id = g.id AND e.kind = 'takeback'))";

pub(crate) const GAME_COLUMNS: &str = "g.id, g.game, g.variant, g.options, g.seed, g.status, g.result, g.termination, \
     g.ply, g.rematch_of, g.rematch, g.created_at, g.updated_at, g.rated, g.clock";

impl Storage for SqliteStore {
    fn commit<'a>(&'a self, groups: &'a [Vec<WriteOp>]) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(self.commit_inner(groups))
    }

    fn take_blocking_committer(&self) -> Option<Box<dyn BlockingCommit>> {
        let c = self.committer.lock().ok()?.take()?;
        Some(Box::new(c))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFut<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games g WHERE g.id = ?"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            let Some(row) = row else { return Ok(None) };
            let game = game_row(&row)?;
            let seats = self.seats_of(&[id]).await?.into_iter().map(|(_, s)| s).collect();
            let rows =
                sqlx::query("SELECT version, kind, seat, data, at FROM events WHERE game_id = ? ORDER BY version")
                    .bind(id)
                    .fetch_all(&self.pool)
                    .await?;
            let events = rows.iter().map(event_row).collect::<Result<Vec<_>, StoreError>>()?;
            let chat = chat::last_of(&self.pool, id).await?;
            Ok(Some(StoredGame { game, seats, events, chat }))
        })
    }

    fn list<'a>(&'a self, q: &'a Listing) -> BoxFut<'a, Result<Vec<Listed>, StoreError>> {
        Box::pin(async move {
            let mut b: QueryBuilder<Sqlite> = QueryBuilder::new(format!(
                "SELECT {GAME_COLUMNS}, {MOVES_SQL} AS moves FROM games g WHERE g.status = "
            ));
            b.push_bind(q.status.as_str());
            if let Some((at, id)) = &q.after {
                b.push(" AND (updated_at < ").push_bind(*at);
                b.push(" OR (updated_at = ").push_bind(*at).push(" AND id < ").push_bind(id.as_str()).push("))");
            }
            b.push(" ORDER BY updated_at DESC, id DESC LIMIT ").push_bind(q.limit as i64);
            let rows = b.build().fetch_all(&self.pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                out.push(Listed { game: game_row(r)?, seats: Vec::new(), moves: r.try_get::<i64, _>("moves")? as u64 });
            }
            let ids: Vec<&str> = out.iter().map(|l| l.game.id.as_str()).collect();
            let seats = self.seats_of(&ids).await?;
            for (id, s) in seats {
                if let Some(l) = out.iter_mut().find(|l| l.game.id == id) {
                    l.seats.push(s);
                }
            }
            Ok(out)
        })
    }

    fn count_live(&self) -> BoxFut<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let n: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'live'").fetch_one(&self.pool).await?;
            Ok(n as u64)
        })
    }

    fn resumable(&self) -> BoxFut<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id FROM games g WHERE status = 'live' AND (clock IS NOT NULL OR EXISTS \
                 (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'computer')) ORDER BY updated_at",
            )
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(|r| Ok(r.try_get::<String, _>("id")?)).collect()
        })
    }

    fn create_account<'a>(&'a self, a: &'a AccountRow) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            let r =
                sqlx::query("INSERT INTO accounts (id, name, name_key, password, created_at) VALUES (?, ?, ?, ?, ?)")
                    .bind(&a.id)
                    .bind(&a.name)
                    .bind(&a.name_key)
                    .bind(&a.password)
                    .bind(a.created_at)
                    .execute(&mut *conn)
                    .await;
            match r {
                Ok(_) => Ok(true),
                Err(e) if is_unique_violation(&e) => Ok(false),
                Err(e) => Err(e.into()),
            }
        })
    }

    fn account_by_name<'a>(&'a self, name_key: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            self.account_where(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = ?"), name_key)
                .await
        })
    }

    fn insert_session<'a>(&'a self, s: &'a SessionRow) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            sqlx::query("DELETE FROM sessions WHERE expires_at <= ?").bind(s.created_at).execute(&mut *conn).await?;
            sqlx::query("INSERT INTO sessions (id_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
                .bind(&s.id_hash)
                .bind(&s.account_id)
                .bind(s.created_at)
                .bind(s.expires_at)
                .execute(&mut *conn)
                .await?;
            Ok(())
        })
    }

    fn session_account<'a>(&'a self, id_hash: &'a str, now: i64) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            let row = sqlx::query(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id \
                 WHERE s.id_hash = ? AND s.expires_at > ?"
            ))
            .bind(id_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
            row.as_ref().map(account_row).transpose()
        })
    }

    fn delete_session<'a>(&'a self, id_hash: &'a str) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            sqlx::query("DELETE FROM sessions WHERE id_hash = ?").bind(id_hash).execute(&mut *conn).await?;
            Ok(())
        })
    }

    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a str>,
    ) -> BoxFut<'a, Result<(), StoreError>> {
        Box::pin(async move {
            use sqlx::Connection;
            let mut conn = self.writer.lock().await;
            let mut tx = conn.begin().await?;
            sqlx::query("UPDATE accounts SET password = ? WHERE id = ?")
                .bind(password)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = ? AND id_hash <> ?")
                .bind(account_id)
                .bind(keep.unwrap_or(""))
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn insert_token<'a>(&'a self, t: &'a TokenRow, max: usize) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            let r = sqlx::query(
                "INSERT INTO access_tokens (id, account_id, label, token_hash, created_at) \
                 SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM access_tokens WHERE account_id = ?) < ?",
            )
            .bind(&t.id)
            .bind(&t.account_id)
            .bind(&t.label)
            .bind(&t.token_hash)
            .bind(t.created_at)
            .bind(&t.account_id)
            .bind(max as i64)
            .execute(&mut *conn)
            .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn tokens_of<'a>(&'a self, account_id: &'a str) -> BoxFut<'a, Result<Vec<TokenRow>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT id, account_id, label, token_hash, created_at FROM access_tokens WHERE account_id = ? \
                 ORDER BY created_at, id",
            )
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
            rows.iter()
                .map(|r| {
                    Ok(TokenRow {
                        id: r.try_get("id")?,
                        account_id: r.try_get("account_id")?,
                        label: r.try_get("label")?,
                        token_hash: r.try_get("token_hash")?,
                        created_at: r.try_get("created_at")?,
                    })
                })
                .collect()
        })
    }

    fn delete_token<'a>(&'a self, account_id: &'a str, id: &'a str) -> BoxFut<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut conn = self.writer.lock().await;
            let r = sqlx::query("DELETE FROM access_tokens WHERE id = ? AND account_id = ?")
                .bind(id)
                .bind(account_id)
                .execute(&mut *conn)
                .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn token_account<'a>(&'a self, token_hash: &'a str) -> BoxFut<'a, Result<Option<AccountRow>, StoreError>> {
        Box::pin(async move {
            self.account_where(
                &format!(
                    "SELECT {ACCOUNT_COLUMNS} FROM access_tokens t JOIN accounts a ON a.id = t.account_id \
                     WHERE t.token_hash = ?"
                ),
                token_hash,
            )
            .await
        })
    }
}

const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.name_key, a.password, a.created_at, a.bot";

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl SqliteStore {
    async fn account_where(&self, sql: &str, key: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(sql).bind(key).fetch_optional(&self.pool).await?;
        row.as_ref().map(account_row).transpose()
    }
}

struct Pending {
    ops: Vec<WriteOp>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// What the writer is sent: one caller's writes, or several callers' at
/// once (one transaction, as under load: [`Writer::commit_all`]).
enum Queued {
    One(Pending),
    Many(Vec<Pending>),
}

impl Queued {
    fn add_to(self, batch: &mut Vec<Pending>) {
        match self {
            Queued::One(p) => batch.push(p),
            Queued::Many(ps) => batch.extend(ps),
        }
    }
}

/// Counters of the writer.
#[derive(Debug, Default)]
pub struct WriterStats {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Groups of writes committed (one per caller).
    pub groups: AtomicU64,
    /// Groups refused.
    pub failures: AtomicU64,
    /// Time spent committing, in microseconds.
    pub commit_micros: AtomicU64,
    /// The longest commit, in microseconds.
    pub max_commit_micros: AtomicU64,
    /// The duration of every commit (served at `/metrics`).
    pub(crate) commit_seconds: crate::metrics::Histogram,
    /// Transactions the writer delayed, waiting for more writes before
    /// committing (`--commit-delay`).
    pub delays: AtomicU64,
}

impl WriterStats {
    fn timed(&self, took: Duration) {
        self.commit_seconds.observe(took);
        let us = took.as_micros() as u64;
        self.commit_micros.fetch_add(us, Ordering::Relaxed);
        self.max_commit_micros.fetch_max(us, Ordering::Relaxed);
    }
    fn committed(&self, groups: usize) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.groups.fetch_add(groups as u64, Ordering::Relaxed);
    }
    fn failed(&self, e: &StoreError) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        tracing::error!("commit failed: {e}");
    }
}

/// The group commit's delay by default (`plateau serve --commit-delay`).
pub const DEFAULT_COMMIT_DELAY: Duration = Duration::from_micros(DEFAULT_COMMIT_DELAY_MICROS);
/// [`DEFAULT_COMMIT_DELAY`] in microseconds.
pub const DEFAULT_COMMIT_DELAY_MICROS: u64 = 2_000;
/// The longest delay an operator may set: a delay holds every write of a
/// busy server that long before its commit starts.
pub const MAX_COMMIT_DELAY: Duration = Duration::from_micros(MAX_COMMIT_DELAY_MICROS);
/// [`MAX_COMMIT_DELAY`] in microseconds.
pub const MAX_COMMIT_DELAY_MICROS: u64 = 5_000;
/// With this many callers' writes already waiting, the writer commits
/// without delay: the commit's cost is already shared enough.
const DELAY_BELOW: usize = 64;

/// When the writer delays a transaction (issue 21, fourth round; as
/// PostgreSQL's `commit_delay` and `commit_siblings`): on waking with writes
/// of fewer than [`DELAY_BELOW`] callers, if writes are coming concurrently
/// (two callers' or more waiting now, or in the last transaction when it
/// ended less than `delay` ago), it sleeps `delay` once and takes every
/// write that came meanwhile into the same transaction. A lone caller
/// writing again and again (one game played fast) is never delayed: each of
/// its transactions holds one group. Only the SQLite file's writer thread
/// delays; PostgreSQL has its own `commit_delay`.
#[derive(Clone, Copy, Debug)]
struct Delay {
    delay: Duration,
    /// Groups in the last transaction, and when it ended.
    last: usize,
    ended: Option<std::time::Instant>,
}

impl Delay {
    fn new(delay: Duration) -> Delay {
        Delay { delay: delay.min(MAX_COMMIT_DELAY), last: 0, ended: None }
    }

    /// Whether to wait before committing these `waiting` callers' writes.
    fn wait(&self, waiting: usize) -> bool {
        if self.delay.is_zero() || waiting >= DELAY_BELOW {
            return false;
        }
        waiting >= 2 || (self.last >= 2 && self.ended.is_some_and(|t| t.elapsed() <= self.delay))
    }

    fn committed(&mut self, groups: usize) {
        self.last = groups;
        self.ended = Some(std::time::Instant::now());
    }
}

/// The group-commit writer: one task (or, for a SQLite file, one thread of
/// its own) that commits every waiting write of every game in one
/// transaction.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::UnboundedSender<Queued>,
    /// Its counters.
    pub stats: Arc<WriterStats>,
}

/// At most this many groups per transaction.
const MAX_GROUPS: usize = 1024;

/// Take the first waiting message and every other one waiting (up to
/// [`MAX_GROUPS`] callers) into `batch`; the groups of writes to commit.
fn gather(first: Queued, rx: &mut mpsc::UnboundedReceiver<Queued>, batch: &mut Vec<Pending>) -> Vec<Vec<WriteOp>> {
    first.add_to(batch);
    gather_more(rx, batch);
    batch.iter_mut().map(|p| std::mem::take(&mut p.ops)).collect()
}

/// Take every message waiting (up to [`MAX_GROUPS`] callers in `batch`).
fn gather_more(rx: &mut mpsc::UnboundedReceiver<Queued>, batch: &mut Vec<Pending>) {
    while batch.len() < MAX_GROUPS {
        match rx.try_recv() {
            Ok(q) => q.add_to(batch),
            Err(_) => break,
        }
    }
}

impl Writer {
    /// Start the writer: on a thread of its own when the store gives a
    /// blocking committer (a SQLite file), else as a task on the current
    /// runtime.
    pub fn spawn(store: Arc<dyn Storage>) -> Writer {
        Writer::spawn_with(store, DEFAULT_COMMIT_DELAY)
    }

    /// [`Writer::spawn`], the group commit's delay given (capped at
    /// [`MAX_COMMIT_DELAY`]; zero: no delay). Only the SQLite file's writer
    /// thread delays.
    pub fn spawn_with(store: Arc<dyn Storage>, delay: Duration) -> Writer {
        let (writer, rx) = Writer::unstarted();
        writer.start(rx, store, delay);
        writer
    }

    /// A writer whose loop has not started: its callers' writes wait in
    /// the channel until [`Writer::start`] is given its receiving end.
    fn unstarted() -> (Writer, mpsc::UnboundedReceiver<Queued>) {
        let (tx, rx) = mpsc::unbounded_channel::<Queued>();
        (Writer { tx, stats: Arc::new(WriterStats::default()) }, rx)
    }

    /// Start the loop of [`Writer::spawn_with`] on `rx`.
    fn start(&self, rx: mpsc::UnboundedReceiver<Queued>, store: Arc<dyn Storage>, delay: Duration) {
        let st = self.stats.clone();
        match store.take_blocking_committer() {
            Some(committer) => {
                let spawned = std::thread::Builder::new()
                    .name("plateau-writer".into())
                    .spawn(move || Writer::run_blocking(rx, committer, st, Delay::new(delay)));
                if let Err(e) = spawned {
                    // No thread, no writer: every commit fails (the channel
                    // is closed), as when the writer stops.
                    tracing::error!("starting the writer's thread: {e}");
                }
            }
            None => {
                tokio::spawn(Writer::run(rx, store, st));
            }
        }
    }

    /// The writer's task: each transaction through [`Storage::commit`].
    async fn run(mut rx: mpsc::UnboundedReceiver<Queued>, store: Arc<dyn Storage>, st: Arc<WriterStats>) {
        let mut batch: Vec<Pending> = Vec::new();
        while let Some(first) = rx.recv().await {
            let groups = gather(first, &mut rx, &mut batch);
            let t = std::time::Instant::now();
            let r = store.commit(&groups).await;
            st.timed(t.elapsed());
            match r {
                Ok(()) => {
                    st.committed(batch.len());
                    for p in batch.drain(..) {
                        let _ = p.done.send(Ok(()));
                    }
                }
                Err(e) if batch.len() == 1 => {
                    st.failed(&e);
                    for p in batch.drain(..) {
                        let _ = p.done.send(Err(e.clone()));
                    }
                }
                Err(_) => {
                    // One bad group must not sink the others: commit each alone.
                    for (p, g) in batch.drain(..).zip(groups.chunks(1)) {
                        let r = store.commit(g).await;
                        match &r {
                            Ok(()) => st.committed(1),
                            Err(e) => st.failed(e),
                        }
                        let _ = p.done.send(r);
                    }
                }
            }
        }
    }

    /// The writer's own thread: the same loop, each transaction through
    /// the blocking committer; callers are answered through their oneshots
    /// from here. It ends when every [`Writer`] is dropped.
    fn run_blocking(
        mut rx: mpsc::UnboundedReceiver<Queued>,
        mut committer: Box<dyn BlockingCommit>,
        st: Arc<WriterStats>,
        mut delay: Delay,
    ) {
        let mut batch: Vec<Pending> = Vec::new();
        while let Some(first) = rx.blocking_recv() {
            let mut groups = gather(first, &mut rx, &mut batch);
            if delay.wait(batch.len()) {
                // Callers only wake this thread when it waits on the
                // channel: while it sleeps, their writes cost them nothing
                // more than queueing.
                std::thread::sleep(delay.delay);
                st.delays.fetch_add(1, Ordering::Relaxed);
                let seen = batch.len();
                gather_more(&mut rx, &mut batch);
                groups.extend(batch[seen..].iter_mut().map(|p| std::mem::take(&mut p.ops)));
            }
            let t = std::time::Instant::now();
            let r = committer.commit(&groups);
            st.timed(t.elapsed());
            delay.committed(batch.len());
            match r {
                Ok(()) => {
                    st.committed(batch.len());
                    for p in batch.drain(..) {
                        let _ = p.done.send(Ok(()));
                    }
                }
                Err(e) if batch.len() == 1 => {
                    st.failed(&e);
                    for p in batch.drain(..) {
                        let _ = p.done.send(Err(e.clone()));
                    }
                }
                Err(_) => {
                    // One bad group must not sink the others: commit each alone.
                    for (p, g) in batch.drain(..).zip(groups.chunks(1)) {
                        let r = committer.commit(g);
                        match &r {
                            Ok(()) => st.committed(1),
                            Err(e) => st.failed(e),
                        }
                        let _ = p.done.send(r);
                    }
                }
            }
        }
    }

    /// Commit these writes (all or nothing); returns once they are durable.
    pub async fn commit(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        let (done, rx) = oneshot::channel();
        self.tx.send(Queued::One(Pending { ops, done })).map_err(|_| StoreError("the writer has stopped".into()))?;
        rx.await.map_err(|_| StoreError("the writer has stopped".into()))?
    }

    /// Commit several callers' writes queued at once, in one transaction
    /// unless one group is refused (then each alone, as when the writer
    /// finds them waiting together): each group's result, in order, once
    /// durable. For the benchmark and the tests, whose groups must meet in
    /// one transaction whatever the threads' timing.
    pub async fn commit_all(&self, groups: Vec<Vec<WriteOp>>) -> Vec<Result<(), StoreError>> {
        let stopped = || StoreError("the writer has stopped".into());
        let (pending, waits): (Vec<Pending>, Vec<_>) = groups
            .into_iter()
            .map(|ops| {
                let (done, rx) = oneshot::channel();
                (Pending { ops, done }, rx)
            })
            .unzip();
        if self.tx.send(Queued::Many(pending)).is_err() {
            return waits.iter().map(|_| Err(stopped())).collect();
        }
        let mut out = Vec::with_capacity(waits.len());
        for w in waits {
            out.push(w.await.unwrap_or_else(|_| Err(stopped())));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow::live(id.into(), "abalone", 1, 0)
    }

    fn mv(game_id: &str, version: u64, text: &str) -> WriteOp {
        WriteOp::InsertEvent {
            game_id: game_id.into(),
            event: EventRow { version, kind: EventKind::Move, seat: Some(0), data: text.into(), at: version as i64 },
        }
    }

    fn moves_of(g: &Option<StoredGame>) -> Vec<(u64, String)> {
        g.as_ref().map(|g| g.events.iter().map(|e| (e.version, e.data.clone())).collect()).unwrap_or_default()
    }

    /// Only commits of events (and fences) take the one-`INSERT` way.
    #[test]
    fn events_alone_only_for_commits_of_events() {
        let fence = WriteOp::Fence { game_id: "a".into(), owner: "i".into(), epoch: 1 };
        let groups = vec![vec![fence, mv("a", 1, "x")], vec![mv("b", 3, "y")]];
        let alone = events_alone(&groups).unwrap();
        assert_eq!(alone.iter().map(|(g, e)| (*g, e.version)).collect::<Vec<_>>(), [("a", 1), ("b", 3)]);
        let seat = WriteOp::UpdateSeat { game_id: "a".into(), seat: 0, name: None, token_hash: None, account: None };
        assert!(events_alone(&[vec![mv("a", 1, "x")], vec![seat]]).is_none());
        assert!(events_alone(&[vec![], vec![]]).is_none());
        let many: Vec<Vec<WriteOp>> = (0..=ROWS_PER_INSERT as u64).map(|v| vec![mv("a", v + 1, "x")]).collect();
        assert!(events_alone(&many).is_none());
    }

    /// Moves of several games committed together are stored and read
    /// back after the database is opened again; a group the database
    /// refuses (a version already stored) fails alone, and the others of
    /// its transaction are still written.
    #[test]
    fn moves_committed_together_survive_and_a_bad_group_fails_alone() {
        let dir = std::env::temp_dir().join(format!("plateau-store-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("t.sqlite").display());
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Full).await.unwrap();
            let writer = Writer::spawn(store.clone());
            for id in ["a", "b"] {
                writer.commit(vec![WriteOp::InsertGame { game: game(id), seats: vec![] }]).await.unwrap();
            }
            // The writer took the store's own connection, to its thread.
            assert!(store.take_blocking_committer().is_none());
            writer.commit(vec![mv("a", 1, "a1")]).await.unwrap();
            // Queued at once: one transaction, then each group alone.
            let groups = vec![vec![mv("a", 2, "a2")], vec![mv("b", 1, "b1")], vec![mv("a", 1, "again")]];
            let results: Vec<bool> = writer.commit_all(groups).await.iter().map(Result::is_ok).collect();
            assert_eq!(results, [true, true, false]);
            // Queued one by one from tasks, as the tables queue them.
            let waits: Vec<_> = [vec![mv("b", 2, "b2")], vec![mv("b", 2, "b2 again")], vec![mv("a", 3, "a3")]]
                .into_iter()
                .map(|ops| {
                    let w = writer.clone();
                    tokio::spawn(async move { w.commit(ops).await })
                })
                .collect();
            let mut results = Vec::new();
            for w in waits {
                results.push(w.await.unwrap().is_ok());
            }
            assert_eq!(results, [true, false, true]);
            assert_eq!(writer.stats.failures.load(Ordering::Relaxed), 2);
        });
        drop(rt);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Full).await.unwrap();
            assert_eq!(
                moves_of(&store.load("a").await.unwrap()),
                [(1, "a1".into()), (2, "a2".into()), (3, "a3".into())]
            );
            assert_eq!(moves_of(&store.load("b").await.unwrap()), [(1, "b1".into()), (2, "b2".into())]);
        });
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every kind of write the writer's thread makes (a game and its seats,
    /// a seat taken, moves, chat, a status change) is read back as written
    /// after the database is opened again, through the sqlx pool; a
    /// transaction the database refuses half-way (a move of a game not
    /// stored, after a valid one) leaves nothing of itself.
    #[test]
    fn every_kind_of_write_through_the_thread_survives_reopening() {
        let dir = std::env::temp_dir().join(format!("plateau-store-kinds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("t.sqlite").display());
        let mut row = game("g");
        row.variant = Some("belgian-daisy".into());
        row.status = Status::Open;
        let seats = vec![
            SeatRow::open(0),
            SeatRow {
                seat: 1,
                kind: SeatKind::Computer,
                player: Some("mcts:100".into()),
                name: Some("Bot".into()),
                token_hash: None,
                account: None,
            },
        ];
        let message = chat::ChatRow { n: 1, seat: Some(0), name: "Ann".into(), text: "hello \"you\"".into(), at: 5 };
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Normal).await.unwrap();
            let writer = Writer::spawn(store.clone());
            writer.commit(vec![WriteOp::InsertGame { game: row.clone(), seats: seats.clone() }]).await.unwrap();
            let taken = WriteOp::UpdateSeat {
                game_id: "g".into(),
                seat: 0,
                name: Some("Ann".into()),
                token_hash: Some("ab12".into()),
                account: None,
            };
            let live = WriteOp::UpdateGame {
                game_id: "g".into(),
                status: Status::Live,
                result: None,
                termination: None,
                ply: 0,
                rematch: None,
                seed: 77,
                at: 9,
            };
            writer.commit(vec![taken, live]).await.unwrap();
            writer
                .commit(vec![mv("g", 1, "a1b2"), WriteOp::InsertChat { game_id: "g".into(), message: message.clone() }])
                .await
                .unwrap();
            // A valid move, then one of a game that does not exist: all of
            // the transaction is refused.
            assert!(writer.commit(vec![mv("g", 2, "i5h5"), mv("nowhere", 1, "x")]).await.is_err());
        });
        drop(rt);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Normal).await.unwrap();
            let g = store.load("g").await.unwrap().unwrap();
            let mut expected = row.clone();
            expected.status = Status::Live;
            expected.seed = 77;
            expected.updated_at = 9;
            assert_eq!(g.game, expected);
            let mut seats = seats.clone();
            seats[0].name = Some("Ann".into());
            seats[0].token_hash = Some("ab12".into());
            assert_eq!(g.seats, seats);
            assert_eq!(moves_of(&Some(g.clone())), [(1, "a1b2".into())]);
            assert_eq!(g.chat, [message]);
            assert!(store.load("nowhere").await.unwrap().is_none());
        });
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The delay's rule, worked by hand: never at zero or with many callers
    /// waiting; with two callers or more waiting; with one, only when the
    /// last transaction held several and ended within the delay; capped.
    #[test]
    fn when_the_writer_delays() {
        let ms = Duration::from_millis;
        let fresh = Delay::new(ms(1));
        assert!(!fresh.wait(1));
        assert!(fresh.wait(2));
        assert!(fresh.wait(DELAY_BELOW - 1));
        assert!(!fresh.wait(DELAY_BELOW));
        assert!(!Delay::new(Duration::ZERO).wait(2));
        let mut d = Delay::new(ms(1));
        d.committed(1);
        assert!(!d.wait(1), "a lone caller writing again is not delayed");
        d.committed(3);
        assert!(d.wait(1), "writes came concurrently just now");
        d.ended = Some(std::time::Instant::now() - ms(50));
        assert!(!d.wait(1), "the last transaction ended long before");
        assert!(d.wait(2));
        assert_eq!(Delay::new(Duration::from_secs(1)).delay, MAX_COMMIT_DELAY);
        assert_eq!(Delay::new(ms(1)).delay, ms(1));
    }

    /// Callers' writes found waiting together are delayed once and land in
    /// one transaction (the writer's loop starts only once all nine are
    /// queued, whatever the threads' timing), and are all read back after
    /// the database is opened again; a lone caller writing again and again
    /// is never delayed, and every write resolves (a generous wait, not a
    /// measure of speed). Writes arriving during the delay: the rule is
    /// [`when_the_writer_delays`]'s.
    #[test]
    fn writes_within_the_delay_share_one_transaction() {
        let dir = std::env::temp_dir().join(format!("plateau-store-delay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let url = format!("sqlite://{}", dir.join("t.sqlite").display());
        let ids: Vec<String> = (0..8).map(|i| format!("g{i}")).collect();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Full).await.unwrap();
            let (writer, rx) = Writer::unstarted();
            let count = |c: &AtomicU64| c.load(Ordering::Relaxed);
            let generous = Duration::from_secs(30);
            // Each caller from its own task, in order: the games first.
            let games: Vec<WriteOp> =
                ids.iter().map(|id| WriteOp::InsertGame { game: game(id), seats: vec![] }).collect();
            let w = writer.clone();
            let mut waits = vec![tokio::spawn(async move { w.commit(games).await })];
            while rx.is_empty() {
                tokio::task::yield_now().await;
            }
            waits.extend(ids.iter().map(|id| {
                let w = writer.clone();
                let op = mv(id, 1, "y");
                tokio::spawn(async move { w.commit(vec![op]).await })
            }));
            while rx.len() < waits.len() {
                tokio::task::yield_now().await;
            }
            writer.start(rx, store.clone(), MAX_COMMIT_DELAY);
            for w in waits {
                tokio::time::timeout(generous, w).await.expect("a write was held").unwrap().unwrap();
            }
            assert_eq!(count(&writer.stats.commits), 1, "nine callers, one transaction");
            assert_eq!(count(&writer.stats.groups), 9);
            assert_eq!(count(&writer.stats.delays), 1);
            // One caller alone, again and again: one transaction each, none
            // delayed after its first (which follows the nine).
            let lone = |v: u64| tokio::time::timeout(generous, writer.commit(vec![mv("g0", v, "z")]));
            lone(2).await.expect("a lone write was held").unwrap();
            let (commits, delays) = (count(&writer.stats.commits), count(&writer.stats.delays));
            for v in 3..23 {
                lone(v).await.expect("a lone write was held").unwrap();
            }
            assert_eq!(count(&writer.stats.commits), commits + 20);
            assert_eq!(count(&writer.stats.delays), delays, "a lone caller is never delayed");
        });
        drop(rt);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let store = open(&url, Durability::Full).await.unwrap();
            for id in &ids {
                let moves = moves_of(&store.load(id).await.unwrap());
                let expected: Vec<(u64, String)> = if id == "g0" {
                    std::iter::once((1, "y")).chain((2..23).map(|v| (v, "z"))).map(|(v, t)| (v, t.into())).collect()
                } else {
                    vec![(1, "y".into())]
                };
                assert_eq!(moves, expected, "{id}");
            }
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
}
