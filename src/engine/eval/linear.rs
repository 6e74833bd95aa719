//! The learned evaluation: a linear model over sparse features, in two game stages.
//!
//! Every feature is seen from one side `c` (its "us"), on a board turned so that `c`
//! plays up the board (White's squares are point-mirrored, `80 - index`); the weights are
//! shared by both sides, and the features of the side to move count `+1`, the other's
//! `-1`. Per stage ([`N_FEATURES`] weights):
//!
//! - piece-square: our pieces, kind x square (1,134);
//! - hand: our count of each kind, as "at least n" for n = 1..max (38);
//! - control of every square: Chebyshev distance to our king x distance to theirs x our
//!   attackers (0-3+) x theirs (0-3+) (1,296);
//! - around our king and around theirs: for each of the 24 squares within two steps,
//!   what stands there (empty, off the board, or our or their piece of each kind)
//!   (2 x 720), and the attackers of both sides on it (2 x 384);
//! - our hand against the exposure of their king (its empty neighbours that no piece of
//!   theirs but the king guards, 0-8): exposure x each kind held (63), exposure x pieces
//!   held (0-7+) (72);
//! - a tempo term for the side to move (1);
//! - threats: each of our pieces but the king, by kind x our attackers of its square
//!   (0-3+, its defenders) x theirs (0-3+), apart for the side to move where theirs is
//!   not 0 (a piece of the side to move under attack must be saved at the cost of a
//!   move; one of the other side is the quiescence search's to take) (448);
//! - mobility: each of our lances, bishops, rooks, horses and dragons by the number of
//!   squares it attacks that none of our pieces stands on (0-20+) (5 x 21);
//! - pairs of pieces near each other: each of our pieces but the king, by its kind x the
//!   offset (one of 24, within two steps) x what stands there (our or their piece of each
//!   kind) (14 x 24 x 28). The search keeps these sums move by move ([`PairSums`]: only
//!   the pairs with a square the move changed are summed again).
//!
//! Files written before a group was added load with its weights (and those of every
//! later group) at zero.
//!
//! The game-progress estimate `p` (0..=256) counts the pieces in hand, the pieces in the
//! enemy camps, the promoted pieces and the kings away from their own camp (3 each), a
//! sum of 24 being the end; the value is `((256 - p) * opening + p * endgame) / 256`.
//!
//! A weights file may also hold a **correction** of the hand-made evaluation
//! ([`LinearWeights::residual`]): the value is then the hand-made evaluation
//! ([`crate::engine::eval::evaluate`]) plus the linear sum ([`evaluate_total`]). Fitted from
//! zero weights, such a model starts as the hand-made evaluation and moves from it only as
//! far as the labels show, which is what a few tens of thousands of positions support.
//!
//! A correction may also be of the 24-point engine's evaluation
//! ([`LinearWeights::decl24`], the `LinearWeights24` option, [`evaluate_decl24`]).
//!
//! The full search's default evaluation is such a correction, compiled in
//! ([`builtin`], from `weights/correction.txt`); the `LinearWeights` option set to
//! `<empty>` or `none` turns it off (the hand-made evaluation alone).
//!
//! [`features_reference`] lists the features of a position the plain way (used by the
//! fit and as the definition); [`evaluate`] computes the same value without the list, from
//! bit-sliced attack counts, and is tested equal to it.
use crate::shogi::sets::*;
use crate::shogi::{Bitboard, Color, PieceKind, Position, Square, attacks_from};

/// Piece-square features.
pub const OFF_PSQ: usize = 0;
/// Hand-count features.
pub const OFF_HAND: usize = OFF_PSQ + KINDS * 81;
/// Square-control features.
pub const OFF_CTRL: usize = OFF_HAND + 38;
/// What stands around our king.
pub const OFF_OWN_KING: usize = OFF_CTRL + 9 * 9 * 16;
/// What stands around their king.
pub const OFF_THEIR_KING: usize = OFF_OWN_KING + 24 * CONTENTS;
/// Attackers around our king.
pub const OFF_OWN_KING_CTRL: usize = OFF_THEIR_KING + 24 * CONTENTS;
/// Attackers around their king.
pub const OFF_THEIR_KING_CTRL: usize = OFF_OWN_KING_CTRL + 24 * 16;
/// Hand kinds against the exposure of their king.
pub const OFF_EXPOSURE: usize = OFF_THEIR_KING_CTRL + 24 * 16;
/// Pieces held against the exposure of their king.
pub const OFF_EXPOSURE_TOTAL: usize = OFF_EXPOSURE + 9 * 7;
/// The tempo term.
pub const OFF_TEMPO: usize = OFF_EXPOSURE_TOTAL + 9 * 8;
/// Threats on each piece.
pub const OFF_THREAT: usize = OFF_TEMPO + 1;
/// Mobility of the long-range pieces.
pub const OFF_MOBILITY: usize = OFF_THREAT + 2 * KINDS * 16;
/// Pairs of pieces near each other.
pub const OFF_PP: usize = OFF_MOBILITY + 5 * 21;
/// Features per stage.
pub const N_FEATURES: usize = OFF_PP + KINDS * 24 * 28;
/// Features per stage of the layouts before this one, oldest first: before the threat
/// group, before the mobility group.
const EARLIER_LAYOUTS: [usize; 3] = [OFF_THREAT, OFF_MOBILITY, OFF_PP];
/// Stages (opening, endgame).
pub const STAGES: usize = 2;
/// Progress at the endgame.
pub const PROGRESS_MAX: i32 = 256;
/// Fixed-point scale of the quantised weights.
pub const WEIGHT_SCALE: f32 = 16.0;

/// Contents of a square near a king: empty, off the board, ours (14 kinds), theirs (14).
const CONTENTS: usize = 30;
/// Where each hand kind's "at least n" features start (pawn 18, lance..gold 4, bishop
/// and rook 2).
const HAND_BASE: [usize; 7] = [0, 18, 22, 26, 30, 34, 36];
const HAND_MAX: [i32; 7] = [18, 4, 4, 4, 4, 2, 2];

/// The 24 offsets (row, column) within two steps of a king, in a side's turned board.
const OFFSETS: [(i32, i32); 24] = {
    let mut t = [(0, 0); 24];
    let mut i = 0;
    let mut dr = -2;
    while dr <= 2 {
        let mut dc = -2;
        while dc <= 2 {
            if dr != 0 || dc != 0 {
                t[i] = (dr, dc);
                i += 1;
            }
            dc += 1;
        }
        dr += 1;
    }
    t
};

/// Chebyshev distance between two squares.
static DISTANCE: [[u8; 81]; 81] = {
    let mut t = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let dr = (row_of(a) as i32 - row_of(b) as i32).abs();
            let dc = (col_of(a) as i32 - col_of(b) as i32).abs();
            t[a][b] = if dr > dc { dr as u8 } else { dc as u8 };
            b += 1;
        }
        a += 1;
    }
    t
};

/// The square `i` on the board turned for side `c`.
#[inline(always)]
const fn turn(c: usize, i: usize) -> usize {
    if c == 0 { i } else { 80 - i }
}

/// The square (true board) at offset `off` from the king on `k` in side `c`'s turned
/// board, or `None` off the board.
#[inline(always)]
fn at_offset(c: usize, k: usize, off: usize) -> Option<usize> {
    let t = turn(c, k);
    let (dr, dc) = OFFSETS[off];
    let r = row_of(t) as i32 + dr;
    let cc = col_of(t) as i32 + dc;
    if (0..9).contains(&r) && (0..9).contains(&cc) {
        Some(turn(c, index_of(r as usize, cc as usize)))
    } else {
        None
    }
}

/// [`at_offset`] as a table: `NEAR[c][k][off]`, 81 off the board.
static NEAR: [[[u8; 24]; 81]; 2] = {
    let mut t = [[[81u8; 24]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 81 {
            let tk = turn(c, k);
            let mut off = 0;
            while off < 24 {
                let (dr, dc) = OFFSETS[off];
                let r = row_of(tk) as i32 + dr;
                let cc = col_of(tk) as i32 + dc;
                if r >= 0 && r < 9 && cc >= 0 && cc < 9 {
                    t[c][k][off] = turn(c, index_of(r as usize, cc as usize)) as u8;
                }
                off += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// Squares within two steps of each square.
static BOX: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if a != b && DISTANCE[a][b] <= 2 {
                t[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// `BOX_OFF[c][a][b]`: the offset of square `b` from square `a` on side `c`'s turned
/// board, as the index of [`NEAR`]`[c][a]` that names `b` (255 where none does).
static BOX_OFF: [[[u8; 81]; 81]; 2] = {
    let mut t = [[[255u8; 81]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut a = 0;
        while a < 81 {
            let mut off = 0;
            while off < 24 {
                let b = NEAR[c][a][off] as usize;
                if b < 81 {
                    t[c][a][b] = off as u8;
                }
                off += 1;
            }
            a += 1;
        }
        c += 1;
    }
    t
};

/// The index of the pair feature of a piece of kind `k` (not a king) of the side that
/// sees the board, and the content `content` ([`content`], not empty) at offset `off`
/// from it.
#[inline(always)]
fn pp_index(k: usize, off: usize, content: usize) -> usize {
    OFF_PP + (k * 24 + off) * 28 + content - 2
}

/// The content code of square `sq` seen from side `c`.
#[inline(always)]
fn content<P: Pieces>(b: &P, c: usize, sq: usize) -> usize {
    let code = b.piece_code_at(sq);
    if code == EMPTY {
        0
    } else if (code >> 4) as usize == c {
        2 + (code & 0x0f) as usize
    } else {
        16 + (code & 0x0f) as usize
    }
}

/// The game-progress estimate, 0..=[`PROGRESS_MAX`].
pub fn progress<P: Pieces>(b: &P) -> i32 {
    let mut n = 0;
    for (c, camp) in CAMP.iter().enumerate() {
        for k in 0..7 {
            n += b.hand_count(c, k);
        }
        let non_king = b.color_set(c) & !b.set(c, KING);
        n += (non_king & camp).count_ones() as i32;
        if let Some(k) = b.king_of(c)
            && !row_in_camp(1 - c, row_of(k))
        {
            n += 3;
        }
    }
    for k in [PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON] {
        n += (b.set(0, k) | b.set(1, k)).count_ones() as i32;
    }
    (n * PROGRESS_MAX / 24).min(PROGRESS_MAX)
}

#[inline(always)]
fn ctrl_index(du: usize, dt: usize, cu: usize, ct: usize) -> usize {
    OFF_CTRL + ((du * 9 + dt) * 4 + cu) * 4 + ct
}

/// The threat feature of a piece of kind `k` whose side has `ours` attackers on its
/// square (0-3) and the other side `theirs` (0-3), `mover` if its side is to move.
#[inline(always)]
fn threat_index(k: usize, ours: usize, theirs: usize, mover: bool) -> usize {
    let split = (mover && theirs > 0) as usize;
    OFF_THREAT + ((split * KINDS + k) * 4 + ours) * 4 + theirs
}

/// The mobility slot of kind `k` (0-4), if it is a long-range piece.
#[inline(always)]
fn mobility_slot(k: usize) -> Option<usize> {
    match k {
        LANCE => Some(0),
        BISHOP => Some(1),
        ROOK => Some(2),
        HORSE => Some(3),
        DRAGON => Some(4),
        _ => None,
    }
}

/// The mobility feature of a long-range piece in slot `slot` attacking `n` squares free
/// of its own side's pieces.
#[inline(always)]
fn mobility_index(slot: usize, n: u32) -> usize {
    OFF_MOBILITY + slot * 21 + n.min(20) as usize
}

/// The features of `pos`: `(index, sign)` pairs (an index may repeat), and the progress.
pub fn features_reference(pos: &Position) -> (Vec<(usize, i32)>, i32) {
    let b = pos;
    let occ = b.occupancy();
    let (counts, guards) = attack_counts(b, occ);
    let mut out = Vec::with_capacity(600);
    for c in 0..2 {
        let sign = if c == b.to_move() { 1 } else { -1 };
        push_material(&mut out, b, c, sign);
        push_mobility(&mut out, b, c, occ, sign);
        let (Some(ku), Some(kt)) = (b.king_of(c), b.king_of(1 - c)) else {
            continue;
        };
        for sq in 0..81 {
            let du = DISTANCE[sq][ku] as usize;
            let dt = DISTANCE[sq][kt] as usize;
            let cu = counts[c][sq].min(3);
            let ct = counts[1 - c][sq].min(3);
            out.push((ctrl_index(du, dt, cu, ct), sign));
        }
        push_king_surroundings(&mut out, b, c, ku, kt, &counts, sign);
        for sq in squares(b.color_set(c)) {
            let k = b.kind_on(sq);
            if k != KING {
                let (ours, theirs) = (counts[c][sq].min(3), counts[1 - c][sq].min(3));
                out.push((threat_index(k, ours, theirs, c == b.to_move()), sign));
            }
        }
        let exposure = (KING_ATTACKS[kt] & !occ & !guards[1 - c]).count_ones() as usize;
        push_exposure(&mut out, b, c, exposure, sign);
        for sq in squares(b.color_set(c)) {
            let k = b.kind_on(sq);
            if k == KING {
                continue;
            }
            // The pairs the plain way: each of the 24 offsets in turn.
            for (off, &s2) in NEAR[c][sq].iter().enumerate() {
                let s2 = s2 as usize;
                if s2 == 81 {
                    continue;
                }
                let cont = content(b, c, s2);
                if cont != 0 {
                    out.push((pp_index(k, off, cont), sign));
                }
            }
        }
    }
    out.push((OFF_TEMPO, 1));
    (out, progress(b))
}

/// Per side, the attackers of each square and the squares attacked by pieces but the king.
fn attack_counts(b: &Position, occ: SquareSet) -> ([[usize; 81]; 2], [SquareSet; 2]) {
    let mut counts = [[0usize; 81]; 2];
    let mut guards = [0u128; 2];
    for sq in 0..81 {
        let code = b.piece_code_at(sq);
        if code == EMPTY {
            continue;
        }
        let c = (code >> 4) as usize;
        let k = (code & 0x0f) as usize;
        let kind = PieceKind::from_index(k).expect("a board kind");
        let color = if c == 0 { Color::Black } else { Color::White };
        let att = attacks_from(kind, color, Square::ALL[sq], Bitboard(occ)).0;
        for (t, n) in counts[c].iter_mut().enumerate() {
            if att >> t & 1 != 0 {
                *n += 1;
            }
        }
        if k != KING {
            guards[c] |= att;
        }
    }
    (counts, guards)
}

/// Side `c`'s piece-square and hand-count features.
fn push_material(out: &mut Vec<(usize, i32)>, b: &Position, c: usize, sign: i32) {
    for sq in 0..81 {
        let code = b.piece_code_at(sq);
        if code != EMPTY && (code >> 4) as usize == c {
            out.push((OFF_PSQ + (code & 0x0f) as usize * 81 + turn(c, sq), sign));
        }
    }
    for k in 0..7 {
        let n = b.hand_count(c, k).min(HAND_MAX[k]);
        for i in 0..n as usize {
            out.push((OFF_HAND + HAND_BASE[k] + i, sign));
        }
    }
}

/// Side `c`'s mobility features: each long-range piece by the squares it attacks free of
/// `c`'s pieces.
fn push_mobility(out: &mut Vec<(usize, i32)>, b: &Position, c: usize, occ: SquareSet, sign: i32) {
    let color = if c == 0 { Color::Black } else { Color::White };
    for sq in squares(b.color_set(c)) {
        let k = b.kind_on(sq);
        if let Some(slot) = mobility_slot(k) {
            let kind = PieceKind::from_index(k).expect("a board kind");
            let att = attacks_from(kind, color, Square::ALL[sq], Bitboard(occ)).0;
            let n = (att & !b.color_set(c)).count_ones();
            out.push((mobility_index(slot, n), sign));
        }
    }
}

/// What stands on and who controls the 24 squares around each king, seen from side `c`.
fn push_king_surroundings(
    out: &mut Vec<(usize, i32)>,
    b: &Position,
    c: usize,
    ku: usize,
    kt: usize,
    counts: &[[usize; 81]; 2],
    sign: i32,
) {
    for (base, ctrl, k) in [
        (OFF_OWN_KING, OFF_OWN_KING_CTRL, ku),
        (OFF_THEIR_KING, OFF_THEIR_KING_CTRL, kt),
    ] {
        for off in 0..24 {
            match at_offset(c, k, off) {
                None => out.push((base + off * CONTENTS + 1, sign)),
                Some(s) => {
                    out.push((base + off * CONTENTS + content(b, c, s), sign));
                    let cu = counts[c][s].min(3);
                    let ct = counts[1 - c][s].min(3);
                    out.push((ctrl + (off * 4 + cu) * 4 + ct, sign));
                }
            }
        }
    }
}

/// Side `c`'s hand kinds and hand size against the other king's unguarded free neighbours.
fn push_exposure(out: &mut Vec<(usize, i32)>, b: &Position, c: usize, exposure: usize, sign: i32) {
    let mut held = 0;
    for k in 0..7 {
        let n = b.hand_count(c, k);
        if n > 0 {
            out.push((OFF_EXPOSURE + exposure * 7 + k, sign));
        }
        held += n;
    }
    out.push((
        OFF_EXPOSURE_TOTAL + exposure * 8 + held.min(7) as usize,
        sign,
    ));
}

/// Learned weights: [`STAGES`] x [`N_FEATURES`] values on the teacher's centipawn scale,
/// and their fixed-point form for the evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearWeights {
    /// Opening weights then endgame weights.
    pub values: Vec<f32>,
    /// Whether the weights correct the hand-made evaluation (the value is the hand-made
    /// evaluation plus the linear sum) instead of standing alone.
    pub residual: bool,
    /// Whether the correction is of the 24-point engine's evaluation
    /// ([`crate::engine::eval::eval24`]) rather than the hand-made one (with `residual`).
    pub decl24: bool,
    /// `values` times [`WEIGHT_SCALE`], rounded (within +-2^20).
    quantised: Vec<i32>,
    /// Per feature, the opening and endgame quantised weights in one integer,
    /// `opening * 2^32 + endgame`: one load and one add per feature in [`evaluate`].
    packed: Vec<i64>,
    /// The control terms of both sides in one table, from Black's point of view:
    /// entry [`ctrl_index`]` - OFF_CTRL` for Black (distances to Black's king and to
    /// White's, Black's attackers, White's) is Black's packed weight less White's for the
    /// same square (the distances and counts swapped). Padded to [`PAIR_LEN`] entries
    /// (zeros) so that a masked index needs no bounds check.
    ctrl_pair: Box<[i64; PAIR_LEN]>,
    /// The terms around both kings from Black's point of view, per king (Black's, then
    /// White's): for Black's offset `o` around that king, [`NEAR_CONTENTS`] entries
    /// `o * 30 + content` (Black's feature less White's for the same square, which White
    /// sees at offset `23 - o` with the colours swapped), then [`NEAR_CTRL`] entries
    /// `o * 16 + 4 * Black's attackers + White's`.
    near_pair: [Vec<i64>; 2],
    /// Whether any weight of the pair group is not zero (else its sums are not taken).
    has_pairs: bool,
}

/// Entries of the contents part of [`LinearWeights::near_pair`].
const NEAR_CONTENTS: usize = 24 * CONTENTS;
/// Entries of the attackers part of [`LinearWeights::near_pair`].
const NEAR_CTRL: usize = 24 * 16;

/// Length of [`LinearWeights::ctrl_pair`]: a power of two above the 1,296 control
/// features.
const PAIR_LEN: usize = 2048;

/// The text of the correction compiled in as the full search's default evaluation
/// (`weights/correction.txt`; how it was made: `reports/learn.md`).
pub const BUILTIN_TEXT: &str = include_str!("../../../weights/correction.txt");

/// The compiled-in weights ([`BUILTIN_TEXT`]), read once.
pub fn builtin() -> std::sync::Arc<LinearWeights> {
    static BUILTIN: std::sync::OnceLock<std::sync::Arc<LinearWeights>> = std::sync::OnceLock::new();
    BUILTIN
        .get_or_init(|| {
            std::sync::Arc::new(
                LinearWeights::parse(BUILTIN_TEXT).expect("the compiled-in weights are valid"),
            )
        })
        .clone()
}

/// A weights file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The first line is not the format line.
    #[error(
        "not a linear weights file (first line must be `{FORMAT_LINE}`, `{RESIDUAL_FORMAT_LINE}` or `{DECL24_FORMAT_LINE}`)"
    )]
    Format,
    /// A line is not a number.
    #[error("line {0}: not a number")]
    Number(usize),
    /// The count of values is wrong.
    #[error("{found} values, expected {expected}")]
    Count {
        /// Values found.
        found: usize,
        /// Values expected.
        expected: usize,
    },
}

/// First line of a weights file.
pub const FORMAT_LINE: &str = "floodgate-scan linear evaluation v1";

/// First line of a weights file whose values correct the hand-made evaluation
/// ([`LinearWeights::residual`]); the rest of the file is as in [`FORMAT_LINE`]'s.
pub const RESIDUAL_FORMAT_LINE: &str =
    "floodgate-scan linear evaluation v1, added to the hand-made evaluation";

/// First line of a weights file whose values correct the 24-point engine's evaluation
/// ([`LinearWeights::decl24`]).
pub const DECL24_FORMAT_LINE: &str =
    "floodgate-scan linear evaluation v1, added to the 24-point evaluation";

impl LinearWeights {
    /// Weights from values (opening then endgame).
    pub fn from_values(values: Vec<f32>) -> LinearWeights {
        assert_eq!(values.len(), STAGES * N_FEATURES);
        let quantised: Vec<i32> = values
            .iter()
            .map(|&v| (v * WEIGHT_SCALE).round().clamp(-1_048_576.0, 1_048_576.0) as i32)
            .collect();
        let packed: Vec<i64> = (0..N_FEATURES)
            .map(|f| ((quantised[f] as i64) << 32) + quantised[N_FEATURES + f] as i64)
            .collect();
        let mut ctrl_pair = Box::new([0i64; PAIR_LEN]);
        for du in 0..9 {
            for dt in 0..9 {
                for cu in 0..4 {
                    for ct in 0..4 {
                        ctrl_pair[ctrl_index(du, dt, cu, ct) - OFF_CTRL] =
                            packed[ctrl_index(du, dt, cu, ct)] - packed[ctrl_index(dt, du, ct, cu)];
                    }
                }
            }
        }
        // Around Black's king Black has its own-king features and White its their-king
        // ones; around White's king the other way round.
        let near_pair = [
            (
                OFF_OWN_KING,
                OFF_OWN_KING_CTRL,
                OFF_THEIR_KING,
                OFF_THEIR_KING_CTRL,
            ),
            (
                OFF_THEIR_KING,
                OFF_THEIR_KING_CTRL,
                OFF_OWN_KING,
                OFF_OWN_KING_CTRL,
            ),
        ]
        .map(|(black, black_ctrl, white, white_ctrl)| {
            let mut t = vec![0i64; NEAR_CONTENTS + NEAR_CTRL];
            for o in 0..24 {
                for content in 0..CONTENTS {
                    let swapped = match content {
                        0 | 1 => content,
                        2..16 => content + 14,
                        _ => content - 14,
                    };
                    t[o * CONTENTS + content] = packed[black + o * CONTENTS + content]
                        - packed[white + (23 - o) * CONTENTS + swapped];
                }
                for code in 0..16 {
                    let swapped = (code % 4) * 4 + code / 4;
                    t[NEAR_CONTENTS + o * 16 + code] = packed[black_ctrl + o * 16 + code]
                        - packed[white_ctrl + (23 - o) * 16 + swapped];
                }
            }
            t
        });
        let has_pairs = packed[OFF_PP..N_FEATURES].iter().any(|&x| x != 0);
        LinearWeights {
            values,
            residual: false,
            decl24: false,
            quantised,
            packed,
            has_pairs,
            ctrl_pair,
            near_pair,
        }
    }

    /// Whether the pair group has a weight that is not zero.
    pub fn has_pairs(&self) -> bool {
        self.has_pairs
    }

    /// The same weights as a correction of the hand-made evaluation (`true`) or standing
    /// alone (`false`).
    pub fn with_residual(mut self, residual: bool) -> LinearWeights {
        self.residual = residual;
        self
    }

    /// The same weights as a correction of the 24-point evaluation (`true`; a correction
    /// then) or not.
    pub fn with_decl24(mut self, decl24: bool) -> LinearWeights {
        self.decl24 = decl24;
        self.residual |= decl24;
        self
    }

    /// The starting point of a correction: every weight zero, so that the value is the
    /// hand-made evaluation's.
    pub fn zero_residual() -> LinearWeights {
        LinearWeights::from_values(vec![0.0; STAGES * N_FEATURES]).with_residual(true)
    }

    /// A starting point: material only (the hand-made evaluation's piece values, and
    /// its hand bonus on the hand counts), in both stages.
    pub fn material() -> LinearWeights {
        let mut v = vec![0f32; STAGES * N_FEATURES];
        for s in 0..STAGES {
            let w = &mut v[s * N_FEATURES..(s + 1) * N_FEATURES];
            for k in 0..KINDS {
                for sq in 0..81 {
                    w[OFF_PSQ + k * 81 + sq] = crate::engine::eval::piece_value(k) as f32;
                }
            }
            for k in 0..7 {
                for i in 0..HAND_MAX[k] as usize {
                    w[OFF_HAND + HAND_BASE[k] + i] = (crate::engine::eval::piece_value(k)
                        + crate::engine::eval::hand_bonus(k))
                        as f32;
                }
            }
        }
        LinearWeights::from_values(v)
    }

    /// The text form: the format line, `#` comment lines, then one value per line.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = format!(
            "{}\n",
            if self.decl24 {
                DECL24_FORMAT_LINE
            } else if self.residual {
                RESIDUAL_FORMAT_LINE
            } else {
                FORMAT_LINE
            }
        );
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str(&format!(
            "# {STAGES} stages x {N_FEATURES} features (see the module documentation)\n"
        ));
        for v in &self.values {
            s.push_str(&format!("{v}\n"));
        }
        s
    }

    /// Read the text form.
    pub fn parse(text: &str) -> Result<LinearWeights, WeightsError> {
        let mut lines = text.lines();
        let (residual, decl24) = match lines.next().map(str::trim) {
            Some(FORMAT_LINE) => (false, false),
            Some(RESIDUAL_FORMAT_LINE) => (true, false),
            Some(DECL24_FORMAT_LINE) => (true, true),
            _ => return Err(WeightsError::Format),
        };
        let mut values = Vec::with_capacity(STAGES * N_FEATURES);
        for (i, l) in lines.enumerate() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let v: f32 = l.parse().map_err(|_| WeightsError::Number(i + 2))?;
            if !v.is_finite() {
                return Err(WeightsError::Number(i + 2));
            }
            values.push(v);
        }
        if let Some(&old) = EARLIER_LAYOUTS
            .iter()
            .find(|&&n| values.len() == STAGES * n)
        {
            // A file of an earlier layout: the later groups' weights at zero.
            let mut full = Vec::with_capacity(STAGES * N_FEATURES);
            for stage in values.chunks(old) {
                full.extend_from_slice(stage);
                full.resize(full.len() + N_FEATURES - old, 0.0);
            }
            values = full;
        }
        if values.len() != STAGES * N_FEATURES {
            return Err(WeightsError::Count {
                found: values.len(),
                expected: STAGES * N_FEATURES,
            });
        }
        Ok(LinearWeights::from_values(values)
            .with_residual(residual)
            .with_decl24(decl24))
    }
}

/// The value of a feature list: `((256 - p) * opening + p * endgame) / (256 *
/// WEIGHT_SCALE)`, in integers (the definition the fast path must match).
pub fn value_of(features: &[(usize, i32)], p: i32, w: &LinearWeights) -> i32 {
    let (mut open, mut end) = (0i64, 0i64);
    for &(f, s) in features {
        open += (s * w.quantised[f]) as i64;
        end += (s * w.quantised[N_FEATURES + f]) as i64;
    }
    combine(open, end, p)
}

#[inline(always)]
fn combine(open: i64, end: i64, p: i32) -> i32 {
    let v = ((PROGRESS_MAX - p) as i64 * open + p as i64 * end)
        / (PROGRESS_MAX as i64 * WEIGHT_SCALE as i64);
    v.clamp(-20_000, 20_000) as i32
}

/// The plain evaluation: the feature list, then [`value_of`].
pub fn evaluate_reference(pos: &Position, w: &LinearWeights) -> i32 {
    let (f, p) = features_reference(pos);
    value_of(&f, p, w)
}

/// The value the search uses, from the side to move's point of view: [`evaluate`], plus
/// the hand-made evaluation when the weights are a correction of it.
#[inline]
pub fn evaluate_total<P: Pieces>(b: &P, w: &LinearWeights) -> i32 {
    if !w.residual {
        return evaluate(b, w);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::engine::eval::fast_bit_instructions() {
        // SAFETY: the processor has every feature `total_x86` is compiled for.
        return unsafe { total_x86(b, w, None) };
    }
    total_body(b, w, None)
}

/// The hand-made evaluation and the correction over one set of attack maps: the hand-made
/// evaluation counts the attacks of every piece as it goes, and the correction reads
/// those counts instead of computing its own.
#[inline(always)]
fn total_body<P: Pieces>(b: &P, w: &LinearWeights, pairs: Option<&PairSums>) -> i32 {
    let (hand, counts) = crate::engine::eval::evaluate_counting(b);
    (evaluate_with_counts(b, w, &counts, pairs) + hand).clamp(-20_000, 20_000)
}

/// [`total_body`] compiled for the bit-counting instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1")]
unsafe fn total_x86<P: Pieces>(b: &P, w: &LinearWeights, pairs: Option<&PairSums>) -> i32 {
    total_body(b, w, pairs)
}

/// [`evaluate_total`] with the pair group's sums given (kept move by move by the
/// search, [`PairSums::change`]) instead of summed here: the same value when `pairs`
/// are [`pair_sums`] of `b`.
#[inline]
pub fn evaluate_total_with_pairs<P: Pieces>(b: &P, w: &LinearWeights, pairs: &PairSums) -> i32 {
    if !w.residual {
        return evaluate_with_counts(b, w, &[side_counts(b, 0), side_counts(b, 1)], Some(pairs));
    }
    #[cfg(target_arch = "x86_64")]
    if crate::engine::eval::fast_bit_instructions() {
        // SAFETY: the processor has every feature `total_x86` is compiled for.
        return unsafe { total_x86(b, w, Some(pairs)) };
    }
    total_body(b, w, Some(pairs))
}

/// The pair group's sums of each side (packed as the weights are, each side's from its
/// own point of view): for each of its pieces but the king, the weights of each piece
/// within two steps of it. Kept whether or not both kings stand (the evaluation takes
/// them only where they do).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairSums(pub [i64; 2]);

/// [`PairSums`] of `b`, summed over the board (zero where the group's weights are).
pub fn pair_sums<P: Pieces>(b: &P, w: &LinearWeights) -> PairSums {
    let mut s = [0i64; 2];
    if !w.has_pairs {
        return PairSums(s);
    }
    let q = &w.packed[..N_FEATURES];
    let occ = b.occupancy();
    for (c, acc) in s.iter_mut().enumerate() {
        let contents = &CONTENT_CODE[c];
        let offs = &BOX_OFF[c];
        for k in 0..KINDS {
            if k == KING {
                continue;
            }
            for sq in squares(b.set(c, k)) {
                for s2 in squares(BOX[sq] & occ) {
                    let off = offs[sq][s2] as usize;
                    let cont = contents[b.piece_code_at(s2) as usize] as usize;
                    *acc += q[pp_index(k, off, cont)];
                }
            }
        }
    }
    PairSums(s)
}

impl PairSums {
    /// The sums after a move that changed the squares of `changed`, each with the piece
    /// code it held before (`EMPTY` for none); `after` is the position after the move.
    /// Only the pairs with a changed square are summed, before and after.
    #[inline]
    pub fn change<P: Pieces>(
        &self,
        after: &P,
        changed: &[(u8, u8)],
        w: &LinearWeights,
    ) -> PairSums {
        if !w.has_pairs {
            return *self;
        }
        let mut mask: SquareSet = 0;
        for &(sq, _) in changed {
            mask |= 1 << sq;
        }
        let now = |sq: usize| after.piece_code_at(sq);
        let then = |sq: usize| {
            changed
                .iter()
                .find(|&&(x, _)| x as usize == sq)
                .map_or_else(|| after.piece_code_at(sq), |&(_, code)| code)
        };
        let occ = after.occupancy();
        let mut s = self.0;
        let q = &w.packed[..N_FEATURES];
        pairs_touching(q, occ, mask, changed, now, &mut s, 1);
        pairs_touching(q, occ, mask, changed, then, &mut s, -1);
        PairSums(s)
    }
}

/// Adds `sign` times the pair terms of the board `code_at` that have a square of
/// `changed` (its mask `mask`) at either end, each once, to `s`. `occ` holds the
/// occupied squares outside `changed` (and may hold some of those).
#[inline(always)]
fn pairs_touching(
    q: &[i64],
    occ: SquareSet,
    mask: SquareSet,
    changed: &[(u8, u8)],
    code_at: impl Fn(usize) -> u8,
    s: &mut [i64; 2],
    sign: i64,
) {
    for &(a, _) in changed {
        let a = a as usize;
        let code = code_at(a);
        if code == EMPTY || (code & 0x0f) as usize == KING {
            continue;
        }
        let (c, k) = ((code >> 4) as usize, (code & 0x0f) as usize);
        for b in squares(BOX[a] & (occ | mask)) {
            let cb = code_at(b);
            if cb != EMPTY {
                let off = BOX_OFF[c][a][b] as usize;
                s[c] += sign * q[pp_index(k, off, CONTENT_CODE[c][cb as usize] as usize)];
            }
        }
    }
    for &(b, _) in changed {
        let b = b as usize;
        let cb = code_at(b);
        if cb == EMPTY {
            continue;
        }
        for a in squares(BOX[b] & occ & !mask) {
            let code = code_at(a);
            if (code & 0x0f) as usize == KING {
                continue;
            }
            let (c, k) = ((code >> 4) as usize, (code & 0x0f) as usize);
            let off = BOX_OFF[c][a][b] as usize;
            s[c] += sign * q[pp_index(k, off, CONTENT_CODE[c][cb as usize] as usize)];
        }
    }
}

/// The 24-point engine's value with a correction `w` of it ([`LinearWeights::decl24`]):
/// `eval24` (the 24-point evaluation, computed by the caller) plus the linear sum.
#[inline]
pub fn evaluate_decl24<P: Pieces>(b: &P, eval24: i32, w: &LinearWeights) -> i32 {
    (eval24 + evaluate(b, w)).clamp(-20_000, 20_000)
}

/// [`evaluate_total`] the plain way ([`evaluate_reference`] and the hand-made
/// evaluation's own reference).
pub fn evaluate_total_reference(pos: &Position, w: &LinearWeights) -> i32 {
    let v = evaluate_reference(pos, w);
    if w.residual {
        (v + crate::engine::eval::evaluate_reference(pos)).clamp(-20_000, 20_000)
    } else {
        v
    }
}

/// Bit-sliced attack counts of one side: squares attacked at least once, twice, three
/// times, and the attacks of its pieces other than the king.
#[derive(Default, Clone, Copy)]
pub(crate) struct Counts {
    one: u128,
    two: u128,
    three: u128,
    pub(crate) guards: u128,
    /// The mobility features of the side's long-range pieces, as they were counted.
    mobility: [u16; 8],
    long_range: usize,
}

impl Counts {
    /// Count one more attack on every square of `a`.
    #[inline(always)]
    pub(crate) fn add(&mut self, a: u128) {
        self.three |= self.two & a;
        self.two |= self.one & a;
        self.one |= a;
    }

    /// Note the attacks `a` of a piece of kind `k` whose side's pieces stand on `own`:
    /// a long-range piece's mobility feature.
    #[inline(always)]
    pub(crate) fn note_mobility(&mut self, k: usize, a: u128, own: u128) {
        if let Some(slot) = mobility_slot(k)
            && self.long_range < self.mobility.len()
        {
            self.mobility[self.long_range] = mobility_index(slot, (a & !own).count_ones()) as u16;
            self.long_range += 1;
        }
    }

    /// The mobility features noted, or `None` where eight or more long-range pieces
    /// were noted (then they are counted again from the board).
    #[inline(always)]
    fn mobility_features(&self) -> Option<&[u16]> {
        (self.long_range < self.mobility.len()).then(|| &self.mobility[..self.long_range])
    }

    /// The attacker counts (0-3) of squares `8 * j..8 * j + 8`, one per byte (little
    /// end first).
    #[inline(always)]
    fn bytes(&self, j: usize) -> u64 {
        let byte = |b: u128| SPREAD[(b >> (8 * j)) as u8 as usize];
        byte(self.one) + byte(self.two) + byte(self.three)
    }
}

/// Squares as 8-square groups (the last one holds squares 80-87, of which only 80 is on
/// the board).
const GROUPS: usize = 11;

/// `SPREAD[x]` has byte `i` equal to bit `i` of `x`.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut i = 0;
        while i < 8 {
            if x >> i & 1 != 0 {
                t[x] |= 1 << (8 * i);
            }
            i += 1;
        }
        x += 1;
    }
    t
};

/// [`DISTANCE`] in 8-square groups: `DISTANCE_BYTES[k][j]` has byte `i` equal to the
/// distance from `k` to square `8 * j + i` (0 off the board).
static DISTANCE_BYTES: [[u64; GROUPS]; 81] = {
    let mut t = [[0u64; GROUPS]; 81];
    let mut k = 0;
    while k < 81 {
        let mut sq = 0;
        while sq < 81 {
            t[k][sq / 8] |= (DISTANCE[k][sq] as u64) << (8 * (sq % 8));
            sq += 1;
        }
        k += 1;
    }
    t
};

/// `CONTENT_CODE[c][code]`: [`content`] of a square holding `code`, seen from side `c`.
static CONTENT_CODE: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut c = 0;
    while c < 2 {
        let mut code = 0;
        while code < 256 {
            t[c][code] = if code == EMPTY as usize {
                0
            } else if code >> 4 == c {
                2 + (code & 0x0f) as u8
            } else {
                16 + (code & 0x0f) as u8
            };
            code += 1;
        }
        c += 1;
    }
    t
};

/// One byte per square of 8-square groups, as an array.
#[inline(always)]
fn unpack(groups: [u64; GROUPS]) -> [u8; 8 * GROUPS] {
    let mut out = [0u8; 8 * GROUPS];
    for (j, g) in groups.iter().enumerate() {
        out[8 * j..8 * j + 8].copy_from_slice(&g.to_le_bytes());
    }
    out
}

#[inline(always)]
fn side_counts<P: Pieces>(b: &P, c: usize) -> Counts {
    let occ = b.occupancy();
    let mut n = Counts::default();
    for k in 0..KINDS {
        for sq in squares(b.set(c, k)) {
            let a = match k {
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
            };
            n.add(a);
            if k != KING {
                n.guards |= a;
            }
            n.note_mobility(k, a, b.color_set(c));
        }
    }
    n
}

/// The learned evaluation from the side to move's point of view (teacher centipawns):
/// the value of [`evaluate_reference`] without building the feature list.
///
/// The per-square attacker counts are unpacked to bytes, 8 squares at a time; the
/// control terms of both sides are summed in one pass over the board through a table
/// built when the weights load (per entry, Black's weight less White's for the same
/// square), and the terms around the kings in one pass around each king through a
/// second such table. Like the hand-made evaluation, it runs compiled for the
/// bit-counting instructions where the processor has them.
#[inline]
pub fn evaluate<P: Pieces>(b: &P, w: &LinearWeights) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::engine::eval::fast_bit_instructions() {
        // SAFETY: the processor has every feature `evaluate_x86` is compiled for.
        return unsafe { evaluate_x86(b, w) };
    }
    evaluate_body(b, w)
}

/// [`evaluate_body`] compiled for the bit-counting instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1")]
unsafe fn evaluate_x86<P: Pieces>(b: &P, w: &LinearWeights) -> i32 {
    evaluate_body(b, w)
}

/// [`evaluate`] compiled for any processor.
#[inline(always)]
fn evaluate_body<P: Pieces>(b: &P, w: &LinearWeights) -> i32 {
    evaluate_with_counts(b, w, &[side_counts(b, 0), side_counts(b, 1)], None)
}

/// [`evaluate`] from the attack counts of both sides (computed here, or by the hand-made
/// evaluation on its way: [`evaluate_total`]).
#[inline(always)]
fn evaluate_with_counts<P: Pieces>(
    b: &P,
    w: &LinearWeights,
    counts: &[Counts; 2],
    pairs: Option<&PairSums>,
) -> i32 {
    let q = &w.packed[..N_FEATURES];
    let pairs = match pairs {
        Some(p) => p.0,
        None => pair_sums(b, w).0,
    };
    let occ = b.occupancy();
    let kings = [b.king_of(0), b.king_of(1)];
    // Both stages in one sum: at most ~700 features of at most 2^20 each keep the
    // endgame part within 32 bits.
    let mut sum = 0i64;
    if let [Some(k0), Some(k1)] = kings {
        // Per square, `4 * Black's attackers + White's` (0-3 each), and with 16 x the
        // distance to White's king added (at most 143).
        let mut g = [0u64; GROUPS];
        let mut pair = [0u64; GROUPS];
        for j in 0..GROUPS {
            g[j] = (counts[0].bytes(j) << 2) + counts[1].bytes(j);
            pair[j] = (DISTANCE_BYTES[k1][j] << 4) + g[j];
        }
        let (code, pair) = (unpack(g), unpack(pair));
        let d0 = &DISTANCE[k0];
        let t = &*w.ctrl_pair;
        let mut black = 0i64;
        for sq in 0..81 {
            black += t[(d0[sq] as usize * 144 + pair[sq] as usize) & (PAIR_LEN - 1)];
        }
        let contents = &CONTENT_CODE[0];
        for (t, k) in w.near_pair.iter().zip([k0, k1]) {
            let (t_contents, t_ctrl) = t.split_at(NEAR_CONTENTS);
            for (o, &s) in NEAR[0][k].iter().enumerate() {
                if s == 81 {
                    black += t_contents[o * CONTENTS + 1];
                } else {
                    let s = s as usize;
                    black +=
                        t_contents[o * CONTENTS + contents[b.piece_code_at(s) as usize] as usize];
                    black += t_ctrl[o * 16 + code[s] as usize];
                }
            }
        }
        sum += if b.to_move() == 0 { black } else { -black };
        // Threats: per piece but the kings, its kind and both sides' attackers.
        for c in 0..2 {
            let mover = c == b.to_move();
            let mut acc = 0i64;
            for k in 0..KINDS {
                if k == KING {
                    continue;
                }
                for sq in squares(b.set(c, k)) {
                    let (black_n, white_n) = ((code[sq] >> 2) as usize, (code[sq] & 3) as usize);
                    let (ours, theirs) = if c == 0 {
                        (black_n, white_n)
                    } else {
                        (white_n, black_n)
                    };
                    acc += q[threat_index(k, ours, theirs, mover)];
                }
            }
            sum += if mover { acc } else { -acc };
        }
    }
    for c in 0..2 {
        let mut acc = 0i64;
        for k in 0..KINDS {
            let row = &q[OFF_PSQ + k * 81..OFF_PSQ + k * 81 + 81];
            for sq in squares(b.set(c, k)) {
                acc += row[turn(c, sq)];
            }
        }
        let mut held = 0;
        let mut kinds_held = [false; 7];
        for k in 0..7 {
            let n = b.hand_count(c, k);
            for i in 0..n.min(HAND_MAX[k]) as usize {
                acc += q[OFF_HAND + HAND_BASE[k] + i];
            }
            kinds_held[k] = n > 0;
            held += n;
        }
        if let (Some(_), Some(kt)) = (kings[c], kings[1 - c]) {
            let them = &counts[1 - c];
            let exposure = (KING_ATTACKS[kt] & !occ & !them.guards).count_ones() as usize;
            for (k, &h) in kinds_held.iter().enumerate() {
                if h {
                    acc += q[OFF_EXPOSURE + exposure * 7 + k];
                }
            }
            acc += q[OFF_EXPOSURE_TOTAL + exposure * 8 + held.min(7) as usize];
            acc += pairs[c];
        }
        if let Some(features) = counts[c].mobility_features() {
            for &f in features {
                acc += q[f as usize];
            }
        } else {
            acc += mobility_again(b, c, occ, q);
        }
        if c == b.to_move() {
            sum += acc;
        } else {
            sum -= acc;
        }
    }
    sum += q[OFF_TEMPO];
    let end = sum as i32 as i64;
    let open = (sum - end) >> 32;
    combine(open, end, progress(b))
}

/// Side `c`'s mobility terms counted from the board (where eight long-range pieces
/// stand: more than [`Counts`] keeps).
#[cold]
fn mobility_again<P: Pieces>(b: &P, c: usize, occ: SquareSet, q: &[i64]) -> i64 {
    let mut acc = 0;
    let free = !b.color_set(c);
    for sq in squares(b.set(c, LANCE)) {
        acc += q[mobility_index(0, (lance_attacks(c, sq, occ) & free).count_ones())];
    }
    for sq in squares(b.set(c, BISHOP)) {
        acc += q[mobility_index(1, (bishop_attacks(sq, occ) & free).count_ones())];
    }
    for sq in squares(b.set(c, ROOK)) {
        acc += q[mobility_index(2, (rook_attacks(sq, occ) & free).count_ones())];
    }
    for sq in squares(b.set(c, HORSE)) {
        let a = bishop_attacks(sq, occ) | CROSS_ATTACKS[sq];
        acc += q[mobility_index(3, (a & free).count_ones())];
    }
    for sq in squares(b.set(c, DRAGON)) {
        let a = rook_attacks(sq, occ) | DIAG_ATTACKS[sq];
        acc += q[mobility_index(4, (a & free).count_ones())];
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_adds_up() {
        assert_eq!(OFF_HAND, 1134);
        assert_eq!(OFF_THREAT, 4812);
        assert_eq!(OFF_MOBILITY, 4812 + 448);
        assert_eq!(OFF_PP, 4812 + 448 + 105);
        assert_eq!(N_FEATURES, 4812 + 448 + 105 + 14 * 24 * 28);
        assert_eq!(HAND_BASE[6] + HAND_MAX[6] as usize, 38);
    }

    #[test]
    fn material_weights_value_the_start_at_the_tempo() {
        let w = LinearWeights::material();
        let p = Position::startpos();
        assert_eq!(evaluate_reference(&p, &w), 0);
        assert_eq!(evaluate(&p, &w), 0);
    }

    #[test]
    fn mobility_is_counted_again_when_one_side_has_every_long_range_piece() {
        // Eight long-range pieces of one side: more than the attack counts keep, so the
        // fast path counts their mobility from the board again; seven keep to the counts.
        let mut v = vec![0f32; STAGES * N_FEATURES];
        for (i, x) in v.iter_mut().enumerate() {
            *x = ((i * 7919) % 2001) as f32 - 1000.0;
        }
        let plain = LinearWeights::from_values(v.clone());
        let correction = LinearWeights::from_values(v).with_residual(true);
        for sfen in [
            "1nsgkgsn1/9/ppppppppp/9/9/L7L/PPPPPPPPP/1BR3RB1/LNSGKGSNL b - 1",
            "1nsgkgsn1/9/ppppppppp/9/9/L7L/PPPPPPPPP/1+B+R3+R+B1/LNSGKGSNL w - 1",
            "1nsgkgsn1/9/ppppppppp/9/9/L8/PPPPPPPPP/1BR3RB1/LNSGKGSNL w l 1",
        ] {
            let p = Position::from_sfen(sfen).unwrap();
            assert_eq!(
                evaluate(&p, &plain),
                evaluate_reference(&p, &plain),
                "{sfen}"
            );
            assert_eq!(
                evaluate_total(&p, &correction),
                evaluate_total_reference(&p, &correction),
                "{sfen}"
            );
        }
    }

    #[test]
    fn files_of_the_earlier_layouts_load_with_the_later_groups_at_zero() {
        for n in EARLIER_LAYOUTS {
            let old: Vec<f32> = (0..STAGES * n).map(|i| (i % 97) as f32 - 48.0).collect();
            let mut text = format!("{RESIDUAL_FORMAT_LINE}\n");
            for v in &old {
                text.push_str(&format!("{v}\n"));
            }
            let w = LinearWeights::parse(&text).unwrap();
            assert!(w.residual);
            for stage in 0..STAGES {
                let got = &w.values[stage * N_FEATURES..(stage + 1) * N_FEATURES];
                let want = &old[stage * n..(stage + 1) * n];
                assert_eq!(&got[..n], want, "layout {n}, stage {stage}");
                assert!(
                    got[n..].iter().all(|&v| v == 0.0),
                    "layout {n}, stage {stage}"
                );
            }
            // One value short of a layout is an error.
            let short: String = text
                .lines()
                .take(STAGES * n)
                .map(|l| format!("{l}\n"))
                .collect();
            assert!(matches!(
                LinearWeights::parse(&short),
                Err(WeightsError::Count { .. })
            ));
        }
    }

    #[test]
    fn weights_text_round_trips() {
        let mut v = vec![0f32; STAGES * N_FEATURES];
        for (i, x) in v.iter_mut().enumerate() {
            *x = (i as f32 * 0.37).sin() * 100.0;
        }
        let w = LinearWeights::from_values(v);
        let back = LinearWeights::parse(&w.to_text("test\nline two")).unwrap();
        assert_eq!(back, w);
        assert!(LinearWeights::parse("nonsense").is_err());
        let short = format!("{FORMAT_LINE}\n1\n2\n");
        assert_eq!(
            LinearWeights::parse(&short),
            Err(WeightsError::Count {
                found: 2,
                expected: STAGES * N_FEATURES
            })
        );
    }
}
