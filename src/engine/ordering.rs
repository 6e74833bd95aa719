//! The static exchange evaluation (with the capture value of a piece: what its side loses
//! on the board plus what the captor gains in hand) and the move indices of the history
//! tables ([`super::history`]).
use super::eval::piece_value;
use crate::shogi::Move;
use crate::shogi::sets::*;

/// Kinds from least to most valuable, for picking the next exchange attacker.
const CHEAPEST_FIRST: [usize; KINDS] = [
    PAWN, LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, SILVER, GOLD, BISHOP, ROOK,
    HORSE, DRAGON, KING,
];

/// What capturing a piece of kind `k` gains: the piece leaves the board and its
/// unpromoted kind goes into the captor's hand (a tokin taken is worth a tokin to the
/// side that loses it and a pawn in hand to the side that takes it). The king counts as
/// 20,000 (an exchange never ends by taking it).
pub const fn capture_value(k: usize) -> i32 {
    if k == KING {
        20_000
    } else {
        piece_value(k) + piece_value(demoted(k))
    }
}

fn see_value(k: usize) -> i32 {
    capture_value(k)
}

/// Static exchange evaluation of a move in the position `b` (material balance for the
/// mover after the whole exchange on the destination square; drops and quiet moves onto
/// squares nobody takes are 0). The value of [`see_reference`]; the attackers of both sides
/// are found once, and after each capture only the line through the capturing piece's
/// square is looked along again for a slider behind it.
pub fn see<P: Pieces>(b: &P, m: Move) -> i32 {
    let start = ExchangeStart::of(b, m);
    let sets = ExchangeSets::new(b, start.to, start.occ);
    exchange(b, start, sets)
}

/// The first capture of an exchange: the square, the occupancy after it, the piece now
/// standing on the square and what the mover gained.
#[derive(Clone, Copy)]
struct ExchangeStart {
    to: usize,
    us: usize,
    occ: SquareSet,
    current: usize,
    first_gain: i32,
}

impl ExchangeStart {
    #[inline]
    fn of<P: Pieces>(b: &P, m: Move) -> ExchangeStart {
        let to = sq_index(m.to());
        let (occ, current, first_gain) = match m {
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
        ExchangeStart {
            to,
            us: b.to_move(),
            occ: occ | 1u128 << to,
            current,
            first_gain,
        }
    }
}

/// Where an exchange finds the attackers of its square: [`ExchangeSets`] (found once,
/// kept up to date) or [`FromScratch`] (recomputed at every capture).
trait ExchangeAttackers {
    /// Pieces of colour `c` attacking the square with the occupancy `occ`.
    fn attackers<P: Pieces>(&self, b: &P, c: usize, occ: SquareSet) -> SquareSet;
    /// The attacker on `sq` left the square's lines (`occ` no longer holds it).
    fn removed(&mut self, sq: usize, occ: SquareSet);
}

/// The exchange on the square once the first capture is made: each side recaptures with
/// its cheapest attacker (a king only where the square is then safe), and either side
/// may stop; the mover's balance.
#[inline]
fn exchange<P: Pieces, A: ExchangeAttackers>(b: &P, start: ExchangeStart, mut src: A) -> i32 {
    let mut occ = start.occ;
    let mut current = start.current;
    let mut gain = [0i32; 40];
    gain[0] = start.first_gain;
    let mut d = 0;
    let mut side = 1 - start.us;
    loop {
        let attackers = src.attackers(b, side, occ);
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
        src.removed(sq, occ);
        if k == KING && src.attackers(b, 1 - side, occ) != 0 {
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

/// The attackers recomputed from the board at every capture ([`see_reference`]).
struct FromScratch {
    to: usize,
}

impl ExchangeAttackers for FromScratch {
    #[inline]
    fn attackers<P: Pieces>(&self, b: &P, c: usize, occ: SquareSet) -> SquareSet {
        attackers_to(b, c, self.to, occ)
    }
    #[inline]
    fn removed(&mut self, _sq: usize, _occ: SquareSet) {}
}

impl ExchangeAttackers for ExchangeSets {
    #[inline]
    fn attackers<P: Pieces>(&self, _b: &P, c: usize, occ: SquareSet) -> SquareSet {
        self.attackers(c, occ)
    }
    #[inline]
    fn removed(&mut self, sq: usize, occ: SquareSet) {
        self.reveal(sq, occ);
    }
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
    let start = ExchangeStart::of(b, m);
    exchange(b, start, FromScratch { to: start.to })
}

/// The kind a piece of kind `k` goes into the hand as.
const fn demoted(k: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    fn see_of(sfen: &str, usi: &str) -> i32 {
        let p = Position::from_sfen(sfen).unwrap();
        let m = Move::from_usi(usi).unwrap();
        assert!(p.is_legal(m), "{usi}");
        let v = see(&p, m);
        assert_eq!(v, see_reference(&p, m), "{usi} in {sfen}");
        v
    }

    /// Values worked by hand with the capture values: a pawn 100 + 100, a tokin 550 + 100,
    /// a silver 500 + 500, a gold 550 + 550; a promotion gains its board value.
    #[test]
    fn the_exchange_counts_what_the_captor_gains_in_hand() {
        assert_eq!(capture_value(PAWN), 200);
        assert_eq!(capture_value(PRO_PAWN), 650);
        assert_eq!(capture_value(HORSE), 1050 + 800);
        assert_eq!(capture_value(KING), 20_000);
        // A tokin taken is a tokin off their board and a pawn in our hand.
        let tokin = "4k4/9/4+p4/4P4/9/9/9/9/4K4 b - 1";
        assert_eq!(see_of(tokin, "5d5c"), 650);
        assert_eq!(see_of(tokin, "5d5c+"), 650 + 450);
        // The tokin defended by a pawn, taken by a silver: 650 won, 1,000 lost.
        let defended = "4k4/4p4/4+p4/3S5/9/9/9/9/4K4 b - 1";
        assert_eq!(see_of(defended, "6d5c"), 650 - 1000);
        // A pawn promotes as it takes a pawn that a gold defends: 200 + 450 won, then
        // the new tokin (650) lost: even.
        let promote = "4k4/4g4/4p4/4P4/9/9/9/9/4K4 b - 1";
        assert_eq!(see_of(promote, "5d5c+"), 0);
        // Pawn for pawn: even; an undefended pawn: both of its values.
        assert_eq!(
            see_of("4k4/4g4/4p4/4P4/9/9/9/9/4K4 b - 1", "5d5c"),
            200 - 200
        );
        assert_eq!(see_of("4k4/9/4p4/4P4/9/9/9/9/4K4 b - 1", "5d5c"), 200);
    }
}
