//! The output files: `games.csv` and `games.parquet` (the same columns, from [`COLUMNS`]),
//! and `errors.csv`.
//!
//! The ordered writer hands [`GameTable`] each kept row, already encoded by a worker
//! ([`super::encode`]), in its final order, and does nothing else with it: the rows are
//! gathered into groups of [`ROW_GROUP`], and each full group goes to a pool of formatting
//! threads, which turn it into its CSV text and its Parquet row group (columns built,
//! encoded and compressed) side by side with the other groups. The finished pieces are put
//! into the files in group order by the thread that made them, when its turn comes. Nothing
//! holds the whole table: a few groups are in flight at a time.
use std::io::{self, BufWriter, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::encode::decode_row;
use super::stages::{self, StageTimes, ThreadCpu};
use crate::game::{COLUMNS, Cell};
use crate::outdir::OutFile;

/// Rows of a group: the unit of work of the formatting pool, and a Parquet row group.
pub const ROW_GROUP: usize = 32 * 1024;

/// Most formatting threads: each holds a group (tens of megabytes).
pub const MAX_FORMATTERS: usize = 6;

/// Formatting threads for `jobs` workers: one for three. A row takes about a quarter of
/// the CPU time to format (CSV line, Parquet cells, their share of the compression) that
/// its game takes to analyse (`scan --timings`, `reports/bench-scan.md`), and each thread
/// holds a row group.
pub fn formatters(jobs: usize) -> usize {
    jobs.div_ceil(3).clamp(1, MAX_FORMATTERS)
}

/// A row group for the pool: its number, and its encoded rows.
type Numbered = (u64, Vec<Vec<u8>>);

/// `games.csv` and `games.parquet`, made from encoded rows by a pool of threads.
pub struct GameTable {
    /// The group being filled.
    rows: Vec<Vec<u8>>,
    /// Number of the next group handed to the pool.
    next: u64,
    groups: Option<SyncSender<Numbered>>,
    pool: Vec<JoinHandle<()>>,
    sink: Arc<Sink>,
}

/// The files, written in group order by whichever formatting thread has the next group.
struct Sink {
    state: Mutex<SinkState>,
    turn: Condvar,
}

struct SinkState {
    /// The group whose turn it is.
    next: u64,
    /// The first failure; once set nothing more is written.
    error: Option<io::Error>,
    failed: bool,
    csv: Option<BufWriter<OutFile>>,
    #[cfg(feature = "report")]
    parquet: Option<parquet::Writer>,
}

/// A formatted group: its CSV lines and its Parquet row groups.
struct Piece {
    csv: Vec<u8>,
    #[cfg(feature = "report")]
    parquet: parquet::Group,
}

impl SinkState {
    fn write(&mut self, piece: Piece) -> io::Result<()> {
        if let Some(csv) = &mut self.csv {
            csv.write_all(&piece.csv)?;
        }
        #[cfg(feature = "report")]
        if let Some(w) = &mut self.parquet {
            parquet::write(w, piece.parquet)?;
        }
        Ok(())
    }

    fn fail(&mut self, e: io::Error) {
        if !self.failed {
            self.failed = true;
            self.error = Some(e);
        }
    }

    /// The failure, once (then a short note: the first caller reported it).
    fn take_error(&mut self) -> Option<io::Error> {
        if !self.failed {
            return None;
        }
        Some(
            self.error
                .take()
                .unwrap_or_else(|| io::Error::other("an earlier write failed")),
        )
    }
}

impl Sink {
    fn lock(&self) -> std::sync::MutexGuard<'_, SinkState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Write group `g`'s piece when its turn comes (or drop it after a failure); the CPU
    /// time of the writing itself.
    fn put(&self, g: u64, piece: io::Result<Piece>) -> u64 {
        let mut st = self.lock();
        while st.next != g && !st.failed {
            st = self.turn.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
        let cpu = ThreadCpu::now();
        if !st.failed {
            if let Err(e) = piece.and_then(|p| st.write(p)) {
                st.fail(e);
            }
            st.next = g + 1;
        }
        drop(st);
        self.turn.notify_all();
        ThreadCpu::now().since(&cpu)
    }
}

/// A formatting thread: take the next group, format it, write it in its turn.
fn format_groups(
    groups: &Mutex<Receiver<Numbered>>,
    sink: &Sink,
    parquet: bool,
    times: &StageTimes,
) {
    let cpu = ThreadCpu::now();
    let mut writing = 0;
    loop {
        let next = groups.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok((g, rows)) = next else { break };
        let format = std::panic::AssertUnwindSafe(|| format_group(rows, parquet, times));
        let piece = std::panic::catch_unwind(format)
            .unwrap_or_else(|_| Err(io::Error::other("formatting a row group panicked")));
        writing += sink.put(g, piece);
    }
    let all = ThreadCpu::now().since(&cpu);
    stages::add(&times.format, all.saturating_sub(writing));
    stages::add(&times.write, writing);
}

/// The CSV lines and the Parquet row group of `rows` (each freed once read).
#[cfg_attr(not(feature = "report"), allow(unused_variables))]
fn format_group(rows: Vec<Vec<u8>>, parquet: bool, times: &StageTimes) -> io::Result<Piece> {
    let damaged = |e: super::encode::Damaged| io::Error::other(e.to_string());
    let n = rows.len();
    let mut csv = Vec::with_capacity(rows.iter().map(Vec::len).sum());
    #[cfg(feature = "report")]
    let mut columns = parquet.then(parquet::Columns::new);
    for row in rows {
        let cells = decode_row(&row).map_err(damaged)?;
        csv_line(&cells, &mut csv);
        #[cfg(feature = "report")]
        if let Some(c) = &mut columns {
            c.push(&cells)?;
        }
    }
    Ok(Piece {
        csv,
        #[cfg(feature = "report")]
        parquet: match columns {
            Some(c) if n > 0 => c.compress(n, times)?,
            _ => Vec::new(),
        },
    })
}

impl GameTable {
    /// The tables in `csv` (its header written at once) and `parquet` (only built with the
    /// `report` feature; `None`: no such table), formatted by `threads` threads (at most
    /// [`MAX_FORMATTERS`]), their CPU time added to `times`.
    pub fn new(
        csv: Option<OutFile>,
        parquet: Option<OutFile>,
        threads: usize,
        times: Arc<StageTimes>,
    ) -> io::Result<GameTable> {
        let csv = match csv {
            Some(file) => {
                let mut out = BufWriter::with_capacity(1 << 20, file);
                let header: Vec<Cell<'_>> =
                    COLUMNS.iter().map(|c| Cell::Str(Some(c.name))).collect();
                let mut line = Vec::new();
                csv_line(&header, &mut line);
                out.write_all(&line)?;
                Some(out)
            }
            None => None,
        };
        #[cfg(feature = "report")]
        let parquet = parquet.map(parquet::create).transpose()?;
        #[cfg(feature = "report")]
        let with_parquet = parquet.is_some();
        #[cfg(not(feature = "report"))]
        let with_parquet = {
            drop(parquet);
            false
        };
        let sink = Arc::new(Sink {
            state: Mutex::new(SinkState {
                next: 0,
                error: None,
                failed: false,
                csv,
                #[cfg(feature = "report")]
                parquet,
            }),
            turn: Condvar::new(),
        });
        // A rendezvous: a group waits in the writer's hands, not in a queue, until a
        // formatting thread is free.
        let (tx, rx) = sync_channel(0);
        let rx = Arc::new(Mutex::new(rx));
        let pool = (0..threads.clamp(1, MAX_FORMATTERS))
            .map(|_| {
                let (rx, sink, times) = (Arc::clone(&rx), Arc::clone(&sink), Arc::clone(&times));
                std::thread::Builder::new()
                    .name("format".into())
                    .spawn(move || format_groups(&rx, &sink, with_parquet, &times))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(GameTable {
            rows: Vec::with_capacity(ROW_GROUP),
            next: 0,
            groups: Some(tx),
            pool,
            sink,
        })
    }

    /// Add the next row (encoded by [`super::encode::encode_row`]).
    pub fn push(&mut self, row: Vec<u8>) -> io::Result<()> {
        self.rows.push(row);
        if self.rows.len() >= ROW_GROUP {
            self.send()
        } else {
            Ok(())
        }
    }

    /// Hand the group to the pool.
    fn send(&mut self) -> io::Result<()> {
        if let Some(e) = self.sink.lock().take_error() {
            return Err(e);
        }
        let rows = std::mem::replace(&mut self.rows, Vec::with_capacity(ROW_GROUP));
        let sent = match &self.groups {
            Some(tx) => tx.send((self.next, rows)).is_ok(),
            None => false,
        };
        self.next += 1;
        if sent {
            Ok(())
        } else {
            Err(io::Error::other("the formatting threads stopped early"))
        }
    }

    /// Let the pool finish its groups, and wait for it.
    fn stop(&mut self) {
        self.groups = None;
        for t in self.pool.drain(..) {
            let _ = t.join();
        }
    }

    /// Format and write the last rows, then close the files (the Parquet footer).
    pub fn finish(mut self) -> io::Result<()> {
        if !self.rows.is_empty() {
            self.send()?;
        }
        self.stop();
        let mut st = self.sink.lock();
        if let Some(e) = st.take_error() {
            return Err(e);
        }
        if let Some(csv) = st.csv.take() {
            csv.into_inner().map_err(|e| e.into_error())?;
        }
        #[cfg(feature = "report")]
        if let Some(w) = st.parquet.take() {
            parquet::finish(w)?;
        }
        Ok(())
    }
}

impl Drop for GameTable {
    /// A table dropped unfinished (the scan stopped): the formatting threads end with the
    /// groups they hold, before the files are removed.
    fn drop(&mut self) {
        self.stop();
    }
}

/// Append one CSV line (with its `\n`) holding `cells`.
///
/// Written by hand, byte for byte what the `csv` crate writes with its defaults (a field
/// is quoted when it holds a comma, a quote, `\r` or `\n`, and quotes are doubled; a unit
/// test holds the two together): the table has forty-odd fields a row, and a general
/// writer's per-field work was a tenth of a scan's CPU time.
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

/// The CSV lines of encoded `rows`, made by the hand-written [`csv_line`] or (`by_crate`)
/// by the `csv` crate's writer with its defaults: the same bytes, the two sides of
/// `benches/scan_output.rs` and of the test that holds them together.
pub(super) fn csv_lines(rows: &[impl AsRef<[u8]>], by_crate: bool) -> io::Result<Vec<u8>> {
    let damaged = |e: super::encode::Damaged| io::Error::other(e.to_string());
    let mut out = Vec::with_capacity(rows.iter().map(|r| r.as_ref().len()).sum());
    if !by_crate {
        for row in rows {
            csv_line(&decode_row(row.as_ref()).map_err(damaged)?, &mut out);
        }
        return Ok(out);
    }
    let mut w = csv::Writer::from_writer(&mut out);
    let mut number = Vec::with_capacity(32);
    for row in rows {
        for cell in decode_row(row.as_ref()).map_err(damaged)? {
            number.clear();
            let field: &[u8] = match cell {
                Cell::Str(Some(s)) => s.as_bytes(),
                Cell::Int(Some(n)) => {
                    push_int(n, &mut number);
                    &number
                }
                Cell::Float(Some(f)) => {
                    let _ = write!(number, "{f}");
                    &number
                }
                Cell::Bool(Some(b)) => {
                    if b {
                        b"true"
                    } else {
                        b"false"
                    }
                }
                Cell::Str(None) | Cell::Int(None) | Cell::Float(None) | Cell::Bool(None) => b"",
            };
            w.write_field(field).map_err(io::Error::other)?;
        }
        w.write_record(None::<&[u8]>).map_err(io::Error::other)?;
    }
    w.flush()?;
    drop(w);
    Ok(out)
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
mod parquet {
    use super::*;
    use crate::game::ColumnKind;
    use polars::prelude::*;
    use polars_parquet::write::{
        CompressedPage, CompressionOptions, Encoding, ParquetType, StatisticsOptions, Version,
        WriteOptions, ZstdLevel, array_to_columns, compress,
    };
    use rayon::prelude::*;
    use std::sync::OnceLock;

    /// Buffered: the Parquet writer issues a write per page and per column chunk (thousands
    /// of small writes per row group); the footer's flush empties the buffer.
    pub type Writer = polars::io::parquet::write::BatchedWriter<BufWriter<OutFile>>;

    /// A formatted group: each row group's row count and its columns' compressed pages.
    pub type Group = Vec<(u64, Vec<Vec<CompressedPage>>)>;

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

    /// The table's Parquet schema and each column's encodings: the same for every file.
    struct Layout {
        fields: Vec<ParquetType>,
        encodings: Vec<Vec<Encoding>>,
    }

    static LAYOUT: OnceLock<Layout> = OnceLock::new();

    /// The file's writer; the table's schema is that of [`COLUMNS`].
    pub fn create(file: OutFile) -> io::Result<Writer> {
        let empty = Columns::new().frame(0)?;
        let mut w = ParquetWriter::new(BufWriter::with_capacity(1 << 20, file))
            .with_compression(ParquetCompression::Zstd(Some(zstd_level()?)))
            .batched(empty.schema())
            .map_err(io_err)?;
        let arrow = empty.schema().to_arrow(CompatLevel::newest());
        let fields = w.parquet_schema().fields().to_vec();
        LAYOUT.get_or_init(|| Layout {
            fields,
            encodings: polars::io::parquet::write::get_encodings(&arrow).to_vec(),
        });
        Ok(w)
    }

    pub fn write(w: &mut Writer, group: Group) -> io::Result<()> {
        for (rows, pages) in group {
            w.write_row_group(rows, &pages).map_err(io_err)?;
        }
        Ok(())
    }

    pub fn finish(w: Writer) -> io::Result<()> {
        w.finish().map(|_| ()).map_err(io_err)
    }

    enum Buf {
        /// Text goes straight into the column's buffer (no `String` per cell).
        Str(StringChunkedBuilder),
        Int(Vec<Option<i64>>),
        Float(Vec<Option<f64>>),
        Bool(Vec<Option<bool>>),
    }

    /// The columns of a row group being built.
    pub struct Columns(Vec<Buf>);

    impl Columns {
        pub fn new() -> Columns {
            Columns(
                COLUMNS
                    .iter()
                    .map(|c| match c.kind {
                        ColumnKind::Str | ColumnKind::OptStr => Buf::Str(
                            StringChunkedBuilder::new(PlSmallStr::from_static(c.name), ROW_GROUP),
                        ),
                        ColumnKind::Int | ColumnKind::OptInt => Buf::Int(Vec::new()),
                        ColumnKind::OptFloat => Buf::Float(Vec::new()),
                        ColumnKind::Bool | ColumnKind::OptBool => Buf::Bool(Vec::new()),
                    })
                    .collect(),
            )
        }

        pub fn push(&mut self, cells: &[Cell<'_>]) -> io::Result<()> {
            for (buf, cell) in self.0.iter_mut().zip(cells) {
                match (buf, *cell) {
                    (Buf::Str(v), Cell::Str(s)) => v.append_option(s),
                    (Buf::Int(v), Cell::Int(i)) => v.push(i),
                    (Buf::Float(v), Cell::Float(f)) => v.push(f),
                    (Buf::Bool(v), Cell::Bool(b)) => v.push(b),
                    _ => return Err(io::Error::other("cell does not match its column type")),
                }
            }
            Ok(())
        }

        fn frame(self, rows: usize) -> io::Result<DataFrame> {
            let columns: Vec<Column> = COLUMNS
                .iter()
                .zip(self.0)
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
            DataFrame::new(rows, columns).map_err(io_err)
        }

        /// The `rows` rows as row groups, their columns encoded and compressed side by
        /// side. Polars' `write_batch` encodes in parallel but leaves the compression to
        /// the writing thread, page after page.
        pub fn compress(self, rows: usize, times: &StageTimes) -> io::Result<Group> {
            let df = self.frame(rows)?;
            let options = write_options()?;
            let layout = LAYOUT
                .get()
                .ok_or_else(|| io::Error::other("no Parquet file was opened"))?;
            let mut groups = Vec::new();
            for batch in df.iter_chunks(CompatLevel::newest(), false) {
                let rows = batch.height() as u64;
                let leaves: Vec<io::Result<Vec<Vec<CompressedPage>>>> = batch
                    .columns()
                    .par_iter()
                    .zip(&layout.fields)
                    .zip(&layout.encodings)
                    .map(|((array, field), encoding)| {
                        // On the thread pool: its CPU time is counted here.
                        let cpu = ThreadCpu::now();
                        let leaves = array_to_columns(array, field.clone(), options, encoding)
                            .map_err(io_err)?;
                        let pages: io::Result<Vec<Vec<CompressedPage>>> = leaves
                            .into_iter()
                            .map(|pages| {
                                pages
                                    .map(|page| {
                                        compress(
                                            page.map_err(io_err)?,
                                            Vec::new(),
                                            options.compression,
                                        )
                                        .map_err(io_err)
                                    })
                                    .collect()
                            })
                            .collect();
                        stages::add(&times.format, ThreadCpu::now().since(&cpu));
                        pages
                    })
                    .collect();
                let mut group = Vec::with_capacity(leaves.len());
                for column in leaves {
                    group.extend(column?);
                }
                groups.push((rows, group));
            }
            Ok(groups)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "report")]
    mod parquet {
        use super::super::{GameTable, ROW_GROUP};
        use crate::game::{COLUMNS, Cell, ColumnKind};
        use crate::scan::encode::encode_cells;
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

        fn encoded(cells: &[Cell<'_>]) -> Vec<u8> {
            let mut row = Vec::new();
            encode_cells(cells, &mut row);
            row
        }

        /// Rows `0..n` of [`cells`], with text `r{i}`.
        fn write_rows(path: &std::path::Path, n: usize) {
            let texts: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
            let file = std::fs::File::create(path).unwrap().into();
            let mut t = GameTable::new(None, Some(file), 2, Default::default()).unwrap();
            for (i, text) in texts.iter().enumerate() {
                t.push(encoded(&cells(i, text))).unwrap();
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
            let file = std::fs::File::create("/dev/full").unwrap().into();
            let mut t = GameTable::new(None, Some(file), 2, Default::default()).unwrap();
            let mut failed = None;
            for (i, text) in texts.iter().enumerate() {
                if let Err(e) = t.push(encoded(&cells(i, text))) {
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

    /// Rows handed to the pool come out in the order given, each line what [`csv_line`]
    /// makes of its row alone, across row groups formatted side by side by three threads.
    #[test]
    fn the_pool_writes_the_groups_in_order() {
        use crate::game::{COLUMNS, ColumnKind};
        use crate::scan::encode::encode_cells;
        let dir =
            std::env::temp_dir().join(format!("floodgate-scan-writer-{}-pool", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.csv");
        let file = std::fs::File::create(&path).unwrap().into();
        let mut t = GameTable::new(Some(file), None, 3, Default::default()).unwrap();
        let mut want = Vec::new();
        let header: Vec<Cell<'_>> = COLUMNS.iter().map(|c| Cell::Str(Some(c.name))).collect();
        csv_line(&header, &mut want);
        let n = 2 * ROW_GROUP + 7;
        for i in 0..n {
            let text = format!("row {i}, \"quoted\"");
            let cells: Vec<Cell<'_>> = COLUMNS
                .iter()
                .map(|c| match c.kind {
                    ColumnKind::Str | ColumnKind::OptStr => Cell::Str(Some(&text)),
                    ColumnKind::Int | ColumnKind::OptInt => Cell::Int(Some(i as i64)),
                    ColumnKind::OptFloat => Cell::Float((i % 3 == 0).then_some(i as f64 / 8.0)),
                    ColumnKind::Bool | ColumnKind::OptBool => Cell::Bool(Some(i % 2 == 0)),
                })
                .collect();
            csv_line(&cells, &mut want);
            let mut row = Vec::new();
            encode_cells(&cells, &mut row);
            t.push(row).unwrap();
        }
        t.finish().unwrap();
        let got = std::fs::read(&path).unwrap();
        assert_eq!(got.len(), want.len());
        assert!(got == want, "the lines differ");
        std::fs::remove_dir_all(&dir).unwrap();
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

    /// Every game of the bundled fixtures: the hand-written lines are the `csv` crate's.
    #[test]
    fn the_bundled_games_are_written_as_the_csv_crate_writes_them() {
        use crate::source::{ReadBuffer, bundled_inputs, read_input};
        let counter = std::sync::atomic::AtomicU64::new(0);
        let mut buffer = ReadBuffer::default();
        let mut rows = Vec::new();
        for input in bundled_inputs() {
            let source = input.name();
            let mut sink = |e: crate::source::Event<'_>| {
                let name = e.name().to_string();
                if let Some(Ok(Ok(game))) = e.with_record(&mut buffer, |b| {
                    crate::game::analyse_record(&source, &name, b)
                }) {
                    let mut row = Vec::new();
                    crate::scan::encode::encode_row(&game, &mut row);
                    rows.push(row);
                }
                true
            };
            read_input(&input, &counter, &mut sink).unwrap();
        }
        assert!(rows.len() > 100, "{} games", rows.len());
        let ours = csv_lines(&rows, false).unwrap();
        let theirs = csv_lines(&rows, true).unwrap();
        assert_eq!(ours.len(), theirs.len());
        assert!(ours == theirs, "the lines differ");
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
