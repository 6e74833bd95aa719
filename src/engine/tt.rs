//! The transposition table: a fixed array of two-entry buckets indexed by the position
//! key, remembering the best move, a bounded score and the depth of earlier searches.
//! Replacement prefers the deeper entry unless it is from an older search.
use crate::shogi::sets::{KIND_LIST, kind_index};
use crate::shogi::{Move, Square};

/// Bound type of a stored score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No score stored (an empty entry).
    None = 0,
    /// The true score is at most the stored one (the search failed low).
    Upper = 1,
    /// The true score is at least the stored one (the search failed high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A move packed into 32 bits (0 = no move).
pub fn pack_move(m: Move) -> u32 {
    match m {
        Move::Normal { from, to, promote } => {
            1 | (from.index() as u32) << 1 | (to.index() as u32) << 8 | (promote as u32) << 15
        }
        Move::Drop { kind, to } => {
            1 | 1 << 16 | (kind_index(kind) as u32) << 1 | (to.index() as u32) << 8
        }
    }
}

/// Unpack a move packed by [`pack_move`].
pub fn unpack_move(p: u32) -> Option<Move> {
    if p & 1 == 0 {
        return None;
    }
    let a = ((p >> 1) & 0x7f) as usize;
    let to = Square::from_index(((p >> 8) & 0x7f) as usize)?;
    if p & (1 << 16) != 0 {
        let kind = *KIND_LIST.get(a)?;
        Some(Move::Drop { kind, to })
    } else {
        let from = Square::from_index(a)?;
        Some(Move::Normal {
            from,
            to,
            promote: p & (1 << 15) != 0,
        })
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u32,
    score: i16,
    eval: i16,
    depth: i8,
    bound: u8,
    age: u8,
}

/// What a probe found.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// The best move found, packed ([`unpack_move`]; 0 = none).
    pub mv: u32,
    /// The score stored with it, for the side to move (clamped to 16 bits).
    pub score: i32,
    /// The static evaluation stored with it (clamped to 16 bits).
    pub eval: i32,
    /// The remaining depth of the search that stored it.
    pub depth: i32,
    /// How `score` bounds the true score.
    pub bound: Bound,
}

/// The table.
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<[Entry; 2]>,
    mask: usize,
    age: u8,
}

/// A table that cannot be allocated: its text is the `info string` the USI session
/// answers (the table in use is kept).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{mb} MB cannot be allocated{why}")]
pub struct AllocError {
    /// The size asked for, in MB.
    pub mb: usize,
    /// Why, with its leading separator (`": ..."`).
    why: String,
}

/// Number of buckets of a table of about `mb` megabytes (a power of two, at least one),
/// or `None` if the size in bytes does not fit in memory addresses.
fn buckets_for(mb: usize) -> Option<usize> {
    let bucket = std::mem::size_of::<[Entry; 2]>();
    let bytes = mb.max(1).checked_mul(1024 * 1024)?;
    let wanted = (bytes / bucket).max(1);
    Some(if wanted.is_power_of_two() {
        wanted
    } else {
        wanted.next_power_of_two() / 2
    })
}

/// Memory the system can still give, in bytes (Linux: `MemAvailable`; elsewhere
/// unknown).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket; a power of two buckets).
    /// Aborts if the memory cannot be had; [`TranspositionTable::try_new`] does not.
    pub fn new(mb: usize) -> TranspositionTable {
        let n = buckets_for(mb).unwrap_or(1);
        TranspositionTable {
            entries: vec![[Entry::default(); 2]; n],
            mask: n - 1,
            age: 0,
        }
    }

    /// A table of about `mb` megabytes, or an error if its size does not fit in memory
    /// addresses, is more than the system says it has available, or the allocation fails.
    /// Nothing is touched before the whole table is reserved.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let fail = |why: String| AllocError { mb, why };
        let n = buckets_for(mb).ok_or_else(|| fail(": too large for this machine".into()))?;
        let bytes = (n as u64).saturating_mul(std::mem::size_of::<[Entry; 2]>() as u64);
        // On a system that over-commits memory, a reservation larger than the memory can
        // succeed and the process then dies while the table is filled: ask first.
        if let Some(avail) = available_memory()
            && bytes > avail
        {
            return Err(fail(format!(": {} MB available", avail / (1024 * 1024))));
        }
        let mut entries: Vec<[Entry; 2]> = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|e| fail(format!(": {e}")))?;
        entries.resize(n, [Entry::default(); 2]);
        Ok(TranspositionTable {
            entries,
            mask: n - 1,
            age: 0,
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.entries.len() * 2
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.fill([Entry::default(); 2]);
        self.age = 0;
    }

    /// Start a new search (older entries become preferred victims).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Ask the processor to start loading the bucket of `key` (a hint: the contents of
    /// the table do not change), so that a probe soon after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.entries.as_ptr().wrapping_add(key as usize & self.mask);
            let first = bucket as *const i8;
            // A bucket may straddle two cache lines: touch its first and last byte.
            let last = first.wrapping_add(std::mem::size_of::<[Entry; 2]>() - 1);
            // SAFETY: `sse` is part of every x86-64 processor, and a prefetch never faults
            // nor reads into the program: any address is allowed.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
    }

    /// Look a key up.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.entries[key as usize & self.mask];
        bucket
            .iter()
            .find(|e| e.key == key && e.bound != 0)
            .map(|e| Hit {
                mv: e.mv,
                score: e.score as i32,
                eval: e.eval as i32,
                depth: e.depth as i32,
                bound: match e.bound {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                },
            })
    }

    /// Store a result. A move of 0 keeps the move already stored for this key.
    #[allow(clippy::too_many_arguments)] // each argument is one field of the entry
    pub fn store(&mut self, key: u64, mv: u32, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let bucket = &mut self.entries[key as usize & self.mask];
        let slot = if let Some(i) = bucket.iter().position(|e| e.key == key) {
            i
        } else {
            // Victim: an empty or old entry, else the shallower one.
            let score_of = |e: &Entry| -> i32 {
                if e.bound == 0 {
                    -1000
                } else {
                    e.depth as i32 - if e.age != age { 64 } else { 0 }
                }
            };
            if score_of(&bucket[0]) <= score_of(&bucket[1]) {
                0
            } else {
                1
            }
        };
        let e = &mut bucket[slot];
        let mv = if mv == 0 && e.key == key { e.mv } else { mv };
        if e.key == key && bound != Bound::Exact && depth < e.depth as i32 - 2 && e.age == age {
            return;
        }
        *e = Entry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 127) as i8,
            bound: bound as u8,
            age,
        };
    }

    /// Per-mille of sampled entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(500);
        let used: usize = self.entries[..n]
            .iter()
            .map(|b| {
                b.iter()
                    .filter(|e| e.bound != 0 && e.age == self.age)
                    .count()
            })
            .sum();
        (used * 1000 / (n * 2)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_a_power_of_two_within_the_budget() {
        let t = TranspositionTable::new(1);
        assert!(t.entries.len().is_power_of_two());
        assert!(t.entries.len() * std::mem::size_of::<[Entry; 2]>() <= 1024 * 1024);
        let t = TranspositionTable::new(3);
        assert!(t.entries.len() * std::mem::size_of::<[Entry; 2]>() <= 3 * 1024 * 1024);
    }

    #[test]
    fn an_impossible_table_is_an_error_not_an_abort() {
        let e = TranspositionTable::try_new(usize::MAX).unwrap_err();
        assert_eq!(e.mb, usize::MAX);
        assert!(e.to_string().contains("cannot be allocated"), "{e}");
        // More than any address space: refused before anything is reserved.
        assert!(TranspositionTable::try_new(usize::MAX / (1024 * 1024) + 1).is_err());
        // Addressable but far more than any machine has (2^60 bytes): refused too.
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        let t = TranspositionTable::try_new(2).unwrap();
        assert_eq!(t.capacity(), TranspositionTable::new(2).capacity());
    }

    #[test]
    fn store_and_probe() {
        let mut t = TranspositionTable::new(1);
        assert!(t.probe(12345).is_none());
        t.store(12345, 77, -300, 12, 5, Bound::Lower);
        let h = t.probe(12345).unwrap();
        assert_eq!(
            (h.mv, h.score, h.eval, h.depth, h.bound),
            (77, -300, 12, 5, Bound::Lower)
        );
        // Same key without a move keeps the stored move.
        t.store(12345, 0, 10, 12, 6, Bound::Exact);
        let h = t.probe(12345).unwrap();
        assert_eq!((h.mv, h.score, h.depth, h.bound), (77, 10, 6, Bound::Exact));
        t.clear();
        assert!(t.probe(12345).is_none());
    }

    #[test]
    fn a_bucket_holds_two_keys_and_replaces_the_shallower() {
        let mut t = TranspositionTable::new(1);
        let n = t.entries.len() as u64;
        let (a, b, c) = (5, 5 + n, 5 + 2 * n);
        t.store(a, 1, 0, 0, 8, Bound::Exact);
        t.store(b, 3, 0, 0, 2, Bound::Exact);
        assert!(t.probe(a).is_some() && t.probe(b).is_some());
        t.store(c, 5, 0, 0, 4, Bound::Exact);
        assert!(t.probe(a).is_some(), "deep entry kept");
        assert!(t.probe(b).is_none(), "shallow entry replaced");
        assert!(t.probe(c).is_some());
        // After a new search, old entries are the victims, however deep.
        t.new_search();
        t.store(b, 3, 0, 0, 1, Bound::Exact);
        t.store(5 + 3 * n, 3, 0, 0, 1, Bound::Exact);
        assert!(t.probe(a).is_none() && t.probe(c).is_none());
        assert!(t.probe(b).is_some());
    }
}
