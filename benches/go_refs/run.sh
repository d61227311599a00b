#!/usr/bin/env bash
# Builds go_refs (the REFERS_TO oracle, go/types' Uses map) and writes its pairs for the Go
# corpora of `codegraph-bench accuracy` into CORPORA/oracle_out/<corpus>_refs.jsonl.
# usage: benches/go_refs/run.sh [CORPORA]   (default ~/.cache/codegraph-corpora)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CORPORA="${1:-$HOME/.cache/codegraph-corpora}"
export GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off
BIN="$(mktemp -d)/go_refs"
(cd "$HERE" && go build -o "$BIN" .)
mkdir -p "$CORPORA/oracle_out"
"$BIN" -root /usr/lib/go-1.19/src net/http > "$CORPORA/oracle_out/go_nethttp_refs.jsonl"
"$BIN" -root /usr/share/gocode/src/go.etcd.io/etcd go.etcd.io/etcd/... > "$CORPORA/oracle_out/go_etcd_refs.jsonl"
"$BIN" -tests -root /usr/share/gocode/src/github.com/gin-gonic/gin github.com/gin-gonic/gin/... \
  > "$CORPORA/oracle_out/go_gin_refs.jsonl"
rm -f "$BIN"
