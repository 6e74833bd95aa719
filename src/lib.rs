//! floodgate-scan: read, replay and audit the floodgate (wdoor) archive of computer-shogi
//! games, measure entering-king endings, and re-play them with a built-in engine.
//!
//! Layers, each depending only on those above it:
//!
//! - [`shogi`]: the position core (rules, legal moves, mate in one); no I/O.
//! - [`csa`]: CSA record text to structured events; syntax only, never legality.
//! - [`game`]: one record in, one checked verdict out (replay, judge, table row).
//! - [`source`]: where record bytes come from (folders, tar, gzip, 7z, zip, stdin).
//! - [`outdir`] and [`interrupt`]: all-or-nothing output folders and their lock; SIGINT
//!   and SIGTERM as a flag the long stages look at.
//! - [`scan`]: the parallel pipeline from sources to the per-game table.
//! - `report` (the default `report` feature): paper tables and plots from the per-game table.
//! - [`engine`]: alpha-beta search, the 24-point declaration engine, USI.
//! - [`referee`]: games of outside USI engines, judged with the core's rules.
//! - [`lab`]: the research tooling over the engine and the referee: engine games, the
//!   `replay` table, SPSA tuning and the SPRT match.
//! - [`words`]: the tables' closed vocabularies as enums, one name table each.
//!
//! The command line (flags, messages, progress bars, exit codes) is the binary's, not the
//! library's: the library never prints, parses arguments or exits.

pub mod csa;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod lab;
pub mod outdir;
pub mod referee;
#[cfg(feature = "report")]
pub mod report;
pub mod rng;
pub mod scan;
pub mod shogi;
pub mod source;
pub mod words;
