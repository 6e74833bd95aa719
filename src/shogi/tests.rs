//! Cross-checks of the core against itself: the fast legal generator against the
//! single-move legality check over every conceivable move, incremental state against
//! recomputation, undo against the position before, mate in one against brute force.

use super::*;

/// The tests' random choices, from the project's one generator ([`crate::rng`]).
struct XorShift64(crate::rng::XorShift64Star);

impl XorShift64 {
    fn new(seed: u64) -> XorShift64 {
        XorShift64(crate::rng::XorShift64Star::new(seed))
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
}

fn every_conceivable_move() -> Vec<Move> {
    let mut v = Vec::new();
    for from in Square::ALL {
        for to in Square::ALL {
            if from != to {
                v.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
                v.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
        }
    }
    for kind in PieceKind::ALL {
        for to in Square::ALL {
            v.push(Move::Drop { kind, to });
        }
    }
    v
}

fn sorted(mut v: Vec<Move>) -> Vec<String> {
    let mut s: Vec<String> = v.drain(..).map(|m| m.to_usi()).collect();
    s.sort();
    s
}

fn check_position(p: &Position, all: &[Move]) {
    let legal = p.legal_moves();
    let brute: Vec<Move> = all.iter().copied().filter(|&m| p.is_legal(m)).collect();
    assert_eq!(
        sorted(legal.to_vec()),
        sorted(brute),
        "legal set of {}",
        p.to_sfen()
    );
    assert_eq!(p.has_legal_move(), !legal.is_empty());
    assert_eq!(p.key(), p.compute_key());
    assert_eq!(Position::from_sfen(&p.to_sfen()).unwrap(), *p);
    let mut q = p.clone();
    let mut mate_exists = false;
    let checks = p.check_info();
    for &m in legal.iter() {
        let gives = p.gives_check(m);
        let u = q.play_unchecked(m);
        assert_eq!(q.key(), q.compute_key(), "key after {m} in {}", p.to_sfen());
        assert_eq!(q.is_in_check(), gives, "gives_check {m} in {}", p.to_sfen());
        assert_eq!(
            checks.gives_check(p, m),
            gives,
            "check_info {m} in {}",
            p.to_sfen()
        );
        let fresh = Position::from_sfen(&q.to_sfen()).unwrap();
        assert_eq!(
            q.checkers(),
            fresh.checkers(),
            "checkers after {m} in {}",
            p.to_sfen()
        );
        if !q.has_legal_move() {
            mate_exists = true;
        }
        q.undo(m, u);
        assert_eq!(q, *p, "undo {m}");
    }
    let found = solve_mate_in_one(p);
    assert_eq!(
        found.is_some(),
        mate_exists,
        "mate in one in {}",
        p.to_sfen()
    );
    if let Some(m) = found {
        assert!(p.is_legal(m));
        let mut r = p.clone();
        r.play(m).unwrap();
        assert!(r.legal_moves().is_empty());
        assert!(is_mated(&r));
        let mut s = p.clone();
        assert_eq!(solve_mate_in_one_in_place(&mut s), Some(m));
        assert_eq!(s, *p);
    }
}

#[test]
fn random_playouts_agree_with_brute_force() {
    let all = every_conceivable_move();
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
        "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
        "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ];
    let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
    let mut positions = 0;
    let mut mates = 0;
    for start in starts {
        for _game in 0..8 {
            let mut p = Position::from_sfen(start).unwrap();
            for _ply in 0..160 {
                check_position(&p, &all);
                positions += 1;
                mates += usize::from(solve_mate_in_one(&p).is_some());
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Prefer checks half of the time to reach positions with mates in one.
                let checks: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| p.gives_check(m))
                    .collect();
                let m = if !checks.is_empty() && rng.below(2) == 0 {
                    checks[rng.below(checks.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                p.play(m).unwrap();
            }
        }
    }
    assert!(positions > 1000, "only {positions} positions");
    assert!(mates > 20, "only {mates} positions with a mate in one");
}

fn pos(s: &str) -> Position {
    Position::from_sfen(s).unwrap()
}

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

#[test]
fn illegal_move_kinds() {
    let p = pos("3lkl3/9/3G1G3/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.legality(mv("P*5b")), Err(IllegalMoveKind::DropPawnMate));
    assert!(!p.legal_moves().contains(&mv("P*5b")));
    assert_eq!(p.legality(mv("P*5a")), Err(IllegalMoveKind::DropOnOccupied));
    assert_eq!(p.legality(mv("P*1a")), Err(IllegalMoveKind::DropStuck));
    assert_eq!(p.legality(mv("G*1a")), Err(IllegalMoveKind::NotInHand));
    assert_eq!(p.legality(mv("1a1b")), Err(IllegalMoveKind::NotOwnPiece));
    assert_eq!(p.legality(mv("4a4b")), Err(IllegalMoveKind::NotOwnPiece));
    assert_eq!(p.legality(mv("4c4e")), Err(IllegalMoveKind::CannotMove));
    assert_eq!(p.legality(mv("4c4b+")), Err(IllegalMoveKind::BadPromotion));
    assert_eq!(p.legality(mv("4c5c")), Ok(()));
    // A checking pawn drop that is not mate is legal.
    let p = pos("3lkl3/9/5G3/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.legality(mv("P*5b")), Ok(()));
    // Two pawns.
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(p.legality(mv("P*5e")), Err(IllegalMoveKind::TwoPawns));
    assert_eq!(p.legality(mv("P*4e")), Ok(()));
    // Compulsory promotion and own piece on destination.
    let p = pos("4k4/P8/9/9/9/9/9/8N/4K3L b - 1");
    assert_eq!(p.legality(mv("9b9a")), Err(IllegalMoveKind::BadPromotion));
    assert_eq!(p.legality(mv("9b9a+")), Ok(()));
    assert_eq!(p.legality(mv("1h2f")), Ok(()));
    assert_eq!(
        p.legality(mv("1i1h")),
        Err(IllegalMoveKind::OwnPieceOnDestination)
    );
    assert_eq!(p.legality(mv("1i1a")), Err(IllegalMoveKind::CannotMove));
    // Ignoring check, and moving a pinned piece off its line.
    let p = pos("4k4/9/9/9/4r4/9/4S4/9/4K4 b - 1");
    assert_eq!(p.legality(mv("5g4f")), Err(IllegalMoveKind::IgnoredCheck));
    assert_eq!(p.legality(mv("5i5h")), Ok(()));
    let p = pos("4k4/9/9/9/4r4/9/9/9/4K4 b G 1");
    assert_eq!(p.legality(mv("G*1a")), Err(IllegalMoveKind::IgnoredCheck));
    assert_eq!(p.legality(mv("G*5h")), Ok(()));
    assert_eq!(p.legality(mv("5i5h")), Err(IllegalMoveKind::IgnoredCheck));
    for k in IllegalMoveKind::ALL {
        assert!(!k.name().is_empty());
    }
}

#[test]
fn mate_in_one_examples() {
    let p = pos("3lkl3/9/3G1G3/9/9/9/9/9/4K4 b G 1");
    assert_eq!(solve_mate_in_one(&p), Some(mv("G*5b")));
    // Only a pawn in hand: the pawn-drop mate is no answer, the gold move is.
    let p = pos("3lkl3/9/3G1G3/9/9/9/9/9/4K4 b P 1");
    assert_eq!(solve_mate_in_one(&p), Some(mv("4c5b")));
    let p = pos("3lkl3/9/3G5/9/9/9/9/9/4K4 b P 1");
    assert_eq!(solve_mate_in_one(&p), None);
    // Board move mate.
    let p = pos("3lkl3/9/3G1G3/9/9/9/9/9/4K4 b - 1");
    assert!(solve_mate_in_one(&p).is_some());
    assert!(!is_mated(&p));
    // A rook dropped on the king's rank covers the flight square behind the king.
    let p = pos("2s2k1n1/2P6/l2s1G3/pp1G2pp1/P1N3+B1l/3bP1P1P/L4K1G1/1P2SPR2/1NG+n3SL b R7P 177");
    assert_eq!(solve_mate_in_one(&p), Some(mv("R*6a")));
}

#[test]
fn validation_reports_every_reason() {
    let e = Position::from_sfen("P3k3K/9/9/9/9/9/9/9/4K4 w 2P 1").unwrap_err();
    let PositionParseError::Position(PositionErrors(v)) = e else {
        panic!("{e}")
    };
    assert!(v.contains(&PositionError::KingCount {
        color: Color::Black,
        count: 2
    }));
    assert!(
        v.iter()
            .any(|e| matches!(e, PositionError::StuckPiece { .. }))
    );
    let e = Position::from_sfen("4k4/9/9/9/9/9/4P4/4P4/4K4 b 17P 1").unwrap_err();
    let PositionParseError::Position(PositionErrors(v)) = e else {
        panic!("{e}")
    };
    assert!(v.contains(&PositionError::TwoPawns {
        color: Color::Black,
        file: 5
    }));
    assert!(v.iter().any(|e| matches!(
        e,
        PositionError::TooManyPieces {
            kind: PieceKind::Pawn,
            ..
        }
    )));
    let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").map(|_| ());
    assert!(e.is_ok());
    let e = Position::from_sfen("4k4/9/9/9/4R4/9/9/9/4K4 b - 1").unwrap_err();
    assert!(e.to_string().contains("white"), "{e}");
    // The check is reported beside a wrong king count of the side to move.
    let e = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/3KK4 b - 1").unwrap_err();
    let PositionParseError::Position(PositionErrors(v)) = e else {
        panic!("{e}")
    };
    assert!(v.contains(&PositionError::KingCount {
        color: Color::Black,
        count: 2
    }));
    assert!(v.contains(&PositionError::OpponentInCheck(Color::White)));
    let e = Position::from_sfen("9/9/9/9/9/9/9/9/9 b 2B 1").unwrap_err();
    assert!(e.to_string().contains("kings"));
}

#[test]
fn csa_moves() {
    let p = Position::startpos();
    let m = p.move_from_csa(b"+7776FU").unwrap();
    assert_eq!(m, mv("7g7f"));
    assert_eq!(p.move_to_csa(m), "+7776FU");
    assert!(p.move_from_csa(b"-3334FU").is_err());
    assert!(p.move_from_csa(b"+7776F").is_err());
    assert!(p.move_from_csa(b"+0055OU").is_err());
    let p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    let m = p.move_from_csa(b"+8822UM").unwrap();
    assert_eq!(m, mv("8h2b+"));
    assert_eq!(
        p.captured_by(m),
        Some(Piece::new(Color::White, PieceKind::Bishop))
    );
    assert_eq!(
        p.piece_after(m),
        Some(Piece::new(Color::Black, PieceKind::Horse))
    );
    assert_eq!(p.captured_by(mv("1g1f")), None);
    assert_eq!(p.move_to_csa(m), "+8822UM");
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    let m = p.move_from_csa(b"+0055GI").unwrap();
    assert_eq!(m, mv("S*5e"));
    assert_eq!(p.move_to_csa(m), "+0055GI");
}

/// Every CSA move text over a grid of digits, non-digits, kinds and signs parses as a
/// plainly written reading of the format says, on a position with pieces, promoted
/// pieces and pieces in hand.
#[test]
fn csa_move_parsing_agrees_with_a_plain_reading() {
    fn plain(p: &Position, s: &[u8; 7]) -> Option<(Move, bool)> {
        let side = match s[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return None,
        };
        let digit = |b: u8| b.is_ascii_digit().then(|| b - b'0');
        let (ff, fr, tf, tr) = (digit(s[1])?, digit(s[2])?, digit(s[3])?, digit(s[4])?);
        let kind = PieceKind::ALL
            .into_iter()
            .find(|k| k.csa().as_bytes() == &s[5..7])?;
        let to = Square::new(tf, tr)?;
        if side != p.side_to_move() {
            return None;
        }
        if (ff, fr) == (0, 0) {
            return kind
                .is_hand_kind()
                .then_some((Move::Drop { kind, to }, true));
        }
        let from = Square::new(ff, fr)?;
        if from == to {
            return None;
        }
        let promote = p
            .piece_at(from)
            .is_some_and(|q| q.kind != kind && q.kind.promoted() == Some(kind));
        // The written piece is the origin's, as it is or promoted.
        let fits = p
            .piece_at(from)
            .is_some_and(|q| q.kind == kind || q.kind.promoted() == Some(kind));
        Some((Move::Normal { from, to, promote }, fits))
    }
    let p = pos("ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76");
    let q = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    let digits = b"0123456789a/:";
    let mut checked = 0;
    for p in [&p, &q] {
        for sign in [b'+', b'-', b'*'] {
            for kind in [&b"FU"[..], b"TO", b"KA", b"UM", b"RY", b"OU", b"XX", b"Fu"] {
                for &a in digits {
                    for &b in digits {
                        for &c in digits {
                            for &d in digits {
                                let s = [sign, a, b, c, d, kind[0], kind[1]];
                                let got = p.parse_csa_move(&s).ok();
                                assert_eq!(got, plain(p, &s), "{}", String::from_utf8_lossy(&s));
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 3 * 8 * 13usize.pow(4));
}

#[test]
fn malformed_text_never_panics() {
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let seeds = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    ];
    let alphabet = b"lnsgkbrpLNSGKBRP+/123456789 -bw0*";
    for _ in 0..20_000 {
        let mut s = seeds[rng.below(seeds.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(s.len());
            match rng.below(3) {
                0 => s[i] = alphabet[rng.below(alphabet.len())],
                1 => {
                    s.remove(i);
                }
                _ => s.insert(i, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text = String::from_utf8_lossy(&s);
        if let Ok(p) = Position::from_sfen(&text) {
            // Whatever parses is a consistent position.
            assert_eq!(p.key(), p.compute_key());
            let _ = p.legal_moves();
            let _ = solve_mate_in_one(&p);
            for r in EnteringKingRule::ALL {
                let _ = evaluate_declaration(&p, r);
                let _ = impasse_adjudication(&p, r);
            }
        }
        let _ = Move::from_usi(&text[..text.len().min(6)]);
    }
    let p = Position::startpos();
    let csa_alphabet = b"+-0123456789FUKYKEGIKIKAHIOUTONYNKNGUMRYAL ";
    for _ in 0..20_000 {
        let n = rng.below(10);
        let line: Vec<u8> = (0..n)
            .map(|_| csa_alphabet[rng.below(csa_alphabet.len())])
            .collect();
        let _ = p.move_from_csa(&line);
        let mut block = line.clone();
        block.insert(0, b'P');
        let _ = Setup::from_csa_lines([&block[..], &line[..]]).map(Position::from_setup);
    }
}
