//! Move ordering: static exchange evaluation, killer moves and the history table.
//! Good captures first (most valuable victim, least valuable attacker), then killers,
//! then quiet moves by history; captures that lose material by exchange go last.
use super::board::*;
use super::eval::piece_value;
use crate::shogi::{Color, Move};

/// Kinds from least to most valuable, for picking the next exchange attacker.
const CHEAPEST_FIRST: [usize; KINDS] = [
    PAWN, LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, SILVER, GOLD, BISHOP, ROOK,
    HORSE, DRAGON, KING,
];

fn see_value(k: usize) -> i32 {
    if k == KING { 20_000 } else { piece_value(k) }
}

/// Static exchange evaluation of a move on the snapshot `b` (material balance for the
/// mover after the whole exchange on the destination square; drops and quiet moves onto
/// squares nobody takes are 0).
pub fn see(b: &Board, m: Move) -> i32 {
    let to = sq_index(m.to());
    let us = b.side;
    let (mut occ, mut current, first_gain) = match m {
        Move::Normal { from, promote, .. } => {
            let from = sq_index(from);
            let k = b.kind_at(from);
            let moved = if promote { promoted(k) } else { k };
            let captured = if b.piece[to] == EMPTY {
                0
            } else {
                see_value(b.kind_at(to))
            };
            let promo_gain = if promote {
                piece_value(moved) - piece_value(k)
            } else {
                0
            };
            (b.occupied ^ (1u128 << from), moved, captured + promo_gain)
        }
        Move::Drop { kind, .. } => (b.occupied, kind_index(kind), 0),
    };
    occ |= 1u128 << to;
    let mut gain = [0i32; 40];
    gain[0] = first_gain;
    let mut d = 0;
    let mut side = 1 - us;
    loop {
        let attackers = b.attackers_to(side, to, occ);
        if attackers == 0 || d >= 38 {
            break;
        }
        let Some((k, sq)) = CHEAPEST_FIRST.iter().find_map(|&k| {
            let s = attackers & b.pieces[side][k];
            (s != 0).then(|| (k, s.trailing_zeros() as usize))
        }) else {
            break;
        };
        d += 1;
        gain[d] = see_value(current) - gain[d - 1];
        if k == KING && b.attackers_to(1 - side, to, occ ^ (1u128 << sq)) != 0 {
            // The king may not capture into an attacked square.
            d -= 1;
            break;
        }
        occ ^= 1u128 << sq;
        current = k;
        side = 1 - side;
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

fn promoted(k: usize) -> usize {
    match k {
        PAWN => PRO_PAWN,
        LANCE => PRO_LANCE,
        KNIGHT => PRO_KNIGHT,
        SILVER => PRO_SILVER,
        BISHOP => HORSE,
        ROOK => DRAGON,
        other => other,
    }
}

/// Index of a move in the history table: moving kind (board moves 0..14, drops 14..21)
/// and destination.
#[inline]
pub fn history_index(b: &Board, m: Move) -> (usize, usize) {
    match m {
        Move::Normal { from, to, .. } => (b.kind_at(sq_index(from)), sq_index(to)),
        Move::Drop { kind, to } => (KINDS + kind_index(kind), sq_index(to)),
    }
}

/// Killer moves per ply and the history table per colour.
#[derive(Debug, Clone)]
pub struct Heuristics {
    pub killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl Heuristics {
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; max_ply + 2],
            history: vec![0; 2 * (KINDS + 7) * 81],
        }
    }

    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    #[inline]
    fn slot(color: Color, idx: (usize, usize)) -> usize {
        (color.index() * (KINDS + 7) + idx.0) * 81 + idx.1
    }

    /// History score of a quiet move.
    #[inline]
    pub fn history(&self, color: Color, idx: (usize, usize)) -> i32 {
        self.history[Self::slot(color, idx)]
    }

    /// Reward a quiet move that caused a cutoff and punish the quiet moves tried before it.
    pub fn reward(
        &mut self,
        color: Color,
        good: (usize, usize),
        bad: &[(usize, usize)],
        depth: i32,
    ) {
        let bonus = (depth * depth).min(400);
        let mut update = |slot: usize, delta: i32| {
            let h = &mut self.history[slot];
            *h += delta - *h * delta.abs() / 16_384;
        };
        update(Self::slot(color, good), bonus * 32);
        for &i in bad {
            update(Self::slot(color, i), -bonus * 32);
        }
    }

    /// Remember a killer move at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// Age the history between searches.
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
    }
}
