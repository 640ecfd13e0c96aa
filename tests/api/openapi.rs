//! The OpenAPI document: committed, in step with the code, complete; and the project's
//! invariants ("tidy" checks).

use std::path::Path;

use serde_json::Value;

use crate::common::*;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// `openapi/openapi.json` is what the code generates. Run with
/// `TILEPOST_UPDATE_OPENAPI=1` to rewrite it after a deliberate change.
#[test]
fn committed_document_matches_the_code() {
    let generated = tilepost::api::openapi_json();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    if std::env::var("TILEPOST_UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json differs from the code: run `TILEPOST_UPDATE_OPENAPI=1 cargo test --test api openapi` and commit it"
    );
}

/// Every `expansions` list in the document allows as many ids as the engine has
/// expansions: a new expansion can be chosen everywhere a set of them is.
#[test]
fn expansion_lists_allow_every_expansion() {
    fn visit(v: &Value, found: &mut usize) {
        match v {
            Value::Object(m) => {
                if let Some(max) = m.get("expansions").and_then(|e| e.get("maxItems")) {
                    assert_eq!(
                        max.as_u64(),
                        Some(tilepost_engine::Expansion::ALL.len() as u64),
                        "an `expansions` list's maxItems"
                    );
                    *found += 1;
                }
                m.values().for_each(|x| visit(x, found));
            }
            Value::Array(a) => a.iter().for_each(|x| visit(x, found)),
            _ => {}
        }
    }
    let doc: Value = serde_json::from_str(&tilepost::api::openapi_json()).unwrap();
    let mut found = 0;
    visit(&doc, &mut found);
    assert!(
        found >= 3,
        "the game, seek and tournament requests list expansions"
    );
}

#[test]
fn every_operation_is_documented() {
    let doc = tilepost::api::openapi_value();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut ids = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let id = op["operationId"].as_str().unwrap_or_default();
            let (verb, resource) = id.split_once('_').unwrap_or(("", ""));
            assert!(
                !verb.is_empty()
                    && !resource.is_empty()
                    && id.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{method} {path}: operationId {id:?} is not verb_resource"
            );
            ids.push(id.to_string());
            assert!(op["summary"].is_string(), "{id}: summary");
            assert!(
                op["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{id}: description"
            );
            assert!(
                op["tags"].as_array().is_some_and(|t| !t.is_empty()),
                "{id}: tag"
            );
            assert!(op["security"].is_array(), "{id}: security");
            for (status, resp) in op["responses"].as_object().unwrap() {
                let described = resp["description"].is_string() || resp["$ref"].is_string();
                assert!(described, "{id} {status}: description");
            }
            assert!(op["responses"]["500"].is_object(), "{id}: 500");
        }
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "operationIds are unique");
    assert!(n >= 16);
}

/// What the standard linters (scripts/openapi-lint.sh) ask beyond the operations: a
/// server, a security statement on every webhook (they carry no token: they are
/// signed), and no `oneOf`/`anyOf` of a single schema.
#[test]
fn servers_webhooks_and_compositions_are_lint_clean() {
    let doc = tilepost::api::openapi_value();
    assert_eq!(doc["servers"][0]["url"], "/");
    let hooks = doc["webhooks"].as_object().unwrap();
    assert!(!hooks.is_empty());
    for (name, item) in hooks {
        let op = &item["post"];
        assert_eq!(op["security"], serde_json::json!([]), "{name}: security");
        assert!(op["description"].is_string(), "{name}: description");
    }
    fn single(v: &Value, at: &str) {
        match v {
            Value::Object(o) => {
                for k in ["oneOf", "anyOf"] {
                    let n = o.get(k).and_then(|a| a.as_array()).map(|a| a.len());
                    assert_ne!(n, Some(1), "{at}: {k} of one schema");
                }
                o.iter().for_each(|(k, x)| single(x, &format!("{at}/{k}")));
            }
            Value::Array(a) => a.iter().for_each(|x| single(x, at)),
            _ => {}
        }
    }
    single(doc, "");
}

fn served_document_and_docs(app: &TestApp) {
    let c = app.anon();
    let served = c.get("/openapi.json");
    assert_eq!(served.status, 200);
    assert_eq!(&served.json, tilepost::api::openapi_value());
    let ui = c.get("/docs/");
    assert_eq!(ui.status, 200);
    assert!(ui.text.to_ascii_lowercase().contains("swagger"));
    // liveness says nothing of the database
    assert_eq!(c.get("/healthz").json, serde_json::json!({"status": "ok"}));
    // the site's root leads to the web client, `/docs` to Swagger UI
    let root = c.get("/");
    assert_eq!(root.status, 200);
    assert!(root.text.contains("<html"), "{}", root.text);
    assert_eq!(
        root.header("content-security-policy"),
        Some(tilepost::api::play::CSP)
    );
    let docs = c.get("/docs");
    assert_eq!(docs.status, 200);
    assert!(docs.text.to_ascii_lowercase().contains("swagger"));
    let ready = c.get("/readyz");
    assert_eq!(ready.json["status"], "ok");
    assert_eq!(
        ready.json["database"],
        match app.db.kind {
            Db::Sqlite => "sqlite",
            Db::Postgres => "postgres",
        }
    );
}

crate::both!(served_document_and_docs);

/// Every problem code the API can produce is produced by some test. The two left out
/// need a fault or a race that a black-box test cannot force.
#[test]
fn every_problem_code_is_tested() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api");
    let mut text = String::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name()
            .is_some_and(|n| n != "openapi.rs" && n != "common.rs")
        {
            text.push_str(&std::fs::read_to_string(p).unwrap());
        }
    }
    let exempt = ["internal-error", "idempotency-key-in-use"];
    // the expansions' refusals come from the rules engine and are tested there
    let base = [
        "game-over",
        "not-your-turn",
        "unexpected-action",
        "illegal-placement",
        "tile-does-not-fit",
        "unknown-spot",
        "figure-not-allowed",
        "feature-occupied",
        "no-figure-left",
        "not-in-game",
        "move-past-hidden-information",
    ];
    for code in tilepost::api::error::ProblemCode::ALL {
        let (status, code) = (code.status(), code.as_str());
        if exempt.contains(&code)
            || (tilepost_engine::PlayError::CODES.contains(&code) && !base.contains(&code))
        {
            continue;
        }
        assert!(
            text.contains(&format!("problem({status}, \"{code}\")")),
            "no test produces {status} {code}"
        );
    }
}

/// The engine does no IO: no database, web, async runtime, clock or global randomness.
/// Every code the rules engine can refuse a move with is named in the document's answers
/// of `POST /v1/games/{id}/moves` (except `log-mismatch`, an internal error), and every
/// code it refuses an undo with in those of `POST /v1/games/{id}/undo`.
#[test]
fn every_rules_error_code_is_documented() {
    let doc: Value = serde_json::from_str(&tilepost::api::openapi_json()).unwrap();
    let undo = ["undo-not-yours", "undo-past-reveal", "nothing-to-undo"];
    for code in tilepost_engine::PlayError::CODES {
        if *code == "log-mismatch" {
            continue;
        }
        let path = if undo.contains(code) {
            "/v1/games/{id}/undo"
        } else {
            "/v1/games/{id}/moves"
        };
        let text = doc["paths"][path]["post"]["responses"].to_string();
        assert!(
            text.contains(&format!("`{code}`")),
            "{code} is not named in the answers of POST {path}"
        );
    }
}

#[test]
fn engine_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap_or("")
        .split("\n[")
        .next()
        .unwrap_or("");
    for banned in [
        "diesel", "actix", "tokio", "reqwest", "ureq", "rand", "chrono", "time", "uuid",
    ] {
        assert!(
            !deps.lines().any(|l| l.trim_start().starts_with(banned)),
            "engine depends on {banned}"
        );
    }
    fn walk(p: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(p).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    for (name, src) in files {
        for banned in [
            "std::fs",
            "std::net",
            "SystemTime",
            "Instant::now",
            "thread_rng",
            "std::env",
        ] {
            assert!(!src.contains(banned), "{name} uses {banned}");
        }
    }
}

/// The document's email switches name every event type the server sends.
#[test]
fn email_switches_name_every_event_type() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let props = doc["components"]["schemas"]["EmailSwitches"]["properties"]
        .as_object()
        .expect("EmailSwitches");
    let mut named: Vec<&str> = props.keys().map(String::as_str).collect();
    let mut types = tilepost::notify::EVENT_TYPES.to_vec();
    named.sort_unstable();
    types.sort_unstable();
    assert_eq!(named, types);
}

/// Only `src/store` names diesel; only `src/api` (and start-up) know actix-web.
#[test]
fn layers_keep_to_themselves() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, banned) in [
        ("notify/mod.rs", vec!["diesel", "actix"]),
        ("clock.rs", vec!["diesel", "actix"]),
        ("config.rs", vec!["diesel", "actix"]),
        ("replay.rs", vec!["diesel", "actix"]),
        ("moves/mod.rs", vec!["diesel", "actix"]),
        ("moves/auto.rs", vec!["diesel", "actix"]),
        ("correspondence.rs", vec!["diesel", "actix"]),
        ("sweep.rs", vec!["diesel"]),
    ] {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for b in banned {
            assert!(!text.contains(b), "{file} names {b}");
        }
    }
    let mut dirs = vec![src.join("api")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            assert!(!text.contains("diesel"), "{} names diesel", p.display());
        }
    }
    let _: Option<Value> = None;
}
