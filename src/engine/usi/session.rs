//! One USI session: the command loop, the search on a worker thread (started by `go`,
//! stopped or turned from pondering by `stop` and `ponderhit`, reaped once it has
//! answered), `go mate`, and the shared output through which `info` and `bestmove`
//! lines are written whole.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::options::Options;
use super::parser::{Command, apply_position, parse_command};
use crate::engine::mate::{self, MateLimits};
use crate::engine::search::{Control, Decision, Info, Searcher};
use crate::engine::time::Limits;
use crate::engine::tt::TranspositionTable;
use crate::shogi::Position;

/// Shared output.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The `info` line of a completed iteration.
pub fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_usi()).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.score_usi(),
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull,
        pv.join(" ")
    )
}

struct Running {
    handle: JoinHandle<Searcher>,
    control: Arc<Control>,
    /// Set by the search thread just before it writes its answer: from then on the
    /// search is over and only the thread's return is left.
    answered: Arc<AtomicBool>,
}

/// One USI session.
pub struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    options: Options,
    position: Position,
    history: Vec<(u64, bool)>,
    searcher: Option<Searcher>,
    running: Option<Running>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Session<W> {
        Session {
            out: Arc::new(Mutex::new(out)),
            options: Options::default(),
            position: Position::startpos(),
            history: Vec::new(),
            searcher: None,
            running: None,
        }
    }

    /// The shared output (for tests).
    pub fn output(&self) -> Out<W> {
        self.out.clone()
    }

    fn info_string(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    /// Take the searcher back from a search that has answered by itself (its `bestmove`
    /// or `checkmate` is written), so that the next `go` or `setoption` is not taken for
    /// one arriving during a search. A search still thinking is left alone.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished())
        {
            self.join();
        }
    }

    /// Stop a running search, wait for it to answer, and take the searcher back.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop.store(true, Ordering::SeqCst);
            match r.handle.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => self.info_string("search thread failed"),
            }
        }
    }

    /// Apply a new `USI_Hash`: the table is allocated now, the old one kept if the new
    /// one cannot be had (and the option goes back to the old size).
    fn apply_hash(&mut self, old_mb: usize) {
        let mb = self.options.hash_mb;
        match TranspositionTable::try_new(mb) {
            Ok(table) => match self.searcher.as_mut() {
                Some(s) => s.tt = table,
                None => {
                    let mut s = Searcher::new(1, self.options.config());
                    s.tt = table;
                    self.searcher = Some(s);
                }
            },
            Err(e) => {
                self.options.hash_mb = old_mb;
                self.info_string(&format!("option USI_Hash: {e}; keeping {old_mb} MB"));
            }
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        let config = self.options.config();
        let mb = self.options.hash_mb;
        let s = self
            .searcher
            .get_or_insert_with(|| Searcher::new(mb, config.clone()));
        s.config = config;
        s
    }

    /// Handle one input line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.info_string(&e.to_string());
                return true;
            }
        };
        self.reap();
        match cmd {
            Command::Empty => {}
            Command::Usi => self.answer_usi(),
            Command::IsReady => self.answer_isready(),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::UsiNewGame => {
                self.join();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            Command::Position { sfen, moves } => self.set_position(sfen.as_deref(), &moves),
            Command::Go(limits) => {
                // A `go` during a search (a GUI that did not wait for `bestmove`): the
                // running search is stopped and answers first, so every `go` gets its
                // answer.
                if self.running.is_some() {
                    self.info_string("go during a search: stopping it first");
                    self.join();
                }
                self.go(limits);
            }
            Command::Stop => self.join(),
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            Command::GameOver(_) => self.join(),
            Command::Quit => {
                self.join();
                return false;
            }
        }
        true
    }

    /// `usi`: the engine's name, author and options, then `usiok`.
    fn answer_usi(&self) {
        say(
            &self.out,
            &format!("id name floodgate-scan {}", env!("CARGO_PKG_VERSION")),
        );
        say(&self.out, "id author floodgate-scan authors");
        for l in self.options.usi_lines() {
            say(&self.out, &l);
        }
        say(&self.out, "usiok");
    }

    /// `isready`: the searcher made (when none is), then `readyok`.
    fn answer_isready(&mut self) {
        // Allocate the table now rather than at the first `go`.
        if self.running.is_none() && self.searcher.is_none() {
            self.searcher = Some(Searcher::new(self.options.hash_mb, self.options.config()));
        }
        say(&self.out, "readyok");
    }

    /// `setoption`: applied unless a search runs; a refusal is said as `info string`.
    fn set_option(&mut self, name: &str, value: &str) {
        if self.running.is_some() {
            self.info_string("setoption ignored while searching");
            return;
        }
        let old_hash = self.options.hash_mb;
        match self.options.set(name, value) {
            Ok(()) => {
                if self.options.hash_mb != old_hash {
                    self.apply_hash(old_hash);
                }
            }
            Err(e) => self.info_string(&e.to_string()),
        }
    }

    /// `position`: a running search stopped, then the new position and its history.
    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) {
        if self.running.is_some() {
            self.join();
        }
        match apply_position(sfen, moves) {
            Ok((pos, history, complaint)) => {
                self.position = pos;
                self.history = history;
                if let Some(c) = complaint {
                    self.info_string(&c.to_string());
                }
            }
            Err(e) => self.info_string(&e.to_string()),
        }
    }

    fn go(&mut self, limits: Limits) {
        if let Some(ms) = limits.mate {
            self.go_mate(ms);
            return;
        }
        let mut searcher = {
            self.searcher();
            self.searcher.take().expect("searcher just made")
        };
        let control = Arc::new(Control::new(limits.ponder));
        let out = self.out.clone();
        let pos = self.position.clone();
        let history = self.history.clone();
        let c = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::spawn(move || {
            let result = searcher.search(&pos, &history, &limits, &c, &mut |info| {
                say(&out, &info_line(info));
            });
            // In infinite or ponder mode the answer waits for `stop` (or `ponderhit`).
            while (limits.infinite || c.pondering.load(Ordering::SeqCst))
                && !c.stop.load(Ordering::SeqCst)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let line = match (result.decision, result.ponder) {
                (Decision::Move(m), Some(p)) => {
                    format!("bestmove {} ponder {}", m.to_usi(), p.to_usi())
                }
                (d, _) => format!("bestmove {}", d.to_usi()),
            };
            done.store(true, Ordering::SeqCst);
            say(&out, &line);
            searcher
        });
        self.running = Some(Running {
            handle,
            control,
            answered,
        });
    }
}

impl<W: Write + Send + 'static> Session<W> {
    /// `go mate`: the mate solver on its own thread, answering `checkmate <moves>`,
    /// `checkmate nomate` or `checkmate timeout`; `stop` ends it (with `timeout` unless a
    /// mate was already proven).
    fn go_mate(&mut self, ms: u64) {
        let searcher = {
            self.searcher();
            self.searcher.take().expect("searcher just made")
        };
        let control = Arc::new(Control::new(false));
        let out = self.out.clone();
        let pos = self.position.clone();
        let c = control.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let done = answered.clone();
        let handle = std::thread::spawn(move || {
            let limits = MateLimits {
                // A time too far to be represented is no limit.
                deadline: (ms != u64::MAX)
                    .then(|| Instant::now().checked_add(Duration::from_millis(ms.max(1))))
                    .flatten(),
                ..MateLimits::default()
            };
            let answer = mate::solve(&pos, limits, &c.stop);
            done.store(true, Ordering::SeqCst);
            say(&out, &answer.to_usi());
            searcher
        });
        self.running = Some(Running {
            handle,
            control,
            answered,
        });
    }
}

/// Run a session: a reader thread feeds lines from `input`; the session handles them
/// until `quit` or the end of input.
pub fn run<R, W>(input: R, out: W)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let mut session = Session::new(out);
    while let Ok(line) = rx.recv() {
        if !session.handle(&line) {
            return;
        }
    }
    // End of input: finish as if `quit` had been sent.
    session.handle("quit");
}
