//! Several servers of one service: how a run names them and spreads its
//! games and sockets over them.
//!
//! Game `g` is created (and joined) on server `g % n`; client `i` of game
//! `g` (0: the creator's, 1: the joiner's; each keeps its server through
//! the game's rematches) opens its WebSocket on server `(g + i) % n`, so
//! that with two servers every game has one player on each. A client that
//! loses its socket goes on with the next server of the list.

use std::net::{SocketAddr, ToSocketAddrs};

/// The server (an index into a list of `n`) game `g` is created on.
pub fn creation(g: usize, n: usize) -> usize {
    g % n.max(1)
}

/// The server (an index into a list of `n`) client `i` of game `g` first
/// opens its WebSocket on.
pub fn seat(g: usize, i: usize, n: usize) -> usize {
    (g + i) % n.max(1)
}

/// The server after `k` in a list of `n` (round robin, for a reconnection).
pub fn next(k: usize, n: usize) -> usize {
    (k + 1) % n.max(1)
}

/// A server given as a base URL (`http://HOST:PORT`, a trailing `/`
/// allowed; port 80 if none) or as `HOST:PORT`, resolved to its first
/// address. The load tool speaks plain HTTP and WebSockets only.
pub fn parse_server(s: &str) -> Result<SocketAddr, String> {
    let t = s.trim();
    let rest = match t.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
        Some(_) => return Err(format!("{s:?}: the load tool speaks plain http:// only")),
        None => t,
    };
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    if !path.is_empty() {
        return Err(format!("{s:?}: a server is a base URL without a path (http://HOST:PORT)"));
    }
    if host.is_empty() {
        return Err(format!("{s:?}: no host"));
    }
    let with_port = if host.starts_with('[') {
        if host.contains("]:") { host.to_string() } else { format!("{host}:80") }
    } else {
        match host.matches(':').count() {
            0 => format!("{host}:80"),
            1 => host.to_string(),
            _ => format!("[{host}]:80"),
        }
    };
    with_port
        .to_socket_addrs()
        .map_err(|e| format!("{s:?}: {e}"))?
        .next()
        .ok_or_else(|| format!("{s:?}: the name has no address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_two_servers_every_game_has_one_seat_on_each() {
        for g in 0..100 {
            assert_eq!(creation(g, 2), g % 2);
            let (a, b) = (seat(g, 0, 2), seat(g, 1, 2));
            assert_ne!(a, b, "game {g}");
            // The creator's socket is on the server that made the game.
            assert_eq!(a, creation(g, 2));
        }
    }

    #[test]
    fn games_and_sockets_are_spread_evenly() {
        for n in 1..6 {
            let mut games = vec![0; n];
            let mut sockets = vec![0; n];
            for g in 0..60 * n {
                games[creation(g, n)] += 1;
                for i in 0..2 {
                    sockets[seat(g, i, n)] += 1;
                }
            }
            assert!(games.iter().all(|&c| c == 60), "{n} servers: {games:?}");
            assert!(sockets.iter().all(|&c| c == 120), "{n} servers: {sockets:?}");
        }
    }

    #[test]
    fn reconnections_go_round_the_list() {
        let mut k = 2;
        let mut seen = Vec::new();
        for _ in 0..3 {
            k = next(k, 3);
            seen.push(k);
        }
        assert_eq!(seen, [0, 1, 2]);
        assert_eq!(next(0, 1), 0);
    }

    #[test]
    fn servers_are_read_as_base_urls_or_addresses() {
        let a: SocketAddr = "127.0.0.1:8790".parse().unwrap();
        for s in ["http://127.0.0.1:8790", "http://127.0.0.1:8790/", "127.0.0.1:8790", " HTTP://127.0.0.1:8790 "] {
            assert_eq!(parse_server(s), Ok(a), "{s}");
        }
        assert_eq!(parse_server("http://127.0.0.1"), Ok("127.0.0.1:80".parse().unwrap()));
        assert_eq!(parse_server("http://[::1]:9000"), Ok("[::1]:9000".parse().unwrap()));
        assert_eq!(parse_server("[::1]"), Ok("[::1]:80".parse().unwrap()));
        assert_eq!(parse_server("::1"), Ok("[::1]:80".parse().unwrap()));
        for bad in ["https://127.0.0.1:8790", "http://127.0.0.1:8790/plateau", "http://", "", "127.0.0.1:notaport"] {
            assert!(parse_server(bad).is_err(), "{bad:?}");
        }
    }
}
