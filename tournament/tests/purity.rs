//! Tidy test: the tournament core stays pure, like the engine. No file, network,
//! console, clock, process or environment access and no global random numbers in
//! `tournament/src`; no database, web or async runtime crates among its dependencies.

use std::path::{Path, PathBuf};

const FORBIDDEN: &[(&str, &str)] = &[
    ("std::fs", "file access"),
    ("std::net", "network access"),
    ("std::io", "input/output"),
    ("std::time", "the clock"),
    ("SystemTime", "the clock"),
    ("Instant", "the clock"),
    ("std::env", "the environment"),
    ("std::process", "processes"),
    ("std::thread", "threads"),
    ("thread_rng", "a global random number generator"),
    ("rand::", "a global random number generator"),
    ("getrandom", "operating-system randomness"),
    ("OsRng", "operating-system randomness"),
    ("diesel", "the database layer"),
    ("actix", "the web layer"),
    ("tokio", "an async runtime"),
    ("println!", "console output"),
    ("eprintln!", "console output"),
    ("print!", "console output"),
    ("dbg!", "console output"),
    (".unwrap()", "a panic on bad input"),
    (".expect(", "a panic on bad input"),
];

/// The only crates the tournament core may depend on.
const ALLOWED_DEPENDENCIES: &[&str] = &["serde", "serde_json", "thiserror", "integer-blossom"];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {dir:?}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn sources_do_no_io_read_no_clock_and_do_not_unwrap() {
    let mut files = Vec::new();
    rust_files(&crate_dir().join("src"), &mut files);
    assert!(
        files.len() >= 8,
        "expected the crate's modules, found {files:?}"
    );
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        // unit tests (at the end of a file) may unwrap
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            for (needle, why) in FORBIDDEN {
                if line.contains(needle) {
                    problems.push(format!("{}:{}: `{needle}` ({why})", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the tournament core must stay pure:\n{}",
        problems.join("\n")
    );
}

#[test]
fn depends_only_on_the_allowed_crates() {
    let text = std::fs::read_to_string(crate_dir().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = toml::from_str(&text).expect("valid manifest");
    let deps = manifest
        .get("dependencies")
        .and_then(|d| d.as_table())
        .expect("[dependencies]");
    let extra: Vec<&String> = deps
        .keys()
        .filter(|k| !ALLOWED_DEPENDENCIES.contains(&k.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "dependencies outside the allow-list: {extra:?}"
    );
    assert!(manifest.get("build-dependencies").is_none());
    assert!(!crate_dir().join("build.rs").exists());
}
