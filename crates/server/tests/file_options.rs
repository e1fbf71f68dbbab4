//! Options whose values are content (Colorito's `board`, Abraxas's `sheet`)
//! through the real server: a file path is never read, whether the file
//! exists or not, and the answer is the same in both cases; inline content is
//! accepted and kept in the game's record.

mod common;

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use serde_json::{Value, json};

/// A guard against hanging (reading `/dev/zero` would never end): never an
/// assertion about speed.
const HANG_GUARD: Duration = Duration::from_secs(20);

async fn guarded<T>(what: &str, f: impl Future<Output = T>) -> T {
    tokio::time::timeout(HANG_GUARD, f).await.unwrap_or_else(|_| panic!("{what}: no answer in {HANG_GUARD:?}"))
}

/// POST the set-up to `/api/setup` and `/api/games`; both must refuse it with
/// 400 `bad_setup` and the same message, which is returned.
async fn refused(addr: SocketAddr, game: &str, option: &str, value: &str) -> String {
    let body = json!({ "game": game, "options": { option: value } });
    let mut messages = Vec::new();
    for path in ["/api/setup", "/api/games"] {
        let (status, v) = guarded(&format!("{path} {option}={value}"), post(addr, path, None, body.clone())).await;
        assert_eq!(status, 400, "{path} {option}={value}: {v}");
        assert_eq!(v["code"], "bad_setup", "{path} {option}={value}: {v}");
        messages.push(v["message"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(messages[0], messages[1], "{option}={value}");
    messages.remove(0)
}

/// A board file's text (the default Colorito layout), as a user would keep it.
const BOARD_FILE: &str = "\
# The default layout, rank 10 first.
R10 R9  R8  R7  R6  R5  R4  R3  R2  R1
Y20 Y19 Y18 Y17 Y16 Y15 Y14 Y13 Y12 Y11
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
L11 L12 L13 L14 L15 L16 L17 L18 L19 L20
D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
";

/// The same board inline: ranks separated by `/`.
fn inline_board() -> String {
    BOARD_FILE.lines().skip(1).map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("/")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_paths_are_never_read_and_answers_do_not_depend_on_existence() {
    let s = start().await;
    let a = s.addr;

    // A path that does not exist yet, then exists with a valid board.
    let path = s.dir.join("mine.board");
    let p = path.to_str().unwrap();
    let before = refused(a, "colorito", "board", p).await;
    std::fs::write(&path, BOARD_FILE).unwrap();
    let after = refused(a, "colorito", "board", p).await;
    assert_eq!(before, after, "the answer must not depend on whether the file exists");
    assert!(!after.contains("Y19") && !after.contains("default layout"), "{after}");

    // Devices and system files: refused at once, with the same words as a
    // path that does not exist (the path itself aside).
    let missing = refused(a, "colorito", "board", "/nonexistent/x").await;
    let shape = |m: &str, p: &str| m.replace(&format!("{p:?}"), "PATH");
    for p in ["/dev/zero", "/etc/passwd", "/dev/stdin", "/proc/self/environ"] {
        let m = refused(a, "colorito", "board", p).await;
        assert_eq!(shape(&m, p), shape(&missing, "/nonexistent/x"), "{p}");
        assert!(!m.contains("root:") && !m.contains("No such file") && !m.contains("ermission"), "{m}");
    }
    assert!(missing.contains("board"), "{missing}");

    let missing = refused(a, "abraxas", "sheet", "/etc/shadow-nonexistent").await;
    for p in ["/etc/shadow", "/etc/passwd", "/dev/zero"] {
        let m = refused(a, "abraxas", "sheet", p).await;
        assert_eq!(shape(&m, p), shape(&missing, "/etc/shadow-nonexistent"), "{p}");
    }
    // A sheet file that exists and is valid: still not read.
    let sheet = s.dir.join("mine.sheet");
    let q = sheet.to_str().unwrap();
    let before = refused(a, "abraxas", "sheet", q).await;
    std::fs::write(
        &sheet,
        ".........\n.........\n....o....\n.........\n..o...o..\n.........\n.........\n.........\n.........\n",
    )
    .unwrap();
    assert_eq!(refused(a, "abraxas", "sheet", q).await, before);

    // Multi-line content is refused: one line only (records carry it).
    let m = refused(a, "colorito", "board", BOARD_FILE).await;
    assert!(m.contains("one line"), "{m}");

    // The server is still serving.
    let (st, _) = guarded("health", get(a, "/api/health", None)).await;
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_content_is_accepted_and_kept_in_the_record() {
    let s = start().await;
    let a = s.addr;
    let board = inline_board();
    let body = json!({ "game": "colorito", "options": { "board": board } });
    let (status, v) = guarded("setup", post(a, "/api/setup", None, body.clone())).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = guarded("create", post(a, "/api/games", None, body)).await;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().unwrap();
    let (status, rec) = guarded("record", get(a, &format!("/api/games/{id}/record"), None)).await;
    assert_eq!(status, 200, "{rec}");
    let text = rec["text"].as_str().unwrap_or_default();
    assert!(text.contains(&format!("[Option \"board={board}\"]")), "{text}");

    let sheet = "........./........./....o..../........./..o...o../........./........./........./.........";
    let body = json!({ "game": "abraxas", "options": { "sheet": sheet } });
    let (status, v) = guarded("setup", post(a, "/api/setup", None, body)).await;
    assert_eq!(status, 200, "{v}");

    // The catalogue says which options take content.
    let (status, cat) = guarded("catalog", get(a, "/api/catalog", None)).await;
    assert_eq!(status, 200);
    let kind = |game: &str, option: &str| -> Value {
        let g = cat["games"].as_array().unwrap().iter().find(|g| g["name"] == game).unwrap();
        g["options"].as_array().unwrap().iter().find(|o| o["name"] == option).unwrap()["kind"].clone()
    };
    assert_eq!(kind("colorito", "board"), json!({ "type": "content" }));
    assert_eq!(kind("abraxas", "sheet"), json!({ "type": "content" }));
}
