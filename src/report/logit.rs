//! Logistic regression by Newton's method (iteratively reweighted least squares), the
//! linear algebra from `nalgebra` (a Cholesky factorisation solves each step and inverts
//! the information), with standard errors clustered by a group (the engine pair): the
//! sandwich `c B⁻¹ M B⁻¹`, `B` the information at the estimate, `M` the sum over clusters
//! of the outer products of their scores, `c = G/(G-1) · (N-1)/(N-K)` (the small-sample
//! correction statsmodels applies with `cov_type="cluster"`).

use nalgebra::{DMatrix, DVector};

/// A fitted model.
#[derive(Debug, Clone, PartialEq)]
pub struct LogitFit {
    /// The coefficients, in the order of the design's columns.
    pub coef: Vec<f64>,
    /// Their standard errors clustered by group.
    pub se: Vec<f64>,
    /// Their model-based standard errors (the inverse information).
    pub se_model: Vec<f64>,
    /// Observations.
    pub n: usize,
    /// Clusters.
    pub clusters: usize,
    /// Newton steps taken.
    pub iterations: usize,
}

/// Why a model was not fitted: said in the table, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogitError {
    /// Fewer observations than coefficients plus one.
    #[error("too few games ({n} for {k} coefficients)")]
    TooFew {
        /// Observations.
        n: usize,
        /// Coefficients.
        k: usize,
    },
    /// Every outcome is the same.
    #[error("one outcome only ({n} games)")]
    OneOutcome {
        /// Observations.
        n: usize,
    },
    /// Fewer than two clusters: no clustered variance.
    #[error("fewer than two engine pairs")]
    FewClusters,
    /// The information is singular (a covariate constant or collinear with others).
    #[error("a covariate is constant or collinear with the others")]
    Singular,
    /// The outcomes are (quasi-)separated by the covariates: the estimates diverge.
    #[error("separation: a combination of covariates predicts the outcome exactly")]
    Separation,
    /// Newton's method did not converge.
    #[error("no convergence")]
    NoConvergence,
}

const MAX_STEPS: usize = 100;
/// A coefficient this large (an odds ratio beyond e^25) is the sign of separation.
const DIVERGED: f64 = 25.0;

fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp())
    } else {
        let e = t.exp();
        e / (1.0 + e)
    }
}

/// Fit `y` on the design `x` (one row per observation, the intercept a column of ones if
/// wanted), the observations grouped by `cluster` (any ids).
pub fn fit_logit(x: &[Vec<f64>], y: &[bool], cluster: &[usize]) -> Result<LogitFit, LogitError> {
    let n = y.len();
    let k = x.first().map_or(0, Vec::len);
    if n <= k || x.len() != n || cluster.len() != n || k == 0 {
        return Err(LogitError::TooFew { n, k });
    }
    let ones = y.iter().filter(|&&v| v).count();
    if ones == 0 || ones == n {
        return Err(LogitError::OneOutcome { n });
    }
    let mut ids = cluster.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() < 2 {
        return Err(LogitError::FewClusters);
    }
    let xm = DMatrix::from_fn(n, k, |i, j| x[i][j]);
    let yv = DVector::from_fn(n, |i, _| f64::from(u8::from(y[i])));
    let mut beta = DVector::<f64>::zeros(k);
    let mut iterations = 0;
    let info = loop {
        if iterations == MAX_STEPS {
            return Err(LogitError::NoConvergence);
        }
        iterations += 1;
        let (info, score) = information_and_score(&xm, &yv, &beta);
        let step = factor(info)?.solve(&score);
        beta += &step;
        if beta.iter().any(|b| !b.is_finite() || b.abs() > DIVERGED) {
            return Err(LogitError::Separation);
        }
        if step.amax() < 1e-12 * (1.0 + beta.amax()) {
            break information_and_score(&xm, &yv, &beta).0;
        }
    };
    let inverse = factor(info)?.inverse();
    let meat = cluster_meat(&xm, &yv, &beta, cluster, &ids);
    let g = ids.len() as f64;
    let c = g / (g - 1.0) * (n as f64 - 1.0) / (n as f64 - k as f64);
    let sandwich = &inverse * meat * &inverse * c;
    Ok(LogitFit {
        coef: beta.iter().copied().collect(),
        se: (0..k).map(|j| sandwich[(j, j)].max(0.0).sqrt()).collect(),
        se_model: (0..k).map(|j| inverse[(j, j)].max(0.0).sqrt()).collect(),
        n,
        clusters: ids.len(),
        iterations,
    })
}

/// The Cholesky factor of the information, or [`LogitError::Singular`] when a pivot is
/// lost to rounding (a covariate constant or collinear with others).
fn factor(info: DMatrix<f64>) -> Result<nalgebra::Cholesky<f64, nalgebra::Dyn>, LogitError> {
    let scale: Vec<f64> = info.diagonal().iter().map(|d| d.abs().sqrt()).collect();
    let chol = info.cholesky().ok_or(LogitError::Singular)?;
    let l = chol.l_dirty();
    if (0..scale.len()).any(|j| l[(j, j)].is_nan() || l[(j, j)] <= 1e-7 * scale[j]) {
        return Err(LogitError::Singular);
    }
    Ok(chol)
}

/// `X' W X` and `X' (y - μ)` at `beta`.
fn information_and_score(
    x: &DMatrix<f64>,
    y: &DVector<f64>,
    beta: &DVector<f64>,
) -> (DMatrix<f64>, DVector<f64>) {
    let mu = (x * beta).map(sigmoid);
    let w = mu.map(|m| m * (1.0 - m));
    let mut xw = x.clone();
    for (i, mut row) in xw.row_iter_mut().enumerate() {
        row *= w[i];
    }
    (x.transpose() * xw, x.transpose() * (y - mu))
}

/// The sum over clusters of the outer product of each cluster's score.
fn cluster_meat(
    x: &DMatrix<f64>,
    y: &DVector<f64>,
    beta: &DVector<f64>,
    cluster: &[usize],
    ids: &[usize],
) -> DMatrix<f64> {
    let k = x.ncols();
    let mu = (x * beta).map(sigmoid);
    let mut scores = vec![DVector::<f64>::zeros(k); ids.len()];
    for (i, c) in cluster.iter().enumerate() {
        let g = ids.binary_search(c).unwrap_or(0);
        scores[g] += x.row(i).transpose() * (y[i] - mu[i]);
    }
    scores
        .iter()
        .fold(DMatrix::zeros(k, k), |acc, s| acc + s * s.transpose())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One binary covariate: the estimate is closed-form (the logits of the two groups'
    /// rates), and so are the model-based and the clustered variances, written out here.
    #[test]
    fn a_binary_covariate_by_hand() {
        // Three engine pairs (clusters 0, 1, 2). Group x = 0: 6 games, 2 wins; x = 1: 6
        // games, 4 wins.
        let rows: [(f64, bool, usize); 12] = [
            (0.0, true, 0),
            (0.0, false, 0),
            (0.0, false, 1),
            (0.0, true, 1),
            (0.0, false, 2),
            (0.0, false, 2),
            (1.0, true, 0),
            (1.0, true, 0),
            (1.0, false, 1),
            (1.0, true, 1),
            (1.0, false, 2),
            (1.0, true, 2),
        ];
        let x: Vec<Vec<f64>> = rows.iter().map(|r| vec![1.0, r.0]).collect();
        let y: Vec<bool> = rows.iter().map(|r| r.1).collect();
        let c: Vec<usize> = rows.iter().map(|r| r.2).collect();
        let f = fit_logit(&x, &y, &c).unwrap();
        let logit = |p: f64| (p / (1.0 - p)).ln();
        let (p0, p1) = (2.0 / 6.0, 4.0 / 6.0);
        assert!((f.coef[0] - logit(p0)).abs() < 1e-10, "{f:?}");
        assert!((f.coef[1] - (logit(p1) - logit(p0))).abs() < 1e-10);
        // Model-based: var b0 = 1/(n0 p0 q0); var b1 = 1/(n0 p0 q0) + 1/(n1 p1 q1).
        let v0 = 1.0 / (6.0 * p0 * (1.0 - p0));
        let v1 = 1.0 / (6.0 * p1 * (1.0 - p1));
        assert!((f.se_model[0] - v0.sqrt()).abs() < 1e-10);
        assert!((f.se_model[1] - (v0 + v1).sqrt()).abs() < 1e-10);
        // Clustered: B⁻¹ = [[v0, -v0], [-v0, v0 + v1]]; cluster scores
        // s_g = (Σ r, Σ x r) with r = y - p of its group:
        // g0: x=0 r = 2/3, -1/3; x=1 r = 1/3, 1/3 -> (1, 2/3)
        // g1: x=0 r = -1/3, 2/3; x=1 r = -2/3, 1/3 -> (0, -1/3)
        // g2: x=0 r = -1/3, -1/3; x=1 r = -2/3, 1/3 -> (-1, -1/3)
        let s = [(1.0, 2.0 / 3.0), (0.0, -1.0 / 3.0), (-1.0, -1.0 / 3.0)];
        let m = s.iter().fold([0.0; 3], |a, (u, v)| {
            [a[0] + u * u, a[1] + u * v, a[2] + v * v]
        });
        let b = [[v0, -v0], [-v0, v0 + v1]];
        let mm = [[m[0], m[1]], [m[1], m[2]]];
        let mut v = [[0.0; 2]; 2];
        for i in 0..2 {
            for j in 0..2 {
                for a in 0..2 {
                    for d in 0..2 {
                        v[i][j] += b[i][a] * mm[a][d] * b[d][j];
                    }
                }
            }
        }
        let c = 3.0 / 2.0 * 11.0 / 10.0;
        assert!((f.se[0] - (c * v[0][0]).sqrt()).abs() < 1e-10, "{f:?}");
        assert!((f.se[1] - (c * v[1][1]).sqrt()).abs() < 1e-10, "{f:?}");
        assert_eq!((f.n, f.clusters), (12, 3));
    }

    #[test]
    fn separation_one_outcome_and_too_few_are_said() {
        let x: Vec<Vec<f64>> = (0..6).map(|i| vec![1.0, f64::from(i)]).collect();
        let c = [0, 1, 2, 0, 1, 2];
        let sep = [false, false, false, true, true, true];
        assert_eq!(fit_logit(&x, &sep, &c), Err(LogitError::Separation));
        assert_eq!(
            fit_logit(&x, &[true; 6], &c),
            Err(LogitError::OneOutcome { n: 6 })
        );
        assert_eq!(
            fit_logit(&x[..2], &sep[..2], &c[..2]),
            Err(LogitError::TooFew { n: 2, k: 2 })
        );
        assert_eq!(
            fit_logit(&x, &[false, true, false, true, true, false], &[7; 6]),
            Err(LogitError::FewClusters)
        );
        let constant: Vec<Vec<f64>> = (0..6).map(|_| vec![1.0, 2.0]).collect();
        assert_eq!(
            fit_logit(&constant, &[false, true, false, true, true, false], &c),
            Err(LogitError::Singular)
        );
    }
}
