#!/usr/bin/env bash
# Issue 42's SCIP comparison: `codegraph export --format scip` against the reference TypeScript
# indexer, @sourcegraph/scip-typescript, on rxjs and openai, by reference-occurrence position
# (`codegraph-bench scip-compare`: agreement on the positions both report for root-defined
# symbols, and how much each reports that the other does not).
#
#   benches/scip_vs_scip_typescript.sh [OUT_DIR] [--show N]
#
# Needs: a build of both binaries (`cargo build --release -p codegraph-server -p
# codegraph-bench`; BIN_DIR overrides target/release), node and npm, and the corpora of
# ../shared/eval/setup.sh (~/.cache/codegraph-corpora, or CODEGRAPH_CORPORA). Installs
# scip-typescript (SCIP_TS_VERSION, default 0.4.0) with npm into OUT_DIR/scipts, never into
# the repository.
#
# Each corpus is copied to OUT_DIR/<name> and both tools index that same copy, so their paths
# agree. scip-typescript needs a tsconfig.json at the root: rxjs's src/ has none (its configs
# there extend ../tsconfig.json and set no `include`), openai's src/tsconfig.json includes only
# index.ts; the copy gets a minimal one that includes every .ts file, with the package's own
# self-import paths (`rxjs`, `rxjs/*`, `openai`, `openai/*`) mapped to the copy, written below.
# codegraph reads the same tsconfig.json.
set -euo pipefail
out=${1:-/tmp/scip-compare}
shift || true
show=0
if [ "${1:-}" = --show ]; then show=${2:?--show N}; fi
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-${CARGO_TARGET_DIR:-$here/target}/release}
c=${CODEGRAPH_CORPORA:-$HOME/.cache/codegraph-corpora}
ver=${SCIP_TS_VERSION:-0.4.0}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -x "$out/scipts/node_modules/.bin/scip-typescript" ]; then
  mkdir -p "$out/scipts"
  (cd "$out/scipts" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund --loglevel=error "@sourcegraph/scip-typescript@$ver" >/dev/null)
fi
scip_ts="$out/scipts/node_modules/.bin/scip-typescript"

tsconfig() { # NAME: a minimal tsconfig.json for the copy
  cat <<EOF
{
  "compilerOptions": {
    "target": "es2020",
    "module": "esnext",
    "moduleResolution": "node",
    "lib": ["es2020", "dom", "dom.iterable"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "baseUrl": ".",
    "paths": { "$1": ["./index.ts"], "$1/*": ["./*"] }
  },
  "include": ["./**/*.ts"]
}
EOF
}

for pair in "rxjs:$c/npm/node_modules/rxjs" "openai:$c/npm/node_modules/openai"; do
  name=${pair%%:*}; pkg=${pair#*:}
  if [ ! -d "$pkg/src" ]; then echo "$name: skipped ($pkg/src missing: run ../shared/eval/setup.sh)"; continue; fi
  version=$(node -p "require('$pkg/package.json').version")
  root="$out/$name"
  rm -rf "$root" && cp -r "$pkg/src" "$root"
  tsconfig "$name" > "$root/tsconfig.json"
  db="$out/$name.db"; rm -f "$db" "$db-wal" "$db-shm"
  "$bin/codegraph" --db "$db" index "$root" >/dev/null
  "$bin/codegraph" --db "$db" export "$root" --format scip -o "$out/$name-codegraph.scip"
  (cd "$root" && "$scip_ts" index --no-progress-bar --output "$out/$name-scip-typescript.scip" >/dev/null)
  echo "== $name $version (scip-typescript $ver, $(node --version))"
  "$bin/codegraph-bench" scip-compare "$out/$name-codegraph.scip" "$out/$name-scip-typescript.scip" \
    --root "$root" --show "$show"
done
