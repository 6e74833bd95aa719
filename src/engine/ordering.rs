//! Move ordering: static exchange evaluation, killer moves and the history table.
//! Good captures first (most valuable victim, least valuable attacker), then killers,
//! then quiet moves by history; captures that lose material by exchange go last.
use super::eval::piece_value;
use crate::shogi::sets::*;
use crate::shogi::{Color, Move};

/// Kinds from least to most valuable, for picking the next exchange attacker.
const CHEAPEST_FIRST: [usize; KINDS] = [
    PAWN, LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, SILVER, GOLD, BISHOP, ROOK,
    HORSE, DRAGON, KING,
];

fn see_value(k: usize) -> i32 {
    if k == KING { 20_000 } else { piece_value(k) }
}

/// Static exchange evaluation of a move in the position `b` (material balance for the
/// mover after the whole exchange on the destination square; drops and quiet moves onto
/// squares nobody takes are 0). The value of [`see_reference`]; the attackers of both sides
/// are found once, and after each capture only the line through the capturing piece's
/// square is looked along again for a slider behind it.
pub fn see<P: Pieces>(b: &P, m: Move) -> i32 {
    let to = sq_index(m.to());
    let us = b.to_move();
    let (mut occ, mut current, first_gain) = match m {
        Move::Normal { from, promote, .. } => {
            let from = sq_index(from);
            let k = b.kind_on(from);
            let moved = if promote { promoted(k) } else { k };
            let captured = if b.piece_code_at(to) == EMPTY {
                0
            } else {
                see_value(b.kind_on(to))
            };
            let promo_gain = if promote {
                piece_value(moved) - piece_value(k)
            } else {
                0
            };
            (
                b.occupancy() ^ (1u128 << from),
                moved,
                captured + promo_gain,
            )
        }
        Move::Drop { kind, .. } => (b.occupancy(), kind_index(kind), 0),
    };
    occ |= 1u128 << to;
    let mut sets = ExchangeSets::new(b, to, occ);
    let mut gain = [0i32; 40];
    gain[0] = first_gain;
    let mut d = 0;
    let mut side = 1 - us;
    loop {
        let attackers = sets.attackers(side, occ);
        if attackers == 0 || d >= 38 {
            break;
        }
        let Some((k, sq)) = CHEAPEST_FIRST.iter().find_map(|&k| {
            let s = attackers & b.set(side, k);
            (s != 0).then(|| (k, s.trailing_zeros() as usize))
        }) else {
            break;
        };
        d += 1;
        gain[d] = see_value(current) - gain[d - 1];
        occ ^= 1u128 << sq;
        sets.reveal(sq, occ);
        if k == KING && sets.attackers(1 - side, occ) != 0 {
            // The king may not capture into an attacked square.
            d -= 1;
            break;
        }
        current = k;
        side = 1 - side;
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

/// The pieces that attack one square in an exchange, kept up to date as captures
/// uncover sliders behind the capturing pieces.
struct ExchangeSets {
    to: usize,
    /// Attackers of both colours found so far (pieces already exchanged included: the
    /// occupancy masks them out).
    all: SquareSet,
    colors: [SquareSet; 2],
    /// Sliders along files and ranks (rooks, dragons, lances that move towards the square),
    /// and along diagonals (bishops, horses).
    orthogonal: SquareSet,
    diagonal: SquareSet,
}

impl ExchangeSets {
    #[inline]
    fn new<P: Pieces>(b: &P, to: usize, occ: SquareSet) -> ExchangeSets {
        let mut all = 0;
        let mut orthogonal = 0;
        let mut diagonal = 0;
        for c in 0..2 {
            let p: [SquareSet; KINDS] = std::array::from_fn(|k| b.set(c, k));
            let them = 1 - c;
            let golds = p[GOLD] | p[PRO_PAWN] | p[PRO_LANCE] | p[PRO_KNIGHT] | p[PRO_SILVER];
            let kings = p[KING] | p[HORSE] | p[DRAGON];
            all |= (PAWN_ATTACKS[them][to] & p[PAWN])
                | (KNIGHT_ATTACKS[them][to] & p[KNIGHT])
                | (SILVER_ATTACKS[them][to] & (p[SILVER] | kings))
                | (GOLD_ATTACKS[them][to] & (golds | kings))
                | (KING_ATTACKS[to] & kings);
            // A lance of colour c attacks `to` from the side it moves away from.
            orthogonal |= p[ROOK] | p[DRAGON] | (p[LANCE] & LANCE_RAYS[them][to]);
            diagonal |= p[BISHOP] | p[HORSE];
        }
        if orthogonal & ROOK_LINES[to] != 0 {
            all |= rook_attacks(to, occ) & orthogonal;
        }
        if diagonal & BISHOP_LINES[to] != 0 {
            all |= bishop_attacks(to, occ) & diagonal;
        }
        ExchangeSets {
            to,
            all,
            colors: [b.color_set(0), b.color_set(1)],
            orthogonal,
            diagonal,
        }
    }

    /// Pieces of colour `c` attacking the square with the occupancy `occ` (the value of
    /// [`attackers_to`]), given that every piece taken out of the occupancy since
    /// [`ExchangeSets::new`] was passed to [`ExchangeSets::reveal`].
    #[inline]
    fn attackers(&self, c: usize, occ: SquareSet) -> SquareSet {
        self.all & self.colors[c] & occ
    }

    /// The piece on `sq`, an attacker of the square, left it (`occ` no longer holds it): a
    /// slider behind it on the same line now attacks the square.
    #[inline]
    fn reveal(&mut self, sq: usize, occ: SquareSet) {
        if let Some((line, orthogonal)) = line_attack(self.to, sq, occ) {
            let sliders = if orthogonal {
                self.orthogonal
            } else {
                self.diagonal
            };
            self.all |= line & sliders;
        }
    }
}

/// Static exchange evaluation, the plain way: every attacker recomputed from scratch at
/// every capture of the exchange. It defines [`see`], which is tested against it.
pub fn see_reference<P: Pieces>(b: &P, m: Move) -> i32 {
    let to = sq_index(m.to());
    let us = b.to_move();
    let (mut occ, mut current, first_gain) = match m {
        Move::Normal { from, promote, .. } => {
            let from = sq_index(from);
            let k = b.kind_on(from);
            let moved = if promote { promoted(k) } else { k };
            let captured = if b.piece_code_at(to) == EMPTY {
                0
            } else {
                see_value(b.kind_on(to))
            };
            let promo_gain = if promote {
                piece_value(moved) - piece_value(k)
            } else {
                0
            };
            (
                b.occupancy() ^ (1u128 << from),
                moved,
                captured + promo_gain,
            )
        }
        Move::Drop { kind, .. } => (b.occupancy(), kind_index(kind), 0),
    };
    occ |= 1u128 << to;
    let mut gain = [0i32; 40];
    gain[0] = first_gain;
    let mut d = 0;
    let mut side = 1 - us;
    loop {
        let attackers = attackers_to(b, side, to, occ);
        if attackers == 0 || d >= 38 {
            break;
        }
        let Some((k, sq)) = CHEAPEST_FIRST.iter().find_map(|&k| {
            let s = attackers & b.set(side, k);
            (s != 0).then(|| (k, s.trailing_zeros() as usize))
        }) else {
            break;
        };
        d += 1;
        gain[d] = see_value(current) - gain[d - 1];
        if k == KING && attackers_to(b, 1 - side, to, occ ^ (1u128 << sq)) != 0 {
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

/// Slots of one colour's history table: 21 kinds (14 moving, 7 dropped) by 81 squares.
pub const HISTORY_SLOTS: usize = (KINDS + 7) * 81;

/// Index of a move in the history table: moving kind (board moves 0..14, drops 14..21)
/// and destination.
#[inline]
pub fn history_index<P: Pieces>(b: &P, m: Move) -> (usize, usize) {
    match m {
        Move::Normal { from, to, .. } => (b.kind_on(sq_index(from)), sq_index(to)),
        Move::Drop { kind, to } => (KINDS + kind_index(kind), sq_index(to)),
    }
}

/// Killer moves per ply and the history table per colour.
///
/// History scores stay within about ±16,900 (each update moves a score towards ±16,384
/// by at most the bonus, 12,800), so they are stored in 16 bits: a table half the size
/// stays in the first-level cache while a node reads it for every quiet move.
///
/// A node may read its quiet moves' history scores late (most nodes are cut off by a
/// capture or a killer before any quiet move is needed) yet must see them as they were
/// when it ordered its moves. While such a read is deferred, every change is journaled,
/// and [`Heuristics::with_history_at`] shows the table as it was.
#[derive(Debug, Clone)]
pub struct Heuristics {
    /// The two killer moves of each ply (quiet moves that caused a cutoff there), the
    /// newest first.
    pub killers: Vec<[Option<Move>; 2]>,
    history: Vec<i16>,
    /// The continuation history: for the side to move, the previous move (the
    /// opponent's, as a [`history_index`]) and this quiet move, how often this move
    /// answered that one with a cutoff. Empty until [`Heuristics::enable_continuation`].
    continuation: Vec<i16>,
    /// Changes (slot, old score, new score) since the oldest deferred read.
    journal: Vec<(u16, i16, i16)>,
    /// Deferred reads not yet done.
    deferred: u32,
}

impl Heuristics {
    /// Empty killers for plies up to `max_ply` (and two more) and a zero history.
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; max_ply + 2],
            history: vec![0; 2 * (KINDS + 7) * 81],
            continuation: Vec::new(),
            journal: Vec::new(),
            deferred: 0,
        }
    }

    /// Forget the killers, the history and any deferred read (a new game).
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.continuation.fill(0);
        self.journal.clear();
        self.deferred = 0;
    }

    /// Start a deferred read: the returned mark names the table as it is now. Every mark
    /// must be ended by [`Heuristics::end_deferred`].
    #[inline]
    pub fn defer(&mut self) -> usize {
        self.deferred += 1;
        self.journal.len()
    }

    /// End a deferred read (done or no longer needed).
    #[inline]
    pub fn end_deferred(&mut self) {
        self.deferred -= 1;
        if self.deferred == 0 {
            self.journal.clear();
        }
    }

    /// Call `f` with `color`'s history table (as [`Heuristics::history_table`]) as it was
    /// at `mark`: the changes since are undone for the call and redone after it.
    pub fn with_history_at<R>(
        &mut self,
        color: Color,
        mark: usize,
        f: impl FnOnce(&[i16]) -> R,
    ) -> R {
        for &(slot, old, _) in self.journal[mark..].iter().rev() {
            self.history[slot as usize] = old;
        }
        let r = f(self.history_table(color));
        for &(slot, _, new) in &self.journal[mark..] {
            self.history[slot as usize] = new;
        }
        r
    }

    #[inline]
    fn slot(color: Color, idx: (usize, usize)) -> usize {
        (color.index() * (KINDS + 7) + idx.0) * 81 + idx.1
    }

    /// History score of a quiet move.
    #[inline]
    pub fn history(&self, color: Color, idx: (usize, usize)) -> i32 {
        self.history[Self::slot(color, idx)] as i32
    }

    /// The history scores of `color`'s quiet moves, indexed by `kind * 81 + square` of
    /// [`history_index`].
    #[inline]
    pub fn history_table(&self, color: Color) -> &[i16] {
        let n = (KINDS + 7) * 81;
        &self.history[color.index() * n..][..n]
    }

    /// Give the continuation history its table (about 11 MB; off by default).
    pub fn enable_continuation(&mut self, on: bool) {
        if on && self.continuation.is_empty() {
            self.continuation = vec![0; 2 * HISTORY_SLOTS * HISTORY_SLOTS];
        } else if !on {
            self.continuation = Vec::new();
        }
    }

    /// The row of the continuation history that follows `prev` (the opponent's last move,
    /// as a [`history_index`]) for `color` to move: index it with `kind * 81 + square`.
    /// `None` without a previous move or with the table off.
    #[inline]
    pub fn continuation_row(&self, color: Color, prev: Option<(usize, usize)>) -> Option<usize> {
        let prev = prev?;
        if self.continuation.is_empty() {
            return None;
        }
        Some((color.index() * HISTORY_SLOTS + prev.0 * 81 + prev.1) * HISTORY_SLOTS)
    }

    /// The continuation score of a quiet move in `row` (0 without a row).
    #[inline]
    pub fn continuation(&self, row: Option<usize>, idx: (usize, usize)) -> i32 {
        match row {
            Some(r) => self.continuation[r + idx.0 * 81 + idx.1] as i32,
            None => 0,
        }
    }

    /// Reward a quiet move that caused a cutoff and punish the quiet moves tried before it
    /// (in the continuation history too, in `row` when given).
    pub fn reward(
        &mut self,
        color: Color,
        good: (usize, usize),
        bad: &[(usize, usize)],
        depth: i32,
        row: Option<usize>,
    ) {
        let bonus = (depth * depth).min(400);
        // Moves a score towards ±16,384 by at most the bonus; never clamps (see the
        // type's bound): the clamp only keeps the cast honest.
        fn gravity(h: &mut i16, delta: i32) -> i16 {
            let old = *h;
            let x = old as i32;
            *h = (x + delta - x * delta.abs() / 16_384).clamp(i16::MIN as i32, i16::MAX as i32)
                as i16;
            old
        }
        let journaled = self.deferred > 0;
        let mut update = |slot: usize, delta: i32| {
            let old = gravity(&mut self.history[slot], delta);
            if journaled {
                self.journal.push((slot as u16, old, self.history[slot]));
            }
        };
        update(Self::slot(color, good), bonus * 32);
        for &i in bad {
            update(Self::slot(color, i), -bonus * 32);
        }
        if let Some(r) = row {
            gravity(&mut self.continuation[r + good.0 * 81 + good.1], bonus * 32);
            for &i in bad {
                gravity(&mut self.continuation[r + i.0 * 81 + i.1], -bonus * 32);
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_scores_stay_within_16_bits_and_follow_the_32_bit_rule() {
        // The largest bonus again and again, alternating with long runs of maluses: the
        // stored score equals the same rule computed in 32 bits, and never clamps.
        let mut h = Heuristics::new(4);
        let mut model: i32 = 0;
        let step = |x: i32, delta: i32| x + delta - x * delta.abs() / 16_384;
        let mut extreme: i32 = 0;
        for round in 0..400 {
            let depth = 1 + round % 25;
            let bonus = (depth * depth).min(400) * 32;
            if round % 50 < 25 {
                h.reward(Color::Black, (3, 40), &[], depth, None);
                model = step(model, bonus);
            } else {
                h.reward(Color::Black, (0, 0), &[(3, 40)], depth, None);
                model = step(model, -bonus);
            }
            assert_eq!(h.history(Color::Black, (3, 40)), model, "round {round}");
            extreme = extreme.max(model.abs());
        }
        assert!(extreme > 16_000 && extreme < i16::MAX as i32, "{extreme}");
        h.age();
        assert_eq!(h.history(Color::Black, (3, 40)), model / 4);
    }

    #[test]
    fn a_deferred_read_sees_the_table_as_it_was() {
        let mut h = Heuristics::new(4);
        h.reward(Color::White, (2, 10), &[(5, 11)], 3, None);
        let before = h.history_table(Color::White).to_vec();
        let outer = h.defer();
        h.reward(Color::White, (2, 10), &[(5, 11), (6, 12)], 5, None);
        let inner = h.defer();
        let middle = h.history_table(Color::White).to_vec();
        h.reward(Color::White, (6, 12), &[(2, 10)], 7, None);
        h.reward(Color::Black, (6, 12), &[], 7, None);
        let now = h.history_table(Color::White).to_vec();
        assert_ne!(now, before);
        assert_ne!(now, middle);
        h.with_history_at(Color::White, inner, |t| assert_eq!(t, &middle[..]));
        h.end_deferred();
        h.with_history_at(Color::White, outer, |t| assert_eq!(t, &before[..]));
        assert_eq!(h.history_table(Color::White), &now[..]);
        h.end_deferred();
        assert!(h.journal.is_empty());
    }

    #[test]
    fn the_continuation_history_is_kept_per_previous_move_and_side() {
        let mut h = Heuristics::new(4);
        // Off: no row, every score 0, and a reward touches only the plain history.
        assert_eq!(h.continuation_row(Color::Black, Some((3, 40))), None);
        h.enable_continuation(true);
        assert_eq!(h.continuation_row(Color::Black, None), None);
        let row = h.continuation_row(Color::Black, Some((3, 40)));
        let other_prev = h.continuation_row(Color::Black, Some((3, 41)));
        let other_side = h.continuation_row(Color::White, Some((3, 40)));
        assert!(row.is_some() && row != other_prev && row != other_side);
        h.reward(Color::Black, (6, 12), &[(2, 10)], 4, row);
        let bonus = 16 * 32;
        assert_eq!(h.continuation(row, (6, 12)), bonus);
        assert_eq!(h.continuation(row, (2, 10)), -bonus);
        assert_eq!(h.continuation(other_prev, (6, 12)), 0);
        assert_eq!(h.continuation(other_side, (6, 12)), 0);
        assert_eq!(h.continuation(None, (6, 12)), 0);
        // The plain history moved by the same rule.
        assert_eq!(h.history(Color::Black, (6, 12)), bonus);
        // A new game forgets it; the largest row fits the table.
        h.clear();
        assert_eq!(h.continuation(row, (6, 12)), 0);
        let last = h.continuation_row(Color::White, Some((KINDS + 6, 80)));
        assert_eq!(h.continuation(last, (KINDS + 6, 80)), 0);
        h.enable_continuation(false);
        assert_eq!(h.continuation_row(Color::Black, Some((3, 40))), None);
    }
}
