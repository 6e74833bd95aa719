//! Tables 2a-2d: the endings of mutual and one-sided entering-king games by the server's
//! `'summary` reason, by year and by `'Max_Moves`.

use polars::prelude::*;

use super::super::columns::*;
use super::expr::*;
use crate::game::ServerReason;

/// Which entering-king games a table 2 counts.
#[derive(Clone, Copy)]
pub(super) enum Population {
    /// Both kings in the enemy camp.
    Mutual,
    /// Exactly one.
    OneSided,
}

/// The columns of tables 2a-2d.
fn family() -> Family {
    let valid = declaration_win();
    let invalid = is_one_of(SUMMARY_REASON, &[ServerReason::IllegalKachi]);
    let limit = move_limit();
    let resign = is_one_of(SUMMARY_REASON, &[ServerReason::Toryo]);
    let repetition = is_one_of(SUMMARY_REASON, &ServerReason::REPETITION);
    let known = valid
        .clone()
        .or(invalid.clone())
        .or(limit.clone())
        .or(resign.clone())
        .or(repetition.clone());
    let columns = vec![
        ("games", games_count()),
        ("valid_decl", count_if(valid)),
        ("invalid_decl", count_if(invalid)),
        ("move_limit", count_if(limit)),
        ("resignation", count_if(resign)),
        ("repetition", count_if(repetition)),
        ("other", count_if(known.not())),
    ];
    Family {
        columns: columns
            .into_iter()
            .map(|(n, e)| (n.to_string(), e))
            .collect(),
        rates: vec![
            Rate::new("valid_decl", "games", "valid_decl_share"),
            Rate::new("invalid_decl", "games", "invalid_decl_share"),
            Rate::new("move_limit", "games", "move_limit_share"),
        ],
    }
}

pub(super) fn endings(
    lf: LazyFrame,
    pop: Population,
    key: Expr,
    key_name: &str,
) -> PolarsResult<DataFrame> {
    let filter = match pop {
        Population::Mutual => mutual(),
        Population::OneSided => one_sided(),
    };
    family().keyed(lf.filter(filter), key, key_name)
}
