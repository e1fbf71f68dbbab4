//! Challenges: a game offered by one account to another, by name.
//!
//! `POST /api/challenges` makes one (both parties hear it on their lobby
//! sockets), `GET /api/challenges` lists an account's incoming and outgoing
//! ones, the challenged accepts (the game starts, seats drawn at random) or
//! declines, the challenger cancels (`DELETE`). Computer levels are not
//! challenged: a game with a level in a seat is made directly.

use std::collections::BTreeMap;
use std::time::Instant;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    CHALLENGE_TTL, CHALLENGES_PER_ACCOUNT, CHALLENGES_TO_ACCOUNT, CORRESPONDENCE_CHALLENGE_TTL, Challenge, Inner,
    Member, Terms, answer, client_ip, frame, not_logged_in, parse,
};
use crate::AppState;
use crate::accounts::{RESERVED_PREFIX, account_name, account_of, name_key};
use crate::error::ApiError;
use crate::ids;
use crate::state::OptionValue;
use crate::store::AccountRow;
use crate::table::now_ms;

/// `POST /api/challenges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengeRequest {
    to: String,
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rated: bool,
}

async fn logged_in(st: &AppState, headers: &HeaderMap) -> Result<AccountRow, ApiError> {
    account_of(st, headers).await?.ok_or_else(not_logged_in)
}

fn no_challenge(id: &str) -> ApiError {
    ApiError::not_found(format!("you have no challenge {id:?}"))
}

/// `POST /api/challenges {"to", "game", "variant"?, "options"?, "clock"?,
/// "rated"?}` → 201 the challenge.
pub(crate) async fn post_challenge(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let me = logged_in(&st, &headers).await?;
    let req: ChallengeRequest = parse(body)?;
    let nobody = || ApiError::not_found(format!("there is no player {:?}", req.to));
    let to_name = account_name(&req.to).map_err(|_| nobody())?;
    let key = name_key(&to_name);
    if key.starts_with(RESERVED_PREFIX) {
        let level = key.rsplit('-').next().filter(|l| l.parse::<u8>().is_ok()).unwrap_or("N");
        return Err(ApiError::bad_request(
            "computer_challenge",
            format!(
                "{to_name} is a computer player: to play it, create a game (POST /api/games) with it in a seat \
                 ({{\"kind\": \"computer\", \"player\": \"ai:{level}\"}})"
            ),
        ));
    }
    let to = st.0.store.account_by_name(&key).await.map_err(ApiError::storage)?.ok_or_else(nobody)?;
    if to.id == me.id {
        return Err(ApiError::bad_request("challenge_self", "you cannot challenge yourself"));
    }
    let terms =
        Terms::check(&st, &req.game, req.variant.as_deref(), &req.options, req.clock.as_ref(), req.rated, true)?;
    if to.bot {
        let clock = match terms.clock {
            None => "none",
            Some(_) if terms.is_correspondence() => "correspondence",
            Some(_) => "live",
        };
        crate::bots::takes(&st, &to, terms.game, terms.rated, clock).await?;
    }
    let ttl = if terms.is_correspondence() { CORRESPONDENCE_CHALLENGE_TTL } else { CHALLENGE_TTL };
    let now = now_ms();
    let c = Challenge {
        id: ids::new_game_id()?,
        from: Member::of(&me),
        to: Member::of(&to),
        terms,
        created_at: now,
        expires_at: now + ttl.as_millis() as i64,
        deadline: Instant::now() + ttl,
    };
    let body = c.json("open");
    let caps = |from: usize, to: usize| {
        if from >= CHALLENGES_PER_ACCOUNT {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_challenges",
                format!("at most {CHALLENGES_PER_ACCOUNT} challenges waiting at once: cancel one first"),
            ));
        }
        if to >= CHALLENGES_TO_ACCOUNT {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_challenges",
                format!("{} has {CHALLENGES_TO_ACCOUNT} challenges waiting already: try again later", c.to.name),
            ));
        }
        Ok(())
    };
    if let Some(db) = &st.2.db {
        // Counted over every instance; both parties hear it from the read.
        db.post_challenge(&c, caps).await?;
        st.2.sync().await;
        return Ok(answer(StatusCode::CREATED, body));
    }
    let mut inner = st.2.lock();
    caps(
        inner.challenges.values().filter(|x| x.from.id == me.id).count(),
        inner.challenges.values().filter(|x| x.to.id == c.to.id).count(),
    )?;
    inner.tell_both(&c, "open");
    inner.insert_challenge(c);
    drop(inner);
    Ok(answer(StatusCode::CREATED, body))
}

/// Tell both parties their challenge was accepted: each its own seat and
/// token in `game`.
pub(super) fn tell_accepted(
    inner: &mut Inner,
    c: &Challenge,
    game: &str,
    challenger_seat: usize,
    challenger_token: Option<&str>,
    challenged_token: Option<&str>,
) {
    let news = |seat: usize, token: Option<&str>, again: bool| {
        let mut v = json!({
            "type": "challenge", "challenge": c.json("accepted"), "game": game, "seat": seat, "token": token,
        });
        if again {
            v["again"] = json!(true);
        }
        frame(&v)
    };
    inner.send_account(&c.from.id, &news(challenger_seat, challenger_token, false));
    inner.send_account(&c.to.id, &news(1 - challenger_seat, challenged_token, false));
    inner.remember_accepted(&c.from.id, news(challenger_seat, challenger_token, true));
    inner.remember_accepted(&c.to.id, news(1 - challenger_seat, challenged_token, true));
}

/// `GET /api/challenges` → `{"incoming": [...], "outgoing": [...]}`.
pub(crate) async fn list_challenges(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let me = logged_in(&st, &headers).await?;
    let (incoming, outgoing) = st.2.lock().challenges_of(&me.id);
    Ok(answer(StatusCode::OK, json!({ "incoming": incoming, "outgoing": outgoing })))
}

/// Take a challenge out if `me` is its challenged (`challenged`) or its
/// challenger; on PostgreSQL, it becomes `status` (`taken`, `declined`,
/// `cancelled`), which both parties hear of from the read that follows.
async fn take(st: &AppState, id: &str, me: &AccountRow, challenged: bool, status: &str) -> Result<Challenge, ApiError> {
    if let Some(db) = &st.2.db {
        let c = db.take_challenge(id, status, |c| party(c, id, me, challenged)).await?;
        st.2.sync().await;
        return c.ok_or_else(|| no_challenge(id));
    }
    let mut inner = st.2.lock();
    let c = inner.challenge(id).ok_or_else(|| no_challenge(id))?;
    party(c, id, me, challenged)?;
    inner.remove_challenge(id).ok_or_else(|| no_challenge(id))
}

/// Whether `me` is the challenge's challenged (`challenged`) or challenger.
fn party(c: &Challenge, id: &str, me: &AccountRow, challenged: bool) -> Result<(), ApiError> {
    let (mine, theirs) = if challenged { (&c.to, &c.from) } else { (&c.from, &c.to) };
    if mine.id != me.id {
        if theirs.id == me.id {
            return Err(if challenged {
                ApiError::forbidden("not_challenged", "you made this challenge: cancel it (DELETE) instead")
            } else {
                ApiError::forbidden("not_challenger", "this challenge is to you: accept or decline it instead")
            });
        }
        return Err(no_challenge(id));
    }
    Ok(())
}

/// `POST /api/challenges/{id}/accept` → `{"game", "seat", "token"}`; each
/// party's lobby sockets get the challenge `accepted` with its own seat and
/// token.
pub(crate) async fn accept_challenge(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = logged_in(&st, &headers).await?;
    let c = take(&st, &id, &me, true, "taken").await?;
    let ip = client_ip(info);
    // A task of its own: a request given up half-way still tells both.
    let st2 = st.clone();
    tokio::spawn(async move {
        let made = async {
            let challenger_seat = (ids::random_u64()? & 1) as usize;
            let holders = vec![(1 - challenger_seat, c.to.holder()), (challenger_seat, c.from.holder())];
            let g = st2.0.create_seated(c.terms.request()?, ip, holders).await?;
            Ok::<_, ApiError>((g, challenger_seat))
        }
        .await;
        if let Some(db) = &st2.2.db {
            // Both parties hear it on every instance (`shared.rs`).
            let tokens = |g: &crate::state::Created, s: usize| g.tokens.get(s).cloned().flatten();
            let recorded = match &made {
                Ok((g, seat)) => {
                    let (from, to) = (tokens(g, *seat), tokens(g, 1 - *seat));
                    db.challenge_made(&c.id, Some((&g.id, *seat, from.as_deref(), to.as_deref()))).await
                }
                Err(_) => db.challenge_made(&c.id, None).await,
            };
            if let Err(e) = recorded {
                tracing::warn!("lobby: challenge {} not recorded as accepted or open again: {e:?}", c.id);
            }
            st2.2.sync().await;
            let (g, seat) = made?;
            return Ok(json!({ "game": g.id, "seat": 1 - seat, "token": tokens(&g, 1 - seat) }));
        }
        let mut inner = st2.2.lock();
        match made {
            Ok((g, challenger_seat)) => {
                let token = |s: usize| g.tokens.get(s).cloned().flatten();
                let seat = 1 - challenger_seat;
                tell_accepted(
                    &mut inner,
                    &c,
                    &g.id,
                    challenger_seat,
                    token(challenger_seat).as_deref(),
                    token(seat).as_deref(),
                );
                Ok(json!({ "game": g.id, "seat": seat, "token": token(seat) }))
            }
            Err(e) => {
                // The game could not be made: the challenge stands.
                if c.deadline > Instant::now() {
                    inner.insert_challenge(c);
                }
                Err(e)
            }
        }
    })
    .await
    .map_err(|_| ApiError::internal("making the game failed"))?
    .map(|v| answer(StatusCode::OK, v))
}

/// `POST /api/challenges/{id}/decline`: the challenged says no.
pub(crate) async fn decline_challenge(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = logged_in(&st, &headers).await?;
    let c = take(&st, &id, &me, true, "declined").await?;
    if st.2.db.is_none() {
        st.2.lock().tell_both(&c, "declined");
    }
    Ok(answer(StatusCode::OK, json!({ "ok": true })))
}

/// `DELETE /api/challenges/{id}`: the challenger takes it back.
pub(crate) async fn cancel_challenge(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = logged_in(&st, &headers).await?;
    let c = take(&st, &id, &me, false, "cancelled").await?;
    if st.2.db.is_none() {
        st.2.lock().tell_both(&c, "cancelled");
    }
    Ok(answer(StatusCode::OK, json!({ "ok": true })))
}
