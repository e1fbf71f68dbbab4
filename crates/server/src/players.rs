//! The computer players a client may put in a seat: the server's policy
//! (levels, `random` and `greedy` always; searches only with a time limit and
//! capped budgets), and the making of a player from its spec.

use std::time::Duration;

use plateau_ai::{AnyPlayer, Kind, PlayerSpec};

/// The longest search a client may ask of a server's computer player, a move.
pub const MAX_SEARCH_TIME: Duration = Duration::from_secs(10);
/// The most nodes (alpha-beta) a client may ask for, a move.
pub const MAX_SEARCH_NODES: u64 = 50_000_000;
/// The most iterations (MCTS) a client may ask for, a move.
pub const MAX_SEARCH_ITERATIONS: u64 = 2_000_000;

/// Check a computer player spec sent by a client: levels, `random` and
/// `greedy` are always allowed; a search needs a time limit of at most
/// [`MAX_SEARCH_TIME`] a move, and its other budgets are capped too
/// ([`MAX_SEARCH_NODES`], [`MAX_SEARCH_ITERATIONS`]; depth is capped by the
/// spec itself), so that no client can tie up a worker thread.
pub fn check_spec(spec: &str) -> Result<PlayerSpec, String> {
    let parsed = PlayerSpec::parse(spec).map_err(|e| e.to_string())?;
    match parsed.kind {
        Kind::Human => return Err("a human seat is {\"kind\": \"human\"}".into()),
        Kind::Level(_) | Kind::Random | Kind::Greedy => {}
        _ => {
            let b = parsed.budget;
            match b.time {
                Some(t) if t <= MAX_SEARCH_TIME => {}
                _ => {
                    return Err(format!(
                        "{spec}: a search on the server needs time=... of at most {}s",
                        MAX_SEARCH_TIME.as_secs()
                    ));
                }
            }
            if b.nodes.is_some_and(|n| n > MAX_SEARCH_NODES) {
                return Err(format!("{spec}: at most {MAX_SEARCH_NODES} nodes on the server"));
            }
            if b.iterations.is_some_and(|n| n > MAX_SEARCH_ITERATIONS) {
                return Err(format!("{spec}: at most {MAX_SEARCH_ITERATIONS} iterations on the server"));
            }
        }
    }
    Ok(parsed)
}

/// A computer player for a server seat, from a spec that [`check_spec`]
/// accepts.
pub fn make_player(game: &str, spec: &str) -> Result<Box<dyn AnyPlayer>, String> {
    let parsed = check_spec(spec)?;
    let players = plateau_games::players(game).map_err(|e| e.to_string())?;
    players.create(&parsed).map_err(|e| e.to_string())
}

/// The level (1 to 6) of a spec that is exactly a level (`ai:3`, `level:3`).
pub fn level_of(spec: &str) -> Option<u8> {
    match PlayerSpec::parse(spec).ok()?.kind {
        Kind::Level(n) => Some(n),
        _ => None,
    }
}

/// The account of a computer level: the level plays rated games as this
/// account (`computer-3`), one rating per game like anyone.
pub fn level_account(level: u8) -> String {
    format!("computer-{level}")
}

/// The level of a computer level's account id.
pub fn account_level(account_id: &str) -> Option<u8> {
    account_id.strip_prefix("computer-")?.parse().ok().filter(|n| (1..=6).contains(n))
}
