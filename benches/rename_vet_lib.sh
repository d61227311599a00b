# Shared by rename_vet_go.sh and rename_vet_ts.sh (sourced, not run): renames each symbol ID
# of the file "$db.ids" to its name + X with `codegraph rename --apply` in the git checkout
# that is the current directory, runs the compiler check "$@" after each (restoring the
# checkout before the next), and prints one line per rename and the counts.
# Needs $cg (the codegraph binary) and $db (the index).
rename_vet_loop() {
  local ok=0 total=0 refused=0 id name out errs
  while read -r id; do
    total=$((total + 1))
    git checkout -q -- . && git clean -qfd
    name=${id##*:}; name=${name##*.}
    if ! out=$("$cg" rename "$id" "${name}X" --db "$db" --apply --json 2>&1); then
      # A refusal with its reason makes no edit, so no compile error: counted apart.
      refused=$((refused + 1)); echo "REFUSED $id: $(echo "$out" | tail -1)"; continue
    fi
    if errs=$("$@" 2>&1); then ok=$((ok + 1)); echo "ok    $id";
    else echo "FAIL  $id: $(echo "$errs" | grep -v '^#' | head -1)"; fi
  done < "$db.ids"
  git checkout -q -- . && git clean -qfd
  rm -f "$db" "$db".*
  echo "$ok of $total renames compile cleanly; $refused refused with a reason (nothing edited)"
}
