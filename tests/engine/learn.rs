//! `learn gen` with a scripted stand-in teacher (`fixtures/learn/fake_usi.sh`), the label
//! file's resume after an interruption, and the learned evaluation's fast path against
//! its reference.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use floodgate_scan::engine::eval::linear::{self, LinearWeights, N_FEATURES, STAGES};
use floodgate_scan::lab::learn::generate::{
    self as generate, GenSettings, UnitKind, position_from_usi,
};
use floodgate_scan::lab::learn::record::{self, Outcome, RECORD_BYTES, Source};
use floodgate_scan::lab::learn::teacher::TeacherSpec;
use floodgate_scan::rng::XorShift64Star;
use floodgate_scan::shogi::Position;

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(p)
}

fn openings() -> Vec<Position> {
    std::fs::read_to_string(fixture("openings/real12.txt"))
        .unwrap()
        .lines()
        .filter_map(position_from_usi)
        .collect()
}

fn aiiru(n: usize) -> Vec<Position> {
    std::fs::read_to_string(fixture("positions/aiiru_bench.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| Position::from_sfen(l.split('\t').next()?).ok())
        .take(n)
        .collect()
}

fn settings(units: u32) -> GenSettings {
    GenSettings {
        seed: 5,
        units,
        nodes: 300,
        random_moves: 2,
        random_plies: 8,
        max_plies: 40,
        adjudicate: None,
        every: 1,
        mix: vec![
            UnitKind::SelfPlay,
            UnitKind::SelfPlay,
            UnitKind::Versus,
            UnitKind::Aiiru,
        ],
        openings: openings(),
        aiiru: aiiru(3),
        teacher: TeacherSpec {
            program: fixture("learn/fake_usi.sh").to_string_lossy().into_owned(),
            args: vec![],
            options: vec![("Thread".into(), "1".into())],
            go: "go byoyomi 100".into(),
            timeout_s: 10.0,
            handshake_s: 10.0,
        },
        opponent: None,
        hash_mb: 1,
        engine_linear: None,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fs-learn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("labels.bin")
}

fn gen_file(s: &GenSettings, path: &Path, jobs: usize) {
    generate::run(s, path, jobs, &|| false, &mut |_| {}).unwrap();
}

/// The stand-in's score of a position: the length of its board field, negated for White.
fn fake_score(pos: &Position) -> i16 {
    let sfen = pos.to_sfen();
    let board = sfen.split(' ').next().unwrap();
    let n = board.len() as i16;
    if sfen.split(' ').nth(1) == Some("w") {
        -n
    } else {
        n
    }
}

#[test]
fn gen_writes_exactly_the_games_positions_with_their_labels() {
    let s = settings(8);
    let path = temp("exact");
    gen_file(&s, &path, 1);
    let (header, sum) = record::read_file(&path).unwrap();
    assert_eq!(header, s.header());
    assert_eq!((sum.bad, sum.partial_bytes), (0, 0));
    let recs = sum.records;
    assert!(recs.len() > 20, "{} records", recs.len());
    let mut units_seen = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        let pos = r.position().unwrap();
        // The label is the stand-in's score of this very position.
        assert_eq!(r.score, fake_score(&pos), "record {i}");
        assert!(!r.mate);
        let last_of_unit = recs.get(i + 1).is_none_or(|n| n.unit != r.unit);
        assert_eq!(r.last, last_of_unit, "record {i}");
        if units_seen.last() != Some(&r.unit) {
            units_seen.push(r.unit);
        }
        let expected_source = match r.unit % 4 {
            0 | 1 => Source::SelfPlay,
            2 => Source::Versus,
            _ if r.ply == 0 => Source::Aiiru,
            _ => Source::AiiruReplay,
        };
        assert_eq!(r.source, expected_source, "record {i}");
    }
    // Units in order, none twice.
    assert!(units_seen.windows(2).all(|w| w[0] < w[1]), "{units_seen:?}");
    for unit in &units_seen {
        let game: Vec<_> = recs.iter().filter(|r| r.unit == *unit).collect();
        // With every = 1 each position of a self-play game is labelled: consecutive
        // records are one legal move apart, plies 0, 1, 2, ...
        if unit % 4 < 2 {
            for (k, r) in game.iter().enumerate() {
                assert_eq!(r.ply as usize, k);
            }
            for w in game.windows(2) {
                let a = w[0].position().unwrap();
                let b = w[1].position().unwrap();
                let next: Vec<String> = a
                    .legal_moves()
                    .as_slice()
                    .iter()
                    .map(|&m| {
                        let mut p = a.clone();
                        p.play(m).unwrap();
                        record::unpack(&record::pack(&p)).unwrap().to_sfen()
                    })
                    .collect();
                assert!(next.contains(&b.to_sfen()), "unit {unit} ply {}", w[1].ply);
            }
            // One result per game, seen from each side to move.
            let first = game[0].outcome;
            for r in &game {
                let same_side = (r.ply - game[0].ply) % 2 == 0;
                let expect = match (first, same_side) {
                    (Outcome::Draw, _) => Outcome::Draw,
                    (o, true) => o,
                    (Outcome::Win, false) => Outcome::Loss,
                    (_, false) => Outcome::Win,
                };
                assert_eq!(r.outcome, expect);
            }
        }
        // The stand-in resigns at its first move: a versus game has one label, a loss
        // for the teacher's side.
        if unit % 4 == 2 {
            let teacher_moves_at = game.last().unwrap();
            assert_eq!(teacher_moves_at.outcome, Outcome::Loss);
        }
    }
    // The same settings give the same bytes with two jobs.
    let path2 = temp("exact-jobs");
    gen_file(&s, &path2, 2);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&path2).unwrap()
    );
}

#[test]
fn an_interrupted_run_resumes_without_loss_or_duplicates() {
    let s = settings(8);
    let whole = temp("whole");
    gen_file(&s, &whole, 1);
    let full = std::fs::read(&whole).unwrap();

    // Stopped after three units were written.
    let path = temp("stopped");
    let written = AtomicU32::new(0);
    let stop = || written.load(Ordering::Relaxed) >= 3;
    generate::run(&s, &path, 1, &stop, &mut |p| {
        written.store(p.units_done, Ordering::Relaxed)
    })
    .unwrap();
    let part = std::fs::read(&path).unwrap();
    assert!(part.len() < full.len());
    assert_eq!(&full[..part.len()], &part[..]);
    gen_file(&s, &path, 2);
    assert_eq!(std::fs::read(&path).unwrap(), full);

    // Killed in the middle of a record: the tail is cut back to the last whole unit.
    let header_len = record::header_bytes(&s.header()).len();
    let cut = header_len + 5 * RECORD_BYTES + 17;
    std::fs::write(&path, &full[..cut]).unwrap();
    let point = record::resume_point(&path, &s.header()).unwrap();
    assert!(point.keep_bytes as usize <= cut);
    assert_eq!((point.keep_bytes as usize - header_len) % RECORD_BYTES, 0);
    gen_file(&s, &path, 1);
    assert_eq!(std::fs::read(&path).unwrap(), full);

    // A garbled record stops the kept part before it.
    let mut bad = full.clone();
    bad[header_len + 2 * RECORD_BYTES + 3] ^= 0xff;
    std::fs::write(&path, &bad).unwrap();
    gen_file(&s, &path, 1);
    assert_eq!(std::fs::read(&path).unwrap(), full);

    // More units extend the file; other settings are refused.
    let mut more = s.clone();
    more.units = 10;
    gen_file(&more, &path, 1);
    let extended = std::fs::read(&path).unwrap();
    assert_eq!(&extended[..full.len()], &full[..]);
    let mut other = s.clone();
    other.seed = 6;
    assert!(generate::run(&other, &path, 1, &|| false, &mut |_| {}).is_err());
}

/// The built-in engine's evaluation in the games is a setting of the file: a file made
/// with the hand-made evaluation keeps the header it had before the choice existed, one
/// made with learned weights says so, the games differ, and neither resumes the other.
#[test]
fn the_engine_evaluation_of_the_games_is_part_of_the_file() {
    let hand = settings(4);
    assert!(!hand.header().contains("engine_linear_weights"));
    let mut learned = hand.clone();
    learned.engine_linear = Some(("builtin".into(), linear::builtin()));
    assert!(
        learned
            .header()
            .ends_with("engine_linear_weights=builtin\n")
    );
    let (a, b) = (temp("eval-hand"), temp("eval-learned"));
    gen_file(&hand, &a, 1);
    gen_file(&learned, &b, 1);
    let (_, sa) = record::read_file(&a).unwrap();
    let (_, sb) = record::read_file(&b).unwrap();
    let pos = |v: &[record::Record]| v.iter().map(|r| r.position).collect::<Vec<_>>();
    assert_ne!(
        pos(&sa.records),
        pos(&sb.records),
        "other moves, other games"
    );
    assert!(generate::run(&learned, &a, 1, &|| false, &mut |_| {}).is_err());
    assert!(generate::run(&hand, &b, 1, &|| false, &mut |_| {}).is_err());
}

/// A decl24 unit: the 24-point engine's own game from an entering-king position, every
/// position recorded with the result alone (the teacher, which would score it, is not
/// asked), one legal move apart, the result consistent from both sides.
#[test]
fn decl24_units_are_the_24_point_engines_games_labelled_by_their_results() {
    let mut s = settings(3);
    s.mix = vec![UnitKind::Decl24];
    s.max_plies = 24;
    let path = temp("decl24");
    gen_file(&s, &path, 1);
    let (_, sum) = record::read_file(&path).unwrap();
    let recs = sum.records;
    let starts = aiiru(3);
    for unit in 0..3u32 {
        let game: Vec<_> = recs.iter().filter(|r| r.unit == unit).collect();
        assert!(!game.is_empty(), "unit {unit}");
        assert_eq!(
            game[0].position().unwrap().to_sfen(),
            record::unpack(&record::pack(&starts[unit as usize]))
                .unwrap()
                .to_sfen(),
            "unit {unit} starts from entering-king position {unit}"
        );
        for (k, r) in game.iter().enumerate() {
            assert_eq!(r.source, Source::Decl24Replay);
            assert_eq!((r.score, r.mate), (0, false), "no teacher score");
            assert_eq!(r.ply as usize, k);
        }
        for w in game.windows(2) {
            let a = w[0].position().unwrap();
            let b = w[1].position().unwrap();
            let reached = a.legal_moves().as_slice().iter().any(|&m| {
                let mut p = a.clone();
                p.play(m).unwrap();
                record::unpack(&record::pack(&p)).unwrap().to_sfen() == b.to_sfen()
            });
            assert!(reached, "unit {unit} ply {}", w[1].ply);
        }
        let first = game[0].outcome;
        for r in &game {
            let expect = match (first, r.ply % 2 == 0) {
                (Outcome::Draw, _) => Outcome::Draw,
                (o, true) => o,
                (Outcome::Win, false) => Outcome::Loss,
                (_, false) => Outcome::Win,
            };
            assert_eq!(r.outcome, expect, "unit {unit} ply {}", r.ply);
        }
    }
    // The stand-in teacher scores every position it is shown; none of these was.
    assert!(recs.iter().all(|r| fake_score(&r.position().unwrap()) != 0));
}

fn random_weights(seed: u64) -> LinearWeights {
    let mut rng = XorShift64Star::new(seed);
    let v = (0..STAGES * N_FEATURES)
        .map(|_| (rng.next_u64() % 2001) as f32 / 10.0 - 100.0)
        .collect();
    LinearWeights::from_values(v)
}

#[test]
fn the_fast_evaluation_equals_the_reference() {
    let w = random_weights(3);
    let mut n = 0;
    for pos in aiiru(1000) {
        assert_eq!(
            linear::evaluate(&pos, &w),
            linear::evaluate_reference(&pos, &w),
            "{}",
            pos.to_sfen()
        );
        n += 1;
    }
    assert_eq!(n, 1000);
    // Random playouts from the start and from the openings.
    let mut rng = XorShift64Star::new(11);
    let mut starts = openings();
    starts.push(Position::startpos());
    for start in starts {
        for _ in 0..4 {
            let mut pos = start.clone();
            for _ in 0..150 {
                assert_eq!(
                    linear::evaluate(&pos, &w),
                    linear::evaluate_reference(&pos, &w),
                    "{}",
                    pos.to_sfen()
                );
                let moves = pos.legal_moves();
                if moves.as_slice().is_empty() {
                    break;
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.as_slice().len() as u64) as usize];
                pos.play(m).unwrap();
            }
        }
    }
}

#[test]
fn a_correction_adds_to_the_hand_made_evaluation() {
    // Zero weights as a correction give the hand-made evaluation itself; random weights
    // as a correction give the hand-made evaluation plus the linear sum, fast path and
    // reference alike.
    let zero = LinearWeights::zero_residual();
    let w = random_weights(5).with_residual(true);
    let alone = random_weights(5);
    for pos in aiiru(300) {
        let hand = floodgate_scan::engine::eval::evaluate(&pos);
        assert_eq!(
            linear::evaluate_total(&pos, &zero),
            hand,
            "{}",
            pos.to_sfen()
        );
        let total = linear::evaluate_total(&pos, &w);
        assert_eq!(
            total,
            (hand + linear::evaluate(&pos, &alone)).clamp(-20_000, 20_000),
            "{}",
            pos.to_sfen()
        );
        assert_eq!(total, linear::evaluate_total_reference(&pos, &w));
        assert_eq!(
            linear::evaluate_total(&pos, &alone),
            linear::evaluate(&pos, &alone)
        );
    }
    // The flag survives the file.
    let text = w.to_text("test");
    assert!(text.starts_with(linear::RESIDUAL_FORMAT_LINE));
    assert_eq!(LinearWeights::parse(&text).unwrap(), w);
    let text = alone.to_text("test");
    assert!(text.starts_with(linear::FORMAT_LINE));
    assert!(!LinearWeights::parse(&text).unwrap().residual);
}

#[test]
fn the_evaluation_is_colour_symmetric() {
    // The position turned around (colours swapped, board point-mirrored) scores the same
    // for its side to move.
    let w = random_weights(9);
    for pos in aiiru(50) {
        let sfen = pos.to_sfen();
        let turned = turn_sfen(&sfen);
        let q = Position::from_sfen(&turned).unwrap();
        assert_eq!(
            linear::evaluate(&pos, &w),
            linear::evaluate(&q, &w),
            "{sfen}"
        );
    }
}

fn turn_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else if c.is_ascii_lowercase() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    };
    // Reverse the board text rank by rank, keeping each `+` before its piece.
    let ranks: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            let mut tokens: Vec<String> = Vec::new();
            let mut plus = false;
            for ch in r.chars() {
                if ch == '+' {
                    plus = true;
                    continue;
                }
                let t = if plus {
                    format!("+{}", swap(ch))
                } else {
                    swap(ch).to_string()
                };
                plus = false;
                tokens.push(t);
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hands: String = if f[2] == "-" {
        "-".into()
    } else {
        f[2].chars().map(swap).collect()
    };
    format!("{} {side} {hands} 1", ranks.join("/"))
}

/// `learn king-fit` through the binary: a file of the stand-in teacher's labels twice over
/// (every position a duplicate) is fitted once per position, the progress, the default
/// evaluation's agreement and every epoch are printed, the weights file it writes loads
/// as the `KingPieceWeights` option, and a damaged copy is refused naming the file.
#[test]
fn king_fit_writes_weights_the_search_loads() {
    use floodgate_scan::engine::eval::king_piece::KingPieceWeights;
    use std::process::Command;
    let s = settings(8);
    let path = temp("king-fit");
    gen_file(&s, &path, 1);
    let n = record::read_file(&path).unwrap().1.records.len();
    let out = path.with_file_name("kp.bin");
    let run = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .args(["learn", "king-fit"])
        .arg(&path)
        .arg(&path)
        .args(["--epochs", "2", "--batch", "16", "--validation", "50", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Every position of the second copy is a duplicate (and any the games repeat).
    let dups: usize = text
        .split(" duplicate positions left out")
        .next()
        .and_then(|t| t.trim().rsplit('\n').next())
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let kept: usize = text
        .lines()
        .find_map(|l| l.split_once(" positions (selfplay "))
        .and_then(|(t, _)| t.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(dups >= n, "{text}");
    assert_eq!(dups + kept, 2 * n, "{text}");
    assert!(text.contains("progress = "), "{text}");
    assert!(text.contains("default evaluation alone:"), "{text}");
    assert!(text.contains("epoch   2"), "{text}");
    assert!(!text.contains("teacher r NaN"), "{text}");
    let bytes = std::fs::read(&out).unwrap();
    let w = KingPieceWeights::from_bytes(&bytes).unwrap();
    assert!(w.comment.starts_with("learn king-fit"), "{}", w.comment);
    let bench = |file: &Path| {
        Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
            .args(["bench", "--depth", "3", "--option"])
            .arg(format!("KingPieceWeights={}", file.display()))
            .output()
            .unwrap()
    };
    assert!(bench(&out).status.success());
    let bad = path.with_file_name("kp-damaged.bin");
    let mut damaged = bytes.clone();
    damaged[5000] ^= 1;
    std::fs::write(&bad, damaged).unwrap();
    let refused = bench(&bad);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("kp-damaged.bin") && err.contains("damaged"),
        "{err}"
    );
}

/// `learn king-fit --scale K --model-scale K`: both sigmoids take the scale asked (none is
/// calibrated), and the weights file's comment records them; without `--model-scale` the
/// default evaluation's scale is calibrated on the data and said so.
#[test]
fn king_fit_takes_the_models_scale() {
    use floodgate_scan::engine::eval::king_piece::KingPieceWeights;
    use std::process::Command;
    let s = settings(4);
    let path = temp("king-fit-scale");
    gen_file(&s, &path, 1);
    let fit = |extra: &[&str], out: &Path| {
        let run = Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
            .args(["learn", "king-fit"])
            .arg(&path)
            .args(["--epochs", "1", "--batch", "16", "--validation", "50", "-o"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&run.stdout).to_string();
        assert!(
            run.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let w = KingPieceWeights::from_bytes(&std::fs::read(out).unwrap()).unwrap();
        (text, w.comment)
    };
    let (text, comment) = fit(
        &["--scale", "700", "--model-scale", "700"],
        &path.with_file_name("kp-700.bin"),
    );
    assert!(!text.contains("calibrated"), "{text}");
    assert!(comment.contains("K 700, model K 700,"), "{comment}");
    let (text, comment) = fit(&["--scale", "700"], &path.with_file_name("kp-cal.bin"));
    assert!(text.contains("default evaluation's scale = "), "{text}");
    assert!(!comment.contains("model K 700,"), "{comment}");
}

/// `outside` units: the built-in engine against an outside USI engine (here the program
/// itself through `floodgate-scan usi`, 200 nodes a move), colours alternating, the
/// teacher labelling both sides' positions; the source is recorded and the header names
/// the opponent.
#[test]
fn outside_units_are_games_against_the_opponent() {
    let mut s = settings(4);
    s.mix = vec![UnitKind::Outside];
    s.opponent = Some(TeacherSpec {
        program: env!("CARGO_BIN_EXE_floodgate-scan").to_string(),
        args: vec!["usi".into()],
        options: vec![("USI_Hash".into(), "1".into())],
        go: "go nodes 200".into(),
        timeout_s: 10.0,
        handshake_s: 10.0,
    });
    let path = temp("outside");
    gen_file(&s, &path, 1);
    let (header, sum) = record::read_file(&path).unwrap();
    assert!(header.contains("opponent_go=go nodes 200"), "{header}");
    assert!(!sum.records.is_empty());
    assert!(sum.records.iter().all(|r| r.source == Source::Outside));
    // The games went on past the opponent's first moves: it answered with legal moves.
    let longest = sum.records.iter().map(|r| r.ply).max().unwrap();
    assert!(longest >= 20, "longest game {longest} plies");
    // An opponent that resigns at once (the stand-in) loses every game at its first move.
    let mut s = settings(4);
    s.mix = vec![UnitKind::Outside];
    s.random_moves = 0;
    s.opponent = Some(s.teacher.clone());
    let path2 = path.with_file_name("resigns.bin");
    gen_file(&s, &path2, 1);
    let (_, sum) = record::read_file(&path2).unwrap();
    for r in &sum.records {
        assert!(r.ply <= 1, "ply {}", r.ply);
    }
    let units: std::collections::BTreeSet<u32> = sum.records.iter().map(|r| r.unit).collect();
    assert_eq!(units.len(), 4);
    for u in units {
        let of: Vec<_> = sum.records.iter().filter(|r| r.unit == u).collect();
        // The built-in engine moves first in units where the opponent has White (ply 0
        // is ours and we win); otherwise the opponent resigns at ply 0.
        let ours_first = of.len() == 2;
        for r in of {
            let ours = (r.ply % 2 == 0) == ours_first;
            let want = if ours { Outcome::Win } else { Outcome::Loss };
            assert_eq!(r.outcome, want, "unit {u} ply {}", r.ply);
        }
    }
    // Without an opponent the settings refuse outside units at the command line.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .args(["learn", "gen", "--mix", "outside", "-o"])
        .arg(path.with_file_name("none.bin"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --opponent"));
}

/// Versus units record one position in `every` of both sides alike, not every position
/// where the teacher moves (here a teacher that plays: the program itself through
/// `floodgate-scan usi`).
#[test]
fn versus_units_record_both_sides_alike() {
    let mut s = settings(6);
    s.mix = vec![UnitKind::Versus];
    s.every = 3;
    s.teacher = TeacherSpec {
        program: env!("CARGO_BIN_EXE_floodgate-scan").to_string(),
        args: vec!["usi".into()],
        options: vec![("USI_Hash".into(), "1".into())],
        go: "go nodes 200".into(),
        timeout_s: 10.0,
        handshake_s: 10.0,
    };
    let path = temp("versus-both");
    gen_file(&s, &path, 1);
    let (header, sum) = record::read_file(&path).unwrap();
    assert!(header.contains("recorded=every_both_sides"), "{header}");
    let mut sides = [0usize; 2];
    for unit in 0..6u32 {
        let plies: Vec<u16> = sum
            .records
            .iter()
            .filter(|r| r.unit == unit)
            .map(|r| r.ply)
            .collect();
        assert!(plies.len() >= 3, "unit {unit}: {plies:?}");
        // One residue of 3: the random offset, not the teacher's turns.
        assert!(
            plies.iter().all(|p| p % 3 == plies[0] % 3),
            "unit {unit}: {plies:?}"
        );
        for p in &plies {
            sides[(*p % 2) as usize] += 1;
        }
    }
    assert!(sides[0] > 3 && sides[1] > 3, "{sides:?}");
}

#[test]
fn a_teachers_illegal_declaration_loses_its_game() {
    // The stand-in declares a win at each of its moves, from opening positions where no
    // declaration is legal: the referee judges it, and each versus game ends at the
    // teacher's first move, lost by the teacher (a declaration taken as a win would give
    // the teacher's side a win).
    let mut s = settings(4);
    s.mix = vec![UnitKind::Versus];
    s.teacher.args = vec!["win".into()];
    let path = temp("versus-declares");
    gen_file(&s, &path, 1);
    let (_, sum) = record::read_file(&path).unwrap();
    assert_eq!((sum.bad, sum.partial_bytes), (0, 0));
    for unit in 0..4u32 {
        let game: Vec<_> = sum.records.iter().filter(|r| r.unit == unit).collect();
        let last = game
            .last()
            .unwrap_or_else(|| panic!("unit {unit}: no record"));
        assert!(last.last);
        assert_eq!(last.outcome, Outcome::Loss, "unit {unit}");
        // The random moves (within the first plies) may stand for the teacher's; its
        // first own turn comes at most one engine move after them.
        let most = s.random_plies as usize + 2;
        assert!(game.len() <= most, "unit {unit}: {} records", game.len());
    }
}

/// A teacher that crashes at its first search and then fails its first restart (the way
/// a starved machine fails) is started again: the run goes on, and the crashed
/// search's position is left unlabelled rather than the run lost.
#[test]
fn a_teacher_restart_is_tried_again_before_the_run_stops() {
    let mut s = settings(2);
    s.mix = vec![UnitKind::SelfPlay];
    let path = temp("flaky");
    let state = path.with_file_name("launches");
    s.teacher.program = fixture("learn/flaky_usi.sh").to_string_lossy().into_owned();
    s.teacher.args = vec![state.to_string_lossy().into_owned()];
    gen_file(&s, &path, 1);
    // Launch 1 crashed, launch 2 failed its handshake, launch 3 labelled the rest.
    let launches = std::fs::read_to_string(&state).unwrap();
    assert_eq!(launches.trim(), "3");
    let (_, sum) = record::read_file(&path).unwrap();
    assert_eq!((sum.bad, sum.partial_bytes), (0, 0));
    assert!(sum.records.len() > 20, "{} records", sum.records.len());
    for r in &sum.records {
        assert_eq!(r.score, fake_score(&r.position().unwrap()));
    }
    // The position of the crashed search (unit 0, ply 0) has no record.
    assert!(!sum.records.iter().any(|r| r.unit == 0 && r.ply == 0));
}

/// The handshake limit is the spec's: a teacher slower to start than it is refused with
/// an error naming the program and `usiok`; given the time, the same teacher works.
#[test]
fn the_teachers_handshake_limit_is_the_one_asked() {
    let mut s = settings(1);
    s.mix = vec![UnitKind::SelfPlay];
    s.teacher.args = vec!["resign".into(), "1".into()];
    s.teacher.handshake_s = 0.2;
    let path = temp("slow-start");
    let err = generate::run(&s, &path, 1, &|| false, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("fake_usi.sh") && err.contains("usiok"),
        "{err}"
    );
    s.teacher.handshake_s = 20.0;
    let path = temp("slow-start-ok");
    gen_file(&s, &path, 1);
    assert!(!record::read_file(&path).unwrap().1.records.is_empty());
}

/// `floodgate-scan learn ARGS`: whether it succeeded, its output and its errors.
fn run_learn(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
        .arg("learn")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `learn king-fit --base-weights FILE`: the term is fitted on top of the hand-made
/// evaluation with that linear correction (a `learn fit --residual` file) instead of the
/// compiled-in one: the base's own agreement changes, the weights file's comment names
/// the correction, and a file that is not a correction is refused naming it.
#[test]
fn king_fit_corrects_the_linear_correction_asked() {
    use floodgate_scan::engine::eval::king_piece::KingPieceWeights;
    let s = settings(4);
    let path = temp("king-fit-base");
    gen_file(&s, &path, 1);
    let p = path.display().to_string();
    let lin = path.with_file_name("lin-base.txt").display().to_string();
    let (ok, text, err) = run_learn(&[
        "fit",
        &p,
        "--residual",
        "--epochs",
        "3",
        "--batch",
        "16",
        "--lr",
        "20",
        "-o",
        &lin,
    ]);
    assert!(ok, "{text}{err}");
    let alone = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("default evaluation alone:"))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    let common = ["--epochs", "1", "--batch", "16", "--validation", "50"];
    let kp_default = path.with_file_name("kp-default.bin").display().to_string();
    let kp_base = path.with_file_name("kp-base.bin").display().to_string();
    let (ok, text_default, err) =
        run_learn(&[&["king-fit", &p], &common[..], &["-o", &kp_default]].concat());
    assert!(ok, "{text_default}{err}");
    let (ok, text_base, err) = run_learn(
        &[
            &["king-fit", &p],
            &common[..],
            &["-o", &kp_base, "--base-weights", &lin],
        ]
        .concat(),
    );
    assert!(ok, "{text_base}{err}");
    assert_ne!(alone(&text_default), alone(&text_base));
    let comment = |f: &str| {
        KingPieceWeights::from_bytes(&std::fs::read(f).unwrap())
            .unwrap()
            .comment
    };
    assert!(comment(&kp_default).contains("correction of the default evaluation;"));
    assert!(
        comment(&kp_base).contains("with the linear correction lin-base.txt;"),
        "{}",
        comment(&kp_base)
    );
    let (ok, _, err) = run_learn(
        &[
            &["king-fit", &p],
            &common[..],
            &["-o", &kp_base, "--base-weights", &p],
        ]
        .concat(),
    );
    assert!(!ok);
    assert!(err.contains("--base-weights") && err.contains(&p), "{err}");
}

/// `learn king-fit --joint --linear-out FILE`: the linear correction is fitted with the
/// term and written as a correction of the hand-made evaluation, moved from the
/// compiled-in one (no games held out: the last epoch is written); `--joint` without a
/// place for the correction, or with the same file for both, is refused.
#[test]
fn king_fit_joint_writes_the_correction_with_the_term() {
    use floodgate_scan::engine::eval::king_piece::KingPieceWeights;
    use floodgate_scan::engine::eval::linear::{LinearWeights, builtin};
    let s = settings(4);
    let path = temp("king-fit-joint");
    gen_file(&s, &path, 1);
    let p = path.display().to_string();
    let kp = path.with_file_name("kp-joint.bin").display().to_string();
    let lin = path.with_file_name("lin-joint.txt").display().to_string();
    let common = [
        "--epochs",
        "2",
        "--batch",
        "16",
        "--lr",
        "5",
        "--validation",
        "0",
    ];
    let (ok, text, err) = run_learn(
        &[
            &["king-fit", &p, "--joint", "--linear-out", &lin, "-o", &kp],
            &common[..],
        ]
        .concat(),
    );
    assert!(ok, "{text}{err}");
    assert!(text.contains(&format!("wrote {lin}")), "{text}");
    let w = LinearWeights::parse(&std::fs::read_to_string(&lin).unwrap()).unwrap();
    assert!(w.residual && !w.decl24);
    let moved = w
        .values
        .iter()
        .zip(&builtin().values)
        .filter(|(a, b)| (*a - *b).abs() > 0.5)
        .count();
    assert!(moved > 100, "{moved} weights moved");
    let c = KingPieceWeights::from_bytes(&std::fs::read(&kp).unwrap())
        .unwrap()
        .comment;
    assert!(
        c.contains("fitted jointly with the linear correction")
            && c.contains("with the linear correction lin-joint.txt (use the two together)"),
        "{c}"
    );
    let (ok, _, err) = run_learn(
        &[
            &["king-fit", &p, "--joint", "--linear-out", &kp, "-o", &kp],
            &common[..],
        ]
        .concat(),
    );
    assert!(!ok);
    assert!(err.contains("same file") && err.contains(&kp), "{err}");
    let (ok, _, err) = run_learn(&[&["king-fit", &p, "--joint", "-o", &kp], &common[..]].concat());
    assert!(!ok);
    assert!(err.contains("--linear-out"), "{err}");
}

/// `learn king-fit --start builtin`: the fit goes on from the compiled-in term, whose
/// agreement is printed beside the default evaluation's without it, and the file's
/// comment says where it started; a start file that cannot be read is refused naming it.
#[test]
fn king_fit_starts_from_the_weights_asked() {
    use floodgate_scan::engine::eval::king_piece::KingPieceWeights;
    let s = settings(4);
    let path = temp("king-fit-start");
    gen_file(&s, &path, 1);
    let p = path.display().to_string();
    let kp = path.with_file_name("kp-start.bin").display().to_string();
    let common = ["--epochs", "1", "--batch", "16", "--validation", "50"];
    let (ok, text, err) = run_learn(
        &[
            &["king-fit", &p, "--start", "builtin", "-o", &kp],
            &common[..],
        ]
        .concat(),
    );
    assert!(ok, "{text}{err}");
    let figure = |head: &str| {
        let l = text
            .lines()
            .find(|l| l.starts_with(head))
            .unwrap_or_else(|| panic!("{text}"));
        l.split("teacher r ").nth(1).unwrap().to_string()
    };
    assert_ne!(
        figure("default evaluation alone:"),
        figure("with the --start weights:")
    );
    assert!(text.contains("from --start"), "{text}");
    let c = KingPieceWeights::from_bytes(&std::fs::read(&kp).unwrap())
        .unwrap()
        .comment;
    assert!(c.contains("started from builtin"), "{c}");
    let missing = path
        .with_file_name("no-such-start.bin")
        .display()
        .to_string();
    let (ok, _, err) = run_learn(
        &[
            &["king-fit", &p, "--start", &missing, "-o", &kp],
            &common[..],
        ]
        .concat(),
    );
    assert!(!ok);
    assert!(err.contains(&missing), "{err}");
}

#[test]
fn adjudicated_games_end_when_the_teacher_calls_them_twice() {
    let mut s = settings(8);
    s.mix = vec![UnitKind::SelfPlay, UnitKind::Aiiru];
    s.max_plies = 60;
    let full_path = temp("adjudicate-none");
    gen_file(&s, &full_path, 1);
    let (header, full) = record::read_file(&full_path).unwrap();
    assert!(!header.contains("adjudicate"), "{header}");
    let bound = 52;
    s.adjudicate = Some(bound);
    let path = temp("adjudicate");
    gen_file(&s, &path, 1);
    let (header, sum) = record::read_file(&path).unwrap();
    assert_eq!(header, s.header());
    assert!(
        header.ends_with(&format!("adjudicate={bound}\n")),
        "{header}"
    );
    let mut adjudicated = 0;
    for unit in 0..8u32 {
        let game: Vec<_> = sum.records.iter().filter(|r| r.unit == unit).collect();
        let played: Vec<_> = full.records.iter().filter(|r| r.unit == unit).collect();
        // The stand-in's leader at each label: Black, by the size of its board field.
        let leader = |r: &record::Record| {
            let pos = r.position().unwrap();
            (i32::from(r.score).abs() >= bound).then(|| {
                if r.score > 0 {
                    pos.side_to_move()
                } else {
                    !pos.side_to_move()
                }
            })
        };
        let called = (1..played.len())
            .find(|&i| leader(played[i]).is_some() && leader(played[i]) == leader(played[i - 1]));
        let Some(i) = called else {
            // Never called: the game is played out as without adjudication.
            assert_eq!(game, played, "unit {unit}");
            continue;
        };
        adjudicated += 1;
        let winner = leader(played[i]).unwrap();
        // Up to the call the game is the same; the loser resigns at its next move.
        let loser_to_move = played[i].position().unwrap().side_to_move() != winner;
        let len = if loser_to_move { i + 1 } else { i + 2 };
        assert_eq!(game.len(), len.min(played.len()), "unit {unit}");
        for (k, r) in game.iter().enumerate() {
            if k <= i {
                assert_eq!(r.position, played[k].position, "unit {unit} record {k}");
            }
            let us = r.position().unwrap().side_to_move();
            let want = if us == winner {
                record::Outcome::Win
            } else {
                record::Outcome::Loss
            };
            assert_eq!(r.outcome, want, "unit {unit} record {k}");
        }
    }
    assert!(adjudicated >= 2, "{adjudicated} games adjudicated");
    assert!(sum.records.len() < full.records.len());
}

/// `learn king-fit --train-below CP` trains on the positions the teacher scored below the
/// bound only, and leaves the held-out ones as they are; the agreement is printed per
/// band of the teacher's score.
#[test]
fn king_fit_trains_below_the_bound_asked() {
    let s = settings(4);
    let path = temp("king-fit-below");
    gen_file(&s, &path, 1);
    let (_, sum) = record::read_file(&path).unwrap();
    let out = path.with_file_name("kp-below.bin");
    let fit = |bound: &str| {
        let (ok, text, err) = run_learn(&[
            "king-fit",
            path.to_str().unwrap(),
            "--epochs",
            "1",
            "--batch",
            "16",
            "--validation",
            "50",
            "--train-below",
            bound,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{text}{err}");
        text
    };
    let number_before = |text: &str, tail: &str| -> usize {
        let head = text.split(tail).next().unwrap();
        head.rsplit(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{tail}: {text}"))
    };
    // The stand-in's scores are the lengths of the board fields: the bound is their
    // median, so that some are below it and some not.
    let mut sizes: Vec<i16> = sum.records.iter().map(|r| r.score.abs()).collect();
    sizes.sort_unstable();
    let bound = sizes[sizes.len() / 2];
    assert!(sizes[0] < bound, "{sizes:?}");
    let text = fit(&bound.to_string());
    let training = number_before(&text, " training, ");
    let validation = number_before(&text, " validation");
    let left = number_before(&text, " training positions left out");
    let kept = number_before(&text, " kept\n");
    assert!(left > 0 && kept > 0, "{text}");
    assert_eq!(left + kept, training, "{text}");
    // Every held-out position is in the first band (the stand-in's scores are small).
    assert!(
        text.contains(&format!(
            "held out, teacher |score| 0 to 300: {validation} positions"
        )),
        "{text}"
    );
    // The weights file's comment records the bound.
    let w = floodgate_scan::engine::eval::king_piece::KingPieceWeights::from_bytes(
        &std::fs::read(&out).unwrap(),
    )
    .unwrap();
    assert!(
        w.comment.contains(&format!(", trained below {bound};")),
        "{}",
        w.comment
    );
    // A bound no position is under leaves nothing to train on: the start is kept.
    let text = fit("1");
    assert_eq!(number_before(&text, " kept\n"), 0, "{text}");
}
