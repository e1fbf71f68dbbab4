//! The one record format of all games, PGN-like.
//!
//! ```text
//! [Game "abalone"]
//! [Variant "belgian-daisy"]
//! [Option "marbles-to-win=6"]
//! [Seed "0"]
//! [Date "2026.11.29"]
//! [Black "Ann"]
//! [White "Bob"]
//! [Result "1-0"]
//!
//! 1. a1b2 i5h5 2. a5b5 i6h6 1-0
//! ```
//!
//! - Tags are `[Name "value"]`, one per line, with `\"` and `\\` escaped. `Option`
//!   may repeat (one `name=value` each). Unknown tags are kept.
//! - The movetext is the moves in the game's notation, separated by white space.
//!   Move numbers (`12.`, `12...`, attached or not) are ignored on input; on
//!   output a number starts each round of the first player. Comments `{…}` and
//!   `; …` to the end of the line are ignored. A result token (`1-0`, `0-1`,
//!   `1/2-1/2`, `1-0-0`, `*`) may end the movetext.
//! - A bare numbered move list (no tags) is a record too; the game and variant
//!   then come from the caller.

use std::fmt::Write as _;

use crate::Seat;
use crate::error::RecordError;

/// A parsed or written record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The tags, in order (names as written).
    pub tags: Vec<(String, String)>,
    /// The moves, in notation.
    pub moves: Vec<String>,
    /// Who made each move, when known (for move numbers on output).
    pub movers: Vec<Seat>,
    /// The result token of the movetext, if any.
    pub result: Option<String>,
}

/// The largest record accepted, in bytes.
pub const MAX_RECORD_BYTES: usize = 8 << 20;

fn is_result_token(t: &str) -> bool {
    t == "*"
        || (t.contains('-') && t.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '/')))
}

/// A token without its move numbers (`12.`, `12...`, also `3.3...` where a
/// number follows a number): no move of any game starts with a number and a
/// dot, so what is left is a move, a result, or nothing.
fn strip_move_number(mut t: &str) -> &str {
    loop {
        let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && t[digits..].starts_with('.') {
            t = t[digits..].trim_start_matches('.');
        } else {
            return t;
        }
    }
}

impl Record {
    /// The first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Every tag called `name`, in order.
    pub fn tags_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.tags.iter().filter(move |(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing the first of that name or adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Parse a record, or a bare numbered move list.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::Syntax {
                line: 1,
                message: format!("record larger than {MAX_RECORD_BYTES} bytes"),
            });
        }
        let mut rec = Record::default();
        let mut in_comment = false;
        let mut movetext_started = false;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |message: String| RecordError::Syntax { line: line_no, message };
            let line = raw.trim();
            if !in_comment && !movetext_started && line.starts_with('[') {
                rec.tags.push(parse_tag(line).map_err(err)?);
                continue;
            }
            // Movetext: strip comments.
            let mut clean = String::with_capacity(line.len());
            for c in line.chars() {
                if in_comment {
                    if c == '}' {
                        in_comment = false;
                        clean.push(' ');
                    }
                    continue;
                }
                match c {
                    '{' => in_comment = true,
                    ';' => break,
                    _ => clean.push(c),
                }
            }
            for tok in clean.split_whitespace() {
                movetext_started = true;
                if rec.result.is_some() {
                    return Err(err(format!("{tok:?} after the result")));
                }
                let t = strip_move_number(tok);
                if t.is_empty() {
                    continue;
                }
                if is_result_token(t) {
                    rec.result = Some(t.to_string());
                } else {
                    rec.moves.push(t.to_string());
                }
            }
        }
        if in_comment {
            return Err(RecordError::Syntax {
                line: text.lines().count().max(1),
                message: "a comment { is never closed".to_string(),
            });
        }
        Ok(rec)
    }

    /// The record as text: tags, a blank line, the numbered moves wrapped at 80
    /// columns, and the result.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            let v: String = v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{k} \"{v}\"]");
        }
        if !self.tags.is_empty() {
            out.push('\n');
        }
        let mut tokens: Vec<String> = Vec::with_capacity(self.moves.len() + 8);
        let first = self.movers.first().copied();
        let mut number = 0;
        for (i, mv) in self.moves.iter().enumerate() {
            let starts_round = match (first, self.movers.get(i)) {
                (Some(f), Some(&m)) => m == f && (i == 0 || self.movers.get(i - 1) != Some(&f)),
                _ => i % 2 == 0,
            };
            if starts_round {
                number += 1;
                tokens.push(format!("{number}. {mv}"));
            } else {
                tokens.push(mv.clone());
            }
        }
        tokens.push(self.result.clone().unwrap_or_else(|| "*".to_string()));
        let mut col = 0;
        for t in tokens {
            if col > 0 && col + 1 + t.len() > 80 {
                out.push('\n');
                col = 0;
            } else if col > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(&t);
            col += t.len();
        }
        out.push('\n');
        out
    }
}

/// Today's date (UTC) as a record's `Date` tag writes it: `2026.11.29`.
pub fn today() -> String {
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    date_tag(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// The date (UTC) of a moment, given in milliseconds since 1970, as a
/// record's `Date` tag writes it: `2026.11.29`.
pub fn date_tag(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("a tag must be [Name \"value\"], got {line:?}"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("a tag needs a name and a quoted value: {line:?}"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!("bad tag name {name:?}"));
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("the value of tag {name} must be in double quotes"))?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err(format!("bad escape in the value of tag {name}")),
            },
            '"' => return Err(format!("unescaped quote in the value of tag {name}")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_move_list() {
        let r = Record::parse("1.a1b2 i5h5 2. a5b5 i6h6 3...c3d4 1-0").unwrap();
        assert_eq!(r.moves, ["a1b2", "i5h5", "a5b5", "i6h6", "c3d4"]);
        assert_eq!(r.result.as_deref(), Some("1-0"));
        assert!(r.tags.is_empty());
    }

    #[test]
    fn tags_comments_and_round_trip() {
        let text =
            "[Game \"abalone\"]\n[Black \"A \\\"the\\\" \\\\ B\"]\n\n{opening} 1. a1b2 ; x\n i5h5 2. c1-c3 1/2-1/2\n";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.tag("game"), Some("abalone"));
        assert_eq!(r.tag("Black"), Some("A \"the\" \\ B"));
        assert_eq!(r.moves, ["a1b2", "i5h5", "c1-c3"]);
        let again = Record::parse(&r.to_text()).unwrap();
        assert_eq!(again.tags, r.tags);
        assert_eq!(again.moves, r.moves);
        assert_eq!(again.result, r.result);
    }

    #[test]
    fn numbering_follows_movers() {
        let r = Record {
            tags: vec![],
            moves: ["d4", "x:d4,e4", "pass", "e5", "f6"].map(String::from).to_vec(),
            movers: vec![0, 0, 1, 0, 1],
            result: None,
        };
        assert_eq!(r.to_text(), "1. d4 x:d4,e4 pass 2. e5 f6 *\n");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
        // 2026-11-29 is day 20,786; a moment late that day, and one before 1970.
        assert_eq!(date_tag(20_786 * 86_400_000 + 86_399_999), "2026.11.29");
        assert_eq!(date_tag(-1), "1969.12.31");
    }

    #[test]
    fn move_numbers_are_not_moves() {
        // Found by fuzzing: "3.3..." is two move numbers, not a move "3...".
        let r = Record::parse("1. a1b2 i6h6 2. c3d4 3.3... b3c4 *").unwrap();
        assert_eq!(r.moves, ["a1b2", "i6h6", "c3d4", "b3c4"]);
        assert_eq!(strip_move_number("12...e5"), "e5");
        assert_eq!(strip_move_number("1.2.3."), "");
        assert_eq!(strip_move_number("e5"), "e5");
        assert_eq!(strip_move_number("1-0"), "1-0");
    }

    #[test]
    fn errors() {
        assert!(Record::parse("[Game abalone]").is_err());
        assert!(Record::parse("1. a1b2 1-0 c3d4").is_err());
        assert!(Record::parse("1. a1b2 {never closed").is_err());
    }

    proptest::proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC{0,200}") {
            let _ = Record::parse(&s);
        }

        #[test]
        fn written_records_parse_back(moves in proptest::collection::vec("[a-i][1-9][a-i][1-9]", 0..40),
                                      tag in "[ -~]{0,30}") {
            let r = Record { tags: vec![("Event".into(), tag)], moves, movers: vec![], result: Some("1-0".into()) };
            let back = Record::parse(&r.to_text()).unwrap();
            proptest::prop_assert_eq!(back.tags, r.tags);
            proptest::prop_assert_eq!(back.moves, r.moves);
            proptest::prop_assert_eq!(back.result, r.result);
        }
    }
}
