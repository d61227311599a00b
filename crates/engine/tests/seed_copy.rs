//! How a new worktree copies its sibling's index (issue 45): with the sibling's write lock free,
//! its files are copied whole, the write-ahead log too (a live engine's last revision is often
//! only there); with the lock held by a writer, SQLite's online backup. Both copies must hold
//! the sibling's last committed revision, and a seeded engine must equal a full build.

use codegraph_engine::engine::Engine;
use codegraph_engine::index::IndexOptions;
use codegraph_query::Store;
use std::path::{Path, PathBuf};
use std::process::Command;

fn opts(full: bool) -> IndexOptions {
    IndexOptions { full, share: true, ..IndexOptions::plain() }
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn revision(db: &Path) -> i64 {
    let mut store = Store::open_read_only(db).expect("open copy");
    store.reader().expect("reader").snapshot().expect("snapshot").revision
}

fn export(db: &Path) -> usize {
    let mut store = Store::open_read_only(db).expect("open");
    let status = store.reader().expect("reader").status().expect("status");
    status.nodes_by_kind.iter().map(|(_, n)| *n as usize).sum()
}

/// Sibling indexes are found in the cache directory (`CODEGRAPH_CACHE_DIR`), which a test
/// cannot set for itself: the test runs its body in a child process of this binary that has it.
#[test]
fn a_sibling_index_is_copied_whole_with_its_log_or_backed_up_under_a_writer() {
    if std::env::var_os("CODEGRAPH_SEED_COPY_CHILD").is_some() {
        return body();
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "a_sibling_index_is_copied_whole_with_its_log_or_backed_up_under_a_writer",
        ])
        .args(["--nocapture", "--test-threads", "1"])
        .env("CODEGRAPH_SEED_COPY_CHILD", "1")
        .env("CODEGRAPH_CACHE_DIR", dir.path().join("cache"))
        .output()
        .expect("run the child");
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn body() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let main = base.join("main");
    std::fs::create_dir_all(main.join("core")).expect("mkdir");
    std::fs::write(main.join("go.mod"), "module example.com/m\n\ngo 1.21\n").expect("write");
    std::fs::write(main.join("core/a.go"), "package core\n\nfunc A() int { return B() }\n")
        .expect("write");
    std::fs::write(main.join("core/b.go"), "package core\n\nfunc B() int { return 1 }\n")
        .expect("write");
    git(&main, &["init", "-q", "-b", "main"]);
    git(&main, &["add", "-A"]);
    git(&main, &["commit", "-q", "-m", "init"]);
    let main_db = codegraph_engine::paths::default_db_path(&main).expect("db path");
    let (mut engine, _) = Engine::open(&main, &main_db, &opts(false)).expect("open main");
    // A second revision, committed while this engine keeps its connection: it is in the log.
    std::fs::write(main.join("core/b.go"), "package core\n\nfunc B() int { return 2 }\n")
        .expect("write");
    let applied = engine.sync_paths(&[main.join("core/b.go")]).expect("sync");
    assert_eq!(applied.revision, Some(2));

    let worktree = |name: &str| -> (PathBuf, PathBuf) {
        let wt = base.join(name);
        git(&main, &["worktree", "add", "-q", "--detach", &wt.display().to_string()]);
        let wt = std::fs::canonicalize(&wt).expect("canonical");
        let db = codegraph_engine::paths::default_db_path(&wt).expect("db path");
        // As `Engine::open` does before seeding.
        std::fs::create_dir_all(db.parent().expect("parent")).expect("mkdir");
        (wt, db)
    };

    // The lock is free: the files are copied, the log with them.
    let (wt1, wt1_db) = worktree("wt1");
    let seeding = codegraph_engine::seed::seed(&wt1, &wt1_db, 1 << 20);
    let copy = seeding.copy.clone().unwrap_or_else(|| panic!("no copy: {:?}", seeding.notes));
    assert_eq!(revision(&copy), 2, "the copy holds the revision only the log had");
    for f in codegraph_query::database_files(&copy) {
        let _ = std::fs::remove_file(f);
    }

    // A writer holds the lock: the online backup copies the same revision without waiting.
    let (wt2, wt2_db) = worktree("wt2");
    {
        let _writer = codegraph_engine::guard::acquire(&main_db).expect("lock");
        let seeding = codegraph_engine::seed::seed(&wt2, &wt2_db, 1 << 20);
        let copy = seeding.copy.clone().unwrap_or_else(|| panic!("no copy: {:?}", seeding.notes));
        assert_eq!(revision(&copy), 2);
        for f in codegraph_query::database_files(&copy) {
            let _ = std::fs::remove_file(f);
        }
    }

    // Seeded through the engine (files copied): equal to a full build of the worktree, which
    // has the committed b.go (return 1), not main's edit.
    let (seeded, _) = Engine::open(&wt1, &wt1_db, &opts(false)).expect("seeded open");
    seeded.release_for_exit();
    let full_db = base.join("full.db");
    let (full, _) = Engine::open(&wt1, &full_db, &opts(true)).expect("full build");
    full.release_for_exit();
    assert_eq!(export(&wt1_db), export(&full_db));
    let mut store = Store::open_read_only(&wt1_db).expect("open");
    let snap = store.reader().expect("reader").snapshot().expect("snapshot");
    assert_eq!(snap.root, wt1.display().to_string());
    engine.release_for_exit();
}
