//! The one game loop: two [`Player`]s (the built-in searcher in-process, any USI engine as
//! a process, a test's stand-in) play from a start position to an [`Ending`], judged move
//! by move with the core's rules ([`History`] for repetition and perpetual check,
//! [`evaluate_declaration`] for declarations, the try rule, the ply limit), and every
//! failure of a player ends the game as a loss of the side that failed. What differs
//! between the commands that play games (a replay row, a training label, an SPRT result)
//! is an [`Observer`] of the positions and a reading of the finished [`Game`].
use std::time::Duration;

use super::outcome::{ReplayEnding, SideStats};
use super::usi::{Answer, BestMove, EngineFailure};
use crate::shogi::{
    Color, DECLARATION_ZONE_PIECES, DeclarationOutcome, EnteringKingRule, History, Move, Position,
    RepetitionStatus, evaluate_declaration, try_rule_reached,
};

/// The game as a player or an observer sees it before a move.
#[derive(Debug, Clone, Copy)]
pub struct GameView<'a> {
    /// The start position.
    pub start: &'a Position,
    /// Its SFEN (what a USI engine is sent).
    pub start_sfen: &'a str,
    /// The position now.
    pub position: &'a Position,
    /// Every position of the game so far (the prior ones, the start, and the position now).
    pub history: &'a History,
    /// The moves from the start.
    pub moves: &'a [Move],
    /// The same moves in USI.
    pub usi_moves: &'a [String],
}

impl GameView<'_> {
    /// Plies played from the start.
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }
}

/// Something that answers positions: the built-in engine, an outside engine, a test's
/// stand-in.
pub trait Player {
    /// The name for the tables (the engine's `id name`).
    fn name(&self) -> String;
    /// Get ready for a new game.
    fn new_game(&mut self) -> Result<(), EngineFailure>;
    /// Answer the position the game has reached.
    fn think(&mut self, game: &GameView<'_>) -> Result<Answer, EngineFailure>;
    /// The game it played is over, with this result for it (USI `gameover`).
    fn game_over(&mut self, _result: GameResult) {}
    /// Whether it declares every winning declaration as soon as it can (the built-in
    /// engine's search does so before anything else): the referee then records its
    /// declaration without asking it.
    fn declares_at_once(&self) -> bool {
        false
    }
}

/// What looks at a game as it is played (a label maker, a tracer).
pub trait Observer {
    /// Called before the side to move is asked, with the game as it stands; an error ends
    /// the game ([`GameError::Observer`]).
    fn before_move(&mut self, _game: &GameView<'_>) -> Result<(), EngineFailure> {
        Ok(())
    }
}

/// The observer that looks at nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// A game's result for one player (USI `gameover win|lose|draw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// It won.
    Win,
    /// It lost.
    Lose,
    /// A draw (or no result: the ply limit).
    Draw,
}

impl GameResult {
    /// The word of the `gameover` command.
    pub fn word(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
        }
    }
}

/// When the referee declares for a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoDeclare {
    /// Never: only the players declare.
    #[default]
    Off,
    /// At the first moment a declaration would win.
    Win,
    /// At the first moment a declaration would win or draw (24-point rules).
    Draw,
}

/// How the games are judged.
#[derive(Debug, Clone)]
pub struct RefereeSettings {
    /// The entering-king rule the game is judged under.
    pub rule: EnteringKingRule,
    /// Plies after which the game stops as [`Ending::Limit`].
    pub max_plies: u32,
    /// Whether and when the referee declares for a side.
    pub auto_declare: AutoDeclare,
}

/// How a game ended (or that it was not played).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// This side declared a win.
    Declaration(Color),
    /// This side declared with the points of a draw (24-point rules).
    DeclaredDraw(Color),
    /// This side, to move, had no legal move.
    Mate(Color),
    /// This side resigned.
    Resign(Color),
    /// Fourfold repetition, drawn.
    Repetition,
    /// Fourfold repetition with this side checking on every move: it loses.
    PerpetualCheck(Color),
    /// The try rule: this side's king reached the try square.
    Try(Color),
    /// The ply limit.
    Limit,
    /// This side played an illegal move, an unreadable line, or an illegal declaration.
    Illegal(Color),
    /// This side did not answer in time.
    Timeout(Color),
    /// This side's engine ended or could not be started.
    Crash(Color),
    /// Not played: a 24-point rule allows no declaration past move 500.
    PastMove500,
}

impl Ending {
    /// The winner, if any (a failing side loses).
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Declaration(c) | Ending::Try(c) => Some(c),
            Ending::Mate(l)
            | Ending::Resign(l)
            | Ending::PerpetualCheck(l)
            | Ending::Illegal(l)
            | Ending::Timeout(l)
            | Ending::Crash(l) => Some(l.opposite()),
            Ending::DeclaredDraw(_) | Ending::Repetition | Ending::Limit | Ending::PastMove500 => {
                None
            }
        }
    }

    /// The ending's word in the tables.
    pub fn kind(self) -> ReplayEnding {
        match self {
            Ending::Declaration(_) => ReplayEnding::Declaration,
            Ending::DeclaredDraw(_) => ReplayEnding::DeclaredDraw,
            Ending::Mate(_) => ReplayEnding::Mate,
            Ending::Resign(_) => ReplayEnding::Resign,
            Ending::Repetition => ReplayEnding::Repetition,
            Ending::PerpetualCheck(_) => ReplayEnding::PerpetualCheck,
            Ending::Try(_) => ReplayEnding::Try,
            Ending::Limit => ReplayEnding::Limit,
            Ending::Illegal(_) => ReplayEnding::Illegal,
            Ending::Timeout(_) => ReplayEnding::Timeout,
            Ending::Crash(_) => ReplayEnding::EngineCrash,
            Ending::PastMove500 => ReplayEnding::PastMove500,
        }
    }

    /// The name in the tables ([`ReplayEnding::name`] of [`Ending::kind`]).
    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// A failure of a player (an illegal answer, a timeout, a crash) rather than an
    /// ending of the game itself.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Ending::Illegal(_) | Ending::Timeout(_) | Ending::Crash(_)
        )
    }
}

/// Who made a declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declarer {
    /// The player (`bestmove win`, or the built-in engine's own declaration).
    Engine,
    /// The referee ([`AutoDeclare`]).
    Referee,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Both sides' counts at the start (Black, White).
    pub start: [SideStats; 2],
    /// Both sides' counts at the end.
    pub end: [SideStats; 2],
    /// How it ended.
    pub ending: Ending,
    /// Who declared, for a declaration ending (a win, a draw or an illegal one).
    pub declarer: Option<Declarer>,
    /// Plies played.
    pub plies: u32,
    /// First ply (0 = the start) at which each side had 10 pieces in the camp.
    pub first_ten: [Option<u32>; 2],
    /// The moves played.
    pub moves: Vec<Move>,
    /// Each side's time from the question to the answer, summed.
    pub think: [Duration; 2],
    /// Each side's answers.
    pub answers: [u32; 2],
    /// Nodes the players reported searching, both sides summed (0 for engines that
    /// report none).
    pub nodes: u64,
    /// The players' names (Black, White).
    pub names: [String; 2],
    /// What went wrong, for a failure or an illegal declaration (empty otherwise).
    pub note: String,
}

impl Game {
    /// The record of a position not played ([`Ending::PastMove500`]).
    pub fn not_played(pos: &Position, names: [String; 2]) -> Game {
        let stats = stats(pos);
        let mut first_ten = [None, None];
        note_ten(pos, 0, &mut first_ten);
        Game {
            start: stats,
            end: stats,
            ending: Ending::PastMove500,
            declarer: None,
            plies: 0,
            first_ten,
            moves: Vec::new(),
            think: [Duration::ZERO; 2],
            answers: [0, 0],
            nodes: 0,
            names,
            note: String::new(),
        }
    }

    /// The result for side `c` (1 a win, 0 a loss, 0.5 a draw or no result).
    pub fn score_of(&self, c: Color) -> f64 {
        match self.ending.winner() {
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// Why a game has no ending.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The run was interrupted (SIGINT or SIGTERM) while a player was thinking.
    #[error("interrupted")]
    Interrupted,
    /// The observer could not go on.
    #[error("{0}")]
    Observer(EngineFailure),
}

/// Note the first ply each side has 10 pieces in the enemy camp.
fn note_ten(pos: &Position, ply: u32, first_ten: &mut [Option<u32>; 2]) {
    for c in Color::ALL {
        if first_ten[c.index()].is_none() && pos.zone_count(c) >= DECLARATION_ZONE_PIECES {
            first_ten[c.index()] = Some(ply);
        }
    }
}

fn stats(pos: &Position) -> [SideStats; 2] {
    [
        SideStats::of(pos, Color::Black),
        SideStats::of(pos, Color::White),
    ]
}

/// The game being played: the position, what was played, and the counts kept.
struct Table {
    start_sfen: String,
    pos: Position,
    history: History,
    moves: Vec<Move>,
    usi_moves: Vec<String>,
    first_ten: [Option<u32>; 2],
    think: [Duration; 2],
    answers: [u32; 2],
    nodes: u64,
    declarer: Option<Declarer>,
    note: String,
}

/// How a turn went: the game goes on, or it ended.
enum Turn {
    Next,
    End(Ending),
}

impl Table {
    fn view<'a>(&'a self, start: &'a Position) -> GameView<'a> {
        GameView {
            start,
            start_sfen: &self.start_sfen,
            position: &self.pos,
            history: &self.history,
            moves: &self.moves,
            usi_moves: &self.usi_moves,
        }
    }

    /// The endings decided before the side to move is asked: a declaration made for it
    /// (by the referee, or at once by a player that always declares), mate, the ply limit.
    fn before_asking(
        &mut self,
        settings: &RefereeSettings,
        declares_at_once: bool,
    ) -> Option<Ending> {
        let us = self.pos.side_to_move();
        let rule = settings.rule;
        if rule.has_declaration() && (settings.auto_declare != AutoDeclare::Off || declares_at_once)
        {
            match evaluate_declaration(&self.pos, rule).outcome {
                DeclarationOutcome::Win => {
                    self.declarer = Some(if settings.auto_declare == AutoDeclare::Off {
                        Declarer::Engine
                    } else {
                        Declarer::Referee
                    });
                    return Some(Ending::Declaration(us));
                }
                DeclarationOutcome::Draw if settings.auto_declare == AutoDeclare::Draw => {
                    self.declarer = Some(Declarer::Referee);
                    return Some(Ending::DeclaredDraw(us));
                }
                _ => {}
            }
        }
        if !self.pos.has_legal_move() {
            return Some(Ending::Mate(us));
        }
        if self.moves.len() as u32 >= settings.max_plies {
            return Some(Ending::Limit);
        }
        None
    }

    /// Judge a player's declaration.
    fn declaration(&mut self, rule: EnteringKingRule) -> Ending {
        let us = self.pos.side_to_move();
        self.declarer = Some(Declarer::Engine);
        let e = evaluate_declaration(&self.pos, rule);
        match e.outcome {
            DeclarationOutcome::Win => Ending::Declaration(us),
            DeclarationOutcome::Draw => Ending::DeclaredDraw(us),
            DeclarationOutcome::Illegal | DeclarationOutcome::NotApplicable => {
                self.note = format!(
                    "illegal declaration under {rule}: {} pieces in the camp, {} points{}{}{}",
                    e.zone_count,
                    e.points,
                    if e.king_in_camp {
                        ""
                    } else {
                        ", king outside the camp"
                    },
                    if e.in_check { ", in check" } else { "" },
                    if e.move_number_ok {
                        ""
                    } else {
                        ", past move 500"
                    },
                );
                Ending::Illegal(us)
            }
        }
    }

    /// Play a move given as USI text, and judge the position it reaches.
    fn play_move(&mut self, text: &str, rule: EnteringKingRule) -> Turn {
        let us = self.pos.side_to_move();
        let m = match Move::from_usi(text) {
            Ok(m) => m,
            Err(_) if text.is_empty() => {
                self.note = "`bestmove` without a move".into();
                return Turn::End(Ending::Illegal(us));
            }
            Err(_) => {
                self.note = format!("unreadable move `{text}`");
                return Turn::End(Ending::Illegal(us));
            }
        };
        if let Err(kind) = self.pos.play(m) {
            self.note = format!("illegal move {text}: {kind:?}");
            return Turn::End(Ending::Illegal(us));
        }
        self.moves.push(m);
        self.usi_moves.push(m.to_usi());
        self.history.push(&self.pos);
        note_ten(&self.pos, self.moves.len() as u32, &mut self.first_ten);
        match self.history.repetition() {
            RepetitionStatus::None => {}
            RepetitionStatus::Draw => return Turn::End(Ending::Repetition),
            RepetitionStatus::PerpetualCheckLoss(c) => {
                return Turn::End(Ending::PerpetualCheck(c));
            }
        }
        if rule == EnteringKingRule::TryRule && try_rule_reached(&self.pos, us) {
            return Turn::End(Ending::Try(us));
        }
        Turn::Next
    }

    /// The ending of a player's failure (`Err`: interrupted).
    fn failure(&mut self, f: EngineFailure, us: Color) -> Result<Ending, GameError> {
        match f {
            EngineFailure::Interrupted => Err(GameError::Interrupted),
            EngineFailure::Timeout(m) => {
                self.note = m;
                Ok(Ending::Timeout(us))
            }
            EngineFailure::Crash(m) => {
                self.note = m;
                Ok(Ending::Crash(us))
            }
        }
    }
}

/// Play a game from `start` reached through `history` (a [`History`] whose last position
/// is `start`; `History::new(start)` for a game with no past): `players[0]` plays Black,
/// `players[1]` White. `observer` sees the game before every question. Every failure of a
/// player ends the game with its ending; only an interruption (a player's wait stopped)
/// or the observer's error returns an error.
pub fn play(
    start: &Position,
    history: History,
    players: [&mut dyn Player; 2],
    settings: &RefereeSettings,
    observer: &mut dyn Observer,
) -> Result<Game, GameError> {
    let mut t = Table {
        start_sfen: start.to_sfen(),
        pos: start.clone(),
        history,
        moves: Vec::new(),
        usi_moves: Vec::new(),
        first_ten: [None, None],
        think: [Duration::ZERO; 2],
        answers: [0, 0],
        nodes: 0,
        declarer: None,
        note: String::new(),
    };
    note_ten(&t.pos, 0, &mut t.first_ten);
    let mut ready = [false, false];
    let ending = loop {
        let us = t.pos.side_to_move();
        let i = us.index();
        if let Some(e) = t.before_asking(settings, players[i].declares_at_once()) {
            break e;
        }
        observer
            .before_move(&t.view(start))
            .map_err(GameError::Observer)?;
        if !ready[i] {
            match players[i].new_game() {
                Ok(()) => ready[i] = true,
                Err(f) => break t.failure(f, us)?,
            }
        }
        let answer = match players[i].think(&t.view(start)) {
            Ok(a) => a,
            Err(f) => break t.failure(f, us)?,
        };
        t.think[i] += answer.elapsed;
        t.answers[i] += 1;
        t.nodes += answer.nodes;
        let turn = match answer.best {
            BestMove::Resign => Turn::End(Ending::Resign(us)),
            BestMove::Win => Turn::End(t.declaration(settings.rule)),
            BestMove::Move(text) => t.play_move(&text, settings.rule),
        };
        if let Turn::End(e) = turn {
            break e;
        }
    };
    for c in Color::ALL {
        if ready[c.index()] {
            players[c.index()].game_over(match ending.winner() {
                Some(w) if w == c => GameResult::Win,
                Some(_) => GameResult::Lose,
                None => GameResult::Draw,
            });
        }
    }
    Ok(Game {
        start: stats(start),
        end: stats(&t.pos),
        ending,
        declarer: t.declarer,
        plies: t.moves.len() as u32,
        first_ten: t.first_ten,
        moves: t.moves,
        think: t.think,
        answers: t.answers,
        nodes: t.nodes,
        names: [players[0].name(), players[1].name()],
        note: t.note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the first legal move, or resigns at a given ply.
    struct First {
        resign_at: Option<u32>,
    }

    impl Player for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn new_game(&mut self) -> Result<(), EngineFailure> {
            Ok(())
        }
        fn think(&mut self, game: &GameView<'_>) -> Result<Answer, EngineFailure> {
            if self.resign_at == Some(game.ply()) {
                return Ok(Answer::plain(BestMove::Resign, Duration::ZERO));
            }
            let m = game.position.legal_moves().as_slice()[0];
            Ok(Answer::plain(BestMove::Move(m.to_usi()), Duration::ZERO))
        }
    }

    /// Counts the positions it sees, checks they are the game's, and fails at a ply.
    struct Watch {
        seen: Vec<u32>,
        fail_at: Option<u32>,
    }

    impl Observer for Watch {
        fn before_move(&mut self, game: &GameView<'_>) -> Result<(), EngineFailure> {
            assert_eq!(game.history.len(), game.moves.len() + 1);
            assert_eq!(game.usi_moves.len(), game.moves.len());
            self.seen.push(game.ply());
            match self.fail_at {
                Some(p) if p == game.ply() => Err(EngineFailure::Crash("observer".into())),
                _ => Ok(()),
            }
        }
    }

    fn settings(max_plies: u32) -> RefereeSettings {
        RefereeSettings {
            rule: EnteringKingRule::CSARule27,
            max_plies,
            auto_declare: AutoDeclare::Off,
        }
    }

    #[test]
    fn the_observer_sees_every_position_before_its_question() {
        let start = Position::startpos();
        let (mut b, mut w) = (First { resign_at: None }, First { resign_at: Some(5) });
        let mut watch = Watch {
            seen: Vec::new(),
            fail_at: None,
        };
        let g = play(
            &start,
            History::new(&start),
            [&mut b, &mut w],
            &settings(40),
            &mut watch,
        )
        .unwrap();
        assert_eq!(g.ending, Ending::Resign(Color::White));
        assert_eq!(g.ending.winner(), Some(Color::Black));
        assert_eq!(g.plies, 5);
        assert_eq!(watch.seen, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(g.answers, [3, 3]);
        assert_eq!(g.names, ["first".to_string(), "first".to_string()]);
    }

    #[test]
    fn an_observer_error_ends_the_game_without_an_ending() {
        let start = Position::startpos();
        let (mut b, mut w) = (First { resign_at: None }, First { resign_at: None });
        let mut watch = Watch {
            seen: Vec::new(),
            fail_at: Some(3),
        };
        let r = play(
            &start,
            History::new(&start),
            [&mut b, &mut w],
            &settings(40),
            &mut watch,
        );
        assert_eq!(
            r.unwrap_err(),
            GameError::Observer(EngineFailure::Crash("observer".into()))
        );
        assert_eq!(watch.seen, vec![0, 1, 2, 3]);
    }

    /// Plays the given moves in order.
    struct Script(Vec<&'static str>);

    impl Player for Script {
        fn name(&self) -> String {
            "script".into()
        }
        fn new_game(&mut self) -> Result<(), EngineFailure> {
            Ok(())
        }
        fn think(&mut self, _game: &GameView<'_>) -> Result<Answer, EngineFailure> {
            let m = self.0.remove(0);
            Ok(Answer::plain(BestMove::Move(m.into()), Duration::ZERO))
        }
    }

    #[test]
    fn a_mate_on_the_last_ply_allowed_is_a_mate_not_the_limit() {
        // Black drops a gold on 5b, guarded by the gold on 5c: White's king is mated.
        // A gold on 4b checks too, but the king escapes to 6a.
        let start = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap();
        for (black, limit, ending) in [
            ("G*5b", 1, Ending::Mate(Color::White)),
            ("G*5b", 2, Ending::Mate(Color::White)),
            ("G*4b", 1, Ending::Limit),
        ] {
            let (mut b, mut w) = (Script(vec![black]), Script(vec![]));
            let g = play(
                &start,
                History::new(&start),
                [&mut b, &mut w],
                &settings(limit),
                &mut NoObserver,
            )
            .unwrap();
            assert_eq!(
                (g.ending, g.plies, g.answers),
                (ending, 1, [1, 0]),
                "{black}"
            );
        }
    }

    #[test]
    fn a_player_is_never_asked_past_the_ply_limit() {
        let start = Position::startpos();
        let (mut b, mut w) = (First { resign_at: None }, First { resign_at: None });
        let g = play(
            &start,
            History::new(&start),
            [&mut b, &mut w],
            &settings(4),
            &mut NoObserver,
        )
        .unwrap();
        assert_eq!((g.ending, g.plies, g.answers), (Ending::Limit, 4, [2, 2]));
    }
}
