//! The learning tooling: labelled positions from games ([`generate`], labels by an outside
//! USI engine through [`teacher`], stored as [`record`]s), the fit of the linear correction
//! ([`fit`]) and of the king-relative piece evaluation ([`king_fit`]).
//!
//! The evaluations themselves live with the engine ([`crate::engine::eval::linear`],
//! [`crate::engine::eval::king_piece`]): the search never depends on this tooling.
pub mod fit;
pub mod generate;
pub mod king_fit;
pub mod record;
pub mod teacher;
