//! Self-play matches between two configurations of the engine that decide whether a change
//! is kept: game pairs (one start position, colours swapped) at fixed nodes, scored with
//! the pentanomial model, and a sequential probability ratio test (SPRT) that stops as
//! soon as the evidence is enough.
//!
//! The test is the generalised SPRT (GSPRT) of the Fishtest framework, after M. Van den
//! Bergh's notes: the results are `N` samples from categories with scores `a_i` (in
//! [0, 1]) and observed frequencies `p_i`; for each hypothesis `H_j` ("the logistic Elo
//! difference is `elo_j`", expected score `s_j = 1 / (1 + 10^(-elo_j/400))`) the
//! distribution of largest likelihood with mean `s_j` is
//! `q_i = p_i / (1 + lambda (a_i - s_j))`, with `lambda` the root of
//! `sum p_i (a_i - s_j) / (1 + lambda (a_i - s_j)) = 0`; the log-likelihood ratio is
//! `N sum p_i ln(q1_i / q0_i)` ([`llr`]). Its second-order expansion,
//! `N (s1 - s0) (2m - s0 - s1) / (2v)` for the sample mean `m` and variance `v`
//! ([`llr_approx`]), is the same for large samples but overconfident for small ones (a
//! single lost pair has no variance and crosses a bound), so the exact form decides.
//!
//! A sample is a game pair (its score, 0 to 1 in quarters: the pentanomial model), which
//! takes the pairing of the openings into account; the trinomial form (a sample is a
//! game) is given for comparison. Empty categories count as 0.001 of a sample (as in
//! Fishtest). The test accepts H1 (`elo1`) when the ratio reaches
//! `ln((1 - beta) / alpha)` and H0 (`elo0`) when it falls to `ln(beta / (1 - alpha))`.
use rayon::prelude::*;
use serde::Serialize;

use super::play::{GameSettings, play_builtin};
use crate::engine::search::{Config, Searcher};
use crate::engine::usi::{Command, Options, apply_position, parse_command};
use crate::referee::EnginePlayer;
use crate::rng::XorShift64Star;
use crate::shogi::{Color, History, Position};

/// Weight given to an empty category of results (as in Fishtest).
const EMPTY_CATEGORY: f64 = 1e-3;

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference that expects `score` (infinite at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Number, mean and variance of a distribution given as `(value, count)` pairs, with
/// empty categories counted as [`EMPTY_CATEGORY`] of a sample.
fn regularized_stats(values: &[f64], counts: &[f64]) -> (f64, f64, f64) {
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { EMPTY_CATEGORY } else { c })
        .collect();
    let n: f64 = counts.iter().sum();
    let mean = values.iter().zip(&counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let var = values
        .iter()
        .zip(&counts)
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// The second-order approximation of [`llr`]: `N (s1 - s0) (2m - s0 - s1) / (2v)`.
pub fn llr_approx(elo0: f64, elo1: f64, values: &[f64], counts: &[f64]) -> f64 {
    if counts.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let (n, mean, var) = regularized_stats(values, counts);
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The distribution of largest likelihood with mean `s` given the frequencies `p` of the
/// categories `values` (all positive; `s` strictly between the smallest and largest
/// value): `p_i / (1 + lambda (a_i - s))`, `lambda` found by bisection (the constraint
/// decreases strictly in `lambda` between its poles).
fn constrained_mle(values: &[f64], p: &[f64], s: f64) -> Vec<f64> {
    let d: Vec<f64> = values.iter().map(|a| a - s).collect();
    let f = |lambda: f64| -> f64 {
        d.iter()
            .zip(p)
            .map(|(di, pi)| pi * di / (1.0 + lambda * di))
            .sum()
    };
    let dmax = d.iter().cloned().fold(f64::MIN, f64::max);
    let dmin = d.iter().cloned().fold(f64::MAX, f64::min);
    // 1 + lambda d_i > 0 for every i: lambda in (-1/dmax, -1/dmin).
    let (mut lo, mut hi) = (-1.0 / dmax, -1.0 / dmin);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    d.iter()
        .zip(p)
        .map(|(di, pi)| pi / (1.0 + lambda * di))
        .collect()
}

/// The generalised log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for samples
/// with these values (scores in [0, 1], at least two different) and counts (the module's
/// documentation gives the formula); 0 without samples.
pub fn llr(elo0: f64, elo1: f64, values: &[f64], counts: &[f64]) -> f64 {
    if counts.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { EMPTY_CATEGORY } else { c })
        .collect();
    let n: f64 = counts.iter().sum();
    let p: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let q0 = constrained_mle(values, &p, score_of_elo(elo0));
    let q1 = constrained_mle(values, &p, score_of_elo(elo1));
    n * p
        .iter()
        .zip(q0.iter().zip(&q1))
        .map(|(pi, (a, b))| pi * (b / a).ln())
        .sum::<f64>()
}

/// The scores of the five results of a game pair, for the first player: 0, 1/2, 1, 3/2
/// or 2 points of 2, as a fraction.
pub const PAIR_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The log-likelihood ratio with game pairs as samples: `pairs[k]` pairs in which the
/// first player scored `k / 2` points of 2.
pub fn llr_pentanomial(elo0: f64, elo1: f64, pairs: [u64; 5]) -> f64 {
    llr(elo0, elo1, &PAIR_VALUES, &pairs.map(|c| c as f64))
}

/// The log-likelihood ratio with games as samples (wins, draws, losses of the first
/// player).
pub fn llr_trinomial(elo0: f64, elo1: f64, wins: u64, draws: u64, losses: u64) -> f64 {
    llr(
        elo0,
        elo1,
        &[0.0, 0.5, 1.0],
        &[losses as f64, draws as f64, wins as f64],
    )
}

/// What a test is to decide, and with which error rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SprtParams {
    /// The Elo difference of H0 (the change is no better than this).
    pub elo0: f64,
    /// The Elo difference of H1 (the change is at least this good).
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Default for SprtParams {
    fn default() -> Self {
        SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// Where a test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// H1 accepted: the first player is better by `elo1` (the change is kept).
    H1,
    /// H0 accepted: the first player is not better than `elo0` (the change is rejected).
    H0,
    /// Neither bound reached.
    Inconclusive,
}

impl Verdict {
    /// A short description.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::H1 => "H1 accepted (A is better: keep the change)",
            Verdict::H0 => "H0 accepted (A is not better: reject the change)",
            Verdict::Inconclusive => "inconclusive (no bound reached)",
        }
    }
}

impl SprtParams {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Inconclusive
        }
    }
}

/// A score with its 95 % interval, and the same as Elo differences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// Points per game of the first player.
    pub score: f64,
    /// Lower end of the 95 % interval of the score.
    pub score_low: f64,
    /// Upper end of the 95 % interval of the score.
    pub score_high: f64,
    /// The Elo difference of `score` (infinite at 0 and 1).
    pub elo: f64,
    /// The Elo difference of `score_low`.
    pub elo_low: f64,
    /// The Elo difference of `score_high`.
    pub elo_high: f64,
}

/// The score and Elo difference of the first player from game pairs, with a 95 %
/// interval from the spread of the pair scores (normal approximation); `None` without
/// pairs.
pub fn estimate_pentanomial(pairs: [u64; 5]) -> Option<Estimate> {
    let n: u64 = pairs.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = PAIR_VALUES
        .iter()
        .zip(pairs)
        .map(|(x, c)| x * c as f64)
        .sum::<f64>()
        / n;
    let var = PAIR_VALUES
        .iter()
        .zip(pairs)
        .map(|(x, c)| c as f64 * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    let half = 1.96 * (var / n).sqrt();
    let (low, high) = ((mean - half).max(0.0), (mean + half).min(1.0));
    Some(Estimate {
        score: mean,
        score_low: low,
        score_high: high,
        elo: elo_of_score(mean),
        elo_low: elo_of_score(low),
        elo_high: elo_of_score(high),
    })
}

/// A start position of a match: a line of an openings file.
#[derive(Debug, Clone)]
pub struct Opening {
    /// Where it came from (`file:line`).
    pub id: String,
    /// The line as written.
    pub text: String,
    /// The position after the line's moves.
    pub position: Position,
    /// The positions before it (`(key, in check)`, oldest first).
    pub history: Vec<(u64, bool)>,
}

/// Read an openings file: one start position a line, as the arguments of a USI
/// `position` command (`startpos moves ...`, `sfen <sfen> moves ...`, with or without a
/// leading `position`) or a bare SFEN (the first tab-separated column); `#` comments and
/// blank lines skipped. Returns the openings and a message for each line that cannot be
/// read (a bad SFEN, an illegal or unreadable move).
pub fn read_openings(text: &str, name: &str) -> (Vec<Opening>, Vec<String>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.split('\t').next().unwrap_or("").trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let id = format!("{name}:{}", i + 1);
        let t = t.strip_prefix("position ").unwrap_or(t).trim();
        let command = if t.starts_with("startpos") || t.starts_with("sfen ") {
            format!("position {t}")
        } else {
            format!("position sfen {t}")
        };
        let (sfen, moves) = match parse_command(&command) {
            Ok(Command::Position { sfen, moves }) => (sfen, moves),
            Ok(_) => {
                bad.push(format!("{id}: not a position"));
                continue;
            }
            Err(e) => {
                bad.push(format!("{id}: {e}"));
                continue;
            }
        };
        match apply_position(sfen.as_deref(), &moves) {
            Ok((position, history, None)) => ok.push(Opening {
                id,
                text: t.to_string(),
                position,
                history,
            }),
            Ok((_, _, Some(complaint))) => bad.push(format!("{id}: {complaint}")),
            Err(e) => bad.push(format!("{id}: {e}")),
        }
    }
    (ok, bad)
}

/// One side of a match: its options (as `setoption` sets them) and the search
/// configuration built from them.
#[derive(Debug, Clone)]
pub struct Player {
    /// The options, for the table size and the record.
    pub options: Options,
    /// The configuration its searcher is made with.
    pub config: Config,
}

impl Player {
    /// A player with these options.
    pub fn new(options: Options) -> Player {
        let config = options.config();
        Player { options, config }
    }

    /// A fresh searcher (a new game: an empty table, no history).
    fn searcher(&self) -> Searcher {
        Searcher::new(self.options.hash_mb, self.config.clone())
    }
}

/// How a match is played.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    /// Rule, ply limit and per-move limit of every game (its `hash_mb` is unused: each
    /// player's table size is its `USI_Hash`).
    pub game: GameSettings,
    /// Random legal moves played after each opening before the pair starts (both games
    /// of a pair start from the same position).
    pub random_plies: u32,
    /// Seed of the random moves.
    pub seed: u64,
    /// The test.
    pub sprt: SprtParams,
    /// Most games played (rounded down to whole pairs).
    pub max_games: u64,
    /// Stop as soon as a bound is reached (else play `max_games` and report).
    pub stop_at_bound: bool,
    /// Pairs played between two looks at the test (the pairs after a bound is crossed
    /// are discarded, so the result does not depend on it).
    pub batch_pairs: usize,
}

/// One finished game of a match.
#[derive(Debug, Clone, Serialize)]
pub struct MatchGame {
    /// The pair, from 0.
    pub pair: u64,
    /// The opening's id.
    pub opening: String,
    /// The random moves played after the opening (USI).
    pub random_moves: Vec<String>,
    /// The SFEN the game started from.
    pub start_sfen: String,
    /// Whether A played Black.
    pub a_black: bool,
    /// A's points: 1, 0.5 or 0.
    pub a_score: f64,
    /// How the game ended ([`crate::referee::Ending::name`]).
    pub ending: &'static str,
    /// `black`, `white` or `draw`.
    pub winner: &'static str,
    /// Plies played.
    pub plies: u32,
    /// Nodes searched by both sides.
    pub nodes: u64,
    /// Milliseconds A and B thought in the game, in all.
    pub think_ms: [u64; 2],
    /// Moves (answers) of A and B.
    pub answers: [u32; 2],
    /// The moves (USI).
    pub moves: Vec<String>,
}

/// The state of a match: results so far and the test on them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tally {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// Pairs by A's points out of 2: 0, 1/2, 1, 3/2, 2.
    pub pairs: [u64; 5],
    /// Pairs whose two games have the same moves (A as Black played what B played as
    /// Black, and so on): A and B did not play differently there. When every pair is
    /// such a pair, the change does not act at these settings and the test can only
    /// reject it.
    pub same_games: u64,
    /// Milliseconds A and B thought, over every game.
    pub think_ms: [u64; 2],
    /// Moves A and B answered, over every game.
    pub answers: [u64; 2],
}

impl Tally {
    /// A's and B's mean milliseconds a move (0 before any move).
    pub fn ms_per_move(&self) -> [f64; 2] {
        [0, 1].map(|i| self.think_ms[i] as f64 / self.answers[i].max(1) as f64)
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Count one pair (A's points in each game).
    pub fn add_pair(&mut self, scores: [f64; 2]) {
        for s in scores {
            if s == 1.0 {
                self.wins += 1;
            } else if s == 0.0 {
                self.losses += 1;
            } else {
                self.draws += 1;
            }
        }
        let half_points = ((scores[0] + scores[1]) * 2.0).round() as usize;
        self.pairs[half_points.min(4)] += 1;
    }

    /// The pentanomial log-likelihood ratio.
    pub fn llr(&self, p: &SprtParams) -> f64 {
        llr_pentanomial(p.elo0, p.elo1, self.pairs)
    }
}

/// A finished match.
#[derive(Debug, Clone, Serialize)]
pub struct MatchReport {
    /// The results counted (pairs up to the one that crossed a bound).
    pub tally: Tally,
    /// The pentanomial log-likelihood ratio.
    pub llr: f64,
    /// Its lower bound.
    pub lower: f64,
    /// Its upper bound.
    pub upper: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// Score and Elo of A (`None` without games).
    pub estimate: Option<Estimate>,
    /// Every game counted, in pair order.
    pub games: Vec<MatchGame>,
}

/// The random moves of pair `pair` from `opening`: up to `plies` legal moves (fewer if a
/// side has none), the same for any number of threads.
fn random_moves(
    opening: &Opening,
    plies: u32,
    seed: u64,
    pair: u64,
) -> (Position, Vec<(u64, bool)>, Vec<String>) {
    let mut rng = XorShift64Star::new(
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pair.wrapping_add(1).wrapping_mul(0xD6E8_FEB8_6659_FD93),
    );
    let mut pos = opening.position.clone();
    let mut history = opening.history.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next_u64() % legal.len() as u64) as usize];
        history.push((pos.key(), pos.is_in_check()));
        if pos.play(m).is_err() {
            break;
        }
        moves.push(m.to_usi());
    }
    (pos, history, moves)
}

/// A per-colour pair (Black, White) turned into (A, B).
fn side_of_a<T: Copy>(a_black: bool, v: [T; 2]) -> [T; 2] {
    if a_black { v } else { [v[1], v[0]] }
}

/// Play game `game` (0: A Black, 1: A White) of pair `pair`.
fn play_one(
    players: [&Player; 2],
    openings: &[Opening],
    settings: &MatchSettings,
    pair: u64,
    game: u8,
) -> MatchGame {
    let opening = &openings[(pair % openings.len() as u64) as usize];
    let (start, prior, random) = random_moves(opening, settings.random_plies, settings.seed, pair);
    let a_black = game == 0;
    let seat = |p: &Player| {
        let mut s = p.searcher();
        s.config.rule = settings.game.rule;
        EnginePlayer::with_searcher(s, settings.game.per_move.clone())
    };
    let (mut a, mut b) = (seat(players[0]), seat(players[1]));
    let seats = if a_black {
        [&mut a, &mut b]
    } else {
        [&mut b, &mut a]
    };
    let history = History::with_prior(&prior, &start);
    let g = play_builtin(&start, history, seats, &settings.game);
    let a_color = if a_black { Color::Black } else { Color::White };
    let winner = g.ending.winner();
    MatchGame {
        pair,
        opening: opening.id.clone(),
        random_moves: random,
        start_sfen: start.to_sfen(),
        a_black,
        a_score: match winner {
            Some(w) if w == a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        ending: g.ending.name(),
        winner: match winner {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None => "draw",
        },
        plies: g.plies,
        nodes: g.nodes,
        think_ms: side_of_a(a_black, g.think.map(|d| d.as_millis() as u64)),
        answers: side_of_a(a_black, g.answers),
        moves: g.moves.iter().map(|m| m.to_usi()).collect(),
    }
}

/// Play A (`players[0]`) against B from `openings` until the test reaches a bound (if
/// [`MatchSettings::stop_at_bound`]) or `max_games` are played. Pairs are played on the
/// rayon pool; they are counted in pair order, so the result is the same for any number
/// of threads. `on_game` is called after each game (progress).
pub fn run_match(
    players: [&Player; 2],
    openings: &[Opening],
    settings: &MatchSettings,
    on_game: &(dyn Fn(&Tally) + Sync),
) -> MatchReport {
    let max_pairs = settings.max_games / 2;
    let mut tally = Tally::default();
    let mut games = Vec::new();
    let mut next = 0u64;
    let progress = std::sync::Mutex::new(Tally::default());
    'outer: while next < max_pairs && !openings.is_empty() {
        let end = (next + settings.batch_pairs.max(1) as u64).min(max_pairs);
        let jobs: Vec<(u64, u8)> = (next..end).flat_map(|p| [(p, 0), (p, 1)]).collect();
        let played: Vec<MatchGame> = jobs
            .par_iter()
            .map(|&(pair, game)| {
                let g = play_one(players, openings, settings, pair, game);
                if let Ok(mut t) = progress.lock() {
                    if g.a_score == 1.0 {
                        t.wins += 1;
                    } else if g.a_score == 0.0 {
                        t.losses += 1;
                    } else {
                        t.draws += 1;
                    }
                    on_game(&t);
                }
                g
            })
            .collect();
        for two in played.chunks(2) {
            tally.add_pair([two[0].a_score, two[1].a_score]);
            for g in two.iter() {
                for i in 0..2 {
                    tally.think_ms[i] += g.think_ms[i];
                    tally.answers[i] += g.answers[i] as u64;
                }
            }
            if two[0].moves == two[1].moves {
                tally.same_games += 1;
            }
            games.extend_from_slice(two);
            next += 1;
            if settings.stop_at_bound
                && settings.sprt.verdict(tally.llr(&settings.sprt)) != Verdict::Inconclusive
            {
                break 'outer;
            }
        }
    }
    let llr = tally.llr(&settings.sprt);
    let (lower, upper) = settings.sprt.bounds();
    MatchReport {
        estimate: estimate_pentanomial(tally.pairs),
        verdict: settings.sprt.verdict(llr),
        llr,
        lower,
        upper,
        tally,
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(score_of_elo(0.0), 0.5);
        // 400 Elo: 10 to 1.
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        for e in [-300.0, -10.0, 0.0, 5.0, 10.0, 250.0] {
            assert!(close(elo_of_score(score_of_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn bounds_of_the_usual_test() {
        let p = SprtParams::default();
        let (lo, hi) = p.bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!(close(lo, -2.944_438_979_166_44, 1e-12), "{lo}");
        assert!(close(hi, 2.944_438_979_166_44, 1e-12), "{hi}");
        assert_eq!(p.verdict(3.0), Verdict::H1);
        assert_eq!(p.verdict(-3.0), Verdict::H0);
        assert_eq!(p.verdict(0.0), Verdict::Inconclusive);
    }

    #[test]
    fn trinomial_llr_by_hand() {
        // W 60 D 20 L 20 (100 games): frequencies 0.2, 0.2, 0.6 of the scores 0, 1/2, 1;
        // mean 0.7, variance (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16;
        // s0 = 0.5, s1 = 1 / (1 + 10^-0.025) = 0.514387...
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.025));
        assert!(close(s1, 0.514_387_184_166, 1e-9), "{s1}");
        // The approximation: 100 (s1 - 0.5) (1.4 - 0.5 - s1) / 0.32.
        let approx = llr_approx(0.0, 10.0, &[0.0, 0.5, 1.0], &[20.0, 20.0, 60.0]);
        let expected = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        assert!(close(approx, expected, 1e-9), "{approx} vs {expected}");
        assert!(close(approx, 1.733_713_312, 1e-6), "{approx}");
        // The exact ratio: with three categories the equation of lambda is a quadratic,
        // A l^2 + B l + C = 0 with d_i = a_i - s, C = sum p_i d_i = m - s,
        // B = sum p_i d_i (d_j + d_k), A = d_0 d_1 d_2 (linear when s = 1/2); its root
        // between the poles gives q_i = p_i / (1 + l d_i), and
        // LLR = 100 sum p_i ln(q1_i / q0_i) = 1.389822163939 (computed so, apart).
        let got = llr_trinomial(0.0, 10.0, 60, 20, 20);
        assert!(close(got, 1.389_822_163_939, 1e-9), "{got}");
        assert!(close(
            llr_trinomial(0.0, 10.0, 20, 20, 60),
            -1.488_185_755_527,
            1e-9
        ));
        // An even score is evidence for H0, weakly.
        assert!(close(
            llr_trinomial(0.0, 10.0, 30, 40, 30),
            -0.069_012_915_692,
            1e-9
        ));
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // Pairs with 0, 1/2, 1, 3/2, 2 points: 5, 10, 50, 20, 15 (100 pairs).
        // Scores 0, .25, .5, .75, 1: mean (2.5 + 25 + 15 + 15) / 100 = 0.575;
        // variance = sum c (x - 0.575)^2 / 100
        //  = (5 * 0.330625 + 10 * 0.105625 + 50 * 0.005625 + 20 * 0.030625
        //     + 15 * 0.180625) / 100 = 0.063125.
        let pairs = [5, 10, 50, 20, 15];
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.025));
        let expected = 100.0 * (s1 - 0.5) * (1.15 - 0.5 - s1) / (2.0 * 0.063125);
        let approx = llr_approx(0.0, 10.0, &PAIR_VALUES, &pairs.map(|c| c as f64));
        assert!(close(approx, expected, 1e-9), "{approx} vs {expected}");
        assert!(close(approx, 1.545_415_094, 1e-6), "{approx}");
        // Exact (lambda by a separate bisection): 1.419590054205.
        let got = llr_pentanomial(0.0, 10.0, pairs);
        assert!(close(got, 1.419_590_054_205, 1e-9), "{got}");
        assert_eq!(SprtParams::default().verdict(got), Verdict::Inconclusive);
        // No pairs: no evidence.
        assert_eq!(llr_pentanomial(0.0, 10.0, [0; 5]), 0.0);
        let e = estimate_pentanomial(pairs).unwrap();
        assert!(close(e.score, 0.575, 1e-12));
        let half = 1.96 * (0.063125f64 / 100.0).sqrt();
        assert!(close(e.score_low, 0.575 - half, 1e-12));
        assert!(close(e.score_high, 0.575 + half, 1e-12));
        assert!(e.elo_low < e.elo && e.elo < e.elo_high);
        assert!(close(e.elo, -400.0 * (1.0 / 0.575 - 1.0f64).log10(), 1e-9));
    }

    #[test]
    fn a_few_pairs_never_decide() {
        // A single lost pair has no variance: the approximation crosses the lower bound
        // at once, the exact ratio counts it as the little evidence it is (elo 0 and
        // elo 10 are close: about 0.03 a pair).
        let approx = llr_approx(0.0, 10.0, &PAIR_VALUES, &[1.0, 0.0, 0.0, 0.0, 0.0]);
        assert!(approx < -2.945, "{approx}");
        let exact = llr_pentanomial(0.0, 10.0, [1, 0, 0, 0, 0]);
        assert!(close(exact, -0.029_255_446_370, 1e-9), "{exact}");
        // All pairs lost: H0 is accepted at the 101st; all won: H1 at about the 104th.
        let p = SprtParams::default();
        assert_eq!(
            p.verdict(llr_pentanomial(0.0, 10.0, [100, 0, 0, 0, 0])),
            Verdict::Inconclusive
        );
        assert_eq!(
            p.verdict(llr_pentanomial(0.0, 10.0, [101, 0, 0, 0, 0])),
            Verdict::H0
        );
        assert_eq!(
            p.verdict(llr_pentanomial(0.0, 10.0, [0, 0, 0, 0, 110])),
            Verdict::H1
        );
    }

    #[test]
    fn identical_players_are_rejected_never_accepted() {
        // Every pair split 1-1 (the same engine on both sides, colours swapped): the
        // mean 0.5 is H0's, and H0 is accepted at the 102nd pair.
        let mut t = Tally::default();
        let p = SprtParams::default();
        let mut at = None;
        for k in 1..=120 {
            t.add_pair([1.0, 0.0]);
            let v = p.verdict(t.llr(&p));
            assert_ne!(v, Verdict::H1);
            if at.is_none() && v == Verdict::H0 {
                at = Some(k);
            }
        }
        assert_eq!((t.wins, t.losses, t.draws), (120, 120, 0));
        assert_eq!(t.pairs, [0, 0, 120, 0, 0]);
        assert_eq!(at, Some(102));
    }

    #[test]
    fn exact_and_approximate_agree_on_large_samples() {
        let pairs = [50, 200, 500, 220, 60];
        let values = pairs.map(|c| c as f64);
        let exact = llr_pentanomial(0.0, 10.0, pairs);
        let approx = llr_approx(0.0, 10.0, &PAIR_VALUES, &values);
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs(),
            "{exact} {approx}"
        );
    }

    #[test]
    fn pairs_are_counted_by_half_points() {
        let mut t = Tally::default();
        t.add_pair([1.0, 1.0]);
        t.add_pair([0.5, 1.0]);
        t.add_pair([0.5, 0.5]);
        t.add_pair([0.0, 0.5]);
        t.add_pair([0.0, 0.0]);
        assert_eq!(t.pairs, [1, 1, 1, 1, 1]);
        assert_eq!((t.wins, t.draws, t.losses), (3, 4, 3));
        assert_eq!(t.games(), 10);
    }

    #[test]
    fn openings_are_read_as_position_commands() {
        let text = "# comment\nstartpos moves 7g7f 3c3d\n\nposition startpos\n\
                    lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\tx\n\
                    startpos moves 7g7f 7g7f\nsfen 9/9 b\n";
        let (ok, bad) = read_openings(text, "o.txt");
        assert_eq!(ok.len(), 3, "{bad:?}");
        assert_eq!(ok[0].id, "o.txt:2");
        assert_eq!(ok[0].history.len(), 2);
        assert_eq!(ok[1].position.to_sfen(), Position::startpos().to_sfen());
        assert_eq!(ok[2].position.to_sfen(), Position::startpos().to_sfen());
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(
            bad[0].starts_with("o.txt:6: ") && bad[0].contains("illegal"),
            "{bad:?}"
        );
        assert!(bad[1].starts_with("o.txt:7: "), "{bad:?}");
    }

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let (ok, _) = read_openings("startpos\n", "o");
        let a = random_moves(&ok[0], 8, 7, 3);
        let b = random_moves(&ok[0], 8, 7, 3);
        assert_eq!(a.2, b.2);
        assert_eq!(a.2.len(), 8);
        assert_eq!(a.1.len(), 8);
        assert_ne!(a.2, random_moves(&ok[0], 8, 7, 4).2);
        assert_ne!(a.2, random_moves(&ok[0], 8, 8, 3).2);
        let mut p = Position::startpos();
        for m in &a.2 {
            p.play(crate::shogi::Move::from_usi(m).unwrap()).unwrap();
        }
        assert_eq!(p.to_sfen(), a.0.to_sfen());
    }
}
