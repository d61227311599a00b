//! `codegraph-bench agents DIR|--smoke [--worktrees N] [--secs S] [--mode grow|flip]
//! [--switch-every K] [--rss-every S] [--pause-ms MS] [--bin PATH]`: many agents, one server
//! (issue 46).
//!
//! DIR (Go sources) is copied into a private git repository with N-1 extra worktrees; one
//! release `codegraph mcp` serves all N roots over streamable HTTP, and one agent per root,
//! all at once, for S seconds: writes a function, then asks at once and again until the
//! answer shows the write: `impact_analysis` of the function it calls, then `symbol_context`
//! and `code_search` of the new function. Every K edits the agent switches its worktree to a
//! branch that adds a function, asks `code_search` for it, and switches back. `--pause-ms`
//! makes each agent think that long after each edit's questions (default 0: as fast as the
//! answers come).
//!
//! `--mode grow` (default) adds two new functions per edit (a target and its caller), 20 edits
//! to a file and then a new file, so the trees grow as an agent's work does; `--mode flip` rewrites one file between two versions
//! (the caller's name alternates), so the trees do not grow and memory must stay flat.
//!
//! Each answer that says `stale: false` must reflect every write made before the request
//! (the new caller in the impact, the new function found): one that does not is a violation,
//! counted and listed. Prints answers, stale answers, violations, the time from each write to
//! the first answer that reflects it (p50/p95/max), edits and switches, and the server's RSS
//! sampled every `--rss-every` seconds next to the index's size (symbols + edges of all
//! roots): after start-up, after the first 200 edits, after 2,000 edits, at the end.

use crate::mcp_load::{Client, call, connect};
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Functions (pairs) an agent adds to one file before it starts another, growing.
const FUNCTIONS_PER_FILE: usize = 20;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Grow,
    Flip,
}

struct Args {
    dir: PathBuf,
    smoke: bool,
    worktrees: usize,
    secs: u64,
    mode: Mode,
    switch_every: usize,
    rss_every: u64,
    pause: Duration,
    bin: PathBuf,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let (dir, smoke) = crate::corpus_or_smoke(it.next())?;
    let mut a = Args {
        dir,
        smoke,
        worktrees: 4,
        secs: if smoke { 10 } else { 300 },
        mode: Mode::Grow,
        switch_every: 20,
        rss_every: if smoke { 2 } else { 10 },
        pause: Duration::ZERO,
        bin: crate::sibling_binary()?,
    };
    while let Some(arg) = it.next() {
        let mut val = |what: &str| it.next().with_context(|| format!("{arg} {what}"));
        match arg.as_str() {
            "--worktrees" => a.worktrees = val("N")?.parse()?,
            "--secs" => a.secs = val("S")?.parse()?,
            "--switch-every" => a.switch_every = val("K")?.parse()?,
            "--rss-every" => a.rss_every = val("S")?.parse()?,
            "--pause-ms" => a.pause = Duration::from_millis(val("MS")?.parse()?),
            "--bin" => a.bin = PathBuf::from(val("PATH")?),
            "--mode" => {
                a.mode = match val("grow|flip")?.as_str() {
                    "grow" => Mode::Grow,
                    "flip" => Mode::Flip,
                    other => bail!("--mode grow|flip, not {other}"),
                }
            }
            other => bail!("unknown argument {other}"),
        }
    }
    if a.worktrees == 0 || a.switch_every == 0 {
        bail!("--worktrees and --switch-every must be at least 1");
    }
    Ok(a)
}

/// The package directory (root-relative) and package name the agents write into: the first
/// non-test Go file's.
fn package_of(root: &Path) -> Result<(String, String)> {
    for s in crate::editable_sources(root) {
        if s.lang != crate::SourceLang::Go {
            continue;
        }
        let Some(pkg) = s.text.lines().find_map(|l| l.strip_prefix("package ")) else {
            continue;
        };
        let dir = Path::new(&s.rel).parent().map(|p| p.to_string_lossy().into_owned());
        return Ok((dir.unwrap_or_default(), pkg.trim().to_string()));
    }
    bail!("no Go package under {}", root.display())
}

/// What one agent saw.
#[derive(Default)]
struct Seen {
    answers: usize,
    stale: usize,
    violations: Vec<String>,
    visible_ms: Vec<f64>,
    edits: usize,
    switches: usize,
}

struct Agent {
    a: usize,
    root: PathBuf,
    /// The package directory the agent writes into.
    dir: PathBuf,
    pkg: String,
    mode: Mode,
    switch_every: usize,
    pause: Duration,
}

impl Agent {
    /// Edit `n`: the file it writes, the file's new text and the (target, caller) pair the
    /// edit added. Growing, the agent adds both functions to its current file and starts a new
    /// file every [`FUNCTIONS_PER_FILE`] edits, as an agent's work adds files of modest size.
    fn edit(&self, n: usize) -> (PathBuf, String, String, String) {
        let a = self.a;
        match self.mode {
            Mode::Grow => {
                let f = (n - 1) / FUNCTIONS_PER_FILE;
                let mut s = format!("package {}\n", self.pkg);
                for i in f * FUNCTIONS_PER_FILE + 1..=n {
                    s.push_str(&format!(
                        "\nfunc CgT{a}x{i}() int {{ return {i} }}\n\nfunc CgC{a}x{i}() int {{ return CgT{a}x{i}() }}\n"
                    ));
                }
                let path = self.dir.join(format!("cgagent{a}_{f}.go"));
                (path, s, format!("CgT{a}x{n}"), format!("CgC{a}x{n}"))
            }
            Mode::Flip => {
                let caller =
                    if n.is_multiple_of(2) { format!("CgC{a}Even") } else { format!("CgC{a}Odd") };
                let s = format!(
                    "package {}\n\nfunc CgT{a}() int {{ return 1 }}\n\nfunc {caller}() int {{ return CgT{a}() }}\n",
                    self.pkg
                );
                (self.dir.join(format!("cgagent{a}.go")), s, format!("CgT{a}"), caller)
            }
        }
    }

    fn note(seen: &mut Seen, v: &Value, reflects: bool, what: &str) {
        seen.answers += 1;
        if v["stale"] == json!(true) {
            seen.stale += 1;
        } else if !reflects && seen.violations.len() < 1000 {
            seen.violations.push(what.to_string());
        }
    }

    async fn switch(&self, client: &Client, seen: &mut Seen) -> Result<()> {
        let root_arg = self.root.display().to_string();
        let name = format!("CgSwitch{}", self.a);
        crate::git(&self.root, &["checkout", "-q", &format!("switch{}", self.a)])?;
        let v = call(client, "code_search", &json!({"query": name, "root": root_arg}))
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        Agent::note(seen, &v, hit(&v, &name), &format!("after a checkout: {name} not found"));
        crate::git(&self.root, &["checkout", "-q", &format!("wt{}", self.a)])?;
        let v = call(client, "code_search", &json!({"query": name, "root": root_arg}))
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        Agent::note(
            seen,
            &v,
            !hit(&v, &name),
            &format!("after switching back: {name} still found"),
        );
        seen.switches += 1;
        Ok(())
    }

    async fn run(
        self,
        url: String,
        stop: Arc<AtomicBool>,
        edits: Arc<AtomicUsize>,
    ) -> Result<Seen> {
        let client = connect(&url).await?;
        let root_arg = self.root.display().to_string();
        let mut seen = Seen::default();
        let mut n = 0usize;
        while !stop.load(Ordering::SeqCst) {
            n += 1;
            if n.is_multiple_of(self.switch_every) {
                self.switch(&client, &mut seen).await?;
            }
            let (file, text, target, caller) = self.edit(n);
            std::fs::write(&file, text)?;
            let written = Instant::now();
            edits.fetch_add(1, Ordering::SeqCst);
            seen.edits += 1;
            loop {
                let (error, v) = call_raw(
                    &client,
                    "impact_analysis",
                    json!({"target": target, "direction": "upstream", "depth": 1, "root": root_arg}),
                )
                .await?;
                if error {
                    // A new target is unknown until its revision is published: the error must
                    // say the revision it read is stale.
                    Agent::note(&mut seen, &v, false, &format!("impact of {target}: {v}"));
                    if v["stale"] != json!(true) {
                        bail!("impact_analysis of {target} failed: {v}");
                    }
                    continue;
                }
                let shows = names(&v, &caller);
                Agent::note(&mut seen, &v, shows, &format!("impact of {target} without {caller}"));
                if shows {
                    seen.visible_ms.push(written.elapsed().as_secs_f64() * 1000.0);
                    break;
                }
                if written.elapsed() > Duration::from_secs(30) {
                    bail!(
                        "{caller} never showed in the impact of {target} ({}): {v}",
                        self.root.display()
                    );
                }
            }
            let v = call(&client, "code_search", &json!({"query": caller, "root": root_arg}))
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            Agent::note(&mut seen, &v, hit(&v, &caller), &format!("code_search without {caller}"));
            let v =
                call(&client, "symbol_context", &json!({"target": caller, "root": root_arg})).await;
            match v {
                Ok(v) => {
                    let reflects = names(&v, &target);
                    Agent::note(
                        &mut seen,
                        &v,
                        reflects,
                        &format!("context of {caller} without {target}"),
                    );
                }
                Err(e) => bail!("symbol_context of {caller}: {e}"),
            }
            if !self.pause.is_zero() {
                tokio::time::sleep(self.pause).await;
            }
        }
        Ok(seen)
    }
}

/// One tool call: whether it is an error, and its JSON (an error's text as a string when it
/// is not JSON).
async fn call_raw(client: &Client, tool: &str, args: Value) -> Result<(bool, Value)> {
    use rmcp::model::CallToolRequestParams;
    let args = args.as_object().cloned().unwrap_or_default();
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .with_context(|| format!("{tool}: protocol error"))?;
    let text =
        r.content.iter().find_map(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Ok((r.is_error == Some(true), v))
}

/// Whether an answer names the symbol `name` (as a name, or as the tail of a node ID).
fn names(v: &Value, name: &str) -> bool {
    let text = v.to_string();
    text.contains(&format!("\"{name}\"")) || text.contains(&format!(":{name}\""))
}

fn hit(v: &Value, name: &str) -> bool {
    v["hits"].as_array().is_some_and(|h| h.iter().any(|h| h["name"] == json!(name)))
}

/// Symbols + edges of every root, from index_status.
async fn index_size(client: &Client, roots: &[PathBuf]) -> Result<u64> {
    let mut total = 0;
    for r in roots {
        let v = call(client, "index_status", &json!({"root": r.display().to_string()}))
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        total += v["symbols"].as_u64().unwrap_or(0) + v["edges"].as_u64().unwrap_or(0);
    }
    Ok(total)
}

/// One RSS sample: (seconds since the agents started, edits so far, RSS MiB).
type Sample = (f64, usize, f64);

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    if !a.bin.is_file() {
        bail!("no codegraph binary at {}: build it or pass --bin", a.bin.display());
    }
    let work = std::env::temp_dir().join(format!("codegraph-agents-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let main = work.join("main");
    crate::git_copy(&a.dir, &main)?;
    if a.smoke {
        crate::remove_synthetic(&a.dir);
    }
    let (pkg_dir, pkg) = package_of(&main)?;
    let mut roots = vec![main.clone()];
    for w in 1..a.worktrees {
        let wt = work.join(format!("wt{w}"));
        crate::git(
            &main,
            &["worktree", "add", "-q", "-b", &format!("wt{w}"), &wt.display().to_string()],
        )?;
        roots.push(wt);
    }
    crate::git(&main, &["checkout", "-q", "-b", "wt0"])?;
    // Each root's switch branch adds one function; the agent flips to it and back.
    for (i, r) in roots.iter().enumerate() {
        crate::git(r, &["checkout", "-q", "-b", &format!("switch{i}")])?;
        std::fs::write(
            r.join(&pkg_dir).join(format!("cgswitch{i}.go")),
            format!("package {pkg}\n\nfunc CgSwitch{i}() int {{ return {i} }}\n"),
        )?;
        crate::git(r, &["add", "-A"])?;
        crate::git(r, &["commit", "-q", "-m", "switch"])?;
        crate::git(r, &["checkout", "-q", &format!("wt{i}")])?;
    }
    let cache = work.join("cache");
    let (mut server, url) =
        crate::mcp_load::Server::spawn(&a.bin, &roots, &cache, &work.join("server.log"))?;
    let pid = server.pid();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build()?;
    let outcome = runtime.block_on(async {
        let client = connect(&url).await?;
        // Every root ready and fresh first.
        let started = Instant::now();
        for r in &roots {
            loop {
                let v =
                    call(&client, "index_status", &json!({"root": r.display().to_string()})).await;
                if let Ok(v) = v
                    && v["phase"] == "ready"
                    && v["stale"] == json!(false)
                {
                    break;
                }
                if started.elapsed() > Duration::from_secs(600) {
                    bail!("{} not ready after 600 s", r.display());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let size_start = index_size(&client, &roots).await?;
        let rss_start = crate::churn::rss_mib(pid).unwrap_or(0.0);
        let stop = Arc::new(AtomicBool::new(false));
        let edits = Arc::new(AtomicUsize::new(0));
        let samples: Arc<Mutex<Vec<Sample>>> = Arc::new(Mutex::new(Vec::new()));
        let t0 = Instant::now();
        let sampler = {
            let (stop, edits, samples) = (stop.clone(), edits.clone(), samples.clone());
            let every = Duration::from_secs(a.rss_every);
            let mut marks = vec![200usize, 2000];
            std::thread::spawn(move || {
                let mut next = Instant::now() + every;
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20));
                    let n = edits.load(Ordering::SeqCst);
                    let due = Instant::now() >= next;
                    let mark = marks.first().is_some_and(|m| n >= *m);
                    if due || mark {
                        if mark {
                            marks.remove(0);
                        }
                        if due {
                            next += every;
                        }
                        let rss = crate::churn::rss_mib(pid).unwrap_or(0.0);
                        samples.lock().unwrap_or_else(|p| p.into_inner()).push((
                            t0.elapsed().as_secs_f64(),
                            n,
                            rss,
                        ));
                    }
                }
            })
        };
        let tasks: Vec<_> = roots
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let agent = Agent {
                    a: i,
                    root: r.clone(),
                    dir: r.join(&pkg_dir),
                    pkg: pkg.clone(),
                    mode: a.mode,
                    switch_every: a.switch_every,
                    pause: a.pause,
                };
                tokio::spawn(agent.run(url.clone(), stop.clone(), edits.clone()))
            })
            .collect();
        tokio::time::sleep(Duration::from_secs(a.secs)).await;
        stop.store(true, Ordering::SeqCst);
        let mut all = Seen::default();
        for t in tasks {
            let s = t.await??;
            all.answers += s.answers;
            all.stale += s.stale;
            all.violations.extend(s.violations);
            all.visible_ms.extend(s.visible_ms);
            all.edits += s.edits;
            all.switches += s.switches;
        }
        let _ = sampler.join();
        let wall = t0.elapsed().as_secs_f64();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let size_end = index_size(&client, &roots).await?;
        let rss_end = crate::churn::rss_mib(pid).unwrap_or(0.0);
        let samples = samples.lock().unwrap_or_else(|p| p.into_inner()).clone();
        Ok::<_, anyhow::Error>((all, wall, size_start, size_end, rss_start, rss_end, samples))
    });
    server.stop();
    let (mut all, wall, size_start, size_end, rss_start, rss_end, samples) = outcome?;
    all.visible_ms.sort_by(f64::total_cmp);
    let p = |q: f64| {
        if all.visible_ms.is_empty() {
            0.0
        } else {
            all.visible_ms[((all.visible_ms.len() - 1) as f64 * q).round() as usize]
        }
    };
    println!(
        "corpus            {} ({} roots: a repository and {} worktrees; mode {:?}; {} s; pause {} ms)",
        if a.smoke {
            "smoke (120 generated Go files)".to_string()
        } else {
            a.dir.display().to_string()
        },
        roots.len(),
        roots.len() - 1,
        a.mode,
        a.secs,
        a.pause.as_millis()
    );
    println!(
        "edits             {} ({:.1}/s), branch switches {}",
        all.edits,
        all.edits as f64 / wall,
        all.switches
    );
    println!("answers           {} ({} said stale)", all.answers, all.stale);
    println!(
        "violations        {} (stale: false without a write made before the request)",
        all.violations.len()
    );
    for v in all.violations.iter().take(10) {
        println!("                  {v}");
    }
    println!("write -> visible  p50 {:.1} ms  p95 {:.1} ms  max {:.1} ms", p(0.5), p(0.95), p(1.0));
    let growth = |a: f64, b: f64| if a > 0.0 { (b / a - 1.0) * 100.0 } else { 0.0 };
    println!(
        "index size        {size_start} -> {size_end} symbols+edges ({:+.1}%)",
        growth(size_start as f64, size_end as f64)
    );
    println!(
        "server RSS        {rss_start:.1} MiB after start-up -> {rss_end:.1} MiB at the end ({:+.1}%)",
        growth(rss_start, rss_end)
    );
    println!("RSS samples       (s, edits, MiB)");
    for (t, n, rss) in &samples {
        println!("                  {t:7.1} {n:6} {rss:8.1}");
    }
    let _ = std::fs::remove_dir_all(&work);
    if !all.violations.is_empty() {
        bail!("{} answers claimed freshness they lacked", all.violations.len());
    }
    Ok(())
}
