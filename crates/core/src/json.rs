//! Writing JSON text straight into a `String`, as serde_json writes it
//! (compact): for the server's frames, written after every move without a
//! JSON tree.

/// Write `s` as a JSON string (quoted, escaped as serde_json escapes it) at
/// the end of `out`.
pub fn push_str(out: &mut String, s: &str) {
    // serde_json escapes `"`, `\` and the control characters below U+0020,
    // and nothing else: text without them is written as it is.
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
    }
}

/// Write `n` in decimal at the end of `out`.
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(d as char);
    }
}

/// Write these strings as a JSON array of strings at the end of `out`.
pub fn push_str_array<S: AsRef<str>>(out: &mut String, items: &[S]) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_str(out, s.as_ref());
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text is serde_json's, for plain and escaped strings alike.
    #[test]
    fn strings_as_serde_json_writes_them() {
        let cases =
            ["", "a1b2", "stock:R", "say \"hi\"", "back\\slash", "tab\there", "nl\n", "\u{1}", "é€😀", "\u{7f}"];
        for s in cases {
            let mut out = String::new();
            push_str(&mut out, s);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
        let mut out = String::from("x");
        push_str_array(&mut out, &cases);
        assert_eq!(&out[1..], serde_json::to_string(&cases).unwrap());
        let mut out = String::new();
        push_str_array::<&str>(&mut out, &[]);
        assert_eq!(out, "[]");
    }

    /// Numbers as `Display` writes them.
    #[test]
    fn numbers_as_display_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u32::MAX as u64, u64::MAX] {
            let mut out = String::from("x");
            push_u64(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
