//! Tidy test: the gate (`game/play.rs`) and the listing of options (`game/legal.rs`) name
//! only the base game's phases and actions. Every other `Phase` and `Action` variant is an
//! expansion's: it is listed and applied by that expansion's `Decisions`, in its own file
//! (`expansions/<id>.rs`), reached through the registry of `expansions/decisions.rs`.

use std::path::Path;

/// The base game's phases: the tile, the figure, the end.
const BASE_PHASES: &[&str] = &["PlaceTile", "PlaceFigure", "GameOver"];

/// The base game's actions: the tile, a figure, or none.
const BASE_ACTIONS: &[&str] = &["PlaceTile", "PlaceFigure", "Pass"];

/// The files that must name no expansion's phase or action.
const CORE: &[&str] = &["game/play.rs", "game/legal.rs"];

fn source(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {p:?}: {e}"))
}

/// The variants that `enum_name::X` paths name in `text`, outside comments and unit
/// tests, with their line numbers.
fn named_variants(text: &str, enum_name: &str) -> Vec<(usize, String)> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let needle = format!("{enum_name}::");
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find(&needle) {
            // a longer name ending in the enum's (`MyPhase::`) is another type
            let before = rest[..i].chars().next_back();
            rest = &rest[i + needle.len()..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                out.push((n + 1, name));
            }
        }
    }
    out
}

/// The variants an enum declares (`pub enum Name { … }` in `text`).
fn declared_variants(text: &str, enum_name: &str) -> Vec<String> {
    let start = text
        .find(&format!("pub enum {enum_name} {{"))
        .unwrap_or_else(|| panic!("enum {enum_name} not found"));
    let body = &text[start..];
    let body = &body[body.find('{').expect("body") + 1..];
    let mut depth = 0usize;
    let mut out = Vec::new();
    for line in body.lines() {
        let t = line.trim();
        if depth == 0 {
            if t.starts_with('}') {
                break;
            }
            let name: String = t
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                out.push(name);
            }
        }
        depth += t.matches('{').count();
        depth = depth.saturating_sub(t.matches('}').count());
    }
    out
}

#[test]
fn the_scanner_reads_variant_paths_outside_comments_and_tests() {
    let text = "match (self.phase, a) {\n(Phase::MoveWagon, Action::Pass) => {}\n// Phase::CropMode\nMyPhase::X\n}\n#[cfg(test)]\nPhase::FinalAbbey";
    assert_eq!(
        named_variants(text, "Phase"),
        vec![(2, "MoveWagon".to_string())]
    );
    assert_eq!(
        named_variants(text, "Action"),
        vec![(2, "Pass".to_string())]
    );
}

#[test]
fn the_base_lists_name_declared_variants_and_expansions_declare_more() {
    for (file, enum_name, base) in [
        ("decision.rs", "Phase", BASE_PHASES),
        ("action.rs", "Action", BASE_ACTIONS),
    ] {
        let declared = declared_variants(&source(file), enum_name);
        for b in base {
            assert!(
                declared.iter().any(|d| d == b),
                "{enum_name}::{b} is not declared in {file}: {declared:?}"
            );
        }
        assert!(
            declared.len() > base.len() + 5,
            "{file}: the expansions' variants of {enum_name} were not found: {declared:?}"
        );
    }
}

#[test]
fn the_gate_and_the_listing_name_no_expansion_phase_or_action() {
    let mut found = Vec::new();
    for file in CORE {
        let text = source(file);
        for (enum_name, base) in [("Phase", BASE_PHASES), ("Action", BASE_ACTIONS)] {
            for (line, name) in named_variants(&text, enum_name) {
                if !base.contains(&name.as_str()) {
                    found.push(format!("{file}:{line}: {enum_name}::{name}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "an expansion's phase or action is named in the core: move it into that \
         expansion's Decisions (expansions/<id>.rs): {found:#?}"
    );
}
