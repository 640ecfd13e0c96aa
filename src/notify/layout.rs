//! The HTML part of every email: one column at most 600 px wide, built from tables
//! with inline styles (what mail clients keep), a dark palette for clients that follow
//! `prefers-color-scheme`, pictures with `alt` text and explicit sizes, no scripts. The
//! builders in [`super`] compose a message from the blocks here; [`page`] frames it
//! with the greeting and the footer.

use super::escape;

/// The light palette (inline) and the dark one (the `<style>` block, `!important` over
/// the inline colours).
const BG: &str = "#f2efe6";
const CARD: &str = "#ffffff";
const INK: &str = "#1f2328";
const MUTED: &str = "#5a6270";
const LINE: &str = "#e3ded2";
const ACCENT: &str = "#1d6b45";
const FONT: &str = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

const DARK: &str = "@media (prefers-color-scheme: dark) {\
 .tp-bg { background-color: #15171a !important; }\
 .tp-card { background-color: #202328 !important; color: #e7e5e0 !important; }\
 .tp-muted { color: #a3abb7 !important; }\
 .tp-line { border-color: #3a3e45 !important; }\
 .tp-link { color: #8fcaa8 !important; }\
 .tp-btn { background-color: #2f9a63 !important; }\
 .tp-deadline { background-color: #3a3220 !important; color: #f1dfb0 !important; }\
}";

/// A whole email: `lang` and `title` (the subject) for the document, the message's
/// blocks, and the footer's links `(url, words)`; everything but URLs already HTML. (No
/// hidden preview line: the clients that cannot hide it would show it twice.)
pub struct Page<'a> {
    pub lang: &'a str,
    pub title: &'a str,
    pub blocks: &'a str,
    pub footer: &'a [(&'a str, String)],
}

pub fn page(p: &Page<'_>) -> String {
    let footer = p
        .footer
        .iter()
        .map(|(url, words)| {
            format!(
                "<a href=\"{}\" class=\"tp-muted\" style=\"color:{MUTED};text-decoration:underline;\">{words}</a>",
                escape(url)
            )
        })
        .collect::<Vec<_>>()
        .join(" &middot; ");
    let footer = if footer.is_empty() {
        "<tr><td style=\"padding:0 0 12px 0;\"></td></tr>".to_string()
    } else {
        format!(
            "<tr><td class=\"tp-muted tp-line\" style=\"padding:14px 20px 18px 20px;border-top:1px solid {LINE};font-size:13px;line-height:20px;color:{MUTED};\">{footer}</td></tr>"
        )
    };
    format!(
        "<!DOCTYPE html>\
<html lang=\"{lang}\"><head>\
<meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"color-scheme\" content=\"light dark\">\
<meta name=\"supported-color-schemes\" content=\"light dark\">\
<title>{title}</title>\
<style>{DARK}</style>\
</head>\
<body class=\"tp-bg\" style=\"margin:0;padding:0;background-color:{BG};\">\
<table role=\"presentation\" class=\"tp-bg\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"background-color:{BG};\">\
<tr><td align=\"center\" style=\"padding:12px 8px;\">\
<table role=\"presentation\" class=\"tp-card\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"max-width:600px;background-color:{CARD};color:{INK};font-family:{FONT};font-size:16px;line-height:24px;\">\
<tr><td style=\"padding:14px 20px 0 20px;font-size:13px;line-height:18px;font-weight:bold;letter-spacing:1px;color:{ACCENT};\" class=\"tp-link\">TILEPOST</td></tr>\
{blocks}\
{footer}\
</table>\
</td></tr></table>\
</body></html>",
        lang = escape(p.lang),
        title = p.title,
        blocks = p.blocks,
    )
}

/// A paragraph.
pub fn para(html: &str) -> String {
    format!("<tr><td style=\"padding:8px 20px;\">{html}</td></tr>")
}

/// The message's headline.
pub fn headline(html: &str) -> String {
    format!(
        "<tr><td style=\"padding:10px 20px 4px 20px;\"><h1 style=\"margin:0;font-size:22px;line-height:28px;font-weight:bold;\">{html}</h1></td></tr>"
    )
}

/// A paragraph in smaller, muted type.
pub fn note(html: &str) -> String {
    format!(
        "<tr><td class=\"tp-muted\" style=\"padding:4px 20px 8px 20px;font-size:14px;line-height:20px;color:{MUTED};\">{html}</td></tr>"
    )
}

/// A line that must not be missed (the deadline).
pub fn prominent(html: &str) -> String {
    format!(
        "<tr><td style=\"padding:8px 20px;\"><div class=\"tp-deadline\" style=\"background-color:#fbf0d0;color:#4a3a0c;padding:10px 12px;font-weight:bold;\">{html}</div></td></tr>"
    )
}

/// The one obvious action: a button (a link that looks like one in every client).
pub fn button(url: &str, words: &str) -> String {
    format!(
        "<tr><td style=\"padding:12px 20px 16px 20px;\">\
<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\"><tr>\
<td class=\"tp-btn\" align=\"center\" bgcolor=\"{ACCENT}\" style=\"background-color:{ACCENT};\">\
<a href=\"{}\" class=\"tp-btn\" style=\"display:inline-block;padding:12px 24px;background-color:{ACCENT};color:#ffffff;font-size:17px;line-height:22px;font-weight:bold;text-decoration:none;\">{words}</a>\
</td></tr></table></td></tr>",
        escape(url)
    )
}

/// A secondary link, on a line of its own.
pub fn link(url: &str, words: &str) -> String {
    format!(
        "<tr><td style=\"padding:4px 20px 8px 20px;\"><a href=\"{}\" class=\"tp-link\" style=\"color:{ACCENT};\">{words}</a></td></tr>",
        escape(url)
    )
}

/// A picture at `width` × `height`, scaled down to the column on narrow screens.
pub fn picture(url: &str, alt: &str, width: u32, height: u32) -> String {
    format!(
        "<tr><td style=\"padding:8px 20px;\"><img src=\"{}\" alt=\"{alt}\" width=\"{width}\" height=\"{height}\" style=\"display:block;width:100%;max-width:{width}px;height:auto;border:0;\"></td></tr>",
        escape(url)
    )
}

/// A small picture beside a line of words (the drawn tile and its description).
pub fn beside(url: &str, alt: &str, size: u32, html: &str) -> String {
    format!(
        "<tr><td style=\"padding:8px 20px;\">\
<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\"><tr>\
<td width=\"{size}\" style=\"width:{size}px;vertical-align:middle;\"><img src=\"{}\" alt=\"{alt}\" width=\"{size}\" height=\"{size}\" style=\"display:block;border:0;\"></td>\
<td style=\"padding-left:14px;vertical-align:middle;font-size:17px;line-height:24px;\">{html}</td>\
</tr></table></td></tr>",
        escape(url)
    )
}

/// A titled list of lines.
pub fn list(title: &str, items: &[String]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let rows: String = items
        .iter()
        .map(|i| format!("<li style=\"margin:0 0 4px 0;\">{i}</li>"))
        .collect();
    let title = if title.is_empty() {
        String::new()
    } else {
        format!("<p style=\"margin:0 0 6px 0;font-weight:bold;\">{title}</p>")
    };
    format!(
        "<tr><td style=\"padding:8px 20px;\">{title}<ul style=\"margin:0;padding:0 0 0 20px;\">{rows}</ul></td></tr>"
    )
}

/// A small table of `(name, value)` rows under a title, the reader's row in bold.
pub fn table(title: &str, rows: &[(String, String, bool)]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let body: String = rows
        .iter()
        .map(|(name, value, me)| {
            let w = if *me { "bold" } else { "normal" };
            format!(
                "<tr><td class=\"tp-line\" style=\"padding:4px 8px 4px 0;border-bottom:1px solid {LINE};font-weight:{w};\">{name}</td>\
<td class=\"tp-line\" align=\"right\" style=\"padding:4px 0;border-bottom:1px solid {LINE};font-weight:{w};\">{value}</td></tr>"
            )
        })
        .collect();
    format!(
        "<tr><td style=\"padding:8px 20px;\"><p style=\"margin:0 0 6px 0;font-weight:bold;\">{title}</p>\
<table width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" style=\"max-width:320px;\">{body}</table></td></tr>"
    )
}
