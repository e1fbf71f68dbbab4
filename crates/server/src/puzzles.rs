//! Puzzles (issue 19): the built-in sets of `plateau_analysis::builtin`
//! (Abalone and Abraxas), each client's next puzzle near its puzzle rating,
//! moves judged with `plateau_analysis::check`, hints, and ratings.
//!
//! A client is an account when logged in, else a guest by its address (as
//! the server's other per-client shares). Its first attempt at a puzzle
//! counts: decided by its first wrong move (failed), a hint (failed) or the
//! last move of the line (solved), it is stored (table `puzzle_attempts`)
//! and rates the client and the puzzle as one game between them
//! (`plateau_rating::rate_two`: solving is a win against the puzzle). Later
//! attempts are practice. The solution is never sent before a wrong move, a
//! hint (its next move's gesture) or the end.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use plateau_analysis::{Puzzle, Verdict};
use plateau_rating::Rating;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::analysis::{client_key, ip_of};
use crate::error::ApiError;
use crate::store::analysis::{PuzzleRow, Rated};
use crate::table::now_ms;

/// The longest move text accepted in a puzzle.
const MAX_MOVE: usize = 200;

/// Every game's built-in puzzles, read once.
fn sets() -> &'static Vec<(String, Vec<Puzzle>)> {
    static SETS: OnceLock<Vec<(String, Vec<Puzzle>)>> = OnceLock::new();
    SETS.get_or_init(|| {
        plateau_games::registry()
            .games()
            .map(|e| e.info().name.to_string())
            .map(|g| {
                let p = plateau_analysis::builtin(&g);
                (g, p)
            })
            .filter(|(_, p)| !p.is_empty())
            .collect()
    })
}

fn set_of(game: &str) -> Result<&'static [Puzzle], ApiError> {
    sets()
        .iter()
        .find(|(g, _)| g == game)
        .map(|(_, p)| p.as_slice())
        .ok_or_else(|| ApiError::not_found(format!("there are no puzzles of {game:?}")))
}

fn puzzle(id: &str) -> Result<&'static Puzzle, ApiError> {
    sets()
        .iter()
        .flat_map(|(_, p)| p.iter())
        .find(|p| p.id == id)
        .ok_or_else(|| ApiError::not_found(format!("there is no puzzle {id:?}")))
}

fn rating_json(r: &Rating) -> Value {
    json!({ "rating": r.rating.round(), "deviation": r.deviation.round(), "games": r.games })
}

/// A puzzle as clients see it: never its solution.
fn puzzle_json(p: &Puzzle, row: Option<&PuzzleRow>) -> Value {
    let rating = row.map_or(Rating::NEW, |r| r.rating);
    json!({
        "id": p.id,
        "game": p.game,
        "variant": p.variant,
        "record": p.record,
        "seat": p.seat,
        "theme": p.theme,
        "rating": rating.rating.round(),
        "attempts": row.map_or(0, |r| r.attempts),
        "solves": row.map_or(0, |r| r.solves),
        "length": p.length(),
    })
}

/// `GET /api/puzzles`.
pub(crate) async fn list() -> Json<Value> {
    Json(Value::Array(sets().iter().map(|(g, p)| json!({ "game": g, "count": p.len() })).collect()))
}

/// `GET /api/puzzles/{game}/next`: a puzzle the client has not tried, the
/// nearest to its puzzle rating (when it has tried them all: the nearest).
pub(crate) async fn next(
    State(st): State<AppState>,
    Path(game): Path<String>,
    headers: HeaderMap,
    info: Option<Extension<crate::ClientIp>>,
) -> Result<Json<Value>, ApiError> {
    let set = set_of(&game)?;
    let client = client_key(&st, &headers, ip_of(info)).await?;
    let store = &st.0.store;
    let rows: HashMap<String, PuzzleRow> =
        store.puzzle_rows(&game).await.map_err(ApiError::storage)?.into_iter().map(|r| (r.id.clone(), r)).collect();
    let tried = store.puzzles_tried(&client, &game).await.map_err(ApiError::storage)?;
    let me = store.puzzle_player(&client, &game).await.map_err(ApiError::storage)?.map_or(Rating::NEW, |(r, _)| r);
    let distance = |p: &&Puzzle| {
        let r = rows.get(&p.id).map_or(Rating::NEW.rating, |r| r.rating.rating);
        ((r - me.rating).abs() * 1000.0) as i64
    };
    let fresh = set.iter().filter(|p| !tried.contains(&p.id)).min_by_key(distance);
    let p = match fresh {
        Some(p) => p,
        None => set.iter().min_by_key(distance).ok_or_else(|| ApiError::not_found("there are no puzzles"))?,
    };
    let mut v = puzzle_json(p, rows.get(&p.id));
    v["tried"] = json!(tried.contains(&p.id));
    v["your_rating"] = rating_json(&me);
    Ok(Json(v))
}

/// `GET /api/puzzles/id/{id}`.
pub(crate) async fn one(State(st): State<AppState>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let p = puzzle(&id)?;
    let rows = st.0.store.puzzle_rows(&p.game).await.map_err(ApiError::storage)?;
    Ok(Json(puzzle_json(p, rows.iter().find(|r| r.id == p.id))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    #[serde(default)]
    moves: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct HintRequest {
    #[serde(default)]
    moves: Vec<String>,
}

fn check_moves(p: &Puzzle, moves: &[String]) -> Result<(), ApiError> {
    if moves.len() >= p.solution.len() || moves.iter().any(|m| m.len() > MAX_MOVE) {
        return Err(ApiError::bad_request("bad_moves", "the moves so far are not those of an unsolved puzzle"));
    }
    Ok(())
}

/// Store a decided attempt (rated if it is the client's first).
async fn decided(
    st: &AppState,
    client: &str,
    p: &Puzzle,
    solved: bool,
    hinted: bool,
) -> Result<Option<Rated>, ApiError> {
    st.0.store.puzzle_attempt(client, &p.id, &p.game, solved, hinted, now_ms()).await.map_err(ApiError::storage)
}

fn with_rating(mut v: Value, rated: Option<Rated>) -> Value {
    v["rated"] = json!(rated.is_some());
    if let Some(r) = rated {
        v["your_rating"] = rating_json(&r.player);
        v["puzzle_rating"] = json!(r.puzzle.rating.round());
    }
    v
}

/// `POST /api/puzzles/id/{id}/move`.
pub(crate) async fn play(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    info: Option<Extension<crate::ClientIp>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let p = puzzle(&id)?;
    let req: MoveRequest = crate::api::parse_json(body)?;
    check_moves(p, &req.moves)?;
    if req.mv.len() > MAX_MOVE {
        return Err(ApiError::bad_request("bad_move", "the move's text is too long"));
    }
    let client = client_key(&st, &headers, ip_of(info)).await?;
    // Replaying the position: off the async runtime.
    let verdict = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(|| plateau_analysis::check(p, &req.moves, &req.mv)).map_err(|_| ())
    })
    .await
    .map_err(|_| ApiError::internal("judging the move failed"))?
    .map_err(|_| ApiError::internal("judging the move failed"))?
    .map_err(|e| ApiError::bad_request("illegal_move", e.0))?;
    Ok(Json(match verdict {
        Verdict::Right { reply, solved } => {
            let rated = if solved { decided(&st, &client, p, true, false).await? } else { None };
            let v = json!({ "right": true, "reply": reply, "solved": solved });
            if solved { with_rating(v, rated) } else { v }
        }
        Verdict::Wrong { expected } => {
            let rated = decided(&st, &client, p, false, false).await?;
            with_rating(json!({ "right": false, "expected": expected }), rated)
        }
    }))
}

/// `POST /api/puzzles/id/{id}/hint`: the gesture of the line's next move
/// (what to select, where to click). The attempt counts as failed.
pub(crate) async fn hint(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    info: Option<Extension<crate::ClientIp>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let p = puzzle(&id)?;
    let req: HintRequest = crate::api::parse_json(body)?;
    check_moves(p, &req.moves)?;
    let k = req.moves.len();
    if k % 2 == 1 || req.moves.iter().zip(&p.solution).any(|(a, b)| a != b) {
        return Err(ApiError::bad_request("bad_moves", "the moves so far are not the puzzle's line"));
    }
    let client = client_key(&st, &headers, ip_of(info)).await?;
    let next = p.solution[k].clone();
    let moves = req.moves;
    let gesture = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(move || -> Result<Option<plateau_core::Gesture>, String> {
            let mut m = plateau_analysis::position(p).map_err(|e| e.0)?;
            for mv in &moves {
                m.play(mv).map_err(|e| e.to_string())?;
            }
            Ok(m.legal_gestures().into_iter().find(|(mv, _)| *mv == next).map(|(_, g)| g))
        })
        .map_err(|_| "the rules engine failed".to_string())?
    })
    .await
    .map_err(|_| ApiError::internal("finding the hint failed"))?
    .map_err(ApiError::internal)?
    .ok_or_else(|| ApiError::internal("the line's move has no gesture"))?;
    let rated = decided(&st, &client, p, false, true).await?;
    Ok(Json(with_rating(json!({ "select": gesture.select, "targets": gesture.targets }), rated)))
}
