//! Zobrist keys: one random number per (square, piece), per (side, hand kind, count) and
//! for White to move. A position key is the XOR of its terms, updated incrementally by
//! play and undo. The numbers are fixed (a seeded generator run at compile time).

use crate::rng::splitmix64 as splitmix;

const SEED: u64 = 0x0123_4567_89ab_cdef;

const fn board_keys() -> [[u64; 32]; 81] {
    let mut t = [[0u64; 32]; 81];
    let mut s = SEED;
    let mut sq = 0;
    while sq < 81 {
        let mut p = 1; // code 0 (empty) contributes nothing
        while p < 32 {
            let (ns, v) = splitmix(s);
            s = ns;
            t[sq][p] = v;
            p += 1;
        }
        sq += 1;
    }
    t
}

const fn hand_keys() -> [[[u64; 20]; 7]; 2] {
    let mut t = [[[0u64; 20]; 7]; 2];
    let mut s = SEED ^ 0xdead_beef_cafe_f00d;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut n = 1; // an empty field contributes nothing
            while n < 20 {
                let (ns, v) = splitmix(s);
                s = ns;
                t[c][k][n] = v;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Key term of a piece code on a square.
pub(crate) static BOARD: [[u64; 32]; 81] = board_keys();
/// Key term of holding `n` pieces of hand kind `k` for side `c`: `HAND[c][k][n]`.
pub(crate) static HAND: [[[u64; 20]; 7]; 2] = hand_keys();
/// Key term of White to move.
pub(crate) const WHITE_TO_MOVE: u64 = 0x1d8e_4e27_c47d_124f;
