//! Attack tables, all computed at compile time by `const fn`: step attacks per side,
//! rays in the eight directions, and the between and line tables. Sliding attacks find
//! the first blocker on each ray with one bit scan (rays are monotonic in square index
//! because the index is `file * 9 + rank`).

use super::bitboard::{lsb, msb};
use super::{Color, PieceKind, Square};

/// Direction steps as (file delta, rank delta). Ray index order matters: even entries
/// other than 4 and 6 run toward lower indices; see `POSITIVE`.
const DIRS: [(i32, i32); 8] = [
    (0, -1),  // 0 north: index -1
    (0, 1),   // 1 south: index +1
    (-1, 0),  // 2 file-1: index -9
    (1, 0),   // 3 file+1: index +9
    (1, -1),  // 4 index +8
    (-1, 1),  // 5 index -8
    (1, 1),   // 6 index +10
    (-1, -1), // 7 index -10
];
const NORTH: usize = 0;
const SOUTH: usize = 1;
const WEST: usize = 2;
const EAST: usize = 3;
const NE: usize = 4;
const SW: usize = 5;
const SE: usize = 6;
const NW: usize = 7;

const fn square_at(file: i32, rank: i32) -> i32 {
    if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
        (file - 1) * 9 + rank - 1
    } else {
        -1
    }
}

const fn step_table(steps: &[(i32, i32)], color: usize) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let f = (sq / 9) as i32 + 1;
        let r = (sq % 9) as i32 + 1;
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let dr = if color == 0 { dr } else { -dr };
            let to = square_at(f + df, r + dr);
            if to >= 0 {
                t[sq] |= 1u128 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

// Steps are written for Black (forward = rank - 1); White mirrors the rank.
const PAWN_STEPS: [(i32, i32); 1] = [(0, -1)];
const KNIGHT_STEPS: [(i32, i32); 2] = [(1, -2), (-1, -2)];
const SILVER_STEPS: [(i32, i32); 5] = [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_STEPS: [(i32, i32); 6] = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];

/// The bit of each square (`1 << sq`), read from a table: a 128-bit shift by a variable
/// amount is a sequence of shifts and selects, a look-up one load.
pub(crate) static BIT: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = 1u128 << sq;
        sq += 1;
    }
    t
};

/// `1 << sq` for a square index.
#[inline(always)]
pub(crate) fn bit(sq: usize) -> u128 {
    BIT[sq]
}

pub(crate) static PAWN: [[u128; 81]; 2] = [step_table(&PAWN_STEPS, 0), step_table(&PAWN_STEPS, 1)];
pub(crate) static KNIGHT: [[u128; 81]; 2] =
    [step_table(&KNIGHT_STEPS, 0), step_table(&KNIGHT_STEPS, 1)];
pub(crate) static SILVER: [[u128; 81]; 2] =
    [step_table(&SILVER_STEPS, 0), step_table(&SILVER_STEPS, 1)];
pub(crate) static GOLD: [[u128; 81]; 2] = [step_table(&GOLD_STEPS, 0), step_table(&GOLD_STEPS, 1)];
pub(crate) static KING: [u128; 81] = step_table(&KING_STEPS, 0);

const CROSS_STEPS: [(i32, i32); 4] = [(0, -1), (0, 1), (1, 0), (-1, 0)];
const DIAG_STEPS: [(i32, i32); 4] = [(1, -1), (-1, -1), (1, 1), (-1, 1)];
/// The four orthogonal neighbours of each square (a horse's steps beyond its bishop lines).
pub(crate) static CROSS: [u128; 81] = step_table(&CROSS_STEPS, 0);
/// The four diagonal neighbours of each square (a dragon's steps beyond its rook lines).
pub(crate) static DIAG: [u128; 81] = step_table(&DIAG_STEPS, 0);

const fn ray_tables() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut f = (sq / 9) as i32 + 1 + DIRS[d].0;
            let mut r = (sq % 9) as i32 + 1 + DIRS[d].1;
            while square_at(f, r) >= 0 {
                t[d][sq] |= 1u128 << square_at(f, r);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// Rays to the board edge from each square in each direction (not including the square).
pub(crate) static RAYS: [[u128; 81]; 8] = ray_tables();

const fn pseudo(dirs: [usize; 4]) -> [u128; 81] {
    let rays = ray_tables();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = rays[dirs[0]][sq] | rays[dirs[1]][sq] | rays[dirs[2]][sq] | rays[dirs[3]][sq];
        sq += 1;
    }
    t
}

/// Rook attacks on an empty board.
pub(crate) static ROOK_PSEUDO: [u128; 81] = pseudo([NORTH, SOUTH, WEST, EAST]);
/// Bishop attacks on an empty board.
pub(crate) static BISHOP_PSEUDO: [u128; 81] = pseudo([NE, SW, SE, NW]);

/// Squares strictly between two squares; for each pair (a, b), which of the four lines
/// through `a` holds `b` (the direction pair `d / 2`: file, rank and the two diagonals),
/// 4 for none; and each line through each square, edge to edge (line 4 is empty). The
/// lines take 12 KB where an 81 x 81 table of them would take 105 KB of cache.
type LineTables = ([[u128; 81]; 81], [[u8; 81]; 81], [[u128; 81]; 5]);

const fn line_tables() -> LineTables {
    let rays = ray_tables();
    let mut between = [[0u128; 81]; 81];
    let mut which = [[4u8; 81]; 81];
    let mut lines = [[0u128; 81]; 5];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            // Opposite direction: pairs (0,1) (2,3) (4,5) (6,7).
            let o = d / 2;
            lines[o][a] = rays[d][a] | rays[d ^ 1][a] | (1u128 << a);
            let mut f = (a / 9) as i32 + 1 + DIRS[d].0;
            let mut r = (a % 9) as i32 + 1 + DIRS[d].1;
            let mut acc = 0u128;
            while square_at(f, r) >= 0 {
                let b = square_at(f, r) as usize;
                between[a][b] = acc;
                which[a][b] = o as u8;
                acc |= 1u128 << b;
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, which, lines)
}

static LINE_TABLES: LineTables = line_tables();

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub(crate) fn between(a: usize, b: usize) -> u128 {
    LINE_TABLES.0[a][b]
}

/// The whole line through `a` and `b` (edge to edge) if they share one, else empty.
#[inline(always)]
pub(crate) fn line(a: usize, b: usize) -> u128 {
    LINE_TABLES.2[usize::from(LINE_TABLES.1[a][b])][a]
}

#[inline(always)]
fn ray_up(d: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 { r } else { r ^ RAYS[d][lsb(b)] }
}

#[inline(always)]
fn ray_down(d: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 { r } else { r ^ RAYS[d][msb(b)] }
}

/// The attack from `from` along its ray through `towards` (every square up to and
/// including the first piece of `occ`), and whether that ray runs along a file or a rank
/// (else a diagonal); `None` when the squares share no line.
#[inline]
pub(crate) fn line_attack(from: usize, towards: usize, occ: u128) -> Option<(u128, bool)> {
    let o = usize::from(LINE_TABLES.1[from][towards]);
    if o >= 4 {
        return None;
    }
    // Of each pair of opposite directions (see `DIRS`), the one that increases the index.
    const UP: [usize; 4] = [SOUTH, EAST, NE, SE];
    const DOWN: [usize; 4] = [NORTH, WEST, SW, NW];
    let ray = if towards > from {
        ray_up(UP[o], from, occ)
    } else {
        ray_down(DOWN[o], from, occ)
    };
    Some((ray, o < 2))
}

/// The squares a lance of each side attacks from each square on an empty board.
pub(crate) static LANCE_RAYS: [[u128; 81]; 2] = {
    let r = ray_tables();
    [r[NORTH], r[SOUTH]]
};

/// Lance attacks of `c` from `sq`.
#[inline(always)]
pub(crate) fn lance(c: Color, sq: usize, occ: u128) -> u128 {
    match c {
        Color::Black => ray_down(NORTH, sq, occ),
        Color::White => ray_up(SOUTH, sq, occ),
    }
}

/// The lance ray of `c` from `sq` on an empty board.
#[inline(always)]
pub(crate) fn lance_pseudo(c: Color, sq: usize) -> u128 {
    RAYS[if c == Color::Black { NORTH } else { SOUTH }][sq]
}

/// Rook attacks from `sq`.
#[inline(always)]
pub(crate) fn rook(sq: usize, occ: u128) -> u128 {
    ray_down(NORTH, sq, occ)
        | ray_up(SOUTH, sq, occ)
        | ray_down(WEST, sq, occ)
        | ray_up(EAST, sq, occ)
}

/// Bishop attacks from `sq`.
#[inline(always)]
pub(crate) fn bishop(sq: usize, occ: u128) -> u128 {
    ray_up(NE, sq, occ) | ray_down(SW, sq, occ) | ray_up(SE, sq, occ) | ray_down(NW, sq, occ)
}

/// Attacks of a piece of kind `k` and side `c` standing on `sq`.
#[inline(always)]
pub(crate) fn piece_attacks(k: PieceKind, c: Color, sq: usize, occ: u128) -> u128 {
    let ci = c as usize;
    match k {
        PieceKind::Pawn => PAWN[ci][sq],
        PieceKind::Lance => lance(c, sq, occ),
        PieceKind::Knight => KNIGHT[ci][sq],
        PieceKind::Silver => SILVER[ci][sq],
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => GOLD[ci][sq],
        PieceKind::Bishop => bishop(sq, occ),
        PieceKind::Rook => rook(sq, occ),
        PieceKind::King => KING[sq],
        PieceKind::Horse => bishop(sq, occ) | KING[sq],
        PieceKind::Dragon => rook(sq, occ) | KING[sq],
    }
}

/// Attacks of a piece of kind `k` and side `c` standing on `sq` on an empty board.
#[inline(always)]
pub(crate) fn pseudo_attacks(k: PieceKind, c: Color, sq: usize) -> u128 {
    let (ci, ki) = (c as usize, k as usize);
    STEPS_BY_KIND[ci][ki][sq] | SLIDES_BY_KIND[ci][ki][sq]
}

/// The single-step part of the attacks of a piece of kind `k` and side `c` on `sq` (the
/// king steps of a horse or dragon included; nothing for a pure slider).
#[inline(always)]
pub(crate) fn step_attacks(k: PieceKind, c: Color, sq: usize) -> u128 {
    STEPS_BY_KIND[c as usize][k as usize][sq]
}

/// Which lines a kind slides along: 0 none, 1 the lance's, 2 the diagonals, 3 file and rank.
pub(crate) static SLIDE_CLASS: [u8; 14] = [0, 1, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 2, 3];

static NO_ATTACKS: [u128; 81] = [0; 81];

/// Per side and kind: the squares its single steps reach (the king steps of a horse or
/// dragon included; nothing for the pure sliders).
static STEPS_BY_KIND: [[&[u128; 81]; 14]; 2] = {
    const fn side(c: usize) -> [&'static [u128; 81]; 14] {
        let g = &GOLD[c];
        [
            &PAWN[c],
            &NO_ATTACKS,
            &KNIGHT[c],
            &SILVER[c],
            g,
            &NO_ATTACKS,
            &NO_ATTACKS,
            &KING,
            g,
            g,
            g,
            g,
            &KING,
            &KING,
        ]
    }
    [side(0), side(1)]
};

/// Per side and kind: the lines it slides along on an empty board (nothing for steppers).
static SLIDES_BY_KIND: [[&[u128; 81]; 14]; 2] = {
    const fn side(lance: &'static [u128; 81]) -> [&'static [u128; 81]; 14] {
        let n = &NO_ATTACKS;
        [
            n,
            lance,
            n,
            n,
            n,
            &BISHOP_PSEUDO,
            &ROOK_PSEUDO,
            n,
            n,
            n,
            n,
            n,
            &BISHOP_PSEUDO,
            &ROOK_PSEUDO,
        ]
    }
    [side(&RAYS[NORTH]), side(&RAYS[SOUTH])]
};

/// True if a piece of kind `k` and side `c` on `from` attacks `to` with occupancy `occ`:
/// `piece_attacks(k, c, from, occ)` contains `to`, without building the attack set, and
/// with table look-ups instead of a branch on the kind (which mispredicts move after move).
#[inline(always)]
pub(crate) fn reaches(k: PieceKind, c: Color, from: usize, to: usize, occ: u128) -> bool {
    let (ci, ki) = (c as usize, k as usize);
    let tb = bit(to);
    STEPS_BY_KIND[ci][ki][from] & tb != 0
        || (SLIDES_BY_KIND[ci][ki][from] & tb != 0 && between(from, to) & occ == 0)
}

/// Public form of `piece_attacks` for callers outside the core.
pub fn attacks_from(
    k: PieceKind,
    c: Color,
    sq: Square,
    occupied: super::Bitboard,
) -> super::Bitboard {
    super::Bitboard(piece_attacks(k, c, sq.index(), occupied.0))
}

/// Ranks from which a piece of kind `k` of side `c` could still move (no pawn or lance on
/// the last rank, no knight on the last two): the squares where it may stand or be dropped.
/// One load from a table built at compile time.
#[inline(always)]
pub(crate) fn movable_area(k: PieceKind, c: Color) -> u128 {
    MOVABLE_AREA[c as usize][k as usize]
}

/// [`movable_area`] by side and kind.
static MOVABLE_AREA: [[u128; 14]; 2] = {
    let mut t = [[0u128; 14]; 2];
    let mut k = 0;
    while k < 14 {
        t[0][k] = movable_area_of(PieceKind::ALL[k], Color::Black);
        t[1][k] = movable_area_of(PieceKind::ALL[k], Color::White);
        k += 1;
    }
    t
};

const fn movable_area_of(k: PieceKind, c: Color) -> u128 {
    let mut m = 0u128;
    let mut sq = 0;
    while sq < 81 {
        let r = (sq % 9) as u8 + 1;
        let rel = if matches!(c, Color::Black) { r } else { 10 - r };
        let ok = match k {
            PieceKind::Pawn | PieceKind::Lance => rel >= 2,
            PieceKind::Knight => rel >= 3,
            _ => true,
        };
        if ok {
            m |= 1u128 << sq;
        }
        sq += 1;
    }
    m
}

const fn zone(c: Color) -> u128 {
    let mut m = 0u128;
    let mut sq = 0;
    while sq < 81 {
        let r = (sq % 9) as u8 + 1;
        if (matches!(c, Color::Black) && r <= 3) || (matches!(c, Color::White) && r >= 7) {
            m |= 1u128 << sq;
        }
        sq += 1;
    }
    m
}

/// Promotion zone (enemy camp) of each side.
pub(crate) static ZONE: [u128; 2] = [zone(Color::Black), zone(Color::White)];
/// [`ZONE`] square by square (one load where a 128-bit shift would take several
/// instructions); indices 81.. (no square) are outside.
pub(crate) static IN_ZONE: [[bool; 128]; 2] = {
    let mut t = [[false; 128]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] = ZONE[0] & (1u128 << sq) != 0;
        t[1][sq] = ZONE[1] & (1u128 << sq) != 0;
        sq += 1;
    }
    t
};
/// Squares where a pawn or lance of each side may stand (not the last rank).
pub(crate) static PAWN_AREA: [u128; 2] = [
    movable_area_of(PieceKind::Pawn, Color::Black),
    movable_area_of(PieceKind::Pawn, Color::White),
];
/// Squares where a knight of each side may stand (not the last two ranks).
pub(crate) static KNIGHT_AREA: [u128; 2] = [
    movable_area_of(PieceKind::Knight, Color::Black),
    movable_area_of(PieceKind::Knight, Color::White),
];

/// The nine squares of the file of square index `sq`.
#[inline(always)]
pub(crate) const fn file_mask(sq: usize) -> u128 {
    0x1ffu128 << (sq / 9 * 9)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line` and `between` against the geometry, square by square.
    #[test]
    fn lines_and_betweens_follow_the_geometry() {
        let fr = |s: usize| ((s / 9) as i32, (s % 9) as i32);
        // The orientation two distinct squares share: file, rank, diagonal, anti-diagonal.
        let shared = |a: usize, b: usize| {
            let ((fa, ra), (fb, rb)) = (fr(a), fr(b));
            if a == b {
                None
            } else if fa == fb {
                Some(0)
            } else if ra == rb {
                Some(1)
            } else if fa - ra == fb - rb {
                Some(2)
            } else if fa + ra == fb + rb {
                Some(3)
            } else {
                None
            }
        };
        let mut pairs = 0;
        for a in 0..81 {
            for b in 0..81 {
                let (mut want_line, mut want_between) = (0u128, 0u128);
                if let Some(o) = shared(a, b) {
                    pairs += 1;
                    want_line |= 1u128 << a;
                    for c in 0..81 {
                        if shared(a, c) != Some(o) {
                            continue;
                        }
                        want_line |= 1u128 << c;
                        let (x, y, z) = (fr(a), fr(c), fr(b));
                        let inside = |p: i32, q: i32, r: i32| p.min(r) <= q && q <= p.max(r);
                        if c != b && inside(x.0, y.0, z.0) && inside(x.1, y.1, z.1) {
                            want_between |= 1u128 << c;
                        }
                    }
                }
                assert_eq!(line(a, b), want_line, "line {a} {b}");
                assert_eq!(between(a, b), want_between, "between {a} {b}");
            }
        }
        // Every square shares its file and rank with 16 others, and its diagonals.
        assert!(pairs > 81 * 16);
    }

    fn sq(f: u8, r: u8) -> usize {
        Square::new(f, r).unwrap().index()
    }

    #[test]
    fn step_counts() {
        assert_eq!(KING[sq(5, 5)].count_ones(), 8);
        assert_eq!(KING[sq(1, 1)].count_ones(), 3);
        assert_eq!(GOLD[0][sq(5, 5)].count_ones(), 6);
        assert_eq!(SILVER[1][sq(5, 5)].count_ones(), 5);
        assert_eq!(
            KNIGHT[0][sq(5, 5)],
            (1u128 << sq(4, 3)) | (1u128 << sq(6, 3))
        );
        assert_eq!(
            KNIGHT[1][sq(5, 5)],
            (1u128 << sq(4, 7)) | (1u128 << sq(6, 7))
        );
        assert_eq!(PAWN[0][sq(5, 1)], 0);
    }

    #[test]
    fn sliders() {
        assert_eq!(rook(sq(5, 5), 0).count_ones(), 16);
        assert_eq!(bishop(sq(5, 5), 0).count_ones(), 16);
        assert_eq!(bishop(sq(1, 1), 0).count_ones(), 8);
        let occ = 1u128 << sq(5, 3);
        assert_eq!(
            lance(Color::Black, sq(5, 5), occ),
            (1u128 << sq(5, 4)) | occ
        );
        assert_eq!(
            lance(Color::White, sq(5, 1), occ),
            (1u128 << sq(5, 2)) | occ
        );
        let occ = (1u128 << sq(3, 3)) | (1u128 << sq(7, 7));
        let b = bishop(sq(5, 5), occ);
        assert!(b & (1u128 << sq(3, 3)) != 0 && b & (1u128 << sq(2, 2)) == 0);
        assert!(b & (1u128 << sq(7, 7)) != 0 && b & (1u128 << sq(8, 8)) == 0);
        assert_eq!(b.count_ones(), 12);
    }

    #[test]
    fn reaches_agrees_with_the_attack_sets() {
        // A few occupancies, every kind, side, origin and target.
        let occs = [
            0u128,
            0x1234_5678_9abc_def0_1357_9bdf_u128,
            !0u128 >> 47,
            0x0f0f_0f0f_0f0f_0f0f_0f0f,
        ];
        for occ in occs {
            let occ = occ & ((1u128 << 81) - 1);
            for k in PieceKind::ALL {
                for c in Color::ALL {
                    for from in 0..81 {
                        let set = piece_attacks(k, c, from, occ);
                        for to in 0..81 {
                            assert_eq!(reaches(k, c, from, to, occ), set >> to & 1 == 1);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn pseudo_attacks_are_the_attacks_on_an_empty_board() {
        for k in PieceKind::ALL {
            for c in Color::ALL {
                for sq in 0..81 {
                    assert_eq!(pseudo_attacks(k, c, sq), piece_attacks(k, c, sq, 0));
                }
            }
        }
    }

    #[test]
    fn steps_and_slide_classes_make_the_attacks() {
        let occ = 0x1234_5678_9abc_def0_1357_9bdf_u128 & ((1u128 << 81) - 1);
        for k in PieceKind::ALL {
            for c in Color::ALL {
                for sq in 0..81 {
                    let slides = [0, lance(c, sq, occ), bishop(sq, occ), rook(sq, occ)];
                    assert_eq!(
                        step_attacks(k, c, sq) | slides[usize::from(SLIDE_CLASS[k as usize])],
                        piece_attacks(k, c, sq, occ)
                    );
                }
            }
        }
    }

    #[test]
    fn square_bits_are_single_shifted_bits() {
        for sq in 0..81 {
            assert_eq!(bit(sq), 1u128 << sq);
        }
        assert_eq!(BIT.iter().fold(0, |a, b| a | b), (1u128 << 81) - 1);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq(1, 1), sq(1, 9)).count_ones(), 7);
        assert_eq!(between(sq(1, 1), sq(9, 9)).count_ones(), 7);
        assert_eq!(between(sq(1, 1), sq(2, 3)), 0);
        assert_eq!(line(sq(1, 1), sq(2, 3)), 0);
        assert_eq!(line(sq(5, 5), sq(5, 7)).count_ones(), 9);
        assert_eq!(between(sq(5, 5), sq(5, 6)), 0);
    }
}
