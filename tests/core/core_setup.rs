//! Setups and their validation: a position is refused with every reason at once, SFEN and
//! CSA position blocks describe the same setups, and a CSA block round-trips through the
//! core against the oracle's reading of the same SFEN.

use crate::core_support::pos;
use floodgate_scan::shogi::{Color, Position, PositionError, Setup};

fn csa(lines: &[&str]) -> Setup {
    let bytes: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    Setup::from_csa_lines(bytes).unwrap_or_else(|e| panic!("{lines:?}: {e:?}"))
}

fn reasons(sfen: &str) -> Vec<PositionError> {
    let setup = Setup::from_sfen(sfen).expect("readable SFEN");
    match Position::from_setup(setup) {
        Ok(_) => panic!("{sfen} accepted"),
        Err(e) => e.0,
    }
}

/// Several faults in one setup: all of them are reported, not only the first.
#[test]
fn every_reason_is_reported() {
    // Two Black pawns on file 5, a Black pawn on rank a (stuck), three bishops, and White
    // (not to move) in check from a Black rook on its file.
    let errors = reasons("P3k4/4R4/9/9/4P4/9/4P4/9/4KB3 b 2B 1");
    let has = |f: &dyn Fn(&PositionError) -> bool| errors.iter().any(f);
    assert!(
        has(&|e| matches!(
            e,
            PositionError::TwoPawns {
                color: Color::Black,
                file: 5
            }
        )),
        "{errors:?}"
    );
    assert!(
        has(&|e| matches!(e, PositionError::StuckPiece { .. })),
        "{errors:?}"
    );
    assert!(
        has(&|e| matches!(e, PositionError::TooManyPieces { .. })),
        "{errors:?}"
    );
    assert!(
        has(&|e| matches!(e, PositionError::OpponentInCheck(Color::White))),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 4, "{errors:?}");
    // Three Black kings and none for White.
    let errors = reasons("9/9/9/9/9/9/9/9/3KKK3 b - 1");
    assert!(errors.contains(&PositionError::KingCount {
        color: Color::Black,
        count: 3
    }));
    assert!(errors.contains(&PositionError::KingCount {
        color: Color::White,
        count: 0
    }));
}

/// Regression: White, not to move, is in check and Black has two kings; the check was
/// only looked for when both sides had exactly one king.
#[test]
fn check_reported_beside_a_wrong_king_count() {
    let errors = reasons("4k4/4R4/9/9/9/9/9/9/3KK4 b - 1");
    assert!(errors.contains(&PositionError::KingCount {
        color: Color::Black,
        count: 2
    }));
    assert!(
        errors.contains(&PositionError::OpponentInCheck(Color::White)),
        "{errors:?}"
    );
}

#[test]
fn invalid_setups_are_refused() {
    for sfen in [
        "9/9/9/9/9/9/9/9/9 b - 1",       // no kings
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1", // too many pawns
        "4k4/9/9/9/9/9/9/9/4K4 b - 0",   // move number 0
        "N3k4/9/9/9/9/9/9/9/4K4 b - 1",  // Black knight on rank a
        "4k4/9/9/9/9/9/9/9/4K3l w - 1",  // White lance on rank i
        "4k4/9/9/9/9/9/9/n8/4K4 b - 1",  // White knight on rank h
    ] {
        assert!(Position::from_sfen(sfen).is_err(), "{sfen} accepted");
    }
    // A tokin does not count for two pawns; a Black knight on rank i may stand.
    pos("4k4/9/9/9/4+P4/9/4P4/9/N3K4 b - 1");
}

#[test]
fn csa_blocks_equal_sfen() {
    let hirate = csa(&["PI", "+"]);
    assert_eq!(hirate.to_sfen(), Position::startpos().to_sfen());
    // Rook-down handicap: White's rook removed, White moves first.
    let rook_down = csa(&["PI82HI", "-"]);
    assert_eq!(
        rook_down.to_sfen(),
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let two_piece = csa(&["PI82HI22KA", "-"]);
    assert_eq!(
        two_piece.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // Explicit board lines with hands, and 00AL giving every remaining piece to White.
    let empty = " * ".repeat(9);
    let row = |n: u8, file: usize, piece: &str| {
        let mut cells = [" * "; 9];
        cells[9 - file] = piece;
        format!("P{n}{}", cells.concat())
    };
    let mut block: Vec<String> = vec![row(1, 5, "-OU")];
    block.extend((2..=8).map(|n| format!("P{n}{empty}")));
    block.push(row(9, 5, "+OU"));
    block.extend([
        "P+00HI00KA00FU".to_string(),
        "P-00AL".to_string(),
        "+".to_string(),
    ]);
    let block: Vec<&str> = block.iter().map(String::as_str).collect();
    let s = csa(&block);
    assert_eq!(s.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b RBPrb4g4s4n4l17p 1");
    let p = Position::from_setup(s).unwrap();
    assert_eq!(
        p.owned_points(Color::Black) + p.owned_points(Color::White),
        54
    );
    // Placing pieces with P+ / P- lines on an empty board.
    let s = csa(&["P+59OU77FU", "P-51OU", "-"]);
    assert_eq!(s.to_sfen(), "4k4/9/9/9/9/9/2P6/9/4K4 w - 1");
}

#[test]
fn bad_csa_blocks_are_errors() {
    let bad: [&[&str]; 4] = [
        &["PI99XX", "+"],
        &["P1-KY-KE-GI-KI-OU-KI-GI-KE", "+"],
        &["P+00ZZ", "+"],
        &["P0 *  *  *  *  *  *  *  *  * ", "+"],
    ];
    for lines in bad {
        let bytes: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        assert!(Setup::from_csa_lines(bytes).is_err(), "{lines:?} accepted");
    }
}
