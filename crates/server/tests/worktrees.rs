//! Worktrees of one repository share work: the first index of a new worktree starts from a
//! sibling's index (seeding) and must hold exactly what a from-scratch build of that worktree
//! holds; the git index vouches for unchanged files so they are not read; a sibling index that
//! cannot be trusted is ignored with a note.

use codegraph_tests::cli::{assert_ok, git, git_fixture};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

use codegraph_tests::seeding::FIXTURE;

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

/// Runs codegraph in `cwd` with the shared cache directory `cache`.
fn codegraph(cache: &Path, args: &[&str], cwd: &Path) -> Output {
    codegraph_tests::seeding::run(BIN, cache, args, cwd, &[])
}

fn json(out: Output) -> Value {
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn index(cache: &Path, root: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["index", "--json"];
    args.extend_from_slice(extra);
    json(codegraph(cache, &args, root))
}

/// A seeded index must equal a from-scratch build of the same worktree (no sharing).
fn assert_same_as_full(cache: &Path, root: &Path, scratch: &Path) {
    codegraph_tests::seeding::assert_same_as_full(BIN, cache, root, scratch);
}

/// Lets a second pass so that files checked out now are older than the git index written
/// next (git leaves entries modified in the index's own second "racily clean").
fn settle_git_index(root: &Path) {
    std::thread::sleep(std::time::Duration::from_millis(1100));
    git(root, &["update-index", "-q", "--really-refresh"]);
}

#[test]
fn a_new_worktree_is_seeded_from_its_sibling_and_equals_a_full_build() {
    let (_dir, base, main) = git_fixture(FIXTURE);
    let cache = base.join("cache");
    let first = index(&cache, &main, &[]);
    assert_eq!(first["mode"], "full");
    // Flows and clusters computed on main (any `flows` query does it) come along with a seed
    // that changes no row.
    assert_ok(&codegraph(&cache, &["flows", "--json"], &main));

    // Same commit: everything is reused; the git index vouches for every file.
    let wt1 = base.join("wt1");
    git(&main, &["worktree", "add", "-q", wt1.to_str().expect("path"), "-b", "wt1"]);
    settle_git_index(&wt1);
    let s = index(&cache, &wt1, &[]);
    assert_eq!(s["mode"], "seeded", "{s}");
    assert_eq!(
        s["seeded_from"],
        format!("{} at {}", main.display(), &first["head_commit"].as_str().expect("commit")[..12])
    );
    assert_eq!(s["changed_files"], 0);
    assert_eq!(s["files"], first["files"]);
    assert_eq!(s["vouched_by_git"], first["files"], "{s}");
    assert_eq!(s["head_commit"], first["head_commit"]);
    // The copy was built beside the index and moved into place: nothing of it is left over.
    let wt1_db = PathBuf::from(s["db"].as_str().expect("db"));
    let left: Vec<String> = std::fs::read_dir(wt1_db.parent().expect("index directory"))
        .expect("read the index directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("building"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert_same_as_full(&cache, &wt1, &base);
    let wt1_db = PathBuf::from(s["db"].as_str().expect("db"));
    let conn = rusqlite::Connection::open(&wt1_db).expect("open");
    let (derived_at, revision): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT revision FROM derivation), (SELECT MAX(revision) FROM snapshot)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("stamps");
    assert_eq!(derived_at, revision, "the sibling's flows are stamped with the seeded revision");
    drop(conn);
    // The seeded index is a root of its own: its snapshot names it, and status says where
    // it came from and which siblings share the repository.
    let st = json(codegraph(&cache, &["status", "--json"], &wt1));
    assert_eq!(st["root"], wt1.display().to_string());
    assert_eq!(st["stale"], false);
    assert_eq!(st["repository"]["seeded_from"]["root"], main.display().to_string());
    assert_eq!(st["repository"]["seeded_from"]["re_derived"], 0);
    assert_eq!(st["repository"]["siblings"][0]["root"], main.display().to_string());
    assert_eq!(st["repository"]["siblings"][0]["indexed"], true);

    // A branch that modifies one file, adds one and deletes one: three files re-derived.
    git(&main, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(
        main.join("store/ops.go"),
        "package store\n\n// Add appends an item.\nfunc (s *Store) Add(item string) {\n\ts.items = append(s.items, item)\n\ts.Len()\n}\n\nfunc (s *Store) Len() int { return len(s.items) }\n",
    )
    .expect("write");
    std::fs::write(main.join("web/server.ts"), "export class Server {}\n").expect("write");
    std::fs::remove_file(main.join("web/util.ts")).expect("remove");
    git(&main, &["add", "-A"]);
    git(&main, &["commit", "-q", "-m", "feature"]);
    git(&main, &["checkout", "-q", "main"]);
    let wt2 = base.join("wt2");
    git(&main, &["worktree", "add", "-q", wt2.to_str().expect("path"), "feature"]);
    // An uncommitted edit of the new worktree's own counts too.
    std::fs::write(wt2.join("README.md"), "# Demo\n\nEdited.\n").expect("write");
    let s = index(&cache, &wt2, &[]);
    assert_eq!(s["mode"], "seeded", "{s}");
    assert_eq!(s["changed_files"], 4, "{s}");
    assert_eq!(s["dirty_files"], 1);
    assert_same_as_full(&cache, &wt2, &base);

    // --no-share builds from scratch.
    let wt3 = base.join("wt3");
    git(&main, &["worktree", "add", "-q", wt3.to_str().expect("path"), "-b", "wt3"]);
    assert_eq!(index(&cache, &wt3, &["--no-share"])["mode"], "full");

    // A sibling index that is not an index is ignored with a note, never trusted: wt4 seeds
    // from another sibling.
    let main_db = PathBuf::from(
        json(codegraph(&cache, &["status", "--json"], &main))["db"]
            .as_str()
            .expect("db")
            .to_string(),
    );
    for f in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{f}", main_db.display()));
    }
    std::fs::write(&main_db, b"not a database at all, just bytes").expect("write");
    let wt4 = base.join("wt4");
    git(&main, &["worktree", "add", "-q", wt4.to_str().expect("path"), "-b", "wt4"]);
    let s = index(&cache, &wt4, &[]);
    assert_eq!(s["mode"], "seeded", "{s}");
    let notes: Vec<&str> =
        s["notes"].as_array().expect("notes").iter().filter_map(Value::as_str).collect();
    assert!(
        notes.iter().any(|n| n
            .starts_with(&format!("ignored the index of sibling worktree {}:", main.display()))),
        "{notes:?}"
    );
    assert!(
        s["seeded_from"].as_str().is_some_and(|f| !f.starts_with(&main.display().to_string())),
        "{s}"
    );
    assert_same_as_full(&cache, &wt4, &base);
}

use std::path::PathBuf;
