//! `plateau serve` serves the web interface: the pages at `/`, `/game/{id}`
//! and `/rules/{game}`, the embedded files under `/assets/`, beside the API.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use plateau_client as client;

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(dir: &std::path::Path) -> (Serve, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["serve", "--addr", "127.0.0.1:0", "--ai-threads", "1", "--db"])
        .arg(format!("sqlite://{}", dir.join("ui.sqlite").display()))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start plateau serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server printed its address").unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim().parse().unwrap();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (Serve(child), addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_has_the_web_interface() {
    let dir = std::env::temp_dir().join(format!("plateau-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_server, addr) = start(&dir);
    for page in ["/", "/game/abcdef", "/rules", "/rules/kabaleo"] {
        let r = client::get(addr, page, None).await.unwrap();
        assert_eq!(r.status, 200, "{page}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"), "{page}");
        assert!(r.body.contains("/assets/js/app.js"), "{page}: {}", r.body);
    }
    let r = client::get(addr, "/assets/js/app.js", None).await.unwrap();
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/javascript"));
    let r = client::get(addr, "/assets/rules/abalone.md", None).await.unwrap();
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Abalone"));
    // The API is still there, and unknown paths are JSON errors.
    let r = client::get(addr, "/api/health", None).await.unwrap();
    assert_eq!(r.status, 200);
    let r = client::get(addr, "/assets/nope.js", None).await.unwrap();
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["code"], "not_found");
    let r = client::get(addr, "/nowhere", None).await.unwrap();
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["code"], "not_found");
    let _ = std::fs::remove_dir_all(&dir);
}
