//! Watcher edge cases (issue 25, item 2): what `sync_paths` makes of the paths a file watcher
//! reports must equal a full rebuild of the tree as it is then, when a file becomes a
//! directory (and back), when a symlinked directory appears inside the root, and when a file
//! changes under a symlinked directory's target (its alias path must follow).

use codegraph_engine::engine::Engine;
use codegraph_engine::index::IndexOptions;
use codegraph_query::Store;
use std::path::{Path, PathBuf};

fn opts(full: bool) -> IndexOptions {
    IndexOptions { full, ..IndexOptions::plain() }
}

/// (indexed paths, node counts by kind, skipped paths) of the index at `db`.
fn facts(db: &Path) -> (Vec<String>, Vec<(String, u64)>, Vec<String>) {
    let mut store = Store::open_read_only(db).expect("open");
    let reader = store.reader().expect("reader");
    let mut paths: Vec<String> =
        reader.source_stats().expect("sources").into_iter().map(|s| s.path).collect();
    paths.sort();
    let kinds = reader.status().expect("status").nodes_by_kind;
    let skips =
        reader.diagnostics(true, 1000).expect("skips").into_iter().map(|d| d.path).collect();
    (paths, kinds, skips)
}

/// Applies what a watcher would report, then compares with a full rebuild of the tree.
fn sync_and_compare(engine: &mut Engine, root: &Path, db: &Path, reported: &[&str], step: &str) {
    let paths: Vec<PathBuf> = reported.iter().map(|p| root.join(p)).collect();
    engine.sync_paths(&paths).expect("sync");
    let full_db = db.with_file_name(format!("full-{}.db", step.replace(' ', "-")));
    let (full, _) = Engine::open(root, &full_db, &opts(true)).expect("full build");
    full.release_for_exit();
    assert_eq!(facts(db), facts(&full_db), "{step}");
}

#[test]
fn watched_paths_follow_files_that_become_directories_and_symlinked_directories() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let root = base.join("root");
    std::fs::create_dir_all(root.join("lib")).expect("mkdir");
    std::fs::write(root.join("a.ts"), "export function a() { return 1; }\n").expect("write");
    std::fs::write(root.join("lib/l.ts"), "export function l() { return 2; }\n").expect("write");
    let db = base.join("index.db");
    let (mut engine, _) = Engine::open(&root, &db, &opts(false)).expect("open");

    // A file replaced by a directory of the same name.
    std::fs::remove_file(root.join("a.ts")).expect("rm");
    std::fs::create_dir(root.join("a.ts")).expect("mkdir");
    std::fs::write(root.join("a.ts/x.ts"), "export function x() {}\n").expect("write");
    sync_and_compare(&mut engine, &root, &db, &["a.ts", "a.ts/x.ts"], "file to dir");
    assert!(facts(&db).0.contains(&"a.ts/x.ts".to_string()));
    assert!(!facts(&db).0.contains(&"a.ts".to_string()));

    // And back: the directory's files go with it.
    std::fs::remove_dir_all(root.join("a.ts")).expect("rm");
    std::fs::write(root.join("a.ts"), "export function a() { return 3; }\n").expect("write");
    sync_and_compare(&mut engine, &root, &db, &["a.ts"], "dir to file");

    // A symlinked directory created inside the root is walked as `index` walks it.
    std::os::unix::fs::symlink(root.join("lib"), root.join("alias")).expect("symlink");
    sync_and_compare(&mut engine, &root, &db, &["alias"], "new symlinked dir");
    assert!(facts(&db).0.contains(&"alias/l.ts".to_string()), "{:?}", facts(&db).0);

    // An edit under the target (the watcher reports the target's path) refreshes the alias.
    std::fs::write(root.join("lib/l.ts"), "export function l2() { return 4; }\n").expect("write");
    std::fs::write(root.join("lib/m.ts"), "export function m() {}\n").expect("write");
    sync_and_compare(&mut engine, &root, &db, &["lib/l.ts", "lib/m.ts"], "edit under target");
    assert!(facts(&db).0.contains(&"alias/m.ts".to_string()));

    // The link removed: its files go, the target's stay.
    std::fs::remove_file(root.join("alias")).expect("rm");
    sync_and_compare(&mut engine, &root, &db, &["alias"], "link removed");
    std::fs::write(root.join("lib/m.ts"), "export function m2() {}\n").expect("write");
    sync_and_compare(&mut engine, &root, &db, &["lib/m.ts"], "edit after unlink");
    engine.release_for_exit();
}
