//! `codegraph-bench churn DIR [--ops N] [--switches N] [--bin PATH]`: a long `codegraph watch`
//! session on a private git repository made of DIR. Measures what a branch switch costs in a
//! watched root (checkouts that change 60 and 2,000 files: time from the checkout to the last
//! revision it causes), then runs N operations (body edits, deletes, re-creates of deleted
//! files, new files, and `--switches` branch switches spread over them), each waited for, and
//! prints the daemon's RSS after the first 100 operations and after the last: memory must stay
//! flat in a long session.

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

struct Args {
    dir: PathBuf,
    ops: usize,
    switches: usize,
    bin: PathBuf,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let (dir, smoke) = crate::corpus_or_smoke(it.next())?;
    let mut a = if smoke {
        Args { dir, ops: 30, switches: 2, bin: crate::sibling_binary()? }
    } else {
        Args { dir, ops: 1000, switches: 10, bin: crate::sibling_binary()? }
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--ops" => a.ops = it.next().context("--ops N")?.parse()?,
            "--switches" => a.switches = it.next().context("--switches N")?.parse()?,
            "--bin" => a.bin = PathBuf::from(it.next().context("--bin PATH")?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(a)
}

pub(crate) fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The owner file's word: `Some(revision)` when the watcher says every event is published.
fn owner_fresh(db: &Path) -> Option<i64> {
    let text = std::fs::read_to_string(format!("{}.owner", db.display())).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    if v["state"] == "fresh" { v["revision"].as_i64() } else { None }
}

/// Waits until the watcher has published a revision after `before` and says it is fresh;
/// `false` when none came within 5 s (the operation changed nothing the index holds).
fn wait_published(db: &Path, before: i64) -> Result<bool> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if owner_fresh(db).is_some_and(|r| r > before) {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(false)
}

/// Waits until the watcher's owner file says "fresh" after at least one revision (every
/// event of the change published); returns when the last revision came.
fn settle(rx: &Receiver<Value>, start: Instant, db: &Path) -> Result<Duration> {
    let owner = PathBuf::from(format!("{}.owner", db.display()));
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut last = None;
    loop {
        while let Ok(v) = rx.try_recv() {
            if v["event"] == "revision" {
                last = Some(start.elapsed());
            }
        }
        let fresh = std::fs::read_to_string(&owner)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v["state"] == "fresh");
        if let Some(t) = last
            && fresh
        {
            return Ok(t);
        }
        if Instant::now() > deadline {
            bail!("the watcher never settled");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let a = parse_args(args)?;
    let work = std::env::temp_dir().join(format!("codegraph-churn-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let result = session(&a, &work);
    let _ = std::fs::remove_dir_all(&work);
    crate::remove_synthetic(&a.dir);
    result
}

fn session(a: &Args, work: &Path) -> Result<()> {
    let root = work.join("root");
    crate::git_copy(&a.dir, &root)?;
    let sources = crate::editable_sources(&root);
    if sources.len() < 100 {
        bail!("{} has too few Go/TS/Python/Java/Rust sources for a churn session", a.dir.display());
    }
    // Two branches: one changing 60 files, one changing 2,000 (or as many as there are).
    for (branch, n) in [("b60", 60usize), ("b2000", 2000)] {
        crate::git(&root, &["checkout", "-q", "-b", branch, "main"])?;
        for s in sources.iter().rev().take(n) {
            let extra = match s.lang {
                crate::SourceLang::Go => "\nfunc churnBranch() {}\n",
                crate::SourceLang::Ts => "\nexport function churnBranch() {}\n",
                crate::SourceLang::Py => "\n\ndef churn_branch():\n    pass\n",
                crate::SourceLang::Java => "\nclass ChurnBranch {}\n",
                crate::SourceLang::Rust => "\nfn churn_branch() {}\n",
            };
            std::fs::write(root.join(&s.rel), format!("{}{extra}", s.text))?;
        }
        crate::git(&root, &["commit", "-q", "-am", branch])?;
    }
    crate::git(&root, &["checkout", "-q", "main"])?;

    let db = work.join("index.db");
    let mut child = Command::new(&a.bin)
        .args(["watch", "--json", "--no-share", "--db"])
        .arg(&db)
        .arg(&root)
        .env("CODEGRAPH_EVENTS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("spawn codegraph watch")?;
    let stdout = child.stdout.take().context("stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    let pid = child.id();
    let result = (|| -> Result<f64> {
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            let v = rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))?;
            if v["event"] == "watching" {
                break;
            }
        }
        println!("| checkout in a watched root | files changed | to the last revision |");
        println!("| --- | --- | --- |");
        for (to, back, n) in [("b60", "main", 60), ("b2000", "main", 2000.min(sources.len()))] {
            for (label, branch) in [(format!("main -> {to}"), to), (format!("{to} -> main"), back)]
            {
                let start = Instant::now();
                crate::git(&root, &["checkout", "-q", branch])?;
                let t = settle(&rx, start, &db)?;
                println!("| {label} | {n} | {:.0} ms |", t.as_secs_f64() * 1000.0);
            }
        }
        println!();

        let mut deleted: Vec<usize> = Vec::new();
        let mut rss_100 = None;
        // Switches spread evenly, none at the very start: `switches` of them in `ops`.
        let every = a.ops.checked_div(a.switches + 1).map_or(usize::MAX, |e| e.max(1));
        let mut switched = 0usize;
        let mut on_b60 = false;
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let started = Instant::now();
        let mut published = 0usize;
        for i in 0..a.ops {
            // Every change so far is published: the watcher's word, at this revision.
            let waiting = Instant::now();
            let rev = loop {
                if let Some(r) = owner_fresh(&db) {
                    break r;
                }
                if waiting.elapsed() > Duration::from_secs(120) {
                    bail!("the watcher never said fresh before operation {i}");
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            while rx.try_recv().is_ok() {}
            if i > 0 && i % every == 0 && switched < a.switches {
                switched += 1;
                // Commit the churn so far, then switch: the checkout is clean.
                crate::git(&root, &["add", "-A"])?;
                crate::git(&root, &["commit", "-q", "-m", "churn", "--allow-empty"])?;
                on_b60 = !on_b60;
                crate::git(&root, &["checkout", "-q", if on_b60 { "b60" } else { "main" }])?;
                settle(&rx, Instant::now(), &db)?;
                deleted.clear();
            } else {
                match i % 10 {
                    0 => {
                        let k = next(sources.len());
                        let p = root.join(&sources[k].rel);
                        if !p.exists() {
                            continue;
                        }
                        std::fs::remove_file(p)?;
                        deleted.push(k);
                        published += usize::from(wait_published(&db, rev)?);
                    }
                    1 if !deleted.is_empty() => {
                        let k = deleted.remove(0);
                        std::fs::write(root.join(&sources[k].rel), &sources[k].text)?;
                        published += usize::from(wait_published(&db, rev)?);
                    }
                    2 => {
                        std::fs::create_dir_all(root.join("churn"))?;
                        std::fs::write(
                            root.join(format!("churn/c{i}.go")),
                            format!("package churn\n\nfunc C{i}() {{}}\n"),
                        )?;
                        published += usize::from(wait_published(&db, rev)?);
                    }
                    _ => {
                        let k = next(sources.len());
                        let p = root.join(&sources[k].rel);
                        let Ok(text) = std::fs::read_to_string(&p) else { continue };
                        std::fs::write(&p, format!("{text}// churn {i}\n"))?;
                        published += usize::from(wait_published(&db, rev)?);
                    }
                }
            }
            if i + 1 == 100 {
                rss_100 = rss_mib(pid);
            }
        }
        let rss_end = rss_mib(pid);
        let fmt = |v: Option<f64>| v.map_or("?".into(), |m| format!("{m:.0} MiB"));
        println!(
            "churn: {} operations ({} branch switches, {published} published edits) in {:.0} s; watch RSS after 100: {}, after {}: {}{}",
            a.ops,
            switched,
            started.elapsed().as_secs_f64(),
            fmt(rss_100),
            a.ops,
            fmt(rss_end),
            match (rss_100, rss_end) {
                (Some(x), Some(y)) => format!(" ({:+.1}%)", (y - x) / x * 100.0),
                _ => String::new(),
            }
        );
        let with_watch = search_p50(&a.bin, &db, &root)?;
        Ok(with_watch)
    })();
    let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).status();
    let _ = child.wait();
    let with_watch = result?;
    let without = search_p50(&a.bin, &db, &root)?;
    println!();
    println!("| CLI `search` (21 runs, process start included) | p50 |");
    println!("| --- | --- |");
    println!("| while `watch` runs (its owner file vouches for freshness) | {with_watch:.0} ms |");
    println!("| without a watcher (stat walk of the tree) | {without:.0} ms |");
    Ok(())
}

/// p50 of 21 `codegraph search` runs on the index at `db`, in ms.
fn search_p50(bin: &Path, db: &Path, root: &Path) -> Result<f64> {
    let mut ms = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(["search", "main", "--json", "--db"])
            .arg(db)
            .current_dir(root)
            .env("CODEGRAPH_EVENTS", "off")
            .output()?;
        if !out.status.success() {
            bail!("search failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    Ok(ms[10])
}
