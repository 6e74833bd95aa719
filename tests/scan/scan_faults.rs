//! Faults lose nothing: a full disk, a killed run and a second run into the same folder
//! end cleanly, within a bounded time, and the folder holds either the earlier complete
//! result or a new complete one. Every run here is bounded: a hang fails the test.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::scan_support::*;

/// Longest a run may take before the test calls it a hang.
const BOUND: Duration = Duration::from_secs(60);

struct Ended {
    code: Option<i32>,
    stderr: String,
}

fn start(args: &[&str], out: &Path, env: &[(&str, String)]) -> Child {
    let mut cmd = Command::new(BIN);
    cmd.arg("scan")
        .args(args)
        .arg("-o")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("run floodgate-scan")
}

/// Wait for `child`, killing it and failing the test past [`BOUND`].
fn wait_bounded(mut child: Child) -> Ended {
    let started = Instant::now();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Ended {
                code: status.code(),
                stderr: reader.join().unwrap(),
            };
        }
        if started.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the scan did not end within {BOUND:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Send `sig` (`-TERM`, `-INT`) to a running scan (it may have ended already).
fn signal(child: &Child, sig: &str) {
    let _ = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .stderr(Stdio::null())
        .status();
}

/// `n` copies of a fixture as inputs (one part each but for the multi-block 7z).
fn copies(name: &str, n: usize) -> Vec<String> {
    let p = fixture(name).to_str().unwrap().to_string();
    vec![p; n]
}

fn as_args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Names in `dir` other than the lock file.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n != ".floodgate-scan.lock")
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn temporaries(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|n| n.starts_with(".partial-") || n.starts_with(".spill-"))
        .collect()
}

/// The folder holds a complete result: `games.csv` rows = `summary.json` games, and
/// `games.parquet` readable with as many rows. Returns the number of games.
fn assert_complete(dir: &Path) -> u64 {
    let run = Run {
        code: 0,
        stdout: String::new(),
        stderr: String::new(),
        out: dir.to_path_buf(),
    };
    run.assert_counted_once();
    let games = run.count("games");
    #[cfg(feature = "report")]
    {
        use polars::prelude::*;
        let file = std::fs::File::open(dir.join("games.parquet")).unwrap();
        let df = ParquetReader::new(file)
            .finish()
            .expect("games.parquet readable");
        assert_eq!(df.height() as u64, games, "games.parquet rows");
    }
    games
}

/// A small tmpfs mounted at `at` for the life of the value: unmounted when it is dropped,
/// also when an assertion fails while it is mounted.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    /// Mount one of `size` at `at`; the error says why it cannot be (not root, or a
    /// container that refuses mounts).
    fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if out.status.success() {
            Ok(Tmpfs(at.to_path_buf()))
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Whether this process runs as root (who can mount a tmpfs, unless a container forbids it).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn assert_disk_full(e: &Ended, out: &Path) {
    assert_eq!(e.code, Some(2), "{}", e.stderr);
    assert!(
        e.stderr.contains("No space left on device"),
        "the cause: {}",
        e.stderr
    );
    let named = ["games.csv", "games.parquet", "errors.csv", "summary.json"]
        .iter()
        .any(|f| e.stderr.contains(&out.join(f).display().to_string()));
    let spill = e.stderr.contains(".partial-");
    assert!(named || spill, "the file: {}", e.stderr);
    assert_eq!(
        temporaries(out),
        Vec::<String>::new(),
        "temporaries removed"
    );
}

/// Fill the disk under `fs` with an input keeping every thread busy (15,000 records in 100
/// folders, then 100 copies of the 7z read side by side): exit 2 naming the file,
/// nothing written, no temporary left.
fn fill_the_disk(fs: &Path, env: &[(&str, String)]) {
    for (i, input) in ["records", "synthetic.7z", "synthetic-blocks.7z"]
        .iter()
        .enumerate()
    {
        let out = fs.join(format!("out{i}"));
        let inputs = copies(input, 100);
        let e = wait_bounded(start(&as_args(&inputs), &out, env));
        assert_disk_full(&e, &out);
        assert_eq!(listing(&out), Vec::<String>::new(), "nothing written");
    }
}

/// A disk that fills up (the simulated one, 192 KB free): exit 2 naming the file, promptly.
#[test]
fn a_full_disk_ends_the_scan_with_exit_2_naming_the_file() {
    let dir = scratch("full-disk");
    let env = [("FLOODGATE_SCAN_FAULT_DISK_BYTES", (192 * 1024).to_string())];
    fill_the_disk(&dir.join("fs"), &env);
}

/// The same on a real 192 KB tmpfs, the error coming from the kernel. Run as root it must
/// mount one (a refused mount fails the test rather than passing untested); run as
/// another user it says that it is skipped.
#[test]
fn a_full_tmpfs_ends_the_scan_with_exit_2_naming_the_file() {
    let dir = scratch("full-tmpfs");
    let at = dir.join("fs");
    let fs = match Tmpfs::mount(&at, "192k") {
        Ok(fs) => fs,
        Err(why) if !is_root() => {
            eprintln!("skipped: a tmpfs needs root ({why})");
            return;
        }
        Err(why) => panic!(
            "root, yet no tmpfs could be mounted at {}: {why}",
            at.display()
        ),
    };
    fill_the_disk(&fs.0, &[]);
}

/// Each output failing in turn on the simulated disk (its free space just short of what
/// the whole result takes, then less and less): exit 2, the file named, and the earlier
/// result untouched every time.
#[test]
fn a_failing_write_of_any_output_keeps_the_earlier_result() {
    let dir = scratch("budgets");
    let out = dir.join("out");
    let tar = fixture("synthetic.tar");
    let first = scan(&out, &["-q", tar.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let earlier: Vec<(String, Vec<u8>)> = listing(&out)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(out.join(&n)).unwrap();
            (n, bytes)
        })
        .collect();
    let total: usize = earlier.iter().map(|(_, b)| b.len()).sum();
    let mut named = std::collections::BTreeSet::new();
    for budget in [total - 1, total - 900, total / 2, 1000, 0] {
        let e = wait_bounded(start(
            &["-q", tar.to_str().unwrap()],
            &out,
            &[("FLOODGATE_SCAN_FAULT_DISK_BYTES", budget.to_string())],
        ));
        assert_disk_full(&e, &out);
        for f in ["games.csv", "games.parquet", "errors.csv", "summary.json"] {
            if e.stderr.contains(&format!("{f}:")) {
                named.insert(f);
            }
        }
        for (n, bytes) in &earlier {
            assert!(
                std::fs::read(out.join(n)).unwrap() == *bytes,
                "{n} changed (budget {budget})"
            );
        }
    }
    assert!(named.contains("summary.json"), "{named:?}");
    assert!(named.len() >= 2, "{named:?}");
    assert_eq!(assert_complete(&out), SYNTHETIC_GAMES);
}

/// Wait until a scan has its temporaries in `out`: it has set its signal handler by then
/// (before it opens the folder) and holds the folder's lock.
fn wait_for_temporaries(out: &Path) {
    let t = Instant::now();
    while temporaries(out).is_empty() {
        assert!(
            t.elapsed() < BOUND,
            "the scan made no temporary within {BOUND:?}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A scan killed at several moments (SIGTERM, SIGINT, SIGKILL) into a folder holding a
/// complete earlier result, once it is running (its temporaries exist): a caught signal
/// exits 128 + its number, says so, leaves the earlier result and no temporary; a
/// SIGKILL leaves the earlier result and its temporaries, which the next run removes.
#[test]
fn a_killed_scan_leaves_the_earlier_or_a_new_complete_result() {
    let dir = scratch("killed");
    let out = dir.join("out");
    let tar = fixture("synthetic.tar");
    let big = copies("synthetic.7z", 60);
    let new_games = 60 * SYNTHETIC_GAMES;
    // How long a whole run takes here: the signals below come well before its end.
    let t = Instant::now();
    let whole = wait_bounded(start(&as_args(&big), &out, &[]));
    let took = t.elapsed();
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    assert_eq!(assert_complete(&out), new_games);
    let first = scan(&out, &["-q", tar.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(assert_complete(&out), SYNTHETIC_GAMES);
    for (sig, code) in [("-TERM", 143), ("-INT", 130)] {
        for part in [0, 40, 16, 8] {
            let child = start(&as_args(&big), &out, &[]);
            wait_for_temporaries(&out);
            let delay = if part == 0 {
                Duration::ZERO
            } else {
                took / part
            };
            std::thread::sleep(delay);
            signal(&child, sig);
            let e = wait_bounded(child);
            let what = format!("{sig} {delay:?} into a run of {took:?}");
            assert_eq!(e.code, Some(code), "{what}: {}", e.stderr);
            assert!(
                e.stderr.contains("interrupted by SIG"),
                "{what}: {}",
                e.stderr
            );
            assert!(
                e.stderr.contains("keeps its earlier files"),
                "{what}: {}",
                e.stderr
            );
            assert_eq!(
                assert_complete(&out),
                SYNTHETIC_GAMES,
                "{what}: the earlier result"
            );
            assert_eq!(temporaries(&out), Vec::<String>::new(), "{what}");
        }
    }
    // SIGKILL cannot be caught: the earlier files stay, so do the temporaries, and the
    // next run tidies up.
    let mut child = start(&as_args(&big), &out, &[]);
    wait_for_temporaries(&out);
    std::thread::sleep(took / 16);
    child.kill().unwrap();
    let e = wait_bounded(child);
    assert_eq!(e.code, None, "killed by the signal: {}", e.stderr);
    assert_eq!(assert_complete(&out), SYNTHETIC_GAMES);
    assert_ne!(
        temporaries(&out),
        Vec::<String>::new(),
        "a killed run's temporaries"
    );
    let again = scan(&out, &["-q", tar.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(temporaries(&out), Vec::<String>::new());
    assert_eq!(assert_complete(&out), SYNTHETIC_GAMES);
}

/// A second scan into a folder another scan is writing is refused at once, exit 2, and
/// the first one is not disturbed.
#[test]
fn a_second_scan_into_a_busy_folder_is_refused() {
    let dir = scratch("lock");
    let out = dir.join("out");
    let big = copies("synthetic.7z", 60);
    let child = start(&as_args(&big), &out, &[]);
    // Wait until the first run has its temporaries (it holds the lock by then).
    let t = Instant::now();
    while temporaries(&out).is_empty() && t.elapsed() < BOUND {
        std::thread::sleep(Duration::from_millis(5));
    }
    let tar = fixture("synthetic.tar");
    let second = wait_bounded(start(&["-q", tar.to_str().unwrap()], &out, &[]));
    let first = wait_bounded(child);
    if first.code == Some(0) && temporaries(&out).is_empty() && second.code == Some(0) {
        // The first run ended before the second started: nothing to refuse.
        panic!("the first scan ended too soon to test the lock");
    }
    assert_eq!(second.code, Some(2), "{}", second.stderr);
    assert!(
        second
            .stderr
            .contains("is being written by another floodgate-scan run"),
        "{}",
        second.stderr
    );
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(assert_complete(&out), 60 * SYNTHETIC_GAMES);
}

#[cfg(feature = "report")]
fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `report` and `replay` given a damaged or foreign table, or a positions file with a
/// bad SFEN: an error naming the file (and line), exit 2, no panic, nothing written.
#[cfg(feature = "report")]
#[test]
fn report_and_replay_refuse_bad_inputs_naming_the_file() {
    let dir = scratch("bad-inputs");
    let s = dir.join("scan");
    let tar = fixture("synthetic.tar");
    assert_eq!(scan(&s, &["-q", tar.to_str().unwrap()]).code, 0);
    let parquet = std::fs::read(s.join("games.parquet")).unwrap();
    let truncated = dir.join("truncated.parquet");
    std::fs::write(&truncated, &parquet[..parquet.len() / 2]).unwrap();
    let foreign = dir.join("foreign.parquet");
    std::fs::write(&foreign, "game_id,entering\nx,mutual\n").unwrap();
    let narrow = dir.join("narrow.csv");
    std::fs::write(&narrow, "game_id,entering\nx,mutual\n").unwrap();
    let positions = dir.join("positions.tsv");
    std::fs::write(
        &positions,
        "# start positions\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\tok\nnot a position\n",
    )
    .unwrap();
    let out = dir.join("out");
    let cases: Vec<(Vec<&str>, &std::path::PathBuf, Option<&str>)> = vec![
        (vec!["report", path_str(&truncated)], &truncated, None),
        (vec!["report", path_str(&foreign)], &foreign, None),
        (
            vec!["replay", "--games", path_str(&truncated)],
            &truncated,
            None,
        ),
        (
            vec!["replay", "--games", path_str(&foreign)],
            &foreign,
            None,
        ),
        (
            vec!["replay", "--games", path_str(&narrow)],
            &narrow,
            Some("no column"),
        ),
        (
            vec!["replay", "--positions", path_str(&positions)],
            &positions,
            Some("positions.tsv:3"),
        ),
    ];
    for (args, file, detail) in cases {
        let child = Command::new(BIN)
            .args(&args)
            .arg("-o")
            .arg(out.join("x.csv"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let e = wait_bounded(child);
        assert_eq!(e.code, Some(2), "{args:?}: {}", e.stderr);
        assert!(
            e.stderr.contains(&file.display().to_string()),
            "{args:?}: {}",
            e.stderr
        );
        if let Some(d) = detail {
            assert!(e.stderr.contains(d), "{args:?}: {}", e.stderr);
        }
        assert!(!e.stderr.contains("panicked"), "{args:?}: {}", e.stderr);
        assert_eq!(listing(&out.join("x.csv")), Vec::<String>::new());
        assert!(!out.join("x.csv").is_file(), "{args:?} wrote its output");
    }
}

/// A report that cannot be written completely leaves the earlier report as it was.
#[cfg(feature = "report")]
#[test]
fn a_report_failing_to_write_keeps_the_earlier_report() {
    let dir = scratch("report-full");
    let s = dir.join("scan");
    let tar = fixture("synthetic.tar");
    assert_eq!(scan(&s, &["-q", tar.to_str().unwrap()]).code, 0);
    let games = s.join("games.parquet");
    let rep = dir.join("report");
    let report = |env: Option<u64>| {
        let mut cmd = Command::new(BIN);
        cmd.args(["report", path_str(&games), "-o", path_str(&rep)])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(n) = env {
            cmd.env("FLOODGATE_SCAN_FAULT_DISK_BYTES", n.to_string());
        }
        wait_bounded(cmd.spawn().unwrap())
    };
    let first = report(None);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let md = std::fs::read(rep.join("report.md")).unwrap();
    let before = listing(&rep);
    for budget in [0, 20_000, 200_000] {
        let e = report(Some(budget));
        assert_eq!(e.code, Some(2), "budget {budget}: {}", e.stderr);
        assert!(
            e.stderr.contains(&rep.display().to_string()),
            "the file: {}",
            e.stderr
        );
        assert_eq!(listing(&rep), before, "budget {budget}");
        assert_eq!(std::fs::read(rep.join("report.md")).unwrap(), md);
    }
}

/// A scan of standard input whose writer has gone quiet (a pipe held open, half a tar
/// file sent) still stops on SIGTERM at once: the wait for input does not outlast the
/// signal, and the earlier result stays.
#[test]
fn a_scan_of_an_idle_stdin_stops_on_sigterm() {
    use std::io::Write;
    let dir = scratch("stdin");
    let out = dir.join("out");
    let tar = fixture("synthetic.tar");
    let first = scan(&out, &["-q", tar.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let bytes = std::fs::read(&tar).unwrap();
    let mut child = Command::new(BIN)
        .args(["scan", "-q", "-", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run floodgate-scan");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(&bytes[..bytes.len() / 2]).unwrap();
    pipe.flush().unwrap();
    // Running (its temporaries exist once the handler is set and the folder is open).
    wait_for_temporaries(&out);
    std::thread::sleep(Duration::from_millis(200));
    signal(&child, "-TERM");
    // The pipe stays open until the scan has ended: a scan waiting for it to close would
    // not end, and `wait_bounded` fails it as a hang.
    let e = wait_bounded(child);
    drop(pipe);
    assert_eq!(e.code, Some(143), "{}", e.stderr);
    assert!(e.stderr.contains("interrupted by SIGTERM"), "{}", e.stderr);
    assert_eq!(temporaries(&out), Vec::<String>::new());
    assert_eq!(assert_complete(&out), SYNTHETIC_GAMES);
}
