//! Malformed-input contract for the record reader and the per-game analysis: random
//! bytes, and real records mutated byte by byte, truncated or spliced, never panic; the
//! reader's invariants hold on whatever it accepts.

use floodgate_scan::csa::{is_move_text, read_record};
use floodgate_scan::game::analyse_record;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

fn fixtures() -> &'static Vec<Vec<u8>> {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        let mut v = Vec::new();
        for dir in ["real", "server"] {
            let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/csa")
                .join(dir);
            let mut paths: Vec<_> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "csa"))
                .collect();
            paths.sort();
            v.extend(paths.iter().map(|p| std::fs::read(p).unwrap()));
        }
        v
    })
}

fn check(bytes: &[u8]) {
    match read_record(bytes) {
        Ok(rec) => {
            for m in &rec.moves {
                assert!(is_move_text(m.text) && m.text.len() == 7);
                assert!(m.line >= 1 && m.line <= rec.line_count);
            }
            for s in &rec.specials {
                assert!(s.after_plies <= rec.moves.len());
            }
            if bytes.last() != Some(&b'\n') {
                assert!(rec.truncated);
            }
            let row = analyse_record("src", "e.csa", bytes).expect("the reader accepted it");
            assert_eq!(row.plies as usize, rec.moves.len());
            assert!(!row.status.is_empty());
            if let Some(p) = row.illegal_ply {
                assert!(p >= 1 && p as usize <= rec.moves.len());
            }
            let board = &*row.final_board;
            assert!(["match", "mismatch", "prelast", "missing", "unchecked"].contains(&board));
        }
        Err(_) => assert!(analyse_record("src", "e.csa", bytes).is_err()),
    }
}

/// A mutation of a real record.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Flip(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Insert(usize, Vec<u8>),
}

fn apply(src: &[u8], muts: &[Mutation]) -> Vec<u8> {
    let mut v = src.to_vec();
    for m in muts {
        let n = v.len().max(1);
        match m {
            Mutation::Truncate(i) => v.truncate(i % n),
            Mutation::Flip(i, b) => {
                if !v.is_empty() {
                    let i = i % v.len();
                    v[i] ^= b;
                }
            }
            Mutation::Delete(i, len) => {
                let i = i % n;
                let end = (i + len).min(v.len());
                if i < end {
                    v.drain(i..end);
                }
            }
            Mutation::Duplicate(i, len) => {
                let i = i % n;
                let end = (i + len).min(v.len());
                if i < end {
                    let chunk = v[i..end].to_vec();
                    v.splice(end..end, chunk);
                }
            }
            Mutation::Insert(i, bytes) => {
                let i = (i % n).min(v.len());
                v.splice(i..i, bytes.iter().copied());
            }
        }
    }
    v
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let csa_bits = prop::sample::select(vec![
        b"\n".to_vec(),
        b"\r\n".to_vec(),
        b"%KACHI\n".to_vec(),
        b"%%TORYO\n".to_vec(),
        b"'ILLEGAL_MOVE(+0055KA)\n".to_vec(),
        b"+0055KA\nT-1\n".to_vec(),
        b"-5142OU\n".to_vec(),
        b"'P1 *  *  *  *  *  *  *  *  * \n".to_vec(),
        b"P5 *  *  *  * +OU *  *  *  * \n".to_vec(),
        b"'summary:kachi:a win:b lose\n".to_vec(),
        b"+\n".to_vec(),
        b"\xff\xfe\x00".to_vec(),
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), 1usize..64).prop_map(|(i, l)| Mutation::Delete(i, l)),
        (any::<usize>(), 1usize..200).prop_map(|(i, l)| Mutation::Duplicate(i, l)),
        (any::<usize>(), csa_bits).prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&bytes);
    }

    #[test]
    fn csa_shaped_lines_never_panic(lines in prop::collection::vec(
        prop_oneof![
            "[VNP$%'T+-][ -~]{0,30}",
            "[+-][0-9]{4}(FU|KY|KE|GI|KI|KA|HI|OU|TO|NY|NK|NG|UM|RY|XX)",
            "P[1-9]([ +-][A-Z *]{2}){0,9}",
            "'P[+-](00[A-Z]{2}){0,4}",
        ], 0..40)) {
        let text = lines.join("\n");
        check(text.as_bytes());
    }

    #[test]
    fn mutated_real_records_never_panic(
        which in any::<prop::sample::Index>(),
        muts in prop::collection::vec(mutation(), 1..6),
    ) {
        let f = fixtures();
        let src = &f[which.index(f.len())];
        check(&apply(src, &muts));
    }
}

#[test]
fn every_prefix_of_a_record_is_handled() {
    // Cutting records at (nearly) every byte exercises every kind of truncation point.
    for src in fixtures() {
        for cut in (0..src.len()).step_by(3) {
            check(&src[..cut]);
        }
    }
}
