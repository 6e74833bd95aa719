//! The output files: `games.csv` and `games.parquet` (the same columns, from [`COLUMNS`]),
//! and `errors.csv`. Rows arrive one at a time in their final order; nothing holds the
//! whole table (Parquet is written in row groups).
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::game::{COLUMNS, Cell};

/// Rows of a Parquet row group.
#[cfg(feature = "report")]
pub const ROW_GROUP: usize = 32 * 1024;

/// A CSV table of the per-game rows.
///
/// Written by hand, byte for byte what the `csv` crate writes with its defaults (a field
/// is quoted when it holds a comma, a quote, `\r` or `\n`, and quotes are doubled; a unit
/// test holds the two together): the table has forty-odd fields a row, and a general
/// writer's per-field work was a tenth of a scan's CPU time.
pub struct CsvTable {
    out: BufWriter<File>,
    line: Vec<u8>,
}

impl CsvTable {
    pub fn create(path: &Path) -> io::Result<CsvTable> {
        let file = File::create(path)?;
        let mut table = CsvTable {
            out: BufWriter::with_capacity(1 << 20, file),
            line: Vec::with_capacity(1024),
        };
        let header: Vec<Cell<'_>> = COLUMNS.iter().map(|c| Cell::Str(Some(c.name))).collect();
        table.write_row(&header)?;
        Ok(table)
    }

    pub fn write_row(&mut self, cells: &[Cell<'_>]) -> io::Result<()> {
        self.line.clear();
        csv_line(cells, &mut self.line);
        self.out.write_all(&self.line)
    }

    pub fn finish(self) -> io::Result<()> {
        self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    }
}

/// Append one CSV line (with its `\n`) holding `cells`.
fn csv_line(cells: &[Cell<'_>], line: &mut Vec<u8>) {
    let start = line.len();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        match *cell {
            Cell::Str(Some(s)) => csv_text(s.as_bytes(), line),
            Cell::Int(Some(n)) => push_int(n, line),
            Cell::Float(Some(f)) => {
                let _ = write!(line, "{f}");
            }
            Cell::Bool(Some(b)) => line.extend_from_slice(if b { b"true" } else { b"false" }),
            Cell::Str(None) | Cell::Int(None) | Cell::Float(None) | Cell::Bool(None) => {}
        }
    }
    // A lone empty field is written as `""`, or the line would read as no field at all.
    if line.len() == start {
        line.extend_from_slice(b"\"\"");
    }
    line.push(b'\n');
}

/// A text field, quoted when it must be.
fn csv_text(s: &[u8], line: &mut Vec<u8>) {
    if !s.iter().any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n')) {
        line.extend_from_slice(s);
        return;
    }
    line.push(b'"');
    for &b in s {
        if b == b'"' {
            line.push(b'"');
        }
        line.push(b);
    }
    line.push(b'"');
}

/// An integer in decimal.
fn push_int(n: i64, line: &mut Vec<u8>) {
    if n < 0 {
        line.push(b'-');
    }
    let mut v = n.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    line.extend_from_slice(&digits[at..]);
}

/// `errors.csv`: one line per unreadable entry or failed input.
pub struct ErrorsCsv {
    out: csv::Writer<BufWriter<File>>,
}

impl ErrorsCsv {
    pub fn create(path: &Path) -> io::Result<ErrorsCsv> {
        let mut out = csv::Writer::from_writer(BufWriter::new(File::create(path)?));
        out.write_record(["source", "entry", "line", "reason"])
            .map_err(io::Error::other)?;
        Ok(ErrorsCsv { out })
    }

    pub fn write(
        &mut self,
        source: &str,
        entry: &str,
        line: Option<usize>,
        reason: &str,
    ) -> io::Result<()> {
        let line = line.map(|l| l.to_string()).unwrap_or_default();
        self.out
            .write_record([source, entry, &line, reason])
            .map_err(io::Error::other)
    }

    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(feature = "report")]
pub use parquet::ParquetTable;

#[cfg(feature = "report")]
mod parquet {
    use super::*;
    use crate::game::ColumnKind;
    use polars::prelude::*;

    enum Buf {
        /// Text goes straight into the column's buffer (no `String` per cell).
        Str(StringChunkedBuilder),
        Int(Vec<Option<i64>>),
        Float(Vec<Option<f64>>),
        Bool(Vec<Option<bool>>),
    }

    /// `games.parquet`, written one row group at a time.
    pub struct ParquetTable {
        file: Option<File>,
        /// Buffered: the Parquet writer issues a write per page and per column chunk
        /// (thousands of small writes per row group); the footer's flush empties the buffer.
        writer: Option<polars::io::parquet::write::BatchedWriter<BufWriter<File>>>,
        bufs: Vec<Buf>,
        rows: usize,
    }

    fn io_err(e: PolarsError) -> io::Error {
        io::Error::other(e.to_string())
    }

    impl ParquetTable {
        pub fn create(path: &Path) -> io::Result<ParquetTable> {
            let file = File::create(path)?;
            Ok(ParquetTable {
                file: Some(file),
                writer: None,
                bufs: Self::empty_bufs(),
                rows: 0,
            })
        }

        fn empty_bufs() -> Vec<Buf> {
            COLUMNS
                .iter()
                .map(|c| match c.kind {
                    ColumnKind::Str | ColumnKind::OptStr => Buf::Str(StringChunkedBuilder::new(
                        PlSmallStr::from_static(c.name),
                        ROW_GROUP,
                    )),
                    ColumnKind::Int | ColumnKind::OptInt => Buf::Int(Vec::new()),
                    ColumnKind::OptFloat => Buf::Float(Vec::new()),
                    ColumnKind::Bool | ColumnKind::OptBool => Buf::Bool(Vec::new()),
                })
                .collect()
        }

        pub fn write_row(&mut self, cells: &[Cell<'_>]) -> io::Result<()> {
            for (buf, cell) in self.bufs.iter_mut().zip(cells) {
                match (buf, *cell) {
                    (Buf::Str(v), Cell::Str(s)) => v.append_option(s),
                    (Buf::Int(v), Cell::Int(i)) => v.push(i),
                    (Buf::Float(v), Cell::Float(f)) => v.push(f),
                    (Buf::Bool(v), Cell::Bool(b)) => v.push(b),
                    _ => return Err(io::Error::other("cell does not match its column type")),
                }
            }
            self.rows += 1;
            if self.rows >= ROW_GROUP {
                self.flush()
            } else {
                Ok(())
            }
        }

        fn flush(&mut self) -> io::Result<()> {
            let bufs = std::mem::replace(&mut self.bufs, Self::empty_bufs());
            let columns: Vec<Column> = COLUMNS
                .iter()
                .zip(bufs)
                .map(|(c, buf)| {
                    let name = PlSmallStr::from_static(c.name);
                    match buf {
                        Buf::Str(v) => v.finish().into_series(),
                        Buf::Int(v) => Series::new(name, v),
                        Buf::Float(v) => Series::new(name, v),
                        Buf::Bool(v) => Series::new(name, v),
                    }
                    .into()
                })
                .collect();
            let df = DataFrame::new(self.rows, columns).map_err(io_err)?;
            self.rows = 0;
            if self.writer.is_none() {
                let file = self
                    .file
                    .take()
                    .ok_or_else(|| io::Error::other("parquet file already closed"))?;
                let writer = ParquetWriter::new(BufWriter::with_capacity(1 << 20, file))
                    .with_compression(ParquetCompression::Zstd(None))
                    .set_parallel(true)
                    .batched(df.schema())
                    .map_err(io_err)?;
                self.writer = Some(writer);
            }
            match &mut self.writer {
                Some(w) if df.height() > 0 => w.write_batch(&df).map_err(io_err),
                _ => Ok(()),
            }
        }

        pub fn finish(mut self) -> io::Result<()> {
            if self.rows > 0 || self.writer.is_none() {
                self.flush()?;
            }
            match &mut self.writer {
                Some(w) => w.finish().map(|_| ()).map_err(io_err),
                None => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "report")]
    mod parquet {
        use super::super::{ParquetTable, ROW_GROUP};
        use crate::game::{COLUMNS, Cell, ColumnKind};
        use polars::prelude::*;

        fn scratch(name: &str) -> std::path::PathBuf {
            let dir = std::env::temp_dir().join(format!(
                "floodgate-scan-writer-{}-{name}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            dir.join("games.parquet")
        }

        /// Row `i`: text `r{i}`, integer `i`, a float on odd rows only, `i` even.
        fn write_rows(path: &std::path::Path, n: usize) {
            let texts: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
            let mut t = ParquetTable::create(path).unwrap();
            for (i, text) in texts.iter().enumerate() {
                let cells: Vec<Cell<'_>> = COLUMNS
                    .iter()
                    .map(|c| match c.kind {
                        ColumnKind::Str | ColumnKind::OptStr => Cell::Str(Some(text)),
                        ColumnKind::Int | ColumnKind::OptInt => Cell::Int(Some(i as i64)),
                        ColumnKind::OptFloat => Cell::Float((i % 2 == 1).then_some(i as f64)),
                        ColumnKind::Bool | ColumnKind::OptBool => Cell::Bool(Some(i % 2 == 0)),
                    })
                    .collect();
                t.write_row(&cells).unwrap();
            }
            t.finish().unwrap();
        }

        #[test]
        fn rows_across_row_groups_come_back_in_order() {
            let path = scratch("groups");
            let n = 2 * ROW_GROUP + 5;
            write_rows(&path, n);
            let mut reader = ParquetReader::new(std::fs::File::open(&path).unwrap());
            let groups = reader.get_metadata().unwrap().row_groups.len();
            assert_eq!(groups, 3, "two full row groups and the rest");
            let df = reader.finish().unwrap();
            assert_eq!(df.height(), n);
            assert_eq!(df.width(), COLUMNS.len());
            for c in COLUMNS {
                let col = df.column(c.name).unwrap();
                for i in [0, 1, ROW_GROUP - 1, ROW_GROUP, 2 * ROW_GROUP + 4] {
                    let v = col.get(i).unwrap();
                    let want = match c.kind {
                        ColumnKind::Str | ColumnKind::OptStr => format!("\"r{i}\""),
                        ColumnKind::Int | ColumnKind::OptInt => i.to_string(),
                        ColumnKind::OptFloat if i % 2 == 1 => format!("{}.0", i),
                        ColumnKind::OptFloat => "null".to_string(),
                        ColumnKind::Bool | ColumnKind::OptBool => (i % 2 == 0).to_string(),
                    };
                    assert_eq!(v.to_string(), want, "{} row {i}", c.name);
                }
            }
            std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        }

        #[test]
        fn an_empty_table_still_has_its_columns() {
            let path = scratch("empty");
            write_rows(&path, 0);
            let df = ParquetReader::new(std::fs::File::open(&path).unwrap())
                .finish()
                .unwrap();
            assert_eq!((df.height(), df.width()), (0, COLUMNS.len()));
            std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        }
    }

    /// What the `csv` crate writes for the same cells.
    fn by_csv_crate(cells: &[Cell<'_>]) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        for cell in cells {
            let field = match *cell {
                Cell::Str(Some(s)) => s.to_string(),
                Cell::Int(Some(i)) => i.to_string(),
                Cell::Float(Some(f)) => f.to_string(),
                Cell::Bool(Some(b)) => b.to_string(),
                _ => String::new(),
            };
            w.write_field(field).unwrap();
        }
        w.write_record(None::<&[u8]>).unwrap();
        w.into_inner().unwrap()
    }

    #[test]
    fn lines_are_what_the_csv_crate_writes() {
        let texts = [
            "",
            "plain",
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "cr\r",
            " spaced ",
            "#hash",
            "\"",
            ",",
            "日本語",
            "'summary:toryo:a win:b lose",
        ];
        let ints = [0, 7, -1, 256, i64::MAX, i64::MIN, -9_000_000_001];
        let mut rows: Vec<Vec<Cell<'_>>> = Vec::new();
        for t in texts {
            rows.push(vec![Cell::Str(Some(t))]);
            rows.push(vec![
                Cell::Str(Some(t)),
                Cell::Str(None),
                Cell::Str(Some(t)),
            ]);
        }
        for i in ints {
            rows.push(vec![
                Cell::Int(Some(i)),
                Cell::Int(None),
                Cell::Bool(Some(i > 0)),
            ]);
        }
        rows.push(vec![
            Cell::Float(Some(3012.5)),
            Cell::Float(Some(-0.0)),
            Cell::Float(None),
        ]);
        rows.push(vec![Cell::Float(Some(1500.0)), Cell::Float(Some(1e21))]);
        rows.push(vec![Cell::Str(None)]);
        rows.push(vec![Cell::Int(None)]);
        for row in &rows {
            let mut ours = Vec::new();
            csv_line(row, &mut ours);
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&by_csv_crate(row)),
                "{row:?}"
            );
        }
    }
}
