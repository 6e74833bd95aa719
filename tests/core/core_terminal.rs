//! `terminal_status`: the seed's outcomes and reasons, first match wins in the order
//! perpetual check, try rule, repetition draw, move limit, declaration, impasse.

use crate::core_support::{pos, usi};
use floodgate_scan::shogi::{Color, History};

/// Black gives check with the rook on every move of the cycle `9b9a 1a1b 9a9b 1b1a`.
const BLACK_CHECKS: &str = "8k/R8/9/9/9/9/9/9/4K4 b - 1";
use floodgate_scan::shogi::{
    EnteringKingRule, GameRules, ImpasseVerdict, TerminalOutcome, TerminalReason,
    impasse_adjudication, terminal_status,
};

fn rules(rule: EnteringKingRule, max: i32) -> GameRules {
    GameRules {
        entering_king_rule: rule,
        max_moves_to_draw: max,
    }
}

fn status(sfen: &str, moves: &[&str], r: GameRules) -> (TerminalOutcome, TerminalReason) {
    let mut p = pos(sfen);
    let mut h = History::new(&p);
    for m in moves {
        p.play(usi(m)).unwrap();
        h.push(&p);
    }
    let t = terminal_status(&p, &h, &r);
    (t.outcome, t.reason)
}

/// A four-ply cycle played three times.
fn cycle(four: [&'static str; 4]) -> Vec<&'static str> {
    four.iter().copied().cycle().take(12).collect()
}

#[test]
fn perpetual_check_outcome_for_the_side_to_move() {
    let r = rules(EnteringKingRule::CSARule24, 0);
    // Black (checker) to move at the fourth occurrence: a loss for the side to move.
    let m = cycle(["9b9a", "1a1b", "9a9b", "1b1a"]);
    assert_eq!(
        status(BLACK_CHECKS, &m, r),
        (TerminalOutcome::Loss, TerminalReason::PerpetualCheck)
    );
    // White (checked) to move: a win for the side to move.
    let s = "R7k/9/9/9/9/9/9/9/4K4 w - 2";
    let m = cycle(["1a1b", "9a9b", "1b1a", "9b9a"]);
    assert_eq!(
        status(s, &m, r),
        (TerminalOutcome::Win, TerminalReason::PerpetualCheck)
    );
}

#[test]
fn plain_repetition_and_move_limit() {
    let s = "8k/9/9/9/R8/9/9/9/4K4 b - 1";
    let m = cycle(["9e9f", "1a1b", "9f9e", "1b1a"]);
    let r = rules(EnteringKingRule::CSARule24, 0);
    assert_eq!(
        status(s, &m, r),
        (TerminalOutcome::Draw, TerminalReason::Repetition)
    );
    // Repetition comes before the move limit.
    let r = rules(EnteringKingRule::CSARule24, 5);
    assert_eq!(
        status(s, &m, r),
        (TerminalOutcome::Draw, TerminalReason::Repetition)
    );
    // Move limit: the position after ply N is a draw, unless the side to move is in check.
    let r = rules(EnteringKingRule::CSARule24, 4);
    assert_eq!(status(s, &m[..3], r).0, TerminalOutcome::None);
    assert_eq!(
        status(s, &m[..4], r),
        (TerminalOutcome::Draw, TerminalReason::MoveLimit)
    );
    let c = BLACK_CHECKS;
    let checks = ["9b9a", "1a1b", "9a9b"];
    let r = rules(EnteringKingRule::CSARule24, 3);
    assert_eq!(
        status(c, &checks, r).0,
        TerminalOutcome::None,
        "in check at the limit"
    );
    let r = rules(EnteringKingRule::CSARule24, 2);
    assert_eq!(
        status(c, &checks[..2], r),
        (TerminalOutcome::Draw, TerminalReason::MoveLimit)
    );
}

#[test]
fn declaration_and_try_rule() {
    let decl = "RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 5P 1";
    for rule in [EnteringKingRule::CSARule24, EnteringKingRule::CSARule27] {
        assert_eq!(
            status(decl, &[], rules(rule, 0)),
            (TerminalOutcome::Win, TerminalReason::DeclarationWin)
        );
    }
    // No declaration under the try rule or without entering-king rule.
    for rule in [EnteringKingRule::TryRule, EnteringKingRule::NoEnteringKing] {
        assert_eq!(
            status(decl, &[], rules(rule, 0)).0,
            TerminalOutcome::None,
            "{rule}"
        );
    }
    // Black's king reaches 5a: under the try rule White, to move, has lost.
    let s = "9/4K4/9/9/9/9/9/9/k8 b - 1";
    let r = rules(EnteringKingRule::TryRule, 0);
    assert_eq!(status(s, &[], r).0, TerminalOutcome::None);
    assert_eq!(
        status(s, &["5b5a"], r),
        (TerminalOutcome::Loss, TerminalReason::TryRule)
    );
    let r = rules(EnteringKingRule::CSARule24, 0);
    assert_eq!(status(s, &["5b5a"], r).0, TerminalOutcome::None);
}

#[test]
fn impasse_adjudication_on_its_own() {
    // Both kings in camp, nobody in check. Black owns 2R2B + 4 pawns = 24, White the
    // other 30.
    let s = "4K4/9/9/9/9/9/9/9/4k4 b 2R2B4P4g4s4n4l14p 1";
    let p = pos(s);
    assert_eq!(p.owned_points(Color::Black), 24);
    assert_eq!(p.owned_points(Color::White), 30);
    assert_eq!(
        impasse_adjudication(&p, EnteringKingRule::CSARule24),
        ImpasseVerdict::Draw
    );
    assert_eq!(
        impasse_adjudication(&p, EnteringKingRule::CSARule27),
        ImpasseVerdict::Win(Color::White)
    );
    assert_eq!(
        impasse_adjudication(&p, EnteringKingRule::NoEnteringKing),
        ImpasseVerdict::NotApplicable
    );
    // In terminal_status the impasse comes after the declaration (which fails here:
    // nothing in the camp).
    let t = status(s, &[], rules(EnteringKingRule::CSARule27, 0));
    assert_eq!(t, (TerminalOutcome::Loss, TerminalReason::Impasse));
    // A king out of the camp: no impasse.
    let p = pos("9/4K4/9/9/9/9/9/9/4k4 b 2R2B4P4g4s4n4l14p 1");
    assert!(p.king_in_camp(Color::Black));
    let p = pos("9/9/9/4K4/9/9/9/9/4k4 b 2R2B4P4g4s4n4l14p 1");
    assert_eq!(
        impasse_adjudication(&p, EnteringKingRule::CSARule24),
        ImpasseVerdict::NotImpasse
    );
}
