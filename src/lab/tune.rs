//! SPSA tuning of the 24-point weights by self-play, and the validation match of tuned
//! against default weights.
//!
//! Schedule as in the entering-king study: Rademacher perturbations, `c_k = 1/k^0.101`,
//! `a_k = 2.5/(k+20)^0.602`, per-weight scale `max(1.2, 0.25|w|)`, signs fixed by what each
//! feature means, two games per position per iteration (colours swapped). A game scores
//! 1 for a win, 0 for a loss, and a draw 0.5 plus a quarter of the difference in progress
//! towards the declaration conditions, so drawn games still carry signal.
use rayon::prelude::*;

use super::play::{GameSettings, play_game, progress};
use crate::engine::eval::eval24::{N_WEIGHTS, SIGNS, Weights, point_target};
use crate::engine::search::{Config, Mode};
use crate::rng::XorShift64Star;
use crate::shogi::{Color, Position};

/// Score of the player with `color` in one finished game, in [0, 1].
fn game_score(g: &crate::referee::Game, color: Color, settings: &GameSettings) -> f64 {
    match g.ending.winner() {
        Some(w) if w == color => 1.0,
        Some(_) => 0.0,
        None => {
            let us = color.index();
            let them = 1 - us;
            let pu = progress(&g.end[us], point_target(settings.rule, us));
            let pt = progress(&g.end[them], point_target(settings.rule, them));
            0.5 + 0.25 * (pu - pt)
        }
    }
}

/// Result of a match between two weight sets (from the first one's side).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MatchResult {
    /// Games the first weight set won.
    pub wins: u32,
    /// Games the first weight set lost.
    pub losses: u32,
    /// Games drawn (including those the ply limit stopped).
    pub draws: u32,
    /// Sum of game scores (with draw shaping).
    pub score: f64,
}

impl MatchResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Match points of the first side: a win 1, a draw 1/2 (no draw shaping).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score (points per game) with a 95 % interval from the spread of the game
    /// results (normal approximation): `(score, low, high)`; `None` without games.
    pub fn score_interval(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let p = self.points() / n;
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let half = 1.96 * (var / n).sqrt();
        Some((p, (p - half).max(0.0), (p + half).min(1.0)))
    }

    /// One line: W/L/D, the score with its 95 % interval and the same as an Elo
    /// difference.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} games  W {}  L {}  D {}",
            self.games(),
            self.wins,
            self.losses,
            self.draws
        );
        if let Some((p, lo, hi)) = self.score_interval() {
            s.push_str(&format!(
                "  score {:.1}% (95% {:.1}-{:.1}%)  Elo {} ({} to {})",
                100.0 * p,
                100.0 * lo,
                100.0 * hi,
                elo_text(p),
                elo_text(lo),
                elo_text(hi)
            ));
        }
        s
    }
}

/// The Elo difference that expects score `p` (infinite at 0 and 1).
pub fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

fn elo_text(p: f64) -> String {
    let e = elo(p);
    if e.is_finite() {
        format!("{e:+.0}")
    } else if e > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn config(w: &Weights, settings: &GameSettings) -> Config {
    Config {
        rule: settings.rule,
        max_moves_to_draw: 0,
        mode: Mode::Decl24,
        weights: w.clone(),
        ..Config::default()
    }
}

/// Play `a` against `b` from every position, once with each colour.
pub fn play_match(
    a: &Weights,
    b: &Weights,
    positions: &[Position],
    settings: &GameSettings,
) -> MatchResult {
    let ca = config(a, settings);
    let cb = config(b, settings);
    let results: Vec<(f64, Option<bool>)> = positions
        .par_iter()
        .flat_map(|p| {
            [Color::Black, Color::White].into_par_iter().map(|a_color| {
                let players = if a_color == Color::Black {
                    [&ca, &cb]
                } else {
                    [&cb, &ca]
                };
                let g = play_game(p, players, settings);
                let s = game_score(&g, a_color, settings);
                (s, g.ending.winner().map(|w| w == a_color))
            })
        })
        .collect();
    let mut r = MatchResult::default();
    for (s, w) in results {
        r.score += s;
        match w {
            Some(true) => r.wins += 1,
            Some(false) => r.losses += 1,
            None => r.draws += 1,
        }
    }
    r
}

/// Keep every weight on its theoretical side of zero.
fn clamp_signs(v: &mut [f64; N_WEIGHTS]) {
    for (x, s) in v.iter_mut().zip(SIGNS) {
        if *x * s < 0.01 {
            *x = 0.01 * s;
        }
    }
}

/// One SPSA iteration's report.
#[derive(Debug, Clone)]
pub struct Iteration {
    /// The iteration's number, from 1.
    pub k: u32,
    /// The match of the `+` perturbation against the `-` one.
    pub plus: MatchResult,
    /// The weights after the step.
    pub weights: Weights,
}

/// Run `iterations` SPSA steps from `start`; `on_iter` sees each step.
pub fn spsa(
    start: &Weights,
    positions: &[Position],
    settings: &GameSettings,
    iterations: u32,
    seed: u64,
    on_iter: &mut dyn FnMut(&Iteration),
) -> Weights {
    let mut theta = start.values;
    let mut rng = XorShift64Star::new(seed);
    for k in 1..=iterations {
        let kf = k as f64;
        let c_k = 1.0 / kf.powf(0.101);
        let a_k = 2.5 / (kf + 20.0).powf(0.602);
        let mut delta = [0.0; N_WEIGHTS];
        let mut scale = [0.0; N_WEIGHTS];
        let mut plus = theta;
        let mut minus = theta;
        for i in 0..N_WEIGHTS {
            delta[i] = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            scale[i] = (0.25 * theta[i].abs()).max(1.2);
            plus[i] += c_k * scale[i] * delta[i];
            minus[i] -= c_k * scale[i] * delta[i];
        }
        clamp_signs(&mut plus);
        clamp_signs(&mut minus);
        let r = play_match(
            &Weights::new(plus),
            &Weights::new(minus),
            positions,
            settings,
        );
        let games = r.games().max(1) as f64;
        // Score difference of plus over minus, per game, in [-1, 1].
        let diff = (2.0 * r.score - games) / games;
        for i in 0..N_WEIGHTS {
            theta[i] += a_k * scale[i] * diff / (c_k * delta[i]);
        }
        clamp_signs(&mut theta);
        on_iter(&Iteration {
            k,
            plus: r,
            weights: Weights::new(theta),
        });
    }
    Weights::new(theta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_interval_and_elo() {
        let even = MatchResult {
            wins: 30,
            losses: 30,
            draws: 20,
            score: 40.0,
        };
        let (p, lo, hi) = even.score_interval().unwrap();
        assert_eq!(p, 0.5);
        assert!((hi - 0.5 - (0.5 - lo)).abs() < 1e-12);
        // Per-game variance 60 * 0.25 / 80 = 0.1875; half width 1.96 * sqrt(0.1875 / 80).
        assert!((hi - 0.5 - 1.96 * (0.1875f64 / 80.0).sqrt()).abs() < 1e-12);
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.848).abs() < 0.01);
        assert!(elo(lo) < 0.0 && elo(hi) > 0.0);
        assert_eq!(MatchResult::default().score_interval(), None);
        let all_won = MatchResult {
            wins: 4,
            ..Default::default()
        };
        assert_eq!(all_won.score_interval(), Some((1.0, 1.0, 1.0)));
        assert!(all_won.describe().contains("Elo +inf"));
        assert!(
            even.describe()
                .starts_with("80 games  W 30  L 30  D 20  score 50.0%")
        );
    }

    #[test]
    fn signs_are_kept() {
        let mut v = [-5.0; N_WEIGHTS];
        clamp_signs(&mut v);
        for (x, s) in v.iter().zip(SIGNS) {
            assert!(x * s > 0.0);
        }
    }
}
