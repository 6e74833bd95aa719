//! CSA notation of moves and board squares for a [`Position`]: reading a move
//! (`+7776FU`, `-0055KA`; promotion inferred from the piece on the origin), writing one,
//! and a square as the CSA board prints it. Syntax and plausibility only: legality is the
//! position's ([`Position::legality`]).

use super::position::PROMOTED_KIND;
use super::{Color, Move, PieceKind, Position, Square};

/// A CSA move text that cannot be a move in this position (syntax and plausibility only).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CsaMoveError {
    /// The text (held, decoded lossily) is not a sign, an origin, a destination and a
    /// piece code: a wrong length, a bad sign or digit, an unknown piece code, an origin
    /// with only one zero digit, or an origin equal to the destination.
    #[error("bad CSA move `{0}`: expected a sign, two squares and a piece, e.g. +7776FU")]
    Syntax(String),
    /// The sign (`+` or `-`) of the text (held, decoded lossily) is not that of the side
    /// to move.
    #[error("bad CSA move `{0}`: the sign is not the side to move")]
    WrongSide(String),
    /// The text (held, decoded lossily) drops (origin `00`) a piece that cannot be held
    /// in hand: a king or a promoted kind.
    #[error("bad CSA move `{0}`: this piece cannot be dropped")]
    BadDrop(String),
}

/// What is wrong with a CSA move text: the cheap form of [`CsaMoveError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CsaMoveFault {
    Syntax,
    WrongSide,
    BadDrop,
}

impl CsaMoveFault {
    #[cold]
    fn with_text(self, s: &[u8]) -> CsaMoveError {
        let text = String::from_utf8_lossy(s).into_owned();
        match self {
            CsaMoveFault::Syntax => CsaMoveError::Syntax(text),
            CsaMoveFault::WrongSide => CsaMoveError::WrongSide(text),
            CsaMoveFault::BadDrop => CsaMoveError::BadDrop(text),
        }
    }
}

impl Position {
    /// The square with index `sq` (0..81) as the CSA board prints it: `+FU`, ` * `.
    #[inline(always)]
    pub(crate) fn csa_cell(&self, sq: usize) -> &'static [u8; 3] {
        &super::piece::CSA_CELLS[usize::from(self.board[sq] & 31)]
    }

    /// Read a CSA move (`+7776FU`, `-0055KA`): the piece is the one after the move, so
    /// promotion is inferred from the piece on the origin. Legality is not checked; a
    /// piece code that does not fit the origin piece gives a plain (non-promoting) move.
    pub fn move_from_csa(&self, s: &[u8]) -> Result<Move, CsaMoveError> {
        self.parse_csa_move(s)
            .map(|(m, _)| m)
            .map_err(|fault| fault.with_text(s))
    }

    /// [`Position::move_from_csa`] without building an error text, also telling whether
    /// the piece written is the one on the origin, as it is or promoted (always true for a
    /// drop; false for an empty origin).
    #[inline(always)]
    pub(crate) fn parse_csa_move(&self, s: &[u8]) -> Result<(Move, bool), CsaMoveFault> {
        use CsaMoveFault::{BadDrop, Syntax, WrongSide};
        let &[sign, ff, fr, tf, tr, k0, k1] = s else {
            return Err(Syntax);
        };
        let color = match sign {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(Syntax),
        };
        // Digits as values (a non-digit becomes a value above 9).
        let [ff, fr, tf, tr] = [ff, fr, tf, tr].map(|b| b.wrapping_sub(b'0'));
        if ff > 9 || fr > 9 || tf.wrapping_sub(1) > 8 || tr.wrapping_sub(1) > 8 {
            return Err(Syntax);
        }
        let to = Square::ALL[usize::from(tf - 1) * 9 + usize::from(tr - 1)];
        let kind = PieceKind::from_csa(&[k0, k1]).ok_or(Syntax)?;
        if color != self.side {
            return Err(WrongSide);
        }
        if ff == 0 && fr == 0 {
            if !kind.is_hand_kind() {
                return Err(BadDrop);
            }
            return Ok((Move::Drop { kind, to }, true));
        }
        if ff == 0 || fr == 0 {
            return Err(Syntax);
        }
        let from = Square::ALL[usize::from(ff - 1) * 9 + usize::from(fr - 1)];
        if from == to {
            return Err(Syntax);
        }
        // A move names the piece after it: a different kind on the origin square means a
        // promotion when it is that kind's promoted form.
        // Board codes hold the kind's index + 1 in their low four bits (0: empty).
        let on = self.board[from.index()] & 15;
        let written = kind as u8 + 1;
        let promote = on != 0 && on != written && PROMOTED_KIND[usize::from(on - 1)] + 1 == written;
        Ok((Move::Normal { from, to, promote }, on == written || promote))
    }

    /// CSA text of a move of the side to move (`+7776FU`); the piece is named after the move.
    pub fn move_to_csa(&self, m: Move) -> String {
        let sign = self.side.csa();
        match m {
            Move::Drop { kind, to } => format!("{sign}00{}{}", to.to_csa(), kind.csa()),
            Move::Normal { from, to, promote } => {
                let kind = self
                    .piece_at(from)
                    .map(|p| p.kind)
                    .unwrap_or(PieceKind::Pawn);
                let kind = if promote {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                };
                format!("{sign}{}{}{}", from.to_csa(), to.to_csa(), kind.csa())
            }
        }
    }
}
