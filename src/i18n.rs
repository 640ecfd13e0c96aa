//! Locales of what the server writes to people (the emails, the problems' titles and
//! details): messages live in Fluent catalogs (`locales/<locale>/*.ftl`, compiled in by
//! `fluent-templates`), dates are written in the reader's time zone (`jiff`, with the time
//! zone database built in). Supported: `en` (the default) and `pt-BR`. The web client's
//! own catalogs (`web/locales/<locale>.json`) are checked here too.

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader};

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // no Unicode isolation marks around arguments: these go into plain-text emails
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// The supported locales, the default first.
pub const SUPPORTED: &[&str] = &["en", "pt-BR"];

/// The default locale and time zone of a new account without better information.
pub const DEFAULT_LOCALE: &str = "en";
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// The supported locale a tag names (`pt-br`, `pt`, `pt-PT` → `pt-BR`; `en-GB` → `en`).
pub fn supported(tag: &str) -> Option<&'static str> {
    let lang = tag
        .trim()
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match lang.as_str() {
        "en" => Some("en"),
        "pt" => Some("pt-BR"),
        _ => None,
    }
}

/// A supported locale written exactly (`en`, `pt-BR`): what the API takes.
pub fn exact(tag: &str) -> Option<&'static str> {
    SUPPORTED.iter().copied().find(|l| *l == tag)
}

/// The best supported locale for an `Accept-Language` header (by `q`, then order), or
/// the default.
pub fn negotiate(accept_language: &str) -> &'static str {
    let mut best: Option<(f32, &'static str)> = None;
    for item in accept_language.split(',').take(32) {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("");
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if let Some(l) = supported(tag) {
            let better = match best {
                Some((bq, _)) => q > bq,
                None => q > 0.0,
            };
            if better {
                best = Some((q, l));
            }
        }
    }
    best.map(|(_, l)| l).unwrap_or(DEFAULT_LOCALE)
}

/// Whether `tz` is an IANA time zone name the server knows (`UTC`, `America/Sao_Paulo`).
pub fn valid_time_zone(tz: &str) -> bool {
    tz.len() <= 64 && jiff::tz::TimeZone::get(tz).is_ok()
}

fn lang(locale: &str) -> LanguageIdentifier {
    supported(locale)
        .unwrap_or(DEFAULT_LOCALE)
        .parse()
        .unwrap_or_default()
}

/// An argument of a message.
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    Str(&'a str),
    Num(i64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Str(s)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Str(s)
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Num(n)
    }
}

impl From<i32> for Arg<'_> {
    fn from(n: i32) -> Self {
        Arg::Num(n.into())
    }
}

fn lookup(locale: &str, key: &str, args: &[(&str, Arg<'_>)], html: bool) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Arg::Str(s) if html => FluentValue::from(escape(s)),
                Arg::Str(s) => FluentValue::from(s.to_string()),
                Arg::Num(n) => FluentValue::from(*n),
            };
            (Cow::Owned(k.to_string()), v)
        })
        .collect();
    LOCALES.lookup_with_args(&lang(locale), key, &map)
}

/// A message for plain text.
pub fn text(locale: &str, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    lookup(locale, key, args, false)
}

/// A message for HTML: the arguments are escaped; the catalogs hold neither markup nor
/// characters that would need it (a test checks).
pub fn html(locale: &str, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    lookup(locale, key, args, true)
}

/// The title of the problem `code` (`problem-<code>`) in `locale`.
pub fn problem_title(locale: &str, code: &str) -> Option<String> {
    let none: HashMap<Cow<'static, str>, FluentValue> = HashMap::new();
    LOCALES.try_lookup_with_args(&lang(locale), &format!("problem-{code}"), &none)
}

/// The detail of the problem `code` (`problem-<code>-detail`) in `locale`; `fields` names
/// the invalid fields of a validation problem.
pub fn problem_detail(locale: &str, code: &str, fields: &str) -> Option<String> {
    let args: HashMap<Cow<'static, str>, FluentValue> = [(
        Cow::Borrowed("fields"),
        FluentValue::from(fields.to_string()),
    )]
    .into_iter()
    .collect();
    LOCALES.try_lookup_with_args(&lang(locale), &format!("problem-{code}-detail"), &args)
}

/// Whether `locale`'s own catalog (without the fallback to English) has the message
/// `key`, and it formats with `args` without an error.
pub fn has_message(locale: &str, key: &str, args: &[(&str, Arg<'_>)]) -> bool {
    let map: HashMap<String, FluentValue> = args
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Arg::Str(s) => FluentValue::from(s.to_string()),
                Arg::Num(n) => FluentValue::from(*n),
            };
            (k.to_string(), v)
        })
        .collect();
    exact(locale).is_some_and(|l| {
        LOCALES
            .lookup_single_language(&lang(l), key, Some(&map))
            .is_ok()
    })
}

/// A tile type's description in `locale`: "a city cap with a straight road" for `base/D`
/// (the engine derives the keys, `tiles.ftl` holds the words). An id that is not in the
/// catalog is given back as it is.
pub fn tile_name(locale: &str, tile_id: &str) -> String {
    let catalog = tilepost_engine::catalog();
    match catalog.id(tile_id) {
        Some(t) => describe_tile(locale, &tilepost_engine::describe(catalog.get(t))),
        None => tile_id.to_string(),
    }
}

/// A description's words in `locale`: its main shape, then "with" its extras as a list.
pub fn describe_tile(locale: &str, d: &tilepost_engine::TileDescription) -> String {
    let word = |k: &str| text(locale, &format!("tile-{k}"), &[]);
    let main = word(d.main);
    let extras: Vec<String> = d.extras.iter().map(|k| word(k)).collect();
    let extras = match extras.split_last() {
        None => return main,
        Some((last, [])) => last.clone(),
        Some((last, init)) => text(
            locale,
            if init.len() == 1 {
                "tile-and-two"
            } else {
                "tile-and-more"
            },
            &[("first", (&init.join(", ")).into()), ("last", last.into())],
        ),
    };
    text(
        locale,
        "tile-with",
        &[("main", (&main).into()), ("extras", (&extras).into())],
    )
}

/// HTML escaping of text.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A moment (ms since the epoch) as the reader reads it: the locale's date format in
/// their time zone, followed by the zone's name (`2026-12-03 14:00 (America/Sao_Paulo)`).
pub fn datetime(ms: i64, locale: &str, time_zone: &str) -> String {
    let tz = jiff::tz::TimeZone::get(time_zone).unwrap_or(jiff::tz::TimeZone::UTC);
    let name = if valid_time_zone(time_zone) {
        time_zone
    } else {
        "UTC"
    };
    let format = text(locale, "datetime-format", &[]);
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => format!("{} ({name})", t.to_zoned(tz).strftime(&format)),
        Err(_) => crate::clock::rfc3339(ms),
    }
}

/// The local date (`YYYY-MM-DD`) and hour (0–23) of `ms` in `time_zone` (UTC when the
/// zone is unknown).
pub fn local_day_hour(ms: i64, time_zone: &str) -> (String, i32) {
    let tz = jiff::tz::TimeZone::get(time_zone).unwrap_or(jiff::tz::TimeZone::UTC);
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => {
            let z = t.to_zoned(tz);
            (z.strftime("%Y-%m-%d").to_string(), i32::from(z.hour()))
        }
        Err(_) => (String::new(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn keys(locale: &str) -> BTreeSet<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("locales")
            .join(locale);
        let mut out = BTreeSet::new();
        let files = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for f in files.flatten() {
            let text = std::fs::read_to_string(f.path()).unwrap_or_default();
            for line in text.lines() {
                let first = line.chars().next().unwrap_or(' ');
                if first.is_ascii_alphabetic() {
                    if let Some((k, v)) = line.split_once('=') {
                        out.insert(format!("{}:{}", f.file_name().to_string_lossy(), k.trim()));
                        assert!(
                            !v.replace("->", "").contains(['<', '>', '&', '"']),
                            "{locale}: no markup in messages: {line}"
                        );
                    }
                }
            }
        }
        out
    }

    /// Fails when a message is missing in one of the locales (or a locale directory is).
    #[test]
    fn every_key_in_every_locale() {
        let en = keys("en");
        assert!(en.len() > 30, "{en:?}");
        for l in SUPPORTED {
            let other = keys(l);
            let missing: Vec<_> = en.difference(&other).collect();
            let extra: Vec<_> = other.difference(&en).collect();
            assert!(missing.is_empty(), "{l} lacks {missing:?}");
            assert!(extra.is_empty(), "{l} has keys en lacks: {extra:?}");
            // and each one resolves in that locale itself, without the fallback
            let id: LanguageIdentifier = l.parse().unwrap_or_default();
            let args: HashMap<Cow<'static, str>, FluentValue> = [
                "name",
                "game",
                "tile",
                "deadline",
                "player",
                "x",
                "y",
                "points",
                "feature",
                "by",
                "players",
                "first",
                "fields",
                "expires",
                "rules",
                "count",
                "when",
                "sessions",
                "tokens",
                "names",
                "main",
                "extras",
                "last",
                "tiles",
                "scorers",
                "victim",
                "message",
                "opponents",
                "link",
                "event",
                "stage",
                "round",
                "games",
                "number",
                "rank",
                "winner",
                "place",
                "next",
                "reason",
            ]
            .into_iter()
            .map(|a| (Cow::Borrowed(a), FluentValue::from(2)))
            .collect();
            for k in &other {
                let key = k.split_once(':').map(|(_, k)| k).unwrap_or(k);
                let v = LOCALES.try_lookup_with_args(&id, key, &args);
                assert!(v.is_some(), "{l}: {key} does not resolve");
            }
        }
    }

    /// The web client's catalogs: the same keys in every locale, the same `{placeholders}`
    /// in each message, and every key the client's scripts ask for (`t("key"...)`) exists.
    #[test]
    fn web_catalogs_complete() {
        use serde_json::Value;
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let load = |l: &str| -> serde_json::Map<String, Value> {
            let p = web.join("locales").join(format!("{l}.json"));
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            match serde_json::from_str(&text) {
                Ok(Value::Object(m)) => m,
                other => panic!("{}: not an object: {other:?}", p.display()),
            }
        };
        fn holes(v: &Value) -> BTreeSet<String> {
            let texts: Vec<&str> = match v {
                Value::String(s) => vec![s.as_str()],
                // plural forms by Intl.PluralRules category
                Value::Object(m) => m.values().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let mut out = BTreeSet::new();
            for t in texts {
                for part in t.split('{').skip(1) {
                    if let Some((name, _)) = part.split_once('}') {
                        out.insert(name.to_string());
                    }
                }
            }
            out
        }
        let en = load("en");
        assert!(en.len() > 100, "{}", en.len());
        for l in SUPPORTED {
            let other = load(l);
            let a: BTreeSet<&String> = en.keys().collect();
            let b: BTreeSet<&String> = other.keys().collect();
            assert_eq!(
                a.difference(&b).collect::<Vec<_>>(),
                Vec::<&&String>::new(),
                "{l} lacks these"
            );
            assert_eq!(
                b.difference(&a).collect::<Vec<_>>(),
                Vec::<&&String>::new(),
                "{l} has extra keys"
            );
            for (k, v) in &other {
                assert!(
                    v.is_string() || v.get("other").is_some_and(Value::is_string),
                    "{l}: {k}: a text, or plural forms with `other`"
                );
                assert_eq!(holes(v), holes(&en[k]), "{l}: {k}: placeholders differ");
            }
        }
        // the scripts ask only for keys that exist
        for f in std::fs::read_dir(&web).into_iter().flatten().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if !name.ends_with(".js") {
                continue;
            }
            let text = std::fs::read_to_string(f.path()).unwrap_or_default();
            for (at, _) in text.match_indices("t(\"") {
                // `t(` itself, not the end of `get(` or `list(`
                let before = text[..at].chars().next_back().unwrap_or(' ');
                if before.is_ascii_alphanumeric() || matches!(before, '_' | '.' | '$') {
                    continue;
                }
                let rest = &text[at + 3..];
                let Some((key, _)) = rest.split_once('"') else {
                    continue;
                };
                assert!(
                    en.contains_key(key),
                    "{name} asks for {key:?}, which en.json lacks"
                );
            }
        }
    }

    /// Every tile type of the catalog (every expansion) has its description in every
    /// locale, in the server's catalogs and in the web client's.
    #[test]
    fn every_tile_described_in_every_locale() {
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/locales");
        let catalog = tilepost_engine::catalog();
        for l in SUPPORTED {
            let p = web.join(format!("{l}.json"));
            let json: serde_json::Value = std::fs::read_to_string(&p)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_else(|| panic!("{}: not JSON", p.display()));
            let mut missing = BTreeSet::new();
            for (_, t) in catalog.iter() {
                let d = tilepost_engine::describe(t);
                for k in d.keys() {
                    if !has_message(l, &format!("tile-{k}"), &[]) {
                        missing.insert(format!("{}: tiles.ftl lacks tile-{k}", t.id));
                    }
                    // the same words as the server's
                    let words = text(l, &format!("tile-{k}"), &[]);
                    if json.get(format!("tile.{k}")).and_then(|v| v.as_str()) != Some(&words) {
                        missing.insert(format!("{}: {l}.json lacks tile.{k}: {words}", t.id));
                    }
                }
                let name = describe_tile(l, &d);
                assert!(
                    !name.contains("tile-") && !name.contains(&t.id),
                    "{l}: {}: {name}",
                    t.id
                );
            }
            assert!(missing.is_empty(), "{l}: {missing:#?}");
            for k in ["tile-with", "tile-and-two", "tile-and-more"] {
                assert!(
                    has_message(
                        l,
                        k,
                        &[
                            ("main", "a".into()),
                            ("extras", "b".into()),
                            ("first", "a".into()),
                            ("last", "b".into())
                        ]
                    ),
                    "{l}: {k}"
                );
            }
            assert!(
                json.get("tile.with").is_some_and(|v| v.is_string()),
                "{l}: tile.with"
            );
        }
        assert_eq!(tile_name("en", "base/D"), "a city cap with a straight road");
        assert_eq!(
            tile_name("pt-BR", "ic/13-crrc"),
            "uma cidade em dois lados vizinhos com um brasão, uma estrada em curva e uma estalagem"
        );
        assert_eq!(
            tile_name("en", "ic/13-crrc"),
            "a city corner with a shield, a road curve, and an inn"
        );
        assert_eq!(tile_name("en", "no/such"), "no/such");
    }

    #[test]
    fn negotiation() {
        assert_eq!(negotiate("pt-BR,pt;q=0.9,en;q=0.8"), "pt-BR");
        assert_eq!(negotiate("en-GB,en;q=0.9"), "en");
        assert_eq!(negotiate("fr-FR, pt;q=0.5"), "pt-BR");
        assert_eq!(negotiate("de, en;q=0.1, pt;q=0.7"), "pt-BR");
        assert_eq!(negotiate("fr"), "en");
        assert_eq!(negotiate(""), "en");
        assert_eq!(negotiate("pt;q=0, en;q=0.2"), "en");
        assert_eq!(supported("PT_br"), Some("pt-BR"));
        assert_eq!(supported("es"), None);
        assert_eq!(exact("pt-BR"), Some("pt-BR"));
        assert_eq!(exact("pt"), None);
    }

    #[test]
    fn messages_and_dates() {
        assert_eq!(
            text(
                "pt-BR",
                "since-scored",
                &[
                    ("player", "ann".into()),
                    ("points", 1.into()),
                    ("feature", "uma cidade".into())
                ]
            ),
            "ann marcou 1 ponto por uma cidade."
        );
        assert_eq!(
            text(
                "en",
                "since-scored",
                &[
                    ("player", "ann".into()),
                    ("points", 4.into()),
                    ("feature", "a city".into())
                ]
            ),
            "ann scored 4 points for a city."
        );
        assert_eq!(
            html("en", "greeting", &[("name", "b<o>b & co".into())]),
            "Hello b&lt;o&gt;b &amp; co,"
        );
        // 2026-12-03T17:00:00Z
        let ms = 1_796_317_200_000;
        assert_eq!(datetime(ms, "en", "UTC"), "2026-12-03 17:00 (UTC)");
        assert_eq!(
            datetime(ms, "pt-BR", "America/Sao_Paulo"),
            "03/12/2026 14:00 (America/Sao_Paulo)"
        );
        assert_eq!(datetime(ms, "en", "Nowhere/Land"), "2026-12-03 17:00 (UTC)");
        assert!(valid_time_zone("Europe/Lisbon") && !valid_time_zone("Mars/Base"));
    }
}
