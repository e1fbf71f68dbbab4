//! Embeds every file of `assets/` and the rules of `docs/rules/` into the
//! binary: writes `$OUT_DIR/assets.rs`, a table of `(path, bytes, etag)` made of
//! `include_bytes!` of each file. No tool runs on the assets: they are served
//! as they are written.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        let rel = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
        if path.is_dir() {
            walk(&path, &rel, out);
        } else {
            out.push((rel, path));
        }
    }
}

/// FNV-1a, for the entity tags.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let assets = root.join("assets");
    let rules = root.join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", assets.display());
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut files = Vec::new();
    walk(&assets, "", &mut files);
    walk(&rules, "rules", &mut files);
    let mut code = String::from("/// Every embedded file: its path under `/assets/`, its bytes and its entity tag.\n");
    code.push_str("pub static FILES: &[(&str, &[u8], &str)] = &[\n");
    for (rel, path) in &files {
        let bytes = fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?}), \"\\\"{:016x}\\\"\"),",
            path.display().to_string(),
            fnv(&bytes)
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    fs::write(out, code).expect("writing assets.rs");
}
