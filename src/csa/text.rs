//! Comment text: kept as the bytes of the file and decoded only on demand.
//!
//! Comments are EUC-JP since 2008, raw client bytes (often Shift_JIS) before, and
//! anything in echoed client lines. Decoding never fails: ASCII and UTF-8 pass through,
//! other bytes are shown as `\xNN` escapes so that nothing is lost.

/// A comment line (`'...`) of the record, without its leading quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'a> {
    /// 1-based line number.
    pub line: usize,
    /// Bytes after the `'`.
    pub bytes: &'a [u8],
    /// Number of move lines read before this comment.
    pub after_plies: usize,
}

impl Comment<'_> {
    /// The text, decoded with [`decode_text`].
    pub fn text(&self) -> String {
        decode_text(self.bytes)
    }
}

/// Bytes as text, invalid sequences replaced by U+FFFD (like `String::from_utf8_lossy`,
/// whose character-by-character check is several times slower than the standard
/// validation on the plain ASCII of nearly every header line).
pub(crate) fn utf8_lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Decode record text without failing: valid UTF-8 (ASCII included) as is, any other
/// byte as a `\xNN` escape.
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let mut out = String::with_capacity(bytes.len() * 2);
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_lossy_equals_the_standard_lossy_decoding() {
        let cases: [&[u8]; 6] = [
            b"",
            b"wdoor+floodgate-300-10F+a+b+20190404063001",
            "王手".as_bytes(),
            b"a\xB2\xA6b",
            b"\xff",
            b"\xe7\x8e",
        ];
        for c in cases {
            assert_eq!(utf8_lossy(c), String::from_utf8_lossy(c), "{c:?}");
        }
    }

    #[test]
    fn decode_never_fails_and_keeps_information() {
        assert_eq!(decode_text(b"** 30 -3334FU"), "** 30 -3334FU");
        assert_eq!(decode_text("王".as_bytes()), "王");
        // EUC-JP bytes of a kanji: not UTF-8, escaped.
        assert_eq!(decode_text(b"a\xB2\xA6"), "a\\xB2\\xA6");
    }
}
