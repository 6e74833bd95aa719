//! The per-game table's closed vocabularies: [`Status`], [`Entering`] and
//! [`ServerReason`] (with [`super::FinalBoard`] in its own module). The game step writes
//! these words and the report, the scan summary and `replay --games` read them, all
//! through these name tables.

use crate::words::word_enum;

word_enum! {
    /// Whether a record was read and replayed to its end (`status`).
    pub enum Status("status") {
        /// Replayed to its end, with a summary.
        Ok => "ok",
        /// A recorded move is illegal by the replay (replayed to its end regardless).
        IllegalMove => "illegal_move",
        /// The record ends mid-line or without `'$END_TIME`.
        Truncated => "truncated",
        /// The record has no move.
        NoMoves => "no_moves",
        /// Replayed to its end, without a `'summary`.
        NoSummary => "no_summary",
        /// The start position could not be set up.
        BadPosition => "bad_position",
    }
}

impl Status {
    /// The record was replayed to its end, so its final position is the game's: `ok`,
    /// `illegal_move` or `no_summary`.
    pub const REPLAYED: [Status; 3] = [Status::Ok, Status::IllegalMove, Status::NoSummary];
}

word_enum! {
    /// Which kings stand in the enemy camp in the final position (`entering`).
    pub enum Entering("entering class") {
        /// Both kings.
        Mutual => "mutual",
        /// Black's king only.
        BlackOnly => "black_only",
        /// White's king only.
        WhiteOnly => "white_only",
        /// Neither king.
        Neither => "none",
    }
}

impl Entering {
    /// The class of a final position from whether each king is in the enemy camp.
    pub const fn of(black_in_camp: bool, white_in_camp: bool) -> Entering {
        match (black_in_camp, white_in_camp) {
            (true, true) => Entering::Mutual,
            (true, false) => Entering::BlackOnly,
            (false, true) => Entering::WhiteOnly,
            (false, false) => Entering::Neither,
        }
    }

    /// The classes of an entering-king game: exactly one king in the enemy camp.
    pub const ONE_SIDED: [Entering; 2] = [Entering::BlackOnly, Entering::WhiteOnly];

    /// The classes of an entering-king game: mutual or one-sided.
    pub const ENTERING_KING: [Entering; 3] =
        [Entering::Mutual, Entering::BlackOnly, Entering::WhiteOnly];
}

word_enum! {
    /// The reasons of the server's vocabulary that the judge gives and the tables select
    /// on (`summary_reason`, `judge_reason`). A summary may carry other words: the
    /// column keeps them as written.
    pub enum ServerReason("server reason") {
        /// Resignation.
        Toryo => "toryo",
        /// A valid declaration (`%KACHI`).
        Kachi => "kachi",
        /// An invalid declaration: the declarer loses.
        IllegalKachi => "illegal kachi",
        /// The server ended the game abnormally (a disconnection).
        Abnormal => "abnormal",
        /// A player ran out of time.
        TimeUp => "time up",
        /// A pawn-drop mate.
        Uchifuzume => "uchifuzume",
        /// A move leaving the king in check.
        OuteKaihimore => "oute_kaihimore",
        /// Any other illegal move.
        IllegalMove => "illegal move",
        /// Fourfold repetition: a draw.
        Sennichite => "sennichite",
        /// Fourfold repetition by perpetual check: the checking side loses.
        OuteSennichite => "oute_sennichite",
        /// The move limit.
        MaxMoves => "max_moves",
        /// The move limit, as newer servers write it.
        MaxMovesDraw => "max_moves_draw",
    }
}

impl ServerReason {
    /// The reasons of a game the move limit ended.
    pub const MOVE_LIMIT: [ServerReason; 2] = [ServerReason::MaxMoves, ServerReason::MaxMovesDraw];

    /// The reasons of a repetition.
    pub const REPETITION: [ServerReason; 2] =
        [ServerReason::Sennichite, ServerReason::OuteSennichite];

    /// True for a game the move limit ended.
    pub fn is_move_limit(self) -> bool {
        Self::MOVE_LIMIT.contains(&self)
    }
}

/// A selection of games by their words: a game is selected when its `status`, its
/// `entering` class and its `summary_reason` are each one of the listed words. Defined
/// once as data, tested here on the words ([`Selection::matches`]) and by the report as a
/// polars expression over the same lists.
#[derive(Debug, Clone, Copy)]
pub struct Selection {
    /// The statuses selected.
    pub status: &'static [Status],
    /// The entering classes selected.
    pub entering: &'static [Entering],
    /// The summary reasons selected (a game without a summary is never selected).
    pub reason: &'static [ServerReason],
}

impl Selection {
    /// Whether a game with these words is selected (unknown words select nothing).
    pub fn matches(&self, status: &str, entering: &str, summary_reason: Option<&str>) -> bool {
        status.parse().is_ok_and(|s| self.status.contains(&s))
            && entering.parse().is_ok_and(|e| self.entering.contains(&e))
            && summary_reason
                .and_then(|r| r.parse().ok())
                .is_some_and(|r| self.reason.contains(&r))
    }
}

/// The cut mutual games: replayed to their end, both kings in the enemy camp at the end,
/// ended by the move limit. The one definition the report (`cut_mutual_games`) and
/// `replay --games` both use.
pub const CUT_MUTUAL: Selection = Selection {
    status: &Status::REPLAYED,
    entering: &[Entering::Mutual],
    reason: &ServerReason::MOVE_LIMIT,
};

/// Whether a game is a mutual entering-king game the move limit cut off, from its
/// `status`, `entering` and `summary_reason` words (unknown words select nothing): the
/// [`CUT_MUTUAL`] selection.
pub fn is_cut_mutual(status: &str, entering: &str, summary_reason: Option<&str>) -> bool {
    CUT_MUTUAL.matches(status, entering, summary_reason)
}

word_enum! {
    /// What a rule would have decided in a game's final position
    /// (`rule27_final`, `rule24_final`, `impasse24_final`).
    pub enum RuleVerdict("rule verdict") {
        /// Black wins (a valid declaration by Black, or Black alone reaching the impasse
        /// threshold).
        Black => "black",
        /// White wins.
        White => "white",
        /// A draw (a declared draw under the 24-point rule, or both sides reaching the
        /// impasse threshold).
        Draw => "draw",
        /// The rule decides nothing there: no valid declaration, or no impasse.
        Nothing => "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::FinalBoard;

    fn round_trip<T>(all: &[T], names: &[&str], what: &str)
    where
        T: Copy + std::fmt::Debug + PartialEq + std::str::FromStr<Err = crate::words::UnknownWord>,
        T: std::fmt::Display,
    {
        assert_eq!(all.len(), names.len());
        for (v, n) in all.iter().zip(names) {
            assert_eq!(v.to_string(), *n);
            assert_eq!(n.parse::<T>(), Ok(*v));
        }
        let mut sorted = names.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{what}: a word twice");
        let e = "no such word".parse::<T>().unwrap_err();
        assert_eq!((e.what, e.word.as_str()), (what, "no such word"));
    }

    #[test]
    fn name_tables_round_trip_and_reject_unknown_words() {
        round_trip(
            Status::ALL,
            &[
                "ok",
                "illegal_move",
                "truncated",
                "no_moves",
                "no_summary",
                "bad_position",
            ],
            "status",
        );
        round_trip(
            Entering::ALL,
            &["mutual", "black_only", "white_only", "none"],
            "entering class",
        );
        round_trip(ServerReason::ALL, ServerReason::NAMES, "server reason");
        assert_eq!("illegal kachi".parse(), Ok(ServerReason::IllegalKachi));
        assert_eq!("max_moves_draw".parse(), Ok(ServerReason::MaxMovesDraw));
        round_trip(
            FinalBoard::ALL,
            &["match", "prelast", "mismatch", "missing", "unchecked"],
            "final board",
        );
        assert!("Mutual".parse::<Entering>().is_err());
        assert!("".parse::<Status>().is_err());
    }

    #[test]
    fn entering_class_of_the_kings() {
        assert_eq!(Entering::of(true, true), Entering::Mutual);
        assert_eq!(Entering::of(true, false), Entering::BlackOnly);
        assert_eq!(Entering::of(false, true), Entering::WhiteOnly);
        assert_eq!(Entering::of(false, false), Entering::Neither);
    }

    #[test]
    fn cut_mutual_selection() {
        assert!(is_cut_mutual("ok", "mutual", Some("max_moves")));
        assert!(is_cut_mutual(
            "no_summary",
            "mutual",
            Some("max_moves_draw")
        ));
        assert!(is_cut_mutual("illegal_move", "mutual", Some("max_moves")));
        assert!(!is_cut_mutual("truncated", "mutual", Some("max_moves")));
        assert!(!is_cut_mutual("ok", "black_only", Some("max_moves")));
        assert!(!is_cut_mutual("ok", "mutual", Some("kachi")));
        assert!(!is_cut_mutual("ok", "mutual", None));
        assert!(!is_cut_mutual("ok", "mutual", Some("max_moves ")));
    }
}
