//! Tidy test: the engine stays pure. No file, network, console, clock, process or
//! environment access and no global random numbers in `engine/src`; no database, web or
//! async runtime crates among its dependencies. Time and randomness enter as data.

use std::path::{Path, PathBuf};

/// Text that must not appear in the engine's sources, and why.
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
];

/// The only crates the engine may depend on (`strum` derives the names of the kinds of
/// action; `utoipa`, optional behind the `openapi` feature, derives their API schema).
const ALLOWED_DEPENDENCIES: &[&str] = &[
    "serde",
    "serde_json",
    "toml",
    "thiserror",
    "strum",
    "utoipa",
];

fn engine_dir() -> PathBuf {
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

/// (line number, forbidden text, reason) for every hit in `src`.
fn violations(src: &str) -> Vec<(usize, &'static str, &'static str)> {
    let mut v = Vec::new();
    for (i, line) in src.lines().enumerate() {
        for (needle, why) in FORBIDDEN {
            if line.contains(needle) {
                v.push((i + 1, *needle, *why));
            }
        }
    }
    v
}

#[test]
fn the_scanner_finds_what_it_looks_for() {
    let sample = "use std::fs::File;\nlet t = std::time::Instant::now();\nlet x = 1;\n";
    let hits: Vec<&str> = violations(sample).into_iter().map(|h| h.1).collect();
    assert_eq!(hits, vec!["std::fs", "std::time", "Instant"]);
    assert!(violations("let seed = rng.next_u64();").is_empty());
}

#[test]
fn engine_sources_do_no_io_and_read_no_clock_or_global_randomness() {
    let mut files = Vec::new();
    rust_files(&engine_dir().join("src"), &mut files);
    assert!(
        files.len() >= 8,
        "expected the engine's modules, found {files:?}"
    );
    assert!(files.iter().any(|f| f.ends_with("game/mod.rs")));
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        for (line, needle, why) in violations(&text) {
            problems.push(format!("{}:{line}: `{needle}` ({why})", f.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "the engine must stay pure:\n{}",
        problems.join("\n")
    );
}

#[test]
fn engine_depends_only_on_the_allowed_crates() {
    let text = std::fs::read_to_string(engine_dir().join("Cargo.toml")).expect("Cargo.toml");
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
    // no build script, no build-time or platform-specific dependencies
    assert!(manifest.get("build-dependencies").is_none());
    assert!(manifest.get("target").is_none());
    let build = manifest
        .get("package")
        .and_then(|p| p.get("build"))
        .and_then(|b| b.as_bool());
    assert_ne!(build, Some(true));
    assert!(!engine_dir().join("build.rs").exists());
    // a dependency renamed with `package = ...` still counts by its real name
    for (name, spec) in deps {
        if let Some(real) = spec.get("package").and_then(|p| p.as_str()) {
            assert!(ALLOWED_DEPENDENCIES.contains(&real), "{name} is {real}");
        }
    }
}
