//! Mate searches by checks: the attacker checks at every move, the defender tries every
//! legal evasion, and the checks come from the core ([`Position::generate_checks`]).
//!
//! - [`MateSearch`]: one bounded search that proves a mate within a
//!   number of plies. The root guard asks it for a first move; [`solve`] (`go mate`)
//!   deepens it for the shortest mate and its line with the longest defence.
//!   Iteration `n` of `go mate` proves or refutes a mate within `n` plies (1, 3, 5, ...);
//!   an iteration that never stopped at its length limit (no line still had a check when
//!   the limit came) has seen the whole tree: then there is no mate at any length. A node
//!   limit, a deadline and a stop flag end the search with `timeout`. Perpetual check
//!   cannot be a mate: a position repeated on the line ends it as a failure, and the
//!   core's move generation never drops a pawn to mate.
//! - [`Dfpn`]: a depth-first proof-number search for longer mates with few defences,
//!   its table shared between calls.
//!
//! [`Position::generate_checks`]: crate::shogi::Position::generate_checks
mod dfpn;
mod solver;

pub use dfpn::{Dfpn, Proof};
pub use solver::{MateAnswer, MateLimits, MateSearch, solve};
