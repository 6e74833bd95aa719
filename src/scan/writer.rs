//! The output files: `games.csv` and `games.parquet` (the same columns, from [`COLUMNS`]),
//! and `errors.csv`. Rows arrive one at a time in their final order; nothing holds the
//! whole table (Parquet is written in row groups).
use std::io::{self, BufWriter, Write};

use crate::game::{COLUMNS, Cell};
use crate::outdir::OutFile;

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
    out: BufWriter<OutFile>,
    line: Vec<u8>,
}

impl CsvTable {
    /// The table in `file`, its header written.
    pub fn new(file: OutFile) -> io::Result<CsvTable> {
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
    out: csv::Writer<BufWriter<OutFile>>,
}

impl ErrorsCsv {
    /// The table in `file`, its header written.
    pub fn new(file: OutFile) -> io::Result<ErrorsCsv> {
        let mut out = csv::Writer::from_writer(BufWriter::new(file));
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
    use polars_parquet::write::{
        CompressedPage, CompressionOptions, StatisticsOptions, Version, WriteOptions, ZstdLevel,
        array_to_columns, compress,
    };
    use rayon::prelude::*;

    enum Buf {
        /// Text goes straight into the column's buffer (no `String` per cell).
        Str(StringChunkedBuilder),
        Int(Vec<Option<i64>>),
        Float(Vec<Option<f64>>),
        Bool(Vec<Option<bool>>),
    }

    /// Buffered: the Parquet writer issues a write per page and per column chunk (thousands
    /// of small writes per row group); the footer's flush empties the buffer.
    type Writer = polars::io::parquet::write::BatchedWriter<BufWriter<OutFile>>;

    /// `games.parquet`, written one row group at a time by a thread of its own: the rows'
    /// writer hands it each full row group and goes on, so that encoding a group does not
    /// hold up the writing thread while the workers, their results not taken, stand still
    /// (measured in `reports/bench-scan-history.md`).
    pub struct ParquetTable {
        bufs: Vec<Buf>,
        rows: usize,
        encoder: Encoder,
    }

    enum Encoder {
        /// No row group yet: the file, opened.
        Waiting(OutFile),
        /// The encoding thread, and where it takes the row groups (one may wait).
        Running {
            groups: std::sync::mpsc::SyncSender<DataFrame>,
            thread: std::thread::JoinHandle<io::Result<()>>,
        },
        Closed,
    }

    /// The encoding thread: write each row group it is given, then the footer.
    fn encode(mut writer: Writer, groups: std::sync::mpsc::Receiver<DataFrame>) -> io::Result<()> {
        for df in groups {
            if df.height() > 0 {
                write_row_groups(&mut writer, &df)?;
            }
        }
        writer.finish().map(|_| ()).map_err(io_err)
    }

    fn io_err(e: impl std::fmt::Display) -> io::Error {
        io::Error::other(e.to_string())
    }

    /// zstd level 1: much less compression work than the default level 3 for a file a
    /// little larger (the figures are in `reports/bench-scan-history.md`).
    pub(super) fn zstd_level() -> io::Result<ZstdLevel> {
        ZstdLevel::try_new(1).map_err(io_err)
    }

    /// The options polars' own writer uses (`ParquetWriter` with default statistics and
    /// page size, version 1), with our compression.
    fn write_options() -> io::Result<WriteOptions> {
        Ok(WriteOptions {
            statistics: StatisticsOptions::default(),
            version: Version::V1,
            compression: CompressionOptions::Zstd(Some(zstd_level()?)),
            data_page_size: None,
        })
    }

    /// Encode and compress `df`'s columns side by side, then write them as row groups
    /// (one per chunk of `df`). Polars' `write_batch` encodes in parallel but leaves the
    /// compression to the writing thread, page after page: the last row group, written
    /// once every worker has finished, was a serial tail of the scan.
    fn write_row_groups(w: &mut Writer, df: &DataFrame) -> io::Result<()> {
        let options = write_options()?;
        let arrow = df.schema().to_arrow(CompatLevel::newest());
        let encodings = polars::io::parquet::write::get_encodings(&arrow);
        let fields = w.parquet_schema().fields().to_vec();
        for batch in df.iter_chunks(CompatLevel::newest(), false) {
            let rows = batch.height() as u64;
            let leaves: Vec<io::Result<Vec<Vec<CompressedPage>>>> = batch
                .columns()
                .par_iter()
                .zip(&fields)
                .zip(&encodings[..])
                .map(|((array, field), encoding)| {
                    let leaves = array_to_columns(array, field.clone(), options, encoding)
                        .map_err(io_err)?;
                    leaves
                        .into_iter()
                        .map(|pages| {
                            pages
                                .map(|page| {
                                    compress(page.map_err(io_err)?, Vec::new(), options.compression)
                                        .map_err(io_err)
                                })
                                .collect()
                        })
                        .collect()
                })
                .collect();
            let mut group = Vec::with_capacity(leaves.len());
            for column in leaves {
                group.extend(column?);
            }
            w.write_row_group(rows, &group).map_err(io_err)?;
        }
        Ok(())
    }

    impl ParquetTable {
        /// The table in `file`.
        pub fn new(file: OutFile) -> ParquetTable {
            ParquetTable {
                bufs: Self::empty_bufs(),
                rows: 0,
                encoder: Encoder::Waiting(file),
            }
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
            // The first row group starts the encoding thread (the schema comes with it).
            self.encoder = match std::mem::replace(&mut self.encoder, Encoder::Closed) {
                Encoder::Waiting(file) => {
                    let writer = ParquetWriter::new(BufWriter::with_capacity(1 << 20, file))
                        .with_compression(ParquetCompression::Zstd(Some(zstd_level()?)))
                        .batched(df.schema())
                        .map_err(io_err)?;
                    let (groups, taken) = std::sync::mpsc::sync_channel(1);
                    let thread = std::thread::Builder::new()
                        .name("parquet".into())
                        .spawn(move || encode(writer, taken))?;
                    Encoder::Running { groups, thread }
                }
                started => started,
            };
            let Encoder::Running { groups, .. } = &self.encoder else {
                return Err(io::Error::other("games.parquet already closed"));
            };
            if groups.send(df).is_ok() {
                return Ok(());
            }
            // The encoding thread stopped on an error: that error is the answer.
            self.stop()?;
            Err(io::Error::other("the Parquet encoder stopped early"))
        }

        /// Let the encoding thread write what it was given and the footer, and wait for it.
        fn stop(&mut self) -> io::Result<()> {
            match std::mem::replace(&mut self.encoder, Encoder::Closed) {
                Encoder::Running { groups, thread } => {
                    drop(groups);
                    thread
                        .join()
                        .map_err(|_| io::Error::other("the Parquet encoder stopped unexpectedly"))?
                }
                _ => Ok(()),
            }
        }

        pub fn finish(mut self) -> io::Result<()> {
            if self.rows > 0 || matches!(self.encoder, Encoder::Waiting(_)) {
                self.flush()?;
            }
            self.stop()
        }
    }

    impl Drop for ParquetTable {
        /// A table dropped unfinished (the scan stopped): the encoding thread ends with
        /// the row group it holds, before the file is removed.
        fn drop(&mut self) {
            let _ = self.stop();
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

        /// Row `i`: text `text`, integer `i`, a float on odd rows only, `i` even.
        fn cells(i: usize, text: &str) -> Vec<Cell<'_>> {
            COLUMNS
                .iter()
                .map(|c| match c.kind {
                    ColumnKind::Str | ColumnKind::OptStr => Cell::Str(Some(text)),
                    ColumnKind::Int | ColumnKind::OptInt => Cell::Int(Some(i as i64)),
                    ColumnKind::OptFloat => Cell::Float((i % 2 == 1).then_some(i as f64)),
                    ColumnKind::Bool | ColumnKind::OptBool => Cell::Bool(Some(i.is_multiple_of(2))),
                })
                .collect()
        }

        /// Rows `0..n` of [`cells`], with text `r{i}`.
        fn write_rows(path: &std::path::Path, n: usize) {
            let texts: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
            let mut t = ParquetTable::new(std::fs::File::create(path).unwrap().into());
            for (i, text) in texts.iter().enumerate() {
                t.write_row(&cells(i, text)).unwrap();
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

        /// The row groups compressed side by side are the bytes polars' own batched
        /// writer makes of the same table with the same compression.
        #[test]
        fn row_groups_are_the_bytes_polars_writes() {
            let ours = scratch("ours");
            write_rows(&ours, 3000);
            let mut df = ParquetReader::new(std::fs::File::open(&ours).unwrap())
                .finish()
                .unwrap();
            df.rechunk_mut();
            let theirs = ours.with_file_name("theirs.parquet");
            let mut w = ParquetWriter::new(std::fs::File::create(&theirs).unwrap())
                .with_compression(ParquetCompression::Zstd(Some(
                    super::super::parquet::zstd_level().unwrap(),
                )))
                .batched(df.schema())
                .unwrap();
            w.write_batch(&df).unwrap();
            w.finish().unwrap();
            let (a, b) = (
                std::fs::read(&ours).unwrap(),
                std::fs::read(&theirs).unwrap(),
            );
            assert!(a.len() > 10_000, "{} bytes", a.len());
            assert!(a == b, "{} bytes against {}", a.len(), b.len());
            std::fs::remove_dir_all(ours.parent().unwrap()).unwrap();
        }

        /// A write error of the encoding thread comes back to the caller, not a panic
        /// or a hang: `/dev/full` takes the file's opening and refuses every write.
        #[cfg(target_os = "linux")]
        #[test]
        fn a_failed_write_is_reported() {
            let texts: Vec<String> = (0..3 * ROW_GROUP).map(|i| format!("row {i}")).collect();
            let mut t = ParquetTable::new(std::fs::File::create("/dev/full").unwrap().into());
            let mut failed = None;
            for (i, text) in texts.iter().enumerate() {
                if let Err(e) = t.write_row(&cells(i, text)) {
                    failed = Some(e);
                    break;
                }
            }
            let e = match failed {
                Some(e) => e,
                None => t.finish().expect_err("no space left, yet finished"),
            };
            assert!(e.to_string().contains("No space left"), "{e}");
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
