//! Fuzz the CSA record reader and the per-game analysis: any bytes, no panic, the
//! reader's output is consistent with its input, and the final board's quick comparison
//! agrees with the full one.
#![no_main]

use floodgate_scan::csa::read_record;
use floodgate_scan::game::analyse_record;
use floodgate_scan::game::final_board::{compare, compare_parsed};
use floodgate_scan::game::playthrough::{play_through, start_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(rec) = read_record(data) {
        // Every move is 7 bytes of move shape and lies on a line of the input.
        let line_count = rec.line_count;
        for m in &rec.moves {
            assert_eq!(m.text.len(), 7);
            assert!(floodgate_scan::csa::is_move_text(m.text));
            assert!(m.line >= 1 && m.line <= line_count);
        }
        for s in &rec.specials {
            assert!(s.after_plies <= rec.moves.len());
        }
        if let Some(r) = rec.rejected {
            assert!(r.after_plies <= rec.moves.len());
        }
        // A record not ending in a newline is always flagged.
        if data.last() != Some(&b'\n') {
            assert!(rec.truncated);
        }
        // analyse_record accepts whatever the reader accepts.
        let row = analyse_record("fuzz", "fuzz.csa", data).expect("readable record");
        assert_eq!(row.plies as usize, rec.moves.len());
        // The final board's quick comparison gives the full comparison's verdict.
        if let Ok(start) = start_position(&rec) {
            let r = play_through(start, &rec.moves, false);
            assert_eq!(
                compare(&rec, &r.last, || r.before_last()),
                compare_parsed(&rec, &r.last, || r.before_last())
            );
        }
    } else {
        assert!(analyse_record("fuzz", "fuzz.csa", data).is_err());
    }
});
