//! The shogi position core: vocabulary (sides, squares, pieces, hands, bitboards), the
//! unvalidated [`Setup`] with SFEN and CSA position blocks, the validated [`Position`]
//! with legal move generation, play and undo, the entering-king and repetition rules,
//! mate in one and perft; [`sets`] reads the piece sets in place for evaluations,
//! [`notation`] writes and reads CSA moves, [`positions_file`] reads a file of SFENs. No
//! I/O, no threads.

#![warn(missing_docs)]

mod attacks;
mod bitboard;
mod color;
mod hand;
mod mate;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod piece;
mod position;
pub mod positions_file;
mod repetition;
mod rules;
pub mod sets;
mod setup;
mod square;
mod zobrist;

pub use attacks::attacks_from;
pub use bitboard::{BitIter, Bitboard};
pub use color::Color;
pub use hand::Hand;
pub use mate::{
    is_mated, solve_mate_in_one, solve_mate_in_one_by_play, solve_mate_in_one_in_place,
};
pub use movegen::IllegalMoveKind;
pub use moves::{MAX_MOVES, Move, MoveList, UsiMoveError};
pub use notation::CsaMoveError;
pub use perft::{perft, perft_bulk, perft_divide};
pub use piece::{Piece, PieceKind};
pub use position::{
    CheckInfo, NullUndo, Position, PositionError, PositionErrors, PositionParseError, UndoInfo,
};
pub use repetition::{History, RepetitionStatus};
pub use rules::{
    DECLARATION_ZONE_PIECES, DeclarationEvaluation, DeclarationOutcome, EnteringKingRule,
    GameRules, ImpasseVerdict, RULE24_DRAW_POINTS, RULE24_LAST_MOVE, RULE24_WIN_POINTS,
    RULE27_BLACK_POINTS, RULE27_WHITE_POINTS, TOTAL_OWNED_POINTS, TerminalOutcome, TerminalReason,
    TerminalStatus, UnknownRule, can_declare_draw, can_declare_win, evaluate_declaration,
    handicap_deficit, impasse_adjudication, impasse_threshold, past_last_declaration_move,
    terminal_status, try_rule_reached,
};
pub use setup::{CsaPositionError, Setup, SfenError};
pub use square::Square;

#[cfg(test)]
mod tests;
