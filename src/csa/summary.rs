//! The `'summary:REASON:NAME1 R1:NAME2 R2` line, the only reliable statement of a result.
//!
//! Since mid 2008 the server names Black first; before, the player whose action ended the
//! game came first. Results are therefore matched to `N+`/`N-` by name, never by order.

/// One player's field of the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerResult {
    /// The player's name as written: the field up to its last space (the whole field when
    /// it has none).
    pub name: String,
    /// `win`, `lose` or `draw` as written (anything else is kept verbatim).
    pub result: String,
}

/// How the summary's two names relate to `N+`/`N-`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryOrder {
    /// First name is Black's (modern order).
    BlackFirst,
    /// First name is White's (the old current-player-first order).
    WhiteFirst,
    /// Names do not match the header (or both names are equal): Black first assumed.
    Unmatched,
}

/// A parsed `'summary` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// 1-based line number.
    pub line: usize,
    /// Reason as written (`toryo`, `illegal kachi`, `max_moves`, ...).
    pub reason: String,
    /// The two player fields in file order.
    pub players: [PlayerResult; 2],
    /// Set by the reader once the header names are known.
    pub order: SummaryOrder,
}

impl Summary {
    /// Black's result, by the order established by name matching.
    pub fn black_result(&self) -> &str {
        match self.order {
            SummaryOrder::WhiteFirst => &self.players[1].result,
            _ => &self.players[0].result,
        }
    }

    /// White's result.
    pub fn white_result(&self) -> &str {
        match self.order {
            SummaryOrder::WhiteFirst => &self.players[0].result,
            _ => &self.players[1].result,
        }
    }

    /// Decide [`SummaryOrder`] from the header names.
    pub fn match_names(&mut self, black: Option<&str>, white: Option<&str>) {
        let (a, b) = (self.players[0].name.as_str(), self.players[1].name.as_str());
        self.order = match (black, white) {
            _ if a == b => SummaryOrder::Unmatched,
            (Some(bl), Some(wh)) if a == bl && b == wh => SummaryOrder::BlackFirst,
            (Some(bl), Some(wh)) if a == wh && b == bl => SummaryOrder::WhiteFirst,
            (Some(bl), _) if a == bl => SummaryOrder::BlackFirst,
            (Some(bl), _) if b == bl => SummaryOrder::WhiteFirst,
            (_, Some(wh)) if b == wh => SummaryOrder::BlackFirst,
            (_, Some(wh)) if a == wh => SummaryOrder::WhiteFirst,
            _ => SummaryOrder::Unmatched,
        };
    }
}

fn player(field: &str) -> PlayerResult {
    match field.rsplit_once(' ') {
        Some((name, result)) => PlayerResult {
            name: name.to_string(),
            result: result.to_string(),
        },
        None => PlayerResult {
            name: field.to_string(),
            result: String::new(),
        },
    }
}

/// Parse the text after `'summary:`. `None` unless it has three `:`-separated fields.
pub fn parse_summary(line: usize, value: &[u8]) -> Option<Summary> {
    let text = super::text::utf8_lossy(value);
    let mut fields = text.splitn(3, ':');
    let reason = fields.next()?.trim();
    let p1 = fields.next()?;
    let p2 = fields.next()?;
    if reason.is_empty() || p2.contains(':') {
        return None;
    }
    Some(Summary {
        line,
        reason: reason.to_string(),
        players: [player(p1), player(p2.trim_end())],
        order: SummaryOrder::Unmatched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_first_and_white_first() {
        let mut s = parse_summary(9, b"toryo:alice win:bob lose").unwrap();
        s.match_names(Some("alice"), Some("bob"));
        assert_eq!(s.order, SummaryOrder::BlackFirst);
        assert_eq!((s.black_result(), s.white_result()), ("win", "lose"));

        let mut s = parse_summary(9, b"uchifuzume:KShogi900 lose:usapyon-on-note win").unwrap();
        s.match_names(Some("usapyon-on-note"), Some("KShogi900"));
        assert_eq!(s.order, SummaryOrder::WhiteFirst);
        assert_eq!((s.black_result(), s.white_result()), ("win", "lose"));
        assert_eq!(s.reason, "uchifuzume");
    }

    #[test]
    fn reasons_with_spaces_and_bad_lines() {
        let s = parse_summary(1, b"illegal kachi:a lose:b win").unwrap();
        assert_eq!(s.reason, "illegal kachi");
        assert_eq!(
            s.players[0],
            PlayerResult {
                name: "a".into(),
                result: "lose".into()
            }
        );
        assert!(parse_summary(1, b"toryo:a win").is_none());
        assert!(parse_summary(1, b"toryo:a win:b lose:c").is_none());
        assert!(parse_summary(1, b"").is_none());
    }

    #[test]
    fn unmatched_names_keep_file_order() {
        let mut s = parse_summary(1, b"toryo:x win:y lose").unwrap();
        s.match_names(Some("a"), Some("b"));
        assert_eq!(s.order, SummaryOrder::Unmatched);
        assert_eq!(s.black_result(), "win");
        let mut s = parse_summary(1, b"toryo:a win:a lose").unwrap();
        s.match_names(Some("a"), Some("a"));
        assert_eq!(s.order, SummaryOrder::Unmatched);
    }
}
