//! `learn king-fit`: the king-relative piece evaluation
//! ([`crate::engine::eval::king_piece`]) fitted to labelled positions, as a correction of
//! a base evaluation (the search's default one, or none).
//!
//! Each labelled position is taken to its quiet leaf ([`super::fit::quiet_leaf`]; the
//! sign turns when the leaf's side to move is the other side). The model's value there is
//! the base plus the king-piece sum, where every entry is learned as the sum of three
//! parameters: the full entry (king square x item x table), the item's own value
//! (regardless of the king) and, for a board piece, its value by its offset from the king
//! (kind x owner x offset, per table). The factors learn from every position; the full
//! entries only where the data reaches them, pulled towards zero by their own L2. The
//! written file holds the folded tables (quantized to 16 bits).
//!
//! The progress estimate is fitted first, by least squares, to the share of its game each
//! position stands at (the games of the data, positions from entering-king starts left
//! out); the stage blend then stays fixed.
//!
//! The loss is Bonanza's and elmo's: the target mixes the teacher's win probability and
//! the game's result (`lambda`), the prediction is `sigmoid(value / K)`, their
//! cross-entropy is minimized by Adam over mini-batches (only the parameters a batch
//! touches are stepped). After every epoch the agreement with the teacher on the held-out
//! games is printed: Pearson's r and the mean absolute difference between the model's
//! value and the teacher's score, besides the losses.
use rayon::prelude::*;

use super::fit::{is_validation, quiet_leaf};
use super::record::{self, POSITION_BYTES, Record, Source};
use crate::engine::eval::king_piece::{
    self, BOARD_ITEMS, ITEMS, KingPieceWeights, N_PAIR_WEIGHTS, N_SQUARE_PAIR_WEIGHTS, N_WEIGHTS,
    PROGRESS_MAX, PROGRESS_TERMS, PairTable, Progress, ROLES, STAGES, WEIGHT_SCALE, blend, items,
    offset_entry_of_square_entry, pair_terms, progress_counts,
};
use crate::engine::eval::linear::{
    self as lin, LinearWeights, N_FEATURES as LIN_FEATURES, STAGES as LIN_STAGES,
};
use crate::shogi::Position;
use crate::shogi::sets::{KINDS, Pieces, col_of, row_of};

/// What the king-piece sum corrects.
#[derive(Debug, Clone, PartialEq)]
pub enum KingBase {
    /// The search's default evaluation (the hand-made one with the compiled-in linear
    /// correction): the fitted file is used with it (`KingPieceWeights`).
    Default,
    /// The hand-made evaluation with another linear correction (`LinearWeights`): for a
    /// king-piece term fitted on top of a refitted correction.
    Linear(std::sync::Arc<crate::engine::eval::linear::LinearWeights>),
    /// The hand-made evaluation, with a linear correction fitted together with the
    /// term (`learn king-fit --joint`): the correction's weights are parameters of the
    /// fit, starting from these ([`start_params`]), and written as a new correction
    /// ([`linear_of`]).
    Joint(std::sync::Arc<crate::engine::eval::linear::LinearWeights>),
    /// Nothing: the model stands alone (used by the tests on synthetic models).
    Zero,
}

/// One training position at its quiet leaf.
#[derive(Debug, Clone)]
pub struct KingSample {
    /// The leaf, packed ([`record::pack`]).
    pub leaf: [u8; POSITION_BYTES],
    /// +1, or -1 when the leaf's side to move is the other side.
    pub turn: i8,
    /// The base evaluation at the leaf, for the root's side to move.
    pub base: f32,
    /// Teacher's score for the root's side to move.
    pub teacher: f32,
    /// Whether the teacher scored it.
    pub has_teacher: bool,
    /// Game result for the root's side to move (0, 0.5, 1).
    pub result: f32,
    /// Held out.
    pub validation: bool,
}

impl KingSample {
    /// The sample of a position with its labels.
    pub fn new(
        pos: &Position,
        base: &KingBase,
        teacher: Option<f32>,
        result: f32,
        validation: bool,
    ) -> KingSample {
        let (leaf, flipped) = quiet_leaf(pos);
        let turn: i8 = if flipped { -1 } else { 1 };
        let b = match base {
            KingBase::Default => crate::engine::eval::linear::evaluate_total(
                &leaf,
                &crate::engine::eval::linear::builtin(),
            ) as f32,
            KingBase::Linear(w) => crate::engine::eval::linear::evaluate_total(&leaf, w) as f32,
            KingBase::Joint(_) => crate::engine::eval::evaluate(&leaf) as f32,
            KingBase::Zero => 0.0,
        };
        KingSample {
            leaf: record::pack(&leaf),
            turn,
            base: b * turn as f32,
            teacher: teacher.unwrap_or(0.0),
            has_teacher: teacher.is_some(),
            result,
            validation,
        }
    }

    /// The sample of a label record (`None` if its position does not decode).
    pub fn of_record(r: &Record, base: &KingBase, validation: bool) -> Option<KingSample> {
        let pos = r.position().ok()?;
        Some(KingSample::new(
            &pos,
            base,
            r.source.has_teacher().then_some(r.score as f32),
            r.outcome.value() as f32,
            validation,
        ))
    }

    fn leaf(&self) -> Position {
        record::unpack(&self.leaf).expect("a packed leaf decodes")
    }
}

/// Parameters of the fit: the full tables, then the item factor, then the offset factor.
const P_FULL: usize = 0;
const P_ITEM: usize = P_FULL + N_WEIGHTS;
const REL: usize = 17 * 17;
const P_REL: usize = P_ITEM + ITEMS * STAGES;
/// The pair table by offset ([`king_piece::pair_terms`]), learned as it is written, or
/// as the factor of the table by square.
const P_PAIR: usize = P_REL + ROLES * 2 * KINDS * REL * STAGES;
/// The pair table by square ([`PairTable::Square`]): each entry adds to the entry by
/// offset it refines (learned only when the fit writes that table).
const P_SQUARE: usize = P_PAIR + N_PAIR_WEIGHTS;
/// The linear correction's weights in a joint fit ([`KingBase::Joint`]): its opening
/// weights, then its endgame weights, as [`LinearWeights::values`] holds them.
const P_LIN: usize = P_SQUARE + N_SQUARE_PAIR_WEIGHTS;
/// Parameters in all.
pub const N_PARAMS: usize = P_LIN + LIN_STAGES * LIN_FEATURES;
/// The `role` of a pair term.
const PAIR_ROLE: u8 = ROLES as u8;
/// The `role` of a term of the linear correction (joint fit).
const LIN_ROLE: u8 = ROLES as u8 + 1;

/// One term of a sample's value: table `role`, king square `king` (turned), `item`,
/// counted `sign` (+1 for the leaf's side to move, -1 for the other); or, with `role`
/// [`PAIR_ROLE`], the pair table's entry `pair` by square (and so the entry by offset it
/// refines); or, with `role` [`LIN_ROLE`], the linear
/// correction's feature `pair`.
#[derive(Debug, Clone, Copy)]
struct Term {
    role: u8,
    king: u8,
    sign: i8,
    item: u16,
    pair: u32,
}

/// The stage blends of a position (fractions summing to 1): the king-piece term's three
/// stages, and the linear correction's two.
#[derive(Debug, Clone, Copy)]
struct Blend {
    kp: [f32; STAGES],
    lin: [f32; LIN_STAGES],
}

/// The terms of a position and its stage blends; with `joint`, the linear correction's
/// features too.
fn terms(pos: &Position, progress: &Progress, joint: bool) -> (Vec<Term>, Blend) {
    let us = pos.to_move();
    let mut out = Vec::with_capacity(if joint { 500 } else { 200 });
    for c in 0..2 {
        let sign: i8 = if c == us { 1 } else { -1 };
        let its = items(pos, c);
        for role in 0..ROLES {
            let owner = if role == 0 { c } else { 1 - c };
            let Some(k) = pos.king_of(owner) else {
                continue;
            };
            let k = king_piece::turn(c, k);
            for &item in &its {
                out.push(Term {
                    role: role as u8,
                    king: k as u8,
                    sign,
                    item: item as u16,
                    pair: 0,
                });
            }
            pair_terms(pos, c, role, PairTable::Square, |i| {
                out.push(Term {
                    role: PAIR_ROLE,
                    king: 0,
                    sign,
                    item: 0,
                    pair: i as u32,
                })
            });
        }
    }
    let b = blend(progress.of(pos));
    let kp = b.map(|x| x as f32 / PROGRESS_MAX as f32);
    let mut lin = [1.0, 0.0];
    if joint {
        let (features, p) = lin::features_reference(pos);
        let e = p as f32 / lin::PROGRESS_MAX as f32;
        lin = [1.0 - e, e];
        out.extend(features.into_iter().map(|(f, s)| Term {
            role: LIN_ROLE,
            king: 0,
            sign: s as i8,
            item: 0,
            pair: f as u32,
        }));
    }
    (out, Blend { kp, lin })
}

/// Each parameter of term `t` with the share of it the value takes.
#[inline]
fn weighted_params(t: &Term, bl: &Blend, mut f: impl FnMut(usize, f32)) {
    if t.role == LIN_ROLE {
        for (st, b) in bl.lin.iter().enumerate() {
            f(P_LIN + st * LIN_FEATURES + t.pair as usize, *b);
        }
        return;
    }
    for p in params(t).into_iter().flatten() {
        for (st, b) in bl.kp.iter().enumerate() {
            f(p + st, *b);
        }
    }
}

/// The parameters a fit starts from: zero, or the tables of `from` (a fitted file, its
/// entries as the full entries, the factors zero: the same values; its pair table only
/// with `pairs`, as a fit without pairs writes none: a table by offset as the entries by
/// offset, one by square as the entries by square); a joint fit's linear correction
/// starts from the weights given.
pub fn start_params(base: &KingBase, from: Option<&KingPieceWeights>, pairs: bool) -> Vec<f32> {
    let mut w = vec![0f32; N_PARAMS];
    if let KingBase::Joint(l) = base {
        w[P_LIN..].copy_from_slice(&l.values);
    }
    if let Some(k) = from {
        let unq = |x: i16| x as f32 / WEIGHT_SCALE as f32;
        for (p, &x) in w[P_FULL..P_FULL + N_WEIGHTS].iter_mut().zip(&k.w) {
            *p = unq(x);
        }
        let at = match k.pair_table() {
            PairTable::Square => P_SQUARE,
            _ => P_PAIR,
        };
        if pairs {
            for (p, &x) in w[at..at + k.pairs.len()].iter_mut().zip(&k.pairs) {
                *p = unq(x);
            }
        }
    }
    w
}

/// The linear correction of a joint fit's parameters (a correction of the hand-made
/// evaluation, for `LinearWeights`).
pub fn linear_of(w: &[f32]) -> LinearWeights {
    LinearWeights::from_values(w[P_LIN..].to_vec()).with_residual(true)
}

/// The parameters of a term (before the stage): full entry, item factor, offset factor;
/// for a pair, its entries by offset and by square.
#[inline]
fn params(t: &Term) -> [Option<usize>; 3] {
    if t.role == PAIR_ROLE {
        let sq = t.pair as usize;
        return [
            Some(P_PAIR + offset_entry_of_square_entry(sq) * STAGES),
            Some(P_SQUARE + sq * STAGES),
            None,
        ];
    }
    let (role, king, item) = (t.role as usize, t.king as usize, t.item as usize);
    let full = P_FULL + ((role * 81 + king) * ITEMS + item) * STAGES;
    let own = P_ITEM + item * STAGES;
    let rel = (item < BOARD_ITEMS).then(|| {
        let kind_owner = item / 81;
        let sq = item % 81;
        let dr = row_of(sq) as i32 - row_of(king) as i32 + 8;
        let dc = col_of(sq) as i32 - col_of(king) as i32 + 8;
        P_REL + ((role * 2 * KINDS + kind_owner) * REL + (dr * 17 + dc) as usize) * STAGES
    });
    // The item factor is shared by both tables: counted once, with the own-king table.
    [Some(full), (role == 0).then_some(own), rel]
}

/// The model's value of a sample (root's side to move, centipawns) with parameters `w`;
/// with `joint`, the linear correction's features count too.
fn value_of(
    s: &KingSample,
    w: &[f32],
    progress: &Progress,
    joint: bool,
) -> (f64, Vec<Term>, Blend) {
    let leaf = s.leaf();
    let (ts, bl) = terms(&leaf, progress, joint);
    let mut v = 0f64;
    for t in &ts {
        weighted_params(t, &bl, |p, b| v += (t.sign as f32 * b * w[p]) as f64);
    }
    (s.base as f64 + v * s.turn as f64, ts, bl)
}

/// The model's value of a sample (root's side to move, centipawns) with parameters `w`
/// (`joint`: with the linear correction's parameters).
pub fn sample_value(s: &KingSample, w: &[f32], progress: &Progress, joint: bool) -> f64 {
    value_of(s, w, progress, joint).0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(t: f64, q: f64) -> f64 {
    let q = q.clamp(1e-12, 1.0 - 1e-12);
    -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
}

/// Settings of the fit.
#[derive(Debug, Clone)]
pub struct KingFitSettings {
    /// Weight of the teacher in the target.
    pub lambda: f64,
    /// Scale of the teacher's sigmoid.
    pub scale: f64,
    /// Scale of the model's sigmoid.
    pub model_scale: f64,
    /// Passes over the training samples.
    pub epochs: u32,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size (in centipawns).
    pub lr: f64,
    /// The full entries' step as a share of `lr` (the factors take `lr`): the factors
    /// learn the broad values first, the full entries refine them where data is thick.
    pub full_rate: f64,
    /// L2 pull of the full entries towards zero.
    pub l2_full: f64,
    /// The pair entries by square's step as a share of `lr` (they start from zero, as
    /// refinements of the entries by offset; their L2 is the full entries').
    pub square_rate: f64,
    /// L2 pull of the factors towards zero.
    pub l2_factor: f64,
    /// Seed of the shuffles.
    pub seed: u64,
    /// The pair table learned and written: none (it stays zero and the file has none),
    /// by offset, or by square (the entries by offset as its factor).
    pub pairs: PairTable,
    /// Learn the linear correction's weights with the term ([`KingBase::Joint`]; the
    /// samples' base is then the hand-made evaluation).
    pub joint: bool,
}

/// One epoch's figures.
#[derive(Debug, Clone, Copy)]
pub struct KingEpoch {
    /// Mean training loss.
    pub train_loss: f64,
    /// Mean validation loss.
    pub validation_loss: f64,
    /// Pearson's r between the model's value and the teacher's score on the held-out
    /// samples with a teacher.
    pub r: f64,
    /// Their mean absolute difference (centipawns, teacher's scale).
    pub mae: f64,
}

fn target(s: &KingSample, set: &KingFitSettings) -> f64 {
    if s.has_teacher {
        set.lambda * sigmoid(s.teacher as f64 / set.scale) + (1.0 - set.lambda) * s.result as f64
    } else {
        s.result as f64
    }
}

/// Pearson's r and the mean absolute difference of pairs (`None` under 2 pairs or
/// without spread).
pub fn agreement(pairs: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = pairs.len() as f64;
    if pairs.len() < 2 {
        return None;
    }
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy, mut mae) = (0.0, 0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
        mae += (x - y).abs() / n;
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt(), mae))
}

/// Teacher scores at or beyond this size are mate scores or near them: left out of the
/// agreement figures.
pub const AGREEMENT_CAP: f32 = 3000.0;

/// The losses and the teacher agreement of parameters `w`.
pub fn evaluate_fit(
    samples: &[KingSample],
    w: &[f32],
    progress: &Progress,
    set: &KingFitSettings,
) -> KingEpoch {
    type Row = (bool, f64, Option<(f64, f64)>);
    let per: Vec<Row> = samples
        .par_iter()
        .map(|s| {
            let (v, _, _) = value_of(s, w, progress, set.joint);
            let loss = cross_entropy(target(s, set), sigmoid(v / set.model_scale));
            let pair = (s.validation && s.has_teacher && s.teacher.abs() < AGREEMENT_CAP)
                .then_some((v, s.teacher as f64));
            (s.validation, loss, pair)
        })
        .collect();
    let mean = |val: bool| {
        let v: Vec<f64> = per.iter().filter(|p| p.0 == val).map(|p| p.1).collect();
        if v.is_empty() {
            f64::NAN
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let pairs: Vec<(f64, f64)> = per.iter().filter_map(|p| p.2).collect();
    let (r, mae) = agreement(&pairs).unwrap_or((f64::NAN, f64::NAN));
    KingEpoch {
        train_loss: mean(false),
        validation_loss: mean(true),
        r,
        mae,
    }
}

/// The bands of the teacher's |score| (centipawns) in which [`agreement_by_band`]
/// measures the agreement apart: the balanced positions where the game is decided by
/// judgement, the clear advantages, the won ones short of mate.
pub const AGREEMENT_BANDS: [(f32, f32); 3] =
    [(0.0, 300.0), (300.0, 1000.0), (1000.0, AGREEMENT_CAP)];

/// The teacher agreement of parameters `w` on the held-out positions, apart for each
/// band of [`AGREEMENT_BANDS`]: `(low, high, positions, r, mean absolute difference)`
/// (r and the difference NaN where fewer than two positions or no spread).
pub fn agreement_by_band(
    samples: &[KingSample],
    w: &[f32],
    progress: &Progress,
    set: &KingFitSettings,
) -> Vec<(f32, f32, usize, f64, f64)> {
    let pairs: Vec<(f64, f64)> = samples
        .par_iter()
        .filter(|s| s.validation && s.has_teacher && s.teacher.abs() < AGREEMENT_CAP)
        .map(|s| (value_of(s, w, progress, set.joint).0, s.teacher as f64))
        .collect();
    AGREEMENT_BANDS
        .iter()
        .map(|&(lo, hi)| {
            let band: Vec<(f64, f64)> = pairs
                .iter()
                .copied()
                .filter(|&(_, t)| t.abs() >= lo as f64 && t.abs() < hi as f64)
                .collect();
            let (r, mae) = agreement(&band).unwrap_or((f64::NAN, f64::NAN));
            (lo, hi, band.len(), r, mae)
        })
        .collect()
}

/// The progress estimate fitted by least squares to `phase` (0..=1, the share of the game
/// played) over `positions`; the default where the system is singular.
pub fn fit_progress(points: &[([i32; PROGRESS_TERMS], f64)]) -> Progress {
    const N: usize = PROGRESS_TERMS + 1;
    let mut a = [[0f64; N + 1]; N];
    for (t, y) in points {
        let x: [f64; N] = std::array::from_fn(|i| if i == 0 { 1.0 } else { t[i - 1] as f64 });
        for i in 0..N {
            for j in 0..N {
                a[i][j] += x[i] * x[j];
            }
            a[i][N] += x[i] * y * PROGRESS_MAX as f64;
        }
    }
    // Gaussian elimination with partial pivoting on the 5 x 5 normal equations.
    for col in 0..N {
        let piv = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        if a[piv][col].abs() < 1e-9 {
            return Progress::DEFAULT;
        }
        a.swap(col, piv);
        for r in 0..N {
            if r != col {
                let f = a[r][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[r].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let x: [f64; N] = std::array::from_fn(|i| a[i][N] / a[i][i]);
    Progress {
        bias: x[0] as f32,
        coef: std::array::from_fn(|i| x[i + 1] as f32),
    }
}

/// The points of the progress fit from label records: each record's position counts
/// against `ply / plies of its game`, games from the start only (self-play and versus).
pub fn progress_points(records: &[Record]) -> Vec<([i32; PROGRESS_TERMS], f64)> {
    let mut length = std::collections::HashMap::new();
    for r in records {
        let e = length.entry(r.unit).or_insert(0u32);
        *e = (*e).max(r.ply as u32 + 1);
    }
    records
        .par_iter()
        .filter(|r| matches!(r.source, Source::SelfPlay | Source::Versus))
        .filter_map(|r| {
            let pos = r.position().ok()?;
            let len = *length.get(&r.unit)? as f64;
            Some((progress_counts(&pos), r.ply as f64 / len.max(1.0)))
        })
        .collect()
}

/// Fit from parameters `start` ([`start_params`]): returns the parameters of the best
/// validation epoch (by validation loss, the start counting as epoch 0; or the last epoch
/// without a validation split) and every epoch's figures; `on_epoch` is called after each.
pub fn fit(
    samples: &[KingSample],
    progress: &Progress,
    set: &KingFitSettings,
    start: Vec<f32>,
    on_epoch: &mut dyn FnMut(u32, &KingEpoch),
) -> (Vec<f32>, Vec<KingEpoch>) {
    let mut adam = SparseAdam::new(start);
    let mut order: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].validation)
        .collect();
    let mut rng = crate::rng::XorShift64Star::new(set.seed);
    // The start is a candidate too: a fit that only loses on the held-out games (from
    // weights already fitted) gives them back unchanged.
    let e = evaluate_fit(samples, &adam.w, progress, set);
    let mut best: Option<(f64, Vec<f32>)> =
        (!e.validation_loss.is_nan()).then(|| (e.validation_loss, adam.w.clone()));
    let mut epochs = Vec::new();
    for epoch in 1..=set.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        // The step falls linearly from `lr` in the first epoch to a tenth of it in the last.
        let decay = if set.epochs > 1 {
            1.0 - 0.9 * (epoch - 1) as f32 / (set.epochs - 1) as f32
        } else {
            1.0
        };
        for chunk in order.chunks(set.batch.max(1)) {
            let per: Vec<(f32, Vec<Term>, Blend, i8)> = chunk
                .par_iter()
                .map(|&i| {
                    let s = &samples[i];
                    let (v, mut ts, bl) = value_of(s, &adam.w, progress, set.joint);
                    if set.pairs.is_empty() {
                        ts.retain(|t| t.role != PAIR_ROLE);
                    }
                    let q = sigmoid(v / set.model_scale);
                    let dv = (q - target(s, set)) / set.model_scale;
                    (dv as f32, ts, bl, s.turn)
                })
                .collect();
            let inv = 1.0 / chunk.len() as f32;
            for (dv, ts, bl, turn) in &per {
                adam.accumulate(ts, bl, dv * *turn as f32 * inv);
            }
            adam.apply(set, set.lr as f32 * decay);
        }
        let e = evaluate_fit(samples, &adam.w, progress, set);
        on_epoch(epoch, &e);
        let key = if e.validation_loss.is_nan() {
            -(epoch as f64)
        } else {
            e.validation_loss
        };
        if best.as_ref().is_none_or(|(b, _)| key < *b) {
            best = Some((key, adam.w.clone()));
        }
        epochs.push(e);
    }
    (best.map(|b| b.1).unwrap_or(adam.w), epochs)
}

/// Adam over the parameters a batch touched only (the others keep their moments).
struct SparseAdam {
    w: Vec<f32>,
    m: Vec<f32>,
    v2: Vec<f32>,
    grad: Vec<f32>,
    touched: Vec<u32>,
    mark: Vec<bool>,
    step: i32,
}

impl SparseAdam {
    fn new(start: Vec<f32>) -> SparseAdam {
        assert_eq!(start.len(), N_PARAMS);
        SparseAdam {
            w: start,
            m: vec![0f32; N_PARAMS],
            v2: vec![0f32; N_PARAMS],
            grad: vec![0f32; N_PARAMS],
            touched: Vec::new(),
            mark: vec![false; N_PARAMS],
            step: 0,
        }
    }

    /// Add one sample's gradient `g` (already signed by the side to move) through its
    /// terms, each stage weighted by its blend.
    fn accumulate(&mut self, terms: &[Term], blend: &Blend, g: f32) {
        for t in terms {
            let gs = g * t.sign as f32;
            weighted_params(t, blend, |k, b| {
                if !self.mark[k] {
                    self.mark[k] = true;
                    self.touched.push(k as u32);
                }
                self.grad[k] += gs * b;
            });
        }
    }

    /// One Adam step at rate `lr` on the touched parameters (full entries at their own
    /// rate and L2, the factors at theirs, the linear correction's at the factors' rate
    /// without L2: it starts from a fitted correction, not from zero; its tempo stays),
    /// then forget the batch.
    fn apply(&mut self, set: &KingFitSettings, lr: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.step += 1;
        let c1 = 1.0 - b1.powi(self.step);
        let c2 = 1.0 - b2.powi(self.step);
        for &k in &self.touched {
            let k = k as usize;
            let (l2, rate) = if k < P_ITEM {
                (set.l2_full as f32, set.full_rate as f32)
            } else if (P_SQUARE..P_LIN).contains(&k) {
                // The entries by square are full entries of the pair table: learned at
                // their rate and L2, and only for a table by square.
                if set.pairs == PairTable::Square {
                    (set.l2_full as f32, set.square_rate as f32)
                } else {
                    (0.0, 0.0)
                }
            } else if k == P_LIN + lin::OFF_TEMPO || k == P_LIN + LIN_FEATURES + lin::OFF_TEMPO {
                // The correction's tempo stays where it starts: a side-to-move term that
                // drifts skews every comparison of values a ply apart (stand pats, null
                // moves, futility margins), and its size is checked on symmetric
                // positions.
                (0.0, 0.0)
            } else if k >= P_LIN {
                (0.0, 1.0)
            } else {
                (set.l2_factor as f32, 1.0)
            };
            let g = self.grad[k] + l2 * self.w[k];
            self.m[k] = b1 * self.m[k] + (1.0 - b1) * g;
            self.v2[k] = b2 * self.v2[k] + (1.0 - b2) * g * g;
            self.w[k] -= rate * lr * (self.m[k] / c1) / ((self.v2[k] / c2).sqrt() + eps);
            self.grad[k] = 0.0;
            self.mark[k] = false;
        }
        self.touched.clear();
    }
}

/// The tables of fitted parameters, folded and quantized (the pair table `pairs`: by
/// square, each entry is its own parameter plus the entry by offset it refines).
pub fn fold(w: &[f32], progress: Progress, comment: String, pairs: PairTable) -> KingPieceWeights {
    let mut out = KingPieceWeights::zero();
    out.progress = progress;
    out.comment = comment;
    let quantize = |x: f32| (x * WEIGHT_SCALE as f32).round().clamp(-32767.0, 32767.0) as i16;
    match pairs {
        PairTable::None => {}
        PairTable::Offset => {
            out.pairs = w[P_PAIR..P_PAIR + N_PAIR_WEIGHTS]
                .iter()
                .map(|&x| quantize(x))
                .collect();
        }
        PairTable::Square => {
            out.pairs = (0..N_SQUARE_PAIR_WEIGHTS)
                .map(|i| {
                    let (e, st) = (i / STAGES, i % STAGES);
                    let coarse = P_PAIR + offset_entry_of_square_entry(e) * STAGES + st;
                    quantize(w[P_SQUARE + i] + w[coarse])
                })
                .collect();
        }
    }
    for role in 0..ROLES {
        for king in 0..81 {
            for item in 0..ITEMS {
                let t = Term {
                    role: role as u8,
                    king: king as u8,
                    sign: 1,
                    item: item as u16,
                    pair: 0,
                };
                let base = ((role * 81 + king) * ITEMS + item) * STAGES;
                for st in 0..STAGES {
                    let sum: f32 = params(&t).into_iter().flatten().map(|p| w[p + st]).sum();
                    out.w[base + st] = quantize(sum);
                }
            }
        }
    }
    out
}

/// The scale `K` (50 to 3,000, steps of 10) whose `sigmoid(score / K)` best predicts the
/// results of the training samples (cross-entropy); `None` without samples. `score` gives
/// a sample's score, or `None` to leave it out.
pub fn calibrate(
    samples: &[KingSample],
    score: impl Fn(&KingSample) -> Option<f64>,
) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| !s.validation)
        .filter_map(|s| score(s).map(|x| (x, s.result as f64)))
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let mut best = (f64::INFINITY, 600.0);
    let mut k = 50.0;
    while k <= 3000.0 {
        let loss: f64 = pairs
            .iter()
            .map(|(x, r)| cross_entropy(*r, sigmoid(x / k)))
            .sum();
        if loss < best.0 {
            best = (loss, k);
        }
        k += 10.0;
    }
    Some(best.1)
}

/// Samples of records, in parallel, split by unit; records that do not decode are
/// skipped (their count returned).
pub fn samples_of(
    records: &[Record],
    base: &KingBase,
    seed: u64,
    val_percent: u32,
) -> (Vec<KingSample>, usize) {
    let v: Vec<Option<KingSample>> = records
        .par_iter()
        .map(|r| KingSample::of_record(r, base, is_validation(r.unit, seed, val_percent)))
        .collect();
    let bad = v.iter().filter(|s| s.is_none()).count();
    (v.into_iter().flatten().collect(), bad)
}

/// The calibration of the model's win probability against the results on the held-out
/// samples: per tenth of probability, (samples, mean predicted, mean result).
pub fn calibration(
    samples: &[KingSample],
    w: &[f32],
    progress: &Progress,
    set: &KingFitSettings,
) -> Vec<(usize, f64, f64)> {
    let mut bins = vec![(0usize, 0f64, 0f64); 10];
    let per: Vec<(f64, f64)> = samples
        .par_iter()
        .filter(|s| s.validation)
        .map(|s| {
            let (v, _, _) = value_of(s, w, progress, set.joint);
            (sigmoid(v / set.model_scale), s.result as f64)
        })
        .collect();
    for (q, r) in per {
        let b = ((q * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += q;
        bins[b].2 += r;
    }
    bins.into_iter()
        .map(|(n, q, r)| {
            if n == 0 {
                (0, f64::NAN, f64::NAN)
            } else {
                (n, q / n as f64, r / n as f64)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::king_piece::Accumulator;

    fn settings() -> KingFitSettings {
        KingFitSettings {
            lambda: 1.0,
            scale: 1000.0,
            model_scale: 1000.0,
            epochs: 20,
            batch: 64,
            lr: 8.0,
            full_rate: 0.05,
            square_rate: 0.5,
            l2_full: 0.0,
            l2_factor: 0.0,
            seed: 7,
            pairs: PairTable::None,
            joint: false,
        }
    }

    /// Random quiet-ish positions from random play.
    fn positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = crate::rng::XorShift64Star::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = Position::startpos();
            let plies = 10 + (rng.next_u64() % (60)) as usize;
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[(rng.next_u64() % (moves.len() as u64)) as usize]);
            }
            out.push(p);
        }
        out
    }

    /// `n` random positions scored by `truth` at their quiet leaves (no base, every
    /// tenth held out).
    fn synthetic_samples(truth: &KingPieceWeights, n: usize, seed: u64) -> Vec<KingSample> {
        positions(n, seed)
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (leaf, flipped) = quiet_leaf(p);
                let t = king_piece::evaluate(&leaf, truth) * if flipped { -1 } else { 1 };
                KingSample::new(p, &KingBase::Zero, Some(t as f32), 0.5, i % 10 == 0)
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_synthetic_model_of_the_same_layout() {
        // The truth: an item value per piece kind and owner (factor), independent of
        // the king and the stage, as material is.
        let mut truth = KingPieceWeights::zero();
        let kind_value = [
            90, 300, 350, 500, 550, 800, 950, 0, 500, 500, 500, 500, 1000, 1150,
        ];
        for role in 0..1 {
            for king in 0..81 {
                for item in 0..ITEMS {
                    let v = if item < BOARD_ITEMS {
                        let ko = item / 81;
                        let (theirs, kind) = (ko / KINDS, ko % KINDS);
                        let v = kind_value[kind];
                        if theirs == 1 { -v } else { v }
                    } else {
                        let h = (item - BOARD_ITEMS) % 38;
                        let theirs = (item - BOARD_ITEMS) / 38;
                        let kind = king_piece::HAND_BASE.iter().rposition(|&b| b <= h).unwrap();
                        let v = kind_value[kind] + 50;
                        if theirs == 1 { -v } else { v }
                    };
                    for st in 0..STAGES {
                        truth.w[((role * 81 + king) * ITEMS + item) * STAGES + st] =
                            (v * WEIGHT_SCALE / 2) as i16;
                    }
                }
            }
        }
        let progress = Progress::DEFAULT;
        let samples = synthetic_samples(&truth, 8000, 3);
        let mut seen = Vec::new();
        let (w, epochs) = fit(
            &samples,
            &progress,
            &settings(),
            start_params(&KingBase::Zero, None, true),
            &mut |_, e| seen.push(*e),
        );
        assert_eq!(seen.len(), 20);
        let last = epochs.last().unwrap();
        assert!(last.r > 0.95, "held-out r {}", last.r);
        assert!(
            epochs[0].validation_loss > last.validation_loss,
            "{epochs:?}"
        );
        // The folded file evaluates as the parameters do, and close to the truth.
        let folded = fold(&w, progress, String::new(), PairTable::Offset);
        let mut pairs = Vec::new();
        for p in positions(300, 99) {
            let got = Accumulator::full(&p, &folded).value(&p, &folded);
            let want = king_piece::evaluate(&p, &truth);
            pairs.push((got as f64, want as f64));
        }
        let (r, mae) = agreement(&pairs).unwrap();
        assert!(r > 0.95 && mae < 200.0, "r {r} mae {mae}");
    }

    #[test]
    fn agreement_by_band_splits_the_held_out_positions_by_the_teachers_score() {
        // The base evaluation as the model (zero parameters), scored against a teacher
        // that agrees exactly in the balanced band and is noise elsewhere.
        let progress = Progress::DEFAULT;
        let mut samples: Vec<KingSample> = positions(600, 11)
            .iter()
            .enumerate()
            .map(|(i, p)| KingSample::new(p, &KingBase::Default, None, 0.5, i % 2 == 0))
            .collect();
        let mut rng = crate::rng::XorShift64Star::new(5);
        for (i, s) in samples.iter_mut().enumerate() {
            s.has_teacher = true;
            s.teacher = if i % 3 == 0 {
                (s.base as f64).clamp(-299.0, 299.0) as f32
            } else {
                let sign = if rng.next_u64().is_multiple_of(2) {
                    1.0
                } else {
                    -1.0
                };
                sign * (300.0 + (rng.next_u64() % 2_600) as f32)
            };
        }
        let set = settings();
        let w = start_params(&KingBase::Default, None, true);
        let bands = agreement_by_band(&samples, &w, &progress, &set);
        assert_eq!(bands.len(), AGREEMENT_BANDS.len());
        let held: Vec<&KingSample> = samples.iter().filter(|s| s.validation).collect();
        let total: usize = bands.iter().map(|b| b.2).sum();
        assert_eq!(total, held.len(), "every held-out position in one band");
        let balanced = held.iter().filter(|s| s.teacher.abs() < 300.0).count();
        assert_eq!(bands[0].2, balanced);
        // In the balanced band the teacher is the base (clamped): a near-perfect r where
        // the base itself is balanced; the other bands are noise.
        let exact: Vec<(f64, f64)> = held
            .iter()
            .filter(|s| s.teacher.abs() < 300.0)
            .map(|s| (value_of(s, &w, &progress, set.joint).0, s.teacher as f64))
            .collect();
        let (r, mae) = agreement(&exact).unwrap();
        assert_eq!((bands[0].3, bands[0].4), (r, mae));
        assert!(bands[0].3 > 0.5, "{bands:?}");
        assert!(
            bands[1].3.abs() < 0.5 && bands[2].3.abs() < 0.5,
            "{bands:?}"
        );
    }

    /// The model's value of `p` (its side to move) with parameters `w`, before folding.
    fn model_value(p: &Position, w: &[f32], progress: &Progress) -> f64 {
        let (ts, bl) = terms(p, progress, false);
        let mut v = 0f64;
        for t in &ts {
            weighted_params(t, &bl, |q, b| v += (t.sign as f32 * b * w[q]) as f64);
        }
        v
    }

    #[test]
    fn the_folded_file_evaluates_as_the_parameters_pairs_included() {
        // Random parameters, the pair table's among them: the engine's value of the
        // folded file (king-relative sums and pair sums) is the fit's, to the rounding.
        let mut rng = crate::rng::XorShift64Star::new(5);
        let w: Vec<f32> = (0..N_PARAMS)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 100.0)
            .collect();
        let progress = Progress::DEFAULT;
        // A fit of the table by offset leaves the entries by square at zero.
        let mut w_offset = w.clone();
        w_offset[P_SQUARE..P_LIN].fill(0.0);
        let folded = fold(&w_offset, progress, String::new(), PairTable::Offset);
        let no_pairs = fold(&w_offset, progress, String::new(), PairTable::None);
        let by_square = fold(&w, progress, String::new(), PairTable::Square);
        assert_eq!(folded.pairs.len(), N_PAIR_WEIGHTS);
        assert_eq!(by_square.pair_table(), PairTable::Square);
        assert!(no_pairs.pairs.is_empty());
        let mut differ = 0;
        let mut square_differ = 0;
        for p in positions(300, 11) {
            let want = model_value(&p, &w_offset, &progress);
            let got = king_piece::evaluate(&p, &folded) as f64;
            assert!(
                (got - want).abs() <= 3.0,
                "{got} against {want}: {}",
                p.to_sfen()
            );
            if (king_piece::evaluate(&p, &no_pairs) as f64 - want).abs() > 3.0 {
                differ += 1;
            }
            // By square: the entries by square and by offset both count.
            let want_sq = model_value(&p, &w, &progress);
            let got_sq = king_piece::evaluate(&p, &by_square) as f64;
            assert!(
                (got_sq - want_sq).abs() <= 3.0,
                "by square: {got_sq} against {want_sq}: {}",
                p.to_sfen()
            );
            if (want_sq - want).abs() > 3.0 {
                square_differ += 1;
            }
        }
        // The pairs count: without them the value is another.
        assert!(differ > 250, "{differ}");
        assert!(square_differ > 250, "{square_differ}");
    }

    /// A fit of 4,000 random positions scored by `truth` (sample seed `seed`), from zero,
    /// for `epochs`: the held-out r it reaches with each pair table. A fit that does not
    /// write the table by square leaves its entries at zero.
    fn pair_fitter(truth: &KingPieceWeights, seed: u64, epochs: u32) -> impl Fn(PairTable) -> f64 {
        let samples = synthetic_samples(truth, 4000, seed);
        let spread = samples.iter().filter(|s| s.teacher != 0.0).count();
        assert!(spread > 1000, "{spread}");
        move |pairs: PairTable| {
            let set = KingFitSettings {
                pairs,
                epochs,
                ..settings()
            };
            let (w, e) = fit(
                &samples,
                &Progress::DEFAULT,
                &set,
                vec![0.0; N_PARAMS],
                &mut |_, _| {},
            );
            if pairs != PairTable::Square {
                assert!(w[P_SQUARE..P_LIN].iter().all(|&x| x == 0.0));
            }
            e.last().unwrap().r
        }
    }

    #[test]
    fn the_fit_learns_a_pair_model() {
        // The truth: a pair of our gold and our silver in our king's zone is worth 300
        // side by side (the same row) and -300 otherwise, every stage; nothing else. An
        // interaction no table of single pieces holds: learned with the pair table, not
        // without it.
        let mut truth = KingPieceWeights::zero();
        truth.pairs = vec![0; N_PAIR_WEIGHTS];
        let (gold, silver) = (crate::shogi::sets::GOLD, crate::shogi::sets::SILVER);
        for d in 0..king_piece::PAIR_OFFSETS {
            let (a, b) = (gold.min(silver), gold.max(silver));
            let i = (a * king_piece::PAIR_KINDS + b) * king_piece::PAIR_OFFSETS + d;
            let v = if d / 9 == 4 { 300 } else { -300 };
            for st in 0..STAGES {
                truth.pairs[i * STAGES + st] = (v * WEIGHT_SCALE) as i16;
            }
        }
        let fitted = pair_fitter(&truth, 21, 8);
        let (with, without) = (fitted(PairTable::Offset), fitted(PairTable::None));
        assert!(with > 0.9, "with the pair table: held-out r {with}");
        assert!(with > without + 0.1, "with {with}, without {without}");
    }

    #[test]
    fn the_fit_learns_a_pair_model_by_square() {
        // The truth: our gold and our silver in our king's zone are worth 300 when one of
        // them (not both) stands in the row in front of the king, -300 otherwise, every
        // stage. Neither the single pieces' tables nor the table by offset can say where
        // the pair stands; the table by square can.
        let mut truth = KingPieceWeights::zero();
        truth.pairs = vec![0; N_SQUARE_PAIR_WEIGHTS];
        let (gold, silver) = (crate::shogi::sets::GOLD, crate::shogi::sets::SILVER);
        let (a, b) = (gold.min(silver), gold.max(silver));
        let zp = king_piece::ZONE_PIECES;
        let slots = king_piece::ZONE_SLOTS;
        for sa in 0..slots {
            for sb in 0..slots {
                let i = (a * slots + sa) * zp + b * slots + sb;
                let v = if (sa / 5 == 1) != (sb / 5 == 1) {
                    300
                } else {
                    -300
                };
                for st in 0..STAGES {
                    truth.pairs[i * STAGES + st] = (v * WEIGHT_SCALE) as i16;
                }
            }
        }
        let fitted = pair_fitter(&truth, 23, 12);
        let (square, offset) = (fitted(PairTable::Square), fitted(PairTable::Offset));
        assert!(
            square > 0.85,
            "with the table by square: held-out r {square}"
        );
        assert!(
            square > offset + 0.08,
            "by square {square}, by offset {offset}"
        );
    }

    /// Samples of `n` random positions scored by the hand-made evaluation with the
    /// compiled-in correction at their quiet leaves, on base `base`.
    fn default_scored_samples(base: &KingBase, n: usize, seed: u64) -> Vec<KingSample> {
        let truth = crate::engine::eval::linear::builtin();
        positions(n, seed)
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (leaf, flipped) = quiet_leaf(p);
                let t = lin::evaluate_total(&leaf, &truth) * if flipped { -1 } else { 1 };
                KingSample::new(p, base, Some(t as f32), 0.5, i % 10 == 0)
            })
            .collect()
    }

    #[test]
    fn a_joint_fit_starts_from_the_default_evaluation() {
        // The hand-made evaluation as the base and the compiled-in correction as the
        // starting parameters value every position as the default evaluation does.
        let progress = Progress::DEFAULT;
        let builtin = crate::engine::eval::linear::builtin();
        let joint = KingBase::Joint(builtin.clone());
        let start = start_params(&joint, None, true);
        let mut worst = 0f64;
        let mut moved = 0;
        for p in positions(200, 17) {
            let a = KingSample::new(&p, &joint, None, 0.5, false);
            let b = KingSample::new(&p, &KingBase::Default, None, 0.5, false);
            let (va, _, _) = value_of(&a, &start, &progress, true);
            let (vb, _, _) = value_of(&b, &vec![0.0; N_PARAMS], &progress, false);
            worst = worst.max((va - vb).abs());
            if (a.base - b.base).abs() > 5.0 {
                moved += 1;
            }
        }
        assert!(worst <= 3.0, "worst difference {worst}");
        // The base alone is another value: the correction is in the parameters.
        assert!(moved > 150, "{moved}");
        // And the written correction is the starting one.
        assert_eq!(linear_of(&start).values, builtin.values);
    }

    #[test]
    fn a_joint_fit_learns_the_linear_correction() {
        // The teacher is the hand-made evaluation with the compiled-in correction; the
        // joint fit starts from no correction at all and learns it, with the term.
        let progress = Progress::DEFAULT;
        let zero = std::sync::Arc::new(LinearWeights::zero_residual());
        let base = KingBase::Joint(zero);
        let samples = default_scored_samples(&base, 3000, 23);
        let set = KingFitSettings {
            joint: true,
            epochs: 8,
            lr: 4.0,
            ..settings()
        };
        let start = start_params(&base, None, true);
        let e0 = evaluate_fit(&samples, &start, &progress, &set);
        let (w, epochs) = fit(&samples, &progress, &set, start.clone(), &mut |_, _| {});
        let last = epochs.last().unwrap();
        assert!(
            last.r > 0.95 && last.r > e0.r + 0.02,
            "held-out r {} from {}",
            last.r,
            e0.r
        );
        // Without the linear features (the term alone on the same base) it fits less.
        let alone = KingFitSettings {
            joint: false,
            ..set.clone()
        };
        let (_, epochs_alone) = fit(&samples, &progress, &alone, start, &mut |_, _| {});
        assert!(
            last.validation_loss < epochs_alone.last().unwrap().validation_loss,
            "joint {last:?}, term alone {:?}",
            epochs_alone.last()
        );
        // The written correction evaluates as the fit's linear parameters; its tempo is
        // the start's.
        let written = linear_of(&w);
        assert_eq!(written.values[lin::OFF_TEMPO], 0.0);
        assert_eq!(written.values[LIN_FEATURES + lin::OFF_TEMPO], 0.0);
        for p in positions(100, 29) {
            let (ts, bl) = terms(&p, &progress, true);
            let mut want = 0f64;
            for t in ts.iter().filter(|t| t.role == LIN_ROLE) {
                weighted_params(t, &bl, |q, b| want += (t.sign as f32 * b * w[q]) as f64);
            }
            let got = lin::evaluate(&p, &written) as f64;
            assert!((got - want).abs() <= 3.0, "{got} against {want}");
        }
    }

    #[test]
    fn a_fit_started_from_a_file_folds_back_to_it() {
        // A file's tables as the starting parameters fold back to the same file, pairs
        // included; without pairs the pair table stays empty.
        let mut rng = crate::rng::XorShift64Star::new(9);
        let mut k = KingPieceWeights::zero();
        for x in k.w.iter_mut() {
            *x = rng.below(4001) as i16 - 2000;
        }
        k.pairs = (0..N_PAIR_WEIGHTS)
            .map(|_| rng.below(4001) as i16 - 2000)
            .collect();
        let start = start_params(&KingBase::Zero, Some(&k), true);
        let back = fold(&start, k.progress, String::new(), PairTable::Offset);
        assert!(back.w == k.w && back.pairs == k.pairs);
        // A fit without pairs starts without them (and values positions as the file it
        // writes), from a file with pairs or without.
        let mut no_pairs = k.clone();
        no_pairs.pairs.clear();
        for (from, pairs) in [(&no_pairs, true), (&no_pairs, false), (&k, false)] {
            let start = start_params(&KingBase::Zero, Some(from), pairs);
            assert!(start[P_PAIR..P_LIN].iter().all(|&x| x == 0.0));
            assert_eq!(
                fold(&start, k.progress, String::new(), PairTable::None).w,
                k.w
            );
        }
    }

    #[test]
    fn a_fit_that_only_loses_gives_its_start_back() {
        // Started from the truth itself, any step loses on the held-out positions (here
        // a huge one): the start, epoch 0, is what the fit returns.
        let mut truth = KingPieceWeights::zero();
        for (i, x) in truth.w.iter_mut().enumerate() {
            *x = ((i * 7919) % 401) as i16 - 200;
        }
        let samples = synthetic_samples(&truth, 600, 31);
        let start = start_params(&KingBase::Zero, Some(&truth), false);
        let set = KingFitSettings {
            epochs: 1,
            lr: 500.0,
            ..settings()
        };
        let (w, epochs) = fit(
            &samples,
            &Progress::DEFAULT,
            &set,
            start.clone(),
            &mut |_, _| {},
        );
        assert_eq!(epochs.len(), 1);
        assert!(epochs[0].validation_loss.is_finite());
        assert!(w == start, "the start was not given back");
    }

    #[test]
    fn the_progress_fit_solves_least_squares() {
        // phase = (4 + 2 a + 3 b) / 256 exactly: recovered.
        let mut pts = Vec::new();
        for a in 0..6 {
            for b in 0..5 {
                for c in 0..3 {
                    let t = [a, b, c, (a + c) % 2];
                    pts.push((t, (4.0 + 2.0 * a as f64 + 3.0 * b as f64) / 256.0));
                }
            }
        }
        let p = fit_progress(&pts);
        assert!((p.bias - 4.0).abs() < 1e-3, "{p:?}");
        assert!((p.coef[0] - 2.0).abs() < 1e-3, "{p:?}");
        assert!((p.coef[1] - 3.0).abs() < 1e-3, "{p:?}");
        assert!(p.coef[2].abs() < 1e-3 && p.coef[3].abs() < 1e-3, "{p:?}");
        assert_eq!(fit_progress(&[]), Progress::DEFAULT);
    }

    #[test]
    fn agreement_is_pearson_and_mean_absolute_difference() {
        let (r, mae) = agreement(&[(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)]).unwrap();
        assert!((r - 1.0).abs() < 1e-12);
        assert!((mae - 2.0).abs() < 1e-12);
        let (r, _) = agreement(&[(1.0, 3.0), (2.0, 2.0), (3.0, 1.0)]).unwrap();
        assert!((r + 1.0).abs() < 1e-12);
        assert_eq!(agreement(&[(1.0, 1.0), (1.0, 2.0)]), None);
    }
}
