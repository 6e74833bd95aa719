//! The referee: games between two players, judged move by move with the core's rules, in
//! one game loop whoever plays (the built-in engine in-process, outside USI engines as
//! processes, a test's stand-in).
//!
//! - [`game`]: the [`Player`] interface, the loop [`play`] from a start position to its
//!   end: a declaration (judged under the rule: a win, a declared draw under a 24-point
//!   rule, or an illegal declaration, the 500-move clause included), mate (no legal move),
//!   resignation, fourfold repetition and perpetual check, the try rule, the ply limit,
//!   and the failures of a player: an illegal or unreadable move (`illegal`), no answer in
//!   time (`timeout`), a process that ended (`engine_crash`), each a loss of the side that
//!   failed; the one [`Ending`] type, and the [`Observer`] that sees every position.
//! - [`usi::UsiEngine`]: one engine process with a deadline on every answer (the one USI
//!   client: the referee's players and the learning's teacher both speak through it).
//! - [`UsiPlayer`]: an engine command as a player, started again after a crash or a
//!   timeout.
//! - [`EnginePlayer`]: the built-in searcher as a player.
//! - With [`AutoDeclare`], the referee declares for the side to move at the first moment
//!   its declaration would win (or draw), so that an engine that does not know the rule
//!   still gets the ending the rule gives it; the game says who declared.
mod builtin;
pub mod game;
mod outcome;
mod player;
pub mod standin;
pub mod usi;

pub use builtin::EnginePlayer;
pub use game::{
    AutoDeclare, Declarer, Ending, Game, GameError, GameResult, GameView, NoObserver, Observer,
    Player, RefereeSettings, play,
};
pub use outcome::{ReplayEnding, SideStats};
pub use player::{EngineSpec, UsiPlayer};
