//! The Plateau web interface, embedded in the binary.
//!
//! The interface is plain ES modules, SVG and CSS under `assets/` (no
//! framework, no bundler, no build step): `build.rs` embeds every file of
//! `assets/`, and the rules of `docs/rules/` under `rules/`, with
//! `include_bytes!`. [`router`] serves them; the game server merges it into its
//! own routes (it serves the API under `/api/`).
//!
//! # Pages
//!
//! One HTML shell ([`SHELL`]) serves every page; the modules route on the path:
//!
//! - `/`: the lobby: create a game (game, variant, options, each seat a person or
//!   a computer at a level), open games to join, live games to watch, finished
//!   games to replay.
//! - `/game/{id}`: a game (the invite link): the board drawn in SVG, moves by
//!   click, the move list with navigation, seats, result, actions.
//! - `/rules/{game}`: the rules of a game, rendered from `docs/rules`.
//! - `/login`, `/signup`: log in, create an account; `/account`: change the
//!   password, personal access tokens; `/games`: the account's games.
//! - `/player/{name}`: a player's ratings, results, rating history and recent
//!   games; `/leaderboard`, `/leaderboard/{game}`: the best players of a game.
//! - `/game/{id}` of a finished game also shows its computer analysis
//!   (evaluation chart, marked moves, the engine's move on the board).
//! - `/analysis/{game}`: the analysis board (from the start, a finished game
//!   `?game=ID` or a pasted record; moves by click, a live evaluation).
//! - `/puzzles/{game}`: puzzles (Abalone, Abraxas), solved by click.
//! - `/learn`, `/learn/{game}`: each game's lessons, played by click, each
//!   move judged by the server (`learn.js`).
//!
//! # How moves are made
//!
//! The server sends the seat that must decide its legal moves, each with its
//! *gesture* (`plateau_core::Gesture`: identifiers to select, then targets to
//! click). Each game's drawing module (`assets/js/games/*.js`) only draws the
//! view and tags clickable SVG elements with those identifiers (`data-id="e5"`);
//! one shared module (`assets/js/interact.js`) highlights what may be selected
//! and which targets the selection allows, and sends the move whose gesture
//! matches. The interface knows no rule of any game.
//!
//! To work on the interface without rebuilding, set `PLATEAU_WEB_DIR` to
//! `crates/web/assets`: files found there are served instead of the embedded
//! ones.

#![warn(missing_docs)]

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

mod files {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// The HTML page every route of the interface serves.
pub const SHELL: &str = "index.html";

/// An embedded file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asset {
    /// Its path under `/assets/` (`js/app.js`, `rules/abalone.md`).
    pub path: &'static str,
    /// Its content.
    pub bytes: &'static [u8],
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its entity tag (a hash of the content, quoted).
    pub etag: &'static str,
}

/// The `Content-Type` of a file, from its extension.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "md" => "text/markdown; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path` (relative to `/assets/`), if any.
pub fn asset(path: &str) -> Option<Asset> {
    files::FILES.iter().find(|(p, _, _)| *p == path).map(|&(path, bytes, etag)| Asset {
        path,
        bytes,
        content_type: content_type(path),
        etag,
    })
}

/// Every embedded file.
pub fn assets() -> impl Iterator<Item = Asset> {
    files::FILES.iter().filter_map(|(p, _, _)| asset(p))
}

/// The security headers of every page and file: only this origin's scripts,
/// styles and sockets.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The directory `PLATEAU_WEB_DIR` names, if set: files found there are
/// served instead of the embedded ones (to work on the interface without
/// rebuilding; never needed to run it).
fn dev_dir() -> Option<&'static std::path::Path> {
    static DIR: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("PLATEAU_WEB_DIR").map(std::path::PathBuf::from)).as_deref()
}

/// A file of the development directory (no `..`, no hidden files).
fn dev_file(path: &str) -> Option<Response> {
    let dir = dev_dir()?;
    if path.split('/').any(|p| p.is_empty() || p.starts_with('.')) {
        return None;
    }
    let bytes = std::fs::read(dir.join(path)).ok()?;
    Some(
        (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(content_type(path))),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
                (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)),
            ],
            bytes,
        )
            .into_response(),
    )
}

fn serve(a: Asset, headers: &HeaderMap) -> Response {
    if let Some(r) = dev_file(a.path) {
        return r;
    }
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == a.etag || t.trim() == "*"));
    let common = [
        (header::ETAG, HeaderValue::from_static(a.etag)),
        // Revalidate every time: a new binary serves new files at once.
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)),
        (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (common, [(header::CONTENT_TYPE, HeaderValue::from_static(a.content_type))], a.bytes).into_response()
}

fn not_found(what: &str) -> Response {
    let body = format!("{{\"code\":\"not_found\",\"message\":\"no such file: {}\"}}", what.escape_default());
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn shell(headers: HeaderMap) -> Response {
    match asset(SHELL) {
        Some(a) => serve(a, &headers),
        None => not_found(SHELL),
    }
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    if let Some(r) = dev_file(&path) {
        return r;
    }
    match asset(&path) {
        Some(a) => serve(a, &headers),
        None => not_found(&path),
    }
}

/// The routes of the interface: the pages (`/`, `/game/{id}`, `/rules`,
/// `/rules/{game}`, the account pages `/login`, `/signup`, `/account`,
/// `/games`, `/player/{name}`, `/leaderboard`, `/leaderboard/{game}`, the
/// analysis board `/analysis`, `/analysis/{game}`, the puzzles `/puzzles`,
/// `/puzzles/{game}`, the lessons `/learn`, `/learn/{game}`) and the
/// files (`/assets/{path}`). It sets no fallback, so
/// that a server can merge it with its own routes.
pub fn router() -> Router {
    Router::new()
        .route("/", get(shell))
        .route("/game/{id}", get(shell))
        .route("/rules", get(shell))
        .route("/rules/{game}", get(shell))
        .route("/login", get(shell))
        .route("/signup", get(shell))
        .route("/account", get(shell))
        .route("/games", get(shell))
        .route("/player/{name}", get(shell))
        .route("/leaderboard", get(shell))
        .route("/leaderboard/{game}", get(shell))
        .route("/analysis", get(shell))
        .route("/analysis/{game}", get(shell))
        .route("/puzzles", get(shell))
        .route("/puzzles/{game}", get(shell))
        .route("/learn", get(shell))
        .route("/learn/{game}", get(shell))
        .route("/assets/{*path}", get(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_and_the_modules_are_embedded() {
        let shell = asset(SHELL).expect("the shell");
        assert_eq!(shell.content_type, "text/html; charset=utf-8");
        assert!(asset("js/app.js").is_some());
        assert!(asset("css/style.css").is_some());
        for g in ["abalone", "colorito", "kabaleo", "abraxas"] {
            assert!(asset(&format!("js/games/{g}.js")).is_some(), "{g}");
            assert!(asset(&format!("rules/{g}.md")).is_some(), "{g}");
            assert!(asset(&format!("rules/original/{g}.fr.txt")).is_some(), "{g}");
        }
        assert!(asset("nope.js").is_none());
    }

    /// Resolve `rel` (`./x.js`, `../dom.js`) against the folder of `from`.
    fn resolve(from: &str, rel: &str) -> String {
        let mut parts: Vec<&str> = from.split('/').collect();
        parts.pop();
        for p in rel.split('/') {
            match p {
                "." => {}
                ".." => {
                    parts.pop();
                }
                p => parts.push(p),
            }
        }
        parts.join("/")
    }

    #[test]
    fn every_file_the_pages_and_modules_name_exists() {
        // Every `/assets/...` file the HTML and the modules name, and every
        // module a module imports, is embedded.
        let mut checked = 0;
        for a in assets().filter(|a| a.path.ends_with(".js") || a.path.ends_with(".html")) {
            let text = std::str::from_utf8(a.bytes).expect("utf-8");
            for part in text.split("/assets/").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '-' | '_'))
                    .collect();
                if name.ends_with('/') || !name.contains('.') || part[name.len()..].starts_with("${") {
                    continue;
                }
                assert!(asset(&name).is_some(), "{} names /assets/{name}, which is not embedded", a.path);
                checked += 1;
            }
            // Static imports (`from './x.js'`) and modules loaded on demand (`import('./x.js')`).
            for part in text.split(" from '").skip(1).chain(text.split("import('").skip(1)) {
                let rel = &part[..part.find('\'').expect("a closed string")];
                let target = resolve(a.path, rel);
                assert!(asset(&target).is_some(), "{} imports {rel} ({target}), which is not embedded", a.path);
                checked += 1;
            }
        }
        assert!(checked > 20, "only {checked} references checked");
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type("a/b.JS"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("x.svg"), "image/svg+xml");
        assert_eq!(content_type("noext"), "application/octet-stream");
        assert_eq!(content_type("manifest.webmanifest"), "application/manifest+json");
    }

    #[test]
    fn the_app_is_installable() {
        // The shell names the manifest, and the manifest's icons (192 and 512
        // pixels, as installing needs) are embedded.
        let shell = std::str::from_utf8(asset(SHELL).unwrap().bytes).unwrap();
        assert!(shell.contains(r#"<link rel="manifest" href="/assets/manifest.webmanifest">"#));
        let manifest = std::str::from_utf8(asset("manifest.webmanifest").unwrap().bytes).unwrap();
        for size in ["192x192", "512x512"] {
            assert!(manifest.contains(&format!(r#""sizes": "{size}""#)), "{size}");
        }
        for icon in ["img/icon-192.png", "img/icon-512.png"] {
            let a = asset(icon).unwrap_or_else(|| panic!("{icon} is not embedded"));
            assert_eq!(&a.bytes[1..4], b"PNG", "{icon}");
            assert!(manifest.contains(&format!("/assets/{icon}")), "{icon}");
        }
        assert!(manifest.contains(r#""display": "standalone""#));
        assert!(manifest.contains(r#""start_url": "/""#));
    }

    #[tokio::test]
    async fn routes_serve_pages_and_files_with_etags() {
        use tower::ServiceExt;
        let app = router();
        let get = |uri: &str| axum::http::Request::builder().uri(uri).body(axum::body::Body::empty()).unwrap();
        for uri in [
            "/",
            "/game/abc123",
            "/rules",
            "/rules/kabaleo",
            "/login",
            "/signup",
            "/account",
            "/games",
            "/player/Ann_1",
            "/leaderboard",
            "/leaderboard/abalone",
            "/analysis",
            "/analysis/abalone",
            "/puzzles",
            "/puzzles/abraxas",
        ] {
            let res = app.clone().oneshot(get(uri)).await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{uri}");
            assert_eq!(res.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
        }
        let res = app.clone().oneshot(get("/assets/js/app.js")).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let etag = res.headers()[header::ETAG].clone();
        let again = axum::http::Request::builder()
            .uri("/assets/js/app.js")
            .header(header::IF_NONE_MATCH, etag)
            .body(axum::body::Body::empty())
            .unwrap();
        assert_eq!(app.clone().oneshot(again).await.unwrap().status(), StatusCode::NOT_MODIFIED);
        let res = app.clone().oneshot(get("/assets/missing.js")).await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        let res = app.oneshot(get("/assets/rules/abalone.md")).await.unwrap();
        assert_eq!(res.headers()[header::CONTENT_TYPE], "text/markdown; charset=utf-8");
    }
}
