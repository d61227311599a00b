//! The incremental engine end to end: an index updated in place (across processes with
//! `codegraph index`, or live with `codegraph watch`) must hold exactly the rows a full rebuild
//! of the same tree holds, rewrite only what an edit touches, and survive being killed in the
//! middle of a publish.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const FIXTURE: &str = r#"
//- /go.mod
module example.com/demo
//- /store/store.go
package store

// Store keeps items.
type Store struct {
	items []string
}

// New makes a store.
func New() *Store { return &Store{} }
//- /store/ops.go
package store

// Add appends an item.
func (s *Store) Add(item string) {
	s.items = append(s.items, item)
}

func (s *Store) Len() int { return len(s.items) }
//- /app/main.go
package main

import "example.com/demo/store"

func main() {
	s := store.New()
	s.Add("x")
	run(s)
}

func run(s *store.Store) int { return s.Len() }
//- /web/util.ts
export function log(msg: string) {
  console.log(msg);
}

export function unused() {}
//- /web/server.ts
import { log } from "./util";

export class Server {
  start(): void {
    log("start");
  }
}
//- /README.md
# Demo

## Usage
Run it.
"#;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    db: PathBuf,
    full_db: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical temp dir");
    let root = base.join("repo");
    std::fs::create_dir_all(&root).expect("create root");
    codegraph_tests::write_fixture(&root, FIXTURE);
    Fixture { root, db: base.join("inc.db"), full_db: base.join("full.db"), _dir: dir }
}

fn codegraph(args: &[&str], cwd: &Path) -> Output {
    codegraph_tests::cli::run(env!("CARGO_BIN_EXE_codegraph"), args, cwd)
}

fn ok(out: Output) -> Output {
    codegraph_tests::cli::assert_ok(&out);
    out
}

fn json(out: Output) -> Value {
    serde_json::from_slice(&ok(out).stdout).expect("JSON output")
}

fn index(f: &Fixture, db: &Path, extra: &[&str]) -> Value {
    let db = db.to_string_lossy();
    let mut args = vec!["index", "--json", "--db", &db];
    args.extend_from_slice(extra);
    json(codegraph(&args, &f.root))
}

fn export(f: &Fixture, db: &Path) -> String {
    let db = db.to_string_lossy();
    String::from_utf8(ok(codegraph(&["export", "--db", &db], &f.root)).stdout).expect("UTF-8")
}

/// What a revision holds besides the graph: counts, skips, diagnostics by code.
fn status_facts(f: &Fixture, db: &Path) -> Value {
    let db = db.to_string_lossy();
    let mut v = json(codegraph(&["status", "--json", "--all", "--db", &db], &f.root));
    let obj = v.as_object_mut().expect("object");
    for volatile in [
        "db",
        "revision",
        "created_at_ms",
        "duration_ms",
        "stale",
        "freshness",
        "changed",
        "repository",
    ] {
        obj.remove(volatile);
    }
    v
}

/// The incremental index must equal a from-scratch index of the same tree.
fn assert_same_as_full(f: &Fixture, step: &str) {
    let _ = std::fs::remove_file(&f.full_db);
    index(f, &f.full_db, &["--full"]);
    let (inc, full) = (export(f, &f.db), export(f, &f.full_db));
    if inc != full {
        let a: std::collections::BTreeSet<&str> = inc.lines().collect();
        let b: std::collections::BTreeSet<&str> = full.lines().collect();
        let extra: Vec<&&str> = a.difference(&b).collect();
        let missing: Vec<&&str> = b.difference(&a).collect();
        panic!("{step}: incremental export differs\nextra: {extra:#?}\nmissing: {missing:#?}");
    }
    assert_eq!(status_facts(f, &f.db), status_facts(f, &f.full_db), "{step}: status differs");
}

fn write(f: &Fixture, rel: &str, text: &str) {
    let p = f.root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

fn edit(f: &Fixture, rel: &str, from: &str, to: &str) {
    let p = f.root.join(rel);
    let text = std::fs::read_to_string(&p).expect("read");
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(p, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn index_updates_in_place_and_equals_a_full_rebuild() {
    let f = fixture();
    let first = index(&f, &f.db, &[]);
    assert_eq!(first["mode"], "full");
    assert_same_as_full(&f, "initial");

    // Nothing changed: no new revision.
    let again = index(&f, &f.db, &[]);
    assert_eq!(again["mode"], "unchanged");
    assert_eq!(again["revision"], first["revision"]);

    // A function-body edit rewrites only its own file's unit.
    edit(&f, "app/main.go", "s.Add(\"x\")", "s.Add(\"x\")\n\ts.Add(\"y\")");
    let r = index(&f, &f.db, &[]);
    assert_eq!((r["mode"].as_str(), r["changed_files"].as_u64()), (Some("incremental"), Some(1)));
    assert_eq!(r["units_rewritten"], 1, "{r}");
    assert_same_as_full(&f, "body edit");

    // Same bytes rewritten (new mtime): read, hashed, nothing published.
    std::thread::sleep(Duration::from_millis(20));
    let text = std::fs::read_to_string(f.root.join("app/main.go")).expect("read");
    std::fs::write(f.root.join("app/main.go"), text).expect("write");
    assert_eq!(index(&f, &f.db, &[])["mode"], "unchanged");

    // An exported signature change: the callers' units change too.
    edit(&f, "store/ops.go", "func (s *Store) Len() int", "func (s *Store) Size() int");
    edit(&f, "store/ops.go", "func (s *Store) Add(", "func (s *Store) Put(");
    let r = index(&f, &f.db, &[]);
    assert_eq!(r["changed_files"], 1, "{r}");
    assert_same_as_full(&f, "signature edit");

    // New file importing an existing one; a file deleted that another imports; a rename.
    write(&f, "web/client.ts", "import { Server } from \"./server\";\nnew Server().start();\n");
    assert_eq!(index(&f, &f.db, &[])["mode"], "incremental");
    assert_same_as_full(&f, "new file");

    // A router mounted from another file: its composed routes belong to the mounting file, so
    // editing the router's file (body, then its routes) or the mount keeps them exact.
    write(
        &f,
        "web/routes.ts",
        "import { Router } from \"express\";\nconst router = Router();\nrouter.get(\"/:id\", (req, res) => res.json({ id: 1 }));\nexport default router;\n",
    );
    write(
        &f,
        "web/app.ts",
        "import express from \"express\";\nimport users from \"./routes\";\nconst app = express();\napp.use(\"/users\", users);\n",
    );
    index(&f, &f.db, &[]);
    assert!(export(&f, &f.db).contains("route:web/app.ts:GET /users/:id"), "composed route");
    assert_same_as_full(&f, "mounted router");
    edit(&f, "web/routes.ts", "{ id: 1 }", "{ id: 2 }");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "mounted router body edit");
    edit(&f, "web/routes.ts", "router.get(", "router.post(");
    index(&f, &f.db, &[]);
    assert!(export(&f, &f.db).contains("route:web/app.ts:POST /users/:id"), "recomposed");
    assert_same_as_full(&f, "mounted router route edit");
    edit(&f, "web/app.ts", "app.use(\"/users\", users);", "");
    index(&f, &f.db, &[]);
    assert!(!export(&f, &f.db).contains("route:web/app.ts:"), "unmounted");
    assert_same_as_full(&f, "router unmounted");
    std::fs::remove_file(f.root.join("web/util.ts")).expect("rm");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "deleted file");
    std::fs::rename(f.root.join("store/ops.go"), f.root.join("store/methods.go")).expect("mv");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "rename");

    // Bad input arriving later: a file turned binary, invalid UTF-8, a syntax error.
    std::fs::write(f.root.join("README.md"), b"# x\0binary").expect("write");
    write(&f, "web/broken.ts", "export function (\n");
    std::fs::write(f.root.join("web/latin1.ts"), b"// caf\xe9\nexport const c = 1;\n").expect("w");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "bad input");

    // An ignore rule that hides a directory, then lifting it again.
    write(&f, ".gitignore", "web/\n");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "ignored dir");
    std::fs::remove_file(f.root.join(".gitignore")).expect("rm");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "unignored dir");

    // A whole package removed.
    std::fs::remove_dir_all(f.root.join("store")).expect("rm -r");
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "package removed");

    // An index written by another codegraph version is rebuilt, not updated.
    let conn = rusqlite::Connection::open(&f.db).expect("open db");
    conn.execute("UPDATE snapshot SET indexer_version = '0.0.0+facts0'", []).expect("tamper");
    drop(conn);
    assert_eq!(index(&f, &f.db, &[])["mode"], "full");
    assert_same_as_full(&f, "version change");
}

/// Reads a child's stdout lines (JSON) on a thread.
fn lines_of(child: &mut Child) -> Receiver<Value> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    rx
}

fn next_event(rx: &Receiver<Value>, event: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(v) if v["event"] == event => return v,
            Ok(_) => continue,
            Err(RecvTimeoutError::Timeout) => panic!("no `{event}` event within 30 s"),
            Err(RecvTimeoutError::Disconnected) => panic!("watch exited before `{event}`"),
        }
    }
}

/// Waits until the watcher has been quiet for a while (late events of earlier edits).
fn drain(rx: &Receiver<Value>) {
    while rx.recv_timeout(Duration::from_millis(800)).is_ok() {}
}

/// Waits until the index holds `needle` (a revision may cover several of our edits).
fn wait_for_export(f: &Fixture, rx: &Receiver<Value>, needle: &str, present: bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while export(f, &f.db).contains(needle) != present {
        assert!(
            Instant::now() < deadline,
            "index never {} {needle}",
            if present { "got" } else { "lost" }
        );
        let _ = rx.recv_timeout(Duration::from_millis(200));
    }
}

#[cfg(unix)]
#[test]
fn watch_follows_edits_and_stops_on_sigterm() {
    let f = fixture();
    let db = f.db.to_string_lossy().into_owned();
    let (mut child, rx) =
        spawn_watch(&f, &["--db", &db, "--debounce-ms", "150", "--max-batch-paths", "20"]);
    let watching = next_event(&rx, "watching");
    assert_eq!(watching["files"], 7, "{watching}");

    // A plain write.
    edit(&f, "web/util.ts", "export function unused() {}", "export function helper() {}");
    let rev = next_event(&rx, "revision");
    assert!(rev["latency_ms"].as_f64().is_some(), "{rev}");
    wait_for_export(&f, &rx, "sym:ts:web/util.ts:helper", true);

    // An editor save: write a temporary file, rename it over the original.
    let tmp = f.root.join("web/.server.ts.swp");
    std::fs::write(&tmp, "import { log } from \"./util\";\nexport class Server {\n  stop(): void { log(\"x\"); }\n}\n")
        .expect("write temp");
    std::fs::rename(&tmp, f.root.join("web/server.ts")).expect("rename over");
    wait_for_export(&f, &rx, "sym:ts:web/server.ts:Server.stop", true);

    // A new directory with files, then a deletion.
    write(&f, "lib/extra/a.go", "package extra\n\nfunc A() {}\n");
    wait_for_export(&f, &rx, "sym:go:lib/extra/a.go:A", true);
    std::fs::remove_file(f.root.join("web/util.ts")).expect("rm");
    wait_for_export(&f, &rx, "file:web/util.ts", false);
    // The deleted path comes back (with its old salsa input, emptied meanwhile) holding
    // other content; the final comparison with a full rebuild covers its rows.
    write(&f, "web/util.ts", "export function log(msg: string) {}\nexport function back() {}\n");
    wait_for_export(&f, &rx, "sym:ts:web/util.ts:back", true);
    assert!(!export(&f, &f.db).contains("sym:ts:web/util.ts:helper"));

    // A new directory full of files arrives as one directory event: listed, not rescanned.
    for i in 0..40 {
        write(&f, &format!("gen/g{i}.go"), &format!("package gen\n\nfunc G{i}() {{}}\n"));
    }
    wait_for_export(&f, &rx, "sym:go:gen/g39.go:G39", true);
    drain(&rx);
    // A branch switch: many files of existing directories replaced at once (staged outside
    // the root, then renamed in, as git does): applied as a rescan.
    let stage = f.root.parent().expect("base").join("stage");
    std::fs::create_dir_all(&stage).expect("mkdir stage");
    for i in 0..40 {
        std::fs::write(
            stage.join(format!("g{i}.go")),
            format!("package gen\n\nfunc H{i}() {{}}\n"),
        )
        .expect("stage");
    }
    for i in 0..40 {
        std::fs::rename(stage.join(format!("g{i}.go")), f.root.join(format!("gen/g{i}.go")))
            .expect("rename in");
    }
    let mut rescans = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !export(&f, &f.db).contains("sym:go:gen/g39.go:H39") {
        assert!(Instant::now() < deadline, "branch switch never published");
        if let Ok(v) = rx.recv_timeout(Duration::from_millis(200)) {
            rescans.push(v["rescan"].clone());
        }
    }
    // The revision line may arrive after the export already shows it.
    while let Ok(v) = rx.recv_timeout(Duration::from_millis(800)) {
        rescans.push(v["rescan"].clone());
    }
    assert!(rescans.iter().any(|r| r == "large-batch"), "{rescans:?}");

    // An ignore rule hides a directory: a rescan drops it.
    write(&f, ".gitignore", "gen/\n");
    let rev = next_event(&rx, "revision");
    assert_eq!(rev["rescan"], "ignore-rules", "{rev}");
    wait_for_export(&f, &rx, "file:gen/g0.go", false);

    // The watched index equals a full rebuild of the final tree.
    assert_same_as_full(&f, "after watch");

    // SIGTERM stops it cleanly.
    let pid = child.0.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().expect("kill");
    assert!(status.success());
    let stopped = next_event(&rx, "stopped");
    assert!(stopped["revision"].as_i64().is_some());
    let exit = child.0.wait().expect("wait");
    assert!(exit.success(), "{exit:?}");
}

/// `status --json` of the fixture's index: (stale, freshness text, revision).
fn status_word(f: &Fixture) -> (bool, String, i64) {
    let db = f.db.to_string_lossy();
    let v = json(codegraph(&["status", "--json", "--db", &db], &f.root));
    (
        v["stale"].as_bool().expect("stale"),
        v["freshness"].as_str().expect("freshness").to_string(),
        v["revision"].as_i64().expect("revision"),
    )
}

/// Polls `status` until `want` holds of it (30 s at most); returns the last answer.
fn wait_status(
    f: &Fixture,
    what: &str,
    want: impl Fn(&(bool, String, i64)) -> bool,
) -> (bool, String, i64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let st = status_word(f);
        if want(&st) {
            return st;
        }
        assert!(Instant::now() < deadline, "status never {what}: {st:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// While `watch` runs, CLI queries take its word on freshness (no walk of the tree): "fresh"
/// once every event is published, "pending" (stale) from the first event of an edit until
/// its revision is out, and nothing once it stops (the CLI walks again).
#[cfg(unix)]
#[test]
fn cli_takes_the_watchers_word_on_freshness() {
    let f = fixture();
    let db = f.db.to_string_lossy().into_owned();
    // A long debounce leaves a wide window between an edit and its revision.
    let (mut child, rx) = spawn_watch(&f, &["--db", &db, "--debounce-ms", "1500"]);
    next_event(&rx, "watching");
    let owned = |st: &(bool, String, i64)| {
        !st.0 && st.1.contains("a live watch or mcp process keeps this index")
    };
    let (_, _, before) = wait_status(&f, "vouched for by the watcher", owned);

    edit(&f, "web/util.ts", "export function unused() {}", "export function helper() {}");
    // The raw watcher marks the index pending long before the debounced revision.
    let st = wait_status(&f, "pending", |st| st.0);
    assert!(
        st.1.ends_with("a live watch or mcp process has file events not published yet"),
        "{st:?}"
    );
    next_event(&rx, "revision");
    let (_, _, after) = wait_status(&f, "fresh again", owned);
    assert!(after > before, "{before} -> {after}");
    assert!(export(&f, &f.db).contains("sym:ts:web/util.ts:helper"));

    let pid = child.0.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
    next_event(&rx, "stopped");
    assert!(child.0.wait().expect("wait").success());
    assert!(!PathBuf::from(format!("{db}.owner")).exists(), "the owner file is removed on exit");
    let (stale, why, _) = status_word(&f);
    assert!(!stale);
    assert_eq!(why, "every indexed file matches the tree");
}

/// Read-your-writes from the CLI with a live `watch`: a query run right after a write either
/// holds the write or says `stale: true` (the watcher answers over its socket after reading
/// its file events to the end, and a read command first waits up to a second for the batch
/// in flight, so it normally holds it).
#[test]
fn a_cli_query_right_after_a_write_holds_it_or_says_stale() {
    let f = fixture();
    let db = f.db.to_string_lossy().into_owned();
    let (_child, rx) = spawn_watch(&f, &["--db", &db]);
    next_event(&rx, "watching");
    let mut held = 0;
    for i in 0..15 {
        let name = format!("written{i}");
        write(&f, "web/written.ts", &format!("export function {name}() {{}}\n"));
        let v = json(codegraph(&["search", &name, "--json", "--db", &db], &f.root));
        let found = v["hits"].as_array().is_some_and(|h| h.iter().any(|h| h["name"] == name));
        assert!(found || v["stale"] == true, "stale: false without the write just made: {v}");
        held += usize::from(found);
    }
    assert_eq!(held, 15, "each query waited for the batch in flight");
}

/// `codegraph watch --json ARGS` in the fixture's root: the process (killed when dropped) and
/// its JSON lines.
fn spawn_watch(f: &Fixture, args: &[&str]) -> (KillOnDrop, Receiver<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codegraph"))
        .args(["watch", "--json"])
        .args(args)
        .current_dir(&f.root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn watch");
    let rx = lines_of(&mut child);
    (KillOnDrop(child), rx)
}

/// Kills a child process when a failing test unwinds past it.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Killing `codegraph index` at any point of its work leaves the previous revision readable
/// and complete; the next run recovers.
#[cfg(unix)]
#[test]
fn killed_index_leaves_the_previous_revision() {
    let f = fixture();
    // Enough files that a full build takes a while in a debug build.
    for i in 0..400 {
        write(
            &f,
            &format!("gen/m{i}.ts"),
            &format!(
                "import {{ log }} from \"../web/util\";\nexport function f{i}(x: number) {{\n  log(\"{i}\");\n  return x + {i};\n}}\n"
            ),
        );
    }
    index(&f, &f.db, &[]);
    let db = f.db.to_string_lossy().into_owned();
    let started = Instant::now();
    ok(codegraph(&["index", "--full", "--db", &db], &f.root));
    let full_time = started.elapsed();
    let mut prev = export(&f, &f.db);
    let mut prev_facts = status_facts(&f, &f.db);
    for attempt in 0..8u32 {
        // Change the tree so every run has something new to publish.
        for i in 0..400 {
            write(&f, &format!("gen/m{i}.ts"), &format!("export function g{i}_{attempt}() {{}}\n"));
        }
        // Alternate full rebuilds and incremental updates.
        let mut args = vec!["index", "--db", &db];
        if attempt % 2 == 0 {
            args.push("--full");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_codegraph"))
            .args(&args)
            .current_dir(&f.root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn index");
        std::thread::sleep(full_time * attempt / 8);
        let _ = child.kill();
        let _ = child.wait().expect("wait");
        let now = export(&f, &f.db);
        let facts = status_facts(&f, &f.db);
        if now == prev {
            // Killed before the commit: the previous revision, whole.
            assert_eq!(facts, prev_facts, "attempt {attempt}");
        } else {
            // Committed before the kill: the new revision, whole.
            assert!(now.contains(&format!("g399_{attempt}")), "attempt {attempt}: torn revision");
            assert_same_as_full(&f, &format!("attempt {attempt}"));
        }
        prev = now;
        prev_facts = facts;
    }
    // Deterministic: killed with every row written but the transaction not committed, in a
    // full rebuild and in an incremental update.
    let marker = f.root.parent().expect("base").join("paused");
    for (point, full) in [("full-commit", true), ("update-commit", false)] {
        write(&f, "gen/m0.ts", &format!("export function paused_{point}() {{}}\n"));
        let _ = std::fs::remove_file(&marker);
        let mut args = vec!["index", "--db", &db];
        if full {
            args.push("--full");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_codegraph"))
            .args(&args)
            .current_dir(&f.root)
            .env("CODEGRAPH_PAUSE_AT", point)
            .env("CODEGRAPH_PAUSE_FILE", &marker)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn index");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !marker.exists() {
            assert!(Instant::now() < deadline, "{point}: never reached");
            std::thread::sleep(Duration::from_millis(10));
        }
        child.kill().expect("kill");
        child.wait().expect("wait");
        assert_eq!(export(&f, &f.db), prev, "{point}: the previous revision changed");
        assert_eq!(status_facts(&f, &f.db), prev_facts, "{point}");
    }

    // The next run recovers and matches a full rebuild.
    index(&f, &f.db, &[]);
    assert_same_as_full(&f, "after kills");
}
