//! The research tooling, apart from the engine it measures: games of the built-in engine,
//! the continuation of entering-king endings and its table, the tuning of the 24-point
//! weights, and the match that decides whether a change is kept. It depends on the engine
//! ([`crate::engine`]), the referee ([`crate::referee`], for `replay` with outside
//! engines) and the position core; nothing below it depends on it.
//!
//! - [`play`]: engine-versus-engine games under the engine rules.
//! - [`endings`]: `replay`: the endings continued, one table row per start position, and
//!   the summary.
//! - [`tune`]: SPSA tuning of the 24-point weights and the validation match.
//! - [`sprt`]: the self-play SPRT between two configurations of the engine.
//! - [`learn`]: training positions labelled by an outside engine, and the fits of the
//!   learned evaluations.

#![warn(missing_docs)]

pub mod endings;
pub mod learn;
pub mod play;
pub mod sprt;
pub mod tune;
