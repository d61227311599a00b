//! The CLI as a person uses it (issue 24): the root found from a subdirectory like git finds
//! its repository, roots given positionally or with `--root`, a closed pipe ending a command
//! quietly, rendered formats that are documents of their own (a Mermaid file that parses),
//! every file accounted for in the index summary, and the conveniences (`version`,
//! `languages`, `completions`, `man`).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const FIXTURE: &str = r#"
//- /src/server.ts
import { log } from "./util";

export class Server {
  start(): void {
    log("start");
    log("again");
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

func (s *Store) Add(item string) {
	s.items = append(s.items, item)
}
//- /pkg/store/broken.go
package store

func (
//- /notes.txt
plain text
//- /Makefile
all:
"#;

struct Env {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

fn env() -> Env {
    let (dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);
    Env { _dir: dir, cache: base.join("cache"), root }
}

impl Env {
    fn cmd(&self, args: &[&str], cwd: &Path) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_codegraph"));
        c.args(args)
            .current_dir(cwd)
            .env("CODEGRAPH_CACHE_DIR", &self.cache)
            .env("CODEGRAPH_EVENTS", "off")
            .env_remove("CODEGRAPH_LOG");
        c
    }

    fn run(&self, args: &[&str], cwd: &Path) -> Output {
        self.cmd(args, cwd).output().expect("run codegraph")
    }

    fn ok(&self, args: &[&str], cwd: &Path) -> String {
        let out = self.run(args, cwd);
        codegraph_tests::cli::assert_ok(&out);
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    fn json(&self, args: &[&str], cwd: &Path) -> Value {
        serde_json::from_str(&self.ok(args, cwd)).expect("JSON output")
    }
}

#[test]
fn the_root_is_found_from_a_subdirectory_and_named_either_way() {
    let e = env();
    let sub = e.root.join("pkg/store");
    // Without an index anywhere, `index` from a subdirectory indexes the git worktree.
    let idx = e.json(&["index", "--json"], &sub);
    assert_eq!(idx["root"], e.root.to_str().unwrap(), "{idx}");
    // Queries from a subdirectory use the nearest indexed directory above.
    let hits = e.json(&["search", "Store", "--json"], &sub);
    assert_eq!(hits["hits"][0]["id"], "sym:go:pkg/store/store.go:Store", "{hits}");
    let st = e.json(&["status", "--json"], &sub);
    assert_eq!(st["root"], e.root.to_str().unwrap());
    // A subdirectory named explicitly finds the same index.
    let st = e.json(&["status", "pkg/store", "--json"], &e.root);
    assert_eq!(st["root"], e.root.to_str().unwrap());

    // Both forms, on every command: positional ROOT and --root.
    let other = e.root.parent().unwrap();
    let root = e.root.to_str().unwrap();
    let a = e.json(&["search", "Server", root, "--json"], other);
    let b = e.json(&["search", "Server", "--root", root, "--json"], other);
    assert_eq!(a["hits"], b["hits"]);
    assert_eq!(a["hits"][0]["id"], "sym:ts:src/server.ts:Server");
    let c = e.json(&["context", "Server.start", root, "--json"], other);
    assert_eq!(c["symbol"]["id"], "sym:ts:src/server.ts:Server.start", "{c}");
    let again = e.json(&["index", "--root", root, "--json"], other);
    assert_eq!(again["mode"], "unchanged", "{again}");
    let st = e.json(&["status", "--root", root, "--json"], other);
    assert_eq!(st["revision"], 1);
    // Two different roots is an error that says so.
    let out = e.run(&["search", "Server", root, "--root", "/tmp"], other);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("two roots given"), "{err}");

    // Outside any repository or index: the error names the directory and the fix.
    let lone = other.join("lone");
    std::fs::create_dir_all(&lone).unwrap();
    let out = e.run(&["search", "x"], &lone);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no index for") && err.contains("codegraph index"), "{err}");
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let e = env();
    // Enough output that the writer is still writing when the reader goes away.
    let many: String = (0..3000)
        .map(|i| format!("export function f{i}(a: number) {{ return f{}(a); }}\n", (i + 1) % 3000))
        .collect();
    std::fs::write(e.root.join("src/many.ts"), many).unwrap();
    e.ok(&["index"], &e.root);
    for args in [&["export"][..], &["search", "f", "--limit", "3000"][..]] {
        let mut child =
            e.cmd(args, &e.root).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        // The reader is dropped here, like `| head -1`.
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// A small checker of the Mermaid flowchart subset we write: a `flowchart` header, then
/// `%%` comments, node declarations `ID["label"]`, links `A -->|label| B`, `A -.->|label| B`,
/// `A -.- B`, `classDef` and `class` lines; links name declared nodes only; labels hold no
/// raw quotes. Returns the links as (source, arrow, label, target).
fn check_mermaid(text: &str) -> Vec<(String, String, String, String)> {
    let mut lines = text.lines();
    let header = lines.next().expect("a header line");
    assert!(
        ["flowchart LR", "flowchart TD", "flowchart TB"].contains(&header),
        "not a flowchart header: {header:?}\n{text}"
    );
    let mut declared = std::collections::HashSet::new();
    let mut links = Vec::new();
    let is_id = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    for line in lines {
        let l = line.trim();
        if l.is_empty() || l.starts_with("%%") || l.starts_with("classDef ") {
            continue;
        }
        if let Some(rest) = l.strip_prefix("class ") {
            for id in rest.split_whitespace().next().unwrap_or("").split(',') {
                assert!(declared.contains(id), "class names an undeclared node: {l}");
            }
            continue;
        }
        if let Some((id, label)) = l.split_once("[\"") {
            assert!(is_id(id), "bad node ID in {l}");
            let label = label.strip_suffix("\"]").unwrap_or_else(|| panic!("unclosed node: {l}"));
            assert!(!label.contains('"'), "raw quote in a label: {l}");
            declared.insert(id.to_string());
            continue;
        }
        let parts: Vec<&str> = l.split_whitespace().collect();
        let (src, arrow, label, dst) = match parts.as_slice() {
            [s, "-.-", d] => (*s, "-.-", "", *d),
            [s, a, d] => {
                let (arrow, label) = a.split_once('|').unwrap_or_else(|| panic!("bad link {l}"));
                let label = label.strip_suffix('|').unwrap_or_else(|| panic!("bad label {l}"));
                (*s, arrow, label, *d)
            }
            [s, a, rest @ .., d] => {
                // A label with spaces: `A -->|CALLS x2| B`.
                let joined = format!("{a} {}", rest.join(" "));
                let (arrow, label) = joined.split_once('|').unwrap_or_else(|| panic!("bad {l}"));
                let label = label.strip_suffix('|').unwrap_or_else(|| panic!("bad {l}"));
                links.push((s.to_string(), arrow.to_string(), label.to_string(), d.to_string()));
                assert!(declared.contains(*s) && declared.contains(*d), "undeclared in {l}");
                continue;
            }
            _ => panic!("not a Mermaid line we write: {l:?}\n{text}"),
        };
        assert!(["-->", "-.->", "-.-"].contains(&arrow), "bad arrow in {l}");
        assert!(declared.contains(src) && declared.contains(dst), "undeclared node in {l}");
        links.push((src.to_string(), arrow.to_string(), label.to_string(), dst.to_string()));
    }
    links
}

#[test]
fn mermaid_output_is_a_mermaid_document_with_one_link_per_pair() {
    let e = env();
    e.ok(&["index"], &e.root);
    let text = e.ok(&["dag-grep", "start", "--render", "mermaid", "--no-anchors"], &e.root);
    assert!(text.starts_with("flowchart LR\n"), "{text}");
    assert!(text.contains("%% dag_grep `start` (out), revision 1"), "{text}");
    let links = check_mermaid(&text);
    // Server.start calls log twice (two call sites): one link, labelled with the count.
    let calls: Vec<_> = links.iter().filter(|l| l.2.starts_with("CALLS")).collect();
    assert_eq!(calls.len(), 1, "{text}");
    assert_eq!(calls[0].2, "CALLS x2", "{text}");
    // The checker rejects what is not Mermaid.
    let bad = std::panic::catch_unwind(|| check_mermaid("revision 1\nflowchart LR\n"));
    assert!(bad.is_err());
}

#[test]
fn the_index_summary_accounts_for_every_file() {
    let e = env();
    let text = e.ok(&["index"], &e.root);
    assert!(text.contains("  files    6 ("), "{text}");
    assert!(
        text.contains("parsed 4 (go 2, typescript 2), text only 2 ((no extension) 1, .txt 1)"),
        "{text}"
    );
    assert!(text.contains("syntax errors in 1 file(s): pkg/store/broken.go"), "{text}");
    let st = e.json(&["status", "--json"], &e.root);
    assert_eq!(
        st["files_accounting"],
        serde_json::json!({
            "parsed_by_language": {"go": 2, "typescript": 2},
            "text_only_by_extension": {"(no extension)": 1, ".txt": 1},
            "syntax_error_files": ["pkg/store/broken.go"],
        }),
        "{st}"
    );
}

#[test]
fn version_languages_completions_and_man() {
    let e = env();
    let v = e.json(&["version", "--json"], &e.root);
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["indexer_version"].as_str().is_some_and(|s| s.contains("+facts")), "{v}");
    assert_eq!(v["cache_dir"], e.cache.to_str().unwrap());
    let l = e.json(&["languages", "--json"], &e.root);
    let go = l["languages"].as_array().unwrap().iter().find(|x| x["language"] == "go").unwrap();
    assert_eq!(go["extensions"], serde_json::json!(["go"]));
    assert!(go["extracts"].as_array().unwrap().contains(&Value::from("calls")), "{l}");
    let text = e.ok(&["languages"], &e.root);
    assert!(text.lines().any(|l| l.starts_with("typescript") && l.contains(".ts .mts .cts")));
    for shell in ["bash", "zsh", "fish"] {
        let script = e.ok(&["completions", shell], &e.root);
        assert!(script.contains("dag-grep"), "{shell}");
    }
    let man = e.ok(&["man"], &e.root);
    assert!(man.starts_with(".ie") || man.contains(".TH codegraph"), "{}", &man[..200]);
    assert!(man.contains(".SH \"DAG-GREP\""), "one section per command");
}

#[test]
fn logs_have_no_colour_off_a_terminal_and_info_is_short() {
    let e = env();
    let out = e.cmd(&["index"], &e.root).env("CODEGRAPH_LOG", "info").output().unwrap();
    codegraph_tests::cli::assert_ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{1b}'), "ANSI escapes in a log written to a pipe: {err}");
    // salsa's per-query spans stay at trace: a whole index logs a handful of lines at info.
    assert!(err.lines().count() < 10, "{err}");
}

#[test]
fn cache_list_rm_and_gc() {
    let e = env();
    e.ok(&["index"], &e.root);
    // A second root, indexed and then deleted: gc collects it, and only it.
    let gone = e.root.parent().unwrap().join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    std::fs::write(gone.join("a.go"), "package a\n").unwrap();
    e.ok(&["index", gone.to_str().unwrap()], &e.root);
    std::fs::remove_dir_all(&gone).unwrap();
    let list = e.json(&["cache", "list", "--json"], &e.root);
    let roots: Vec<&str> =
        list["indexes"].as_array().unwrap().iter().filter_map(|i| i["root"].as_str()).collect();
    assert_eq!(roots, [gone.to_str().unwrap(), e.root.to_str().unwrap()], "{list}");
    assert_eq!(list["indexes"][0]["collectable"], format!("{} is gone", gone.display()));
    assert_eq!(list["indexes"][1]["collectable"], Value::Null);
    let dry = e.json(&["cache", "gc", "--dry-run", "--json"], &e.root);
    assert_eq!(dry["removed"].as_array().unwrap().len(), 1, "{dry}");
    assert_eq!(
        e.json(&["cache", "list", "--json"], &e.root)["indexes"].as_array().unwrap().len(),
        2
    );
    let gc = e.json(&["cache", "gc", "--json"], &e.root);
    assert_eq!(gc["removed"][0]["root"], gone.to_str().unwrap(), "{gc}");
    let list = e.json(&["cache", "list", "--json"], &e.root);
    assert_eq!(list["indexes"].as_array().unwrap().len(), 1, "{list}");
    // rm by root; then queries say there is no index.
    let text = e.ok(&["cache", "rm", e.root.to_str().unwrap()], &e.root);
    assert!(text.starts_with(&format!("removed the index of {}", e.root.display())), "{text}");
    assert!(!e.run(&["search", "Store"], &e.root).status.success());
    let out = e.run(&["cache", "rm", "/no/such/root"], &e.root);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no cached index for /no/such/root"));
}

#[test]
fn one_exit_rule_revisions_as_git_reads_them_and_one_limit_vocabulary() {
    let e = env();
    e.ok(&["index"], &e.root);
    // A target that names nothing exits 1, whatever the command.
    for args in [
        &["context", "NoSuchThing"][..],
        &["route-impact", "GET /nowhere"][..],
        &["tool-context", "nothing"][..],
    ] {
        let out = e.run(args, &e.root);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
    let out = e.run(&["route-impact", "GET /nowhere"], &e.root);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no route matches `GET /nowhere`"));
    // An abbreviated commit ID, as git accepts it.
    let head = Command::new("git")
        .args(["rev-parse", "--short=7", "HEAD"])
        .current_dir(&e.root)
        .output()
        .unwrap();
    let short = String::from_utf8(head.stdout).unwrap().trim().to_string();
    std::fs::write(
        e.root.join("src/util.ts"),
        "export function log(m: string) {\n  return m;\n}\n",
    )
    .unwrap();
    let d = e.json(&["diff-impact", "--base", &short, "--json"], &e.root);
    assert_eq!(d["changed_files"][0]["path"], "src/util.ts", "{d}");
    let out = e.run(&["diff-impact", "--base", "nosuchref"], &e.root);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown revision `nosuchref`"));
    // The same names for sizes: --max-nodes (alias --budget), --seeds (alias --k), --limit.
    let a = e.json(&["expand", "Server", "--max-nodes", "2", "--json"], &e.root);
    let b = e.json(&["expand", "Server", "--budget", "2", "--json"], &e.root);
    assert_eq!(a["nodes"], b["nodes"]);
    let a = e.json(&["dag-grep", "start", "--seeds", "1", "--json"], &e.root);
    let b = e.json(&["dag-grep", "start", "--k", "1", "--json"], &e.root);
    assert_eq!((a["seeds"].as_array().map(Vec::len), &a["nodes"]), (Some(1), &b["nodes"]));
    // --limit 0 is "as many as allowed", not one.
    let all = e.json(&["search", "store", "--limit", "0", "--json"], &e.root);
    let one = e.json(&["search", "store", "--limit", "1", "--json"], &e.root);
    assert!(all["hits"].as_array().unwrap().len() > one["hits"].as_array().unwrap().len(), "{all}");
}

#[test]
fn computing_flows_is_said_not_silent() {
    let e = env();
    e.ok(&["index"], &e.root);
    let out = e.run(&["context", "Server.start"], &e.root);
    codegraph_tests::cli::assert_ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("computing the execution flows and clusters of revision 1"), "{err}");
    // Once per revision.
    let out = e.run(&["context", "Server.start"], &e.root);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn names_people_type() {
    let e = env();
    e.ok(&["index"], &e.root);
    let id = |args: &[&str]| e.json(args, &e.root)["symbol"]["id"].as_str().map(str::to_string);
    // Package-qualified (Go), module-qualified (TS), and path:line (the innermost symbol).
    assert_eq!(
        id(&["context", "store.Store", "--json"]).as_deref(),
        Some("sym:go:pkg/store/store.go:Store")
    );
    assert_eq!(
        id(&["context", "store.Store.Add", "--json"]).as_deref(),
        Some("sym:go:pkg/store/store.go:Store.Add")
    );
    assert_eq!(id(&["context", "util.log", "--json"]).as_deref(), Some("sym:ts:src/util.ts:log"));
    assert_eq!(
        id(&["context", "pkg/store/store.go:9", "--json"]).as_deref(),
        Some("sym:go:pkg/store/store.go:Store.Add")
    );
    assert_eq!(
        id(&["context", "server.ts:5", "--json"]).as_deref(),
        Some("sym:ts:src/server.ts:Server.start")
    );
    // A typo suggests the name by edit distance; a --file that matches nothing says so.
    let out = e.run(&["context", "Stroe"], &e.root);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sym:go:pkg/store/store.go:Store"), "{err}");
    let out = e.run(&["context", "log", "--file", "nosuch.ts"], &e.root);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no indexed file path contains `nosuch.ts`"), "{err}");
    // trace, flows and clusters narrow names like the other commands.
    let t = e.json(&["trace", "start", "log", "--to-file", "util", "--json"], &e.root);
    assert_eq!(t["paths"].as_array().map(Vec::len), Some(1), "{t}");
    let out = e.run(&["trace", "start", "log", "--to-file", "nosuch.ts"], &e.root);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no indexed file path contains `nosuch.ts`")
    );
    for cmd in ["flows", "clusters"] {
        let out = e.run(&[cmd, "log", "--file", "nosuch.ts"], &e.root);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no indexed file path contains `nosuch.ts`"), "{cmd}: {err}");
        e.ok(&[cmd, "log", "--kind", "function"], &e.root);
    }
    // Callers print where to jump: path:line first.
    let text = e.ok(&["context", "log"], &e.root);
    assert!(
        text.contains(
            "\n  src/server.ts:5  sym:ts:src/server.ts:Server.start (method) line 5, 6 ["
        ),
        "{text}"
    );
}

#[test]
fn open_takes_names_too() {
    let e = env();
    e.ok(&["index"], &e.root);
    let by_id = e.json(&["open", "sym:ts:src/server.ts:Server.start", "--json"], &e.root);
    let by_name = e.json(&["open", "Server.start", "--json"], &e.root);
    let by_line = e.json(&["open", "src/server.ts:5", "--json"], &e.root);
    assert_eq!(by_id["id"], "sym:ts:src/server.ts:Server.start", "{by_id}");
    assert_eq!(by_name, by_id);
    assert_eq!(by_line, by_id);
    let out = e.run(&["open", "Servr.start"], &e.root);
    assert_eq!(out.status.code(), Some(1));
}

/// Impact lists the tests that exercise a change apart from what depends on it: a test
/// calling the target (depth 0) or a caller of it (that caller's depth), by TESTS edges.
#[test]
fn impact_lists_the_tests_that_exercise_the_change() {
    let (dir, base, root) = codegraph_tests::cli::git_fixture(
        r#"
//- /go.mod
module example.com/m
//- /calc.go
package m

func Add(a, b int) int { return a + b }

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s = Add(s, x)
	}
	return s
}
//- /calc_test.go
package m

import "testing"

func TestAdd(t *testing.T) { Add(1, 2) }

func TestSum(t *testing.T) { Sum(nil) }
"#,
    );
    let e = Env { _dir: dir, cache: base.join("cache"), root };
    e.ok(&["index"], &e.root);
    let text = e.ok(&["impact", "Add"], &e.root);
    assert!(
        text.contains(
            "tests that exercise it (2):\n  calc_test.go:5  sym:go:calc_test.go:TestAdd tests sym:go:calc.go:Add (depth 0)\n  calc_test.go:7  sym:go:calc_test.go:TestSum tests sym:go:calc.go:Sum (depth 1)\n"
        ),
        "{text}"
    );
    // The tests are not dependents: Sum is the only node reached.
    assert!(text.contains("depth 1:\n  calc.go:8  sym:go:calc.go:Sum (function)"), "{text}");
    let j = e.json(&["impact", "Add", "--json"], &e.root);
    assert_eq!(j["tests_total"], 2, "{j}");
    assert_eq!(j["tests"][0]["id"], "sym:go:calc_test.go:TestAdd");
    assert_eq!((j["tests"][0]["depth"].as_u64(), j["tests"][0].get("via")), (Some(0), None));
    assert_eq!(j["tests"][1]["via"], "sym:go:calc.go:Sum", "{j}");
    assert_eq!(j["summary"]["reached"], 1, "{j}");
    // Context says which tests exercise a symbol, and what a test exercises.
    let c = e.ok(&["context", "Add"], &e.root);
    assert!(
        c.contains("tests:\n  <- TESTS        sym:go:calc_test.go:TestAdd (function) (line 5)"),
        "{c}"
    );
    let c = e.json(&["context", "calc.go", "--json"], &e.root);
    assert_eq!(c["tests"][0]["id"], "file:calc_test.go", "{c}");
}

/// Go build constraints are read for the platform `go build` would pick: `$GOOS`/`$GOARCH`,
/// else the host (linux/amd64 on CI). A call resolves into that platform's declaration.
#[test]
fn go_build_constraints_follow_goos_and_goarch() {
    let fixture = r#"
//- /go.mod
module example.com/m
//- /main.go
package m

func run() { sysOpen() }
//- /open_linux.go
package m

func sysOpen() {}
//- /open_darwin.go
package m

func sysOpen() {}
//- /open_other.go
//go:build !linux && !darwin

package m

func sysOpen() {}
"#;
    for (goos, want) in
        [("linux", "open_linux.go"), ("darwin", "open_darwin.go"), ("windows", "open_other.go")]
    {
        let (dir, base, root) = codegraph_tests::cli::git_fixture(fixture);
        let e = Env { _dir: dir, cache: base.join("cache"), root };
        let out =
            e.cmd(&["index"], &e.root).env("GOOS", goos).env("GOARCH", "arm64").output().unwrap();
        codegraph_tests::cli::assert_ok(&out);
        let c = e.json(&["context", "run", "--json"], &e.root);
        assert_eq!(c["callees"][0]["id"], format!("sym:go:{want}:sysOpen"), "{goos}: {c}");
        assert_eq!(c["callees"].as_array().map(Vec::len), Some(1), "{goos}: {c}");
    }
}

/// Co-changed files beyond the five a context shows are reached by paging, and the cut
/// gives their real total.
#[test]
fn cochange_pages_to_its_total() {
    let e = env();
    let root = e.root.clone();
    let others: Vec<String> = (0..7).map(|i| format!("src/c{i}.ts")).collect();
    for n in 0..3 {
        for f in others.iter().map(String::as_str).chain(["src/server.ts"]) {
            let p = root.join(f);
            let old = std::fs::read_to_string(&p).unwrap_or_default();
            std::fs::write(&p, format!("{old}// {n}\n")).expect("write");
        }
        codegraph_tests::cli::git(&root, &["add", "-A"]);
        codegraph_tests::cli::git(&root, &["commit", "-q", "-m", &format!("all {n}")]);
    }
    let r = root.to_str().expect("utf-8 path");
    e.json(&["--json", "index", r, "--cochange"], &root);
    let ctx = e.json(&["--json", "context", "Server.start", r], &root);
    assert_eq!(ctx["co_changed_total"], 7, "{ctx}");
    assert_eq!(ctx["co_changed"].as_array().map(Vec::len), Some(5), "{ctx}");
    let cut = ctx["cut"].as_array().expect("cut");
    let entry = cut.iter().find(|c| c["list"] == "co_changed").expect("co_changed cut");
    assert_eq!((entry["total"].as_u64(), entry["next_offset"].as_u64()), (Some(7), Some(5)));
    let rest = e.json(
        &["--json", "context", "Server.start", r, "--list", "co_changed", "--offset", "5"],
        &root,
    );
    let files: Vec<&str> = rest["co_changed"]
        .as_array()
        .expect("co_changed")
        .iter()
        .filter_map(|c| c["file"].as_str())
        .collect();
    assert_eq!(files.len(), 2, "{rest}");
    let text = e.ok(&["context", "Server.start", r], &root);
    assert!(text.contains("... 2 more (--json --list co_changed --offset 5)"), "{text}");
}

/// `index --cochange` mines the history (three commits change `src/server.ts` and
/// `src/util.ts` together), keeps the setting, and the answers show it: `context` of a
/// symbol lists its file's co-changed files, `dag-grep --include-cochange` follows them, and
/// `--no-cochange` drops them.
#[test]
fn cochange_is_mined_kept_and_shown() {
    let e = env();
    let root = e.root.clone();
    for n in 0..3 {
        for f in ["src/server.ts", "src/util.ts"] {
            let p = root.join(f);
            let old = std::fs::read_to_string(&p).expect("read");
            std::fs::write(&p, format!("{old}// {n}\n")).expect("write");
        }
        codegraph_tests::cli::git(&root, &["commit", "-q", "-am", &format!("both {n}")]);
    }
    let r = root.to_str().expect("utf-8 path");
    let index = e.json(&["--json", "index", r, "--cochange"], &root);
    assert_eq!(index["cochange"]["commits"], 4, "{index}");
    assert_eq!(index["cochange"]["edges"], 2, "{index}");
    // The setting is kept: a plain index reports the same stamp without mining again.
    let again = e.json(&["--json", "index", r], &root);
    assert_eq!(again["cochange"]["head"], index["cochange"]["head"]);
    let ctx = e.json(&["--json", "context", "Server.start", r], &root);
    // Three commits plus the first, which added both.
    assert_eq!(
        ctx["co_changed"],
        serde_json::json!([{"file": "src/util.ts", "support": 4, "confidence": 1.0}])
    );
    assert_eq!(ctx["co_changed_total"], 1);
    let status = e.json(&["--json", "status", r], &root);
    assert_eq!(status["cochange"]["commits"], 4, "{status}");
    let dag = e.ok(
        &["dag-grep", "util", r, "--node-kind", "file", "--edge", "IMPORTS", "--include-cochange"],
        &root,
    );
    assert!(dag.contains("CO_CHANGED"), "{dag}");
    let off = e.json(&["--json", "index", r, "--no-cochange"], &root);
    assert!(off["cochange"].is_null(), "{off}");
    let ctx = e.json(&["--json", "context", "Server.start", r], &root);
    assert_eq!(ctx["co_changed_total"], 0);
}
