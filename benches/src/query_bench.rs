//! `codegraph-bench queries --db PATH [--calls N]`: the latency of the graph operations on an
//! existing index, in process (no process start-up), read-only: p50 / p95 over many calls of
//! search, symbol_context, impact (upstream, depth 3), dag_grep (depth 2, budget 80) and the
//! query half of changed-code impact for a 3-file change (hunks synthesized inside indexed
//! functions: the git half needs a repository and is timed by the e2e tests, not here).
//! Targets are sampled evenly from the index's functions and methods, so runs are repeatable.

use anyhow::{Context, Result, bail};
use codegraph_query::ops::changed::{ChangeKind, FileChange, Hunk};
use codegraph_query::ops::dag_grep::DagGrepRequest;
use codegraph_query::ops::impact::ImpactRequest;
use codegraph_query::{NodeRow, Reader, SearchRequest, Store};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// p50 floors from the issue, in milliseconds.
const FLOORS: &[(&str, f64)] =
    &[("search", 5.0), ("symbol_context", 10.0), ("impact d3", 20.0), ("dag_grep d2 b80", 30.0)];

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let mut db: Option<PathBuf> = None;
    let mut calls = 200usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--db" => db = Some(PathBuf::from(args.next().context("--db PATH")?)),
            "--calls" => calls = args.next().context("--calls N")?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    let db = db.context("usage: codegraph-bench queries --db PATH [--calls N]")?;
    let mut store = Store::open_read_only(&db)?;
    let reader = store.reader()?;
    let targets = sampled_targets(&reader, calls, &db)?;
    println!(
        "{:<18} {:>8} {:>8} {:>8} {:>8}  floor",
        "operation", "calls", "p50 ms", "p95 ms", "max ms"
    );
    let mut results = Vec::new();
    results.push(time("search", &targets, |n| {
        reader
            .search(&SearchRequest {
                query: n.name.clone(),
                kind: None,
                limit: 20,
                include_tests: false,
            })
            .map(|r| r.hits.len())
    })?);
    results.push(time("symbol_context", &targets, |n| {
        reader.symbol_context(&n.id).map(|c| c.callers.len())
    })?);
    let req = ImpactRequest::default();
    results.push(time("impact d3", &targets, |n| {
        reader.impact(std::slice::from_ref(&n.id), &req).map(|i| i.reached())
    })?);
    results.push(time("dag_grep d2 b80", &targets, |n| {
        let req = DagGrepRequest { query: n.name.clone(), ..DagGrepRequest::default() };
        reader.dag_grep(&req).map(|d| d.stats.nodes)
    })?);
    let triples: Vec<Vec<&NodeRow>> =
        targets.chunks(3).filter(|c| c.len() == 3).map(|c| c.iter().collect()).collect();
    results.push(time("diff impact 3 files", &triples, |three| {
        let changes: Vec<FileChange> = three
            .iter()
            .map(|n| {
                let line = n.start_line.unwrap_or(1);
                FileChange {
                    path: n.file.clone().unwrap_or_default(),
                    kind: ChangeKind::Modified,
                    hunks: vec![Hunk {
                        old_start: line,
                        old_lines: 1,
                        new_start: line,
                        new_lines: 1,
                    }],
                }
            })
            .collect();
        reader.changed_code_impact(&changes, &ImpactRequest::default()).map(|c| c.impact.reached())
    })?);
    for (name, n, p50, p95, max) in &results {
        let floor = FLOORS.iter().find(|(f, _)| f == name).map(|(_, ms)| *ms);
        let verdict = match floor {
            Some(f) if *p50 <= f => format!("<= {f} ok"),
            Some(f) => format!("<= {f} MISSED"),
            None => "-".to_string(),
        };
        println!("{name:<18} {n:>8} {p50:>8.2} {p95:>8.2} {max:>8.2}  {verdict}");
    }
    println!("(diff impact: query half only; hunks are synthesized, the git diff is not timed)");
    Ok(())
}

/// [`sample`]s `n` targets of the index at `db` (an error when it has none) and prints the
/// index's counts and how many there are.
pub(crate) fn sampled_targets(
    reader: &Reader<'_>,
    n: usize,
    db: &std::path::Path,
) -> Result<Vec<NodeRow>> {
    let targets = sample(reader, n)?;
    if targets.is_empty() {
        bail!("the index has no functions or methods");
    }
    let st = reader.snapshot()?;
    println!(
        "index {} (revision {}, {} files, {} symbols, {} edges); {} targets",
        db.display(),
        st.revision,
        st.files,
        st.symbols,
        st.edges,
        targets.len()
    );
    Ok(targets)
}

/// Up to `n` functions and methods, evenly spaced in ID order.
pub(crate) fn sample(reader: &Reader<'_>, n: usize) -> Result<Vec<NodeRow>> {
    let mut all = Vec::new();
    reader.for_each_node(|node| {
        if (node.kind.is_callable() && node.kind != codegraph_schema::NodeKind::Test)
            && node.file.is_some()
        {
            all.push(node);
        }
    })?;
    let step = (all.len() / n.max(1)).max(1);
    Ok(all.into_iter().step_by(step).take(n).collect())
}

/// (name, calls, p50, p95, max) in milliseconds; one warm-up call first.
fn time<T, R>(
    name: &'static str,
    inputs: &[T],
    mut f: impl FnMut(&T) -> Result<R, codegraph_query::QueryError>,
) -> Result<(&'static str, usize, f64, f64, f64)> {
    if let Some(first) = inputs.first() {
        f(first)?;
    }
    let mut samples: Vec<Duration> = Vec::with_capacity(inputs.len());
    for input in inputs {
        let t = Instant::now();
        std::hint::black_box(f(input)?);
        samples.push(t.elapsed());
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| ms(samples[((samples.len() as f64 - 1.0) * q).round() as usize]);
    Ok((name, samples.len(), at(0.5), at(0.95), samples.last().map_or(0.0, |d| ms(*d))))
}
