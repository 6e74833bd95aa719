//! The engine tests in one test binary: each file below is a module, its tests named
//! `FILE::TEST` (`cargo test --test engine FILE::` runs one file's).
#[path = "../core_support/mod.rs"]
mod core_support;
mod engine_eval;
mod engine_guard;
mod engine_mate;
mod engine_prunings;
mod engine_replay;
mod engine_rules;
mod engine_search;
mod engine_symmetry;
mod king_piece;
mod learn;
mod replay_usi;
mod sprt_cli;
mod usi_session;
