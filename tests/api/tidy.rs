//! Tidy checks of the server's source (`src/`), run with the API tests:
//! - no import circle between the top-level modules (`api`, `moves`, `store`, ...), nor
//!   between the submodules of `api` (dependencies point one way: api → services →
//!   store and engine);
//! - the status names of games, invitations, outbox messages and deliveries (`"open"`,
//!   `"pending"`, `"delivered"`, ...) appear only in their one definition
//!   (`store::status`), in Rust and in SQL text alike;
//! - no problem code is written as a string outside its one definition
//!   (`api::problem::ProblemCode`);
//! - only the decision service (`moves`) appends to a game's log: no other module names
//!   `store::Append`, the only argument `Store::append` takes;
//! - no error is recognised by matching its message (`….contains(…)` on error text),
//!   except where the database driver gives nothing else (`store::is_connection_message`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, with its path relative to `src/`.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(src_dir())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

fn all_sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    sources(&src_dir(), &mut out);
    assert!(out.len() > 20, "src/ not found");
    out
}

/// The code of a file without comments; string literals kept only when `strings`.
fn code(text: &str, strings: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r' && b.get(i + 1) == Some(&b'#') && b.get(i + 2) == Some(&b'"') {
            // a raw string r#"…"#
            let start = i;
            let end = text[i + 3..].find("\"#").map_or(b.len(), |e| i + 3 + e + 2);
            i = end;
            if strings {
                out.push_str(&text[start..end]);
            } else {
                out.push_str("\"\"");
            }
        } else if b[i] == b'"' {
            // a string literal
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            if strings {
                out.push_str(&text[start..i.min(b.len())]);
            } else {
                out.push_str("\"\"");
            }
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // a character literal such as '"'
            i += 3;
            out.push_str("' '");
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The module a file belongs to at `depth` (1: top level, 2: inside `api`).
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(|s| s.to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The modules named by `prefix` paths (`crate::x`, `crate::{x, y}`) in `code`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// A cycle of `graph`, if any.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The import graph between the top-level modules of the crate.
fn top_level_graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in files {
        let m = module_of(rel);
        // the crate root and the binary compose everything
        let Some(top) = m.first().filter(|t| *t != "lib" && *t != "main") else {
            continue;
        };
        let c = code(text, false);
        let deps = g.entry(top.clone()).or_default();
        for d in named_after(&c, "crate::") {
            if &d != top {
                deps.insert(d);
            }
        }
        if m.len() == 1 {
            // `super::x` in a top-level file names the crate root's module x
            for d in named_after(&c, "super::") {
                if &d != top {
                    deps.insert(d);
                }
            }
        }
    }
    g
}

/// The import graph between the submodules of `parent` (`api`, `store`; its root,
/// which composes them and holds what they share, left out; a folder inside it, such
/// as `api/dto/`, as one node): `super::x` from its files, `super::super::x` from a
/// folder's files, and `crate::parent::x`, in code or in a string (serde's
/// `deserialize_with`).
fn graph_within(files: &[(String, String)], parent: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in files {
        let m = module_of(rel);
        if m.first().map(String::as_str) != Some(parent) || m.len() < 2 {
            continue;
        }
        let node = m[1].clone();
        let c = code(text, false);
        let mut deps: BTreeSet<String> = named_after(&c, &format!("crate::{parent}::"));
        // a path in a string is a use too: `deserialize_with = "crate::api::x::f"`
        deps.extend(named_after(text, &format!("\"crate::{parent}::")));
        if m.len() == 2 {
            deps.extend(named_after(&c, "super::"));
        } else {
            deps.extend(named_after(&c, "super::super::"));
        }
        let entry = g.entry(node.clone()).or_default();
        for d in deps {
            // `super::AppState`, `super::super::x`'s own prefix and the like
            let is_module = files.iter().any(|(r, _)| {
                r == &format!("{parent}/{d}.rs") || r == &format!("{parent}/{d}/mod.rs")
            });
            if is_module && d != node {
                entry.insert(d);
            }
        }
    }
    g
}

#[test]
fn no_import_circle_between_top_level_modules() {
    let g = top_level_graph(&all_sources());
    assert!(
        g["api"].contains("moves") && g["moves"].contains("store"),
        "{g:?}"
    );
    if let Some(c) = cycle(&g) {
        panic!("import circle between modules of src/: {}", c.join(" → "));
    }
    // the layers: store and the engine know no service, services know no HTTP
    for lower in ["store", "clock", "cache", "correspondence"] {
        for upper in ["api", "moves", "sweep", "startup", "notify"] {
            assert!(
                !g[lower].contains(upper),
                "{lower} depends on {upper}: dependencies point from api to services to store"
            );
        }
    }
    for service in ["moves", "sweep", "notify", "correspondence", "store"] {
        assert!(!g[service].contains("api"), "{service} depends on api");
    }
}

#[test]
fn no_import_circle_between_api_modules() {
    let g = graph_within(&all_sources(), "api");
    assert!(
        g["games"].contains("load") && g["moves"].contains("views"),
        "{g:?}"
    );
    // the request bodies read their fields with their own helpers, not the extractors'
    assert!(!g["dto"].contains("extract"), "{:?}", g["dto"]);
    if let Some(c) = cycle(&g) {
        panic!(
            "import circle between modules of src/api/: {}",
            c.join(" → ")
        );
    }
}

#[test]
fn no_import_circle_between_store_modules() {
    let g = graph_within(&all_sources(), "store");
    assert!(
        g["lists"].contains("clocks") && g["push"].contains("conn"),
        "{g:?}"
    );
    if let Some(c) = cycle(&g) {
        panic!(
            "import circle between modules of src/store/: {}",
            c.join(" → ")
        );
    }
}

/// Whether `code` names the identifier `name` (a whole word).
fn names(code: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(name).any(|(i, _)| {
        !code[..i].chars().last().is_some_and(word)
            && !code[i + name.len()..].chars().next().is_some_and(word)
    })
}

#[test]
fn only_the_decision_service_appends_to_a_game() {
    let sources = all_sources();
    let namers: Vec<&str> = sources
        .iter()
        .filter(|(_, text)| names(&code(text, false), "Append"))
        .map(|(rel, _)| rel.as_str())
        .collect();
    assert!(namers.contains(&"moves/append.rs"), "{namers:?}");
    for rel in namers {
        assert!(
            rel.starts_with("store/") || rel.starts_with("moves/"),
            "src/{rel} names store::Append: a game's log is appended to only by the decision \
             service (crate::moves)"
        );
    }
    assert!(names("a(Append {", "Append") && !names("AppendRows", "Append"));
}

#[test]
fn the_checks_find_circles() {
    let files = vec![
        ("a.rs".to_string(), "use crate::b::X;".to_string()),
        ("b/mod.rs".to_string(), "use crate::{c, d::Y};".to_string()),
        ("c.rs".to_string(), "fn f() { super::a::g() }".to_string()),
        (
            "d.rs".to_string(),
            "// use crate::a;\nconst S: &str = \"crate::a\";".to_string(),
        ),
    ];
    let g = top_level_graph(&files);
    assert_eq!(g["b"], BTreeSet::from(["c".to_string(), "d".to_string()]));
    assert!(g["d"].is_empty(), "comments and strings are not imports");
    assert_eq!(cycle(&g).unwrap(), ["a", "b", "c", "a"]);
    // a path in serde's `deserialize_with` string is a use
    let files = vec![
        (
            "api/dto/x.rs".to_string(),
            "#[serde(deserialize_with = \"crate::api::extract::f\")]".to_string(),
        ),
        ("api/extract.rs".to_string(), String::new()),
    ];
    let g = graph_within(&files, "api");
    assert_eq!(g["dto"], BTreeSet::from(["extract".to_string()]));
}

/// Occurrences of the string literal `lit` in `text` (not JSON keys such as `"active":`).
fn literal_uses(text: &str, lit: &str) -> usize {
    let c = code(text, true);
    let quoted = format!("\"{lit}\"");
    c.match_indices(&quoted)
        .filter(|(i, _)| !c[i + quoted.len()..].trim_start().starts_with(':'))
        .count()
}

#[test]
fn game_status_names_have_one_definition() {
    for (rel, text) in all_sources() {
        for name in ["open", "active", "finished"] {
            let n = literal_uses(&text, name);
            let allowed = usize::from(rel == "store/status.rs");
            assert!(
                n <= allowed,
                "src/{rel}: the status \"{name}\" is written out; use store::GameStatus"
            );
        }
    }
}

#[test]
fn other_status_names_have_one_definition() {
    // invitations, outbox messages and webhook deliveries (store::status)
    let names = [
        "pending",
        "accepted",
        "declined",
        "lapsed",
        "dispatched",
        "sending",
        "delivered",
        "failed",
        "standing_order",
    ];
    for (rel, text) in all_sources() {
        if rel == "store/status.rs" {
            continue;
        }
        let c = code(&text, true);
        for name in names {
            assert_eq!(
                literal_uses(&text, name),
                0,
                "src/{rel}: the status \"{name}\" is written out; use its enum in store::status"
            );
            assert!(
                !c.contains(&format!("'{name}'")),
                "src/{rel}: the status '{name}' is written into SQL; bind its enum's name"
            );
        }
    }
}

#[test]
fn problem_codes_have_one_definition() {
    for (rel, text) in all_sources() {
        if rel == "api/problem.rs" {
            continue;
        }
        for code in tilepost::api::error::ProblemCode::ALL {
            assert_eq!(
                literal_uses(&text, code.as_str()),
                0,
                "src/{rel}: the problem code \"{code}\" is written out; use ProblemCode"
            );
        }
    }
}

#[test]
fn errors_are_not_recognised_by_their_message() {
    let needles = [
        "to_string().contains(",
        "to_ascii_lowercase().contains(",
        "message().contains(",
        "m.contains(",
        "msg.contains(",
        "e.contains(",
        "err.contains(",
        "cause.contains(",
    ];
    for (rel, text) in all_sources() {
        let mut c = code(&text, false);
        // the unit tests of a module may look at texts
        if let Some(i) = c.find("#[cfg(test)]") {
            c.truncate(i);
        }
        if rel == "store/error.rs" {
            // diesel reports a lost connection only by its message
            let start = c
                .find("fn is_connection_message")
                .expect("is_connection_message");
            let end = start + c[start..].find("\n}\n").unwrap_or(0);
            c.replace_range(start..end, "");
        }
        for n in needles {
            let hit = c.match_indices(n).any(|(i, _)| {
                // `m.contains(` but not `item.contains(`
                n.contains("()") || !c[..i].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_')
            });
            assert!(!hit, "src/{rel}: an error is recognised by its text ({n}…)");
        }
    }
}

/// Every transaction of the store begins through `store/conn.rs`, so that a transaction
/// that writes takes SQLite's write lock at its start (`BEGIN IMMEDIATE`) and is never
/// refused for a write that came between its read and its write.
#[test]
fn store_transactions_begin_in_one_place() {
    for (rel, text) in all_sources() {
        if rel == "store/conn.rs" {
            continue;
        }
        let c = code(&text, false);
        assert!(
            !c.contains(".transaction("),
            "src/{rel}: a transaction begun with diesel's own `transaction`; use store::conn::transaction"
        );
    }
}

/// The `#[utoipa::path(…)]` attributes of a file, each as its text.
fn utoipa_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("#[utoipa::path(") {
        let block = &rest[start..];
        let mut depth = 0usize;
        let mut end = block.len();
        for (i, ch) in block.char_indices() {
            match ch {
                '[' | '(' => depth += 1,
                ']' | ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(block[..end].to_string());
        rest = &block[end..];
    }
    out
}

#[test]
fn no_operation_writes_a_problem_code_as_text() {
    let mut blocks = 0;
    for (rel, text) in all_sources() {
        for block in utoipa_paths(&text) {
            blocks += 1;
            for code in tilepost::api::error::ProblemCode::ALL {
                assert!(
                    !block.contains(&format!("`{code}`")),
                    "src/{rel}: a #[utoipa::path] writes the problem code `{code}` as text; \
                     list it in the module's `problems!` table"
                );
            }
        }
    }
    assert!(blocks > 50, "no #[utoipa::path] found");
    // nor the document's finishing (the shared responses: 400, 401, 403, 404…): it names
    // a code by its `ProblemCode`, never as a string
    let finishing = all_sources()
        .into_iter()
        .find(|(rel, _)| rel == "api/mod.rs")
        .map(|(_, text)| text)
        .expect("src/api/mod.rs");
    for code in tilepost::api::error::ProblemCode::ALL {
        assert!(
            !finishing.contains(&format!("`{code}`")),
            "src/api/mod.rs writes the problem code `{code}` as text; name it by its ProblemCode"
        );
    }
}
