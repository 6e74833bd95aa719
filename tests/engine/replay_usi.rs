//! `replay --usi` through the real binary, against the scripted stand-in engine
//! (`floodgate-scan usi-standin`): every ending the referee gives and every failure of an
//! engine, each with the exact row expected; no engine process left behind; an interrupted
//! replay keeps the earlier table; `--shard` and `replay merge` give the single run's files.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_floodgate-scan");

/// Black to move, 10 pieces in the camp, 31 points with the hand `2R2BL`.
const DECL: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b 2R2BL 1";
/// The same with 30 points: a declared draw under the 24-point rule.
const DRAW: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b 2R2B 1";
/// The same with 15 points: an illegal declaration.
const SHORT: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b R 1";
/// White to move at move 500 of the 31-point position: Black's turn comes at move 501.
const AT_500: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 w 2R2BL 500";
/// Past move 500: not played under a 24-point rule.
const PAST_500: &str = "4K4/P8/GGGGSSSSN/LL7/9/9/9/9/4k4 b 2R2BL 501";
/// White to move is mated (gold on 1b guarded by the pawn on 1c).
const MATED: &str = "8k/8G/8P/9/9/9/9/9/K8 w - 1";
/// Two bare kings.
const KINGS: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
/// A rook that can check the bare king on 1a on rank 1 and rank 2 in turn.
const ROOK: &str = "8k/9/R8/9/9/9/9/9/4K4 b - 1";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fs-replay-usi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn standin(name: &str, script: &str, pidfile: Option<&Path>) -> String {
    let mut s = format!("{BIN} usi-standin --name {name} --script {script}");
    if let Some(p) = pidfile {
        s.push_str(&format!(" --pidfile {}", p.display()));
    }
    s
}

fn replay(dir: &Path, positions: &[&str], black: &str, white: &str, extra: &[&str]) -> Output {
    let pos = dir.join("positions.tsv");
    std::fs::write(&pos, positions.join("\n") + "\n").unwrap();
    Command::new(BIN)
        .arg("replay")
        .arg("--positions")
        .arg(&pos)
        .args(["--black-usi", black, "--white-usi", white, "--no-times"])
        .arg("-o")
        .arg(dir.join("replay.csv"))
        .arg("--summary")
        .arg(dir.join("summary.json"))
        .args(extra)
        .output()
        .unwrap()
}

fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        })
        .collect()
}

/// The columns that say how a game ended, joined with `|`.
fn verdict(r: &HashMap<String, String>) -> String {
    [
        "ending",
        "winner",
        "declared_by",
        "declarer",
        "plies",
        "moves",
        "note",
        "engine_black",
        "engine_white",
        "ms_per_move_black",
        "ms_per_move_white",
    ]
    .iter()
    .map(|c| r[*c].as_str())
    .collect::<Vec<_>>()
    .join("|")
}

/// One game from `start` between the scripts: its verdict.
fn game(name: &str, start: &str, black: &str, white: &str, extra: &[&str]) -> String {
    let dir = scratch(name);
    let o = replay(
        &dir,
        &[start],
        &standin("B", black, None),
        &standin("W", white, None),
        extra,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rs = rows(&dir.join("replay.csv"));
    assert_eq!(rs.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
    verdict(&rs[0])
}

#[test]
fn declarations_under_the_24_point_rule() {
    assert_eq!(
        game("decl", DECL, "win", "first", &[]),
        "declaration|black|black|engine|0|||B|W||"
    );
    assert_eq!(
        game("draw", DRAW, "win", "first", &[]),
        "declared_draw|draw|black|engine|0|||B|W||"
    );
    assert_eq!(
        game("short", SHORT, "win", "first", &[]),
        "illegal|white|black|engine|0||illegal declaration under CSARule24: 10 pieces in the camp, 15 points|B|W||"
    );
    // Under the 27-point rule Black needs 28: 30 points win there.
    assert_eq!(
        game("draw27", DRAW, "win", "first", &["--rule", "CSARule27"]),
        "declaration|black|black|engine|0|||B|W||"
    );
    // The 500-move clause: White moves at move 500, Black declares at move 501.
    assert_eq!(
        game("at500", AT_500, "win", "first", &[]),
        "illegal|white|black|engine|1|5i4h|illegal declaration under CSARule24: 10 pieces in the camp, 31 points, past move 500|B|W||"
    );
    assert_eq!(
        game("past500", PAST_500, "win", "first", &[]),
        "past_move_500|draw|||0|||B|W||"
    );
}

#[test]
fn the_referee_declares_for_an_engine_that_does_not() {
    // Without --auto-declare an engine that never declares plays on to the ply limit.
    let plain = game("noauto", DECL, "first", "first", &["--max-plies", "2"]);
    assert!(plain.starts_with("limit|draw|||2|"), "{plain}");
    assert_eq!(
        game("auto", DECL, "first", "first", &["--auto-declare"]),
        "declaration|black|black|referee|0|||B|W||"
    );
    // A draw's points: only `--auto-declare draw` declares them.
    let win_only = game(
        "autowin",
        DRAW,
        "first",
        "first",
        &["--auto-declare", "--max-plies", "2"],
    );
    assert!(win_only.starts_with("limit|draw|||2|"), "{win_only}");
    assert_eq!(
        game("autodraw", DRAW, "first", "first", &["--auto-declare=draw"]),
        "declared_draw|draw|black|referee|0|||B|W||"
    );
}

#[test]
fn mate_resignation_repetition_perpetual_check_and_the_ply_limit() {
    assert_eq!(
        game("mate", MATED, "first", "first", &[]),
        "mate|black|||0|||B|W||"
    );
    assert_eq!(
        game("resign", KINGS, "resign", "first", &[]),
        "resign|white|||0|||B|W||"
    );
    let cycle = "5i4i 5a4a 4i5i 4a5a";
    assert_eq!(
        game(
            "rep",
            KINGS,
            "move=5i4i,move=4i5i",
            "move=5a4a,move=4a5a",
            &[]
        ),
        format!("repetition|draw|||12|{cycle} {cycle} {cycle}||B|W||")
    );
    // Black checks on rank 1 and rank 2 in turn: the fourth time the position comes, Black
    // loses by perpetual check.
    assert_eq!(
        game(
            "perpetual",
            ROOK,
            "move=9c9a,move=9a9b,move=9b9a,move=9a9b,move=9b9a,move=9a9b,move=9b9a",
            "move=1a1b,move=1b1a",
            &[]
        ),
        "perpetual_check|white|||13|9c9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a||B|W||"
    );
    assert_eq!(
        game("limit", KINGS, "first", "first", &["--max-plies", "4"]),
        "limit|draw|||4|5i4h 5a4a 4h3g 4a3a||B|W||"
    );
}

#[test]
fn illegal_and_unreadable_moves_lose() {
    assert_eq!(
        game("illegal", KINGS, "move=5i5g", "first", &[]),
        "illegal|white|||0||illegal move 5i5g: CannotMove|B|W||"
    );
    assert_eq!(
        game("garbage", KINGS, "first", "garbage", &[]),
        "illegal|black|||1|5i4h|`bestmove` without a move|B|W||"
    );
    assert_eq!(
        game("unreadable", KINGS, "move=xyz", "first", &[]),
        "illegal|white|||0||unreadable move `xyz`|B|W||"
    );
}

fn pids(path: &Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Whether process `pid` still exists (a zombie counts as gone).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            let state = s.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        })
        .unwrap_or(false)
}

#[test]
fn a_hanging_engine_times_out_and_is_killed() {
    let dir = scratch("hang");
    let pf = dir.join("black.pids");
    let t0 = Instant::now();
    let o = replay(
        &dir,
        &[KINGS],
        &standin("B", "hang", Some(&pf)),
        &standin("W", "first", None),
        &["--move-timeout-ms", "300"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(t0.elapsed() < Duration::from_secs(60));
    let rs = rows(&dir.join("replay.csv"));
    assert_eq!(
        verdict(&rs[0]),
        "timeout|white|||0||no bestmove within 300 ms|B|W||"
    );
    let p = pids(&pf);
    assert_eq!(p.len(), 1);
    assert!(!alive(p[0]), "the hanging engine {} was left behind", p[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_crashed_engine_loses_and_the_run_goes_on_with_a_fresh_process() {
    let dir = scratch("crash");
    let (pb, pw) = (dir.join("black.pids"), dir.join("white.pids"));
    let o = replay(
        &dir,
        &[KINGS, KINGS, KINGS],
        &standin("B", "first", Some(&pb)),
        &standin("W", "crash", Some(&pw)),
        &["--jobs", "1"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rs = rows(&dir.join("replay.csv"));
    assert_eq!(rs.len(), 3);
    for r in &rs {
        assert_eq!(
            verdict(r),
            "engine_crash|black|||1|5i4h|output closed before bestmove (exit status: 3)|B|W||"
        );
    }
    // Black's engine served every game; White's was started afresh for each.
    assert_eq!(pids(&pb).len(), 1);
    let w = pids(&pw);
    assert_eq!(w.len(), 3);
    assert!(w[0] != w[1] && w[1] != w[2]);
    for p in pids(&pb).into_iter().chain(w) {
        assert!(!alive(p), "engine {p} left behind");
    }
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["engine_crashes"], 3);
    assert_eq!(s["positions"], 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_before_any_game() {
    let dir = scratch("nostart");
    let o = replay(
        &dir,
        &[KINGS],
        "/nonexistent/engine",
        &standin("W", "first", None),
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot start engine `/nonexistent/engine`"),
        "{err}"
    );
    assert!(!dir.join("replay.csv").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_interrupted_replay_keeps_the_earlier_table_and_ends_every_engine() {
    let dir = scratch("interrupt");
    std::fs::write(dir.join("replay.csv"), "the earlier table\n").unwrap();
    std::fs::write(dir.join("positions.tsv"), format!("{KINGS}\n{KINGS}\n")).unwrap();
    let (pb, pw) = (dir.join("black.pids"), dir.join("white.pids"));
    let child = Command::new(BIN)
        .arg("replay")
        .arg("--positions")
        .arg(dir.join("positions.tsv"))
        .args(["--black-usi", &standin("B", "first,hang", Some(&pb))])
        .args(["--white-usi", &standin("W", "first", Some(&pw))])
        .args(["--jobs", "2", "--move-timeout-ms", "600000", "-o"])
        .arg(dir.join("replay.csv"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Both games under way: four engines started, Black's hanging on its second move.
    let t0 = Instant::now();
    while pids(&pb).len() + pids(&pw).len() < 4 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let t1 = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(t1.elapsed() < Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("replay.csv")).unwrap(),
        "the earlier table\n"
    );
    let all: Vec<u32> = pids(&pb).into_iter().chain(pids(&pw)).collect();
    assert_eq!(all.len(), 4);
    for p in all {
        assert!(!alive(p), "engine {p} left behind");
    }
    // No temporaries left.
    for e in std::fs::read_dir(&dir).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!n.starts_with(".partial-"), "{n}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merge_into_the_single_runs_files() {
    let dir = scratch("shards");
    let starts = [KINGS, DECL, MATED, ROOK, DRAW, KINGS, PAST_500];
    let (b, w) = (standin("B", "first", None), standin("W", "first", None));
    let args = ["--max-plies", "6", "--auto-declare", "--jobs", "2"];
    let o = replay(&dir, &starts, &b, &w, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let single = std::fs::read(dir.join("replay.csv")).unwrap();
    let single_summary = std::fs::read(dir.join("summary.json")).unwrap();
    assert_eq!(rows(&dir.join("replay.csv")).len(), 7);
    let mut tables = Vec::new();
    for k in 1..=3 {
        let sd = dir.join(format!("s{k}"));
        std::fs::create_dir_all(&sd).unwrap();
        let shard = format!("{k}/3");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        let o = replay(&sd, &starts, &b, &w, &a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let idx: Vec<String> = rows(&sd.join("replay.csv"))
            .iter()
            .map(|r| r["index"].clone())
            .collect();
        let want: Vec<String> = (0..7)
            .filter(|i| i % 3 == k - 1)
            .map(|i| i.to_string())
            .collect();
        assert_eq!(idx, want);
        tables.push(sd.join("replay.csv"));
    }
    // Any order of the shards.
    tables.reverse();
    let merged = dir.join("merged");
    let o = Command::new(BIN)
        .args(["replay", "merge", "-o"])
        .arg(merged.join("replay.csv"))
        .arg("--summary")
        .arg(merged.join("summary.json"))
        .args(&tables)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(merged.join("replay.csv")).unwrap() == single);
    assert!(std::fs::read(merged.join("summary.json")).unwrap() == single_summary);
    // A shard missing is refused.
    let o = Command::new(BIN)
        .args(["replay", "merge", "-o"])
        .arg(merged.join("bad.csv"))
        .args(&tables[..2])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no row for position"));
    std::fs::remove_dir_all(&dir).unwrap();
}
