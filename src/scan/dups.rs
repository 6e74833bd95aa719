//! Games seen more than once: the same archive named twice, or an archive beside the folder
//! it was extracted to, gives every game twice. The writer looks at every game id in output
//! order; a game whose id was already written is a duplicate, counted (per input and in
//! total, with the first few named), and with `--dedupe` left out of the table and of the
//! totals, counted apart.
//!
//! Ids are remembered as 128-bit hashes with the input they were first seen in (24 bytes
//! each, about 70 MB for the three million games of the full download): two different ids
//! are taken for the same with a chance of about 10^-26.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};

use crate::game::{COLUMNS, Cell};

use super::encode::decode_row;

use super::Stats;

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
    /// Id hash -> the input it was first seen in.
    seen: HashMap<u128, u32, BuildHasherDefault<KeyHasher>>,
    /// Duplicates per input.
    pub per_input: Vec<u64>,
    /// The first few duplicates, as `id (first in A, again in B)`.
    pub sample: Vec<String>,
    /// The counts of the games left out (with `drop`), to take off the totals.
    pub dropped: Stats,
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
        // Not used by `u128` keys; any other bytes are folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, k: u128) {
        self.0 = (k as u64) ^ ((k >> 64) as u64);
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
            seen: HashMap::default(),
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
    fn first_seen(&mut self, input: usize, key: u128) -> Option<usize> {
        match self.seen.entry(key) {
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
}
