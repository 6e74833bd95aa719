//! The tables as LaTeX a journal typesets as written (`report --latex`).
//!
//! Each table is a `NAME.tex` float: a short caption (the table's title, numbered by
//! LaTeX), human column headers (the header map below, beside the column names of the
//! data files), the main measures of the table (the rest are in its CSV and Parquet
//! files), a rate and its 95% interval in one cell, and the definitions as table notes
//! (`threeparttable`). Minus signs are `$-$`, inequalities `$\geq$` and `$<$`, so that
//! they print the same under any font encoding; no Markdown is left in the text. A table
//! too wide for A4 portrait is set sideways (`sidewaystable`). `tables.tex` is a document
//! that `\input`s them all with the packages they need (`T1` font encoding, `booktabs`,
//! `threeparttable`, `rotating`, A4 with 2.5 cm margins), so that it compiles as it is.

use std::fmt::Write as _;

use polars::prelude::*;

use super::format::{p_value_log10, percentage, shown_columns};
use super::model::{Report, Table};

/// Width of the text block of `tables.tex` in points (A4, 2.5 cm margins): 160 mm.
const TEXT_WIDTH_PT: f64 = 455.0;

/// The headers a reader of a paper wants, by column name.
const HEADERS: &[(&str, &str)] = &[
    ("year", "Year"),
    ("era", "Period"),
    ("max_moves", "Max_Moves"),
    ("rule", "Rule"),
    ("metric", "Measure"),
    ("measure", "Measure"),
    ("population", "Games"),
    ("role", "Role"),
    ("games", "Games"),
    ("not_replayed", "Not replayed"),
    ("illegal_move", "Illegal move"),
    ("mutual", "Mutual"),
    ("one_sided", "One-sided"),
    ("no_entering", "No entering"),
    ("board_match_rate", "Board match"),
    ("entering_board_match_rate", "Board match, entering"),
    ("points_violations", "54-point violations"),
    ("judge_disagreements", "Verdict disagreements"),
    ("valid_decl_share", "Declaration win"),
    ("invalid_decl_share", "Invalid declaration"),
    ("move_limit_share", "Move limit"),
    ("resignation", "Resignation"),
    ("repetition", "Repetition"),
    ("other", "Other"),
    ("threshold", "Threshold"),
    ("pool_ratings", "Pool ratings"),
    ("few_games", "Few games"),
    ("decl_win_rate", "Declaration win"),
    ("move_limit_rate", "Move limit"),
    ("raw_games", "All mutual games"),
    ("raw_decl_win_rate", "Declaration win, all"),
    ("raw_move_limit_rate", "Move limit, all"),
    ("a_games", "Games A"),
    ("a_pairs", "Pairs A"),
    ("b_pairs", "Pairs B"),
    ("a_design_effect", "Design effect A"),
    ("b_design_effect", "Design effect B"),
    ("a_rate", "Rate A"),
    ("b_games", "Games B"),
    ("b_rate", "Rate B"),
    ("rate_diff", "A − B (pp)"),
    ("test", "Test"),
    ("test_p", "p"),
    ("holm_p", "Holm p"),
    ("owned31_share", "Owned ≥ 31"),
    ("decl31_share", "Declaration points ≥ 31"),
    ("decl31_zone10_share", "and ≥ 10 in zone"),
    ("declarable_board_share", "King in, not in check"),
    ("declarable_share", "Declarable"),
    ("zone10_share", "≥ 10 in zone"),
    ("stranded_median", "Stranded points"),
    ("low_side_share", "Side ≤ 23 points"),
    ("black_win", "Black wins"),
    ("white_win", "White wins"),
    ("draw", "Draws"),
    ("unchanged", "Unchanged"),
    ("decisive_share", "Decisive"),
    ("positions", "Positions"),
    ("median", "Median"),
    ("min", "Min"),
    ("max", "Max"),
    ("mean", "Mean"),
    ("legal_share", "Share of legal moves"),
    ("sides", "Sides"),
    ("final_mutual", "Mutual at the end"),
    ("declaration_share", "Declaration win"),
    ("resignation_share", "Resignation"),
    ("plies_after_entry_median", "Plies after entry"),
    ("ending", "Ending"),
    ("plies", "Within plies"),
    ("incidence_share", "Incidence"),
    ("zone10_share_sides", "≥ 10 in zone"),
    ("points_share", "Points"),
    ("shortfall_median", "Median shortfall"),
    ("shortfall20_share", "Shortfall ≥ 20"),
    ("shortfall", "Shortfall"),
    ("sides_27_point", "Sides, 27-point"),
    ("sides_24_point", "Sides, 24-point"),
];

/// The column's header as a reader of a paper wants it (plain text; LaTeX escaping is
/// done by the writer). Columns without a header of their own get their name with spaces.
pub fn header(name: &str) -> String {
    match HEADERS.iter().find(|(n, _)| *n == name) {
        Some((_, known)) => known.to_string(),
        None => name.replace('_', " "),
    }
}

/// Escape plain text for LaTeX (outside math mode), with the inequalities and the minus
/// sign in math so that they print under any font encoding.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '≥' => out.push_str("$\\geq$"),
            '≤' => out.push_str("$\\leq$"),
            '×' => out.push_str("$\\times$"),
            '−' => out.push_str("$-$"),
            '>' if chars.peek() == Some(&'=') => {
                chars.next();
                out.push_str("$\\geq$");
            }
            '<' if chars.peek() == Some(&'=') => {
                chars.next();
                out.push_str("$\\leq$");
            }
            '<' => out.push_str("$<$"),
            '>' => out.push_str("$>$"),
            '|' => out.push_str("$|$"),
            '"' => out.push_str("''"),
            _ => out.push(ch),
        }
    }
    out
}

/// A number as text for LaTeX: a leading minus as `$-$`, a plus kept.
fn number(text: &str) -> String {
    match text.strip_prefix('-') {
        Some(rest) => format!("$-${}", escape(rest)),
        None => escape(text),
    }
}

/// A caption written for `report.md` (code in backticks, `*emphasis*`) as LaTeX prose:
/// code in `\texttt` (breakable after its underscores), emphasis in `\emph`.
pub fn prose(md: &str) -> String {
    let emph = regex::Regex::new(r"\*([^*\s][^*]*?)\*").expect("a valid pattern");
    let mut out = String::new();
    for (i, part) in md.split('`').enumerate() {
        if i % 2 == 1 {
            let code = escape(part).replace("\\_", "\\_\\allowbreak{}");
            let _ = write!(out, "\\texttt{{{code}}}");
            continue;
        }
        let mut last = 0;
        for m in emph.captures_iter(part) {
            let (Some(whole), Some(inner)) = (m.get(0), m.get(1)) else {
                continue;
            };
            out.push_str(&references(&part[last..whole.start()]));
            let _ = write!(out, "\\emph{{{}}}", escape(inner.as_str()));
            last = whole.end();
        }
        out.push_str(&references(&part[last..]));
    }
    out
}

/// Escaped text with the report's table numbers (`table 3a`, `tables 4 and 5`, `tables
/// 3b-3d`) as references to the LaTeX tables (`\ref{tab:strength-by-year}`), which
/// LaTeX numbers its own way.
fn references(text: &str) -> String {
    let re = regex::Regex::new(r"\b(tables?) (\d+[a-j]?)(?:( and |-)(\d+[a-j]?))?\b")
        .expect("a valid pattern");
    let label = |number: &str| {
        super::tables::TABLES
            .iter()
            .find(|t| t.number == number)
            .map(|t| format!("\\ref{{tab:{}}}", t.name.replace('_', "-")))
    };
    let mut out = String::new();
    let mut last = 0;
    for m in re.captures_iter(text) {
        let Some(whole) = m.get(0) else { continue };
        let first = m.get(2).and_then(|n| label(n.as_str()));
        let second = m.get(4).map(|n| label(n.as_str()));
        let Some(first) = first else { continue };
        out.push_str(&escape(&text[last..whole.start()]));
        let word = m.get(1).map_or("table", |w| w.as_str());
        out.push_str(word);
        out.push('~');
        out.push_str(&first);
        match (m.get(3).map(|s| s.as_str()), second) {
            (Some(" and "), Some(Some(b))) => {
                let _ = write!(out, " and~{b}");
            }
            (Some("-"), Some(Some(b))) => {
                let _ = write!(out, "--{b}");
            }
            (Some(sep), Some(_)) => {
                out.push_str(&escape(sep));
                out.push_str(m.get(4).map_or("", |n| n.as_str()));
            }
            _ => {}
        }
        last = whole.end();
    }
    out.push_str(&escape(&text[last..]));
    out
}

/// What a shown column prints.
enum Kind {
    /// A rate with its interval: `12.3 [4.5, 30.1]`, percent.
    Rate,
    /// A difference with its interval, in percentage points.
    Diff,
    /// A p-value printed from its base-10 logarithm.
    P,
    /// Anything else, as in `report.md`.
    Plain,
}

fn kind(df: &DataFrame, name: &str) -> Kind {
    let has = |n: &str| df.column(n).is_ok();
    let interval = has(&format!("{name}_lo")) && has(&format!("{name}_hi"));
    if interval && name.ends_with("_diff") {
        Kind::Diff
    } else if interval {
        Kind::Rate
    } else if has(&format!("{name}_log10")) {
        Kind::P
    } else {
        Kind::Plain
    }
}

/// The text of one cell.
fn cell(df: &DataFrame, name: &str, i: usize) -> String {
    let f = |c: &str| -> Option<f64> {
        df.column(c)
            .ok()?
            .cast(&DataType::Float64)
            .ok()?
            .f64()
            .ok()?
            .get(i)
    };
    match kind(df, name) {
        Kind::Rate => match (f(name), f(&format!("{name}_lo")), f(&format!("{name}_hi"))) {
            (Some(r), Some(l), Some(h)) => {
                let p = |x: f64| escape(percentage(x, 1).trim_end_matches('%'));
                format!("{} [{}, {}]", p(r), p(l), p(h))
            }
            (Some(r), _, _) => escape(percentage(r, 1).trim_end_matches('%')),
            _ => "--".to_string(),
        },
        Kind::Diff => match (f(name), f(&format!("{name}_lo")), f(&format!("{name}_hi"))) {
            (Some(d), Some(l), Some(h)) => {
                let pp = |x: f64| number(&format!("{:+.1}", x * 100.0));
                format!("{} [{}, {}]", pp(d), pp(l), pp(h))
            }
            _ => "--".to_string(),
        },
        Kind::P => match f(&format!("{name}_log10")) {
            Some(l) => {
                let text = p_value_log10(l);
                match text.split_once('e') {
                    Some((m, e)) => format!("${m} \\times 10^{{{}}}$", e.trim_start_matches('+')),
                    None => text,
                }
            }
            None => "--".to_string(),
        },
        Kind::Plain => {
            let v = df
                .column(name)
                .ok()
                .and_then(|c| c.get(i).ok())
                .unwrap_or(AnyValue::Null);
            match v {
                AnyValue::Null => "--".to_string(),
                AnyValue::String(_) | AnyValue::StringOwned(_) => {
                    escape(&super::format::cell(name, &v))
                }
                _ => number(&super::format::cell(name, &v)),
            }
        }
    }
}

/// A header set on lines of about 12 characters (a nested `tabular`).
fn header_cell(name: &str) -> String {
    let text = header(name);
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= 12 => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() == 1 {
        return escape(&lines[0]);
    }
    let body: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    format!(
        "\\begin{{tabular}}[b]{{@{{}}c@{{}}}}{}\\end{{tabular}}",
        body.join("\\\\")
    )
}

/// A rough width of text in the tables' font (`\footnotesize`, 8 pt: digits 4 pt wide).
fn width_pt(text: &str) -> f64 {
    // Math and commands count as their printed symbol.
    let printed = text
        .replace("$-$", "-")
        .replace("$<$", "<")
        .replace("$>$", ">")
        .replace("$\\geq$", ">")
        .replace("\\_", "_")
        .replace("\\%", "%");
    printed.chars().count() as f64 * 4.3
}

/// The units note every table shares.
const UNITS: &str = "Rates are percentages with their 95\\% interval in brackets (Wilson's for a \
rate; for a difference of rates, in percentage points, the interval of the row's test); -- marks \
a value that is not defined.";

/// The table as a LaTeX float (see the module notes).
pub fn table_tex(table: &Table, caption: &str) -> PolarsResult<String> {
    let df = &table.data;
    let cols = shown_columns(table);
    let first_key = df.columns().first().and_then(|c| c.str().ok().cloned());
    let mut rows: Vec<(bool, Vec<String>)> = Vec::new();
    for i in 0..df.height() {
        let total = first_key.as_ref().and_then(|k| k.get(i)) == Some("all") && i > 0;
        rows.push((total, cols.iter().map(|c| cell(df, c, i)).collect()));
    }
    let sideways = table_width(&cols, &rows) > TEXT_WIDTH_PT;
    let align: String = cols
        .iter()
        .map(|c| match df.column(c).map(|c| c.dtype().clone()) {
            Ok(DataType::String) | Ok(DataType::Boolean) => 'l',
            _ => 'r',
        })
        .collect();
    let headers: Vec<String> = cols.iter().map(|c| header_cell(c)).collect();
    let label = table.spec.name.replace('_', "-");
    let notes = format!(
        "{UNITS} Other columns are in \\texttt{{{}.csv}}.",
        escape(table.spec.name).replace("\\_", "\\_\\allowbreak{}")
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        "% Table {}: {}. Written by floodgate-scan report --latex; needs \\usepackage[T1]{{fontenc}},\n% booktabs, threeparttable, rotating and longtable (tables.tex has the preamble).",
        table.spec.number, table.spec.title
    );
    if rows.len() > LONG_ROWS {
        // Too many rows for a page: a long table over pages, its header repeated, the
        // notes after it.
        let _ = writeln!(
            s,
            "{{\\footnotesize\\setlength{{\\tabcolsep}}{{3pt}}\n\\begin{{longtable}}{{@{{}}{align}@{{}}}}\n\\caption{{{}}}\\label{{tab:{label}}}\\\\\n\\toprule\n{} \\\\\n\\midrule\n\\endfirsthead\n\\toprule\n{} \\\\\n\\midrule\n\\endhead\n\\bottomrule\n\\endfoot",
            escape(table.spec.title),
            headers.join(" & "),
            headers.join(" & ")
        );
        push_rows(&mut s, &rows);
        let _ = writeln!(
            s,
            "\\end{{longtable}}\n\\par\\sloppy\\noindent {notes}\\par\\noindent {}\\par}}",
            prose(caption)
        );
        return Ok(s);
    }
    let env = if sideways { "sidewaystable" } else { "table" };
    let _ = writeln!(s, "\\begin{{{env}}}[htbp]\n\\centering\n\\footnotesize");
    s.push_str("\\setlength{\\tabcolsep}{3pt}\n\\begin{threeparttable}\n");
    let _ = writeln!(s, "\\caption{{{}}}", escape(table.spec.title));
    let _ = writeln!(s, "\\label{{tab:{label}}}");
    let _ = writeln!(s, "\\begin{{tabular}}{{@{{}}{align}@{{}}}}\n\\toprule");
    let _ = writeln!(s, "{} \\\\\n\\midrule", headers.join(" & "));
    push_rows(&mut s, &rows);
    s.push_str("\\bottomrule\n\\end{tabular}\n");
    let _ = writeln!(
        s,
        "\\begin{{tablenotes}}[flushleft]\n\\footnotesize\\sloppy\n\\item {notes}\n\\item {}\n\\end{{tablenotes}}",
        prose(caption)
    );
    let _ = writeln!(s, "\\end{{threeparttable}}\n\\end{{{env}}}");
    Ok(s)
}

/// The table's width in points: each column's widest cell or header line, plus the
/// space between columns.
fn table_width(cols: &[String], rows: &[(bool, Vec<String>)]) -> f64 {
    cols.iter()
        .enumerate()
        .map(|(j, c)| {
            let head = header(c)
                .split(' ')
                .map(width_pt)
                .fold(0.0, f64::max)
                .max(width_pt(&header(c)).min(12.0 * 4.3));
            let body = rows
                .iter()
                .map(|(_, r)| width_pt(&r[j]))
                .fold(0.0, f64::max);
            head.max(body) + 8.0
        })
        .sum()
}

/// The body's rows, a rule above a total row.
fn push_rows(s: &mut String, rows: &[(bool, Vec<String>)]) {
    for (total, cells) in rows {
        if *total {
            s.push_str("\\midrule\n");
        }
        let _ = writeln!(s, "{} \\\\", cells.join(" & "));
    }
}

/// Tables with more rows than this are set as a `longtable` over pages.
const LONG_ROWS: usize = 40;

/// `tables.tex`: a document that compiles every table as written.
pub fn document(report: &Report) -> String {
    let mut s = String::from(
        "% Every table of the report, as floodgate-scan report --latex wrote them. Compile with\n\
% pdflatex tables.tex; copy the preamble's packages into a paper that \\input's a table.\n\
\\documentclass[10pt]{article}\n\
\\usepackage[a4paper,margin=2.5cm]{geometry}\n\
\\usepackage[T1]{fontenc}\n\
\\IfFileExists{lmodern.sty}{\\usepackage{lmodern}}{}\n\
\\usepackage{booktabs}\n\
\\usepackage{threeparttable}\n\
\\usepackage{rotating}\n\
\\usepackage{longtable}\n\
\\begin{document}\n",
    );
    for t in &report.tables {
        let _ = writeln!(s, "\\input{{{}.tex}}\n\\clearpage", t.spec.name);
    }
    s.push_str("\\end{document}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_print_under_any_font_encoding() {
        assert_eq!(escape("a >= 31, b < 5 > c"), "a $\\geq$ 31, b $<$ 5 $>$ c");
        assert_eq!(escape("≥ 10 in zone"), "$\\geq$ 10 in zone");
        assert_eq!(escape("50% of a_b & c"), "50\\% of a\\_b \\& c");
        assert_eq!(number("-0.5"), "$-$0.5");
        assert_eq!(number("+1.0"), "+1.0");
    }

    #[test]
    fn markdown_in_captions_becomes_latex() {
        assert_eq!(
            prose("the *leading side* owns `decl_wins` >= 31"),
            "the \\emph{leading side} owns \\texttt{decl\\_\\allowbreak{}wins} $\\geq$ 31"
        );
        // A lone star is text, not emphasis.
        assert_eq!(prose("2 * 3"), "2 * 3");
        // The report's table numbers become references to LaTeX's.
        assert_eq!(
            prose("As table 3a; tables 4 and 5; tables 3b-3d; table 99"),
            "As table~\\ref{tab:strength-by-year}; tables~\\ref{tab:funnel} and~\\ref{tab:counterfactual}; \
tables~\\ref{tab:strength-by-era}--\\ref{tab:strength-by-era-max-moves}; table 99"
        );
    }

    #[test]
    fn headers_are_words_and_wrap() {
        assert_eq!(header("decl_win_rate"), "Declaration win");
        assert_eq!(header("some_new_column"), "some new column");
        assert_eq!(
            header_cell("entering_board_match_rate"),
            "\\begin{tabular}[b]{@{}c@{}}Board match,\\\\entering\\end{tabular}"
        );
        assert_eq!(header_cell("games"), "Games");
    }
}
