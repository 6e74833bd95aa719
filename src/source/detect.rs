//! Recognising a container by its first bytes, so that a renamed or extension-less file
//! is still read correctly.

/// Bytes needed to recognise every supported container (a tar header block).
pub const HEAD_LEN: usize = 512;

/// The container of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A folder searched recursively for `*.csa`.
    Folder,
    /// A single record (or any file that is no known container).
    Record,
    /// A tar archive.
    Tar,
    /// A gzip stream: a `.tar.gz`, or one gzip-compressed record.
    Gzip,
    /// A 7z archive.
    SevenZ,
    /// A zip archive.
    Zip,
}

impl Format {
    /// Short name for summaries.
    pub fn name(self) -> &'static str {
        match self {
            Format::Folder => "folder",
            Format::Record => "record",
            Format::Tar => "tar",
            Format::Gzip => "gzip",
            Format::SevenZ => "7z",
            Format::Zip => "zip",
        }
    }
}

const SEVENZ_MAGIC: &[u8] = b"7z\xBC\xAF\x27\x1C";

/// The container whose signature starts `head` (give at least `HEAD_LEN` bytes when
/// available), or `None` for anything else (read as a record).
pub fn detect(head: &[u8]) -> Option<Format> {
    if head.starts_with(SEVENZ_MAGIC) {
        Some(Format::SevenZ)
    } else if head.starts_with(&[0x1f, 0x8b]) {
        Some(Format::Gzip)
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Some(Format::Zip)
    } else if looks_like_tar(head) {
        Some(Format::Tar)
    } else {
        None
    }
}

/// A tar header block: the POSIX `ustar` magic, or (old V7 archives) a valid checksum.
pub fn looks_like_tar(head: &[u8]) -> bool {
    if head.len() < HEAD_LEN {
        return false;
    }
    if &head[257..262] == b"ustar" {
        return true;
    }
    // Checksum: the sum of all header bytes, the checksum field counted as spaces.
    let field = &head[148..156];
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .filter(|b| (b'0'..=b'7').contains(b))
        .collect();
    if digits.is_empty() || head[0] == 0 {
        return false;
    }
    let Ok(text) = std::str::from_utf8(&digits) else {
        return false;
    };
    let Ok(stored) = u32::from_str_radix(text, 8) else {
        return false;
    };
    let sum: u32 = head[..HEAD_LEN]
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                u32::from(b' ')
            } else {
                u32::from(b)
            }
        })
        .sum();
    sum == stored
}

/// The archive kind a file name promises (`.7z`, `.zip`, `.tar`, `.tar.gz`, `.tgz`,
/// `.gz`), used only to word the error when the content does not match.
pub fn archive_extension(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    [
        (".tar.gz", "tar.gz"),
        (".tgz", "tar.gz"),
        (".gz", "gzip"),
        (".tar", "tar"),
        (".7z", "7z"),
        (".zip", "zip"),
    ]
    .into_iter()
    .find(|(ext, _)| lower.ends_with(ext))
    .map(|(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures() {
        assert_eq!(detect(b"7z\xBC\xAF\x27\x1C\x00\x04"), Some(Format::SevenZ));
        assert_eq!(detect(&[0x1f, 0x8b, 8, 0]), Some(Format::Gzip));
        assert_eq!(detect(b"PK\x03\x04rest"), Some(Format::Zip));
        assert_eq!(detect(b"V2.2\nN+a\n"), None);
        assert_eq!(detect(&[]), None);
        let mut block = vec![0u8; 512];
        block[..5].copy_from_slice(b"a.csa");
        block[257..263].copy_from_slice(b"ustar\0");
        assert_eq!(detect(&block), Some(Format::Tar));
        assert_eq!(detect(&[0u8; 512]), None, "a zero block is no tar header");
    }

    #[test]
    fn extensions() {
        assert_eq!(archive_extension("wdoor2024.7z"), Some("7z"));
        assert_eq!(archive_extension("x.TGZ"), Some("tar.gz"));
        assert_eq!(archive_extension("x.csa"), None);
    }
}
