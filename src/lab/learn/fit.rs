//! `learn fit`: the linear model fitted to labelled positions.
//!
//! Each position is first taken to the leaf of a capture-only quiescence search on
//! material (so the model sees a quiet position; the sign turns if the side to move
//! changed), and its features are listed ([`crate::engine::eval::linear::features_reference`]).
//!
//! The loss mixes the teacher and the game (as elmo did): the target is
//! `lambda * sigmoid(teacher / K) + (1 - lambda) * result`, the prediction
//! `sigmoid(value / K)`, the loss their cross-entropy. `K`, the teacher's scale, is
//! calibrated first against the results (the `K` that best predicts the results from
//! the teacher's score), so the model's values come out on the teacher's scale. Adam,
//! mini-batches, a validation split by game (whole units, so positions of one game never
//! sit on both sides).
use rayon::prelude::*;

use super::record::{Record, Source};
use crate::engine::eval::linear::{self, LinearWeights, N_FEATURES, PROGRESS_MAX, STAGES};
use crate::engine::eval::{self, hand_bonus, piece_value};
use crate::rng::XorShift64Star;
use crate::shogi::sets::*;
use crate::shogi::{MoveList, Position};

/// One training position: its features (index + 1, negative for the opponent's), its
/// progress and its labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Feature indices plus one, signed.
    pub features: Vec<i16>,
    /// Progress, 0..=256.
    pub progress: u16,
    /// The evaluation a correction ([`FitSettings::residual`]) is added to (the hand-made
    /// one, or the 24-point one: [`Base`]) of the leaf, for the side to move of the
    /// (root) position.
    pub base: f32,
    /// Teacher's score for the side to move of the (root) position.
    pub teacher: f32,
    /// Whether the position has a teacher's score (not [`Source::Decl24Replay`]); without
    /// one the target is the game's result alone, whatever `lambda`.
    pub has_teacher: bool,
    /// Game result for that side: 0, 0.5 or 1.
    pub result: f32,
    /// In the validation split.
    pub validation: bool,
}

/// Material balance for the side to move (board values, hand values with their bonus).
fn material(pos: &Position) -> i32 {
    let mut s = 0;
    for c in 0..2 {
        let mut v = 0;
        for k in 0..KINDS {
            v += pos.set(c, k).count_ones() as i32 * piece_value(k);
        }
        for k in 0..7 {
            v += pos.hand_count(c, k) * (piece_value(k) + hand_bonus(k));
        }
        s += if c == pos.to_move() { v } else { -v };
    }
    s
}

fn quiesce(pos: &mut Position, mut alpha: i32, beta: i32, depth: u32, leaf: &mut Position) -> i32 {
    let stand = material(pos);
    *leaf = pos.clone();
    if depth == 0 || stand >= beta {
        return stand;
    }
    let mut best = stand;
    alpha = alpha.max(stand);
    let mut list = MoveList::new();
    captures(pos, &mut list);
    let mut moves: Vec<_> = list.as_slice().to_vec();
    moves.sort_by_key(|m| -piece_value(pos.kind_on(m.to().index())));
    let mut child = pos.clone();
    for m in moves {
        if !pos.is_legal(m) {
            continue;
        }
        let u = pos.play_unchecked(m);
        let v = -quiesce(pos, -beta, -alpha, depth - 1, &mut child);
        pos.undo(m, u);
        if v > best {
            best = v;
            *leaf = child.clone();
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The leaf of the capture-only quiescence search (material, at most 8 plies) from `pos`,
/// and whether its side to move is the other side.
pub fn quiet_leaf(pos: &Position) -> (Position, bool) {
    let mut p = pos.clone();
    let mut leaf = pos.clone();
    quiesce(&mut p, -1_000_000, 1_000_000, 8, &mut leaf);
    let flipped = leaf.to_move() != pos.to_move();
    (leaf, flipped)
}

/// The evaluation a correction is fitted on top of ([`Sample::base`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Base {
    /// The hand-made evaluation of the full search ([`eval::evaluate`]).
    #[default]
    Hand,
    /// The 24-point engine's evaluation under the 24-point rule, with its default weights
    /// and without its own-king term (which depends on the side the engine plays).
    Decl24,
}

/// The value of `base` for the side to move of `pos`.
pub fn base_value(pos: &Position, base: Base) -> i32 {
    match base {
        Base::Hand => eval::evaluate(pos),
        Base::Decl24 => crate::engine::eval::eval24::evaluate(
            pos,
            &crate::engine::eval::eval24::Weights::default(),
            crate::shogi::EnteringKingRule::CSARule24,
        ),
    }
}

/// The sample of a record (`None` if its position does not decode); `validation` as given,
/// [`Sample::base`] by `base`.
pub fn sample_of(r: &Record, validation: bool, base: Base) -> Option<Sample> {
    let pos = r.position().ok()?;
    let (leaf, flipped) = quiet_leaf(&pos);
    let (feats, p) = linear::features_reference(&leaf);
    let turn = if flipped { -1 } else { 1 };
    Some(Sample {
        features: feats
            .iter()
            .map(|&(f, s)| ((f as i32 + 1) * s * turn) as i16)
            .collect(),
        progress: p as u16,
        base: (base_value(&leaf, base) * turn) as f32,
        teacher: r.score as f32,
        has_teacher: r.source.has_teacher(),
        result: r.outcome.value() as f32,
        validation,
    })
}

/// Whether unit `unit` is in the validation split (`percent` of the units, by a hash).
pub fn is_validation(unit: u32, seed: u64, percent: u32) -> bool {
    crate::rng::stream_seed(seed ^ 0x5bd1_e995, unit as u64) % 100 < percent as u64
}

/// Samples of records, in parallel (records whose position does not decode are
/// skipped; their count is returned).
pub fn samples_of(
    records: &[Record],
    seed: u64,
    val_percent: u32,
    base: Base,
) -> (Vec<Sample>, usize) {
    let v: Vec<Option<Sample>> = records
        .par_iter()
        .map(|r| sample_of(r, is_validation(r.unit, seed, val_percent), base))
        .collect();
    let bad = v.iter().filter(|s| s.is_none()).count();
    (v.into_iter().flatten().collect(), bad)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(t: f64, q: f64) -> f64 {
    let q = q.clamp(1e-12, 1.0 - 1e-12);
    -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
}

/// The teacher's scale: the `K` (from 50 to 3,000 in steps of 10) whose
/// `sigmoid(teacher / K)` best predicts the results (cross-entropy), over the training
/// samples with a teacher's score; `None` without such samples.
pub fn calibrate_scale(samples: &[Sample]) -> Option<f64> {
    calibrate_by(samples.iter().filter(|s| s.has_teacher), |s| {
        s.teacher as f64
    })
}

fn calibrate_by<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    score: impl Fn(&Sample) -> f64,
) -> Option<f64> {
    let train: Vec<&Sample> = samples.filter(|s| !s.validation).collect();
    if train.is_empty() {
        return None;
    }
    let mut best = (f64::INFINITY, 600.0);
    let mut k = 50.0;
    while k <= 3000.0 {
        let loss: f64 = train
            .iter()
            .map(|s| cross_entropy(s.result as f64, sigmoid(score(s) / k)))
            .sum();
        if loss < best.0 {
            best = (loss, k);
        }
        k += 10.0;
    }
    Some(best.1)
}

/// The hand-made evaluation's scale: the `K` (50 to 3,000, steps of 10) whose
/// `sigmoid(base / K)` best predicts the results over the training samples.
pub fn calibrate_base_scale(samples: &[Sample]) -> Option<f64> {
    calibrate_by(samples.iter(), |s| s.base as f64)
}

/// How the model is fitted.
#[derive(Debug, Clone)]
pub struct FitSettings {
    /// Weight of the teacher in the target (the game result has `1 - lambda`).
    pub lambda: f64,
    /// The scale `K` of the teacher's sigmoid.
    pub scale: f64,
    /// The scale of the model's sigmoid: `scale` for a model on the teacher's scale; for a
    /// correction of the hand-made evaluation, the hand-made evaluation's own scale
    /// ([`calibrate_base_scale`]), so that the corrected values stay on it.
    pub model_scale: f64,
    /// Passes over the training samples.
    pub epochs: u32,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size (centipawns per step at most, roughly).
    pub learning_rate: f64,
    /// Shuffling seed.
    pub seed: u64,
    /// L2 pull of every weight towards its starting value, per step (0: none).
    pub l2: f64,
    /// Fit a correction of the hand-made evaluation: each value is the sample's
    /// [`Sample::base`] plus the linear sum, and the weights written say so.
    pub residual: bool,
}

/// Losses after one epoch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochLoss {
    /// Epoch number from 1 (0: before the first).
    pub epoch: u32,
    /// Mean loss over the training samples.
    pub train: f64,
    /// Mean loss over the validation samples (NaN without any).
    pub validation: f64,
    /// Mean absolute difference of the value and the teacher's score over the validation
    /// samples (teacher centipawns; mate scores left out).
    pub validation_mae: f64,
}

#[inline]
fn value(s: &Sample, w: &[f32], residual: bool) -> f64 {
    let (mut o, mut e) = (0f64, 0f64);
    for &f in &s.features {
        let i = f.unsigned_abs() as usize - 1;
        let sign = if f < 0 { -1.0 } else { 1.0 };
        o += sign * w[i] as f64;
        e += sign * w[N_FEATURES + i] as f64;
    }
    let p = s.progress as f64 / PROGRESS_MAX as f64;
    let base = if residual { s.base as f64 } else { 0.0 };
    base + (1.0 - p) * o + p * e
}

fn target(s: &Sample, set: &FitSettings) -> f64 {
    if !s.has_teacher {
        return s.result as f64;
    }
    set.lambda * sigmoid(s.teacher as f64 / set.scale) + (1.0 - set.lambda) * s.result as f64
}

/// Mean losses of `w` over the samples of one split.
pub fn losses(samples: &[Sample], w: &[f32], set: &FitSettings, validation: bool) -> (f64, f64) {
    let part: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.validation == validation)
        .collect();
    if part.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let (loss, mae, n_mae) = part
        .par_iter()
        .map(|s| {
            let v = value(s, w, set.residual);
            let l = cross_entropy(target(s, set), sigmoid(v / set.model_scale));
            if s.has_teacher && s.teacher.abs() < 20_000.0 {
                (l, (v - s.teacher as f64).abs(), 1usize)
            } else {
                (l, 0.0, 0)
            }
        })
        .reduce(|| (0.0, 0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    (loss / part.len() as f64, mae / n_mae.max(1) as f64)
}

/// Fit from `start`; `on_epoch` sees the losses before the first epoch and after each.
/// The weights returned are those of the epoch with the lowest validation loss (the last
/// epoch's without validation samples).
pub fn fit(
    samples: &[Sample],
    start: &LinearWeights,
    set: &FitSettings,
    on_epoch: &mut dyn FnMut(&EpochLoss),
) -> LinearWeights {
    let mut w: Vec<f32> = start.values.clone();
    let n = STAGES * N_FEATURES;
    let mut m1 = vec![0f64; n];
    let mut m2 = vec![0f64; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].validation)
        .collect();
    let mut rng = XorShift64Star::new(set.seed);
    let report = |epoch: u32, w: &[f32], on_epoch: &mut dyn FnMut(&EpochLoss)| {
        let (train, _) = losses(samples, w, set, false);
        let (validation, validation_mae) = losses(samples, w, set, true);
        let e = EpochLoss {
            epoch,
            train,
            validation,
            validation_mae,
        };
        on_epoch(&e);
        e
    };
    let mut best = (report(0, &w, on_epoch).validation, w.clone());
    let mut grad = vec![0f64; n];
    for epoch in 1..=set.epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for batch in order.chunks(set.batch.max(1)) {
            for &i in batch {
                let s = &samples[i];
                let v = value(s, &w, set.residual);
                let dv = (sigmoid(v / set.model_scale) - target(s, set)) / set.model_scale;
                let p = s.progress as f64 / PROGRESS_MAX as f64;
                for &f in &s.features {
                    let k = f.unsigned_abs() as usize - 1;
                    let sign = if f < 0 { -1.0 } else { 1.0 };
                    grad[k] += dv * sign * (1.0 - p);
                    grad[N_FEATURES + k] += dv * sign * p;
                }
            }
            t += 1;
            let bs = batch.len() as f64;
            let c1 = 1.0 - b1.powi(t);
            let c2 = 1.0 - b2.powi(t);
            // Adam on every weight (the moments of the others decay as in dense Adam).
            for k in 0..n {
                let g = grad[k] / bs;
                m1[k] = b1 * m1[k] + (1.0 - b1) * g;
                m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
                let step = set.learning_rate * (m1[k] / c1) / ((m2[k] / c2).sqrt() + eps);
                w[k] -= (step + set.l2 * (w[k] - start.values[k]) as f64) as f32;
            }
            grad.iter_mut().for_each(|g| *g = 0.0);
        }
        let e = report(epoch, &w, on_epoch);
        if e.validation.is_nan() || e.validation <= best.0 {
            best = (e.validation, w.clone());
        }
    }
    LinearWeights::from_values(best.1).with_residual(set.residual)
}

/// Records per source.
pub fn count_sources(records: &[Record]) -> [usize; Source::ALL.len()] {
    let mut n = [0; Source::ALL.len()];
    for r in records {
        n[Source::ALL.iter().position(|&s| s == r.source).unwrap_or(0)] += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quiet_leaf_takes_a_hanging_piece() {
        // Black's rook on 2h can take White's undefended bishop on 2c.
        let p = Position::from_sfen("4k4/9/7b1/9/9/9/9/7R1/4K4 b - 1").unwrap();
        let (leaf, flipped) = quiet_leaf(&p);
        assert!(flipped);
        assert_eq!(leaf.hand_count(0, BISHOP), 1);
        assert!(material(&leaf) <= -1836);
        let calm = Position::startpos();
        let (leaf, flipped) = quiet_leaf(&calm);
        assert!(!flipped);
        assert_eq!(leaf.to_sfen(), calm.to_sfen());
    }

    /// A sample's base is the evaluation it is asked for, of the quiet leaf, for the root's
    /// side to move: the hand-made one or the 24-point one.
    #[test]
    fn the_base_is_the_chosen_evaluation_of_the_leaf() {
        use super::super::record::{Outcome, pack};
        // An entering-king position (Black's king in White's camp, pieces in hand), Black
        // to move with a capture on offer, and White to move.
        for sfen in [
            "1K7/1P5b1/9/9/9/9/9/9/4k4 b RGSN2P 1",
            "1K7/1P5b1/9/9/9/9/9/9/4k4 w RGSN2P 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let r = Record {
                position: pack(&pos),
                score: 0,
                mate: false,
                outcome: Outcome::Draw,
                source: Source::Aiiru,
                ply: 0,
                unit: 0,
                last: true,
            };
            let (leaf, flipped) = quiet_leaf(&pos);
            let turn = if flipped { -1 } else { 1 };
            for base in [Base::Hand, Base::Decl24] {
                let s = sample_of(&r, false, base).unwrap();
                assert_eq!(s.base, (base_value(&leaf, base) * turn) as f32, "{base:?}");
            }
            let hand = sample_of(&r, false, Base::Hand).unwrap().base;
            let decl24 = sample_of(&r, false, Base::Decl24).unwrap().base;
            assert_ne!(hand, decl24, "two different evaluations");
            assert_eq!(
                base_value(&leaf, Base::Decl24),
                crate::engine::eval::eval24::evaluate(
                    &leaf,
                    &crate::engine::eval::eval24::Weights::default(),
                    crate::shogi::EnteringKingRule::CSARule24
                )
            );
        }
    }

    /// The settings of the synthetic fits: the teacher alone, both scales 400.
    fn synthetic_settings(residual: bool) -> FitSettings {
        FitSettings {
            lambda: 1.0,
            scale: 400.0,
            model_scale: 400.0,
            epochs: 30,
            batch: 64,
            learning_rate: 2.0,
            seed: 1,
            l2: 0.0,
            residual,
        }
    }

    #[test]
    fn a_correction_is_fitted_on_top_of_the_base() {
        // The teacher is the base (the hand-made evaluation's part) plus a known weighted
        // sum: fitted as a correction from zero, the weights are the sum's; the model's
        // own scale is used for its sigmoid.
        let truth: Vec<f32> = (0..8).map(|i| (i as f32 - 3.5) * 30.0).collect();
        let mut rng = XorShift64Star::new(17);
        let mut samples = Vec::new();
        for n in 0..4000 {
            let base = (rng.next_u64() % 801) as f32 - 400.0;
            let mut feats = Vec::new();
            let mut v = base;
            for (i, &t) in truth.iter().enumerate() {
                if rng.next_u64().is_multiple_of(2) {
                    feats.push(i as i16 + 1);
                    v += t;
                }
            }
            samples.push(Sample {
                features: feats,
                progress: 0,
                base,
                teacher: v,
                has_teacher: true,
                result: 0.5,
                validation: n % 10 == 0,
            });
        }
        let set = synthetic_settings(true);
        let w = fit(&samples, &LinearWeights::zero_residual(), &set, &mut |_| {});
        assert!(w.residual);
        for (i, &t) in truth.iter().enumerate() {
            assert!(
                (w.values[i] - t).abs() < 6.0,
                "weight {i}: {} vs {t}",
                w.values[i]
            );
        }
        // The base is the model's: a teacher equal to it leaves a zero correction.
        let same: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                teacher: s.base,
                ..s.clone()
            })
            .collect();
        let w = fit(&same, &LinearWeights::zero_residual(), &set, &mut |_| {});
        assert!(w.values.iter().all(|v| v.abs() < 3.0));
    }

    #[test]
    fn positions_without_a_teacher_are_fitted_to_their_results() {
        // Positions of the 24-point self-play carry no teacher's score (written as 0):
        // whatever lambda, their target is the game's result. Here the side owning
        // feature 1 always wins; a teacher score of 0 taken at face value would pull the
        // weight to 0 instead.
        let mut samples = Vec::new();
        for n in 0..2000 {
            let ours = n % 2 == 0;
            samples.push(Sample {
                features: vec![if ours { 1 } else { -1 }],
                progress: 0,
                base: 0.0,
                teacher: 0.0,
                has_teacher: false,
                result: if ours { 1.0 } else { 0.0 },
                validation: n % 10 == 0,
            });
        }
        assert_eq!(
            calibrate_scale(&samples),
            None,
            "no teacher, no teacher scale"
        );
        let set = synthetic_settings(true);
        let w = fit(&samples, &LinearWeights::zero_residual(), &set, &mut |_| {});
        assert!(w.values[0] > 300.0, "weight {}", w.values[0]);
        // The same positions with a teacher's 0 and lambda 1 fit no weight.
        let taught: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                has_teacher: true,
                ..s.clone()
            })
            .collect();
        let w = fit(&taught, &LinearWeights::zero_residual(), &set, &mut |_| {});
        assert!(w.values[0].abs() < 10.0, "weight {}", w.values[0]);
    }

    #[test]
    fn a_synthetic_linear_target_is_recovered() {
        // Twelve features, each present or not at random, in both colours' lists; the
        // teacher's score is their known weighted sum (in the opening stage, progress 0).
        let truth: Vec<f32> = (0..12).map(|i| (i as f32 - 5.5) * 40.0).collect();
        let mut rng = XorShift64Star::new(7);
        let mut samples = Vec::new();
        for n in 0..4000 {
            let mut feats = Vec::new();
            let mut v = 0f32;
            for (i, &t) in truth.iter().enumerate() {
                match rng.next_u64() % 3 {
                    0 => {
                        feats.push(i as i16 + 1);
                        v += t;
                    }
                    1 => {
                        feats.push(-(i as i16 + 1));
                        v -= t;
                    }
                    _ => {}
                }
            }
            samples.push(Sample {
                features: feats,
                progress: 0,
                base: 0.0,
                teacher: v,
                has_teacher: true,
                result: 0.5,
                validation: n % 10 == 0,
            });
        }
        let set = synthetic_settings(false);
        let start = LinearWeights::from_values(vec![0.0; STAGES * N_FEATURES]);
        let mut history = Vec::new();
        let w = fit(&samples, &start, &set, &mut |e| history.push(*e));
        for (i, &t) in truth.iter().enumerate() {
            assert!(
                (w.values[i] - t).abs() < 6.0,
                "weight {i}: {} vs {t}",
                w.values[i]
            );
        }
        let first = history.first().unwrap();
        let last = history.last().unwrap();
        assert!(last.validation < first.validation);
        assert!(last.validation_mae < 5.0, "{last:?}");
    }
}
