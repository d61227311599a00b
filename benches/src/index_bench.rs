//! `codegraph-bench index DIR`: `codegraph index` on a corpus next to the physical floor, a
//! tree-sitter parse of the same files with the same parallelism and no extraction. Prints a
//! table; the figures in docs/BENCHMARKS.md come from here.

use anyhow::{Context, Result, bail};
use codegraph_parse::{Language, analyze, parse_tree};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Args {
    dir: PathBuf,
    runs: usize,
    bin: PathBuf,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    const USAGE: &str = "usage: codegraph-bench index DIR [--runs N] [--bin PATH]";
    let dir = it.next().context(USAGE)?;
    if dir.starts_with('-') {
        bail!("{USAGE}");
    }
    let dir = PathBuf::from(dir);
    if !dir.is_dir() {
        bail!("{} is not a directory\n{USAGE}", dir.display());
    }
    let mut runs = 3;
    let mut bin = crate::sibling_binary()?;
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => runs = it.next().context("--runs N")?.parse()?,
            "--bin" => bin = PathBuf::from(it.next().context("--bin PATH")?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(Args { dir, runs: runs.max(1), bin })
}

/// The files the indexer would parse: same ignore rules, provider languages only.
pub fn provider_files(dir: &Path) -> Vec<(Language, String)> {
    let mut out = Vec::new();
    let walker = ignore::WalkBuilder::new(dir).hidden(false).require_git(false).build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path().to_string_lossy().into_owned();
        if path.contains("/.git/") {
            continue;
        }
        let Ok(bytes) = std::fs::read(entry.path()) else {
            continue;
        };
        if bytes.len() > 1024 * 1024 || bytes[..bytes.len().min(8192)].contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // As the scanner decides: by name, else by content (manifests, shebang scripts).
        let Some(lang) = Language::detect(&path, &text) else {
            continue;
        };
        out.push((lang, text));
    }
    out
}

/// Median seconds of `runs` parse-only passes over `files` on all cores (the physical floor).
pub fn parse_floor(files: &[(Language, String)], runs: usize) -> f64 {
    parse_floor_cpu(files, runs).0
}

/// CPU seconds (user + system) this process has used so far, from `/proc/self/stat`; 0 where
/// that file does not exist.
pub fn self_cpu_seconds() -> f64 {
    proc_stat_cpu(11)
}

/// CPU seconds (user + system) of this process's waited-for children so far.
pub fn children_cpu_seconds() -> f64 {
    proc_stat_cpu(13)
}

/// utime + stime (at `first`, in fields after the command name) of `/proc/self/stat`.
fn proc_stat_cpu(first: usize) -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesized command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(first) + ticks(first + 1)) / 100.0
}

/// [`parse_floor`] and the median CPU seconds of one pass (to tell a slow machine from idle
/// cores).
pub fn parse_floor_cpu(files: &[(Language, String)], runs: usize) -> (f64, f64) {
    timed_passes(files, runs, |lang, text| {
        parse_tree(lang, text, None).map_or(0, |t| t.root_node().child_count() as u64)
    })
}

/// Median seconds and CPU seconds of `runs` passes of the cold build's per-file work over
/// `files` on all cores: parse and extract facts (`codegraph_parse::analyze`, what the index's
/// workers run), with no resolution and no storage. Its distance to [`parse_floor_cpu`] is
/// the extraction's share of the gap; the rest of the gap is resolution and the snapshot.
pub fn extract_floor_cpu(files: &[(Language, String)], runs: usize) -> (f64, f64) {
    timed_passes(files, runs, |lang, text| {
        let f = analyze(lang, text);
        (f.symbols.len() + f.calls.len()) as u64
    })
}

/// Median wall and CPU seconds of `runs` passes of `per_file` over `files` on all cores (its
/// results are summed and kept, so no pass can be optimized away).
fn timed_passes(
    files: &[(Language, String)],
    runs: usize,
    per_file: impl Fn(Language, &str) -> u64 + Sync,
) -> (f64, f64) {
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..runs.max(1) {
        let c = self_cpu_seconds();
        let t = Instant::now();
        let total: u64 = files.par_iter().map(|(lang, text)| per_file(*lang, text)).sum();
        std::hint::black_box(total);
        wall.push(t.elapsed().as_secs_f64());
        cpu.push(self_cpu_seconds() - c);
    }
    (median(wall), median(cpu))
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let args = parse_args(args)?;
    let files = provider_files(&args.dir);
    let lines: usize = files.iter().map(|(_, t)| t.lines().count()).sum();
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();

    let (floor, floor_cpu) = parse_floor_cpu(&files, args.runs);
    let (extract, extract_cpu) = extract_floor_cpu(&files, args.runs);

    let db = std::env::temp_dir().join(format!("codegraph-bench-{}.db", std::process::id()));
    let mut walls = Vec::new();
    let mut rss = Vec::new();
    let mut cpus = Vec::new();
    let mut last: serde_json::Value = serde_json::Value::Null;
    for _ in 0..args.runs {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        let t = Instant::now();
        let c = children_cpu_seconds();
        let out = Command::new(&args.bin)
            .args(["index", &args.dir.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"])
            .output()
            .with_context(|| format!("running {}", args.bin.display()))?;
        walls.push(t.elapsed().as_secs_f64());
        cpus.push(children_cpu_seconds() - c);
        if !out.status.success() {
            bail!("index failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        last = serde_json::from_slice(&out.stdout).context("reading `codegraph index --json`")?;
        rss.push(last["peak_rss_bytes"].as_f64().unwrap_or(0.0));
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let wall = median(walls);
    let threads = rayon::current_num_threads();
    println!("corpus            {}", args.dir.display());
    println!("provider files    {} ({lines} lines, {:.1} MB)", files.len(), bytes as f64 / 1e6);
    println!(
        "index files       {} (all text files), symbols {}, edges {}",
        last["files"], last["symbols"], last["edges"]
    );
    println!("threads           {threads}, runs {} (median)", args.runs);
    println!("parse floor       {floor:.2} s  ({floor_cpu:.1} CPU-s)");
    println!(
        "parse + extract   {extract:.2} s  ({:.2}x floor, {extract_cpu:.1} CPU-s; no resolution, no storage)",
        extract / floor
    );
    println!(
        "codegraph index   {wall:.2} s  ({:.2}x floor, {:.1} CPU-s)",
        wall / floor,
        median(cpus)
    );
    println!("  phases (ms)     {}", last["timings_ms"]);
    println!(
        "throughput        {:.0} files/s, {:.0} lines/s",
        files.len() as f64 / wall,
        lines as f64 / wall
    );
    println!("peak RSS          {:.0} MiB", median(rss) / (1024.0 * 1024.0));
    Ok(())
}
