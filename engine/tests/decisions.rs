//! Tidy test: the gate (`game/play.rs`), the listing of options (`game/legal.rs`), the
//! turn pipeline (`game/turn.rs`), scoring (`game/scoring.rs`), resignation
//! (`game/resign.rs`), the rest of the game (`game/*.rs`), `decision.rs` and the board
//! name only the base game's phases, actions and figures. Every other
//! `Phase`, `Action` and `FigureKind` variant is an expansion's, and so is every value of
//! the expansions' own choices (`CropMode`, `ScoreFigure`, `MessageChoice`,
//! `MagicFigure`): it is listed, applied and checked by that expansion, in its own file
//! (`expansions/<id>.rs`), through its `Decisions` (reached through the registry of
//! `expansions/decisions.rs`) or its hooks on the table.

use std::path::Path;

/// The base game's phases: the tile, the figure, the end.
const BASE_PHASES: &[&str] = &["PlaceTile", "PlaceFigure", "GameOver"];

/// The base game's actions: the tile, a figure, or none.
const BASE_ACTIONS: &[&str] = &["PlaceTile", "PlaceFigure", "Pass"];

/// The base game's figure: the follower.
const BASE_FIGURES: &[&str] = &["Follower"];

/// The enums whose variants the core may name only from the base list, with the file that
/// declares each. The expansions' own choices have no base variant.
const VOCABULARIES: &[(&str, &str, &[&str])] = &[
    ("decision.rs", "Phase", BASE_PHASES),
    ("action.rs", "Action", BASE_ACTIONS),
    ("figures.rs", "FigureKind", BASE_FIGURES),
    ("action.rs", "CropMode", &[]),
    ("action.rs", "ScoreFigure", &[]),
    ("expansions/messages.rs", "MessageChoice", &[]),
    ("figures.rs", "MagicFigure", &[]),
];

/// The files that must name no expansion's phase, action or figure.
const CORE: &[&str] = &[
    "game/play.rs",
    "game/legal.rs",
    "game/turn.rs",
    "game/scoring.rs",
    "game/resign.rs",
    "game/mod.rs",
    "game/setup.rs",
    "game/hand.rs",
    "game/moves.rs",
    "game/undo.rs",
    "game/view.rs",
    "game/replay.rs",
    "game/errors.rs",
    "decision.rs",
    "board/mod.rs",
    "board/roads.rs",
];

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
        ("figures.rs", "FigureKind", BASE_FIGURES),
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
    for (file, enum_name, base) in VOCABULARIES {
        let declared = declared_variants(&source(file), enum_name);
        assert!(
            declared.len() >= 2 && base.iter().all(|b| declared.iter().any(|d| d == b)),
            "{file}: {enum_name}'s variants were not found: {declared:?}"
        );
    }
}

#[test]
fn the_core_names_no_expansion_phase_action_or_figure() {
    let mut found = Vec::new();
    for file in CORE {
        let text = source(file);
        for (decl, enum_name, base) in VOCABULARIES {
            // the enum's variants (not its associated constants, as `FigureKind::ALL`)
            let declared = declared_variants(&source(decl), enum_name);
            for (line, name) in named_variants(&text, enum_name) {
                if declared.contains(&name) && !base.contains(&name.as_str()) {
                    found.push(format!("{file}:{line}: {enum_name}::{name}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "an expansion's phase, action or figure is named in the core: move it into that \
         expansion's file (expansions/<id>.rs: its Decisions or its hooks): {found:#?}"
    );
}
