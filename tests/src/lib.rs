//! Shared test support: a fixture DSL in which one string holds several files.
//!
//! ```text
//! //- /src/a.ts
//! export function a() {}
//! //- /src/b.ts
//! import { a } from "./a";
//! ```
//!
//! Each `//- /path` line starts a new file; the common indentation of the whole fixture is
//! removed first, so fixtures can be indented inside Rust raw strings. The same fixtures feed
//! provider goldens (pure facts), resolution tests and end-to-end CLI runs (written to a temp
//! directory).

pub mod fuzz;

use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace};
use codegraph_parse::{Language, analyze, render::render_facts};
use codegraph_query::{SnapshotInfo, Store};
use codegraph_resolve::{Edge, Node, file_graph, file_node, node_unit_rows, resolve_file};
use codegraph_schema::Reason;
use std::path::Path;
use std::sync::Arc;

/// One file of a fixture: root-relative path (no leading `/`) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixtureFile {
    pub path: String,
    pub text: String,
}

/// Parses the fixture DSL. Text before the first `//- ` header is an error, so a typo in a
/// header cannot silently produce an empty fixture.
pub fn parse_fixture(fixture: &str) -> Vec<FixtureFile> {
    let fixture = dedent(fixture);
    let mut files: Vec<FixtureFile> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("//- ") {
            let path = header.trim().trim_start_matches('/').to_string();
            assert!(!path.is_empty(), "fixture header without a path");
            files.push(FixtureFile { path, text: String::new() });
        } else if let Some(file) = files.last_mut() {
            file.text.push_str(line);
        } else {
            assert!(
                line.trim().is_empty(),
                "fixture text before the first `//- /path` header: {line:?}"
            );
        }
    }
    files
}

/// Writes a fixture under `dir`, creating parent directories.
pub fn write_fixture(dir: &Path, fixture: &str) -> Vec<FixtureFile> {
    let files = parse_fixture(fixture);
    for f in &files {
        let path = dir.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create fixture dir");
        }
        std::fs::write(&path, &f.text).expect("write fixture file");
    }
    files
}

/// Runs the provider of each file and renders its facts, file by file, for a golden.
pub fn render_fixture_facts(fixture: &str) -> String {
    let mut out = String::new();
    for f in parse_fixture(fixture) {
        out.push_str(&format!("//- {}\n", f.path));
        match Language::detect(&f.path, &f.text) {
            Some(lang) => out.push_str(&render_facts(&analyze(lang, &f.text))),
            None => out.push_str("(no provider)\n"),
        }
    }
    out
}

/// The fixture's files as salsa inputs (sorted by path) and their workspace.
pub fn fixture_db(fixture: &str) -> (Database, Vec<SourceFile>, Workspace) {
    let db = Database::default();
    let mut files: Vec<SourceFile> = parse_fixture(fixture)
        .into_iter()
        .map(|f| {
            let meta = FileMeta::for_text(&f.text);
            SourceFile::new(
                &db,
                f.path.clone(),
                Language::detect(&f.path, &f.text),
                Content::Text(Arc::from(f.text)),
                meta,
            )
        })
        .collect();
    files.sort_by(|a, b| a.path(&db).cmp(b.path(&db)));
    let workspace = Workspace::new(&db, files.clone());
    (db, files, workspace)
}

fn render_edges(out: &mut String, edges: &mut [&Edge]) {
    edges.sort();
    for e in edges.iter() {
        let line = if e.line > 0 { format!(" L{}", e.line) } else { String::new() };
        out.push_str(&format!(
            "edge {} {} -> {}{line} {} {:.2}\n",
            e.kind,
            e.src,
            e.dst,
            e.reason,
            e.weight()
        ));
    }
}

/// Builds the graph of a fixture through the salsa queries and renders every node and edge,
/// sorted, one per line: `node KIND ID [lines] parent=..` and `edge KIND SRC -> DST reason w`.
/// The edges are read back from a published store, so they include the edges symbol rows
/// imply (`codegraph_schema::ddl::EDGE_VIEW`) exactly as every reader sees them.
pub fn render_fixture_graph(fixture: &str) -> String {
    let (db, files, workspace) = fixture_db(fixture);
    let mut nodes: Vec<&Node> = Vec::new();
    let mut edges: Vec<&Edge> = Vec::new();
    for &f in &files {
        nodes.push(file_node(&db, f));
        let g = file_graph(&db, f);
        nodes.extend(g.nodes.iter());
        edges.extend(g.edges.iter());
    }
    let p = node_unit_rows(&db, workspace);
    nodes.extend(&p.nodes);
    edges.extend(&p.edges);
    let published = published_edges(&nodes, &edges);
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    let mut out = String::new();
    for n in nodes {
        let lines = match (n.start_line, n.end_line) {
            (Some(s), Some(e)) => format!(" L{s}-{e}"),
            _ => String::new(),
        };
        let parent = n.parent.as_deref().map(|p| format!(" parent={p}")).unwrap_or_default();
        // Test code (its language's rule) is marked: answers list it apart.
        let test = if n.test { " test" } else { "" };
        out.push_str(&format!("node {} {}{lines}{parent}{test}\n", n.kind, n.id));
    }
    render_edges(&mut out, &mut published.iter().collect::<Vec<_>>());
    out
}

/// Publishes `nodes` and `edges` into a temporary store and reads every edge back.
fn published_edges(nodes: &[&Node], edges: &[&Edge]) -> Vec<Edge> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut store = Store::open(&dir.path().join("graph.db")).expect("open the store");
    store.publish(&SnapshotInfo::default(), nodes, edges, &[]).expect("publish");
    let reader = store.reader().expect("reader");
    let mut out = Vec::new();
    reader
        .for_each_edge(|e| {
            let kind = e.kind;
            let reason = Reason::parse(&e.reason).expect("a known reason");
            let edge = Edge::new(e.src.into(), e.dst.into(), kind, reason, e.line);
            assert_eq!(edge.weight(), e.weight, "the stored weight is the reason's");
            out.push(edge);
        })
        .expect("read the edges");
    out
}

/// Runs cross-file resolution on every file of a fixture and renders the nodes it adds (routes
/// served under a mount), the resolved edges (sorted; `L<n>` is the call-site line) and then
/// the unresolved call sites.
pub fn render_fixture_resolution(fixture: &str) -> String {
    let (db, files, workspace) = fixture_db(fixture);
    let mut edges: Vec<&Edge> = Vec::new();
    let mut nodes: Vec<&Node> = Vec::new();
    let mut unresolved = Vec::new();
    for &f in &files {
        let r = resolve_file(&db, workspace, f);
        nodes.extend(&r.nodes);
        edges.extend(&r.edges);
        unresolved.extend(r.unresolved.iter().map(|u| (f.path(&db).clone(), u)));
    }
    let mut out = String::new();
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    for n in nodes {
        let lines = n.start_line.map(|l| format!(" L{l}")).unwrap_or_default();
        out.push_str(&format!(
            "node {} {}{lines} {:?}\n",
            n.kind,
            n.id,
            n.signature.as_deref().unwrap_or("")
        ));
    }
    render_edges(&mut out, &mut edges);
    unresolved.sort();
    for (path, u) in unresolved {
        out.push_str(&format!("unresolved {path}:{} {} in {}\n", u.line, u.callee, u.caller));
    }
    out
}

/// For each file of a fixture whose language keeps the call accounting
/// ([`codegraph_parse::LanguageSpec::call_expressions`]: TS/JS, Python): its call expressions
/// read off its syntax tree, and how resolution accounted for them, as
/// `path: N calls = E CALLS + U unresolved + X external` (E counts sites that became CALLS
/// edges). Every call site must be one of the three (issue 19: a call never vanishes).
pub fn render_call_accounting(fixture: &str) -> String {
    let (db, files, workspace) = fixture_db(fixture);
    let mut out = String::new();
    for &f in &files {
        let path = f.path(&db).clone();
        let Some(language) = f.language(&db) else { continue };
        let Some(count) = language.spec().call_expressions else { continue };
        let text = codegraph_db::text(&db, f);
        let tree = codegraph_parse::parse_tree(language, text, None).expect("a syntax tree");
        let calls = count(&tree, text);
        let r = resolve_file(&db, workspace, f);
        let edges = r.edges.iter().filter(|e| e.kind == codegraph_schema::EdgeKind::Calls).count();
        // A site is one edge, or two for a class called (the class and its `__init__`).
        assert!(
            edges <= 2 * r.resolved_calls as usize,
            "{path}: more CALLS edges than sites allow"
        );
        out.push_str(&format!(
            "{path}: {calls} calls = {} CALLS + {} unresolved + {} external\n",
            r.resolved_calls,
            r.unresolved.len(),
            r.external_calls
        ));
    }
    out
}

fn dedent(s: &str) -> String {
    let indent = s
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::with_capacity(s.len());
    for line in s.split_inclusive('\n') {
        if line.trim().is_empty() {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line.get(indent..).unwrap_or(line));
        }
    }
    // Drop the leading newline a raw string usually starts with.
    out.trim_start_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_multi_file_fixtures() {
        let files = parse_fixture(
            r#"
            //- /src/a.ts
            export function a() {}

            //- /b.go
            package b
            "#,
        );
        assert_eq!(
            files,
            vec![
                FixtureFile { path: "src/a.ts".into(), text: "export function a() {}\n\n".into() },
                FixtureFile { path: "b.go".into(), text: "package b\n".into() },
            ]
        );
    }
}

/// Running the `codegraph` binary and `git` from end-to-end tests (the binary's path comes
/// from the calling test crate's `env!("CARGO_BIN_EXE_codegraph")`).
/// Seeding end to end (a sibling worktree's index, a shared store's snapshot): one fixture
/// repository and the check that a seeded index equals a from-scratch build.
pub mod seeding {
    use std::collections::BTreeSet;
    use std::path::Path;
    use std::process::{Command, Output};

    /// A Go module with a type, a method, a caller across packages, a TS file and a README.
    pub const FIXTURE: &str = r#"
//- /go.mod
module example.com/demo
//- /store/store.go
package store

// Store keeps items.
type Store struct {
	items []string
}

// New makes a store.
func New() *Store { return &Store{} }
//- /store/ops.go
package store

// Add appends an item.
func (s *Store) Add(item string) {
	s.items = append(s.items, item)
}
//- /app/main.go
package main

import "example.com/demo/store"

func main() {
	s := store.New()
	s.Add("x")
}
//- /web/util.ts
export function log(msg: string) {
  console.log(msg);
}
//- /README.md
# Demo
"#;

    /// Runs the binary `bin` in `cwd` with the index cache `cache`, no events log, no shared
    /// store from the environment, and `env` on top.
    pub fn run(bin: &str, cache: &Path, args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .current_dir(cwd)
            .env("CODEGRAPH_CACHE_DIR", cache)
            .env("CODEGRAPH_EVENTS", "off")
            .env_remove("CODEGRAPH_CACHE_FROM");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("run codegraph")
    }

    /// The export of `root`'s index (the default one, or `db`), as a set of lines.
    pub fn export(bin: &str, cache: &Path, root: &Path, db: Option<&Path>) -> BTreeSet<String> {
        let mut args = vec!["export".to_string()];
        if let Some(db) = db {
            args.extend(["--db".to_string(), db.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(bin, cache, &args, root, &[]);
        super::cli::assert_ok(&out);
        String::from_utf8(out.stdout).expect("UTF-8").lines().map(str::to_string).collect()
    }

    /// `root`'s index in `cache` must equal a from-scratch build of it (no sharing, no store),
    /// written to a database in `scratch`.
    pub fn assert_same_as_full(bin: &str, cache: &Path, root: &Path, scratch: &Path) {
        let name = root.file_name().and_then(|n| n.to_str()).unwrap_or("root");
        let db = scratch.join(format!("{name}-full.db"));
        let db_s = db.display().to_string();
        let out =
            run(bin, cache, &["index", "--json", "--full", "--no-share", "--db", &db_s], root, &[]);
        super::cli::assert_ok(&out);
        let (seeded, full) = (export(bin, cache, root, None), export(bin, cache, root, Some(&db)));
        let extra: Vec<&String> = seeded.difference(&full).collect();
        let missing: Vec<&String> = full.difference(&seeded).collect();
        assert!(
            extra.is_empty() && missing.is_empty(),
            "{}: extra {extra:#?}\nmissing {missing:#?}",
            root.display()
        );
    }
}

pub mod cli {
    use std::path::Path;
    use std::process::{Command, Output};

    /// Runs `bin args` in `cwd`, with the default index cache pointed inside `cwd` and the
    /// query events log off (it would be a file of the tree under test).
    pub fn run(bin: &str, args: &[&str], cwd: &Path) -> Output {
        Command::new(bin)
            .args(args)
            .current_dir(cwd)
            .env("CODEGRAPH_CACHE_DIR", cwd.join(".cache-not-used"))
            .env("CODEGRAPH_EVENTS", "off")
            .output()
            .expect("run codegraph")
    }

    /// A fresh temporary directory holding `repo/`, a git repository (branch `main`, one
    /// commit) of `fixture`: the directory (keep it alive), its canonical path and the repo.
    pub fn git_fixture(
        fixture: &str,
    ) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical temp dir");
        let root = base.join("repo");
        std::fs::create_dir_all(&root).expect("create repo dir");
        crate::write_fixture(&root, fixture);
        git(&root, &["init", "-q", "-b", "main"]);
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "init"]);
        (dir, base, root)
    }

    /// Panics with both streams unless the command succeeded.
    pub fn assert_ok(out: &Output) {
        assert!(
            out.status.success(),
            "exit {:?}\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs git in `root` with a fixed identity; panics when it fails.
    pub fn git(root: &Path, args: &[&str]) {
        let status = Command::new("git")
            .args(args)
            .current_dir(root)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .status()
            .expect("run git");
        assert!(status.success(), "git {args:?}");
    }
}
