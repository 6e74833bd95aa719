//! The final board the server appends as comments: `'P1`..`'P9`, `'P+`/`'P-`, `'+`/`'-`.
//!
//! Hands are written one `00XX` per piece, usually sorted but not always, and omitted
//! when empty; before 2008-03-16 the side-to-move line was always `'+`.

use super::line::is_empty_hand_line;

/// The trailer board, as raw lines without the leading quote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trailer<'a> {
    /// 1-based line of the first trailer line (`'P1`).
    pub line: usize,
    /// Rows `P1`..`P9` (index 0 = `P1`), `None` when absent.
    pub rows: [Option<&'a [u8]>; 9],
    /// `P+` and `P-` lines (index 0 = Black), `None` when absent (empty hand).
    pub hands: [Option<&'a [u8]>; 2],
    /// The side-to-move line: `b'+'` or `b'-'`.
    pub side: Option<u8>,
}

impl<'a> Trailer<'a> {
    /// All nine rows are present.
    pub fn is_complete(&self) -> bool {
        self.rows.iter().all(Option::is_some)
    }

    /// The trailer as ordinary CSA position lines (rows, hands, side) for a setup parser.
    pub fn position_lines(&self) -> Vec<&'a [u8]> {
        let mut v: Vec<&'a [u8]> = self.rows.iter().flatten().copied().collect();
        v.extend(
            self.hands
                .iter()
                .flatten()
                .copied()
                .filter(|l| !is_empty_hand_line(l)),
        );
        match self.side {
            Some(b'-') => v.push(b"-"),
            Some(_) => v.push(b"+"),
            None => {}
        }
        v
    }

    /// Take one comment line (without its quote) if it belongs to the trailer.
    /// Returns false when the line is not a trailer line.
    pub(crate) fn accept(&mut self, body: &'a [u8]) -> bool {
        match body {
            [b'P', d @ b'1'..=b'9', ..] => {
                self.rows[usize::from(d - b'1')] = Some(body);
                true
            }
            [b'P', b'+', ..] => {
                self.hands[0] = Some(body);
                true
            }
            [b'P', b'-', ..] => {
                self.hands[1] = Some(body);
                true
            }
            [s @ (b'+' | b'-')] => {
                self.side = Some(*s);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_rows_hands_and_side() {
        let mut t = Trailer::default();
        assert!(t.accept(b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"));
        assert!(t.accept(b"P-00KA00FU"));
        assert!(t.accept(b"-"));
        assert!(!t.accept(b"summary:toryo:a win:b lose"));
        assert!(!t.is_complete());
        assert_eq!(t.side, Some(b'-'));
        assert!(t.accept(b"P+"));
        assert_eq!(
            t.position_lines(),
            vec![
                &b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"[..],
                &b"P-00KA00FU"[..],
                &b"-"[..]
            ]
        );
    }
}
