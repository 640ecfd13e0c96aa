// The client's languages (en, pt-BR): messages from the catalog of the page's locale
// (/play/locales/<locale>.json, the same keys in each: src/i18n.rs has a test), dates in
// the reader's time zone.
//
// The locale is the signed-in player's setting, else the one picked with the switcher on
// this browser, else the first of the browser's languages the client speaks, else en.
// The time zone is the player's setting, else the browser's.

export const LOCALES = ["en", "pt-BR"];
const PICKED_KEY = "tilepost.locale";

let current = "en";
/** @type {string | undefined} IANA name; undefined: the browser's */
let zone;
/** @type {Record<string, string | Record<string, string>>} */
let messages = {};
/** @type {Record<string, string | Record<string, string>>} */
let fallback = {};
const loaded = new Map();

/**
 * The supported locale a language tag names (`pt`, `pt-PT` → `pt-BR`), or null.
 * @param {string | null | undefined} tag
 */
export function supported(tag) {
  const lang = String(tag || "").trim().split(/[-_]/)[0].toLowerCase();
  if (lang === "en") return "en";
  if (lang === "pt") return "pt-BR";
  return null;
}

/** The locale picked on this browser, else the browser's languages, else en. */
export function browserLocale() {
  const picked = supported(localStorage.getItem(PICKED_KEY));
  if (picked) return picked;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const l of langs) {
    const s = supported(l);
    if (s) return s;
  }
  return "en";
}

/**
 * A locale's messages (`/play/locales/<locale>.json`), fetched once.
 * @param {string} locale
 * @returns {Promise<Record<string, string | Record<string, string>>>}
 */
async function catalog(locale) {
  if (!loaded.has(locale)) {
    const p = fetch(`/play/locales/${locale}.json`, { cache: "no-cache" }).then((r) => {
      if (!r.ok) throw new Error(`catalog ${locale}: HTTP ${r.status}`);
      return r.json();
    });
    loaded.set(locale, p);
    p.catch(() => loaded.delete(locale));
  }
  return loaded.get(locale);
}

/**
 * Switches the page to `locale` (and, when given, the time zone): loads its catalog.
 * @param {string} locale
 * @param {{timeZone?: string | null, remember?: boolean}} [o] remember: the switcher's pick
 */
export async function use(locale, { timeZone, remember = false } = {}) {
  const l = supported(locale) || "en";
  const [m, en] = await Promise.all([catalog(l), catalog("en")]);
  messages = m;
  fallback = en;
  current = l;
  if (timeZone !== undefined) zone = timeZone || undefined;
  if (remember) localStorage.setItem(PICKED_KEY, l);
  document.documentElement.lang = l;
}

/** The page's locale. */
export function locale() {
  return current;
}

/** The time zone dates are shown in (undefined: the browser's). */
export function timeZone() {
  return zone;
}

/**
 * A message: `t("games.open-seats", {taken: 1, seats: 2})`. Plural messages choose their form
 * by `count`. A key missing from the catalog shows the English text (or the key).
 * @param {string} key
 * @param {Record<string, string | number>} [args]
 */
export function t(key, args = {}) {
  let m = key in messages ? messages[key] : fallback[key];
  if (m === undefined) return key;
  if (typeof m === "object") {
    const n = Number(args.count);
    const form = new Intl.PluralRules(current).select(Number.isNaN(n) ? 0 : n);
    m = m[form] || m.other || "";
  }
  return String(m).replace(/\{(\w+)\}/g, (all, name) => (name in args ? String(args[name]) : all));
}

/**
 * A moment as the reader reads it: the locale's date and time, in their time zone.
 * @param {string | null | undefined} iso an RFC 3339 time ("" when there is none)
 */
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return d.toLocaleString(current, { dateStyle: "medium", timeStyle: "short", timeZone: zone });
  } catch {
    return d.toLocaleString(current, { dateStyle: "medium", timeStyle: "short" });
  }
}

/**
 * "in 2 days", "há 3 horas".
 * @param {string} iso an RFC 3339 time
 */
export function relative(iso) {
  const d = new Date(iso).getTime();
  if (Number.isNaN(d)) return "";
  const s = Math.round((d - Date.now()) / 1000);
  /** @type {[string, number][]} */
  const units = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  const rtf = new Intl.RelativeTimeFormat(current, { numeric: "auto" });
  for (const [u, n] of units) {
    if (Math.abs(s) >= n) return rtf.format(Math.round(s / n), /** @type {Intl.RelativeTimeFormatUnit} */ (u));
  }
  return rtf.format(s, "second");
}

const listFormat = () => new Intl.ListFormat(current, { style: "long", type: "conjunction" });

/**
 * A list in the locale's words: "ann, ben and cy" / "ann, ben e cy".
 * @param {(string | number)[]} items
 */
export function list(items) {
  return listFormat().format(items.map(String));
}

/**
 * A tile type's description (TileInfo.description of GET /v1/tiles: message keys derived
 * from its features) in the locale's words: "a city cap with a straight road".
 * @param {{main: string, extras: string[]} | undefined} d
 */
export function describeTile(d) {
  if (!d) return "";
  const main = t(`tile.${d.main}`);
  const extras = (d.extras || []).map((k) => t(`tile.${k}`));
  return extras.length ? t("tile.with", { main, extras: list(extras) }) : main;
}

/**
 * The same list in parts: each item (`element`) and the words between (`literal`).
 * @param {(string | number)[]} items
 */
export function listParts(items) {
  return listFormat().formatToParts(items.map(String));
}

/**
 * A share (0 to 1) as a percentage: "83%", "83 %".
 * @param {number} share
 */
export function percent(share) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/**
 * A length of time in the unit that reads best: "45 seconds", "3.5 hours", "2 days".
 * @param {number} seconds
 */
export function duration(seconds) {
  /** @type {[string, number, number][]} */
  const units = [
    ["day", 86400, 2],
    ["hour", 3600, 1.5],
    ["minute", 60, 1.5],
  ];
  for (const [unit, size, from] of units) {
    if (seconds >= size * from) {
      return new Intl.NumberFormat(current, { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: 1 }).format(seconds / size);
    }
  }
  return new Intl.NumberFormat(current, { style: "unit", unit: "second", unitDisplay: "long", maximumFractionDigits: 0 }).format(seconds);
}
