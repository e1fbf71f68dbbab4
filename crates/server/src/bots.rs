//! Bot accounts (issue 17; `docs/server.md`, *Bots*): an account driven by
//! a program through the API, with its personal access token.
//!
//! - `POST /api/account/bot` makes the logged-in account a bot, for good:
//!   refused if it holds or held a seat in a rated game (not aborted), so
//!   that ratings earned as a person never become a bot's, or while it has
//!   a seek open. `PUT` changes its settings, `GET` reads them.
//! - A bot plays only through challenges: it may challenge anyone (a bot
//!   too) and be challenged by anyone logged in, within its settings
//!   (games, rated or casual, kinds of clock); it posts and accepts no seek,
//!   asks no quick pairing, creates and joins no game directly
//!   (`bot_challenges_only`).
//! - Its events are the lobby socket's (challenges) and the game socket's
//!   (moves, draws, the end), which it opens with its token; there is no
//!   second API.
//! - `GET /api/bots` lists the bots. A bot is online while a lobby socket of
//!   it is open: on this instance (memory), or on another one sharing the
//!   database (its `bot_seen_at`, renewed every [`HEARTBEAT`] while a socket
//!   is open, cleared when an instance's last one closes, counts for
//!   [`ONLINE_WINDOW`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiError;
use crate::store::AccountRow;
use crate::store::bots::{BotRow, MadeBot};
use crate::table::now_ms;

/// How often an open lobby socket of a bot renews its `bot_seen_at`.
pub const HEARTBEAT: Duration = Duration::from_secs(20);
/// A bot seen this recently (ms) by another instance is online.
pub const ONLINE_WINDOW: i64 = 60_000;
/// Bots listed by `GET /api/bots` (those seen most recently first).
pub const MAX_LISTED: u32 = 200;

/// The kinds of clock a bot may accept.
const CLOCK_KINDS: [&str; 3] = ["none", "live", "correspondence"];

/// A bot's settings, as stored (JSON) and shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Settings {
    /// The games it plays (catalog names).
    games: Vec<String>,
    /// Whether it takes rated challenges.
    rated: bool,
    /// Whether it takes casual ones.
    casual: bool,
    /// The kinds of clock it takes: `none`, `live`, `correspondence`.
    clocks: Vec<String>,
    /// A line about it ("" for none).
    description: String,
}

/// A change of settings: each field given replaces the current one.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct SettingsRequest {
    games: Option<Vec<String>>,
    rated: Option<bool>,
    casual: Option<bool>,
    clocks: Option<Vec<String>>,
    description: Option<String>,
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::bad_request("bad_bot_settings", m)
}

impl Settings {
    /// Every game of the catalog, rated and casual, every clock.
    fn default_for(st: &AppState) -> Settings {
        Settings {
            games: st.0.ctx.registry.games().map(|g| g.info().name.to_string()).collect(),
            rated: true,
            casual: true,
            clocks: CLOCK_KINDS.iter().map(|s| s.to_string()).collect(),
            description: String::new(),
        }
    }

    /// These settings changed by `req`, checked.
    fn changed(mut self, st: &AppState, req: SettingsRequest) -> Result<Settings, ApiError> {
        if let Some(games) = req.games {
            let known: Vec<&'static str> = st.0.ctx.registry.games().map(|g| g.info().name).collect();
            if games.is_empty() || games.len() > known.len() {
                return Err(bad(format!(
                    "games: from 1 to {} names of the catalog ({})",
                    known.len(),
                    known.join(", ")
                )));
            }
            let mut out: Vec<String> = Vec::new();
            for g in &games {
                let name = known.iter().find(|k| **k == g.as_str()).ok_or_else(|| {
                    bad(format!("games: {:?} is not a game of the catalog ({})", g, known.join(", ")))
                })?;
                if out.iter().any(|o| o == name) {
                    return Err(bad(format!("games: {name} is named twice")));
                }
                out.push(name.to_string());
            }
            self.games = out;
        }
        if let Some(r) = req.rated {
            self.rated = r;
        }
        if let Some(c) = req.casual {
            self.casual = c;
        }
        if !self.rated && !self.casual {
            return Err(bad("a bot takes rated games, casual games or both: not neither"));
        }
        if let Some(clocks) = req.clocks {
            if clocks.is_empty() || clocks.len() > CLOCK_KINDS.len() {
                return Err(bad("clocks: one to three of none, live, correspondence"));
            }
            let mut out: Vec<String> = Vec::new();
            for c in &clocks {
                if !CLOCK_KINDS.contains(&c.as_str()) {
                    return Err(bad(format!("clocks: {c:?} is not a kind of clock: use none, live, correspondence")));
                }
                if out.contains(c) {
                    return Err(bad(format!("clocks: {c} is named twice")));
                }
                out.push(c.clone());
            }
            self.clocks = out;
        }
        if let Some(d) = req.description {
            self.description = if d.trim().is_empty() {
                String::new()
            } else {
                crate::table::chat::clean_chat(&d).map_err(|e| bad(format!("description: {e}")))?
            };
        }
        Ok(self)
    }

    /// The stored settings (those of an older server, or unreadable: the
    /// defaults).
    fn read(st: &AppState, stored: Option<&str>) -> Settings {
        stored.and_then(|s| serde_json::from_str(s).ok()).unwrap_or_else(|| Settings::default_for(st))
    }
}

/// Refuse what a bot may not do (seeks, quick pairing, games made or
/// joined directly): it plays through challenges only.
pub(crate) fn challenges_only(account: Option<&AccountRow>) -> Result<(), ApiError> {
    match account {
        Some(a) if a.bot => Err(ApiError::forbidden(
            "bot_challenges_only",
            "a bot plays only through challenges: challenge someone (POST /api/challenges) or accept a challenge",
        )),
        _ => Ok(()),
    }
}

/// Whether bot `to` takes a challenge to `game`, rated or not, with this
/// kind of clock (`none`, `live`, `correspondence`): else 409
/// `bot_refuses`, saying what it takes.
pub(crate) async fn takes(
    st: &AppState,
    to: &AccountRow,
    game: &str,
    rated: bool,
    clock: &str,
) -> Result<(), ApiError> {
    let row = st.0.store.bot(&to.id).await.map_err(ApiError::storage)?;
    let s = Settings::read(st, row.as_ref().and_then(|r| r.settings.as_deref()));
    let refuse = |why: String| ApiError::conflict("bot_refuses", format!("{} is a bot that {why}", to.name));
    if !s.games.iter().any(|g| g == game) {
        return Err(refuse(format!("plays only {}", s.games.join(", "))));
    }
    if rated && !s.rated {
        return Err(refuse("plays casual games only".into()));
    }
    if !rated && !s.casual {
        return Err(refuse("plays rated games only".into()));
    }
    if !s.clocks.iter().any(|c| c == clock) {
        let what = match clock {
            "none" => "games without a clock",
            "live" => "live clocks",
            _ => "correspondence clocks",
        };
        return Err(refuse(format!("does not take {what} (it takes: {})", s.clocks.join(", "))));
    }
    Ok(())
}

/// Whether a bot is online: a lobby socket of it open here, or seen lately
/// by another instance.
fn online(st: &AppState, row: &BotRow, now: i64) -> bool {
    st.2.connected(&row.account_id) || row.seen_at.is_some_and(|t| now - t <= ONLINE_WINDOW)
}

/// What a player's page says of a bot: `{"online", "since", "settings"}`,
/// or `None` for a person.
pub(crate) async fn page(st: &AppState, a: &AccountRow) -> Result<Option<Value>, ApiError> {
    if !a.bot {
        return Ok(None);
    }
    let Some(row) = st.0.store.bot(&a.id).await.map_err(ApiError::storage)? else { return Ok(None) };
    Ok(Some(json!({
        "online": online(st, &row, now_ms()),
        "since": row.since,
        "settings": Settings::read(st, row.settings.as_deref()),
    })))
}

fn answer(status: StatusCode, body: Value) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn logged_in(st: &AppState, headers: &HeaderMap) -> Result<AccountRow, ApiError> {
    crate::accounts::account_of(st, headers)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "not_logged_in", "you are not logged in"))
}

fn parse(body: Result<Bytes, BytesRejection>) -> Result<SettingsRequest, ApiError> {
    let body = body.map_err(|r| {
        let status = r.status();
        ApiError::new(status, crate::error::code_of(status), r.body_text())
    })?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(SettingsRequest::default());
    }
    serde_json::from_slice(&body).map_err(|e| ApiError::bad_request("bad_json", format!("the settings: {e}")))
}

fn not_bot() -> ApiError {
    ApiError::conflict("not_bot", "this account is not a bot: POST /api/account/bot makes it one")
}

fn already_bot() -> ApiError {
    ApiError::conflict("already_bot", "this account is a bot already: PUT changes its settings")
}

fn own_json(a: &AccountRow, since: Option<i64>, s: &Settings) -> Value {
    json!({ "name": a.name, "bot": true, "since": since, "settings": s })
}

/// `POST /api/account/bot {settings?}`: make the account a bot, for good.
pub(crate) async fn become_bot(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let a = logged_in(&st, &headers).await?;
    let req = parse(body)?;
    let settings = Settings::default_for(&st).changed(&st, req)?;
    if a.bot {
        return Err(already_bot());
    }
    if st.2.has_seeks(&a.id) {
        return Err(ApiError::conflict(
            "has_seeks",
            "this account has seeks open, and a bot may not seek: cancel them first",
        ));
    }
    let text = serde_json::to_string(&settings).map_err(|e| ApiError::internal(e.to_string()))?;
    let at = now_ms();
    match st.0.store.make_bot(&a.id, &text, at).await.map_err(ApiError::storage)? {
        MadeBot::Done => {}
        MadeBot::AlreadyBot => {
            return Err(already_bot());
        }
        MadeBot::RatedGames => {
            return Err(ApiError::conflict(
                "has_rated_games",
                "this account has played rated games: ratings earned as a person do not become a bot's; \
                 make a new account for the bot",
            ));
        }
        MadeBot::NoAccount => return Err(ApiError::not_found("there is no such account")),
    }
    tracing::info!("account {} is now a bot", a.name);
    Ok(answer(StatusCode::OK, own_json(&a, Some(at), &settings)))
}

/// `PUT /api/account/bot {settings}`: change a bot's settings (the fields
/// given).
pub(crate) async fn update_bot(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let a = logged_in(&st, &headers).await?;
    let req = parse(body)?;
    let row = st.0.store.bot(&a.id).await.map_err(ApiError::storage)?.ok_or_else(not_bot)?;
    let settings = Settings::read(&st, row.settings.as_deref()).changed(&st, req)?;
    let text = serde_json::to_string(&settings).map_err(|e| ApiError::internal(e.to_string()))?;
    if !st.0.store.set_bot_settings(&a.id, &text).await.map_err(ApiError::storage)? {
        return Err(not_bot());
    }
    Ok(answer(StatusCode::OK, own_json(&a, row.since, &settings)))
}

/// `GET /api/account/bot`: the account's bot settings (409 `not_bot`).
pub(crate) async fn get_bot(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let a = logged_in(&st, &headers).await?;
    let row = st.0.store.bot(&a.id).await.map_err(ApiError::storage)?.ok_or_else(not_bot)?;
    let settings = Settings::read(&st, row.settings.as_deref());
    Ok(answer(StatusCode::OK, own_json(&a, row.since, &settings)))
}

/// `GET /api/bots`: the bots, the online ones first.
pub(crate) async fn list(State(st): State<AppState>) -> Result<Response, ApiError> {
    let store = &st.0.store;
    let rows = store.bots(MAX_LISTED).await.map_err(ApiError::storage)?;
    let mut ratings: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    let now = now_ms();
    for (id, game, r) in store.bot_ratings().await.map_err(ApiError::storage)? {
        let shown = crate::profiles::shown(&r, now);
        ratings.entry(id).or_default().insert(
            game,
            json!({ "rating": shown.rating, "deviation": shown.deviation, "games": shown.games,
                    "provisional": shown.is_provisional() }),
        );
    }
    let mut bots: Vec<(bool, Value)> = rows
        .iter()
        .map(|row| {
            let on = online(&st, row, now);
            let v = json!({
                "name": row.name,
                "online": on,
                "since": row.since,
                "settings": Settings::read(&st, row.settings.as_deref()),
                "ratings": ratings.remove(&row.account_id).unwrap_or_default(),
                "played": row.played,
            });
            (on, v)
        })
        .collect();
    // Online first; the store's order (seen last, then by name) otherwise.
    bots.sort_by_key(|(on, _)| !on);
    let bots: Vec<Value> = bots.into_iter().map(|(_, v)| v).collect();
    Ok(answer(StatusCode::OK, json!({ "bots": bots })))
}

/// While a lobby socket of a bot is open: its `bot_seen_at` renewed every
/// [`HEARTBEAT`]; [`Presence::end`] clears it when the last socket of the
/// bot on this instance has closed.
pub(crate) struct Presence {
    task: tokio::task::JoinHandle<()>,
    account: String,
}

impl Presence {
    pub(crate) fn start(shared: &Arc<crate::state::Shared>, account: String) -> Presence {
        let store = shared.store.clone();
        let id = account.clone();
        let task = tokio::spawn(async move {
            let mut every = tokio::time::interval(HEARTBEAT);
            loop {
                every.tick().await;
                if let Err(e) = store.bot_seen(&id, Some(now_ms())).await {
                    tracing::warn!("a bot's presence: {e}");
                }
            }
        });
        Presence { task, account }
    }

    /// The socket closed (and is no longer registered in `lobby`).
    pub(crate) async fn end(self, shared: &Arc<crate::state::Shared>, lobby: &crate::lobby::Lobby) {
        self.task.abort();
        let _ = self.task.await;
        if !lobby.connected(&self.account)
            && let Err(e) = shared.store.bot_seen(&self.account, None).await
        {
            tracing::warn!("a bot's presence: {e}");
        }
    }
}
