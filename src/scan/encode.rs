//! A compact binary form of one table row (and of an unreadable entry), so that results can
//! wait in a spill file in [`COLUMNS`] order and be written later exactly as they were.
//!
//! Layout of a row: for each column, a presence byte (0 = null) then the value: strings as
//! a little-endian `u32` length and UTF-8 bytes, integers as `i64`, floats as their `u64`
//! bits, booleans as one byte. The column kinds come from [`COLUMNS`], so the bytes carry
//! no type tags.
use crate::game::{COLUMN_COUNT, COLUMNS, Cell, ColumnKind, GameRow};

/// Append the encoded `row` to `out`.
pub fn encode_row(row: &GameRow, out: &mut Vec<u8>) {
    encode_cells(&row.cells(), out);
}

/// Append the encoded row of `cells` (in [`COLUMNS`] order) to `out`.
pub fn encode_cells(cells: &[Cell<'_>], out: &mut Vec<u8>) {
    for &cell in cells {
        match cell {
            Cell::Str(v) => put(out, v, |out, s| {
                out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                out.extend_from_slice(s.as_bytes());
            }),
            Cell::Int(v) => put(out, v, |out, i| out.extend_from_slice(&i.to_le_bytes())),
            Cell::Float(v) => put(out, v, |out, f| {
                out.extend_from_slice(&f.to_bits().to_le_bytes())
            }),
            Cell::Bool(v) => put(out, v, |out, b| out.push(u8::from(b))),
        }
    }
}

fn put<T>(out: &mut Vec<u8>, v: Option<T>, f: impl FnOnce(&mut Vec<u8>, T)) {
    match v {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            f(out, v);
        }
    }
}

/// Error for bytes that are not an encoded row (only possible if a spill file was damaged).
#[derive(Debug, thiserror::Error)]
#[error("damaged intermediate row")]
pub struct Damaged;

/// The cells of an encoded row, in [`COLUMNS`] order, borrowing from `bytes`.
#[inline]
pub fn decode_row(bytes: &[u8]) -> Result<[Cell<'_>; COLUMN_COUNT], Damaged> {
    let mut cells = [Cell::Int(None); COLUMN_COUNT];
    let mut r = bytes;
    for (col, slot) in COLUMNS.iter().zip(&mut cells) {
        let present = take(&mut r, 1)?[0] != 0;
        let cell = match col.kind {
            ColumnKind::Str | ColumnKind::OptStr => Cell::Str(if present {
                let len =
                    u32::from_le_bytes(take(&mut r, 4)?.try_into().map_err(|_| Damaged)?) as usize;
                Some(std::str::from_utf8(take(&mut r, len)?).map_err(|_| Damaged)?)
            } else {
                None
            }),
            ColumnKind::Int | ColumnKind::OptInt => Cell::Int(if present {
                Some(i64::from_le_bytes(take8(&mut r)?))
            } else {
                None
            }),
            ColumnKind::OptFloat => Cell::Float(if present {
                Some(f64::from_bits(u64::from_le_bytes(take8(&mut r)?)))
            } else {
                None
            }),
            ColumnKind::Bool | ColumnKind::OptBool => Cell::Bool(if present {
                Some(take(&mut r, 1)?[0] != 0)
            } else {
                None
            }),
        };
        *slot = cell;
    }
    if r.is_empty() {
        Ok(cells)
    } else {
        Err(Damaged)
    }
}

fn take<'a>(r: &mut &'a [u8], n: usize) -> Result<&'a [u8], Damaged> {
    if r.len() < n {
        return Err(Damaged);
    }
    let (head, rest) = r.split_at(n);
    *r = rest;
    Ok(head)
}

fn take8(r: &mut &[u8]) -> Result<[u8; 8], Damaged> {
    take(r, 8)?.try_into().map_err(|_| Damaged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_every_cell() {
        let row = GameRow {
            source: "a.7z".into(),
            entry: "2024/x.csa".into(),
            game_name: Some("floodgate-300-10F".into()),
            year: Some(2024),
            black_rate: Some(2345.625),
            white_rate: None,
            plies: 131,
            king_in_camp_black: true,
            judge_agrees: Some(false),
            mutual_sfen: Some(String::new()),
            ..GameRow::default()
        };
        let mut bytes = Vec::new();
        encode_row(&row, &mut bytes);
        assert_eq!(decode_row(&bytes).unwrap(), row.cells());
        assert!(decode_row(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_row(&longer).is_err());
    }
}
