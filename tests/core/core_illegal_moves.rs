//! Illegal moves: one example of every kind the single-move check names, refused by play
//! without changing the position.

use crate::core_support::{pos, usi};

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
