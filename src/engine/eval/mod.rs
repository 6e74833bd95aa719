//! The hand-made evaluation of the normal search mode: material, hand bonus, tempo,
//! piece-square terms from forward progress and centre distance, a camp bonus, mobility,
//! phase-blended king safety, the castle and the attack on it, and a check penalty.
//! Computed on any [`Pieces`] source (the position read in place): one attack set per
//! piece, attack maps per side, popcounts.
pub mod cache;
pub mod eval24;
pub mod king_piece;
pub mod linear;

use crate::shogi::sets::*;

/// Bonus for having the move.
pub const TEMPO: i32 = 12;
/// Penalty for the side in check.
pub const CHECK_PENALTY: i32 = 40;

/// Material value of a kind index (centipawns).
pub const fn piece_value(k: usize) -> i32 {
    match k {
        PAWN => 100,
        LANCE => 350,
        KNIGHT => 400,
        SILVER => 500,
        GOLD => 550,
        BISHOP => 800,
        ROOK => 1000,
        KING => 0,
        PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => 550,
        HORSE => 1050,
        _ => 1250,
    }
}

/// Extra value of a piece in hand over the same piece on the board.
pub const fn hand_bonus(k: usize) -> i32 {
    match k {
        PAWN => 18,
        LANCE | KNIGHT => 24,
        SILVER => 28,
        GOLD => 24,
        BISHOP => 36,
        ROOK => 42,
        _ => 0,
    }
}

/// Bonus of a piece standing in the enemy camp.
const fn camp_bonus(k: usize) -> i32 {
    match k {
        PAWN => 10,
        LANCE | KNIGHT => 8,
        SILVER | GOLD => 10,
        BISHOP | ROOK => 12,
        PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => 14,
        HORSE | DRAGON => 18,
        _ => 0,
    }
}

#[inline]
const fn forward_progress(c: usize, row: i32) -> i32 {
    if c == 0 { 8 - row } else { row }
}

#[inline]
const fn center_distance(row: i32, col: i32) -> i32 {
    (row - 4).abs() + (col - 4).abs()
}

#[inline]
const fn center_bonus(row: i32, col: i32) -> i32 {
    8 - center_distance(row, col)
}

const fn piece_square_bonus(k: usize, c: usize, row: i32, col: i32) -> i32 {
    let progress = forward_progress(c, row);
    let center = center_bonus(row, col);
    match k {
        PAWN => progress * 10 - (col - 4).abs() * 2,
        LANCE => progress * 6 - (col - 4).abs() * 2,
        KNIGHT => progress * 7 + center * 4,
        SILVER => progress * 5 + center * 5,
        GOLD => progress * 4 + center * 3,
        BISHOP => center * 8 + progress * 2,
        ROOK => center * 5 + progress * 2,
        PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => progress * 4 + center * 5,
        HORSE => center * 12 + progress * 3,
        DRAGON => center * 10 + progress * 3,
        _ => 0,
    }
}

/// Value + piece-square + camp bonus for every (colour, kind, square): mobility is the
/// only per-piece term that depends on the rest of the board.
const fn static_table() -> [[[i32; 81]; KINDS]; 2] {
    let mut t = [[[0; 81]; KINDS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < KINDS {
            let mut sq = 0;
            while sq < 81 {
                let row = row_of(sq) as i32;
                let col = col_of(sq) as i32;
                let mut v = piece_value(k);
                if k != KING {
                    v += piece_square_bonus(k, c, row, col);
                    if row_in_camp(c, row as usize) {
                        v += camp_bonus(k);
                    }
                }
                t[c][k][sq] = v;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static STATIC: [[[i32; 81]; KINDS]; 2] = static_table();

/// Mobility bonus of one piece: weighted count of reachable squares not held by its own side.
#[inline(always)]
fn mobility(c: usize, k: usize, sq: usize, occ: SquareSet, own: SquareSet) -> (i32, SquareSet) {
    let free = !own;
    match k {
        PAWN => {
            let a = PAWN_ATTACKS[c][sq];
            ((a & free).count_ones() as i32 * 2, a)
        }
        LANCE => {
            let a = lance_attacks(c, sq, occ);
            ((a & free).count_ones() as i32 * 2, a)
        }
        KNIGHT => {
            let a = KNIGHT_ATTACKS[c][sq];
            ((a & free).count_ones() as i32 * 3, a)
        }
        SILVER => {
            let a = SILVER_ATTACKS[c][sq];
            ((a & free).count_ones() as i32 * 3, a)
        }
        GOLD => {
            let a = GOLD_ATTACKS[c][sq];
            ((a & free).count_ones() as i32 * 2, a)
        }
        BISHOP => {
            let a = bishop_attacks(sq, occ);
            ((a & free).count_ones() as i32 * 5, a)
        }
        ROOK => {
            let a = rook_attacks(sq, occ);
            ((a & free).count_ones() as i32 * 4, a)
        }
        KING => (0, KING_ATTACKS[sq]),
        PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => {
            let a = GOLD_ATTACKS[c][sq];
            ((a & free).count_ones() as i32 * 3, a)
        }
        HORSE => {
            let s = bishop_attacks(sq, occ);
            let st = CROSS_ATTACKS[sq];
            (
                (s & free).count_ones() as i32 * 5 + (st & free).count_ones() as i32 * 2,
                s | st,
            )
        }
        _ => {
            let s = rook_attacks(sq, occ);
            let st = DIAG_ATTACKS[sq];
            (
                (s & free).count_ones() as i32 * 4 + (st & free).count_ones() as i32 * 3,
                s | st,
            )
        }
    }
}

#[inline(always)]
fn king_safety<P: Pieces>(b: &P, c: usize, phase: i32, enemy_attacks_map: SquareSet) -> i32 {
    let Some(ksq) = b.king_of(c) else {
        return 0;
    };
    let row = row_of(ksq) as i32;
    let col = col_of(ksq) as i32;
    let opening = phase.min(96);
    let endgame = 96 - opening;
    let around = KING_ATTACKS[ksq];
    let defenders = (around & b.color_set(c)).count_ones() as i32;
    let attacked = (around & enemy_attacks_map).count_ones() as i32;
    let safe = around.count_ones() as i32 - attacked;
    let mut score = defenders * (6 + opening / 12);
    score -= attacked * (10 + opening / 10);
    score += safe * 2;
    score += center_distance(row, col) * (opening / 6);
    score += center_bonus(row, col) * (endgame / 6);
    let front = if c == 0 { -1 } else { 1 };
    for step in 1..=2 {
        let r = row + front * step;
        if !(0..9).contains(&r) {
            continue;
        }
        let sq = index_of(r as usize, col as usize);
        let bit = 1u128 << sq;
        if b.occupancy() & bit == 0 {
            score -= 4 + opening / 16;
        } else if b.color_set(c) & bit == 0 {
            score -= 8 + opening / 14;
        }
        if enemy_attacks_map & bit != 0 {
            score -= 8;
        }
    }
    score
}

/// How much each kind in the enemy's hand (pawn, lance, knight, silver, gold, bishop,
/// rook) adds to the danger of a king with empty squares around it that nothing guards.
const DROP_DANGER: [i32; 7] = [1, 1, 2, 2, 3, 3, 4];
/// Bonus of a gold, silver or promoted minor piece next to its own king, and two squares
/// from it.
const SHELTER_NEXT: i32 = 25;
const SHELTER_NEAR: i32 = 12;
/// Danger units are capped here (the penalty is 3/2 of their square: 2,400 at the cap).
const DANGER_CAP: i32 = 40;

/// The squares two steps from each square (Chebyshev distance 2): the ring around the
/// squares next to a king.
static SECOND_RING: [SquareSet; 81] = {
    let mut t = [0; 81];
    let mut sq = 0;
    while sq < 81 {
        let (row, col) = (row_of(sq) as i32, col_of(sq) as i32);
        let mut other = 0;
        while other < 81 {
            let dr = (row_of(other) as i32 - row).abs();
            let dc = (col_of(other) as i32 - col).abs();
            if (if dr > dc { dr } else { dc }) == 2 {
                t[sq] |= 1u128 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// What the pieces of one side do around the enemy king, gathered while the evaluation
/// builds the attack maps.
#[derive(Default, Clone, Copy)]
struct KingAttack {
    /// Attack map of the side's pieces other than its king.
    guards: SquareSet,
    /// Squares next to the enemy king (the ring the hits are counted on).
    enemy_ring: SquareSet,
    /// Attacks on that ring, counted once per attacking piece and square.
    hits: i32,
    /// Pieces attacking at least one square of it.
    attackers: i32,
}

impl KingAttack {
    fn new<P: Pieces>(b: &P, c: usize) -> KingAttack {
        KingAttack {
            enemy_ring: b.king_of(1 - c).map_or(0, |k| KING_ATTACKS[k]),
            ..KingAttack::default()
        }
    }

    /// Count one piece (not a king) attacking `att`.
    #[inline(always)]
    fn add(&mut self, att: SquareSet) {
        self.guards |= att;
        let h = (att & self.enemy_ring).count_ones() as i32;
        self.hits += h;
        self.attackers += (h > 0) as i32;
    }
}

/// The castle and the attack on it, for the king of colour `c`: a bonus for the golds,
/// silvers and promoted minor pieces next to it or two squares away, and a penalty
/// growing with the square of the danger units: every enemy hit on the squares next to
/// the king, 2 more for each of them the enemy attacks and only the king guards, and the
/// enemy's pieces in hand times the empty squares next to the king nothing else guards
/// (at most 4, halved). Without pieces in the enemy's hand and with fewer than two
/// attackers the units are halved: a lone attacker mates no one.
fn shelter_and_danger<P: Pieces>(b: &P, c: usize, own: &KingAttack, enemy: &KingAttack) -> i32 {
    let Some(ksq) = b.king_of(c) else {
        return 0;
    };
    let ring = KING_ATTACKS[ksq];
    let near = SECOND_RING[ksq];
    let castle = b.set(c, GOLD)
        | b.set(c, SILVER)
        | b.set(c, PRO_PAWN)
        | b.set(c, PRO_LANCE)
        | b.set(c, PRO_KNIGHT)
        | b.set(c, PRO_SILVER);
    let shelter = (castle & ring).count_ones() as i32 * SHELTER_NEXT
        + (castle & near).count_ones() as i32 * SHELTER_NEAR;
    let enemy_map = enemy.guards;
    let weak = ring & enemy_map & !own.guards;
    let empty_unguarded = ring & !b.occupancy() & !own.guards;
    let mut drop = 0;
    for (k, w) in DROP_DANGER.iter().enumerate() {
        if b.hand_count(1 - c, k) > 0 {
            drop += w;
        }
    }
    let mut units = enemy.hits
        + 2 * weak.count_ones() as i32
        + drop * (empty_unguarded.count_ones() as i32).min(4) / 2;
    if enemy.attackers < 2 && drop == 0 {
        units /= 2;
    }
    let units = units.min(DANGER_CAP);
    shelter - units * units * 3 / 2
}

/// The castle term alone (shelter and danger) of the king of colour `c`, with the
/// attacks gathered as [`evaluate_reference`] gathers them: what tests check against the
/// term's definition.
pub fn castle_term<P: Pieces>(b: &P, c: usize) -> i32 {
    let mut attack = [KingAttack::new(b, 0), KingAttack::new(b, 1)];
    for (side, a) in attack.iter_mut().enumerate() {
        let own = b.color_set(side);
        for k in (0..KINDS).filter(|&k| k != KING) {
            for sq in squares(b.set(side, k)) {
                a.add(mobility(side, k, sq, b.occupancy(), own).1);
            }
        }
    }
    shelter_and_danger(b, c, &attack[c], &attack[1 - c])
}

/// The evaluation from the side to move's point of view (centipawns), computed the plain
/// way: one pass over every piece with a per-piece `match`. It defines the evaluation;
/// [`evaluate`] gives the same value faster and is tested against it.
pub fn evaluate_reference<P: Pieces>(b: &P) -> i32 {
    let mut score = [0i32; 2];
    let mut maps = [0u128; 2];
    let mut attack = [KingAttack::new(b, 0), KingAttack::new(b, 1)];
    let mut phase = 0;
    for c in 0..2 {
        let own = b.color_set(c);
        for (k, table) in STATIC[c].iter().enumerate() {
            let set = b.set(c, k);
            if set == 0 {
                continue;
            }
            let phase_unit = piece_value(unpromote(k)) / 100;
            for sq in squares(set) {
                let (m, att) = mobility(c, k, sq, b.occupancy(), own);
                maps[c] |= att;
                score[c] += table[sq] + m;
                if k != KING {
                    phase += phase_unit;
                    attack[c].add(att);
                }
            }
        }
        for k in 0..7 {
            let n = b.hand_count(c, k);
            if n > 0 {
                score[c] += n * (piece_value(k) + hand_bonus(k));
                phase += n * (piece_value(k) / 100);
            }
        }
    }
    for c in 0..2 {
        score[c] += king_safety(b, c, phase, maps[1 - c]);
        score[c] += shelter_and_danger(b, c, &attack[c], &attack[1 - c]);
        if let Some(k) = b.king_of(c)
            && maps[1 - c] & (1u128 << k) != 0
        {
            score[c] -= CHECK_PENALTY;
        }
    }
    let s = score[0] - score[1] + if b.to_move() == 0 { TEMPO } else { -TEMPO };
    if b.to_move() == 0 { s } else { -s }
}

/// Material, piece-square, camp, mobility and attack map of the pieces of kind `K` and
/// colour `c`: `K` is a constant, so the per-kind choice of [`mobility`] folds away.
#[inline(always)]
fn kind_terms<P: Pieces, const C: usize, const K: usize, const COUNT: bool>(
    b: &P,
    acc: &mut SideTerms,
) {
    let c = C;
    let set = b.set(c, K);
    if set == 0 {
        return;
    }
    let own = b.color_set(c);
    let occ = b.occupancy();
    let table = &STATIC[c][K];
    for sq in squares(set) {
        let (m, att) = mobility(c, K, sq, occ, own);
        acc.map |= att;
        acc.score += table[sq] + m;
        if K != KING {
            acc.attack.add(att);
        }
        if COUNT {
            acc.counts.add(att);
            if K != KING {
                acc.counts.guards |= att;
            }
            acc.counts.note_mobility(K, att, own);
        }
    }
    if K != KING {
        acc.phase += set.count_ones() as i32 * (piece_value(unpromote(K)) / 100);
    }
}

/// The running terms of one side in [`evaluate`].
#[derive(Default)]
struct SideTerms {
    score: i32,
    map: SquareSet,
    phase: i32,
    attack: KingAttack,
    /// Attack counts for the linear correction (only when asked: `COUNT`).
    counts: linear::Counts,
}

/// Pawns in one go: a pawn attacks one square straight ahead, so the attack map of all
/// pawns is the pawn set shifted by one rank and the mobility is one popcount. A pawn
/// never stands on its last rank; the mask keeps the shift within the files anyway.
#[inline(always)]
fn pawn_terms<P: Pieces, const C: usize, const COUNT: bool>(b: &P, acc: &mut SideTerms) {
    let c = C;
    let set = b.set(c, PAWN);
    if set == 0 {
        return;
    }
    let att = if c == 0 {
        (set & !FIRST_ROW) >> 1
    } else {
        (set & !LAST_ROW) << 1
    };
    acc.map |= att;
    if COUNT {
        // No two pawns of a side attack the same square: one addition counts them all.
        acc.counts.add(att);
        acc.counts.guards |= att;
    }
    // Each pawn attacks one square of its own: the hits are the pawns that hit, as
    // `KingAttack::add` pawn by pawn would count them.
    acc.attack.guards |= att;
    let h = (att & acc.attack.enemy_ring).count_ones() as i32;
    acc.attack.hits += h;
    acc.attack.attackers += h;
    acc.score += (att & !b.color_set(c)).count_ones() as i32 * 2;
    let table = &STATIC[c][PAWN];
    for sq in squares(set) {
        acc.score += table[sq];
    }
    acc.phase += set.count_ones() as i32 * (piece_value(PAWN) / 100);
}

const fn row_set(row: usize) -> SquareSet {
    let mut b = 0;
    let mut col = 0;
    while col < 9 {
        b |= 1u128 << index_of(row, col);
        col += 1;
    }
    b
}

/// Row 0 (Black's far edge) and row 8 (White's).
const FIRST_ROW: SquareSet = row_set(0);
const LAST_ROW: SquareSet = row_set(8);

/// Every term of colour `C` but king safety and the check penalty.
#[inline(always)]
fn side_terms<P: Pieces, const C: usize, const COUNT: bool>(b: &P) -> SideTerms {
    let mut acc = SideTerms {
        attack: KingAttack::new(b, C),
        ..SideTerms::default()
    };
    pawn_terms::<P, C, COUNT>(b, &mut acc);
    kind_terms::<P, C, LANCE, COUNT>(b, &mut acc);
    kind_terms::<P, C, KNIGHT, COUNT>(b, &mut acc);
    kind_terms::<P, C, SILVER, COUNT>(b, &mut acc);
    kind_terms::<P, C, GOLD, COUNT>(b, &mut acc);
    kind_terms::<P, C, BISHOP, COUNT>(b, &mut acc);
    kind_terms::<P, C, ROOK, COUNT>(b, &mut acc);
    kind_terms::<P, C, KING, COUNT>(b, &mut acc);
    kind_terms::<P, C, PRO_PAWN, COUNT>(b, &mut acc);
    kind_terms::<P, C, PRO_LANCE, COUNT>(b, &mut acc);
    kind_terms::<P, C, PRO_KNIGHT, COUNT>(b, &mut acc);
    kind_terms::<P, C, PRO_SILVER, COUNT>(b, &mut acc);
    kind_terms::<P, C, HORSE, COUNT>(b, &mut acc);
    kind_terms::<P, C, DRAGON, COUNT>(b, &mut acc);
    for k in 0..7 {
        let n = b.hand_count(C, k);
        acc.score += n * (piece_value(k) + hand_bonus(k));
        acc.phase += n * (piece_value(k) / 100);
    }
    acc
}

#[inline(always)]
fn evaluate_body<P: Pieces>(b: &P) -> i32 {
    terms_value(
        b,
        &[side_terms::<P, 0, false>(b), side_terms::<P, 1, false>(b)],
    )
}

/// The evaluation and the attack counts of both sides the linear correction reads (see
/// [`linear::evaluate_total`]): one pass over the pieces for both.
#[inline(always)]
pub(crate) fn evaluate_counting<P: Pieces>(b: &P) -> (i32, [linear::Counts; 2]) {
    let terms = [side_terms::<P, 0, true>(b), side_terms::<P, 1, true>(b)];
    (terms_value(b, &terms), [terms[0].counts, terms[1].counts])
}

#[inline(always)]
fn terms_value<P: Pieces>(b: &P, terms: &[SideTerms; 2]) -> i32 {
    let phase = terms[0].phase + terms[1].phase;
    let mut score = [terms[0].score, terms[1].score];
    for (c, s) in score.iter_mut().enumerate() {
        let enemy = terms[1 - c].map;
        *s += king_safety(b, c, phase, enemy);
        *s += shelter_and_danger(b, c, &terms[c].attack, &terms[1 - c].attack);
        if let Some(k) = b.king_of(c)
            && enemy & (1u128 << k) != 0
        {
            *s -= CHECK_PENALTY;
        }
    }
    let s = score[0] - score[1] + if b.to_move() == 0 { TEMPO } else { -TEMPO };
    if b.to_move() == 0 { s } else { -s }
}

/// The evaluation from the side to move's point of view (centipawns): the value of
/// [`evaluate_reference`], computed kind by kind. Popcounts and bit scans dominate it, so
/// on x86-64 processors that have the population-count and leading-zero instructions
/// (most made since 2008) the same code runs compiled for them.
#[inline]
pub fn evaluate<P: Pieces>(b: &P) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if fast_bit_instructions() {
        // SAFETY: the processor has every feature `evaluate_x86` is compiled for.
        return unsafe { evaluate_x86(b) };
    }
    evaluate_body(b)
}

/// [`evaluate`] without the processor-specific variant: the same code compiled for any
/// x86-64 (or other) processor.
pub fn evaluate_portable<P: Pieces>(b: &P) -> i32 {
    evaluate_body(b)
}

/// Whether this processor has `popcnt`, `lzcnt` and `bmi1` (detected once, then cached
/// by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn fast_bit_instructions() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
}

/// [`evaluate_body`] compiled for the bit-counting instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1")]
unsafe fn evaluate_x86<P: Pieces>(b: &P) -> i32 {
    evaluate_body(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_ring_is_the_ring_around_the_king_ring() {
        for (sq, &near) in SECOND_RING.iter().enumerate() {
            let mut around = 0u128;
            for s in squares(KING_ATTACKS[sq]) {
                around |= KING_ATTACKS[s];
            }
            assert_eq!(near, around & !KING_ATTACKS[sq] & !(1u128 << sq), "sq {sq}");
        }
    }

    #[test]
    fn tables_are_mirror_symmetric() {
        // A Black piece on square i and a White piece on the point-mirrored square score alike.
        for (k, (black, white)) in STATIC[0].iter().zip(&STATIC[1]).enumerate() {
            for sq in 0..81 {
                assert_eq!(black[sq], white[80 - sq], "kind {k} sq {sq}");
            }
        }
    }

    #[test]
    fn hand_pieces_outvalue_board_pieces_of_the_same_kind() {
        for k in 0..7 {
            assert!(hand_bonus(k) > 0);
        }
    }
}
