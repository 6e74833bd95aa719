//! The report tests in one test binary: each file below is a module, its tests named
//! `FILE::TEST` (`cargo test --test report FILE::` runs one file's).
mod cli_position;
#[path = "../csa_support/mod.rs"]
mod csa_support;
mod game_golden;
mod game_judge;
mod readme_columns;
mod report_cli;
mod report_golden;
mod report_html;
mod report_parquet_types;
mod report_positions;
mod report_replay;
mod report_tables;
