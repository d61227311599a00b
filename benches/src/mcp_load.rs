//! `codegraph-bench mcp-load DIR`: the MCP server under concurrent load while the tree
//! changes. On a private copy of the corpus (`cp -rL`), the release `codegraph mcp COPY --http
//! 127.0.0.1:0` serves N concurrent rmcp clients (streamable HTTP), each making M calls in a
//! round-robin mix of code_search, symbol_context, impact_analysis, dag_grep and index_status,
//! while a thread edits ~20 files every `--edit-ms` (appended comments, appended functions, and
//! now and then a rewritten signature), so the server re-indexes under load.
//!
//! Checks, each a violation that fails the run: every call answers without an error; each
//! client's `revision` sequence never decreases; two calls with the same tool and arguments
//! that report the same revision give the same answer (minus `stale` and, for index_status,
//! the worker's live state; flows and clusters, computed in the background, are compared only
//! between answers that also name the same `flows_at` revision): no torn revisions; and once
//! the edits stop the server catches up (the last appended function is searchable and
//! `codegraph status` finds the index fresh).
//!
//! Prints calls, errors, wall time, throughput and p50/p95/p99 latency per tool and overall,
//! the revisions published during the run and the machine's core count (`--json` for a JSON
//! object instead). `--smoke` generates a dozen TypeScript files and runs 2 clients x 20 calls
//! in a few seconds, for CI. `--keep` keeps the work directory: the copy, the index and the
//! server's stderr in server.log (`CODEGRAPH_LOG=info` makes the server log every publish).

use anyhow::{Context, Result, bail};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

/// The tools of the mix, in round-robin order.
const TOOLS: [&str; 5] =
    ["code_search", "symbol_context", "impact_analysis", "dag_grep", "index_status"];

/// Search words that hit symbols in most Go and TypeScript trees (and the smoke corpus).
const WORDS: &[&str] =
    &["parse", "handle", "read", "write", "close", "encode", "buffer", "error", "format", "step"];

/// The prefix of every name the editor adds, searched for so answers change between revisions.
const MARK: &str = "cgload";

/// Files the editor cycles through.
const EDIT_FILES: usize = 20;

/// index_status fields that describe the worker's live state, not the published revision.
const LIVE_FIELDS: &[&str] = &[
    "phase",
    "watching",
    "pending_edits",
    "revisions_published",
    "last_publish_ms_ago",
    "last_publish_error",
    "watch_error",
];

/// Fields the server fills from the flows and clusters of some revision, named by `flows_at`.
const DERIVED_FIELDS: &[&str] = &["flows_at", "processes", "cluster"];

/// How the note that flows and clusters are not computed yet starts.
const DERIVED_NOTE: &str = "flows and clusters";

struct Args {
    dir: Option<PathBuf>,
    clients: usize,
    calls: usize,
    edit_ms: u64,
    bin: PathBuf,
    json: bool,
    smoke: bool,
    keep: bool,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let (mut clients, mut calls, mut edit_ms) = (None, None, None);
    let mut a = Args {
        dir: None,
        clients: 0,
        calls: 0,
        edit_ms: 0,
        bin: crate::sibling_binary()?,
        json: false,
        smoke: false,
        keep: false,
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--clients" => clients = Some(it.next().context("--clients N")?.parse()?),
            "--calls" => calls = Some(it.next().context("--calls M")?.parse()?),
            "--edit-ms" => edit_ms = Some(it.next().context("--edit-ms MS")?.parse()?),
            "--bin" => a.bin = PathBuf::from(it.next().context("--bin PATH")?),
            "--json" => a.json = true,
            "--smoke" => a.smoke = true,
            "--keep" => a.keep = true,
            other if other.starts_with("--") => bail!("unknown argument {other}"),
            other if a.dir.is_none() => a.dir = Some(PathBuf::from(other)),
            other => bail!("unexpected argument {other}"),
        }
    }
    if a.dir.is_none() && !a.smoke {
        bail!(
            "usage: codegraph-bench mcp-load DIR [--clients N] [--calls M] [--edit-ms MS] [--bin PATH] [--json] [--keep] | mcp-load --smoke"
        );
    }
    a.clients = clients.unwrap_or(if a.smoke { 2 } else { 8 }).max(1);
    a.calls = calls.unwrap_or(if a.smoke { 20 } else { 100 });
    // The smoke run is over in a fraction of a second: edit faster so it sees a few revisions.
    a.edit_ms = edit_ms.unwrap_or(if a.smoke { 5 } else { 50 });
    if a.edit_ms == 0 {
        bail!("--edit-ms must be at least 1");
    }
    Ok(a)
}

// ---------------------------------------------------------------------------------------------
// The corpus and its editor.

/// A dozen small TypeScript modules that import and call each other.
fn write_smoke_corpus(root: &Path) -> Result<()> {
    std::fs::create_dir_all(root.join("src"))?;
    for i in 0..12 {
        let mut s = String::new();
        if i > 0 {
            s.push_str(&format!("import {{ step{p} }} from \"./mod{p}\";\n\n", p = i - 1));
        }
        let prev = if i > 0 { format!("step{}(x)", i - 1) } else { "x".to_string() };
        s.push_str(&format!(
            "/** Step {i} of the pipeline. */\nexport function step{i}(x: number): number {{\n  return {prev} + {i};\n}}\n\n\
             export function parseItem{i}(s: string): number {{\n  return step{i}(s.length);\n}}\n\n\
             export class Handler{i} {{\n  handle(x: number): number {{\n    return parseItem{i}(String(x));\n  }}\n}}\n"
        ));
        std::fs::write(root.join(format!("src/mod{i}.ts")), s)?;
    }
    Ok(())
}

/// A file the editor changes: its first top-level function (0-based header line), whose
/// signature it rewrites now and then (the name, and so the node ID, stays).
struct EditFile {
    rel: String,
    name: String,
    line: usize,
    go: bool,
    original: String,
    rewritten: String,
    is_rewritten: bool,
}

/// The first top-level function header of a Go or TypeScript source: (line, name, header).
fn first_function(text: &str, go: bool) -> Option<(usize, String, String)> {
    for (i, l) in text.lines().enumerate() {
        let header = if go { l.strip_prefix("func ") } else { l.strip_prefix("export function ") };
        let Some(rest) = header else { continue };
        if !l.ends_with('{') || rest.starts_with('(') {
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() || !rest[name.len()..].starts_with('(') {
            continue;
        }
        return Some((i, name, l.to_string()));
    }
    None
}

/// Up to `n` editable files, evenly spread over the tree in path order.
fn edit_files(root: &Path, n: usize) -> Vec<EditFile> {
    let mut all = Vec::new();
    for crate::EditableSource { rel, lang, text } in crate::editable_sources(root) {
        // The load's signature edits are written for Go and TypeScript.
        let go = match lang {
            crate::SourceLang::Go => true,
            crate::SourceLang::Ts => false,
            crate::SourceLang::Py | crate::SourceLang::Java | crate::SourceLang::Rust => continue,
        };
        let Some((line, name, original)) = first_function(&text, go) else { continue };
        let open = format!("{name}(");
        let extra = if go { "cgloadExtra int" } else { "cgloadExtra: number" };
        let sep = if original.contains(&format!("{name}()")) { "" } else { ", " };
        let rewritten = original.replacen(&open, &format!("{open}{extra}{sep}"), 1);
        all.push(EditFile { rel, name, line, go, original, rewritten, is_rewritten: false });
    }
    all.sort_by(|a, b| a.rel.cmp(&b.rel));
    let step = (all.len() / n.max(1)).max(1);
    all.into_iter().step_by(step).take(n).collect()
}

#[derive(Default, Clone)]
struct EditStats {
    comments: usize,
    functions: usize,
    signatures: usize,
    failures: Vec<String>,
    /// The last function appended: (name, file).
    last_function: Option<(String, String)>,
    /// When the last edit was written.
    last_at: Option<Instant>,
}

impl EditStats {
    fn total(&self) -> usize {
        self.comments + self.functions + self.signatures
    }
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().append(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// Replaces one line (0-based), keeping every other byte of the file.
fn replace_line(path: &Path, line: usize, from: &str, to: &str) -> Result<()> {
    let text = std::fs::read_to_string(path)?;
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(l) = lines.get(line) else { bail!("{} has no line {}", path.display(), line + 1) };
    if l.trim_end_matches(['\n', '\r']) != from {
        bail!("{}:{} is not `{from}`", path.display(), line + 1);
    }
    let eol = &l[from.len()..];
    let new = format!("{to}{eol}");
    lines[line] = &new;
    std::fs::write(path, lines.concat())?;
    Ok(())
}

/// One edit, the `n`th, of a file: a signature rewrite every 10th, else an appended comment or
/// function. `k` rotates the kind per file, so that every file gets every kind of edit.
fn edit(root: &Path, f: &mut EditFile, n: usize, k: usize, stats: &mut EditStats) -> Result<()> {
    let path = root.join(&f.rel);
    if k % 10 == 9 {
        let (from, to) =
            if f.is_rewritten { (&f.rewritten, &f.original) } else { (&f.original, &f.rewritten) };
        replace_line(&path, f.line, from, to)?;
        f.is_rewritten = !f.is_rewritten;
        stats.signatures += 1;
    } else if k.is_multiple_of(2) {
        append(&path, &format!("// {MARK} edit {n}\n"))?;
        stats.comments += 1;
    } else {
        let name = format!("{MARK}Helper{n}");
        let body = if f.go {
            format!(
                "\n// {name} was added by the load bench.\nfunc {name}(x int) int {{ return x + {n} }}\n"
            )
        } else {
            format!(
                "\n/** {name} was added by the load bench. */\nexport function {name}(x: number): number {{ return x + {n}; }}\n"
            )
        };
        append(&path, &body)?;
        stats.functions += 1;
        stats.last_function = Some((name, f.rel.clone()));
    }
    Ok(())
}

/// Edits until `stop`, one edit every `every`.
fn editor(
    root: PathBuf,
    mut files: Vec<EditFile>,
    every: Duration,
    stop: Arc<AtomicBool>,
) -> EditStats {
    let mut stats = EditStats::default();
    let mut n = 0usize;
    let mut next = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        let i = n % files.len();
        let k = n / files.len() + i;
        if let Err(e) = edit(&root, &mut files[i], n, k, &mut stats)
            && stats.failures.len() < 10
        {
            stats.failures.push(format!("{e:#}"));
        }
        stats.last_at = Some(Instant::now());
        n += 1;
        next += every;
        // Sleep in slices, so that a long interval does not hold up the end of the run.
        loop {
            let now = Instant::now();
            if next <= now || stop.load(Ordering::SeqCst) {
                next = next.max(now);
                break;
            }
            std::thread::sleep((next - now).min(Duration::from_millis(20)));
        }
    }
    stats
}

// ---------------------------------------------------------------------------------------------
// The server.

pub(crate) struct Server {
    child: Child,
    /// stderr lines other than the listening line (last 200).
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts `codegraph mcp ROOT... --http 127.0.0.1:0`; its stderr also goes to `log_file`.
    pub(crate) fn spawn(
        bin: &Path,
        roots: &[PathBuf],
        cache: &Path,
        log_file: &Path,
    ) -> Result<(Server, String)> {
        let mut child = Command::new(bin)
            .arg("mcp")
            .args(roots)
            .args(["--http", "127.0.0.1:0"])
            .env("CODEGRAPH_CACHE_DIR", cache)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("spawn {} mcp", bin.display()))?;
        let stderr = child.stderr.take().context("piped stderr")?;
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let sink = log.clone();
        let mut file = std::fs::File::create(log_file)
            .with_context(|| format!("create {}", log_file.display()))?;
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(file, "{line}");
                if let Some(url) = line.strip_prefix("codegraph mcp: listening on ") {
                    let _ = tx.send(url.trim().to_string());
                    continue;
                }
                let mut log = sink.lock().unwrap_or_else(|p| p.into_inner());
                if log.len() >= 200 {
                    log.remove(0);
                }
                log.push(line);
            }
        });
        let mut server = Server { child, log };
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(url) => Ok((server, url)),
            Err(_) => {
                server.stop();
                bail!(
                    "no listening line from codegraph mcp in 30 s; stderr:\n{}",
                    server.log_text()
                )
            }
        }
    }

    fn log_text(&self) -> String {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).join("\n")
    }

    /// Warning and error lines the server logged.
    fn complaints(&self) -> Vec<String> {
        let log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        log.iter().filter(|l| l.contains("WARN") || l.contains("ERROR")).cloned().collect()
    }

    /// How the server exited, if it did before being asked to.
    fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(crate) fn stop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Clients.

pub(crate) async fn connect(url: &str) -> Result<Client> {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.to_string()),
    );
    ClientConfig::default().serve(transport).await.context("MCP handshake")
}

/// One tool call: the answer's JSON, or why there is none.
pub(crate) async fn call(client: &Client, tool: &str, args: &Value) -> Result<Value, String> {
    let args = args.as_object().cloned().unwrap_or_default();
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .map_err(|e| format!("protocol error: {e}"))?;
    let text = r
        .content
        .iter()
        .find_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .ok_or_else(|| "no text content".to_string())?;
    if r.is_error == Some(true) {
        return Err(format!("tool error: {}", clip(&text, 300)));
    }
    let v: Value =
        serde_json::from_str(&text).map_err(|e| format!("not JSON ({e}): {}", clip(&text, 300)))?;
    if !v["revision"].is_i64() || !v["stale"].is_boolean() || !v["root"].is_string() {
        return Err(format!("no revision/stale/root: {}", clip(&text, 300)));
    }
    Ok(v)
}

fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// Polls index_status until the root's index is ready: (seconds, status).
async fn wait_ready(client: &Client, timeout: Duration) -> Result<(f64, Value)> {
    let start = Instant::now();
    loop {
        match call(client, "index_status", &json!({})).await {
            Ok(v) if v["phase"] == "ready" => return Ok((start.elapsed().as_secs_f64(), v)),
            Ok(v) if v["phase"] == "failed" => bail!("indexing failed: {v}"),
            Ok(_) => {}
            Err(e) if e.starts_with("protocol error") => bail!("index_status: {e}"),
            Err(_) => {} // building: no revision yet
        }
        if start.elapsed() > timeout {
            bail!("the index was not ready after {timeout:?}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// What the clients ask about.
struct Pools {
    searches: Vec<String>,
    targets: Vec<String>,
    dags: Vec<String>,
}

/// Query targets from the index: the edited files' first functions (their answers change as
/// the files do) and functions and methods that common words find.
async fn pick_targets(client: &Client, files: &[EditFile]) -> Result<Pools> {
    let mut targets: Vec<String> = Vec::new();
    for f in files.iter().take(8) {
        let v = call(client, "code_search", &json!({"query": f.name, "limit": 50}))
            .await
            .map_err(anyhow::Error::msg)?;
        let hit = v["hits"].as_array().into_iter().flatten().find(|h| {
            h["name"].as_str() == Some(f.name.as_str()) && h["file"].as_str() == Some(&f.rel)
        });
        if let Some(id) = hit.and_then(|h| h["id"].as_str()) {
            targets.push(id.to_string());
        }
    }
    let mut searches: Vec<String> = Vec::new();
    for w in WORDS {
        let v = call(client, "code_search", &json!({"query": w, "limit": 10}))
            .await
            .map_err(anyhow::Error::msg)?;
        let hits = v["hits"].as_array().cloned().unwrap_or_default();
        if !hits.is_empty() {
            searches.push(w.to_string());
        }
        let ids = hits
            .iter()
            .filter(|h| matches!(h["kind"].as_str(), Some("function" | "method")))
            .filter_map(|h| h["id"].as_str())
            .take(2);
        targets.extend(ids.map(str::to_string));
    }
    let mut seen = BTreeSet::new();
    targets.retain(|t| seen.insert(t.clone()));
    targets.truncate(16);
    if targets.is_empty() {
        bail!("no function or method found to query (searched the edited files and {WORDS:?})");
    }
    let mut dags: Vec<String> = searches.iter().take(3).cloned().collect();
    dags.push(MARK.to_string());
    searches.push(MARK.to_string());
    searches.extend(files.iter().take(3).map(|f| f.name.clone()));
    Ok(Pools { searches, targets, dags })
}

/// The `i`th call of client `c`: (tool, arguments).
fn plan(pools: &Pools, c: usize, i: usize) -> (&'static str, Value) {
    let tool = TOOLS[(c + i) % TOOLS.len()];
    let j = i / TOOLS.len() + c * 7;
    let pick = |v: &[String]| v[j % v.len()].clone();
    let args = match tool {
        "code_search" => json!({"query": pick(&pools.searches), "limit": 10}),
        "symbol_context" => json!({"target": pick(&pools.targets)}),
        "impact_analysis" => json!({
            "target": pick(&pools.targets),
            "direction": if j.is_multiple_of(2) { "upstream" } else { "downstream" },
            "depth": 3,
        }),
        "dag_grep" => json!({"query": pick(&pools.dags), "k": 5, "depth": 2, "budget": 40}),
        _ => json!({}),
    };
    (tool, args)
}

/// One answered (or failed) call.
struct Record {
    client: usize,
    seq: usize,
    tool: &'static str,
    args: String,
    ms: f64,
    outcome: Result<Value, String>,
}

async fn run_client(client: Client, c: usize, calls: Vec<(&'static str, Value)>) -> Vec<Record> {
    let mut out = Vec::with_capacity(calls.len());
    for (seq, (tool, args)) in calls.into_iter().enumerate() {
        let start = Instant::now();
        let outcome = call(&client, tool, &args).await;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        out.push(Record { client: c, seq, tool, args: args.to_string(), ms, outcome });
    }
    let _ = client.cancel().await;
    out
}

// ---------------------------------------------------------------------------------------------
// Checks and figures.

/// The part of an answer that must be the same for the same call at the same revision: all
/// but `stale` and the worker's live state, and, unless `derived`, the flows and clusters
/// (computed in the background when the root is quiet, stamped with their own revision).
fn pinned(tool: &str, v: &Value, derived: bool) -> String {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v {
        m.remove("stale");
        m.remove("pending_files");
        if tool == "index_status" {
            for f in LIVE_FIELDS {
                m.remove(*f);
            }
        }
        if !derived {
            for f in DERIVED_FIELDS {
                m.remove(*f);
            }
            if let Some(Value::Array(notes)) = m.get_mut("notes") {
                notes.retain(|n| !n.as_str().is_some_and(|n| n.starts_with(DERIVED_NOTE)));
            }
        }
    }
    v.to_string()
}

/// The top-level keys whose values differ between two answers.
fn differing_keys(a: &str, b: &str) -> Vec<String> {
    let (Ok(Value::Object(a)), Ok(Value::Object(b))) =
        (serde_json::from_str::<Value>(a), serde_json::from_str::<Value>(b))
    else {
        return vec!["(whole answer)".into()];
    };
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).cloned().collect()
}

struct Checks {
    errors: Vec<String>,
    error_count: usize,
    order: Vec<String>,
    torn: Vec<String>,
    torn_groups: usize,
    torn_compared: usize,
    revisions: BTreeSet<i64>,
    stale: usize,
    /// (tool, arguments) pairs asked more than once, and those whose answer changed between
    /// revisions (the torn check only means something if answers do change).
    repeated: usize,
    changed: usize,
}

fn check(records: &[Record]) -> Checks {
    let mut c = Checks {
        errors: Vec::new(),
        error_count: 0,
        order: Vec::new(),
        torn: Vec::new(),
        torn_groups: 0,
        torn_compared: 0,
        revisions: BTreeSet::new(),
        stale: 0,
        repeated: 0,
        changed: 0,
    };
    let mut answers: HashMap<(&str, &str), (usize, BTreeSet<u64>)> = HashMap::new();
    let mut last: HashMap<usize, (i64, usize, &str)> = HashMap::new();
    type Seen = (String, usize, usize);
    let mut core_seen: HashMap<(&str, &str, i64), Seen> = HashMap::new();
    let mut full_seen: HashMap<(&str, &str, i64, Option<i64>), Seen> = HashMap::new();
    for r in records {
        let v = match &r.outcome {
            Ok(v) => v,
            Err(e) => {
                c.error_count += 1;
                if c.errors.len() < 5 {
                    c.errors.push(format!(
                        "client {} call {} {} {}: {e}",
                        r.client, r.seq, r.tool, r.args
                    ));
                }
                continue;
            }
        };
        let Some(rev) = v["revision"].as_i64() else { continue };
        c.revisions.insert(rev);
        if v["stale"] == true {
            c.stale += 1;
        }
        if let Some((prev, seq, tool)) = last.get(&r.client)
            && rev < *prev
        {
            c.order.push(format!(
                "client {}: call {} {} saw revision {rev} after call {seq} {tool} saw {prev}",
                r.client, r.seq, r.tool
            ));
        }
        last.insert(r.client, (rev, r.seq, r.tool));
        let mut unversioned = v.clone();
        if let Value::Object(m) = &mut unversioned {
            m.remove("revision");
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        pinned(r.tool, &unversioned, true).hash(&mut h);
        let e = answers.entry((r.tool, r.args.as_str())).or_default();
        e.0 += 1;
        e.1.insert(h.finish());
        // The index part at one revision; then everything, at one revision of the index and
        // one of the flows and clusters.
        let derived_rev = v["flows_at"]["computed_at_revision"].as_i64();
        let core = pinned(r.tool, v, false);
        let full = pinned(r.tool, v, true);
        let mut mismatch = None;
        match core_seen.get(&(r.tool, r.args.as_str(), rev)) {
            None => {
                c.torn_groups += 1;
                core_seen.insert((r.tool, r.args.as_str(), rev), (core.clone(), r.client, r.seq));
            }
            Some((first, client, seq)) => {
                c.torn_compared += 1;
                if *first != core {
                    mismatch = Some((differing_keys(first, &core), *client, *seq, "revision"));
                }
            }
        }
        match full_seen.get(&(r.tool, r.args.as_str(), rev, derived_rev)) {
            None => {
                full_seen
                    .insert((r.tool, r.args.as_str(), rev, derived_rev), (full, r.client, r.seq));
            }
            Some((first, client, seq)) => {
                if mismatch.is_none() && *first != full {
                    let keys = differing_keys(first, &full);
                    mismatch = Some((keys, *client, *seq, "revision and flows revision"));
                }
            }
        }
        if let Some((keys, client, seq, what)) = mismatch {
            c.torn.push(format!(
                "{} {} at the same {what} ({rev}, {derived_rev:?}): client {client} call {seq} and client {} call {} differ in {keys:?}",
                r.tool, r.args, r.client, r.seq
            ));
        }
    }
    c.repeated = answers.values().filter(|(n, _)| *n > 1).count();
    c.changed = answers.values().filter(|(_, set)| set.len() > 1).count();
    c
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One line of the table, per tool and overall.
struct Row {
    name: String,
    calls: usize,
    errors: usize,
    stale: usize,
    p50: f64,
    p95: f64,
    p99: f64,
    max: f64,
}

fn latency_rows(records: &[Record]) -> Vec<Row> {
    let row = |name: &str, rs: Vec<&Record>| -> Row {
        let mut ms: Vec<f64> = rs.iter().map(|r| r.ms).collect();
        ms.sort_by(f64::total_cmp);
        Row {
            name: name.to_string(),
            calls: ms.len(),
            errors: rs.iter().filter(|r| r.outcome.is_err()).count(),
            stale: rs
                .iter()
                .filter(|r| r.outcome.as_ref().is_ok_and(|v| v["stale"] == true))
                .count(),
            p50: percentile(&ms, 0.5),
            p95: percentile(&ms, 0.95),
            p99: percentile(&ms, 0.99),
            max: ms.last().copied().unwrap_or(f64::NAN),
        }
    };
    let mut rows: Vec<Row> =
        TOOLS.iter().map(|t| row(t, records.iter().filter(|r| r.tool == *t).collect())).collect();
    rows.push(row("overall", records.iter().collect()));
    rows
}

// ---------------------------------------------------------------------------------------------
// The run.

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    if !a.bin.is_file() {
        bail!(
            "no codegraph binary at {}: build it with `cargo build --profile dist -p codegraph-server` or pass --bin",
            a.bin.display()
        );
    }
    let work = std::env::temp_dir().join(format!("codegraph-mcp-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let root = work.join("root");
    let cache = work.join("cache");
    let corpus = match &a.dir {
        Some(dir) if !a.smoke => {
            let status = Command::new("cp").arg("-rL").arg(dir).arg(&root).status()?;
            if !status.success() {
                bail!("cannot copy {}", dir.display());
            }
            dir.display().to_string()
        }
        _ => {
            write_smoke_corpus(&root)?;
            "smoke (12 generated TypeScript files)".to_string()
        }
    };
    let root = std::fs::canonicalize(&root)?;
    let result = (|| -> Result<()> {
        let files = edit_files(&root, EDIT_FILES);
        if files.is_empty() {
            bail!("no editable Go or TypeScript function under {corpus}");
        }
        let (mut server, url) =
            Server::spawn(&a.bin, std::slice::from_ref(&root), &cache, &work.join("server.log"))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let outcome = runtime.block_on(bench(&a, &corpus, &root, &cache, &url, files));
        let exited = server.exited();
        let complaints = server.complaints();
        server.stop();
        let mut report = outcome?;
        if let Some(status) = exited {
            report.violations.push(format!("the server exited during the run: {status}"));
        }
        report.print(a.json, &complaints);
        if !report.violations.is_empty() {
            bail!("{} violation(s)", report.violations.len());
        }
        Ok(())
    })();
    if a.keep {
        eprintln!("kept {} (the copy, the index, server.log)", work.display());
    } else {
        let _ = std::fs::remove_dir_all(&work);
    }
    result
}

struct Report {
    json: Value,
    rows: Vec<Row>,
    violations: Vec<String>,
}

impl Report {
    fn print(&mut self, as_json: bool, complaints: &[String]) {
        self.json["server_log_warnings"] = json!(complaints);
        if as_json {
            self.json["violations"] = json!(self.violations);
            println!("{}", serde_json::to_string_pretty(&self.json).unwrap_or_default());
            return;
        }
        let j = &self.json;
        let t = &j["targets"];
        let names = |v: &Value| -> String {
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "machine: {} cores (nproc); corpus {} ({} files indexed, ready in {:.1} s)",
            j["machine"]["nproc"], j["corpus"], j["index"]["files"], j["index"]["ready_s"]
        );
        println!(
            "{} clients x {} calls over streamable HTTP; an edit every {} ms: {} edits ({} comments, {} functions, {} signature rewrites)",
            j["clients"],
            j["calls_per_client"],
            j["edit_ms"],
            j["edits"]["total"],
            j["edits"]["comments"],
            j["edits"]["functions"],
            j["edits"]["signatures"]
        );
        println!(
            "queries: {} symbols; searches: {}; dag_grep: {}",
            t["symbols"].as_array().map_or(0, Vec::len),
            names(&t["searches"]),
            names(&t["dag_queries"])
        );
        println!(
            "{:<16} {:>7} {:>7} {:>7} {:>9} {:>9} {:>9} {:>9}",
            "tool", "calls", "errors", "stale", "p50 ms", "p95 ms", "p99 ms", "max ms"
        );
        for r in &self.rows {
            println!(
                "{:<16} {:>7} {:>7} {:>7} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
                r.name, r.calls, r.errors, r.stale, r.p50, r.p95, r.p99, r.max
            );
        }
        println!(
            "wall {:.2} s, throughput {:.1} calls/s",
            j["wall_s"].as_f64().unwrap_or(f64::NAN),
            j["throughput_calls_per_s"].as_f64().unwrap_or(f64::NAN)
        );
        let r = &j["revisions"];
        println!(
            "revisions: {} before the load, {} when it ended, {} once settled; {} published during the load, {} in all; {} distinct seen by clients",
            r["before"],
            r["at_end"],
            r["settled"],
            r["published_during_load"],
            r["published_total"],
            r["distinct_seen"]
        );
        println!(
            "after the last edit: its appended function searchable in {} ms, the index fresh (index_status and `codegraph status`) in {} ms: {}",
            j["searchable_ms"].as_f64().map_or("-".to_string(), |ms| ms.to_string()),
            j["settled_ms"],
            j["final_status"]
        );
        let c = &j["checks"];
        println!(
            "checks: {} errors; revision order {} violations; torn revisions {} mismatches in {} comparisons over {} (tool, args, revision) groups; {} of {} repeated calls answered differently across revisions",
            c["errors"],
            c["order_violations"],
            c["torn_mismatches"],
            c["torn_compared"],
            c["torn_groups"],
            c["answers_changed"],
            c["repeated_calls"]
        );
        if !complaints.is_empty() {
            println!("server logged {} warning/error lines; first:", complaints.len());
            for l in complaints.iter().take(5) {
                println!("  {}", clip(l, 300));
            }
        }
        if self.violations.is_empty() {
            println!("ok: no violations");
        } else {
            println!("VIOLATIONS ({}):", self.violations.len());
            for v in self.violations.iter().take(20) {
                println!("  {v}");
            }
        }
    }
}

async fn bench(
    a: &Args,
    corpus: &str,
    root: &Path,
    cache: &Path,
    url: &str,
    files: Vec<EditFile>,
) -> Result<Report> {
    let (clients, calls) = (a.clients, a.calls);
    let control = connect(url).await?;
    let (ready_s, first) = wait_ready(&control, Duration::from_secs(900)).await?;
    let pools = pick_targets(&control, &files).await?;
    let before = call(&control, "index_status", &json!({})).await.map_err(anyhow::Error::msg)?;

    let mut sessions = Vec::with_capacity(clients);
    for _ in 0..clients {
        sessions.push(connect(url).await?);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let edit_files_count = files.len();
    let editor_thread = {
        let (root, stop) = (root.to_path_buf(), stop.clone());
        let every = Duration::from_millis(a.edit_ms);
        std::thread::spawn(move || editor(root, files, every, stop))
    };
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(clients);
    for (c, session) in sessions.into_iter().enumerate() {
        let list: Vec<(&'static str, Value)> = (0..calls).map(|i| plan(&pools, c, i)).collect();
        tasks.push(tokio::spawn(run_client(session, c, list)));
    }
    let mut records = Vec::with_capacity(clients * calls);
    for t in tasks {
        records.extend(t.await.context("a client task panicked")?);
    }
    let wall = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::SeqCst);
    let edits = editor_thread.join().map_err(|_| anyhow::anyhow!("the editor panicked"))?;
    let last_edit = edits.last_at.unwrap_or_else(Instant::now);
    let at_end = call(&control, "index_status", &json!({})).await.map_err(anyhow::Error::msg)?;

    let mut violations = Vec::new();
    // Catching up: the last appended function becomes searchable, then the worker holds
    // nothing and a stat walk of the tree (`codegraph status`) finds the index fresh.
    let ms_since = |t: Instant| (t.elapsed().as_secs_f64() * 1000.0).round();
    let mut searchable_ms = Value::Null;
    if let Some((name, file)) = &edits.last_function {
        let deadline = last_edit + Duration::from_secs(60);
        loop {
            let found = call(&control, "code_search", &json!({"query": name, "limit": 5}))
                .await
                .map_err(anyhow::Error::msg)?["hits"]
                .as_array()
                .is_some_and(|h| h.iter().any(|h| h["name"] == *name && h["file"] == *file));
            if found {
                searchable_ms = json!(ms_since(last_edit));
                break;
            }
            if Instant::now() > deadline {
                violations.push(format!(
                    "{name} (appended to {file}) not searchable 60 s after the last edit"
                ));
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let deadline = last_edit + Duration::from_secs(60);
    let (settled, final_status) = loop {
        let v = call(&control, "index_status", &json!({})).await.map_err(anyhow::Error::msg)?;
        let late = Instant::now() > deadline;
        if (v["pending_edits"] == false && v["stale"] == false) || late {
            let status = final_status(&a.bin, root, cache);
            if late || status.as_ref().is_ok_and(|s| s["stale"] == false) {
                break (v, status);
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let settled_ms = ms_since(last_edit);
    if settled["stale"] != false {
        violations.push(format!("index_status still stale 60 s after the last edit: {settled}"));
    }
    match &final_status {
        Ok(v) if v["stale"] == false => {}
        Ok(v) => violations.push(format!("`codegraph status` after the run: {v}")),
        Err(e) => violations.push(format!("`codegraph status` after the run failed: {e:#}")),
    }
    let _ = control.cancel().await;

    let checks = check(&records);
    violations.extend(checks.errors.iter().cloned());
    if checks.error_count > checks.errors.len() {
        violations.push(format!("... {} errors in all", checks.error_count));
    }
    violations.extend(checks.order.iter().cloned());
    violations.extend(checks.torn.iter().cloned());
    violations.extend(edits.failures.iter().map(|e| format!("edit failed: {e}")));

    let rows = latency_rows(&records);
    let published = |v: &Value| v["revisions_published"].as_u64().unwrap_or(0);
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let tools: serde_json::Map<String, Value> = rows
        .iter()
        .map(|r| {
            let v = json!({
                "calls": r.calls,
                "errors": r.errors,
                "stale": r.stale,
                "p50_ms": r.p50,
                "p95_ms": r.p95,
                "p99_ms": r.p99,
                "max_ms": r.max,
            });
            (r.name.clone(), v)
        })
        .collect();
    let json = json!({
        "machine": {"nproc": nproc},
        "corpus": corpus,
        "index": {"ready_s": (ready_s * 10.0).round() / 10.0, "files": first["files"], "symbols": first["symbols"], "edges": first["edges"], "revision": first["revision"]},
        "clients": clients,
        "calls_per_client": calls,
        "edit_ms": a.edit_ms,
        "edit_files": edit_files_count,
        "edits": {"total": edits.total(), "comments": edits.comments, "functions": edits.functions, "signatures": edits.signatures},
        "targets": {"searches": pools.searches, "symbols": pools.targets, "dag_queries": pools.dags},
        "wall_s": wall,
        "throughput_calls_per_s": records.len() as f64 / wall,
        "latency": tools,
        "revisions": {
            "before": before["revision"],
            "at_end": at_end["revision"],
            "settled": settled["revision"],
            "published_during_load": published(&at_end).saturating_sub(published(&before)),
            "published_total": published(&settled),
            "distinct_seen": checks.revisions.len(),
        },
        "stale_answers": checks.stale,
        "searchable_ms": searchable_ms,
        "settled_ms": settled_ms,
        "final_status": final_status.as_ref().map_or_else(|e| json!(format!("{e:#}")), |v| v["freshness"].clone()),
        "checks": {
            "errors": checks.error_count,
            "order_violations": checks.order.len(),
            "torn_mismatches": checks.torn.len(),
            "torn_compared": checks.torn_compared,
            "torn_groups": checks.torn_groups,
            "repeated_calls": checks.repeated,
            "answers_changed": checks.changed,
        },
    });
    Ok(Report { json, rows, violations })
}

/// `codegraph status --json ROOT` against the server's index: a stat walk of the tree.
fn final_status(bin: &Path, root: &Path, cache: &Path) -> Result<Value> {
    let out = Command::new(bin)
        .args(["status", "--json"])
        .arg(root)
        .env("CODEGRAPH_CACHE_DIR", cache)
        .output()
        .context("run codegraph status")?;
    if !out.status.success() {
        bail!("codegraph status failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(serde_json::from_slice(&out.stdout)?)
}
