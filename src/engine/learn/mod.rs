//! A learned evaluation: labelled positions from games ([`generate`], labels by an outside
//! USI engine through [`teacher`], stored as [`record`]s), a linear model over king-relative
//! and square-control features ([`linear`]) and its fit ([`fit`]).
//!
//! The search uses it through [`linear::evaluate`] with a [`linear::LinearWeights`]
//! (loaded by [`linear::LinearWeights::parse`]).
pub mod fit;
pub mod generate;
pub mod king_fit;
pub mod linear;
pub mod record;
pub mod teacher;
