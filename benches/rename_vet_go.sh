#!/usr/bin/env bash
# Rename plans checked by the compiler: for a sample of a Go package's symbols (functions,
# methods, types, fields, constants, variables; exported and not; every Nth of the package's
# non-test declarations), apply `codegraph rename ID NAMEX --apply` to a git checkout of the
# package and run `go vet .` (which compiles the tests too), restoring the checkout after each.
#
#   benches/rename_vet_go.sh PKG_DIR [SAMPLE]      # PKG_DIR: a git work tree of one package
#
# Needs `go` on PATH (and the package's dependencies where go finds them: GOPATH / GOFLAGS as
# the package needs). CODEGRAPH names the binary (default ./target/release/codegraph).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cg=$(realpath "${CODEGRAPH:-./target/release/codegraph}")
dir=$1; sample=${2:-36}
db=$(mktemp -u /tmp/rename-vet-XXXX.db)
cd "$dir"
git diff --quiet || { echo "$dir has uncommitted changes" >&2; exit 1; }
"$cg" index . --db "$db" > /dev/null
"$cg" query --db "$db" --json --limit 100000 "SELECT id FROM nodes WHERE file NOT LIKE '%_test.go' \
  AND file NOT LIKE '%/%' AND kind IN ('function','method','struct','interface','type_alias','defined_type','property',\
  'constant','variable') AND name NOT IN ('init','main','String','Error') ORDER BY id" \
  | python3 -c "import json,sys; r=json.load(sys.stdin)['rows']; s=max(1,len(r)//$sample); [print(x[0]) for x in r[::s][:$sample]]" > "$db.ids"
source "$here/rename_vet_lib.sh"
rename_vet_loop go vet .
