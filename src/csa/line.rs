//! One line of a CSA record, classified by its first bytes.
//!
//! Classification is the only place that looks at the shape of a line; the reader then
//! decides what each kind means in its context (header, moves, trailer).

/// What a single line of a record is, judged by its first bytes only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Empty line (after stripping a trailing `\r`).
    Blank,
    /// `V...`: format version.
    Version,
    /// `N+name`.
    BlackName,
    /// `N-name`.
    WhiteName,
    /// `$KEY:value`.
    Info,
    /// `P1`..`P9`, `PI`, `P+`, `P-`: position block.
    Position,
    /// `+` or `-` alone: side to move of the position block.
    SideToMove,
    /// `[+-]dddd[A-Z]{2}` in the first 7 bytes (anything after byte 7 is ignored).
    Move,
    /// `T<n>`: time of the preceding move or declaration.
    Time,
    /// `%...`: special move (end marker).
    Special,
    /// `'...`: comment (including the trailer, summary and header comments).
    Comment,
    /// Anything else.
    Unknown,
}

/// True when the first 7 bytes of `s` have the shape of a CSA move (`+7776FU`, `-0055KA`).
pub fn is_move_text(s: &[u8]) -> bool {
    s.len() >= 7
        && (s[0] == b'+' || s[0] == b'-')
        && s[1..5].iter().all(u8::is_ascii_digit)
        && s[5..7].iter().all(u8::is_ascii_uppercase)
}

/// Classify one line (already stripped of `\n` and a trailing `\r`).
#[inline]
pub fn classify_line(line: &[u8]) -> LineKind {
    let Some(&first) = line.first() else {
        return LineKind::Blank;
    };
    match first {
        b'V' => LineKind::Version,
        b'N' => match line.get(1) {
            Some(b'+') => LineKind::BlackName,
            Some(b'-') => LineKind::WhiteName,
            _ => LineKind::Unknown,
        },
        b'$' => LineKind::Info,
        b'P' => match line.get(1) {
            Some(b'1'..=b'9' | b'I' | b'+' | b'-') => LineKind::Position,
            _ => LineKind::Unknown,
        },
        b'+' | b'-' => {
            if line.len() == 1 {
                LineKind::SideToMove
            } else if is_move_text(line) {
                LineKind::Move
            } else {
                LineKind::Unknown
            }
        }
        b'T' => LineKind::Time,
        b'%' => LineKind::Special,
        b'\'' => LineKind::Comment,
        _ => LineKind::Unknown,
    }
}

/// Split `bytes` into lines on `\n`, strip one trailing `\r` from each, and yield
/// `(1-based line number, line)`. A final line without `\n` is yielded too.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut rest = (!bytes.is_empty()).then_some(body);
    let mut no = 0;
    std::iter::from_fn(move || {
        let r = rest?;
        let line = match find_newline(r) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                &r[..i]
            }
            None => {
                rest = None;
                r
            }
        };
        no += 1;
        Some((no, line.strip_suffix(b"\r").unwrap_or(line)))
    })
}

/// Index of the first `\n`, eight bytes at a time. Record lines are short (`T3`,
/// `+7776FU`, a comment of a few dozen bytes): a vector search would pay its set-up cost
/// on every line.
#[inline]
fn find_newline(r: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(chunk) = r.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let x = word ^ (ONES * u64::from(b'\n'));
        // A byte of `x` is zero where the chunk holds `\n`; the lowest flagged byte is
        // exact (a false flag can only sit above a true one).
        let zero = x.wrapping_sub(ONES) & !x & HIGH;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    r[at..].iter().position(|&b| b == b'\n').map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_need_seven_bytes_of_move_shape() {
        assert_eq!(classify_line(b"+7776FU"), LineKind::Move);
        assert_eq!(classify_line(b"-0055KA"), LineKind::Move);
        assert_eq!(classify_line(b"+7776FU '* 30 -3334FU"), LineKind::Move);
        assert_eq!(classify_line(b"+7776F"), LineKind::Unknown);
        assert_eq!(classify_line(b"+77a6FU"), LineKind::Unknown);
        assert_eq!(classify_line(b"+"), LineKind::SideToMove);
        assert_eq!(classify_line(b"-"), LineKind::SideToMove);
    }

    #[test]
    fn other_kinds() {
        assert_eq!(classify_line(b""), LineKind::Blank);
        assert_eq!(classify_line(b"V2"), LineKind::Version);
        assert_eq!(classify_line(b"N+alice"), LineKind::BlackName);
        assert_eq!(classify_line(b"N-bob"), LineKind::WhiteName);
        assert_eq!(classify_line(b"Nx"), LineKind::Unknown);
        assert_eq!(classify_line(b"P1-KY"), LineKind::Position);
        assert_eq!(classify_line(b"PX"), LineKind::Unknown);
        assert_eq!(classify_line(b"T-1"), LineKind::Time);
        assert_eq!(classify_line(b"%%TORYO"), LineKind::Special);
        assert_eq!(classify_line(b"'P1"), LineKind::Comment);
        assert_eq!(classify_line(b"\x89PNG"), LineKind::Unknown);
    }

    #[test]
    fn newline_search_agrees_with_a_plain_scan() {
        let text = b"0123456789abcdef\n01\n\n0123456\n01234567\n012345678\nxyz";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let r = &text[start..end];
                assert_eq!(find_newline(r), r.iter().position(|&b| b == b'\n'), "{r:?}");
            }
        }
    }

    #[test]
    fn lines_strip_cr_and_count_from_one() {
        let v: Vec<_> = lines(b"a\r\nb\n\nc").collect();
        assert_eq!(
            v,
            vec![
                (1, &b"a"[..]),
                (2, &b"b"[..]),
                (3, &b""[..]),
                (4, &b"c"[..])
            ]
        );
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\n").collect::<Vec<_>>(), vec![(1, &b""[..])]);
    }
}
