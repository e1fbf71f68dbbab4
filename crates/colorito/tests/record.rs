//! The record and the JSON view of finished games, through the type-erased
//! layer the command line uses: moves per player, winner, score and whether it
//! is exact.

use plateau_colorito::Colorito;
use plateau_core::rand::{RngExt, SeedableRng};
use plateau_core::{Options, Reader, Record, Registry, Setup, entry};

const SWAP_BOARD: &str = "\
L11 L12 L13 L14 L15 L16 L17 L18 L19 L20
Y11 Y12 Y13 Y14 Y15 Y16 Y17 Y18 Y19 Y20
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R   Y   D   L   R   Y   D   L   R   Y
D   L   R   Y   D   L   R   Y   D   L
R1  R2  R3  R4  R5  R6  R7  R8  R9  R10
D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
";

#[test]
fn records_and_views_of_finished_games_carry_the_result_fields() {
    let registry = Registry::new().with(entry::<Colorito>());
    let mut options = Options::new();
    options
        .set("board", plateau_core::options::inline_content(SWAP_BOARD))
        .set("max-moves", "80")
        .set("score-nodes", "50000");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let (mut won, mut drawn) = (0, 0);
    for seed in 0..40 {
        let setup = Setup { variant: Some("just-colours".into()), options: options.clone(), seed };
        let mut m = registry.new_match("colorito", &setup).unwrap();
        while m.outcome().is_none() {
            let moves = m.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())].clone();
            m.play(&mv).unwrap();
        }
        let rec = m.record(Reader::Referee);
        let text = rec.to_text();
        let view = m.view(Reader::Referee);
        let moves = (view["moves"]["red"].as_u64().unwrap(), view["moves"]["blue"].as_u64().unwrap());
        assert_eq!(rec.tag("RedMoves"), Some(moves.0.to_string().as_str()), "{text}");
        assert_eq!(rec.tag("BlueMoves"), Some(moves.1.to_string().as_str()));
        assert_eq!(moves.0 + moves.1, m.ply() as u64);
        let winner = rec.tag("Winner").unwrap();
        match view["winner"].as_str() {
            Some(w) => {
                won += 1;
                assert_eq!(winner.to_ascii_lowercase(), w);
                let score = &view["score"];
                assert!(score["exact"].is_boolean(), "{view}");
                assert_eq!(rec.tag("ScoreExact"), Some(score["exact"].as_bool().unwrap().to_string().as_str()));
                match score["value"].as_i64() {
                    Some(v) => assert_eq!(rec.tag("Score"), Some(v.to_string().as_str())),
                    None => assert_eq!(rec.tag("Score"), Some("unreachable")),
                }
                assert_ne!(rec.tag("Loser").unwrap(), winner);
            }
            None => {
                drawn += 1;
                assert_eq!(winner, "none");
                assert!(view["score"].is_null());
                assert!(rec.tag("Score").is_none());
            }
        }
        // The record replays to the same result and tags.
        let back = registry.replay(&Record::parse(&text).unwrap(), None, None).unwrap();
        assert_eq!(back.record(Reader::Referee).to_text(), text);
        if seed == 0 {
            eprintln!("{text}");
        }
    }
    eprintln!("{won} won, {drawn} drawn");
    assert!(won > 0);
}
