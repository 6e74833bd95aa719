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

/// `P+` or `P-` (possibly with trailing spaces) and nothing else.
pub(crate) fn is_empty_hand_line(line: &[u8]) -> bool {
    matches!(line, [b'P', b'+' | b'-', rest @ ..] if rest.iter().all(|&b| b == b' '))
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
pub(crate) fn lines(bytes: &[u8]) -> Lines<'_> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    Lines {
        rest: (!bytes.is_empty()).then_some(body),
        no: 0,
    }
}

/// The lines of a record (see [`lines`]).
pub(crate) struct Lines<'a> {
    rest: Option<&'a [u8]>,
    no: usize,
}

impl<'a> Lines<'a> {
    /// Number of the line last returned.
    pub(crate) fn line_no(&self) -> usize {
        self.no
    }

    /// When the next line is a time line whose value is plain digits (`T12`, as the
    /// server writes after nearly every move), consume it and return the value and its
    /// line number. Anything else is left for [`Iterator::next`].
    #[inline]
    pub(crate) fn next_plain_time(&mut self) -> Option<(usize, i64)> {
        let t = self.take_plain_time(self.rest?)?;
        Some((self.no, t))
    }

    /// [`Lines::next_plain_time`] on `r`, the rest of the record.
    #[inline(always)]
    fn take_plain_time(&mut self, r: &'a [u8]) -> Option<i64> {
        let (t, rest) = plain_time_line(r.strip_prefix(b"T")?)?;
        self.rest = rest;
        self.no += 1;
        Some(t)
    }

    /// When the next line is a move exactly as the server writes it (`+7776FU`, seven
    /// bytes and `\n`), consume it, and the plain time line after it if there is one (see
    /// [`Lines::next_plain_time`]): the line number of the move, its seven bytes, and the
    /// time. The two lines of nearly every ply are taken with a few tests on their bytes,
    /// instead of a newline search and a classification each. Anything else is left for
    /// [`Iterator::next`].
    #[inline]
    pub(crate) fn next_server_move(&mut self) -> Option<(usize, &'a [u8], Option<i64>)> {
        let r = self.rest?;
        let head = r.first_chunk::<8>()?;
        if !(matches!(head[0], b'+' | b'-')
            && head[1..5].iter().all(u8::is_ascii_digit)
            && head[5..7].iter().all(u8::is_ascii_uppercase)
            && head[7] == b'\n')
        {
            return None;
        }
        self.no += 1;
        let no = self.no;
        let (text, after) = r.split_at(8);
        self.rest = Some(after);
        let time = self.take_plain_time(after);
        Some((no, &text[..7], time))
    }

    /// When the next line is an engine's comment (`'*...`), consume and return it.
    #[inline]
    pub(crate) fn next_engine_comment(&mut self) -> Option<(usize, &'a [u8])> {
        let r = self.rest?;
        if !r.starts_with(b"'*") {
            return None;
        }
        // Most are long (the engine's line of play): searched 16 bytes at a time at once.
        let (line, rest) = match newline_from(r, 2) {
            Some(i) => (&r[..i], Some(&r[i + 1..])),
            None => (r, None),
        };
        self.rest = rest;
        self.no += 1;
        Some((self.no, line.strip_suffix(b"\r").unwrap_or(line)))
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        let (line, rest) = split_line(self.rest?);
        self.rest = rest;
        self.no += 1;
        Some((self.no, line))
    }
}

/// The first line of `r` without its `\n` and one trailing `\r`, and what follows it
/// (`None` after the last line).
#[inline]
fn split_line(r: &[u8]) -> (&[u8], Option<&[u8]>) {
    let (line, rest) = match find_newline(r) {
        Some(i) => (&r[..i], Some(&r[i + 1..])),
        None => (r, None),
    };
    (line.strip_suffix(b"\r").unwrap_or(line), rest)
}

/// The value of a time line whose text after `T` (`bytes`, up to the end of the record) is
/// a plain number ([`plain_number`]) and one optional `\r`, and what follows the line
/// (`None` when it is the last line), as [`Lines`] splits and strips it; read in place,
/// without a newline search.
#[inline]
fn plain_time_line(bytes: &[u8]) -> Option<(i64, Option<&[u8]>)> {
    // Most moves take under ten seconds, nearly all under a hundred.
    match *bytes {
        [d, b'\n', ref rest @ ..] if d.is_ascii_digit() => {
            return Some((i64::from(d - b'0'), Some(rest)));
        }
        [d, e, b'\n', ref rest @ ..] if d.is_ascii_digit() && e.is_ascii_digit() => {
            return Some((i64::from(d - b'0') * 10 + i64::from(e - b'0'), Some(rest)));
        }
        _ => {}
    }
    let len = bytes
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(bytes.len());
    let n = plain_number(&bytes[..len])?;
    let rest = match &bytes[len..] {
        [] | [b'\r'] => None,
        [b'\n', rest @ ..] | [b'\r', b'\n', rest @ ..] => Some(rest),
        _ => return None,
    };
    Some((n, rest))
}

/// A plain run of 1 to 18 ASCII digits as a number (no sign, no spaces: what nearly every
/// `T` line holds); `None` for anything else.
#[inline]
pub(crate) fn plain_number(bytes: &[u8]) -> Option<i64> {
    if bytes.is_empty() || bytes.len() > 18 {
        return None;
    }
    let mut n = 0i64;
    for &b in bytes {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n * 10 + i64::from(d);
    }
    Some(n)
}

/// Index of the first `\n`. Most record lines are short (`T3`, `+7776FU`): the first
/// eight bytes are tested as one word, which finds the end of those at once; a longer
/// line (an engine's comment, typically 50-200 bytes) is searched 16 bytes at a time.
#[inline]
fn find_newline(r: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let Some(chunk) = r.first_chunk::<8>() else {
        return r.iter().position(|&b| b == b'\n');
    };
    let x = u64::from_le_bytes(*chunk) ^ (ONES * u64::from(b'\n'));
    // A byte of `x` is zero where the chunk holds `\n`; the lowest flagged byte is exact
    // (a false flag can only sit above a true one).
    let zero = x.wrapping_sub(ONES) & !x & HIGH;
    if zero != 0 {
        return Some((zero.trailing_zeros() / 8) as usize);
    }
    newline_from(r, 8)
}

/// Index of the first `\n` of `r` at or after `from`, 16 bytes at a time with SSE2 (part
/// of every x86_64 processor): for the length of a comment line, cheaper than a call to
/// `memchr`, whose setup pays off on longer texts (`reports/bench-scan-history.md`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn newline_from(r: &[u8], from: usize) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut i = from;
    while let Some(chunk) = r.get(i..i + 16) {
        // SAFETY: SSE2 is enabled for this build (the `cfg` above), and `chunk` holds 16
        // readable bytes for a load with no alignment needs.
        let bits = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)))
        };
        if bits != 0 {
            return Some(i + bits.trailing_zeros() as usize);
        }
        i += 16;
    }
    memchr::memchr(b'\n', r.get(i..)?).map(|k| i + k)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn newline_from(r: &[u8], from: usize) -> Option<usize> {
    memchr::memchr(b'\n', r.get(from..)?).map(|k| from + k)
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
        // Lines around 8 bytes (one word) and around 16-byte steps past it.
        let mut text = b"0123456789abcdef\n01\n\n0123456\n01234567\n012345678\nxyz".to_vec();
        for n in [23, 24, 25, 39, 40, 41, 70] {
            text.extend((0..n).map(|i| b'a' + (i % 26) as u8));
            text.push(b'\n');
        }
        text.extend_from_slice(&[b'z'; 50]);
        for start in 0..text.len() {
            for end in start..=text.len() {
                let r = &text[start..end];
                assert_eq!(find_newline(r), r.iter().position(|&b| b == b'\n'), "{r:?}");
            }
        }
    }

    #[test]
    fn plain_time_lines_are_taken_and_others_left() {
        let text =
            b"+7776FU\nT12\n-3334FU\nT-1\n+2726FU\nT3.5\n-8384FU\r\nT4\r\n+2625FU\nT\nT7x\nT0";
        let mut plain = lines(text);
        let mut taking = lines(text);
        let mut taken = Vec::new();
        while let Some((no, line)) = taking.next() {
            assert_eq!(plain.next(), Some((no, line)));
            if let Some((tno, t)) = taking.next_plain_time() {
                let (pno, pline) = plain.next().unwrap();
                assert_eq!((tno, pline), (pno, format!("T{t}").as_bytes()));
                taken.push((tno, t));
            }
            assert_eq!(taking.line_no(), plain.line_no());
        }
        assert_eq!(plain.next(), None);
        // `T-1`, `T3.5`, a bare `T` and `T7x` are left to the reader's general path; the
        // last line has no newline.
        assert_eq!(taken, vec![(2, 12), (8, 4), (12, 0)]);
        // Nineteen digits do not fit the fast path (no overflow).
        let mut l = lines(b"+7776FU\nT9999999999999999999\n");
        l.next();
        assert_eq!(l.next_plain_time(), None);
        assert_eq!(l.next(), Some((2, &b"T9999999999999999999"[..])));
    }

    #[test]
    fn server_moves_are_taken_with_their_time_like_the_general_path() {
        // Every line shape the fast path must take or leave, in every order and with
        // the record cut at every byte: the lines, their numbers and the times it yields
        // are those of `next` and `next_plain_time`.
        let shapes: [&[u8]; 17] = [
            b"+7776FU\n",
            b"-0055KA\n",
            b"+7776FU\r\n",
            b"+7776FU,T12\n",
            b"+7776F\n",
            b"+77a6FU\n",
            b"T12\n",
            b"T7\n",
            b"T123\n",
            b"T4x\n",
            b"T0\r\n",
            b"T-1\n",
            b"T3.5\n",
            b"T\n",
            b"T9999999999999999999\n",
            b"'** 30 -3334FU\n",
            b"\n",
        ];
        let mut text = Vec::new();
        for (i, a) in shapes.iter().enumerate() {
            for b in &shapes[i % 3..] {
                text.extend_from_slice(a);
                text.extend_from_slice(b);
            }
        }
        for end in 0..=text.len() {
            let r = &text[..end];
            let mut plain = lines(r);
            let mut want = Vec::new();
            while let Some((no, line)) = plain.next() {
                // Taken by the fast path: a move of seven bytes, no `\r`, then `\n`.
                let end = plain_end(r, no);
                let start = if no == 1 { 0 } else { plain_end(r, no - 1) + 1 };
                let time = if is_move_text(line) && end - start == 7 && end < r.len() {
                    plain.next_plain_time().map(|(_, t)| t)
                } else {
                    None
                };
                want.push((no, line, time));
            }
            let mut fast = lines(r);
            let mut got = Vec::new();
            loop {
                if let Some((no, text, time)) = fast.next_server_move() {
                    got.push((no, text, time));
                    continue;
                }
                match fast.next() {
                    Some((no, line)) => got.push((no, line, None)),
                    None => break,
                }
            }
            assert_eq!(got, want, "cut at {end}");
            assert_eq!(fast.line_no(), plain.line_no());
        }
    }

    /// The offset in `r` just after line `no` (1-based) ends, on its `\n` if it has one.
    fn plain_end(r: &[u8], no: usize) -> usize {
        let mut seen = 0;
        for (i, &b) in r.iter().enumerate() {
            if b == b'\n' {
                seen += 1;
                if seen == no {
                    return i;
                }
            }
        }
        r.len()
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
