//! `codegraph-bench endpoints`: how many HTTP routes and MCP tools codegraph finds on the
//! public corpora of shared/eval, next to a grep baseline, with the lines where the two
//! disagree, so that every miss (and every find grep cannot make) can be explained.
//!
//! The baseline is deliberately naive: a line counts when it contains a registration marker
//! (`.HandleFunc(`, `fastify.get(`, `@get(`, `.registerTool(`...). It over-counts (a marker in
//! a comment or a string, `Handle(` of something that is not a mux) and under-counts (a
//! registration split over lines, a receiver it does not know, a tool declared as data), and
//! that is the point: the disagreement list shows which side is right on each line.
//!
//! Ours: the declared `route` / `tool` nodes of the index (composed routes of mounted routers
//! are counted apart; they repeat a declared route under a prefix). A node matches a grep line
//! when it is in the same file and starts on that line or the next two (a decorator or a
//! multi-line call puts the name a line or two below the marker).

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// One corpus: where to index, which files the counts cover, what grep looks for.
struct Corpus {
    name: &'static str,
    /// Indexed root, relative to the corpora directory unless absolute.
    root: &'static str,
    /// Only files under this root-relative prefix are counted ("" = all).
    under: &'static str,
    /// Files whose path contains this are not counted ("" = none).
    exclude: &'static str,
    /// Node kind counted: `route` or `tool`.
    kind: &'static str,
    /// File name endings counted.
    exts: &'static [&'static str],
    /// A line counts in the baseline when it contains one of these.
    markers: &'static [&'static str],
}

const HTTP_METHODS: [&str; 9] =
    ["get", "post", "put", "delete", "patch", "head", "options", "all", "route"];

const CORPORA: &[Corpus] = &[
    Corpus {
        name: "etcd (net/http)",
        root: "/usr/share/gocode/src/go.etcd.io/etcd",
        under: "",
        exclude: "",
        kind: "route",
        exts: &[".go"],
        markers: &[".HandleFunc(", ".Handle("],
    },
    Corpus {
        name: "fastify tests",
        root: "npm/unpacked/fastify-5.12.8",
        under: "test/",
        exclude: "",
        kind: "route",
        exts: &[".js", ".ts", ".mjs", ".cjs"],
        // Filled from HTTP_METHODS by `markers_of`.
        markers: &[],
    },
    Corpus {
        name: "LoopBack example-todo",
        root: "npm/unpacked/loopback-example-todo-6.0.0",
        under: "src/",
        exclude: "",
        kind: "route",
        exts: &[".ts"],
        markers: &["@get(", "@post(", "@put(", "@patch(", "@del(", "@operation("],
    },
    Corpus {
        name: "MCP TS SDK examples",
        root: "npm/unpacked/modelcontextprotocol-sdk-1.32.2",
        under: "dist/esm/examples/",
        exclude: "",
        kind: "tool",
        exts: &[".js"],
        markers: &[".tool(", ".registerTool("],
    },
    Corpus {
        name: "server-everything",
        root: "npm/unpacked/modelcontextprotocol-server-everything-2026.8.31",
        under: "dist/",
        exclude: "__tests__",
        kind: "tool",
        exts: &[".js"],
        markers: &[".tool(", ".registerTool("],
    },
];

/// The baseline markers of a corpus (fastify: `fastify.get(`, `app.route(`... for the usual
/// receiver names of its tests).
fn markers_of(c: &Corpus) -> Vec<String> {
    if !c.markers.is_empty() {
        return c.markers.iter().map(|m| m.to_string()).collect();
    }
    let mut out = Vec::new();
    for recv in ["fastify", "app", "instance", "f", "server"] {
        for m in HTTP_METHODS {
            out.push(format!("{recv}.{m}("));
        }
    }
    out
}

/// A detected route or tool: file, line, label.
struct Found {
    file: String,
    line: u32,
    label: String,
}

/// Indexes `root` with the release binary and returns its declared and composed endpoints of
/// `kind`, and the index time.
fn detect(bin: &Path, root: &Path, kind: &str) -> Result<(Vec<Found>, usize, f64)> {
    let (export, secs) = crate::accuracy::index_and_export(bin, "endpoints", root)?;
    let mut found = Vec::new();
    let mut composed = 0;
    for line in export.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(line)?;
        if v["type"] != "node" || v["kind"] != kind {
            continue;
        }
        if v["signature"].as_str().is_some_and(|s| s.contains("mounted under")) {
            composed += 1;
            continue;
        }
        found.push(Found {
            file: v["file"].as_str().unwrap_or_default().to_string(),
            line: v["start_line"].as_u64().unwrap_or(0) as u32,
            label: v["name"].as_str().unwrap_or_default().to_string(),
        });
    }
    Ok((found, composed, secs))
}

/// Whether the counts of `c` cover the root-relative `path`.
fn counted(c: &Corpus, path: &str) -> bool {
    path.starts_with(c.under)
        && (c.exclude.is_empty() || !path.contains(c.exclude))
        && c.exts.iter().any(|e| path.ends_with(e))
}

/// Every (file, line, text) under `root` whose line holds a marker.
fn grep(root: &Path, c: &Corpus, markers: &[String]) -> Vec<(String, u32, String)> {
    let mut out = Vec::new();
    let walker = ignore::WalkBuilder::new(root).hidden(false).require_git(false).build();
    for entry in walker.flatten() {
        let p = entry.path();
        let rel = p.strip_prefix(root).unwrap_or(p).to_string_lossy().replace('\\', "/");
        if !counted(c, &rel) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        for (i, l) in text.lines().enumerate() {
            if markers.iter().any(|m| l.contains(m.as_str())) {
                out.push((rel.clone(), i as u32 + 1, l.trim().chars().take(100).collect()));
            }
        }
    }
    out.sort();
    out
}

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let mut corpora = std::env::var_os("CORPORA").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/codegraph-corpora")
    });
    let mut only: Option<String> = None;
    let mut show = 15usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--corpora" => corpora = PathBuf::from(args.next().context("--corpora DIR")?),
            "--only" => only = Some(args.next().context("--only NAME")?),
            "--show" => show = args.next().context("--show N")?.parse()?,
            other => bail!("unknown argument {other}"),
        }
    }
    let bin = crate::sibling_binary()?;
    let mut table = vec![
        "| corpus | kind | files | grep lines | codegraph (declared) | both | grep only | codegraph only | composed (mounted) | index time |".to_string(),
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |".to_string(),
    ];
    for c in CORPORA.iter().filter(|c| only.as_deref().is_none_or(|o| c.name.contains(o))) {
        let root = corpora.join(c.root);
        if !root.is_dir() {
            println!("{}: {} is missing (run shared/eval/setup.sh)", c.name, root.display());
            continue;
        }
        let markers = markers_of(c);
        let hits = grep(&root, c, &markers);
        let files: HashSet<&str> = hits.iter().map(|h| h.0.as_str()).collect();
        let (found, composed, secs) = detect(&bin, &root, c.kind)?;
        let found: Vec<Found> = found.into_iter().filter(|f| counted(c, &f.file)).collect();
        // A grep line matches the detections in its file on that line; failing that, one not
        // matched yet on the next two lines (a decorator, a multi-line call). Each detection
        // matches one grep line at most.
        let mut matched_found: HashSet<usize> = HashSet::new();
        let mut unmatched: Vec<&(String, u32, String)> = Vec::new();
        let mut both = 0;
        for hit in &hits {
            let exact: Vec<usize> = found
                .iter()
                .enumerate()
                .filter(|(i, f)| !matched_found.contains(i) && f.file == hit.0 && f.line == hit.1)
                .map(|(i, _)| i)
                .collect();
            if exact.is_empty() {
                unmatched.push(hit);
            } else {
                both += 1;
                matched_found.extend(exact);
            }
        }
        let mut grep_only = Vec::new();
        for (file, line, text) in unmatched {
            let near = found.iter().enumerate().position(|(i, f)| {
                !matched_found.contains(&i)
                    && &f.file == file
                    && f.line > *line
                    && f.line <= line + 2
            });
            match near {
                Some(i) => {
                    both += 1;
                    matched_found.insert(i);
                }
                None => grep_only.push(format!("{file}:{line}: {text}")),
            }
        }
        let ours_only: Vec<String> = found
            .iter()
            .enumerate()
            .filter(|(i, _)| !matched_found.contains(i))
            .map(|(_, f)| format!("{}:{}: {}", f.file, f.line, f.label))
            .collect();
        let mut by_file: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &found {
            *by_file.entry(f.file.as_str()).or_default() += 1;
        }
        let all_files: HashSet<&str> =
            files.iter().copied().chain(by_file.keys().copied()).collect();
        table.push(format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} s |",
            c.name,
            c.kind,
            all_files.len(),
            hits.len(),
            found.len(),
            both,
            grep_only.len(),
            ours_only.len(),
            composed,
            secs
        ));
        println!("### {} ({})", c.name, root.display());
        println!("grep only ({}):", grep_only.len());
        for l in grep_only.iter().take(show) {
            println!("  {l}");
        }
        println!("codegraph only ({}):", ours_only.len());
        for l in ours_only.iter().take(show) {
            println!("  {l}");
        }
        println!();
    }
    for row in table {
        println!("{row}");
    }
    Ok(())
}
