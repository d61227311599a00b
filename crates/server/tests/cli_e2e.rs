//! End-to-end runs of the `codegraph` binary on a fixture repository: index, status, search,
//! open, export, and the errors a user meets (no index, unknown ID, unreadable root).

use expect_test::expect;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

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
    Command::new(env!("CARGO_BIN_EXE_codegraph"))
        .args(args)
        .current_dir(cwd)
        .env("CODEGRAPH_CACHE_DIR", cwd.join(".cache-not-used"))
        .output()
        .expect("run codegraph")
}

fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .expect("run git");
    assert!(status.success(), "git {args:?}");
}

struct Repo {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    db: String,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    codegraph_tests::write_fixture(&root, FIXTURE);
    std::fs::write(root.join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0binary").unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "init"]);
    let db = dir.path().join("index.db").to_string_lossy().into_owned();
    Repo {
        _dir: dir,
        root,
        db,
    }
}

#[test]
fn index_status_search_open_export() {
    let r = repo();
    let root = r.root.to_str().unwrap();
    let idx = ok_json(&codegraph(
        &["index", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    assert_eq!(idx["revision"], 1);
    assert_eq!(idx["files"], 8, "{idx}");
    assert_eq!(idx["skipped"]["binary"], 1, "{idx}");

    let st = ok_json(&codegraph(
        &["status", root, "--db", &r.db, "--json"],
        &r.root,
    ));
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
        &[
            "search",
            "store add",
            "--kind",
            "method",
            "--root",
            root,
            "--db",
            &r.db,
            "--json",
        ],
        &r.root,
    ));
    assert_eq!(
        kind["hits"][0]["id"], "sym:go:pkg/store/ops.go:Store.Add",
        "{kind}"
    );

    let open = ok_json(&codegraph(
        &[
            "open",
            "sym:ts:src/server.ts:Server.start",
            "--root",
            root,
            "--db",
            &r.db,
            "--json",
        ],
        &r.root,
    ));
    assert_eq!(open["source"]["first_line"], 6);
    assert_eq!(open["source"]["lines"][1], "    log(\"start\");");
    assert_eq!(open["incoming"][0]["kind"], "DEFINES");

    let export = codegraph(&["export", root, "--db", &r.db], &r.root);
    assert!(export.status.success());
    let text = String::from_utf8(export.stdout).unwrap();
    // Hashes depend only on content, so the whole export is a stable golden.
    expect![[""]].assert_eq(&text);

    // Determinism: re-indexing the same tree gives the same rows.
    ok_json(&codegraph(
        &["index", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    let again = codegraph(&["export", root, "--db", &r.db], &r.root);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);

    // An edit makes the index stale.
    std::fs::write(r.root.join("src/util.ts"), "export function log() {}\n").unwrap();
    let st = ok_json(&codegraph(
        &["status", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    assert_eq!(st["stale"], true, "{st}");
    assert_eq!(st["revision"], 2);
}

#[test]
fn errors_are_specific() {
    let r = repo();
    let root = r.root.to_str().unwrap();
    let out = codegraph(&["status", root, "--db", &r.db], &r.root);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no index for") && err.contains("codegraph index"),
        "{err}"
    );

    ok_json(&codegraph(
        &["index", root, "--db", &r.db, "--json"],
        &r.root,
    ));
    let out = codegraph(
        &[
            "open",
            "sym:ts:src/server.ts:Server.stop",
            "--root",
            root,
            "--db",
            &r.db,
        ],
        &r.root,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown ID `sym:ts:src/server.ts:Server.stop`"),
        "{err}"
    );
    assert!(
        err.contains("did you mean: sym:ts:src/server.ts:Server"),
        "{err}"
    );

    let out = codegraph(&["index", "/definitely/not/here", "--db", &r.db], &r.root);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read root /definitely/not/here"),
        "{err}"
    );

    let out = codegraph(
        &[
            "search", "x", "--kind", "widget", "--root", root, "--db", &r.db,
        ],
        &r.root,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown kind `widget`"));
}
