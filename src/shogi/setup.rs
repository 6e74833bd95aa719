//! An unvalidated position (`Setup`): what SFEN text or a CSA position block says, before
//! any rule is checked. [`super::Position::from_setup`] turns it into a playable position.

use std::fmt::Write;

use super::{Color, Hand, Piece, PieceKind, Square};

/// A board, hands, side to move and SFEN move number, not yet checked against the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// Indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side whose turn it is.
    pub side_to_move: Color,
    /// SFEN move number (1 at the start of a game, +1 per ply).
    pub move_number: u32,
}

/// SFEN text that cannot be read; names the offending token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    /// The text (held whole, without a leading `sfen `) has fewer than three or more than
    /// four whitespace-separated fields.
    #[error("SFEN needs board, side to move and hands (and an optional move number), got `{0}`")]
    FieldCount(String),
    /// The board field cannot be read.
    #[error("bad SFEN board `{token}`: {reason}")]
    Board {
        /// The whole board field.
        token: String,
        /// What is wrong with it: the rank count, a rank's length, a digit, a `+` or a
        /// piece letter.
        reason: String,
    },
    /// The side-to-move field (held) is neither `b` nor `w`.
    #[error("bad SFEN side to move `{0}` (expected `b` or `w`)")]
    Side(String),
    /// The hands field (held) is not `-` nor a list of counted piece letters that can be
    /// held, each count at most two digits and within a full set.
    #[error("bad SFEN hands `{0}`")]
    Hands(String),
    /// The move-number field (held) is not a whole number of at least 1.
    #[error("bad SFEN move number `{0}`")]
    MoveNumber(String),
}

/// A CSA position block that cannot be read; names the offending line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad CSA position line `{line}`: {reason}")]
pub struct CsaPositionError {
    /// The offending line as written (decoded lossily, so any byte is shown).
    pub line: String,
    /// What is wrong with the line, e.g. `bad square` or `no such piece to remove`.
    pub reason: &'static str,
}

const HIRATE_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Setup {
    /// An empty board, empty hands, Black to move, move number 1.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// The even-game start position (平手, hirate).
    pub fn hirate() -> Setup {
        Setup::from_sfen(HIRATE_SFEN).expect("the start position is valid SFEN")
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Read SFEN (`lnsgkgsnl/... b - 1`); a leading `sfen ` is accepted, as is a missing
    /// move number (taken as 1).
    pub fn from_sfen(s: &str) -> Result<Setup, SfenError> {
        let s = s.trim();
        let s = s.strip_prefix("sfen ").unwrap_or(s);
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(SfenError::FieldCount(s.to_string()));
        }
        let mut setup = Setup::empty();
        parse_board(fields[0], &mut setup.board)?;
        setup.side_to_move = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            t => return Err(SfenError::Side(t.to_string())),
        };
        setup.hands = parse_hands(fields[2])?;
        if let Some(t) = fields.get(3) {
            setup.move_number = t
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| SfenError::MoveNumber(t.to_string()))?;
        }
        Ok(setup)
    }

    /// SFEN text of this setup.
    pub fn to_sfen(&self) -> String {
        sfen(
            |i| self.board[i],
            &self.hands,
            self.side_to_move,
            self.move_number,
        )
    }

    /// Read a CSA position block: `PI` (optionally followed by squares and kinds to
    /// remove, e.g. `PI82HI22KA`), `P1`..`P9` board lines, `P+`/`P-` lines placing pieces
    /// (`P+00KA` in hand, `P-5152FU` on the board, `P+00AL` every remaining piece in hand),
    /// and the side-to-move line `+` or `-`. Empty lines and `'` comments are skipped.
    pub fn from_csa_lines<'a>(
        lines: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<Setup, CsaPositionError> {
        let mut setup = Setup::empty();
        let mut al: Option<Color> = None;
        for raw in lines {
            let line = trim_line(raw);
            if line.is_empty() || line[0] == b'\'' {
                continue;
            }
            setup
                .csa_line(line, &mut al)
                .map_err(|reason| CsaPositionError {
                    line: String::from_utf8_lossy(raw).into_owned(),
                    reason,
                })?;
        }
        if let Some(color) = al {
            setup.give_rest_of_set(color);
        }
        Ok(setup)
    }

    /// Apply one trimmed, non-comment CSA position line; `al` records the side given `00AL`.
    fn csa_line(&mut self, line: &[u8], al: &mut Option<Color>) -> Result<(), &'static str> {
        match line {
            b"+" => self.side_to_move = Color::Black,
            b"-" => self.side_to_move = Color::White,
            _ if line.starts_with(b"PI") => self.csa_pi(&line[2..])?,
            _ if line.len() >= 2 && line[0] == b'P' && (b'1'..=b'9').contains(&line[1]) => {
                self.csa_rank(line[1] - b'0', &line[2..])?
            }
            _ if line.starts_with(b"P+") || line.starts_with(b"P-") => {
                let color = if line[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                self.csa_placements(color, &line[2..], al)?
            }
            _ => return Err("not a position line"),
        }
        Ok(())
    }

    /// A `PI` line: the even-game board less the listed square-and-kind removals.
    fn csa_pi(&mut self, rest: &[u8]) -> Result<(), &'static str> {
        let hirate = Setup::hirate();
        self.board = hirate.board;
        if !rest.len().is_multiple_of(4) {
            return Err("PI removals come in groups of four characters");
        }
        for item in rest.chunks(4) {
            let sq = csa_square(&item[..2]).ok_or("bad square")?;
            let kind = PieceKind::from_csa(&item[2..]).ok_or("bad piece")?;
            match self.board[sq.index()] {
                Some(p) if p.kind == kind => self.board[sq.index()] = None,
                _ => return Err("no such piece to remove"),
            }
        }
        Ok(())
    }

    /// A `P1`..`P9` line: the nine cells of one rank, file 9 first.
    fn csa_rank(&mut self, rank: u8, cells: &[u8]) -> Result<(), &'static str> {
        // Trailing blanks of the last cell may have been trimmed.
        let mut cells = cells.to_vec();
        if cells.len() < 27 {
            cells.resize(27, b' ');
        }
        if cells[27..].iter().any(|b| !b.is_ascii_whitespace()) {
            return Err("text after the ninth cell");
        }
        for (i, cell) in cells[..27].chunks(3).enumerate() {
            let file = 9 - i as u8;
            let sq = Square::new(file, rank).expect("on board");
            self.board[sq.index()] = match cell {
                b" * " => None,
                _ => Some(
                    csa_piece(cell)
                        .ok_or("bad cell (nine cells of three characters are needed)")?,
                ),
            };
        }
        Ok(())
    }

    /// A `P+`/`P-` line: pieces of `color` placed on squares or in hand, or `00AL`.
    fn csa_placements(
        &mut self,
        color: Color,
        rest: &[u8],
        al: &mut Option<Color>,
    ) -> Result<(), &'static str> {
        if !rest.len().is_multiple_of(4) || rest.is_empty() {
            return Err("placements come in groups of four characters");
        }
        for item in rest.chunks(4) {
            if item == b"00AL" {
                if al.is_some() {
                    return Err("00AL given twice");
                }
                *al = Some(color);
                continue;
            }
            let kind = PieceKind::from_csa(&item[2..]).ok_or("bad piece")?;
            if &item[..2] == b"00" {
                if !kind.is_hand_kind() {
                    return Err("only unpromoted non-king pieces go in hand");
                }
                self.hands[color.index()].add(kind);
            } else {
                let sq = csa_square(&item[..2]).ok_or("bad square")?;
                self.board[sq.index()] = Some(Piece::new(color, kind));
            }
        }
        Ok(())
    }

    /// Give `color` every piece of the full set not on the board or in a hand (`00AL`).
    fn give_rest_of_set(&mut self, color: Color) {
        for k in PieceKind::HAND_KINDS {
            let on_board = self
                .board
                .iter()
                .flatten()
                .filter(|p| p.kind.unpromoted() == k)
                .count() as u32;
            let in_hands = self.hands[0].count(k) + self.hands[1].count(k);
            let used = on_board + in_hands;
            for _ in used..k.full_set_count() {
                self.hands[color.index()].add(k);
            }
        }
    }
}

fn trim_line(raw: &[u8]) -> &[u8] {
    let mut l = raw;
    while let Some((last, rest)) = l.split_last() {
        if *last == b'\r' || *last == b'\n' || *last == b' ' || *last == b'\t' {
            l = rest;
        } else {
            break;
        }
    }
    l
}

fn csa_square(b: &[u8]) -> Option<Square> {
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    Square::new(b[0] - b'0', b[1] - b'0')
}

fn csa_piece(cell: &[u8]) -> Option<Piece> {
    let color = match cell.first()? {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    Some(Piece::new(color, PieceKind::from_csa(cell.get(1..3)?)?))
}

fn parse_board(token: &str, board: &mut [Option<Piece>; 81]) -> Result<(), SfenError> {
    let err = |reason: &str| SfenError::Board {
        token: token.to_string(),
        reason: reason.to_string(),
    };
    let ranks: Vec<&str> = token.split('/').collect();
    if ranks.len() != 9 {
        return Err(err("nine ranks separated by `/` are needed"));
    }
    for (r, rank_text) in ranks.iter().enumerate() {
        let mut file: i32 = 9;
        let mut promoted = false;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promoted || d == 0 {
                    return Err(err("misplaced digit"));
                }
                file -= d as i32;
                if file < 0 {
                    return Err(err("a rank has more than nine squares"));
                }
                continue;
            }
            if ch == '+' {
                if promoted {
                    return Err(err("double `+`"));
                }
                promoted = true;
                continue;
            }
            let kind = PieceKind::from_usi_letter(ch.to_ascii_uppercase())
                .ok_or_else(|| err(&format!("unknown piece letter `{ch}` in rank {}", r + 1)))?;
            let kind = if promoted {
                kind.promoted()
                    .ok_or_else(|| err("this piece cannot promote"))?
            } else {
                kind
            };
            promoted = false;
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            if file < 1 {
                return Err(err("a rank has more than nine squares"));
            }
            let sq = Square::new(file as u8, r as u8 + 1).expect("on board");
            board[sq.index()] = Some(Piece::new(color, kind));
            file -= 1;
        }
        if promoted {
            return Err(err("`+` at the end of a rank"));
        }
        if file != 0 {
            return Err(err("a rank has fewer than nine squares"));
        }
    }
    Ok(())
}

fn parse_hands(token: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if token == "-" {
        return Ok(hands);
    }
    let err = || SfenError::Hands(token.to_string());
    let mut count: u32 = 0;
    let mut digits = 0;
    for ch in token.chars() {
        if let Some(d) = ch.to_digit(10) {
            count = count * 10 + d;
            digits += 1;
            if digits > 2 || count == 0 {
                return Err(err());
            }
            continue;
        }
        let kind = PieceKind::from_usi_letter(ch.to_ascii_uppercase())
            .filter(|k| k.is_hand_kind())
            .ok_or_else(err)?;
        let color = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let n = if digits == 0 { 1 } else { count };
        if n > kind.full_set_count() {
            return Err(err());
        }
        for _ in 0..n {
            hands[color.index()].add(kind);
        }
        count = 0;
        digits = 0;
    }
    if digits > 0 {
        return Err(err());
    }
    Ok(hands)
}

/// SFEN text of a board given square by square (`piece(index)`, index = (file - 1) * 9 +
/// rank - 1), hands, side to move and move number: the one writer for setups and positions.
pub(crate) fn sfen(
    piece: impl Fn(usize) -> Option<Piece>,
    hands: &[Hand; 2],
    side: Color,
    move_number: u32,
) -> String {
    let mut s = String::with_capacity(96);
    for rank in 0..9 {
        if rank > 0 {
            s.push('/');
        }
        let mut empty = 0u8;
        for file in (0..9).rev() {
            match piece(file * 9 + rank) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push_str(p.sfen_str());
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
    }
    s.push(' ');
    s.push(side.sfen());
    s.push(' ');
    let mut any = false;
    for c in Color::ALL {
        // Conventional order: rook, bishop, gold, silver, knight, lance, pawn.
        for k in PieceKind::HAND_KINDS.iter().rev() {
            let n = hands[c.index()].count(*k);
            if n == 0 {
                continue;
            }
            any = true;
            if n > 1 {
                let _ = write!(s, "{n}");
            }
            s.push_str(Piece::new(c, *k).sfen_str());
        }
    }
    if !any {
        s.push('-');
    }
    let _ = write!(s, " {move_number}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_round_trip() {
        for s in [
            HIRATE_SFEN,
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
            "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
        ] {
            assert_eq!(Setup::from_sfen(s).unwrap().to_sfen(), s);
        }
        assert_eq!(
            Setup::from_sfen(&format!("sfen {HIRATE_SFEN}")).unwrap(),
            Setup::hirate()
        );
    }

    #[test]
    fn sfen_errors_name_the_token() {
        let e = Setup::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1")
            .unwrap_err();
        assert!(e.to_string().contains("LNSGKGSNX"), "{e}");
        let e = Setup::from_sfen("9/9/9/9/9/9/9/9/9 x - 1").unwrap_err();
        assert!(e.to_string().contains("`x`"));
        let e = Setup::from_sfen("9/9/9/9/9/9/9/9/9 b 2K 1").unwrap_err();
        assert!(e.to_string().contains("2K"));
        let e = Setup::from_sfen("9/9/9/9/9/9/9/9/9 b - zz").unwrap_err();
        assert!(e.to_string().contains("zz"));
        for bad in [
            "",
            "9/9 b -",
            "10/9/9/9/9/9/9/9/9 b -",
            "+K8/9/9/9/9/9/9/9/9 b -",
            "8/9/9/9/9/9/9/9/9 b -",
            "9/9/9/9/9/9/9/9/9 b 99P",
            "9/9/9/9/9/9/9/9/9 b P2",
        ] {
            assert!(Setup::from_sfen(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn csa_blocks() {
        let pi: Vec<&[u8]> = vec![b"PI", b"+"];
        assert_eq!(Setup::from_csa_lines(pi).unwrap(), Setup::hirate());
        let lines: Vec<&[u8]> = vec![
            b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
            b"P2 * -HI *  *  *  *  * -KA * ",
            b"P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
            b"P4 *  *  *  *  *  *  *  *  * ",
            b"P5 *  *  *  *  *  *  *  *  * ",
            b"P6 *  *  *  *  *  *  *  *  * ",
            b"P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
            b"P8 * +KA *  *  *  *  * +HI * ",
            b"P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
            b"+",
        ];
        assert_eq!(Setup::from_csa_lines(lines).unwrap(), Setup::hirate());
        let rook_down: Vec<&[u8]> = vec![b"PI82HI", b"-"];
        let s = Setup::from_csa_lines(rook_down).unwrap();
        assert_eq!(
            s.to_sfen(),
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        let al: Vec<&[u8]> = vec![b"P+59OU", b"P-51OU", b"P+00KA", b"P-00AL", b"+"];
        let s = Setup::from_csa_lines(al).unwrap();
        assert_eq!(s.hands[0].count(PieceKind::Bishop), 1);
        assert_eq!(s.hands[1].count(PieceKind::Bishop), 1);
        assert_eq!(s.hands[1].count(PieceKind::Pawn), 18);
        for bad in [&b"PI55FU"[..], b"P1-KY", b"P+00OU", b"X", b"P+0011FU"] {
            assert!(
                Setup::from_csa_lines(vec![bad]).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
