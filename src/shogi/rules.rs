//! Game-ending rules other than mate: entering-king declaration (入玉宣言) under the six
//! rule variants, impasse adjudication (持将棋, jishogi), the try rule, the move limit,
//! and [`terminal_status`], which checks them in a fixed order.
//!
//! Points: rook, bishop, dragon and horse count 5, every other non-king piece 1.

use std::fmt;
use std::str::FromStr;

use super::{Color, History, Position, RepetitionStatus, Square};

/// The 24-point rules' move-number clause: a declaration is valid only while the SFEN move
/// number (plies + 1) is at most this.
pub const RULE24_LAST_MOVE: u32 = 500;

/// Points for a declared draw under the 24-point rules, and the owned points a side needs
/// in an impasse under them.
pub const RULE24_DRAW_POINTS: i32 = 24;

/// Declaration points that win under the 24-point rules (either side, before any handicap
/// adjustment).
pub const RULE24_WIN_POINTS: i32 = 31;

/// Declaration points Black needs to win under the 27-point rules (and owned points in an
/// impasse under them).
pub const RULE27_BLACK_POINTS: i32 = 28;

/// Declaration points White needs to win under the 27-point rules (and owned points in an
/// impasse under them), before any handicap adjustment.
pub const RULE27_WHITE_POINTS: i32 = 27;

/// Own non-king pieces a declarer needs in the enemy camp (the zone count), under every
/// declaration rule.
pub const DECLARATION_ZONE_PIECES: i32 = 10;

/// Owned points of both sides together in a game with every piece of the set (34 pieces
/// at 1, two rooks and two bishops at 5): the sum every final position of an even game
/// has, so at most one side owns more than half.
pub const TOTAL_OWNED_POINTS: i32 = 54;

/// Entering-king rule variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnteringKingRule {
    /// No declaration and no impasse adjudication.
    NoEnteringKing,
    /// JSA 24-point rule: 31 or more wins, 24-30 draws, 23 or less loses; under 500 moves.
    CSARule24,
    /// 24-point rule with White's (the handicap giver's) thresholds lowered by the missing points.
    CSARule24H,
    /// CSA 27-point rule (floodgate): Black needs 28, White 27; below loses.
    CSARule27,
    /// 27-point rule with White's threshold lowered by the missing points.
    CSARule27H,
    /// Try rule: a king reaching the enemy king's start square wins; no declaration.
    TryRule,
}

impl EnteringKingRule {
    /// All six variants.
    pub const ALL: [EnteringKingRule; 6] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CSARule24,
        EnteringKingRule::CSARule24H,
        EnteringKingRule::CSARule27,
        EnteringKingRule::CSARule27H,
        EnteringKingRule::TryRule,
    ];

    /// The variant's name, e.g. `CSARule24`.
    pub const fn name(self) -> &'static str {
        match self {
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
            EnteringKingRule::CSARule24 => "CSARule24",
            EnteringKingRule::CSARule24H => "CSARule24H",
            EnteringKingRule::CSARule27 => "CSARule27",
            EnteringKingRule::CSARule27H => "CSARule27H",
            EnteringKingRule::TryRule => "TryRule",
        }
    }

    /// True for the four declaration rules.
    pub const fn has_declaration(self) -> bool {
        matches!(
            self,
            EnteringKingRule::CSARule24
                | EnteringKingRule::CSARule24H
                | EnteringKingRule::CSARule27
                | EnteringKingRule::CSARule27H
        )
    }

    /// True for the two 24-point rules (the ones with a declared draw at 24-30 points and
    /// a move-500 limit).
    pub const fn is_24(self) -> bool {
        matches!(
            self,
            EnteringKingRule::CSARule24 | EnteringKingRule::CSARule24H
        )
    }

    const fn is_handicap(self) -> bool {
        matches!(
            self,
            EnteringKingRule::CSARule24H | EnteringKingRule::CSARule27H
        )
    }

    /// Points `side` needs to win by declaration (`None` without declaration), before any
    /// handicap adjustment: [`RULE24_WIN_POINTS`], or [`RULE27_BLACK_POINTS`] /
    /// [`RULE27_WHITE_POINTS`].
    pub const fn base_threshold(self, side: Color) -> Option<i32> {
        match self {
            EnteringKingRule::CSARule24 | EnteringKingRule::CSARule24H => Some(RULE24_WIN_POINTS),
            EnteringKingRule::CSARule27 | EnteringKingRule::CSARule27H => Some(rule27_points(side)),
            _ => None,
        }
    }

    /// Owned points `side` needs in an impasse (`None` without impasse adjudication),
    /// before any handicap adjustment: [`RULE24_DRAW_POINTS`], or the 27-point rules'
    /// declaration thresholds.
    pub const fn impasse_base(self, side: Color) -> Option<i32> {
        match self {
            EnteringKingRule::CSARule24 | EnteringKingRule::CSARule24H => Some(RULE24_DRAW_POINTS),
            EnteringKingRule::CSARule27 | EnteringKingRule::CSARule27H => Some(rule27_points(side)),
            _ => None,
        }
    }

    /// Whether the rule's move-number clause allows a declaration at SFEN move number
    /// `move_number` (plies + 1): under the 24-point rules at most [`RULE24_LAST_MOVE`],
    /// under the others always.
    pub const fn move_number_allows_declaration(self, move_number: u32) -> bool {
        !self.is_24() || move_number <= RULE24_LAST_MOVE
    }
}

const fn rule27_points(side: Color) -> i32 {
    if matches!(side, Color::Black) {
        RULE27_BLACK_POINTS
    } else {
        RULE27_WHITE_POINTS
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown rule name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown entering-king rule `{0}` (one of NoEnteringKing, CSARule24, CSARule24H, CSARule27, CSARule27H, TryRule)"
)]
pub struct UnknownRule(pub String);

impl FromStr for EnteringKingRule {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<Self, UnknownRule> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// Result of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclarationOutcome {
    /// The declarer wins.
    Win,
    /// The game is drawn (24-point rule, 24-30 points).
    Draw,
    /// The declaration is illegal: the declarer loses.
    Illegal,
    /// The rule has no declaration.
    NotApplicable,
}

impl DeclarationOutcome {
    /// `win`, `draw`, `illegal` or `not_applicable`.
    pub const fn name(self) -> &'static str {
        match self {
            DeclarationOutcome::Win => "win",
            DeclarationOutcome::Draw => "draw",
            DeclarationOutcome::Illegal => "illegal",
            DeclarationOutcome::NotApplicable => "not_applicable",
        }
    }
}

/// Every condition of a declaration by the side to move, and the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationEvaluation {
    /// The rule the declaration was judged under.
    pub rule: EnteringKingRule,
    /// The declarer: the side to move.
    pub side: Color,
    /// The declarer's king stands in the enemy camp (ranks 1-3 for Black, 7-9 for White).
    pub king_in_camp: bool,
    /// The declarer is in check (a declaration in check is illegal).
    pub in_check: bool,
    /// Own non-king pieces in the enemy camp (10 needed).
    pub zone_count: i32,
    /// Declaration points: own non-king pieces in the enemy camp plus hand.
    pub points: i32,
    /// Points needed for a win (after any handicap adjustment); 0 when not applicable.
    pub threshold: i32,
    /// Points needed for a draw (24-point rules only).
    pub draw_threshold: Option<i32>,
    /// The move-count clause holds (24-point rules: SFEN move number <= 500).
    pub move_number_ok: bool,
    /// The verdict: a win when every condition holds and `points` reaches `threshold`, a
    /// draw when they hold and `points` reaches only `draw_threshold`, else illegal;
    /// [`DeclarationOutcome::NotApplicable`] when the rule has no declaration.
    pub outcome: DeclarationOutcome,
}

/// Points missing from the full set (the handicap): 56 minus (pieces on the board, kings
/// included, + 4 per rook, bishop, dragon and horse on the board + hand points), never
/// negative.
pub fn handicap_deficit(pos: &Position) -> i32 {
    let mut total = 0;
    for sq in Square::ALL {
        if let Some(p) = pos.piece_at(sq) {
            total += if p.kind.points() == 5 { 5 } else { 1 };
        }
    }
    total += pos.hand(Color::Black).points() + pos.hand(Color::White).points();
    (56 - total).max(0)
}

fn adjustment(pos: &Position, rule: EnteringKingRule, side: Color) -> i32 {
    if rule.is_handicap() && side == Color::White {
        handicap_deficit(pos)
    } else {
        0
    }
}

/// Judge a declaration by the side to move under `rule`.
#[inline]
pub fn evaluate_declaration(pos: &Position, rule: EnteringKingRule) -> DeclarationEvaluation {
    let side = pos.side_to_move();
    let king_in_camp = pos.king_in_camp(side);
    let in_check = pos.is_in_check();
    let zone_count = pos.zone_count(side);
    let points = pos.declaration_points(side);
    let move_number_ok = rule.move_number_allows_declaration(pos.move_number());
    let Some(base) = rule.base_threshold(side) else {
        return DeclarationEvaluation {
            rule,
            side,
            king_in_camp,
            in_check,
            zone_count,
            points,
            threshold: 0,
            draw_threshold: None,
            move_number_ok,
            outcome: DeclarationOutcome::NotApplicable,
        };
    };
    let adj = adjustment(pos, rule, side);
    let threshold = base - adj;
    let draw_threshold = rule.is_24().then_some(RULE24_DRAW_POINTS - adj);
    let conditions =
        king_in_camp && !in_check && zone_count >= DECLARATION_ZONE_PIECES && move_number_ok;
    let outcome = if !conditions {
        DeclarationOutcome::Illegal
    } else if points >= threshold {
        DeclarationOutcome::Win
    } else if draw_threshold.is_some_and(|d| points >= d) {
        DeclarationOutcome::Draw
    } else {
        DeclarationOutcome::Illegal
    };
    DeclarationEvaluation {
        rule,
        side,
        king_in_camp,
        in_check,
        zone_count,
        points,
        threshold,
        draw_threshold,
        move_number_ok,
        outcome,
    }
}

/// Whether the side to move can declare a win now: [`evaluate_declaration`] gives
/// [`DeclarationOutcome::Win`]. The king-in-camp and zone-count conditions are tested
/// first, so the usual position (no entering king) costs two look-ups.
#[inline]
pub fn can_declare_win(pos: &Position, rule: EnteringKingRule) -> bool {
    rule.has_declaration()
        && pos.king_in_camp(pos.side_to_move())
        && pos.zone_count(pos.side_to_move()) >= DECLARATION_ZONE_PIECES
        && evaluate_declaration(pos, rule).outcome == DeclarationOutcome::Win
}

/// Whether the side to move can declare a draw now: a 24-point rule, every condition met,
/// the points reaching only the draw band (24-30 before any handicap adjustment).
#[inline]
pub fn can_declare_draw(pos: &Position, rule: EnteringKingRule) -> bool {
    rule.is_24()
        && pos.king_in_camp(pos.side_to_move())
        && pos.zone_count(pos.side_to_move()) >= DECLARATION_ZONE_PIECES
        && evaluate_declaration(pos, rule).outcome == DeclarationOutcome::Draw
}

/// Whether no declaration is possible from `pos` on under `rule` because of the move-number
/// clause: a 24-point rule and an SFEN move number past [`RULE24_LAST_MOVE`]. Moves only
/// raise the move number, so the clause never holds again.
pub fn past_last_declaration_move(pos: &Position, rule: EnteringKingRule) -> bool {
    !rule.move_number_allows_declaration(pos.move_number())
}

/// Impasse adjudication (both kings in the enemy camp).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpasseVerdict {
    /// The rule has no impasse adjudication (NoEnteringKing, TryRule).
    NotApplicable,
    /// Not an impasse: a king outside the enemy camp, or a side in check.
    NotImpasse,
    /// Both sides reach their threshold.
    Draw,
    /// Only this side reaches its threshold.
    Win(Color),
    /// Neither side reaches its threshold (impossible with a full set of pieces).
    Undecided,
}

/// Owned points `side` needs in an impasse: 24 (24-point rules) or 28/27 (27-point rules),
/// lowered for White under the handicap variants.
pub fn impasse_threshold(pos: &Position, rule: EnteringKingRule, side: Color) -> Option<i32> {
    let base = rule.impasse_base(side)?;
    Some(base - adjustment(pos, rule, side))
}

/// Adjudicate an impasse: both kings in the enemy camp, neither side in check; compare
/// each side's owned points with its threshold.
pub fn impasse_adjudication(pos: &Position, rule: EnteringKingRule) -> ImpasseVerdict {
    let (Some(tb), Some(tw)) = (
        impasse_threshold(pos, rule, Color::Black),
        impasse_threshold(pos, rule, Color::White),
    ) else {
        return ImpasseVerdict::NotApplicable;
    };
    if !pos.king_in_camp(Color::Black) || !pos.king_in_camp(Color::White) || in_check_either(pos) {
        return ImpasseVerdict::NotImpasse;
    }
    let b = pos.owned_points(Color::Black) >= tb;
    let w = pos.owned_points(Color::White) >= tw;
    match (b, w) {
        (true, true) => ImpasseVerdict::Draw,
        (true, false) => ImpasseVerdict::Win(Color::Black),
        (false, true) => ImpasseVerdict::Win(Color::White),
        (false, false) => ImpasseVerdict::Undecided,
    }
}

fn in_check_either(pos: &Position) -> bool {
    // The side not to move is never in check in a legal position.
    pos.is_in_check()
}

/// True if `c`'s king stands on the enemy king's start square (5a for Black, 5i for White).
pub fn try_rule_reached(pos: &Position, c: Color) -> bool {
    let target = match c {
        Color::Black => Square::new(5, 1),
        Color::White => Square::new(5, 9),
    };
    pos.king_square(c) == target
}

/// Rule set of a game for [`terminal_status`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// How declaration, impasse and the try rule end the game (default: the 24-point
    /// rule).
    pub entering_king_rule: EnteringKingRule,
    /// Draw after this many plies (SFEN move number - 1) unless in check; 0 or less: no limit.
    pub max_moves_to_draw: i32,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            entering_king_rule: EnteringKingRule::CSARule24,
            max_moves_to_draw: 500,
        }
    }
}

/// Outcome for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TerminalOutcome {
    /// The game goes on.
    #[default]
    None,
    /// The side to move has won.
    Win,
    /// The game is drawn.
    Draw,
    /// The side to move has lost.
    Loss,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TerminalReason {
    /// The game goes on.
    #[default]
    None,
    /// The side to move wins by declaring: [`evaluate_declaration`] gives
    /// [`DeclarationOutcome::Win`].
    DeclarationWin,
    /// The same position (board, hands and side to move) has occurred four times without
    /// perpetual check (sennichite): a draw.
    Repetition,
    /// The fourfold repetition came from one side checking on every move: that side
    /// loses.
    PerpetualCheck,
    /// Both kings are in the enemy camp and the owned points decide a draw or a win.
    Impasse,
    /// The game has reached [`GameRules::max_moves_to_draw`] plies with the side to move
    /// not in check: a draw.
    MoveLimit,
    /// A king stands on the enemy king's start square under the try rule: its side wins.
    TryRule,
}

/// Terminal verdict of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TerminalStatus {
    /// Win, draw or loss for the side to move; [`TerminalOutcome::None`] while the game
    /// goes on.
    pub outcome: TerminalOutcome,
    /// The rule that ended the game; [`TerminalReason::None`] while it goes on.
    pub reason: TerminalReason,
}

impl TerminalStatus {
    /// True if the game is over.
    pub fn is_terminal(&self) -> bool {
        self.outcome != TerminalOutcome::None
    }

    fn new(outcome: TerminalOutcome, reason: TerminalReason) -> TerminalStatus {
        TerminalStatus { outcome, reason }
    }
}

fn win_for(pos: &Position, c: Color) -> TerminalOutcome {
    if pos.side_to_move() == c {
        TerminalOutcome::Win
    } else {
        TerminalOutcome::Loss
    }
}

/// Game-ending rules checked without generating moves, first match wins: perpetual
/// check (either side), try rule, repetition draw, move limit (not in check),
/// declaration win, impasse adjudication. Having no legal move (a loss for the side to
/// move) is not part of it. `history` must end with `pos`.
pub fn terminal_status(pos: &Position, history: &History, rules: &GameRules) -> TerminalStatus {
    use TerminalOutcome as O;
    use TerminalReason as R;
    let repetition = history.repetition();
    if let RepetitionStatus::PerpetualCheckLoss(c) = repetition {
        return TerminalStatus::new(win_for(pos, !c), R::PerpetualCheck);
    }
    let rule = rules.entering_king_rule;
    if rule == EnteringKingRule::TryRule {
        for c in Color::ALL {
            if try_rule_reached(pos, c) {
                return TerminalStatus::new(win_for(pos, c), R::TryRule);
            }
        }
    }
    if repetition == RepetitionStatus::Draw {
        return TerminalStatus::new(O::Draw, R::Repetition);
    }
    let plies = pos.move_number() as i64 - 1;
    if rules.max_moves_to_draw > 0 && plies >= rules.max_moves_to_draw as i64 && !pos.is_in_check()
    {
        return TerminalStatus::new(O::Draw, R::MoveLimit);
    }
    if rule.has_declaration() {
        if evaluate_declaration(pos, rule).outcome == DeclarationOutcome::Win {
            return TerminalStatus::new(O::Win, R::DeclarationWin);
        }
        match impasse_adjudication(pos, rule) {
            ImpasseVerdict::Draw => return TerminalStatus::new(O::Draw, R::Impasse),
            ImpasseVerdict::Win(c) => return TerminalStatus::new(win_for(pos, c), R::Impasse),
            _ => {}
        }
    }
    TerminalStatus::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        Position::from_sfen(s).unwrap()
    }

    #[test]
    fn twenty_four_point_bands() {
        // Eight pieces in camp only.
        let p = pos("4K4/9/GGGGSSSS1/NN7/9/9/9/9/4k4 b 2R2B 1");
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24);
        assert_eq!((e.zone_count, e.points), (8, 28));
        assert_eq!(e.outcome, DeclarationOutcome::Illegal);
        // Ten in camp (10 points) plus 21 in hand.
        const TEN: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b";
        let p = pos(&format!("{TEN} 2R2BL 1"));
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24);
        assert_eq!(
            (e.zone_count, e.points, e.threshold, e.draw_threshold),
            (10, 31, 31, Some(24))
        );
        assert_eq!(e.outcome, DeclarationOutcome::Win);
        let p = pos(&format!("{TEN} 2R2BL 500"));
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24).outcome,
            DeclarationOutcome::Win
        );
        let p = pos(&format!("{TEN} 2R2BL 501"));
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24);
        assert!(!e.move_number_ok);
        assert_eq!(e.outcome, DeclarationOutcome::Illegal);
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule27).outcome,
            DeclarationOutcome::Win
        );
        let p = pos(&format!("{TEN} 2RB 1"));
        let e = evaluate_declaration(&p, EnteringKingRule::CSARule24);
        assert_eq!((e.points, e.outcome), (25, DeclarationOutcome::Draw));
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule27).outcome,
            DeclarationOutcome::Illegal
        );
        let p = pos(&format!("{TEN} 2R2P 1"));
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24).points,
            22
        );
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24).outcome,
            DeclarationOutcome::Illegal
        );
        let p = pos(&format!("{TEN} 2R4P 1"));
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24).outcome,
            DeclarationOutcome::Draw
        );
        for r in [EnteringKingRule::NoEnteringKing, EnteringKingRule::TryRule] {
            assert_eq!(
                evaluate_declaration(&p, r).outcome,
                DeclarationOutcome::NotApplicable
            );
        }
    }

    #[test]
    fn rule_facts_at_their_thresholds() {
        use EnteringKingRule as R;
        // The thresholds by rule and side.
        assert_eq!(R::CSARule27.base_threshold(Color::Black), Some(28));
        assert_eq!(R::CSARule27H.base_threshold(Color::White), Some(27));
        assert_eq!(R::CSARule24.base_threshold(Color::White), Some(31));
        assert_eq!(R::TryRule.base_threshold(Color::Black), None);
        assert_eq!(R::CSARule24H.impasse_base(Color::Black), Some(24));
        assert_eq!(R::CSARule27.impasse_base(Color::Black), Some(28));
        assert_eq!(R::CSARule27.impasse_base(Color::White), Some(27));
        assert_eq!(R::NoEnteringKing.impasse_base(Color::White), None);
        // The last declaration move: 500 under the 24-point rules, none under the others.
        assert!(R::CSARule24.move_number_allows_declaration(500));
        assert!(!R::CSARule24H.move_number_allows_declaration(501));
        assert!(R::CSARule27.move_number_allows_declaration(10_000));

        // Black, ten pieces in the enemy camp (10 points): 27-point rule, 28 wins, 27 not.
        const TEN: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b";
        let p = pos(&format!("{TEN} R2B3P 1"));
        assert_eq!(p.declaration_points(Color::Black), 28);
        assert!(can_declare_win(&p, R::CSARule27));
        assert!(!can_declare_win(&p, R::CSARule24));
        let p = pos(&format!("{TEN} R2B2P 1"));
        assert!(!can_declare_win(&p, R::CSARule27));
        // White, ten pieces in Black's camp: 27 wins, 26 not.
        const TEN_W: &str = "4K4/9/9/9/9/7ll/nssssgggg/8p/4k4 w";
        let p = pos(&format!("{TEN_W} r2b2p 1"));
        assert_eq!(
            (
                p.zone_count(Color::White),
                p.declaration_points(Color::White)
            ),
            (10, 27)
        );
        assert!(can_declare_win(&p, R::CSARule27));
        let p = pos(&format!("{TEN_W} r2bp 1"));
        assert!(!can_declare_win(&p, R::CSARule27));
        // 24-point rule: 31 wins, 30 draws, up to move 500 and not after.
        let p = pos(&format!("{TEN} 2R2BL 1"));
        assert!(can_declare_win(&p, R::CSARule24) && !can_declare_draw(&p, R::CSARule24));
        let p = pos(&format!("{TEN} 2R2B 500"));
        assert_eq!(p.declaration_points(Color::Black), 30);
        assert!(!can_declare_win(&p, R::CSARule24) && can_declare_draw(&p, R::CSARule24));
        assert!(!past_last_declaration_move(&p, R::CSARule24));
        assert!(
            !can_declare_draw(&p, R::CSARule27),
            "no declared draw under 27"
        );
        let p = pos(&format!("{TEN} 2R2B 501"));
        assert!(!can_declare_draw(&p, R::CSARule24));
        assert!(past_last_declaration_move(&p, R::CSARule24));
        assert!(!past_last_declaration_move(&p, R::CSARule27));
        // Nine pieces in the camp: no declaration whatever the points.
        let p = pos("4K4/9/GGGGSSSSN/LL7/9/9/9/9/4k4 b 2R2BLP 1");
        assert_eq!(
            (
                p.zone_count(Color::Black),
                p.declaration_points(Color::Black)
            ),
            (9, 31)
        );
        assert!(!can_declare_win(&p, R::CSARule24));
        assert!(!can_declare_win(&p, R::CSARule27));
        assert!(!can_declare_draw(&p, R::CSARule24));
    }

    #[test]
    fn handicap_thresholds() {
        // Rook-down start: White (the giver) lacks a rook (5 points).
        let p = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(handicap_deficit(&p), 5);
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24H).threshold,
            26
        );
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule27H).threshold,
            22
        );
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule24).threshold,
            31
        );
        assert_eq!(
            evaluate_declaration(&p, EnteringKingRule::CSARule27).threshold,
            27
        );
        assert_eq!(handicap_deficit(&Position::startpos()), 0);
    }

    #[test]
    fn names_round_trip() {
        for r in EnteringKingRule::ALL {
            assert_eq!(r.to_string().parse::<EnteringKingRule>(), Ok(r));
        }
        assert!("CSARule25".parse::<EnteringKingRule>().is_err());
    }

    #[test]
    fn impasse_and_terminal_order() {
        // Both kings in camp, Black holds most material.
        let p = pos("4K4/9/9/9/9/9/9/9/4k4 b 2R2B4G4S4N4L18P 1");
        assert_eq!(
            impasse_adjudication(&p, EnteringKingRule::CSARule24),
            ImpasseVerdict::Win(Color::Black)
        );
        assert_eq!(
            impasse_adjudication(&p, EnteringKingRule::TryRule),
            ImpasseVerdict::NotApplicable
        );
        let h = History::new(&p);
        let rules = GameRules {
            entering_king_rule: EnteringKingRule::CSARule27,
            max_moves_to_draw: 0,
        };
        // Black to move: zone count 0, no declaration; impasse gives Black the win.
        let t = terminal_status(&p, &h, &rules);
        assert_eq!(
            (t.outcome, t.reason),
            (TerminalOutcome::Win, TerminalReason::Impasse)
        );
        let p2 = pos("4K4/9/9/9/9/9/9/9/4k4 w 2R2B4G4S4N4L18P 1");
        let t = terminal_status(&p2, &History::new(&p2), &rules);
        assert_eq!(
            (t.outcome, t.reason),
            (TerminalOutcome::Loss, TerminalReason::Impasse)
        );
        let both = pos("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1");
        assert_eq!(
            impasse_adjudication(&both, EnteringKingRule::CSARule24),
            ImpasseVerdict::Draw
        );
        // Try rule: Black king on 5a wins before anything else but perpetual check.
        let t = terminal_status(
            &p2,
            &History::new(&p2),
            &GameRules {
                entering_king_rule: EnteringKingRule::TryRule,
                max_moves_to_draw: 0,
            },
        );
        assert_eq!(
            (t.outcome, t.reason),
            (TerminalOutcome::Loss, TerminalReason::TryRule)
        );
        // Move limit.
        let s = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 11");
        let t = terminal_status(
            &s,
            &History::new(&s),
            &GameRules {
                entering_king_rule: EnteringKingRule::CSARule24,
                max_moves_to_draw: 10,
            },
        );
        assert_eq!(
            (t.outcome, t.reason),
            (TerminalOutcome::Draw, TerminalReason::MoveLimit)
        );
        let t = terminal_status(&s, &History::new(&s), &GameRules::default());
        assert!(!t.is_terminal());
    }

    #[test]
    fn perpetual_checker_loses_in_terminal_status() {
        let mut p = pos("8k/R8/9/9/9/9/9/9/4K4 b - 1");
        let mut h = History::new(&p);
        for _ in 0..3 {
            for m in ["9b9a", "1a1b", "9a9b", "1b1a"] {
                p.play(crate::shogi::Move::from_usi(m).unwrap()).unwrap();
                h.push(&p);
            }
        }
        let t = terminal_status(&p, &h, &GameRules::default());
        assert_eq!(
            (t.outcome, t.reason),
            (TerminalOutcome::Loss, TerminalReason::PerpetualCheck)
        );
    }
}
