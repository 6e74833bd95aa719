//! Piece sets and attack tables for the evaluation, the static exchange evaluation and
//! the capture generator: one `u128` per colour and per piece kind, attack tables built by
//! `const fn`.
//!
//! The position core answers rules questions; the evaluation needs attack maps of every
//! piece many times per node. It reads pieces through the [`Pieces`] trait, which the
//! core's position implements in place (the search's hot path: no copy per node) and so
//! does [`Board`], a flat snapshot (the 24-point evaluation and the reference
//! implementations read one). Squares are numbered as in the core's bitboards
//! (file-major: index `(file - 1) * 9 + rank - 1`), so a snapshot copies the core's piece
//! sets. Geometry uses `row = rank - 1` (row 0 is Black's far edge) and `col = 9 - file`.
use crate::shogi::{Color, Move, MoveList, PieceKind, Position, Square};

/// A set of squares (bit `i` = square index `i`).
pub type Bits = u128;

/// All 81 squares.
pub const ALL: Bits = (1u128 << 81) - 1;

/// Number of piece kinds.
pub const KINDS: usize = 14;

/// The kinds in core order, indexable by [`kind_index`].
pub const KIND_LIST: [PieceKind; KINDS] = PieceKind::ALL;

pub const PAWN: usize = 0;
pub const LANCE: usize = 1;
pub const KNIGHT: usize = 2;
pub const SILVER: usize = 3;
pub const GOLD: usize = 4;
pub const BISHOP: usize = 5;
pub const ROOK: usize = 6;
pub const KING: usize = 7;
pub const PRO_PAWN: usize = 8;
pub const PRO_LANCE: usize = 9;
pub const PRO_KNIGHT: usize = 10;
pub const PRO_SILVER: usize = 11;
pub const HORSE: usize = 12;
pub const DRAGON: usize = 13;

/// Index of a piece kind in [`KIND_LIST`].
#[inline]
pub fn kind_index(k: PieceKind) -> usize {
    match k {
        PieceKind::Pawn => PAWN,
        PieceKind::Lance => LANCE,
        PieceKind::Knight => KNIGHT,
        PieceKind::Silver => SILVER,
        PieceKind::Gold => GOLD,
        PieceKind::Bishop => BISHOP,
        PieceKind::Rook => ROOK,
        PieceKind::King => KING,
        PieceKind::ProPawn => PRO_PAWN,
        PieceKind::ProLance => PRO_LANCE,
        PieceKind::ProKnight => PRO_KNIGHT,
        PieceKind::ProSilver => PRO_SILVER,
        PieceKind::Horse => HORSE,
        PieceKind::Dragon => DRAGON,
    }
}

/// The unpromoted kind index of a kind index.
#[inline]
pub const fn unpromote(k: usize) -> usize {
    match k {
        PRO_PAWN => PAWN,
        PRO_LANCE => LANCE,
        PRO_KNIGHT => KNIGHT,
        PRO_SILVER => SILVER,
        HORSE => BISHOP,
        DRAGON => ROOK,
        other => other,
    }
}

/// Square index of a core square.
#[inline(always)]
pub fn sq_index(sq: Square) -> usize {
    sq.index()
}

/// Core square of an index.
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

/// Whether row `row` is in the promotion zone (enemy camp) of colour `c` (0 Black, 1 White).
#[inline]
pub const fn row_in_camp(c: usize, row: usize) -> bool {
    if c == 0 { row <= 2 } else { row >= 6 }
}

const fn camp(c: usize) -> Bits {
    let mut b = 0;
    let mut i = 0;
    while i < 81 {
        if row_in_camp(c, row_of(i)) {
            b |= 1u128 << i;
        }
        i += 1;
    }
    b
}

/// The enemy camp of colour `c` (0 Black, 1 White) as a set.
pub const CAMP: [Bits; 2] = [camp(0), camp(1)];

const fn on_board(row: i32, col: i32) -> bool {
    row >= 0 && row < 9 && col >= 0 && col < 9
}

const fn bit(row: i32, col: i32) -> Bits {
    1u128 << index_of(row as usize, col as usize)
}

/// Step offsets (row delta, col delta) for Black; White's are negated.
const PAWN_STEPS: [(i32, i32); 1] = [(-1, 0)];
const KNIGHT_STEPS: [(i32, i32); 2] = [(-2, -1), (-2, 1)];
const SILVER_STEPS: [(i32, i32); 5] = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)];
const GOLD_STEPS: [(i32, i32); 6] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const CROSS_STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const DIAG_STEPS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

const fn step_table(steps: &[(i32, i32)], color: usize) -> [Bits; 81] {
    let mut out = [0u128; 81];
    let sign = if color == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < 81 {
        let row = row_of(sq) as i32;
        let col = col_of(sq) as i32;
        let mut b = 0u128;
        let mut i = 0;
        while i < steps.len() {
            let r = row + steps[i].0 * sign;
            let c = col + steps[i].1 * sign;
            if on_board(r, c) {
                b |= bit(r, c);
            }
            i += 1;
        }
        out[sq] = b;
        sq += 1;
    }
    out
}

pub static PAWN_ATTACKS: [[Bits; 81]; 2] = [step_table(&PAWN_STEPS, 0), step_table(&PAWN_STEPS, 1)];
pub static KNIGHT_ATTACKS: [[Bits; 81]; 2] =
    [step_table(&KNIGHT_STEPS, 0), step_table(&KNIGHT_STEPS, 1)];
pub static SILVER_ATTACKS: [[Bits; 81]; 2] =
    [step_table(&SILVER_STEPS, 0), step_table(&SILVER_STEPS, 1)];
pub static GOLD_ATTACKS: [[Bits; 81]; 2] = [step_table(&GOLD_STEPS, 0), step_table(&GOLD_STEPS, 1)];
pub static KING_ATTACKS: [Bits; 81] = step_table(&KING_STEPS, 0);
pub static CROSS_ATTACKS: [Bits; 81] = step_table(&CROSS_STEPS, 0);
pub static DIAG_ATTACKS: [Bits; 81] = step_table(&DIAG_STEPS, 0);

/// Ray directions as (row delta, column delta).
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
const DIR_E: usize = 0;
const DIR_SW: usize = 1;
const DIR_S: usize = 2; // towards White's side: rank increases
const DIR_SE: usize = 3;
const DIR_W: usize = 4;
const DIR_NE: usize = 5;
const DIR_N: usize = 6; // towards Black's far edge
const DIR_NW: usize = 7;

/// Whether stepping in direction `d` increases the square index.
const fn dir_increases(d: usize) -> bool {
    let (dr, dc) = DIRS[d];
    index_of(4, 4) as i32 + dr - 9 * dc > index_of(4, 4) as i32
}

static DIR_UP: [bool; 8] = {
    let mut t = [false; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = dir_increases(d);
        d += 1;
    }
    t
};

const fn ray_table() -> [[Bits; 81]; 8] {
    let mut out = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut r = row_of(sq) as i32 + DIRS[d].0;
            let mut c = col_of(sq) as i32 + DIRS[d].1;
            let mut b = 0u128;
            while on_board(r, c) {
                b |= bit(r, c);
                r += DIRS[d].0;
                c += DIRS[d].1;
            }
            out[d][sq] = b;
            sq += 1;
        }
        d += 1;
    }
    out
}

static RAYS: [[Bits; 81]; 8] = ray_table();

#[inline(always)]
fn ray_attack(d: usize, sq: usize, occ: Bits) -> Bits {
    let ray = RAYS[d][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if DIR_UP[d] {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    };
    ray ^ RAYS[d][first]
}

/// Direction index (into the ray tables) from each square to each square on one of its
/// eight rays, or 8 when the squares share no line.
static DIRECTION: [[u8; 81]; 81] = {
    let rays = ray_table();
    let mut out = [[8u8; 81]; 81];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut t = 0;
            while t < 81 {
                if rays[d][sq] & (1u128 << t) != 0 {
                    out[sq][t] = d as u8;
                }
                t += 1;
            }
            sq += 1;
        }
        d += 1;
    }
    out
};

/// The attack from `from` along its ray through `towards` (every square up to and
/// including the first piece of `occ`), and whether that ray runs along a file or a rank
/// (else a diagonal); `None` when the squares share no line.
#[inline]
pub fn line_attack(from: usize, towards: usize, occ: Bits) -> Option<(Bits, bool)> {
    let d = DIRECTION[from][towards] as usize;
    if d >= 8 {
        return None;
    }
    // Even directions are the file and rank ones (see `DIRS`).
    Some((ray_attack(d, from, occ), d.is_multiple_of(2)))
}

/// Rook attacks from `sq` given the occupancy.
#[inline(always)]
pub fn rook_attacks(sq: usize, occ: Bits) -> Bits {
    ray_attack(DIR_E, sq, occ)
        | ray_attack(DIR_S, sq, occ)
        | ray_attack(DIR_W, sq, occ)
        | ray_attack(DIR_N, sq, occ)
}

/// Bishop attacks from `sq` given the occupancy.
#[inline(always)]
pub fn bishop_attacks(sq: usize, occ: Bits) -> Bits {
    ray_attack(DIR_SW, sq, occ)
        | ray_attack(DIR_SE, sq, occ)
        | ray_attack(DIR_NE, sq, occ)
        | ray_attack(DIR_NW, sq, occ)
}

/// Rook and bishop attacks from each square on an empty board: the core's tables (the
/// squares are numbered alike).
pub(crate) use crate::shogi::{BISHOP_PSEUDO as BISHOP_LINES, ROOK_PSEUDO as ROOK_LINES};

/// The squares a lance of colour `c` on each square attacks on an empty board.
pub static LANCE_RAYS: [[Bits; 81]; 2] = {
    let rays = ray_table();
    [rays[DIR_N], rays[DIR_S]]
};

/// Lance attacks of colour `c` from `sq`.
#[inline(always)]
pub fn lance_attacks(c: usize, sq: usize, occ: Bits) -> Bits {
    if c == 0 {
        ray_attack(DIR_N, sq, occ)
    } else {
        ray_attack(DIR_S, sq, occ)
    }
}

/// Attacks of a piece of kind index `k` and colour `c` on `sq`.
#[inline(always)]
pub fn piece_attacks(c: usize, k: usize, sq: usize, occ: Bits) -> Bits {
    match k {
        PAWN => PAWN_ATTACKS[c][sq],
        LANCE => lance_attacks(c, sq, occ),
        KNIGHT => KNIGHT_ATTACKS[c][sq],
        SILVER => SILVER_ATTACKS[c][sq],
        GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => GOLD_ATTACKS[c][sq],
        BISHOP => bishop_attacks(sq, occ),
        ROOK => rook_attacks(sq, occ),
        KING => KING_ATTACKS[sq],
        HORSE => bishop_attacks(sq, occ) | CROSS_ATTACKS[sq],
        _ => rook_attacks(sq, occ) | DIAG_ATTACKS[sq],
    }
}

/// Iterate the squares of a set, in increasing order.
#[inline(always)]
pub fn squares(b: Bits) -> impl Iterator<Item = usize> {
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

/// Read access to the pieces of a position: implemented by the snapshot [`Board`] and
/// directly by the core's [`Position`], so that the search evaluates and orders moves
/// without taking a snapshot at every node. Kinds are kind indices, colours 0 (Black) and
/// 1 (White).
pub trait Pieces {
    /// Pieces of colour `c` and kind `k`.
    fn set(&self, c: usize, k: usize) -> Bits;
    /// All pieces of colour `c`.
    fn color_set(&self, c: usize) -> Bits;
    /// All pieces.
    fn occupancy(&self) -> Bits;
    /// `colour << 4 | kind` of the piece on `sq`, or [`EMPTY`].
    fn code_at(&self, sq: usize) -> u8;
    /// Pieces of unpromoted kind `k` (0..7) in the hand of colour `c`.
    fn hand_count(&self, c: usize, k: usize) -> i32;
    /// King square of colour `c`, if present.
    fn king_of(&self, c: usize) -> Option<usize>;
    /// Side to move.
    fn to_move(&self) -> usize;
    /// Kind index of the piece on `sq` (must be occupied).
    #[inline(always)]
    fn kind_on(&self, sq: usize) -> usize {
        (self.code_at(sq) & 0x0f) as usize
    }
}

impl Pieces for Board {
    #[inline(always)]
    fn set(&self, c: usize, k: usize) -> Bits {
        self.pieces[c][k]
    }
    #[inline(always)]
    fn color_set(&self, c: usize) -> Bits {
        self.by_color[c]
    }
    #[inline(always)]
    fn occupancy(&self) -> Bits {
        self.occupied
    }
    #[inline(always)]
    fn code_at(&self, sq: usize) -> u8 {
        self.piece[sq]
    }
    #[inline(always)]
    fn hand_count(&self, c: usize, k: usize) -> i32 {
        self.hands[c][k] as i32
    }
    #[inline(always)]
    fn king_of(&self, c: usize) -> Option<usize> {
        self.king[c]
    }
    #[inline(always)]
    fn to_move(&self) -> usize {
        self.side
    }
}

/// The core's position read in place: its board codes are `kind + 1 | colour << 4` (0 for
/// empty), one less is the snapshot's code (and [`EMPTY`] for 0).
impl Pieces for Position {
    #[inline(always)]
    fn set(&self, c: usize, k: usize) -> Bits {
        self.by_kind[k] & self.by_color[c]
    }
    #[inline(always)]
    fn color_set(&self, c: usize) -> Bits {
        self.by_color[c]
    }
    #[inline(always)]
    fn occupancy(&self) -> Bits {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    fn code_at(&self, sq: usize) -> u8 {
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

/// Empty square marker in [`Board::piece`].
pub const EMPTY: u8 = 0xff;

/// A flat snapshot of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Pieces per colour and kind index.
    pub pieces: [[Bits; KINDS]; 2],
    /// All pieces of a colour.
    pub by_color: [Bits; 2],
    /// All pieces.
    pub occupied: Bits,
    /// `color << 4 | kind` per square, or [`EMPTY`].
    pub piece: [u8; 81],
    /// Hand counts per colour and unpromoted kind index (0..7).
    pub hands: [[u8; 7]; 2],
    /// King square per colour (if present).
    pub king: [Option<usize>; 2],
    /// Side to move (0 Black, 1 White).
    pub side: usize,
}

impl Board {
    /// Snapshot a position: straight copies of the core's sets and board codes (a core
    /// code is `kind + 1 | colour << 4` and 0 for an empty square, so subtracting one
    /// gives this snapshot's `colour << 4 | kind` and [`EMPTY`] alike).
    #[inline]
    pub fn new(pos: &Position) -> Board {
        let by_color = [pos.by_color[0], pos.by_color[1]];
        let mut pieces = [[0; KINDS]; 2];
        for (c, row) in pieces.iter_mut().enumerate() {
            for (k, set) in row.iter_mut().enumerate() {
                *set = pos.by_kind[k] & by_color[c];
            }
        }
        let mut piece = [EMPTY; 81];
        for (p, &code) in piece.iter_mut().zip(pos.board.iter()) {
            *p = code.wrapping_sub(1);
        }
        let mut hands = [[0u8; 7]; 2];
        for (c, row) in hands.iter_mut().enumerate() {
            for (k, n) in row.iter_mut().enumerate() {
                *n = pos.hands[c].count_index(k) as u8;
            }
        }
        Board {
            pieces,
            by_color,
            occupied: by_color[0] | by_color[1],
            piece,
            hands,
            king: [Some(pos.king[0] as usize), Some(pos.king[1] as usize)],
            side: pos.side.index(),
        }
    }

    /// The snapshot built piece by piece through the core's public accessors: the
    /// reference [`Board::new`] is tested against.
    pub fn from_accessors(pos: &Position) -> Board {
        let mut b = Board {
            pieces: [[0; KINDS]; 2],
            by_color: [0; 2],
            occupied: 0,
            piece: [EMPTY; 81],
            hands: [[0; 7]; 2],
            king: [None; 2],
            side: pos.side_to_move().index(),
        };
        for c in Color::ALL {
            let ci = c.index();
            b.by_color[ci] = pos.pieces_of(c).0;
            for (k, kind) in KIND_LIST.iter().enumerate() {
                let set = pos.pieces(c, *kind).0;
                b.pieces[ci][k] = set;
                for sq in squares(set) {
                    b.piece[sq] = (ci as u8) << 4 | k as u8;
                }
            }
            b.king[ci] = pos.king_square(c).map(|s| s.index());
            let hand = pos.hand(c);
            for (k, kind) in KIND_LIST.iter().take(7).enumerate() {
                b.hands[ci][k] = hand.count(*kind) as u8;
            }
        }
        b.occupied = b.by_color[0] | b.by_color[1];
        b
    }

    /// Pieces of colour `c` that attack `sq` given the occupancy `occ`.
    pub fn attackers_to(&self, c: usize, sq: usize, occ: Bits) -> Bits {
        let p = &self.pieces[c];
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

    /// Every square attacked by colour `c`.
    pub fn attack_map(&self, c: usize) -> Bits {
        let mut m = 0;
        for k in 0..KINDS {
            for sq in squares(self.pieces[c][k]) {
                m |= piece_attacks(c, k, sq, self.occupied);
            }
        }
        m
    }

    /// Kind index of the piece on `sq` (must be occupied).
    #[inline]
    pub fn kind_at(&self, sq: usize) -> usize {
        (self.piece[sq] & 0x0f) as usize
    }

    /// Colour of the piece on `sq` (must be occupied).
    #[inline]
    pub fn color_at(&self, sq: usize) -> usize {
        (self.piece[sq] >> 4) as usize
    }

    /// Number of pieces in hand of colour `c`.
    pub fn hand_total(&self, c: usize) -> i32 {
        self.hands[c].iter().map(|&n| n as i32).sum()
    }
}

/// Whether a piece of kind index `k` can promote.
#[inline]
pub const fn promotable(k: usize) -> bool {
    matches!(k, PAWN | LANCE | KNIGHT | SILVER | BISHOP | ROOK)
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
fn captures_of<P: Pieces, const K: usize>(b: &P, c: usize, victims: Bits, out: &mut MoveList) {
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

/// Entering-king points of a kind index: 5 for rook, bishop, dragon, horse; 0 king; 1 others.
#[inline]
pub const fn points(k: usize) -> i32 {
    match k {
        BISHOP | ROOK | HORSE | DRAGON => 5,
        KING => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_tables_respect_edges() {
        // Black pawn on row 0 attacks nothing; on 5e (row 4) attacks 5d, White's 5f.
        let e5 = index_of(4, 4);
        assert_eq!(e5, 40);
        assert_eq!(PAWN_ATTACKS[0][index_of(0, 3)], 0);
        assert_eq!(PAWN_ATTACKS[0][e5], 1u128 << index_of(3, 4));
        assert_eq!(PAWN_ATTACKS[1][e5], 1u128 << index_of(5, 4));
        assert_eq!(KING_ATTACKS[0].count_ones(), 3);
        assert_eq!(KING_ATTACKS[e5].count_ones(), 8);
        assert_eq!(KNIGHT_ATTACKS[0][e5].count_ones(), 2);
        assert_eq!(
            KNIGHT_ATTACKS[0][index_of(1, 5)],
            0,
            "a knight on row 1 cannot jump"
        );
        for i in 0..81 {
            assert_eq!(index_of(row_of(i), col_of(i)), i);
            assert_eq!(sq_index(index_square(i)), i);
        }
        // Core squares: 7g is file 7 rank 7.
        let g7 = crate::shogi::Square::new(7, 7).unwrap().index();
        assert_eq!((row_of(g7), col_of(g7)), (6, 2));
    }

    #[test]
    fn sliders_stop_at_the_first_blocker() {
        let blocker = index_of(4, 7);
        let a = rook_attacks(40, 1u128 << blocker);
        assert!(a & (1u128 << blocker) != 0);
        assert!(a & (1u128 << index_of(4, 8)) == 0);
        assert!(a & (1u128 << index_of(4, 6)) != 0);
        for (d, rays) in RAYS.iter().enumerate() {
            // Every direction stops at its first blocker whichever way the index runs.
            let ray = rays[40];
            let near = squares(ray).min_by_key(|&s| {
                (row_of(s) as i32 - 4)
                    .abs()
                    .max((col_of(s) as i32 - 4).abs())
            });
            let near = near.unwrap();
            assert_eq!(ray_attack(d, 40, 1u128 << near), 1u128 << near, "dir {d}");
        }
        assert_eq!(rook_attacks(40, 0).count_ones(), 16);
        for sq in 0..81 {
            assert_eq!(ROOK_LINES[sq], rook_attacks(sq, 0));
            assert_eq!(BISHOP_LINES[sq], bishop_attacks(sq, 0));
            for t in 0..81 {
                let line = line_attack(sq, t, 1u128 << t);
                if ROOK_LINES[sq] & (1u128 << t) != 0 {
                    let (a, orthogonal) = line.unwrap();
                    assert!(orthogonal && a & (1u128 << t) != 0);
                    assert_eq!(a & !rook_attacks(sq, 1u128 << t), 0);
                } else if BISHOP_LINES[sq] & (1u128 << t) != 0 {
                    let (a, orthogonal) = line.unwrap();
                    assert!(!orthogonal && a & (1u128 << t) != 0);
                    assert_eq!(a & !bishop_attacks(sq, 1u128 << t), 0);
                } else {
                    assert_eq!(line, None, "{sq} {t}");
                }
            }
        }
        assert_eq!(bishop_attacks(40, 0).count_ones(), 16);
        assert_eq!(bishop_attacks(0, 0).count_ones(), 8);
        assert_eq!(lance_attacks(0, 40, 0).count_ones(), 4);
        assert_eq!(
            lance_attacks(1, 40, 1u128 << index_of(6, 4)).count_ones(),
            2
        );
    }

    #[test]
    fn camp_masks() {
        assert_eq!(CAMP[0].count_ones(), 27);
        assert_eq!(CAMP[1].count_ones(), 27);
        assert_eq!(CAMP[0] & CAMP[1], 0);
        assert!(row_in_camp(0, 2) && !row_in_camp(0, 3));
        assert!(row_in_camp(1, 6) && !row_in_camp(1, 5));
    }
}
