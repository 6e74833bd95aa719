//! The core tests in one test binary: each file below is a module, its tests named
//! `FILE::TEST` (`cargo test --test core FILE::` runs one file's).
mod core_conformance;
mod core_illegal_moves;
mod core_layout;
mod core_mate;
mod core_oracle;
mod core_perft;
mod core_properties;
mod core_repetition;
mod core_setup;
#[path = "../core_support/mod.rs"]
mod core_support;
mod core_terminal;
