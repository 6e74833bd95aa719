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
pub struct CsvTable {
    out: csv::Writer<BufWriter<File>>,
    field: Vec<u8>,
}

impl CsvTable {
    pub fn create(path: &Path) -> io::Result<CsvTable> {
        let file = File::create(path)?;
        let mut out =
            csv::WriterBuilder::new().from_writer(BufWriter::with_capacity(1 << 20, file));
        out.write_record(COLUMNS.iter().map(|c| c.name))
            .map_err(io::Error::other)?;
        Ok(CsvTable {
            out,
            field: Vec::with_capacity(64),
        })
    }

    pub fn write_row(&mut self, cells: &[Cell<'_>]) -> io::Result<()> {
        for cell in cells {
            self.field.clear();
            match *cell {
                Cell::Str(Some(s)) => self.field.extend_from_slice(s.as_bytes()),
                Cell::Int(Some(i)) => write!(self.field, "{i}")?,
                Cell::Float(Some(f)) => write!(self.field, "{f}")?,
                Cell::Bool(Some(b)) => {
                    self.field
                        .extend_from_slice(if b { b"true" } else { b"false" })
                }
                Cell::Str(None) | Cell::Int(None) | Cell::Float(None) | Cell::Bool(None) => {}
            }
            self.out
                .write_field(&self.field)
                .map_err(io::Error::other)?;
        }
        self.out
            .write_record(None::<&[u8]>)
            .map_err(io::Error::other)
    }

    pub fn finish(self) -> io::Result<()> {
        let inner = self
            .out
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        inner
            .into_inner()
            .map_err(|e| e.into_error())?
            .sync_all()
            .or(Ok(()))
    }
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
        Str(Vec<Option<String>>),
        Int(Vec<Option<i64>>),
        Float(Vec<Option<f64>>),
        Bool(Vec<Option<bool>>),
    }

    /// `games.parquet`, written one row group at a time.
    pub struct ParquetTable {
        file: Option<File>,
        writer: Option<polars::io::parquet::write::BatchedWriter<File>>,
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
                    ColumnKind::Str | ColumnKind::OptStr => Buf::Str(Vec::new()),
                    ColumnKind::Int | ColumnKind::OptInt => Buf::Int(Vec::new()),
                    ColumnKind::OptFloat => Buf::Float(Vec::new()),
                    ColumnKind::Bool | ColumnKind::OptBool => Buf::Bool(Vec::new()),
                })
                .collect()
        }

        pub fn write_row(&mut self, cells: &[Cell<'_>]) -> io::Result<()> {
            for (buf, cell) in self.bufs.iter_mut().zip(cells) {
                match (buf, *cell) {
                    (Buf::Str(v), Cell::Str(s)) => v.push(s.map(str::to_string)),
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
                        Buf::Str(v) => Series::new(name, v),
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
                let writer = ParquetWriter::new(file)
                    .with_compression(ParquetCompression::Zstd(None))
                    .set_parallel(false)
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
