//! `floodgate-scan position`: show one position the way the core sees it, to check a
//! record by hand or to script against the core: the board, the complete legal set,
//! check and checkmate, a mate in one, the three point counts per side, and the
//! declaration verdict under every entering-king rule (text, or one JSON object).
use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde_json::{Value, json};

use floodgate_scan::engine::guard::allows_deep_net;
use floodgate_scan::engine::mate::{Dfpn, Proof};
use floodgate_scan::shogi::{
    Color, DeclarationEvaluation, DeclarationOutcome, EnteringKingRule, Move, PieceKind, Position,
    Square, evaluate_declaration, is_mated, solve_mate_in_one,
};

#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Position as SFEN (`startpos` or nothing: the start position).
    #[arg(long, value_name = "SFEN")]
    pub sfen: Option<String>,
    /// Moves to play first, in USI (`7g7f`, `P*5e`, `8h2b+`).
    #[arg(long, value_name = "USI", num_args = 1.., allow_hyphen_values = false)]
    pub moves: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// For every legal move, whether the opponent then mates by checks (a df-pn search):
    /// the moves that escape, those proven to allow a mate (with its length as found),
    /// those that allow a mating net, and those not settled within the nodes.
    #[arg(long)]
    pub escapes: bool,
    /// Positions the df-pn search may expand after each move (with --escapes).
    #[arg(long, value_name = "N", default_value_t = 300_000)]
    pub escape_nodes: u64,
    /// Longest mate looked for after each move, in plies (with --escapes).
    #[arg(long, value_name = "PLIES", default_value_t = 25)]
    pub escape_plies: u32,
    /// A move with no mate by checks after it is also tried for a mating net (a move of
    /// the opponent after which every reply is mated by checks), each df-pn proof of it
    /// within this many positions, all of them within a hundred times as many (with
    /// --escapes; 0: no such test).
    #[arg(long, value_name = "N", default_value_t = 2_000)]
    pub escape_net_nodes: u64,
    /// Longest mate by checks after each reply in the mating-net test, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 15)]
    pub escape_net_plies: u32,
}

/// The legal moves sorted by what the opponent can do after them (`--escapes`).
#[derive(Debug, Default)]
struct Escapes {
    /// No mate by checks within the plies.
    escape: Vec<String>,
    /// A mate by checks, with its length in plies along the proof found.
    mated: Vec<(String, u32)>,
    /// Not settled within the nodes.
    unknown: Vec<String>,
    /// No mate by checks (or not settled), but a mating net proven.
    net: Vec<String>,
}

impl Escapes {
    fn of(pos: &Position, nodes: u64, plies: u32, net: (u64, u32)) -> Escapes {
        let (net_nodes, net_plies) = net;
        let mut out = Escapes::default();
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        moves.sort_by_key(|m| m.to_usi());
        for m in moves {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let proof = Dfpn::new(nodes, plies).prove(&mut after);
            if let Proof::Mate(n) = proof {
                out.mated.push((m.to_usi(), n));
                continue;
            }
            let mut left = net_nodes.saturating_mul(100);
            if net_nodes > 0
                && allows_deep_net(&mut after, net_plies, net_nodes, &mut left, &|_| false)
                    == Some(true)
            {
                out.net.push(m.to_usi());
            } else if proof == Proof::NoMate {
                out.escape.push(m.to_usi());
            } else {
                out.unknown.push(m.to_usi());
            }
        }
        out
    }

    fn to_json(&self) -> Value {
        let mated: serde_json::Map<String, Value> = self
            .mated
            .iter()
            .map(|(m, n)| (m.clone(), json!(n)))
            .collect();
        json!({
            "escape": self.escape,
            "mated": mated,
            "unknown": self.unknown,
            "net": self.net,
        })
    }

    fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "after each move, a mate by checks of the opponent: {} escape, {} mated, {} unknown, {} net",
            self.escape.len(),
            self.mated.len(),
            self.unknown.len(),
            self.net.len()
        );
        for (name, list) in [
            ("escape", &self.escape),
            ("unknown", &self.unknown),
            ("net", &self.net),
        ] {
            if !list.is_empty() {
                let _ = writeln!(out, "  {name}: {}", list.join(" "));
            }
        }
        if !self.mated.is_empty() {
            let mated: Vec<String> = self
                .mated
                .iter()
                .map(|(m, n)| format!("{m}({n})"))
                .collect();
            let _ = writeln!(out, "  mated (plies): {}", mated.join(" "));
        }
        out
    }
}

pub fn run(a: PositionArgs) -> anyhow::Result<ExitCode> {
    let pos = build(a.sfen.as_deref(), &a.moves)?;
    let view = View::of(&pos);
    let escapes = a.escapes.then(|| {
        Escapes::of(
            &pos,
            a.escape_nodes.max(1),
            a.escape_plies.clamp(1, 255),
            (a.escape_net_nodes, a.escape_net_plies.clamp(1, 255)),
        )
    });
    if a.json {
        let mut v = view.to_json();
        if let Some(e) = &escapes {
            v["escapes"] = e.to_json();
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{}", view.to_text(&pos));
        if let Some(e) = &escapes {
            print!("{}", e.to_text());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The start position or the SFEN, with the moves played; errors name the bad token.
fn build(sfen: Option<&str>, moves: &[String]) -> anyhow::Result<Position> {
    let mut pos = match sfen.map(str::trim) {
        None | Some("startpos") => Position::startpos(),
        Some(s) => {
            let s = s.strip_prefix("sfen ").unwrap_or(s);
            Position::from_sfen(s).map_err(|e| anyhow::anyhow!("bad SFEN {s:?}: {e}"))?
        }
    };
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let m = Move::from_usi(text)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("move {ply} {text:?} is not a USI move"))?;
        if let Err(kind) = pos.play(m) {
            bail!(
                "move {ply} {text:?} is illegal in {}: {}",
                pos.to_sfen(),
                kind.name()
            );
        }
    }
    Ok(pos)
}

/// Everything the command reports, computed once.
struct View {
    sfen: String,
    side_to_move: Color,
    move_number: u32,
    legal: Vec<String>,
    in_check: bool,
    checkmate: bool,
    mate_in_one: Option<String>,
    owned: [i32; 2],
    declaration_points: [i32; 2],
    zone_count: [i32; 2],
    king_in_camp: [bool; 2],
    declarations: Vec<DeclarationEvaluation>,
}

impl View {
    fn of(pos: &Position) -> View {
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
        legal.sort();
        let per_side = |f: &dyn Fn(Color) -> i32| [f(Color::Black), f(Color::White)];
        View {
            sfen: pos.to_sfen(),
            side_to_move: pos.side_to_move(),
            move_number: pos.move_number(),
            legal,
            in_check: pos.is_in_check(),
            checkmate: is_mated(pos),
            mate_in_one: solve_mate_in_one(pos).map(Move::to_usi),
            owned: per_side(&|c| pos.owned_points(c)),
            declaration_points: per_side(&|c| pos.declaration_points(c)),
            zone_count: per_side(&|c| pos.zone_count(c)),
            king_in_camp: [
                pos.king_in_camp(Color::Black),
                pos.king_in_camp(Color::White),
            ],
            declarations: EnteringKingRule::ALL
                .iter()
                .map(|&r| evaluate_declaration(pos, r))
                .collect(),
        }
    }

    fn to_json(&self) -> Value {
        let sides = |v: [i32; 2]| json!({ "black": v[0], "white": v[1] });
        let mut declaration = serde_json::Map::new();
        for e in &self.declarations {
            declaration.insert(
                e.rule.to_string(),
                json!({
                    "outcome": outcome_name(e.outcome),
                    "side": color_name(e.side),
                    "king_in_camp": e.king_in_camp,
                    "in_check": e.in_check,
                    "zone_count": e.zone_count,
                    "points": e.points,
                    "threshold": e.threshold,
                    "draw_threshold": e.draw_threshold,
                    "move_number_ok": e.move_number_ok,
                }),
            );
        }
        json!({
            "sfen": self.sfen,
            "side_to_move": color_name(self.side_to_move),
            "move_number": self.move_number,
            "legal_moves": self.legal,
            "legal_move_count": self.legal.len(),
            "in_check": self.in_check,
            "checkmate": self.checkmate,
            "mate_in_one": self.mate_in_one,
            "owned": sides(self.owned),
            "declaration_points": sides(self.declaration_points),
            "zone_count": sides(self.zone_count),
            "king_in_camp": { "black": self.king_in_camp[0], "white": self.king_in_camp[1] },
            "declaration": declaration,
        })
    }

    fn to_text(&self, pos: &Position) -> String {
        let mut out = String::new();
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let _ = writeln!(out, "sfen: {}", self.sfen);
        out.push_str(&board_text(pos));
        let _ = writeln!(
            out,
            "side to move: {}   move number: {}",
            color_name(self.side_to_move),
            self.move_number
        );
        let _ = writeln!(
            out,
            "in check: {}   checkmate: {}   mate in one: {}",
            yes_no(self.in_check),
            yes_no(self.checkmate),
            self.mate_in_one.as_deref().unwrap_or("none")
        );
        let _ = writeln!(out, "legal moves ({}):", self.legal.len());
        for chunk in self.legal.chunks(12) {
            let _ = writeln!(out, "  {}", chunk.join(" "));
        }
        let _ = writeln!(out, "points         black  white");
        for (name, v) in [
            ("owned", self.owned),
            ("declaration", self.declaration_points),
            ("zone count", self.zone_count),
        ] {
            let _ = writeln!(out, "  {name:<12} {:>5}  {:>5}", v[0], v[1]);
        }
        let _ = writeln!(
            out,
            "  {:<12} {:>5}  {:>5}",
            "king in camp",
            yes_no(self.king_in_camp[0]),
            yes_no(self.king_in_camp[1])
        );
        let _ = writeln!(
            out,
            "declaration by {} (side to move):",
            color_name(self.side_to_move)
        );
        let _ = writeln!(
            out,
            "  {:<15} {:<15} {:>6} {:>9} {:>5} {:>4} {:>5} {:>7}",
            "rule", "outcome", "points", "threshold", "zone", "king", "check", "move ok"
        );
        for e in &self.declarations {
            let threshold = match e.draw_threshold {
                Some(d) => format!("{}/{d}", e.threshold),
                None => e.threshold.to_string(),
            };
            let _ = writeln!(
                out,
                "  {:<15} {:<15} {:>6} {:>9} {:>5} {:>4} {:>5} {:>7}",
                e.rule.to_string(),
                outcome_name(e.outcome),
                e.points,
                threshold,
                e.zone_count,
                yes_no(e.king_in_camp),
                yes_no(e.in_check),
                yes_no(e.move_number_ok)
            );
        }
        out
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn outcome_name(o: DeclarationOutcome) -> &'static str {
    match o {
        DeclarationOutcome::Win => "win",
        DeclarationOutcome::Draw => "draw",
        DeclarationOutcome::Illegal => "declaring_loses",
        DeclarationOutcome::NotApplicable => "not_applicable",
    }
}

/// USI letters of a kind (upper case), `+` before promoted ones.
fn usi_piece(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "P",
        PieceKind::Lance => "L",
        PieceKind::Knight => "N",
        PieceKind::Silver => "S",
        PieceKind::Gold => "G",
        PieceKind::Bishop => "B",
        PieceKind::Rook => "R",
        PieceKind::King => "K",
        PieceKind::ProPawn => "+P",
        PieceKind::ProLance => "+L",
        PieceKind::ProKnight => "+N",
        PieceKind::ProSilver => "+S",
        PieceKind::Horse => "+B",
        PieceKind::Dragon => "+R",
    }
}

/// The board as a grid: files 9..1 left to right, ranks a..i top to bottom, Black's
/// pieces in upper case and White's in lower case (as in SFEN), then both hands.
fn board_text(pos: &Position) -> String {
    let mut out = String::from("    9  8  7  6  5  4  3  2  1\n");
    for rank in 1..=9u8 {
        let _ = write!(out, " {}", char::from(b'a' + rank - 1));
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("files and ranks 1-9");
            let cell = match pos.piece_at(sq) {
                None => ".".to_string(),
                Some(p) => match p.color {
                    Color::Black => usi_piece(p.kind).to_string(),
                    Color::White => usi_piece(p.kind).to_ascii_lowercase(),
                },
            };
            let _ = write!(out, "{cell:>3}");
        }
        out.push('\n');
    }
    for c in Color::ALL {
        let hand = pos.hand(c);
        let mut text = String::new();
        for &k in PieceKind::HAND_KINDS.iter().rev() {
            let n = hand.count(k);
            if n > 0 {
                let _ = write!(
                    text,
                    "{}{}",
                    usi_piece(k),
                    if n > 1 { n.to_string() } else { String::new() }
                );
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        let _ = writeln!(out, "{} hand: {text}", color_name(c));
    }
    out
}
