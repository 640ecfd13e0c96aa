//! Tidy test: where the engine names each expansion outside the expansion's own file.
//!
//! An expansion is named by its module (`gold_mines`), its `Expansion` variant, the
//! phases, actions, figures and turn stages that are its own, the table field that holds
//! its state, and the public types and functions its file declares. Every line of
//! `src/**` (outside comments and unit tests) that names one of them, in a file other than
//! the expansion's own, is counted, by kind of file:
//!
//! - `registry`: the expansions' shared files (`expansions/mod.rs`, `decisions.rs`,
//!   `stages.rs`, `table.rs`), through which the core reaches them;
//! - `vocabulary`: the shared vocabularies that list every expansion by name (the
//!   `Expansion` enum, actions, figures, the tile and house-rule catalogs, the recorded
//!   decisions);
//! - `others`: the other expansions' files (an expansion that reacts to another);
//! - `analysis`: the computer opponents' estimates (`analysis/`);
//! - `core`: everything else (the game, the turn, the board, ...).
//!
//! No core file names an expansion: the core reaches the expansions through the registry
//! (`expansions/decisions.rs`, `expansions/stages.rs`) only.
//!
//! `cargo test -p tilepost-engine --test expansions_named -- --nocapture` prints the
//! table (`EXPANSIONS_NAMED_LINES=1`: and every line counted; `EXPANSIONS_NAMED_SRC=dir`:
//! of the sources under `dir`, another checkout's `engine/src`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One expansion's own file and the names that are its own beyond those its file
/// declares.
struct Module {
    /// The file under `src/expansions/` (without `.rs`), also its module name.
    file: &'static str,
    /// Its `Expansion` variants (the score track serves two).
    expansion: &'static [&'static str],
    /// Table fields and other identifiers that hold its state.
    idents: &'static [&'static str],
    /// `Enum::Variant` paths that are its own (phases, actions, figures, stages).
    variants: &'static [&'static str],
}

const MODULES: &[Module] = &[
    Module {
        file: "river",
        expansion: &["River"],
        idents: &[],
        variants: &[],
    },
    Module {
        file: "abbot",
        expansion: &["Abbot"],
        idents: &[],
        variants: &["Action::ReturnAbbot", "FigureKind::Abbot"],
    },
    Module {
        file: "inns_cathedrals",
        expansion: &["InnsCathedrals"],
        idents: &[],
        variants: &["FigureKind::BigFollower"],
    },
    Module {
        file: "traders_builders",
        expansion: &["TradersBuilders"],
        idents: &["builder"],
        variants: &["FigureKind::Builder", "FigureKind::Pig"],
    },
    Module {
        file: "abbey_mayor",
        expansion: &["AbbeyMayor"],
        idents: &[],
        variants: &[
            "Phase::AbbeyOrDraw",
            "Phase::FinalAbbey",
            "Phase::MoveWagon",
            "Action::PlaceAbbey",
            "Action::DrawTile",
            "Action::MoveWagon",
            "FigureKind::Mayor",
            "FigureKind::Wagon",
            "FigureKind::Barn",
            "Stage::Wagons",
            "Stage::AbbeyRound",
            "Stage::FinalAbbey",
        ],
    },
    Module {
        file: "flier",
        expansion: &["FlyingMachines"],
        idents: &["flight"],
        variants: &["Phase::FlierLanding", "Action::Fly", "Action::Land"],
    },
    Module {
        file: "messages",
        expansion: &["Messages"],
        idents: &[],
        variants: &[
            "Phase::ChooseScoreFigure",
            "Phase::ResolveMessage",
            "Action::ChooseScoreFigure",
            "Action::MessageFeature",
            "Action::MessageFollower",
            "Action::MessageAction",
            "Action::MessageTwoPoints",
            "Stage::Messages",
        ],
    },
    Module {
        file: "ferries",
        expansion: &["Ferries"],
        idents: &["ferry"],
        variants: &[
            "Phase::PlaceFerry",
            "Phase::MoveFerry",
            "Action::PlaceFerry",
            "Action::MoveFerry",
            "Stage::Ferries",
        ],
    },
    Module {
        file: "gold_mines",
        expansion: &["GoldMines"],
        idents: &[],
        variants: &["Phase::PlaceIngot", "Action::PlaceIngot", "Stage::Gold"],
    },
    Module {
        file: "mage_witch",
        expansion: &["MageWitch"],
        idents: &[],
        variants: &[
            "Phase::MoveMagic",
            "Action::MoveMagic",
            "Action::RemoveMagic",
            "Stage::Magic",
        ],
    },
    Module {
        file: "robbers",
        expansion: &["Robbers"],
        idents: &[],
        variants: &[
            "Phase::PlaceRobber",
            "Phase::ChooseVictim",
            "Action::PlaceRobber",
            "Action::ChooseVictim",
        ],
    },
    Module {
        file: "crop_circles",
        expansion: &["CropCircles"],
        idents: &["crop"],
        variants: &[
            "Phase::CropMode",
            "Phase::CropAction",
            "Action::ChooseCropMode",
            "Action::AddFollower",
            "Action::RemoveFollower",
            "Stage::CropCircle",
            "Stage::Crop",
        ],
    },
    Module {
        file: "pig_herd",
        expansion: &["PigHerd"],
        idents: &[],
        variants: &[],
    },
    Module {
        file: "score_track",
        expansion: &[],
        idents: &[],
        variants: &[
            "Phase::ScoringOrder",
            "Action::ScoreNext",
            "Stage::ScoringOrder",
            "Stage::Awards",
        ],
    },
];

/// The expansions' shared files.
const REGISTRY: &[&str] = &[
    "expansions/mod.rs",
    "expansions/decisions.rs",
    "expansions/stages.rs",
    "expansions/table.rs",
];

/// The shared vocabularies: they list every expansion by name (the `Expansion` enum, the
/// actions, the figure kinds, the tile and house-rule catalogs, the recorded decisions).
const VOCABULARY: &[&str] = &[
    "expansion.rs",
    "action.rs",
    "figures.rs",
    "catalog.rs",
    "rules.rs",
    "event.rs",
];

/// Names too common to tell an expansion by (declared by several files).
const COMMON: &[&str] = &["new", "default", "heap_bytes", "name", "id", "from_id"];

/// The sources read: the engine's, or those under `EXPANSIONS_NAMED_SRC` (to count an
/// older version of them).
fn src() -> PathBuf {
    std::env::var_os("EXPANSIONS_NAMED_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

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

/// Every source file, by its path under `src/` (with `/`), and its code lines (outside
/// comments and unit tests), numbered from 1.
fn sources() -> Vec<(String, Vec<(usize, String)>)> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            let lines = code
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with("//"))
                .map(|(n, l)| (n + 1, strip_strings(l)))
                .collect();
            (rel, lines)
        })
        .collect()
}

/// The line without string literals and trailing comments.
fn strip_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_str = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
        } else if c == '/' && chars.peek() == Some(&'/') {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

/// An identifier of a line: whether it follows `::` (the last part of a path) and whether
/// a call's `(` follows it.
#[derive(Debug, PartialEq)]
struct Ident<'a> {
    name: &'a str,
    in_path: bool,
    called: bool,
}

/// The identifiers of a line, with what surrounds them.
fn idents(line: &str) -> Vec<Ident<'_>> {
    let (names, _) = tokens(line);
    let mut out = Vec::new();
    let mut from = 0;
    for name in names {
        let at = from + line[from..].find(name).expect("identifier");
        from = at + name.len();
        out.push(Ident {
            name,
            in_path: line[..at].ends_with("::"),
            called: line[from..].trim_start().starts_with('('),
        });
    }
    out
}

/// The identifiers of a line, and the `A::B` paths among them.
fn tokens(line: &str) -> (Vec<&str>, Vec<String>) {
    let mut idents = Vec::new();
    let mut spans = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            idents.push(&line[start..i]);
            spans.push((start, i));
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    let mut paths = Vec::new();
    for k in 1..spans.len() {
        if &line[spans[k - 1].1..spans[k].0] == "::" {
            paths.push(format!("{}::{}", idents[k - 1], idents[k]));
        }
    }
    (idents, paths)
}

/// The public items (`pub` or `pub(crate)` functions, types, constants) a file declares,
/// each with whether it is a function.
fn declared_items(lines: &[(usize, String)]) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (_, l) in lines {
        let t = l.trim_start();
        if !t.starts_with("pub") {
            continue;
        }
        let (idents, _) = tokens(t);
        for w in idents.windows(2) {
            if matches!(
                w[0],
                "fn" | "struct" | "enum" | "const" | "type" | "static" | "trait"
            ) {
                out.push((w[1].to_string(), w[0] == "fn"));
                break;
            }
        }
    }
    out
}

/// For each module, the lines outside its own file that name it, by file.
fn named_lines() -> BTreeMap<&'static str, Vec<(String, usize)>> {
    let sources = sources();
    let own = |m: &Module| format!("expansions/{}.rs", m.file);
    // what each file declares, to leave out names several files declare
    let mut declared_by: BTreeMap<String, usize> = BTreeMap::new();
    for (_, lines) in &sources {
        let mut items: Vec<String> = declared_items(lines).into_iter().map(|i| i.0).collect();
        items.sort();
        items.dedup();
        for i in items {
            *declared_by.entry(i).or_default() += 1;
        }
    }
    let mut out = BTreeMap::new();
    for m in MODULES {
        let own_file = own(m);
        let own_lines = &sources
            .iter()
            .find(|(f, _)| *f == own_file)
            .unwrap_or_else(|| panic!("{own_file} not found"))
            .1;
        // (name, a function: named when called)
        let mut names: Vec<(String, bool)> = declared_items(own_lines)
            .into_iter()
            .filter(|(n, _)| declared_by.get(n) == Some(&1) && !COMMON.contains(&n.as_str()))
            .collect();
        names.push((m.file.to_string(), false));
        names.extend(m.idents.iter().map(|s| (s.to_string(), false)));
        let paths: Vec<String> = m
            .expansion
            .iter()
            .map(|e| format!("Expansion::{e}"))
            .chain(m.variants.iter().map(|v| v.to_string()))
            .collect();
        let mut found = Vec::new();
        for (file, lines) in &sources {
            if *file == own_file {
                continue;
            }
            for (n, l) in lines {
                let (_, ps) = tokens(l);
                let named = idents(l).iter().any(|i| {
                    !i.in_path
                        && names
                            .iter()
                            .any(|(n, is_fn)| n == i.name && (i.called || !is_fn))
                });
                if named || ps.iter().any(|p| paths.contains(p)) {
                    found.push((file.clone(), *n));
                }
            }
        }
        out.insert(m.file, found);
    }
    out
}

fn kind_of(file: &str) -> &'static str {
    if REGISTRY.contains(&file) {
        "registry"
    } else if VOCABULARY.contains(&file) {
        "vocabulary"
    } else if file.starts_with("analysis/") {
        "analysis"
    } else if file.starts_with("expansions/") {
        "others"
    } else {
        "core"
    }
}

#[test]
fn the_tokenizer_finds_identifiers_and_paths() {
    let (names, paths) = tokens("self.gold_mines.take(Phase::PlaceIngot, x1)");
    assert_eq!(
        names,
        ["self", "gold_mines", "take", "Phase", "PlaceIngot", "x1"]
    );
    assert_eq!(paths, ["Phase::PlaceIngot"]);
    assert_eq!(
        idents("a::b(c)")
            .iter()
            .map(|i| (i.name, i.in_path, i.called))
            .collect::<Vec<_>>(),
        [("a", false, false), ("b", true, true), ("c", false, false)]
    );
    assert_eq!(strip_strings(r#"a("gold_mines \" x") // b"#), "a() ");
}

#[test]
fn no_core_file_names_an_expansion() {
    let found = named_lines();
    let kinds = ["core", "registry", "vocabulary", "others", "analysis"];
    println!(
        "{:<18} {:>6} {:>6} {:>9} {:>10} {:>7} {:>8}",
        "module", "total", "core", "registry", "vocabulary", "others", "analysis"
    );
    let mut over = Vec::new();
    for m in MODULES {
        let lines = &found[m.file];
        let count = |k: &str| lines.iter().filter(|(f, _)| kind_of(f) == k).count();
        let c: Vec<usize> = kinds.iter().map(|k| count(k)).collect();
        println!(
            "{:<18} {:>6} {:>6} {:>9} {:>10} {:>7} {:>8}",
            m.file,
            lines.len(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        if c[0] > 0 {
            let core: Vec<String> = lines
                .iter()
                .filter(|(f, _)| kind_of(f) == "core")
                .map(|(f, n)| format!("{f}:{n}"))
                .collect();
            over.push(format!("{}: {core:?}", m.file));
        }
    }
    if std::env::var_os("EXPANSIONS_NAMED_LINES").is_some() {
        for m in MODULES {
            for (f, n) in &found[m.file] {
                println!("{} {} {f}:{n}", m.file, kind_of(f));
            }
        }
    }
    assert!(
        over.is_empty(),
        "a core file names an expansion: reach it through the registry \
         (expansions/decisions.rs) instead: {over:#?}"
    );
}
