//! The MCP server's index lifecycle, driven through the real binary over stdio with plain
//! JSON-RPC lines: a root without an index is built on first use, a call that would wait too
//! long for that build answers "building" instead, and a query on another served root is
//! answered meanwhile (a build of one root never blocks another). The build is held just
//! before its commit with the crash-test hook, so the timing is deterministic.

use codegraph_tests::cli::{assert_ok, git, run};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

impl Server {
    fn start(args: &[&str], cwd: &Path, envs: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(cwd)
            .env("CODEGRAPH_CACHE_DIR", cwd.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawn codegraph mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut s = Server { child, stdin, lines, next_id: 0 };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "lifecycle-test", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "codegraph", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, v: &Value) {
        writeln!(self.stdin, "{v}").expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).expect("no answer from the server");
            let v: Value = serde_json::from_str(&line).expect("stdout carries only JSON-RPC");
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// (is_error, text of the first content block).
    fn call(&mut self, tool: &str, args: Value) -> (bool, String) {
        let v = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let r = &v["result"];
        let text = r["content"][0]["text"].as_str().unwrap_or_default().to_string();
        (r["isError"] == json!(true), text)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn repo(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("src/a.ts"), text).expect("write");
    git(&root, &["init", "-q"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "init"]);
    root
}

#[test]
fn a_build_answers_building_and_never_blocks_another_root() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let ready = repo(&dir, "ready", "export function alpha() { return 1; }\n");
    let slow = repo(&dir, "slow", "export function beta() { return 2; }\n");
    // `ready` has an index already; `slow` has none.
    let out = Command::new(BIN)
        .args(["index", ready.to_str().expect("utf8")])
        .env("CODEGRAPH_CACHE_DIR", dir.join("cache"))
        .output()
        .expect("index");
    assert_ok(&out);

    let marker = dir.join("paused");
    let marker_s = marker.display().to_string();
    let mut server = Server::start(
        &[
            "mcp",
            "--build-wait-secs",
            "1",
            ready.to_str().expect("utf8"),
            slow.to_str().expect("utf8"),
        ],
        &dir,
        &[("CODEGRAPH_PAUSE_AT", "full-commit"), ("CODEGRAPH_PAUSE_FILE", &marker_s)],
    );
    let slow_s = slow.display().to_string();
    let ready_s = ready.display().to_string();

    // The first call on `slow` starts its build, waits its second, and says so.
    let t = Instant::now();
    let (is_error, text) = server.call("code_search", json!({"query": "beta", "root": slow_s}));
    assert!(is_error, "{text}");
    assert!(text.contains("codegraph is building the index of"), "{text}");
    assert!(t.elapsed() < Duration::from_secs(20), "waited {:?}", t.elapsed());
    assert!(marker.exists(), "the build reached its commit point");

    // Meanwhile the other root answers at once.
    let t = Instant::now();
    let (is_error, text) = server.call("code_search", json!({"query": "alpha", "root": ready_s}));
    assert!(!is_error, "{text}");
    let v: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["hits"][0]["id"], "sym:ts:src/a.ts:alpha");
    assert!(t.elapsed() < Duration::from_secs(5), "blocked for {:?}", t.elapsed());

    // index_status shows both: one ready (once its worker has re-checked the tree; the answer
    // above came from its existing index), one building without a revision.
    let deadline = Instant::now() + Duration::from_secs(30);
    let (v, phases) = loop {
        let (is_error, text) = server.call("index_status", json!({}));
        assert!(!is_error, "{text}");
        let v: Value = serde_json::from_str(&text).expect("json");
        let phases: Vec<(String, String)> = v["roots"]
            .as_array()
            .expect("roots")
            .iter()
            .map(|r| {
                let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
                (s("root"), s("phase"))
            })
            .collect();
        if phases[0].1 == "ready" || Instant::now() > deadline {
            break (v, phases);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        phases,
        [(ready_s.clone(), "ready".to_string()), (slow_s.clone(), "building".to_string())],
        "{v}"
    );
    assert_eq!(v["roots"][1]["revision"], Value::Null);
    assert_eq!(v["roots"][1]["stale"], true);
    // The held build has parsed its one file: index_status says so at once, without waiting
    // for the build (whose commit is paused) as the other tools do.
    assert_eq!(v["roots"][1]["progress"]["files_parsed"], 1, "{v}");
    assert_eq!(v["roots"][1]["progress"]["files_total"], 1, "{v}");
    assert!(
        v["roots"][1]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("building: 1 of 1 files parsed")),
        "{v}"
    );
    let t = Instant::now();
    let (is_error, text) = server.call("index_status", json!({"root": slow_s}));
    assert!(!is_error && text.contains("\"phase\":\"building\""), "{text}");
    assert!(t.elapsed() < Duration::from_millis(900), "index_status waited {:?}", t.elapsed());
    assert_eq!(v["roots"][0]["stale"], false);
    assert_eq!(v["roots"][0]["watching"], true);
}

#[test]
fn a_missing_index_is_built_on_first_use_and_stdout_is_only_protocol() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let root = repo(&dir, "r", "export function gamma() { return 3; }\n");
    let mut server = Server::start(&["mcp", root.to_str().expect("utf8")], &dir, &[]);
    let (is_error, text) = server.call("code_search", json!({"query": "gamma"}));
    assert!(!is_error, "{text}");
    let v: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["hits"][0]["id"], "sym:ts:src/a.ts:gamma");
    assert_eq!(v["revision"], 1);
    assert_eq!(v["stale"], false);
    drop(server);
    // The index the server built is the one the CLI reads.
    let out = Command::new(BIN)
        .args(["search", "gamma", "--root", root.to_str().expect("utf8"), "--json"])
        .env("CODEGRAPH_CACHE_DIR", dir.join("cache"))
        .output()
        .expect("search");
    assert_ok(&out);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["hits"][0]["id"], "sym:ts:src/a.ts:gamma");
}

#[test]
fn http_refuses_a_public_address_without_a_token() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = run(BIN, &["mcp", ".", "--http", "0.0.0.0:0"], tmp.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a loopback address") && err.contains("--allow-remote"), "{err}");
    let out = run(BIN, &["mcp", ".", "--http", "0.0.0.0:0", "--allow-remote"], tmp.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a bearer token"), "{err}");
}

/// One server serving sibling worktrees shares what their files derive in common (facts, IDs,
/// resolutions): each root must still answer exactly as a server serving it alone does, the
/// worktree whose HEAD renamed a function included.
#[test]
fn sibling_roots_in_one_server_answer_as_each_alone() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let main = dir.join("main");
    std::fs::create_dir_all(main.join("src")).expect("mkdir");
    std::fs::write(
        main.join("src/util.ts"),
        "export function helper() { return 1; }\nexport function unused() { return 2; }\n",
    )
    .expect("write");
    std::fs::write(
        main.join("src/app.ts"),
        "import { helper } from './util';\nexport function run() { return helper(); }\n",
    )
    .expect("write");
    git(&main, &["init", "-q"]);
    git(&main, &["add", "."]);
    git(&main, &["commit", "-qm", "init"]);
    let wt = dir.join("wt");
    git(&main, &["worktree", "add", "-q", "-b", "task", wt.to_str().expect("utf8"), "HEAD"]);
    std::fs::write(
        wt.join("src/app.ts"),
        "import { unused } from './util';\nexport function run() { return unused(); }\n",
    )
    .expect("write");
    git(&wt, &["commit", "-qam", "call unused"]);
    let (main_s, wt_s) = (main.display().to_string(), wt.display().to_string());
    let questions = |root: &str| {
        vec![
            ("code_search", json!({"query": "run", "root": root})),
            ("symbol_context", json!({"target": "sym:ts:src/util.ts:helper", "root": root})),
            ("symbol_context", json!({"target": "sym:ts:src/util.ts:unused", "root": root})),
            ("impact_analysis", json!({"target": "sym:ts:src/util.ts:helper", "root": root})),
            ("impact_analysis", json!({"target": "sym:ts:src/util.ts:unused", "root": root})),
        ]
    };
    // Answers name the revision they read (each server may publish its own): compare the rest.
    let answers = |server: &mut Server, root: &str| -> Vec<String> {
        questions(root)
            .into_iter()
            .map(|(tool, args)| {
                let deadline = Instant::now() + Duration::from_secs(60);
                loop {
                    let (is_error, text) = server.call(tool, args.clone());
                    if !is_error {
                        let mut v: Value = serde_json::from_str(&text).unwrap_or(json!(text));
                        if let Some(o) = v.as_object_mut() {
                            o.remove("revision");
                        }
                        break v.to_string();
                    }
                    assert!(Instant::now() < deadline, "{tool} kept failing: {text}");
                    std::thread::sleep(Duration::from_millis(200));
                }
            })
            .collect()
    };
    // Answers are compared once each root is settled: ready, no pending edit, and its flows
    // and clusters computed (by a `codegraph derive-flows` child) for its current revision.
    let settle = |server: &mut Server, root: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, text) = server.call("index_status", json!({"root": root}));
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if v["phase"] == "ready"
                && v["pending_edits"] == json!(false)
                && v["flows_at"]["current"] == json!(true)
            {
                assert!(v["flows_at"]["clusters"].as_u64().is_some_and(|n| n >= 1), "{v}");
                break;
            }
            assert!(Instant::now() < deadline, "{root} did not settle: {v}");
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let mut both = Server::start(&["mcp", &main_s, &wt_s], &dir, &[]);
    settle(&mut both, &main_s);
    settle(&mut both, &wt_s);
    let (together_main, together_wt) = (answers(&mut both, &main_s), answers(&mut both, &wt_s));
    drop(both);
    let mut alone = Server::start(&["mcp", &wt_s], &dir, &[]);
    settle(&mut alone, &wt_s);
    let alone_wt = answers(&mut alone, &wt_s);
    drop(alone);
    let mut alone = Server::start(&["mcp", &main_s], &dir, &[]);
    settle(&mut alone, &main_s);
    let alone_main = answers(&mut alone, &main_s);
    assert_eq!(together_wt, alone_wt);
    assert_eq!(together_main, alone_main);
    // And the two roots' answers do differ where their code does.
    assert!(together_main[3].contains("src/app.ts"), "{}", together_main[3]);
    assert!(!together_wt[3].contains("sym:ts:src/app.ts:run"), "{}", together_wt[3]);
    assert!(together_wt[4].contains("sym:ts:src/app.ts:run"), "{}", together_wt[4]);
}

/// Malformed stdio input is answered, not met with silence (issue 25, item 7): a line that is
/// not JSON gets -32700 with a null id, a line that is not UTF-8 gets -32700 with its id when
/// the rest reads as JSON, a `tools/call` without params gets -32602; the session goes on.
#[test]
fn malformed_stdio_lines_get_json_rpc_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let root = repo(&dir, "r", "export function alpha() { return 1; }\n");
    let root_s = root.display().to_string();
    let mut server = Server::start(&["mcp", &root_s], &dir, &[]);
    let next = |server: &mut Server| -> Value {
        let line = server.lines.recv_timeout(Duration::from_secs(20)).expect("an answer");
        serde_json::from_str(&line).expect("stdout carries only JSON-RPC")
    };
    writeln!(server.stdin, "this is not json").expect("write");
    server.stdin.flush().expect("flush");
    let v = next(&mut server);
    assert_eq!(v["error"]["code"], -32700, "{v}");
    assert_eq!(v["id"], Value::Null, "{v}");

    server
        .stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"ping\",\"x\":\"\xff\"}\n")
        .expect("write");
    server.stdin.flush().expect("flush");
    let v = next(&mut server);
    assert_eq!(v["error"]["code"], -32700, "{v}");
    assert_eq!(v["id"], 41, "{v}");

    server.send(&json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call"}));
    let v = next(&mut server);
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(v["id"], 42, "{v}");
    // The session still answers.
    let (is_error, text) = server.call("code_search", json!({"query": "alpha", "root": root_s}));
    assert!(!is_error, "{text}");
    assert!(text.contains("sym:ts:src/a.ts:alpha"), "{text}");
}

/// Pipelined requests are all answered (the gate bounds how many run at once; the rest wait
/// in the pipe): 300 `symbol_context` calls written in one go, one of them cancelled.
#[test]
fn pipelined_requests_are_bounded_and_all_answered() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let root = repo(
        &dir,
        "r",
        "export function alpha() { return beta(); }\nexport function beta() { return 1; }\n",
    );
    let root_s = root.display().to_string();
    let mut server = Server::start(&["mcp", &root_s], &dir, &[]);
    // Built and answering first, so that every call below does the same work.
    let (is_error, text) = server.call("symbol_context", json!({"target": "beta", "root": root_s}));
    assert!(!is_error, "{text}");
    let mut batch = String::new();
    for id in 1000..1300 {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "symbol_context", "arguments": {"target": "beta", "root": root_s}}});
        batch.push_str(&format!("{call}\n"));
        if id == 1100 {
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 1005}});
            batch.push_str(&format!("{cancel}\n"));
        }
    }
    server.stdin.write_all(batch.as_bytes()).expect("write");
    server.stdin.flush().expect("flush");
    let mut answered = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(1000..1300).filter(|&id| id != 1005).all(|id| answered.contains(&id)) {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = server.lines.recv_timeout(left).expect("every pipelined call is answered");
        let v: Value = serde_json::from_str(&line).expect("json");
        if let Some(id) = v["id"].as_u64() {
            assert!(
                v["result"]["content"][0]["text"].as_str().unwrap_or("").contains("beta"),
                "{v}"
            );
            answered.insert(id);
        }
    }
    // (The cancelled one may or may not have been answered before its cancellation came.)
    // And the session goes on.
    let (is_error, _) = server.call("symbol_context", json!({"target": "alpha", "root": root_s}));
    assert!(!is_error);
}

/// An index deleted while `mcp` serves it is noticed and rebuilt (issue 25, item 9): calls
/// go on answering from the new file, and edits keep reaching it.
#[test]
fn an_index_deleted_while_serving_is_rebuilt() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = std::fs::canonicalize(tmp.path()).expect("canonical");
    let root = repo(&dir, "r", "export function alpha() { return 1; }\n");
    let root_s = root.display().to_string();
    let mut server = Server::start(&["mcp", &root_s], &dir, &[]);
    let (is_error, text) = server.call("code_search", json!({"query": "alpha"}));
    assert!(!is_error && text.contains("sym:ts:src/a.ts:alpha"), "{text}");
    let db = std::fs::read_dir(dir.join("cache"))
        .expect("cache dir")
        .filter_map(Result::ok)
        .map(|e| e.path().join("index.db"))
        .find(|p| p.exists())
        .expect("the root's index");
    for f in codegraph_query::database_files(&db) {
        let _ = std::fs::remove_file(f);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while !db.exists() {
        assert!(Instant::now() < deadline, "the deleted index was never rebuilt");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::write(root.join("src/b.ts"), "export function gamma() { return 2; }\n")
        .expect("write");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (is_error, text) = server.call("code_search", json!({"query": "gamma"}));
        if !is_error && text.contains("sym:ts:src/b.ts:gamma") {
            break;
        }
        assert!(Instant::now() < deadline, "an edit after the rebuild never showed: {text}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (is_error, text) = server.call("code_search", json!({"query": "alpha"}));
    assert!(!is_error && text.contains("sym:ts:src/a.ts:alpha"), "{text}");
}
