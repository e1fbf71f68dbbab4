//! Seeks and quick pairing: post, list, read, cancel and accept seeks;
//! quick pairing; its suggested clocks.

use std::collections::{BTreeMap, HashSet};
use std::net::IpAddr;
use std::time::Instant;

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use plateau_core::Seat;
use plateau_rating::Rating;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    DEFAULT_PRESETS, Member, Owner, PRESETS, RATING_BOUNDS, Seek, SeekState, Terms, account_required, addr_key, answer,
    bearer, client_ip, guest_name, no_seek, parse,
};
use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::state::{Holder, OptionValue};
use crate::store::AccountRow;
use crate::table::now_ms;

/// The shown rating of an account for a game (1500, provisional, if none).
async fn rating_of(st: &AppState, game: &str, account: &str) -> Result<Rating, ApiError> {
    let stored = st.0.store.ratings(game, &[account.to_string()]).await.map_err(ApiError::storage)?;
    Ok(stored.first().map_or(Rating::NEW, |(_, s)| crate::profiles::shown(s, now_ms())))
}

pub(super) fn check_range(min: Option<i64>, max: Option<i64>) -> Result<(), ApiError> {
    let bad = |m: String| ApiError::bad_request("bad_range", m);
    for r in [min, max].into_iter().flatten() {
        if !RATING_BOUNDS.contains(&r) {
            return Err(bad(format!("a rating range is within {} and {}", RATING_BOUNDS.start(), RATING_BOUNDS.end())));
        }
    }
    if let (Some(a), Some(b)) = (min, max)
        && a > b
    {
        return Err(bad(format!("rating_min ({a}) is above rating_max ({b})")));
    }
    Ok(())
}

/// `POST /api/seeks`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeekRequest {
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    rating_min: Option<i64>,
    #[serde(default)]
    rating_max: Option<i64>,
    #[serde(default)]
    name: Option<String>,
}

/// A new seek, before it is admitted.
struct NewSeek {
    seek: Seek,
    token: Option<String>,
}

/// Make a seek for `account` (or a guest named `name`) at `ip`.
#[allow(clippy::too_many_arguments)]
async fn new_seek(
    st: &AppState,
    account: Option<&AccountRow>,
    name: Option<&str>,
    ip: IpAddr,
    terms: Terms,
    rating_min: Option<i64>,
    rating_max: Option<i64>,
) -> Result<NewSeek, ApiError> {
    check_range(rating_min, rating_max)?;
    let (owner, token, rating) = match account {
        Some(a) => (Owner::Account(Member::of(a)), None, Some(rating_of(st, terms.game, &a.id).await?)),
        None => {
            let t = ids::new_token()?;
            let owner = Owner::Guest { name: guest_name(name)?, token_hash: ids::hash_token(&t) };
            (owner, Some(t), None)
        }
    };
    let seek = Seek {
        id: ids::new_game_id()?,
        owner,
        addr: addr_key(ip),
        terms,
        rating_min,
        rating_max,
        rating,
        created_at: now_ms(),
        posted: Instant::now(),
        followers: HashSet::new(),
        left_at: None,
        state: SeekState::Open,
    };
    Ok(NewSeek { seek, token })
}

/// `POST /api/seeks` → 201 `{"id", "token"}` (`token`: a guest's secret for
/// its seek; `null` for an account).
pub(crate) async fn post_seek(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: SeekRequest = parse(body)?;
    let account = crate::accounts::account_of(&st, &headers).await?;
    crate::bots::challenges_only(account.as_ref())?;
    let terms = Terms::check(
        &st,
        &req.game,
        req.variant.as_deref(),
        &req.options,
        req.clock.as_ref(),
        req.rated,
        account.is_some(),
    )?;
    let ns =
        new_seek(&st, account.as_ref(), req.name.as_deref(), client_ip(info), terms, req.rating_min, req.rating_max)
            .await?;
    let id = ns.seek.id.clone();
    if let Some(db) = &st.2.db {
        db.post_seek(&ns.seek).await?;
        st.2.sync().await;
    } else {
        let mut inner = st.2.lock();
        inner.admit(&ns.seek)?;
        inner.insert_seek(ns.seek);
    }
    st.2.changed();
    Ok(answer(StatusCode::CREATED, json!({ "id": id, "token": ns.token })))
}

/// `GET /api/seeks`: the open seeks, oldest first.
pub(crate) async fn list_seeks(State(st): State<AppState>) -> Response {
    let body = st.2.lock().list().body.clone();
    let mut res = Response::new(Body::from(body));
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Whether the request is the seek's owner: its account, or its token.
fn owns(seek: &Seek, account: Option<&AccountRow>, headers: &HeaderMap) -> bool {
    match (&seek.owner, account) {
        (Owner::Account(m), Some(a)) => m.id == a.id,
        (Owner::Guest { .. }, _) => bearer(headers).is_some_and(|t| seek.token_is(t)),
        (Owner::Account(_), None) => false,
    }
}

/// `GET /api/seeks/{id}`: to its owner `{"status": "open" | "matched",
/// "game", "seat", "token", "seek"}`; to others `{"status": "open", "seek"}`
/// while it is open.
pub(crate) async fn get_seek(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let account = crate::accounts::account_of(&st, &headers).await?;
    let inner = st.2.lock();
    let seek = inner.seek(&id).ok_or_else(|| no_seek(&id))?;
    if !owns(seek, account.as_ref(), &headers) {
        if !seek.is_open() {
            return Err(no_seek(&id));
        }
        return Ok(answer(StatusCode::OK, json!({ "status": "open", "seek": seek.public() })));
    }
    let body = match &seek.state {
        SeekState::Matched { game, seat, token, .. } => {
            json!({ "status": "matched", "game": game, "seat": seat, "token": token, "seek": seek.public() })
        }
        _ => json!({ "status": "open", "game": null, "seat": null, "token": null, "seek": seek.public() }),
    };
    Ok(answer(StatusCode::OK, body))
}

/// `DELETE /api/seeks/{id}`: its owner cancels it.
pub(crate) async fn cancel_seek(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let account = crate::accounts::account_of(&st, &headers).await?;
    let may_cancel = |seek: &Seek| {
        if !owns(seek, account.as_ref(), &headers) {
            return Err(ApiError::forbidden(
                "not_owner",
                "this seek is not yours: its owner's account, or its token (Authorization: Bearer TOKEN), cancels it",
            ));
        }
        if !seek.is_open() {
            return Err(ApiError::conflict("not_open", "this seek was accepted: its game has started"));
        }
        Ok(())
    };
    if let Some(db) = &st.2.db {
        // As stored: every instance's changes count, taken or cancelled
        // since this copy was read.
        loop {
            let seek = db.seek(&id).await?.ok_or_else(|| no_seek(&id))?;
            may_cancel(&seek)?;
            if db.cancel_seek(&id).await? {
                break;
            }
        }
        st.2.sync().await;
    } else {
        let mut inner = st.2.lock();
        let seek = inner.seek(&id).ok_or_else(|| no_seek(&id))?;
        may_cancel(seek)?;
        inner.remove_seek(&id);
    }
    st.2.changed();
    Ok(answer(StatusCode::OK, json!({ "ok": true })))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct AcceptRequest {
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/seeks/{id}/accept {"name"?}` → `{"game", "seat", "token"}`.
pub(crate) async fn accept_seek(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: AcceptRequest = parse(body)?;
    let account = crate::accounts::account_of(&st, &headers).await?;
    crate::bots::challenges_only(account.as_ref())?;
    let stored = match &st.2.db {
        Some(db) => db.seek(&id).await?.filter(Seek::is_open),
        None => None,
    };
    let game = match &st.2.db {
        Some(_) => stored.as_ref().map(|s| s.terms.game),
        None => st.2.lock().seek(&id).filter(|s| s.is_open()).map(|s| s.terms.game),
    }
    .ok_or_else(|| no_seek(&id))?;
    let rating = match &account {
        Some(a) => rating_of(&st, game, &a.id).await?.rating,
        None => Rating::NEW.rating,
    };
    let acceptor = match &account {
        Some(a) => Holder::Account(a.clone()),
        None => Holder::Guest(guest_name(req.name.as_deref())?),
    };
    let may_accept = |seek: &Seek| {
        if let (Some(m), Some(a)) = (seek.account(), &account)
            && m.id == a.id
        {
            return Err(ApiError::conflict("own_seek", "this is your own seek: wait for someone to accept it"));
        }
        if seek.terms.rated && account.is_none() {
            return Err(account_required());
        }
        if !seek.allows(rating) {
            return Err(ApiError::forbidden(
                "out_of_range",
                format!(
                    "this seek is for players rated {} to {}",
                    range_text(seek.rating_min),
                    range_text(seek.rating_max)
                ),
            ));
        }
        Ok(())
    };
    let taken = match (&st.2.db, stored) {
        (Some(db), Some(seek)) => {
            // A seek's terms never change: checked as read, taken if still
            // open (one instance wins).
            may_accept(&seek)?;
            if !db.move_seek(&id, "open", "taken").await? {
                return Err(no_seek(&id));
            }
            st.2.sync().await;
            Taken { id: id.clone(), terms: seek.terms.clone(), seeker: seek.holder() }
        }
        _ => {
            let mut inner = st.2.lock();
            let seek = inner.seek_mut(&id).filter(|s| s.is_open()).ok_or_else(|| no_seek(&id))?;
            may_accept(seek)?;
            seek.state = SeekState::Taken;
            let taken = Taken { id: id.clone(), terms: seek.terms.clone(), seeker: seek.holder() };
            inner.version += 1;
            taken
        }
    };
    st.2.changed();
    let r = start_match(&st, taken, acceptor, client_ip(info)).await?;
    Ok(answer(StatusCode::OK, r))
}

fn range_text(r: Option<i64>) -> String {
    r.map_or("any".into(), |r| r.to_string())
}

/// A seek taken by an acceptor, its game to be made.
struct Taken {
    id: String,
    terms: Terms,
    seeker: Holder,
}

/// Make the game of a taken seek (seats in a random order), tell its owner,
/// and answer the acceptor's seat and token; if the game cannot be made, the
/// seek is open again. Runs as a task of its own: a request given up
/// half-way never leaves a seek taken for ever.
async fn start_match(st: &AppState, taken: Taken, acceptor: Holder, ip: IpAddr) -> Result<Value, ApiError> {
    let id = taken.id.clone();
    let task = st.clone();
    let made = tokio::spawn(async move {
        let st = task;
        let made = async {
            let seeker_seat = (ids::random_u64()? & 1) as Seat;
            let holders = vec![(1 - seeker_seat, acceptor), (seeker_seat, taken.seeker.clone())];
            let c = st.0.create_seated(taken.terms.request()?, ip, holders).await?;
            Ok::<_, ApiError>((c, seeker_seat))
        }
        .await;
        match made {
            Ok((c, seeker_seat)) => {
                let token = |s: Seat| c.tokens.get(s).cloned().flatten().unwrap_or_default();
                let seat = 1 - seeker_seat;
                if let Some(db) = &st.2.db {
                    // Its owner hears it on every instance (`shared.rs`).
                    if let Err(e) = db.matched(&taken.id, &c.id, seeker_seat, &token(seeker_seat)).await {
                        tracing::warn!("lobby: seek {} matched with game {}, not recorded: {e:?}", taken.id, c.id);
                    }
                    st.2.sync().await;
                    return Ok(json!({ "game": c.id, "seat": seat, "token": token(seat) }));
                }
                let mut inner = st.2.lock();
                if let Some(seek) = inner.seek_mut(&taken.id) {
                    seek.state = SeekState::Matched {
                        game: c.id.clone(),
                        seat: seeker_seat,
                        token: token(seeker_seat),
                        at: Instant::now(),
                    };
                    if let Some(f) = seek.matched_frame() {
                        inner.send_followers(&taken.id, &f);
                    }
                }
                Ok(json!({ "game": c.id, "seat": seat, "token": token(seat) }))
            }
            Err(e) => {
                reopen(&st, &taken.id).await;
                Err(e)
            }
        }
    })
    .await;
    match made {
        Ok(r) => r,
        Err(_) => {
            reopen(st, &id).await;
            Err(ApiError::internal("making the game failed"))
        }
    }
}

/// A taken seek whose game could not be made is open again.
async fn reopen(st: &AppState, id: &str) {
    if let Some(db) = &st.2.db {
        if let Err(e) = db.move_seek(id, "taken", "open").await {
            tracing::warn!("lobby: seek {id} not reopened: {e:?}");
        }
        st.2.sync().await;
        return;
    }
    let mut inner = st.2.lock();
    if let Some(seek) = inner.seek_mut(id)
        && matches!(seek.state, SeekState::Taken)
    {
        seek.state = SeekState::Open;
        inner.version += 1;
        drop(inner);
        st.2.changed();
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuickRequest {
    game: String,
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/quick {"game", "clock", "name"?}`: accept the oldest
/// compatible seek (200 `{"game", "seat", "token"}`), else post one (201
/// `{"id", "token"}`). An account's quick pairing is rated, a guest's casual.
pub(crate) async fn quick(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: QuickRequest = parse(body)?;
    let account = crate::accounts::account_of(&st, &headers).await?;
    crate::bots::challenges_only(account.as_ref())?;
    let rated = account.is_some();
    let terms = Terms::check(&st, &req.game, None, &BTreeMap::new(), req.clock.as_ref(), rated, rated)?;
    let ip = client_ip(info);
    let ns = new_seek(&st, account.as_ref(), req.name.as_deref(), ip, terms, None, None).await?;
    let rating = ns.seek.rating.map_or(Rating::NEW.rating, |r| r.rating);
    let me = addr_key(ip);
    let acceptor = ns.seek.holder();
    let pairs = |s: &Seek| {
        s.is_open()
            && s.terms == ns.seek.terms
            // Nobody is paired with themselves: an account is known by its
            // id (two accounts of one household may meet), a guest only by
            // its address.
            && match (s.account(), &account) {
                (Some(m), Some(a)) => m.id != a.id,
                _ => s.addr != me,
            }
            && s.allows(rating)
    };
    if let Some(db) = &st.2.db {
        let found = db.quick(&ns.seek, pairs).await?;
        st.2.sync().await;
        st.2.changed();
        return match found {
            Some(s) => {
                let t = Taken { id: s.id.clone(), terms: s.terms.clone(), seeker: s.holder() };
                Ok(answer(StatusCode::OK, start_match(&st, t, acceptor, ip).await?))
            }
            None => Ok(answer(StatusCode::CREATED, json!({ "id": ns.seek.id, "token": ns.token }))),
        };
    }
    let taken = {
        let mut inner = st.2.lock();
        let found = inner.seeks.values_mut().find(|s| pairs(s)).map(|s| {
            s.state = SeekState::Taken;
            Taken { id: s.id.clone(), terms: s.terms.clone(), seeker: s.holder() }
        });
        match found {
            Some(t) => {
                inner.version += 1;
                Some(t)
            }
            None => {
                inner.admit(&ns.seek)?;
                inner.insert_seek(ns.seek.clone());
                None
            }
        }
    };
    st.2.changed();
    match taken {
        Some(t) => Ok(answer(StatusCode::OK, start_match(&st, t, acceptor, ip).await?)),
        None => Ok(answer(StatusCode::CREATED, json!({ "id": ns.seek.id, "token": ns.token }))),
    }
}

/// `GET /api/quick`: quick pairing's suggested clocks, per game.
pub(crate) async fn presets(State(st): State<AppState>) -> Response {
    let mut out = serde_json::Map::new();
    for g in st.0.ctx.registry.games() {
        let name = g.info().name;
        let list = PRESETS.iter().find(|(n, _)| *n == name).map_or(DEFAULT_PRESETS, |(_, p)| p);
        let clocks: Vec<Value> = list.iter().map(|&(i, n)| json!({ "initial": i, "increment": n })).collect();
        out.insert(name.to_string(), Value::Array(clocks));
    }
    answer(StatusCode::OK, json!({ "presets": out }))
}
