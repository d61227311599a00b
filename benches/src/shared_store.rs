//! `codegraph-bench shared-store DIR|--smoke [--changed N,N...] [--store URL] [--bin PATH]`:
//! what another machine pays for its first answer when a CI job has published the index to a
//! shared store (issue 42), next to a cold build, and whether the seeded index equals a full
//! rebuild (sorted export).
//!
//! DIR is copied into a temporary git repository (one commit), indexed cold in one cache
//! directory and published (`codegraph publish --to URL`; default a `file://` store in the
//! scratch directory). Then, for a branch at the same commit and for branches whose HEAD
//! changes N files (a function appended to N Go/TS sources, committed), a fresh `git clone`
//! of that branch in a new cache directory (standing in for another machine) runs `codegraph
//! index --cache-from URL` and its first query (`search`), timed together; then `--full
//! --no-share` into another database, and the two exports are compared.

use crate::worktrees::{codegraph, export, mib};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

struct Args {
    dir: PathBuf,
    changed: Vec<usize>,
    store: Option<String>,
    bin: PathBuf,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args> {
    let (dir, smoke) = crate::corpus_or_smoke(it.next())?;
    let mut changed = if smoke { vec![0, 20] } else { vec![0, 60] };
    let mut bin = crate::sibling_binary()?;
    let mut store = None;
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
            "--store" => store = Some(it.next().context("--store URL")?),
            "--bin" => bin = PathBuf::from(it.next().context("--bin PATH")?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok(Args { dir, changed, store, bin })
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let args = parse_args(args)?;
    let scratch =
        std::env::temp_dir().join(format!("codegraph-bench-store-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let base = std::fs::canonicalize(&scratch)?;
    let result = scenarios(&args, &base);
    let _ = std::fs::remove_dir_all(&base);
    crate::remove_synthetic(&args.dir);
    result
}

fn scenarios(args: &Args, base: &Path) -> Result<()> {
    let main = base.join("main");
    let publisher = base.join("cache-ci");
    crate::git_copy(&args.dir, &main)?;
    let store =
        args.store.clone().unwrap_or_else(|| format!("file://{}", base.join("store").display()));
    let (cold, cold_s) = codegraph(&args.bin, &publisher, &main, &["index", "--json"])?;
    let (published, publish_s) =
        codegraph(&args.bin, &publisher, &main, &["publish", "--json", "--to", &store])?;
    println!(
        "published: cold index {cold_s:.2} s ({} MiB peak RSS, {} files); publish {publish_s:.2} s, \
         {:.1} MiB database as {:.1} MiB in the store",
        mib(&cold),
        cold["files"],
        published["db_bytes"].as_f64().unwrap_or(0.0) / 1048576.0,
        published["compressed_bytes"].as_f64().unwrap_or(0.0) / 1048576.0,
    );
    let sources = crate::editable_sources(&main);
    println!();
    println!(
        "| fresh clone | files changed since the published commit | index --cache-from | first query | in all | peak RSS | re-derived | vouched by git | cold (no store) | seeded == full rebuild |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (i, &n) in args.changed.iter().enumerate() {
        let branch = format!("b{i}-{n}");
        let n = crate::worktrees::probe_branch(&main, &branch, &sources, n)?;
        let clone = base.join(format!("clone-{branch}"));
        let cache = base.join(format!("cache-{branch}"));
        let clone_s = clone.display().to_string();
        crate::git(&main, &["clone", "-q", "--branch", &branch, ".", &clone_s])?;
        let (seeded, index_s) = codegraph(
            &args.bin,
            &cache,
            &clone,
            &["index", "--json", "--no-share", "--cache-from", &store],
        )?;
        if seeded["mode"] != "seeded" {
            bail!("the clone was not seeded: {seeded}");
        }
        let (_, query_s) = codegraph(&args.bin, &cache, &clone, &["search", "--json", "Reader"])?;
        let full_db = base.join(format!("full-{branch}.db"));
        let full_db_s = full_db.display().to_string();
        let (_, full_s) = codegraph(
            &args.bin,
            &cache,
            &clone,
            &["index", "--json", "--no-share", "--full", "--db", &full_db_s],
        )?;
        let equal = export(&args.bin, &cache, &clone, None)?
            == export(&args.bin, &cache, &clone, Some(&full_db))?;
        println!(
            "| {} | {n} | {index_s:.2} s | {query_s:.2} s | {:.2} s | {} MiB | {} | {} | {full_s:.2} s | {} |",
            if n > 0 { "HEAD later" } else { "same commit" },
            index_s + query_s,
            mib(&seeded),
            seeded["changed_files"],
            seeded["vouched_by_git"],
            if equal { "yes" } else { "NO" },
        );
    }
    Ok(())
}
