//! `floodgate-scan positions`: statistics over a file of SFENs.
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct PositionsArgs {
    /// A file of SFENs: the first tab-separated column of each line; `#` lines are comments.
    pub file: PathBuf,
    /// Print one JSON object instead of a Markdown table.
    #[arg(long)]
    pub json: bool,
}

#[cfg(feature = "report")]
pub fn run(a: PositionsArgs) -> anyhow::Result<ExitCode> {
    use anyhow::Context as _;
    use floodgate_scan::report::markdown::table_markdown;
    use floodgate_scan::report::positions::{frame_json, read_positions, tables};

    let bytes = std::fs::read(&a.file).with_context(|| format!("{}", a.file.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let (counts, bad) = read_positions(&text);
    for b in &bad {
        eprintln!("floodgate-scan: {}: {b}", a.file.display());
    }
    let [summary, sides, shortfall] = tables(&counts)?;
    if a.json {
        let v = serde_json::json!({
            "positions": counts.len(),
            "unreadable_lines": bad.len(),
            "summary": frame_json(&summary),
            "sides": frame_json(&sides),
            "shortfall": frame_json(&shortfall),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "Positions: {} ({} unreadable lines)\n",
            counts.len(),
            bad.len()
        );
        println!("{}", table_markdown(&summary));
        println!("{}", table_markdown(&sides));
        println!("{}", table_markdown(&shortfall));
    }
    Ok(if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_PARTIAL)
    })
}

#[cfg(not(feature = "report"))]
pub fn run(_a: PositionsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "positions: this build has no `report` feature (polars); rebuild with default features"
    )
}
