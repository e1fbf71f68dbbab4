//! The documents point where things are, and state the true minimum Rust.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The targets of the relative Markdown links `[text](target)` of `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
        rest = &rest[end..];
    }
    out
}

#[test]
fn links_stay_inside_the_repository_and_exist() {
    for doc in ["README.md", "ARCHITECTURE.md", "docs/rules/README.md"] {
        let text = read(doc);
        let dir = Path::new(doc).parent().unwrap();
        for target in links(&text) {
            let path = root().join(dir).join(&target).canonicalize();
            let path = path.unwrap_or_else(|_| panic!("{doc}: the link {target} names nothing"));
            assert!(path.starts_with(root().canonicalize().unwrap()), "{doc}: {target} leaves the repository");
        }
    }
    // The rules live in docs/rules: no document or crate doc sends readers
    // to the old place outside the repository.
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for krate in std::fs::read_dir(root().join("crates")).unwrap() {
        let lib = krate.unwrap().path().join("src/lib.rs");
        if lib.exists() {
            files.push(lib);
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(!text.contains("shared/rules"), "{} names shared/rules", f.display());
    }
    assert!(read("README.md").contains("[`docs/rules/`](docs/rules/README.md)"));
}

#[test]
fn the_stated_minimum_rust_is_the_true_one() {
    // Let-chains (`if let … && …`), which the code uses, are stable since
    // Rust 1.88 (edition 2024); so is proptest 1.12, a dependency.
    let manifest = read("Cargo.toml");
    let line = manifest.lines().find(|l| l.starts_with("rust-version")).expect("rust-version in Cargo.toml");
    let version = line.split('"').nth(1).unwrap();
    let minor: u32 = version.strip_prefix("1.").unwrap().split('.').next().unwrap().parse().unwrap();
    assert!(minor >= 88, "rust-version {version} is older than let-chains");
    assert!(read("README.md").contains(&format!("Rust (stable, {version} or later")), "README states {version}");
}
