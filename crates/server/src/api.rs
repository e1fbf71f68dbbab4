//! The HTTP handlers of the JSON API.

use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::net::IpAddr;

use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::protocol::{ClientMsg, clean_name};
use crate::state::{CreateRequest, OptionValue, SeedValue, client_seed, new_match_checked, options_of};
use crate::store::{Listing, Status};
use crate::table::{Cmd, Query as TableQuery, Who};

type ApiResult<T> = Result<T, ApiError>;

fn body_error(r: BytesRejection) -> ApiError {
    let status = r.status();
    ApiError::new(status, crate::error::code_of(status), r.body_text())
}

fn query_error(r: QueryRejection) -> ApiError {
    ApiError::bad_request("bad_query", r.body_text())
}

/// Parse a JSON body; an empty body is `{}`.
pub(crate) fn parse_json<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let body = body.map_err(body_error)?;
    let text: &[u8] = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &body };
    serde_json::from_slice(text).map_err(|e| ApiError::bad_request("bad_json", format!("the request body: {e}")))
}

/// The token of an `Authorization: Bearer TOKEN` header, if any.
fn bearer(headers: &HeaderMap) -> ApiResult<Option<String>> {
    let Some(h) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    let token = h
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| ids::well_formed(t))
        .ok_or_else(ApiError::bad_token)?;
    Ok(Some(token.to_string()))
}

/// The client's address (see [`crate::ClientIp`]; the loopback address when
/// the router is used without connection information).
fn client_ip(info: Option<Extension<crate::ClientIp>>) -> IpAddr {
    info.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(crate::ClientIp(a))| a)
}

/// The seat token of a request (`Authorization: Bearer TOKEN`, not an
/// access token), and the account it is logged in as (an access token or
/// the session cookie).
async fn who(st: &AppState, headers: &HeaderMap) -> ApiResult<(Option<String>, Option<crate::store::AccountRow>)> {
    let account = crate::accounts::account_of(st, headers).await?;
    let token = if account.is_some() && headers.contains_key(header::AUTHORIZATION) { None } else { bearer(headers)? };
    Ok((token, account))
}

/// `POST /api/games`: create a game (the creator's seat is the account's
/// when logged in).
pub(crate) async fn create(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: CreateRequest = parse_json(body)?;
    let account = crate::accounts::account_of(&st, &headers).await?;
    crate::bots::challenges_only(account.as_ref())?;
    let c = st.0.create(req, client_ip(info), account).await?;
    let body = json!({
        "id": c.id,
        "seat": c.seat,
        "token": c.token,
        "invite": format!("/game/{}", c.id),
        "ws": format!("/api/games/{}/ws", c.id),
        "state": c.state,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListParams {
    status: Option<String>,
    limit: Option<u32>,
    cursor: Option<String>,
}

/// `GET /api/games?status=open|live|finished|aborted&limit=N&cursor=C`.
pub(crate) async fn list(
    State(st): State<AppState>,
    q: Result<Query<ListParams>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q.map_err(query_error)?;
    let status = match q.status.as_deref() {
        None => Status::Open,
        Some(s) => Status::parse(s).ok_or_else(|| {
            ApiError::bad_request("bad_query", format!("status {s:?}: use open, live, finished or aborted"))
        })?,
    };
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request("bad_query", "limit is from 1 to 100"));
    }
    let after = match &q.cursor {
        None => None,
        Some(c) => {
            let (at, id) = c
                .split_once('.')
                .and_then(|(a, i)| Some((a.parse::<i64>().ok()?, i)))
                .filter(|(_, i)| ids::well_formed(i))
                .ok_or_else(|| ApiError::bad_request("bad_query", "bad cursor: pass back the `next` of a listing"))?;
            Some((at, id.to_string()))
        }
    };
    let listing = Listing { status, limit, after };
    let rows = st.0.store.list(&listing).await.map_err(ApiError::storage)?;
    let next = if rows.len() == limit as usize {
        rows.last().map(|l| format!("{}.{}", l.game.updated_at, l.game.id))
    } else {
        None
    };
    let titles: Vec<(&str, &str)> = st.0.ctx.registry.games().map(|g| (g.info().name, g.info().title)).collect();
    let games: Vec<Value> = rows
        .iter()
        .map(|l| {
            let g = &l.game;
            json!({
                "id": g.id,
                "game": g.game,
                "title": titles.iter().find(|(n, _)| *n == g.game).map(|(_, t)| *t),
                "variant": g.variant,
                "options": g.options,
                "status": g.status,
                "moves": l.moves,
                "result": g.result,
                "termination": g.termination,
                "rematch_of": g.rematch_of,
                "created_at": g.created_at,
                "updated_at": g.updated_at,
                "seats": l.seats.iter().map(|s| json!({
                    "seat": s.seat,
                    "kind": s.kind,
                    "player": s.name,
                    "spec": s.player,
                    "open": s.kind == crate::store::SeatKind::Human && s.token_hash.is_none(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(Json(json!({ "games": games, "next": next })))
}

/// Read game `id` as the request's seat token, else its account, else a
/// spectator, may see it.
async fn read(st: &AppState, id: &str, headers: &HeaderMap, what: impl Fn() -> TableQuery) -> ApiResult<Value> {
    let (token, account) = who(st, headers).await?;
    let account = account.map(|a| a.id);
    st.0.request(id, |reply| Cmd::Query { token: token.clone(), account: account.clone(), what: what(), reply }).await
}

/// `GET /api/games/{id}`: the state, as the bearer's seat (or a spectator) sees it.
pub(crate) async fn get_game(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let v = read(&st, &id, &headers, || TableQuery::State).await?;
    Ok(Json(v))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordParams {
    format: Option<String>,
}

/// `GET /api/games/{id}/record[?format=text]`.
pub(crate) async fn record(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<RecordParams>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = q.map_err(query_error)?;
    let v = read(&st, &id, &headers, || TableQuery::Record).await?;
    match q.format.as_deref() {
        None | Some("json") => Ok(Json(v).into_response()),
        Some("text") => Ok((
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            v["text"].as_str().unwrap_or_default().to_string(),
        )
            .into_response()),
        Some(f) => Err(ApiError::bad_request("bad_query", format!("format {f:?}: use json or text"))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionParams {
    ply: u64,
}

/// `GET /api/games/{id}/position?ply=N`: the view after N moves.
pub(crate) async fn position(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = q.map_err(query_error)?;
    let v = read(&st, &id, &headers, || TableQuery::Position(q.ply)).await?;
    Ok(Json(v))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinRequest {
    seat: Option<usize>,
    name: Option<String>,
}

/// `POST /api/games/{id}/join`: take an open seat (as the account, when
/// logged in).
pub(crate) async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: JoinRequest = parse_json(body)?;
    let account = crate::accounts::account_of(&st, &headers).await?;
    crate::bots::challenges_only(account.as_ref())?;
    let account = account.map(|a| (a.id, a.name));
    let name = match &req.name {
        Some(n) => Some(clean_name(n).map_err(|e| ApiError::bad_request("bad_name", e))?),
        None => None,
    };
    let j =
        st.0.request(&id, |reply| Cmd::Join {
            seat: req.seat,
            name: name.clone(),
            account: account.clone(),
            token_hash: None,
            reply,
        })
        .await?;
    Ok(Json(json!({
        "id": id,
        "seat": j.seat,
        "token": j.token,
        "ws": format!("/api/games/{id}/ws"),
        "state": j.state,
    })))
}

/// `POST /api/games/{id}/action`: what a WebSocket client sends, over HTTP,
/// with the seat's token as a bearer token.
pub(crate) async fn action(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let who = match who(&st, &headers).await? {
        (Some(token), _) => Who::Token(token),
        (None, Some(account)) => Who::Account(account.id),
        (None, None) => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "bad_token",
                "acting needs the seat's token (Authorization: Bearer TOKEN), or to be logged in as the seat's account",
            ));
        }
    };
    let msg: ClientMsg = parse_json(body)?;
    let action = msg.action().ok_or_else(|| {
        ApiError::bad_request(
            "bad_message",
            "not an action: use move, resign, offer_draw, accept_draw, decline_draw, takeback_offer, \
             takeback_accept, takeback_decline, abort, rematch or leave (chat is on the game's WebSocket)",
        )
    })?;
    let version =
        st.0.request(&id, |reply| Cmd::Act { who: who.clone(), action: action.clone(), reply: Some(reply) }).await?;
    Ok(Json(json!({ "ok": true, "version": version })))
}

/// An option's values as this server accepts them: an integer's `max` is
/// the game's cap for untrusted clients when it has one (work budgets).
fn option_kind_json(o: &plateau_core::OptionSpec) -> Value {
    use plateau_core::OptionKind as K;
    let cap = |max: i64| o.untrusted_max.map_or(max, |c| c.min(max));
    match o.kind {
        K::Int { min, max } => json!({ "type": "int", "min": min, "max": cap(max) }),
        K::OptionalInt { min, max } => json!({ "type": "optional_int", "min": min, "max": cap(max) }),
        K::Bool => json!({ "type": "bool" }),
        K::Choice(words) => json!({ "type": "choice", "values": words }),
        K::Text => json!({ "type": "text" }),
        K::Content => json!({ "type": "content" }),
    }
}

/// `GET /api/catalog`: every game, its variants, options and computer
/// levels (each with its current rating for the game).
pub(crate) async fn catalog(State(st): State<AppState>) -> ApiResult<Json<Value>> {
    let ratings = crate::profiles::level_ratings(&st).await?;
    let games: Vec<Value> =
        st.0.ctx
            .registry
            .games()
            .map(|g| {
                let i = g.info();
                let levels: Vec<Value> = plateau_games::players(i.name)
                    .map(|p| p.levels().to_vec())
                    .unwrap_or_default()
                    .iter()
                    .map(|l| {
                        let mut v = json!(l);
                        let r = ratings.get(i.name).and_then(|g| g.get(format!("ai:{}", l.level)));
                        if let Some(r) = r {
                            v["rating"] = r["rating"].clone();
                            v["deviation"] = r["deviation"].clone();
                            v["provisional"] = r["provisional"].clone();
                        }
                        v
                    })
                    .collect();
                json!({
                    "name": i.name,
                    "title": i.title,
                    "summary": i.summary,
                    "min_seats": i.min_seats,
                    "max_seats": i.max_seats,
                    "hidden": i.hidden,
                    "uses_seed": i.uses_seed,
                    "has_draws": i.has_draws,
                    "variants": i.variants.iter().map(|v| json!({
                        "name": v.name,
                        "help": v.help,
                        "options": v.options.iter().map(|(k, x)| json!([k, x])).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "options": i.options.iter().map(|o| json!({
                        "name": o.name,
                        "help": o.help,
                        "kind": option_kind_json(o),
                        "default": o.default,
                    })).collect::<Vec<_>>(),
                    "levels": levels,
                })
            })
            .collect();
    Ok(Json(json!({ "games": games })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetupRequest {
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    options: std::collections::BTreeMap<String, OptionValue>,
    #[serde(default)]
    seed: Option<SeedValue>,
}

/// `POST /api/setup`: check a configuration and see its seats and start.
pub(crate) async fn setup(State(st): State<AppState>, body: Result<Bytes, BytesRejection>) -> ApiResult<Json<Value>> {
    let req: SetupRequest = parse_json(body)?;
    let bad = |m: String| ApiError::bad_request("bad_setup", m);
    let options = options_of(&req.options)?;
    let entry = st.0.ctx.registry.get(&req.game).map_err(|e| bad(e.to_string()))?;
    let seed = client_seed(req.seed.as_ref(), entry.info())?.unwrap_or(0);
    let setup = plateau_core::Setup { variant: req.variant, options, seed };
    let m = new_match_checked(entry, &setup)?;
    Ok(Json(json!({
        "game": m.info().name,
        "variant": m.variant(),
        "seats": (0..m.seats()).map(|s| json!({ "seat": s, "name": m.seat_name(s) })).collect::<Vec<_>>(),
        "to_move": m.to_move().seat(),
        "view": if m.info().hidden { Value::Null } else { m.view(plateau_core::Reader::Spectator) },
    })))
}

/// `GET /api/stats`: counters, for operators and the load tool.
pub(crate) async fn stats(State(st): State<AppState>) -> Json<Value> {
    use std::sync::atomic::Ordering::Relaxed;
    let s = &st.0;
    let w = &s.ctx.writer.stats;
    Json(json!({
        "games_in_memory": s.ctx.in_memory(),
        "connections": s.connections.load(Relaxed),
        "commits": w.commits.load(Relaxed),
        "write_groups": w.groups.load(Relaxed),
        "write_failures": w.failures.load(Relaxed),
        "commit_delays": w.delays.load(Relaxed),
        "commit_micros": w.commit_micros.load(Relaxed),
        "max_commit_micros": w.max_commit_micros.load(Relaxed),
        "ai_threads": s.ctx.pool.threads(),
        "ai_queued": s.ctx.pool.queued(),
    }))
}

/// `GET /api/health`.
pub(crate) async fn health() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// `GET /api/docs`: the API reference (Markdown).
pub(crate) async fn docs() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], crate::API_DOCS)
}

/// `GET /` (and `/game/{id}`) while no web UI is merged in.
pub(crate) async fn index() -> Html<&'static str> {
    Html(include_str!("index.html"))
}

/// Unknown routes.
pub(crate) async fn not_found() -> ApiError {
    ApiError::not_found("no such page: see /api/docs")
}
