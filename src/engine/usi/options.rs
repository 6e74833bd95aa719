//! The engine's options: their values ([`Options`]), `setoption` ([`Options::set`]), the
//! option list the `usi` command answers ([`Options::usi_lines`]), and the search
//! configuration they make ([`Options::config`]).

use std::sync::Arc;

use crate::engine::eval::eval24::{Weights, WeightsError};
use crate::engine::eval::linear::{LinearWeights, WeightsError as LinearWeightsError};
use crate::engine::guard::GuardLimits;
use crate::engine::search::{Config, Mode, Prunings, Threats, Tweaks, UnknownMode};
use crate::shogi::EnteringKingRule;

/// Read a linear weights file for `option`: a correction of the 24-point evaluation when
/// `decl24`, weights for the full search otherwise.
fn read_linear(
    option: &'static str,
    path: &str,
    decl24: bool,
) -> Result<LinearWeights, OptionError> {
    let text = std::fs::read_to_string(path).map_err(|error| OptionError::LinearUnreadable {
        option,
        path: path.to_string(),
        error,
    })?;
    let w = LinearWeights::parse(&text).map_err(|error| OptionError::LinearInvalid {
        option,
        path: path.to_string(),
        error,
    })?;
    if w.decl24 != decl24 {
        let kind = |d: bool| {
            if d {
                "a correction of the 24-point evaluation"
            } else {
                "weights for the full search"
            }
        };
        return Err(OptionError::LinearWrongKind {
            option,
            path: path.to_string(),
            found: kind(w.decl24),
            expected: kind(decl24),
        });
    }
    Ok(w)
}

/// The `LinearWeights` value of the compiled-in correction (the default).
pub const BUILTIN_LINEAR: &str = "<builtin>";

/// A `setoption` the options refuse; its text is the `info string` the session answers.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// A number option (`USI_Hash`, `Threads`, `MaxMovesToDraw`) given a non-integer.
    #[error("option {name}: bad number `{value}`")]
    BadNumber {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
    },
    /// `EnteringKingRule` given no rule's name.
    #[error("option {name}: unknown rule `{value}`")]
    UnknownRule {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
    },
    /// `Mode` given neither `search` nor `decl24`.
    #[error(transparent)]
    Mode(#[from] UnknownMode),
    /// The `Weights` file cannot be read.
    #[error("option Weights: cannot read `{path}`: {error}")]
    WeightsUnreadable {
        /// The file's path.
        path: String,
        /// Why it cannot be read.
        error: std::io::Error,
    },
    /// The `Weights` file is read but is no weights file.
    #[error("option Weights: `{path}`: {error}")]
    WeightsInvalid {
        /// The file's path.
        path: String,
        /// The line at fault and what is wrong with it.
        error: WeightsError,
    },
    /// The `LinearWeights` or `LinearWeights24` file cannot be read.
    #[error("option {option}: cannot read `{path}`: {error}")]
    LinearUnreadable {
        /// The option's name.
        option: &'static str,
        /// The file's path.
        path: String,
        /// Why it cannot be read.
        error: std::io::Error,
    },
    /// The `LinearWeights` or `LinearWeights24` file is read but is no linear weights file.
    #[error("option {option}: `{path}`: {error}")]
    LinearInvalid {
        /// The option's name.
        option: &'static str,
        /// The file's path.
        path: String,
        /// What is wrong with it.
        error: LinearWeightsError,
    },
    /// A linear weights file of the other mode: `LinearWeights` takes weights for the full
    /// search (standing alone or correcting the hand-made evaluation), `LinearWeights24` a
    /// correction of the 24-point evaluation.
    #[error("option {option}: `{path}` is {found}, not {expected}")]
    LinearWrongKind {
        /// The option's name.
        option: &'static str,
        /// The file's path.
        path: String,
        /// What the file holds.
        found: &'static str,
        /// What the option takes.
        expected: &'static str,
    },
    /// The `KingPieceWeights` file cannot be read.
    #[error("option KingPieceWeights: cannot read `{path}`: {error}")]
    KingPieceUnreadable {
        /// The file's path.
        path: String,
        /// Why it cannot be read.
        error: std::io::Error,
    },
    /// The `KingPieceWeights` file is read but is no king-piece weights file.
    #[error("option KingPieceWeights: `{path}`: {error}")]
    KingPieceInvalid {
        /// The file's path.
        path: String,
        /// What is wrong with it.
        error: crate::engine::eval::king_piece::KingPieceError,
    },
    /// No option of that name.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
}

/// The largest `USI_Hash` (MB) offered: 32 GiB. A size the machine cannot give is refused
/// when it is set (`info string`), and the table in use is kept.
pub const MAX_HASH_MB: usize = 32_768;

/// Engine options settable with `setoption`.
#[derive(Debug, Clone)]
pub struct Options {
    /// `USI_Hash`: transposition table size in MB (1 to [`MAX_HASH_MB`]).
    pub hash_mb: usize,
    /// `Threads` (1 to 256): accepted and kept; the search runs on one thread.
    pub threads: usize,
    /// `EnteringKingRule`: the rule of declarations and the try rule.
    pub rule: EnteringKingRule,
    /// `MaxMovesToDraw`: plies after which the game is a draw (0 = no limit).
    pub max_moves_to_draw: i32,
    /// `Mode`: the normal search or the 24-point engine.
    pub mode: Mode,
    /// Weights file (empty = compiled-in defaults).
    pub weights_path: String,
    /// The 24-point weights read from `weights_path` (or the defaults).
    pub weights: Weights,
    /// `Threats`, `Threats24` and `ThreatPenalty`: how the search treats mate threats at
    /// the leaves.
    pub threats: Threats,
    /// `QuiescenceTT`: quiescence takes the table's score where its bound allows.
    pub quiescence_tt: bool,
    /// `LinearWeights`: a file of the learned linear evaluation (`learn fit`);
    /// `<builtin>` (the default) = the compiled-in correction; empty or `none` = the
    /// hand-made evaluation alone.
    pub linear_path: String,
    /// The learned weights read from `linear_path`.
    pub linear: Option<Arc<LinearWeights>>,
    /// `LinearWeights24`: a correction of the 24-point evaluation (`learn fit --decl24`);
    /// empty (the default) = none.
    pub linear24_path: String,
    /// The correction read from `linear24_path`.
    pub linear24: Option<Arc<LinearWeights>>,
    /// `KingPieceWeights`: a file of the king-relative piece evaluation (`learn
    /// king-fit`), added to the evaluation of the full search; `<builtin>` (the default) =
    /// the compiled-in weights; empty or `none` = none.
    pub king_piece_path: String,
    /// The weights read from `king_piece_path`.
    pub king_piece: Option<Arc<crate::engine::eval::king_piece::KingPieceWeights>>,
    /// The switches of the full search's prunings and extensions (`NullMove`,
    /// `ProbCut`, ... : [`Prunings::SWITCHES`]).
    pub prunings: Prunings,
    /// `QuiescencePromotions`: the quiescence choice under trial.
    pub tweaks: Tweaks,
    /// `RootGuard`: the full search's mate guard at the root.
    pub root_guard: bool,
    /// `GuardPlies`, `GuardEveryMovePlies`, `GuardBudget`, `GuardDfpnNodes`,
    /// `GuardDfpnPlies`: how far the root guard looks.
    pub guard: GuardLimits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            rule: EnteringKingRule::CSARule24,
            max_moves_to_draw: 0,
            mode: Mode::Search,
            weights_path: String::new(),
            weights: Weights::default(),
            threats: Threats::default(),
            quiescence_tt: Config::default().quiescence_tt,
            linear_path: BUILTIN_LINEAR.to_string(),
            linear: Some(crate::engine::eval::linear::builtin()),
            linear24_path: String::new(),
            linear24: None,
            king_piece_path: BUILTIN_LINEAR.to_string(),
            king_piece: Some(crate::engine::eval::king_piece::KingPieceWeights::builtin()),
            prunings: Prunings::default(),
            tweaks: Tweaks::default(),
            root_guard: true,
            guard: GuardLimits::default(),
        }
    }
}

impl Options {
    /// The search configuration these options describe.
    pub fn config(&self) -> Config {
        Config {
            rule: self.rule,
            max_moves_to_draw: self.max_moves_to_draw,
            mode: self.mode,
            weights: self.weights.clone(),
            threats: self.threats,
            quiescence_tt: self.quiescence_tt,
            linear: self.linear.clone(),
            linear24: self.linear24.clone(),
            king_piece: self.king_piece.clone(),
            prunings: self.prunings,
            root_guard: self.root_guard,
            guard: self.guard,
            tweaks: self.tweaks,
        }
    }

    /// The `option` lines of the `usi` answer.
    pub fn usi_lines(&self) -> Vec<String> {
        let mut switches = Prunings::default();
        let prunings = Prunings::SWITCHES.iter().map(|(name, field)| {
            format!(
                "option name {name} type check default {}",
                *field(&mut switches)
            )
        });
        let rules: Vec<String> = EnteringKingRule::ALL
            .iter()
            .map(|r| format!(" var {r}"))
            .collect();
        vec![
            format!("option name USI_Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
            "option name USI_Ponder type check default false".into(),
            "option name Threads type spin default 1 min 1 max 256".into(),
            format!(
                "option name EnteringKingRule type combo default {}{}",
                EnteringKingRule::CSARule24,
                rules.concat()
            ),
            "option name MaxMovesToDraw type spin default 0 min 0 max 100000".into(),
            "option name Mode type combo default search var search var decl24".into(),
            "option name Weights type string default <empty>".into(),
            format!("option name LinearWeights type string default {BUILTIN_LINEAR}"),
            "option name LinearWeights24 type string default <empty>".into(),
            format!("option name KingPieceWeights type string default {BUILTIN_LINEAR}"),
            format!(
                "option name QuiescenceTT type check default {}",
                Config::default().quiescence_tt
            ),
            format!(
                "option name Threats type check default {}",
                Threats::default().enabled
            ),
            format!(
                "option name Threats24 type check default {}",
                Threats::default().decl24
            ),
            format!(
                "option name ThreatPenalty type spin default {} min 0 max 5000",
                Threats::default().penalty
            ),
            format!(
                "option name ThreatQuiescencePlies type spin default {} min 0 max 64",
                Threats::default().quiescence_plies
            ),
            format!(
                "option name ThreatPlies24 type spin default {} min 1 max 9",
                Threats::default().plies24
            ),
            format!(
                "option name QuiescencePromotions type check default {}",
                Tweaks::default().quiescence_promotions
            ),
            format!(
                "option name QuiescenceMatePlies type spin default {} min 0 max 64",
                Tweaks::default().quiescence_mate_plies
            ),
            format!(
                "option name QuiescenceMatePlies24 type spin default {} min 1 max 9",
                Tweaks::default().quiescence_mate_plies24
            ),
            format!(
                "option name MoveCountPercent type spin default {} min 10 max 1000",
                Tweaks::default().move_count_percent
            ),
            format!(
                "option name LmrPercent type spin default {} min 25 max 400",
                Tweaks::default().lmr_percent
            ),
            format!(
                "option name FutilityPercent type spin default {} min 25 max 400",
                Tweaks::default().futility_percent
            ),
            format!(
                "option name ReverseFutilityPercent type spin default {} min 25 max 400",
                Tweaks::default().reverse_futility_percent
            ),
            format!(
                "option name CheckExtension24 type check default {}",
                Tweaks::default().check_extension24
            ),
            format!(
                "option name Selective24 type check default {}",
                Tweaks::default().selective24
            ),
            "option name RootGuard type check default true".into(),
            format!(
                "option name GuardPlies type spin default {} min 1 max {MAX_GUARD_PLIES}",
                GuardLimits::default().max_plies
            ),
            format!(
                "option name GuardEveryMovePlies type spin default {} min 1 max {MAX_GUARD_PLIES}",
                GuardLimits::default().every_move_plies
            ),
            format!(
                "option name GuardBudget type spin default {} min 1 max {MAX_GUARD_BUDGET}",
                GuardLimits::default().budget
            ),
            format!(
                "option name GuardDfpnNodes type spin default {} min 0 max {MAX_GUARD_BUDGET}",
                GuardLimits::default().dfpn_budget
            ),
            format!(
                "option name GuardNetPlies type spin default {} min 0 max {MAX_GUARD_PLIES}",
                GuardLimits::default().net_plies
            ),
            format!(
                "option name GuardNetNodes type spin default {} min 0 max {MAX_GUARD_BUDGET}",
                GuardLimits::default().net_budget
            ),
            format!(
                "option name GuardDeepNetNodes type spin default {} min 0 max {MAX_GUARD_BUDGET}",
                GuardLimits::default().deep_net_budget
            ),
            format!(
                "option name GuardVerifyNodes type spin default {} min 0 max {MAX_GUARD_BUDGET}",
                GuardLimits::default().verify_budget
            ),
            format!(
                "option name GuardDfpnPlies type spin default {} min 1 max {MAX_DFPN_PLIES}",
                GuardLimits::default().dfpn_plies
            ),
        ]
        .into_iter()
        .chain(prunings)
        .collect()
    }

    /// Apply one `setoption`. `Err` says why the value was refused.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let key = name.to_ascii_lowercase();
        if self.set_game(&key, name, value)?
            || self.set_evaluation(&key, value)?
            || self.set_search(&key, name, value)?
        {
            return Ok(());
        }
        let Some((_, field)) = Prunings::SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&key))
        else {
            return Err(OptionError::UnknownOption(name.to_string()));
        };
        *field(&mut self.prunings) = check_value(name, value)?;
        Ok(())
    }

    /// Hash, threads, rule, move limit and mode; `false` when `key` is none of them.
    fn set_game(&mut self, key: &str, name: &str, value: &str) -> Result<bool, OptionError> {
        match key {
            "usi_hash" | "hash" => {
                self.hash_mb = int_value(name, value)?.clamp(1, MAX_HASH_MB as i64) as usize
            }
            "threads" => self.threads = int_value(name, value)?.clamp(1, 256) as usize,
            "usi_ponder" => {}
            "enteringkingrule" => {
                self.rule = value.trim().parse().map_err(|_| OptionError::UnknownRule {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
            }
            "maxmovestodraw" => {
                self.max_moves_to_draw = int_value(name, value)?.clamp(0, 1_000_000) as i32
            }
            "mode" => self.mode = value.trim().parse()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The options naming evaluation files; `false` when `key` is none of them.
    fn set_evaluation(&mut self, key: &str, value: &str) -> Result<bool, OptionError> {
        let path = value.trim();
        match key {
            "weights" => self.set_weights(path)?,
            "linearweights" => self.set_linear(path)?,
            "linearweights24" => self.set_linear24(path)?,
            "kingpieceweights" => self.set_king_piece(path)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `Weights`: the 24-point weights file, or the defaults.
    fn set_weights(&mut self, path: &str) -> Result<(), OptionError> {
        if path.is_empty() || path == "<empty>" {
            self.weights_path.clear();
            self.weights = Weights::default();
        } else {
            let text =
                std::fs::read_to_string(path).map_err(|error| OptionError::WeightsUnreadable {
                    path: path.to_string(),
                    error,
                })?;
            self.weights = Weights::parse(&text).map_err(|error| OptionError::WeightsInvalid {
                path: path.to_string(),
                error,
            })?;
            self.weights_path = path.to_string();
        }
        Ok(())
    }

    /// `LinearWeights`: a learned linear evaluation file, the compiled-in one, or none.
    fn set_linear(&mut self, path: &str) -> Result<(), OptionError> {
        if path.is_empty()
            || path == "<empty>"
            || path.eq_ignore_ascii_case("none")
            || path.eq_ignore_ascii_case("hand")
        {
            self.linear_path.clear();
            self.linear = None;
        } else if path == BUILTIN_LINEAR || path.eq_ignore_ascii_case("builtin") {
            self.linear_path = BUILTIN_LINEAR.to_string();
            self.linear = Some(crate::engine::eval::linear::builtin());
        } else {
            let w = read_linear("LinearWeights", path, false)?;
            self.linear = Some(Arc::new(w));
            self.linear_path = path.to_string();
        }
        Ok(())
    }

    /// `LinearWeights24`: a correction file of the 24-point evaluation, or none.
    fn set_linear24(&mut self, path: &str) -> Result<(), OptionError> {
        if path.is_empty() || path == "<empty>" || path.eq_ignore_ascii_case("none") {
            self.linear24_path.clear();
            self.linear24 = None;
        } else {
            let w = read_linear("LinearWeights24", path, true)?;
            self.linear24 = Some(Arc::new(w));
            self.linear24_path = path.to_string();
        }
        Ok(())
    }

    /// `KingPieceWeights`: a king-relative piece evaluation file, the compiled-in one, or
    /// none.
    fn set_king_piece(&mut self, path: &str) -> Result<(), OptionError> {
        if path.is_empty() || path == "<empty>" || path.eq_ignore_ascii_case("none") {
            self.king_piece_path.clear();
            self.king_piece = None;
        } else if path == BUILTIN_LINEAR || path.eq_ignore_ascii_case("builtin") {
            self.king_piece_path = BUILTIN_LINEAR.to_string();
            self.king_piece = Some(crate::engine::eval::king_piece::KingPieceWeights::builtin());
        } else {
            use crate::engine::eval::king_piece::KingPieceWeights;
            let bytes = std::fs::read(path).map_err(|error| OptionError::KingPieceUnreadable {
                path: path.to_string(),
                error,
            })?;
            let w = KingPieceWeights::from_bytes(&bytes).map_err(|error| {
                OptionError::KingPieceInvalid {
                    path: path.to_string(),
                    error,
                }
            })?;
            self.king_piece = Some(Arc::new(w));
            self.king_piece_path = path.to_string();
        }
        Ok(())
    }

    /// Threats, quiescence and root guard; `false` when `key` is none of them.
    fn set_search(&mut self, key: &str, name: &str, value: &str) -> Result<bool, OptionError> {
        match key {
            "threats" => self.threats.enabled = check_value(name, value)?,
            "threats24" => self.threats.decl24 = check_value(name, value)?,
            "quiescencett" => self.quiescence_tt = check_value(name, value)?,
            "threatpenalty" => {
                self.threats.penalty = int_value(name, value)?.clamp(0, 5_000) as i32
            }
            "threatquiescenceplies" => {
                self.threats.quiescence_plies = int_value(name, value)?.clamp(0, 64) as u32
            }
            "threatplies24" => {
                self.threats.plies24 = (int_value(name, value)?.clamp(1, 9) as u32) | 1
            }
            "quiescencepromotions" => self.tweaks.quiescence_promotions = check_value(name, value)?,
            "quiescencemateplies" => {
                self.tweaks.quiescence_mate_plies = int_value(name, value)?.clamp(0, 64) as u32
            }
            "quiescencemateplies24" => {
                self.tweaks.quiescence_mate_plies24 =
                    (int_value(name, value)?.clamp(1, 9) as u32) | 1
            }
            "movecountpercent" => {
                self.tweaks.move_count_percent = int_value(name, value)?.clamp(10, 1000) as u32
            }
            "lmrpercent" => self.tweaks.lmr_percent = int_value(name, value)?.clamp(25, 400) as u32,
            "futilitypercent" => {
                self.tweaks.futility_percent = int_value(name, value)?.clamp(25, 400) as u32
            }
            "reversefutilitypercent" => {
                self.tweaks.reverse_futility_percent = int_value(name, value)?.clamp(25, 400) as u32
            }
            "checkextension24" => self.tweaks.check_extension24 = check_value(name, value)?,
            "selective24" => self.tweaks.selective24 = check_value(name, value)?,
            "rootguard" => self.root_guard = check_value(name, value)?,
            "guardplies" => {
                self.guard.max_plies = odd_plies(int_value(name, value)?, MAX_GUARD_PLIES)
            }
            "guardeverymoveplies" => {
                self.guard.every_move_plies = odd_plies(int_value(name, value)?, MAX_GUARD_PLIES)
            }
            "guardbudget" => {
                self.guard.budget = int_value(name, value)?.clamp(1, MAX_GUARD_BUDGET as i64) as u64
            }
            "guarddfpnnodes" => {
                self.guard.dfpn_budget =
                    int_value(name, value)?.clamp(0, MAX_GUARD_BUDGET as i64) as u64
            }
            "guardnetplies" => {
                let v = int_value(name, value)?;
                self.guard.net_plies = if v <= 0 {
                    0
                } else {
                    odd_plies(v, MAX_GUARD_PLIES)
                }
            }
            "guardnetnodes" => {
                self.guard.net_budget =
                    int_value(name, value)?.clamp(0, MAX_GUARD_BUDGET as i64) as u64
            }
            "guarddeepnetnodes" => {
                self.guard.deep_net_budget =
                    int_value(name, value)?.clamp(0, MAX_GUARD_BUDGET as i64) as u64
            }
            "guardverifynodes" => {
                self.guard.verify_budget =
                    int_value(name, value)?.clamp(0, MAX_GUARD_BUDGET as i64) as u64
            }
            "guarddfpnplies" => {
                self.guard.dfpn_plies = odd_plies(int_value(name, value)?, MAX_DFPN_PLIES)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The longest mate the root guard's levels may look for, in plies.
const MAX_GUARD_PLIES: u32 = 15;
/// The longest mate its df-pn level may look for.
const MAX_DFPN_PLIES: u32 = 63;
/// The most nodes one of its proofs may take.
const MAX_GUARD_BUDGET: u64 = 100_000_000;

/// A mate length in plies from an option's value: odd, between 1 and `max`.
fn odd_plies(v: i64, max: u32) -> u32 {
    (v.clamp(1, max as i64) as u32) | 1
}

/// The integer value `v` of option `name`.
fn int_value(name: &str, v: &str) -> Result<i64, OptionError> {
    v.trim().parse::<i64>().map_err(|_| OptionError::BadNumber {
        name: name.to_string(),
        value: v.to_string(),
    })
}

/// The check value `v` (`true` or `false`, any case) of option `name`.
fn check_value(name: &str, v: &str) -> Result<bool, OptionError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadNumber {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's check options take `true` / `false` only and reach the configuration.
    #[test]
    fn search_feature_options() {
        let mut o = Options::default();
        let c = o.config();
        assert!(!c.threats.enabled && c.threats.decl24 && !c.quiescence_tt);
        o.set("Threats", "true").unwrap();
        o.set("Threats24", "false").unwrap();
        o.set("QuiescenceTT", "TRUE").unwrap();
        o.set("ThreatPenalty", "250").unwrap();
        o.set("ThreatQuiescencePlies", "3").unwrap();
        let c = o.config();
        assert!(c.threats.enabled && !c.threats.decl24 && c.quiescence_tt);
        assert_eq!((c.threats.penalty, c.threats.quiescence_plies), (250, 3));
        assert!(o.set("QuiescenceTT", "yes").is_err());
        assert!(o.config().quiescence_tt, "a refused value changes nothing");
        let d = Tweaks::default();
        assert_eq!(o.config().tweaks, d);
        o.set("QuiescencePromotions", "true").unwrap();
        assert!(o.config().tweaks.quiescence_promotions);
        // Move-count pruning's scale: 500 by default, set and clamped to 10..=1000.
        assert_eq!(o.config().tweaks.move_count_percent, 500);
        assert!(o.usi_lines().contains(
            &"option name MoveCountPercent type spin default 500 min 10 max 1000".into()
        ));
        o.set("MoveCountPercent", "250").unwrap();
        assert_eq!(o.config().tweaks.move_count_percent, 250);
        o.set("MoveCountPercent", "5000").unwrap();
        assert_eq!(o.config().tweaks.move_count_percent, 1000);
        assert!(o.set("MoveCountPercent", "many").is_err());
        o.set("MoveCountPercent", "500").unwrap();
        // The reductions' and the futility margins' scales: 100 by default, set and
        // clamped to 25..=400.
        for (name, get) in [
            (
                "LmrPercent",
                (|t: &Tweaks| t.lmr_percent) as fn(&Tweaks) -> u32,
            ),
            ("FutilityPercent", |t: &Tweaks| t.futility_percent),
            ("ReverseFutilityPercent", |t: &Tweaks| {
                t.reverse_futility_percent
            }),
        ] {
            assert_eq!(get(&o.config().tweaks), 100, "{name}");
            assert!(o.usi_lines().contains(&format!(
                "option name {name} type spin default 100 min 25 max 400"
            )));
            o.set(name, "60").unwrap();
            assert_eq!(get(&o.config().tweaks), 60, "{name}");
            o.set(name, "9999").unwrap();
            assert_eq!(get(&o.config().tweaks), 400, "{name}");
            o.set(name, "1").unwrap();
            assert_eq!(get(&o.config().tweaks), 25, "{name}");
            assert!(o.set(name, "wide").is_err());
            o.set(name, "100").unwrap();
        }
        // Every pruning switch: on by default but the singular and check extensions,
        // turned the other way and back by its option, and nothing else moves.
        assert_eq!(o.config().prunings, Prunings::default());
        assert!(!Prunings::default().check_extension && Prunings::default().null_move);
        assert!(!Prunings::default().singular);
        for (name, field) in Prunings::SWITCHES {
            let mut want = o.config().prunings;
            let was = *field(&mut want);
            *field(&mut want) = !was;
            o.set(
                &name.to_ascii_lowercase(),
                if was { "false" } else { "true" },
            )
            .unwrap();
            assert_eq!(o.config().prunings, want, "{name}");
            assert!(o.set(name, "maybe").is_err());
            o.set(name, if was { "true" } else { "false" }).unwrap();
            let line = format!("option name {name} type check default {was}");
            assert!(o.usi_lines().contains(&line), "{line}");
        }
        assert_eq!(o.config().prunings, Prunings::default());
        assert!(
            o.set("LateMoveDepth", "3").is_err(),
            "an old option is refused"
        );
        for line in [
            "Threats",
            "ThreatPenalty",
            "ThreatQuiescencePlies",
            "QuiescenceTT",
            "QuiescencePromotions",
            "CheckExtension24",
            "Selective24",
            "ThreatPlies24",
            "QuiescenceMatePlies24",
            "LinearWeights24",
            "KingPieceWeights",
        ] {
            let name = format!("option name {line} type");
            assert!(o.usi_lines().iter().any(|l| l.starts_with(&name)), "{line}");
        }
    }

    /// The root guard's limits are options: each value reaches the search's
    /// configuration, mate lengths are kept odd and in range, and a bad number is refused.
    #[test]
    fn guard_options_reach_the_configuration() {
        let mut o = Options::default();
        assert_eq!(o.config().guard, GuardLimits::default());
        o.set("GuardPlies", "9").unwrap();
        o.set("GuardEveryMovePlies", "6").unwrap();
        o.set("GuardBudget", "5000").unwrap();
        o.set("GuardDfpnNodes", "20000").unwrap();
        o.set("GuardDfpnPlies", "99").unwrap();
        let g = o.config().guard;
        assert_eq!(g.max_plies, 9);
        assert_eq!(g.every_move_plies, 7, "an even length is made odd");
        assert_eq!(g.budget, 5000);
        assert_eq!(g.dfpn_budget, 20000);
        assert_eq!(
            g.dfpn_plies, MAX_DFPN_PLIES,
            "a length past the maximum is cut"
        );
        o.set("GuardBudget", "0").unwrap();
        assert_eq!(o.config().guard.budget, 1, "a proof has at least one node");
        assert!(o.set("GuardPlies", "seven").is_err());
        assert_eq!(
            o.config().guard.max_plies,
            9,
            "a refused value keeps the old one"
        );
        for name in [
            "GuardPlies",
            "GuardEveryMovePlies",
            "GuardBudget",
            "GuardDfpnNodes",
            "GuardDfpnPlies",
        ] {
            let line = format!("option name {name} type spin default");
            assert!(o.usi_lines().iter().any(|l| l.starts_with(&line)), "{name}");
        }
    }

    /// `LinearWeights` loads the learned evaluation into the search configuration, and a
    /// file that is missing or no weights file is refused with the old weights kept; the
    /// compiled-in correction is the default, `none` turns it off, `<builtin>` back on.
    #[test]
    fn linear_weights_option() {
        let mut o = Options::default();
        let builtin = o
            .config()
            .linear
            .expect("the compiled-in weights by default");
        let text = std::fs::read_to_string("weights/correction.txt").unwrap();
        assert_eq!(*builtin, LinearWeights::parse(&text).unwrap());
        assert!(builtin.residual);
        assert!(
            o.usi_lines()
                .contains(&"option name LinearWeights type string default <builtin>".to_string())
        );
        o.set("LinearWeights", "none").unwrap();
        assert!(o.config().linear.is_none());
        o.set("LinearWeights", "<builtin>").unwrap();
        assert_eq!(o.config().linear.as_deref(), Some(&*builtin));
        o.set("LinearWeights", "").unwrap();
        assert!(o.config().linear.is_none());
        o.set("LinearWeights", "weights/linear.txt").unwrap();
        let w = o.config().linear.expect("loaded");
        let text = std::fs::read_to_string("weights/linear.txt").unwrap();
        assert_eq!(*w, LinearWeights::parse(&text).unwrap());
        let e = o.set("LinearWeights", "no/such/file.txt").unwrap_err();
        assert!(matches!(e, OptionError::LinearUnreadable { .. }), "{e}");
        let e = o.set("LinearWeights", "Cargo.toml").unwrap_err();
        assert!(matches!(e, OptionError::LinearInvalid { .. }), "{e}");
        assert!(o.config().linear.is_some(), "the loaded weights are kept");
        o.set("LinearWeights", "<empty>").unwrap();
        assert!(o.config().linear.is_none());
    }

    /// `KingPieceWeights`: the compiled-in weights (`weights/king-piece.bin`) by default,
    /// `none` turns them off, `<builtin>` back on, a file is loaded, and a file that is
    /// missing or no weights file is refused with the weights kept.
    #[test]
    fn king_piece_weights_option() {
        use crate::engine::eval::king_piece::KingPieceWeights;
        let mut o = Options::default();
        let builtin = o
            .config()
            .king_piece
            .expect("the compiled-in weights by default");
        let bytes = std::fs::read("weights/king-piece.bin").unwrap();
        assert_eq!(*builtin, KingPieceWeights::from_bytes(&bytes).unwrap());
        assert!(builtin.w.iter().any(|&w| w != 0), "fitted weights");
        assert!(
            o.usi_lines().contains(
                &"option name KingPieceWeights type string default <builtin>".to_string()
            )
        );
        o.set("KingPieceWeights", "none").unwrap();
        assert!(o.config().king_piece.is_none());
        o.set("KingPieceWeights", "<builtin>").unwrap();
        assert_eq!(o.config().king_piece.as_deref(), Some(&*builtin));
        o.set("KingPieceWeights", "").unwrap();
        assert!(o.config().king_piece.is_none());
        o.set("KingPieceWeights", "weights/king-piece.bin").unwrap();
        assert_eq!(o.config().king_piece.as_deref(), Some(&*builtin));
        let e = o.set("KingPieceWeights", "no/such/file.bin").unwrap_err();
        assert!(matches!(e, OptionError::KingPieceUnreadable { .. }), "{e}");
        let e = o.set("KingPieceWeights", "Cargo.toml").unwrap_err();
        assert!(matches!(e, OptionError::KingPieceInvalid { .. }), "{e}");
        assert!(
            o.config().king_piece.is_some(),
            "the loaded weights are kept"
        );
    }

    /// `LinearWeights24` takes a correction of the 24-point evaluation only, and
    /// `LinearWeights` refuses one; each keeps its weights when refusing.
    #[test]
    fn linear_weights24_option_takes_a_24_point_correction_only() {
        let dir = std::env::temp_dir().join(format!("fs-lw24-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c24 = dir.join("c24.txt");
        let mut values = vec![0f32; LinearWeights::zero_residual().values.len()];
        values[7] = 12.5;
        let w24 = LinearWeights::from_values(values).with_decl24(true);
        std::fs::write(&c24, w24.to_text("test")).unwrap();
        let c24 = c24.to_str().unwrap();
        let mut o = Options::default();
        assert!(o.config().linear24.is_none());
        o.set("LinearWeights24", c24).unwrap();
        assert_eq!(o.config().linear24.as_deref(), Some(&w24));
        let e = o
            .set("LinearWeights24", "weights/correction.txt")
            .unwrap_err();
        assert!(matches!(e, OptionError::LinearWrongKind { .. }), "{e}");
        assert_eq!(o.config().linear24.as_deref(), Some(&w24), "kept");
        let e = o.set("LinearWeights", c24).unwrap_err();
        assert!(e.to_string().contains("24-point"), "{e}");
        assert!(o.config().linear.is_some(), "the default kept");
        o.set("LinearWeights24", "none").unwrap();
        assert!(o.config().linear24.is_none());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn options_apply_and_refuse() {
        let mut o = Options::default();
        o.set("USI_Hash", "16").unwrap();
        assert_eq!(o.hash_mb, 16);
        o.set("MaxMovesToDraw", "256").unwrap();
        assert_eq!(o.max_moves_to_draw, 256);
        o.set("Mode", "decl24").unwrap();
        assert_eq!(o.mode, Mode::Decl24);
        assert!(o.set("Mode", "chess").is_err());
        assert!(o.set("USI_Hash", "lots").is_err());
        assert!(o.set("Colour", "blue").is_err());
        assert!(o.set("Weights", "/nonexistent/weights.txt").is_err());
        o.set("Weights", "<empty>").unwrap();
        assert_eq!(o.weights, Weights::default());
        o.set("Threads", "0").unwrap();
        assert_eq!(o.threads, 1);
    }
}
