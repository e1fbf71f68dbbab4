//! The number of spectators: in every state and update, and told to the seated
//! players as spectators come and go.

mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_learn_how_many_watch() {
    let s = start().await;
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let (mut a, welcome) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    assert_eq!(welcome["state"]["spectators"], 0);
    let (mut b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    let (eve, seen) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(seen["state"]["spectators"], 1);
    assert_eq!(a.until("spectators").await["count"], 1);
    let (zoe, _) = Client::open(s.addr, &id, None, None).await;
    assert_eq!(a.until("spectators").await["count"], 2);
    // Spectators read it in the updates.
    let mv = a.legal.clone().expect("black to move")[0].clone();
    a.send(json!({ "type": "move", "move": mv, "version": a.version })).await;
    assert_eq!(b.until("update").await["spectators"], 2);
    drop(zoe);
    drop(eve);
    let mut left = u64::MAX;
    while left != 0 {
        left = b.until("spectators").await["count"].as_u64().unwrap();
    }
}
