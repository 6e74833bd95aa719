//! The project's one source of random numbers, deterministic, the same on every machine
//! and for any number of threads: splitmix64 (the position core's Zobrist keys, made at
//! compile time, and the seeds of independent streams) and xorshift64* (the learning's
//! sampling, the perturbations and random openings of the self-play tools, the tests'
//! random games).

/// The golden-ratio increment of splitmix64.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The splitmix64 output function: a 64-bit value mixed so that every input bit moves
/// every output bit.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One step of splitmix64: the next state and the output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GAMMA);
    (s, mix64(s))
}

/// The seed of stream `index` of a run seeded with `seed` (a game, a unit of work),
/// independent of the other streams and of the order they are made in.
pub const fn stream_seed(seed: u64, index: u64) -> u64 {
    mix64(seed ^ index.wrapping_mul(GAMMA))
}

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

    /// A number in `0..n` (0 when `n` is 0); the slight bias of the modulo does not matter
    /// for the choices it makes.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
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
        assert!((0..1000).all(|_| a.below(7) < 7));
        assert_eq!(a.below(0), 0);
    }

    #[test]
    fn splitmix_matches_its_published_first_outputs() {
        // splitmix64 seeded with 0: the reference sequence's first outputs.
        let (s, x) = splitmix64(0);
        assert_eq!(x, 0xe220_a839_7b1d_cdaf);
        let (_, y) = splitmix64(s);
        assert_eq!(y, 0x6e78_9e6a_a1b9_65f4);
        assert_ne!(stream_seed(1, 0), stream_seed(1, 1));
        assert_eq!(stream_seed(5, 3), mix64(5 ^ 3u64.wrapping_mul(GAMMA)));
    }
}
