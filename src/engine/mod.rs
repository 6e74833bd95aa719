//! The built-in engine: a full alpha-beta search with a hand-made evaluation, the 24-point
//! declaration engine and the USI protocol. It depends only on the position core
//! ([`crate::shogi`]); the games it plays for `replay`, `tune`, `validate` and `sprt` are
//! [`crate::lab`]'s.
//!
//! - [`eval`]: every evaluation the search calls: the hand-made one, the learned linear
//!   correction ([`eval::linear`]), the king-relative piece evaluation
//!   ([`eval::king_piece`]), the 24-point evaluation and its weights ([`eval::eval24`]),
//!   and the cache ([`eval::cache`]); [`guard`]: the mate guard of both modes; [`mate`]: the mate solver of `go mate`.
//! - [`search`]: iterative deepening PVS; [`tt`], [`ordering`], [`history`], [`picker`],
//!   [`time`]: its parts.
//! - [`usi`]: the protocol; [`mod@bench`]: the fixed benchmark.

#![warn(missing_docs)]

pub mod bench;
pub mod eval;
pub mod guard;
pub mod history;
pub mod mate;
pub mod ordering;
pub mod picker;
pub mod search;
pub mod time;
pub mod tt;
pub mod usi;

pub use eval::eval24::Weights;
pub use search::{Config, Control, Decision, Mode, SearchResult, Searcher};
pub use time::Limits;
