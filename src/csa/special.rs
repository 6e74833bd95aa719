//! Special (`%`) lines: the end markers the server writes.
//!
//! shogi-server writes `%TORYO`, `%KACHI` (with the client's `,` comment and a `T` line,
//! then `%KACHI` again since 2010), `%TIME_UP` and `%SENNICHITE`; a 2008-2009 bug doubled
//! the `%`. Other CSA specials are read for completeness.

/// The kind of a special line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialKind {
    /// `%TORYO`: resignation, also written for abnormal endings.
    Toryo,
    /// `%KACHI`: declaration of a win by entering king.
    Kachi,
    /// `%TIME_UP`.
    TimeUp,
    /// `%SENNICHITE`: repetition.
    Sennichite,
    /// `%CHUDAN`: interruption.
    Chudan,
    /// `%JISHOGI`, `%HIKIWAKE`, `%MAX_MOVES`, `%TSUMI`, `%FUZUMI`, `%ERROR`, `%MATTA`,
    /// `%ILLEGAL_MOVE`, `%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`: never written by the server.
    OtherStandard,
    /// Anything else after `%`.
    Unknown,
}

impl SpecialKind {
    /// Classify the keyword after the `%` signs (the part before any `,`).
    pub fn from_keyword(word: &[u8]) -> SpecialKind {
        match word {
            b"TORYO" => SpecialKind::Toryo,
            b"KACHI" => SpecialKind::Kachi,
            b"TIME_UP" => SpecialKind::TimeUp,
            b"SENNICHITE" => SpecialKind::Sennichite,
            b"CHUDAN" => SpecialKind::Chudan,
            b"JISHOGI" | b"HIKIWAKE" | b"MAX_MOVES" | b"TSUMI" | b"FUZUMI" | b"ERROR"
            | b"MATTA" | b"ILLEGAL_MOVE" | b"+ILLEGAL_ACTION" | b"-ILLEGAL_ACTION" => {
                SpecialKind::OtherStandard
            }
            _ => SpecialKind::Unknown,
        }
    }
}

/// One special line of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Special<'a> {
    /// 1-based line number.
    pub line: usize,
    /// What the keyword means (resignation, declaration, ...); [`SpecialKind::Unknown`]
    /// for a keyword outside the CSA standard.
    pub kind: SpecialKind,
    /// The keyword without `%` signs and without the `,` suffix (`TORYO`, `KACHI`).
    pub keyword: &'a [u8],
    /// The whole line as written.
    pub raw: &'a [u8],
    /// `%%` instead of `%` (the 2008-2009 bug).
    pub doubled: bool,
    /// Number of move lines read before this line.
    pub after_plies: usize,
    /// The `T` line that followed, if any.
    pub time: Option<i64>,
}

impl Special<'_> {
    /// The marker in its canonical form, `%` + keyword (`%TORYO`).
    pub fn marker(&self) -> std::borrow::Cow<'static, str> {
        // The markers the server writes, by their kind; any other keyword as written.
        match self.kind {
            SpecialKind::Toryo => "%TORYO".into(),
            SpecialKind::Kachi => "%KACHI".into(),
            SpecialKind::TimeUp => "%TIME_UP".into(),
            SpecialKind::Sennichite => "%SENNICHITE".into(),
            SpecialKind::Chudan => "%CHUDAN".into(),
            SpecialKind::OtherStandard | SpecialKind::Unknown => {
                format!("%{}", super::text::utf8_lossy(self.keyword)).into()
            }
        }
    }
}

/// Parse a line starting with `%`.
pub(crate) fn parse_special(line_no: usize, raw: &[u8], after_plies: usize) -> Special<'_> {
    let stripped = {
        let mut s = raw;
        while let Some(rest) = s.strip_prefix(b"%") {
            s = rest;
        }
        s
    };
    let doubled = raw.len() - stripped.len() >= 2;
    let keyword = match stripped.iter().position(|&b| b == b',') {
        Some(i) => &stripped[..i],
        None => stripped,
    };
    let keyword = keyword.strip_suffix(b" ").unwrap_or(keyword);
    Special {
        line: line_no,
        kind: SpecialKind::from_keyword(keyword),
        keyword,
        raw,
        doubled,
        after_plies,
        time: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kachi_with_comment_and_doubled_percent() {
        let s = parse_special(5, b"%KACHI,'* -5000 win", 3);
        assert_eq!(s.kind, SpecialKind::Kachi);
        assert_eq!(s.keyword, b"KACHI");
        assert!(!s.doubled);
        assert_eq!(s.marker(), "%KACHI");
        let s = parse_special(5, b"%%TORYO", 3);
        assert_eq!(s.kind, SpecialKind::Toryo);
        assert!(s.doubled);
        assert_eq!(parse_special(1, b"%", 0).kind, SpecialKind::Unknown);
        assert_eq!(
            parse_special(1, b"%-ILLEGAL_ACTION", 0).kind,
            SpecialKind::OtherStandard
        );
        assert_eq!(parse_special(1, b"%TIME_UP", 0).kind, SpecialKind::TimeUp);
        assert_eq!(
            parse_special(1, b"%SENNICHITE", 0).kind,
            SpecialKind::Sennichite
        );
    }
}
