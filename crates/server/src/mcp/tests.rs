//! In-process tests of the MCP server: an rmcp client talks to [`CodegraphMcp`] over an
//! in-memory duplex (and once over real HTTP), on fixture repositories written to temp dirs.
//! They pin every tool's answer on a fixture, the tool errors for bad input, several roots,
//! and that concurrent clients never see a torn revision while files are edited.

use super::roots::{RootHandle, RootOptions, RootSet};
use super::tools::CodegraphMcp;
use rmcp::model::{CallToolRequestParams, ClientConfig as ClientInfo};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

const FIXTURE: &str = r#"
//- /src/greet.ts
/** Says hello. */
export function greet(name: string): string {
  return "hi " + name;
}
export function helper() { return 1; }
//- /src/server.ts
export class Server {
  start() { return helper(); }
}
function helper() { return 2; }
//- /src/main.ts
import { greet } from "./greet";
import { Server } from "./server";
export function main() {
  const s = new Server();
  s.start();
  return greet("a");
}
"#;

const TOOLS: [&str; 13] = [
    "changed_code_impact",
    "code_grep",
    "code_search",
    "dag_grep",
    "expand",
    "impact_analysis",
    "index_status",
    "open_node",
    "rename_plan",
    "route_impact",
    "symbol_context",
    "tool_context",
    "trace",
];

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn fixture(files: &str) -> Fixture {
    let (dir, _, root) = codegraph_tests::cli::git_fixture(files);
    Fixture { _dir: dir, root }
}

fn handle(root: &Path) -> Arc<RootHandle> {
    let db = root
        .parent()
        .expect("parent")
        .join(format!("{}.db", root.file_name().expect("name").to_string_lossy()));
    let opts = RootOptions { build_wait: Duration::from_secs(60), ..RootOptions::default() };
    RootHandle::new(root.to_path_buf(), db, opts)
}

type Client = RunningService<RoleClient, ClientInfo>;

async fn connect(roots: Arc<RootSet>) -> Client {
    connect_with(roots, false).await
}

/// A client of a server that offers `graph_query` when `graph_query` is true.
async fn connect_with(roots: Arc<RootSet>, graph_query: bool) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(server) = CodegraphMcp::new(roots, graph_query).serve(server_io).await {
            let _ = server.waiting().await;
        }
    });
    ClientInfo::default().serve(client_io).await.expect("client handshake")
}

/// Calls a tool: (is_error, the answer as JSON, or as a string when it is not JSON).
async fn call<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    tool: &str,
    args: Value,
) -> (bool, Value) {
    let Value::Object(map) = args else { panic!("arguments must be an object") };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
        .await
        .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"));
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    // A successful answer is also structured content, the same JSON as the text.
    if result.is_error != Some(true) {
        assert_eq!(result.structured_content.as_ref(), Some(&value), "{tool}: structuredContent");
    }
    (result.is_error == Some(true), value)
}

async fn ok(client: &Client, tool: &str, args: Value) -> Value {
    let (is_error, v) = call(client, tool, args.clone()).await;
    assert!(!is_error, "{tool} {args}: {v}");
    assert!(v["revision"].as_i64().is_some_and(|r| r >= 1), "{tool}: revision in {v}");
    assert!(v["stale"].is_boolean(), "{tool}: stale in {v}");
    v
}

async fn err(client: &Client, tool: &str, args: Value) -> String {
    let (is_error, v) = call(client, tool, args.clone()).await;
    assert!(is_error, "{tool} {args} should fail: {v}");
    match v {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

fn ids(list: &Value, pointer: &str) -> Vec<String> {
    list.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.pointer(pointer).and_then(Value::as_str))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until index_status (which never waits itself) reports the root ready; its answer.
async fn ready<H: rmcp::ClientHandler>(client: &RunningService<RoleClient, H>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (is_error, v) = call(client, "index_status", json!({})).await;
        assert!(!is_error, "index_status: {v}");
        if v["phase"] == "ready" && v["revision"].is_i64() {
            return v;
        }
        assert!(Instant::now() < deadline, "not ready: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until index_status reports a revision above `after` and no pending edits.
async fn wait_revision(client: &Client, after: i64) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = ready(client).await;
        let r = v["revision"].as_i64().expect("revision");
        if r > after && v["stale"] == json!(false) {
            return r;
        }
        assert!(Instant::now() < deadline, "no revision after {after}: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_on_a_fixture() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;

    let tools = client.list_all_tools().await.expect("tools/list");
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, TOOLS);
    let mut every: Vec<&str> = TOOLS.iter().copied().chain(["graph_query"]).collect();
    every.sort_unstable();
    assert_eq!(CodegraphMcp::tool_names(), every, "what the fuzz target calls");
    // The whole tools/list answer stays under 10k characters (~2.5k tokens).
    let listed = serde_json::to_string(&tools).expect("json").len();
    eprintln!("tools/list: {} tools, {listed} characters", tools.len());
    assert!(listed < 10_000, "tools/list is {listed} characters");
    // Every tool is read-only (so no idempotentHint: MCP defines it for other tools only);
    // no tool repeats the `revision`/`stale` envelope the instructions state once (no output
    // schema, no `additionalProperties`); optional arguments have one plain type (generic
    // clients cannot fill `["integer", "null"]`); with one served root no tool offers `root`.
    for t in &tools {
        let a = t.annotations.as_ref().expect("annotations");
        assert_eq!((a.read_only_hint, a.idempotent_hint), (Some(true), None), "{}", t.name);
        assert!(!t.input_schema.contains_key("$schema"), "{}", t.name);
        let props = t.input_schema.get("properties").and_then(Value::as_object);
        assert!(props.is_none_or(|p| !p.contains_key("root")), "{} offers root", t.name);
        assert!(t.output_schema.is_none(), "{}", t.name);
        assert!(!t.input_schema.contains_key("additionalProperties"), "{}", t.name);
        let schema = serde_json::to_value(&t.input_schema).expect("schema");
        for (arg, p) in schema["properties"].as_object().expect("properties") {
            let plain = p["type"].is_string() && p.get("anyOf").is_none();
            assert!(plain, "{}.{arg}: {p}", t.name);
            assert!(p["description"].is_string(), "{}.{arg} is not documented: {p}", t.name);
        }
    }
    let impact = tools.iter().find(|t| t.name == "impact_analysis").expect("impact tool");
    let schema = serde_json::to_value(&impact.input_schema).expect("schema");
    assert_eq!(schema["properties"]["depth"]["type"], "integer");
    assert_eq!(schema["properties"]["include_tests"]["type"], "boolean");
    assert_eq!(schema["properties"]["direction"]["enum"], json!(["upstream", "downstream"]));
    assert_eq!(schema["required"], json!(["target"]));

    // The first call starts the build; index_status answers at once, ready or not.
    let status = ready(&client).await;
    assert_eq!(status["phase"], "ready");
    assert_eq!(status["files"], 3);
    assert_eq!(status["root"], fx.root.display().to_string());

    let s = ok(&client, "code_search", json!({"query": "greet", "limit": 3})).await;
    assert_eq!(s["hits"][0]["id"], "sym:ts:src/greet.ts:greet");
    assert_eq!(s["hits"][0]["signature"], "function greet(name: string): string");
    let s = ok(&client, "code_search", json!({"query": "Server", "kind": "class"})).await;
    assert_eq!(ids(&s["hits"], "/id"), ["sym:ts:src/server.ts:Server"]);

    let o = ok(&client, "open_node", json!({"id": "sym:ts:src/greet.ts:greet"})).await;
    assert_eq!(o["source"]["first_line"], 2);
    assert_eq!(o["source"]["lines"][1], "  return \"hi \" + name;");
    assert_eq!(o["doc"], "Says hello.");
    assert!(ids(&o["incoming"], "/node").contains(&"sym:ts:src/main.ts:main".to_string()), "{o}");

    let c = ok(&client, "symbol_context", json!({"target": "greet"})).await;
    assert_eq!(ids(&c["callers"], "/id"), ["sym:ts:src/main.ts:main"]);
    assert_eq!(c["callers"][0]["call_lines"], json!([6]));
    let c =
        ok(&client, "symbol_context", json!({"target": "helper", "file": "src/server.ts"})).await;
    assert_eq!(ids(&c["callers"], "/id"), ["sym:ts:src/server.ts:Server.start"]);

    let i = ok(&client, "impact_analysis", json!({"target": "sym:ts:src/server.ts:helper"})).await;
    let reached: Vec<String> = ids(&i["nodes"], "/id");
    assert_eq!(
        reached,
        // Callers, never the method's class or the files importing it.
        ["sym:ts:src/server.ts:Server.start", "sym:ts:src/main.ts:main"],
        "{i}"
    );
    let d = ok(
        &client,
        "impact_analysis",
        json!({"target": "main", "direction": "downstream", "depth": 1}),
    )
    .await;
    let first: Vec<String> = d["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["depth"] == 1)
        .filter_map(|n| n["id"].as_str().map(str::to_string))
        .collect();
    assert!(first.contains(&"sym:ts:src/greet.ts:greet".to_string()), "{d}");

    // Notes and hints speak the tools' arguments, not the CLI's flags.
    let i = ok(
        &client,
        "impact_analysis",
        json!({"target": "sym:ts:src/server.ts:helper", "depth": 1}),
    )
    .await;
    let notes = i["notes"].to_string();
    assert!(notes.contains("raise `depth`") && !notes.contains("--depth"), "{notes}");
    let (is_error, amb) = call(&client, "trace", json!({"from": "helper", "to": "main"})).await;
    assert!(is_error, "{amb}");
    let m = amb["message"].as_str().unwrap_or_default();
    assert!(m.contains("`from` / `to`") && !m.contains("`file`"), "{amb}");
    let e = ok(
        &client,
        "expand",
        json!({"target": "helper", "file": "src/server.ts", "direction": "in", "depth": 1}),
    )
    .await;
    assert_eq!(e["seed"], "sym:ts:src/server.ts:helper", "{e}");

    let t =
        ok(&client, "trace", json!({"from": "main", "to": "sym:ts:src/server.ts:helper"})).await;
    let hops: Vec<String> = ids(&t["paths"][0]["hops"], "/dst");
    assert_eq!(hops, ["sym:ts:src/server.ts:Server.start", "sym:ts:src/server.ts:helper"], "{t}");

    let e =
        ok(&client, "expand", json!({"target": "sym:ts:src/server.ts:Server", "depth": 1})).await;
    assert!(
        ids(&e["nodes"], "/id").contains(&"sym:ts:src/server.ts:Server.start".to_string()),
        "{e}"
    );

    let g = ok(&client, "dag_grep", json!({"query": "greet", "k": 2, "render": "tree"})).await;
    assert!(g["seeds"].as_array().is_some_and(|s| !s.is_empty()), "{g}");
    assert!(g["rendered"].as_str().is_some_and(|r| r.contains("greet")), "{g}");
    let g = ok(&client, "dag_grep", json!({"query": "greet"})).await;
    assert!(g.get("rendered").is_none(), "no rendering unless asked: {g}");
    // The CLI's options, and the budget as a hard cap on distinct nodes, anchors included.
    let g = ok(
        &client,
        "dag_grep",
        json!({"query": "greet main", "mode": "fts", "budget": 3, "edges": ["CALLS"],
               "per_node_cap": 5, "anchors": true}),
    )
    .await;
    assert!(g["nodes"].as_array().is_some_and(|n| n.len() <= 3), "{g}");
    assert!(g["stats"]["nodes"].as_u64().is_some_and(|n| n <= 3), "{g}");
    let g = ok(
        &client,
        "dag_grep",
        json!({"query": "greet", "anchors": false, "edge_sets": ["structural"]}),
    )
    .await;
    assert_eq!(g["stats"]["anchors"], 0, "{g}");

    // No routes or tools here: the answers say so rather than look complete.
    for (tool, args, note) in [
        ("route_impact", json!({"route": "GET /users/:id"}), "no routes are detected in this root"),
        ("tool_context", json!({"tool": "search"}), "no MCP/RPC tools are detected in this root"),
    ] {
        let v = ok(&client, tool, args).await;
        assert_eq!(v["matches"], json!([]), "{tool}: {v}");
        assert_eq!(v["notes"][0], note, "{tool}: {v}");
    }

    // Nothing changed since the commit.
    let ch = ok(&client, "changed_code_impact", json!({})).await;
    assert_eq!(ch["changed_files"], json!([]), "{ch}");

    // An edit is published by the watcher and seen by the next answers.
    let before = status["revision"].as_i64().expect("revision");
    std::fs::write(
        fx.root.join("src/greet.ts"),
        "/** Says hello. */\nexport function greet(name: string): string {\n  return \"hello \" + name;\n}\nexport function helper() { return 1; }\nexport function fresh() { return greet(\"x\"); }\n",
    )
    .expect("write");
    let after = wait_revision(&client, before).await;
    let s = ok(&client, "code_search", json!({"query": "fresh"})).await;
    assert_eq!(s["revision"], after);
    assert_eq!(s["hits"][0]["id"], "sym:ts:src/greet.ts:fresh");
    let ch = ok(&client, "changed_code_impact", json!({})).await;
    assert_eq!(ids(&ch["changed_files"], "/path"), ["src/greet.ts"], "{ch}");
    let touched: Vec<String> = ids(&ch["changed_symbols"], "/id");
    assert_eq!(touched, ["sym:ts:src/greet.ts:fresh", "sym:ts:src/greet.ts:greet"], "{ch}");
    let ch = ok(&client, "changed_code_impact", json!({"staged": true})).await;
    assert_eq!(ch["changed_files"], json!([]), "nothing staged: {ch}");

    client.cancel().await.expect("cancel");
    roots.stop_all();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_actionable_tool_errors() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;

    // Argument errors name the argument and the JSON type it takes.
    let m = err(&client, "code_search", json!({})).await;
    assert_eq!(m, "code_search: missing required argument `query` (a string)");
    let m = err(&client, "code_search", json!({"query": 5})).await;
    assert_eq!(m, "code_search: argument `query` must be a string, not the number 5");
    let m = err(&client, "code_search", json!({"query": "x", "limit": "five"})).await;
    assert_eq!(
        m,
        "code_search: argument `limit` must be an integer (e.g. 5), not the string \"five\""
    );
    let m = err(&client, "code_search", json!({"query": "x", "limit": -2})).await;
    assert_eq!(m, "code_search: argument `limit` must be at least 0, not -2");
    let m = err(&client, "code_search", json!({"query": "x", "limt": 3})).await;
    assert!(m.contains("unknown field `limt`, expected one of"), "{m}");
    let m = err(&client, "expand", json!({"target": "greet", "direction": "up"})).await;
    assert_eq!(
        m,
        "expand: argument `direction` must be one of \"out\", \"in\", not the string \"up\""
    );
    let m = err(&client, "impact_analysis", json!({"target": "greet", "edges": "CALLS"})).await;
    assert!(m.contains("argument `edges` must be an array of strings"), "{m}");
    // null for an optional argument is its absence.
    let v = ok(&client, "code_search", json!({"query": "greet", "limit": null})).await;
    assert!(v["hits"].is_array(), "{v}");
    let m = err(&client, "code_search", json!({"query": "x", "kind": "widget"})).await;
    assert!(m.contains("unknown kind `widget`; one of:"), "{m}");
    let m = err(&client, "code_search", json!({"query": "   "})).await;
    assert!(m.contains("empty search query"), "{m}");
    let m =
        err(&client, "impact_analysis", json!({"target": "greet", "direction": "sideways"})).await;
    assert!(m.contains("argument `direction` must be one of \"upstream\", \"downstream\""), "{m}");
    let m = err(&client, "impact_analysis", json!({"target": "greet", "edges": ["CALLZ"]})).await;
    assert!(m.contains("unknown edge kind `CALLZ`"), "{m}");

    let m = err(&client, "open_node", json!({"id": "sym:ts:src/greet.ts:gret"})).await;
    let v: Value = serde_json::from_str(&m).expect("json");
    assert_eq!(v["error"], "not_found");
    assert!(v["message"].as_str().is_some_and(|s| s.contains("unknown ID")), "{v}");
    assert_eq!(v["suggestions"][0], "sym:ts:src/greet.ts:greet");

    let m = err(&client, "symbol_context", json!({"target": "helper"})).await;
    let v: Value = serde_json::from_str(&m).expect("json");
    assert_eq!(v["error"], "ambiguous");
    let mut c = ids(&v["candidates"], "/id");
    c.sort();
    assert_eq!(c, ["sym:ts:src/greet.ts:helper", "sym:ts:src/server.ts:helper"]);

    let m = err(&client, "code_search", json!({"query": "x", "root": "/nonexistent-root"})).await;
    assert!(m.contains("is not a served root; served: "), "{m}");
    let other = tempfile::tempdir().expect("tempdir");
    let m = err(
        &client,
        "code_search",
        json!({"query": "x", "root": other.path().display().to_string()}),
    )
    .await;
    assert!(m.contains("is not a served root"), "{m}");

    for file in ["/etc/passwd", "../outside.ts", "src/../../x.ts"] {
        let m = err(&client, "symbol_context", json!({"target": "greet", "file": file})).await;
        assert!(m.contains("is outside the root"), "{file}: {m}");
    }
    let inside = fx.root.join("src/greet.ts").display().to_string();
    let c = ok(&client, "symbol_context", json!({"target": "helper", "file": inside})).await;
    assert_eq!(c["symbol"]["id"], "sym:ts:src/greet.ts:helper");

    let m = err(&client, "changed_code_impact", json!({"base": "no-such-branch"})).await;
    assert!(m.contains("no-such-branch"), "{m}");
    let m = err(&client, "changed_code_impact", json!({"base": "HEAD", "staged": true})).await;
    assert!(m.contains("either `staged` or `base`"), "{m}");

    // The server still answers after all of that.
    ok(&client, "code_search", json!({"query": "greet"})).await;
    client.cancel().await.expect("cancel");
    roots.stop_all();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_roots_in_one_server() {
    let a = fixture(FIXTURE);
    let b = fixture("//- /lib/util.go\npackage util\n\nfunc Twice(x int) int { return x * 2 }\n");
    let roots = Arc::new(RootSet::new(vec![handle(&a.root), handle(&b.root)], None));
    let client = connect(roots.clone()).await;
    // With several roots every tool offers `root` (with one, none does).
    for t in client.list_all_tools().await.expect("tools/list") {
        let props = t.input_schema.get("properties").and_then(Value::as_object);
        assert!(props.is_some_and(|p| p.contains_key("root")), "{} lacks root", t.name);
    }

    // Without a working directory inside one of them, a call must say which root.
    let m = err(&client, "code_search", json!({"query": "greet"})).await;
    assert!(m.contains("several roots are served; pass `root`"), "{m}");

    let ra = a.root.display().to_string();
    let rb = b.root.display().to_string();
    let s = ok(&client, "code_search", json!({"query": "Twice", "root": rb})).await;
    assert_eq!(s["hits"][0]["id"], "sym:go:lib/util.go:Twice");
    assert_eq!(s["root"], rb);
    let s = ok(&client, "code_search", json!({"query": "Twice", "root": ra})).await;
    assert_eq!(s["hits"], json!([]));

    // A root can be named by the end of its path when that is unique.
    let m = err(&client, "code_search", json!({"query": "Twice", "root": "repo"})).await;
    assert!(m.contains("`repo` names 2 served roots"), "{m}");
    let parent = b.root.parent().and_then(|p| p.file_name()).expect("parent name");
    let short = format!("{}/repo", parent.to_string_lossy());
    let s = ok(&client, "code_search", json!({"query": "Twice", "root": short})).await;
    assert_eq!(s["root"], rb);
    let m = err(&client, "code_search", json!({"query": "Twice", "root": "elsewhere"})).await;
    assert!(m.contains("is not a served root; served:"), "{m}");

    // index_status without a root lists every served root.
    let all = call(&client, "index_status", json!({})).await.1;
    let listed = ids(&all["roots"], "/root");
    assert_eq!(listed, [ra.clone(), rb.clone()]);

    // The working directory picks the default among several roots.
    let cwd_set = RootSet::new(vec![handle(&a.root), handle(&b.root)], Some(&b.root.join("lib")));
    assert_eq!(cwd_set.pick(None).expect("default").root, b.root);

    client.cancel().await.expect("cancel");
    roots.stop_all();
}

/// Eight clients make 100 calls each while files are edited and re-indexed: every call
/// answers, every client sees revisions in order, and two answers to the same question at the
/// same revision are identical (no answer mixes two revisions).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_never_see_a_torn_revision() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let first = connect(roots.clone()).await;
    let start_rev = ready(&first).await["revision"].as_i64().expect("rev");

    let editing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let editor = {
        let root = fx.root.clone();
        let editing = editing.clone();
        std::thread::spawn(move || {
            let mut n = 0u32;
            while editing.load(std::sync::atomic::Ordering::SeqCst) {
                n += 1;
                let body: String = (0..(n % 5))
                    .map(|i| format!("export function extra{i}() {{ return greet(\"{i}\"); }}\n"))
                    .collect();
                let text = format!(
                    "import {{ greet }} from \"./greet\";\n{body}export function edited{n}() {{ return {n}; }}\n"
                );
                std::fs::write(root.join("src/edit.ts"), text).expect("write");
                std::thread::sleep(Duration::from_millis(40));
            }
        })
    };

    let questions = [
        ("code_search", json!({"query": "extra0 OR extra1 OR greet", "limit": 20})),
        ("symbol_context", json!({"target": "sym:ts:src/greet.ts:greet"})),
        ("impact_analysis", json!({"target": "sym:ts:src/greet.ts:greet"})),
        ("index_status", json!({})),
    ];
    let mut tasks = Vec::new();
    for c in 0..8 {
        let roots = roots.clone();
        let questions = questions.clone();
        tasks.push(tokio::spawn(async move {
            let client = connect(roots).await;
            let mut seen: Vec<(usize, i64, Value)> = Vec::new();
            let mut last = 0;
            for i in 0..100 {
                let q = (c + i) % questions.len();
                let (tool, args) = &questions[q];
                let (is_error, mut v) = call(&client, tool, args.clone()).await;
                assert!(!is_error, "client {c} call {i} {tool}: {v}");
                let rev = v["revision"].as_i64().expect("revision");
                assert!(rev >= last, "client {c}: revision went back from {last} to {rev}");
                last = rev;
                if let Value::Object(m) = &mut v {
                    for volatile in [
                        "stale",
                        "pending_files",
                        "pending_edits",
                        "revisions_published",
                        "last_publish_ms_ago",
                        "phase",
                    ] {
                        m.remove(volatile);
                    }
                }
                seen.push((q, rev, v));
            }
            client.cancel().await.expect("cancel");
            seen
        }));
    }
    let mut answers: HashMap<(usize, i64), Value> = HashMap::new();
    let mut calls = 0;
    for t in tasks {
        for (q, rev, v) in t.await.expect("client task") {
            calls += 1;
            match answers.get(&(q, rev)) {
                Some(prev) => {
                    assert_eq!(prev, &v, "two answers to question {q} at revision {rev} differ")
                }
                None => {
                    answers.insert((q, rev), v);
                }
            }
        }
    }
    editing.store(false, std::sync::atomic::Ordering::SeqCst);
    editor.join().expect("editor");
    assert_eq!(calls, 800);
    let revisions: std::collections::BTreeSet<i64> = answers.keys().map(|(_, r)| *r).collect();
    assert!(revisions.len() >= 2, "the edits were published during the run: {revisions:?}");
    assert!(revisions.iter().all(|r| *r >= start_rev));
    first.cancel().await.expect("cancel");
    roots.stop_all();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamable_http_with_a_bearer_token() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let stop = tokio_util::sync::CancellationToken::new();
    let serve = super::HttpServe::new(Some("s3cret".to_string()), false);
    let server = tokio::spawn(super::serve_http_on(roots.clone(), listener, serve, stop.clone()));
    let url = format!("http://{addr}/mcp");

    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header("s3cret"),
    );
    let client = ClientInfo::default().serve(transport).await.expect("handshake over HTTP");
    let s = ok(&client, "code_search", json!({"query": "greet"})).await;
    assert_eq!(s["hits"][0]["id"], "sym:ts:src/greet.ts:greet");
    client.cancel().await.expect("cancel");

    // Without the token the server refuses before MCP starts.
    let wrong = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header("wrong"),
    );
    assert!(ClientInfo::default().serve(wrong).await.is_err(), "a wrong token must be refused");
    // The refusal names the scheme, so a client asks for the token instead of starting OAuth.
    {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut conn = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let req = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(req.as_bytes()).await.expect("write");
        let mut answer = String::new();
        conn.read_to_string(&mut answer).await.expect("read");
        let lower = answer.to_ascii_lowercase();
        assert!(lower.starts_with("http/1.1 401"), "{answer}");
        assert!(lower.contains("www-authenticate: bearer realm=\"codegraph\""), "{answer}");
    }

    stop.cancel();
    server.await.expect("server task").expect("server");
    roots.stop_all();
}

const GO_FLOW: &str = r#"
//- /go.mod
module example.com/app

go 1.21
//- /main.go
package main

import "example.com/app/store"

func main() {
	run()
}

func run() {
	v := compute()
	store.Save(v)
}

func compute() int {
	total := 0
	for i := 0; i < 10; i++ {
		total += i
	}
	return total
}
//- /store/store.go
package store

// Save persists a value and records it.
func Save(v int) {
	persist(v)
	audit(v)
}

func persist(v int) {
	if v > 0 {
		println(v)
	}
	println("saved")
}

func audit(v int) {
	if v < 0 {
		println("negative")
	}
	println("audited")
}
"#;

/// Flows and clusters are computed off the edit path once the root is quiet, stamped with
/// their revision, and appear in symbol_context and index_status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flows_and_clusters_are_derived_in_the_background() {
    let fx = fixture(GO_FLOW);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        let v = ready(&client).await;
        if v["flows_at"]["computed_at_revision"] == v["revision"] {
            break v;
        }
        assert!(Instant::now() < deadline, "no flows computed: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(status["flows_at"]["flows"], 1, "{status}");

    let c = ok(&client, "symbol_context", json!({"target": "Save"})).await;
    assert_eq!(c["flows_at"]["current"], true, "{c}");
    assert_eq!(
        c["processes"],
        json!([{
            "id": "proc:sym:go:main.go:main",
            "label": "main",
            // main, run, compute (same package, weight 1.0), Save (0.95), persist, audit.
            "score": 2.06,
            "step": 4,
            "steps": 6,
            "entry": "sym:go:main.go:main",
        }]),
        "{c}"
    );
    assert_eq!(c["cluster"]["id"], "cluster:store-Save-audit", "{c}");
    assert_eq!(c["cluster"]["size"], 3, "{c}");
    let notes = c["notes"].to_string();
    assert!(!notes.contains("flows and clusters"), "{notes}");

    // Impact names the flows the change may break: Save is step 4 of main's flow.
    let i = ok(&client, "impact_analysis", json!({"target": "Save"})).await;
    assert_eq!(i["flows_total"], 1, "{i}");
    assert_eq!(i["flows"][0]["id"], "proc:sym:go:main.go:main", "{i}");
    assert_eq!(i["flows"][0]["via"], c["symbol"]["id"], "{i}");
    assert_eq!(i["flows"][0]["depth"], 0, "{i}");
    // Flows are searchable by label.
    let s = ok(&client, "code_search", json!({"query": "main", "kind": "process"})).await;
    assert_eq!(s["hits"][0]["id"], "proc:sym:go:main.go:main", "{s}");
    assert_eq!(s["hits"][0]["kind"], "process", "{s}");

    client.cancel().await.expect("cancel");
    roots.stop_all();
}

const ROUTES: &str = r#"
//- /src/users.ts
export function loadUser(id: string) { return { id }; }
export function getUser(req, res) {
  const user = loadUser(req.params.id);
  res.status(200).json({ id: user.id, name: "a" });
}
//- /src/app.ts
import express from "express";
import { getUser } from "./users";
const app = express();
app.get("/users/:id", auth, getUser);
function auth(req, res, next) { next(); }
//- /web/client.ts
export async function showUser(id: string) {
  return fetch(`/users/${id}`);
}
//- /src/tools.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { loadUser } from "./users";
const server = new McpServer({ name: "x", version: "1" });
server.tool("find_user", "Finds a user by ID", { id: z.string() }, async ({ id }) => {
  return { content: [{ type: "text", text: JSON.stringify(loadUser(id)) }] };
});
"#;

/// Every match of a route query is reachable by paging, and the cut gives the real total.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route_matches_page_to_their_total() {
    let fx = fixture(
        r#"
//- /src/app.ts
import express from "express";
const app = express();
function h(req: any, res: any) { res.json({}); }
app.get("/items", h);
app.post("/items", h);
app.put("/items", h);
app.delete("/items", h);
"#,
    );
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;
    let all = ok(&client, "route_impact", json!({"route": "/items", "limit": 100})).await;
    assert_eq!(all["matches"].as_array().map(Vec::len), Some(4), "{all}");
    let first = ok(&client, "route_impact", json!({"route": "/items", "limit": 1})).await;
    assert_eq!(first["cut"][0]["total"], 4, "{first}");
    assert_eq!(first["cut"][0]["next_offset"], 1, "{first}");
    let last = ok(
        &client,
        "route_impact",
        json!({"route": "/items", "list": "matches", "offset": 3, "limit": 1}),
    )
    .await;
    assert_eq!(last["matches"][0], all["matches"][3], "{last}");
    assert_eq!(last["cut"][0]["next_offset"], Value::Null, "{last}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn route_impact_and_tool_context_name_handlers() {
    let fx = fixture(ROUTES);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;

    // A concrete path finds the parameterised route.
    let r = ok(&client, "route_impact", json!({"route": "GET /users/42"})).await;
    let m = &r["matches"][0];
    assert_eq!(m["endpoint"]["id"], "route:src/app.ts:GET /users/:id", "{r}");
    assert_eq!(m["matched_by"], "params");
    assert_eq!(m["endpoint"]["signature"], "GET /users/:id [express] middleware: auth", "{r}");
    assert_eq!(
        m["props"],
        json!({"kind": "route", "framework": "express", "method": "GET", "path": "/users/:id",
               "middleware": ["auth"], "response_keys": [], "status_codes": []}),
        "{r}"
    );
    assert_eq!(m["handlers"][0]["id"], "sym:ts:src/users.ts:getUser", "{r}");
    assert_eq!(ids(&m["handler_callees"], "/id"), ["sym:ts:src/users.ts:loadUser"]);
    assert_eq!(ids(&m["consumers"], "/id"), ["sym:ts:web/client.ts:showUser"], "{r}");
    assert_eq!(m["consumers"][0]["call_lines"], json!([2]));
    assert_eq!(m["consumers"][0]["reason"], "url-match");
    assert_eq!(r["matches"].as_array().map(Vec::len), Some(1));

    let t = ok(&client, "tool_context", json!({"tool": "find_user"})).await;
    let m = &t["matches"][0];
    assert_eq!(m["endpoint"]["id"], "tool:src/tools.ts:find_user", "{t}");
    assert_eq!(m["endpoint"]["description"], "Finds a user by ID");
    assert_eq!(m["endpoint"]["signature"], "tool find_user(id) [mcp-sdk]");
    assert_eq!(
        m["props"],
        json!({"kind": "tool", "framework": "mcp-sdk", "name": "find_user", "fields": ["id"],
               "middleware": [], "response_keys": [], "status_codes": []}),
        "{t}"
    );
    // The handler written in place is a symbol of its own, with its own calls.
    assert_eq!(m["handlers"][0]["id"], "sym:ts:src/tools.ts:$tool find_user", "{t}");
    assert_eq!(ids(&m["handler_callees"], "/id"), ["sym:ts:src/users.ts:loadUser"], "{t}");

    // The handler's context lists the route it serves; its upstream impact reaches it.
    let c = ok(&client, "symbol_context", json!({"target": "getUser"})).await;
    assert_eq!(ids(&c["routes"], "/id"), ["route:src/app.ts:GET /users/:id"], "{c}");
    let i = ok(&client, "impact_analysis", json!({"target": "loadUser", "depth": 2})).await;
    let reached: Vec<String> = ids(&i["nodes"], "/id");
    assert!(reached.contains(&"route:src/app.ts:GET /users/:id".to_string()), "{i}");

    let none = ok(&client, "route_impact", json!({"route": "DELETE /users/:id"})).await;
    assert_eq!(none["matches"], json!([]));
    assert!(none["notes"][0].as_str().is_some_and(|n| n.starts_with("no route matches")), "{none}");

    client.cancel().await.expect("cancel");
    roots.stop_all();
}

/// A function called from 30 others: default answers cut their lists, say so with totals and
/// next offsets, page on with `list` + `offset`, and stay small; an explicit `limit` wins; an
/// unknown list is an actionable error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_are_cut_with_totals_and_page_on() {
    let mut files = String::from("//- /src/log.ts\nexport function log(m: string) { return m; }\n");
    for i in 0..30 {
        files.push_str(&format!(
            "//- /src/c{i:02}.ts\nimport {{ log }} from \"./log\";\nexport function caller{i:02}() {{ return log(\"{i}\"); }}\n"
        ));
    }
    let fx = fixture(&files);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots.clone()).await;

    let c = ok(&client, "symbol_context", json!({"target": "log"})).await;
    assert_eq!(c["limit"], 10, "{c}");
    let callers = ids(&c["callers"], "/id");
    assert_eq!(callers.len(), 10, "{c}");
    assert_eq!(callers[0], "sym:ts:src/c00.ts:caller00");
    let cut = c["cut"].as_array().expect("cut").clone();
    let callers_cut = cut.iter().find(|x| x["list"] == "callers").expect("callers cut");
    assert_eq!(
        callers_cut,
        &json!({"list": "callers", "total": 30, "offset": 0, "shown": 10, "next_offset": 10})
    );
    let notes = c["notes"].to_string();
    assert!(notes.contains("callers 10 of 30") && notes.contains("`list` and `offset`"), "{notes}");

    // The next page of one list: that list only, from the offset.
    let page =
        ok(&client, "symbol_context", json!({"target": "log", "list": "callers", "offset": 25}))
            .await;
    assert_eq!(
        ids(&page["callers"], "/id"),
        (25..30).map(|i| format!("sym:ts:src/c{i}.ts:caller{i}")).collect::<Vec<_>>()
    );
    assert!(page.get("imported_by").is_none() && page.get("members").is_none(), "{page}");
    assert_eq!(
        page["cut"],
        json!([{"list": "callers", "total": 30, "offset": 25, "shown": 5, "next_offset": null}])
    );
    assert_eq!(page["symbol"]["id"], "sym:ts:src/log.ts:log");

    // Impact pages its nodes the same way; an explicit limit is kept.
    let i = ok(&client, "impact_analysis", json!({"target": "log", "limit": 4})).await;
    assert_eq!(i["limit"], 4);
    assert_eq!(i["summary"]["reached"], 30, "{i}");
    assert_eq!(i["nodes"].as_array().map(Vec::len), Some(4), "{i}");
    assert_eq!(i["cut"][0]["next_offset"], 4, "{i}");
    let i = ok(&client, "impact_analysis", json!({"target": "log", "list": "nodes", "offset": 28}))
        .await;
    assert_eq!(
        ids(&i["nodes"], "/id"),
        ["sym:ts:src/c28.ts:caller28", "sym:ts:src/c29.ts:caller29"]
    );

    let m = err(&client, "symbol_context", json!({"target": "log", "list": "friends"})).await;
    assert!(m.contains("no list `friends`") && m.contains("callers"), "{m}");

    for (tool, args) in [
        ("symbol_context", json!({"target": "log"})),
        ("impact_analysis", json!({"target": "log"})),
        ("open_node", json!({"id": "sym:ts:src/log.ts:log"})),
        ("expand", json!({"target": "sym:ts:src/log.ts:log", "direction": "in"})),
        ("dag_grep", json!({"query": "log caller"})),
    ] {
        let v = ok(&client, tool, args).await;
        assert!(v.to_string().len() <= crate::page::DEFAULT_BUDGET_CHARS, "{tool}: {v}");
    }
    client.cancel().await.expect("cancel");
    roots.stop_all();
}

/// One raw HTTP/1.1 request: the status code and the body.
async fn raw_http(
    addr: std::net::SocketAddr,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut req = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    req.push_str(
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// Over HTTP a foreign browser Origin is refused with 403 (a loopback one is not), a body
/// that is not JSON gets a JSON-RPC parse error (-32700), and JSON that is no JSON-RPC message
/// (or a batch) an invalid-request error (-32600).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_refuses_foreign_origins_and_answers_parse_errors() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let stop = tokio_util::sync::CancellationToken::new();
    let serve = super::HttpServe::new(None, false);
    let server = tokio::spawn(super::serve_http_on(roots.clone(), listener, serve, stop.clone()));
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

    let (status, body) = raw_http(addr, &[("Origin", "http://evil.example")], init).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("Origin not allowed"), "{body}");
    let (status, body) = raw_http(addr, &[("Origin", "http://localhost:6274")], init).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = raw_http(addr, &[], init).await;
    assert_eq!(status, 200, "{body}");

    let (status, body) = raw_http(addr, &[], "{not json").await;
    assert_eq!(status, 400, "{body}");
    let v: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!(v["error"]["code"], -32700, "{v}");
    assert_eq!(v["id"], Value::Null);
    // Valid JSON that is no JSON-RPC message, and a batch: 400 with -32600 (not 415).
    for (body, words) in [
        (r#"{"hello": 1}"#, "`jsonrpc` must be"),
        (r#"{"jsonrpc": "2.0", "id": 7}"#, "needs a string `method`"),
        (r#"[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]"#, "batches are not supported"),
        ("42", "must be a JSON-RPC 2.0 object"),
    ] {
        let (status, answer) = raw_http(addr, &[], body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let v: Value = serde_json::from_str(&answer).expect("a JSON-RPC error");
        assert_eq!(v["error"]["code"], -32600, "{v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| m.contains(words)), "{v}");
    }
    let (_, answer) = raw_http(addr, &[], r#"{"jsonrpc": "2.0", "id": 7}"#).await;
    assert_eq!(serde_json::from_str::<Value>(&answer).expect("json")["id"], 7);

    stop.cancel();
    server.await.expect("server task").expect("server");
    roots.stop_all();
}

/// One served root whose edits are debounced for 1.2 s: a long window an answer could fall
/// in, and a wait the impact tools sit through (up to 5 s).
fn slow_debounce(root: &Path) -> Arc<RootSet> {
    let db = root.parent().expect("parent").join("slow.db");
    let opts = RootOptions {
        build_wait: Duration::from_secs(60),
        debounce: Duration::from_millis(1200),
        refresh_wait: Duration::from_secs(5),
        ..RootOptions::default()
    };
    Arc::new(RootSet::new(vec![RootHandle::new(root.to_path_buf(), db, opts)], None))
}

/// From the first raw file event of an edit on, answers say `stale: true` (before the
/// debounce has passed and the batch is published), and impact tools wait for the edit: right
/// after a write, changed_code_impact answers from the new revision with the new symbols.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_is_stale_from_its_first_event_and_impact_waits_for_it() {
    let fx = fixture(FIXTURE);
    let roots = slow_debounce(&fx.root);
    let client = connect(roots.clone()).await;
    let before = ready(&client).await["revision"].as_i64().expect("revision");
    // Let the watchers settle on the built tree.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(ready(&client).await["stale"], false);

    std::fs::write(
        fx.root.join("src/greet.ts"),
        "/** Says hello. */\nexport function greet(name: string): string {\n  return \"hey \" + name;\n}\nexport function helper() { return 1; }\nexport function added() { return 2; }\n",
    )
    .expect("write");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let s = ok(&client, "code_search", json!({"query": "greet"})).await;
    assert_eq!((s["revision"].as_i64(), &s["stale"]), (Some(before), &json!(true)), "{s}");

    let ch = ok(&client, "changed_code_impact", json!({})).await;
    assert!(ch["revision"].as_i64().is_some_and(|r| r > before), "{ch}");
    assert_eq!(ch["stale"], false, "{ch}");
    let touched: Vec<String> = ids(&ch["changed_symbols"], "/id");
    assert_eq!(touched, ["sym:ts:src/greet.ts:added", "sym:ts:src/greet.ts:greet"], "{ch}");
    client.cancel().await.expect("cancel");
    roots.stop_all();
}

/// A client that records the progress notifications it receives.
#[derive(Clone, Default)]
struct ProgressClient(Arc<std::sync::Mutex<Vec<rmcp::model::ProgressNotificationParam>>>);

impl rmcp::ClientHandler for ProgressClient {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.0.lock().expect("lock").push(params);
    }
}

/// A call that waits (here: impact waiting for an edit to be published) sends progress
/// notifications for the client's progress token, with a growing count and a message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_calls_report_progress_to_clients_that_ask() {
    let fx = fixture(FIXTURE);
    let roots = slow_debounce(&fx.root);
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server_roots = roots.clone();
    tokio::spawn(async move {
        if let Ok(server) = CodegraphMcp::new(server_roots, false).serve(server_io).await {
            let _ = server.waiting().await;
        }
    });
    let seen = ProgressClient::default();
    let client = seen.clone().serve(client_io).await.expect("client handshake");
    ready(&client).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let call = |token: Option<&str>| {
        let mut params = CallToolRequestParams::new("impact_analysis")
            .with_arguments(json!({"target": "greet"}).as_object().cloned().expect("object"));
        if let Some(t) = token {
            let mut meta = rmcp::model::RequestMetaObject::default();
            meta.set_progress_token(rmcp::model::ProgressToken(
                rmcp::model::NumberOrString::String(t.into()),
            ));
            params.meta = Some(meta);
        }
        params
    };
    let edit = |n: u32| {
        std::fs::write(
            fx.root.join("src/greet.ts"),
            format!("/** Says hello. */\nexport function greet(name: string): string {{\n  return \"v{n} \" + name;\n}}\nexport function helper() {{ return 1; }}\n"),
        )
        .expect("write");
    };
    // (rmcp's client gives every request a progress token of its own when none is set.)
    edit(1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    client.call_tool(call(Some("impact-1"))).await.expect("impact");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let got = seen.0.lock().expect("lock").clone();
    assert!(got.len() >= 2, "{got:?}");
    let counts: Vec<f64> = got.iter().map(|p| p.progress).collect();
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    assert!(
        got.iter()
            .all(|p| p.message.as_deref() == Some("waiting for edits on disk to be published")),
        "{got:?}"
    );
    let token = &got[0].progress_token;
    assert!(got.iter().all(|p| &p.progress_token == token), "one call, one token: {got:?}");
    client.cancel().await.expect("cancel");
    roots.stop_all();
}

/// The stdio gate counts requests (method + ID) in and answers (result or error + ID) out;
/// a cancellation frees its request's slot; notifications and the client's own answers take
/// none.
#[test]
fn the_stdio_gate_tells_requests_answers_and_cancellations_apart() {
    use super::{Passage, answered_id, gate};
    let pass = |v: Value| gate(v.to_string().as_bytes()).expect("passes");
    assert_eq!(
        pass(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "x"}})),
        Passage::Request("7".into())
    );
    assert_eq!(
        pass(json!({"jsonrpc": "2.0", "id": "a", "method": "ping"})),
        Passage::Request("\"a\"".into())
    );
    assert_eq!(
        pass(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
        Passage::Other
    );
    assert_eq!(
        pass(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
        ),
        Passage::Cancel("7".into())
    );
    assert_eq!(pass(json!({"jsonrpc": "2.0", "id": 3, "result": {}})), Passage::Other);
    assert_eq!(
        answered_id(br#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#),
        Some("7".into())
    );
    assert_eq!(
        answered_id(br#"{"jsonrpc":"2.0","id":"a","error":{"code":1}}"#),
        Some("\"a\"".into())
    );
    assert_eq!(answered_id(br#"{"jsonrpc":"2.0","id":9,"method":"roots/list"}"#), None);
    assert_eq!(answered_id(br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#), None);
}

/// HTTP limits (issue 25, item 5): at the connection cap a new client is served at once by
/// closing the oldest connection that never sent a whole header; the other stalled ones are
/// cut off at the header timeout; when every connection is a working client the newcomer is
/// answered 503 at once; an idle session is closed and its ID refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_cuts_slow_headers_caps_connections_and_expires_idle_sessions() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let stop = tokio_util::sync::CancellationToken::new();
    let serve = super::HttpServe {
        session_idle: Duration::from_secs(1),
        max_connections: 3,
        header_timeout: Duration::from_secs(1),
        ..super::HttpServe::new(None, false)
    };
    let server = tokio::spawn(super::serve_http_on(roots.clone(), listener, serve, stop.clone()));
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

    // Three clients stall in the middle of their headers and hold every slot.
    let mut stalled = Vec::new();
    for _ in 0..3 {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        s.write_all(format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes())
            .await
            .expect("write");
        stalled.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A new client is served at once: the oldest stalled connection makes room.
    let started = Instant::now();
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{init}",
        init.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    let session =
        text.lines().find_map(|l| l.strip_prefix("mcp-session-id: ").map(|v| v.trim().to_string()));
    // The stalled ones are all cut off (one to make room, the rest at the header timeout).
    for mut s in stalled {
        let mut buf = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut buf)).await;
        assert!(read.is_ok(), "a stalled header must be cut off");
    }
    // Three working clients on kept-alive connections fill the cap: a fourth is told at once
    // to come back, and none of theirs is closed for it.
    let mut working = Vec::new();
    for _ in 0..3 {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let ping = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
        let req = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{ping}",
            ping.len()
        );
        s.write_all(req.as_bytes()).await.expect("write");
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).await.expect("an answer");
        assert!(n > 0);
        working.push(s);
    }
    let (status, body) = raw_http(addr, &[], init).await;
    assert_eq!(status, 503, "{body}");
    drop(working);
    let session = session.expect("a session");
    // Idle past its limit, the session is gone: a call on it is refused, not served.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let (status, body) = raw_http(
        addr,
        &[("Mcp-Session-Id", session.as_str()), ("Mcp-Protocol-Version", "2025-11-25")],
        ping,
    )
    .await;
    assert_eq!(status, 404, "an expired session must be gone: {body}");
    assert!(body.contains("Session not found"), "{body}");
    stop.cancel();
    let _ = server.await;
}

/// `mcp --cochange` turns co-change on for a served root: the deriver mines the history once
/// the root is quiet, and symbol_context lists the files that usually change with the
/// symbol's (main.go and store/store.go changed together in three commits and the first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cochange_is_derived_for_roots_served_with_it() {
    let fx = fixture(GO_FLOW);
    for n in 0..3 {
        for f in ["main.go", "store/store.go"] {
            let p = fx.root.join(f);
            let old = std::fs::read_to_string(&p).expect("read");
            std::fs::write(&p, format!("{old}// {n}\n")).expect("write");
        }
        codegraph_tests::cli::git(&fx.root, &["commit", "-qam", &format!("both {n}")]);
    }
    let db = fx.root.parent().expect("parent").join("cochange.db");
    let opts = RootOptions {
        build_wait: Duration::from_secs(60),
        cochange: true,
        ..RootOptions::default()
    };
    let roots = Arc::new(RootSet::new(vec![RootHandle::new(fx.root.clone(), db, opts)], None));
    let client = connect(roots.clone()).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let c = ok(&client, "symbol_context", json!({"target": "Save"})).await;
        if c["co_changed_total"] == 1 {
            assert_eq!(
                c["co_changed"],
                json!([{"file": "main.go", "support": 4, "confidence": 1.0}]),
                "{c}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "no co-change derived: {c}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // A commit that changes no file publishes no revision; the deriver still sees HEAD move.
    codegraph_tests::cli::git(&fx.root, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    let head = String::from_utf8(
        std::process::Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(&fx.root)
            .output()
            .expect("git rev-parse")
            .stdout,
    )
    .expect("utf-8");
    let db = fx.root.parent().expect("parent").join("cochange.db");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let stamp = {
            let mut store = codegraph_query::Store::open_read_only(&db).expect("open");
            let reader = store.reader().expect("reader");
            codegraph_engine::cochange::stamp(&reader).expect("stamp")
        };
        if stamp.as_ref().is_some_and(|s| s["head"] == head.trim()) {
            assert_eq!(stamp.as_ref().map(|s| s["commits"].clone()), Some(json!(5)));
            break;
        }
        assert!(Instant::now() < deadline, "co-change not refreshed after a commit: {stamp:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    client.cancel().await.expect("cancel");
}

/// `graph_query` is neither listed nor callable unless the operator allowed it; allowed, it
/// answers one read-only SELECT with revision and staleness like every tool, refuses writes,
/// and keeps to its row limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_query_only_when_allowed_and_read_only() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let plain = connect(roots.clone()).await;
    ready(&plain).await;
    let listed = plain.list_all_tools().await.expect("tools/list");
    assert!(listed.iter().all(|t| t.name != "graph_query"));
    let args = json!({"sql": "SELECT 1"});
    let Value::Object(map) = args else { unreachable!() };
    let refused =
        plain.call_tool(CallToolRequestParams::new("graph_query").with_arguments(map)).await;
    assert!(refused.is_err() || refused.is_ok_and(|r| r.is_error == Some(true)));

    let client = connect_with(roots.clone(), true).await;
    ready(&client).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let gq = tools.iter().find(|t| t.name == "graph_query").expect("graph_query listed");
    let description = gq.description.as_deref().unwrap_or_default();
    // The description is a literal (so a reader of the source sees it); it names every view
    // and column exactly as the schema crate defines them.
    let views = format!("Views: {}.", codegraph_schema::query_views::describe_compact());
    assert!(description.starts_with("Read-only SQLite SELECT"), "{description}");
    assert!(description.ends_with(&views), "{description}\nshould end with\n{views}");
    let size = serde_json::to_string(&tools).expect("json").len();
    eprintln!("tools/list with graph_query: {} tools, {size} characters", tools.len());
    // The views it documents are ~0.8k of it.
    assert!(size < 11_000, "tools/list with graph_query is {size} characters");

    let v = ok(
        &client,
        "graph_query",
        json!({"sql": "SELECT src, line FROM edges WHERE dst = 'sym:ts:src/greet.ts:greet' AND kind = 'CALLS'"}),
    )
    .await;
    assert_eq!(v["columns"], json!(["src", "line"]));
    assert_eq!(v["rows"], json!([["sym:ts:src/main.ts:main", 6]]));
    assert_eq!((v["row_count"].clone(), v["truncated"].clone()), (json!(1), json!(false)));
    assert!(v["revision"].is_i64(), "{v}");
    assert_eq!(v["stale"], json!(false));

    let v = ok(
        &client,
        "graph_query",
        json!({"sql": "SELECT path FROM files ORDER BY path", "limit": 2}),
    )
    .await;
    assert_eq!(v["rows"], json!([["src/greet.ts"], ["src/main.ts"]]));
    assert_eq!(v["truncated"], json!(true));

    let (is_error, v) = call(&client, "graph_query", json!({"sql": "DELETE FROM node"})).await;
    assert!(is_error, "{v}");
    assert!(v.to_string().contains("read-only"), "{v}");
    let (is_error, v) = call(&client, "graph_query", json!({"sql": "SELECT * FROM source"})).await;
    assert!(is_error, "{v}");
    assert!(v.to_string().contains("`source` is not one of the query views"), "{v}");
}

/// `code_grep`: every matching line of the indexed files under its innermost symbol, with the
/// symbol's kind, lines, callers and dependents; `total` counts every matching line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_grep_places_hits_in_symbols() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots).await;
    ready(&client).await;
    let v = ok(&client, "code_grep", json!({"pattern": "helper\\(\\)"})).await;
    assert_eq!((v["total"].clone(), v["files"].clone()), (json!(3), json!(2)), "{v}");
    assert_eq!(
        v["groups"],
        json!([
            {"symbol": "sym:ts:src/greet.ts:helper", "kind": "function", "lines": "5-5",
             "callers": 0, "dependents": 0, "hits": [[5, "export function helper() { return 1; }"]]},
            {"symbol": "sym:ts:src/server.ts:Server.start", "kind": "method", "lines": "2-2",
             "callers": 1, "dependents": 1, "hits": [[2, "  start() { return helper(); }"]]},
            {"symbol": "sym:ts:src/server.ts:helper", "kind": "function", "lines": "4-4",
             "callers": 1, "dependents": 1, "hits": [[4, "function helper() { return 2; }"]]}
        ]),
        "{v}"
    );
    assert_eq!(v["stale"], json!(false));
    let v = ok(
        &client,
        "code_grep",
        json!({"pattern": "HELPER", "ignore_case": true, "path": "greet", "limit": 1}),
    )
    .await;
    assert_eq!((v["total"].clone(), v["groups_total"].clone()), (json!(1), json!(1)), "{v}");
    let (is_error, v) = call(&client, "code_grep", json!({"pattern": "("})).await;
    assert!(is_error && v.to_string().contains("invalid regular expression"), "{v}");
}

/// `code_search` says the limit it used (at most 100) and never echoes a huge query whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_search_reports_its_real_limit_and_cuts_the_echo() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots).await;
    ready(&client).await;
    let v = ok(&client, "code_search", json!({"query": "greet", "limit": 500})).await;
    assert_eq!(v["limit"], json!(100), "{v}");
    let v = ok(&client, "code_search", json!({"query": "greet", "limit": 0})).await;
    assert_eq!(v["limit"], json!(100), "{v}");
    let huge = "g".repeat(100_000);
    let (_, v) = call(&client, "code_search", json!({"query": huge})).await;
    let text = v.to_string();
    assert!(text.len() < 2_000, "{} characters", text.len());
}

/// A flow ID asked for before the flows of the revision are computed is said to be computing
/// (retry), not unknown; once computed, an unknown one points at the MCP tool, not a command.
#[test]
fn flow_ids_before_and_after_the_flows_are_computed() {
    let fx = fixture(GO_FLOW);
    let db = fx.root.parent().expect("parent").join("flows.db");
    let opts = codegraph_engine::index::IndexOptions {
        max_file_size: codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE,
        progress: false,
        full: true,
        share: false,
        cache_from: None,
        counter: None,
    };
    codegraph_engine::engine::index(&fx.root, &db, &opts).expect("index");
    let open = |id: &str| {
        let mut store = codegraph_query::Store::open_read_only(&db).expect("open");
        let reader = store.reader().expect("reader");
        crate::answer::load_derived(&reader, id, true).map(|d| d.is_some())
    };
    let err = open("proc:sym:go:main.go:nope").expect_err("not computed yet");
    assert!(err.contains("being computed off the edit path: retry"), "{err}");
    assert_eq!(open("sym:go:main.go:main"), Ok(false));
    codegraph_engine::derived::ensure_current(&db).expect("derive");
    assert_eq!(open("proc:sym:go:main.go:main"), Ok(true));
    let err = open("proc:sym:go:main.go:nope").expect_err("unknown");
    assert!(
        err.contains("in symbol_context (`flows`)") && !err.contains("codegraph flows"),
        "{err}"
    );
}

/// `rename_plan`: the declaration and each reference as an exact edit, grouped by file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rename_plan_lists_exact_edits() {
    let fx = fixture(FIXTURE);
    let roots = Arc::new(RootSet::new(vec![handle(&fx.root)], None));
    let client = connect(roots).await;
    ready(&client).await;
    let v = ok(&client, "rename_plan", json!({"target": "greet", "new_name": "welcome"})).await;
    assert_eq!(v["edits_total"], 3, "{v}");
    let files: Vec<&str> =
        v["files"].as_array().into_iter().flatten().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(files, ["src/greet.ts", "src/main.ts"], "{v}");
    assert_eq!(v["files"][0]["edits"][0]["reason"], "declaration");
    assert_eq!(v["files"][1]["edits"][1]["line"], 6, "{v}");
    let (is_error, v) =
        call(&client, "rename_plan", json!({"target": "greet", "new_name": "9x"})).await;
    assert!(is_error && v.to_string().contains("is not an identifier"), "{v}");
}
