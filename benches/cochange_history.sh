#!/usr/bin/env bash
# Makes a repository with 1,000 commits for measuring co-change mining (docs/BENCHMARKS.md):
# Go's `net` tree as the first commit, then 1,000 commits that each append a comment line to
# 1-6 files picked by a seeded RANDOM. usage: benches/cochange_history.sh [DIR] (default
# /tmp/hist1000); then `codegraph index DIR --cochange --json` reports the stamp.
set -euo pipefail
DIR="${1:-/tmp/hist1000}"
rm -rf "$DIR" && mkdir -p "$DIR" && cp -rL /usr/lib/go-1.19/src/net "$DIR/net" && cd "$DIR"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
git init -q -b main && git add -A && git commit -q -m init
mapfile -t FILES < <(git ls-files '*.go')
RANDOM=42
for i in $(seq 1 1000); do
  k=$((RANDOM % 6 + 1))
  base=$((RANDOM % ${#FILES[@]}))
  for j in $(seq 1 "$k"); do
    f=${FILES[$(( (base + j * (RANDOM % 3 + 1)) % ${#FILES[@]} ))]}
    echo "// $i" >> "$f"
  done
  git commit -q -am "c$i"
done
git rev-list --count HEAD
