//! Broken and contended indexes (issue 25, items 3, 9 and 10): the index is derived data, so a
//! damaged one is moved aside and rebuilt, one deleted under a live `watch` is rebuilt, two
//! writers of one index take turns, and a publish that fails because another process holds
//! SQLite's write lock is retried until it lands, with nothing of the edit lost.

use codegraph_tests::cli::{assert_ok, git_fixture, run};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

const FIXTURE: &str = "//- /src/a.ts\nexport function alpha() {\n  return beta();\n}\n\
     //- /src/b.ts\nexport function beta() {\n  return 2;\n}\n";

fn json_of(root: &Path, args: &[&str]) -> Value {
    let out = run(BIN, args, root);
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).expect("json")
}

/// The index database of `root` (under the test cache directory).
fn db_of(root: &Path) -> PathBuf {
    PathBuf::from(json_of(root, &["status", "--json"])["db"].as_str().expect("db").to_string())
}

fn search_names(root: &Path, query: &str) -> Vec<String> {
    let v = json_of(root, &["search", query, "--json"]);
    v["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["name"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Lines of a child's stream, delivered as they come.
fn lines_of(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits (up to 30 s) for a line containing `needle`; returns it, or panics with what came.
fn wait_for_line(rx: &Receiver<String>, needle: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            seen.push(line.clone());
            if line.contains(needle) {
                return line;
            }
        }
    }
    panic!("no line with {needle:?} within 30 s; got:\n{}", seen.join("\n"));
}

fn spawn_watch(root: &Path, env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(BIN);
    cmd.args(["watch", "--json", "--debounce-ms", "50"])
        .current_dir(root)
        .env("CODEGRAPH_CACHE_DIR", root.join(".cache-not-used"))
        .env("CODEGRAPH_EVENTS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("spawn watch")
}

fn stop(mut child: Child) {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.wait();
}

#[test]
fn a_damaged_index_is_named_then_moved_aside_and_rebuilt() {
    let (_dir, _base, root) = git_fixture(FIXTURE);
    assert_ok(&run(BIN, &["index"], &root));
    let db = db_of(&root);
    let pristine = std::fs::read(&db).expect("read index");
    let aside = PathBuf::from(format!("{}.damaged", db.display()));

    // Garbage over the whole file: reads say it is damaged and what to do (not "no revision").
    for (case, bytes) in [
        ("garbage", vec![0x5a_u8; pristine.len()]),
        ("truncated", pristine[..pristine.len() / 3].to_vec()),
    ] {
        std::fs::write(&db, &bytes).expect("damage the index");
        for f in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{f}", db.display()));
        }
        let out = run(BIN, &["search", "alpha"], &root);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{case}: {err}");
        assert!(!err.contains("no published revision"), "{case}: {err}");
        assert!(err.contains("the index is damaged: run `codegraph index`"), "{case}: {err}");

        // `index` moves it aside, rebuilds, and says so; then everything answers again.
        let out = run(BIN, &["index", "--json"], &root);
        assert_ok(&out);
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["mode"], "full", "{case}: {v}");
        let notes = v["notes"].to_string();
        assert!(notes.contains("was damaged"), "{case}: {notes}");
        assert!(notes.contains(&format!("moved aside to {}", aside.display())), "{case}: {notes}");
        assert_eq!(std::fs::read(&aside).expect("the damaged copy is kept").len(), bytes.len());
        assert_eq!(search_names(&root, "alpha"), ["alpha"], "{case}");
    }

    // Damage no read meets before `index` (every page after the first): `index` alone would
    // answer "unchanged" from the source table only if that survived; a killed writer's PID in
    // the lock file makes the next writer check every page first.
    let good = std::fs::read(&db).expect("read");
    let mut bytes = good.clone();
    for b in &mut bytes[good.len() / 2..] {
        *b = 0xa5;
    }
    std::fs::write(&db, &bytes).expect("damage pages");
    std::fs::write(format!("{}.lock", db.display()), "pid 999999 (codegraph index)\n")
        .expect("a writer that never finished");
    let v = json_of(&root, &["index", "--json"]);
    assert_eq!(v["mode"], "full", "{v}");
    assert!(v["notes"].to_string().contains("was damaged"), "{v}");
    assert_eq!(search_names(&root, "beta"), ["beta"]);

    // A clean index passes `index --check` untouched; a damaged one is rebuilt by it.
    let v = json_of(&root, &["index", "--check", "--json"]);
    assert_eq!(v["mode"], "unchanged", "{v}");
    assert_eq!(v["notes"], serde_json::json!([]), "{v}");
    let good = std::fs::read(&db).expect("read");
    let mut bytes = good.clone();
    for b in &mut bytes[good.len() / 2..] {
        *b = 0x00;
    }
    std::fs::write(&db, &bytes).expect("damage pages");
    let v = json_of(&root, &["index", "--check", "--json"]);
    assert_eq!(v["mode"], "full", "{v}");
    assert_eq!(search_names(&root, "alpha"), ["alpha"]);
}

#[test]
fn two_cold_indexes_of_one_root_take_turns() {
    let (_dir, base, root) = git_fixture(FIXTURE);
    let marker = base.join("paused");
    // The first holds the write lock, paused just before its commit.
    let mut first = Command::new(BIN)
        .args(["index", "--json"])
        .current_dir(&root)
        .env("CODEGRAPH_CACHE_DIR", root.join(".cache-not-used"))
        .env("CODEGRAPH_EVENTS", "off")
        .env("CODEGRAPH_PAUSE_AT", "full-commit")
        .env("CODEGRAPH_PAUSE_FILE", &marker)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn first index");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the first index never reached its commit");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The second waits, and says for whom.
    let mut second = Command::new(BIN)
        .args(["index", "--json"])
        .current_dir(&root)
        .env("CODEGRAPH_CACHE_DIR", root.join(".cache-not-used"))
        .env("CODEGRAPH_EVENTS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn second index");
    let stderr = lines_of(second.stderr.take().expect("stderr"));
    let mut seen = Vec::new();
    let line = wait_for_line(&stderr, "waiting for pid", &mut seen);
    assert!(line.contains(&format!("pid {} (codegraph index)", first.id())), "{line}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(second.try_wait().expect("wait").is_none(), "the second must wait for the lock");
    // The first dies holding it: the second goes on, checks, builds, publishes revision 1.
    first.kill().expect("kill");
    first.wait().expect("wait");
    let out = second.wait_with_output().expect("second output");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((v["mode"].as_str(), v["revision"].as_i64()), (Some("full"), Some(1)), "{v}");

    // Two at once, unpaused: one builds revision 1, the other waits and finds it unchanged.
    let out = run(BIN, &["index", "--full", "--json"], &root);
    assert_ok(&out);
    let spawn = || {
        Command::new(BIN)
            .args(["index", "--json"])
            .current_dir(&root)
            .env("CODEGRAPH_CACHE_DIR", root.join(".cache-other"))
            .env("CODEGRAPH_EVENTS", "off")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn")
    };
    let (a, b) = (spawn(), spawn());
    let mut modes: Vec<(String, i64)> = [a, b]
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().expect("output");
            assert!(out.status.success());
            let v: Value = serde_json::from_slice(&out.stdout).expect("json");
            (v["mode"].as_str().unwrap_or("").to_string(), v["revision"].as_i64().unwrap_or(0))
        })
        .collect();
    modes.sort();
    assert_eq!(modes, [("full".to_string(), 1), ("unchanged".to_string(), 1)]);
}

#[test]
fn an_index_deleted_under_a_live_watch_is_rebuilt() {
    let (_dir, _base, root) = git_fixture(FIXTURE);
    let mut watch = spawn_watch(&root, &[]);
    let stdout = lines_of(watch.stdout.take().expect("stdout"));
    let mut seen = Vec::new();
    wait_for_line(&stdout, "\"event\":\"watching\"", &mut seen);
    let db = db_of(&root);
    for f in codegraph_query::database_files(&db) {
        let _ = std::fs::remove_file(f);
    }
    let line = wait_for_line(&stdout, "\"event\":\"rebuilt\"", &mut seen);
    assert!(line.contains("was deleted or replaced while this process kept it"), "{line}");
    assert_eq!(search_names(&root, "alpha"), ["alpha"]);
    // And it keeps publishing into the new file.
    std::fs::write(root.join("src/c.ts"), "export function gamma() {}\n").expect("write");
    wait_for_line(&stdout, "\"event\":\"revision\"", &mut seen);
    assert_eq!(search_names(&root, "gamma"), ["gamma"]);
    stop(watch);
}

#[test]
fn a_publish_blocked_by_another_writer_is_retried_and_loses_nothing() {
    let (_dir, _base, root) = git_fixture(FIXTURE);
    assert_ok(&run(BIN, &["index"], &root));
    let db = db_of(&root);
    let mut watch = spawn_watch(&root, &[("CODEGRAPH_BUSY_TIMEOUT_MS", "200")]);
    let stdout = lines_of(watch.stdout.take().expect("stdout"));
    let stderr = lines_of(watch.stderr.take().expect("stderr"));
    let (mut seen, mut errs) = (Vec::new(), Vec::new());
    wait_for_line(&stdout, "\"event\":\"watching\"", &mut seen);

    // Another process takes SQLite's write lock and keeps it.
    let conn = rusqlite::Connection::open(&db).expect("open");
    conn.execute_batch("BEGIN IMMEDIATE").expect("take the write lock");
    let gamma = "import { beta } from \"./b\";\nexport function gamma() {\n  return beta();\n}\n";
    std::fs::write(root.join("src/c.ts"), gamma).expect("write");
    wait_for_line(&stderr, "publishing a revision failed", &mut errs);
    // Status tells why the edit is not published (the watch's word, not a walk).
    let v = json_of(&root, &["status", "--json"]);
    assert_eq!(v["stale"], true, "{v}");
    assert!(v["freshness"].as_str().unwrap_or("").contains("publish pending: locked"), "{v}");
    // Retries keep failing while the lock is held, and nothing is lost.
    wait_for_line(&stderr, "publishing a revision failed", &mut errs);
    conn.execute_batch("COMMIT").expect("release");
    drop(conn);
    let line = wait_for_line(&stdout, "\"event\":\"revision\"", &mut seen);
    assert!(line.contains("\"rescan\":\"retry\""), "{line}");
    assert_eq!(search_names(&root, "gamma"), ["gamma"]);
    stop(watch);
    // With no owner left, the walk agrees: every source row matches the tree.
    let v = json_of(&root, &["status", "--json"]);
    assert_eq!(v["stale"], false, "{v}");
    let v = json_of(&root, &["context", "beta", "--json"]);
    let callers: Vec<&str> =
        v["callers"].as_array().expect("callers").iter().filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(callers, ["sym:ts:src/c.ts:gamma"], "{v}");
}
