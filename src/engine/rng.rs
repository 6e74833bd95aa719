//! A small deterministic random number generator, the same on every machine and for any
//! number of threads: the learned evaluation's sampling ([`crate::lab::learn`]), and the
//! perturbations and random openings of the self-play tools.

/// A tiny deterministic generator (xorshift64*), enough for perturbation signs.
#[derive(Debug, Clone)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// A generator seeded with `seed` (0, which would stay 0 forever, is taken as 1).
    pub fn new(seed: u64) -> XorShift64Star {
        XorShift64Star(seed.max(1))
    }
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_balanced() {
        let mut a = XorShift64Star::new(7);
        let mut b = XorShift64Star::new(7);
        let xs: Vec<u64> = (0..1000).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..1000).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        let ones = xs.iter().filter(|x| *x & 1 == 1).count();
        assert!((400..600).contains(&ones), "{ones}");
    }
}
