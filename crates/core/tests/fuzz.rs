//! Fuzzing the core's text parsers: records and `name=value` options. Every
//! input gives either a value that reads back the same once written, or an
//! error that says something; never a panic.

mod fuzz_common;

use fuzz_common::*;
use plateau_core::{Options, Record};
use proptest::prelude::*;

fn records() -> Vec<String> {
    vec![
        "[Game \"abalone\"]\n[Variant \"belgian-daisy\"]\n[Option \"marbles-to-win=6\"]\n[Seed \"0\"]\n\
         [Black \"Ann \\\"A\\\" \\\\ B\"]\n[Result \"1-0\"]\n\n1. a1b2 i5h5 2. a5b5 i6h6 1-0\n"
            .to_string(),
        "1.a1b2 i5h5 2.a2b3 {a comment} i6h6 3... b3c4 ; to the end\n g4g5 *".to_string(),
        "[Game \"kabaleo\"]\n[Seed \"12345\"]\n[Players \"3\"]\n\n1. 3:R 2:O 5:Y 2. 1:G 1/2-1/2".to_string(),
        "[Game \"abraxas\"]\n[Option \"sheet=..o....../........./o...o..../......../.........\"]\n\n\
         1. d4 b:e5 2. x:d4,f4 pass 1-0-0"
            .to_string(),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn records_read_back_or_say_why(text in inputs(records(), 300)) {
        match Record::parse(&text) {
            Ok(r) => {
                let written = r.to_text();
                let back = Record::parse(&written);
                prop_assert!(back.is_ok(), "{:?} was read, but its text {:?} is refused: {:?}", text, written, back);
                let back = back.unwrap();
                // Control characters in tag values are written as spaces
                // (the record is line-based): compare with them so replaced.
                let plain = |tags: &[(String, String)]| -> Vec<(String, String)> {
                    tags.iter()
                        .map(|(k, v)| (k.clone(), v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()))
                        .collect()
                };
                prop_assert_eq!(plain(&back.tags), plain(&r.tags));
                prop_assert_eq!(&back.moves, &r.moves);
                // No result is written `*`, which reads back as the result `*`.
                let norm = |r: &Option<String>| r.clone().unwrap_or_else(|| "*".to_string());
                prop_assert_eq!(norm(&back.result), norm(&r.result));
                prop_assert_eq!(back.to_text(), written);
            }
            Err(e) => clear(&e.to_string(), &text)?,
        }
    }

    #[test]
    fn option_pairs_read_back_or_say_why(
        text in inputs(vec!["marbles-to-win=6".into(), "sheet=@level.txt".into(), "a=b=c".into(), " max-plies = 40 ".into()], 40)
    ) {
        match Options::parse_pair(&text) {
            Ok((k, v)) => {
                prop_assert!(!k.is_empty(), "{:?}: an empty name", text);
                let again = Options::parse_pair(&format!("{k}={v}"));
                prop_assert_eq!(again.ok(), Some((k.clone(), v.clone())), "{:?}", text);
                let mut o = Options::new();
                o.set(k.clone(), v.clone());
                prop_assert_eq!(o.iter().collect::<Vec<_>>(), vec![(k.as_str(), v.as_str())]);
            }
            Err(e) => clear(&e.to_string(), &text)?,
        }
    }
}
