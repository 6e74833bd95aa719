//! The position's piece sets read in place, for evaluations that look at every piece many
//! times per node: one `u128` per side and kind through the [`Pieces`] trait, kinds as
//! indices (`PieceKind as usize`), sides as 0 (Black) and 1 (White), and the core's attack
//! tables under the names such code reads best with. Also the capture generator of a
//! quiescence search and the attack map of a side.
//!
//! Squares are the core's indices (`(file - 1) * 9 + rank - 1`). Geometry helpers use
//! `row = rank - 1` (row 0 is Black's far edge) and `col = 9 - file`.
use super::attacks;
pub(crate) use super::attacks::{
    BISHOP_PSEUDO as BISHOP_LINES, CROSS as CROSS_ATTACKS, DIAG as DIAG_ATTACKS,
    GOLD as GOLD_ATTACKS, KING as KING_ATTACKS, KNIGHT as KNIGHT_ATTACKS, LANCE_RAYS,
    PAWN as PAWN_ATTACKS, ROOK_PSEUDO as ROOK_LINES, SILVER as SILVER_ATTACKS, ZONE as CAMP,
    bishop as bishop_attacks, line_attack, rook as rook_attacks,
};
use super::{Color, Move, MoveList, PieceKind, Position, Square};

/// A set of squares (bit `i` = square index `i`).
pub type SquareSet = u128;

/// Number of piece kinds.
pub const KINDS: usize = 14;

/// The kinds in index order.
pub const KIND_LIST: [PieceKind; KINDS] = PieceKind::ALL;

/// Index 0: the pawn, [`PieceKind::Pawn`], also its slot in a hand.
pub const PAWN: usize = PieceKind::Pawn as usize;
/// Index 1: the lance, [`PieceKind::Lance`], also its slot in a hand.
pub const LANCE: usize = PieceKind::Lance as usize;
/// Index 2: the knight, [`PieceKind::Knight`], also its slot in a hand.
pub const KNIGHT: usize = PieceKind::Knight as usize;
/// Index 3: the silver, [`PieceKind::Silver`], also its slot in a hand.
pub const SILVER: usize = PieceKind::Silver as usize;
/// Index 4: the gold, [`PieceKind::Gold`], also its slot in a hand.
pub const GOLD: usize = PieceKind::Gold as usize;
/// Index 5: the bishop, [`PieceKind::Bishop`], also its slot in a hand.
pub const BISHOP: usize = PieceKind::Bishop as usize;
/// Index 6: the rook, [`PieceKind::Rook`], also its slot in a hand.
pub const ROOK: usize = PieceKind::Rook as usize;
/// Index 7: the king, [`PieceKind::King`].
pub const KING: usize = PieceKind::King as usize;
/// Index 8: the promoted pawn (tokin), [`PieceKind::ProPawn`].
pub const PRO_PAWN: usize = PieceKind::ProPawn as usize;
/// Index 9: the promoted lance, [`PieceKind::ProLance`].
pub const PRO_LANCE: usize = PieceKind::ProLance as usize;
/// Index 10: the promoted knight, [`PieceKind::ProKnight`].
pub const PRO_KNIGHT: usize = PieceKind::ProKnight as usize;
/// Index 11: the promoted silver, [`PieceKind::ProSilver`].
pub const PRO_SILVER: usize = PieceKind::ProSilver as usize;
/// Index 12: the horse (promoted bishop), [`PieceKind::Horse`].
pub const HORSE: usize = PieceKind::Horse as usize;
/// Index 13: the dragon (promoted rook), [`PieceKind::Dragon`].
pub const DRAGON: usize = PieceKind::Dragon as usize;

/// Index of a piece kind.
#[inline(always)]
pub const fn kind_index(k: PieceKind) -> usize {
    k as usize
}

/// The unpromoted kind index of a kind index.
#[inline]
pub const fn unpromote(k: usize) -> usize {
    KIND_LIST[k].unpromoted() as usize
}

/// Whether a piece of kind index `k` can promote.
#[inline]
pub const fn promotable(k: usize) -> bool {
    matches!(k, PAWN | LANCE | KNIGHT | SILVER | BISHOP | ROOK)
}

/// Entering-king points of a kind index: 5 for rook, bishop, dragon, horse; 0 king; 1 others.
#[inline]
pub const fn points(k: usize) -> i32 {
    KIND_LIST[k].points()
}

/// Square index of a core square.
#[inline(always)]
pub fn sq_index(sq: Square) -> usize {
    sq.index()
}

/// Core square of an index (below 81).
#[inline(always)]
pub fn index_square(i: usize) -> Square {
    Square::ALL[i]
}

/// Row (rank - 1) of a square index; row 0 is Black's far edge.
#[inline(always)]
pub const fn row_of(i: usize) -> usize {
    i % 9
}

/// Column (9 - file) of a square index.
#[inline(always)]
pub const fn col_of(i: usize) -> usize {
    8 - i / 9
}

/// Square index of a row and column.
#[inline(always)]
pub const fn index_of(row: usize, col: usize) -> usize {
    (8 - col) * 9 + row
}

/// Whether row `row` is in the promotion zone (enemy camp) of side `c` (0 Black, 1 White).
#[inline]
pub const fn row_in_camp(c: usize, row: usize) -> bool {
    if c == 0 { row <= 2 } else { row >= 6 }
}

#[inline(always)]
fn color(c: usize) -> Color {
    if c == 0 { Color::Black } else { Color::White }
}

/// Lance attacks of side `c` from `sq`.
#[inline(always)]
pub fn lance_attacks(c: usize, sq: usize, occ: SquareSet) -> SquareSet {
    attacks::lance(color(c), sq, occ)
}

/// Attacks of a piece of kind index `k` and side `c` on `sq`.
#[inline(always)]
pub fn piece_attacks(c: usize, k: usize, sq: usize, occ: SquareSet) -> SquareSet {
    attacks::piece_attacks(KIND_LIST[k], color(c), sq, occ)
}

/// Iterate the squares of a set, in increasing order.
#[inline(always)]
pub fn squares(b: SquareSet) -> impl Iterator<Item = usize> {
    // The two 64-bit halves one after the other: cheaper than 128-bit arithmetic.
    let mut low = b as u64;
    let mut high = (b >> 64) as u64;
    std::iter::from_fn(move || {
        if low != 0 {
            let i = low.trailing_zeros() as usize;
            low &= low - 1;
            Some(i)
        } else if high != 0 {
            let i = high.trailing_zeros() as usize + 64;
            high &= high - 1;
            Some(i)
        } else {
            None
        }
    })
}

/// [`Pieces::piece_code_at`] of an empty square.
pub const EMPTY: u8 = 0xff;

/// Read access to the pieces of a position by side and kind index. The core's
/// [`Position`] implements it in place (no copy); a test may implement it on a plain
/// snapshot built through the public accessors, to check code written against it.
pub trait Pieces {
    /// Pieces of side `c` and kind `k`.
    fn set(&self, c: usize, k: usize) -> SquareSet;
    /// All pieces of side `c`.
    fn color_set(&self, c: usize) -> SquareSet;
    /// All pieces.
    fn occupancy(&self) -> SquareSet;
    /// `side << 4 | kind` of the piece on `sq`, or [`EMPTY`].
    fn piece_code_at(&self, sq: usize) -> u8;
    /// Pieces of unpromoted kind `k` (0..7) in the hand of side `c`.
    fn hand_count(&self, c: usize, k: usize) -> i32;
    /// King square of side `c`, if present.
    fn king_of(&self, c: usize) -> Option<usize>;
    /// Side to move.
    fn to_move(&self) -> usize;
    /// Kind index of the piece on `sq` (must be occupied).
    #[inline(always)]
    fn kind_on(&self, sq: usize) -> usize {
        (self.piece_code_at(sq) & 0x0f) as usize
    }
}

/// The position read in place: its board codes are `kind + 1 | side << 4` (0 for empty),
/// one less is [`Pieces::piece_code_at`] (and [`EMPTY`] for 0).
impl Pieces for Position {
    #[inline(always)]
    fn set(&self, c: usize, k: usize) -> SquareSet {
        self.by_kind[k] & self.by_color[c]
    }
    #[inline(always)]
    fn color_set(&self, c: usize) -> SquareSet {
        self.by_color[c]
    }
    #[inline(always)]
    fn occupancy(&self) -> SquareSet {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    fn piece_code_at(&self, sq: usize) -> u8 {
        self.board[sq].wrapping_sub(1)
    }
    #[inline(always)]
    fn hand_count(&self, c: usize, k: usize) -> i32 {
        self.hands[c].count_index(k) as i32
    }
    #[inline(always)]
    fn king_of(&self, c: usize) -> Option<usize> {
        Some(self.king[c] as usize)
    }
    #[inline(always)]
    fn to_move(&self) -> usize {
        self.side.index()
    }
}

/// Number of pieces in the hand of side `c`.
#[inline]
pub fn hand_total<P: Pieces>(b: &P, c: usize) -> i32 {
    (0..7).map(|k| b.hand_count(c, k)).sum()
}

/// Pieces of side `c` that attack `sq` given the occupancy `occ`, computed the plain way.
pub fn attackers_to<P: Pieces>(b: &P, c: usize, sq: usize, occ: SquareSet) -> SquareSet {
    let p: [SquareSet; KINDS] = std::array::from_fn(|k| b.set(c, k));
    let them = 1 - c;
    let golds = p[GOLD] | p[PRO_PAWN] | p[PRO_LANCE] | p[PRO_KNIGHT] | p[PRO_SILVER];
    let rooks = p[ROOK] | p[DRAGON];
    let bishops = p[BISHOP] | p[HORSE];
    let kings = p[KING] | p[HORSE] | p[DRAGON];
    ((PAWN_ATTACKS[them][sq] & p[PAWN])
        | (KNIGHT_ATTACKS[them][sq] & p[KNIGHT])
        | (SILVER_ATTACKS[them][sq] & (p[SILVER] | kings))
        | (GOLD_ATTACKS[them][sq] & (golds | kings))
        | (KING_ATTACKS[sq] & kings)
        | (lance_attacks(them, sq, occ) & p[LANCE])
        | (rook_attacks(sq, occ) & rooks)
        | (bishop_attacks(sq, occ) & bishops))
        & occ
}

const fn rank_set(rank: usize) -> SquareSet {
    let mut b = 0;
    let mut file = 0;
    while file < 9 {
        b |= 1u128 << (file * 9 + rank - 1);
        file += 1;
    }
    b
}

/// Rank 1 and rank 9: the last rank of Black and of White.
const RANK_EDGE: [SquareSet; 2] = [rank_set(1), rank_set(9)];

/// Every square attacked by side `c`: pawns in one shift, the other steppers by the
/// table of their moves, the sliders grouped by the lines they move along.
pub fn attack_map<P: Pieces>(b: &P, c: usize) -> SquareSet {
    let occ = b.occupancy();
    let pawns = b.set(c, PAWN);
    // Masking the last rank keeps the shift within the pawn's file.
    let mut m = if c == 0 {
        (pawns & !RANK_EDGE[0]) >> 1
    } else {
        (pawns & !RANK_EDGE[1]) << 1
    };
    let golds = b.set(c, GOLD)
        | b.set(c, PRO_PAWN)
        | b.set(c, PRO_LANCE)
        | b.set(c, PRO_KNIGHT)
        | b.set(c, PRO_SILVER);
    for sq in squares(golds) {
        m |= GOLD_ATTACKS[c][sq];
    }
    for sq in squares(b.set(c, SILVER)) {
        m |= SILVER_ATTACKS[c][sq];
    }
    for sq in squares(b.set(c, KNIGHT)) {
        m |= KNIGHT_ATTACKS[c][sq];
    }
    for sq in squares(b.set(c, KING) | b.set(c, HORSE) | b.set(c, DRAGON)) {
        m |= KING_ATTACKS[sq];
    }
    for sq in squares(b.set(c, LANCE)) {
        m |= lance_attacks(c, sq, occ);
    }
    for sq in squares(b.set(c, BISHOP) | b.set(c, HORSE)) {
        m |= bishop_attacks(sq, occ);
    }
    for sq in squares(b.set(c, ROOK) | b.set(c, DRAGON)) {
        m |= rook_attacks(sq, occ);
    }
    m
}

/// Pseudo-legal captures of the side to move (kings excepted as victims), with the
/// promotion choices that matter: pawns, bishops and rooks always promote when they can;
/// lances, knights and silvers get both choices unless promotion is compulsory. The caller
/// checks legality.
pub fn captures<P: Pieces>(b: &P, out: &mut MoveList) {
    let c = b.to_move();
    let them = 1 - c;
    let victims = b.color_set(them) & !b.set(them, KING);
    // Kind by kind with the kind a constant, so each attack computation is inlined.
    captures_of::<P, PAWN>(b, c, victims, out);
    captures_of::<P, LANCE>(b, c, victims, out);
    captures_of::<P, KNIGHT>(b, c, victims, out);
    captures_of::<P, SILVER>(b, c, victims, out);
    captures_of::<P, GOLD>(b, c, victims, out);
    captures_of::<P, BISHOP>(b, c, victims, out);
    captures_of::<P, ROOK>(b, c, victims, out);
    captures_of::<P, KING>(b, c, victims, out);
    captures_of::<P, PRO_PAWN>(b, c, victims, out);
    captures_of::<P, PRO_LANCE>(b, c, victims, out);
    captures_of::<P, PRO_KNIGHT>(b, c, victims, out);
    captures_of::<P, PRO_SILVER>(b, c, victims, out);
    captures_of::<P, HORSE>(b, c, victims, out);
    captures_of::<P, DRAGON>(b, c, victims, out);
}

/// The captures of [`captures`] by the pieces of kind `K`.
#[inline(always)]
fn captures_of<P: Pieces, const K: usize>(b: &P, c: usize, victims: SquareSet, out: &mut MoveList) {
    let set = b.set(c, K);
    if set == 0 {
        return;
    }
    let occ = b.occupancy();
    for from in squares(set) {
        let targets = piece_attacks(c, K, from, occ) & victims;
        if targets == 0 {
            continue;
        }
        let from_sq = index_square(from);
        for to in squares(targets) {
            let to_sq = index_square(to);
            let zone = row_in_camp(c, row_of(from)) || row_in_camp(c, row_of(to));
            if promotable(K) && zone {
                out.push(Move::Normal {
                    from: from_sq,
                    to: to_sq,
                    promote: true,
                });
                let rel = if c == 0 { row_of(to) } else { 8 - row_of(to) };
                let compulsory =
                    (matches!(K, PAWN | LANCE) && rel == 0) || (K == KNIGHT && rel <= 1);
                if compulsory || matches!(K, PAWN | BISHOP | ROOK) {
                    continue;
                }
            }
            out.push(Move::Normal {
                from: from_sq,
                to: to_sq,
                promote: false,
            });
        }
    }
}

/// The side to move's pawn moves that promote without capturing: a pawn stepping onto
/// an empty square of the enemy camp, promoted (pseudo-legal: the caller tests legality).
pub fn pawn_promotions<P: Pieces>(b: &P, out: &mut MoveList) {
    let c = b.to_move();
    let set = b.set(c, PAWN);
    if set == 0 {
        return;
    }
    let occ = b.occupancy();
    for from in squares(set) {
        let targets = piece_attacks(c, PAWN, from, occ) & !occ;
        for to in squares(targets) {
            if row_in_camp(c, row_of(to)) {
                out.push(Move::Normal {
                    from: index_square(from),
                    to: index_square(to),
                    promote: true,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_round_trips() {
        for i in 0..81 {
            assert_eq!(index_of(row_of(i), col_of(i)), i);
            assert_eq!(sq_index(index_square(i)), i);
        }
        // 7g is file 7 rank 7.
        let g7 = Square::new(7, 7).unwrap().index();
        assert_eq!((row_of(g7), col_of(g7)), (6, 2));
        assert_eq!(CAMP[0].count_ones(), 27);
        assert_eq!(CAMP[1].count_ones(), 27);
        for i in 0..81 {
            assert_eq!(CAMP[0] >> i & 1 == 1, row_in_camp(0, row_of(i)));
            assert_eq!(CAMP[1] >> i & 1 == 1, row_in_camp(1, row_of(i)));
        }
    }

    /// Along random games, the legal members of [`pawn_promotions`] are exactly the
    /// core's legal pawn moves that promote without capturing, each once.
    #[test]
    fn pawn_promotions_are_the_quiet_promoting_pawn_moves() {
        use crate::shogi::{Move, PieceKind, Position};
        let mut seen = 0;
        let mut rng = crate::rng::XorShift64Star::new(0x9e37_79b9_7f4a_7c15);
        for game in 0..40 {
            let mut p = Position::startpos();
            for _ in 0..(60 + game * 4) {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut got = MoveList::new();
                pawn_promotions(&p, &mut got);
                let mut got: Vec<Move> = got.iter().copied().filter(|&m| p.is_legal(m)).collect();
                let mut want: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| match m {
                        Move::Normal { from, to, promote } => {
                            promote
                                && p.piece_at(to).is_none()
                                && p.piece_at(from).map(|pc| pc.kind) == Some(PieceKind::Pawn)
                        }
                        Move::Drop { .. } => false,
                    })
                    .collect();
                let n = got.len();
                got.sort_by_key(|m| m.to_usi());
                got.dedup();
                assert_eq!(got.len(), n, "a move twice in {}", p.to_sfen());
                want.sort_by_key(|m| m.to_usi());
                assert_eq!(got, want, "in {}", p.to_sfen());
                seen += want.len();
                let m = legal.as_slice()[rng.below(legal.len() as u64) as usize];
                p.play(m).unwrap();
            }
        }
        assert!(seen > 20, "the games reached promotions: {seen}");
    }

    #[test]
    fn kinds_follow_the_core() {
        for (i, k) in KIND_LIST.iter().enumerate() {
            assert_eq!(kind_index(*k), i);
            assert_eq!(points(i), k.points());
        }
        assert_eq!(unpromote(DRAGON), ROOK);
        assert_eq!(unpromote(PRO_PAWN), PAWN);
        assert_eq!(unpromote(GOLD), GOLD);
    }

    #[test]
    fn step_and_line_tables() {
        for sq in 0..81 {
            assert_eq!(CROSS_ATTACKS[sq] | DIAG_ATTACKS[sq], KING_ATTACKS[sq]);
            assert_eq!(CROSS_ATTACKS[sq], KING_ATTACKS[sq] & ROOK_LINES[sq]);
            assert_eq!(DIAG_ATTACKS[sq], KING_ATTACKS[sq] & BISHOP_LINES[sq]);
            assert_eq!(LANCE_RAYS[0][sq], lance_attacks(0, sq, 0));
            assert_eq!(LANCE_RAYS[1][sq], lance_attacks(1, sq, 0));
            // Along every line through `sq`, through each blocker `t`: the ray stops at `t`.
            for t in 0..81 {
                let line = line_attack(sq, t, 1u128 << t);
                if ROOK_LINES[sq] >> t & 1 == 1 {
                    let (a, orthogonal) = line.unwrap();
                    assert!(orthogonal && a >> t & 1 == 1);
                    assert_eq!(a, attacks::between(sq, t) | 1u128 << t);
                } else if BISHOP_LINES[sq] >> t & 1 == 1 {
                    let (a, orthogonal) = line.unwrap();
                    assert!(!orthogonal && a >> t & 1 == 1);
                    assert_eq!(a, attacks::between(sq, t) | 1u128 << t);
                } else {
                    assert_eq!(line, None, "{sq} {t}");
                }
            }
        }
    }
}
