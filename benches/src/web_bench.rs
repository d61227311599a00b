//! `codegraph-bench web --db PATH [--root DIR] [--hub ID] [--calls N]`: how long the web view
//! takes to draw its pages from an existing index, in process (the page functions of
//! `codegraph-web` on one snapshot, no HTTP): p50 / p95 and the page size of `/node/HUB`,
//! `/impact/HUB?depth=3`, and `/node`, `/impact` (depth 3) and `/dag` for targets sampled
//! evenly from the index's functions and methods. `--root` lets node pages read their source
//! lines (without it they say the source is not readable).

use crate::query_bench::sampled_targets;
use anyhow::{Context, Result, bail};
use codegraph_query::{NodeRow, Store};
use codegraph_web::html::{Shell, enc_path, enc_query};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let (mut db, mut root, mut hub, mut calls) = (None, None, None, 100usize);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--db" => db = Some(PathBuf::from(args.next().context("--db PATH")?)),
            "--root" => root = Some(PathBuf::from(args.next().context("--root DIR")?)),
            "--hub" => hub = Some(args.next().context("--hub ID")?),
            "--calls" => calls = args.next().context("--calls N")?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    let db =
        db.context("usage: codegraph-bench web --db PATH [--root DIR] [--hub ID] [--calls N]")?;
    let mut store = Store::open_read_only(&db)?;
    let reader = store.reader()?;
    let targets = sampled_targets(&reader, calls, &db)?;
    let st = reader.snapshot()?;
    let root_dir = root.clone();
    let source = move |rel: &str| -> Option<String> {
        std::fs::read_to_string(root_dir.as_ref()?.join(rel)).ok()
    };
    let root_name = root.as_ref().map_or_else(|| st.root.clone(), |r| r.display().to_string());
    let shell = Shell {
        title: "",
        root: &root_name,
        root_param: None,
        revision: reader.revision(),
        stale: false,
        query: "",
    };
    let ctx = codegraph_web::Ctx { reader: &reader, shell, source: &source };
    let page = |url: &str| -> Result<usize> {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let req = codegraph_web::parse_request(path, query)
            .map_err(|e| anyhow::anyhow!("{url}: {e:?}"))?;
        let html =
            codegraph_web::render(&req.page, &ctx).map_err(|e| anyhow::anyhow!("{url}: {e:?}"))?;
        Ok(html.len())
    };
    println!(
        "{:<24} {:>6} {:>8} {:>8} {:>8} {:>10}",
        "page", "pages", "p50 ms", "p95 ms", "max ms", "p50 bytes"
    );
    if let Some(hub) = &hub {
        let node = format!("/node/{}", enc_path(hub));
        let impact = format!("/impact/{}?depth=3", enc_path(hub));
        report("/node/HUB", &vec![node; 20], &page)?;
        report("/impact/HUB depth 3", &vec![impact; 20], &page)?;
    }
    let urls = |f: &dyn Fn(&NodeRow) -> String| targets.iter().map(f).collect::<Vec<_>>();
    report("/node sampled", &urls(&|n| format!("/node/{}", enc_path(&n.id))), &page)?;
    report(
        "/impact sampled d3",
        &urls(&|n| format!("/impact/{}?depth=3", enc_path(&n.id))),
        &page,
    )?;
    report("/dag sampled d2", &urls(&|n| format!("/dag?q={}&depth=2", enc_query(&n.name))), &page)?;
    Ok(())
}

/// Renders every URL once after a warm-up and prints p50 / p95 / max and the median size.
fn report(name: &str, urls: &[String], page: &dyn Fn(&str) -> Result<usize>) -> Result<()> {
    if let Some(first) = urls.first() {
        page(first)?;
    }
    let mut samples: Vec<(Duration, usize)> = Vec::with_capacity(urls.len());
    for u in urls {
        let t = Instant::now();
        let bytes = page(u)?;
        samples.push((t.elapsed(), bytes));
    }
    let mut times: Vec<Duration> = samples.iter().map(|s| s.0).collect();
    let mut sizes: Vec<usize> = samples.iter().map(|s| s.1).collect();
    times.sort();
    sizes.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| ms(times[((times.len() as f64 - 1.0) * q).round() as usize]);
    println!(
        "{:<24} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>10}",
        name,
        times.len(),
        at(0.5),
        at(0.95),
        times.last().map_or(0.0, |d| ms(*d)),
        sizes[sizes.len() / 2]
    );
    Ok(())
}
