//! `codegraph-bench worktrees DIR [--changed N,N...] [--bin PATH]`: what a new git worktree
//! costs with sharing (its first index seeded from the main worktree's) and without
//! (`--no-share`, a cold build), side by side, and whether the seeded index equals a full
//! rebuild of the worktree (sorted export).
//!
//! DIR is copied into a temporary git repository (one commit) whose main worktree is indexed
//! cold; then, for a worktree at the same commit and for worktrees whose HEAD changes N files
//! (a branch that appends a function to N Go/TS sources), `codegraph index` runs once seeded
//! and once with `--no-share --full` into another database. Wall times include process start.
//! Then the settled RSS of one `codegraph mcp` serving the main worktree alone, with three
//! worktrees at its commit (seeded), and with the worktrees above.

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Args {
    dir: PathBuf,
    changed: Vec<usize>,
    bin: PathBuf,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let (dir, smoke) = crate::corpus_or_smoke(it.next())?;
    let mut changed = if smoke { vec![0, 20] } else { vec![0, 60, 2000] };
    let mut bin = crate::sibling_binary()?;
    while let Some(a) = it.next() {
        match a.as_str() {
            "--changed" => {
                changed = it
                    .next()
                    .context("--changed N,N")?
                    .split(',')
                    .map(|n| n.trim().parse::<usize>())
                    .collect::<Result<_, _>>()?
            }
            "--bin" => bin = PathBuf::from(it.next().context("--bin PATH")?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(Args { dir, changed, bin })
}

/// One `codegraph` run: its JSON summary (or stdout as a string) and wall seconds.
pub(crate) fn codegraph(
    bin: &Path,
    cache: &Path,
    cwd: &Path,
    args: &[&str],
) -> Result<(Value, f64)> {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env("CODEGRAPH_CACHE_DIR", cache)
        .env("CODEGRAPH_EVENTS", "off")
        .env_remove("CODEGRAPH_CACHE_FROM")
        .output()
        .context("run codegraph")?;
    let wall = t.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("codegraph {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let v = if args.contains(&"--json") {
        serde_json::from_slice(&out.stdout).context("JSON summary")?
    } else {
        Value::String(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    Ok((v, wall))
}

pub(crate) fn export(
    bin: &Path,
    cache: &Path,
    root: &Path,
    db: Option<&Path>,
) -> Result<BTreeSet<String>> {
    let db_s = db.map(|d| d.display().to_string());
    let mut args = vec!["export"];
    if let Some(d) = &db_s {
        args.extend(["--db", d.as_str()]);
    }
    let (v, _) = codegraph(bin, cache, root, &args)?;
    Ok(v.as_str().unwrap_or_default().lines().map(str::to_string).collect())
}

pub(crate) fn mib(v: &Value) -> String {
    v["peak_rss_bytes"].as_f64().map_or("-".into(), |b| format!("{:.0}", b / 1048576.0))
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
        .unwrap_or(0)
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let args = parse_args(args)?;
    let scratch = std::env::temp_dir().join(format!("codegraph-bench-wt-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let base = std::fs::canonicalize(&scratch)?;
    let result = scenarios(&args, &base);
    let _ = std::fs::remove_dir_all(&base);
    crate::remove_synthetic(&args.dir);
    result
}

fn scenarios(args: &Args, base: &Path) -> Result<()> {
    let main = base.join("main");
    let cache = base.join("cache");
    crate::git_copy(&args.dir, &main)?;
    let (cold, cold_s) = codegraph(&args.bin, &cache, &main, &["index", "--json"])?;
    // Flows and clusters, as any served root has them after its first flows query.
    codegraph(&args.bin, &cache, &main, &["flows", "--json"])?;
    println!(
        "main worktree, cold: {:.2} s, {} MiB peak RSS, {} files",
        cold_s,
        mib(&cold),
        cold["files"]
    );
    let sources = crate::editable_sources(&main);
    let mut roots: Vec<PathBuf> = vec![main.clone()];
    println!();
    println!(
        "| new worktree | files changed by its HEAD | seeded | seeded peak RSS | re-derived | vouched by git | no sharing (cold) | cold peak RSS | seeded == full rebuild | index bytes |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (i, &n) in args.changed.iter().enumerate() {
        let branch = format!("b{i}-{n}");
        let n = probe_branch(&main, &branch, &sources, n)?;
        let wt = base.join(format!("wt-{branch}"));
        crate::git(&main, &["worktree", "add", "-q", &wt.display().to_string(), &branch])?;
        let (seeded, seeded_s) = codegraph(&args.bin, &cache, &wt, &["index", "--json"])?;
        if seeded["mode"] != "seeded" {
            bail!("the worktree was not seeded: {seeded}");
        }
        let full_db = base.join(format!("full-{branch}.db"));
        let full_db_s = full_db.display().to_string();
        let (full, full_s) = codegraph(
            &args.bin,
            &cache,
            &wt,
            &["index", "--json", "--no-share", "--full", "--db", &full_db_s],
        )?;
        let equal = export(&args.bin, &cache, &wt, None)?
            == export(&args.bin, &cache, &wt, Some(&full_db))?;
        roots.push(wt.clone());
        let db_dir = PathBuf::from(seeded["db"].as_str().unwrap_or_default());
        println!(
            "| {} | {n} | {seeded_s:.2} s | {} MiB | {} | {} | {full_s:.2} s | {} MiB | {} | {:.0} MiB |",
            if n > 0 { "HEAD changes files" } else { "same commit" },
            mib(&seeded),
            seeded["changed_files"],
            seeded["vouched_by_git"],
            mib(&full),
            if equal { "yes" } else { "NO" },
            dir_bytes(db_dir.parent().unwrap_or(base)) as f64 / 1048576.0
        );
    }
    println!();
    // The setup: three siblings at the main worktree's commit (seeded from it).
    let mut same = vec![main.clone()];
    for i in 0..3 {
        let wt = base.join(format!("wt-same-{i}"));
        crate::git(&main, &["worktree", "add", "-q", "--detach", &wt.display().to_string()])?;
        codegraph(&args.bin, &cache, &wt, &["index", "--json"])?;
        same.push(wt);
    }
    let one = mcp_rss(&args.bin, &cache, &roots[..1])?;
    println!("| `codegraph mcp` serving | settled RSS | peak RSS |");
    println!("| --- | --- | --- |");
    println!("| the main worktree alone | {:.0} MiB | {:.0} MiB |", one.0, one.1);
    let changed: Vec<String> = args.changed.iter().map(usize::to_string).collect();
    for (what, set) in [
        ("3 worktrees at its commit".to_string(), &same),
        (format!("{} worktrees changing {} files", roots.len() - 1, changed.join(" / ")), &roots),
    ] {
        let all = mcp_rss(&args.bin, &cache, set)?;
        println!(
            "| the main worktree and {what} | {:.0} MiB ({:.2}x) | {:.0} MiB ({:.2}x) |",
            all.0,
            all.0 / one.0,
            all.1,
            all.1 / one.1
        );
    }
    Ok(())
}

/// Makes branch `branch` from `main` in the repository `main`: a function appended to the
/// first `n` of `sources`, committed; checks `main` out again. Returns the files changed.
pub(crate) fn probe_branch(
    main: &Path,
    branch: &str,
    sources: &[crate::EditableSource],
    n: usize,
) -> Result<usize> {
    crate::git(main, &["checkout", "-q", "-b", branch, "main"])?;
    let n = n.min(sources.len());
    for s in sources.iter().take(n) {
        let extra = match s.lang {
            crate::SourceLang::Go => "\nfunc benchProbe() {}\n",
            crate::SourceLang::Ts => "\nexport function benchProbe() {}\n",
            crate::SourceLang::Py => "\n\ndef bench_probe():\n    pass\n",
            crate::SourceLang::Java => "\nclass BenchProbe {}\n",
            crate::SourceLang::Rust => "\nfn bench_probe() {}\n",
        };
        std::fs::write(main.join(&s.rel), format!("{}{extra}", s.text))?;
    }
    if n > 0 {
        crate::git(main, &["commit", "-q", "-am", "bench"])?;
    }
    crate::git(main, &["checkout", "-q", "main"])?;
    Ok(n)
}

/// `codegraph-bench mcp-rss --cache DIR [--bin PATH] ROOT...`: the settled and peak RSS of one
/// `codegraph mcp` serving ROOT... from the index cache DIR (indexes built beforehand), as the
/// worktrees scenario measures it; for comparing root sets on trees of one's own.
pub fn run_mcp_rss(mut it: impl Iterator<Item = String>) -> Result<()> {
    let (mut cache, mut bin, mut roots) = (None, crate::sibling_binary()?, Vec::new());
    while let Some(a) = it.next() {
        match a.as_str() {
            "--cache" => cache = Some(PathBuf::from(it.next().context("--cache DIR")?)),
            "--bin" => bin = PathBuf::from(it.next().context("--bin PATH")?),
            _ => roots.push(PathBuf::from(a)),
        }
    }
    let cache = cache.context("--cache DIR: the index cache the roots were indexed into")?;
    if roots.is_empty() {
        bail!("usage: codegraph-bench mcp-rss --cache DIR [--bin PATH] ROOT...");
    }
    let (settled, peak) = mcp_rss(&bin, &cache, &roots)?;
    println!("{} root(s): settled RSS {settled:.0} MiB, peak RSS {peak:.0} MiB", roots.len());
    Ok(())
}

/// Starts `codegraph mcp ROOTS...` on stdio, makes one `code_search` call per root (each
/// root's first call: it opens and warms that root), waits until the server has settled
/// (RSS unchanged for 10 s, at least 20 s after the last first call, at most 180 s: every
/// root's flows and clusters are computed by then) and returns its settled and peak RSS in MiB.
fn mcp_rss(bin: &Path, cache: &Path, roots: &[PathBuf]) -> Result<(f64, f64)> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(bin)
        .arg("mcp")
        .args(roots)
        .env("CODEGRAPH_CACHE_DIR", cache)
        .env("CODEGRAPH_EVENTS", "off")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("spawn codegraph mcp")?;
    let result = (|| -> Result<(f64, f64)> {
        let mut stdin = child.stdin.take().context("stdin")?;
        let mut lines = BufReader::new(child.stdout.take().context("stdout")?).lines();
        let mut call = |id: u64, method: &str, params: Value| -> Result<Value> {
            let msg =
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            writeln!(stdin, "{msg}")?;
            loop {
                let line = lines.next().context("the server closed stdout")??;
                let v: Value = serde_json::from_str(&line)?;
                if v["id"] == id {
                    return Ok(v);
                }
            }
        };
        call(
            0,
            "initialize",
            serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}),
        )?;
        let mut id = 1;
        for root in roots {
            loop {
                id += 1;
                let v = call(
                    id,
                    "tools/call",
                    serde_json::json!({"name": "code_search", "arguments": {"query": "main", "root": root.display().to_string()}}),
                )?;
                if v["result"]["isError"] == true {
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
                break;
            }
        }
        let status = |key: &str| -> Option<f64> {
            let s = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
            let l = s.lines().find(|l| l.starts_with(key))?;
            Some(l.split_whitespace().nth(1)?.parse::<f64>().ok()? / 1024.0)
        };
        let start = Instant::now();
        let mut last = status("VmRSS:").unwrap_or(0.0);
        let mut stable_since = Instant::now();
        while start.elapsed() < Duration::from_secs(180) {
            std::thread::sleep(Duration::from_millis(500));
            let now = status("VmRSS:").unwrap_or(0.0);
            if (now - last).abs() > 2.0 {
                stable_since = Instant::now();
                last = now;
            } else if stable_since.elapsed() >= Duration::from_secs(10)
                && start.elapsed() >= Duration::from_secs(20)
            {
                break;
            }
        }
        if std::env::var_os("CODEGRAPH_BENCH_RSS_PARTS").is_some() {
            eprintln!(
                "rss parts: anon {:.0} MiB, file {:.0} MiB, shmem {:.0} MiB",
                status("RssAnon:").unwrap_or(0.0),
                status("RssFile:").unwrap_or(0.0),
                status("RssShmem:").unwrap_or(0.0)
            );
        }
        Ok((last, status("VmHWM:").unwrap_or(0.0)))
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}
