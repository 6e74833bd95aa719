//! `floodgate-scan report` on the command line: defaults, outputs, and errors.
#![cfg(feature = "report")]

use std::path::PathBuf;
use std::process::Command;

use floodgate_scan::game::row::GameRow;
use floodgate_scan::report::columns::frame_from_rows;
use floodgate_scan::report::tables::TABLES;
use polars::prelude::*;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floodgate-scan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
}

fn write_games(dir: &std::path::Path) {
    let rows = vec![
        GameRow {
            year: Some(2024),
            entering: "mutual".into(),
            summary_reason: Some("kachi".into()),
            max_moves: Some(512),
            status: "ok".into(),
            ..GameRow::default()
        };
        3
    ];
    let mut df = frame_from_rows(&rows).unwrap();
    let f = std::fs::File::create(dir.join("games.parquet")).unwrap();
    ParquetWriter::new(f).finish(&mut df).unwrap();
    std::fs::write(
        dir.join("errors.csv"),
        "source,entry,line,reason\na,b,1,bad\n",
    )
    .unwrap();
}

/// The value of attribute `name` in an XML tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    tag.split(&format!(" {name}=\"")).nth(1)?.split('"').next()
}

/// The texts of an SVG's `<text>` elements (entities decoded), empty ones left out.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| {
            let body = t.split_once('>')?.1.split("</text>").next()?.trim();
            let text = body
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            (!text.is_empty()).then_some(text)
        })
        .collect()
}

/// A PDF written by `report`, read with lopdf: one page the size of the SVG, no font
/// anywhere (the text is drawn as glyph outlines, so nothing is missing or left
/// unembedded), no text operator, and as many drawings as the SVG has: every text a
/// filled path, lines, circles, polygons and rectangles.
fn check_pdf(name: &str, pdf: &[u8], svg: &str) {
    let doc = lopdf::Document::load_mem(pdf).unwrap_or_else(|e| panic!("{name}: {e}"));
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 1, "{name}: pages");
    let page = pages[&1];
    let svg_tag = svg.split('>').next().unwrap();
    let (w, h): (f32, f32) = (
        attr(svg_tag, "width").unwrap().parse().unwrap(),
        attr(svg_tag, "height").unwrap().parse().unwrap(),
    );
    let media: Vec<f32> = doc
        .get_dictionary(page)
        .unwrap()
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect();
    assert_eq!(media, [0.0, 0.0, w, h], "{name}: page size");
    assert!(
        doc.get_page_fonts(page).unwrap().is_empty(),
        "{name}: a font is used"
    );
    for (id, object) in &doc.objects {
        if let Ok(d) = object.as_dict() {
            assert!(
                d.get(b"Type").ok().and_then(|t| t.as_name().ok()) != Some(b"Font".as_slice()),
                "{name}: font object {id:?}"
            );
        }
    }
    let content = String::from_utf8(doc.get_page_content(page)).unwrap();
    assert!(
        !content.contains(" Tj") && !content.contains("BT"),
        "{name}: text operators"
    );
    let texts = svg_texts(svg);
    assert!(texts.len() > 5, "{name}: {texts:?}");
    let ops = |end: &str| content.lines().filter(|l| l.ends_with(end)).count();
    assert_eq!(
        ops(" c f") + ops(" c S"),
        svg.matches("<circle ").count(),
        "{name}: circles"
    );
    assert_eq!(
        ops(" h f"),
        svg.matches("<polygon ").count() + texts.len(),
        "{name}: polygons and texts"
    );
    assert_eq!(
        ops(" re f") + ops(" re S"),
        svg.matches("<rect ").count(),
        "{name}: rectangles"
    );
    assert_eq!(
        ops(" l S"),
        svg.matches("<line ").count() + svg.matches("<polyline ").count(),
        "{name}: lines"
    );
}

#[test]
fn default_input_and_output_folder() {
    let dir = scratch("cli-default");
    let scan = dir.join("floodgate-scan-out");
    std::fs::create_dir_all(&scan).unwrap();
    write_games(&scan);
    let out = bin().arg("report").current_dir(&dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rep = scan.join("report");
    for t in TABLES {
        assert!(rep.join(format!("{}.csv", t.name)).exists(), "{}", t.name);
        assert!(
            rep.join(format!("{}.parquet", t.name)).exists(),
            "{}",
            t.name
        );
    }
    for svg in [
        "decl_rate_by_year.svg",
        "funnel.svg",
        "owned_points.svg",
        "era_comparison.svg",
        "era_comparison_ever_mutual.svg",
        "cohort_incidence.svg",
    ] {
        let s = std::fs::read_to_string(rep.join(svg)).unwrap();
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{svg}"
        );
        let pdf = svg.replace(".svg", ".pdf");
        check_pdf(&pdf, &std::fs::read(rep.join(&pdf)).unwrap(), &s);
    }
    let md = std::fs::read_to_string(rep.join("report.md")).unwrap();
    assert!(md.contains("Unreadable entries"), "errors.csv counted");
    assert!(md.contains(": 1."), "one unreadable entry");
    let csv = std::fs::read_to_string(rep.join("endings_mutual_by_max_moves.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("512,3,3,")), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explicit_paths_and_settings() {
    let dir = scratch("cli-explicit");
    write_games(&dir);
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["-o"])
        .arg(dir.join("r"))
        .args([
            "--percentile",
            "50",
            "--pool",
            "entering",
            "--min-games",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("50th percentile of the `entering` rating pool"));
    assert!(md.contains("fewer than 2 controlled games"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_exit_2() {
    let dir = scratch("cli-errors");
    let out = bin()
        .arg("report")
        .arg(dir.join("nope.parquet"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.parquet"));
    write_games(&dir);
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--percentile", "101"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(dir.join("junk.parquet"), b"not parquet").unwrap();
    let out = bin()
        .arg("report")
        .arg(dir.join("junk.parquet"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["report", "--pool", "galaxy"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--game-name", "floodgate-(300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--game-name"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn game_name_and_players_pool_on_the_command_line() {
    let dir = scratch("cli-game-name");
    let game = |name: &str, player: &str, rate: f64| GameRow {
        year: Some(2024),
        game_name: Some(name.into()),
        black: Some(player.into()),
        white: Some("Z".into()),
        black_rate: Some(rate),
        white_rate: Some(3000.0),
        entering: "mutual".into(),
        summary_reason: Some("kachi".into()),
        max_moves: Some(512),
        status: "ok".into(),
        ..GameRow::default()
    };
    let rows = vec![
        game("floodgate-300-10F", "A", 1000.0),
        game("floodgate-300-10F", "A", 2000.0),
        game("floodgate-600-10F", "B", 2500.0),
    ];
    let mut df = frame_from_rows(&rows).unwrap();
    let f = std::fs::File::create(dir.join("games.parquet")).unwrap();
    ParquetWriter::new(f).finish(&mut df).unwrap();
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["--game-name", "300-10F$", "--pool", "players", "-o"])
        .arg(dir.join("r"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("3 games (2 with a matching game name)"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    assert!(md.contains("`players` rating pool"), "{md}");
    assert!(
        md.contains("matches the regular expression `300-10F$`"),
        "{md}"
    );
    // Players A (mean 1500) and Z (3000): 1500 + 0.75 * 1500 = 2625.
    let csv = std::fs::read_to_string(dir.join("r/strength_by_year.csv")).unwrap();
    assert!(
        csv.lines().any(|l| l.starts_with("2024,2,2625.0,1,0.5,")),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A minimal check that `text` is a well-formed booktabs table: balanced braces, the
/// environments opened and closed in order, the three rules, and every body row with as
/// many cells as the header (`&` outside `\&`).
fn check_latex(name: &str, text: &str) {
    let mut depth = 0i64;
    let mut prev = ' ';
    for ch in text.chars() {
        if prev != '\\' {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0, "{name}: unbalanced braces");
        }
        prev = if prev == '\\' && ch == '\\' { ' ' } else { ch };
    }
    assert_eq!(depth, 0, "{name}: unbalanced braces");
    let long = text.contains("\\begin{longtable}");
    let float = if text.contains("\\begin{sidewaystable}") {
        "sidewaystable"
    } else {
        "table"
    };
    let begin = format!("\\begin{{{float}}}");
    let end = format!("\\end{{{float}}}");
    let order: Vec<&str> = if long {
        vec![
            "\\begin{longtable}",
            "\\caption{",
            "\\toprule",
            "\\endfirsthead",
            "\\endhead",
            "\\bottomrule",
            "\\endfoot",
            "\\end{longtable}",
        ]
    } else {
        vec![
            begin.as_str(),
            "\\begin{threeparttable}",
            "\\caption{",
            "\\begin{tabular}",
            "\\toprule",
            "\\midrule",
            "\\bottomrule",
            "\\end{tabular}",
            "\\begin{tablenotes}",
            "\\end{tablenotes}",
            "\\end{threeparttable}",
            end.as_str(),
        ]
    };
    let mut at = 0;
    for mark in order {
        let pos = text[at..]
            .find(mark)
            .unwrap_or_else(|| panic!("{name}: {mark} missing or out of order"));
        at += pos;
    }
    // One number per table: LaTeX's; no Markdown left; signs in math.
    assert!(!text.contains("\\caption{Table"), "{name}: numbered twice");
    for bad in ['`', '<', '>'] {
        assert!(
            !text
                .lines()
                .filter(|l| !l.starts_with('%'))
                .any(|l| l.contains(bad)),
            "{name}: {bad} left in the text"
        );
    }
    let cells = |line: &str| line.replace("\\&", "").matches('&').count();
    let (spec_at, body_from, body_to) = if long {
        ("\\begin{longtable}{@{}", "\\endfoot", "\\end{longtable}")
    } else {
        ("\\begin{tabular}{@{}", "\\toprule", "\\bottomrule")
    };
    let body = text
        .split(body_from)
        .nth(1)
        .unwrap()
        .split(body_to)
        .next()
        .unwrap();
    let rows: Vec<&str> = body
        .lines()
        .filter(|l| l.trim_end().ends_with("\\\\"))
        .collect();
    assert!(!rows.is_empty(), "{name}: no rows");
    let want = cells(rows[0]);
    let cols = text
        .split(spec_at)
        .nth(1)
        .unwrap()
        .split("@{}}")
        .next()
        .unwrap()
        .len();
    assert_eq!(want + 1, cols, "{name}: cells vs column spec");
    for r in &rows {
        assert_eq!(cells(r), want, "{name}: {r}");
    }
    // No raw underscore or percent sign outside a command.
    for line in text.lines().filter(|l| !l.starts_with('%')) {
        let bare = line.replace("\\_", "").replace("\\%", "");
        assert!(
            !bare.contains('_') && !bare.contains('%'),
            "{name}: unescaped: {line}"
        );
    }
}

#[test]
fn latex_tidy_tables_metadata_and_per_game_flags() {
    let dir = scratch("cli-latex");
    write_games(&dir);
    let rep = dir.join("rep");
    let out = bin()
        .arg("report")
        .arg(dir.join("games.parquet"))
        .args(["-o"])
        .arg(&rep)
        .args(["--latex", "--per-game"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for t in TABLES {
        let tex = std::fs::read_to_string(rep.join(format!("{}.tex", t.name))).unwrap();
        check_latex(t.name, &tex);
    }
    // A rate and its interval in one cell, the total row under its own rule.
    let tex = std::fs::read_to_string(rep.join("endings_mutual_by_max_moves.tex")).unwrap();
    assert!(tex.contains("100.0 [43.9, 100.0]"), "{tex}");
    assert!(tex.contains("\\midrule\nall &"), "{tex}");
    // Human headers, a short caption, the definitions as notes.
    let tex = std::fs::read_to_string(rep.join("era_comparison.tex")).unwrap();
    assert!(tex.contains("A $-$ B (pp)"), "{tex}");
    assert!(
        tex.contains("\\caption{The 256 era against the 512 era (final position)}"),
        "{tex}"
    );
    assert!(
        tex.contains("\\item The reference study's comparison, on the final position"),
        "{tex}"
    );
    assert!(!tex.contains("rate\\_diff\\_lo &"), "{tex}");
    let tex = std::fs::read_to_string(rep.join("funnel.tex")).unwrap();
    assert!(tex.contains("\\emph{leading side}"), "{tex}");
    assert!(!tex.contains("*leading side*"), "{tex}");
    assert!(tex.contains("Owned $\\geq$ 31"), "{tex}");
    let doc = std::fs::read_to_string(rep.join("tables.tex")).unwrap();
    assert!(doc.contains("\\usepackage[T1]{fontenc}"), "{doc}");
    for t in TABLES {
        assert!(doc.contains(&format!("\\input{{{}.tex}}", t.name)), "{doc}");
    }
    // The tidy long form: one row per group and rate, a column per key.
    let long = std::fs::read_to_string(rep.join("endings_mutual_by_max_moves_long.csv")).unwrap();
    assert!(
        long.starts_with("table,max_moves,measure,count,n,rate,lo,hi\n"),
        "{long}"
    );
    assert!(
        long.lines()
            .any(|l| l.starts_with("endings_mutual_by_max_moves,512,valid_decl_share,3,3,1.0,")),
        "{long}"
    );
    // report.json and the Parquet metadata carry the settings, version and input.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(rep.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    // Numbers as numbers.
    assert_eq!(json["percentile"], 75.0);
    assert_eq!(json["min_games"], 10);
    assert_eq!(json["games_in_table"], 3);
    assert_eq!(json["unreadable_entries"], 1);
    assert_eq!(json["first_year"], 2024);
    // Provenance: the files read with their size and SHA-256 (sha256sum's), the command.
    let games = dir.join("games.parquet");
    let p = &json["provenance"];
    assert_eq!(p["files"][0]["role"], "games");
    assert_eq!(p["files"][0]["path"], games.display().to_string());
    assert_eq!(
        p["files"][0]["bytes"],
        std::fs::metadata(&games).unwrap().len()
    );
    let sum = Command::new("sha256sum").arg(&games).output().unwrap();
    let want = String::from_utf8(sum.stdout).unwrap();
    assert_eq!(p["files"][0]["sha256"], want.split(' ').next().unwrap());
    assert_eq!(p["files"][1]["role"], "errors");
    assert_eq!(p["command_line"][0], "floodgate-scan");
    assert_eq!(p["command_line"][1], "report");
    assert!(
        p["command_line"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "--latex")
    );
    let bytes = std::fs::read(rep.join("years.parquet")).unwrap();
    let has = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(has("floodgate_scan.version") && has("floodgate_scan.pool"));
    assert!(has("floodgate_scan.provenance") && has(want.split(' ').next().unwrap()));
    let md = std::fs::read_to_string(rep.join("report.md")).unwrap();
    assert!(
        md.contains("Reproducibility: made by floodgate-scan"),
        "{md}"
    );
    assert!(md.contains(want.split(' ').next().unwrap()), "{md}");
    // The per-game strong flags and thresholds.
    let f = std::fs::File::open(rep.join("strength_per_game.parquet")).unwrap();
    let pg = ParquetReader::new(f).finish().unwrap();
    assert_eq!(pg.height(), 3);
    for c in ["year", "threshold", "strong", "mutual"] {
        assert!(pg.column(c).is_ok(), "{c}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tables.tex` of the bundled fixtures' report compiled with pdflatex where it is
/// installed: every table typesets on A4, with no overfull box and no error.
#[test]
fn latex_tables_compile_without_overfull_boxes() {
    let Ok(version) = Command::new("pdflatex").arg("--version").output() else {
        eprintln!("SKIPPED: pdflatex is not installed (apt-get install texlive-latex-recommended)");
        return;
    };
    assert!(version.status.success());
    let dir = scratch("cli-pdflatex");
    let scan = bin()
        .args(["scan", "--quiet", "-o"])
        .arg(dir.join("scan"))
        .output()
        .unwrap();
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
    let rep = dir.join("rep");
    let out = bin()
        .arg("report")
        .arg(dir.join("scan/games.parquet"))
        .arg("-o")
        .arg(&rep)
        .arg("--latex")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tex = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "tables.tex"])
        .current_dir(&rep)
        .output()
        .unwrap();
    let log = std::fs::read_to_string(rep.join("tables.log")).unwrap_or_default();
    assert!(tex.status.success(), "pdflatex failed:\n{log}");
    for bad in [
        "Overfull \\hbox",
        "Overfull \\vbox",
        "Float too large",
        "\n! ",
    ] {
        assert!(!log.contains(bad), "{bad} in tables.log:\n{log}");
    }
    // Every table is input; the long table runs over pages of its own.
    assert!(log.contains("Output written on tables.pdf ("), "{log}");
    for t in TABLES {
        assert!(
            log.replace('\n', "")
                .contains(&format!("(./{}.tex", t.name)),
            "{} not read:\n{log}",
            t.name
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
