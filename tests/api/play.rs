//! The web client under `/play`: embedded pages with their content types, a strict
//! Content-Security-Policy, revalidation, the client's routes answered with the page,
//! and none of it in the OpenAPI document.

use crate::common::*;

fn pages_and_assets(app: &TestApp) {
    let c = app.anon();
    for path in [
        "/play",
        "/play/",
        "/play/games",
        "/play/games/some-id",
        "/play/login",
    ] {
        let r = c.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert!(r
            .text
            .contains("<script type=\"module\" src=\"/play/app.js\">"));
        assert!(!r.text.contains("<script>"), "no inline script");
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
        assert_eq!(r.header("cache-control"), Some("no-cache"));
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    }
    for (path, kind) in [
        ("/play/app.js", "text/javascript; charset=utf-8"),
        ("/play/game.js", "text/javascript; charset=utf-8"),
        ("/play/style.css", "text/css; charset=utf-8"),
        ("/play/icon.svg", "image/svg+xml"),
    ] {
        let r = c.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some(kind), "{path}");
        assert!(!r.text.is_empty());
        // revalidation: the same ETag gets 304
        let tag = r.header("etag").expect("etag").to_string();
        let again = c.request("GET", path, None, &[("If-None-Match", &tag)]);
        assert_eq!(again.status, 304, "{path}");
        assert!(again.text.is_empty());
    }
    // an asset that does not exist is not the page
    assert_eq!(c.get("/play/nothing.js").status, 404);
    assert_eq!(c.get("/play/games/x/favicon.ico").status, 404);
    assert_eq!(c.get("/playground").status, 404);
    // the pages are read-only
    let post = c.post("/play/games", serde_json::json!({}));
    post.problem(405, "method-not-allowed");
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    // and not part of the API document
    let doc = c.get("/openapi.json");
    let paths = doc.json["paths"].as_object().expect("paths");
    assert!(paths.keys().all(|p| !p.starts_with("/play")));
}

crate::both!(pages_and_assets);
