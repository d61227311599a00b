//! Read-your-writes through one `codegraph mcp` serving a repository and its git worktrees
//! (issue 46): agents, each in its own worktree, write a new function that calls `Target` and
//! ask at once, and branch switches happen in between. For every answer, `stale: false` must
//! mean the answer reflects every write that completed before the request was sent: the new
//! caller is in `impact_analysis` of `Target`, and `code_search` finds the new function. An
//! answer may say `stale: true` instead (then it may lag); it may never claim to be current
//! and lag.

use codegraph_tests::cli::{git, git_fixture};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_codegraph");

/// Edits per agent (every fourth after a branch switch).
const EDITS: usize = 40;

type Client = RunningService<RoleClient, ClientConfig>;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(roots: &[PathBuf], cache: &Path) -> (Server, String) {
    let mut child = Command::new(BIN)
        .arg("mcp")
        .args(roots)
        .args(["--http", "127.0.0.1:0"])
        .env("CODEGRAPH_CACHE_DIR", cache)
        .env("CODEGRAPH_EVENTS", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codegraph mcp");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("codegraph mcp: listening on ") {
                let _ = tx.send(url.trim().to_string());
            }
        }
    });
    let url = rx.recv_timeout(Duration::from_secs(30)).expect("the server listens");
    (Server(child), url)
}

async fn connect(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.to_string()),
    );
    ClientConfig::default().serve(transport).await.expect("MCP handshake")
}

/// Whether a `code_search` answer has a hit named `name` (the query is echoed, so the text
/// alone would always name it).
fn hit(v: &Value, name: &str) -> bool {
    v["hits"].as_array().is_some_and(|h| h.iter().any(|h| h["name"] == json!(name)))
}

/// The answer's JSON and its text.
async fn call(client: &Client, tool: &str, args: Value) -> (Value, String) {
    let args = args.as_object().cloned().unwrap_or_default();
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .expect("tools/call");
    let text =
        r.content.iter().find_map(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
    assert_ne!(r.is_error, Some(true), "{tool} failed: {text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{tool}: {e}: {text}"));
    (v, text)
}

const FIXTURE: &str = r#"
//- /go.mod
module example.com/app

go 1.21
//- /target.go
package app

func Target() int { return 1 }
//- /first.go
package app

func First() int { return Target() }
"#;

/// The Go source of an agent's file at its `n`th edit: one function `Agent{a}Caller{n}`
/// calling `Target` (each edit renames it, so every answer's lists stay short).
fn agent_file(a: usize, n: usize) -> String {
    format!("package app\n\nfunc Agent{a}Caller{n}() int {{ return Target() }}\n")
}

/// What one agent saw: answers that claimed to be current and lagged, answers in all, and
/// how long each write took to show (ms).
#[derive(Default)]
struct Seen {
    lies: Vec<String>,
    answers: usize,
    stale_answers: usize,
    /// Stale answers that named the agent's unpublished file in `pending_files`.
    named_pending: usize,
    visible_ms: Vec<f64>,
}

async fn agent(url: String, a: usize, root: PathBuf, edits: usize) -> Seen {
    let client = connect(&url).await;
    let root_arg = root.display().to_string();
    let mut seen = Seen::default();
    for n in 1..=edits {
        // Every fourth edit, a branch switch first: the branch adds `Switched{a}_{n}`, and
        // the answer right after the checkout must know it or say stale.
        if n % 4 == 0 {
            let branch = format!("b{a}_{n}");
            git(&root, &["checkout", "-q", "-b", &branch]);
            std::fs::write(
                root.join(format!("switched{a}.go")),
                format!("package app\n\nfunc Switched{a}_{n}() int {{ return Target() }}\n"),
            )
            .expect("write");
            git(&root, &["add", "-A"]);
            git(&root, &["commit", "-q", "-m", "branch"]);
            git(&root, &["checkout", "-q", "-"]);
            git(&root, &["checkout", "-q", &branch]);
            let (v, text) = call(
                &client,
                "code_search",
                json!({"query": format!("Switched{a}_{n}"), "root": root_arg}),
            )
            .await;
            seen.answers += 1;
            if v["stale"] == json!(false) && !hit(&v, &format!("Switched{a}_{n}")) {
                seen.lies.push(format!("after checkout of {branch}: code_search says current without Switched{a}_{n}: {text}"));
            }
            if v["stale"] == json!(true) {
                seen.stale_answers += 1;
            }
        }
        let name = format!("Agent{a}Caller{n}");
        std::fs::write(root.join(format!("agent{a}.go")), agent_file(a, n)).expect("write");
        let written = Instant::now();
        // Ask at once, then until the caller shows (bounded).
        loop {
            let (v, text) =
                call(&client, "code_search", json!({"query": name, "root": root_arg})).await;
            seen.answers += 1;
            let found = hit(&v, &name);
            if v["stale"] == json!(false) && !found {
                seen.lies
                    .push(format!("code_search {name}: stale false without the write: {text}"));
            }
            if v["stale"] == json!(true) {
                seen.stale_answers += 1;
                let file = json!(format!("agent{a}.go"));
                if v["pending_files"].as_array().is_some_and(|p| p.contains(&file)) {
                    seen.named_pending += 1;
                }
            }
            let (v, text) = call(
                &client,
                "impact_analysis",
                json!({"target": "Target", "direction": "upstream", "depth": 1, "root": root_arg}),
            )
            .await;
            seen.answers += 1;
            let found_caller = text.contains(&name);
            if v["stale"] == json!(false) && !found_caller {
                seen.lies.push(format!("impact of Target: stale false without {name}: {text}"));
            }
            if v["stale"] == json!(true) {
                seen.stale_answers += 1;
            }
            if found && found_caller {
                seen.visible_ms.push(written.elapsed().as_secs_f64() * 1000.0);
                break;
            }
            assert!(
                written.elapsed() < Duration::from_secs(20),
                "{name} never showed in {}",
                root.display()
            );
        }
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stale_false_answers_reflect_every_write_before_the_request() {
    let (dir, base, main) = git_fixture(FIXTURE);
    let mut roots = vec![main.clone()];
    for w in 1..=3 {
        let wt = base.join(format!("wt{w}"));
        git(&main, &["worktree", "add", "-q", "-b", &format!("wt{w}"), &wt.display().to_string()]);
        roots.push(wt);
    }
    let cache = base.join("cache");
    let (_server, url) = start(&roots, &cache);
    // Every root ready first (its first index built or seeded).
    let warm = connect(&url).await;
    for r in &roots {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (v, _) = call(
                &warm,
                "impact_analysis",
                json!({"target": "Target", "root": r.display().to_string()}),
            )
            .await;
            if v["stale"] == json!(false) {
                break;
            }
            assert!(Instant::now() < deadline, "{} never became fresh: {v}", r.display());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let agents: Vec<_> = roots
        .iter()
        .enumerate()
        .map(|(a, r)| tokio::spawn(agent(url.clone(), a, r.clone(), EDITS)))
        .collect();
    let mut lies = Vec::new();
    let (mut answers, mut stale, mut visible, mut named) = (0, 0, Vec::new(), 0);
    for a in agents {
        let s = a.await.expect("agent");
        lies.extend(s.lies);
        answers += s.answers;
        stale += s.stale_answers;
        named += s.named_pending;
        visible.extend(s.visible_ms);
    }
    visible.sort_by(f64::total_cmp);
    let p = |q: f64| visible[((visible.len() - 1) as f64 * q).round() as usize];
    println!(
        "{answers} answers, {stale} said stale, {} said current without a write made before them; write visible p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        lies.len(),
        p(0.5),
        p(0.95),
        p(1.0)
    );
    assert!(
        lies.is_empty(),
        "{} answers said stale: false without a write made before them:\n{}",
        lies.len(),
        lies.join("\n")
    );
    assert_eq!(visible.len(), 4 * EDITS, "every write showed");
    assert!(named > 0, "stale answers name the files whose edits are not published yet");
    drop(dir);
}
