//! `index.html`: the fixtures' page (`reports/fixtures/index.html`, kept equal to what the
//! report writes by `report_golden`) is well-formed, self-contained and complete, and its
//! text is escaped.
#![cfg(feature = "report")]

use std::path::Path;

use floodgate_scan::report::html;
use polars::prelude::*;

/// HTML5's void elements: the only ones without a closing tag.
const VOID: &[&str] = &["meta", "img", "br", "hr", "link", "col", "wbr", "input"];

/// A strict check of XHTML-compatible HTML5: a doctype first, every element closed in
/// order (void ones excepted), every attribute `name="value"` with no `<` or `"` inside,
/// and every `&` an entity, so that no raw text can open a tag. Returns the elements met
/// as (name, attributes).
fn parse(page: &str) -> Vec<(String, Vec<(String, String)>)> {
    let rest = page
        .strip_prefix("<!DOCTYPE html>")
        .expect("the page opens with <!DOCTYPE html>");
    let mut open: Vec<String> = Vec::new();
    let mut elements = Vec::new();
    let mut text = rest;
    while let Some(start) = text.find('<') {
        check_text(&text[..start]);
        let end = start + text[start..].find('>').expect("an unclosed tag");
        let tag = &text[start + 1..end];
        text = &text[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name),
                "</{name}> closes another"
            );
            continue;
        }
        let (name, attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric()),
            "tag {name:?}"
        );
        let attrs = parse_attributes(attrs);
        if matches!(name, "style" | "script") {
            let close = format!("</{name}>");
            let body = text.find(&close).expect("raw text closed");
            text = &text[body + close.len()..];
        } else if !VOID.contains(&name) {
            open.push(name.to_string());
        }
        elements.push((name.to_string(), attrs));
    }
    check_text(text);
    assert!(open.is_empty(), "unclosed: {open:?}");
    elements
}

fn parse_attributes(mut attrs: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    loop {
        attrs = attrs.trim_start();
        if attrs.is_empty() {
            return out;
        }
        let (name, rest) = attrs.split_once("=\"").expect("attribute name=\"value\"");
        let (value, rest) = rest.split_once('"').expect("attribute value closed");
        assert!(!value.contains('<'), "raw < in attribute {name}");
        check_text(value);
        out.push((name.to_string(), value.to_string()));
        attrs = rest;
    }
}

/// No raw `>` and every `&` an entity.
fn check_text(text: &str) {
    assert!(!text.contains('>'), "raw > in {text:?}");
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..text.len().min(i + 8)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "raw & at {entity:?}"
        );
    }
}

#[test]
fn the_fixture_page_is_self_contained_and_complete() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/fixtures");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let elements = parse(&page);
    let html = &elements[0];
    assert_eq!(html.0, "html");
    assert!(html.1.contains(&("lang".into(), "en".into())));
    assert!(page.contains("<meta charset=\"utf-8\">"));
    for (name, attrs) in &elements {
        for (attr, value) in attrs {
            let outside = ["http:", "https:", "//"]
                .iter()
                .any(|p| value.trim_start().to_ascii_lowercase().starts_with(p));
            assert!(!outside, "<{name} {attr}=\"{value}\"> refers outside");
        }
        assert!(
            !matches!(name.as_str(), "script" | "link" | "iframe"),
            "<{name}>"
        );
    }
    let count = |n: &str| elements.iter().filter(|(e, _)| e == n).count();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let tables = md.lines().filter(|l| l.starts_with("## Table ")).count();
    assert!(tables >= 10);
    assert_eq!(count("table"), tables, "one <table> per report table");
    let svgs = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("svg".as_ref()))
        .count();
    let images: Vec<&String> = elements
        .iter()
        .filter(|(e, _)| e == "img")
        .flat_map(|(_, a)| a.iter().filter(|(k, _)| k == "src").map(|(_, v)| v))
        .collect();
    assert_eq!(svgs, 6);
    assert_eq!(count("figure"), svgs, "one figure per SVG");
    assert_eq!(images.len(), svgs);
    assert!(
        images
            .iter()
            .all(|s| s.starts_with("data:image/svg+xml;base64,"))
    );
    headline_numbers_appear(&md, &page);
    for key in ["SHA-256", "games.parquet", "command line"] {
        assert!(page.contains(key), "provenance: {key}");
    }
}

/// Every `k/n` count and percentage of report.md's headline comparisons is on the page.
fn headline_numbers_appear(md: &str, page: &str) {
    let lines: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("- Primary") || l.starts_with("- Secondary"))
        .collect();
    assert_eq!(lines.len(), 2, "the headline's two comparisons");
    let mut numbers = 0;
    for word in lines
        .iter()
        .flat_map(|l| l.split([' ', '(', ')', ';', ',']))
    {
        let is_count = word.split_once('/').is_some_and(|(k, n)| {
            !k.is_empty() && !n.is_empty() && (k.to_owned() + n).bytes().all(|b| b.is_ascii_digit())
        });
        if is_count || (word.ends_with('%') && word.len() > 1) {
            assert!(page.contains(word), "headline number {word} missing");
            numbers += 1;
        }
    }
    assert!(numbers >= 4, "{numbers} numbers checked");
}

#[test]
fn table_cells_and_captions_are_escaped() {
    let df = df! {
        "engine" => ["<script>alert(1)</script> & \"co\""],
        "games" => [3i64],
    }
    .unwrap();
    let cols = vec!["engine".to_string(), "games".to_string()];
    let table = html::table_html(&df, &cols, "A <b> & 'c'");
    assert!(
        table.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"),
        "{table}"
    );
    assert!(!table.contains("<script>"), "{table}");
    assert!(table.contains("<caption>A &lt;b&gt; &amp; &#39;c&#39;</caption>"));
    assert!(
        table.contains("<td class=\"num\">3</td>"),
        "numbers right-aligned"
    );
    let page = format!("<!DOCTYPE html><html>{table}</html>");
    parse(&page);
    assert_eq!(html::escape("a\"b'<>&"), "a&quot;b&#39;&lt;&gt;&amp;");
}
