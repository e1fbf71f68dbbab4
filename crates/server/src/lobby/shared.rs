//! The lobby shared by every instance on one PostgreSQL database (issue 16).
//!
//! The tables `lobby_seeks` and `lobby_challenges` (migration 0006) are the
//! truth; each instance's memory ([`super::Inner`]) is its copy of them, from
//! which lists, sockets and reads are served.
//!
//! - **Writes.** Every change (post, cancel, take, match, reopen, expire) is
//!   one transaction that first takes the lobby's advisory lock
//!   (`pg_advisory_xact_lock`), so that caps are counted and pairs chosen by
//!   one instance at a time, and ends with `NOTIFY plateau_lobby`: the
//!   notification goes out when, and only if, the change is committed. The
//!   instance that wrote then reads the tables again before it answers (its
//!   own next read sees its change).
//! - **Reads** (`shared/listen.rs`). A listener on a connection of its own
//!   (`PgListener`) reads both tables again on every notification (a burst
//!   is one read), after every reconnect (it missed what was sent
//!   meanwhile), and every [`RESYNC_EVERY`] in case. Reading compares with the copy: a seek that
//!   became matched tells its followers here (`matched`), a challenge that
//!   changed tells both parties' sockets here; nothing is told twice, since
//!   each instance applies each change to its copy once.
//! - **Expiry.** Whichever instance comes first removes what expired
//!   (idempotent, every [`super::SWEEP_EVERY`]), by the database's clock. A
//!   seek's `alive_until` starts [`super::UNWATCHED_SEEK`] after it is
//!   posted; the instances whose sockets follow it push it to
//!   [`super::SOCKET_GRACE`] ahead every [`RENEW_EVERY`], and again when
//!   their last socket following it closes. Matched seeks and ended
//!   challenges are kept [`super::MATCHED_KEPT`] (for their owners to learn
//!   their seats, on any instance: the owners' seat tokens are in these rows
//!   for that long), seeks and challenges whose game an instance died making
//!   are removed after [`TAKEN_STALE`].

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use plateau_core::Seat;
use serde_json::{Value, json};
use sqlx::postgres::PgRow;
use sqlx::{PgConnection, PgPool, Postgres, Row, Transaction};

mod listen;

pub(super) use listen::spawn;

use super::{Challenge, MATCHED_KEPT, Owner, SOCKET_GRACE, Seek, SeekState, Terms, UNWATCHED_SEEK, Waiting, admit};
use crate::error::ApiError;

/// The channel of the lobby's notifications.
pub(super) const CHANNEL: &str = "plateau_lobby";
/// The key of the lobby's advisory lock ("plateau lobby").
const LOCK: i64 = 0x504c_4154_4c4f_4242;
/// Now in ms since 1970, by the database's clock.
const NOW: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";
/// How often an instance renews the seeks its sockets follow.
pub(super) const RENEW_EVERY: Duration = Duration::from_secs(5);
/// How often an instance reads the tables again without a notification.
pub(super) const RESYNC_EVERY: Duration = Duration::from_secs(10);
/// A seek or challenge taken by an instance that never finished making its
/// game (it died) is removed after this long.
pub(super) const TAKEN_STALE: Duration = Duration::from_secs(120);

const SEEK_COLS: &str =
    "id, owner, addr, terms, rating_min, rating_max, rating, created_at, state, game_id, seat, seat_token";
const CHALLENGE_COLS: &str =
    "id, from_member, to_member, terms, created_at, expires_at, status, game_id, from_seat, from_token, to_token";

fn ms(d: Duration) -> i64 {
    d.as_millis() as i64
}

fn db_error(e: sqlx::Error) -> ApiError {
    ApiError::storage(e)
}

fn col<'r, T>(r: &'r PgRow, name: &str) -> Result<T, String>
where
    T: sqlx::Decode<'r, Postgres> + sqlx::Type<Postgres>,
{
    r.try_get(name).map_err(|e| format!("{name}: {e}"))
}

fn json_col<T: serde::de::DeserializeOwned>(r: &PgRow, name: &str) -> Result<T, String> {
    serde_json::from_str(&col::<String>(r, name)?).map_err(|e| format!("{name}: {e}"))
}

/// A challenge as stored, with its status and, once accepted, its game.
pub(super) struct ChallengeRow {
    pub(super) c: Challenge,
    pub(super) status: String,
    /// The game, the challenger's seat, and each party's token.
    pub(super) accepted: Option<(String, usize, Option<String>, Option<String>)>,
}

/// The shared tables of the lobby, and what this instance last read of its
/// challenges.
pub(crate) struct Db {
    pool: PgPool,
    registry: plateau_core::Registry,
    /// The status of each challenge as last read; held while reading, so
    /// that reads are applied one at a time, in order.
    known: tokio::sync::Mutex<HashMap<String, String>>,
}

impl Db {
    pub(super) fn new(pool: PgPool) -> Db {
        Db { pool, registry: plateau_games::registry(), known: Default::default() }
    }

    /// A transaction holding the lobby's lock.
    async fn begin(&self) -> Result<Transaction<'static, Postgres>, ApiError> {
        let mut tx = self.pool.begin().await.map_err(db_error)?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(LOCK).execute(&mut *tx).await.map_err(db_error)?;
        Ok(tx)
    }

    /// Announce the change and commit.
    async fn commit(mut tx: Transaction<'static, Postgres>) -> Result<(), ApiError> {
        sqlx::query("SELECT pg_notify($1, '')").bind(CHANNEL).execute(&mut *tx).await.map_err(db_error)?;
        tx.commit().await.map_err(db_error)
    }

    fn seek_of(&self, r: &PgRow) -> Result<Seek, String> {
        let owner: Owner = json_col(r, "owner")?;
        let addr: IpAddr = col::<String>(r, "addr")?.parse().map_err(|e| format!("addr: {e}"))?;
        let terms = Terms::from_json(&self.registry, &json_col::<Value>(r, "terms")?)?;
        let rating = col::<Option<String>>(r, "rating")?
            .map(|t| serde_json::from_str(&t).map_err(|e| format!("rating: {e}")))
            .transpose()?;
        let state = match col::<String>(r, "state")?.as_str() {
            "open" => SeekState::Open,
            "taken" => SeekState::Taken,
            "matched" => SeekState::Matched {
                game: col::<Option<String>>(r, "game_id")?.ok_or("a matched seek without its game")?,
                seat: Seat::try_from(col::<Option<i64>>(r, "seat")?.unwrap_or(0)).map_err(|e| e.to_string())?,
                token: col::<Option<String>>(r, "seat_token")?.unwrap_or_default(),
                at: Instant::now(),
            },
            s => return Err(format!("unknown state {s:?}")),
        };
        Ok(Seek {
            id: col(r, "id")?,
            owner,
            addr,
            terms,
            rating_min: col(r, "rating_min")?,
            rating_max: col(r, "rating_max")?,
            rating,
            created_at: col(r, "created_at")?,
            posted: Instant::now(),
            followers: HashSet::new(),
            left_at: None,
            state,
        })
    }

    fn challenge_of(&self, r: &PgRow) -> Result<ChallengeRow, String> {
        let expires_at: i64 = col(r, "expires_at")?;
        let left = u64::try_from(expires_at - crate::table::now_ms()).unwrap_or(0);
        let c = Challenge {
            id: col(r, "id")?,
            from: json_col(r, "from_member")?,
            to: json_col(r, "to_member")?,
            terms: Terms::from_json(&self.registry, &json_col::<Value>(r, "terms")?)?,
            created_at: col(r, "created_at")?,
            expires_at,
            deadline: Instant::now() + Duration::from_millis(left),
        };
        let status: String = col(r, "status")?;
        let accepted = match (status.as_str(), col::<Option<String>>(r, "game_id")?) {
            ("accepted", Some(game)) => Some((
                game,
                usize::try_from(col::<Option<i64>>(r, "from_seat")?.unwrap_or(0)).map_err(|e| e.to_string())?,
                col(r, "from_token")?,
                col(r, "to_token")?,
            )),
            _ => None,
        };
        Ok(ChallengeRow { c, status, accepted })
    }

    /// One seek, as stored.
    pub(super) async fn seek(&self, id: &str) -> Result<Option<Seek>, ApiError> {
        let row = sqlx::query(&format!("SELECT {SEEK_COLS} FROM lobby_seeks WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_error)?;
        row.map(|r| self.seek_of(&r).map_err(|e| ApiError::internal(format!("the stored seek {id}: {e}")))).transpose()
    }

    /// Whether one of these seeks is stored (false on an error).
    pub(super) async fn stored(&self, ids: &[String]) -> bool {
        sqlx::query_scalar::<_, bool>("SELECT EXISTS (SELECT 1 FROM lobby_seeks WHERE id = ANY($1))")
            .bind(ids)
            .fetch_one(&self.pool)
            .await
            .unwrap_or(false)
    }

    /// Count what a new seek's caps count, and insert it if admitted.
    async fn admit_and_insert(tx: &mut PgConnection, seek: &Seek) -> Result<(), ApiError> {
        let key = owner_key(seek);
        let clock = seek.terms.clock.map(|c| c.json().to_string());
        let (from_addr, of_owner, same, all): (i64, i64, Option<String>, i64) = sqlx::query_as(
            "SELECT COUNT(*) FILTER (WHERE addr = $1), COUNT(*) FILTER (WHERE owner_key = $2), \
             MIN(id) FILTER (WHERE owner_key = $2 AND game = $3 AND clock IS NOT DISTINCT FROM $4), COUNT(*) \
             FROM lobby_seeks WHERE state <> 'matched'",
        )
        .bind(seek.addr.to_string())
        .bind(&key)
        .bind(seek.terms.game)
        .bind(&clock)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_error)?;
        let count = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
        admit(Waiting {
            from_addr: count(from_addr),
            same: same.as_deref(),
            of_owner: count(of_owner),
            all: count(all),
            game: seek.terms.game,
        })?;
        let json = |v: Value| v.to_string();
        sqlx::query(&format!(
            "INSERT INTO lobby_seeks (id, seq, owner_key, owner, addr, game, clock, terms, rating_min, rating_max, \
             rating, created_at, state, alive_until, changed_at) \
             VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM lobby_seeks), $2, $3, $4, $5, $6, $7, $8, $9, $10, \
             $11, 'open', {NOW} + $12, {NOW})"
        ))
        .bind(&seek.id)
        .bind(&key)
        .bind(json(serde_json::to_value(&seek.owner).map_err(|e| ApiError::internal(e.to_string()))?))
        .bind(seek.addr.to_string())
        .bind(seek.terms.game)
        .bind(&clock)
        .bind(json(seek.terms.to_json()))
        .bind(seek.rating_min)
        .bind(seek.rating_max)
        .bind(seek.rating.map(|r| json(json!(r))))
        .bind(seek.created_at)
        .bind(ms(UNWATCHED_SEEK))
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
        Ok(())
    }

    /// Post a seek, under the caps counted over every instance.
    pub(super) async fn post_seek(&self, seek: &Seek) -> Result<(), ApiError> {
        let mut tx = self.begin().await?;
        Self::admit_and_insert(&mut tx, seek).await?;
        Self::commit(tx).await
    }

    /// Quick pairing: take the oldest open seek of the game that `pairs`
    /// accepts, or else post `seek`; one step under the lock.
    pub(super) async fn quick(&self, seek: &Seek, pairs: impl Fn(&Seek) -> bool) -> Result<Option<Seek>, ApiError> {
        let mut tx = self.begin().await?;
        let rows = sqlx::query(&format!(
            "SELECT {SEEK_COLS} FROM lobby_seeks WHERE state = 'open' AND game = $1 ORDER BY seq, id"
        ))
        .bind(seek.terms.game)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_error)?;
        let found = rows.iter().filter_map(|r| self.seek_of(r).ok()).find(|s| pairs(s));
        match found {
            Some(s) => {
                Self::set_seek(&mut tx, &s.id, "open", "taken").await?;
                Self::commit(tx).await?;
                Ok(Some(s))
            }
            None => {
                Self::admit_and_insert(&mut tx, seek).await?;
                Self::commit(tx).await?;
                Ok(None)
            }
        }
    }

    async fn set_seek(tx: &mut PgConnection, id: &str, from: &str, to: &str) -> Result<bool, ApiError> {
        let r =
            sqlx::query(&format!("UPDATE lobby_seeks SET state = $3, changed_at = {NOW} WHERE id = $1 AND state = $2"))
                .bind(id)
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
        Ok(r.rows_affected() == 1)
    }

    /// Move a seek from one state to another; false if it was not in the first.
    pub(super) async fn move_seek(&self, id: &str, from: &str, to: &str) -> Result<bool, ApiError> {
        let mut tx = self.begin().await?;
        let moved = Self::set_seek(&mut tx, id, from, to).await?;
        if moved {
            Self::commit(tx).await?;
        }
        Ok(moved)
    }

    /// Cancel an open seek; false if it was not open.
    pub(super) async fn cancel_seek(&self, id: &str) -> Result<bool, ApiError> {
        let mut tx = self.begin().await?;
        let r = sqlx::query("DELETE FROM lobby_seeks WHERE id = $1 AND state = 'open'")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
        if r.rows_affected() == 0 {
            return Ok(false);
        }
        Self::commit(tx).await?;
        Ok(true)
    }

    /// A taken seek's game is made: its owner's seat and token.
    pub(super) async fn matched(&self, id: &str, game: &str, seat: Seat, token: &str) -> Result<(), ApiError> {
        let mut tx = self.begin().await?;
        sqlx::query(&format!(
            "UPDATE lobby_seeks SET state = 'matched', game_id = $2, seat = $3, seat_token = $4, changed_at = {NOW} \
             WHERE id = $1 AND state = 'taken'"
        ))
        .bind(id)
        .bind(game)
        .bind(seat as i64)
        .bind(token)
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
        Self::commit(tx).await
    }

    /// Post a challenge, under the caps counted over every instance;
    /// `caps(from me, to them)` says whether these counts admit it.
    pub(super) async fn post_challenge(
        &self,
        c: &Challenge,
        caps: impl FnOnce(usize, usize) -> Result<(), ApiError>,
    ) -> Result<(), ApiError> {
        let mut tx = self.begin().await?;
        let (from, to): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*) FILTER (WHERE from_id = $1), COUNT(*) FILTER (WHERE to_id = $2) \
             FROM lobby_challenges WHERE status = 'open'",
        )
        .bind(&c.from.id)
        .bind(&c.to.id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_error)?;
        caps(usize::try_from(from).unwrap_or(usize::MAX), usize::try_from(to).unwrap_or(usize::MAX))?;
        let member = |m: &super::Member| serde_json::to_string(m).map_err(|e| ApiError::internal(e.to_string()));
        sqlx::query(&format!(
            "INSERT INTO lobby_challenges (id, seq, from_id, to_id, from_member, to_member, terms, created_at, \
             expires_at, status, changed_at) \
             VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM lobby_challenges), $2, $3, $4, $5, $6, $7, $8, \
             'open', {NOW})"
        ))
        .bind(&c.id)
        .bind(&c.from.id)
        .bind(&c.to.id)
        .bind(member(&c.from)?)
        .bind(member(&c.to)?)
        .bind(c.terms.to_json().to_string())
        .bind(c.created_at)
        .bind(c.expires_at)
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
        Self::commit(tx).await
    }

    /// Take an open challenge that `check` allows to `status` (`taken`,
    /// `declined`, `cancelled`); None if there is no open challenge `id`.
    pub(super) async fn take_challenge(
        &self,
        id: &str,
        status: &str,
        check: impl FnOnce(&Challenge) -> Result<(), ApiError>,
    ) -> Result<Option<Challenge>, ApiError> {
        let mut tx = self.begin().await?;
        let row =
            sqlx::query(&format!("SELECT {CHALLENGE_COLS} FROM lobby_challenges WHERE id = $1 AND status = 'open'"))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_error)?;
        let Some(row) = row else { return Ok(None) };
        let c = self.challenge_of(&row).map_err(|e| ApiError::internal(format!("the stored challenge {id}: {e}")))?.c;
        check(&c)?;
        sqlx::query(&format!("UPDATE lobby_challenges SET status = $2, changed_at = {NOW} WHERE id = $1"))
            .bind(id)
            .bind(status)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
        Self::commit(tx).await?;
        Ok(Some(c))
    }

    /// A taken challenge's game: `Some((game, challenger's seat, tokens))`;
    /// None (the game could not be made): it stands again, or has expired.
    pub(super) async fn challenge_made(
        &self,
        id: &str,
        made: Option<(&str, usize, Option<&str>, Option<&str>)>,
    ) -> Result<(), ApiError> {
        let mut tx = self.begin().await?;
        match made {
            Some((game, seat, from_token, to_token)) => sqlx::query(&format!(
                "UPDATE lobby_challenges SET status = 'accepted', game_id = $2, from_seat = $3, from_token = $4, \
                 to_token = $5, changed_at = {NOW} WHERE id = $1 AND status = 'taken'"
            ))
            .bind(id)
            .bind(game)
            .bind(seat as i64)
            .bind(from_token)
            .bind(to_token)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?,
            None => sqlx::query(&format!(
                "UPDATE lobby_challenges SET status = CASE WHEN expires_at > {NOW} THEN 'open' ELSE 'expired' END, \
                 changed_at = {NOW} WHERE id = $1 AND status = 'taken'"
            ))
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?,
        };
        Self::commit(tx).await
    }

    /// Remove what expired, whichever instance comes first (idempotent).
    async fn sweep(&self) -> Result<(), ApiError> {
        let mut tx = self.begin().await?;
        let mut n = 0;
        for q in [
            format!(
                "DELETE FROM lobby_seeks WHERE (state = 'open' AND alive_until <= {NOW}) \
                 OR (state = 'matched' AND changed_at <= {NOW} - {kept}) \
                 OR (state = 'taken' AND changed_at <= {NOW} - {stale})",
                kept = ms(MATCHED_KEPT),
                stale = ms(TAKEN_STALE)
            ),
            format!(
                "UPDATE lobby_challenges SET status = 'expired', changed_at = {NOW} \
                 WHERE status = 'open' AND expires_at <= {NOW}"
            ),
            format!(
                "DELETE FROM lobby_challenges WHERE (status NOT IN ('open', 'taken') AND changed_at <= {NOW} - {kept}) \
                 OR (status = 'taken' AND changed_at <= {NOW} - {stale})",
                kept = ms(MATCHED_KEPT),
                stale = ms(TAKEN_STALE)
            ),
        ] {
            n += sqlx::query(&q).execute(&mut *tx).await.map_err(db_error)?.rows_affected();
        }
        if n > 0 { Self::commit(tx).await } else { tx.commit().await.map_err(db_error) }
    }

    /// The last socket here following these seeks closed: their grace
    /// starts now (written by a task of its own).
    pub(super) fn release(&self, ids: Vec<String>) {
        let pool = self.pool.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                if let Err(e) = renew(&pool, &ids).await {
                    tracing::warn!("lobby: the grace of {} seeks: {e}", ids.len());
                }
            });
        }
    }
}

/// These seeks are followed (or were, until now) by a socket here: they
/// live [`SOCKET_GRACE`] from now at least.
async fn renew(pool: &PgPool, ids: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query(&format!("UPDATE lobby_seeks SET alive_until = {NOW} + $2 WHERE id = ANY($1) AND state = 'open'"))
        .bind(ids)
        .bind(ms(SOCKET_GRACE))
        .execute(pool)
        .await?;
    Ok(())
}

/// What a seek's caps are counted by, as stored.
fn owner_key(seek: &Seek) -> String {
    match seek.key() {
        super::OwnerKey::Account(id) => format!("account:{id}"),
        super::OwnerKey::Addr(a) => format!("addr:{a}"),
    }
}
