//! `index.html`: the whole report on one self-contained page: the headline, every table
//! as an HTML table (the cells formatted as in `report.md`, numbers right-aligned), every
//! figure as a `data:` image of its SVG, and the provenance `report.json` carries. Nothing
//! is fetched: the style is inline, there are no scripts, fonts or outside images.
//!
//! The markup is well-formed XHTML-compatible HTML5 (every element closed but the void
//! ones, every attribute quoted), and every text is escaped by [`escape`].

use std::fmt::Write as _;

use polars::prelude::*;

use super::markdown::{cell_text, headline};
use super::model::Report;
use super::provenance::Provenance;

/// The page's style: inline, so that the page needs nothing beside it.
const STYLE: &str = "body{font-family:sans-serif;max-width:80em;margin:1em auto;padding:0 1em;line-height:1.4}\
table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:0.85em}\
caption{text-align:left;font-weight:bold;padding:0.3em 0}\
th,td{border:1px solid #bbb;padding:0.2em 0.5em;vertical-align:top}\
th{background:#eee}td.num{text-align:right;white-space:nowrap}\
figure{margin:1em 0}figure img{max-width:100%}\
code{font-size:0.9em;word-break:break-all}";

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by their entities: safe in text and in
/// a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// The report's Markdown inline text as HTML: escaped, `` `code` `` and `**strong**`
/// spans kept as elements.
fn inline(markdown: &str) -> String {
    let mut out = String::new();
    for (i, part) in markdown.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
            continue;
        }
        for (j, bit) in part.split("**").enumerate() {
            if j % 2 == 1 {
                let _ = write!(out, "<strong>{}</strong>", escape(bit));
            } else {
                out.push_str(&escape(bit));
            }
        }
    }
    out
}

/// The report's Markdown blocks (headings, bullet lists, paragraphs) as HTML.
fn blocks(markdown: &str) -> String {
    let mut out = String::new();
    let mut in_list = false;
    for line in markdown.lines().map(str::trim_end) {
        let item = line.strip_prefix("- ");
        if in_list && item.is_none() {
            out.push_str("</ul>\n");
            in_list = false;
        }
        if let Some(item) = item {
            if !in_list {
                out.push_str("<ul>\n");
                in_list = true;
            }
            let _ = writeln!(out, "<li>{}</li>", inline(item));
        } else if let Some(h) = line.strip_prefix("## ") {
            let _ = writeln!(out, "<h2>{}</h2>", inline(h));
        } else if !line.is_empty() {
            let _ = writeln!(out, "<p>{}</p>", inline(line));
        }
    }
    if in_list {
        out.push_str("</ul>\n");
    }
    out
}

/// The columns `cols` of `df` as an HTML table under `caption`: the cells as `report.md`
/// prints them ([`cell_text`]), numeric columns right-aligned.
pub fn table_html(df: &DataFrame, cols: &[String], caption: &str) -> String {
    let cols: Vec<&Column> = cols.iter().filter_map(|c| df.column(c).ok()).collect();
    let mut out = format!(
        "<table>\n<caption>{}</caption>\n<thead><tr>",
        escape(caption)
    );
    for c in &cols {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(c.name()));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for i in 0..df.height() {
        out.push_str("<tr>");
        for c in &cols {
            let class = if c.dtype().is_primitive_numeric() {
                " class=\"num\""
            } else {
                ""
            };
            let _ = write!(out, "<td{class}>{}</td>", escape(&cell_text(df, c, i)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// Every table of the report (the registry's, then the replays'), each under its heading
/// and caption.
fn tables(report: &Report) -> String {
    let mut out = String::new();
    for table in &report.tables {
        let s = table.spec;
        let title = format!("Table {}. {}", s.number, s.title);
        let _ = writeln!(out, "<section id=\"{}\">", escape(s.name));
        let _ = writeln!(out, "<h2>{}</h2>", escape(&title));
        let _ = writeln!(out, "<p>{}</p>", inline(&s.caption_for(&report.config)));
        let cols = super::format::shown_columns(table);
        out.push_str(&table_html(&table.data, &cols, &title));
        out.push_str("</section>\n");
    }
    for t in &report.extra {
        let _ = writeln!(out, "<section id=\"{}\">", escape(&t.name));
        let _ = writeln!(out, "<h2>{}</h2>", escape(&t.title));
        let _ = writeln!(out, "<p>{}</p>", inline(&t.caption));
        out.push_str(&table_html(
            &t.data,
            &super::format::own_columns(&t.data),
            &t.title,
        ));
        out.push_str("</section>\n");
    }
    out
}

/// Every figure, its SVG inline as a `data:image/svg+xml;base64,` image.
fn figures(report: &Report) -> String {
    if report.plots.is_empty() {
        return String::new();
    }
    let mut out = String::from("<section id=\"figures\">\n<h2>Figures</h2>\n");
    for p in &report.plots {
        let _ = writeln!(
            out,
            "<figure><img src=\"data:image/svg+xml;base64,{}\" alt=\"{}\"><figcaption>{} (<code>{}</code>, <code>{}</code>)</figcaption></figure>",
            base64(p.svg.as_bytes()),
            escape(&p.caption),
            escape(&p.caption),
            escape(p.file),
            escape(&p.pdf_file()),
        );
    }
    out.push_str("</section>\n");
    out
}

/// The provenance as `report.json` carries it: version, commit, command line, the files
/// read with their sizes and SHA-256, the scan's inputs.
fn provenance(p: &Provenance) -> String {
    let json = p.to_json();
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "not recorded".to_string(),
        other => other.to_string(),
    };
    let mut out = String::from("<section id=\"provenance\">\n<h2>Provenance</h2>\n<ul>\n");
    for key in ["tool", "version", "commit"] {
        let _ = writeln!(
            out,
            "<li>{key}: <code>{}</code></li>",
            escape(&text(&json[key]))
        );
    }
    let command = p.command_line.join(" ");
    let _ = writeln!(
        out,
        "<li>command line: <code>{}</code></li>",
        escape(&command)
    );
    out.push_str("</ul>\n<h3>Files read</h3>\n<ul>\n");
    for f in &p.files {
        let _ = writeln!(
            out,
            "<li><code>{}</code> ({}): {} bytes, SHA-256 <code>{}</code></li>",
            escape(&f.path),
            escape(&f.role),
            f.bytes,
            escape(&f.sha256)
        );
    }
    out.push_str("</ul>\n<h3>Inputs of the scan</h3>\n<ul>\n");
    for input in &p.scan_inputs {
        let pairs: Vec<String> = input.as_object().map_or_else(Vec::new, |o| {
            o.iter()
                .map(|(k, v)| format!("{}: {}", escape(k), escape(&text(v))))
                .collect()
        });
        let _ = writeln!(out, "<li>{}</li>", pairs.join(", "));
    }
    out.push_str("</ul>\n</section>\n");
    out
}

/// The whole page.
pub fn render(report: &Report) -> String {
    let c = &report.config;
    let mut out = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n");
    out.push_str("<meta charset=\"utf-8\">\n<title>Entering-king report</title>\n");
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    out.push_str("<h1>Entering-king report</h1>\n");
    let settings = format!(
        "Settings: strength threshold = {} percentile of the `{}` rating pool; rows with fewer than {} controlled games flagged.",
        super::tables::ordinal(c.percentile),
        c.pool.name(),
        c.min_games
    );
    let _ = writeln!(out, "<p>{}</p>", inline(&settings));
    let _ = writeln!(out, "<p>{}</p>", inline(&super::tables::population(c)));
    if let Some(h) = headline(report) {
        let _ = writeln!(out, "<section id=\"headline\">\n{}</section>", blocks(&h));
    }
    for note in &report.notes {
        out.push_str(&blocks(note));
    }
    out.push_str(&tables(report));
    out.push_str(&figures(report));
    out.push_str(&provenance(&report.provenance));
    out.push_str("</body>\n</html>\n");
    out
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_test_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }
}
