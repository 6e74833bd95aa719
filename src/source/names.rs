//! Entry names: which are records, and how they are written.
use std::path::Path;

/// Is this archive member a record (`*.csa`, any case)?
pub(super) fn is_record_name(name: &str) -> bool {
    let n = name.as_bytes();
    n.len() > 4 && n[n.len() - 4..].eq_ignore_ascii_case(b".csa")
}

/// Entry names as stored, without a leading `./`.
pub(super) fn clean_name(name: &str) -> String {
    let mut n = name;
    while let Some(rest) = n.strip_prefix("./") {
        n = rest;
    }
    n.to_string()
}

/// The last component of `path`, or nothing when it has none in UTF-8.
pub(super) fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|s| s.to_str()).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names() {
        assert!(is_record_name("2024/a.csa"));
        assert!(is_record_name("A.CSA"));
        assert!(!is_record_name(".csa"));
        assert!(!is_record_name("readme.txt"));
        assert_eq!(clean_name("././2024/x.csa"), "2024/x.csa");
    }
}
