//! The king-relative piece evaluation: every piece's square (and every piece in hand)
//! relative to each king, in three game stages, kept up to date move by move.
//!
//! # Features
//!
//! Each side `c` sees the board turned so that it plays up the board (White's squares are
//! point-mirrored, `80 - index`, as in [`crate::engine::eval::linear`]). An **item** is a
//! piece seen from `c`: a piece on the board, by owner (ours or theirs), kind (14) and
//! turned square (81), [`BOARD_ITEMS`] in all; or the `n`-th piece of a kind in a hand, by
//! owner, kind and `n` (pawn 1..18, lance, knight, silver, gold 1..4, bishop and rook 1..2),
//! [`HAND_ITEMS`] in all. Both kings are items too (our king relative to theirs is a
//! feature like any other).
//!
//! Each item has a weight relative to our king's (turned) square and one relative to
//! theirs: two tables of `81 x ITEMS` entries, three stages each
//! ([`KingPieceWeights`], 1,139,184 weights). Side `c`'s **accumulator** is the sum, over
//! every item it sees, of both tables' entries, per stage. The value for the side to move
//! is its accumulator less the other side's, the three stages blended by the progress
//! estimate ([`Progress`]): opening at 0, middle at 128, end at 256, linear between.
//!
//! # Incremental
//!
//! A move changes at most four items (the piece leaves a square, arrives promoted or not,
//! a captured piece leaves the board and enters a hand; or a hand piece is dropped), so
//! [`Accumulator::update`] adds and subtracts their entries in both sides' accumulators,
//! both tables; only a king move changes every entry of one table of each side, and then
//! those two halves are summed anew. [`Accumulator::full`] sums everything from the
//! position and is the definition the update is tested against.
//!
//! # Pairs near each king
//!
//! A second table ([`KingPieceWeights::pairs`], files of the second format) values every
//! pair of pieces standing in a king's **zone** (the 24 squares within two steps of it), by
//! the two pieces' kinds as the side sees them and the offset from one to the other
//! (rows and columns -4..=4), in each table (our king's zone, theirs) and stage:
//! [`N_PAIR_WEIGHTS`] weights, a factorized form of a piece-pair-king term (a castle's
//! shape, an attack's shape against it) that tens of thousands of positions can fill. The
//! pairs are few (a zone holds a handful of pieces): the accumulator keeps each zone's sum
//! and sums a zone anew only when a move touches it ([`pair_sums`] sums them from
//! scratch); [`pair_terms`] lists them, the definition the fit shares.
//!
//! # Learning
//!
//! The fit ([`crate::lab::learn::king_fit`]) learns the tables in a factorized form (an
//! item's weight regardless of the king, and by its offset from the king, besides the full
//! table) and folds the factors into the two tables it writes: where the data is thin the
//! factors carry the value, where it is thick the full entries refine them.
use std::sync::Arc;

use crate::shogi::Move;
use crate::shogi::sets::*;

/// Items on the board: owner (2) x kind (14) x square (81).
pub const BOARD_ITEMS: usize = 2 * KINDS * 81;
/// Hand items of one owner: pawn 18, lance..gold 4 each, bishop and rook 2 each.
pub const HAND_ITEMS_PER_SIDE: usize = 38;
/// Items in hands, both owners.
pub const HAND_ITEMS: usize = 2 * HAND_ITEMS_PER_SIDE;
/// All items.
pub const ITEMS: usize = BOARD_ITEMS + HAND_ITEMS;
/// Game stages (opening, middle, end).
pub const STAGES: usize = 3;
/// The two tables: items relative to our king (0) and to theirs (1).
pub const ROLES: usize = 2;
/// Weights in all.
pub const N_WEIGHTS: usize = ROLES * 81 * ITEMS * STAGES;
/// A piece's kind as a side sees it: ours (0..14) or theirs (14..28).
pub const PAIR_KINDS: usize = 2 * KINDS;
/// Offsets from one piece of a king's zone to another: 9 x 9 (rows and columns -4..=4).
pub const PAIR_OFFSETS: usize = 81;
/// Entries of the pair table: table (our king's zone, theirs) x kind x kind x offset,
/// three stages each.
pub const N_PAIR_WEIGHTS: usize = ROLES * PAIR_KINDS * PAIR_KINDS * PAIR_OFFSETS * STAGES;
/// A zone's squares as offsets from its king: 5 x 5 (rows and columns -2..=2; the
/// king's own square is never used).
pub const ZONE_SLOTS: usize = 25;
/// The pieces of a zone by kind as the side sees it and square relative to the king.
pub const ZONE_PIECES: usize = PAIR_KINDS * ZONE_SLOTS;
/// Entries of the pair table by square (files of the third format): table x (kind,
/// square relative to the king) of the first piece x the same of the second, three stages
/// each: a piece-pair-king term within the zone.
pub const N_SQUARE_PAIR_WEIGHTS: usize = ROLES * ZONE_PIECES * ZONE_PIECES * STAGES;
/// Fixed-point scale of the weights: a weight `w` is worth `w / WEIGHT_SCALE` centipawns.
pub const WEIGHT_SCALE: i32 = 16;
/// Progress at the end of the game.
pub const PROGRESS_MAX: i32 = 256;
/// Counts the progress estimate is a linear function of ([`progress_counts`]).
pub const PROGRESS_TERMS: usize = 4;

/// Where each hand kind's items start within one owner's (pawn 0, lance 18, ...).
pub const HAND_BASE: [usize; 7] = [0, 18, 22, 26, 30, 34, 36];
/// The most pieces of each kind a hand can hold.
pub const HAND_MAX: [u32; 7] = [18, 4, 4, 4, 4, 2, 2];

/// The square `sq` on the board turned for side `c`.
#[inline(always)]
pub const fn turn(c: usize, sq: usize) -> usize {
    if c == 0 { sq } else { 80 - sq }
}

/// The item of a board piece of side `owner`, kind `kind`, on (true) square `sq`, seen
/// from side `c`.
#[inline(always)]
pub const fn board_item(c: usize, owner: usize, kind: usize, sq: usize) -> usize {
    let theirs = (owner != c) as usize;
    (theirs * KINDS + kind) * 81 + turn(c, sq)
}

/// The item of the `n`-th (1-based) piece of unpromoted kind `kind` in the hand of side
/// `owner`, seen from side `c`.
#[inline(always)]
pub const fn hand_item(c: usize, owner: usize, kind: usize, n: u32) -> usize {
    let theirs = (owner != c) as usize;
    BOARD_ITEMS + theirs * HAND_ITEMS_PER_SIDE + HAND_BASE[kind] + n as usize - 1
}

/// Every item side `c` sees in `b`, in a fixed order (the plain definition).
pub fn items<P: Pieces>(b: &P, c: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(48);
    for sq in squares(b.occupancy()) {
        let code = b.piece_code_at(sq);
        out.push(board_item(
            c,
            (code >> 4) as usize,
            (code & 0x0f) as usize,
            sq,
        ));
    }
    for owner in 0..2 {
        for (kind, max) in HAND_MAX.iter().enumerate() {
            for n in 1..=b.hand_count(owner, kind).max(0) as u32 {
                out.push(hand_item(c, owner, kind, n.min(*max)));
            }
        }
    }
    out
}

/// The counts the progress estimate weighs: pieces in hand (both sides), pieces other
/// than kings in the enemy camp, promoted pieces on the board, kings out of their own camp.
pub fn progress_counts<P: Pieces>(b: &P) -> [i32; PROGRESS_TERMS] {
    let mut t = [0; PROGRESS_TERMS];
    for (c, camp) in CAMP.iter().enumerate() {
        for k in 0..7 {
            t[0] += b.hand_count(c, k);
        }
        let non_king = b.color_set(c) & !b.set(c, KING);
        t[1] += (non_king & camp).count_ones() as i32;
        if let Some(k) = b.king_of(c)
            && !row_in_camp(1 - c, row_of(k))
        {
            t[3] += 1;
        }
    }
    for k in [PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON] {
        t[2] += (b.set(0, k) | b.set(1, k)).count_ones() as i32;
    }
    t
}

/// The learned progress estimate: `bias + sum(coef[i] * count[i])`, on the scale
/// 0..=[`PROGRESS_MAX`] (clamped), fitted to the share of its game a position stands at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Constant term.
    pub bias: f32,
    /// One coefficient per [`progress_counts`] term.
    pub coef: [f32; PROGRESS_TERMS],
}

impl Progress {
    /// The hand-set estimate the fit starts from (a sum of 24 being the end, kings out
    /// of camp counting 3).
    pub const DEFAULT: Progress = Progress {
        bias: 0.0,
        coef: [
            PROGRESS_MAX as f32 / 24.0,
            PROGRESS_MAX as f32 / 24.0,
            PROGRESS_MAX as f32 / 24.0,
            3.0 * PROGRESS_MAX as f32 / 24.0,
        ],
    };

    /// The estimate for these counts, 0..=[`PROGRESS_MAX`].
    #[inline]
    pub fn of_counts(&self, t: &[i32; PROGRESS_TERMS]) -> i32 {
        let mut v = self.bias;
        for (c, n) in self.coef.iter().zip(t) {
            v += c * *n as f32;
        }
        (v.round() as i32).clamp(0, PROGRESS_MAX)
    }

    /// The estimate of a position.
    #[inline]
    pub fn of<P: Pieces>(&self, b: &P) -> i32 {
        self.of_counts(&progress_counts(b))
    }
}

/// The stage blend at progress `p` (0..=256): weights out of 256 for opening, middle,
/// end, summing to 256.
#[inline]
pub fn blend(p: i32) -> [i32; STAGES] {
    let p = p.clamp(0, PROGRESS_MAX);
    let half = PROGRESS_MAX / 2;
    if p <= half {
        let m = p * 2;
        [PROGRESS_MAX - m, m, 0]
    } else {
        let e = (p - half) * 2;
        [0, PROGRESS_MAX - e, e]
    }
}

/// The weights: two tables of `81 x ITEMS x STAGES` (own king, their king), indexed
/// `((role * 81 + king) * ITEMS + item) * STAGES + stage`, and the progress estimate.
#[derive(Clone, PartialEq)]
pub struct KingPieceWeights {
    /// The table entries, [`N_WEIGHTS`] of them.
    pub w: Vec<i16>,
    /// The pair table ([`pair_terms`]), indexed `pair * STAGES + stage`: by offset
    /// ([`N_PAIR_WEIGHTS`] entries), by square ([`N_SQUARE_PAIR_WEIGHTS`]) or empty (a
    /// file of the first format: no pair term); see [`KingPieceWeights::pair_table`].
    pub pairs: Vec<i16>,
    /// The progress estimate.
    pub progress: Progress,
    /// Free text carried in the file (the fit's data and settings).
    pub comment: String,
}

impl std::fmt::Debug for KingPieceWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KingPieceWeights")
            .field("weights", &self.w.len())
            .field("pairs", &self.pairs.len())
            .field("progress", &self.progress)
            .field("comment", &self.comment)
            .finish()
    }
}

/// A weights file that cannot be used; says why.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KingPieceError {
    /// Not this format.
    #[error("not a king-piece weights file (it does not start with {MAGIC:?})")]
    Magic,
    /// Ends early.
    #[error("the file ends early: {0} bytes, the layout needs {1}")]
    Short(usize, usize),
    /// Longer than the layout.
    #[error("the file is longer than its layout: {0} bytes, the layout has {1}")]
    Long(usize, usize),
    /// The check sum does not match: the file was damaged.
    #[error("the file is damaged: check sum {found:016x}, computed {computed:016x}")]
    Damaged {
        /// In the file.
        found: u64,
        /// Of the bytes read.
        computed: u64,
    },
    /// The header does not parse.
    #[error("bad header: {0}")]
    Header(String),
}

/// The weights compiled in as the full search's default (`weights/king-piece.bin`, with
/// the pair table; how it was made: `reports/learn.md`, "Pairs of pieces in each king's
/// zone").
pub const BUILTIN_BYTES: &[u8] = include_bytes!("../../../weights/king-piece.bin");

/// First bytes of a weights file of the first format (the king-relative tables only).
pub const MAGIC: &[u8; 8] = b"FSKPW01\n";
/// First bytes of a weights file of the second format (with the pair table by offset).
pub const MAGIC_PAIRS: &[u8; 8] = b"FSKPW02\n";
/// First bytes of a weights file of the third format (with the pair table by square).
pub const MAGIC_SQUARE_PAIRS: &[u8; 8] = b"FSKPW03\n";

/// Which pair table a weights file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairTable {
    /// None (the first format).
    None,
    /// Pairs by their kinds and the offset from one piece to the other
    /// ([`N_PAIR_WEIGHTS`] entries, the second format).
    Offset,
    /// Pairs by their kinds and both squares relative to the zone's king
    /// ([`N_SQUARE_PAIR_WEIGHTS`] entries, the third format).
    Square,
}

impl PairTable {
    /// Entries of the table.
    pub const fn len(self) -> usize {
        match self {
            PairTable::None => 0,
            PairTable::Offset => N_PAIR_WEIGHTS,
            PairTable::Square => N_SQUARE_PAIR_WEIGHTS,
        }
    }

    /// Whether there is no table.
    pub const fn is_empty(self) -> bool {
        matches!(self, PairTable::None)
    }

    const fn magic(self) -> &'static [u8; 8] {
        match self {
            PairTable::None => MAGIC,
            PairTable::Offset => MAGIC_PAIRS,
            PairTable::Square => MAGIC_SQUARE_PAIRS,
        }
    }
}

/// FNV-1a, 64 bits, over `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl KingPieceWeights {
    /// All weights zero, the default progress.
    pub fn zero() -> KingPieceWeights {
        KingPieceWeights {
            w: vec![0; N_WEIGHTS],
            pairs: Vec::new(),
            progress: Progress::DEFAULT,
            comment: String::new(),
        }
    }

    /// Which pair table the weights hold (by the length of [`KingPieceWeights::pairs`]).
    #[inline(always)]
    pub fn pair_table(&self) -> PairTable {
        match self.pairs.len() {
            0 => PairTable::None,
            N_SQUARE_PAIR_WEIGHTS => PairTable::Square,
            _ => PairTable::Offset,
        }
    }

    /// The entries of `item` relative to a king on turned square `king` in table `role`.
    #[inline(always)]
    fn entry(&self, role: usize, king: usize, item: usize) -> &[i16] {
        let i = ((role * 81 + king) * ITEMS + item) * STAGES;
        &self.w[i..i + STAGES]
    }

    /// The file: [`MAGIC`] ([`MAGIC_PAIRS`] with a pair table by offset,
    /// [`MAGIC_SQUARE_PAIRS`] with one by square), a header (the comment's
    /// length as 4 little-endian bytes, the comment in UTF-8, the progress bias and
    /// coefficients as little-endian `f32`), the [`N_WEIGHTS`] weights as little-endian
    /// `i16`, then the pair weights ([`PairTable::len`]) in the second and third formats,
    /// and an FNV-1a
    /// check sum (8 bytes) of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity((N_WEIGHTS + self.pairs.len()) * 2 + 64 + self.comment.len());
        out.extend_from_slice(self.pair_table().magic());
        out.extend_from_slice(&(self.comment.len() as u32).to_le_bytes());
        out.extend_from_slice(self.comment.as_bytes());
        out.extend_from_slice(&self.progress.bias.to_le_bytes());
        for c in self.progress.coef {
            out.extend_from_slice(&c.to_le_bytes());
        }
        for v in self.w.iter().chain(&self.pairs) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a file written by [`KingPieceWeights::to_bytes`].
    pub fn from_bytes(b: &[u8]) -> Result<KingPieceWeights, KingPieceError> {
        let n_pairs = match b.get(..MAGIC.len()) {
            Some(m) if m == MAGIC => 0,
            Some(m) if m == MAGIC_PAIRS => N_PAIR_WEIGHTS,
            Some(m) if m == MAGIC_SQUARE_PAIRS => N_SQUARE_PAIR_WEIGHTS,
            _ => return Err(KingPieceError::Magic),
        };
        let mut at = MAGIC.len();
        let need = |at: usize, n: usize| -> Result<(), KingPieceError> {
            if b.len() < at + n {
                Err(KingPieceError::Short(b.len(), at + n))
            } else {
                Ok(())
            }
        };
        need(at, 4)?;
        let clen = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        at += 4;
        need(at, clen)?;
        let comment = std::str::from_utf8(&b[at..at + clen])
            .map_err(|e| KingPieceError::Header(format!("the comment is not UTF-8: {e}")))?
            .to_string();
        at += clen;
        let total = at + 4 * (1 + PROGRESS_TERMS) + 2 * (N_WEIGHTS + n_pairs) + 8;
        need(0, total)?;
        if b.len() > total {
            return Err(KingPieceError::Long(b.len(), total));
        }
        let found = u64::from_le_bytes(b[total - 8..].try_into().unwrap());
        let computed = fnv1a(&b[..total - 8]);
        if found != computed {
            return Err(KingPieceError::Damaged { found, computed });
        }
        let f32_at = |i: usize| f32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let bias = f32_at(at);
        at += 4;
        let mut coef = [0f32; PROGRESS_TERMS];
        for c in coef.iter_mut() {
            *c = f32_at(at);
            at += 4;
        }
        let read = |from: usize, n: usize| -> Vec<i16> {
            b[from..from + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let w = read(at, N_WEIGHTS);
        let pairs = read(at + 2 * N_WEIGHTS, n_pairs);
        Ok(KingPieceWeights {
            w,
            pairs,
            progress: Progress { bias, coef },
            comment,
        })
    }

    /// The weights compiled in as the full search's default ([`BUILTIN_BYTES`]), read once.
    pub fn builtin() -> Arc<KingPieceWeights> {
        static BUILTIN: std::sync::OnceLock<Arc<KingPieceWeights>> = std::sync::OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                Arc::new(
                    KingPieceWeights::from_bytes(BUILTIN_BYTES)
                        .expect("the compiled-in king-piece weights are valid"),
                )
            })
            .clone()
    }

    /// Read a weights file, naming it in the error.
    pub fn load(path: &std::path::Path) -> anyhow::Result<Arc<KingPieceWeights>> {
        use anyhow::Context;
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let w = KingPieceWeights::from_bytes(&bytes)
            .with_context(|| format!("{} is not a usable weights file", path.display()))?;
        Ok(Arc::new(w))
    }
}

/// The pair terms side `c` sees in table `role` (0: the zone of its own king, 1: of the
/// other's): for every pair of pieces in that king's zone, the index of its entry (before
/// the stage) in [`KingPieceWeights::pairs`] / [`STAGES`]. The zone is walked in turned
/// coordinates, row by row; a pair is ordered by the kinds as `c` sees them, then by that
/// walk, and the offset runs from its first piece to its second.
#[inline]
pub fn pair_terms<P: Pieces>(
    b: &P,
    c: usize,
    role: usize,
    table: PairTable,
    mut f: impl FnMut(usize),
) {
    let owner = if role == 0 { c } else { 1 - c };
    let Some(k) = b.king_of(owner) else {
        return;
    };
    let ix = PairIndex::new(table, role, c, k);
    let mut zone = [(0u8, 0i8, 0i8); 24];
    let mut n = 0;
    for sq in squares(ZONE[k] & b.occupancy()) {
        let code = b.piece_code_at(sq);
        zone[n] = zone_piece(c, (code >> 4) as usize, (code & 0x0f) as usize, sq);
        n += 1;
    }
    for i in 0..n {
        for j in i + 1..n {
            f(ix.of(zone[i], zone[j]));
        }
    }
}

/// How the pairs of one zone are indexed: the table, and the zone's king as the side
/// sees it.
#[derive(Debug, Clone, Copy)]
struct PairIndex {
    square: bool,
    role: usize,
    king_row: i8,
    king_col: i8,
}

impl PairIndex {
    /// The index of the pairs side `c` sees in table `role` around the king on (true)
    /// square `k`.
    #[inline(always)]
    fn new(table: PairTable, role: usize, c: usize, k: usize) -> PairIndex {
        let kt = turn(c, k);
        PairIndex {
            square: table == PairTable::Square,
            role,
            king_row: row_of(kt) as i8,
            king_col: col_of(kt) as i8,
        }
    }

    /// The entry (stages apart) of the pair `p`, `q`: ordered by kind, then (pieces of
    /// one kind) by turned row and column.
    #[inline(always)]
    fn of(&self, p: ZonePiece, q: ZonePiece) -> usize {
        let (a, z) = if q < p { (q, p) } else { (p, q) };
        if self.square {
            let piece = |x: ZonePiece| {
                let slot =
                    (x.1 - self.king_row + 2) as usize * 5 + (x.2 - self.king_col + 2) as usize;
                x.0 as usize * ZONE_SLOTS + slot
            };
            (self.role * ZONE_PIECES + piece(a)) * ZONE_PIECES + piece(z)
        } else {
            pair_index(self.role, a, z)
        }
    }
}

/// The entry of the pair table by offset that an entry `i` of the table by square
/// refines (the same table, kinds and offset from the first piece to the second).
pub const fn offset_entry_of_square_entry(i: usize) -> usize {
    let role = i / (ZONE_PIECES * ZONE_PIECES);
    let a = i / ZONE_PIECES % ZONE_PIECES;
    let z = i % ZONE_PIECES;
    let (ak, aslot) = (a / ZONE_SLOTS, a % ZONE_SLOTS);
    let (zk, zslot) = (z / ZONE_SLOTS, z % ZONE_SLOTS);
    let d = (zslot / 5 + 4 - aslot / 5) * 9 + (zslot % 5 + 4 - aslot % 5);
    ((role * PAIR_KINDS + ak) * PAIR_KINDS + zk) * PAIR_OFFSETS + d
}

/// A piece in a king's zone as side `c` sees it: (kind as `c` sees it, turned row,
/// turned column).
type ZonePiece = (u8, i8, i8);

#[inline(always)]
fn zone_piece(c: usize, owner: usize, kind: usize, sq: usize) -> ZonePiece {
    let t = turn(c, sq);
    (
        ((owner != c) as usize * KINDS + kind) as u8,
        row_of(t) as i8,
        col_of(t) as i8,
    )
}

/// The pair table's entry by offset (stages apart) of two pieces `a`, `z` of a zone in
/// table `role`, in their order ([`PairIndex::of`]).
#[inline(always)]
fn pair_index(role: usize, a: ZonePiece, z: ZonePiece) -> usize {
    let d = ((z.1 - a.1 + 4) as usize) * 9 + (z.2 - a.2 + 4) as usize;
    ((role * PAIR_KINDS + a.0 as usize) * PAIR_KINDS + z.0 as usize) * PAIR_OFFSETS + d
}

/// Each square's zone: the 24 squares within two steps of it.
static ZONE: [SquareSet; 81] = {
    let mut t = [0 as SquareSet; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let dr = row_of(a).abs_diff(row_of(b));
            let dc = col_of(a).abs_diff(col_of(b));
            if a != b && dr <= 2 && dc <= 2 {
                t[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The pair table's sums per stage for the side to move of `b` (its pairs less the
/// other side's), in weight units, from scratch; zero without a pair table.
pub fn pair_sums<P: Pieces>(b: &P, w: &KingPieceWeights) -> [i32; STAGES] {
    let us = b.to_move();
    let mut s = [0i32; STAGES];
    for c in 0..2 {
        for role in 0..ROLES {
            for (x, v) in s.iter_mut().zip(Accumulator::zone(b, c, role, w)) {
                *x += if c == us { v } else { -v };
            }
        }
    }
    s
}

/// Per side, per table, per stage: the sums of the entries of the items the side sees.
/// `acc[c][role][stage]`; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Accumulator {
    /// The sums.
    pub acc: [[[i32; STAGES]; ROLES]; 2],
    /// The pair table's sums, `pairs[c][role][stage]`: the pairs side `c` sees in the
    /// zone of its own king (role 0) and of the other's (role 1).
    pub pairs: [[[i32; STAGES]; ROLES]; 2],
}

/// One changed item, in true (unturned) terms: a board piece or the `n`-th hand piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Board {
        owner: usize,
        kind: usize,
        sq: usize,
    },
    Hand {
        owner: usize,
        kind: usize,
        n: u32,
    },
}

impl Item {
    #[inline(always)]
    fn seen_from(self, c: usize) -> usize {
        match self {
            Item::Board { owner, kind, sq } => board_item(c, owner, kind, sq),
            Item::Hand { owner, kind, n } => hand_item(c, owner, kind, n.min(HAND_MAX[kind])),
        }
    }
}

/// What a move changes, read from the position before it ([`Delta::of`]).
#[derive(Debug, Clone, Copy)]
pub struct Delta {
    removed: [Option<Item>; 2],
    added: [Option<Item>; 2],
    /// The side whose king moved, if one did.
    king_moved: Option<usize>,
}

impl Delta {
    /// The change `m` (legal in `before`) makes.
    #[inline]
    pub fn of<P: Pieces>(before: &P, m: Move) -> Delta {
        let us = before.to_move();
        match m {
            Move::Normal { from, to, promote } => {
                let (from, to) = (from.index(), to.index());
                let kind = before.kind_on(from);
                let new_kind = if promote {
                    crate::shogi::PieceKind::ALL[kind]
                        .promoted()
                        .map_or(kind, |k| k as usize)
                } else {
                    kind
                };
                let code = before.piece_code_at(to);
                let (cap_out, cap_in) = if code == EMPTY {
                    (None, None)
                } else {
                    let ck = (code & 0x0f) as usize;
                    let hk = unpromote(ck);
                    (
                        Some(Item::Board {
                            owner: 1 - us,
                            kind: ck,
                            sq: to,
                        }),
                        Some(Item::Hand {
                            owner: us,
                            kind: hk,
                            n: before.hand_count(us, hk) as u32 + 1,
                        }),
                    )
                };
                Delta {
                    removed: [
                        Some(Item::Board {
                            owner: us,
                            kind,
                            sq: from,
                        }),
                        cap_out,
                    ],
                    added: [
                        Some(Item::Board {
                            owner: us,
                            kind: new_kind,
                            sq: to,
                        }),
                        cap_in,
                    ],
                    king_moved: (kind == KING).then_some(us),
                }
            }
            Move::Drop { kind, to } => {
                let k = kind as usize;
                Delta {
                    removed: [
                        Some(Item::Hand {
                            owner: us,
                            kind: k,
                            n: before.hand_count(us, k) as u32,
                        }),
                        None,
                    ],
                    added: [
                        Some(Item::Board {
                            owner: us,
                            kind: k,
                            sq: to.index(),
                        }),
                        None,
                    ],
                    king_moved: None,
                }
            }
        }
    }
}

/// The turned square of side `k_owner`'s king seen from side `c`, if it has one.
#[inline(always)]
fn king_seen<P: Pieces>(b: &P, c: usize, k_owner: usize) -> Option<usize> {
    b.king_of(k_owner).map(|k| turn(c, k))
}

impl Accumulator {
    /// One table's half of side `c`'s sums, from scratch.
    fn half<P: Pieces>(b: &P, c: usize, role: usize, w: &KingPieceWeights) -> [i32; STAGES] {
        let mut s = [0i32; STAGES];
        let owner = if role == 0 { c } else { 1 - c };
        let Some(k) = king_seen(b, c, owner) else {
            return s;
        };
        for item in items(b, c) {
            for (a, v) in s.iter_mut().zip(w.entry(role, k, item)) {
                *a += *v as i32;
            }
        }
        s
    }

    /// The pair table's sum of side `c` in table `role`, from scratch.
    #[inline]
    fn zone<P: Pieces>(b: &P, c: usize, role: usize, w: &KingPieceWeights) -> [i32; STAGES] {
        let mut s = [0i32; STAGES];
        if w.pairs.is_empty() {
            return s;
        }
        pair_terms(b, c, role, w.pair_table(), |i| {
            for (x, v) in s.iter_mut().zip(&w.pairs[i * STAGES..i * STAGES + STAGES]) {
                *x += *v as i32;
            }
        });
        s
    }

    /// The change a move makes to the pair table's sum of side `c` in table `role`, the
    /// zone's king staying on `k`: the pairs of each piece the move takes out of the zone
    /// with the pieces it leaves there come off, those of each piece it puts in with
    /// them go on (and the pair of two pieces taken out, or of two put in).
    #[inline]
    fn zone_change<P: Pieces>(
        d: &Delta,
        after: &P,
        c: usize,
        role: usize,
        k: usize,
        w: &KingPieceWeights,
    ) -> [i32; STAGES] {
        let zone = ZONE[k];
        let ix = PairIndex::new(w.pair_table(), role, c, k);
        let in_zone = |it: &Option<Item>| match *it {
            Some(Item::Board { owner, kind, sq }) if zone >> sq & 1 != 0 => {
                Some((zone_piece(c, owner, kind, sq), sq))
            }
            _ => None,
        };
        let out = [in_zone(&d.removed[0]), in_zone(&d.removed[1])];
        let put = [in_zone(&d.added[0]), in_zone(&d.added[1])];
        let mut s = [0i32; STAGES];
        let mut add = |i: usize, sign: i32| {
            for (x, v) in s.iter_mut().zip(&w.pairs[i * STAGES..i * STAGES + STAGES]) {
                *x += sign * *v as i32;
            }
        };
        let mut new_squares: SquareSet = 0;
        for (_, sq) in put.iter().flatten() {
            new_squares |= 1 << sq;
        }
        // The pieces in the zone both before and after the move.
        for sq in squares(zone & after.occupancy() & !new_squares) {
            let code = after.piece_code_at(sq);
            let p = zone_piece(c, (code >> 4) as usize, (code & 0x0f) as usize, sq);
            for (r, _) in out.iter().flatten() {
                add(ix.of(p, *r), -1);
            }
            for (a, _) in put.iter().flatten() {
                add(ix.of(p, *a), 1);
            }
        }
        if let [Some((x, _)), Some((y, _))] = out {
            add(ix.of(x, y), -1);
        }
        if let [Some((x, _)), Some((y, _))] = put {
            add(ix.of(x, y), 1);
        }
        s
    }

    /// Every sum from scratch: the definition.
    pub fn full<P: Pieces>(b: &P, w: &KingPieceWeights) -> Accumulator {
        let mut a = Accumulator::default();
        for c in 0..2 {
            for role in 0..ROLES {
                a.acc[c][role] = Self::half(b, c, role, w);
                a.pairs[c][role] = Self::zone(b, c, role, w);
            }
        }
        a
    }

    /// The sums after a move, from the sums before it (`self`), the move's [`Delta`]
    /// and the position after it (read only when a king moved).
    #[inline]
    pub fn update<P: Pieces>(&self, d: &Delta, after: &P, w: &KingPieceWeights) -> Accumulator {
        let mut a = *self;
        if !w.pairs.is_empty() {
            // A king's zone changes when that king moves (summed anew) or a square of
            // it gains or loses a piece (updated by difference).
            let mut changed: SquareSet = 0;
            for it in d.removed.iter().chain(&d.added).flatten() {
                if let Item::Board { sq, .. } = *it {
                    changed |= 1 << sq;
                }
            }
            for owner in 0..2 {
                let Some(k) = after.king_of(owner) else {
                    continue;
                };
                if d.king_moved == Some(owner) {
                    a.pairs[owner][0] = Self::zone(after, owner, 0, w);
                    a.pairs[1 - owner][1] = Self::zone(after, 1 - owner, 1, w);
                } else if changed & ZONE[k] != 0 {
                    for (c, role) in [(owner, 0), (1 - owner, 1)] {
                        let change = Self::zone_change(d, after, c, role, k, w);
                        for (x, v) in a.pairs[c][role].iter_mut().zip(change) {
                            *x += v;
                        }
                    }
                }
            }
        }
        for c in 0..2 {
            for role in 0..ROLES {
                let owner = if role == 0 { c } else { 1 - c };
                if d.king_moved == Some(owner) {
                    a.acc[c][role] = Self::half(after, c, role, w);
                    continue;
                }
                let Some(k) = king_seen(after, c, owner) else {
                    continue;
                };
                let s = &mut a.acc[c][role];
                for it in d.removed.iter().flatten() {
                    for (x, v) in s.iter_mut().zip(w.entry(role, k, it.seen_from(c))) {
                        *x -= *v as i32;
                    }
                }
                for it in d.added.iter().flatten() {
                    for (x, v) in s.iter_mut().zip(w.entry(role, k, it.seen_from(c))) {
                        *x += *v as i32;
                    }
                }
            }
        }
        a
    }

    /// The value for the side to move of `b`, in centipawns.
    #[inline]
    pub fn value<P: Pieces>(&self, b: &P, w: &KingPieceWeights) -> i32 {
        let us = b.to_move();
        let bl = blend(w.progress.of(b));
        let mut v: i64 = 0;
        for (s, f) in bl.iter().enumerate() {
            let (mine, theirs) = (&self.acc[us], &self.acc[1 - us]);
            let (pm, pt) = (&self.pairs[us], &self.pairs[1 - us]);
            let d = mine[0][s] + mine[1][s] - theirs[0][s] - theirs[1][s] + pm[0][s] + pm[1][s]
                - pt[0][s]
                - pt[1][s];
            v += (*f as i64) * d as i64;
        }
        (v / (PROGRESS_MAX as i64 * WEIGHT_SCALE as i64)) as i32
    }
}

/// The value of `b` for its side to move, summed from scratch.
pub fn evaluate<P: Pieces>(b: &P, w: &KingPieceWeights) -> i32 {
    Accumulator::full(b, w).value(b, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn random_weights(seed: u64) -> KingPieceWeights {
        let mut w = KingPieceWeights::zero();
        let mut rng = crate::rng::XorShift64Star::new(seed);
        for v in w.w.iter_mut() {
            *v = rng.below(2001) as i16 - 1000;
        }
        w.pairs = (0..N_PAIR_WEIGHTS)
            .map(|_| rng.below(2001) as i16 - 1000)
            .collect();
        w
    }

    /// Random weights with the pair table by square.
    fn random_square_weights(seed: u64) -> KingPieceWeights {
        let mut w = random_weights(seed);
        let mut rng = crate::rng::XorShift64Star::new(seed ^ 0x5a5a);
        w.pairs = (0..N_SQUARE_PAIR_WEIGHTS)
            .map(|_| rng.below(2001) as i16 - 1000)
            .collect();
        assert_eq!(w.pair_table(), PairTable::Square);
        w
    }

    #[test]
    fn items_cover_the_layout_without_overlap() {
        let mut seen = std::collections::HashSet::new();
        for c in 0..2 {
            seen.clear();
            for owner in 0..2 {
                for kind in 0..KINDS {
                    for sq in 0..81 {
                        assert!(seen.insert(board_item(c, owner, kind, sq)));
                    }
                }
                for (kind, max) in HAND_MAX.iter().enumerate() {
                    for n in 1..=*max {
                        assert!(seen.insert(hand_item(c, owner, kind, n)));
                    }
                }
            }
            assert_eq!(seen.len(), ITEMS);
            assert!(seen.iter().all(|&i| i < ITEMS));
        }
    }

    #[test]
    fn the_blend_is_piecewise_linear_and_sums_to_the_whole() {
        assert_eq!(blend(0), [256, 0, 0]);
        assert_eq!(blend(64), [128, 128, 0]);
        assert_eq!(blend(128), [0, 256, 0]);
        assert_eq!(blend(192), [0, 128, 128]);
        assert_eq!(blend(256), [0, 0, 256]);
        assert_eq!(blend(999), [0, 0, 256]);
        for p in 0..=256 {
            assert_eq!(blend(p).iter().sum::<i32>(), 256);
        }
    }

    #[test]
    fn the_weights_file_round_trips_and_refuses_damage() {
        let mut w = random_weights(3);
        w.comment = "fit: test".into();
        w.progress.bias = -3.5;
        let bytes = w.to_bytes();
        assert!(bytes.starts_with(MAGIC_PAIRS));
        assert_eq!(KingPieceWeights::from_bytes(&bytes).unwrap(), w);
        // Without a pair table: the first format, read back without one.
        let mut first = w.clone();
        first.pairs.clear();
        let b1 = first.to_bytes();
        assert!(b1.starts_with(MAGIC));
        assert_eq!(b1.len() + 2 * N_PAIR_WEIGHTS, bytes.len());
        assert_eq!(KingPieceWeights::from_bytes(&b1).unwrap(), first);
        // With the pair table by square: the third format.
        let third = random_square_weights(3);
        let b3 = third.to_bytes();
        assert!(b3.starts_with(MAGIC_SQUARE_PAIRS));
        assert_eq!(KingPieceWeights::from_bytes(&b3).unwrap(), third);
        let mut mixed3 = b3.clone();
        mixed3[..8].copy_from_slice(MAGIC_PAIRS);
        assert!(matches!(
            KingPieceWeights::from_bytes(&mixed3),
            Err(KingPieceError::Long(..))
        ));
        // A first-format header over a second-format body is refused, not misread.
        let mut mixed = bytes.clone();
        mixed[..8].copy_from_slice(MAGIC);
        assert!(matches!(
            KingPieceWeights::from_bytes(&mixed),
            Err(KingPieceError::Long(..))
        ));
        let mut bad = bytes.clone();
        bad[1000] ^= 0x10;
        assert!(matches!(
            KingPieceWeights::from_bytes(&bad),
            Err(KingPieceError::Damaged { .. })
        ));
        assert!(matches!(
            KingPieceWeights::from_bytes(&bytes[..bytes.len() - 3]),
            Err(KingPieceError::Short(..))
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            KingPieceWeights::from_bytes(&long),
            Err(KingPieceError::Long(..))
        ));
        assert_eq!(
            KingPieceWeights::from_bytes(b"FSLEARN1 nothing"),
            Err(KingPieceError::Magic)
        );
    }

    #[test]
    fn the_update_equals_the_full_sum_along_random_games() {
        for w in [random_weights(11), random_square_weights(11)] {
            update_equals_full(&w);
        }
    }

    fn update_equals_full(w: &KingPieceWeights) {
        let w = w.clone();
        let mut rng = crate::rng::XorShift64Star::new(5);
        let mut checked = 0;
        for _ in 0..30 {
            let mut p = Position::startpos();
            let mut a = Accumulator::full(&p, &w);
            for _ in 0..200 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                let d = Delta::of(&p, m);
                p.play_unchecked(m);
                a = a.update(&d, &p, &w);
                assert_eq!(a, Accumulator::full(&p, &w), "after {}", m.to_usi());
                checked += 1;
            }
        }
        assert!(checked > 3000);
    }

    /// The pairs of one zone the plain way: the 24 squares scanned row by row of the
    /// turned board, each pair taken in scan order unless the second piece's kind comes
    /// first (the order the weights files were fitted with).
    fn pair_terms_by_scan(b: &Position, c: usize, role: usize, table: PairTable) -> Vec<usize> {
        let owner = if role == 0 { c } else { 1 - c };
        let Some(k) = b.king_of(owner) else {
            return Vec::new();
        };
        let kt = turn(c, k);
        let (kr, kc) = (row_of(kt) as i32, col_of(kt) as i32);
        let mut zone = Vec::new();
        for r in kr - 2..=kr + 2 {
            for cl in kc - 2..=kc + 2 {
                if (r, cl) == (kr, kc) || !(0..9).contains(&r) || !(0..9).contains(&cl) {
                    continue;
                }
                let code = b.piece_code_at(turn(c, index_of(r as usize, cl as usize)));
                if code != EMPTY {
                    let kind =
                        ((code >> 4) as usize != c) as usize * KINDS + (code & 0x0f) as usize;
                    zone.push((kind, r, cl));
                }
            }
        }
        let mut out = Vec::new();
        for i in 0..zone.len() {
            for j in i + 1..zone.len() {
                let (a, z) = if zone[j].0 < zone[i].0 {
                    (zone[j], zone[i])
                } else {
                    (zone[i], zone[j])
                };
                if table == PairTable::Square {
                    // Each piece by kind and square in the 5 x 5 around the king.
                    let at = |x: (usize, i32, i32)| {
                        x.0 * 25 + (x.1 - kr + 2) as usize * 5 + (x.2 - kc + 2) as usize
                    };
                    out.push((role * 700 + at(a)) * 700 + at(z));
                    continue;
                }
                let d = (z.1 - a.1 + 4) as usize * 9 + (z.2 - a.2 + 4) as usize;
                out.push(((role * PAIR_KINDS + a.0) * PAIR_KINDS + z.0) * PAIR_OFFSETS + d);
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn the_zone_pairs_are_those_of_the_plain_scan() {
        let mut rng = crate::rng::XorShift64Star::new(23);
        let mut pairs = 0;
        for _ in 0..20 {
            let mut p = Position::startpos();
            for _ in 0..150 {
                for c in 0..2 {
                    for role in 0..ROLES {
                        for table in [PairTable::Offset, PairTable::Square] {
                            let mut got = Vec::new();
                            pair_terms(&p, c, role, table, |i| got.push(i));
                            got.sort_unstable();
                            let want = pair_terms_by_scan(&p, c, role, table);
                            assert_eq!(got, want, "{} side {c} table {role}", p.to_sfen());
                            if table == PairTable::Square {
                                // Each entry by square refines the entry by offset.
                                let mut coarse: Vec<usize> = got
                                    .iter()
                                    .map(|&i| offset_entry_of_square_entry(i))
                                    .collect();
                                coarse.sort_unstable();
                                let want = pair_terms_by_scan(&p, c, role, PairTable::Offset);
                                assert_eq!(coarse, want);
                            }
                            pairs += got.len();
                        }
                    }
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(pairs > 50_000, "{pairs} pairs");
    }

    #[test]
    fn a_position_and_its_twin_score_alike() {
        for w in [random_weights(17), random_square_weights(17)] {
            twins_alike(&w);
        }
    }

    fn twins_alike(w: &KingPieceWeights) {
        let w = w.clone();
        let mut p = Position::startpos();
        for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "5i4h"] {
            p.play(Move::from_usi(m).unwrap()).unwrap();
            assert_eq!(evaluate(&p, &w), evaluate(&p.flipped(), &w), "after {m}");
            assert_eq!(pair_sums(&p, &w), pair_sums(&p.flipped(), &w), "after {m}");
        }
        // The last position is not symmetric: its pairs do not cancel.
        assert_ne!(pair_sums(&p, &w), [0; STAGES]);
    }
}
