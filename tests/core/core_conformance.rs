//! Declaration (entering-king) conformance of the position core.
//!
//! The 46 labelled cases of `fixtures/positions/conformance.tsv`: every column (zone
//! count, declaration points, king in camp, in check, move number) is recomputed both by
//! the core and by a small SFEN reader written here, the 24-point verdict of the file is
//! reproduced, the same positions are judged under the 27-point rule against a table
//! derived here from the rule text, and the side not to move can never declare. Also the
//! handicap thresholds (rook-down: White needs 26 under 24H, 22 under 27H).

use crate::core_support::{pos, read_fixture};
use floodgate_scan::shogi::{
    Color, DeclarationOutcome, EnteringKingRule, Position, evaluate_declaration,
};

/// One row of `conformance.tsv`.
#[derive(Debug)]
struct Row {
    sfen: String,
    declarer: Color,
    category: String,
    expected: DeclarationOutcome,
    zone: i32,
    points: i32,
    king_in_camp: bool,
    in_check: bool,
    move_number: u32,
}

fn rows() -> Vec<Row> {
    let rows: Vec<Row> = read_fixture("positions/conformance.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 10, "{l}");
            Row {
                sfen: c[0].to_string(),
                declarer: match c[1] {
                    "b" => Color::Black,
                    "w" => Color::White,
                    other => panic!("declarer {other}"),
                },
                category: c[2].to_string(),
                expected: match c[3] {
                    "win" => DeclarationOutcome::Win,
                    "draw" => DeclarationOutcome::Draw,
                    "-" => DeclarationOutcome::Illegal,
                    other => panic!("expected {other}"),
                },
                zone: c[4].parse().unwrap(),
                points: c[5].parse().unwrap(),
                king_in_camp: c[6] == "1",
                in_check: c[7] == "1",
                move_number: c[8].parse().unwrap(),
            }
        })
        .collect();
    assert_eq!(rows.len(), 46);
    rows
}

/// What a small independent reading of the SFEN text says about one side.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    owned: i32,
    declaration_points: i32,
    zone: i32,
    king_in_camp: bool,
}

fn value(letter: char) -> i32 {
    match letter.to_ascii_uppercase() {
        'K' => 0,
        'R' | 'B' => 5,
        _ => 1,
    }
}

/// Pieces of the board as (file, rank, is_black, letter), plus the hands of both sides as
/// (is_black, letter, count), read straight from the SFEN text.
#[allow(clippy::type_complexity)]
fn read_sfen(sfen: &str) -> (Vec<(u8, u8, bool, char)>, Vec<(bool, char, i32)>, char, u32) {
    let f: Vec<&str> = sfen.split(' ').collect();
    let mut board = Vec::new();
    for (r, rank) in f[0].split('/').enumerate() {
        let mut file = 9u8;
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                file -= d as u8;
            } else if ch != '+' {
                board.push((file, r as u8 + 1, ch.is_ascii_uppercase(), ch));
                file = file.wrapping_sub(1);
            }
        }
    }
    let mut hands = Vec::new();
    if f[2] != "-" {
        let mut n = 0;
        for ch in f[2].chars() {
            if let Some(d) = ch.to_digit(10) {
                n = n * 10 + d as i32;
            } else {
                hands.push((ch.is_ascii_uppercase(), ch, n.max(1)));
                n = 0;
            }
        }
    }
    (
        board,
        hands,
        f[1].chars().next().unwrap(),
        f[3].parse().unwrap(),
    )
}

fn counts(sfen: &str, side: Color) -> Counts {
    let black = side == Color::Black;
    let in_camp = |rank: u8| if black { rank <= 3 } else { rank >= 7 };
    let (board, hands, _, _) = read_sfen(sfen);
    let mut c = Counts {
        owned: 0,
        declaration_points: 0,
        zone: 0,
        king_in_camp: false,
    };
    for &(_, rank, is_black, letter) in &board {
        if is_black != black {
            continue;
        }
        c.owned += value(letter);
        if letter.eq_ignore_ascii_case(&'k') {
            c.king_in_camp = in_camp(rank);
        } else if in_camp(rank) {
            c.zone += 1;
            c.declaration_points += value(letter);
        }
    }
    for &(is_black, letter, n) in &hands {
        if is_black == black {
            c.owned += value(letter) * n;
            c.declaration_points += value(letter) * n;
        }
    }
    c
}

/// Handicap reduction of White's threshold per the rule text: total = every piece on the
/// board (kings included) + 4 per rook, bishop, dragon, horse on the board + hand points
/// of both sides; White's threshold drops by 56 - total.
fn handicap_reduction(sfen: &str) -> i32 {
    let (board, hands, _, _) = read_sfen(sfen);
    let mut total = 0;
    for &(_, _, _, letter) in &board {
        total += 1;
        if matches!(letter.to_ascii_uppercase(), 'R' | 'B') {
            total += 4;
        }
    }
    for &(_, letter, n) in &hands {
        total += value(letter) * n;
    }
    56 - total
}

/// The 24-point rule as written: king in camp, not in check, >= 10 pieces in the camp,
/// SFEN move number <= 500; then >= 31 wins, 24..=30 draws, <= 23 loses.
fn ref24(r: &Row) -> DeclarationOutcome {
    if !r.king_in_camp || r.in_check || r.zone < 10 || r.move_number > 500 {
        return DeclarationOutcome::Illegal;
    }
    match r.points {
        p if p >= 31 => DeclarationOutcome::Win,
        p if p >= 24 => DeclarationOutcome::Draw,
        _ => DeclarationOutcome::Illegal,
    }
}

/// The 27-point rule as floodgate applies it: king in camp, not in check, >= 10 pieces in
/// the camp, Black needs 28 and White 27 (minus the handicap reduction under 27H); no draw
/// band, no move clause. Below the threshold, declaring loses.
fn ref27(r: &Row, reduction: i32) -> DeclarationOutcome {
    let need = match r.declarer {
        Color::Black => 28,
        Color::White => 27 - reduction,
    };
    if r.king_in_camp && !r.in_check && r.zone >= 10 && r.points >= need {
        DeclarationOutcome::Win
    } else {
        DeclarationOutcome::Illegal
    }
}

#[test]
fn columns_recomputed() {
    for r in rows() {
        let p = pos(&r.sfen);
        let mine = counts(&r.sfen, r.declarer);
        let (_, _, side, move_number) = read_sfen(&r.sfen);
        // The file's columns agree with an independent reading of the SFEN ...
        assert_eq!(
            (mine.zone, mine.declaration_points, mine.king_in_camp),
            (r.zone, r.points, r.king_in_camp),
            "{}",
            r.sfen
        );
        assert_eq!(move_number, r.move_number);
        assert_eq!(side == 'b', r.declarer == Color::Black);
        // ... and the core recomputes every column.
        let d = r.declarer;
        assert_eq!(p.side_to_move(), d, "{}", r.sfen);
        assert_eq!(p.zone_count(d), r.zone, "zone {}", r.sfen);
        assert_eq!(p.declaration_points(d), r.points, "points {}", r.sfen);
        assert_eq!(p.king_in_camp(d), r.king_in_camp, "king {}", r.sfen);
        assert_eq!(p.is_in_check(), r.in_check, "check {}", r.sfen);
        assert_eq!(p.move_number(), r.move_number, "move number {}", r.sfen);
        // Owned points and the other side's counts as well.
        for c in Color::ALL {
            let m = counts(&r.sfen, c);
            assert_eq!(p.owned_points(c), m.owned, "owned {c:?} {}", r.sfen);
            assert_eq!(p.declaration_points(c), m.declaration_points, "{}", r.sfen);
            assert_eq!(p.zone_count(c), m.zone, "{}", r.sfen);
            assert_eq!(p.king_in_camp(c), m.king_in_camp, "{}", r.sfen);
            assert!(p.declaration_points(c) <= p.owned_points(c));
        }
    }
}

#[test]
fn rule24_verdicts_reproduced() {
    for r in rows() {
        // The label of the file is the rule text as read here.
        assert_eq!(
            ref24(&r),
            r.expected,
            "reference reading of {} ({})",
            r.sfen,
            r.category
        );
        let p = pos(&r.sfen);
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24);
        assert_eq!(e.outcome, r.expected, "{} ({}): {e:?}", r.sfen, r.category);
        assert_eq!(e.side, r.declarer);
        assert_eq!(e.rule, EnteringKingRule::CSARule24);
        assert_eq!(e.zone_count, r.zone);
        assert_eq!(e.points, r.points);
        assert_eq!(e.king_in_camp, r.king_in_camp);
        assert_eq!(e.in_check, r.in_check);
        assert_eq!(e.threshold, 31);
        assert_eq!(e.draw_threshold, Some(24));
        assert_eq!(e.move_number_ok, r.move_number <= 500, "{}", r.sfen);
    }
}

#[test]
fn rule27_verdicts_match_the_rule_text() {
    let mut wins = 0;
    for r in rows() {
        let p = pos(&r.sfen);
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule27);
        assert_eq!(
            e.outcome,
            ref27(&r, 0),
            "{} ({}): {e:?}",
            r.sfen,
            r.category
        );
        let need = if r.declarer == Color::Black { 28 } else { 27 };
        assert_eq!(e.threshold, need);
        assert_eq!(e.draw_threshold, None);
        wins += usize::from(e.outcome == DeclarationOutcome::Win);

        // Handicap variant: White's threshold lowered by the missing material.
        let reduction = handicap_reduction(&r.sfen);
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule27H);
        assert_eq!(e.outcome, ref27(&r, reduction), "27H {}: {e:?}", r.sfen);
        let need_h = if r.declarer == Color::Black {
            28
        } else {
            27 - reduction
        };
        assert_eq!(e.threshold, need_h, "27H threshold {}", r.sfen);

        // 24H: wins exactly when the reduced threshold is met with every other condition.
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24H);
        let need_h = if r.declarer == Color::Black {
            31
        } else {
            31 - reduction
        };
        let win = r.king_in_camp
            && !r.in_check
            && r.zone >= 10
            && r.move_number <= 500
            && r.points >= need_h;
        assert_eq!(
            e.outcome == DeclarationOutcome::Win,
            win,
            "24H {}: {e:?}",
            r.sfen
        );
        assert_eq!(e.threshold, need_h, "24H threshold {}", r.sfen);
    }
    // 27 and 28 points win under 27 but only draw under 24; the 501/600-move rows win too.
    assert_eq!(
        wins, 19,
        "the 27-point rule wins in more rows than the 24-point rule"
    );
}

#[test]
fn rules_without_declaration_never_declare() {
    for r in rows() {
        let p = pos(&r.sfen);
        let e = evaluate_declaration(&p, EnteringKingRule::NoEnteringKing);
        assert_eq!(e.outcome, DeclarationOutcome::NotApplicable, "{}", r.sfen);
        // No king of these cases stands on the try square (5a / 5i).
        let e = evaluate_declaration(&p, EnteringKingRule::TryRule);
        assert!(
            !matches!(
                e.outcome,
                DeclarationOutcome::Win | DeclarationOutcome::Draw
            ),
            "try rule {}: {e:?}",
            r.sfen
        );
    }
}

/// The same boards with the other side to move: the evaluation is always for the side to
/// move, so the material of the intended declarer never makes a declaration valid.
#[test]
fn side_not_to_move_never_declares() {
    for r in rows() {
        let (rest, tail) = r.sfen.split_once(' ').unwrap();
        let flipped_side = if tail.starts_with('b') { "w" } else { "b" };
        let flipped = format!("{rest} {flipped_side}{}", &tail[1..]);
        match Position::from_sfen(&flipped) {
            Err(_) => assert!(
                r.in_check,
                "{flipped}: only the positions where the declarer is in check are invalid \
                 with the checker to move"
            ),
            Ok(p) => {
                assert!(
                    !r.in_check,
                    "{flipped}: side not to move in check must be refused"
                );
                assert_eq!(p.side_to_move(), r.declarer.opposite());
                for rule in EnteringKingRule::ALL {
                    let e = evaluate_declaration(&p, rule);
                    assert_eq!(e.side, r.declarer.opposite(), "{flipped} {rule}");
                    assert!(
                        !matches!(
                            e.outcome,
                            DeclarationOutcome::Win | DeclarationOutcome::Draw
                        ),
                        "{flipped} {rule}: {e:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn rule_names_round_trip() {
    let names: Vec<String> = EnteringKingRule::ALL
        .iter()
        .map(|r| r.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "NoEnteringKing",
            "CSARule24",
            "CSARule24H",
            "CSARule27",
            "CSARule27H",
            "TryRule"
        ]
    );
    for r in EnteringKingRule::ALL {
        assert_eq!(r.to_string().parse::<EnteringKingRule>().ok(), Some(r));
    }
    assert!("CSARule28".parse::<EnteringKingRule>().is_err());
}

/// Rook-down handicap (White gives the rook): White needs 26 under 24H and 22 under 27H;
/// Black's thresholds do not move.
#[test]
fn rook_down_handicap_thresholds() {
    let start = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    let t = |p: &Position, rule| evaluate_declaration(p, rule).threshold;
    assert_eq!(t(&start, EnteringKingRule::CSARule24H), 26);
    assert_eq!(t(&start, EnteringKingRule::CSARule27H), 22);
    assert_eq!(t(&start, EnteringKingRule::CSARule24), 31);
    assert_eq!(t(&start, EnteringKingRule::CSARule27), 27);
    let black = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!(t(&black, EnteringKingRule::CSARule24H), 31);
    assert_eq!(t(&black, EnteringKingRule::CSARule27H), 28);
    // Even game: no reduction under the handicap rules.
    let even = Position::startpos();
    let mut even_white = even.to_sfen();
    even_white = even_white.replacen(" b ", " w ", 1);
    let even_white = pos(&even_white);
    assert_eq!(t(&even_white, EnteringKingRule::CSARule24H), 31);
    assert_eq!(t(&even_white, EnteringKingRule::CSARule27H), 27);
}

/// A rook-down game where White has entered with 10 pieces: with 26 points White wins
/// under 24H (only draws under 24), with 22 it wins under 27H (loses under 27), one point
/// less loses the win in each.
#[test]
fn rook_down_handicap_declarations() {
    use DeclarationOutcome::{Draw, Illegal, Win};
    use EnteringKingRule::{CSARule24, CSARule24H, CSARule27, CSARule27H};
    let board = "4K4/9/9/9/9/9/+p+p+p+p+p+p+p+p1/4k4/bb7";
    // (Black hand, White hand, White's points, 24, 24H, 27, 27H)
    let cases = [
        ("R4G4S4N4L2P", "8p", 26, Draw, Win, Illegal, Win),
        ("R4G4S4N4L3P", "7p", 25, Draw, Draw, Illegal, Win),
        ("R4G4S4N4L6P", "4p", 22, Illegal, Draw, Illegal, Win),
        ("R4G4S4N4L7P", "3p", 21, Illegal, Draw, Illegal, Illegal),
    ];
    for (bh, wh, points, r24, r24h, r27, r27h) in cases {
        let sfen = format!("{board} w {bh}{wh} 1");
        let p = pos(&sfen);
        assert_eq!(handicap_reduction(&sfen), 5);
        assert_eq!(p.declaration_points(Color::White), points, "{sfen}");
        assert_eq!(p.zone_count(Color::White), 10);
        assert!(p.king_in_camp(Color::White));
        assert_eq!(
            p.owned_points(Color::White) + p.owned_points(Color::Black),
            49
        );
        for (rule, want) in [
            (CSARule24, r24),
            (CSARule24H, r24h),
            (CSARule27, r27),
            (CSARule27H, r27h),
        ] {
            let e = evaluate_declaration(&p, rule);
            if rule == CSARule24H && want == Draw {
                // The draw band of 24H for the handicap giver is not fixed by the rule
                // text: only "not a win" is asserted.
                assert_ne!(e.outcome, Win, "{sfen} {rule}: {e:?}");
            } else {
                assert_eq!(e.outcome, want, "{sfen} {rule}: {e:?}");
            }
        }
    }
}
