//! The positions file that `positions`, `replay --positions` and `play --positions` read:
//! one position a line, its SFEN in the first tab-separated column (other columns are
//! the writer's). Blank lines and comments are skipped; a comment is a line whose first
//! non-blank character is `#` (no SFEN starts with `#`, so an indented comment is a
//! comment too, never a bad line). Every other line is a position or a [`BadLine`].

use super::{Position, PositionParseError};

/// A readable line of a positions file.
#[derive(Debug, Clone)]
pub struct PositionLine {
    /// 1-based line number.
    pub line: usize,
    /// The SFEN as read (the first column, trimmed).
    pub sfen: String,
    /// The position.
    pub position: Position,
}

/// A line of a positions file whose SFEN could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct BadLine {
    /// 1-based line number.
    pub line: usize,
    /// Why the SFEN was refused: unreadable, or an illegal position.
    pub error: PositionParseError,
}

/// Whether a line is skipped: blank, or a comment (`#` after any blanks).
pub fn is_skipped(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Read a positions file: every position in order and every bad line, each line counted
/// once (skipped, read or bad).
pub fn read_positions_file(text: &str) -> (Vec<PositionLine>, Vec<BadLine>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_skipped(line) {
            continue;
        }
        let sfen = line.trim().split('\t').next().unwrap_or("").trim();
        match Position::from_sfen(sfen) {
            Ok(position) => out.push(PositionLine {
                line: i + 1,
                sfen: sfen.to_string(),
                position,
            }),
            Err(error) => bad.push(BadLine { line: i + 1, error }),
        }
    }
    (out, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";

    #[test]
    fn comments_blanks_positions_and_typed_bad_lines() {
        let text = format!(
            "# header\n\n   \n  # indented comment\n\t# tab-indented\n{K}\t12\tx\r\n  {K}\nnot-a-sfen\t1\n4k4/9/9/9/9/9/9/9/4K4 x - 1\n4k4/9/9/9/9/9/9/9/9 b - 1\n"
        );
        let (ok, bad) = read_positions_file(&text);
        assert_eq!(
            ok.iter()
                .map(|p| (p.line, p.sfen.as_str()))
                .collect::<Vec<_>>(),
            [(6, K), (7, K)]
        );
        assert_eq!(bad.iter().map(|b| b.line).collect::<Vec<_>>(), [8, 9, 10]);
        // The errors are the core's: an unreadable SFEN and an illegal position differ.
        assert!(
            matches!(bad[0].error, PositionParseError::Sfen(_)),
            "{:?}",
            bad[0]
        );
        assert!(
            matches!(bad[2].error, PositionParseError::Position(_)),
            "{:?}",
            bad[2]
        );
        assert!(bad[0].to_string().starts_with("line 8: "), "{}", bad[0]);
    }

    #[test]
    fn a_hash_inside_a_line_is_not_a_comment() {
        let (ok, bad) = read_positions_file(&format!("x#y\n{K}\t# a note\n"));
        assert_eq!((ok.len(), bad.len()), (1, 1));
        assert_eq!(bad[0].line, 1);
    }
}
