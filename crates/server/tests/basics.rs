mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_a_few_moves() {
    let s = start().await;
    let (id, t0, _) = create(s.addr, json!({ "game": "abalone", "name": "Ann" })).await;
    let (_, t1) = join(s.addr, &id, "Bob").await;
    let (mut a, wa) = Client::open(s.addr, &id, t0.as_deref(), None).await;
    let (mut b, _) = Client::open(s.addr, &id, Some(&t1), None).await;
    eprintln!("{wa}");
    let mv = a.legal.clone().expect("black to move")[0].clone();
    a.send(json!({ "type": "move", "move": mv, "version": a.version })).await;
    let u = b.until("update").await;
    eprintln!("{u}");
    assert_eq!(u["type"], "update");
}
