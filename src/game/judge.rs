//! The record judge: how the floodgate server should have ended each game, by its own
//! rules (shogi-server's `Board` and `GameResult`), compared with what its `'summary` says.
//!
//! The judge looks at the record's evidence in game order: a recorded move that is
//! illegal, a 4th occurrence of a position, or the move limit can end a game inside the
//! moves; otherwise the game ended after the last move by the rejected action, the end
//! marker, or (for endings the server wrote no marker for) the summary's own reason,
//! whose loser must then be the side the server blames. It never "fixes" a record: where
//! an old server judged differently from the current rules, the disagreement is reported.
//! One inference is made: an `uchifuzume` summary without its `'ILLEGAL_MOVE` line (as in
//! a record edited by hand) agrees when the side to move has a pawn-drop mate available,
//! and the detail says so.

use super::playthrough::{Playthrough, parse_move, server_word};
use super::server_repetition::ServerRepetition;
use super::words::ServerReason;
use crate::csa::{Record, RejectedAction, Special, SpecialKind, is_move_text};
use crate::shogi::{
    Color, DECLARATION_ZONE_PIECES, EnteringKingRule, IllegalMoveKind, Move, PieceKind, Position,
    RULE27_BLACK_POINTS, Square,
};
use crate::words::UnknownWord;

/// A game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// The game was drawn.
    Draw,
}

impl Outcome {
    /// `black`, `white` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "black",
            Outcome::Win(Color::White) => "white",
            Outcome::Draw => "draw",
        }
    }
}

/// Our verdict and how it compares with the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// Our reason in the server's vocabulary, `None` when the record shows no ending.
    pub reason: Option<ServerReason>,
    /// Our result.
    pub outcome: Option<Outcome>,
    /// `None` without a summary.
    pub agrees: Option<bool>,
    /// Notes on the evidence and on any disagreement with the summary (line numbers
    /// 1-based), joined with `; `; empty when there is nothing to say.
    pub detail: String,
}

/// The summary's result as an [`Outcome`] (`None` without a summary or with odd results).
pub fn summary_outcome(rec: &Record<'_>) -> Option<Outcome> {
    let s = rec.summary.as_ref()?;
    match (s.black_result(), s.white_result()) {
        ("win", "lose") => Some(Outcome::Win(Color::Black)),
        ("lose", "win") => Some(Outcome::Win(Color::White)),
        ("draw", "draw") => Some(Outcome::Draw),
        _ => None,
    }
}

/// The Max_Moves limit in force: the record's line, else the server default 256 for
/// games from 2014-10-12 (the option's introduction) to the line's appearance.
pub fn effective_max_moves(rec: &Record<'_>) -> Option<usize> {
    if let Some(n) = rec.max_moves {
        return usize::try_from(n).ok().filter(|&n| n > 0);
    }
    let start = rec.start_time.as_deref()?;
    let date = start.get(0..10)?;
    ("2014/10/12".."2016/01/01").contains(&date).then_some(256)
}

/// The first condition of Jishogi 1.1 a `%KACHI` fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KachiFault {
    /// The declarer is in check.
    #[error("the declarer is in check")]
    InCheck,
    /// The declarer's king is not in the enemy camp.
    #[error("the declarer's king is not in the enemy camp")]
    KingOutsideCamp,
    /// Fewer than 10 of the declarer's other pieces in the enemy camp.
    #[error("only {zone} pieces in the enemy camp (10 needed)")]
    FewPieces {
        /// The declarer's pieces in the enemy camp, its king left out.
        zone: i32,
    },
    /// Too few declaration points (28 for Black, 27 for White).
    #[error("{points} points ({need} needed)")]
    FewPoints {
        /// The declarer's points (camp and hand).
        points: i32,
        /// The points the declarer needs.
        need: i32,
    },
}

/// Jishogi 1.1 as the server applies it to a `%KACHI` of the side to move: valid, or
/// the first condition it fails.
pub fn server_kachi(pos: &Position) -> Result<(), KachiFault> {
    let side = pos.side_to_move();
    if pos.is_in_check() {
        return Err(KachiFault::InCheck);
    }
    if !pos.king_in_camp(side) {
        return Err(KachiFault::KingOutsideCamp);
    }
    let zone = pos.zone_count(side);
    if zone < DECLARATION_ZONE_PIECES {
        return Err(KachiFault::FewPieces { zone });
    }
    let need = EnteringKingRule::CSARule27
        .base_threshold(side)
        .unwrap_or(RULE27_BLACK_POINTS);
    let points = pos.declaration_points(side);
    if points < need {
        return Err(KachiFault::FewPoints { points, need });
    }
    Ok(())
}

/// A pawn drop of the side to move that would be a pawn-drop mate.
fn pawn_drop_mate(pos: &Position) -> Option<Move> {
    if pos.hand(pos.side_to_move()).count(PieceKind::Pawn) == 0 {
        return None;
    }
    Square::ALL
        .iter()
        .map(|&to| Move::Drop {
            kind: PieceKind::Pawn,
            to,
        })
        .find(|&m| matches!(pos.legality(m), Err(IllegalMoveKind::DropPawnMate)))
}

/// Classify the client's rejected line against the final position. A line that starts
/// with a move is judged by that move (servers before 2020 ignored text after it); a legal
/// move with text after it was rejected for its syntax (the strict regex of 2020).
fn rejected_reason(pos: &Position, raw: &[u8]) -> Result<ServerReason, LegalRejected> {
    if !is_move_text(raw) {
        return Ok(ServerReason::IllegalMove);
    }
    let legal = parse_move(pos, &raw[..7]).and_then(|m| pos.legality(m).map_err(|k| k.name()));
    match legal {
        Err(kind) => Ok(server_word(kind)),
        Ok(()) if raw.len() > 7 => Ok(ServerReason::IllegalMove),
        Ok(()) => Err(LegalRejected(String::from_utf8_lossy(raw).into_owned())),
    }
}

/// A rejected action (`'ILLEGAL_MOVE(...)`) that is a legal move: the record contradicts
/// itself.
#[derive(Debug, thiserror::Error)]
#[error("the rejected {0} is a legal move")]
struct LegalRejected(String);

fn repetition_verdict(v: ServerRepetition) -> (ServerReason, Outcome) {
    match v {
        ServerRepetition::Draw => (ServerReason::Sennichite, Outcome::Draw),
        ServerRepetition::PerpetualCheckLoss(c) => {
            (ServerReason::OuteSennichite, Outcome::Win(c.opposite()))
        }
    }
}

/// Our verdict from the evidence, before comparing with the summary.
fn verdict(
    rec: &Record<'_>,
    r: &Playthrough,
    notes: &mut Vec<String>,
    early: &mut bool,
) -> Option<(ServerReason, Outcome)> {
    // 1. Endings inside the moves, earliest first (repetition before the move limit).
    if let Some(v) = ending_inside_moves(rec, r, notes, early) {
        return Some(v);
    }
    // 2. The game ended after the last move.
    let pos = &r.last;
    if let Some(rej) = rec.rejected {
        return rejected_verdict(pos, rej, rec.moves.len(), notes);
    }
    let summary = rec.summary.as_ref().map(|s| s.reason.as_str());
    let summary_reason = summary.map(str::parse::<ServerReason>);
    if let Some(sp) = rec.end_marker() {
        return marker_verdict(pos, sp, summary_reason, notes);
    }
    // 3. No marker: endings the server wrote none for.
    let reason = match summary_reason? {
        Ok(r) => r,
        Err(e) => {
            notes.push(format!("no evidence in the record for '{}'", e.word));
            return None;
        }
    };
    summary_verdict(rec, r, reason, notes)
}

/// An ending inside the moves (repetition, move limit, illegal move); `early` if moves follow.
fn ending_inside_moves(
    rec: &Record<'_>,
    r: &Playthrough,
    notes: &mut Vec<String>,
    early: &mut bool,
) -> Option<(ServerReason, Outcome)> {
    let plies = rec.moves.len();
    let line_of = |ply: usize| rec.moves.get(ply - 1).map_or(0, |m| m.line);
    let limit = effective_max_moves(rec).filter(|&n| n <= r.played);
    let inside = match (r.repetition, limit) {
        (Some(rep), Some(n)) if n < rep.ply => Some((n, (ServerReason::MaxMoves, Outcome::Draw))),
        (Some(rep), _) => Some((rep.ply, repetition_verdict(rep.verdict))),
        (None, Some(n)) => Some((n, (ServerReason::MaxMoves, Outcome::Draw))),
        (None, None) => None,
    };
    if let Some((ply, v)) = inside {
        if ply < plies {
            *early = true;
            notes.push(format!(
                "line {}: {} at ply {ply}, but the record goes on to ply {plies}",
                line_of(ply),
                v.0
            ));
        }
        return Some(v);
    }
    let ill = r.illegal.as_ref()?;
    let mover = r.last.side_to_move();
    *early |= ill.ply < plies;
    notes.push(format!(
        "line {}: recorded move {} at ply {} is illegal ({})",
        ill.line, ill.text, ill.ply, ill.kind
    ));
    Some((ill.server_reason, Outcome::Win(mover.opposite())))
}

/// The side to move at `pos` loses.
fn mover_loses(pos: &Position) -> Outcome {
    Outcome::Win(pos.side_to_move().opposite())
}

/// A `%KACHI` of the side to move at `pos`: a win, or an illegal declaration (noted).
fn kachi_verdict(pos: &Position, notes: &mut Vec<String>) -> Option<(ServerReason, Outcome)> {
    match server_kachi(pos) {
        Ok(()) => Some((ServerReason::Kachi, Outcome::Win(pos.side_to_move()))),
        Err(why) => {
            notes.push(format!("declaration fails: {why}"));
            Some((ServerReason::IllegalKachi, mover_loses(pos)))
        }
    }
}

/// The rejected action after the last move: the side to move loses, unless it is legal.
fn rejected_verdict(
    pos: &Position,
    rej: RejectedAction<'_>,
    plies: usize,
    notes: &mut Vec<String>,
) -> Option<(ServerReason, Outcome)> {
    if rej.after_plies != plies {
        notes.push(format!(
            "line {}: rejected action is not after the last move",
            rej.line
        ));
    }
    match rejected_reason(pos, rej.raw) {
        Ok(word) => Some((word, mover_loses(pos))),
        Err(why) => {
            notes.push(format!("line {}: {why}", rej.line));
            None
        }
    }
}

/// The end marker after the last move (an `abnormal` summary turns `%TORYO` into it).
fn marker_verdict(
    pos: &Position,
    sp: &Special<'_>,
    summary_reason: Option<Result<ServerReason, UnknownWord>>,
    notes: &mut Vec<String>,
) -> Option<(ServerReason, Outcome)> {
    let loses = mover_loses(pos);
    match sp.kind {
        SpecialKind::Kachi => kachi_verdict(pos, notes),
        SpecialKind::Toryo if summary_reason == Some(Ok(ServerReason::Abnormal)) => {
            Some((ServerReason::Abnormal, loses))
        }
        SpecialKind::Toryo => Some((ServerReason::Toryo, loses)),
        SpecialKind::TimeUp => Some((ServerReason::TimeUp, loses)),
        SpecialKind::Sennichite => {
            notes.push(format!(
                "line {}: %SENNICHITE without a 4th occurrence",
                sp.line
            ));
            None
        }
        _ => {
            notes.push(format!(
                "line {}: end marker {} judged by no rule",
                sp.line,
                sp.marker()
            ));
            None
        }
    }
}

/// The summary's reason for a game with no marker: checked against the final position.
fn summary_verdict(
    rec: &Record<'_>,
    r: &Playthrough,
    reason: ServerReason,
    notes: &mut Vec<String>,
) -> Option<(ServerReason, Outcome)> {
    use ServerReason as S;
    let pos = &r.last;
    let plies = rec.moves.len();
    let loses = mover_loses(pos);
    match reason {
        S::Toryo | S::Abnormal | S::TimeUp => Some((reason, loses)),
        S::Kachi | S::IllegalKachi => kachi_verdict(pos, notes),
        S::Uchifuzume => match pawn_drop_mate(pos) {
            Some(m) => {
                notes.push(format!(
                    "no 'ILLEGAL_MOVE line; the side to move has the pawn-drop mate {}",
                    m.to_usi()
                ));
                Some((S::Uchifuzume, loses))
            }
            None => {
                notes.push("no 'ILLEGAL_MOVE line and no pawn-drop mate available".into());
                None
            }
        },
        S::Sennichite | S::OuteSennichite => {
            let mut s = format!("no 4th occurrence of a position in {plies} plies");
            if let Some(rep) = r.repetition_sideless {
                s.push_str(&format!(
                    "; ignoring the side to move (the server's key before 2008-03-16), ply {} is a 4th occurrence",
                    rep.ply
                ));
            }
            notes.push(s);
            None
        }
        S::MaxMoves | S::MaxMovesDraw => {
            notes.push(format!(
                "the game ends on ply {plies}, the move limit is {}",
                effective_max_moves(rec).map_or("absent".to_string(), |n| n.to_string())
            ));
            None
        }
        S::OuteKaihimore | S::IllegalMove => {
            notes.push(format!("no evidence in the record for '{reason}'"));
            None
        }
    }
}

/// Judge a replayed record.
pub fn judge(rec: &Record<'_>, r: &Playthrough) -> Judgement {
    let mut notes = Vec::new();
    let mut early = false;
    let v = verdict(rec, r, &mut notes, &mut early);
    let (reason, outcome) = match v {
        Some((reason, outcome)) => (Some(reason), Some(outcome)),
        None => (None, None),
    };
    let agrees = rec.summary.as_ref().map(|s| {
        let Some(ours) = reason else {
            return false;
        };
        let same_reason = ours.name() == s.reason
            || (ours == ServerReason::MaxMoves && s.reason == ServerReason::MaxMovesDraw.name());
        let theirs = summary_outcome(rec);
        if !same_reason {
            notes.push(format!(
                "line {}: summary says '{}', the rules say '{ours}'",
                s.line, s.reason
            ));
            if let Some(rep) = r.repetition {
                let line = rec.moves.get(rep.ply - 1).map_or(0, |m| m.line);
                notes.push(match rep.verdict {
                    ServerRepetition::Draw => {
                        format!("line {line}: ply {} is a 4th occurrence", rep.ply)
                    }
                    ServerRepetition::PerpetualCheckLoss(c) => format!(
                        "line {line}: ply {} is a 4th occurrence; {} gave perpetual check",
                        rep.ply,
                        Outcome::Win(c).name()
                    ),
                });
            }
        }
        if theirs != outcome {
            notes.push(format!(
                "summary result {}, the rules give {}",
                theirs.map_or("unclear", Outcome::name),
                outcome.map_or("none", Outcome::name)
            ));
        }
        same_reason && theirs == outcome && !early
    });
    Judgement {
        reason,
        outcome,
        agrees,
        detail: notes.join("; "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csa::read_record;

    #[test]
    fn move_limit_default_only_in_its_era() {
        let rec = |text: &str| read_record(text.as_bytes()).map(|r| effective_max_moves(&r));
        assert_eq!(rec("V2\n'Max_Moves:512\n"), Ok(Some(512)));
        assert_eq!(rec("V2\n'Max_Moves:0\n"), Ok(None));
        assert_eq!(rec("V2\n$START_TIME:2015/04/15 00:30:02\n"), Ok(Some(256)));
        assert_eq!(rec("V2\n$START_TIME:2014/10/11 23:59:59\n"), Ok(None));
        assert_eq!(rec("V2\n$START_TIME:2013/04/15 00:30:02\n"), Ok(None));
        assert_eq!(rec("V2\n"), Ok(None));
    }

    #[test]
    fn summary_outcomes() {
        let out = |s: &str| {
            let text = format!("V2\nN+a\nN-b\n'summary:{s}\n");
            summary_outcome(&read_record(text.as_bytes()).unwrap())
        };
        assert_eq!(out("toryo:a win:b lose"), Some(Outcome::Win(Color::Black)));
        assert_eq!(out("toryo:b win:a lose"), Some(Outcome::Win(Color::White)));
        assert_eq!(out("sennichite:a draw:b draw"), Some(Outcome::Draw));
        assert_eq!(out("toryo:a win:b win"), None);
    }
}
