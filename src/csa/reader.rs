//! The record reader: bytes in, a [`Record`] out, every line accounted for.
//!
//! One pass over the lines; each line is classified ([`classify_line`]) and placed by
//! its kind, not by its position, because the server's own order varies with the era
//! (moves before the position block, rating lines before or after the summary). The
//! reader never judges legality and never fails on a damaged record: it returns what
//! it read with warnings and a `truncated` flag. Only an entry with no CSA line at all is
//! a [`ReadError`].

use super::header::{GameId, RatingLine, parse_rate_line};
use super::line::{
    LineKind, Lines, classify_line, is_empty_hand_line, is_move_text, lines, plain_number,
};
use super::special::{Special, parse_special};
use super::summary::{Summary, parse_summary};
use super::text::Comment;
use super::trailer::Trailer;

/// An entry that is not a CSA record at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{reason}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct ReadError {
    /// 1-based line where the entry stopped looking like CSA, when it applies.
    pub line: Option<usize>,
    /// Why the entry is not a CSA record (`empty entry`, `not a CSA record: no CSA line`,
    /// ...).
    pub reason: String,
}

/// A move line as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveLine<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The 7 bytes of the move (`+7776FU`).
    pub text: &'a [u8],
    /// Bytes after the 7th (old servers kept a client's space-separated comment).
    pub trailing: &'a [u8],
    /// The `T` value that followed (seconds; can be `-1`), if any.
    pub time: Option<i64>,
    /// Written before the position block (the floodgate start race).
    pub before_position: bool,
}

impl MoveLine<'_> {
    /// The move as text (`+7776FU`).
    pub fn as_str(&self) -> &str {
        // Checked by `is_move_text`: the 7 bytes are ASCII.
        std::str::from_utf8(self.text).unwrap_or("")
    }
}

/// The server's record of a rejected action: `'ILLEGAL_MOVE(<raw client line>)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RejectedAction<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The client's line inside the parentheses (raw bytes).
    pub raw: &'a [u8],
    /// Number of move lines before it (so the rejected action was ply `after_plies + 1`).
    pub after_plies: usize,
}

/// The initial position block: `P..` lines and the side-to-move line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionBlock<'a> {
    /// 1-based line of the first `P` line.
    pub line: usize,
    /// The `P` lines in file order.
    pub lines: Vec<&'a [u8]>,
    /// The side-to-move line (`b'+'` or `b'-'`) and its line number.
    pub side: Option<(usize, u8)>,
}

impl<'a> PositionBlock<'a> {
    /// The block as lines for a setup parser (`P` lines, then the side line). Empty
    /// hand lines (`P+`, `P-` with nothing after them) state nothing and are left out.
    pub fn position_lines(&self) -> Vec<&'a [u8]> {
        let mut v: Vec<&'a [u8]> = self
            .lines
            .iter()
            .copied()
            .filter(|l| !is_empty_hand_line(l))
            .collect();
        match self.side {
            Some((_, b'-')) => v.push(b"-"),
            Some(_) => v.push(b"+"),
            None => {}
        }
        v
    }
}

/// Something unusual the reader tolerated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    /// A line of no known kind (skipped).
    UnknownLine,
    /// An empty line (the 2008-2009 bug).
    BlankLine,
    /// A `T` line that follows no move or declaration, or a second one.
    OrphanTime,
    /// A `T` line whose value is not a number.
    BadTime,
    /// A `'summary` line that does not have three fields, or a second summary.
    BadSummary,
    /// A move line after the trailer started (ignored).
    MoveAfterTrailer,
    /// A second `'ILLEGAL_MOVE` line (ignored).
    ExtraRejectedAction,
    /// A header line given twice (the first is kept).
    DuplicateHeader,
    /// A header number (`'Max_Moves` ...) that does not parse.
    BadNumber,
    /// A `P` line after the position block was closed by its side line (ignored).
    ExtraPositionLine,
}

/// A tolerated oddity and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line of the oddity.
    pub line: usize,
    /// What the oddity is.
    pub kind: WarningKind,
}

/// A CSA record as read, borrowing the bytes it came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record<'a> {
    /// The `V` line's value (`2`), when present.
    pub version: Option<&'a [u8]>,
    /// `N+` name.
    pub black: Option<String>,
    /// `N-` name.
    pub white: Option<String>,
    /// `$EVENT` (the game id).
    pub event: Option<String>,
    /// `$EVENT` split into its parts, when it has the server's shape.
    pub game_id: Option<GameId>,
    /// `$START_TIME` as written.
    pub start_time: Option<String>,
    /// Other `$KEY:value` lines.
    pub other_info: Vec<(usize, &'a [u8])>,
    /// `'Max_Moves:N`.
    pub max_moves: Option<i64>,
    /// `'Least_Time_Per_Move:N`.
    pub least_time_per_move: Option<i64>,
    /// `'Increment:N`.
    pub increment: Option<i64>,
    /// `'rating:<black id>:<white id>` (raw; garbage in old draws).
    pub rating: Option<&'a [u8]>,
    /// `'black_rate:`.
    pub black_rate: Option<RatingLine>,
    /// `'white_rate:`.
    pub white_rate: Option<RatingLine>,
    /// The initial position block, wherever it is.
    pub position: Option<PositionBlock<'a>>,
    /// Move lines in file order.
    pub moves: Vec<MoveLine<'a>>,
    /// The first `'ILLEGAL_MOVE(...)` line.
    pub rejected: Option<RejectedAction<'a>>,
    /// `%` lines in file order.
    pub specials: Vec<Special<'a>>,
    /// The trailer board, when the record has one.
    pub trailer: Option<Trailer<'a>>,
    /// The `'summary` line.
    pub summary: Option<Summary>,
    /// `'$END_TIME` as written.
    pub end_time: Option<String>,
    /// Every other comment (move comments, `'Deferred`, unknown `'` lines).
    pub comments: Vec<Comment<'a>>,
    /// Number of lines.
    pub line_count: usize,
    /// The last byte is not `\n`.
    pub ends_mid_line: bool,
    /// The record stops before the server's closing `'$END_TIME` line (or mid-line).
    pub truncated: bool,
    /// Tolerated oddities.
    pub warnings: Vec<Warning>,
}

impl<'a> Record<'a> {
    /// The end marker: the last `%` line, if any.
    pub fn end_marker(&self) -> Option<&Special<'a>> {
        self.specials.last()
    }

    /// The record's game name: from `$EVENT`.
    pub fn game_name(&self) -> Option<&str> {
        self.game_id.as_ref().map(|g| g.game_name.as_str())
    }
}

/// The placing of header and position lines, one line kind each.
impl<'a> Record<'a> {
    fn warn(&mut self, line: usize, kind: WarningKind) {
        self.warnings.push(Warning { line, kind });
    }

    /// `V`, `N+`, `N-` and `$KEY:value` lines; the first of each is kept.
    fn on_header(&mut self, no: usize, kind: LineKind, line: &'a [u8]) {
        match kind {
            LineKind::Version => {
                if self.version.is_some() {
                    self.warn(no, WarningKind::DuplicateHeader);
                } else {
                    self.version = Some(&line[1..]);
                }
            }
            LineKind::BlackName | LineKind::WhiteName => {
                let slot = if kind == LineKind::BlackName {
                    &mut self.black
                } else {
                    &mut self.white
                };
                if slot.is_some() {
                    self.warn(no, WarningKind::DuplicateHeader);
                } else {
                    *slot = Some(text(&line[2..]));
                }
            }
            _ => self.on_info(no, line),
        }
    }

    /// A `$KEY:value` line.
    fn on_info(&mut self, no: usize, line: &'a [u8]) {
        let (key, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => (&line[1..i], &line[i + 1..]),
            None => (&line[1..], &line[line.len()..]),
        };
        match key {
            b"EVENT" if self.event.is_none() => {
                let id = text(value);
                self.game_id = GameId::parse(&id);
                self.event = Some(id);
            }
            b"START_TIME" if self.start_time.is_none() => {
                self.start_time = Some(text(value));
            }
            b"EVENT" | b"START_TIME" => self.warn(no, WarningKind::DuplicateHeader),
            _ => self.other_info.push((no, line)),
        }
    }

    /// A `P` line of the initial position block.
    fn on_position_line(&mut self, no: usize, line: &'a [u8]) {
        let block = self.position.get_or_insert_with(|| PositionBlock {
            line: no,
            // Nine rows and the two hands, or `PI` and a few pieces taken off.
            lines: Vec::with_capacity(12),
            side: None,
        });
        if block.side.is_some() {
            self.warn(no, WarningKind::ExtraPositionLine);
        } else {
            block.lines.push(line);
        }
    }

    /// The side-to-move line (`+` or `-`), which closes the position block.
    fn on_side_line(&mut self, no: usize, line: &[u8]) {
        match self.position.as_mut() {
            Some(block) if block.side.is_none() => block.side = Some((no, line[0])),
            Some(_) => self.warn(no, WarningKind::ExtraPositionLine),
            None => {
                // A side line with no board before it: keep it, the setup step reports
                // the missing rows.
                self.position = Some(PositionBlock {
                    line: no,
                    lines: Vec::new(),
                    side: Some((no, line[0])),
                });
            }
        }
    }
}

fn text(bytes: &[u8]) -> String {
    super::text::utf8_lossy(bytes).into_owned()
}

fn parse_int(bytes: &[u8]) -> Option<i64> {
    std::str::from_utf8(bytes).ok()?.trim().parse().ok()
}

/// `T` values: an integer, possibly negative (`T-1`), possibly with decimals (CSA V3):
/// the integer part is kept.
fn parse_time(bytes: &[u8]) -> Option<i64> {
    // Nearly every `T` line is a few plain digits.
    if let Some(n) = plain_number(bytes) {
        return Some(n);
    }
    let s = std::str::from_utf8(bytes).ok()?.trim();
    let int = match s.split_once('.') {
        Some((i, frac)) if !frac.is_empty() && frac.bytes().all(|b| b.is_ascii_digit()) => i,
        Some(_) => return None,
        None => s,
    };
    int.parse().ok()
}

/// What the last `T` line may attach to.
#[derive(Clone, Copy)]
enum Timed {
    Nothing,
    Move(usize),
    Special(usize),
}

/// The move and comment lists of records already read, kept empty for the next
/// [`read_record_reusing`]: a scan reads millions of records, and each worker keeps one
/// of these so that its records reuse the same memory instead of allocating.
#[derive(Debug, Default)]
pub struct RecordBuffers {
    moves: Vec<MoveLine<'static>>,
    comments: Vec<Comment<'static>>,
}

impl RecordBuffers {
    /// Take a record's lists back, emptied, for the next read. Lists grown for an
    /// outsized entry are freed instead of kept for the rest of the scan.
    pub fn give_back(&mut self, rec: Record<'_>) {
        let Record {
            moves, comments, ..
        } = rec;
        if moves.capacity() <= KEEP_LINES && comments.capacity() <= KEEP_LINES {
            self.moves = relabel(moves);
            self.comments = relabel(comments);
        }
    }
}

/// The same list, emptied, for lines of another record: the memory is kept (the standard
/// library collects a vector in place when the element layout is unchanged, as here).
fn relabel<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the list is empty"))
        .collect()
}

/// The longest lists [`RecordBuffers::give_back`] keeps (a game has at most a few
/// thousand moves).
const KEEP_LINES: usize = 1 << 14;

/// The reader's state between lines.
struct State {
    /// Lines only a CSA record has (to tell a record from other text).
    strong_lines: usize,
    /// What a `T` line attaches to.
    timed: Timed,
    /// The trailer board has begun: move lines are no longer moves.
    in_trailer: bool,
}

impl State {
    /// A move line (`is_move_text`), and the plain time line after it if there is one.
    #[inline]
    fn on_move<'a>(
        &mut self,
        rec: &mut Record<'a>,
        lines: &mut Lines<'a>,
        no: usize,
        line: &'a [u8],
    ) {
        self.strong_lines += 1;
        if self.in_trailer {
            rec.warnings.push(Warning {
                line: no,
                kind: WarningKind::MoveAfterTrailer,
            });
            return;
        }
        // The server writes the move's time on the next line, then the engine's comments
        // (`'**`): take them at once, so that the line-by-line dispatch sees mostly moves.
        let time = lines.next_plain_time().map(|(_, t)| t);
        let mv = MoveLine {
            line: no,
            text: &line[..7],
            trailing: &line[7..],
            time,
            before_position: rec.position.as_ref().is_none_or(|b| b.side.is_none()),
        };
        self.add_move(rec, lines, mv);
    }

    /// Keep a move line, and the engine's comments after it. Always inlined: as a call,
    /// the move would pass through memory on the reader's hottest path.
    #[inline(always)]
    fn add_move<'a>(&mut self, rec: &mut Record<'a>, lines: &mut Lines<'a>, mv: MoveLine<'a>) {
        // A move without its time may take a `T` line of another shape later.
        self.timed = match mv.time {
            Some(_) => Timed::Nothing,
            None => Timed::Move(rec.moves.len()),
        };
        rec.moves.push(mv);
        while let Some((no, line)) = lines.next_engine_comment() {
            rec.comments.push(Comment {
                line: no,
                bytes: &line[1..],
                after_plies: rec.moves.len(),
            });
        }
    }

    /// The moves the server writes, one after another (see [`Lines::next_server_move`]),
    /// each with its time line and the engine's comments after it; stops at the first
    /// line of another shape, left for the line-by-line dispatch.
    #[inline]
    fn server_moves<'a>(&mut self, rec: &mut Record<'a>, lines: &mut Lines<'a>) {
        if self.in_trailer {
            return;
        }
        let before_position = rec.position.as_ref().is_none_or(|b| b.side.is_none());
        while let Some((no, text, time)) = lines.next_server_move() {
            self.strong_lines += 1;
            let mv = MoveLine {
                line: no,
                text,
                trailing: &text[7..],
                time,
                before_position,
            };
            self.add_move(rec, lines, mv);
        }
    }

    /// A line of any kind, placed by its kind (the body's moves and comments are mostly
    /// taken before, by [`read_record`]'s plain tests).
    #[inline]
    fn on_line<'a>(
        &mut self,
        rec: &mut Record<'a>,
        lines: &mut Lines<'a>,
        no: usize,
        kind: LineKind,
        line: &'a [u8],
    ) {
        match kind {
            LineKind::Blank => rec.warn(no, WarningKind::BlankLine),
            LineKind::Unknown => rec.warn(no, WarningKind::UnknownLine),
            LineKind::Version | LineKind::BlackName | LineKind::WhiteName | LineKind::Info => {
                self.strong_lines += 1;
                rec.on_header(no, kind, line);
            }
            LineKind::Position => {
                self.strong_lines += 1;
                rec.on_position_line(no, line);
            }
            LineKind::SideToMove => rec.on_side_line(no, line),
            LineKind::Move => self.on_move(rec, lines, no, line),
            LineKind::Time => self.on_time(rec, no, line),
            LineKind::Special => {
                self.strong_lines += 1;
                rec.specials.push(parse_special(no, line, rec.moves.len()));
                self.timed = Timed::Special(rec.specials.len() - 1);
            }
            LineKind::Comment => self.on_comment(rec, no, line),
        }
    }

    /// A `T` line of another shape than the plain one taken with its move: attached to
    /// the move or declaration before it, if that has no time yet.
    fn on_time(&mut self, rec: &mut Record<'_>, no: usize, line: &[u8]) {
        let Some(t) = parse_time(&line[1..]) else {
            rec.warn(no, WarningKind::BadTime);
            return;
        };
        let slot = match self.timed {
            Timed::Move(i) => &mut rec.moves[i].time,
            Timed::Special(i) => &mut rec.specials[i].time,
            Timed::Nothing => {
                rec.warn(no, WarningKind::OrphanTime);
                return;
            }
        };
        *slot = Some(t);
        self.timed = Timed::Nothing;
    }

    /// A comment line: part of the trailer board, or a comment of its own.
    #[inline]
    fn on_comment<'a>(&mut self, rec: &mut Record<'a>, no: usize, line: &'a [u8]) {
        let body = &line[1..];
        if body.starts_with(b"P1") && body.len() > 2 {
            self.in_trailer = true;
            rec.trailer.get_or_insert_with(|| Trailer {
                line: no,
                ..Trailer::default()
            });
        }
        if self.in_trailer && rec.trailer.as_mut().is_some_and(|t| t.accept(body)) {
            return;
        }
        read_comment(rec, no, body, &mut self.strong_lines);
    }
}

/// Read one record. Never panics; fails only when the bytes are not a CSA record at all.
pub fn read_record(bytes: &[u8]) -> Result<Record<'_>, ReadError> {
    read_record_reusing(bytes, &mut RecordBuffers::default())
}

/// [`read_record`] into the lists of `buffers` (given back there by
/// [`RecordBuffers::give_back`] after an earlier record), instead of new ones.
pub fn read_record_reusing<'a>(
    bytes: &'a [u8],
    buffers: &mut RecordBuffers,
) -> Result<Record<'a>, ReadError> {
    if bytes.is_empty() {
        return Err(ReadError {
            line: None,
            reason: "empty entry".into(),
        });
    }
    // About one move line in every 40 bytes of a typical record (with its `T` line and
    // a comment), one comment in every 80: reserve once instead of growing, in the lists
    // of an earlier record when they were given back.
    let mut moves = relabel(std::mem::take(&mut buffers.moves));
    let mut comments = relabel(std::mem::take(&mut buffers.comments));
    moves.reserve(bytes.len() / 40);
    comments.reserve(bytes.len() / 80);
    let mut rec = Record {
        ends_mid_line: bytes.last() != Some(&b'\n'),
        moves,
        comments,
        ..Record::default()
    };
    let mut st = State {
        strong_lines: 0,
        timed: Timed::Nothing,
        in_trailer: false,
    };
    let mut first_checked = false;

    let mut lines = lines(bytes);
    loop {
        if first_checked {
            st.server_moves(&mut rec, &mut lines);
        }
        let Some((no, line)) = lines.next() else {
            break;
        };
        // The body of a game is move, time and comment lines: they are recognised here
        // with plain tests (a branch the processor predicts well), the rest by kind.
        if first_checked {
            match line.first() {
                Some(b'\'') => {
                    st.on_comment(&mut rec, no, line);
                    continue;
                }
                Some(b'+' | b'-') if is_move_text(line) => {
                    st.on_move(&mut rec, &mut lines, no, line);
                    continue;
                }
                _ => {}
            }
        }
        let kind = classify_line(line);
        if !first_checked && kind != LineKind::Blank {
            first_checked = true;
            if kind == LineKind::Unknown {
                return Err(ReadError {
                    line: Some(no),
                    reason: "not a CSA record: the first line is of no CSA kind".into(),
                });
            }
        }
        st.on_line(&mut rec, &mut lines, no, kind, line);
    }

    rec.line_count = lines.line_no();
    if st.strong_lines == 0 {
        return Err(ReadError {
            line: None,
            reason: "not a CSA record: no CSA line".into(),
        });
    }
    if let Some(s) = rec.summary.as_mut() {
        s.match_names(rec.black.as_deref(), rec.white.as_deref());
    }
    rec.truncated = rec.ends_mid_line || rec.end_time.is_none();
    Ok(rec)
}

/// Store a header number (`'Max_Moves:256`), keeping the first.
fn header_number(slot: &mut Option<i64>, warnings: &mut Vec<Warning>, line: usize, value: &[u8]) {
    match parse_int(value) {
        Some(n) if slot.is_none() => *slot = Some(n),
        Some(_) => warnings.push(Warning {
            line,
            kind: WarningKind::DuplicateHeader,
        }),
        None => warnings.push(Warning {
            line,
            kind: WarningKind::BadNumber,
        }),
    }
}

/// A comment line that is not part of the trailer board.
fn read_comment<'a>(rec: &mut Record<'a>, no: usize, body: &'a [u8], strong: &mut usize) {
    let warn = |rec: &mut Record<'a>, kind| rec.warnings.push(Warning { line: no, kind });
    if body.first() == Some(&b'*') {
        // `'*` / `'**`: an engine's comment on the move (most comment lines).
        rec.comments.push(Comment {
            line: no,
            bytes: body,
            after_plies: rec.moves.len(),
        });
    } else if let Some(v) = body.strip_prefix(b"summary:") {
        *strong += 1;
        match parse_summary(no, v) {
            Some(s) if rec.summary.is_none() => rec.summary = Some(s),
            _ => warn(rec, WarningKind::BadSummary),
        }
    } else if let Some(v) = body.strip_prefix(b"$END_TIME:") {
        rec.end_time = Some(text(v));
    } else if let Some(v) = body.strip_prefix(b"ILLEGAL_MOVE(") {
        let raw = match v.iter().rposition(|&b| b == b')') {
            Some(i) => &v[..i],
            None => v,
        };
        if rec.rejected.is_some() {
            warn(rec, WarningKind::ExtraRejectedAction);
        } else {
            rec.rejected = Some(RejectedAction {
                line: no,
                raw,
                after_plies: rec.moves.len(),
            });
        }
    } else if let Some(v) = body.strip_prefix(b"Max_Moves:") {
        header_number(&mut rec.max_moves, &mut rec.warnings, no, v);
    } else if let Some(v) = body.strip_prefix(b"Least_Time_Per_Move:") {
        header_number(&mut rec.least_time_per_move, &mut rec.warnings, no, v);
    } else if let Some(v) = body.strip_prefix(b"Increment:") {
        header_number(&mut rec.increment, &mut rec.warnings, no, v);
    } else if let Some(v) = body.strip_prefix(b"black_rate:") {
        rec.black_rate.get_or_insert_with(|| parse_rate_line(v));
    } else if let Some(v) = body.strip_prefix(b"white_rate:") {
        rec.white_rate.get_or_insert_with(|| parse_rate_line(v));
    } else if let Some(v) = body.strip_prefix(b"rating:") {
        rec.rating.get_or_insert(v);
    } else {
        rec.comments.push(Comment {
            line: no,
            bytes: body,
            after_plies: rec.moves.len(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &[u8] = include_bytes!(
        "../../fixtures/csa/real/wdoor+floodgate-600-10+01WishBlue_07+Apery_i5-4670+20150415003002.csa"
    );

    #[test]
    fn given_back_lists_are_lent_to_the_next_read() {
        let mut buffers = RecordBuffers::default();
        let first = read_record_reusing(REAL, &mut buffers).unwrap();
        let expected = first.clone();
        let (moves_at, comments_at) = (first.moves.as_ptr(), first.comments.as_ptr());
        assert!(first.moves.len() > 100 && !first.comments.is_empty());
        buffers.give_back(first);
        let again = read_record_reusing(REAL, &mut buffers).unwrap();
        assert_eq!(again, expected);
        assert_eq!(again.moves.as_ptr(), moves_at);
        assert_eq!(again.comments.as_ptr(), comments_at);
        // Another record reads the same whether or not lists were lent.
        buffers.give_back(again);
        let short = b"V2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n%TORYO\n";
        let lent = read_record_reusing(short, &mut buffers).unwrap();
        assert_eq!(lent, read_record(short).unwrap());
        assert_eq!(lent.moves[0].text, b"+7776FU");
        assert!(lent.comments.is_empty());
        buffers.give_back(lent);
        // Lists grown for an outsized entry are not kept for the next record.
        let mut huge = b"V2\nPI\n+\n".to_vec();
        for _ in 0..(KEEP_LINES / 2) {
            huge.extend_from_slice(b"+5958OU\nT1\n-5152OU\nT1\n+5859OU\nT1\n-5251OU\nT1\n");
        }
        let big = read_record_reusing(&huge, &mut buffers).unwrap();
        assert!(big.moves.capacity() > KEEP_LINES);
        buffers.give_back(big);
        let next = read_record_reusing(short, &mut buffers).unwrap();
        assert!(
            next.moves.capacity() < KEEP_LINES,
            "{}",
            next.moves.capacity()
        );
    }
}
