//! The statistics that order the full search's moves, learnt while it searches: the main
//! (butterfly) history of quiet moves by side, origin and destination; the capture history
//! by moving piece, destination and victim; the continuation histories (a quiet move's
//! success after the move 1, 2 and 4 plies earlier); the counter move of each previous move;
//! and two killers per ply.
//!
//! Every score moves by "gravity": a bonus `b` changes a score `x` by `b - x * |b| / LIMIT`,
//! so that scores saturate smoothly at about `±LIMIT` and a malus undoes a bonus.
//!
//! Continuation histories and counter moves are keyed by a *piece-to* index
//! ([`piece_to`]): the moving kind (drops as kinds of their own) and the destination seen
//! from the mover's side, so that a position and its colour-flipped twin share their
//! statistics.

use super::ordering::HISTORY_SLOTS;
use crate::shogi::sets::{KINDS, Pieces, kind_index, sq_index};
use crate::shogi::{Color, Move, Position};

/// The bound every history score saturates at.
pub const HISTORY_LIMIT: i32 = 16_384;

/// Origins of the butterfly history: 81 squares, then the 7 droppable kinds.
const ORIGINS: usize = 81 + 7;

/// The piece-to index of a move by the side to move of `pos` (before the move is made):
/// `kind * 81 + destination`, the destination mirrored for White; drops count as the
/// kinds `KINDS..KINDS + 7`. Below [`HISTORY_SLOTS`].
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> u16 {
    let (kind, to) = match m {
        Move::Normal { from, to, .. } => (pos.kind_on(sq_index(from)), sq_index(to)),
        Move::Drop { kind, to } => (KINDS + kind_index(kind), sq_index(to)),
    };
    let to = if pos.side_to_move() == Color::Black {
        to
    } else {
        80 - to
    };
    (kind * 81 + to) as u16
}

/// The butterfly index of a move: origin (square, or 81 + dropped kind) and destination.
#[inline]
fn butterfly(m: Move) -> usize {
    match m {
        Move::Normal { from, to, .. } => sq_index(from) * 81 + sq_index(to),
        Move::Drop { kind, to } => (81 + kind_index(kind)) * 81 + sq_index(to),
    }
}

/// Apply a bonus (or, negative, a malus) to a score by gravity.
#[inline]
fn gravity(h: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    let x = *h as i32;
    *h = (x + b - x * b.abs() / HISTORY_LIMIT).clamp(-HISTORY_LIMIT, HISTORY_LIMIT) as i16;
}

/// The bonus of a move that caused a cutoff at `depth` (and the malus of those tried
/// before it).
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (180 * depth - 120).clamp(0, 1_800)
}

/// The previous moves a node's continuation histories follow: the piece-to index of the
/// moves 1, 2 and 4 plies back (`None`: no such move, or a null move).
pub type ContinuationKeys = [Option<u16>; 3];

/// Which table a continuation of the moves 1, 2 and 4 plies back reads: the opponent's
/// moves (odd plies back) and the mover's own (even) are kept apart.
const CONTINUATION_TABLE: [usize; 3] = [0, 1, 1];

/// The search's move-ordering statistics, kept from one search to the next.
#[derive(Debug, Clone)]
pub struct Histories {
    /// Two killers per ply, the newest first.
    pub killers: Vec<[Option<Move>; 2]>,
    main: Vec<i16>,
    capture: Vec<i16>,
    continuation: Vec<i16>,
    counter: Vec<Option<Move>>,
    /// The correction of the static evaluation by pawn structure
    /// ([`Histories::correction`]), in 1/[`CORRECTION_GRAIN`] centipawns.
    correction: Vec<i32>,
}

/// Entries of the correction history per side to move.
pub const CORRECTION_SIZE: usize = 1 << 14;
/// The correction history's unit: 1/256 centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 128;

/// The correction history's slot of the pawns on the board (both sides').
#[inline]
pub fn pawn_key(pos: &Position) -> usize {
    use crate::shogi::sets::{PAWN, Pieces};
    let (b, w) = (pos.set(0, PAWN), pos.set(1, PAWN));
    let h = (b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ ((b >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (w as u64).wrapping_mul(0x1656_67B1_9E37_79F9)
        ^ ((w >> 64) as u64).wrapping_mul(0x27D4_EB2F_1656_67C5);
    (h >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

impl Histories {
    /// Empty statistics with killers for `plies` plies.
    pub fn new(plies: usize) -> Histories {
        Histories {
            killers: vec![[None; 2]; plies + 2],
            main: vec![0; 2 * ORIGINS * 81],
            capture: vec![0; HISTORY_SLOTS * KINDS],
            continuation: vec![0; 2 * HISTORY_SLOTS * HISTORY_SLOTS],
            counter: vec![None; 2 * HISTORY_SLOTS],
            correction: vec![0; 2 * CORRECTION_SIZE],
        }
    }

    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.main.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counter.fill(None);
        self.correction.fill(0);
    }

    /// Between two searches of a game: the killers are forgotten, the main history
    /// halved; the capture and continuation histories are kept.
    pub fn age(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.main {
            *h /= 2;
        }
    }

    /// The correction (centipawns) of the static evaluation of a position with `color`
    /// to move and pawns in slot `key` ([`pawn_key`]): what the searches of such
    /// positions found beyond their static evaluation, on average.
    #[inline]
    pub fn correction(&self, color: Color, key: usize) -> i32 {
        self.correction[color.index() * CORRECTION_SIZE + key] / CORRECTION_GRAIN
    }

    /// A search of `depth` found `diff` centipawns more than the static evaluation
    /// before correction: move the entry towards it, by a share growing with the depth
    /// (at most a sixteenth).
    #[inline]
    pub fn update_correction(&mut self, color: Color, key: usize, diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16) as i64;
        let e = &mut self.correction[color.index() * CORRECTION_SIZE + key];
        let target =
            (diff.clamp(-2 * CORRECTION_MAX, 2 * CORRECTION_MAX) * CORRECTION_GRAIN) as i64;
        let limit = (CORRECTION_MAX * CORRECTION_GRAIN) as i64;
        *e = ((*e as i64 * (256 - w) + target * w) / 256).clamp(-limit, limit) as i32;
    }

    #[inline]
    fn main_slot(color: Color, m: Move) -> usize {
        color.index() * ORIGINS * 81 + butterfly(m)
    }

    /// The main history of a quiet move of `color`.
    #[inline]
    pub fn main(&self, color: Color, m: Move) -> i32 {
        self.main[Self::main_slot(color, m)] as i32
    }

    /// The capture history of a capture with piece-to `pt` taking a piece of `victim`
    /// kind.
    #[inline]
    pub fn capture(&self, pt: u16, victim: usize) -> i32 {
        self.capture[pt as usize * KINDS + victim] as i32
    }

    /// The continuation history of a quiet move (piece-to `pt`) after the previous moves
    /// `keys`: the sum over the plies back that have a move (the 4-plies one at half
    /// weight).
    #[inline]
    pub fn continuation(&self, keys: &ContinuationKeys, pt: u16) -> i32 {
        let mut s = 0;
        for (i, k) in keys.iter().enumerate() {
            if let Some(prev) = k {
                let v = self.continuation[self.cont_slot(i, *prev, pt)] as i32;
                s += if i == 2 { v / 2 } else { v };
            }
        }
        s
    }

    /// The continuation history of one ply back only (0 without a previous move).
    #[inline]
    pub fn continuation_at(&self, keys: &ContinuationKeys, i: usize, pt: u16) -> i32 {
        keys[i].map_or(0, |prev| {
            self.continuation[self.cont_slot(i, prev, pt)] as i32
        })
    }

    #[inline]
    fn cont_slot(&self, i: usize, prev: u16, pt: u16) -> usize {
        (CONTINUATION_TABLE[i] * HISTORY_SLOTS + prev as usize) * HISTORY_SLOTS + pt as usize
    }

    /// The counter move that refuted the previous move `prev` (piece-to of the
    /// opponent's move) for `color` to move.
    #[inline]
    pub fn counter(&self, color: Color, prev: Option<u16>) -> Option<Move> {
        prev.and_then(|p| self.counter[color.index() * HISTORY_SLOTS + p as usize])
    }

    /// The ordering score of a quiet move: main history plus the continuations.
    #[inline]
    pub fn quiet_score(&self, color: Color, m: Move, pt: u16, keys: &ContinuationKeys) -> i32 {
        self.main(color, m) + self.continuation(keys, pt)
    }

    /// Change a quiet move's main and continuation statistics by `bonus`.
    pub fn update_quiet(
        &mut self,
        color: Color,
        m: Move,
        pt: u16,
        keys: &ContinuationKeys,
        bonus: i32,
    ) {
        gravity(&mut self.main[Self::main_slot(color, m)], bonus);
        for (i, k) in keys.iter().enumerate() {
            if let Some(prev) = k {
                let slot = self.cont_slot(i, *prev, pt);
                gravity(&mut self.continuation[slot], bonus);
            }
        }
    }

    /// Change a capture's statistics by `bonus`.
    pub fn update_capture(&mut self, pt: u16, victim: usize, bonus: i32) {
        gravity(&mut self.capture[pt as usize * KINDS + victim], bonus);
    }

    /// A quiet move caused a cutoff at `ply`: it becomes the first killer and the counter
    /// move of the previous move.
    pub fn add_refutation(&mut self, ply: usize, color: Color, prev: Option<u16>, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(p) = prev {
            self.counter[color.index() * HISTORY_SLOTS + p as usize] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_follows_the_searches_within_its_bounds() {
        let mut h = Histories::new(4);
        let p = Position::startpos();
        let key = pawn_key(&p);
        assert!(key < CORRECTION_SIZE);
        // Shallow searches move it a little, deep ones more.
        h.update_correction(Color::Black, key, 100, 0);
        let shallow = h.correction(Color::Black, key);
        assert_eq!(shallow, 100 / 256);
        let mut deep = Histories::new(4);
        deep.update_correction(Color::Black, key, 100, 15);
        assert_eq!(deep.correction(Color::Black, key), 100 * 16 / 256);
        // Repeated, it settles at the difference found; never past its bound.
        for _ in 0..200 {
            h.update_correction(Color::Black, key, 60, 10);
        }
        assert!(
            (58..=60).contains(&h.correction(Color::Black, key)),
            "{}",
            h.correction(Color::Black, key)
        );
        for _ in 0..200 {
            h.update_correction(Color::Black, key, -5_000, 20);
        }
        assert_eq!(h.correction(Color::Black, key), -CORRECTION_MAX);
        // Per side to move; kept between searches, forgotten in a new game.
        assert_eq!(h.correction(Color::White, key), 0);
        h.age();
        assert_eq!(h.correction(Color::Black, key), -CORRECTION_MAX);
        h.clear();
        assert_eq!(h.correction(Color::Black, key), 0);
        // Another pawn structure has a slot of its own.
        let mut q = p.clone();
        q.play(Move::from_usi("7g7f").unwrap()).unwrap();
        assert_ne!(pawn_key(&q), key);
    }

    #[test]
    fn gravity_saturates_and_a_malus_undoes_a_bonus() {
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, stat_bonus(12));
        }
        assert!(
            h as i32 <= HISTORY_LIMIT && h as i32 > HISTORY_LIMIT - 200,
            "{h}"
        );
        for _ in 0..1000 {
            gravity(&mut h, -stat_bonus(12));
        }
        assert!(
            h as i32 >= -HISTORY_LIMIT && (h as i32) < -HISTORY_LIMIT + 200,
            "{h}"
        );
        let mut g = 0i16;
        gravity(&mut g, 500);
        assert_eq!(g, 500);
        gravity(&mut g, -500);
        assert!(g.abs() <= 16, "{g}");
    }

    #[test]
    fn a_position_and_its_flipped_twin_share_their_piece_to_index() {
        let b =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        let w =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        let mb = Move::from_usi("7g7f").unwrap();
        let mw = Move::from_usi("3c3d").unwrap();
        assert_eq!(piece_to(&b, mb), piece_to(&w, mw));
        assert!((piece_to(&b, mb) as usize) < HISTORY_SLOTS);
        let drop = Move::from_usi("P*5e").unwrap();
        let hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!((piece_to(&hand, drop) as usize) >= KINDS * 81);
    }

    #[test]
    fn statistics_are_kept_per_side_previous_move_and_victim() {
        let mut h = Histories::new(4);
        let p = Position::startpos();
        let m = Move::from_usi("7g7f").unwrap();
        let pt = piece_to(&p, m);
        let keys: ContinuationKeys = [Some(5), None, Some(9)];
        h.update_quiet(Color::Black, m, pt, &keys, 1000);
        assert_eq!(h.main(Color::Black, m), 1000);
        assert_eq!(h.main(Color::White, m), 0);
        assert_eq!(h.continuation_at(&keys, 0, pt), 1000);
        assert_eq!(h.continuation_at(&keys, 1, pt), 0);
        assert_eq!(h.continuation(&keys, pt), 1000 + 500);
        assert_eq!(h.continuation(&[Some(6), None, None], pt), 0);
        h.update_capture(pt, 3, -700);
        assert_eq!(h.capture(pt, 3), -700);
        assert_eq!(h.capture(pt, 4), 0);
        h.add_refutation(1, Color::Black, Some(5), m);
        assert_eq!(h.killers[1][0], Some(m));
        assert_eq!(h.counter(Color::Black, Some(5)), Some(m));
        assert_eq!(h.counter(Color::White, Some(5)), None);
        h.age();
        assert_eq!(h.main(Color::Black, m), 500);
        assert_eq!(h.killers[1][0], None);
        h.clear();
        assert_eq!(h.continuation(&keys, pt), 0);
    }
}
