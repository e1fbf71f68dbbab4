//! Errors as clients see them: an HTTP status, a stable machine-readable code
//! and a message in words, sent as JSON `{"code": ..., "message": ...}` (with
//! the current `state` of the game for refused moves).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An error of the API.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code (`illegal_move`, `stale_version`, `bad_token`...).
    pub code: &'static str,
    /// What was wrong, in words.
    pub message: String,
    /// The current state of the game, for refused moves.
    pub state: Option<Value>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), state: None }
    }
    /// 400: the request is malformed.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
    /// 404: no such game (or page).
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    /// 401: the token is not the token of any seat.
    pub fn bad_token() -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "bad_token", "this token is not the token of any seat of this game")
    }
    /// 401: a rated game is between accounts; `what` says what needs one.
    pub fn account_required(what: &str) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "account_required", format!("a rated game is between accounts: {what}"))
    }
    /// 403: the requester may not do this.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }
    /// 409: the game is not in a state where this can be done.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }
    /// 429: too many requests or messages.
    pub fn rate_limited() -> Self {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", "too many requests: slow down")
    }
    /// 503: the database refused the write; nothing changed.
    pub fn storage(message: impl std::fmt::Display) -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            format!("the database failed, nothing changed: {message}"),
        )
    }
    /// 500: a bug.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
    /// The same error with the game's current state attached.
    pub fn with_state(mut self, state: Value) -> Self {
        self.state = Some(state);
        self
    }
    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut v = json!({ "code": self.code, "message": self.message });
        if let Some(s) = &self.state {
            v["state"] = s.clone();
        }
        v
    }
    /// The WebSocket frame: the body with `"type": "error"`.
    pub fn frame(&self) -> Value {
        let mut v = self.body();
        v["type"] = Value::from("error");
        v
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

/// The code of an HTTP status, for errors produced outside the handlers
/// (unknown route, body too large, time-out).
pub fn code_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "bad_token",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "timeout",
        409 => "conflict",
        413 => "too_large",
        415 => "unsupported_media_type",
        422 => "bad_request",
        429 => "rate_limited",
        503 => "unavailable",
        s if s >= 500 => "internal",
        _ => "error",
    }
}

/// An error code received from another instance, as the `&'static str` an
/// [`ApiError`] holds: each distinct code is kept once (codes are a small
/// fixed set; past 512 distinct ones, `error` stands for the rest).
pub(crate) fn intern(code: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static CODES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let Ok(mut set) = CODES.get_or_init(|| Mutex::new(HashSet::new())).lock() else { return "error" };
    if let Some(c) = set.get(code) {
        return c;
    }
    if set.len() >= 512 || code.len() > 64 {
        return "error";
    }
    let c: &'static str = Box::leak(code.to_string().into_boxed_str());
    set.insert(c);
    c
}

impl From<crate::ids::RandomError> for ApiError {
    fn from(e: crate::ids::RandomError) -> Self {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "no_randomness", format!("{e}: nothing was changed, try again"))
    }
}
