//! Lessons (`docs/learn.md`): every game's course, and the judging of a
//! learner's move.
//!
//! - `GET /api/learn`: each game's lessons: ids, titles, and each step's
//!   set-up (as a record the client sends to `POST /api/position`), seat and
//!   goal. The moves that reach a goal stay here: the page holds no rules
//!   and no answers.
//! - `POST /api/learn/{game}/{lesson}/{step}` with `{"move": "…"}` (`step`
//!   counted from 0): the rules play the move in the step's position;
//!   `{"right": true, "move", "message", "position"}` when it reaches the
//!   goal, else `{"right": false, "reason": "illegal" | "goal", "message"}`
//!   with the rules' message (the same in both languages) or the step's
//!   explanation. Messages are `{"en", "fr"}`.
//!
//! The rules run off the async runtime (`spawn_blocking`); a move's text is
//! capped at [`MAX_MOVE`] bytes.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use plateau_core::lesson::{Lesson, Step, Text};
use plateau_core::{GameEntry, Registry};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiError;
use crate::position::position_json;

/// The longest move text a request may send, in bytes.
pub(crate) const MAX_MOVE: usize = 200;

fn text(t: &Text) -> Value {
    json!({ "en": t[0], "fr": t[1] })
}

fn step_json(entry: &dyn GameEntry, step: &Step) -> Result<Value, ApiError> {
    let record = step
        .record(entry)
        .map_err(|e| ApiError::internal(format!("a lesson of {} does not start: {e}", entry.info().name)))?;
    Ok(json!({ "seat": step.seat, "goal": text(&step.goal), "record": record }))
}

fn lesson_json(entry: &dyn GameEntry, lesson: &Lesson) -> Result<Value, ApiError> {
    let steps = lesson.steps.iter().map(|s| step_json(entry, s)).collect::<Result<Vec<_>, _>>()?;
    Ok(json!({ "id": lesson.id, "title": text(&lesson.title), "steps": steps }))
}

/// Every game's lessons (games without lessons are left out).
fn catalogue(registry: &Registry) -> Result<Value, ApiError> {
    let mut games = Vec::new();
    for entry in registry.games() {
        if entry.lessons().is_empty() {
            continue;
        }
        let lessons = entry.lessons().iter().map(|l| lesson_json(entry, l)).collect::<Result<Vec<_>, _>>()?;
        games.push(json!({ "game": entry.info().name, "title": entry.info().title, "lessons": lessons }));
    }
    Ok(Value::Array(games))
}

/// `GET /api/learn`.
pub(crate) async fn list(State(st): State<AppState>) -> Result<Json<Value>, ApiError> {
    let v = tokio::task::spawn_blocking(move || catalogue(&st.0.ctx.registry))
        .await
        .map_err(|_| ApiError::internal("listing the lessons failed"))??;
    Ok(Json(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Try {
    #[serde(rename = "move")]
    mv: String,
}

/// The rules' verdict on one move in a step's position.
fn judge(entry: &dyn GameEntry, step: &Step, mv: &str) -> Result<Value, ApiError> {
    let mut m = step
        .start(entry)
        .map_err(|e| ApiError::internal(format!("a lesson of {} does not start: {e}", entry.info().name)))?;
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.play(mv)))
        .map_err(|_| ApiError::internal("the rules engine failed on this input"))?;
    Ok(match played {
        Err(e) => {
            let msg = e.to_string();
            json!({ "right": false, "reason": "illegal", "message": { "en": msg, "fr": msg } })
        }
        Ok(canonical) if step.accepts(&canonical) => json!({
            "right": true,
            "move": canonical,
            "message": text(&step.success),
            "position": position_json(&mut *m)?,
        }),
        Ok(canonical) => json!({ "right": false, "reason": "goal", "move": canonical, "message": text(&step.miss) }),
    })
}

/// `POST /api/learn/{game}/{lesson}/{step}`.
pub(crate) async fn try_move(
    State(st): State<AppState>,
    Path((game, lesson, step)): Path<(String, String, usize)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: Try = crate::api::parse_json(body)?;
    if req.mv.len() > MAX_MOVE {
        return Err(ApiError::bad_request("too_long", format!("a move of at most {MAX_MOVE} bytes")));
    }
    let v = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let entry = st.0.ctx.registry.get(&game).map_err(|e| ApiError::not_found(e.to_string()))?;
        let l = entry
            .lessons()
            .iter()
            .find(|l| l.id == lesson)
            .ok_or_else(|| ApiError::not_found(format!("{game} has no lesson {lesson:?}")))?;
        let s = l
            .steps
            .get(step)
            .ok_or_else(|| ApiError::not_found(format!("the lesson {lesson} has {} steps", l.steps.len())))?;
        judge(entry, s, &req.mv)
    })
    .await
    .map_err(|_| ApiError::internal("judging the move failed"))??;
    Ok(Json(v))
}
