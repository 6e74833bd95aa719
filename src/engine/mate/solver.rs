//! The bounded checks-only mate search: the guard's proofs (a first move) and `go mate`
//! (a line with the longest defence).
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::shogi::{Move, MoveList, Position, solve_mate_in_one_in_place};

/// The answer of the mate solver, as `go mate` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced mate: the moves from the position to the mate (`checkmate <moves>`).
    Mate(Vec<Move>),
    /// Proven: no mate by checks at any length (`checkmate nomate`).
    NoMate,
    /// A limit ended the search first (`checkmate timeout`).
    Timeout,
}

impl MateAnswer {
    /// The USI answer line.
    pub fn to_usi(&self) -> String {
        match self {
            MateAnswer::Mate(moves) => {
                let v: Vec<String> = moves.iter().map(|m| m.to_usi()).collect();
                format!("checkmate {}", v.join(" "))
            }
            MateAnswer::NoMate => "checkmate nomate".to_string(),
            MateAnswer::Timeout => "checkmate timeout".to_string(),
        }
    }
}

/// Limits of one mate search.
#[derive(Debug, Clone, Copy)]
pub struct MateLimits {
    /// Longest mate looked for, in plies.
    pub max_plies: u32,
    /// Nodes the search may visit.
    pub nodes: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            max_plies: 63,
            nodes: 20_000_000,
            deadline: None,
        }
    }
}

/// A bounded checks-only mate search: the attacker checks at every move, the defender
/// tries every legal evasion, and a mate within a number of plies (1, 3, 5, ...) is
/// proven or not. Mate in one is decided by the core's attack-table solver; deeper, every
/// check is tried and refuted by the first evasion that escapes. The attack nodes
/// visited are counted against a budget (and, for `go mate`, a stop flag and a deadline
/// looked at every 1,024 nodes); a search cut short answers "no mate", so it never
/// invents a mate but may miss one that needs more work than the budget.
///
/// Two uses, one search:
/// - [`MateSearch::new`] (the guard): a first move of a mate within the plies asked.
/// - [`solve`] (`go mate`): iterative deepening at the root gives the shortest mate, and
///   at every defender's move each evasion's shortest mate is found by the same deepening
///   so that the line follows the longest defence; a position repeated on the line is an
///   escape (perpetual check is no mate), and the search notes whether the length limit
///   cut a line that still had a check (if none did, there is no mate at any length).
///
/// The checks and evasions of each ply are generated into a list kept for that ply, so
/// a search allocates nothing once its deepest ply has been reached.
#[derive(Debug)]
pub struct MateSearch<'a> {
    nodes: u64,
    budget: u64,
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    aborted: bool,
    /// The `go mate` search: lines, repetitions, deepening at the defender's moves.
    lines: bool,
    /// An iteration stopped somewhere at its length limit with a check still to try.
    cut: bool,
    /// Keys of the positions on the current line (`go mate` only).
    path: Vec<u64>,
    /// Per ply: the checks or the evasions of the node at that ply.
    moves: Vec<MoveList>,
    /// Per ply: the mating line proven from the node at that ply (`go mate` only).
    pv: Vec<Vec<Move>>,
}

impl MateSearch<'_> {
    /// A search that may visit `budget` attack nodes.
    pub fn new(budget: u64) -> MateSearch<'static> {
        MateSearch {
            nodes: 0,
            budget,
            stop: None,
            deadline: None,
            aborted: false,
            lines: false,
            cut: false,
            path: Vec::new(),
            moves: Vec::new(),
            pv: Vec::new(),
        }
    }

    /// Start again with a budget of `budget` attack nodes (the per-ply lists kept).
    pub fn restart(&mut self, budget: u64) {
        self.nodes = 0;
        self.budget = budget;
        self.aborted = false;
        self.cut = false;
    }

    /// Attack nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the budget ran out (a "no mate" answer is then unproven).
    pub fn exhausted(&self) -> bool {
        self.aborted
    }

    /// A first move of a forced mate of the side to move within `plies` plies (1, 3, 5,
    /// ...; every attacking move a check), if one is proven within the budget. `pos` is
    /// left as it was.
    pub fn mate(&mut self, pos: &mut Position, plies: u32) -> Option<Move> {
        self.attack(pos, plies, 0)
    }

    /// Count a node; true when the search must end (budget, stop flag, deadline).
    #[inline]
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes & 1023 == 0
                && (self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Make sure the per-ply lists reach `ply`.
    #[inline]
    fn reach(&mut self, ply: usize) {
        while self.moves.len() <= ply {
            self.moves.push(MoveList::new());
            self.pv.push(Vec::new());
        }
    }

    /// `pv[ply]` = `m` followed by `pv[ply + 1]` (`go mate` only).
    fn line_through(&mut self, ply: usize, m: Move) {
        if !self.lines {
            return;
        }
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The attacker to move at `ply` mates within `plies` (odd): the first move of a
    /// proven mate (its line in `pv[ply]` for `go mate`).
    fn attack(&mut self, pos: &mut Position, plies: u32, ply: usize) -> Option<Move> {
        if self.tick() {
            return None;
        }
        self.reach(ply + 1);
        if let Some(m) = solve_mate_in_one_in_place(pos) {
            if self.lines {
                let line = &mut self.pv[ply];
                line.clear();
                line.push(m);
            }
            return Some(m);
        }
        if plies < 3 {
            if self.lines {
                // Whether a check was cut by the limit (else this line has ended).
                let list = &mut self.moves[ply];
                list.clear();
                pos.generate_checks(list);
                if !list.is_empty() {
                    self.cut = true;
                }
            }
            return None;
        }
        self.moves[ply].clear();
        pos.generate_checks(&mut self.moves[ply]);
        for i in 0..self.moves[ply].len() {
            let m = self.moves[ply][i];
            let undo = pos.play_unchecked(m);
            let forced = if self.lines {
                let key = pos.key();
                if self.path.contains(&key) {
                    false
                } else {
                    self.path.push(key);
                    let r = self.defend(pos, plies - 1, ply + 1);
                    self.path.pop();
                    r
                }
            } else {
                self.defend(pos, plies - 1, ply + 1)
            };
            pos.undo(m, undo);
            if forced {
                self.line_through(ply, m);
                return Some(m);
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// The defender (in check) to move at `ply` is mated within `plies` whatever it plays
    /// (for `go mate`, the line of the longest defence in `pv[ply]`).
    fn defend(&mut self, pos: &mut Position, plies: u32, ply: usize) -> bool {
        self.reach(ply + 1);
        self.moves[ply].clear();
        pos.generate_legal(&mut self.moves[ply]);
        // No evasion at all is mate (in one, which the attacker's node has looked for).
        if self.lines {
            self.pv[ply].clear();
        }
        let mut longest: Option<usize> = None;
        for i in 0..self.moves[ply].len() {
            let e = self.moves[ply][i];
            let undo = pos.play_unchecked(e);
            let lost = if self.lines {
                let key = pos.key();
                let mut found = false;
                if !self.path.contains(&key) {
                    self.path.push(key);
                    // The shortest mate after this evasion (the defender picks the longest).
                    let mut n = 1;
                    while n < plies {
                        if self.attack(pos, n, ply + 1).is_some() {
                            found = true;
                            break;
                        }
                        if self.aborted {
                            break;
                        }
                        n += 2;
                    }
                    self.path.pop();
                }
                found
            } else {
                self.attack(pos, plies - 1, ply + 1).is_some()
            };
            pos.undo(e, undo);
            if !lost {
                return false;
            }
            if self.lines && longest.is_none_or(|l| self.pv[ply + 1].len() + 1 > l) {
                self.line_through(ply, e);
                longest = Some(self.pv[ply].len());
            }
        }
        true
    }
}

/// Solve `pos` for a mate of the side to move within `limits`; `stop` ends it early.
pub fn solve(pos: &Position, limits: MateLimits, stop: &AtomicBool) -> MateAnswer {
    let mut p = pos.clone();
    if p.is_in_check() {
        // The side to move is in check: it cannot be the attacker of a mating problem.
        return MateAnswer::NoMate;
    }
    let mut s = MateSearch {
        stop: Some(stop),
        deadline: limits.deadline,
        lines: true,
        path: vec![pos.key()],
        ..MateSearch::new(limits.nodes)
    };
    let mut plies = 1;
    while plies <= limits.max_plies {
        s.cut = false;
        if s.attack(&mut p, plies, 0).is_some() {
            return MateAnswer::Mate(std::mem::take(&mut s.pv[0]));
        }
        if s.aborted {
            return MateAnswer::Timeout;
        }
        if !s.cut {
            return MateAnswer::NoMate;
        }
        plies += 2;
    }
    MateAnswer::Timeout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_usi_words() {
        assert_eq!(MateAnswer::NoMate.to_usi(), "checkmate nomate");
        assert_eq!(MateAnswer::Timeout.to_usi(), "checkmate timeout");
        let m = Move::from_usi("G*5b").unwrap();
        assert_eq!(MateAnswer::Mate(vec![m]).to_usi(), "checkmate G*5b");
    }

    #[test]
    fn budget_exhaustion_is_reported() {
        // Black has checks (the gold drops), so a 3-ply proof needs more than one node.
        let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G 1").unwrap();
        let mut s = MateSearch::new(1);
        assert_eq!(s.mate(&mut pos, 3), None);
        assert!(s.exhausted());
    }
}
