//! The pool of accounts a run plays as: signed up at the start, each with a
//! personal access token, two different ones in each game.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde_json::{Value, json};

use super::{Src, spread};
use crate as client;

/// The kind of loopback address (see [`super::source`]) the accounts sign up from.
const ACCOUNTS_KIND: u8 = 253;

/// An account of the pool: its name and a personal access token.
#[derive(Clone, Debug)]
pub(super) struct Account {
    pub(super) name: String,
    pub(super) token: String,
}

/// A request that the server may refuse for a while (429: sign-ups are
/// limited per client address), tried again after the time it asks for,
/// a few times.
async fn patiently(
    from: Option<IpAddr>,
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<client::Response, String> {
    let mut tries = 0;
    loop {
        let r = client::request_with(from, addr, "POST", path, None, headers, body.to_string().as_bytes())
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        tries += 1;
        if r.status != 429 || tries == 6 {
            return Ok(r);
        }
        let wait = r.header("retry-after").and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(6).clamp(1, 60);
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

/// Sign up account `name` on `addr` from `from`, and make it a personal
/// access token (with the session cookie, as the server's own page would:
/// same-origin).
async fn sign_up(addr: SocketAddr, from: Option<IpAddr>, name: String) -> Result<Account, String> {
    let password = format!(
        "{:016x}{:016x}",
        getrandom::u64().map_err(|e| e.to_string())?,
        getrandom::u64().map_err(|e| e.to_string())?
    );
    let r = patiently(from, addr, "/api/accounts", &[], &json!({ "name": name, "password": password })).await?;
    if r.status != 201 {
        return Err(format!("sign-up of {name}: {} {}", r.status, r.body));
    }
    let cookie = r
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
        .ok_or_else(|| format!("sign-up of {name}: no session cookie"))?;
    let origin = format!("http://{addr}");
    let headers = [("cookie", cookie.as_str()), ("origin", origin.as_str())];
    let r = patiently(from, addr, "/api/account/tokens", &headers, &json!({ "label": "loadtest" })).await?;
    let token = r.json()["token"].as_str().unwrap_or_default().to_string();
    if r.status != 201 || token.is_empty() {
        return Err(format!("access token of {name}: {} {}", r.status, r.body));
    }
    Ok(Account { name, token })
}

/// Sign up `n` accounts, each from a loopback address of its own, account
/// `k` on server `k % servers` (accounts are the same on every instance of
/// one service): their names are `load-RUN-K`, RUN random (a server keeps
/// its accounts).
pub(super) async fn sign_up_pool(servers: &[SocketAddr], n: usize) -> Result<Vec<Account>, String> {
    let run = getrandom::u32().map_err(|e| e.to_string())?;
    let mut signing = Vec::new();
    for k in 0..n {
        let addr = servers[spread::creation(k, servers.len())];
        let from = Src { kind: ACCOUNTS_KIND, i: k }.ip(addr);
        signing.push(tokio::spawn(sign_up(addr, from, format!("load-{run:08x}-{k}"))));
    }
    let mut pool = Vec::new();
    for s in signing {
        pool.push(s.await.map_err(|e| e.to_string())??);
    }
    Ok(pool)
}

/// The two accounts of game `i` (different ones, pairs varying across the
/// games): the creator's and the joiner's.
pub(super) fn pair_of(pool: &[Account], i: usize) -> Option<(&Account, &Account)> {
    let m = pool.len();
    if m < 2 {
        return None;
    }
    let a = i % m;
    let b = (a + 1 + (i / m) % (m - 1)) % m;
    Some((&pool[a], &pool[b]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_pairs_two_different_accounts_of_the_pool() {
        for m in 2..9 {
            let pool: Vec<Account> =
                (0..m).map(|k| Account { name: format!("a{k}"), token: format!("t{k}") }).collect();
            let mut pairs = std::collections::HashSet::new();
            for i in 0..200 {
                let (a, b) = pair_of(&pool, i).unwrap();
                assert_ne!(a.name, b.name);
                pairs.insert((a.name.clone(), b.name.clone()));
            }
            // Every ordered pair comes up: the games mix the accounts.
            assert_eq!(pairs.len(), m * (m - 1), "{m} accounts");
        }
        assert!(pair_of(&[], 0).is_none());
    }
}
