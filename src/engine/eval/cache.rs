//! A small cache of static evaluations, keyed by the position's hash key.
//!
//! The search evaluates the same position more than once: the quiescence search stands
//! pat on positions that transpose into each other, and each iteration of the deepening
//! revisits the positions of the one before. The cache keeps the last value seen at
//! each slot of a small table (the slot chosen by the key's low bits), so that a repeat
//! costs one load instead of a full evaluation.
//!
//! One entry is one `u64`: the key's upper 48 bits and the value as an `i16` (values
//! outside its range are not stored). With at least 16 slot bits, the slot and the
//! stored bits together check the whole key; with fewer, 48 bits plus the slot bits.
//! The cache holds values of one evaluation: the searcher clears it when a search
//! starts, since the evaluation (the mode, the weights) may change between searches.

/// Slot bits of [`EvalCache::new`]'s table.
pub const DEFAULT_BITS: u32 = 14;

/// The key bits an entry stores.
const KEY_MASK: u64 = !0xffff;

/// A table of `2^bits` evaluations keyed by the position's hash key.
#[derive(Debug, Clone)]
pub struct EvalCache {
    entries: Vec<u64>,
    mask: usize,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new(DEFAULT_BITS)
    }
}

impl EvalCache {
    /// An empty cache of `2^bits` entries (8 bytes each).
    pub fn new(bits: u32) -> EvalCache {
        let mut c = EvalCache {
            entries: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
        };
        c.clear();
        c
    }

    /// The empty entry of slot `slot`: its key bits are the slot index turned over, so
    /// that a key of that slot matches it only if its upper 48 bits are exactly those
    /// (one key in 2^48; zero would match the keys whose upper bits are all zero).
    fn empty_entry(slot: usize) -> u64 {
        !(slot as u64) << 16 & KEY_MASK
    }

    /// Forget every value.
    pub fn clear(&mut self) {
        for (i, e) in self.entries.iter_mut().enumerate() {
            *e = Self::empty_entry(i);
        }
    }

    /// The value stored for `key`, if any.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<i32> {
        let e = self.entries[key as usize & self.mask];
        ((e ^ key) & KEY_MASK == 0).then_some(e as u16 as i16 as i32)
    }

    /// Store `value` for `key` (nothing if it does not fit in an `i16`).
    #[inline(always)]
    pub fn put(&mut self, key: u64, value: i32) {
        if let Ok(v) = i16::try_from(value) {
            self.entries[key as usize & self.mask] = key & KEY_MASK | v as u16 as u64;
        }
    }

    /// The stored value for `key`, or `eval()` (then stored).
    #[inline(always)]
    pub fn get_or(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        match self.get(key) {
            Some(v) => v,
            None => {
                let v = eval();
                self.put(key, v);
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_returns_values_by_key() {
        let mut c = EvalCache::new(4);
        let k = 0x1234_5678_9abc_def3;
        assert_eq!(c.get(k), None);
        c.put(k, -1234);
        assert_eq!(c.get(k), Some(-1234));
        // Same slot, other key: a miss, then it replaces the entry.
        let other = k ^ 1 << 40;
        assert_eq!(c.get(other), None);
        c.put(other, 7);
        assert_eq!(c.get(other), Some(7));
        assert_eq!(c.get(k), None);
        // Values beyond an i16 are not stored.
        c.put(k, 40_000);
        assert_eq!(c.get(k), None);
        assert_eq!(c.get_or(k, || 40_000), 40_000);
        assert_eq!(c.get_or(k, || 5), 5);
        assert_eq!(c.get_or(k, || 6), 5);
        c.clear();
        assert_eq!(c.get(k), None);
    }

    #[test]
    fn an_empty_cache_matches_no_key_of_zero_upper_bits() {
        let c = EvalCache::new(4);
        for k in 0..64u64 {
            assert_eq!(c.get(k), None, "{k}");
        }
    }
}
