//! Finding an opponent: seeks, quick pairing, challenges, and the lobby's
//! WebSocket (`docs/server.md`, *Finding an opponent*).
//!
//! - A **seek** is a two-seat game someone waits for: its set-up is checked
//!   when it is posted (the game's own validation, the clock, the rules of
//!   rated games), and whoever accepts it starts the game at once, both
//!   seats taken, in an order drawn at random. A guest owns its seek by a
//!   secret token (only its SHA-256 is kept), an account by being logged in.
//! - **Quick pairing** accepts the oldest compatible seek (same game, the
//!   default variant and options, same clock, same rated-ness, a rating
//!   range that allows the acceptor, another account and another address),
//!   or else posts one, in one step under the lobby's lock: two people
//!   asking at once never leave two compatible seeks waiting.
//! - A **challenge** is a game offered by one account to another by name.
//! - The **lobby socket** (`socket.rs`) gets the public list of seeks on
//!   connect and after every change, and its owner's private news: a seek
//!   matched (with the seat's token), challenges made, accepted, declined,
//!   cancelled or expired.
//!
//! On SQLite (one instance) everything here lives in memory, behind one
//! mutex: seeks and challenges vanish when the server stops. On PostgreSQL
//! (several instances, issue 16) the tables `lobby_seeks` and
//! `lobby_challenges` are the truth, and this memory is each instance's copy
//! of them, read again on every `NOTIFY plateau_lobby` (`shared.rs`): every
//! change is written there first, under one advisory lock, and the copy is
//! what lists, sockets and reads use. Either way the list is serialized once
//! per change, at most every [`COALESCE`] (a burst of changes is one frame),
//! and the same bytes go to every socket, so that a change costs one
//! serialization and a reference count per socket, never a serialization per
//! socket.
//!
//! Caps: [`SEEKS_PER_OWNER`] open seeks per account (a guest: per client
//! address), one per game and clock, [`MAX_SEEKS`] in all; a seek expires
//! [`SOCKET_GRACE`] after its owner's last lobby socket closed, or
//! [`UNWATCHED_SEEK`] after it was posted if no socket of its owner ever
//! followed it; [`CHALLENGES_PER_ACCOUNT`] outgoing challenges per account,
//! each lasting [`CHALLENGE_TTL`] ([`CORRESPONDENCE_CHALLENGE_TTL`] with a
//! correspondence clock).

mod challenges;
mod seeks;
mod shared;
mod socket;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::Extension;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::Utf8Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use plateau_core::{Options, Seat};
use plateau_rating::Rating;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc, oneshot, watch};

pub(crate) use challenges::{accept_challenge, cancel_challenge, decline_challenge, list_challenges, post_challenge};
pub(crate) use seeks::{accept_seek, cancel_seek, get_seek, list_seeks, post_seek, presets, quick};
pub(crate) use socket::upgrade;

use crate::AppState;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::ids;
use crate::state::{CreateRequest, Holder, OptionValue, new_match_checked, options_of, rated_setup};
use crate::store::AccountRow;

/// Open seeks in all.
pub const MAX_SEEKS: usize = 2_000;
/// Open seeks of one account, or of the guests of one client address.
pub const SEEKS_PER_OWNER: usize = 5;
/// Open seeks from one client address (IPv6: one /64), whoever owns them:
/// accounts are cheap, an address is not.
pub const SEEKS_PER_ADDRESS: usize = 20;
/// Challenges one account may have waiting for it.
pub const CHALLENGES_TO_ACCOUNT: usize = 50;
/// Seeks a guest's `hello` may name (more than it may own).
pub const HELLO_SEEKS: usize = 10;
/// A seek lasts this long after its owner's last lobby socket closed.
pub const SOCKET_GRACE: Duration = Duration::from_secs(30);
/// A seek no socket of its owner ever followed lasts this long.
pub const UNWATCHED_SEEK: Duration = Duration::from_secs(30 * 60);
/// A matched seek stays readable by its owner this long (to learn its seat).
pub const MATCHED_KEPT: Duration = Duration::from_secs(10 * 60);
/// Outgoing challenges of one account at once.
pub const CHALLENGES_PER_ACCOUNT: usize = 20;
/// A challenge lasts this long.
pub const CHALLENGE_TTL: Duration = Duration::from_secs(10 * 60);
/// A challenge to a correspondence game lasts this long.
pub const CORRESPONDENCE_CHALLENGE_TTL: Duration = Duration::from_secs(3 * 24 * 3600);
/// The bounds of a rating range.
pub const RATING_BOUNDS: std::ops::RangeInclusive<i64> = 0..=4000;
/// Changes within this time make one frame of the list.
pub const COALESCE: Duration = Duration::from_millis(100);
/// How often expired seeks and challenges are removed.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Quick pairing's time controls per game, for the UI: `(initial,
/// increment)` in seconds. A game not listed gets [`DEFAULT_PRESETS`].
/// Quick pairing takes any valid clock; these are suggestions.
pub const PRESETS: &[(&str, &[(u64, u64)])] = &[
    ("abalone", &[(300, 3), (600, 5), (900, 10)]),
    ("colorito", &[(300, 3), (600, 5)]),
    ("kabaleo", &[(180, 2), (300, 3)]),
    ("abraxas", &[(600, 5), (900, 10)]),
];
/// The presets of a game [`PRESETS`] does not list.
pub const DEFAULT_PRESETS: &[(u64, u64)] = &[(300, 3), (600, 5)];

/// What the lobby shares: seeks, challenges and the sockets, behind one
/// lock; the latest frame of the list, for every socket; on PostgreSQL, the
/// tables every instance shares.
pub(crate) struct Lobby {
    inner: Mutex<Inner>,
    list: watch::Sender<Utf8Bytes>,
    changed: Arc<Notify>,
    /// The shared tables (PostgreSQL only).
    db: Option<shared::Db>,
    /// Dropped with the lobby: its tasks on the database end.
    _halt: oneshot::Sender<()>,
}

/// An account as the lobby keeps it (never its password hash).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Member {
    id: String,
    name: String,
    name_key: String,
    created_at: i64,
}

impl Member {
    fn of(a: &AccountRow) -> Member {
        Member { id: a.id.clone(), name: a.name.clone(), name_key: a.name_key.clone(), created_at: a.created_at }
    }
    /// The account as a seat's holder (the password is not needed there).
    fn holder(&self) -> Holder {
        Holder::Account(AccountRow {
            id: self.id.clone(),
            name: self.name.clone(),
            name_key: self.name_key.clone(),
            password: String::new(),
            created_at: self.created_at,
            // A table does not read it.
            bot: false,
        })
    }
}

/// A game's set-up, as checked: what a seek or a challenge offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Terms {
    game: &'static str,
    variant: &'static str,
    options: Options,
    clock: Option<TimeControl>,
    rated: bool,
}

impl Terms {
    /// Check a set-up: the game, variant and options by the game's own
    /// rules and the caps on work, two seats, the clock, and for a rated
    /// game an account and fair options.
    #[allow(clippy::too_many_arguments)]
    fn check(
        st: &AppState,
        game: &str,
        variant: Option<&str>,
        options: &BTreeMap<String, OptionValue>,
        clock: Option<&Value>,
        rated: bool,
        account: bool,
    ) -> Result<Terms, ApiError> {
        let bad = |m: String| ApiError::bad_request("bad_setup", m);
        if game.len() > 64 || variant.is_some_and(|v| v.len() > 64) {
            return Err(bad("the game or variant name is too long".into()));
        }
        let entry = st.0.ctx.registry.get(game).map_err(|e| bad(e.to_string()))?;
        let info = entry.info();
        let opts = options_of(options)?;
        let setup = plateau_core::Setup { variant: variant.map(str::to_string), options: opts.clone(), seed: 0 };
        let m = new_match_checked(entry, &setup)?;
        if m.seats() != 2 {
            return Err(bad(format!(
                "seeks and challenges are for two players, and this set-up of {} has {} seats",
                info.title,
                m.seats()
            )));
        }
        let clock = match clock {
            None | Some(Value::Null) => None,
            Some(v) => Some(TimeControl::parse(v).map_err(|e| ApiError::bad_request("bad_clock", e))?),
        };
        if rated {
            if !account {
                return Err(account_required());
            }
            rated_setup(info, options)?;
        }
        // Custom positions (text and content options, up to kilobytes each)
        // are played by invitation link: the public list stays small.
        if let Some(k) = options.keys().find(|k| {
            info.options.iter().any(|o| {
                o.name == k.as_str()
                    && matches!(o.kind, plateau_core::OptionKind::Text | plateau_core::OptionKind::Content)
            })
        }) {
            return Err(bad(format!(
                "the option {k} sets up a custom position: invite someone with the game's link instead"
            )));
        }
        Ok(Terms { game: info.name, variant: m.variant(), options: opts, clock, rated })
    }

    /// The request that creates the game.
    fn request(&self) -> Result<CreateRequest, ApiError> {
        serde_json::from_value(json!({
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
            "rated": self.rated,
            "clock": self.clock.map(TimeControl::json),
        }))
        .map_err(|e| ApiError::internal(format!("the game's set-up: {e}")))
    }

    /// The fields clients see.
    fn fill(&self, v: &mut serde_json::Map<String, Value>) {
        v.insert("game".into(), json!(self.game));
        v.insert("variant".into(), json!(self.variant));
        v.insert("options".into(), json!(self.options));
        v.insert("clock".into(), self.clock.map_or(Value::Null, TimeControl::json));
        v.insert("rated".into(), json!(self.rated));
    }

    fn is_correspondence(&self) -> bool {
        self.clock.is_some_and(TimeControl::is_correspondence)
    }

    /// As stored in the shared tables.
    fn to_json(&self) -> Value {
        let mut v = serde_json::Map::new();
        self.fill(&mut v);
        Value::Object(v)
    }

    /// Terms as stored by [`Terms::to_json`] (by this or another instance).
    fn from_json(registry: &plateau_core::Registry, v: &Value) -> Result<Terms, String> {
        let game = v["game"].as_str().ok_or("no game")?;
        let info = registry.get(game).map_err(|e| e.to_string())?.info();
        let variant = v["variant"].as_str().ok_or("no variant")?;
        let variant = match info.variants.iter().find(|x| x.name == variant) {
            Some(x) => x.name,
            None => {
                let setup = plateau_core::Setup { variant: Some(variant.to_string()), ..Default::default() };
                registry.get(game).and_then(|e| e.new_match(&setup)).map_err(|e| e.to_string())?.variant()
            }
        };
        let options: Options = serde_json::from_value(v["options"].clone()).map_err(|e| e.to_string())?;
        let clock = match &v["clock"] {
            Value::Null => None,
            c => Some(TimeControl::parse(c)?),
        };
        let rated = v["rated"].as_bool().ok_or("no rated")?;
        Ok(Terms { game: info.name, variant, options, clock, rated })
    }
}

/// Who owns a seek.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Owner {
    Account(Member),
    /// A guest, known by its seek's token.
    Guest {
        name: Option<String>,
        token_hash: String,
    },
}

/// What caps are counted by: an account, or a client address for guests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OwnerKey<'a> {
    Account(&'a str),
    Addr(IpAddr),
}

#[derive(Clone, Debug)]
enum SeekState {
    /// Listed, waiting.
    Open,
    /// Accepted, its game being made.
    Taken,
    /// Its game exists: the owner's seat and token.
    Matched { game: String, seat: Seat, token: String, at: Instant },
}

#[derive(Clone, Debug)]
struct Seek {
    id: String,
    owner: Owner,
    /// The poster's client address (IPv6: its /64).
    addr: IpAddr,
    terms: Terms,
    rating_min: Option<i64>,
    rating_max: Option<i64>,
    /// The owner's rating for the game when posted (accounts).
    rating: Option<Rating>,
    created_at: i64,
    posted: Instant,
    /// The lobby sockets that follow it (its owner's).
    followers: HashSet<u64>,
    /// When its last follower went away.
    left_at: Option<Instant>,
    state: SeekState,
}

impl Seek {
    fn key(&self) -> OwnerKey<'_> {
        match &self.owner {
            Owner::Account(m) => OwnerKey::Account(&m.id),
            Owner::Guest { .. } => OwnerKey::Addr(self.addr),
        }
    }

    fn is_open(&self) -> bool {
        matches!(self.state, SeekState::Open)
    }

    /// Whether its rating range allows a player rated `rating` (as shown:
    /// rounded to whole points).
    fn allows(&self, rating: f64) -> bool {
        let r = rating.round() as i64;
        self.rating_min.is_none_or(|m| r >= m) && self.rating_max.is_none_or(|m| r <= m)
    }

    fn account(&self) -> Option<&Member> {
        match &self.owner {
            Owner::Account(m) => Some(m),
            Owner::Guest { .. } => None,
        }
    }

    fn holder(&self) -> Holder {
        match &self.owner {
            Owner::Account(m) => m.holder(),
            Owner::Guest { name, .. } => Holder::Guest(name.clone()),
        }
    }

    /// Whether this token is the guest owner's.
    fn token_is(&self, token: &str) -> bool {
        match &self.owner {
            Owner::Guest { token_hash, .. } => ids::same_hash(token_hash, &ids::hash_token(token)),
            Owner::Account(_) => false,
        }
    }

    /// What everyone sees: never a token, never an address.
    fn public(&self) -> Value {
        let mut v = serde_json::Map::new();
        v.insert("id".into(), json!(self.id));
        self.terms.fill(&mut v);
        let (player, account) = match &self.owner {
            Owner::Account(m) => (Some(m.name.clone()), true),
            Owner::Guest { name, .. } => (name.clone(), false),
        };
        v.insert("player".into(), json!(player));
        v.insert("account".into(), json!(account));
        v.insert("rating".into(), json!(self.rating.map(|r| r.rating.round() as i64)));
        v.insert("provisional".into(), json!(self.rating.map(|r| r.is_provisional())));
        v.insert("rating_min".into(), json!(self.rating_min));
        v.insert("rating_max".into(), json!(self.rating_max));
        v.insert("created_at".into(), json!(self.created_at));
        Value::Object(v)
    }

    /// The frame telling its owner it was matched.
    fn matched_frame(&self) -> Option<Utf8Bytes> {
        match &self.state {
            SeekState::Matched { game, seat, token, .. } => Some(frame(&json!({
                "type": "matched", "seek": self.id, "game": game, "seat": seat, "token": token,
            }))),
            _ => None,
        }
    }
}

/// A challenge from one account to another.
#[derive(Clone, Debug)]
struct Challenge {
    id: String,
    from: Member,
    to: Member,
    terms: Terms,
    created_at: i64,
    expires_at: i64,
    deadline: Instant,
}

impl Challenge {
    fn json(&self, status: &str) -> Value {
        let mut v = serde_json::Map::new();
        v.insert("id".into(), json!(self.id));
        v.insert("from".into(), json!(self.from.name));
        v.insert("to".into(), json!(self.to.name));
        self.terms.fill(&mut v);
        v.insert("created_at".into(), json!(self.created_at));
        v.insert("expires_at".into(), json!(self.expires_at));
        v.insert("status".into(), json!(status));
        Value::Object(v)
    }
}

/// A lobby socket as the lobby knows it.
struct Sock {
    account: Option<String>,
    tx: mpsc::Sender<Utf8Bytes>,
    seeks: HashSet<String>,
}

/// The list, serialized once per change: the socket frame and the HTTP body.
struct ListCache {
    version: u64,
    frame: Utf8Bytes,
    body: Bytes,
}

#[derive(Default)]
struct Inner {
    /// Seeks by the order they were posted (oldest first; on PostgreSQL,
    /// read) …
    seeks: BTreeMap<u64, Seek>,
    /// … and by id.
    index: HashMap<String, u64>,
    challenges: BTreeMap<u64, Challenge>,
    challenge_index: HashMap<String, u64>,
    socks: HashMap<u64, Sock>,
    by_account: HashMap<String, HashSet<u64>>,
    seq: u64,
    /// Bumped on every change of the public list.
    version: u64,
    cache: Option<ListCache>,
    published: u64,
    /// Serializations of the list so far.
    builds: u64,
    /// A socket followed a seek since the followed seeks were last renewed
    /// in the shared tables (PostgreSQL).
    followed: bool,
    /// Seeks whose last follower here went away, their grace not yet
    /// written in the shared tables (PostgreSQL).
    released: Vec<String>,
    /// Challenges accepted lately, each party's news (with `"again":
    /// true`) until [`ACCEPTED_KEPT`] after: a lobby socket of that account
    /// opened meanwhile gets it on connect (a bot accepts at once, before
    /// the challenger's page has its socket again).
    accepted: Vec<(Instant, String, Utf8Bytes)>,
}

/// How long the news of an accepted challenge is told again to its
/// parties' new lobby sockets.
const ACCEPTED_KEPT: Duration = Duration::from_secs(600);

/// The seeks waiting (open or being matched) that a new seek's caps count.
struct Waiting<'a> {
    /// From its address.
    from_addr: usize,
    /// Its owner's seek of the same game and clock, if any.
    same: Option<&'a str>,
    /// Of its owner.
    of_owner: usize,
    /// In all.
    all: usize,
    game: &'a str,
}

/// Whether a seek may be posted, given what waits: its address's cap, one
/// seek per game and clock, its owner's cap, the lobby's.
fn admit(w: Waiting<'_>) -> Result<(), ApiError> {
    if w.from_addr >= SEEKS_PER_ADDRESS {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_seeks",
            format!("at most {SEEKS_PER_ADDRESS} open seeks from one address: cancel one first"),
        ));
    }
    if let Some(id) = w.same {
        return Err(ApiError::conflict(
            "seek_exists",
            format!("you already seek a game of {} with this clock ({id}): cancel it first", w.game),
        ));
    }
    if w.of_owner >= SEEKS_PER_OWNER {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_seeks",
            format!("at most {SEEKS_PER_OWNER} open seeks each: cancel one first"),
        ));
    }
    if w.all >= MAX_SEEKS {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "lobby_full",
            format!("the lobby has {MAX_SEEKS} seeks waiting: accept one, or try again later"),
        ));
    }
    Ok(())
}

fn frame(v: &Value) -> Utf8Bytes {
    Utf8Bytes::from(v.to_string())
}

impl Inner {
    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    fn seek(&self, id: &str) -> Option<&Seek> {
        self.index.get(id).and_then(|n| self.seeks.get(n))
    }

    fn seek_mut(&mut self, id: &str) -> Option<&mut Seek> {
        self.index.get(id).and_then(|n| self.seeks.get_mut(n))
    }

    /// Open seeks (being matched included) of one owner.
    fn open_of(&self, key: OwnerKey<'_>) -> impl Iterator<Item = &Seek> {
        self.seeks.values().filter(move |s| !matches!(s.state, SeekState::Matched { .. }) && s.key() == key)
    }

    /// Whether `seek` may be posted: its owner's caps, its address's, the lobby's.
    fn admit(&self, seek: &Seek) -> Result<(), ApiError> {
        let (key, terms) = (seek.key(), &seek.terms);
        let waiting = |s: &&Seek| !matches!(s.state, SeekState::Matched { .. });
        let same = self.open_of(key).find(|s| s.terms.game == terms.game && s.terms.clock == terms.clock);
        admit(Waiting {
            from_addr: self.seeks.values().filter(waiting).filter(|s| s.addr == seek.addr).count(),
            same: same.map(|s| s.id.as_str()),
            of_owner: self.open_of(key).count(),
            all: self.seeks.values().filter(waiting).count(),
            game: terms.game,
        })
    }

    /// Add a seek; its owner's account sockets follow it.
    fn insert_seek(&mut self, mut seek: Seek) {
        if let Owner::Account(m) = &seek.owner
            && let Some(socks) = self.by_account.get(&m.id)
        {
            for s in socks {
                seek.followers.insert(*s);
                if let Some(sock) = self.socks.get_mut(s) {
                    sock.seeks.insert(seek.id.clone());
                }
            }
        }
        let n = self.next_seq();
        self.index.insert(seek.id.clone(), n);
        self.seeks.insert(n, seek);
        self.version += 1;
    }

    fn remove_seek(&mut self, id: &str) -> Option<Seek> {
        let n = self.index.remove(id)?;
        let seek = self.seeks.remove(&n)?;
        for f in &seek.followers {
            if let Some(sock) = self.socks.get_mut(f) {
                sock.seeks.remove(id);
            }
        }
        if !matches!(seek.state, SeekState::Matched { .. }) {
            self.version += 1;
        }
        Some(seek)
    }

    /// Queue a frame for a socket; a socket too slow to take it is dropped
    /// (its task then closes it).
    fn send(&mut self, sock: u64, f: Utf8Bytes) {
        if let Some(s) = self.socks.get(&sock)
            && s.tx.try_send(f).is_err()
        {
            self.close_sock(sock, Instant::now());
        }
    }

    /// Keep the news of an accepted challenge for `account`'s sockets to come.
    fn remember_accepted(&mut self, account: &str, f: Utf8Bytes) {
        let now = Instant::now();
        self.accepted.retain(|(until, _, _)| *until > now);
        // At most 20 challenges an account makes at once, and as many to it:
        // a bound on the news kept per account.
        if self.accepted.iter().filter(|(_, a, _)| a == account).count() < 100 {
            self.accepted.push((now + ACCEPTED_KEPT, account.to_string(), f));
        }
    }

    /// The news of challenges accepted lately for `account`.
    fn accepted_for(&self, account: &str) -> Vec<Utf8Bytes> {
        let now = Instant::now();
        self.accepted.iter().filter(|(until, a, _)| *until > now && a == account).map(|(_, _, f)| f.clone()).collect()
    }

    fn send_account(&mut self, account: &str, f: &Utf8Bytes) {
        let socks: Vec<u64> = self.by_account.get(account).map(|s| s.iter().copied().collect()).unwrap_or_default();
        for s in socks {
            self.send(s, f.clone());
        }
    }

    fn send_followers(&mut self, id: &str, f: &Utf8Bytes) {
        let socks: Vec<u64> = self.seek(id).map(|s| s.followers.iter().copied().collect()).unwrap_or_default();
        for s in socks {
            self.send(s, f.clone());
        }
    }

    /// A socket follows a seek: its owner's news reach it, and the seek
    /// lives while it is open.
    fn follow(&mut self, sock: u64, id: &str) {
        if let Some(seek) = self.seek_mut(id) {
            seek.followers.insert(sock);
            seek.left_at = None;
            if let Some(s) = self.socks.get_mut(&sock) {
                s.seeks.insert(id.to_string());
            }
            self.followed = true;
        }
    }

    /// Forget a socket (the seeks it leaves without a follower here are
    /// noted in `released`).
    fn close_sock(&mut self, sock: u64, now: Instant) {
        let Some(s) = self.socks.remove(&sock) else { return };
        if let Some(a) = &s.account
            && let Some(set) = self.by_account.get_mut(a)
        {
            set.remove(&sock);
            if set.is_empty() {
                self.by_account.remove(a);
            }
        }
        for id in &s.seeks {
            let left = self.seek_mut(id).is_some_and(|seek| {
                seek.followers.remove(&sock);
                let left = seek.followers.is_empty();
                if left {
                    seek.left_at = Some(now);
                }
                left
            });
            if left {
                self.released.push(id.clone());
            }
        }
    }

    /// The list, serialized once per change.
    fn list(&mut self) -> &ListCache {
        if self.cache.as_ref().is_none_or(|c| c.version != self.version) {
            let seeks: Vec<Value> = self.seeks.values().filter(|s| s.is_open()).map(Seek::public).collect();
            let seeks = Value::Array(seeks).to_string();
            self.builds += 1;
            self.cache = Some(ListCache {
                version: self.version,
                frame: Utf8Bytes::from(format!("{{\"type\":\"seeks\",\"seeks\":{seeks}}}")),
                body: Bytes::from(format!("{{\"seeks\":{seeks}}}")),
            });
        }
        self.cache.as_ref().expect("just made")
    }

    fn challenge(&self, id: &str) -> Option<&Challenge> {
        self.challenge_index.get(id).and_then(|n| self.challenges.get(n))
    }

    fn insert_challenge(&mut self, c: Challenge) {
        let n = self.next_seq();
        self.challenge_index.insert(c.id.clone(), n);
        self.challenges.insert(n, c);
    }

    fn remove_challenge(&mut self, id: &str) -> Option<Challenge> {
        let n = self.challenge_index.remove(id)?;
        self.challenges.remove(&n)
    }

    /// Tell both parties of a challenge's news.
    fn tell_both(&mut self, c: &Challenge, status: &str) {
        let f = frame(&json!({ "type": "challenge", "challenge": c.json(status) }));
        self.send_account(&c.from.id, &f);
        if c.to.id != c.from.id {
            self.send_account(&c.to.id, &f);
        }
    }

    /// An account's open challenges: (incoming, outgoing), oldest first.
    fn challenges_of(&self, account: &str) -> (Vec<Value>, Vec<Value>) {
        let incoming = self.challenges.values().filter(|c| c.to.id == account).map(|c| c.json("open")).collect();
        let outgoing = self.challenges.values().filter(|c| c.from.id == account).map(|c| c.json("open")).collect();
        (incoming, outgoing)
    }

    /// Remove expired seeks and challenges (telling the challenges' parties).
    fn sweep(&mut self, now: Instant) {
        let gone: Vec<String> = self
            .seeks
            .values()
            .filter(|s| match &s.state {
                SeekState::Open => {
                    s.followers.is_empty()
                        && match s.left_at {
                            Some(t) => now.saturating_duration_since(t) >= SOCKET_GRACE,
                            None => now.saturating_duration_since(s.posted) >= UNWATCHED_SEEK,
                        }
                }
                SeekState::Taken => false,
                SeekState::Matched { at, .. } => now.saturating_duration_since(*at) >= MATCHED_KEPT,
            })
            .map(|s| s.id.clone())
            .collect();
        for id in gone {
            self.remove_seek(&id);
        }
        let expired: Vec<String> =
            self.challenges.values().filter(|c| c.deadline <= now).map(|c| c.id.clone()).collect();
        for id in expired {
            if let Some(c) = self.remove_challenge(&id) {
                self.tell_both(&c, "expired");
            }
        }
    }
}

impl Lobby {
    /// A lobby, with its task that publishes the list and removes what
    /// expired (the task ends when the lobby is dropped). Given a PostgreSQL
    /// pool, the lobby is the one every instance on that database shares:
    /// read from its tables now, then kept in step by a listener of its own
    /// (`shared.rs`).
    pub(crate) async fn start(shared: &crate::state::Shared) -> Arc<Lobby> {
        Lobby::start_on(shared.store.postgres().cloned()).await
    }

    /// [`Lobby::start`] on this PostgreSQL pool, or in memory only.
    async fn start_on(pg: Option<sqlx::PgPool>) -> Arc<Lobby> {
        let (list, _) = watch::channel(Utf8Bytes::from_static("{\"type\":\"seeks\",\"seeks\":[]}"));
        let (halt, halted) = oneshot::channel();
        let lobby = Arc::new(Lobby {
            inner: Mutex::new(Inner::default()),
            list,
            changed: Arc::new(Notify::new()),
            db: pg.map(shared::Db::new),
            _halt: halt,
        });
        let weak = Arc::downgrade(&lobby);
        let changed = lobby.changed.clone();
        let local = lobby.db.is_none();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = changed.notified() => tokio::time::sleep(COALESCE).await,
                    _ = tick.tick() => {}
                }
                let Some(lobby) = weak.upgrade() else { break };
                let mut inner = lobby.lock();
                if local {
                    // On PostgreSQL the tables expire (`shared.rs`).
                    inner.sweep(Instant::now());
                    inner.released.clear();
                }
                lobby.publish(&mut inner);
            }
        });
        if lobby.db.is_some() {
            lobby.sync().await;
            shared::spawn(&lobby, halted);
        }
        lobby
    }

    /// Read the shared tables again into this instance's copy (PostgreSQL;
    /// nothing otherwise). A failure is logged: the next notification, or
    /// the periodic read, catches up.
    async fn sync(&self) {
        if let Some(db) = &self.db
            && let Err(e) = db.sync(self).await
        {
            tracing::warn!("lobby: reading the shared lobby: {e}");
        }
    }

    /// A socket went away: on PostgreSQL, the seeks it leaves without a
    /// follower here get their grace written.
    fn close(&self, sock: u64) {
        let released = {
            let mut inner = self.lock();
            inner.close_sock(sock, Instant::now());
            std::mem::take(&mut inner.released)
        };
        if let Some(db) = &self.db
            && !released.is_empty()
        {
            db.release(released);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The list changed: its frame goes out within [`COALESCE`].
    fn changed(&self) {
        self.changed.notify_one();
    }

    /// Send the list to every socket if it changed since last sent: one
    /// serialization, the same bytes for all.
    fn publish(&self, inner: &mut Inner) {
        if inner.published != inner.version {
            let f = inner.list().frame.clone();
            inner.published = inner.version;
            tracing::trace!("lobby: list #{} sent ({} bytes)", inner.builds, f.len());
            self.list.send_replace(f);
        }
    }
}

/// The key an address is counted under (see [`crate::listen::address_key`]).
fn addr_key(ip: IpAddr) -> IpAddr {
    crate::listen::address_key(ip)
}

fn client_ip(info: Option<Extension<crate::ClientIp>>) -> IpAddr {
    info.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(crate::ClientIp(a))| a)
}

fn account_required() -> ApiError {
    ApiError::account_required("log in (or sign up) first")
}

fn not_logged_in() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not_logged_in", "challenges are between accounts: log in first")
}

fn no_seek(id: &str) -> ApiError {
    ApiError::not_found(format!("there is no open seek {id:?}"))
}

/// Parse a JSON body; an empty body is `{}`.
fn parse<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body.map_err(|r| ApiError::new(r.status(), crate::error::code_of(r.status()), r.body_text()))?;
    let text: &[u8] = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &body };
    serde_json::from_slice(text).map_err(|e| ApiError::bad_request("bad_json", format!("the request body: {e}")))
}

/// The bearer token of a request that is not an access token (a seek's).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|t| ids::well_formed(t))
}

/// A JSON answer no cache keeps (some hold tokens).
fn answer(status: StatusCode, body: Value) -> Response {
    let mut res = (status, axum::Json(body)).into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn guest_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    name.map(|n| crate::protocol::clean_name(n).map_err(|e| ApiError::bad_request("bad_name", e))).transpose()
}

#[cfg(test)]
mod tests {
    use super::seeks::check_range;
    use super::*;

    fn terms(game: &'static str, initial: u64) -> Terms {
        Terms {
            game,
            variant: "standard",
            options: Options::new(),
            clock: Some(TimeControl::Live { initial, increment: 0 }),
            rated: false,
        }
    }

    fn seek(id: &str, addr: [u8; 4], t: Terms, posted: Instant) -> Seek {
        Seek {
            id: id.into(),
            owner: Owner::Guest { name: None, token_hash: ids::hash_token("secret") },
            addr: IpAddr::from(addr),
            terms: t,
            rating_min: None,
            rating_max: None,
            rating: None,
            created_at: 0,
            posted,
            followers: HashSet::new(),
            left_at: None,
            state: SeekState::Open,
        }
    }

    fn member(id: &str) -> Member {
        Member { id: id.into(), name: id.into(), name_key: id.into(), created_at: 0 }
    }

    #[test]
    fn seeks_expire_without_a_socket_and_after_their_sockets_close() {
        let t0 = Instant::now();
        let mut inner = Inner::default();
        inner.insert_seek(seek("unwatched", [10, 0, 0, 1], terms("abalone", 60), t0));
        inner.insert_seek(seek("watched", [10, 0, 0, 2], terms("abalone", 60), t0));
        let (tx, _rx) = mpsc::channel(8);
        inner.socks.insert(7, Sock { account: None, tx, seeks: HashSet::new() });
        inner.follow(7, "watched");
        // A socket keeps its seek for as long as it is open.
        inner.sweep(t0 + UNWATCHED_SEEK - Duration::from_secs(1));
        assert!(inner.seek("unwatched").is_some());
        inner.sweep(t0 + UNWATCHED_SEEK);
        assert!(inner.seek("unwatched").is_none());
        assert!(inner.seek("watched").is_some());
        // Its socket closes: 30 s of grace.
        let closed = t0 + UNWATCHED_SEEK * 2;
        inner.close_sock(7, closed);
        inner.sweep(closed + SOCKET_GRACE - Duration::from_millis(1));
        assert!(inner.seek("watched").is_some());
        inner.sweep(closed + SOCKET_GRACE);
        assert!(inner.seek("watched").is_none());
        assert!(inner.socks.is_empty());
    }

    #[test]
    fn matched_seeks_are_kept_a_while_and_taken_ones_never_expire() {
        let t0 = Instant::now();
        let mut inner = Inner::default();
        let mut m = seek("m", [10, 0, 0, 1], terms("abalone", 60), t0);
        m.state = SeekState::Matched { game: "g".into(), seat: 0, token: "t".into(), at: t0 };
        inner.insert_seek(m);
        let mut t = seek("t", [10, 0, 0, 1], terms("abalone", 120), t0);
        t.state = SeekState::Taken;
        inner.insert_seek(t);
        inner.sweep(t0 + MATCHED_KEPT - Duration::from_secs(1));
        assert!(inner.seek("m").is_some());
        inner.sweep(t0 + MATCHED_KEPT);
        assert!(inner.seek("m").is_none());
        inner.sweep(t0 + UNWATCHED_SEEK * 10);
        assert!(inner.seek("t").is_some());
        // Neither is listed.
        assert_eq!(inner.list().body.as_ref(), b"{\"seeks\":[]}");
    }

    #[test]
    fn challenges_expire_and_both_parties_hear_it() {
        let t0 = Instant::now();
        let mut inner = Inner::default();
        let (tx_a, mut rx_a) = mpsc::channel(8);
        let (tx_b, mut rx_b) = mpsc::channel(8);
        inner.socks.insert(1, Sock { account: Some("a".into()), tx: tx_a, seeks: HashSet::new() });
        inner.socks.insert(2, Sock { account: Some("b".into()), tx: tx_b, seeks: HashSet::new() });
        inner.by_account.insert("a".into(), HashSet::from([1]));
        inner.by_account.insert("b".into(), HashSet::from([2]));
        for (id, ttl) in [("live", CHALLENGE_TTL), ("corr", CORRESPONDENCE_CHALLENGE_TTL)] {
            inner.insert_challenge(Challenge {
                id: id.into(),
                from: member("a"),
                to: member("b"),
                terms: terms("abalone", 60),
                created_at: 0,
                expires_at: 0,
                deadline: t0 + ttl,
            });
        }
        inner.sweep(t0 + CHALLENGE_TTL - Duration::from_secs(1));
        assert!(rx_a.try_recv().is_err());
        inner.sweep(t0 + CHALLENGE_TTL);
        assert!(inner.challenge("live").is_none());
        assert!(inner.challenge("corr").is_some());
        for rx in [&mut rx_a, &mut rx_b] {
            let f: Value = serde_json::from_str(rx.try_recv().unwrap().as_str()).unwrap();
            assert_eq!((&f["challenge"]["id"], &f["challenge"]["status"]), (&json!("live"), &json!("expired")));
        }
        inner.sweep(t0 + CORRESPONDENCE_CHALLENGE_TTL);
        assert!(inner.challenge("corr").is_none());
    }

    #[test]
    fn a_socket_too_slow_for_its_private_frames_is_dropped() {
        let mut inner = Inner::default();
        let (tx, _rx) = mpsc::channel(1);
        inner.socks.insert(1, Sock { account: Some("a".into()), tx, seeks: HashSet::new() });
        inner.by_account.insert("a".into(), HashSet::from([1]));
        let f = frame(&json!({ "type": "x" }));
        inner.send_account("a", &f);
        assert!(inner.socks.contains_key(&1));
        inner.send_account("a", &f);
        assert!(!inner.socks.contains_key(&1));
        assert!(inner.by_account.is_empty());
    }

    #[test]
    fn rating_ranges_compare_shown_ratings() {
        let mut s = seek("s", [10, 0, 0, 1], terms("abalone", 60), Instant::now());
        s.rating_min = Some(1400);
        s.rating_max = Some(1600);
        assert!(s.allows(1500.0) && s.allows(1399.5) && s.allows(1600.4));
        assert!(!s.allows(1399.4) && !s.allows(1600.5));
        assert!(check_range(Some(1600), Some(1400)).is_err());
        assert!(check_range(Some(-1), None).is_err());
        assert!(check_range(None, Some(4001)).is_err());
        assert!(check_range(Some(0), Some(4000)).is_ok());
    }

    #[test]
    fn addresses_count_by_ipv6_network() {
        let a: IpAddr = "2001:db8:1:2:3:4:5:6".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ff:ff:ff:ff".parse().unwrap();
        assert_eq!(addr_key(a), addr_key(b));
        let v4: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(addr_key(v4), IpAddr::from([10, 1, 2, 3]));
    }

    #[test]
    fn every_preset_names_a_game_whose_default_set_up_has_two_seats() {
        let registry = plateau_games::registry();
        for (game, clocks) in PRESETS {
            let entry = registry.get(game).unwrap_or_else(|e| panic!("{game}: {e}"));
            let m = entry.new_match(&plateau_core::Setup::default()).unwrap();
            assert_eq!(m.seats(), 2, "{game}");
            for &(initial, increment) in *clocks {
                TimeControl::parse(&json!({ "initial": initial, "increment": increment })).unwrap();
            }
        }
    }

    /// A burst of changes is one frame of the list, and every socket gets
    /// the same bytes (one serialization, shared).
    #[tokio::test]
    async fn a_burst_of_changes_is_one_shared_frame() {
        let lobby = Lobby::start_on(None).await;
        let mut receivers: Vec<_> = (0..500).map(|_| lobby.list.subscribe()).collect();
        let t0 = Instant::now();
        for i in 0..200u32 {
            let mut inner = lobby.lock();
            inner.insert_seek(seek(
                &format!("s{i}"),
                [10, 0, (i / 250) as u8, (i % 250) as u8],
                terms("abalone", 60),
                t0,
            ));
            drop(inner);
            lobby.changed();
        }
        tokio::time::sleep(COALESCE * 5).await;
        // At most one more: the sweep's first tick may have come mid-burst.
        let builds = lobby.lock().builds;
        assert!((1..=2).contains(&builds), "{builds} serializations for one burst");
        assert!(receivers[0].has_changed().unwrap());
        let first = receivers[0].borrow().clone();
        let v: Value = serde_json::from_str(first.as_str()).unwrap();
        assert_eq!(v["seeks"].as_array().unwrap().len(), 200);
        for r in &mut receivers[1..] {
            let f = r.borrow_and_update().clone();
            assert_eq!(f.as_str().as_ptr(), first.as_str().as_ptr(), "the same bytes for every socket");
        }
    }
}
