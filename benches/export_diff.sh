#!/usr/bin/env bash
# Checks that a change is behaviour-neutral: indexes each public corpus with two codegraph
# binaries (fresh databases) and compares their `export --derived` byte for byte.
#
#   benches/export_diff.sh OLD_BIN NEW_BIN [OUT_DIR]
#
# OLD_BIN is typically a build of the base commit (e.g. `git worktree add /tmp/base BASE &&
# (cd /tmp/base && CARGO_TARGET_DIR=/tmp/tgt-base cargo build --release -p codegraph-server)`).
# Corpora come from ../shared/eval/setup.sh (~/.cache/codegraph-corpora), gin and Go's
# net/http from the Debian packages; missing ones are skipped and said so. Exit status 1 when
# any export differs.
set -uo pipefail
old=${1:?OLD_BIN}; new=${2:?NEW_BIN}; out=${3:-$(mktemp -d)}
c=${CODEGRAPH_CORPORA:-$HOME/.cache/codegraph-corpora}
corpora=(
  "fastify:$c/npm/unpacked/fastify-5.12.8"
  "loopback:$c/npm/unpacked/loopback-example-todo-6.0.0"
  "mcpsdk:$c/npm/unpacked/modelcontextprotocol-sdk-1.32.2"
  "everything:$c/npm/unpacked/modelcontextprotocol-server-everything-2026.8.31"
  "gin:/usr/share/gocode/src/github.com/gin-gonic/gin"
  "mux:$c/gh/mux-history"
  "nethttp:/usr/lib/go-1.19/src/net/http"
)
mkdir -p "$out"
status=0
for pair in "${corpora[@]}"; do
  name=${pair%%:*}; dir=${pair#*:}
  if [ ! -d "$dir" ]; then echo "$name: skipped ($dir missing)"; continue; fi
  for side in old new; do
    bin=$old; [ "$side" = new ] && bin=$new
    db="$out/$name-$side.db"; rm -f "$db" "$db-wal" "$db-shm"
    "$bin" --db "$db" index "$dir" >/dev/null 2>"$out/$name-$side.err" &&
      "$bin" --db "$db" export "$dir" --derived -o "$out/$name-$side.jsonl" 2>>"$out/$name-$side.err" ||
      { echo "$name: $side failed (see $out/$name-$side.err)"; status=1; continue 2; }
    rm -f "$db" "$db-wal" "$db-shm"
  done
  if cmp -s "$out/$name-old.jsonl" "$out/$name-new.jsonl"; then
    echo "$name: identical ($(wc -l < "$out/$name-new.jsonl") lines)"
  else
    echo "$name: DIFFERS ($out/$name-old.jsonl vs $out/$name-new.jsonl)"; status=1
  fi
done
exit $status
