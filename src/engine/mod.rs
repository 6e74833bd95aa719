//! The built-in engine: a full alpha-beta search with a hand-made evaluation, the 24-point
//! declaration engine, the USI protocol, and the self-play used by `replay`, `tune` and
//! `validate`. It depends only on the position core ([`crate::shogi`]).
//!
//! - [`eval`]: the normal evaluation; [`eval24`]: the 24-point evaluation and its weights;
//!   [`guard`]: the mate guard of both modes; [`mate`]: the mate solver of `go mate`.
//! - [`search`]: iterative deepening PVS; [`tt`], [`ordering`], [`time`]: its parts.
//! - [`usi`]: the protocol; [`mod@bench`]: the fixed benchmark.
//! - [`play`], [`endings`], [`tune`], [`sprt`]: engine games, the replay table, SPSA, and
//!   the self-play test that decides whether a change is kept.
//! - [`learn`]: the learned evaluation, its training data and its fit.

#![warn(missing_docs)]

pub mod bench;
pub mod endings;
pub mod eval;
pub mod eval24;
pub mod eval_cache;
pub mod guard;
pub mod learn;
pub mod mate;
pub mod ordering;
pub mod picker;
pub mod play;
pub mod search;
pub mod sprt;
pub mod time;
pub mod tt;
pub mod tune;
pub mod usi;

pub use eval24::Weights;
pub use search::{Config, Control, Decision, Mode, SearchResult, Searcher};
pub use time::Limits;
