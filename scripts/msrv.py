#!/usr/bin/env python3
"""The oldest Rust toolchain floodgate-scan can build with, read off the locked dependency
graph: the highest `rust-version` any crate it compiles declares (normal and build
dependencies, with the default features and without them; dev-dependencies such as the
test oracle are left out, since a user never builds them). CI checks that `Cargo.toml`'s
`rust-version` is exactly that: no lower (the build would fail on it), no higher (it would
turn users away for nothing). The standard library items the code itself uses are checked
against it by clippy's `incompatible_msrv` lint.

Usage: scripts/msrv.py [--check]
"""
import json
import subprocess
import sys


def version(v):
    return tuple(int(x) for x in v.split(".")) if v else (0,)


def closure(features):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"] + features,
        check=True, capture_output=True, text=True,
    ).stdout
    meta = json.loads(out)
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, todo = set(), [root]
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        for d in nodes[i]["deps"]:
            kinds = {k["kind"] for k in d["dep_kinds"]}
            if kinds & {None, "build"}:
                todo.append(d["pkg"])
    seen.discard(root)
    return packages[root], [packages[i] for i in seen]


def main():
    root, default = closure([])
    _, bare = closure(["--no-default-features"])
    need = max(default, key=lambda p: version(p.get("rust_version")))
    need_bare = max(bare, key=lambda p: version(p.get("rust_version")))
    declared = root.get("rust_version")
    print(f"rust-version declared: {declared}")
    print(f"needed by the dependencies (default features): {need['rust_version']} ({need['name']})")
    print(f"needed without default features: {need_bare['rust_version']} ({need_bare['name']})")
    if "--check" in sys.argv and version(declared) != version(need["rust_version"]):
        print(f"rust-version should be {need['rust_version']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
