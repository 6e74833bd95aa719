//! The 24-point engine's mate guard: a racing king must not be lost, and a mate on the
//! board must not be missed while the evaluation looks only at the declaration.
//!
//! The bounded checks-only mate search of [`super::mate`] (the attacker checks at every
//! move, the defender tries every legal evasion) proves short forced mates: mate in 1 with the core's solver, mate
//! in 3 (and deeper when asked) by trying every check and refuting it with the first
//! evasion that escapes. Each proof is bounded by a node budget; a proof cut short counts
//! as "no mate", so the guard never invents a mate, but may miss one that needs more work
//! than the budget.
//!
//! At the root the guard first looks for a mate of the side to move (in 1, 3, 5, 7
//! plies) and plays it. Otherwise it keeps the moves level by level: those after which the
//! opponent has no mate in 1, of these those with no mate in 3, then in 5 (every move is
//! tested up to here), then in 7 (tested only when the opponent would have a mate in 7
//! if the side to move passed: a threat already on the board); the deepest level that
//! leaves a move wins. If every move allows a mate in 1 the game is lost and every move
//! is left to the search.
pub use super::mate::MateSearch;
use super::mate::{Dfpn, Proof};
use crate::shogi::{Move, Position, solve_mate_in_one_in_place};

/// Attack nodes one proof may visit before it gives up.
pub const DEFAULT_BUDGET: u64 = 2_000;

/// Longest mate, in plies, the root guard looks for.
pub const DEFAULT_PLIES: u32 = 7;

/// Longest mate the optional df-pn level looks for.
pub const DEFAULT_DFPN_PLIES: u32 = 15;

/// Mates up to this length are tested after every root move.
pub const EVERY_MOVE_PLIES: u32 = 5;

/// Attack nodes of one mating-net test.
pub const DEFAULT_NET_BUDGET: u64 = 200_000;

/// Squares (king steps) from the defending king within which a quiet move may build a
/// mating net in [`allows_net`].
pub const NET_RADIUS: u8 = 2;

/// What the guard makes of the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootGuard {
    /// The side to move mates in this many plies, starting with the move.
    Mate(Move, u32),
    /// The moves left to the search, and the longest mate (in plies) that none of them is
    /// proven to allow (0: every move allows a mate in 1).
    Moves(Vec<Move>, u32),
}

/// How far the root guard looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardLimits {
    /// Longest mate, in plies, looked for (odd).
    pub max_plies: u32,
    /// Up to this length every move is tested; longer mates are tested only when the
    /// opponent would have one if the side to move passed (a threat on the board).
    pub every_move_plies: u32,
    /// Attack nodes per proof.
    pub budget: u64,
    /// After the levels above, the survivors are tested once more by a df-pn search of
    /// the opponent's mates by checks up to `dfpn_plies` plies, this many positions a
    /// move (0, the default: no such level; measured, it changed 2 of the study's 80
    /// self-play games and no mate, at 2.5 times the CPU).
    pub dfpn_budget: u64,
    /// Longest mate the df-pn level looks for, in plies.
    pub dfpn_plies: u32,
    /// The mating-net test of the search's chosen move (0, the default: none): a move
    /// is refused when the opponent then has a quiet move near the king after which
    /// every reply is mated by checks within this many plies (see [`allows_net`]).
    pub net_plies: u32,
    /// Attack nodes one mating-net test may spend.
    pub net_budget: u64,
    /// The deep mating-net test of the search's chosen move (0, the default: none):
    /// positions each df-pn proof of [`allows_deep_net`] may expand (mates up to
    /// `dfpn_plies` plies; all the test's proofs together at most a hundred times this).
    pub deep_net_budget: u64,
    /// The df-pn test of the search's chosen move (0, the default: none): positions a
    /// df-pn search of the opponent's mates by checks up to `dfpn_plies` plies may expand
    /// after the move; a move proven to allow a mate is refused.
    pub verify_budget: u64,
}

impl Default for GuardLimits {
    fn default() -> Self {
        GuardLimits {
            max_plies: DEFAULT_PLIES,
            every_move_plies: EVERY_MOVE_PLIES,
            budget: DEFAULT_BUDGET,
            dfpn_budget: 0,
            dfpn_plies: DEFAULT_DFPN_PLIES,
            net_plies: 0,
            net_budget: DEFAULT_NET_BUDGET,
            verify_budget: 0,
            deep_net_budget: 0,
        }
    }
}

/// The root guard over the legal `moves` of `pos` (see the module text). `pos` is left
/// as it was.
pub fn guard_root(pos: &mut Position, moves: &[Move], limits: GuardLimits) -> RootGuard {
    guard_root_until(pos, moves, limits, &|| false)
}

/// [`guard_root`] within a time limit: `out_of_time` is asked before each mate search of
/// the side to move longer than 1 ply and before each move of a level longer than 1 ply.
/// When it says yes, the guard stops with the deepest level it completed (the mate-in-1
/// level is always completed: it is cheap and the one that matters most).
pub fn guard_root_until(
    pos: &mut Position,
    moves: &[Move],
    limits: GuardLimits,
    out_of_time: &dyn Fn() -> bool,
) -> RootGuard {
    let GuardLimits {
        max_plies,
        every_move_plies,
        budget,
        dfpn_budget,
        dfpn_plies,
        ..
    } = limits;
    if let Some(m) = solve_mate_in_one_in_place(pos) {
        return RootGuard::Mate(m, 1);
    }
    for plies in (3..=max_plies).step_by(2) {
        if out_of_time() {
            break;
        }
        if let Some(m) = MateSearch::new(budget * 4).mate(pos, plies) {
            return RootGuard::Mate(m, plies);
        }
    }
    // Level by level: the moves that survive a mate in 1, then those that also survive a
    // mate in 3, and so on; the deepest non-empty level is kept.
    let mut kept: Vec<Move> = moves.to_vec();
    let mut safe_plies = 0;
    for plies in (1..=max_plies).step_by(2) {
        if plies > 1 && out_of_time() {
            break;
        }
        // The threat test: a pass (a null move, only when not in check) and a mate search
        // of the opponent.
        if plies > every_move_plies && !pos.is_in_check() {
            let undo = pos.do_null_move();
            let threat = MateSearch::new(budget * 4).mate(pos, plies).is_some();
            pos.undo_null_move(undo);
            if !threat {
                break;
            }
        }
        let mut survivors: Vec<Move> = Vec::with_capacity(kept.len());
        let mut complete = true;
        for &m in &kept {
            if plies > 1 && out_of_time() {
                complete = false;
                break;
            }
            let undo = pos.play_unchecked(m);
            let mated = if plies == 1 {
                solve_mate_in_one_in_place(pos).is_some()
            } else {
                MateSearch::new(budget).mate(pos, plies).is_some()
            };
            pos.undo(m, undo);
            if !mated {
                survivors.push(m);
            }
        }
        if !complete || survivors.is_empty() {
            break;
        }
        kept = survivors;
        safe_plies = plies;
    }
    if dfpn_budget > 0 && safe_plies >= every_move_plies.min(max_plies) && !out_of_time() {
        // The deep level: one table for all the moves (the opponent attacks in each).
        let mut dfpn = Dfpn::new(dfpn_budget, dfpn_plies);
        let mut survivors: Vec<Move> = Vec::with_capacity(kept.len());
        let mut complete = true;
        for &m in &kept {
            if out_of_time() {
                complete = false;
                break;
            }
            let undo = pos.play_unchecked(m);
            let mated = matches!(dfpn.prove(pos), Proof::Mate(_));
            pos.undo(m, undo);
            if !mated {
                survivors.push(m);
            }
        }
        if complete && !survivors.is_empty() {
            kept = survivors;
            safe_plies = dfpn_plies;
        }
    }
    RootGuard::Moves(kept, safe_plies)
}

/// A mate by checks of the side to move within `plies`, proven within the `left` attack
/// nodes (which it uses up); `None` when they ran out first.
fn mate_within(
    pos: &mut Position,
    plies: u32,
    search: &mut MateSearch,
    left: &mut u64,
) -> Option<bool> {
    if *left == 0 {
        return None;
    }
    search.restart(*left);
    let found = search.mate(pos, plies).is_some();
    *left = left.saturating_sub(search.nodes());
    if !found && search.exhausted() {
        *left = 0;
        return None;
    }
    Some(found)
}

/// Whether the side to move in `pos` (the attacker; the other side has just moved and
/// is not in check) has a mating net: a quiet move (no check) to a square within
/// [`NET_RADIUS`] king steps of the defending king, after which the defender cannot
/// declare (`declares`), the attacker would mate by checks within `plies` plies if the
/// defender passed, and every legal reply that gives no check is mated so (a reply
/// that checks counts as an escape: the net is not proven). `Some(true)`: a net found;
/// `Some(false)`: none; `None`: the `left` attack nodes ran out first. `pos` is left as
/// it was.
pub fn allows_net(
    pos: &mut Position,
    plies: u32,
    search: &mut MateSearch,
    left: &mut u64,
    declares: &dyn Fn(&Position) -> bool,
) -> Option<bool> {
    if pos.is_in_check() {
        return Some(false);
    }
    let Some(king) = pos.king_square(pos.side_to_move().opposite()) else {
        return Some(false);
    };
    let near = |sq: crate::shogi::Square| {
        sq.file().abs_diff(king.file()) <= NET_RADIUS
            && sq.rank().abs_diff(king.rank()) <= NET_RADIUS
    };
    for q in pos.legal_moves().iter().copied() {
        if !near(q.to()) || pos.gives_check(q) {
            continue;
        }
        let undo = pos.play_unchecked(q);
        let net = is_net(pos, plies, search, left, declares);
        pos.undo(q, undo);
        match net {
            Some(false) => {}
            other => return other,
        }
    }
    Some(false)
}

/// Whether the side to move in `pos` (not in check) is caught: see [`allows_net`].
fn is_net(
    pos: &mut Position,
    plies: u32,
    search: &mut MateSearch,
    left: &mut u64,
    declares: &dyn Fn(&Position) -> bool,
) -> Option<bool> {
    if declares(pos) {
        return Some(false);
    }
    let null = pos.do_null_move();
    let threat = mate_within(pos, plies, search, left);
    pos.undo_null_move(null);
    if threat != Some(true) {
        return threat;
    }
    let replies = pos.legal_moves();
    if replies.iter().any(|&r| pos.gives_check(r)) {
        return Some(false);
    }
    for r in replies.iter().copied() {
        let undo = pos.play_unchecked(r);
        let mated = mate_within(pos, plies, search, left);
        pos.undo(r, undo);
        if mated != Some(true) {
            return mated;
        }
    }
    Some(true)
}

/// Whether the side to move in `pos` (the attacker; the other side has just moved) has a
/// move after which the defender cannot declare (`declares`) and every legal reply of the
/// defender, checks included, leaves a mate by checks that a df-pn search proves within
/// `budget` positions and `plies` plies (the threat filter first, where the defender is
/// not in check: the attacker would mate if the defender passed). The attacker's moves
/// tried: every evasion when it is in check (the defender's last move was a check),
/// otherwise its quiet moves (its checks are left to a mate search of the position). `Some(true)`: a net; `Some(false)`: none found;
/// `None`: the `left` positions ran out first. `pos` is left as it was.
pub fn allows_deep_net(
    pos: &mut Position,
    plies: u32,
    budget: u64,
    left: &mut u64,
    declares: &dyn Fn(&Position) -> bool,
) -> Option<bool> {
    let evading = pos.is_in_check();
    let mut dfpn = Dfpn::new(budget, plies);
    let mut mates = |pos: &mut Position, left: &mut u64| -> Option<bool> {
        if *left == 0 {
            return None;
        }
        let proof = dfpn.prove(pos);
        *left = left.saturating_sub(dfpn.nodes());
        Some(matches!(proof, Proof::Mate(_)))
    };
    for q in pos.legal_moves().iter().copied() {
        if !evading && pos.gives_check(q) {
            continue;
        }
        let undo = pos.play_unchecked(q);
        let net = (|| {
            if declares(pos) {
                return Some(false);
            }
            if !pos.is_in_check() {
                let null = pos.do_null_move();
                let threat = mates(pos, left);
                pos.undo_null_move(null);
                if threat != Some(true) {
                    return threat;
                }
            }
            for r in pos.legal_moves().iter().copied() {
                let undo = pos.play_unchecked(r);
                let mated = mates(pos, left);
                pos.undo(r, undo);
                if mated != Some(true) {
                    return mated;
                }
            }
            Some(true)
        })();
        pos.undo(q, undo);
        match net {
            Some(false) => {}
            other => return other,
        }
    }
    Some(false)
}
