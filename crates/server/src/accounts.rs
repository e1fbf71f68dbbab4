//! Accounts: sign up, log in and out, change the password, personal access
//! tokens, public player pages.
//!
//! - Names: the server's one name rule ([`crate::protocol::clean_name`]), then
//!   3 to 20 characters, each an ASCII letter, a digit, `_` or `-`; unique
//!   whatever the case (stored with a lower-case key).
//! - Passwords: 8 to 256 bytes, hashed with Argon2id (the `argon2` crate's
//!   defaults: 19 MiB, 2 passes, a 16-byte random salt per hash, stored as a
//!   PHC string). Hashing runs on the blocking pool, a few at a time
//!   ([`Accounts::hashing`]), never on the async runtime. A login for an
//!   unknown name is checked against a dummy hash: same answer, similar time.
//! - Sessions: a cookie `plateau_session` holding a 256-bit random id, of
//!   which only the SHA-256 is stored; `HttpOnly`, `SameSite=Lax`, `Path=/`,
//!   `Secure` with [`crate::Limits::secure_cookies`]; 30 days, not sliding.
//!   A state-changing request carrying the cookie and no `Authorization`
//!   header must be same-origin ([`cross_site`]).
//! - Personal access tokens: `pat_` and 256 random bits, shown once, stored
//!   as SHA-256; `Authorization: Bearer pat_…` acts as the account.
//! - Attempts to log in (and to sign up, and to give the old password) are
//!   rate-limited per client address (20, then one every 6 s) and per
//!   account name (5 failures, then one a minute; a success is not counted).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::state::Bucket;
use crate::store::{AccountRow, SessionRow, TokenRow};
use crate::table::now_ms;

/// The session cookie's name.
pub const COOKIE: &str = "plateau_session";
/// How long a session lasts (not sliding: log in again after it).
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
/// Characters of an account name.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;
/// Bytes of a password.
pub const PASSWORD_BYTES: std::ops::RangeInclusive<usize> = 8..=256;
/// Personal access tokens per account.
pub const MAX_TOKENS: usize = 50;
/// Attempts per account name: a burst, then one a minute.
const NAME_BURST: f64 = 5.0;
const NAME_RATE: f64 = 1.0 / 60.0;
/// Attempts per client address: a burst, then one every 6 seconds.
const ADDR_BURST: f64 = 20.0;
const ADDR_RATE: f64 = 1.0 / 6.0;
/// Names starting so (in any case) are the computer levels' accounts.
pub(crate) const RESERVED_PREFIX: &str = "computer";
/// The prefix of personal access tokens.
const PAT_PREFIX: &str = "pat_";

/// What the account handlers share: the attempt buckets, the hashing slots
/// and the dummy hash.
pub(crate) struct Accounts {
    by_addr: Mutex<HashMap<IpAddr, Bucket>>,
    by_name: Mutex<HashMap<String, Bucket>>,
    /// Hashes computed at once (each takes 19 MiB and a core for a while);
    /// more wait their turn.
    hashing: tokio::sync::Semaphore,
    dummy: tokio::sync::OnceCell<String>,
}

impl Accounts {
    pub(crate) fn new() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        Accounts {
            by_addr: Mutex::new(HashMap::new()),
            by_name: Mutex::new(HashMap::new()),
            hashing: tokio::sync::Semaphore::new(cores.max(2)),
            dummy: tokio::sync::OnceCell::new(),
        }
    }

    /// Take an attempt from the client's bucket and, if given, the name's.
    fn attempt(&self, addr: IpAddr, name: Option<&str>) -> Result<(), ApiError> {
        let refused = || {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_attempts",
                "too many attempts to log in or sign up: wait a minute and try again",
            )
        };
        let now = Instant::now();
        {
            let mut map = self.by_addr.lock().map_err(|_| ApiError::internal("attempts poisoned"))?;
            prune(&mut map, now);
            let key = crate::listen::address_key(addr);
            if !map.entry(key).or_insert_with(|| Bucket::new_at(ADDR_BURST, now)).take_at(ADDR_RATE, ADDR_BURST, now) {
                return Err(refused());
            }
        }
        if let Some(name) = name {
            let mut map = self.by_name.lock().map_err(|_| ApiError::internal("attempts poisoned"))?;
            prune(&mut map, now);
            let key = name_key(name);
            if !map.entry(key).or_insert_with(|| Bucket::new_at(NAME_BURST, now)).take_at(NAME_RATE, NAME_BURST, now) {
                return Err(refused());
            }
        }
        Ok(())
    }

    /// The right password was given for `name`: its attempt is not counted.
    fn succeeded(&self, name: &str) {
        if let Ok(mut map) = self.by_name.lock()
            && let Some(t) = map.get_mut(&name_key(name))
        {
            t.give_back(NAME_BURST);
        }
    }

    /// Run CPU-heavy `f` on the blocking pool, a few at a time.
    async fn blocking<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        let _permit = self.hashing.acquire().await.map_err(|_| ApiError::internal("hashing stopped"))?;
        tokio::task::spawn_blocking(f).await.map_err(|_| ApiError::internal("hashing failed"))
    }

    async fn hash(&self, password: String) -> Result<String, ApiError> {
        let salt = salt()?;
        self.blocking(move || hash_with(&password, &salt)).await?
    }

    /// The dummy hash that logins for unknown names are checked against.
    async fn dummy(&self) -> Result<String, ApiError> {
        let dummy = self
            .dummy
            .get_or_try_init(|| async {
                let pw = ids::new_token()?;
                self.hash(pw).await
            })
            .await?;
        Ok(dummy.clone())
    }

    /// Compute the dummy hash now, in the background, so that the first
    /// login for an unknown name takes no longer than any other.
    pub(crate) fn warm(self: &std::sync::Arc<Self>) {
        let me = self.clone();
        tokio::spawn(async move {
            if let Err(e) = me.dummy().await {
                tracing::error!("the dummy password hash: {e}");
            }
        });
    }

    /// Whether `password` matches `phc`, or, when there is no account, the
    /// same work against a dummy hash (and `false`).
    async fn verify(&self, password: String, phc: Option<String>) -> Result<bool, ApiError> {
        let (phc, real) = match phc {
            Some(p) => (p, true),
            None => (self.dummy().await?, false),
        };
        let ok = self.blocking(move || verify_with(&password, &phc)).await?;
        Ok(ok && real)
    }
}

/// Forget buckets idle long enough to be full again.
fn prune<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Bucket>, now: Instant) {
    if map.len() > 50_000 {
        map.retain(|_, t| now.duration_since(t.last()) < Duration::from_secs(600));
    }
}

fn salt() -> Result<argon2::password_hash::SaltString, ApiError> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|_| ids::RandomError)?;
    argon2::password_hash::SaltString::encode_b64(&b).map_err(|e| ApiError::internal(format!("salt: {e}")))
}

fn hash_with(password: &str, salt: &argon2::password_hash::SaltString) -> Result<String, ApiError> {
    use argon2::PasswordHasher;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("hashing: {e}")))
}

fn verify_with(password: &str, phc: &str) -> bool {
    use argon2::PasswordVerifier;
    match argon2::password_hash::PasswordHash::new(phc) {
        Ok(h) => argon2::Argon2::default().verify_password(password.as_bytes(), &h).is_ok(),
        Err(e) => {
            tracing::error!("a stored password hash is malformed: {e}");
            false
        }
    }
}

/// The key of a name for uniqueness and limits: lower case, at most 64 bytes.
pub(crate) fn name_key(name: &str) -> String {
    let mut k = name.trim().to_lowercase();
    if k.len() > 64 {
        let mut end = 64;
        while !k.is_char_boundary(end) {
            end -= 1;
        }
        k.truncate(end);
    }
    k
}

/// An account name: the server's name rule, then 3 to 20 characters, each an
/// ASCII letter, a digit, `_` or `-`.
pub fn account_name(raw: &str) -> Result<String, String> {
    let name = crate::protocol::clean_name(raw)?;
    let n = name.chars().count();
    if !NAME_CHARS.contains(&n) || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!(
            "an account name has {} to {} characters, each a letter (a-z, A-Z), a digit, `_` or `-`",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        ));
    }
    Ok(name)
}

fn check_password(p: &str) -> Result<(), ApiError> {
    if !PASSWORD_BYTES.contains(&p.len()) {
        return Err(ApiError::bad_request(
            "bad_password",
            format!("a password has {} to {} bytes", PASSWORD_BYTES.start(), PASSWORD_BYTES.end()),
        ));
    }
    Ok(())
}

fn parse<T: serde::de::DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body.map_err(|r| {
        let status = r.status();
        ApiError::new(status, crate::error::code_of(status), r.body_text())
    })?;
    // The error never quotes the body: it may hold a password.
    serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad_request("bad_json", format!("the request body is not the expected JSON (line {})", e.line()))
    })
}

fn client(info: Option<Extension<crate::ClientIp>>) -> IpAddr {
    info.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(crate::ClientIp(a))| a)
}

/// The session id of the request's cookie, if any.
fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim())
        .filter(|v| ids::well_formed(v))
}

fn set_cookie(value: &str, max_age: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"))
        .unwrap_or_else(|_| HeaderValue::from_static("plateau_session=; Max-Age=0"))
}

fn not_logged_in(message: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not_logged_in", message)
}

fn bad_login() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "bad_login", "wrong name or password")
}

/// How a request is logged in.
enum Via {
    /// By the session cookie (the SHA-256 of its id).
    Session(String),
    /// By a personal access token.
    Token,
}

struct Authed {
    account: AccountRow,
    via: Via,
}

/// The account a request acts for: a personal access token
/// (`Authorization: Bearer pat_…`), else the session cookie.
async fn authenticate(st: &AppState, headers: &HeaderMap) -> Result<Authed, ApiError> {
    let store = &st.0.store;
    if let Some(h) = headers.get(header::AUTHORIZATION) {
        let token = h
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| t.starts_with(PAT_PREFIX) && ids::well_formed(t))
            .ok_or_else(|| not_logged_in("this is not a personal access token (Bearer pat_…)"))?;
        let account = store
            .token_account(&ids::hash_token(token))
            .await
            .map_err(ApiError::storage)?
            .ok_or_else(|| not_logged_in("this access token is unknown or revoked"))?;
        return Ok(Authed { account, via: Via::Token });
    }
    let id = session_cookie(headers).ok_or_else(|| not_logged_in("you are not logged in"))?;
    let hash = ids::hash_token(id);
    let account = store
        .session_account(&hash, now_ms())
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(|| not_logged_in("your session has ended: log in again"))?;
    Ok(Authed { account, via: Via::Session(hash) })
}

/// The account a request acts for, if any: a personal access token
/// (`Authorization: Bearer pat_…`; an unknown one is an error), else a
/// valid session cookie. A seat's token in `Authorization`, no credentials
/// or an ended session: `None` (a guest).
pub(crate) async fn account_of(st: &AppState, headers: &HeaderMap) -> Result<Option<AccountRow>, ApiError> {
    let pat = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| t.trim().starts_with(PAT_PREFIX));
    if !pat && headers.get(header::AUTHORIZATION).is_some() {
        return Ok(None);
    }
    match authenticate(st, headers).await {
        Ok(a) => Ok(Some(a.account)),
        Err(e) if pat => Err(e),
        Err(e) if e.code == "not_logged_in" => Ok(None),
        Err(e) => Err(e),
    }
}

fn account_json(a: &AccountRow) -> Value {
    json!({ "name": a.name, "created_at": a.created_at })
}

/// A JSON answer that no cache keeps.
fn answer(status: StatusCode, cookie: Option<HeaderValue>, body: Value) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(c) = cookie {
        res.headers_mut().insert(header::SET_COOKIE, c);
    }
    res
}

/// Open a session for `account`: the cookie that carries it.
async fn open_session(st: &AppState, account: &AccountRow) -> Result<HeaderValue, ApiError> {
    let id = ids::new_token()?;
    let now = now_ms();
    let row = SessionRow {
        id_hash: ids::hash_token(&id),
        account_id: account.id.clone(),
        created_at: now,
        expires_at: now + SESSION_TTL.as_millis() as i64,
    };
    st.0.store.insert_session(&row).await.map_err(ApiError::storage)?;
    Ok(set_cookie(&id, SESSION_TTL.as_secs(), st.0.limits().secure_cookies))
}

/// A name and a password (never printed: no `Debug`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

/// `POST /api/accounts {"name", "password"}`: create an account and log in.
pub(crate) async fn sign_up(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Credentials = parse(body)?;
    let name = account_name(&req.name).map_err(|e| ApiError::bad_request("bad_name", e))?;
    if name_key(&name).starts_with(RESERVED_PREFIX) {
        return Err(ApiError::bad_request(
            "bad_name",
            format!("names starting with {RESERVED_PREFIX:?} are the computer players'"),
        ));
    }
    check_password(&req.password)?;
    st.1.attempt(client(info), None)?;
    let password = st.1.hash(req.password).await?;
    let row = AccountRow {
        id: ids::new_game_id()?,
        name_key: name_key(&name),
        name,
        password,
        created_at: now_ms(),
        bot: false,
    };
    if !st.0.store.create_account(&row).await.map_err(ApiError::storage)? {
        return Err(ApiError::conflict("name_taken", format!("the name {:?} is taken (in some case)", row.name)));
    }
    tracing::info!("account {} created", row.name);
    let cookie = open_session(&st, &row).await?;
    Ok(answer(StatusCode::CREATED, Some(cookie), account_json(&row)))
}

/// `POST /api/session {"name", "password"}`: log in.
pub(crate) async fn log_in(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Credentials = parse(body)?;
    if req.password.len() > *PASSWORD_BYTES.end() {
        check_password(&req.password)?;
    }
    st.1.attempt(client(info), Some(&req.name))?;
    // A name that breaks the rule has no account: the dummy hash answers.
    let account = match account_name(&req.name) {
        // The computer levels' accounts have no password.
        Ok(n) if name_key(&n).starts_with(RESERVED_PREFIX) => None,
        Ok(n) => st.0.store.account_by_name(&name_key(&n)).await.map_err(ApiError::storage)?,
        Err(_) => None,
    };
    let ok = st.1.verify(req.password, account.as_ref().map(|a| a.password.clone())).await?;
    let Some(account) = account.filter(|_| ok) else { return Err(bad_login()) };
    st.1.succeeded(&req.name);
    let cookie = open_session(&st, &account).await?;
    Ok(answer(StatusCode::OK, Some(cookie), account_json(&account)))
}

/// `DELETE /api/session`: log out (the cookie is cleared in any case).
pub(crate) async fn log_out(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(id) = session_cookie(&headers) {
        st.0.store.delete_session(&ids::hash_token(id)).await.map_err(ApiError::storage)?;
    }
    let clear = set_cookie("", 0, st.0.limits().secure_cookies);
    Ok(answer(StatusCode::OK, Some(clear), json!({ "ok": true })))
}

/// `GET /api/session`: the account logged in.
pub(crate) async fn current(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let a = authenticate(&st, &headers).await?;
    let mut body = account_json(&a.account);
    body["via"] = json!(match a.via {
        Via::Session(_) => "session",
        Via::Token => "token",
    });
    Ok(answer(StatusCode::OK, None, body))
}

/// The old and the new password (never printed: no `Debug`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PasswordChange {
    old: String,
    new: String,
}

/// `POST /api/account/password {"old", "new"}`: every other session ends.
pub(crate) async fn change_password(
    State(st): State<AppState>,
    info: Option<Extension<crate::ClientIp>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let a = authenticate(&st, &headers).await?;
    let req: PasswordChange = parse(body)?;
    check_password(&req.new)?;
    if req.old.len() > *PASSWORD_BYTES.end() {
        return Err(ApiError::forbidden("wrong_password", "the old password is wrong"));
    }
    st.1.attempt(client(info), Some(&a.account.name))?;
    if !st.1.verify(req.old, Some(a.account.password.clone())).await? {
        return Err(ApiError::forbidden("wrong_password", "the old password is wrong"));
    }
    st.1.succeeded(&a.account.name);
    let phc = st.1.hash(req.new).await?;
    let keep = match &a.via {
        Via::Session(h) => Some(h.as_str()),
        Via::Token => None,
    };
    st.0.store.set_password(&a.account.id, &phc, keep).await.map_err(ApiError::storage)?;
    tracing::info!("account {} changed its password", a.account.name);
    Ok(answer(StatusCode::OK, None, json!({ "ok": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewToken {
    label: String,
}

fn token_json(t: &TokenRow) -> Value {
    json!({ "id": t.id, "label": t.label, "created_at": t.created_at })
}

/// `POST /api/account/tokens {"label"}`: a new personal access token, shown
/// this once.
pub(crate) async fn create_token(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let a = authenticate(&st, &headers).await?;
    let req: NewToken = parse(body)?;
    let label = crate::protocol::clean_name(&req.label).map_err(|e| ApiError::bad_request("bad_label", e))?;
    let secret = format!("{PAT_PREFIX}{}", ids::new_token()?);
    let row = TokenRow {
        id: ids::new_game_id()?,
        account_id: a.account.id.clone(),
        label,
        token_hash: ids::hash_token(&secret),
        created_at: now_ms(),
    };
    if !st.0.store.insert_token(&row, MAX_TOKENS).await.map_err(ApiError::storage)? {
        return Err(ApiError::conflict(
            "too_many_tokens",
            format!("an account has at most {MAX_TOKENS} access tokens: revoke one first"),
        ));
    }
    let mut body = token_json(&row);
    body["token"] = json!(secret);
    Ok(answer(StatusCode::CREATED, None, body))
}

/// `GET /api/account/tokens`: the account's tokens, without their secrets.
pub(crate) async fn list_tokens(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let a = authenticate(&st, &headers).await?;
    let rows = st.0.store.tokens_of(&a.account.id).await.map_err(ApiError::storage)?;
    let tokens: Vec<Value> = rows.iter().map(token_json).collect();
    Ok(answer(StatusCode::OK, None, json!({ "tokens": tokens })))
}

/// `DELETE /api/account/tokens/{id}`: revoke a token.
pub(crate) async fn revoke_token(
    State(st): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let a = authenticate(&st, &headers).await?;
    let gone = ids::well_formed(&id)
        && id.len() <= 32
        && st.0.store.delete_token(&a.account.id, &id).await.map_err(ApiError::storage)?;
    if !gone {
        return Err(ApiError::not_found(format!("you have no access token {id:?}")));
    }
    Ok(answer(StatusCode::OK, None, json!({ "ok": true })))
}

/// Whether a request comes from a page of this server: `Sec-Fetch-Site` is
/// `same-origin` (or `none`: typed by the user), or else `Origin` names the
/// `Host`.
pub(crate) fn same_origin(h: &HeaderMap) -> bool {
    if let Some(site) = h.get("sec-fetch-site") {
        return matches!(site.as_bytes(), b"same-origin" | b"none");
    }
    let (Some(origin), Some(host)) =
        (h.get(header::ORIGIN).and_then(|v| v.to_str().ok()), h.get(header::HOST).and_then(|v| v.to_str().ok()))
    else {
        return false;
    };
    origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .is_some_and(|o| o.eq_ignore_ascii_case(host))
}

/// Refuse a state-changing request (not GET, HEAD or OPTIONS) that carries
/// the session cookie and no `Authorization` header unless it is same-origin:
/// another site's page cannot act with a visitor's cookie.
pub(crate) async fn cross_site(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let h = req.headers();
    if !safe && session_cookie(h).is_some() && !h.contains_key(header::AUTHORIZATION) && !same_origin(h) {
        return ApiError::forbidden(
            "cross_site",
            "a request with the session cookie must come from this site's own pages (Origin or Sec-Fetch-Site)",
        )
        .into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_names() {
        assert_eq!(account_name(" Ann_1 ").as_deref(), Ok("Ann_1"));
        assert!(account_name("ab").is_err());
        assert!(account_name(&"a".repeat(21)).is_err());
        assert!(account_name("a b c").is_err());
        assert!(account_name("Amélie").is_err());
        assert!(account_name("x\u{202E}yz").is_err());
        assert_eq!(name_key("AnN"), "ann");
    }

    #[test]
    fn hashes_verify() {
        let salt = salt().unwrap();
        let h = hash_with("correct horse", &salt).unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_with("correct horse", &h));
        assert!(!verify_with("wrong horse", &h));
    }
}
