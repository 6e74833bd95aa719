//! Repetition (千日手, sennichite) and perpetual check along one game: a history of
//! position keys with, for each position, the side to move and whether it is in check.
//!
//! The same key (board, both hands, side to move) occurring for the 4th time ends the
//! game in a draw, unless one side gave check with every one of its moves over the
//! repeated stretch: that side loses. Both sides are examined, whoever is to move at
//! the 4th occurrence.

use super::{Color, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    side_to_move: Color,
    in_check: bool,
}

impl Entry {
    fn of(p: &Position) -> Entry {
        Entry {
            key: p.key(),
            side_to_move: p.side_to_move(),
            in_check: p.is_in_check(),
        }
    }
}

/// What the history says about the current (last) position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionStatus {
    /// Fewer than four occurrences of the current position.
    None,
    /// Fourth occurrence without perpetual check: draw.
    Draw,
    /// Fourth occurrence and the given side checked with every move of the stretch: it loses.
    PerpetualCheckLoss(Color),
}

/// The positions of a game from its start, newest last. [`History::new`] counts the start
/// position as an occurrence (the engine rule); a judge that does not count it (as
/// shogi-server does) starts from `History::default()` and pushes only positions after moves.
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<Entry>,
}

impl History {
    /// A history holding only the start position.
    pub fn new(start: &Position) -> History {
        History {
            entries: vec![Entry::of(start)],
        }
    }

    /// A history of `start` reached through earlier positions: `prior` holds each one's
    /// key and whether its side to move was in check, oldest first, one ply apart (the
    /// search's game history). They count for repetitions as positions of this game.
    pub fn with_prior(prior: &[(u64, bool)], start: &Position) -> History {
        let n = prior.len();
        let mut entries: Vec<Entry> = prior
            .iter()
            .enumerate()
            .map(|(i, &(key, in_check))| {
                // The last prior position is one ply before `start`: the other side moved.
                let side = if (n - i) % 2 == 1 {
                    start.side_to_move().opposite()
                } else {
                    start.side_to_move()
                };
                Entry {
                    key,
                    side_to_move: side,
                    in_check,
                }
            })
            .collect();
        entries.push(Entry::of(start));
        History { entries }
    }

    /// The positions before the current one as the search takes them (`(key, in check)`,
    /// oldest first): the inverse of [`History::with_prior`].
    pub fn prior(&self) -> Vec<(u64, bool)> {
        let n = self.entries.len().saturating_sub(1);
        self.entries[..n]
            .iter()
            .map(|e| (e.key, e.in_check))
            .collect()
    }

    /// Record the position reached after a move.
    pub fn push(&mut self, after: &Position) {
        self.entries.push(Entry::of(after));
    }

    /// Forget the last position (never the start position).
    pub fn pop(&mut self) {
        if self.entries.len() > 1 {
            self.entries.pop();
        }
    }

    /// Number of positions recorded (plies played + 1).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if nothing is recorded (only for a default-constructed history).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many times the current position has occurred so far (including now).
    pub fn occurrences(&self) -> usize {
        match self.entries.last() {
            None => 0,
            Some(cur) => self.entries.iter().filter(|e| e.key == cur.key).count(),
        }
    }

    /// Repetition status of the current position.
    pub fn repetition(&self) -> RepetitionStatus {
        let Some(cur) = self.entries.last() else {
            return RepetitionStatus::None;
        };
        let mut seen = 0;
        let mut earliest = None;
        for (i, e) in self.entries.iter().enumerate().rev() {
            if e.key == cur.key {
                seen += 1;
                if seen == 4 {
                    earliest = Some(i);
                    break;
                }
            }
        }
        let Some(start) = earliest else {
            return RepetitionStatus::None;
        };
        let stretch = &self.entries[start..];
        // `c` checked with every move if every position with `!c` to move is in check.
        let perpetual = |c: Color| {
            stretch
                .iter()
                .filter(|e| e.side_to_move != c)
                .all(|e| e.in_check)
        };
        match (perpetual(Color::Black), perpetual(Color::White)) {
            (true, false) => RepetitionStatus::PerpetualCheckLoss(Color::Black),
            (false, true) => RepetitionStatus::PerpetualCheckLoss(Color::White),
            // Both sides checking throughout (no single culprit) or neither: a plain draw.
            _ => RepetitionStatus::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Move;

    fn run(sfen: &str, moves: &[&str], times: usize) -> (Position, History, Vec<RepetitionStatus>) {
        let mut p = Position::from_sfen(sfen).unwrap();
        let mut h = History::new(&p);
        let mut statuses = Vec::new();
        for _ in 0..times {
            for m in moves {
                p.play(Move::from_usi(m).unwrap()).unwrap();
                h.push(&p);
                statuses.push(h.repetition());
            }
        }
        (p, h, statuses)
    }

    #[test]
    fn perpetual_check_with_checker_to_move() {
        // The seed design's defect: here the checker (Black) is to move at the 4th
        // occurrence, and must still lose.
        let (p, h, st) = run(
            "8k/R8/9/9/9/9/9/9/4K4 b - 1",
            &["9b9a", "1a1b", "9a9b", "1b1a"],
            3,
        );
        assert_eq!(h.occurrences(), 4);
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(
            st[..11]
                .iter()
                .filter(|s| **s != RepetitionStatus::None)
                .count(),
            0
        );
        assert_eq!(st[11], RepetitionStatus::PerpetualCheckLoss(Color::Black));
    }

    #[test]
    fn perpetual_check_with_checked_side_to_move() {
        // One cycle more: the 4th occurrence of the position after 9b9a, White in check to move.
        let (_, _, st) = run(
            "8k/R8/9/9/9/9/9/9/4K4 b - 1",
            &["9b9a", "1a1b", "9a9b", "1b1a"],
            4,
        );
        assert_eq!(st[12], RepetitionStatus::PerpetualCheckLoss(Color::Black));
    }

    #[test]
    fn a_prior_stretch_counts_for_repetition_and_round_trips() {
        // Three cycles played with a full history, then the same game continued from the
        // position after 8 plies with those 8 positions given as prior: the status after
        // each later move is the same.
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let moves = ["5i4h", "5a4b", "4h5i", "4b5a"];
        let (_, full, st) = run(sfen, &moves, 3);
        let mut p = Position::from_sfen(sfen).unwrap();
        let mut h = History::new(&p);
        for m in moves.iter().cycle().take(8) {
            p.play(Move::from_usi(m).unwrap()).unwrap();
            h.push(&p);
        }
        let prior = h.prior();
        assert_eq!(prior.len(), 8);
        let mut resumed = History::with_prior(&prior, &p);
        assert_eq!(resumed.prior(), prior);
        assert_eq!(resumed.len(), 9);
        for (k, m) in moves.iter().cycle().take(4).enumerate() {
            p.play(Move::from_usi(m).unwrap()).unwrap();
            resumed.push(&p);
            assert_eq!(resumed.repetition(), st[8 + k], "ply {}", 9 + k);
        }
        assert_eq!(resumed.repetition(), RepetitionStatus::Draw);
        assert_eq!(full.len(), resumed.len());
    }

    #[test]
    fn plain_repetition_is_a_draw() {
        let (_, mut h, st) = run(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            &["5i4h", "5a4b", "4h5i", "4b5a"],
            3,
        );
        assert_eq!(st[11], RepetitionStatus::Draw);
        assert!(st[..11].iter().all(|s| *s == RepetitionStatus::None));
        h.pop();
        assert_eq!(h.repetition(), RepetitionStatus::None);
    }
}
