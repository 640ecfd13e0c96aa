//! The engine's modules depend on each other one way: every `crate::…` path in
//! `src/**` (outside comments and unit tests) is an edge from the top-level module of its
//! file to the module it names, and the graph must follow the layers below, lowest first.
//! An edge that points up a layer is an import circle in the making.
//!
//! No upward edge is known: `KNOWN_UPWARD` lists those that would have to be tolerated,
//! with the reason, and the test fails on any other upward edge and also when a listed one
//! disappears (so the list shrinks with the code). The expansions' hooks are `impl Table`
//! blocks (`expansions/table.rs`), the table is owned by the game, and what both share
//! (the pending decision's kind, the turn's stages, refusals) is in `decision`, below them.
//! What a player decides (`action`, with the values its variants carry) and how a
//! decision is recorded (`event`) are below the expansions as well: each expansion lists
//! and applies its own decisions (`expansions/decisions.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may name modules of its own layer's left or of
/// lower layers.
const LAYERS: &[&str] = &[
    "rng",
    "geometry",
    "expansion",
    "rules",
    "catalog",
    "tile_words",
    "figures",
    "board",
    "effect",
    "decision",
    "action",
    "event",
    "expansions",
    "game",
    "describe",
    "analysis",
];

/// Upward edges that exist today, with the reason.
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
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

/// The top-level module of a source file (`game/turn.rs` → `game`), `None` for `lib.rs`.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib").then_some(name)
}

/// The modules a source text names through `crate::…`, outside comments and unit tests.
fn named_modules(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Edges (from, to) between distinct top-level modules.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let Some(from) = top_module(&src, f) else {
            continue;
        };
        let text = std::fs::read_to_string(f).expect("readable source");
        for to in named_modules(&text) {
            if to != from {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

fn layer(m: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| *l == m)
        .unwrap_or_else(|| panic!("module {m} is in no layer: add it to LAYERS"))
}

#[test]
fn the_scanner_reads_crate_paths_outside_comments_and_tests() {
    let text = "use crate::board::Board;\n/// see crate::game\nlet x = crate::catalog::catalog();\n#[cfg(test)]\nuse crate::event;\n";
    let names: Vec<String> = named_modules(text).into_iter().collect();
    assert_eq!(names, vec!["board".to_string(), "catalog".to_string()]);
}

#[test]
fn modules_depend_one_way_down_the_layers() {
    let graph = module_graph();
    assert!(graph.contains_key("game") && graph.contains_key("board"));
    let mut upward = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            if layer(to) >= layer(from) {
                upward.push((from.clone(), to.clone()));
            }
        }
    }
    let known: Vec<(String, String)> = KNOWN_UPWARD
        .iter()
        .map(|(a, b, _)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(
        upward, known,
        "module edges that point up a layer (import circles): {upward:?}"
    );
}

#[test]
fn without_the_known_edges_the_module_graph_has_no_circle() {
    let mut graph = module_graph();
    for (a, b, _) in KNOWN_UPWARD {
        if let Some(tos) = graph.get_mut(*a) {
            tos.remove(*b);
        }
    }
    // Kahn: repeatedly remove modules that name no remaining module
    let mut left: BTreeSet<String> = graph
        .iter()
        .flat_map(|(a, tos)| std::iter::once(a.clone()).chain(tos.iter().cloned()))
        .collect();
    loop {
        let leaf = left
            .iter()
            .find(|m| {
                graph
                    .get(*m)
                    .is_none_or(|tos| tos.iter().all(|t| !left.contains(t)))
            })
            .cloned();
        match leaf {
            Some(m) => {
                left.remove(&m);
            }
            None => break,
        }
    }
    assert!(left.is_empty(), "modules in an import circle: {left:?}");
}
