//! `codegraph-bench report`: every whole-run benchmark in one run, written to
//! `docs/BENCHMARKS.md`.
//!
//! It prepares what is missing (the public corpora and oracle outputs of shared/eval, the
//! peers of `benches/peers/setup.sh`), then runs each bench subcommand of this binary in turn
//! (cold index vs the parse floor, incremental re-index and watch latency, query latency,
//! CALLS accuracy of codegraph and of GitNexus against the compiler oracles, the side-by-side
//! peers table, route/tool detection, MCP under load) and writes their tables under one
//! header that names the machine, the commit and the corpus versions, each with the command
//! that reproduces it alone. A section whose bench fails says so and the report goes on.
//!
//! `--smoke` runs the smoke variants only (tiny corpora, seconds) and writes nothing unless
//! `--out` is given: CI runs it to keep the command from rotting.

use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One section: a title, what it measures, the subcommand arguments.
struct Section {
    title: &'static str,
    about: &'static str,
    args: Vec<String>,
}

pub(crate) fn corpora_dir() -> PathBuf {
    std::env::var_os("CORPORA").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/codegraph-corpora")
    })
}

/// `[--corpora DIR] [--only NAME]`: the corpora directory (default [`corpora_dir`]) and a
/// corpus name filter.
pub(crate) fn corpus_args(
    mut args: impl Iterator<Item = String>,
) -> Result<(PathBuf, Option<String>)> {
    let mut corpora = corpora_dir();
    let mut only: Option<String> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--corpora" => corpora = PathBuf::from(args.next().context("--corpora DIR")?),
            "--only" => only = Some(args.next().context("--only NAME")?),
            other => bail!("unknown argument {other}"),
        }
    }
    Ok((corpora, only))
}

const GO_STDLIB: &str = "/usr/lib/go-1.19/src";

/// The full plan. `db` is a scratch index of the Go standard library for the query bench.
fn plan(corpora: &Path, db: &Path) -> Vec<Section> {
    let c = |rel: &str| corpora.join(rel).to_string_lossy().into_owned();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        Section {
            title: "Cold index vs the parse floor (issue 2)",
            about: "`codegraph index` (dist build, fresh database, child process) next to a tree-sitter parse of the same provider files on all cores with no extraction and no storage (the physical floor) and to the same files parsed and extracted as the index's workers do it (`parse + extract`: no resolution, no storage), median of the runs; peak RSS is the index process's VmHWM.",
            args: s(&["index", GO_STDLIB, "--runs", "3"]),
        },
        Section {
            title: "Cold index vs the parse floor: a TypeScript corpus",
            about: "The same on viem (TypeScript and generated JavaScript).",
            args: vec!["index".into(), c("npm/unpacked/viem-2.57.20"), "--runs".into(), "3".into()],
        },
        Section {
            title: "Incremental re-index and watch latency (issue 4)",
            about: "On a private copy: cold index, no-change `codegraph index`, one-file-change `codegraph index`, then a `codegraph watch` daemon fed real edits, each timed from the write to the published, queryable revision.",
            args: s(&["incremental", GO_STDLIB, "--edits", "40"]),
        },
        Section {
            title: "Query latency (issue 5)",
            about: "In process on an index of the Go standard library: p50 / p95 of search, symbol_context, impact, dag_grep and the query half of changed-code impact.",
            args: vec!["queries".into(), "--db".into(), db.to_string_lossy().into_owned()],
        },
        Section {
            title: "Web view page render (issue 23)",
            about: "In process on the same index: the pages of `codegraph web` drawn by `codegraph-web` from one snapshot (HTML with the SVG graph, no HTTP): a hub's node page and depth-3 impact page (`net/http.Server`), then node, impact and DAG-grep pages of 100 sampled functions; page sizes are bounded like MCP answers (lists of 25 with \"N more\", graphs of at most 60 nodes).",
            args: vec![
                "web".into(),
                "--db".into(),
                db.to_string_lossy().into_owned(),
                "--root".into(),
                GO_STDLIB.into(),
                "--hub".into(),
                "sym:go:net/http/server.go:Server".into(),
            ],
        },
        Section {
            title: "CALLS accuracy against the compiler oracles (issue 3)",
            about: "Precision and recall of codegraph's CALLS edges against go/types and the TypeScript compiler (shared/eval), per corpus, with the unresolved sites codegraph admits.",
            args: s(&["accuracy"]),
        },
        Section {
            title: "Impact follows real dependents (issue 17)",
            about: "Depth-2 upstream impact of 50 sampled functions per corpus against the oracle's transitive callers (anonymous functions transparent, dispatch-only and route/tool nodes counted apart); `before` is the same walk with the edge kinds impact followed from every node before per-kind rules (containment and importers climbed).",
            args: s(&["impact-accuracy"]),
        },
        Section {
            title: "What default answers cost an agent (issue 17)",
            about: "Characters and o200k tokens of the default `--json` answers (the MCP tools' answers) to the heaviest questions on openai, gin and the Go standard library; the budget is 16,000 characters, cut lists carry totals and a next offset.",
            args: s(&["answer-sizes"]),
        },
        Section {
            title: "CALLS accuracy: GitNexus against the same oracles",
            about: "GitNexus's CALLS pairs (its edges carry no call-site line, so pairs, not sites) scored like ours.",
            args: s(&["accuracy", "--peers"]),
        },
        Section {
            title: "Side by side with GitNexus and universal-ctags (issue 8)",
            about: "Each tool indexes the same fresh git copy; wall time and peak RSS from one wrapper for all; ratios are peer / codegraph from the same run. GitNexus runs `analyze --index-only --force` (cold), `analyze --index-only` (no change, then after a one-line edit of one file), `context NAME` and `impact NAME`; codegraph `index`, `search`, `context ID` and `impact ID` (the best search hit of the same name, after one call that computes the flows); queries include process start. What GitNexus could not do offline: its full-text search needs the LadybugDB `fts` extension, which it downloads on first use (with `GITNEXUS_LBUG_EXTENSION_INSTALL=load-only` it indexes without it); its CALLS edges carry no call-site line, so CALLS accuracy is compared at pair level (section above).",
            args: s(&["peers", "--runs", "1"]),
        },
        Section {
            title: "Routes and tools found vs a grep baseline (issue 7)",
            about: "Declared route/tool nodes next to lines holding a registration marker; the disagreements are listed so each can be explained (docs/ACCURACY.md).",
            args: s(&["endpoints", "--show", "5"]),
        },
        Section {
            title: "A new worktree seeded from its sibling (issue 18)",
            about: "A private git repository of the Go standard library, its main worktree indexed cold; then `codegraph index` of a new worktree at the same commit and of worktrees whose HEAD changes 60 and 2,000 files, seeded from the main worktree's index, next to `--no-share --full` (a cold build) of the same worktree; the seeded index's sorted export is compared with the cold build's. Wall times include process start. Then the settled RSS of one `codegraph mcp` serving the main worktree alone, with three worktrees at its commit (the issue's setup), and with the worktrees above (one first call per root; each root's flows and clusters computed).",
            args: s(&["worktrees", GO_STDLIB]),
        },
        Section {
            title: "Another machine seeded from a shared store (issue 42)",
            about: "A private git repository of the Go standard library indexed cold in one cache directory and published (`codegraph publish --to file://DIR`); then a fresh `git clone` in another cache directory, at the published commit and at a commit 60 files later, runs `codegraph index --cache-from file://DIR` and its first query (`search`), timed together and next to a cold build; the seeded index's sorted export is compared with a `--full` rebuild's. Wall times include process start.",
            args: s(&["shared-store", GO_STDLIB]),
        },
        Section {
            title: "Branch switches and a long watch session (issue 18)",
            about: "`codegraph watch` on a private git repository of the Go standard library: checkouts that change 60 and 2,000 files, timed to the last revision they cause; then 1,000 operations (body edits, deletes, re-creates, new files, 10 branch switches), each waited for, and the daemon's RSS after the first 100 and after the last.",
            args: s(&["churn", GO_STDLIB]),
        },
        Section {
            title: "Many agents, one server (issue 46)",
            about: "One `codegraph mcp` serving a private git repository of the Go standard library and three worktrees of it; one agent per root for 5 minutes writes two functions (a target and its caller), asks `impact_analysis` of the target at once and until the caller shows, then `symbol_context` and `code_search` of the caller, and switches its worktree to a branch and back every 20 edits. Counts answers that say `stale: false` without a write made before the request (must be 0), the time from each write to the first answer that shows it, and the server's RSS next to the index's size.",
            args: s(&["agents", GO_STDLIB, "--secs", "300", "--rss-every", "30"]),
        },
        Section {
            title: "MCP server under load (issue 6)",
            about: "8 concurrent MCP clients over streamable HTTP while files are edited and re-indexed: throughput, latency per tool, revision order and torn-revision checks.",
            args: s(&["mcp-load", GO_STDLIB]),
        },
    ]
}

/// The smoke plan: tiny corpora, seconds; nothing that needs the public corpora or peers.
fn smoke_plan() -> Vec<Section> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        Section {
            title: "Side by side (smoke)",
            about: "codegraph and ctags on a tiny corpus.",
            args: s(&["peers", "--smoke", "--runs", "1"]),
        },
        Section {
            title: "Worktrees (smoke)",
            about: "A new worktree of a small synthetic Go module, seeded vs cold.",
            args: s(&["worktrees", "--smoke"]),
        },
        Section {
            title: "Shared store (smoke)",
            about: "A small synthetic Go module published to a directory store, a fresh clone seeded from it.",
            args: s(&["shared-store", "--smoke"]),
        },
        Section {
            title: "Branch switches and churn (smoke)",
            about: "A short watch session on a small synthetic Go module.",
            args: s(&["churn", "--smoke"]),
        },
        Section {
            title: "Many agents, one server (smoke)",
            about: "Four roots of a small synthetic Go module, one agent each, a few seconds.",
            args: s(&["agents", "--smoke", "--secs", "5"]),
        },
        Section {
            title: "MCP server under load (smoke)",
            about: "A few clients on a tiny corpus.",
            args: s(&["mcp-load", "--smoke"]),
        },
    ]
}

/// Runs `bash SCRIPT` when `ready` is false, failing with what to do when it cannot.
fn prepare(what: &str, ready: bool, script: &Path) -> Result<()> {
    if ready {
        return Ok(());
    }
    if !script.is_file() {
        bail!("{what} missing and {} not found: install them first", script.display());
    }
    eprintln!("report: preparing {what} ({})", script.display());
    let status = Command::new("bash").arg(script).status().context("running bash")?;
    if !status.success() {
        bail!("{} failed ({status})", script.display());
    }
    Ok(())
}

fn capture(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Machine, commit and corpus versions, for the header.
fn environment(repo: &Path) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split_once(':').map_or(l, |(_, v)| v).trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let mem_gib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<f64>().ok()))
        })
        .map_or("?".into(), |kib| format!("{:.0}", kib / 1024.0 / 1024.0));
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let commit = capture("git", &["-C", &repo.to_string_lossy(), "rev-parse", "--short", "HEAD"]);
    let dirty = !capture("git", &["-C", &repo.to_string_lossy(), "status", "--porcelain"])
        .trim()
        .is_empty();
    let go = capture("go", &["version"]);
    let date = capture("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    format!(
        "Generated by `codegraph-bench report` on {date}, commit {commit}{}.\n\
         Machine: {cores} cores ({cpu}), {mem_gib} GiB, Linux; `dist` build (fat LTO).\n\
         Corpora: Go standard library from `{go}` ({GO_STDLIB}); Debian's etcd sources \
         (`/usr/share/gocode/src/go.etcd.io/etcd`); npm packages rxjs 7.8.2, openai 6.49.0, viem \
         2.57.20, fastify 5.12.8, @modelcontextprotocol/sdk 1.32.2, \
         @modelcontextprotocol/server-everything 2026.8.31, @loopback/example-todo 6.0.0 \
         (`../shared/eval/setup.sh`). Peers: GitNexus 1.6.12 on Node 22, universal-ctags \
         (`benches/peers/setup.sh`).\n",
        if dirty { " with uncommitted changes" } else { "" }
    )
}

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let mut smoke = false;
    let mut out: Option<PathBuf> = None;
    let mut only: Option<String> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--smoke" => smoke = true,
            "--out" => out = Some(PathBuf::from(args.next().context("--out FILE")?)),
            "--only" => only = Some(args.next().context("--only TEXT")?),
            other => bail!("unknown argument {other}"),
        }
    }
    let me = std::env::current_exe()?;
    let repo = std::env::current_dir()?;
    let corpora = corpora_dir();
    let db = std::env::temp_dir().join(format!("codegraph-report-{}.db", std::process::id()));
    let sections = if smoke {
        smoke_plan()
    } else {
        let eval = repo.join("../shared/eval");
        prepare(
            "the public corpora",
            corpora.join("npm/unpacked/viem-2.57.20").is_dir(),
            &eval.join("setup.sh"),
        )?;
        prepare(
            "the oracle outputs",
            corpora.join("oracle_out/rxjs.jsonl").is_file(),
            &eval.join("run_oracles.sh"),
        )?;
        let peers = std::env::var_os("PEERS").map(PathBuf::from).unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/codegraph-peers")
        });
        prepare(
            "the peers",
            peers.join("node_modules/.bin/gitnexus").exists(),
            &repo.join("benches/peers/setup.sh"),
        )?;
        // The query bench reads an existing index.
        let codegraph = crate::sibling_binary()?;
        let status = Command::new(&codegraph)
            .args(["index", GO_STDLIB, "--db", &db.to_string_lossy()])
            .stdout(std::process::Stdio::null())
            .status()
            .context("indexing the Go standard library for the query bench")?;
        if !status.success() {
            bail!("indexing {GO_STDLIB} failed ({status})");
        }
        plan(&corpora, &db)
    };
    let mut doc = String::from("# Benchmarks\n\n");
    doc.push_str(&environment(&repo));
    doc.push_str(
        "\nEvery figure below is printed by a command of this repository (timings are never \
         asserted in tests). Rerun everything with:\n\n```sh\ncargo build --profile dist -p \
         codegraph-server -p codegraph-bench\n./target/dist/codegraph-bench report\n```\n\n\
         Runs on a shared virtual machine vary by about ±20% from one minute to the next; ratios \
         (to the parse floor, peer / codegraph) come from the same run. Analysis and history of \
         these figures: docs/PERFORMANCE.md.\n",
    );
    let mut failed = 0;
    for s in sections.iter().filter(|s| only.as_deref().is_none_or(|o| s.title.contains(o))) {
        let t = Instant::now();
        eprintln!("report: {} ...", s.title);
        let output = Command::new(&me)
            .args(&s.args)
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            .output();
        let secs = t.elapsed().as_secs_f64();
        let _ = write!(
            doc,
            "\n## {}\n\n{}\n\n```sh\n./target/dist/codegraph-bench {}\n```\n\n",
            s.title,
            s.about,
            s.args.join(" ")
        );
        match output {
            Ok(o) if o.status.success() => {
                let text = String::from_utf8_lossy(&o.stdout);
                doc.push_str(text.trim_end());
                doc.push('\n');
                println!("## {} ({secs:.0} s)\n{}", s.title, text.trim_end());
            }
            Ok(o) => {
                failed += 1;
                let err = String::from_utf8_lossy(&o.stderr);
                let last = err
                    .lines()
                    .find(|l| l.starts_with("Error"))
                    .or_else(|| err.lines().rev().find(|l| !l.trim().is_empty()))
                    .unwrap_or("no error output");
                let _ = writeln!(doc, "**Not measured in this run:** the bench failed: `{last}`");
                println!("## {}: FAILED\n{err}", s.title);
            }
            Err(e) => {
                failed += 1;
                let _ = writeln!(doc, "**Not measured in this run:** {e}");
            }
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let out = match (smoke, out) {
        (_, Some(p)) => Some(p),
        (false, None) => Some(repo.join("docs/BENCHMARKS.md")),
        (true, None) => None,
    };
    if let Some(p) = out {
        std::fs::write(&p, doc).with_context(|| format!("writing {}", p.display()))?;
        eprintln!("report: wrote {}", p.display());
    }
    if failed > 0 {
        bail!("{failed} section(s) failed; the report says which");
    }
    Ok(())
}
