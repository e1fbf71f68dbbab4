//! Players as others see them: public pages (ratings, results, rating
//! history, recent games), leaderboards, an account's own games, and the
//! games a guest claims on signing up. Everything here reads; the ratings
//! are written by the games themselves when they end (`table/clocks.rs`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use plateau_rating::Rating;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::accounts::{account_name, account_of, name_key};
use crate::error::ApiError;
use crate::ids;
use crate::store::players::{AccountGame, StoredRating};
use crate::store::{AccountRow, SeatKind};
use crate::table::now_ms;

/// Points of rating history per game on a player's page.
pub const HISTORY_POINTS: u32 = 500;
/// Finished games on a player's page and in an account's games.
pub const RECENT_GAMES: u32 = 20;
/// Finished games listed in `GET /api/account/games`.
pub const MY_FINISHED: u32 = 50;
/// Live games listed there (an account rarely has more).
pub const MY_LIVE: u32 = 200;
/// Live games whose turn is asked of the game itself (loading it if it is
/// out of memory), the most recently changed first; the others say
/// `your_turn: null`.
pub const MY_TURNS: usize = 50;
/// Games a claim may name at once.
pub const MAX_CLAIMS: usize = 200;

/// A stored rating as shown: widened for the days since its last game.
pub(crate) fn shown(s: &StoredRating, now: i64) -> Rating {
    let days = (now - s.last_at).max(0) as f64 / 86_400_000.0;
    s.rating.after_idle(plateau_rating::idle_periods(days))
}

fn rating_json(r: Rating) -> Value {
    json!({
        "rating": r.rating,
        "deviation": r.deviation,
        "volatility": r.volatility,
        "games": r.games,
        "provisional": r.is_provisional(),
    })
}

fn is_computer(account_id: &str) -> bool {
    crate::players::account_level(account_id).is_some()
}

/// A game an account played, as lists show it.
fn game_json(g: &AccountGame, titles: &[(&str, &str)]) -> Value {
    let row = &g.game;
    json!({
        "id": row.id,
        "game": row.game,
        "title": titles.iter().find(|(n, _)| *n == row.game).map(|(_, t)| *t),
        "variant": row.variant,
        "status": row.status,
        "rated": row.rated,
        "clock": row.clock.map(|c| c.json()),
        "moves": g.moves,
        "result": row.result,
        "termination": row.termination,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "seat": g.seat,
        "outcome": g.outcome,
        "rating_change": g.rating_change,
        "seats": g.seats.iter().map(|s| json!({
            "seat": s.seat,
            "kind": s.kind,
            "player": s.name,
            "spec": s.player,
            "account": if s.account.is_some() && s.kind == SeatKind::Human { s.name.clone() } else { None },
            "open": s.kind == SeatKind::Human && s.token_hash.is_none(),
        })).collect::<Vec<_>>(),
    })
}

fn titles(st: &AppState) -> Vec<(&'static str, &'static str)> {
    st.0.ctx.registry.games().map(|g| (g.info().name, g.info().title)).collect()
}

/// `GET /api/players/{name}`: a player's public page.
pub(crate) async fn player(State(st): State<AppState>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    let missing = || ApiError::not_found(format!("there is no player {name:?}"));
    let key = account_name(&name).map(|n| name_key(&n)).map_err(|_| missing())?;
    let store = &st.0.store;
    let a: AccountRow = store.account_by_name(&key).await.map_err(ApiError::storage)?.ok_or_else(missing)?;
    let now = now_ms();
    let mut ratings = serde_json::Map::new();
    for (game, s) in store.ratings_of(&a.id).await.map_err(ApiError::storage)? {
        ratings.insert(game, rating_json(shown(&s, now)));
    }
    let mut results = serde_json::Map::new();
    for (game, outcome, n) in store.results(&a.id).await.map_err(ApiError::storage)? {
        let e = results.entry(game).or_insert_with(|| json!({ "wins": 0, "draws": 0, "losses": 0 }));
        let k = match outcome.as_str() {
            "win" => "wins",
            "draw" => "draws",
            _ => "losses",
        };
        e[k] = json!(n);
    }
    let mut history = serde_json::Map::new();
    for h in store.history(&a.id, HISTORY_POINTS).await.map_err(ApiError::storage)? {
        let e = history.entry(h.game.clone()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(v) = e {
            v.push(json!({ "at": h.at, "rating": h.rating, "deviation": h.deviation, "before": h.before,
                           "game_id": h.game_id }));
        }
    }
    let t = titles(&st);
    let recent: Vec<Value> = store
        .games_of(&a.id, false, RECENT_GAMES)
        .await
        .map_err(ApiError::storage)?
        .iter()
        .map(|g| game_json(g, &t))
        .collect();
    let bot = crate::bots::page(&st, &a).await?;
    Ok(Json(json!({
        "name": a.name,
        "created_at": a.created_at,
        "computer": is_computer(&a.id),
        "bot": a.bot,
        "bot_info": bot,
        "ratings": ratings,
        "results": results,
        "history": history,
        "recent": recent,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardParams {
    limit: Option<u32>,
}

/// `GET /api/leaderboard/{game}?limit=N`: the best established ratings.
pub(crate) async fn leaderboard(
    State(st): State<AppState>,
    Path(game): Path<String>,
    q: Result<Query<BoardParams>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = q.map_err(|r| ApiError::bad_request("bad_query", r.body_text()))?;
    let info = st.0.ctx.registry.get(&game).map_err(|e| ApiError::not_found(e.to_string()))?.info();
    let limit = q.limit.unwrap_or(50);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request("bad_query", "limit is from 1 to 100"));
    }
    // Read more than asked: widening for inactivity may make some
    // provisional again, and those are left out.
    let rows =
        st.0.store
            .leaders(info.name, plateau_rating::PROVISIONAL_DEVIATION, limit * 4)
            .await
            .map_err(ApiError::storage)?;
    let now = now_ms();
    let mut shown_rows: Vec<(String, bool, Rating)> = rows
        .into_iter()
        .map(|l| (l.name, is_computer(&l.account_id), shown(&l.rating, now)))
        .filter(|(_, _, r)| !r.is_provisional())
        .collect();
    shown_rows.truncate(limit as usize);
    let players: Vec<Value> = shown_rows
        .iter()
        .enumerate()
        .map(|(i, (name, computer, r))| {
            json!({ "rank": i + 1, "name": name, "rating": r.rating, "deviation": r.deviation, "games": r.games,
                    "computer": computer })
        })
        .collect();
    Ok(Json(json!({ "game": info.name, "title": info.title, "players": players })))
}

fn logged_in(a: Option<AccountRow>) -> Result<AccountRow, ApiError> {
    a.ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "not_logged_in", "you are not logged in"))
}

/// `GET /api/account/games`: the account's live games (with whose turn it
/// is), then its last finished ones.
pub(crate) async fn my_games(State(st): State<AppState>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let a = logged_in(account_of(&st, &headers).await?)?;
    let store = &st.0.store;
    let mut live = store.games_of(&a.id, true, MY_LIVE).await.map_err(ApiError::storage)?;
    let finished = store.games_of(&a.id, false, MY_FINISHED).await.map_err(ApiError::storage)?;
    // Whose turn it is lives in the games' tasks: ask each live one.
    let t = titles(&st);
    let mut games = Vec::with_capacity(live.len() + finished.len());
    let mut mine = Vec::new();
    for (i, g) in live.drain(..).enumerate() {
        let mut v = game_json(&g, &t);
        if i >= MY_TURNS {
            v["your_turn"] = Value::Null;
            games.push(v);
            continue;
        }
        let to_move = if g.game.status == crate::store::Status::Live {
            let id = g.game.id.clone();
            let acc = Some(a.id.clone());
            match st
                .0
                .request(&id, |reply| crate::table::Cmd::Query {
                    token: None,
                    account: acc.clone(),
                    what: crate::table::Query::State,
                    reply,
                })
                .await
            {
                Ok(s) => {
                    v["clocks"] = s["clocks"].clone();
                    v["clock_running"] = s["clock_running"].clone();
                    s["to_move"].as_u64().map(|x| x as usize)
                }
                Err(_) => None,
            }
        } else {
            None
        };
        let yours = to_move == Some(g.seat);
        v["your_turn"] = json!(yours);
        if yours {
            mine.push(v);
        } else {
            games.push(v);
        }
    }
    // Games waiting for the account first.
    mine.append(&mut games);
    mine.extend(finished.iter().map(|g| {
        let mut v = game_json(g, &t);
        v["your_turn"] = json!(false);
        v
    }));
    Ok(Json(json!({ "games": mine })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimSeat {
    id: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRequest {
    games: Vec<ClaimSeat>,
}

/// `POST /api/account/claim {"games": [{"id", "token"}]}`: a guest's
/// finished, unrated games become the account's.
pub(crate) async fn claim(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let a = logged_in(account_of(&st, &headers).await?)?;
    let body = body.map_err(|r| ApiError::new(r.status(), crate::error::code_of(r.status()), r.body_text()))?;
    let req: ClaimRequest = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request("bad_json", format!("the request body: {e}")))?;
    if req.games.len() > MAX_CLAIMS {
        return Err(ApiError::bad_request("too_many", format!("at most {MAX_CLAIMS} games at once")));
    }
    let seats: Vec<(String, String)> = req
        .games
        .iter()
        .filter(|g| ids::well_formed(&g.id) && g.id.len() <= 32 && ids::well_formed(&g.token))
        .map(|g| (g.id.clone(), ids::hash_token(&g.token)))
        .collect();
    let claimed = st.0.store.claim(&a.id, &seats).await.map_err(ApiError::storage)?;
    if !claimed.is_empty() {
        tracing::info!("account {} claimed {} games", a.name, claimed.len());
    }
    Ok(Json(json!({ "claimed": claimed })))
}

/// Each computer level's shown rating per game, for the catalogue:
/// `{game: {"ai:N": {"rating", "deviation", "provisional"}}}`.
pub(crate) async fn level_ratings(st: &AppState) -> Result<serde_json::Map<String, Value>, ApiError> {
    let now = now_ms();
    let accounts: Vec<String> = (1..=6).map(crate::players::level_account).collect();
    let mut out = serde_json::Map::new();
    for g in st.0.ctx.registry.games() {
        let name = g.info().name;
        let stored = st.0.store.ratings(name, &accounts).await.map_err(ApiError::storage)?;
        let mut per = serde_json::Map::new();
        for level in 1..=6u8 {
            let id = crate::players::level_account(level);
            let r = stored.iter().find(|(a, _)| *a == id).map_or(Rating::NEW, |(_, s)| shown(s, now));
            per.insert(
                format!("ai:{level}"),
                json!({ "rating": r.rating, "deviation": r.deviation, "provisional": r.is_provisional() }),
            );
        }
        out.insert(name.to_string(), Value::Object(per));
    }
    Ok(out)
}
