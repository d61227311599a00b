//! `codegraph-bench attack`: replays issue 25's attack set against the release binary with
//! bounded counts and time, and prints one table (docs/BENCHMARKS.md): a 16k-word search, an
//! HTTP keep-alive connection's call latency, RSS before and after 1,000 sessions nobody
//! closes (once they idled out, and after a second burst), stalled connections against a new client, and the peak
//! RSS of 1,000 pipelined stdio calls.
//!
//! Plain blocking sockets and a minimal HTTP/1.1 reader (Content-Length or chunked bodies),
//! so what is measured is the server, not a client library.

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Args {
    root: Option<PathBuf>,
    bin: PathBuf,
    stalled: usize,
    sessions: usize,
    pipelined: usize,
    /// Seconds to wait after the sessions' idle limit (5 s) before measuring RSS again.
    idle_wait: u64,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let mut a = Args {
        root: None,
        bin: PathBuf::from("target/dist/codegraph"),
        stalled: 300,
        sessions: 1000,
        pipelined: 1000,
        idle_wait: 8,
    };
    while let Some(arg) = it.next() {
        let mut num = |name: &str| -> Result<usize> {
            it.next().and_then(|v| v.parse().ok()).with_context(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--bin" => a.bin = PathBuf::from(it.next().context("--bin needs a path")?),
            "--stalled" => a.stalled = num("--stalled")?,
            "--sessions" => a.sessions = num("--sessions")?,
            "--pipelined" => a.pipelined = num("--pipelined")?,
            "--idle-wait" => a.idle_wait = num("--idle-wait")? as u64,
            other if !other.starts_with('-') => a.root = Some(PathBuf::from(other)),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(a)
}

/// A small TypeScript root (40 files that call each other) when none is given.
fn small_root(dir: &Path) -> Result<PathBuf> {
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("src"))?;
    for i in 0..40 {
        let next = (i + 1) % 40;
        let text = format!(
            "import {{ f{next} }} from \"./m{next}\";\nexport function f{i}(x: number): number {{\n  return x > 0 ? f{next}(x - 1) : {i};\n}}\n"
        );
        std::fs::write(root.join(format!("src/m{i}.ts")), text)?;
    }
    Ok(root)
}

fn status_kib(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or("?".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
}

/// One HTTP/1.1 response: (status, headers lowercased, body).
type Response = (u16, Vec<(String, String)>, Vec<u8>);

fn read_response(r: &mut BufReader<TcpStream>) -> Result<Response> {
    let mut line = String::new();
    r.read_line(&mut line)?;
    let status: u16 = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 || h == "\r\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let mut body = Vec::new();
    if let Some(n) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(n, 0);
        r.read_exact(&mut body)?;
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            r.read_line(&mut size)?;
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk)?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        r.read_to_end(&mut body)?;
    }
    Ok((status, headers, body))
}

fn post(addr: &str, session: Option<&str>, keep_alive: bool, body: &str) -> String {
    let mut req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\n"
    );
    if let Some(s) = session {
        req.push_str(&format!("Mcp-Session-Id: {s}\r\n"));
    }
    if !keep_alive {
        req.push_str("Connection: close\r\n");
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    req
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"attack-bench","version":"1"}}}"#;

/// Opens a session on a new connection: (status, session ID).
fn initialize(addr: &str) -> Result<(u16, Option<String>)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    s.write_all(post(addr, None, false, INIT).as_bytes())?;
    let (status, headers, _) = read_response(&mut BufReader::new(s))?;
    let id = headers.into_iter().find(|(k, _)| k == "mcp-session-id").map(|(_, v)| v);
    Ok((status, id))
}

struct HttpServer {
    child: Child,
    addr: String,
}

impl HttpServer {
    fn start(bin: &Path, root: &Path, cache: &Path) -> Result<HttpServer> {
        let mut child = Command::new(bin)
            .arg("mcp")
            .arg(root)
            .args(["--http", "127.0.0.1:0", "--session-idle-secs", "5"])
            .env("CODEGRAPH_CACHE_DIR", cache)
            .env("CODEGRAPH_EVENTS", "off")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .context("spawn codegraph mcp --http")?;
        let stderr = child.stderr.take().context("stderr")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("codegraph mcp: listening on http://") {
                    let _ = tx.send(url.trim_end_matches("/mcp").to_string());
                }
            }
        });
        let addr = rx.recv_timeout(Duration::from_secs(30)).context("the server never listened")?;
        Ok(HttpServer { child, addr })
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    if !a.bin.exists() {
        bail!("{} not found: cargo build --profile dist -p codegraph-server", a.bin.display());
    }
    let tmp = std::env::temp_dir().join(format!("codegraph-attack-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let root = match &a.root {
        Some(r) => std::fs::canonicalize(r)?,
        None => small_root(&tmp)?,
    };
    let cache = tmp.join("cache");
    let index = Command::new(&a.bin)
        .arg("index")
        .arg(&root)
        .env("CODEGRAPH_CACHE_DIR", &cache)
        .env("CODEGRAPH_EVENTS", "off")
        .output()?;
    if !index.status.success() {
        bail!("index failed: {}", String::from_utf8_lossy(&index.stderr));
    }
    let mut rows: Vec<(String, String)> = Vec::new();

    // 1. A 16k-word query: refused at once (or answered within 0.5 s).
    let words: Vec<String> = (0..16_000).map(|i| format!("w{i}")).collect();
    let t = Instant::now();
    let out = Command::new(&a.bin)
        .args(["search", &words.join(" "), "--root"])
        .arg(&root)
        .env("CODEGRAPH_CACHE_DIR", &cache)
        .env("CODEGRAPH_EVENTS", "off")
        .output()?;
    let took = t.elapsed();
    let refused = String::from_utf8_lossy(&out.stderr).contains("at most");
    rows.push((
        "search with 16,000 words".into(),
        format!(
            "{} in {:.0} ms",
            if refused { "refused" } else { "answered" },
            took.as_secs_f64() * 1000.0
        ),
    ));

    // 2. HTTP: keep-alive latency, idle sessions, stalled connections.
    let server = HttpServer::start(&a.bin, &root, &cache)?;
    let addr = server.addr.clone();
    let pid = server.child.id();
    let (status, session) = initialize(&addr)?;
    let session =
        session.with_context(|| format!("initialize answered {status} without a session"))?;
    {
        let s = TcpStream::connect(&addr)?;
        s.set_read_timeout(Some(Duration::from_secs(20)))?;
        let mut w = s.try_clone()?;
        let mut r = BufReader::new(s);
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
        w.write_all(post(&addr, Some(&session), true, &note).as_bytes())?;
        read_response(&mut r)?;
        let mut times = Vec::new();
        for i in 0..200 {
            let call = json!({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                "params": {"name": "code_search", "arguments": {"query": "f1"}}})
            .to_string();
            let t = Instant::now();
            w.write_all(post(&addr, Some(&session), true, &call).as_bytes())?;
            let (status, _, body) = read_response(&mut r)?;
            if status != 200 || !String::from_utf8_lossy(&body).contains("f1") {
                bail!("keep-alive call {i} answered {status}");
            }
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        rows.push((
            "HTTP keep-alive call, p50 / p95 (200 code_search)".into(),
            format!("{:.2} ms / {:.2} ms", times[100], times[190]),
        ));
    }
    let before = status_kib(pid, "VmRSS:");
    let t = Instant::now();
    for _ in 0..a.sessions {
        initialize(&addr)?;
    }
    let with_sessions = status_kib(pid, "VmRSS:");
    rows.push((
        format!("RSS: before / after {} sessions never closed", a.sessions),
        format!(
            "{} / {} ({:.1} s to open)",
            mib(before),
            mib(with_sessions),
            t.elapsed().as_secs_f64()
        ),
    ));
    std::thread::sleep(Duration::from_secs(a.idle_wait));
    let expired = initialize(&addr).is_ok();
    rows.push((
        format!("RSS once they idled out (--session-idle-secs 5, +{} s)", a.idle_wait),
        format!(
            "{}{}",
            mib(status_kib(pid, "VmRSS:")),
            if expired { "" } else { " (server down!)" }
        ),
    ));
    // Expired sessions' memory is reused: a second burst does not add the first one's again.
    for _ in 0..a.sessions {
        initialize(&addr)?;
    }
    rows.push((
        format!("RSS after {} more sessions (the first expired)", a.sessions),
        mib(status_kib(pid, "VmRSS:")),
    ));
    // Stalled connections: each sends half a header and waits.
    let mut stalled = Vec::new();
    for _ in 0..a.stalled {
        match TcpStream::connect(&addr) {
            Ok(mut s) => {
                let _ = s.write_all(
                    format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes(),
                );
                stalled.push(s);
            }
            Err(_) => break,
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let first = initialize(&addr).map(|(s, _)| s).unwrap_or(0);
    let first_ms = t.elapsed().as_secs_f64() * 1000.0;
    let mut served_after = None;
    while t.elapsed() < Duration::from_secs(30) {
        if initialize(&addr).is_ok_and(|(s, _)| s == 200) {
            served_after = Some(t.elapsed().as_secs_f64());
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    rows.push((
        format!("{} stalled connections: a new client", stalled.len()),
        format!(
            "answered {first} in {first_ms:.0} ms; served after {}",
            served_after.map_or("> 30 s".into(), |s| format!("{s:.1} s"))
        ),
    ));
    drop(stalled);
    drop(server);

    // 3. Pipelined stdio calls: peak RSS while they are answered.
    let mut child = Command::new(&a.bin)
        .arg("mcp")
        .arg(&root)
        .env("CODEGRAPH_CACHE_DIR", &cache)
        .env("CODEGRAPH_EVENTS", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = child.id();
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut lines = BufReader::new(child.stdout.take().context("stdout")?).lines();
    writeln!(stdin, "{INIT}")?;
    lines.next().context("no initialize answer")??;
    writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let call = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "symbol_context", "arguments": {"target": "f1"}}})
    };
    writeln!(stdin, "{}", call(2))?;
    lines.next().context("no answer")??;
    let settled = status_kib(pid, "VmRSS:");
    let n = a.pipelined;
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        let mut batch = String::new();
        for id in 100..100 + n {
            batch.push_str(&format!("{}\n", call(id)));
        }
        stdin.write_all(batch.as_bytes())?;
        stdin.flush()?;
        // Keep stdin open until the answers are read.
        std::thread::sleep(Duration::from_secs(120));
        Ok(())
    });
    let t = Instant::now();
    let mut answered = 0;
    let mut peak = 0;
    while answered < n {
        let Some(line) = lines.next() else { break };
        let v: Value = serde_json::from_str(&line?).unwrap_or(Value::Null);
        if v.get("id").is_some() {
            answered += 1;
        }
        if answered % 50 == 0 {
            peak = peak.max(status_kib(pid, "VmRSS:").unwrap_or(0));
        }
    }
    let hwm = status_kib(pid, "VmHWM:");
    rows.push((
        format!("{n} pipelined stdio symbol_context calls"),
        format!(
            "{answered} answered in {:.1} s; RSS settled {} -> peak {} (high-water {})",
            t.elapsed().as_secs_f64(),
            mib(settled),
            mib(Some(peak)),
            mib(hwm)
        ),
    ));
    let _ = child.kill();
    let _ = child.wait();
    drop(writer);

    let files = std::fs::read_dir(root.join("src")).map_or(0, |d| d.count());
    println!(
        "attack replay on {} ({files} files in src/), binary {}",
        root.display(),
        a.bin.display()
    );
    println!("| attack | result |");
    println!("| --- | --- |");
    for (what, result) in &rows {
        println!("| {what} | {result} |");
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}
