//! Repetition as the floodgate server counts it (not the engine's rule).
//!
//! The server counts every position after a move (never the starting position) and ends
//! the game at the 4th occurrence. For the perpetual-check verdict it keeps, per side, a
//! count of positions seen since that side began checking without a break: a side's
//! counter is switched on by its checking move, cleared by its non-checking move, and
//! while on it counts every position after either side's move. At the 4th occurrence on
//! the mover's move: the mover loses if its own counter for the position reached 4, else
//! the opponent loses if its counter reached 3, else the game is a plain draw.
//! This is the rule of shogi-server's `Board` (since 2009-06), implemented independently.

use crate::shogi::Color;

/// Occurrence counts of position keys: an open-addressing table (keys are Zobrist hashes,
/// already uniform), sized for the game and grown when three quarters are taken.
#[derive(Debug, Default, Clone)]
struct KeyCounts {
    /// (key, count); a count of 0 marks an empty slot.
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl KeyCounts {
    fn with_capacity(n: usize) -> Self {
        KeyCounts {
            slots: vec![(0, 0); (n.max(8) + n / 2).next_power_of_two()],
            len: 0,
        }
    }

    /// The slot holding `key`, or the empty slot where it goes.
    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        while self.slots[i].1 != 0 && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// Count one more occurrence of `key`; the new count.
    fn bump(&mut self, key: u64) -> u32 {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            let bigger = vec![(0, 0); (2 * self.slots.len()).max(8)];
            let old = std::mem::replace(&mut self.slots, bigger);
            for (key, count) in old.into_iter().filter(|s| s.1 > 0) {
                let i = self.slot(key);
                self.slots[i] = (key, count);
            }
        }
        let i = self.slot(key);
        let slot = &mut self.slots[i];
        if slot.1 == 0 {
            *slot = (key, 0);
            self.len += 1;
        }
        slot.1 += 1;
        slot.1
    }
}

/// The server's verdict at a 4th occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerRepetition {
    /// Plain repetition: a draw (`sennichite`).
    Draw,
    /// Perpetual check (`oute_sennichite`): this side loses.
    PerpetualCheckLoss(Color),
}

/// Per-game repetition state, fed one position key per ply.
#[derive(Debug, Default, Clone)]
pub struct ServerRepetitionCounter {
    total: KeyCounts,
    /// Per side (index = `Color::index()`): the keys seen since the side began its
    /// current run of checks. Runs are short, so a list.
    checking: [Vec<u64>; 2],
    /// Per side: is it in a run of checks? (The lists keep their memory between runs.)
    on: [bool; 2],
}

impl ServerRepetitionCounter {
    /// A counter for a game with no position counted yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A counter for a game of about `plies` moves.
    pub fn with_capacity(plies: usize) -> Self {
        ServerRepetitionCounter {
            total: KeyCounts::with_capacity(plies),
            checking: [Vec::new(), Vec::new()],
            on: [false; 2],
        }
    }

    /// Count the position `key` reached by `mover`'s move; `gave_check` says whether the
    /// move checked the opponent. Returns the verdict when this is a 4th occurrence.
    pub fn push(&mut self, key: u64, mover: Color, gave_check: bool) -> Option<ServerRepetition> {
        let total = self.total.bump(key);
        let m = mover.index();
        if !gave_check {
            self.checking[m].clear();
        }
        self.on[m] = gave_check;
        for side in 0..2 {
            if self.on[side] {
                self.checking[side].push(key);
            }
        }
        if total < 4 {
            return None;
        }
        let count = |c: Color| {
            self.checking[c.index()]
                .iter()
                .filter(|&&k| k == key)
                .count()
        };
        let opponent = mover.opposite();
        Some(if count(mover) >= 4 {
            ServerRepetition::PerpetualCheckLoss(mover)
        } else if count(opponent) >= 3 {
            ServerRepetition::PerpetualCheckLoss(opponent)
        } else {
            ServerRepetition::Draw
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_counts_agree_with_a_map_through_growth() {
        let mut table = KeyCounts::with_capacity(1);
        let mut map = std::collections::HashMap::new();
        // Keys that collide in the low bits, repeated, past several growths.
        for i in 0..2_000u64 {
            let key = (i % 300) << 20 | (i % 7);
            let want = map.entry(key).or_insert(0u32);
            *want += 1;
            assert_eq!(table.bump(key), *want, "key {key:#x}");
        }
        assert_eq!(table.len, map.len());
    }

    #[test]
    fn plain_repetition_needs_four_occurrences() {
        let mut r = ServerRepetitionCounter::new();
        let cycle = [
            (1, Color::Black),
            (2, Color::White),
            (3, Color::Black),
            (4, Color::White),
        ];
        let mut verdicts = Vec::new();
        for _ in 0..4 {
            for &(k, c) in &cycle {
                verdicts.push(r.push(k, c, false));
            }
        }
        // Key 1 reaches its 4th occurrence at ply 13.
        let first = verdicts.iter().position(Option::is_some).unwrap();
        assert_eq!(first, 12);
        assert_eq!(verdicts[12], Some(ServerRepetition::Draw));
    }

    #[test]
    fn checker_loses_whoever_is_to_move() {
        // Black checks on every move, White escapes.
        let mut r = ServerRepetitionCounter::new();
        let mut out = None;
        for i in 0..16 {
            let (k, c, chk) = match i % 4 {
                0 => (1, Color::Black, true),
                1 => (2, Color::White, false),
                2 => (3, Color::Black, true),
                _ => (4, Color::White, false),
            };
            if let Some(v) = r.push(k, c, chk) {
                out = Some((i, v));
                break;
            }
        }
        // 4th occurrence of key 1 on Black's (checking) move.
        assert_eq!(
            out,
            Some((12, ServerRepetition::PerpetualCheckLoss(Color::Black)))
        );

        // Same cycle, but the 4th occurrence falls on White's escaping move.
        let mut r = ServerRepetitionCounter::new();
        r.push(9, Color::Black, false);
        let mut out = None;
        for i in 0..16 {
            let (k, c, chk) = match i % 4 {
                0 => (2, Color::White, false),
                1 => (3, Color::Black, true),
                2 => (4, Color::White, false),
                _ => (1, Color::Black, true),
            };
            if let Some(v) = r.push(k, c, chk) {
                out = Some((i, v));
                break;
            }
        }
        let (i, v) = out.unwrap();
        assert_eq!(i, 12);
        assert_eq!(v, ServerRepetition::PerpetualCheckLoss(Color::Black));
    }

    #[test]
    fn a_quiet_move_clears_the_checking_counter() {
        let mut r = ServerRepetitionCounter::new();
        let mut last = None;
        for i in 0..16 {
            let (k, c, chk) = match i % 4 {
                0 => (1, Color::Black, true),
                1 => (2, Color::White, false),
                2 => (3, Color::Black, false),
                _ => (4, Color::White, false),
            };
            last = r.push(k, c, chk).or(last);
        }
        assert_eq!(last, Some(ServerRepetition::Draw));
    }
}
