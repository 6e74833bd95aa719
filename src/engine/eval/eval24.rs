//! The 24-point engine's evaluation: it values a side by how close it is to a declaration
//! win under the chosen entering-king rule, not by material.
//!
//! Features per side, in the spirit of the entering-king study: owned points (capped at
//! the rule's target, 31 under the 24-point rule) and the excess, declaration points
//! (capped), zone count (capped at 10) and the excess, drop potential, king in the camp,
//! pieces hanging (anywhere / in the camp), safe drop squares in the camp, capture threats,
//! and an estimate of the own moves still needed to declare (weighed again once the side
//! owns the win's points). The evaluation is the
//! weighted sum for the side to move minus the same for the opponent. Weights live in a
//! small text file (`name value` per line); the defaults are compiled in.
use std::fmt::Write as _;

use thiserror::Error;

use crate::shogi::sets::*;
use crate::shogi::{Color, EnteringKingRule};

/// Number of weights.
pub const N_WEIGHTS: usize = 14;

/// Weight names, in file and vector order.
pub const NAMES: [&str; N_WEIGHTS] = [
    "own",
    "own_x",
    "dec",
    "zone_n",
    "zone_pot",
    "zone_x",
    "king_in",
    "hang_all",
    "hang_zone",
    "safe_drop",
    "threat",
    "moves",
    "moves_ok",
    "king_danger",
];

/// Default weights (the study's starting point plus the move-count estimate, counted a
/// second time, `moves_ok`, once the side owns the points a win needs: then only the
/// moves to the declaration are left, and the side goes straight for them).
pub const DEFAULT_WEIGHTS: [f64; N_WEIGHTS] = [
    20.0, 4.0, 10.0, 25.0, 12.0, 6.0, 400.0, -18.0, -12.0, 2.0, 6.0, -8.0, -16.0, -24.0,
];

/// The sign every weight must keep (fixed by what the feature means): +1, -1.
pub const SIGNS: [f64; N_WEIGHTS] = [
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0, -1.0,
];

/// Fixed-point scale of the integer weights used by the evaluation.
const SCALE: i32 = 16;

/// The weights of the 24-point evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Real values, in [`NAMES`] order.
    pub values: [f64; N_WEIGHTS],
    fixed: [i32; N_WEIGHTS],
}

impl Default for Weights {
    fn default() -> Self {
        Weights::new(DEFAULT_WEIGHTS)
    }
}

/// A weights file that cannot be read.
#[derive(Debug, Error, PartialEq)]
pub enum WeightsError {
    /// A line (comment removed) that is not exactly a name and a value.
    #[error("line {line}: expected `name value`")]
    Syntax {
        /// The line's number, from 1.
        line: usize,
    },
    /// A name that is no weight's (not in [`NAMES`]).
    #[error("line {line}: unknown weight `{name}`")]
    UnknownName {
        /// The line's number, from 1.
        line: usize,
        /// The name as written.
        name: String,
    },
    /// A value that is not a finite number.
    #[error("line {line}: bad number `{value}`")]
    BadNumber {
        /// The line's number, from 1.
        line: usize,
        /// The value as written.
        value: String,
    },
}

impl Weights {
    /// Weights from values (rounded to the evaluation's fixed point).
    pub fn new(values: [f64; N_WEIGHTS]) -> Weights {
        let mut fixed = [0; N_WEIGHTS];
        for (f, v) in fixed.iter_mut().zip(values) {
            *f = (v * SCALE as f64).round() as i32;
        }
        Weights { values, fixed }
    }

    /// Parse the text format: `name value` per line, `#` comments, blank lines; names not
    /// given keep their default.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut values = DEFAULT_WEIGHTS;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let mut parts = content.split_whitespace();
            let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(WeightsError::Syntax { line });
            };
            let idx =
                NAMES
                    .iter()
                    .position(|n| *n == name)
                    .ok_or_else(|| WeightsError::UnknownName {
                        line,
                        name: name.to_string(),
                    })?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| WeightsError::BadNumber {
                    line,
                    value: value.to_string(),
                })?;
            values[idx] = v;
        }
        Ok(Weights::new(values))
    }

    /// The text format, with a header comment.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for line in comment.lines() {
            let _ = writeln!(s, "# {line}");
        }
        for (n, v) in NAMES.iter().zip(self.values) {
            let _ = writeln!(s, "{n} {v:.3}");
        }
        s
    }
}

/// The point target of a rule for a side: what a declaration win needs (31 under the
/// 24-point rule; 28 for Black and 27 for White under the 27-point rule).
/// From [`EnteringKingRule::base_threshold`]; the 24-point target for the rules without
/// declaration.
pub fn point_target(rule: EnteringKingRule, color: usize) -> i32 {
    let side = if color == 0 {
        Color::Black
    } else {
        Color::White
    };
    rule.base_threshold(side)
        .unwrap_or(crate::shogi::RULE24_WIN_POINTS)
}

/// The raw features of one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// Owned points: the pieces on the board (king excluded) and in hand, 5 for a rook
    /// or bishop (promoted or not) and 1 for the others.
    pub owned: i32,
    /// Declaration points: the pieces in the enemy camp (king excluded) and in hand,
    /// counted the same way.
    pub decl: i32,
    /// Pieces in the enemy camp, king excluded.
    pub zone: i32,
    /// Pieces in hand.
    pub hand: i32,
    /// Whether the king stands in the enemy camp.
    pub king_in: bool,
    /// Pieces (king excluded) the opponent attacks and this side does not defend.
    pub hang_all: i32,
    /// Of those, the ones in the enemy camp.
    pub hang_zone: i32,
    /// Empty squares of the enemy camp the opponent does not attack, at most 10 (0 with
    /// an empty hand).
    pub safe_drop: i32,
    /// Opponent's pieces (king excluded) this side attacks and the opponent does not
    /// defend.
    pub threat: i32,
    /// Own moves still needed to declare, as estimated by [`moves_needed`].
    pub moves: i32,
    /// Danger to the king: the squares next to it the opponent attacks, counted twice
    /// when empty and the opponent has a piece in hand (a supported drop there checks).
    /// Weighed only for the side the engine plays ([`evaluate_for`]): a defence term.
    pub danger: i32,
}

impl Features {
    /// The feature vector in [`NAMES`] order, given the side's point target.
    pub fn vector(&self, target: i32) -> [i32; N_WEIGHTS] {
        let zone_capped = self.zone.min(10);
        [
            self.owned.min(target),
            (self.owned - target).max(0),
            self.decl.min(target),
            zone_capped,
            (self.zone + self.hand).min(10) - zone_capped,
            (self.zone - 10).max(0),
            self.king_in as i32,
            self.hang_all,
            self.hang_zone,
            self.safe_drop,
            self.threat,
            self.moves,
            if self.owned >= target { self.moves } else { 0 },
            self.danger,
        ]
    }
}

/// Own moves needed to bring a board piece of kind `k` from `row` into the camp of `c`.
fn moves_to_camp(c: usize, k: usize, row: usize) -> i32 {
    let rows = if c == 0 {
        row as i32 - 2
    } else {
        6 - row as i32
    };
    if rows <= 0 {
        return 0;
    }
    match k {
        LANCE | ROOK | DRAGON | BISHOP | HORSE => 1,
        KNIGHT => (rows + 1) / 2,
        PAWN => rows,
        _ => rows,
    }
}

/// Estimate of the own moves still needed before a declaration: the king's distance to
/// the camp, then the cheapest transfers (big pieces first) to reach the point target, then
/// the cheapest transfers or drops to reach 10 pieces, plus the points that must still be
/// captured (one move each at least).
pub fn moves_needed<P: Pieces>(
    b: &P,
    c: usize,
    owned: i32,
    decl: i32,
    zone: i32,
    target: i32,
) -> i32 {
    let mut total = 0;
    if let Some(k) = b.king_of(c) {
        let row = row_of(k) as i32;
        total += if c == 0 {
            (row - 2).max(0)
        } else {
            (6 - row).max(0)
        };
    } else {
        return 60;
    }
    // Board pieces outside the camp: (cost, points). A side has at most 38 pieces
    // besides its king, on the board and in hand together.
    let mut outside = [(0i32, 0i32); 40];
    let mut n = 0;
    for k in 0..KINDS {
        if k == KING {
            continue;
        }
        for sq in squares(b.set(c, k) & !CAMP[c]) {
            outside[n] = (moves_to_camp(c, k, row_of(sq)).max(1), points(k));
            n += 1;
        }
    }
    let outside = &mut outside[..n];
    let mut pts_need = (target - decl).max(0);
    let mut zone_need = (10 - zone).max(0);
    // Points first: best points per move.
    outside.sort_by(|a, b| {
        (b.1 * a.0.max(1))
            .cmp(&(a.1 * b.0.max(1)))
            .then(a.0.cmp(&b.0))
    });
    let mut used = 0;
    for &(cost, pts) in outside.iter() {
        if pts_need <= 0 {
            break;
        }
        used += 1;
        total += cost;
        pts_need -= pts;
        zone_need -= 1;
    }
    if pts_need > 0 {
        // Points that do not exist yet must be captured.
        total += pts_need.min((target - owned).max(0)).max(0);
    }
    if zone_need > 0 {
        // The pieces not used for points (the first `used` were), then one move per
        // piece in hand.
        let hand = hand_total(b, c).max(0) as usize;
        let mut costs = [0i32; 80];
        let rest = outside.len() - used;
        for (slot, p) in costs.iter_mut().zip(&outside[used..]) {
            *slot = p.0;
        }
        let len = (rest + hand).min(costs.len());
        costs[rest..len].fill(1);
        let costs = &mut costs[..len];
        costs.sort_unstable();
        for cost in costs.iter().take(zone_need as usize) {
            total += cost;
        }
        let missing = zone_need - costs.len().min(zone_need as usize) as i32;
        total += missing * 3;
    }
    total.min(60)
}

/// Compute the features of both sides.
pub fn features<P: Pieces>(b: &P, rule: EnteringKingRule) -> [Features; 2] {
    let maps = [attack_map(b, 0), attack_map(b, 1)];
    let mut out = [Features::default(); 2];
    for c in 0..2 {
        let them = 1 - c;
        let mut owned = 0;
        let mut decl = 0;
        let mut zone = 0;
        let mut hang_all = 0;
        let mut hang_zone = 0;
        for k in 0..KINDS {
            if k == KING {
                continue;
            }
            let set = b.set(c, k);
            let p = points(k);
            owned += p * set.count_ones() as i32;
            let in_camp = set & CAMP[c];
            zone += in_camp.count_ones() as i32;
            decl += p * in_camp.count_ones() as i32;
            let hanging = set & maps[them] & !maps[c];
            hang_all += hanging.count_ones() as i32;
            hang_zone += (hanging & CAMP[c]).count_ones() as i32;
        }
        let hand_pts: i32 = (0..7).map(|k| b.hand_count(c, k) * points(k)).sum();
        owned += hand_pts;
        decl += hand_pts;
        let hand = hand_total(b, c);
        let enemy_no_king = b.color_set(them) & !b.set(them, KING);
        let threat = (enemy_no_king & maps[c] & !maps[them]).count_ones() as i32;
        let safe_drop = if hand > 0 {
            ((CAMP[c] & !b.occupancy() & !maps[them]).count_ones() as i32).min(10)
        } else {
            0
        };
        let target = point_target(rule, c);
        let moves = moves_needed(b, c, owned, decl, zone, target);
        out[c] = Features {
            owned,
            decl,
            zone,
            hand,
            king_in: b.king_of(c).is_some_and(|k| CAMP[c] & (1u128 << k) != 0),
            hang_all,
            hang_zone,
            safe_drop,
            threat,
            moves,
            danger: king_danger(b, c, maps[them]),
        };
    }
    out
}

/// Index of the king-danger weight in [`NAMES`].
const DANGER: usize = 13;

/// The danger to `c`'s king ([`Features::danger`]), given the squares the opponent
/// attacks.
pub fn king_danger<P: Pieces>(b: &P, c: usize, enemy_map: SquareSet) -> i32 {
    let Some(k) = b.king_of(c) else {
        return 0;
    };
    let ring = piece_attacks(c, KING, k, 0) & enemy_map;
    let mut d = ring.count_ones() as i32;
    if hand_total(b, 1 - c) > 0 {
        d += (ring & !b.occupancy()).count_ones() as i32;
    }
    d
}

/// Value of one side, the king-danger term left out.
fn value(w: &Weights, f: &Features, target: i32) -> i32 {
    let v = f.vector(target);
    v.iter().zip(w.fixed).take(DANGER).map(|(x, w)| x * w).sum()
}

/// The 24-point evaluation from the side to move's point of view, without the
/// king-danger term (symmetric in the two sides).
pub fn evaluate<P: Pieces>(b: &P, w: &Weights, rule: EnteringKingRule) -> i32 {
    evaluate_for(b, w, rule, None)
}

/// The 24-point evaluation from the side to move's point of view, with the danger to the
/// king of `own` (the side the engine plays, if given) weighed by `king_danger`: the
/// engine guards its own king but is not drawn into attacking the other (a symmetric
/// term made it chase the enemy king and lose its own more often).
pub fn evaluate_for<P: Pieces>(
    b: &P,
    w: &Weights,
    rule: EnteringKingRule,
    own: Option<usize>,
) -> i32 {
    let f = features(b, rule);
    let us = b.to_move();
    let them = 1 - us;
    let mut s =
        value(w, &f[us], point_target(rule, us)) - value(w, &f[them], point_target(rule, them));
    if let Some(o) = own {
        let d = f[o].danger * w.fixed[DANGER];
        s += if o == us { d } else { -d };
    }
    s / SCALE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_text_round_trip() {
        let mut w = DEFAULT_WEIGHTS;
        w[3] = 31.25;
        let w = Weights::new(w);
        let text = w.to_text("tuned\nby a test");
        assert!(text.starts_with("# tuned\n# by a test\n"));
        assert_eq!(Weights::parse(&text).unwrap(), w);
    }

    #[test]
    fn weights_parse_errors_name_the_line() {
        assert_eq!(
            Weights::parse("own 1\nbogus 2\n"),
            Err(WeightsError::UnknownName {
                line: 2,
                name: "bogus".into()
            })
        );
        assert_eq!(
            Weights::parse("own x"),
            Err(WeightsError::BadNumber {
                line: 1,
                value: "x".into()
            })
        );
        assert_eq!(
            Weights::parse("own 1 2"),
            Err(WeightsError::Syntax { line: 1 })
        );
        assert_eq!(
            Weights::parse("own NaN"),
            Err(WeightsError::BadNumber {
                line: 1,
                value: "NaN".into()
            })
        );
        // Missing names keep their defaults.
        let w = Weights::parse("# nothing\n\nown 7 # comment\n").unwrap();
        assert_eq!(w.values[0], 7.0);
        assert_eq!(w.values[1..], DEFAULT_WEIGHTS[1..]);
    }

    #[test]
    fn default_signs_match() {
        for (w, s) in DEFAULT_WEIGHTS.iter().zip(SIGNS) {
            assert!(w * s > 0.0);
        }
    }

    #[test]
    fn feature_vector_caps() {
        let f = Features {
            owned: 40,
            decl: 35,
            zone: 13,
            hand: 5,
            king_in: true,
            ..Default::default()
        };
        let v = f.vector(31);
        assert_eq!(&v[..7], &[31, 9, 31, 10, 0, 3, 1]);
        let g = Features {
            zone: 4,
            hand: 3,
            ..Default::default()
        };
        assert_eq!(g.vector(31)[4], 3);
    }

    #[test]
    fn moves_ok_counts_only_once_the_points_are_owned() {
        let f = Features {
            owned: 31,
            moves: 7,
            ..Default::default()
        };
        assert_eq!(f.vector(31)[12], 7);
        let g = Features { owned: 30, ..f };
        assert_eq!(g.vector(31)[12], 0);
        assert_eq!(g.vector(31)[11], 7);
    }
}
