//! One record in, one checked verdict out: replay through the position core, judge the
//! ending against the server's `'summary`, and fill the per-game row.
pub mod row;

pub use row::{COLUMNS, Cell, Column, ColumnKind, GameRow};
