//! A record's moves played through the position core, from its start position.
//!
//! The replay stops at the first move the core finds illegal (a record the server wrote
//! should have none) and collects, along the way, what the per-game table wants about
//! the whole game: the first ply with both kings in camp, the first ply at which each side
//! could declare a win, and the server's repetition count.

use super::server_repetition::{ServerRepetition, ServerRepetitionCounter};
use super::words::ServerReason;
use crate::csa::{MoveLine, Record};
use crate::shogi::{
    Color, CsaPositionError, DeclarationOutcome, EnteringKingRule, Move, Position, PositionErrors,
    Setup, UndoInfo, evaluate_declaration,
};

/// Why a recorded move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalAt {
    /// 1-based ply.
    pub ply: usize,
    /// 1-based line of the move.
    pub line: usize,
    /// The move as written.
    pub text: String,
    /// `IllegalMoveKind` name, or `wrong_side` / `piece_mismatch` / `unparsable` for moves
    /// the core cannot even represent as the mover's move.
    pub kind: String,
    /// The server's word for such a move (`illegal move`, `uchifuzume`, `oute_kaihimore`).
    pub server_reason: ServerReason,
}

/// A repetition the server would have ended the game with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepetitionAt {
    /// 1-based ply of the move that made the 4th occurrence.
    pub ply: usize,
    /// Whether the server would call it a draw or a perpetual-check loss, and whose.
    pub verdict: ServerRepetition,
}

/// The outcome of replaying one record.
#[derive(Debug, Clone)]
pub struct Playthrough {
    /// Position after the last legal move.
    pub last: Position,
    /// The last legal move and what undoing it needs (`None` when no move was played).
    pub last_move: Option<(Move, UndoInfo)>,
    /// Number of moves played.
    pub played: usize,
    /// The first recorded move that is not legal, where the replay stopped; `None` when
    /// every move was legal.
    pub illegal: Option<IllegalAt>,
    /// First 4th occurrence by the server's count (current key: with side to move).
    pub repetition: Option<RepetitionAt>,
    /// Same count with a key that ignores the side to move (the server before 2008-03-16).
    pub repetition_sideless: Option<RepetitionAt>,
    /// First ply (0 = start) after which both kings are in camp, and the SFEN there.
    pub first_mutual: Option<(usize, String)>,
    /// First ply after which the side to move could declare a win: 27-point rule,
    /// indexed by `Color::index()`.
    pub first_decl27: [Option<usize>; 2],
    /// Same under the 24-point rule.
    pub first_decl24: [Option<usize>; 2],
}

impl Playthrough {
    /// The position before the last legal move (`None` when no move was played).
    pub fn before_last(&self) -> Option<Position> {
        let (m, undo) = self.last_move?;
        let mut p = self.last.clone();
        p.undo(m, undo);
        Some(p)
    }
}

/// The Zobrist component of the side to move, assuming an XOR key (checked in tests).
fn side_key() -> u64 {
    let mut s = Position::startpos().to_setup();
    s.side_to_move = Color::White;
    match Position::from_setup(s) {
        Ok(p) => p.key() ^ Position::startpos().key(),
        Err(_) => 0,
    }
}

/// The server's reason for an illegal move of this kind.
pub fn server_word(kind: &str) -> ServerReason {
    match kind {
        "drop_pawn_mate" => ServerReason::Uchifuzume,
        "ignored_check" => ServerReason::OuteKaihimore,
        _ => ServerReason::IllegalMove,
    }
}

/// Parse a CSA move (7 bytes) for the side to move of `pos`, checking what the core's
/// parser leaves to the caller: the sign, and that the piece code fits the origin piece
/// (as it is, or promoted). Returns the move or the name of the defect.
#[inline(always)]
pub fn parse_move(pos: &Position, text: &[u8]) -> Result<Move, &'static str> {
    let sign = if pos.side_to_move() == Color::Black {
        b'+'
    } else {
        b'-'
    };
    if text.len() != 7 {
        return Err("unparsable");
    }
    if text[0] != sign {
        return Err("wrong_side");
    }
    let (m, fits) = pos.parse_csa_move(text).map_err(|_| "unparsable")?;
    if let Move::Normal { from, .. } = m {
        if pos.piece_at(from).is_none() {
            return Err("not_own_piece");
        }
        if !fits {
            return Err("piece_mismatch");
        }
    }
    Ok(m)
}

/// The standard starting position as the server writes it.
const HIRATE_ROWS: [&[u8]; 9] = [
    b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    b"P2 * -HI *  *  *  *  * -KA * ",
    b"P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    b"P4 *  *  *  *  *  *  *  *  * ",
    b"P5 *  *  *  *  *  *  *  *  * ",
    b"P6 *  *  *  *  *  *  *  *  * ",
    b"P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    b"P8 * +KA *  *  *  *  * +HI * ",
    b"P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
];

/// Why a record's starting position could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The record has no `P` lines and no side-to-move line.
    #[error("no position block")]
    NoPositionBlock,
    /// The position block does not parse.
    #[error("line {line}: position block: {error}")]
    Syntax {
        /// 1-based line of the block's first line.
        line: usize,
        /// What is wrong with it.
        error: CsaPositionError,
    },
    /// The block parses but is no legal position.
    #[error("line {line}: position block: {error}")]
    Invalid {
        /// 1-based line of the block's first line.
        line: usize,
        /// What makes it illegal.
        error: PositionErrors,
    },
}

/// Build the starting position from the record's position block.
pub fn start_position(rec: &Record<'_>) -> Result<Position, StartError> {
    let block = rec.position.as_ref().ok_or(StartError::NoPositionBlock)?;
    // Nearly every record starts from the standard position written the server's way.
    if block.lines.as_slice() == HIRATE_ROWS && matches!(block.side, Some((_, b'+'))) {
        return Ok(Position::startpos());
    }
    let line = block.line;
    let setup = Setup::from_csa_lines(block.position_lines())
        .map_err(|error| StartError::Syntax { line, error })?;
    Position::from_setup(setup).map_err(|error| StartError::Invalid { line, error })
}

/// Whether the side to move could declare a win under `rule` (the core's judgement).
fn declaration_wins(pos: &Position, rule: EnteringKingRule) -> bool {
    evaluate_declaration(pos, rule).outcome == DeclarationOutcome::Win
}

/// What [`note`] records along the game.
struct Firsts<'a> {
    mutual: &'a mut Option<(usize, String)>,
    decl27: &'a mut [Option<usize>; 2],
    decl24: &'a mut [Option<usize>; 2],
}

/// Record what `pos`, after `ply` moves, is the first of. Nothing can be a first while no
/// king is in the enemy camp, as in most positions: that test is made inline, the rest
/// only when a king is there.
#[inline(always)]
fn note(pos: &Position, ply: usize, r: Firsts<'_>) {
    let in_camp = [
        pos.king_in_camp(Color::Black),
        pos.king_in_camp(Color::White),
    ];
    if in_camp[0] || in_camp[1] {
        note_in_camp(pos, ply, in_camp, r);
    }
}

#[inline(never)]
fn note_in_camp(pos: &Position, ply: usize, in_camp: [bool; 2], r: Firsts<'_>) {
    if r.mutual.is_none() && in_camp[0] && in_camp[1] {
        *r.mutual = Some((ply, pos.to_sfen()));
    }
    let i = pos.side_to_move().index();
    if !in_camp[i] {
        return;
    }
    if r.decl27[i].is_none() && declaration_wins(pos, EnteringKingRule::CSARule27) {
        r.decl27[i] = Some(ply);
    }
    if r.decl24[i].is_none() && declaration_wins(pos, EnteringKingRule::CSARule24) {
        r.decl24[i] = Some(ply);
    }
}

/// Play `moves` from `start`. `sideless` also counts repetitions with the pre-2008-03
/// key (only worth it for records that claim one).
pub fn play_through(start: Position, moves: &[MoveLine<'_>], sideless: bool) -> Playthrough {
    play_through_with(start, moves, sideless, &mut SeenFilter::default())
}

/// [`play_through`] with a repetition filter kept from game to game (cleared after each).
pub(crate) fn play_through_with(
    start: Position,
    moves: &[MoveLine<'_>],
    sideless: bool,
    filter: &mut SeenFilter,
) -> Playthrough {
    let mut r = Playthrough::at_start(start);
    // Positions after each move, for the server's repetition count. The count is only
    // run when some position may have come back (a key seen twice by a 16-bit filter):
    // in most games none does.
    let mut history: Vec<(u64, Color, bool)> = Vec::with_capacity(moves.len());
    let mut came_back = false;
    r.note_firsts(0);

    // The last move and its undo information, kept apart until the end (written into the
    // result on every ply, the pair cost a store-forwarding stall per move).
    let mut last_move = None;
    let mut last_undo = None;
    for (i, ml) in moves.iter().enumerate() {
        let ply = i + 1;
        let m = match checked_move(&r.last, ml.text) {
            Ok(m) => m,
            Err(kind) => {
                r.illegal = Some(illegal_at(ply, ml, kind));
                break;
            }
        };
        let mover = r.last.side_to_move();
        last_undo = Some(r.last.play_unchecked(m));
        last_move = Some(m);
        let next = &r.last;
        let gave_check = next.is_in_check();
        let key = next.key();
        history.push((key, mover, gave_check));
        came_back |= filter.insert(key);
        r.note_firsts(ply);
        r.played = ply;
    }
    r.last_move = last_move.zip(last_undo);
    filter.clear(history.iter().map(|h| h.0));
    r.count_repetitions(&history, came_back, sideless);
    r
}

impl Playthrough {
    /// Nothing played yet from `start`.
    fn at_start(start: Position) -> Playthrough {
        Playthrough {
            last: start,
            last_move: None,
            played: 0,
            illegal: None,
            repetition: None,
            repetition_sideless: None,
            first_mutual: None,
            first_decl27: [None; 2],
            first_decl24: [None; 2],
        }
    }

    /// Record what the current position, after `ply` moves, is the first of.
    #[inline(always)]
    fn note_firsts(&mut self, ply: usize) {
        note(
            &self.last,
            ply,
            Firsts {
                mutual: &mut self.first_mutual,
                decl27: &mut self.first_decl27,
                decl24: &mut self.first_decl24,
            },
        );
    }

    /// The server's repetition counts over `history`, the positions after each move.
    fn count_repetitions(
        &mut self,
        history: &[(u64, Color, bool)],
        came_back: bool,
        sideless: bool,
    ) {
        if came_back {
            self.repetition = first_fourth(history.iter().copied());
        }
        if sideless {
            let side_key = side_key();
            // The old key: White to move (after Black's move) hashed like Black to move.
            // Positions equal by it may differ by the side to move, so the filter above
            // proves nothing for it: the count always runs.
            self.repetition_sideless = first_fourth(history.iter().map(|&(key, mover, check)| {
                let key = if mover == Color::Black {
                    key ^ side_key
                } else {
                    key
                };
                (key, mover, check)
            }));
        }
    }
}

/// The recorded move `text` for the side to move of `pos`, if it parses and is legal;
/// else the name of its defect.
#[inline(always)]
fn checked_move(pos: &Position, text: &[u8]) -> Result<Move, &'static str> {
    parse_move(pos, text).and_then(|m| pos.legality(m).map(|()| m).map_err(|k| k.name()))
}

/// The replay's record of the illegal move `ml` at `ply`, of defect `kind`.
#[inline]
fn illegal_at(ply: usize, ml: &MoveLine<'_>, kind: &str) -> IllegalAt {
    IllegalAt {
        ply,
        line: ml.line,
        text: ml.as_str().to_string(),
        kind: kind.to_string(),
        server_reason: server_word(kind),
    }
}

/// The first 4th occurrence by the server's count over the positions after each move
/// (key, mover, whether the move gave check).
fn first_fourth(
    history: impl ExactSizeIterator<Item = (u64, Color, bool)>,
) -> Option<RepetitionAt> {
    let mut counter = ServerRepetitionCounter::with_capacity(history.len());
    history
        .enumerate()
        .find_map(|(i, (key, mover, gave_check))| {
            counter
                .push(key, mover, gave_check)
                .map(|verdict| RepetitionAt {
                    ply: i + 1,
                    verdict,
                })
        })
}

/// A set of 65,536 bits indexed by the top 16 bits of a position key: `insert` says
/// whether the bit was already set, so a `false` for every key of a game proves that no
/// position came back. Kept by the worker from game to game and cleared key by key after
/// each (clearing 8 KB per game would cost more than the game's own keys).
#[derive(Debug)]
pub(crate) struct SeenFilter(Box<[u64; 1024]>);

impl Default for SeenFilter {
    fn default() -> SeenFilter {
        SeenFilter(Box::new([0; 1024]))
    }
}

impl SeenFilter {
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let b = (key >> 48) as usize;
        let (word, bit) = (&mut self.0[b >> 6], 1u64 << (b & 63));
        let seen = *word & bit != 0;
        *word |= bit;
        seen
    }

    /// Clear the bits of `keys`, the keys inserted since the set was last clear.
    fn clear(&mut self, keys: impl Iterator<Item = u64>) {
        for key in keys {
            self.0[(key >> 54) as usize] = 0;
        }
        debug_assert!(self.0.iter().all(|&w| w == 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replay's repetition (counted only when a key comes back) equals the server's
    /// count run on every ply, with and without a repetition, and the per-thread filter
    /// is left clear for the next game.
    #[test]
    fn repetition_counted_only_when_a_position_comes_back_is_the_same() {
        let direct = |texts: &[&[u8]]| {
            let mut pos = Position::startpos();
            let mut counter = ServerRepetitionCounter::new();
            texts.iter().enumerate().find_map(|(i, t)| {
                let m = parse_move(&pos, t).unwrap();
                let mover = pos.side_to_move();
                pos.play_unchecked(m);
                counter
                    .push(pos.key(), mover, pos.is_in_check())
                    .map(|verdict| RepetitionAt {
                        ply: i + 1,
                        verdict,
                    })
            })
        };
        let lines = |texts: &[&'static [u8]]| -> Vec<MoveLine<'static>> {
            texts
                .iter()
                .enumerate()
                .map(|(i, t)| MoveLine {
                    line: i + 1,
                    text: t,
                    trailing: b"",
                    time: None,
                    before_position: false,
                })
                .collect()
        };
        let shuffle: Vec<&'static [u8]> = [
            &b"+7776FU"[..],
            b"-3334FU",
            b"+5948OU",
            b"-5142OU",
            b"+4859OU",
            b"-4251OU",
        ]
        .into_iter()
        .chain(
            [&b"+5948OU"[..], b"-5142OU", b"+4859OU", b"-4251OU"]
                .into_iter()
                .cycle()
                .take(16),
        )
        .collect();
        let quiet: Vec<&'static [u8]> = vec![b"+7776FU", b"-3334FU", b"+2726FU", b"-8384FU"];
        for texts in [&shuffle, &quiet, &shuffle[..12].to_vec()] {
            let r = play_through(Position::startpos(), &lines(texts), false);
            assert_eq!(r.played, texts.len());
            assert_eq!(r.repetition, direct(texts));
        }
        let mut filter = SeenFilter::default();
        let r = play_through_with(Position::startpos(), &lines(&shuffle), false, &mut filter);
        assert_eq!(
            r.repetition,
            Some(RepetitionAt {
                // The position after ply 2 (both kings at home) again after 6, 10, 14.
                ply: 14,
                verdict: ServerRepetition::Draw
            })
        );
        assert!(
            filter.0.iter().all(|&w| w == 0),
            "cleared for the next game"
        );
    }

    #[test]
    fn hirate_fast_path_equals_the_parsed_block() {
        let mut lines = HIRATE_ROWS.to_vec();
        lines.push(b"+");
        let parsed = Position::from_setup(Setup::from_csa_lines(lines).unwrap()).unwrap();
        assert_eq!(parsed.to_sfen(), Position::startpos().to_sfen());
        assert_eq!(parsed.key(), Position::startpos().key());
    }
}
