#!/usr/bin/env bash
# Rename plans checked by the TypeScript compiler: for a sample of a TypeScript project's
# symbols (functions, methods, classes, interfaces, type aliases, properties, variables,
# constants; exported and not; every Nth of the non-test declarations), apply
# `codegraph rename ID NAMEX --apply` to a git checkout of the project and run
# `tsc --noEmit -p .`, restoring the checkout after each.
#
#   benches/rename_vet_ts.sh PROJECT_DIR [SAMPLE]   # PROJECT_DIR: a git work tree with a tsconfig.json
#
# TSC names the compiler (default: `tsc` on PATH); CODEGRAPH the binary (default
# ./target/release/codegraph). The project must compile cleanly before the first rename.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cg=$(realpath "${CODEGRAPH:-./target/release/codegraph}")
tsc=${TSC:-tsc}
dir=$1; sample=${2:-36}
db=$(mktemp -u /tmp/rename-vet-XXXX.db)
cd "$dir"
git diff --quiet || { echo "$dir has uncommitted changes" >&2; exit 1; }
$tsc --noEmit -p . > /dev/null || { echo "$dir does not compile before any rename" >&2; exit 1; }
"$cg" index . --db "$db" > /dev/null
"$cg" query --db "$db" --json --limit 100000 "SELECT id FROM nodes WHERE language = 'typescript' \
  AND test = 0 AND kind IN ('function','method','class','interface','type_alias','property',\
  'constant','variable','enum') AND name NOT IN ('constructor','default') ORDER BY id" \
  | python3 -c "import json,sys; r=json.load(sys.stdin)['rows']; s=max(1,len(r)//$sample); [print(x[0]) for x in r[::s][:$sample]]" > "$db.ids"
source "$here/rename_vet_lib.sh"
rename_vet_loop $tsc --noEmit -p .
