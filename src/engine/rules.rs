//! The entering-king rules the engine plays under, and the declaration verdict for the side
//! to move (rules of the engine, `EnteringKingRule` names of the seed design).
//!
//! Kept here until the position core exports its own rule judge; the names match it.
use std::fmt;
use std::str::FromStr;

use crate::shogi::{Color, PieceKind, Position, Square};

/// The entering-king rule variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnteringKingRule {
    NoEnteringKing,
    CSARule24,
    CSARule24H,
    CSARule27,
    CSARule27H,
    TryRule,
}

impl EnteringKingRule {
    pub const ALL: [EnteringKingRule; 6] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CSARule24,
        EnteringKingRule::CSARule24H,
        EnteringKingRule::CSARule27,
        EnteringKingRule::CSARule27H,
        EnteringKingRule::TryRule,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
            EnteringKingRule::CSARule24 => "CSARule24",
            EnteringKingRule::CSARule24H => "CSARule24H",
            EnteringKingRule::CSARule27 => "CSARule27",
            EnteringKingRule::CSARule27H => "CSARule27H",
            EnteringKingRule::TryRule => "TryRule",
        }
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EnteringKingRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown entering-king rule `{s}`"))
    }
}

/// What declaring would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclarationOutcome {
    Win,
    Draw,
    /// Declaring loses.
    Illegal,
    /// The rule has no declaration.
    NotApplicable,
}

/// The declaration verdict for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeclarationEvaluation {
    pub outcome: DeclarationOutcome,
}

/// Points White's threshold drops by in a handicap game (pieces missing from the full set).
fn handicap_reduction(pos: &Position) -> i32 {
    let mut total = 0;
    for sq in Square::ALL {
        if let Some(p) = pos.piece_at(sq) {
            total += 1;
            if matches!(
                p.kind,
                PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
            ) {
                total += 4;
            }
        }
    }
    for c in Color::ALL {
        for k in PieceKind::HAND_KINDS {
            total += pos.hand(c).count(k) as i32 * k.points();
        }
    }
    (56 - total).max(0)
}

/// Judge a declaration by the side to move under `rule`.
pub fn evaluate_declaration(pos: &Position, rule: EnteringKingRule) -> DeclarationEvaluation {
    use DeclarationOutcome::*;
    let side = pos.side_to_move();
    let outcome = 'o: {
        if matches!(
            rule,
            EnteringKingRule::NoEnteringKing | EnteringKingRule::TryRule
        ) {
            break 'o NotApplicable;
        }
        if !pos.king_in_camp(side) || pos.is_in_check() || pos.zone_count(side) < 10 {
            break 'o Illegal;
        }
        let points = pos.declaration_points(side);
        let reduction = match (rule, side) {
            (EnteringKingRule::CSARule24H | EnteringKingRule::CSARule27H, Color::White) => {
                handicap_reduction(pos)
            }
            _ => 0,
        };
        match rule {
            EnteringKingRule::CSARule24 | EnteringKingRule::CSARule24H => {
                if pos.move_number() > 500 {
                    Illegal
                } else if points >= 31 - reduction {
                    Win
                } else if points >= 24 - reduction {
                    Draw
                } else {
                    Illegal
                }
            }
            _ => {
                let threshold = if side == Color::Black { 28 } else { 27 } - reduction;
                if points >= threshold { Win } else { Illegal }
            }
        }
    };
    DeclarationEvaluation { outcome }
}
