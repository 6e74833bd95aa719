//! The engine rules as the search meets them: the path of positions behind a node (the
//! game's history, then the search path) with the repetition, perpetual-check, move-limit,
//! try-rule and declaration verdicts read off it, and the root's choice of the draw
//! declaration under a 24-point rule.

use super::{Config, MATE, MATE_BOUND};
use crate::shogi::{
    EnteringKingRule, Move, Position, can_declare_win, evaluate_declaration, try_rule_reached,
};

/// One position of the path.
#[derive(Debug, Clone, Copy)]
pub(super) struct PathEntry {
    pub(super) key: u64,
    pub(super) in_check: bool,
    /// Reached by a null move: repetitions are not searched across it.
    pub(super) null: bool,
}

/// Buckets of the repetition filter.
const KEY_BUCKETS: usize = 4096;

/// Bucket of a position key in the repetition filter (its top bits).
#[inline(always)]
fn key_bucket(key: u64) -> usize {
    (key >> 52) as usize
}

/// The positions behind the node being searched, oldest first: the game's history, then
/// the search path from the root.
#[derive(Debug)]
pub(super) struct Path {
    entries: Vec<PathEntry>,
    /// How many entries have each value of [`key_bucket`]: a position whose bucket holds
    /// only itself cannot be a repetition, so its scan is skipped.
    key_counts: Vec<u16>,
    /// Index of the root's entry (the first of the search path).
    root_index: usize,
}

impl Path {
    /// An empty path.
    pub(super) fn new() -> Path {
        Path {
            entries: Vec::with_capacity(1024),
            key_counts: vec![0; KEY_BUCKETS],
            root_index: 0,
        }
    }

    /// Start a search: the game's `history` (`(key, side to move in check)` of every
    /// earlier position, oldest first), then the root `pos`.
    pub(super) fn start(&mut self, history: &[(u64, bool)], pos: &Position) {
        self.entries.clear();
        self.key_counts.fill(0);
        for &(key, in_check) in history {
            self.push(PathEntry {
                key,
                in_check,
                null: false,
            });
        }
        self.root_index = self.entries.len();
        self.push(PathEntry {
            key: pos.key(),
            in_check: pos.is_in_check(),
            null: false,
        });
    }

    /// Put a position on the path.
    #[inline(always)]
    pub(super) fn push(&mut self, e: PathEntry) {
        self.key_counts[key_bucket(e.key)] += 1;
        self.entries.push(e);
    }

    /// Take the last position off the path.
    #[inline(always)]
    pub(super) fn pop(&mut self) {
        if let Some(e) = self.entries.pop() {
            self.key_counts[key_bucket(e.key)] -= 1;
        }
    }

    /// Terminal status of the node on top of the path from the rules of `config` (not
    /// mate): `Some(score)` for the side to move.
    pub(super) fn verdict(
        &self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        config: &Config,
    ) -> Option<i32> {
        let top = self.entries.len() - 1;
        let key = self.entries[top].key;
        // Repetition: same side to move, so every second entry (none can match when the
        // key's bucket holds only this entry).
        let mut i = if self.key_counts[key_bucket(key)] > 1 {
            top
        } else {
            0
        };
        let mut occurrences = 1;
        let mut first_in_path = None;
        while i >= 2 {
            if self.entries[i].null || self.entries[i - 1].null {
                break;
            }
            i -= 2;
            if self.entries[i].key == key {
                occurrences += 1;
                if i >= self.root_index && first_in_path.is_none() {
                    first_in_path = Some(i);
                }
                if first_in_path.is_none() && occurrences >= 4 {
                    first_in_path = Some(i);
                    break;
                }
                if first_in_path.is_some() {
                    break;
                }
            }
        }
        if let Some(j) = first_in_path {
            // Over the cycle j..=top: who was in check at every one of their turns?
            let us_always_checked = (j..=top).step_by(2).all(|k| self.entries[k].in_check);
            let them_always_checked = (j + 1..top).step_by(2).all(|k| self.entries[k].in_check);
            if us_always_checked && top > j {
                return Some(MATE - ply as i32);
            }
            if them_always_checked && top > j + 1 {
                return Some(-MATE + ply as i32);
            }
            return Some(0);
        }
        let max = config.max_moves_to_draw;
        if max > 0 && pos.move_number() as i64 > max as i64 && !in_check {
            return Some(0);
        }
        let rule = config.rule;
        if rule == EnteringKingRule::TryRule && try_rule_lost(pos) {
            return Some(-MATE + ply as i32);
        }
        if !in_check && can_declare_win(pos, rule) {
            return Some(MATE - ply as i32);
        }
        None
    }
}

/// Under the try rule: whether the side that just moved has its king on the try square.
fn try_rule_lost(pos: &Position) -> bool {
    try_rule_reached(pos, pos.side_to_move().opposite())
}

/// Whether playing `pv` from `pos` brings the side to move's owned points to `target`
/// (captures are the only way owned points grow).
fn pv_reaches(pos: &Position, pv: &[Move], target: i32) -> bool {
    let us = pos.side_to_move();
    let mut p = pos.clone();
    for &m in pv {
        if p.play(m).is_err() {
            break;
        }
        if p.owned_points(us) >= target {
            return true;
        }
    }
    false
}

/// The draw declaration, under a 24-point `rule`: only when the side owns fewer points
/// than a win needs (owned points grow only by captures) and the search found no win
/// (no mate, no line capturing its way to the points); never while a win is in
/// reach. Being mated is worse than the draw.
pub(super) fn draw_is_best(
    pos: &Position,
    rule: EnteringKingRule,
    best_score: i32,
    best_pv: &[Move],
) -> bool {
    let target = evaluate_declaration(pos, rule).threshold;
    let us = pos.side_to_move();
    let no_win = best_score < MATE_BOUND
        && pos.owned_points(us) < target
        && !pv_reaches(pos, best_pv, target);
    no_win || best_score <= -MATE_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repetition_filter_changes_no_verdict() {
        // Random paths over a few keys (two of them share a filter bucket without being
        // equal), with checks and null moves: the verdict with the filter equals the one of
        // the full scan (forced by marking every bucket as shared).
        let pos = Position::startpos();
        let config = Config::default();
        let keys = [
            0x1000_0000_0000_0001u64,
            0x1000_0000_0000_0002,
            0x2000_0000_0000_0003,
            0x3000_0000_0000_0004,
            0x4000_0000_0000_0005,
        ];
        let mut rng = crate::rng::XorShift64Star::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.below(n);
        let mut path = Path::new();
        let mut repetitions = 0;
        for _ in 0..5_000 {
            path.entries.clear();
            path.key_counts.fill(0);
            let len = 1 + next(40) as usize;
            path.root_index = next(len as u64) as usize;
            for _ in 0..len {
                path.push(PathEntry {
                    key: keys[next(keys.len() as u64) as usize],
                    in_check: next(3) == 0,
                    null: next(23) == 0,
                });
            }
            let ply = 1 + next(10) as usize;
            let got = path.verdict(&pos, ply, false, &config);
            path.key_counts.fill(u16::MAX / 2);
            let want = path.verdict(&pos, ply, false, &config);
            assert_eq!(got, want);
            repetitions += want.is_some() as u32;
        }
        assert!(repetitions > 500, "{repetitions} repetitions seen");
    }
}
