//! What is stored of chat: the players' room of each game (table `chat`,
//! migration 0004), written through the group-commit writer
//! ([`super::WriteOp::InsertChat`]) and loaded with the game (its last
//! [`HISTORY`] messages). The spectators' room is kept in memory only.

use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};

use super::StoreError;

/// Messages of a room kept, and loaded with a game.
pub const HISTORY: usize = 50;

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// Its number in the game's players' room, from 1 (0 for a spectators'
    /// message, never stored).
    pub n: u64,
    /// The seat that wrote it (none for a spectator).
    pub seat: Option<usize>,
    /// Who wrote it, as shown.
    pub name: String,
    /// The text.
    pub text: String,
    /// When, in milliseconds since 1970.
    pub at: i64,
}

/// The statement inserting a message, pushed onto a commit's query.
pub(crate) fn push_insert(q: &mut QueryBuilder<Sqlite>, game_id: &str, m: &ChatRow) {
    q.push(" INSERT INTO chat (game_id, n, seat, name, text, at) ");
    q.push_values(std::iter::once(m), |mut b, m| {
        b.push_bind(game_id.to_string())
            .push_bind(m.n as i64)
            .push_bind(m.seat.map(|s| s as i64))
            .push_bind(m.name.clone())
            .push_bind(m.text.clone())
            .push_bind(m.at);
    });
    q.push(";");
}

/// The last [`HISTORY`] messages of a game's players' room, oldest first.
pub(crate) async fn last_of(pool: &SqlitePool, game_id: &str) -> Result<Vec<ChatRow>, StoreError> {
    let rows = sqlx::query("SELECT n, seat, name, text, at FROM chat WHERE game_id = ? ORDER BY n DESC LIMIT ?")
        .bind(game_id)
        .bind(HISTORY as i64)
        .fetch_all(pool)
        .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(ChatRow {
                n: r.try_get::<i64, _>("n")? as u64,
                seat: r.try_get::<Option<i64>, _>("seat")?.map(|s| s as usize),
                name: r.try_get("name")?,
                text: r.try_get("text")?,
                at: r.try_get("at")?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.reverse();
    Ok(out)
}
