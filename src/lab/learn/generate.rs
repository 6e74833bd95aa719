//! `learn gen`: games whose positions an outside engine labels, written as records
//! ([`super::record`]).
//!
//! The work is cut into units numbered from 0; unit `i` is one game, and everything in it
//! (its kind, opening, random moves, the built-in engine's moves at a fixed node count)
//! follows from the seed and `i` alone, so the file does not depend on `--jobs`. Kinds
//! repeat in the pattern of the mix (e.g. `selfplay:2,versus:1,aiiru:1`):
//!
//! - self-play: the built-in engine against itself from a real opening, with a few random
//!   legal moves in the first plies; one position in `every` is labelled (random offset);
//! - versus: the built-in engine against the teacher (colours by the unit's parity), from
//!   a real opening with the same random moves; the teacher's search gives its moves, and
//!   one position in `every` is recorded, of both sides alike (recording the teacher's
//!   own moves too, as the first files did, filled the data with positions whose side to
//!   move wins: a skew towards the side to move);
//! - outside: the built-in engine against an outside engine (`--opponent`), colours by
//!   the unit's parity, one position in `every` labelled by the teacher;
//! - aiiru: an entering-king position (the next one in turn), labelled, and the built-in
//!   engine's self-play from it, one position in `every` labelled;
//! - decl24: an entering-king position (taken in turn with the aiiru units) and the
//!   24-point engine's self-play from it under the 24-point rule; the start and one
//!   position in `every` are recorded with the game's result alone (teacher score 0,
//!   source `decl24_replay`): the data of a correction of the 24-point evaluation.
//!
//! Units are written whole and in order: the last record of a unit carries a flag, so an
//! interrupted file is cut back to its last whole unit and the run goes on from the next.
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;

use super::record::{self, MATE_SCORE, Outcome, Record, ResumePoint, Source, pack, resume_point};
use super::teacher::{Label, Teacher, TeacherSpec};
use crate::engine::search::{Config, Mode};
use crate::engine::time::Limits;
use crate::referee::usi::{Answer, BestMove, EngineFailure};
use crate::referee::{
    AutoDeclare, EnginePlayer, GameError, GameView, Observer, Player, RefereeSettings,
};
use crate::rng::XorShift64Star;
use crate::shogi::{Color, EnteringKingRule, History, Move, Position};
use std::cell::RefCell;

/// The kind of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// Self-play from an opening.
    SelfPlay,
    /// The built-in engine against the teacher.
    Versus,
    /// An entering-king position and its self-play replay.
    Aiiru,
    /// An entering-king position replayed by the 24-point engine against itself under
    /// the 24-point rule; its positions are labelled by the game's result alone (the
    /// teacher is not asked): data for a correction of the 24-point evaluation.
    Decl24,
    /// The built-in engine against an outside engine (`GenSettings::opponent`: GPS Shogi,
    /// YaneuraOu, Fairy-Stockfish, ...), colours alternating; the teacher labels one
    /// position in `every` of both sides.
    Outside,
}

impl UnitKind {
    fn name(self) -> &'static str {
        match self {
            UnitKind::SelfPlay => "selfplay",
            UnitKind::Versus => "versus",
            UnitKind::Aiiru => "aiiru",
            UnitKind::Decl24 => "decl24",
            UnitKind::Outside => "outside",
        }
    }
}

/// A mix text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad mix `{0}` (expected e.g. selfplay:2,versus:1,aiiru:1)")]
pub struct BadMix(pub String);

/// The unit pattern of a mix text `kind:count,...`.
pub fn parse_mix(s: &str) -> Result<Vec<UnitKind>, BadMix> {
    let mut v = Vec::new();
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let (name, n) = part.split_once(':').unwrap_or((part, "1"));
        let kind = match name.trim() {
            "selfplay" => UnitKind::SelfPlay,
            "versus" => UnitKind::Versus,
            "aiiru" => UnitKind::Aiiru,
            "decl24" => UnitKind::Decl24,
            "outside" => UnitKind::Outside,
            _ => return Err(BadMix(s.to_string())),
        };
        let n: usize = n.trim().parse().map_err(|_| BadMix(s.to_string()))?;
        if n > 100 {
            return Err(BadMix(s.to_string()));
        }
        v.extend(std::iter::repeat_n(kind, n));
    }
    if v.is_empty() {
        return Err(BadMix(s.to_string()));
    }
    Ok(v)
}

/// Everything that decides what `learn gen` writes.
#[derive(Debug, Clone)]
pub struct GenSettings {
    /// Seed of every random choice.
    pub seed: u64,
    /// Units to have in the file (a resumed run goes on to this many).
    pub units: u32,
    /// Nodes per move of the built-in engine.
    pub nodes: u64,
    /// Random legal moves per game (self-play and versus units).
    pub random_moves: u32,
    /// The random moves fall within this many plies from the opening.
    pub random_plies: u32,
    /// Plies after which a game stops as a draw.
    pub max_plies: u32,
    /// Adjudication: when the teacher scores two labelled positions of a game in a row at
    /// least this many centipawns (or mate) for the same side, the other side resigns at
    /// its next move. `None`: every game is played out (the files made before it).
    pub adjudicate: Option<i32>,
    /// One position in this many is labelled.
    pub every: u32,
    /// The unit pattern.
    pub mix: Vec<UnitKind>,
    /// Openings: USI position text (`startpos moves ...` or `sfen ... moves ...`).
    pub openings: Vec<Position>,
    /// Entering-king start positions.
    pub aiiru: Vec<Position>,
    /// The teacher.
    pub teacher: TeacherSpec,
    /// The outside opponent of `outside` units (its moves are its `bestmove`s).
    pub opponent: Option<TeacherSpec>,
    /// Transposition table of the built-in engine, MB.
    pub hash_mb: usize,
    /// The built-in engine's evaluation: `None` the hand-made one (with which the
    /// committed weights' labels were played), or learned weights and the name they
    /// are written under in the header (`builtin` or the file's path).
    pub engine_linear: Option<(
        String,
        std::sync::Arc<crate::engine::eval::linear::LinearWeights>,
    )>,
}

fn fnv64(parts: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

impl GenSettings {
    /// The header text: every setting but the unit count (a run may be extended).
    pub fn header(&self) -> String {
        // Files made without an opponent keep the header they had before one could be
        // named, so that they can be resumed.
        let opponent = match &self.opponent {
            None => String::new(),
            Some(o) => {
                let opts: Vec<String> = o.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!(
                    "opponent={} {}\nopponent_options={}\nopponent_go={}\n",
                    o.program,
                    o.args.join(" "),
                    opts.join(" "),
                    o.go
                )
            }
        };
        let engine = match &self.engine_linear {
            // Files made with the hand-made evaluation keep the header they had before
            // the engine's evaluation could be chosen, so that they can be resumed.
            None => String::new(),
            Some((name, _)) => format!("engine_linear_weights={name}\n"),
        };
        // Files made without adjudication keep the header they had before it.
        let adjudicate = match self.adjudicate {
            None => String::new(),
            Some(cp) => format!("adjudicate={cp}\n"),
        };
        let openings: Vec<String> = self.openings.iter().map(|p| p.to_sfen()).collect();
        let aiiru: Vec<String> = self.aiiru.iter().map(|p| p.to_sfen()).collect();
        let mix: Vec<&str> = self.mix.iter().map(|k| k.name()).collect();
        let opts: Vec<String> = self
            .teacher
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(
            "format=FSLEARN1 record_bytes={}\nseed={}\nnodes={}\nrandom_moves={}\nrandom_plies={}\nmax_plies={}\nevery={}\nmix={}\nopenings={} fnv64={:016x}\naiiru={} fnv64={:016x}\nteacher={} {}\nteacher_options={}\nteacher_go={}\nhash_mb={}\nrecorded=every_both_sides\n{}{}{}",
            record::RECORD_BYTES,
            self.seed,
            self.nodes,
            self.random_moves,
            self.random_plies,
            self.max_plies,
            self.every,
            mix.join(","),
            openings.len(),
            fnv64(&openings),
            aiiru.len(),
            fnv64(&aiiru),
            self.teacher.program,
            self.teacher.args.join(" "),
            opts.join(" "),
            self.teacher.go,
            self.hash_mb,
            engine,
            opponent,
            adjudicate,
        )
    }

    /// The start position of unit `unit`: the next entering-king position for aiiru and
    /// decl24 units, else an opening drawn by the unit's generator.
    fn start_of(&self, unit: u32, rng: &mut XorShift64Star) -> Position {
        let entering = matches!(self.kind_of(unit), UnitKind::Aiiru | UnitKind::Decl24);
        if entering && !self.aiiru.is_empty() {
            self.aiiru[self.aiiru_index(unit)].clone()
        } else if !self.openings.is_empty() {
            self.openings[rng.below(self.openings.len() as u64) as usize].clone()
        } else {
            Position::startpos()
        }
    }

    /// The built-in engine of a unit of `kind`: the 24-point engine under the 24-point
    /// rule in decl24 units, else the full search with the chosen evaluation.
    fn engine_config(&self, kind: UnitKind) -> Config {
        if kind == UnitKind::Decl24 {
            Config {
                mode: Mode::Decl24,
                rule: EnteringKingRule::CSARule24,
                ..Config::default()
            }
        } else {
            Config {
                linear: self.engine_linear.as_ref().map(|(_, w)| w.clone()),
                ..Config::default()
            }
        }
    }

    fn kind_of(&self, unit: u32) -> UnitKind {
        self.mix[unit as usize % self.mix.len()]
    }

    /// Index of the entering-king position unit `unit` starts from (aiiru and decl24
    /// units take them in turn).
    fn aiiru_index(&self, unit: u32) -> usize {
        let entering = |k: &&UnitKind| matches!(k, UnitKind::Aiiru | UnitKind::Decl24);
        let per_cycle = self.mix.iter().filter(entering).count();
        let cycle = unit as usize / self.mix.len();
        let before = self.mix[..unit as usize % self.mix.len()]
            .iter()
            .filter(entering)
            .count();
        (cycle * per_cycle + before) % self.aiiru.len().max(1)
    }
}

/// The generator of unit `unit`: splitmix64 of the seed and the unit.
fn unit_rng(seed: u64, unit: u32) -> XorShift64Star {
    XorShift64Star::new(crate::rng::stream_seed(seed, unit as u64))
}

/// A labelled position waiting for its game's result.
struct Pending {
    position: [u8; record::POSITION_BYTES],
    label: Label,
    color: Color,
    source: Source,
    ply: u16,
}

/// Something a unit could not do.
pub type UnitError = super::teacher::TeacherError;

/// What a unit's two seats share: the built-in engine (one searcher for both sides, as one
/// table and one set of histories), the random moves, and the teacher (whose label of a
/// position is also its move there in versus units).
struct Shared<'a> {
    engine: EnginePlayer,
    rng: XorShift64Star,
    random_at: Vec<u32>,
    teacher: &'a mut Teacher,
    /// The failure that ended the unit (a teacher that could not be started again).
    fatal: Option<UnitError>,
    /// The side the teacher found winning at the last labelled position, by at least the
    /// adjudication bound (`None`: not by so much, or no adjudication).
    leader: Option<Color>,
    /// The game is adjudicated to this side: the other resigns at its next move.
    decided: Option<Color>,
}

/// Who moves for one side of a unit's game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mover {
    /// The built-in engine.
    Engine,
    /// The teacher's best move.
    Teacher,
    /// The outside opponent's best move.
    Outside,
}

/// One side of a unit's game as a [`Player`].
struct Seat<'s, 'a> {
    mover: Mover,
    shared: &'s RefCell<Shared<'a>>,
    opponent: Option<&'s RefCell<&'a mut Teacher>>,
}

impl Seat<'_, '_> {
    fn fail(&self, e: UnitError) -> EngineFailure {
        let failure = e.failure.clone();
        self.shared.borrow_mut().fatal.get_or_insert(e);
        failure
    }
}

impl Player for Seat<'_, '_> {
    fn name(&self) -> String {
        String::new()
    }

    fn new_game(&mut self) -> Result<(), EngineFailure> {
        Ok(())
    }

    fn think(&mut self, game: &GameView<'_>) -> Result<Answer, EngineFailure> {
        let t0 = std::time::Instant::now();
        let mut sh = self.shared.borrow_mut();
        if sh
            .decided
            .is_some_and(|w| w != game.position.side_to_move())
        {
            return Ok(Answer::plain(BestMove::Resign, t0.elapsed()));
        }
        if sh.random_at.contains(&game.ply()) {
            let legal = game.position.legal_moves();
            let n = legal.as_slice().len() as u64;
            let m = legal.as_slice()[sh.rng.below(n) as usize];
            return Ok(Answer::plain(BestMove::Move(m.to_usi()), t0.elapsed()));
        }
        let asked = match (self.mover, self.opponent) {
            (Mover::Engine, _) | (Mover::Outside, None) => Ok(None),
            (Mover::Teacher, _) => sh.teacher.answer(&game.position.to_sfen()),
            (Mover::Outside, Some(o)) => o.borrow_mut().answer(&game.position.to_sfen()),
        };
        match asked {
            Ok(Some(answer)) => Ok(answer),
            // No answer (the engine was started afresh): the built-in engine plays.
            Ok(None) => sh.engine.think(game),
            Err(e) => {
                drop(sh);
                Err(self.fail(e))
            }
        }
    }
}

/// The label maker of a unit: one position in `every` of both sides alike (and an
/// entering-king start), scored by the teacher (or by nothing in decl24 units).
struct Labeller<'s, 'a> {
    kind: UnitKind,
    every: u32,
    offset: u32,
    entering: bool,
    shared: &'s RefCell<Shared<'a>>,
    pending: Vec<Pending>,
    adjudicate: Option<i32>,
}

impl Observer for Labeller<'_, '_> {
    fn before_move(&mut self, game: &GameView<'_>) -> Result<(), EngineFailure> {
        let ply = game.ply();
        // The teacher's own moves in versus games are searched but not recorded apart from
        // these: the teacher wins most of them, so its positions alone would teach that
        // the side to move is ahead (the side-to-move skew of the first correction).
        if !(ply % self.every == self.offset || (self.entering && ply == 0)) {
            return Ok(());
        }
        let pos = game.position;
        let label = if self.kind == UnitKind::Decl24 {
            // Labelled by the game's result alone: the teacher is not asked.
            Some(Label {
                score: 0,
                mate: false,
                best: String::new(),
            })
        } else {
            let mut sh = self.shared.borrow_mut();
            let label = match sh.teacher.label(&pos.to_sfen()) {
                Ok(l) => l,
                Err(e) => {
                    let failure = e.failure.clone();
                    sh.fatal.get_or_insert(e);
                    return Err(failure);
                }
            };
            if let Some(bound) = self.adjudicate {
                let us = pos.side_to_move();
                let leader = label.as_ref().and_then(|l| {
                    (l.mate || l.score.abs() >= bound).then(|| if l.score > 0 { us } else { !us })
                });
                if leader.is_some() && leader == sh.leader {
                    sh.decided = leader;
                }
                sh.leader = leader;
            }
            label
        };
        if let Some(label) = label {
            let source = match self.kind {
                UnitKind::SelfPlay => Source::SelfPlay,
                UnitKind::Versus => Source::Versus,
                UnitKind::Aiiru if ply == 0 => Source::Aiiru,
                UnitKind::Aiiru => Source::AiiruReplay,
                UnitKind::Decl24 => Source::Decl24Replay,
                UnitKind::Outside => Source::Outside,
            };
            self.pending.push(Pending {
                position: pack(pos),
                label,
                color: pos.side_to_move(),
                source,
                ply: ply.min(u16::MAX as u32) as u16,
            });
        }
        Ok(())
    }
}

/// Play and label unit `unit`.
pub fn play_unit(
    s: &GenSettings,
    unit: u32,
    teacher: &mut Teacher,
    opponent: Option<&mut Teacher>,
) -> Result<Vec<Record>, UnitError> {
    let mut rng = unit_rng(s.seed, unit);
    let kind = s.kind_of(unit);
    let entering = matches!(kind, UnitKind::Aiiru | UnitKind::Decl24);
    let start = s.start_of(unit, &mut rng);
    // The teacher or the opponent plays one colour (by the unit's parity).
    let other = match kind {
        UnitKind::Versus => Mover::Teacher,
        UnitKind::Outside => Mover::Outside,
        _ => Mover::Engine,
    };
    let other_plays_black = !(unit / s.mix.len() as u32).is_multiple_of(2);
    let every = s.every.max(1);
    let offset = rng.below(every as u64) as u32;
    let random_at = if entering {
        Vec::new()
    } else {
        (0..s.random_moves)
            .map(|_| rng.below(s.random_plies.max(1) as u64) as u32)
            .collect()
    };
    let config = s.engine_config(kind);
    let rule = config.rule;
    let shared = RefCell::new(Shared {
        engine: EnginePlayer::new(config, s.hash_mb, Limits::nodes(s.nodes), rule),
        rng,
        random_at,
        teacher,
        fatal: None,
        leader: None,
        decided: None,
    });
    let opponent = opponent.map(RefCell::new);
    let seat = |mover| Seat {
        mover,
        shared: &shared,
        opponent: opponent.as_ref(),
    };
    let (mut black, mut white) = if other_plays_black {
        (seat(other), seat(Mover::Engine))
    } else {
        (seat(Mover::Engine), seat(other))
    };
    let mut labeller = Labeller {
        kind,
        every,
        offset,
        entering,
        shared: &shared,
        pending: Vec::new(),
        adjudicate: s.adjudicate,
    };
    // Every winning declaration is made at once, whoever could make it.
    let settings = RefereeSettings {
        rule,
        max_plies: s.max_plies,
        auto_declare: AutoDeclare::Win,
    };
    let played = crate::referee::play(
        &start,
        History::new(&start),
        [&mut black, &mut white],
        &settings,
        &mut labeller,
    );
    let winner = unit_winner(played, shared.borrow_mut().fatal.take(), s)?;
    Ok(records_of(labeller.pending, winner, unit))
}

/// The winner of a unit's game, or why the unit is not written: a teacher that could not
/// be started again (`fatal`), or an interruption.
fn unit_winner(
    played: Result<crate::referee::Game, GameError>,
    fatal: Option<UnitError>,
    s: &GenSettings,
) -> Result<Option<Color>, UnitError> {
    if let Some(e) = fatal {
        return Err(e);
    }
    match played {
        Ok(g) => Ok(g.ending.winner()),
        Err(e) => Err(UnitError {
            program: s.teacher.program.clone(),
            failure: match e {
                GameError::Observer(f) => f,
                GameError::Interrupted => EngineFailure::Interrupted,
            },
        }),
    }
}

/// The records of a finished unit: each labelled position with the game's result for its
/// side to move, the last one flagged.
fn records_of(pending: Vec<Pending>, winner: Option<Color>, unit: u32) -> Vec<Record> {
    let n = pending.len();
    pending
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let outcome = match winner {
                None => Outcome::Draw,
                Some(w) if w == p.color => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
            Record {
                position: p.position,
                score: p.label.score.clamp(-MATE_SCORE, MATE_SCORE) as i16,
                mate: p.label.mate,
                outcome,
                source: p.source,
                ply: p.ply,
                unit,
                last: i + 1 == n,
            }
        })
        .collect()
}

/// How far a run got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GenProgress {
    /// Units in the file.
    pub units_done: u32,
    /// Units the run is to reach.
    pub units_total: u32,
    /// Records in the file.
    pub records: u64,
    /// Records written by this run.
    pub new_records: u64,
    /// Units the run found in the file when it started.
    pub resumed_units: u32,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The output cannot be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The existing file cannot be resumed.
    #[error(transparent)]
    Resume(#[from] record::ResumeError),
    /// The teacher failed in a way a restart did not mend.
    #[error(transparent)]
    Teacher(#[from] super::teacher::TeacherError),
}

/// Run `learn gen` into `path` with `jobs` workers (each with its own teacher), resuming
/// a file made with the same settings. `stop` is polled between units; `progress` is
/// called after every unit written.
pub fn run(
    s: &GenSettings,
    path: &Path,
    jobs: usize,
    stop: &(dyn Fn() -> bool + Sync),
    progress: &mut dyn FnMut(&GenProgress),
) -> Result<GenProgress, GenError> {
    let header = s.header();
    let (mut file, point) = if path.exists() {
        let point = resume_point(path, &header)?;
        (record::open_at(path, &point)?, point)
    } else {
        (
            record::create(path, &header)?,
            ResumePoint {
                keep_bytes: 0,
                records: 0,
                next_unit: 0,
            },
        )
    };
    let mut state = GenProgress {
        units_done: point.next_unit.min(s.units),
        units_total: s.units,
        records: point.records,
        new_records: 0,
        resumed_units: point.next_unit,
    };
    progress(&state);
    if point.next_unit >= s.units {
        return Ok(state);
    }
    let next = AtomicU32::new(point.next_unit);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<(u32, Result<Vec<Record>, UnitError>)>();
    let error = std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || work(s, next, failed, stop, &tx));
        }
        drop(tx);
        let mut writer = InOrder {
            file: &mut file,
            state: &mut state,
            progress,
            waiting: BTreeMap::new(),
        };
        let mut error: Option<GenError> = None;
        for (i, r) in rx {
            if let Err(e) = writer.take(i, r) {
                failed.store(true, Ordering::Relaxed);
                error.get_or_insert(e);
            }
        }
        error
    });
    match error {
        Some(e) => Err(e),
        None => Ok(state),
    }
}

/// One worker of `learn gen`: its own teacher (and opponent), units taken in turn until
/// they run out, the run stops or fails; each unit's records are sent with its number.
fn work(
    s: &GenSettings,
    next: &AtomicU32,
    failed: &AtomicBool,
    stop: &(dyn Fn() -> bool + Sync),
    tx: &std::sync::mpsc::Sender<(u32, Result<Vec<Record>, UnitError>)>,
) {
    let fail = |e: UnitError| {
        failed.store(true, Ordering::Relaxed);
        let _ = tx.send((u32::MAX, Err(e)));
    };
    let mut teacher = match Teacher::start(&s.teacher) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let mut opponent = match &s.opponent {
        Some(spec) if s.mix.contains(&UnitKind::Outside) => match Teacher::start(spec) {
            Ok(t) => Some(t),
            Err(e) => return fail(e),
        },
        _ => None,
    };
    while !(stop() || failed.load(Ordering::Relaxed)) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= s.units {
            return;
        }
        let r = play_unit(s, i, &mut teacher, opponent.as_mut());
        let bad = r.is_err();
        if tx.send((i, r)).is_err() || bad {
            failed.store(true, Ordering::Relaxed);
            return;
        }
    }
}

/// Units written whole and in their order, whatever order they finish in.
struct InOrder<'a> {
    file: &'a mut std::fs::File,
    state: &'a mut GenProgress,
    progress: &'a mut dyn FnMut(&GenProgress),
    waiting: BTreeMap<u32, Vec<Record>>,
}

impl InOrder<'_> {
    /// Take unit `i`'s result and write every unit now next in order.
    fn take(&mut self, i: u32, r: Result<Vec<Record>, UnitError>) -> Result<(), GenError> {
        self.waiting.insert(i, r?);
        while let Some(recs) = self.waiting.remove(&self.state.units_done) {
            let mut buf = Vec::with_capacity(recs.len() * record::RECORD_BYTES);
            for r in &recs {
                buf.extend_from_slice(&r.to_bytes());
            }
            self.file.write_all(&buf).and_then(|_| self.file.flush())?;
            self.state.units_done += 1;
            self.state.records += recs.len() as u64;
            self.state.new_records += recs.len() as u64;
            (self.progress)(self.state);
        }
        Ok(())
    }
}

/// Read a position given as USI text: `startpos [moves ...]` or `sfen B S H [N]
/// [moves ...]` (a leading `position` is allowed).
pub fn position_from_usi(text: &str) -> Option<Position> {
    let t: Vec<&str> = text.split_whitespace().collect();
    let t = if t.first() == Some(&"position") {
        &t[1..]
    } else {
        &t[..]
    };
    let (mut pos, rest) = match *t.first()? {
        "startpos" => (Position::startpos(), &t[1..]),
        "sfen" => {
            let end = t.iter().position(|&w| w == "moves").unwrap_or(t.len());
            (Position::from_sfen(&t[1..end].join(" ")).ok()?, &t[end..])
        }
        _ => {
            let end = t.iter().position(|&w| w == "moves").unwrap_or(t.len());
            (Position::from_sfen(&t[..end].join(" ")).ok()?, &t[end..])
        }
    };
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            pos.play(Move::from_usi(m).ok()?).ok()?;
        }
    } else if !rest.is_empty() {
        return None;
    }
    Some(pos)
}
