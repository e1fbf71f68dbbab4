//! `POST /api/position`: any position of any game, from a set-up and moves or
//! from a record the client sends, with its view and its legal moves and
//! gestures — what the analysis board, puzzles and lessons draw. Everything
//! it shows comes from the client's own input: the server holds no secret
//! here (a record of a live hidden game names only its reader's secrets, in
//! its `Deal` tag, and the view is that reader's).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use plateau_core::{AnyMatch, Options, Reader, Record, Setup};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

use crate::AppState;
use crate::error::ApiError;
use crate::state::{OptionValue, new_match_checked, options_of};

/// The most moves a request may replay.
pub(crate) const MAX_MOVES: usize = 2_000;
/// The longest record a request may send, in bytes.
pub(crate) const MAX_RECORD: usize = 64 * 1024;

/// A position asked for: a set-up and moves, or a record.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionRequest {
    #[serde(default)]
    pub game: Option<String>,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default)]
    pub record: Option<String>,
}

fn bad(code: &'static str, m: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(code, m.to_string())
}

/// The match a request describes, its moves played and checked (off the
/// async runtime: callers run it in `spawn_blocking`). Options are checked
/// as for a new game (`check_untrusted`: work budgets capped).
pub(crate) fn build(st: &AppState, req: &PositionRequest) -> Result<Box<dyn AnyMatch>, ApiError> {
    let registry = &st.0.ctx.registry;
    if req.moves.len() > MAX_MOVES {
        return Err(bad("too_many_moves", format!("at most {MAX_MOVES} moves")));
    }
    let (name, setup, deal, moves) = match &req.record {
        Some(text) => {
            if req.game.is_some() || req.variant.is_some() || !req.options.is_empty() || !req.moves.is_empty() {
                return Err(bad("bad_position", "send either a record or game, variant, options and moves"));
            }
            if text.len() > MAX_RECORD {
                return Err(bad("too_long", format!("a record of at most {MAX_RECORD} bytes")));
            }
            let rec = Record::parse(text).map_err(|e| bad("bad_record", e))?;
            if rec.moves.len() > MAX_MOVES {
                return Err(bad("too_many_moves", format!("at most {MAX_MOVES} moves")));
            }
            let name = rec.tag("Game").ok_or_else(|| bad("bad_record", "the record has no Game tag"))?.to_string();
            let mut options = Options::new();
            for pair in rec.tags_named("Option") {
                let (k, v) = Options::parse_pair(pair).map_err(|e| bad("bad_record", e))?;
                options.set(k, v);
            }
            let seed = match rec.tag("Seed") {
                None => 0,
                Some(s) => s.trim().parse().map_err(|_| bad("bad_record", format!("the Seed tag {s:?}")))?,
            };
            let setup = Setup { variant: rec.tag("Variant").map(str::to_string), options, seed };
            let deal = rec.tag("Deal").filter(|_| rec.tag("Seed").is_none()).map(str::to_string);
            (name, setup, deal, rec.moves.clone())
        }
        None => {
            let name = req.game.clone().ok_or_else(|| bad("bad_position", "say which game (or send a record)"))?;
            let setup = Setup { variant: req.variant.clone(), options: options_of(&req.options)?, seed: 0 };
            (name, setup, None, req.moves.clone())
        }
    };
    let entry = registry.get(&name).map_err(|e| bad("bad_setup", e))?;
    let mut m = match deal {
        Some(d) => {
            entry.info().check_untrusted(&setup).map_err(|e| bad("bad_setup", e))?;
            catch(|| entry.new_match_dealt(&setup, &d))?.map_err(|e| bad("bad_setup", e))?
        }
        None => new_match_checked(entry, &setup)?,
    };
    for (i, mv) in moves.iter().enumerate() {
        catch(|| m.play(mv))?.map_err(|e| bad("illegal_move", format!("move {} ({mv}): {e}", i + 1)))?;
    }
    Ok(m)
}

fn catch<T>(f: impl FnOnce() -> T) -> Result<T, ApiError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| ApiError::internal("the rules engine failed on this input"))
}

/// Whose view a position built from client input shows: the reader a deal
/// was made for, else everything (the client gave the whole set-up).
pub(crate) fn reader_of(m: &dyn AnyMatch) -> Reader {
    m.dealt_for().unwrap_or(Reader::Referee)
}

/// The JSON of a position: game, variant, ply, whose turn, the last move,
/// the result, the view and the legal moves with their gestures.
pub(crate) fn position_json(m: &mut dyn AnyMatch) -> Result<Value, ApiError> {
    catch(|| m.settle())?;
    let reader = reader_of(m);
    let legal: Vec<Value> = catch(|| m.legal_gestures())?
        .into_iter()
        .map(|(mv, g)| json!({ "move": mv, "select": g.select, "targets": g.targets }))
        .collect();
    let outcome = m.outcome();
    Ok(json!({
        "game": m.info().name,
        "title": m.info().title,
        "variant": m.variant(),
        "seats": (0..m.seats()).map(|s| m.seat_name(s)).collect::<Vec<_>>(),
        "ply": m.ply(),
        "moves": m.history(),
        "to_move": m.to_move().seat(),
        "last_move": m.history().last(),
        "result": outcome.map(|o| o.result_string()),
        "termination": outcome.map(|o| o.reason),
        "view": catch(|| m.view(reader))?,
        "legal": legal,
    }))
}

/// `POST /api/position`.
pub(crate) async fn position(
    State(st): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PositionRequest = crate::api::parse_json(body)?;
    let v = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let mut m = build(&st, &req)?;
        position_json(&mut *m)
    })
    .await
    .map_err(|_| ApiError::internal("computing the position failed"))??;
    Ok(Json(v))
}
