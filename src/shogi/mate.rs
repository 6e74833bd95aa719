//! Mate in one: a legal move after which the opponent has no legal reply.
//!
//! Candidates are drops first (every hand kind but the pawn, a pawn-drop mate being
//! illegal), then board moves that may give check; when the side to move is in check only
//! its legal evasions that give check are tried.
//!
//! [`solve_mate_in_one`] decides each candidate from attack tables, without playing it: the
//! position after the move is described by masks over the current bitboards (the mover
//! lifted from its origin, the moved piece's attacks taken from its destination, a
//! captured piece removed from the defender's set). A candidate is refused at once when
//! one of the king's flight squares that nothing attacks now stays free after it (only
//! the moved piece, or a line opened through its origin, can cover it); otherwise the
//! checkers after the move are found (direct and discovered), every flight square is
//! tested with the king lifted (a slider's line runs through it), and against a single
//! checker every capture and every interposition (board moves and drops) is tested for
//! legality, a pinned defender included. The only case left to the exact test is an
//! interposing pawn drop in front of the attacker's king, which is illegal when it mates
//! (the pawn-drop rule on the defender's side): that candidate alone is then played on a
//! copy and confirmed by the defender having no legal move. Before any candidate is
//! looked at, one mask per kind says where a piece of that kind must arrive: a square
//! from which it checks and could cover every free flight square; drops and the board
//! moves of pieces that cannot open a line are taken only there.
//!
//! Only checks are tried: a quiet move that leaves the defender without a legal move (a
//! loss in shogi, seen only in bare built positions) is not found by either solver.
//!
//! [`solve_mate_in_one_by_play`] is the reference: it plays every surviving candidate and
//! asks the move generator whether the defender has a legal move. Both try the candidates
//! in the same order and so return the same move.

use super::attacks::{
    self, GOLD, KING, KNIGHT, KNIGHT_AREA, PAWN, PAWN_AREA, SILVER, ZONE, between, bit, line,
};
use super::bitboard::{FULL, lsb};
use super::{Color, Move, MoveList, PieceKind, Position, Square};

/// A mate-in-one move of the side to move, if any; the position is unchanged.
///
/// Decided from attack tables (see the module documentation); the answer is the one
/// [`solve_mate_in_one_by_play`] gives.
pub fn solve_mate_in_one(pos: &Position) -> Option<Move> {
    let mut work: Option<Position> = None;
    solve(pos, &mut |m| {
        let p = work.get_or_insert_with(|| pos.clone());
        mates(p, m)
    })
}

/// As [`solve_mate_in_one`], for a caller holding the position mutably; `pos` is left
/// exactly as it was.
pub fn solve_mate_in_one_in_place(pos: &mut Position) -> Option<Move> {
    solve_mate_in_one(pos)
}

/// A mate-in-one move of the side to move found by playing every candidate that may mate
/// and asking the move generator for a reply: the reference for [`solve_mate_in_one`]
/// (same candidates, same order, same answer), kept for tests and measurements.
/// Candidates are played and undone on `pos`, which is left exactly as it was.
pub fn solve_mate_in_one_by_play(pos: &mut Position) -> Option<Move> {
    by_play_in_place(pos)
}

/// True if the side to move has no legal move (in shogi that side has lost).
pub fn is_mated(pos: &Position) -> bool {
    !pos.has_legal_move()
}

/// Play `m` (legal), test that the defender has no legal move, undo.
#[inline]
fn mates(pos: &mut Position, m: Move) -> bool {
    let u = pos.play_unchecked(m);
    let mated = !pos.has_legal_move();
    pos.undo(m, u);
    mated
}

/// Flight squares of the enemy king that none of our pieces attacks now (the king
/// lifted, so that a line through it counts).
fn free_flights(pos: &Position) -> u128 {
    let us = pos.side;
    let them = !us;
    let ek = pos.king[them as usize] as usize;
    let occ_wo_king = pos.occ() ^ bit(ek);
    let mut free = 0u128;
    let mut esc = KING[ek] & !pos.by_color[them as usize];
    while esc != 0 {
        let e = lsb(esc);
        esc &= esc - 1;
        if !pos.is_attacked(us, e, occ_wo_king) {
            free |= bit(e);
        }
    }
    free
}

/// The reference: every candidate that survives a cheap filter is played and the
/// defender's legal moves are asked for (the solver of earlier versions, unchanged).
fn by_play_in_place(pos: &mut Position) -> Option<Move> {
    let us = pos.side;
    let them = !us;
    let ek = pos.king[them as usize] as usize;
    if pos.is_in_check() {
        let list = pos.legal_moves();
        for drops in [true, false] {
            for &m in list.iter() {
                if m.is_drop() != drops
                    || matches!(
                        m,
                        Move::Drop {
                            kind: PieceKind::Pawn,
                            ..
                        }
                    )
                {
                    continue;
                }
                if pos.gives_check(m) && mates(pos, m) {
                    return Some(m);
                }
            }
        }
        return None;
    }
    let occ = pos.occ();
    let hand = pos.hands[us as usize];
    if !hand.is_empty() {
        // Flight squares of the enemy king that nothing of ours attacks now.
        let occ_wo_king = occ ^ (1u128 << ek);
        let mut free = 0u128;
        let mut esc = KING[ek] & !pos.by_color[them as usize];
        while esc != 0 {
            let e = lsb(esc);
            esc &= esc - 1;
            if !pos.is_attacked(us, e, occ_wo_king) {
                free |= 1u128 << e;
            }
        }
        let empty = !occ & FULL;
        for kind in PieceKind::HAND_KINDS[1..].iter().copied() {
            if hand.count(kind) == 0 {
                continue;
            }
            let area = attacks::movable_area(kind, us);
            let mut t = attacks::piece_attacks(kind, them, ek, occ) & empty & area;
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                let tb = 1u128 << to;
                // The dropped piece's attacks are taken with the king lifted: a slider
                // checking along a line also covers the square behind the king.
                if free & !tb & !attacks::piece_attacks(kind, us, to, occ_wo_king | tb) != 0 {
                    continue;
                }
                let m = Move::Drop {
                    kind,
                    to: Square::from_index_unchecked(to),
                };
                if mates(pos, m) {
                    return Some(m);
                }
            }
        }
    }
    let mut list = MoveList::new();
    pos.generate_check_candidates(&mut list);
    list.iter()
        .copied()
        .find(|&m| pos.gives_check(m) && mates(pos, m))
}

/// The candidates in the order of [`by_play_in_place`], each decided by [`table_mate`];
/// `exact` is asked only when the tables are unsure. Candidates that cannot mate are
/// skipped without being looked at one by one (see [`Needs`]); skipping keeps the order
/// of the others, so the first mate is the reference's.
fn solve(pos: &Position, exact: &mut impl FnMut(Move) -> bool) -> Option<Move> {
    let free = free_flights(pos);
    let mut decide = |m| match table_mate(pos, free, m) {
        Verdict::No => false,
        Verdict::Mate => true,
        Verdict::Unsure => exact(m),
    };
    if pos.is_in_check() {
        let list = pos.legal_moves();
        for drops in [true, false] {
            for &m in list.iter() {
                if m.is_drop() != drops
                    || matches!(
                        m,
                        Move::Drop {
                            kind: PieceKind::Pawn,
                            ..
                        }
                    )
                {
                    continue;
                }
                if decide(m) {
                    return Some(m);
                }
            }
        }
        return None;
    }
    let us = pos.side;
    let needs = Needs::new(pos, free);
    let occ = pos.occ();
    let hand = pos.hands[us as usize];
    if !hand.is_empty() {
        let empty = !occ & FULL;
        for kind in PieceKind::HAND_KINDS[1..].iter().copied() {
            if hand.count(kind) == 0 {
                continue;
            }
            let k = kind as usize;
            let mut t = needs.need[k] & empty & attacks::movable_area(kind, us);
            while t != 0 {
                let to = lsb(t);
                t &= t - 1;
                let m = Move::Drop {
                    kind,
                    to: Square::from_index_unchecked(to),
                };
                if decide(m) {
                    return Some(m);
                }
            }
        }
    }
    board_candidates(pos, &needs, &mut decide)
}

/// Where a piece must arrive to have a chance to mate, per kind (index of
/// [`PieceKind::ALL`]), for the side to move.
struct Needs {
    /// Flight squares of the enemy king nothing attacks now ([`free_flights`]).
    free: u128,
    /// Squares not ours from which a piece of the kind attacks the enemy king (current
    /// occupancy) and could attack every free flight square (judged on an empty board: a
    /// superset for the sliders), the free flight squares themselves left out (the king
    /// would take the piece there).
    need: [u128; 14],
    /// Per kind on the board: `need` of the kind or of its promoted form.
    any: [u128; 14],
    /// Our pieces whose leaving could open one of our lines onto a free flight square
    /// (the only blocker between the square and a slider of ours, the king lifted): for
    /// them the cover condition does not hold.
    screens: u128,
}

/// The squares from which a piece of kind `kind` of the side to move (`them` its
/// opponent) could attack every square of `free` on an empty board, within `within`.
#[inline(always)]
fn covering(kind: PieceKind, them: Color, free: u128, within: u128) -> u128 {
    let mut c = within & !free;
    let mut fs = free;
    while fs != 0 && c != 0 {
        let s = lsb(fs);
        fs &= fs - 1;
        c &= attacks::pseudo_attacks(kind, them, s);
    }
    c
}

impl Needs {
    fn new(pos: &Position, free: u128) -> Needs {
        let us = pos.side;
        let them = !us;
        let ek = pos.king[them as usize] as usize;
        let occ = pos.occ();
        let own = pos.by_color[us as usize];
        // The kinds that may move or be dropped: those of our pieces (and what they
        // promote to) and of our hand.
        let mut present = 0u32;
        for kind in PieceKind::HAND_KINDS {
            if pos.hands[us as usize].count(kind) > 0 {
                present |= 1 << kind as u32;
            }
        }
        for (k, kind) in PieceKind::ALL.iter().copied().enumerate() {
            if pos.by_kind[k] & own != 0 {
                present |= 1 << k;
                if let Some(pk) = kind.promoted() {
                    present |= 1 << pk as u32;
                }
            }
        }
        present &= !(1 << PieceKind::King as u32);
        let mut need = [0u128; 14];
        // The lines from the king, each computed once.
        let slides = [
            0,
            attacks::lance(them, ek, occ),
            attacks::bishop(ek, occ),
            attacks::rook(ek, occ),
        ];
        let mut ks = present;
        while ks != 0 {
            let k = ks.trailing_zeros() as usize;
            ks &= ks - 1;
            let kind = PieceKind::ALL[k];
            let check = attacks::step_attacks(kind, them, ek)
                | slides[usize::from(attacks::SLIDE_CLASS[k])];
            need[k] = covering(kind, them, free, check & !own);
        }
        let mut any = [0u128; 14];
        for (k, kind) in PieceKind::ALL.iter().copied().enumerate() {
            if present & (1 << k) == 0 {
                continue;
            }
            any[k] = need[k];
            if let Some(pk) = kind.promoted() {
                any[k] |= need[pk as usize];
            }
        }
        let mut screens = 0;
        if free != 0 {
            let occ_wo_king = occ & !bit(ek);
            let rd = (pos.kind_bb(PieceKind::Rook) | pos.kind_bb(PieceKind::Dragon)) & own;
            let bh = (pos.kind_bb(PieceKind::Bishop) | pos.kind_bb(PieceKind::Horse)) & own;
            let lances = pos.kind_bb(PieceKind::Lance) & own;
            let mut fs = free;
            while fs != 0 {
                let s = lsb(fs);
                fs &= fs - 1;
                let mut sliders = (attacks::ROOK_PSEUDO[s] & rd)
                    | (attacks::BISHOP_PSEUDO[s] & bh)
                    | (attacks::lance_pseudo(them, s) & lances);
                while sliders != 0 {
                    let x = lsb(sliders);
                    sliders &= sliders - 1;
                    let b = between(s, x) & occ_wo_king;
                    if b != 0 && b & (b - 1) == 0 {
                        screens |= b & own;
                    }
                }
            }
        }
        Needs {
            free,
            need,
            any,
            screens,
        }
    }
}

/// The board moves of the side to move (not in check) that may mate, in the order of
/// [`Position::generate_check_candidates`], each passed to `decide` until one mates.
#[inline(always)]
fn board_candidates(
    pos: &Position,
    needs: &Needs,
    decide: &mut impl FnMut(Move) -> bool,
) -> Option<Move> {
    let us = pos.side;
    let them = !us;
    let ui = us as usize;
    let ksq = pos.king[ui] as usize;
    let ek = pos.king[them as usize] as usize;
    let own = pos.by_color[ui];
    let occ = pos.occ();
    let zone = ZONE[ui];
    let pinned = pos.pinned(us);
    // Our pieces standing alone between a slider of ours and the enemy king.
    let discoverers = pos.sole_blockers(them, ek) & own;
    let sq = Square::from_index_unchecked;
    let mut pcs = own & !bit(ksq);
    while pcs != 0 {
        let from = lsb(pcs);
        pcs &= pcs - 1;
        let fb = bit(from);
        let kind = PieceKind::ALL[usize::from(pos.board[from] & 15) - 1];
        let mut t = !own;
        if discoverers & fb == 0 {
            // A slider on a line through the king may check from beyond its square.
            let on_line = line(ek, from) != 0;
            let open = needs.screens & fb != 0;
            let k = kind as usize;
            // Nothing it could reach even on an empty board.
            if !on_line && !open && attacks::pseudo_attacks(kind, us, from) & needs.any[k] == 0 {
                continue;
            }
            let promo_area = if fb & zone != 0 { FULL } else { zone };
            let mut m;
            if on_line || open {
                // The checking squares with the piece lifted; the cover condition only
                // where no line opens.
                let occf = occ & !fb;
                let free = if open { 0 } else { needs.free };
                m = covering(
                    kind,
                    them,
                    free,
                    attacks::piece_attacks(kind, them, ek, occf),
                );
                if let Some(pk) = kind.promoted() {
                    let check = attacks::piece_attacks(pk, them, ek, occf);
                    m |= covering(pk, them, free, check & promo_area);
                }
            } else {
                m = needs.need[k];
                if let Some(pk) = kind.promoted() {
                    m |= needs.need[pk as usize] & promo_area;
                }
            }
            t &= m;
            if t == 0 {
                continue;
            }
        }
        t &= attacks::piece_attacks(kind, us, from, occ);
        if pinned & fb != 0 {
            t &= line(ksq, from);
        }
        if t == 0 {
            continue;
        }
        let f = sq(from);
        let try_move = |to: usize, promote: bool, decide: &mut dyn FnMut(Move) -> bool| {
            let m = Move::Normal {
                from: f,
                to: sq(to),
                promote,
            };
            decide(m).then_some(m)
        };
        let from_in_zone = fb & zone != 0;
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            let tb = bit(to);
            let (promo, plain) = match kind {
                PieceKind::Pawn | PieceKind::Lance => (tb & zone != 0, tb & PAWN_AREA[ui] != 0),
                PieceKind::Knight => (tb & zone != 0, tb & KNIGHT_AREA[ui] != 0),
                PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                    (from_in_zone || tb & zone != 0, true)
                }
                _ => (false, true),
            };
            if promo && let Some(m) = try_move(to, true, decide) {
                return Some(m);
            }
            if plain && let Some(m) = try_move(to, false, decide) {
                return Some(m);
            }
        }
    }
    if discoverers & bit(ksq) != 0 {
        let occ_wo_king = occ ^ bit(ksq);
        let mut t = KING[ksq] & !own;
        while t != 0 {
            let to = lsb(t);
            t &= t - 1;
            if pos.is_attacked(them, to, occ_wo_king) {
                continue;
            }
            let m = Move::Normal {
                from: sq(ksq),
                to: sq(to),
                promote: false,
            };
            if decide(m) {
                return Some(m);
            }
        }
    }
    None
}

/// What the attack tables say about one candidate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// Not a check, or the defender has a legal reply.
    No,
    /// The defender has no legal reply.
    Mate,
    /// Only an interposing pawn drop, whose legality depends on the pawn-drop rule, is
    /// left: play the move to know.
    Unsure,
}

/// True if a piece of `c` among `own` attacks `sq` with occupancy `occ` (the kinds read
/// from the position's bitboards, the side from `own`).
#[inline]
fn attacked_by(pos: &Position, c: Color, own: u128, sq: usize, occ: u128) -> bool {
    let ti = (!c) as usize;
    let kd = pos.kind_bb(PieceKind::King)
        | pos.kind_bb(PieceKind::Horse)
        | pos.kind_bb(PieceKind::Dragon);
    if ((PAWN[ti][sq] & pos.kind_bb(PieceKind::Pawn))
        | (KNIGHT[ti][sq] & pos.kind_bb(PieceKind::Knight))
        | (SILVER[ti][sq] & (pos.kind_bb(PieceKind::Silver) | kd))
        | (GOLD[ti][sq] & (pos.golds() | kd)))
        & own
        != 0
    {
        return true;
    }
    let bh = (pos.kind_bb(PieceKind::Bishop) | pos.kind_bb(PieceKind::Horse)) & own;
    if attacks::BISHOP_PSEUDO[sq] & bh != 0 && attacks::bishop(sq, occ) & bh != 0 {
        return true;
    }
    let rd = (pos.kind_bb(PieceKind::Rook) | pos.kind_bb(PieceKind::Dragon)) & own;
    if attacks::ROOK_PSEUDO[sq] & rd != 0 && attacks::rook(sq, occ) & rd != 0 {
        return true;
    }
    let l = pos.kind_bb(PieceKind::Lance) & own;
    l != 0 && attacks::lance(!c, sq, occ) & l != 0
}

/// Whether the legal move `m` of the side to move mates, read from the attack tables
/// without playing it. `free` is [`free_flights`] of `pos`.
#[inline]
fn table_mate(pos: &Position, free: u128, m: Move) -> Verdict {
    let us = pos.side;
    let them = !us;
    let ek = pos.king[them as usize] as usize;
    let ekb = bit(ek);
    let (from, t, nk) = match m {
        Move::Drop { kind, to } => (None, to.index(), kind),
        Move::Normal { from, to, promote } => {
            let f = from.index();
            let kind = PieceKind::ALL[usize::from(pos.board[f] & 15) - 1];
            let nk = if promote {
                kind.promoted().unwrap_or(kind)
            } else {
                kind
            };
            (Some(f), to.index(), nk)
        }
    };
    let fb = from.map_or(0, bit);
    let tb = bit(t);
    let own = pos.by_color[us as usize];
    let opp = pos.by_color[them as usize];
    // After the move: the occupancy, our other pieces (those still on the squares the
    // bitboards say), the defender's pieces.
    let occ1 = (pos.occ() & !fb) | tb;
    let occk = occ1 & !ekb;
    let rest = own & !fb;
    let opp1 = opp & !tb;
    let cover = attacks::piece_attacks(nk, us, t, occk);

    // A flight square nothing attacks now is covered after the move only by the moved
    // piece or by a line opened through the origin.
    let mut open = free & !cover;
    while open != 0 {
        let s = lsb(open);
        open &= open - 1;
        match from {
            Some(f) if line(s, f) != 0 && attacked_by(pos, us, rest, s, occk) => {}
            _ => return Verdict::No,
        }
    }

    // The checkers after the move.
    let mut checkers = if cover & ekb != 0 { tb } else { 0 };
    if let Some(f) = from {
        let l = line(ek, f);
        if l != 0 && l & tb == 0 {
            checkers |= pos.slider_attackers(us, ek, occ1) & l & rest;
        }
    }
    if checkers == 0 {
        return Verdict::No;
    }

    // Every flight square: those free now are covered (above); the others are tested
    // again (the mover's own cover has left its origin, the moved piece may block a line).
    let mut esc = KING[ek] & !opp1 & !cover & !free;
    while esc != 0 {
        let s = lsb(esc);
        esc &= esc - 1;
        if !attacked_by(pos, us, rest, s, occk) {
            return Verdict::No;
        }
    }
    if checkers & (checkers - 1) != 0 {
        // Double check: only the king could move.
        return Verdict::Mate;
    }

    let c = lsb(checkers);
    // Our attackers on the king after a defender's piece moves from `d` to `to`: a piece
    // off every line through the king is pinned by nothing.
    let exposes = |d: usize, to: usize| -> bool {
        if line(ek, d) == 0 {
            return false;
        }
        let o2 = (occ1 & !bit(d)) | bit(to);
        let ours = rest & !bit(to);
        attacked_by(pos, us, ours, ek, o2) || (to != t && attacks::reaches(nk, us, t, ek, o2))
    };
    // Capture of the checker by a piece other than the king (the king's captures are
    // flight squares, tested above).
    let mut caps = pos.attackers_to(them, c, occ1) & opp1 & !ekb;
    while caps != 0 {
        let d = lsb(caps);
        caps &= caps - 1;
        if !exposes(d, c) {
            return Verdict::No;
        }
    }
    let block = between(c, ek);
    if block == 0 {
        return Verdict::Mate;
    }
    // Interposition by a board move.
    let mut bs = block;
    while bs != 0 {
        let b = lsb(bs);
        bs &= bs - 1;
        let mut movers = pos.attackers_to(them, b, occ1) & opp1 & !ekb;
        while movers != 0 {
            let d = lsb(movers);
            movers &= movers - 1;
            if !exposes(d, b) {
                return Verdict::No;
            }
        }
    }
    // Interposition by a drop: a drop never exposes the king, and against one checker it
    // answers the check.
    let hand = pos.hands[them as usize];
    if hand.count(PieceKind::Silver)
        + hand.count(PieceKind::Gold)
        + hand.count(PieceKind::Bishop)
        + hand.count(PieceKind::Rook)
        > 0
    {
        return Verdict::No;
    }
    for kind in [PieceKind::Lance, PieceKind::Knight] {
        if hand.count(kind) > 0 && block & attacks::movable_area(kind, them) != 0 {
            return Verdict::No;
        }
    }
    if hand.count(PieceKind::Pawn) > 0 {
        let mut pawns = opp1 & pos.kind_bb(PieceKind::Pawn);
        let mut files = 0u128;
        while pawns != 0 {
            let fm = attacks::file_mask(lsb(pawns));
            files |= fm;
            pawns &= !fm;
        }
        let drops = block & attacks::movable_area(PieceKind::Pawn, them) & !files;
        if drops != 0 {
            // A pawn dropped in front of our king checks it, and is illegal if that
            // is mate: left to the exact test.
            let uk = if nk == PieceKind::King && from.is_some() {
                t
            } else {
                pos.king[us as usize] as usize
            };
            if drops & !PAWN[us as usize][uk] != 0 {
                return Verdict::No;
            }
            return Verdict::Unsure;
        }
    }
    Verdict::Mate
}
