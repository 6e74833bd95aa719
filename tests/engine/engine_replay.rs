//! `replay` and `bench` through the real binary: a well-formed table on a few real
//! entering-king positions, and the recorded bench signature.
use std::process::Command;

use floodgate_scan::shogi::{Move, Position};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floodgate-scan"))
}

#[test]
fn replay_writes_a_well_formed_table() {
    let dir = std::env::temp_dir().join(format!("fs-engine-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("replay.csv");
    let summary = dir.join("summary.json");
    let positions = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/positions/aiiru_bench.tsv"
    );
    let o = bin()
        .args([
            "replay",
            "--positions",
            positions,
            "--limit",
            "4",
            "--max-plies",
            "16",
        ])
        .args(["--nodes", "3000", "--jobs", "2", "--out"])
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("positions 4"), "{stdout}");
    let mut rdr = csv::Reader::from_path(&out).unwrap();
    let headers = rdr.headers().unwrap().clone();
    for col in [
        "start_zone_black",
        "start_points_black",
        "start_zone_white",
        "start_points_white",
        "ending",
        "winner",
        "declared_by",
        "plies",
        "end_zone_black",
        "end_points_white",
    ] {
        assert!(headers.iter().any(|h| h == col), "missing column {col}");
    }
    let idx = |n: &str| headers.iter().position(|h| h == n).unwrap();
    let bench: Vec<&str> = include_str!("../../fixtures/positions/aiiru_bench.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(4)
        .collect();
    let mut n = 0;
    for (rec, line) in rdr.records().zip(&bench) {
        let rec = rec.unwrap();
        let cols: Vec<&str> = line.split('\t').collect();
        // Start counts agree with the study's columns.
        assert_eq!(&rec[idx("start_zone_black")], cols[2]);
        assert_eq!(&rec[idx("start_points_black")], cols[3]);
        assert_eq!(&rec[idx("start_zone_white")], cols[4]);
        assert_eq!(&rec[idx("start_points_white")], cols[5]);
        let plies: usize = rec[idx("plies")].parse().unwrap();
        assert!(plies <= 16);
        let ending = &rec[idx("ending")];
        assert!(
            [
                "declaration",
                "mate",
                "repetition",
                "perpetual_check",
                "declared_draw",
                "limit"
            ]
            .contains(&ending),
            "{ending}"
        );
        assert_eq!(ending == "limit", plies == 16);
        // The moves replay legally and end in the recorded counts.
        let mut pos = Position::from_sfen(cols[0]).unwrap();
        let moves: Vec<&str> = rec[idx("moves")].split_whitespace().collect();
        assert_eq!(moves.len(), plies);
        for m in moves {
            pos.play(Move::from_usi(m).unwrap()).unwrap();
        }
        use floodgate_scan::shogi::Color;
        assert_eq!(
            rec[idx("end_zone_black")].parse::<i32>().unwrap(),
            pos.zone_count(Color::Black)
        );
        assert_eq!(
            rec[idx("end_points_white")].parse::<i32>().unwrap(),
            pos.declaration_points(Color::White)
        );
        if ending == "declaration" {
            assert_eq!(
                rec[idx("winner")].to_string(),
                rec[idx("declared_by")].to_string()
            );
        }
        n += 1;
    }
    assert_eq!(n, 4);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["positions"], 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn replay_counts_declared_draws_and_skips_positions_past_move_500() {
    let dir = std::env::temp_dir().join(format!("fs-engine-replay-dd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let positions = dir.join("positions.tsv");
    // 1: Black owns 30 points, all in the camp or in hand, White nothing: a declared draw.
    // 2: the same at move 501: under the 24-point rule nothing can be declared any more.
    // 3: Black at 31 points: a declaration win.
    std::fs::write(
        &positions,
        "RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 4P 1\n\
         RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 4P 501\n\
         RRBB+P+P+P+P+P/+P8/4K4/9/9/9/8k/9/9 b 5P 1\n",
    )
    .unwrap();
    let out = dir.join("replay.csv");
    let summary = dir.join("summary.json");
    let o = bin()
        .arg("replay")
        .arg("--positions")
        .arg(&positions)
        .args([
            "--max-plies",
            "10",
            "--nodes",
            "2000",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("declared draw 1"), "{stdout}");
    assert!(
        stdout.contains("1 positions past move 500 not played"),
        "{stdout}"
    );
    let mut rdr = csv::Reader::from_path(&out).unwrap();
    let headers = rdr.headers().unwrap().clone();
    let idx = |n: &str| headers.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let get = |i: usize, c: &str| rows[i][idx(c)].to_string();
    assert_eq!(get(0, "ending"), "declared_draw");
    assert_eq!(get(0, "winner"), "draw");
    assert_eq!(get(0, "declared_by"), "black");
    assert_eq!(get(1, "ending"), "past_move_500");
    assert_eq!(get(1, "plies"), "0");
    assert_eq!(get(1, "winner"), "draw");
    assert_eq!(get(2, "ending"), "declaration");
    assert_eq!(get(2, "winner"), "black");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["declared_draws"], 1);
    assert_eq!(s["past_move_500"], 1);
    assert_eq!(s["declarations"], 1);
    assert_eq!(s["limits"], 0);
    std::fs::remove_dir_all(&dir).ok();
}

/// Total nodes of `bench` at its default depth: changes only when search behaviour or
/// the compiled-in evaluation (`weights/correction.txt`, `weights/king-piece.bin`)
/// changes (then record the new value here and in `reports/engine.md`).
const BENCH_SIGNATURE: u64 = 626_552;

/// The same without the king-piece term (`KingPieceWeights=none`): the compiled-in
/// correction of the hand-made evaluation alone.
const BENCH_SIGNATURE_CORRECTION: u64 = 964_671;

/// The same with the hand-made evaluation alone (`LinearWeights=none`,
/// `KingPieceWeights=none`).
const BENCH_SIGNATURE_HAND: u64 = 1_281_559;

/// The same with the committed learned weights (`weights/linear.txt`, no king-piece
/// term): changes only when the search or those weights change (the learned evaluation's
/// speed-ups, its cache among them, return the same values and leave it as it is).
const BENCH_SIGNATURE_LEARNED: u64 = 922_198;

/// `bench` without the king-piece term, with `LinearWeights=value`.
fn linear_only(value: &str) -> u64 {
    let option = format!("LinearWeights={value}");
    bench_signature(&["--option", "KingPieceWeights=none", "--option", &option])
}

#[test]
fn bench_prints_the_recorded_signature() {
    assert_eq!(bench_signature(&[]), BENCH_SIGNATURE);
}

#[test]
fn bench_with_the_hand_made_evaluation_prints_its_recorded_signature() {
    assert_eq!(linear_only("none"), BENCH_SIGNATURE_HAND);
}

/// The compiled-in correction is the file `weights/correction.txt` and the compiled-in
/// king-piece weights the file `weights/king-piece.bin`: loading those files searches
/// exactly as the default does, and each evaluation on its own as recorded.
#[test]
fn the_default_evaluation_is_the_committed_weights() {
    let correction = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/correction.txt");
    let king_piece = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/king-piece.bin");
    assert_eq!(linear_only(correction), BENCH_SIGNATURE_CORRECTION);
    assert_eq!(
        bench_signature(&["--option", "KingPieceWeights=none"]),
        BENCH_SIGNATURE_CORRECTION
    );
    let both = [
        "--option".to_string(),
        format!("LinearWeights={correction}"),
        "--option".to_string(),
        format!("KingPieceWeights={king_piece}"),
    ];
    let both: Vec<&str> = both.iter().map(String::as_str).collect();
    assert_eq!(bench_signature(&both), BENCH_SIGNATURE);
}

#[test]
fn bench_with_the_learned_weights_prints_its_recorded_signature() {
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/linear.txt");
    assert_eq!(linear_only(weights), BENCH_SIGNATURE_LEARNED);
}

#[test]
fn a_zero_correction_of_the_hand_made_evaluation_searches_as_the_hand_made_one() {
    // `learn fit --residual --epochs 0` writes zero weights as a correction: the search
    // through the learned path (its cache included) must then visit the same nodes.
    let dir = std::env::temp_dir().join(format!("fs-zero-residual-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("zero.txt");
    std::fs::write(
        &weights,
        floodgate_scan::engine::eval::linear::LinearWeights::zero_residual().to_text("zero"),
    )
    .unwrap();
    assert_eq!(
        linear_only(&weights.display().to_string()),
        BENCH_SIGNATURE_HAND
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A correction of the 24-point evaluation (`LinearWeights24`) is added to it in the
/// 24-point mode: zero weights search exactly as without, a tempo weight does not.
#[test]
fn a_correction_of_the_24_point_evaluation_is_added_in_its_mode() {
    use floodgate_scan::engine::eval::linear::{LinearWeights, OFF_TEMPO};
    let dir = std::env::temp_dir().join(format!("fs-decl24-corr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zero = LinearWeights::zero_residual().with_decl24(true);
    let mut values = zero.values.clone();
    values[OFF_TEMPO] = 200.0;
    let tempo = LinearWeights::from_values(values).with_decl24(true);
    let (zero_path, tempo_path) = (dir.join("zero.txt"), dir.join("tempo.txt"));
    std::fs::write(&zero_path, zero.to_text("zero")).unwrap();
    std::fs::write(&tempo_path, tempo.to_text("tempo")).unwrap();
    let with = |p: &std::path::Path| {
        let option = format!("LinearWeights24={}", p.display());
        bench_signature(&["--mode", "decl24", "--depth", "4", "--option", &option])
    };
    let without = bench_signature(&["--mode", "decl24", "--depth", "4"]);
    assert_eq!(with(&zero_path), without);
    assert_ne!(with(&tempo_path), without);
    std::fs::remove_dir_all(&dir).ok();
}

/// The signature `bench` prints with extra arguments `args`.
fn bench_signature(args: &[&str]) -> u64 {
    let o = bin().arg("bench").args(args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("signature "))
        .unwrap_or_else(|| panic!("no signature line: {stdout}"))
        .trim()
        .parse()
        .unwrap()
}

/// `replay`'s table for the same moves: byte for byte the committed one (the built-in
/// engine in both modes, the full search also without its king-piece term, and the
/// built-in engine refereed as an outside USI engine).
#[test]
fn replay_tables_are_byte_for_byte_the_recorded_ones() {
    let dir = std::env::temp_dir().join(format!("fs-engine-replay-gold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let positions = format!("{root}/fixtures/positions/aiiru_bench.tsv");
    let usi = format!("{} usi", env!("CARGO_BIN_EXE_floodgate-scan"));
    let search27 = vec![
        "--limit",
        "10",
        "--max-plies",
        "60",
        "--mode",
        "search",
        "--rule",
        "CSARule27",
    ];
    let runs: [(&str, Vec<&str>); 4] = [
        ("search27", search27.clone()),
        (
            "search27-nokp",
            [search27, vec!["--king-piece-weights", "none"]].concat(),
        ),
        (
            "decl24",
            vec![
                "--limit",
                "10",
                "--max-plies",
                "60",
                "--mode",
                "decl24",
                "--rule",
                "CSARule24",
            ],
        ),
        (
            "usi27",
            vec![
                "--limit",
                "6",
                "--max-plies",
                "40",
                "--rule",
                "CSARule27",
                "--usi",
                &usi,
                "--usi-opt",
                "USI_Hash=8",
            ],
        ),
    ];
    for (name, args) in runs {
        let out = dir.join(format!("{name}.csv"));
        let o = bin()
            .args([
                "replay",
                "--positions",
                &positions,
                "--nodes",
                "800",
                "--jobs",
                "2",
            ])
            .args(["--no-times", "--out"])
            .arg(&out)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let got = std::fs::read_to_string(&out).unwrap().replace(
            concat!("floodgate-scan ", env!("CARGO_PKG_VERSION")),
            "floodgate-scan VERSION",
        );
        let want = std::fs::read_to_string(format!("{root}/fixtures/replay/{name}.csv")).unwrap();
        if got != want {
            let first = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            panic!(
                "{name}: the table differs from fixtures/replay/{name}.csv from line {}:\n got  {}\n want {}",
                first + 1,
                got.lines().nth(first).unwrap_or("<end>"),
                want.lines().nth(first).unwrap_or("<end>")
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
