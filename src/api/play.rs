//! The reference web client under `/play`: static pages, embedded in the binary (no file
//! system at run time), that speak only the public JSON API.
//!
//! `/play` and every `/play/...` path without a file extension answer `index.html` (the
//! client routes on the path, e.g. `/play/games/{id}`, the link of the turn emails), and
//! so does a profile's `/play/users/{username}` (a username may hold dots); the
//! client's assets answer with their own content type; an unknown asset is `404`. Every
//! answer carries a strict Content-Security-Policy (scripts, styles, images and fetches
//! from this origin only; no inline script or style), and `no-cache` with a strong ETag so
//! that a browser revalidates and gets `304` while nothing changed.
//!
//! The client's texts are in one catalog per locale (`/play/locales/<locale>.json`),
//! fetched by the page (see `web/i18n.js`).
//!
//! `sw.js` is the client's service worker (push notifications, the offline page), served
//! with `Service-Worker-Allowed: /play` so that its scope covers `/play` itself;
//! `manifest.webmanifest` makes the client installable.
//!
//! `/` redirects to the client and `/docs` to Swagger UI (`/docs/`).
//!
//! These pages are not part of the API: they are mounted outside the OpenAPI document.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

/// Where the client lives.
pub const PREFIX: &str = "/play";

/// The policy of every page and asset.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; \
base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// One embedded file.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "index.html",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/index.html"),
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/app.js"),
    },
    Asset {
        name: "api.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/api.js"),
    },
    Asset {
        name: "board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/board.js"),
    },
    Asset {
        name: "analysis.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/analysis.js"),
    },
    Asset {
        name: "game.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game.js"),
    },
    Asset {
        name: "ui.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/ui.js"),
    },
    Asset {
        name: "forms.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/forms.js"),
    },
    Asset {
        name: "pages/account.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/account.js"),
    },
    Asset {
        name: "pages/games.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/games.js"),
    },
    Asset {
        name: "pages/new-game.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/new-game.js"),
    },
    Asset {
        name: "pages/lobby.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/lobby.js"),
    },
    Asset {
        name: "pages/settings.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/settings.js"),
    },
    Asset {
        name: "pages/players.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/players.js"),
    },
    Asset {
        name: "pages/tournaments.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/pages/tournaments.js"),
    },
    Asset {
        name: "game/state.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/state.js"),
    },
    Asset {
        name: "game/words.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/words.js"),
    },
    Asset {
        name: "game/selection.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/selection.js"),
    },
    Asset {
        name: "game/turnline.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/turnline.js"),
    },
    Asset {
        name: "game/clock.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/clock.js"),
    },
    Asset {
        name: "game/board-view.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/board-view.js"),
    },
    Asset {
        name: "game/move.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/move.js"),
    },
    Asset {
        name: "game/seats.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/seats.js"),
    },
    Asset {
        name: "game/send.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/send.js"),
    },
    Asset {
        name: "game/history.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/history.js"),
    },
    Asset {
        name: "game/automation.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/automation.js"),
    },
    Asset {
        name: "game/chat.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/chat.js"),
    },
    Asset {
        name: "game/review.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/review.js"),
    },
    Asset {
        name: "game/live.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/game/live.js"),
    },
    Asset {
        name: "i18n.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/i18n.js"),
    },
    Asset {
        name: "locales/en.json",
        content_type: "application/json",
        body: include_bytes!("../../web/locales/en.json"),
    },
    Asset {
        name: "locales/pt-BR.json",
        content_type: "application/json",
        body: include_bytes!("../../web/locales/pt-BR.json"),
    },
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../web/style.css"),
    },
    Asset {
        name: "icon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../../web/icon.svg"),
    },
    Asset {
        name: "push.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/push.js"),
    },
    Asset {
        name: "sw.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/sw.js"),
    },
    Asset {
        name: "manifest.webmanifest",
        content_type: "application/manifest+json",
        body: include_bytes!("../../web/manifest.webmanifest"),
    },
    Asset {
        name: "offline.html",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/offline.html"),
    },
    Asset {
        name: "icons/icon-192.png",
        content_type: "image/png",
        body: include_bytes!("../../web/icons/icon-192.png"),
    },
    Asset {
        name: "icons/icon-512.png",
        content_type: "image/png",
        body: include_bytes!("../../web/icons/icon-512.png"),
    },
    Asset {
        name: "icons/icon-maskable-512.png",
        content_type: "image/png",
        body: include_bytes!("../../web/icons/icon-maskable-512.png"),
    },
    Asset {
        name: "icons/apple-touch-icon.png",
        content_type: "image/png",
        body: include_bytes!("../../web/icons/apple-touch-icon.png"),
    },
];

/// The ETag of each asset (in `ASSETS` order), computed once.
fn etags() -> &'static Vec<String> {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    TAGS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| {
                let digest = Sha256::digest(a.body);
                let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
                format!("\"{hex}\"")
            })
            .collect()
    })
}

/// The file a path under `/play` names: an asset by its name, `index.html` for the
/// client's own routes (no extension in the last segment, or a profile's
/// `users/{username}`: a username may hold dots), else nothing.
fn lookup(tail: &str) -> Option<usize> {
    let tail = tail.trim_start_matches('/');
    if let Some(i) = ASSETS.iter().position(|a| a.name == tail) {
        return Some(i);
    }
    let profile = tail
        .strip_prefix("users/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/'));
    let last = tail.rsplit('/').next().unwrap_or_default();
    if last.contains('.') && !profile {
        return None;
    }
    ASSETS.iter().position(|a| a.name == "index.html")
}

fn not_found() -> HttpResponse {
    HttpResponse::NotFound()
        .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body("not found")
}

/// `302 Found` to another page of this server.
async fn redirect(to: &'static str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, to))
        .finish()
}

async fn serve(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    let tail = path.strip_prefix(PREFIX).unwrap_or_default();
    if !(tail.is_empty() || tail.starts_with('/')) {
        return not_found();
    }
    let Some((asset, tag)) = lookup(tail).and_then(|i| Some((ASSETS.get(i)?, etags().get(i)?)))
    else {
        return not_found();
    };
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::CONTENT_TYPE, asset.content_type))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, tag.as_str()))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_FRAME_OPTIONS, "DENY"));
    if asset.name == "sw.js" {
        // the worker controls every page of the client, `/play` itself included (its
        // default scope would be `/play/`)
        res.insert_header(("Service-Worker-Allowed", PREFIX));
    }
    if fresh {
        res.finish()
    } else {
        res.body(asset.body)
    }
}

async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, super::error::ApiError> {
    let mut e = super::error::ApiError::new(
        super::error::ProblemCode::MethodNotAllowed,
        format!("{} is not allowed here; allowed: GET, HEAD", req.method()),
    );
    e.allow = Some("GET, HEAD".into());
    Err(e)
}

/// The routes of the client, for `App::configure`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    // the site's root leads to the client, `/docs` to Swagger UI under `/docs/`
    for (path, to) in [("/", PREFIX), ("/docs", "/docs/")] {
        cfg.service(
            web::resource(path)
                .route(web::get().to(move || redirect(to)))
                .route(web::head().to(move || redirect(to)))
                .default_service(web::to(method_not_allowed)),
        );
    }
    for path in [PREFIX, "/play/{tail:.*}"] {
        cfg.service(
            web::resource(path)
                .route(web::get().to(serve))
                .route(web::head().to(serve))
                .default_service(web::to(method_not_allowed)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_assets_or_the_page() {
        let index = ASSETS.iter().position(|a| a.name == "index.html");
        assert_eq!(lookup(""), index);
        assert_eq!(lookup("/"), index);
        assert_eq!(lookup("/games/abc-123"), index);
        assert_eq!(lookup("/settings"), index);
        assert_eq!(
            lookup("/app.js").map(|i| ASSETS[i].content_type),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(lookup("/nothing.js"), None);
        assert_eq!(
            lookup("/locales/pt-BR.json").map(|i| ASSETS[i].name),
            Some("locales/pt-BR.json")
        );
        assert_eq!(lookup("/locales/fr.json"), None);
        assert_eq!(lookup("/games/x/favicon.ico"), None);
        assert_eq!(lookup("/users/ann"), index);
        assert_eq!(lookup("/users/j.doe"), index);
        assert_eq!(lookup("/users/j.doe/x.png"), None);
        assert_eq!(
            lookup("/icons/icon-192.png").map(|i| ASSETS[i].content_type),
            Some("image/png")
        );
        assert_eq!(
            lookup("/manifest.webmanifest").map(|i| ASSETS[i].content_type),
            Some("application/manifest+json")
        );
    }

    /// The modules a script imports, as written: `import … from "x"` and
    /// `export … from "x"` (on one line or ending a list over several), `import "x"`.
    fn imports(text: &str) -> Vec<&str> {
        text.lines()
            .filter_map(|line| {
                let line = line.trim();
                if !["import ", "export ", "} from "]
                    .iter()
                    .any(|p| line.starts_with(p))
                {
                    return None;
                }
                let rest = line
                    .rsplit_once(" from ")
                    .map(|(_, r)| r)
                    .or_else(|| line.strip_prefix("import "))?;
                rest.trim().split(['"', '\'']).nth(1)
            })
            .collect()
    }

    /// The asset a module specifier names, relative to the asset that imports it
    /// (`game/move.js` importing `../ui.js` names `ui.js`).
    fn resolve(from: &str, spec: &str) -> String {
        let mut parts: Vec<&str> = from.split('/').collect();
        parts.pop();
        for seg in spec.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        parts.join("/")
    }

    #[test]
    fn imports_resolve_relative_to_the_importer() {
        assert_eq!(resolve("app.js", "./api.js"), "api.js");
        assert_eq!(resolve("game/move.js", "../ui.js"), "ui.js");
        assert_eq!(resolve("game/move.js", "./state.js"), "game/state.js");
        assert_eq!(resolve("game.js", "./game/state.js"), "game/state.js");
        let text = "import * as api from \"./api.js\";\nimport {\n  a,\n  b,\n} from \"./b.js\";\n\
                    export { c } from './c.js';\nimport \"./d.js\";\nexport function f() {}\n\
                    /** @typedef {import(\"./types/api\").X} X */";
        assert_eq!(imports(text), ["./api.js", "./b.js", "./c.js", "./d.js"]);
    }

    #[test]
    fn every_script_the_page_loads_is_embedded() {
        for a in ASSETS.iter().filter(|a| a.name.ends_with(".js")) {
            let text = String::from_utf8_lossy(a.body);
            for spec in imports(&text) {
                assert!(
                    spec.starts_with("./") || spec.starts_with("../"),
                    "{} imports {spec}: the client's imports are relative",
                    a.name
                );
                let name = resolve(a.name, spec);
                assert!(
                    ASSETS.iter().any(|x| x.name == name),
                    "{} imports {spec}, which is not embedded",
                    a.name
                );
            }
        }
    }

    /// Every script of the client's folder is served (a new module must be added to
    /// `ASSETS`).
    #[test]
    fn every_script_in_web_is_embedded() {
        fn scripts(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                let name = format!("{prefix}{}", e.file_name().to_string_lossy());
                if e.path().is_dir() {
                    scripts(&e.path(), &format!("{name}/"), out);
                } else if name.ends_with(".js") {
                    out.push(name);
                }
            }
        }
        let mut found = Vec::new();
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        scripts(&web, "", &mut found);
        assert!(found.iter().any(|n| n == "app.js"), "{found:?}");
        for name in found {
            assert!(
                ASSETS.iter().any(|a| a.name == name),
                "web/{name} is not in ASSETS (src/api/play.rs)"
            );
        }
    }
}
