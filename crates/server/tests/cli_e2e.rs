//! End-to-end runs of the `codegraph` binary on a fixture repository: index, status, search,
//! open, export, and the errors a user meets (no index, unknown ID, unreadable root).

use expect_test::expect;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const FIXTURE: &str = r#"
//- /.gitignore
dist/
//- /README.md
# Demo

Intro.

## Usage
Run it.
//- /src/server.ts
import { log } from "./util";

/** Serves requests. */
export class Server {
  port: number = 0;
  start(): void {
    log("start");
  }
}
//- /src/util.ts
export function log(msg: string) {
  console.log(msg);
}
//- /pkg/store/store.go
package store

// Store keeps things.
type Store struct {
	items []string
}
//- /pkg/store/ops.go
package store

// Add appends an item.
func (s *Store) Add(item string) {
	s.items = append(s.items, item)
}
//- /dist/bundle.js
function ignored() {}
//- /notes.txt
plain text
"#;

fn codegraph(args: &[&str], cwd: &Path) -> Output {
    codegraph_tests::cli::run(env!("CARGO_BIN_EXE_codegraph"), args, cwd)
}

fn ok_json(out: &Output) -> Value {
    codegraph_tests::cli::assert_ok(out);
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

use codegraph_tests::cli::git;

struct Repo {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    db: String,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical temp dir").join("repo");
    std::fs::create_dir_all(&root).expect("create repo dir");
    codegraph_tests::write_fixture(&root, FIXTURE);
    std::fs::write(root.join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0binary").expect("write png");
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "init"]);
    let db = dir.path().join("index.db").to_string_lossy().into_owned();
    Repo { _dir: dir, root, db }
}

#[test]
fn index_status_search_open_export() {
    let r = repo();
    let root = r.root.to_str().unwrap();
    let idx = ok_json(&codegraph(&["index", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!(idx["revision"], 1);
    assert_eq!(idx["files"], 7, "{idx}");
    assert_eq!(idx["parsed_files"], 5, "{idx}");
    assert_eq!(idx["skipped"]["binary"], 1, "{idx}");

    let st = ok_json(&codegraph(&["status", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!(st["revision"], 1);
    assert_eq!(st["stale"], false, "{st}");
    assert_eq!(st["skips"][0]["path"], "logo.png");
    assert_eq!(st["skips"][0]["code"], "binary");

    let hits = ok_json(&codegraph(
        &["search", "Server", "--root", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    assert_eq!(hits["fallback"], "raw");
    assert_eq!(hits["hits"][0]["id"], "sym:ts:src/server.ts:Server");
    assert_eq!(hits["hits"][0]["score"], 1.0);

    let kind = ok_json(&codegraph(
        &["search", "store add", "--kind", "method", "--root", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    assert_eq!(kind["hits"][0]["id"], "sym:go:pkg/store/ops.go:Store.Add", "{kind}");

    let open = ok_json(&codegraph(
        &["open", "sym:ts:src/server.ts:Server.start", "--root", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    assert_eq!(open["source"]["first_line"], 6);
    assert_eq!(open["source"]["lines"][1], "    log(\"start\");");
    assert_eq!(open["incoming"][0]["edge"], "DEFINES");
    assert_eq!(open["incoming"][0]["node"], "file:src/server.ts");

    let export = codegraph(&["export", root, "--db", &r.db], &r.root);
    assert!(export.status.success());
    let text = String::from_utf8(export.stdout).unwrap();
    // Hashes depend only on content, so the whole export is a stable golden.
    expect![[r###"
        {"doc":null,"end_line":1,"exported":false,"file":".gitignore","hash":"849ddff3b7ec917b5f4563e9a6d3ea63ea512a70","id":"file:.gitignore","kind":"file","language":null,"lines":1,"name":".gitignore","parent":null,"qualified_name":".gitignore","signature":null,"size":6,"start_line":1,"type":"node"}
        {"doc":null,"end_line":6,"exported":false,"file":"README.md","hash":"70eada923d6da68ecc2ed3861eb079c1869730d0","id":"file:README.md","kind":"file","language":"markdown","lines":6,"name":"README.md","parent":null,"qualified_name":"README.md","signature":null,"size":33,"start_line":1,"type":"node"}
        {"doc":null,"end_line":1,"exported":false,"file":"notes.txt","hash":"a52e2823ab22876462faf960368fd3e369817c24","id":"file:notes.txt","kind":"file","language":null,"lines":1,"name":"notes.txt","parent":null,"qualified_name":"notes.txt","signature":null,"size":11,"start_line":1,"type":"node"}
        {"doc":null,"end_line":6,"exported":false,"file":"pkg/store/ops.go","hash":"193525970235cb13e2f66890f1274e1e7fcc3b90","id":"file:pkg/store/ops.go","kind":"file","language":"go","lines":6,"name":"ops.go","parent":"pkg:go:pkg/store","qualified_name":"pkg/store/ops.go","signature":null,"size":109,"start_line":1,"type":"node"}
        {"doc":null,"end_line":6,"exported":false,"file":"pkg/store/store.go","hash":"bc3f3d903b95014a14ddd2a22c1b2c360847a84f","id":"file:pkg/store/store.go","kind":"file","language":"go","lines":6,"name":"store.go","parent":"pkg:go:pkg/store","qualified_name":"pkg/store/store.go","signature":null,"size":76,"start_line":1,"type":"node"}
        {"doc":null,"end_line":9,"exported":false,"file":"src/server.ts","hash":"55243aab157069dbc99ee3c6449fc53e7401ebe5","id":"file:src/server.ts","kind":"file","language":"typescript","lines":9,"name":"server.ts","parent":null,"qualified_name":"src/server.ts","signature":null,"size":139,"start_line":1,"type":"node"}
        {"doc":null,"end_line":3,"exported":false,"file":"src/util.ts","hash":"71050f559311b3e39bb37491b1ff8018910f6214","id":"file:src/util.ts","kind":"file","language":"typescript","lines":3,"name":"util.ts","parent":null,"qualified_name":"src/util.ts","signature":null,"size":57,"start_line":1,"type":"node"}
        {"doc":null,"end_line":null,"exported":true,"file":null,"hash":null,"id":"pkg:go:pkg/store","kind":"package","language":"go","lines":null,"name":"store","parent":null,"qualified_name":"pkg/store","signature":null,"size":null,"start_line":null,"type":"node"}
        {"doc":"Add appends an item.","end_line":6,"exported":true,"file":"pkg/store/ops.go","hash":null,"id":"sym:go:pkg/store/ops.go:Store.Add","kind":"method","language":"go","lines":null,"name":"Add","parent":"file:pkg/store/ops.go","qualified_name":"Store.Add","signature":"func (s *Store) Add(item string)","size":null,"start_line":4,"type":"node"}
        {"doc":"Store keeps things.","end_line":6,"exported":true,"file":"pkg/store/store.go","hash":null,"id":"sym:go:pkg/store/store.go:Store","kind":"struct","language":"go","lines":null,"name":"Store","parent":"file:pkg/store/store.go","qualified_name":"Store","signature":"type Store struct","size":null,"start_line":4,"type":"node"}
        {"doc":null,"end_line":5,"exported":false,"file":"pkg/store/store.go","hash":null,"id":"sym:go:pkg/store/store.go:Store.items","kind":"property","language":"go","lines":null,"name":"items","parent":"sym:go:pkg/store/store.go:Store","qualified_name":"Store.items","signature":"items []string","size":null,"start_line":5,"type":"node"}
        {"doc":null,"end_line":6,"exported":true,"file":"README.md","hash":null,"id":"sym:md:README.md:Demo","kind":"section","language":"markdown","lines":null,"name":"Demo","parent":"file:README.md","qualified_name":"Demo","signature":"# Demo","size":null,"start_line":1,"type":"node"}
        {"doc":null,"end_line":6,"exported":true,"file":"README.md","hash":null,"id":"sym:md:README.md:Demo.Usage","kind":"section","language":"markdown","lines":null,"name":"Usage","parent":"sym:md:README.md:Demo","qualified_name":"Demo.Usage","signature":"## Usage","size":null,"start_line":5,"type":"node"}
        {"doc":"Serves requests.","end_line":9,"exported":true,"file":"src/server.ts","hash":null,"id":"sym:ts:src/server.ts:Server","kind":"class","language":"typescript","lines":null,"name":"Server","parent":"file:src/server.ts","qualified_name":"Server","signature":"class Server","size":null,"start_line":4,"type":"node"}
        {"doc":null,"end_line":5,"exported":true,"file":"src/server.ts","hash":null,"id":"sym:ts:src/server.ts:Server.port","kind":"property","language":"typescript","lines":null,"name":"port","parent":"sym:ts:src/server.ts:Server","qualified_name":"Server.port","signature":"port: number = 0","size":null,"start_line":5,"type":"node"}
        {"doc":null,"end_line":8,"exported":true,"file":"src/server.ts","hash":null,"id":"sym:ts:src/server.ts:Server.start","kind":"method","language":"typescript","lines":null,"name":"start","parent":"sym:ts:src/server.ts:Server","qualified_name":"Server.start","signature":"start(): void","size":null,"start_line":6,"type":"node"}
        {"doc":null,"end_line":3,"exported":true,"file":"src/util.ts","hash":null,"id":"sym:ts:src/util.ts:log","kind":"function","language":"typescript","lines":null,"name":"log","parent":"file:src/util.ts","qualified_name":"log","signature":"function log(msg: string)","size":null,"start_line":1,"type":"node"}
        {"dst":"sym:md:README.md:Demo","kind":"CONTAINS","line":null,"reason":"structural","src":"file:README.md","type":"edge","weight":1.0}
        {"dst":"sym:md:README.md:Demo","kind":"DEFINES","line":null,"reason":"structural","src":"file:README.md","type":"edge","weight":1.0}
        {"dst":"sym:md:README.md:Demo.Usage","kind":"DEFINES","line":null,"reason":"structural","src":"file:README.md","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/ops.go:Store.Add","kind":"CONTAINS","line":null,"reason":"structural","src":"file:pkg/store/ops.go","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/ops.go:Store.Add","kind":"DEFINES","line":null,"reason":"structural","src":"file:pkg/store/ops.go","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/store.go:Store","kind":"CONTAINS","line":null,"reason":"structural","src":"file:pkg/store/store.go","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/store.go:Store","kind":"DEFINES","line":null,"reason":"structural","src":"file:pkg/store/store.go","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/store.go:Store.items","kind":"DEFINES","line":null,"reason":"structural","src":"file:pkg/store/store.go","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server","kind":"CONTAINS","line":null,"reason":"structural","src":"file:src/server.ts","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server","kind":"DEFINES","line":null,"reason":"structural","src":"file:src/server.ts","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server.port","kind":"DEFINES","line":null,"reason":"structural","src":"file:src/server.ts","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server.start","kind":"DEFINES","line":null,"reason":"structural","src":"file:src/server.ts","type":"edge","weight":1.0}
        {"dst":"file:src/util.ts","kind":"IMPORTS","line":1,"reason":"import-resolved","src":"file:src/server.ts","type":"edge","weight":0.95}
        {"dst":"sym:ts:src/util.ts:log","kind":"IMPORTS","line":1,"reason":"import-resolved","src":"file:src/server.ts","type":"edge","weight":0.95}
        {"dst":"sym:ts:src/util.ts:log","kind":"CONTAINS","line":null,"reason":"structural","src":"file:src/util.ts","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/util.ts:log","kind":"DEFINES","line":null,"reason":"structural","src":"file:src/util.ts","type":"edge","weight":1.0}
        {"dst":"file:pkg/store/ops.go","kind":"CONTAINS","line":null,"reason":"structural","src":"pkg:go:pkg/store","type":"edge","weight":1.0}
        {"dst":"file:pkg/store/store.go","kind":"CONTAINS","line":null,"reason":"structural","src":"pkg:go:pkg/store","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/store.go:Store.items","kind":"ACCESSES","line":5,"reason":"typed-receiver","src":"sym:go:pkg/store/ops.go:Store.Add","type":"edge","weight":0.85}
        {"dst":"sym:go:pkg/store/ops.go:Store.Add","kind":"HAS_METHOD","line":null,"reason":"same-package","src":"sym:go:pkg/store/store.go:Store","type":"edge","weight":1.0}
        {"dst":"sym:go:pkg/store/store.go:Store.items","kind":"HAS_PROPERTY","line":null,"reason":"structural","src":"sym:go:pkg/store/store.go:Store","type":"edge","weight":1.0}
        {"dst":"sym:md:README.md:Demo.Usage","kind":"CONTAINS","line":null,"reason":"structural","src":"sym:md:README.md:Demo","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server.start","kind":"HAS_METHOD","line":null,"reason":"structural","src":"sym:ts:src/server.ts:Server","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/server.ts:Server.port","kind":"HAS_PROPERTY","line":null,"reason":"structural","src":"sym:ts:src/server.ts:Server","type":"edge","weight":1.0}
        {"dst":"sym:ts:src/util.ts:log","kind":"CALLS","line":7,"reason":"import-resolved","src":"sym:ts:src/server.ts:Server.start","type":"edge","weight":0.95}
    "###]].assert_eq(&text);

    // Determinism: rebuilding the same tree from scratch gives the same rows.
    let full = ok_json(&codegraph(&["index", root, "--db", &r.db, "--json", "--full"], &r.root));
    assert_eq!((full["mode"].as_str(), full["revision"].as_i64()), (Some("full"), Some(2)));
    let again = codegraph(&["export", root, "--db", &r.db], &r.root);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    // Nothing changed: an update publishes nothing.
    let same = ok_json(&codegraph(&["index", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!((same["mode"].as_str(), same["revision"].as_i64()), (Some("unchanged"), Some(2)));

    // An edit makes the index stale, and says what changed; every answer carries it.
    std::fs::write(r.root.join("src/util.ts"), "export function log() {}\n").unwrap();
    std::fs::write(r.root.join("src/new.ts"), "export const n = 1;\n").unwrap();
    let st = ok_json(&codegraph(&["status", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!(st["stale"], true, "{st}");
    assert_eq!(st["revision"], 2);
    assert_eq!(st["changed"]["modified"], serde_json::json!(["src/util.ts"]), "{st}");
    assert_eq!(st["changed"]["added"], serde_json::json!(["src/new.ts"]), "{st}");
    let hits =
        ok_json(&codegraph(&["search", "log", "--root", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!((hits["revision"].as_i64(), hits["stale"].as_bool()), (Some(2), Some(true)));
    let upd = ok_json(&codegraph(&["index", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!(
        (upd["mode"].as_str(), upd["changed_files"].as_u64()),
        (Some("incremental"), Some(2))
    );
    let st = ok_json(&codegraph(&["status", root, "--db", &r.db, "--json"], &r.root));
    assert_eq!((st["revision"].as_i64(), st["stale"].as_bool()), (Some(3), Some(false)), "{st}");
}

#[test]
fn errors_are_specific() {
    let r = repo();
    let root = r.root.to_str().unwrap();
    let out = codegraph(&["status", root, "--db", &r.db], &r.root);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no index for") && err.contains("codegraph index"), "{err}");

    ok_json(&codegraph(&["index", root, "--db", &r.db, "--json"], &r.root));
    let out = codegraph(
        &["open", "sym:ts:src/server.ts:Server.stop", "--root", root, "--db", &r.db],
        &r.root,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown ID `sym:ts:src/server.ts:Server.stop`"), "{err}");
    assert!(err.contains("did you mean: sym:ts:src/server.ts:Server"), "{err}");

    let out = codegraph(&["index", "/definitely/not/here", "--db", &r.db], &r.root);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read root /definitely/not/here"), "{err}");

    let out =
        codegraph(&["search", "x", "--kind", "widget", "--root", root, "--db", &r.db], &r.root);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown kind `widget`"));
}

/// Every CLI query appends one line to the events log in the cache directory (operation,
/// surface, revision, answer size, whether lists were cut); `events --tail` reads it;
/// `CODEGRAPH_EVENTS=off` writes nothing; commands that are not queries are not logged.
#[test]
fn queries_are_logged_as_events() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    let root = base.join("repo");
    std::fs::create_dir_all(&root).expect("mkdir");
    codegraph_tests::write_fixture(
        &root,
        "//- /src/a.ts\nexport function greet() { return 1; }\nexport function main() { return greet(); }\n",
    );
    let cache = base.join("cache");
    let run = |args: &[&str], events: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_codegraph"))
            .args(args)
            .current_dir(&root)
            .env("CODEGRAPH_CACHE_DIR", &cache)
            .env("CODEGRAPH_EVENTS", events)
            .output()
            .expect("run codegraph")
    };
    codegraph_tests::cli::assert_ok(&run(&["index", "."], "on"));
    codegraph_tests::cli::assert_ok(&run(&["search", "greet", "--json"], "on"));
    codegraph_tests::cli::assert_ok(&run(&["impact", "greet"], "on"));
    codegraph_tests::cli::assert_ok(&run(&["context", "greet", "--json"], "off"));
    let out = run(&["events", "--tail", "10", "--json"], "on");
    codegraph_tests::cli::assert_ok(&out);
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON event"))
        .collect();
    let ops: Vec<&str> = events.iter().filter_map(|e| e["operation"].as_str()).collect();
    assert_eq!(ops, ["search", "impact"], "{events:?}");
    let search = &events[0];
    assert_eq!(search["surface"], "cli");
    assert_eq!(search["revision"], 1);
    assert_eq!(search["stale"], false);
    assert_eq!(search["truncated"], false);
    assert_eq!(search["arguments"], serde_json::json!(["greet", "--json"]));
    assert!(search["chars"].as_u64().is_some_and(|c| c > 50), "{search}");
    assert!(search["duration_ms"].is_number());
    // The text answer of impact is measured too, with the root and revision it read.
    assert!(events[1]["chars"].as_u64().is_some_and(|c| c > 20), "{}", events[1]);
    assert_eq!(events[1]["revision"], 1, "{}", events[1]);
    assert_eq!(events[0]["root"], root.display().to_string(), "{}", events[0]);
    assert_eq!(events[1]["root"], root.display().to_string(), "{}", events[1]);
    // A text answer is measured too, with its revision.
    codegraph_tests::cli::assert_ok(&run(&["search", "greet"], "on"));
    let out = run(&["events", "--tail", "1", "--json"], "on");
    let last: Value = serde_json::from_slice(&out.stdout).expect("one JSON event");
    assert_eq!((last["operation"].as_str(), last["revision"].as_i64()), (Some("search"), Some(1)));
    assert!(last["chars"].as_u64().is_some_and(|c| c > 20), "{last}");
    let human = run(&["events", "--tail", "2"], "on");
    codegraph_tests::cli::assert_ok(&human);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.lines().count() == 2 && text.contains(" cli  search "), "{text}");
    // Times are UTC dates, not raw epoch milliseconds.
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.len() > 24 && first.as_bytes()[10] == b'T' && first[..24].ends_with('Z'),
        "{text}"
    );
}
