//! Whole-run benchmarks of the release `codegraph` binary (never part of `cargo test`).
//!
//! usage:
//!   codegraph-bench index DIR [--runs N] [--bin PATH]      cold index vs the parse floor
//!   codegraph-bench incremental DIR [--edits N] [--rss-edits N]  re-index and watch latency
//!   codegraph-bench accuracy [--corpora DIR] [--only NAME] CALLS edges vs compiler oracles
//!   codegraph-bench accuracy --root DIR --oracle FILE     the same for a corpus kept out of
//!                                                         the repository (held-out code)
//!   codegraph-bench accuracy --peers [--only NAME]        GitNexus's CALLS pairs vs the same
//!                                                         oracles, next to ours (rxjs, openai)
//!   codegraph-bench impact-accuracy [--corpora DIR] [--only NAME]
//!                                                         depth-2 upstream impact vs the oracles'
//!                                                         transitive callers (50 functions each)
//!   codegraph-bench answer-sizes [--corpora DIR] [--only NAME]
//!                                                         characters and tokens of default answers
//!   codegraph-bench endpoints [--corpora DIR] [--only NAME] [--show N]
//!                                                         routes/tools found vs a grep baseline
//!   codegraph-bench peers [--only NAME] [--runs N] [--smoke]  side by side with GitNexus, ctags
//!   codegraph-bench queries --db PATH [--calls N]         p50/p95 of the graph operations
//!   codegraph-bench web --db PATH [--root DIR] [--hub ID] [--calls N]   web page render p50/p95
//!   codegraph-bench mcp-load DIR [--clients N] [--calls M] [--edit-ms MS] [--json] [--smoke]
//!                                                         concurrent MCP clients while files change
//!
//!   codegraph-bench churn DIR|--smoke [--ops N] [--switches N]
//!                                                         branch switches in a watched root and
//!                                                         the daemon's RSS over a long session
//!   codegraph-bench agents DIR|--smoke [--worktrees N] [--secs S] [--mode grow|flip]
//!                          [--switch-every K] [--rss-every S]
//!                                                         agents in N worktrees of one mcp:
//!                                                         read-your-writes, RSS over time
//!   codegraph-bench worktrees DIR|--smoke [--changed N,N...]
//!                                                         a new git worktree seeded from its
//!                                                         sibling vs a cold build
//!
//!   codegraph-bench shared-store DIR|--smoke [--changed N,N...] [--store URL]
//!                                                         a fresh clone seeded from a published
//!                                                         snapshot vs a cold build
//!
//!   codegraph-bench mcp-rss --cache DIR [--bin PATH] ROOT...
//!                                                         settled RSS of one mcp serving ROOTs
//!
//!   codegraph-bench attack [DIR] [--bin PATH] [--stalled N] [--sessions N] [--pipelined N] [--idle-wait S]
//!                                                         issue 25's attack set replayed with
//!                                                         bounded counts: one table
//!
//!   codegraph-bench scip-compare OURS.scip THEIRS.scip [--root DIR] [--show N] [--json]
//!                                                         reference occurrences of two SCIP
//!                                                         indexes of one root, by position
//!                                                         (benches/scip_vs_scip_typescript.sh)
//!
//!   codegraph-bench report [--smoke] [--out FILE] [--only TEXT]
//!                                                         all of the above in one run, written
//!                                                         to docs/BENCHMARKS.md
//!
//! Build first: `cargo build --profile dist -p codegraph-server -p codegraph-bench`.

mod accuracy;
mod agents;
mod answer_sizes;
mod attack;
mod churn;
mod endpoints;
mod impact_accuracy;
mod incremental_bench;
mod index_bench;
mod mcp_load;
mod peer_accuracy;
mod peers;
mod query_bench;
mod report;
mod scip_compare;
mod shared_store;
mod web_bench;
mod worktrees;

use anyhow::{Result, bail};
use std::path::PathBuf;

/// The languages the edit benches know how to edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SourceLang {
    Go,
    Ts,
    Py,
    Java,
    Rust,
}

/// A Go, TypeScript, Python, Java or Rust source file the edit benches may change:
/// (root-relative path, language, text). Test files, `testdata/`, `node_modules/`, `.d.ts`
/// files and Rust's `tests/`, `benches/`, `examples/` and `target/` are left out.
struct EditableSource {
    rel: String,
    lang: SourceLang,
    text: String,
}

/// Every editable source file under `root`, in walk order.
fn editable_sources(root: &std::path::Path) -> Vec<EditableSource> {
    let mut out = Vec::new();
    let walker = ignore::WalkBuilder::new(root).hidden(false).require_git(false).build();
    for entry in walker.flatten() {
        let p = entry.path();
        let rel = p.strip_prefix(root).unwrap_or(p).to_string_lossy().replace('\\', "/");
        if rel.contains("testdata/")
            || rel.contains("node_modules/")
            || rel.ends_with("_test.go")
            || rel.contains("/test/")
            || rel.starts_with("test/")
        {
            continue;
        }
        let lang = if rel.ends_with(".go") {
            SourceLang::Go
        } else if rel.ends_with(".ts") && !rel.ends_with(".d.ts") {
            SourceLang::Ts
        } else if rel.ends_with(".py") {
            SourceLang::Py
        } else if rel.ends_with(".java") && !rel.contains("src/test/") {
            SourceLang::Java
        } else if rel.ends_with(".rs")
            && !["tests/", "benches/", "examples/", "target/"]
                .iter()
                .any(|d| rel.starts_with(d) || rel.contains(&format!("/{d}")))
        {
            SourceLang::Rust
        } else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        out.push(EditableSource { rel, lang, text });
    }
    out
}

/// A small synthetic Go module for `--smoke` runs: `n` files in 10 packages, each function
/// calling one in the previous file. Returns the directory (under `dir`; remove it with
/// [`remove_synthetic`]).
fn synthetic_corpus(dir: &std::path::Path, n: usize) -> Result<PathBuf> {
    let root = dir.join("synthetic");
    std::fs::create_dir_all(&root)?;
    std::fs::write(root.join("go.mod"), "module example.com/synthetic\n")?;
    for i in 0..n {
        let pkg = format!("p{}", i % 10);
        std::fs::create_dir_all(root.join(&pkg))?;
        let callee = if i >= 10 { format!("F{}()", i - 10) } else { String::new() };
        std::fs::write(
            root.join(&pkg).join(format!("f{i}.go")),
            format!("package {pkg}\n\n// F{i} is function {i}.\nfunc F{i}() {{\n\t{callee}\n}}\n"),
        )?;
    }
    Ok(root)
}

/// The corpus of a bench whose first argument is `DIR` or `--smoke` (a [`synthetic_corpus`]
/// of 120 files in the temporary directory), and whether it is the smoke one.
fn corpus_or_smoke(first: Option<String>) -> Result<(PathBuf, bool)> {
    let first = first.ok_or_else(|| anyhow::anyhow!("missing DIR (or --smoke)"))?;
    if first == "--smoke" {
        let tmp =
            std::env::temp_dir().join(format!("codegraph-bench-synth-{}", std::process::id()));
        Ok((synthetic_corpus(&tmp, 120)?, true))
    } else {
        Ok((PathBuf::from(first), false))
    }
}

/// Runs git in `cwd` with a fixed identity, quietly; an error when it fails.
fn git(cwd: &std::path::Path, args: &[&str]) -> Result<()> {
    let st = std::process::Command::new("git")
        .args(args)
        .current_dir(cwd)
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.invalid")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.invalid")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()?;
    if !st.success() {
        bail!("git {args:?} failed in {}", cwd.display());
    }
    Ok(())
}

/// Copies `dir` (symlinks followed) to `dest` as a fresh git repository: its files in one
/// commit on branch `main`.
fn git_copy(dir: &std::path::Path, dest: &std::path::Path) -> Result<()> {
    let st = std::process::Command::new("cp").arg("-rL").arg(dir).arg(dest).status()?;
    if !st.success() {
        bail!("cannot copy {}", dir.display());
    }
    let _ = std::fs::remove_dir_all(dest.join(".git"));
    git(dest, &["init", "-q", "-b", "main"])?;
    git(dest, &["add", "-A"])?;
    git(dest, &["commit", "-q", "-m", "base"])
}

/// Removes a corpus [`synthetic_corpus`] made (nothing for any other directory).
fn remove_synthetic(root: &std::path::Path) {
    if root.file_name().is_some_and(|n| n == "synthetic")
        && let Some(parent) = root.parent()
        && parent
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("codegraph-bench-synth-"))
    {
        let _ = std::fs::remove_dir_all(parent);
    }
}

/// The `codegraph` binary next to this one (same target directory).
fn sibling_binary() -> Result<PathBuf> {
    Ok(std::env::current_exe()?.with_file_name("codegraph"))
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("index") => index_bench::run(args),
        Some("incremental") => incremental_bench::run(args),
        Some("accuracy") => accuracy::run(args),
        Some("endpoints") => endpoints::run(args),
        Some("impact-accuracy") => impact_accuracy::run(args),
        Some("answer-sizes") => answer_sizes::run(args),
        Some("peers") => peers::run(args),
        Some("queries") => query_bench::run(args),
        Some("web") => web_bench::run(args),
        Some("mcp-load") => mcp_load::run(args),
        Some("report") => report::run(args),
        Some("worktrees") => worktrees::run(args),
        Some("shared-store") => shared_store::run(args),
        Some("mcp-rss") => worktrees::run_mcp_rss(args),
        Some("attack") => attack::run(args),
        Some("churn") => churn::run(args),
        Some("agents") => agents::run(args),
        Some("scip-compare") => scip_compare::run(args),
        _ => bail!(
            "usage: codegraph-bench index DIR [--runs N] [--bin PATH] | incremental DIR [--edits N] [--rss-edits N] [--keep] | accuracy [--corpora DIR] [--only NAME] [--peers] | impact-accuracy [--corpora DIR] [--only NAME] | answer-sizes [--corpora DIR] [--only NAME] | endpoints [--corpora DIR] [--only NAME] [--show N] | peers [--only NAME] [--runs N] [--smoke] | queries --db PATH [--calls N] | web --db PATH [--root DIR] [--hub ID] [--calls N] | mcp-load DIR [--clients N] [--calls M] [--edit-ms MS] [--bin PATH] [--json] [--keep] | mcp-load --smoke | shared-store DIR|--smoke [--changed N,N...] [--store URL] [--bin PATH] | mcp-rss --cache DIR [--bin PATH] ROOT... | attack [DIR] [--bin PATH] [--stalled N] [--sessions N] [--pipelined N] [--idle-wait S] | agents DIR|--smoke [--worktrees N] [--secs S] [--mode grow|flip] [--switch-every K] [--rss-every S] [--bin PATH] | report [--smoke] [--out FILE] [--only TEXT] | scip-compare OURS.scip THEIRS.scip [--root DIR] [--show N] [--json]"
        ),
    }
}
