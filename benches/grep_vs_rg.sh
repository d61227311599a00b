#!/usr/bin/env bash
# `codegraph grep` side by side with ripgrep on one indexed root: the same matching lines
# (codegraph's `total` and file count against `rg -c` over exactly the files the index holds)
# and the wall time of each (median of RUNS, both warm).
#
#   benches/grep_vs_rg.sh ROOT DB [RUNS] [PATTERN...]
#
# ROOT must be indexed into DB first (`codegraph index ROOT --db DB`). CODEGRAPH names the
# binary (default ./target/release/codegraph).
set -euo pipefail
root=$1; db=$2; runs=${3:-5}; shift $(( $# >= 3 ? 3 : $# ))
patterns=("$@")
if [ ${#patterns[@]} -eq 0 ]; then
  patterns=('func \(\w+ \*?Server\)' 'TODO' 'errors\.New\("' '[Tt]imeout' 'for (i|j) := 0')
fi
cg=${CODEGRAPH:-./target/release/codegraph}
files=$(mktemp)
trap 'rm -f "$files"' EXIT
"$cg" query --db "$db" --root "$root" --json --limit 1000000 "SELECT path FROM files" \
  | python3 -c 'import json,sys; print("\n".join(r[0] for r in json.load(sys.stdin)["rows"]))' > "$files"
echo "root $root: $(wc -l < "$files") indexed files; rg $(rg --version | head -1 | cut -d' ' -f2)"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
printf '%-28s %10s %10s %8s %8s %9s %9s %6s\n' pattern cg_lines rg_lines cg_files rg_files cg_ms rg_ms ratio
for p in "${patterns[@]}"; do
  cg_json=$("$cg" grep --db "$db" --root "$root" --json --limit 1 "$p")
  cg_lines=$(echo "$cg_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  cg_files=$(echo "$cg_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])')
  # The same files, named one by one (ignore rules do not apply to named files).
  rg_counts=$(cd "$root" && tr '\n' '\0' < "$files" | xargs -0 rg -c --no-messages -- "$p" || true)
  rg_lines=$(echo "$rg_counts" | awk -F: 'NF {s += $NF} END {print s + 0}')
  rg_files=$(echo "$rg_counts" | awk 'NF' | wc -l)
  cg_ms=$(for _ in $(seq "$runs"); do ms "$cg" grep --db "$db" --root "$root" --json --limit 20 "$p"; done | median)
  rg_ms=$(for _ in $(seq "$runs"); do ms rg -n -- "$p" "$root"; done | median)
  printf '%-28s %10s %10s %8s %8s %9s %9s %6s\n' "$p" "$cg_lines" "$rg_lines" "$cg_files" "$rg_files" \
    "$cg_ms" "$rg_ms" "$(python3 -c "print(f'{$cg_ms / max($rg_ms, 1):.2f}x')")"
done
