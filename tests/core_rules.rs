//! Repetition and perpetual check on a key history.
//!
//! A fourfold repetition where every move of one side gave check is a loss for that side,
//! whichever side is to move at the fourth occurrence (the seed design only caught the
//! case where the side in check is to move). Both variants are built here, for a Black
//! and for a White checker, next to a plain repetition without checks, and the reference
//! fourfold-repetition game of `fixtures/perft/move_sequences.txt`. Also one example of
//! every illegal-move kind.

mod core_support;

use core_support::{pos, sequence, usi};
use floodgate_scan::shogi::{Color, History, Position, RepetitionStatus};

/// Board, hands and side to move: the SFEN without its move number.
fn sfen_key(sfen: &str) -> String {
    sfen.rsplit_once(' ').unwrap().0.to_string()
}

#[test]
fn fourfold_repetition_found_at_the_right_ply() {
    let moves = sequence("repetition_4fold");
    // Independent count: occurrences of each SFEN (without move number) along the game.
    let mut p = Position::startpos();
    let mut counts = std::collections::HashMap::new();
    *counts.entry(sfen_key(&p.to_sfen())).or_insert(0) += 1;
    let mut fourth = None;
    for (i, m) in moves.iter().enumerate() {
        p.play(usi(m)).unwrap();
        let c = counts.entry(sfen_key(&p.to_sfen())).or_insert(0);
        *c += 1;
        if *c == 4 && fourth.is_none() {
            fourth = Some(i + 1);
        }
    }
    let fourth = fourth.expect("the sequence repeats a position four times");
    assert_eq!(
        fourth,
        moves.len(),
        "the last move makes the fourth occurrence"
    );

    let mut p = Position::startpos();
    let mut h = History::new(&p);
    for (i, m) in moves.iter().enumerate() {
        p.play(usi(m))
            .unwrap_or_else(|k| panic!("ply {}: {m}: {k:?}", i + 1));
        h.push(&p);
        let status = h.repetition();
        if i + 1 < fourth {
            assert_eq!(status, RepetitionStatus::None, "ply {}: {m}", i + 1);
        } else {
            assert_eq!(status, RepetitionStatus::Draw, "ply {}: {m}", i + 1);
        }
    }
    // Taking the last move back leaves a position seen only three times.
    h.pop();
    assert_eq!(h.repetition(), RepetitionStatus::None);
}

/// Play `cycle` `times` times from `sfen`, returning the status after every ply.
fn statuses(sfen: &str, cycle: &[&str], times: usize) -> Vec<RepetitionStatus> {
    let mut p = pos(sfen);
    let mut h = History::new(&p);
    let mut out = Vec::new();
    for _ in 0..times {
        for m in cycle {
            p.play(usi(m))
                .unwrap_or_else(|k| panic!("{sfen}: {m}: {k:?}"));
            h.push(&p);
            out.push(h.repetition());
        }
    }
    out
}

/// The last ply of three cycles is the fourth occurrence of the start position; nothing
/// before it ends the game.
fn assert_ends_with(all: &[RepetitionStatus], last: RepetitionStatus) {
    let (end, before) = all.split_last().unwrap();
    for (i, s) in before.iter().enumerate() {
        assert_eq!(*s, RepetitionStatus::None, "ply {}", i + 1);
    }
    assert_eq!(*end, last);
}

const BLACK_CHECKS: &str = "8k/R8/9/9/9/9/9/9/4K4 b - 1";

/// Black checks with the rook on every move; at the fourth occurrence Black (the checker)
/// is to move. The seed design calls it a draw: it is Black's loss.
#[test]
fn perpetual_check_checker_to_move_black() {
    let s = statuses(BLACK_CHECKS, &["9b9a", "1a1b", "9a9b", "1b1a"], 3);
    assert_eq!(s.len(), 12);
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::Black));
}

/// The same cycle entered one ply later: White (in check) is to move at the fourth
/// occurrence. Still Black's loss.
#[test]
fn perpetual_check_checked_side_to_move_black() {
    let s = statuses(
        "R7k/9/9/9/9/9/9/9/4K4 w - 2",
        &["1a1b", "9a9b", "1b1a", "9b9a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::Black));
}

/// The board turned round: White checks, White to move at the fourth occurrence.
#[test]
fn perpetual_check_checker_to_move_white() {
    let s = statuses(
        "4k4/9/9/9/9/9/9/8r/K8 w - 1",
        &["1h1i", "9i9h", "1i1h", "9h9i"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::White));
}

/// White checks, Black (in check) to move at the fourth occurrence.
#[test]
fn perpetual_check_checked_side_to_move_white() {
    let s = statuses(
        "4k4/9/9/9/9/9/9/9/K7r b - 2",
        &["9i9h", "1i1h", "9h9i", "1h1i"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::PerpetualCheckLoss(Color::White));
}

/// The same king walk without checks is a plain draw at the fourth occurrence.
#[test]
fn repetition_without_checks_is_a_draw() {
    // The rook stays on file 9 away from the White king's ranks: no move checks.
    let s = statuses(
        "8k/9/9/9/R8/9/9/9/4K4 b - 1",
        &["9e9f", "1a1b", "9f9e", "1b1a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::Draw);
}

/// Checks by one side only on some moves of the cycle are not perpetual: a draw.
#[test]
fn intermittent_checks_are_a_draw() {
    // 9c9a checks the king on 1a along rank a; 9a9c does not reach the king on 1b.
    let s = statuses(
        "8k/9/R8/9/9/9/9/9/4K4 b - 1",
        &["9c9a", "1a1b", "9a9c", "1b1a"],
        3,
    );
    assert_ends_with(&s, RepetitionStatus::Draw);
}

/// Undoing the repeating move undoes the verdict.
#[test]
fn pop_restores_the_previous_status() {
    let mut p = pos(BLACK_CHECKS);
    let mut h = History::new(&p);
    let cycle = ["9b9a", "1a1b", "9a9b", "1b1a"];
    for _ in 0..3 {
        for m in cycle {
            p.play(usi(m)).unwrap();
            h.push(&p);
        }
    }
    assert_eq!(
        h.repetition(),
        RepetitionStatus::PerpetualCheckLoss(Color::Black)
    );
    h.pop();
    assert_eq!(h.repetition(), RepetitionStatus::None);
}

/// One example of every illegal-move kind, named as the single-move check must name it;
/// play refuses the move and changes nothing.
#[test]
fn every_illegal_move_kind_is_named() {
    use floodgate_scan::shogi::IllegalMoveKind::*;
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let bare = "4k4/9/9/9/9/9/9/9/4K4";
    let cases = [
        (start.to_string(), "5e5d", NotOwnPiece),
        (start.to_string(), "3c3d", NotOwnPiece),
        (start.to_string(), "2h2c", CannotMove),
        (start.to_string(), "7g7e", CannotMove),
        (start.to_string(), "2h2g", OwnPieceOnDestination),
        (start.to_string(), "7g7f+", BadPromotion),
        (start.to_string(), "6i5h+", BadPromotion),
        (start.to_string(), "P*5e", NotInHand),
        (
            "4k4/L8/9/9/9/9/9/9/4K4 b - 1".to_string(),
            "9b9a",
            BadPromotion,
        ),
        (
            "4k4/9/N8/9/9/9/9/9/4K4 b - 1".to_string(),
            "9c8a",
            BadPromotion,
        ),
        (format!("{bare} b P 1"), "P*5i", DropOnOccupied),
        (
            "4k4/9/9/9/9/9/4P4/9/4K4 b P 1".to_string(),
            "P*5e",
            TwoPawns,
        ),
        (format!("{bare} b P 1"), "P*1a", DropStuck),
        (format!("{bare} b N 1"), "N*1b", DropStuck),
        (format!("{bare} w l 1"), "L*1i", DropStuck),
        (
            "7nk/7p1/8S/9/9/9/9/9/4K4 b P 1".to_string(),
            "P*1b",
            DropPawnMate,
        ),
        (
            "4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1".to_string(),
            "5h4h",
            IgnoredCheck,
        ),
        (
            "4k4/9/9/9/9/9/9/3r5/4K4 b - 1".to_string(),
            "5i5h",
            IgnoredCheck,
        ),
        (
            "4k4/4r4/9/9/9/9/9/9/3K5 b - 1".to_string(),
            "6i5i",
            IgnoredCheck,
        ),
    ];
    let mut kinds = std::collections::HashSet::new();
    for (sfen, m, kind) in cases {
        let mut p = pos(&sfen);
        let mv = usi(m);
        assert_eq!(p.legality(mv), Err(kind), "{sfen}: {m}");
        assert!(!p.legal_moves().contains(&mv), "{sfen}: {m}");
        let before = (p.to_sfen(), p.key());
        assert_eq!(p.play(mv).err(), Some(kind), "{sfen}: {m}");
        assert_eq!((p.to_sfen(), p.key()), before);
        kinds.insert(kind);
    }
    assert_eq!(kinds.len(), 10, "every kind has an example");
    // Checks that are legal: a pawn drop that checks but is not mate, an optional
    // non-promotion in the zone.
    let p = pos("8k/9/9/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.legality(usi("P*1b")), Ok(()));
    let p = pos("4k4/9/9/P8/9/9/9/9/4K4 b - 1");
    assert_eq!(p.legality(usi("9d9c")), Ok(()));
    assert_eq!(p.legality(usi("9d9c+")), Ok(()));
}

mod terminal {
    //! `terminal_status`: the seed's outcomes and reasons, first match wins in the order
    //! perpetual check, try rule, repetition draw, move limit, declaration, impasse.
    use super::*;
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
}
