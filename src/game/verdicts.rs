//! What each entering-king rule would have decided in a game's final position: the
//! 27-point and 24-point declarations (either side, as if it were to move) and the
//! 24-point impasse, all judged by the core ([`evaluate_declaration`],
//! [`impasse_adjudication`]). The scan writes them as columns and the report counts them,
//! so a rule is stated once, in the core.

use super::words::RuleVerdict;
use crate::shogi::{
    Color, DECLARATION_ZONE_PIECES, DeclarationOutcome, EnteringKingRule, ImpasseVerdict, Position,
    evaluate_declaration, impasse_adjudication,
};

/// The three rules' verdicts on one final position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinalVerdicts {
    /// A declaration under the 27-point rule (`CSARule27`).
    pub rule27: RuleVerdict,
    /// A declaration under the 24-point rule (`CSARule24`), its move-number clause
    /// included: a draw when a side could declare only a draw.
    pub rule24: RuleVerdict,
    /// An impasse adjudicated under the 24-point rule: both kings in the enemy camp, the
    /// side to move not in check, 24 owned points each to draw.
    pub impasse24: RuleVerdict,
}

/// The verdicts of the three rules in `pos`.
pub fn final_verdicts(pos: &Position) -> FinalVerdicts {
    FinalVerdicts {
        rule27: declaration_verdict(pos, EnteringKingRule::CSARule27),
        rule24: declaration_verdict(pos, EnteringKingRule::CSARule24),
        impasse24: match impasse_adjudication(pos, EnteringKingRule::CSARule24) {
            ImpasseVerdict::Win(Color::Black) => RuleVerdict::Black,
            ImpasseVerdict::Win(Color::White) => RuleVerdict::White,
            ImpasseVerdict::Draw => RuleVerdict::Draw,
            _ => RuleVerdict::Nothing,
        },
    }
}

/// A side's win when its declaration wins, else a draw when either side's declaration
/// draws, else nothing.
fn declaration_verdict(pos: &Position, rule: EnteringKingRule) -> RuleVerdict {
    let black = declaration_by(pos, rule, Color::Black);
    let white = declaration_by(pos, rule, Color::White);
    match (black, white) {
        (DeclarationOutcome::Win, _) => RuleVerdict::Black,
        (_, DeclarationOutcome::Win) => RuleVerdict::White,
        (DeclarationOutcome::Draw, _) | (_, DeclarationOutcome::Draw) => RuleVerdict::Draw,
        _ => RuleVerdict::Nothing,
    }
}

/// The core's verdict on a declaration by `side` in `pos`, as if `side` were to move (the
/// same board, hands and move number). A side whose king is outside the enemy camp or
/// with too few pieces there cannot declare, whoever is to move; a position where the side
/// not to move would be in check with the turn handed over is no position to declare in.
fn declaration_by(pos: &Position, rule: EnteringKingRule, side: Color) -> DeclarationOutcome {
    if side == pos.side_to_move() {
        return evaluate_declaration(pos, rule).outcome;
    }
    if !pos.king_in_camp(side) || pos.zone_count(side) < DECLARATION_ZONE_PIECES {
        return DeclarationOutcome::Illegal;
    }
    let mut setup = pos.to_setup();
    setup.side_to_move = side;
    match Position::from_setup(setup) {
        Ok(turned) => evaluate_declaration(&turned, rule).outcome,
        Err(_) => DeclarationOutcome::Illegal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RuleVerdict::{Black, Draw, Nothing, White};

    fn verdicts(sfen: &str) -> (RuleVerdict, RuleVerdict, RuleVerdict) {
        let v = final_verdicts(&Position::from_sfen(sfen).unwrap());
        (v.rule27, v.rule24, v.impasse24)
    }

    // Black's king on 5a with 9 pawns on rank b and a rook and a bishop on rank c (11
    // pieces in the camp); in hand 4 golds, 4 silvers, 2 knights, 2 lances, 3 pawns:
    // 34 declaration points, 34 owned. White's king on 5i, the other 20 points in hand.
    const BLACK_34: &str = "4K4/PPPPPPPPP/RB7/9/9/9/9/9/4k4 b 4G4S2N2L3Prb2n2l6p";

    #[test]
    fn a_declaration_wins_under_both_rules_and_the_impasse() {
        // Black to move at move 100: 34 >= 28 (27-point), 34 >= 31 (24-point), owns 34
        // >= 24 and White 20 < 24 (impasse).
        assert_eq!(verdicts(&format!("{BLACK_34} 100")), (Black, Black, Black));
        // White to move: Black is judged as if to move, the same verdicts.
        assert_eq!(
            verdicts(&format!("{BLACK_34} 100").replace(" b ", " w ")),
            (Black, Black, Black)
        );
        // The colour-flipped twin: White wins (27 needed under the 27-point rule).
        let twin = Position::from_sfen(&format!("{BLACK_34} 100"))
            .unwrap()
            .flipped();
        let v = final_verdicts(&twin);
        assert_eq!((v.rule27, v.rule24, v.impasse24), (White, White, White));
    }

    #[test]
    fn the_24_point_move_clause_and_draw_band() {
        // Move 500 is the last a 24-point declaration may be made at; 501 is past it.
        assert_eq!(verdicts(&format!("{BLACK_34} 500")).1, Black);
        assert_eq!(
            verdicts(&format!("{BLACK_34} 501")),
            (Black, Nothing, Black)
        );
        // Four silvers handed to White: Black 30 points (27-point win: 30 >= 28; 24-point:
        // 24..=30 declares a draw), owned 30 and 24: both reach 24, an impasse draw.
        let draw = "4K4/PPPPPPPPP/RB7/9/9/9/9/9/4k4 b 4G2N2L3Prb4s2n2l6p 100";
        assert_eq!(verdicts(draw), (Black, Draw, Draw));
    }

    #[test]
    fn too_few_pieces_in_the_camp_or_a_king_outside_decides_nothing() {
        // The rook and bishop in hand: 9 pieces in the camp, still 34 points.
        let nine = "4K4/PPPPPPPPP/9/9/9/9/9/9/4k4 b RB4G4S2N2L3Prb2n2l6p 100";
        assert_eq!(verdicts(nine), (Nothing, Nothing, Black));
        // White's king on 4f, outside its camp: no impasse.
        let out = "4K4/PPPPPPPPP/RB7/9/9/5k3/9/9/9 b 4G4S2N2L3Prb2n2l6p 100";
        assert_eq!(verdicts(out), (Black, Black, Nothing));
    }
}
