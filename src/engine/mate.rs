//! The mate solver behind `go mate`: an iterative-deepening AND/OR search over checks.
//!
//! The attacker checks at every move; the defender tries every legal evasion. Iteration
//! `n` proves or refutes a mate within `n` plies (1, 3, 5, ...); the first iteration that
//! proves one gives the shortest mate, and its line is built with the longest defence at
//! every defender's move (each evasion's shortest mate found by the same deepening). An
//! iteration that never stopped at its length limit (no line still had a check when the
//! limit came) has seen the whole tree: then there is no mate at any length. A node limit,
//! a deadline and a stop flag end the search with `timeout`. Perpetual check cannot be a
//! mate: a position repeated on the line ends it as a failure, and the core's move
//! generation never drops a pawn to mate.
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::guard::checks;
use crate::shogi::{Move, Position, solve_mate_in_one_in_place};

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

struct Solver<'a> {
    nodes: u64,
    limits: MateLimits,
    stop: &'a AtomicBool,
    aborted: bool,
    /// An iteration stopped somewhere at its length limit with a check still to try.
    cut: bool,
    /// Keys of the positions on the current line.
    path: Vec<u64>,
}

impl Solver<'_> {
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.limits.nodes
            || (self.nodes & 1023 == 0
                && (self.stop.load(Ordering::Relaxed)
                    || self.limits.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The attacker to move mates within `plies` (odd): a mating line, if one is proven.
    fn attack(&mut self, pos: &mut Position, plies: u32) -> Option<Vec<Move>> {
        if self.tick() {
            return None;
        }
        if let Some(m) = solve_mate_in_one_in_place(pos) {
            return Some(vec![m]);
        }
        let mut list = Vec::with_capacity(64);
        checks(pos, &mut list);
        if list.is_empty() {
            return None;
        }
        if plies < 3 {
            self.cut = true;
            return None;
        }
        for m in list {
            let undo = pos.play_unchecked(m);
            let key = pos.key();
            let line = if self.path.contains(&key) {
                None
            } else {
                self.path.push(key);
                let r = self.defend(pos, plies - 1);
                self.path.pop();
                r
            };
            pos.undo(m, undo);
            if let Some(rest) = line {
                let mut v = Vec::with_capacity(rest.len() + 1);
                v.push(m);
                v.extend(rest);
                return Some(v);
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// The defender (in check) to move is mated within `plies` whatever it plays: the line
    /// of the longest defence, if proven.
    fn defend(&mut self, pos: &mut Position, plies: u32) -> Option<Vec<Move>> {
        let evasions = pos.legal_moves();
        if evasions.is_empty() {
            return Some(Vec::new());
        }
        let mut longest: Option<Vec<Move>> = None;
        for &e in evasions.iter() {
            let undo = pos.play_unchecked(e);
            let key = pos.key();
            let mut found = None;
            if !self.path.contains(&key) {
                self.path.push(key);
                // The shortest mate after this evasion (the defender picks the longest).
                let mut n = 1;
                while n < plies {
                    if let Some(line) = self.attack(pos, n) {
                        found = Some(line);
                        break;
                    }
                    if self.aborted {
                        break;
                    }
                    n += 2;
                }
                self.path.pop();
            }
            pos.undo(e, undo);
            let line = found?;
            if longest.as_ref().is_none_or(|l| line.len() + 1 > l.len()) {
                let mut v = Vec::with_capacity(line.len() + 1);
                v.push(e);
                v.extend(line);
                longest = Some(v);
            }
        }
        longest
    }
}

/// Solve `pos` for a mate of the side to move within `limits`; `stop` ends it early.
pub fn solve(pos: &Position, limits: MateLimits, stop: &AtomicBool) -> MateAnswer {
    let mut p = pos.clone();
    let mut s = Solver {
        nodes: 0,
        limits,
        stop,
        aborted: false,
        cut: false,
        path: vec![pos.key()],
    };
    if p.is_in_check() {
        // The side to move is in check: it cannot be the attacker of a mating problem.
        return MateAnswer::NoMate;
    }
    let mut plies = 1;
    while plies <= limits.max_plies {
        s.cut = false;
        if let Some(line) = s.attack(&mut p, plies) {
            return MateAnswer::Mate(line);
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
}
