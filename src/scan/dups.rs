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
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::game::{COLUMNS, Cell};

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
    seen: HashMap<u128, u32>,
    /// Duplicates per input.
    pub per_input: Vec<u64>,
    /// The first few duplicates, as `id (first in A, again in B)`.
    pub sample: Vec<String>,
    /// The counts of the games left out (with `drop`), to take off the totals.
    pub dropped: Stats,
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
            seen: HashMap::new(),
            per_input: vec![0; inputs],
            sample: Vec::new(),
            dropped: Stats::default(),
        }
    }

    /// Look at the next game in output order, from input `input` (`names` are the inputs'
    /// names); `true` when its row is to be written.
    pub fn keep(&mut self, input: usize, names: &[String], cells: &[Cell<'_>]) -> bool {
        let Some(Cell::Str(Some(id))) = cells.get(self.id_column) else {
            return true;
        };
        if id.is_empty() {
            return true;
        }
        let first = match self.seen.entry(key(id)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(input as u32);
                return true;
            }
            std::collections::hash_map::Entry::Occupied(o) => *o.get() as usize,
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
}
