//! Games seen more than once: the same archive named twice, or an archive beside the folder
//! it was extracted to, gives every game twice. The writer looks at every game id in output
//! order; a game whose id was already written is a duplicate, counted (per input and in
//! total, with the first few named), and with `--dedupe` left out of the table and of the
//! totals, counted apart.
//!
//! Ids are remembered as hashes with the input they were first seen in: 102 bits of a
//! 128-bit hash, 16 bytes an entry in tables at most seven eighths full, which double as
//! they grow (measured by `benches/scan_ids.rs`: 36 MB for 1.8 million ids, 70-71 MB from
//! 1.86 to 3.6 million, the three million games of the full download among them). Two
//! different ids are taken for the same with a chance of about 10^-18 among three million.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};

use crate::game::{COLUMNS, Cell};

use super::encode::decode_row;

use super::stats::Stats;

/// Duplicates named in the summary.
pub const SAMPLE: usize = 10;

/// The column of the game id in a row's cells.
fn game_id_column() -> usize {
    COLUMNS
        .iter()
        .position(|c| c.name == "game_id")
        .expect("the table has a game_id column")
}

/// What the writer knows about the ids it has written.
pub struct Duplicates {
    /// Leave duplicates out of the table (`--dedupe`).
    pub drop: bool,
    id_column: usize,
    /// Id hash -> the input it was first seen in, in [`SHARDS`] tables.
    seen: Vec<HashMap<Stored, u32, BuildHasherDefault<KeyHasher>>>,
    /// Duplicates per input.
    pub per_input: Vec<u64>,
    /// The first few duplicates, as `id (first in A, again in B)`.
    pub sample: Vec<String>,
    /// The counts of the games left out (with `drop`), to take off the totals.
    pub dropped: Stats,
}

/// The id table is cut in this many tables, chosen by six bits of the key: each doubles on
/// its own when it fills, so that a table's growth holds its old and new storage at once
/// for a sixty-fourth of the ids, not for all of them (one table of 1.86 million ids would
/// hold 107 MB for a moment to keep 71).
const SHARDS: usize = 64;

/// A key as the table keeps it: 96 of its bits, as three 32-bit words, so that an entry (key
/// and input) takes 16 bytes; a `u128`, aligned on 16 bytes, made it 32. Six more bits
/// choose the table ([`SHARDS`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stored([u32; 3]);

impl Stored {
    /// The table of `key` and the key as that table keeps it.
    fn of(key: u128) -> (usize, Stored) {
        let shard = (key >> 122) as usize % SHARDS;
        (
            shard,
            Stored([key as u32, (key >> 32) as u32, (key >> 64) as u32]),
        )
    }
}

impl Hash for Stored {
    /// The first two words: bits of a hash already ([`key`]).
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.0[0]) | (u64::from(self.0[1]) << 32));
    }
}

/// The table's hasher: its keys are already hashes (of 128 bits, from [`key`]), so the
/// table takes their bits as they are instead of hashing them again. The ordered writer
/// looks every game up, one after the other.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by [`Stored`] keys; any other bytes are folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// The key a game id is remembered by, `None` for an empty id (never a duplicate). The
/// workers compute it beside the row, so that the ordered writer only looks it up.
pub fn id_key(id: &str) -> Option<u128> {
    (!id.is_empty()).then(|| key(id))
}

fn key(id: &str) -> u128 {
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        id.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

impl Duplicates {
    pub fn new(drop: bool, inputs: usize) -> Duplicates {
        Duplicates {
            drop,
            id_column: game_id_column(),
            seen: (0..SHARDS).map(|_| HashMap::default()).collect(),
            per_input: vec![0; inputs],
            sample: Vec::new(),
            dropped: Stats::default(),
        }
    }

    /// Look at the next game in output order, from input `input` (`names` are the inputs'
    /// names); `true` when its row is to be written. (The scan uses [`Self::keep_encoded`];
    /// this is its reference.)
    #[cfg(test)]
    pub fn keep(&mut self, input: usize, names: &[String], cells: &[Cell<'_>]) -> bool {
        let Some(Cell::Str(Some(id))) = cells.get(self.id_column) else {
            return true;
        };
        match id_key(id).and_then(|k| self.first_seen(input, k)) {
            None => true,
            Some(first) => self.duplicate(input, first, names, cells),
        }
    }

    /// [`Self::keep`] for a row as a worker encoded it, with the key of its id
    /// ([`id_key`]): the row is only read when it is a duplicate.
    pub fn keep_encoded(
        &mut self,
        input: usize,
        names: &[String],
        key: Option<u128>,
        row: &[u8],
    ) -> bool {
        let Some(first) = key.and_then(|k| self.first_seen(input, k)) else {
            return true;
        };
        match decode_row(row) {
            Ok(cells) => self.duplicate(input, first, names, &cells),
            // An unreadable row cannot be named or counted apart: it is kept, and the
            // table's writer reports it.
            Err(_) => true,
        }
    }

    /// The input the id of `key` was first seen in, or `None` (and the id noted as seen in
    /// `input`) when this is its first sighting.
    pub(super) fn first_seen(&mut self, input: usize, key: u128) -> Option<usize> {
        let (shard, key) = Stored::of(key);
        match self.seen[shard].entry(key) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(input as u32);
                None
            }
            std::collections::hash_map::Entry::Occupied(o) => Some(*o.get() as usize),
        }
    }

    /// Count a duplicate (first seen in `first`); `true` when its row is still written.
    fn duplicate(
        &mut self,
        input: usize,
        first: usize,
        names: &[String],
        cells: &[Cell<'_>],
    ) -> bool {
        let id = match cells.get(self.id_column) {
            Some(Cell::Str(Some(id))) => *id,
            _ => "",
        };
        self.per_input[input] += 1;
        if self.sample.len() < SAMPLE {
            let name = |i: usize| names.get(i).map_or("", String::as_str);
            self.sample.push(if name(first) == name(input) {
                format!("{id} (twice in {})", name(input))
            } else {
                format!("{id} (in {}, again in {})", name(first), name(input))
            });
        }
        if self.drop {
            self.dropped.add_cells(cells);
        }
        !self.drop
    }

    /// Games whose id had been seen before.
    pub fn total(&self) -> u64 {
        self.per_input.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRow;

    #[test]
    fn the_second_sighting_is_the_duplicate_and_is_named() {
        let names = vec!["a.7z".to_string(), "b.7z".to_string()];
        let row = |id: &str| GameRow {
            game_id: id.into(),
            status: "ok".into(),
            ..GameRow::default()
        };
        for drop in [false, true] {
            let mut d = Duplicates::new(drop, 2);
            let (x, y, none) = (row("x"), row("y"), row(""));
            assert!(d.keep(0, &names, &x.cells()));
            assert!(d.keep(0, &names, &y.cells()));
            assert!(d.keep(0, &names, &none.cells()), "no id: never a duplicate");
            assert!(d.keep(0, &names, &none.cells()));
            assert_eq!(d.keep(1, &names, &x.cells()), !drop);
            assert_eq!(d.keep(0, &names, &y.cells()), !drop);
            assert_eq!(d.per_input, [1, 1]);
            assert_eq!(d.total(), 2);
            assert_eq!(
                d.sample,
                ["x (in a.7z, again in b.7z)", "y (twice in a.7z)"]
            );
            assert_eq!(d.dropped.games, if drop { 2 } else { 0 });
        }
        assert_ne!(key("x"), key("y"));
    }

    /// The writer's form (the worker's key and encoded row) decides as the cells do.
    #[test]
    fn encoded_rows_are_judged_like_their_cells() {
        let names = vec!["a.7z".to_string(), "b.7z".to_string()];
        let ids = ["x", "y", "", "x", "", "y", "z", "x"];
        let inputs = [0, 0, 0, 1, 1, 0, 1, 1];
        for drop in [false, true] {
            let (mut by_cells, mut by_rows) = (Duplicates::new(drop, 2), Duplicates::new(drop, 2));
            for (&id, &input) in ids.iter().zip(&inputs) {
                let row = GameRow {
                    game_id: id.into(),
                    status: "ok".into(),
                    ..GameRow::default()
                };
                let mut bytes = Vec::new();
                crate::scan::encode::encode_row(&row, &mut bytes);
                let a = by_cells.keep(input, &names, &row.cells());
                let b = by_rows.keep_encoded(input, &names, id_key(id), &bytes);
                assert_eq!(a, b, "{id} in {input}");
            }
            assert_eq!(by_rows.per_input, [1, 2]);
            assert_eq!(by_rows.sample, by_cells.sample);
            assert_eq!(by_rows.dropped.games, if drop { 3 } else { 0 });
        }
        assert_eq!(id_key(""), None);
    }

    /// The table keeps 102 bits of the key: two keys differing in any of them are two ids
    /// (the hashed words, the third word, the shard's bits), and an entry takes 16 bytes.
    #[test]
    fn every_kept_bit_tells_keys_apart() {
        assert_eq!(std::mem::size_of::<(Stored, u32)>(), 16);
        let base: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        for bit in (0..96).chain(122..128) {
            let mut d = Duplicates::new(false, 2);
            assert_eq!(d.first_seen(0, base), None);
            assert_eq!(d.first_seen(1, base ^ (1 << bit)), None, "bit {bit}");
            assert_eq!(d.first_seen(1, base), Some(0), "bit {bit}");
            assert_eq!(d.first_seen(0, base ^ (1 << bit)), Some(1), "bit {bit}");
        }
    }

    /// Many ids, spread over every shard: each new once, then each a duplicate of the input
    /// it was first seen in.
    #[test]
    fn many_ids_are_each_seen_once() {
        let mut d = Duplicates::new(false, 3);
        let n = 50_000;
        let id = |i: usize| format!("wdoor+floodgate-300-10F+a+b+{i}");
        for i in 0..n {
            assert_eq!(d.first_seen(i % 3, key(&id(i))), None, "{i}");
        }
        assert!(d.seen.iter().all(|t| t.len() > n / SHARDS / 2));
        for i in (0..n).rev() {
            assert_eq!(d.first_seen(0, key(&id(i))), Some(i % 3), "{i}");
        }
        assert_eq!(d.seen.iter().map(HashMap::len).sum::<usize>(), n);
    }
}
