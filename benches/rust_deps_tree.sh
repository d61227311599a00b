#!/usr/bin/env bash
# Builds the "large Rust tree" of docs/BENCHMARKS.md (issue 41): the sources of this
# workspace's dependencies (`cargo metadata` package directories; `.rs` and `Cargo.toml` only;
# `windows*` packages left out) copied to DEST, and with --slice the 2,690-file slice the
# resolver figures also use (gix*, opendal*, tokio*, reqwest, hyper*, rustls*, salsa,
# tree-sitter*, rmcp, axum) in DEST-slice. Then:
#   cargo run --release -p codegraph-resolve --example rust_accuracy -- DEST EMPTY.jsonl
set -euo pipefail
dest=${1:?usage: benches/rust_deps_tree.sh DEST [--slice]}
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 > "$dest.metadata.json"
python3 - "$dest" "$dest.metadata.json" <<'PY'
import json, os, shutil, sys
dest, meta = sys.argv[1], json.load(open(sys.argv[2]))
n = files = 0
for p in meta["packages"]:
    if p["source"] is None or p["name"].startswith("windows"):
        continue
    src = os.path.dirname(p["manifest_path"])
    if not os.path.isdir(src):
        continue
    out = os.path.join(dest, f'{p["name"]}-{p["version"]}')
    for d, _, fs in os.walk(src):
        for f in fs:
            if f.endswith(".rs") or f == "Cargo.toml":
                rel = os.path.relpath(os.path.join(d, f), src)
                os.makedirs(os.path.join(out, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(os.path.join(d, f), os.path.join(out, rel))
                files += 1
    n += 1
print(f"{dest}: {n} packages, {files} files")
PY
rm -f "$dest.metadata.json"
if [ "${2:-}" = "--slice" ]; then
  mkdir -p "$dest-slice"
  (cd "$dest" && cp -r $(ls | grep -E '^(gix|opendal|tokio|reqwest|hyper|rustls|salsa|tree-sitter|rmcp|axum)') "$dest-slice/")
  echo "$dest-slice: $(find "$dest-slice" -name '*.rs' | wc -l) .rs files"
fi
