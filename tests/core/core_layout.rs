//! The library's layout as CONTRIBUTING.md states it, read off the source: each top
//! module uses only the modules before it in [`LAYERS`] (no arrow up), and no two files of
//! one folder use each other, directly or around a longer loop (no circle). A file's
//! `mod.rs` is its folder's front door and may use its children; what the children share
//! lives in files of their own.
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's top modules, lowest first: each may use only those before it.
const LAYERS: &[&str] = &[
    "rng",
    "words",
    "interrupt",
    "outdir",
    "shogi",
    "csa",
    "game",
    "source",
    "scan",
    "engine",
    "referee",
    "lab",
    "report",
];

/// Every library file (not the binary's `main.rs` and `cli/`, not `lib.rs`) as its module
/// path (`engine::search::searcher`) and its text, test modules and comments left out.
fn library_files() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&src, &mut paths);
    let mut files = BTreeMap::new();
    for p in paths {
        let rel = p
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "main.rs" || rel == "lib.rs" || rel.starts_with("cli/") {
            continue;
        }
        let mut module: Vec<String> = rel
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        if module.last().map(String::as_str) == Some("mod") {
            module.pop();
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code: String = code
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        files.insert(module, code);
    }
    files
}

/// The paths a text names from `prefix` (`crate::`, `super::`), braces expanded:
/// `super::{a::B, c}` gives `a::B` and `c`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    fn parse(s: &str, base: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = base.to_vec();
        let mut rest = s.trim_start();
        loop {
            if let Some(inner) = rest.strip_prefix('{') {
                let mut depth = 1;
                let mut end = 0;
                for (i, ch) in inner.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                let body = &inner[..end];
                let mut depth = 0;
                let mut start = 0;
                for (i, ch) in body.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            parse(&body[start..i], &path, out);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                parse(&body[start..], &path, out);
                return;
            }
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if ident.is_empty() {
                break;
            }
            path.push(ident.clone());
            rest = &rest[ident.len()..];
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if path.len() > base.len() {
            out.push(path);
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find(prefix) {
        let start = at + i;
        // `super::super::x` is read once, from its first `super::`.
        let preceded = code[..start].ends_with("::");
        at = start + prefix.len();
        if !preceded {
            let mut tail = &code[at..];
            let mut ups = 0;
            while let Some(t) = tail.strip_prefix(prefix) {
                tail = t;
                ups += 1;
            }
            let mut found = Vec::new();
            parse(tail, &[], &mut found);
            for p in found {
                let mut full = vec![String::new(); ups];
                full.extend(p);
                out.push(full);
            }
        }
    }
    out
}

/// The module each file uses: the deepest existing module on each path it names.
fn edges(files: &BTreeMap<Vec<String>, String>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    let resolve = |path: Vec<String>| -> Option<Vec<String>> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
    };
    let mut out = BTreeMap::new();
    for (module, code) in files {
        let mut used = BTreeSet::new();
        for p in paths_after(code, "crate::") {
            used.extend(resolve(p));
        }
        for p in paths_after(code, "super::") {
            // `super::` of module `a::b` is `a`; one more level up for each empty leading
            // entry (`super::super::`).
            let ups = 1 + p.iter().take_while(|s| s.is_empty()).count();
            if ups > module.len() {
                continue;
            }
            let mut full = module[..module.len() - ups].to_vec();
            full.extend(p.into_iter().filter(|s| !s.is_empty()));
            used.extend(resolve(full));
        }
        used.remove(module);
        out.insert(module.clone(), used);
    }
    out
}

#[test]
fn no_module_uses_one_above_it() {
    let files = library_files();
    let graph = edges(&files);
    let rank = |top: &str| LAYERS.iter().position(|l| *l == top);
    let mut wrong = Vec::new();
    for (from, used) in &graph {
        let Some(rf) = rank(&from[0]) else {
            wrong.push(format!("{}: a top module not in LAYERS", from.join("::")));
            continue;
        };
        for to in used {
            let rt = rank(&to[0]).unwrap_or(usize::MAX);
            if to[0] != from[0] && rt > rf {
                wrong.push(format!("{} uses {}", from.join("::"), to.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "arrows up:\n{}", wrong.join("\n"));
    // The reading itself: the referee uses the engine, the lab the referee.
    assert!(
        graph[&vec!["referee".to_string(), "builtin".into()]]
            .iter()
            .any(|m| m[0] == "engine")
    );
    assert!(
        graph[&vec!["lab".to_string(), "play".into()]]
            .iter()
            .any(|m| m[0] == "referee")
    );
}

#[test]
fn no_two_files_of_a_folder_use_each_other() {
    let files = library_files();
    let graph = edges(&files);
    // Edges between sibling files only (the folder's own mod.rs is its front door).
    let sibling = |a: &Vec<String>, b: &Vec<String>| {
        a.len() == b.len() && a.len() >= 2 && a[..a.len() - 1] == b[..b.len() - 1]
    };
    let mut circles = Vec::new();
    for start in graph.keys() {
        // Depth-first from `start` over sibling edges: a way back to it is a circle.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if !sibling(&at, next) {
                    continue;
                }
                if next == start {
                    let names: Vec<String> = trail.iter().map(|m| m.join("::")).collect();
                    circles.push(format!("{} -> {}", names.join(" -> "), start.join("::")));
                } else if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    circles.sort();
    circles.dedup();
    assert!(circles.is_empty(), "circles:\n{}", circles.join("\n"));
    // The reading itself: the searcher and the interior nodes both use the per-ply state.
    let search = |f: &str| vec!["engine".to_string(), "search".into(), f.into()];
    assert!(graph[&search("searcher")].contains(&search("stack")));
    assert!(graph[&search("alphabeta")].contains(&search("stack")));
}
