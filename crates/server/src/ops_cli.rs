//! The graph-operation subcommands (`context`, `impact`, `diff-impact`, `trace`, `expand`,
//! `dag-grep`, `route-impact`, `tool-context`, `flows`, `clusters`): their clap arguments, and
//! their output: the query crate's text rendering, or compact JSON in which every answer
//! carries `revision` and `stale`.
//!
//! Each command opens one reader (one snapshot), resolves names with `lookup` (an ambiguous
//! name lists candidates; `--json` prints them as an answer), runs the operation, and checks
//! freshness against the tree on the same reader. Commands whose answers include execution
//! flows or clusters first bring the stored ones up to the current revision (computing them
//! once per revision; a failure is a warning and the answer says they are missing or lag).

use crate::answer::{
    CHANGED_LISTS, CONTEXT_LISTS, DAG_LISTS, ENDPOINT_LISTS, EXPAND_LISTS, IMPACT_LISTS,
    changed_json, cluster_json, context_json, dag_json, endpoints_json, expand_json, flow_json,
    flow_ref_json, flows_at_json, impact_json, lookup_failure_json, node_brief, trace_json,
};
use crate::page::{
    CONTEXT_LIMIT, DAG_LIMIT, ENDPOINT_LIMIT, EXPAND_LIMIT, IMPACT_LIMIT, Pager, Window,
};
use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use codegraph_engine::diff::{DiffBase, changes};
use codegraph_engine::fresh::freshness;
use codegraph_engine::paths::db_path;
use codegraph_query::ops::dag_grep::{DagGrepRequest, Mode, Render};
use codegraph_query::ops::expand::ExpandRequest;
use codegraph_query::ops::impact::{ImpactDirection, ImpactRequest};
use codegraph_query::ops::lookup::Target;
use codegraph_query::ops::trace::TraceRequest;
use codegraph_query::ops::{Direction, parse_edge_kinds, render};
use codegraph_query::{NodeRow, QueryError, Reader, Store};
use codegraph_schema::{NodeCategory, NodeKind, ids};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What names a node: an ID, or a name / qualified name / path with optional hints.
#[derive(Args, Debug)]
pub struct TargetArgs {
    /// Node ID (`sym:ts:src/a.ts:Server.start`), name (`start`), qualified name
    /// (`Server.start`), package- or module-qualified name (`gin.New`, `errors.New`,
    /// `util.log`), a path (`src/a.ts`) or `path:line` (the innermost symbol there).
    pub target: String,
    /// Only candidates whose file path (relative to the root) contains this text.
    #[arg(long)]
    pub file: Option<String>,
    /// Only candidates of this node kind.
    #[arg(long)]
    pub kind: Option<NodeKind>,
}

impl TargetArgs {
    fn target(&self) -> Target {
        Target { query: self.target.clone(), file: self.file.clone(), kind: self.kind }
    }
}

/// How much of each list a `--json` answer holds (the text output lists everything).
#[derive(Args, Debug, Default)]
pub struct PageOpts {
    /// Items per list (default: the operation's, shrunk so the answer stays under ~4k tokens).
    #[arg(long)]
    pub limit: Option<usize>,
    /// With --list: the first item of that list to show (an answer's `cut[].next_offset`).
    #[arg(long)]
    pub offset: Option<usize>,
    /// Page this list only (e.g. callers, nodes, matches); the answer leaves the others out.
    #[arg(long)]
    pub list: Option<String>,
}

impl PageOpts {
    fn window(&self, default: usize) -> Window {
        Window::new(self.limit, default, self.offset, self.list.clone())
    }
}

/// Prints a paged `--json` answer (see `page.rs`).
pub(crate) fn print_paged(
    page: &PageOpts,
    default: usize,
    lists: &[&str],
    build: impl FnMut(&mut Pager<'_>) -> Value,
) -> Result<()> {
    let v = crate::page::answer(&page.window(default), lists, false, build)
        .map_err(anyhow::Error::msg)?;
    print(&v)
}

#[derive(Args, Debug)]
pub struct ContextArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub page: PageOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RenameArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// The new name.
    pub new_name: String,
    /// Write the edits into the working tree (refused when the index is stale or a file
    /// changed since it was indexed). Without it the plan is only printed.
    #[arg(long)]
    pub apply: bool,
    /// With `--apply`: apply even when the plan names interfaces outside the root whose
    /// method the target's name and signature match (`outside_interfaces`).
    #[arg(long, requires = "apply")]
    pub force: bool,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

/// Which way impact walks (shared by the CLI and the MCP tools).
#[derive(
    Clone, Copy, Debug, ValueEnum, serde::Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[schemars(inline)]
#[serde(rename_all = "lowercase")]
pub enum ImpactDir {
    /// What depends on the target (callers, importers, subtypes).
    Upstream,
    /// What the target depends on.
    Downstream,
}

impl ImpactDir {
    pub fn direction(self) -> ImpactDirection {
        match self {
            ImpactDir::Upstream => ImpactDirection::Upstream,
            ImpactDir::Downstream => ImpactDirection::Downstream,
        }
    }
}

/// Options shared by `impact` and `diff-impact`.
#[derive(Args, Debug)]
pub struct ImpactOpts {
    /// Edge kinds to follow from every node (repeatable), instead of the default per-kind
    /// rules (callers of functions, readers of fields, subtypes / constructors / users of
    /// types, importers of a file; never a member's container).
    #[arg(long = "edge", value_name = "KIND")]
    pub edges: Vec<String>,
    /// How many edges away from the target to go.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Do not follow edges whose confidence is below this.
    #[arg(long, default_value_t = 0.0)]
    pub min_confidence: f64,
    /// Follow into test code (by each language's rule: `_test.go`, `*.test.ts`, `test/`...).
    #[arg(long)]
    pub include_tests: bool,
    /// Stop the walk after reaching this many nodes (the answer says it was cut).
    #[arg(long, default_value_t = 1000)]
    pub max_nodes: usize,
    #[command(flatten)]
    pub page: PageOpts,
}

impl ImpactOpts {
    fn request(&self, direction: ImpactDirection) -> Result<ImpactRequest> {
        Ok(ImpactRequest {
            direction,
            kinds: parse_edge_kinds(&self.edges)?,
            max_depth: self.depth,
            min_confidence: self.min_confidence,
            include_tests: self.include_tests,
            max_nodes: self.max_nodes,
        })
    }
}

#[derive(Args, Debug)]
pub struct ImpactArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// upstream: what depends on the target; downstream: what it depends on.
    #[arg(long, value_enum, default_value_t = ImpactDir::Upstream)]
    pub direction: ImpactDir,
    #[command(flatten)]
    pub opts: ImpactOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct DiffImpactArgs {
    /// Compare HEAD with the git index instead of the files on disk.
    #[arg(long, conflicts_with = "base")]
    pub staged: bool,
    /// Compare this revision (branch, tag, commit) with the files on disk.
    #[arg(long, value_name = "REF")]
    pub base: Option<String>,
    #[command(flatten)]
    pub opts: ImpactOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// Where the path starts (ID or name).
    pub from: String,
    /// Where the path ends (ID or name).
    pub to: String,
    /// Narrow FROM to candidates whose file path contains this text.
    #[arg(long)]
    pub from_file: Option<String>,
    /// Narrow FROM to this node kind.
    #[arg(long)]
    pub from_kind: Option<NodeKind>,
    /// Narrow TO to candidates whose file path contains this text.
    #[arg(long)]
    pub to_file: Option<String>,
    /// Narrow TO to this node kind.
    #[arg(long)]
    pub to_kind: Option<NodeKind>,
    /// Edge kinds to follow (repeatable); default CALLS and HAS_METHOD.
    #[arg(long = "edge", value_name = "KIND")]
    pub edges: Vec<String>,
    /// Longest path, in edges.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Show at most this many shortest paths (`--paths` is accepted too).
    #[arg(long = "limit", visible_alias = "paths", default_value_t = 3)]
    pub paths: usize,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct EndpointArgs {
    /// A route (`GET /users/:id`, `/users/42`, a route ID) or a tool (name or ID).
    pub query: String,
    #[command(flatten)]
    pub page: PageOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

#[derive(
    Clone, Copy, Debug, ValueEnum, serde::Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[schemars(inline)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Out,
    In,
}

impl Dir {
    pub fn direction(self) -> Direction {
        match self {
            Dir::Out => Direction::Out,
            Dir::In => Direction::In,
        }
    }
}

#[derive(Args, Debug)]
pub struct ExpandArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Edge kinds to follow (repeatable); default: every kind.
    #[arg(long = "edge", value_name = "KIND")]
    pub edges: Vec<String>,
    /// out: edges from the node; in: edges into it.
    #[arg(long, value_enum, default_value_t = Dir::Out)]
    pub direction: Dir,
    /// How many edges away from the node to go.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Most distinct nodes, the target included (`--budget` is accepted too).
    #[arg(long = "max-nodes", visible_alias = "budget", default_value_t = 50)]
    pub budget: usize,
    #[command(flatten)]
    pub page: PageOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

/// How DAG grep picks its seeds (only full-text search exists; the others fall back to it).
#[derive(
    Clone, Copy, Debug, ValueEnum, serde::Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[schemars(inline)]
#[serde(rename_all = "lowercase")]
pub enum ModeArg {
    Fts,
    Semantic,
    Hybrid,
}

impl ModeArg {
    pub fn mode(self) -> Mode {
        match self {
            ModeArg::Fts => Mode::Fts,
            ModeArg::Semantic => Mode::Semantic,
            ModeArg::Hybrid => Mode::Hybrid,
        }
    }
}

#[derive(
    Clone, Copy, Debug, ValueEnum, serde::Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[schemars(inline)]
#[serde(rename_all = "lowercase")]
pub enum RenderArg {
    Tree,
    Mermaid,
}

impl RenderArg {
    pub fn render(self) -> Render {
        match self {
            RenderArg::Tree => Render::Tree,
            RenderArg::Mermaid => Render::Mermaid,
        }
    }
}

#[derive(Args, Debug)]
pub struct DagGrepArgs {
    /// Text query for seed selection (full-text search).
    pub query: String,
    /// How seeds are picked: fts (full-text search); semantic and hybrid fall back to fts
    /// (there is no embedding index).
    #[arg(long, value_enum, default_value_t = ModeArg::Fts)]
    pub mode: ModeArg,
    /// Number of seeds kept (`--k` is accepted too).
    #[arg(long = "seeds", visible_alias = "k", default_value_t = 10)]
    pub k: usize,
    /// Only seeds of this node kind (repeatable).
    #[arg(long = "node-kind", value_name = "KIND")]
    pub node_kinds: Vec<String>,
    /// Named edge set (repeatable): structural.
    #[arg(long = "edge-set", value_name = "SET")]
    pub edge_sets: Vec<String>,
    /// Explicit edge kind (repeatable).
    #[arg(long = "edge", value_name = "KIND")]
    pub edges: Vec<String>,
    /// Also follow CO_CHANGED edges (files that usually change together; present when the
    /// index was built with `--cochange`).
    #[arg(long)]
    pub include_cochange: bool,
    /// out: follow edges from the seeds; in: edges into them.
    #[arg(long, value_enum, default_value_t = Dir::Out)]
    pub direction: Dir,
    /// How many edges away from the seeds to expand.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Most distinct nodes in the subgraph, seeds and anchors included (`--budget` is
    /// accepted too).
    #[arg(long = "max-nodes", visible_alias = "budget", default_value_t = 80)]
    pub budget: usize,
    /// Most edges followed out of one node.
    #[arg(long, default_value_t = 20)]
    pub per_node_cap: usize,
    /// Do not add the files and packages of the symbols found.
    #[arg(long)]
    pub no_anchors: bool,
    /// Rendering (human output; in JSON it is the `rendered` field). Default: tree.
    #[arg(long, value_enum)]
    pub render: Option<RenderArg>,
    #[command(flatten)]
    pub page: PageOpts,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

/// `flows` and `clusters`.
#[derive(Args, Debug)]
pub struct DerivedArgs {
    /// An ID to open (`proc:...` for `flows`, `cluster:...` for `clusters`), or a symbol (ID
    /// or name) to see the flows it is a step of / its cluster; without it, all of them (best
    /// flows, largest clusters first).
    pub target: Option<String>,
    /// Most flows, clusters or members listed (0 = all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// With a symbol name: only candidates whose file path contains this text.
    #[arg(long)]
    pub file: Option<String>,
    /// With a symbol name: only candidates of this node kind.
    #[arg(long)]
    pub kind: Option<NodeKind>,
    /// The code root; also `--root`. Default: the nearest indexed directory up from here,
    /// else the git worktree root.
    #[arg(value_name = "ROOT")]
    pub root: Option<PathBuf>,
}

/// Opens the index of a root read-only (the same rules as the other read commands).
fn open(root: Option<PathBuf>, db: Option<&Path>) -> Result<(PathBuf, PathBuf, Store)> {
    open_index(root, db, false)
}

/// Like [`open`], after bringing the stored flows and clusters up to the current revision.
fn open_with_flows(root: Option<PathBuf>, db: Option<&Path>) -> Result<(PathBuf, PathBuf, Store)> {
    open_index(root, db, true)
}

fn open_index(
    root: Option<PathBuf>,
    db: Option<&Path>,
    flows: bool,
) -> Result<(PathBuf, PathBuf, Store)> {
    let root = crate::cli::query_root(root, db)?;
    let path = db_path(&root, db)?;
    if flows && path.exists() {
        ensure_flows(&path);
    }
    match Store::open_read_only(&path) {
        Ok(mut store) => {
            crate::events::opened(&root, store.reader().ok().map(|r| r.revision()));
            Ok((root, path, store))
        }
        Err(QueryError::NoIndex { .. }) => Err(crate::cli::no_index(&root, &path)),
        Err(e) => Err(e.into()),
    }
}

/// Brings the stored flows and clusters of the index at `db` up to its current revision; a
/// failure is reported on stderr and the answers say the flows are missing or lag.
pub fn ensure_flows(db: &Path) {
    let said = |revision: i64| {
        eprintln!(
            "codegraph: computing the execution flows and clusters of revision {revision} (once per revision)..."
        );
    };
    if let Err(e) = codegraph_engine::derived::ensure_current_with(db, said) {
        eprintln!("codegraph: warning: execution flows and clusters not updated: {e:#}");
    }
    if let Err(e) = codegraph_engine::cochange::ensure_db(db) {
        eprintln!("codegraph: warning: co-change edges not updated: {e:#}");
    }
}

/// Resolves a target; in JSON mode an ambiguous or unknown name is printed as an answer
/// (`error`, `candidates` / `suggestions`) before the command fails.
pub(crate) fn lookup(
    reader: &Reader<'_>,
    target: Target,
    json: bool,
    stale: &dyn Fn() -> Result<bool>,
) -> Result<NodeRow> {
    match reader.lookup(&target) {
        Ok(n) => Ok(n),
        Err(e) => {
            if json && let Some(mut v) = lookup_failure_json(&target.query, &e, "--file / --kind") {
                v["revision"] = json!(reader.revision());
                v["stale"] = json!(stale()?);
                print(&v)?;
            }
            Err(e.into())
        }
    }
}

pub fn context(a: ContextArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open_with_flows(a.root, db)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let node = lookup(&reader, a.target.target(), json, &stale)?;
    let mut c = reader.symbol_context(&node.id)?;
    c.stale = Some(stale()?);
    if json {
        print_paged(&a.page, CONTEXT_LIMIT, CONTEXT_LISTS, |p| context_json(&c, p))
    } else {
        text(&render::context(&c))
    }
}

/// `codegraph rename TARGET NEW_NAME [--apply]`: the plan (edits by file, unsure mentions,
/// collisions), written to the tree with `--apply`.
pub fn rename(a: RenameArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open_index(a.root, db, false)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let node = lookup(&reader, a.target.target(), json, &stale)?;
    let max_size = reader.max_file_size()?.unwrap_or(codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE);
    let plan = codegraph_engine::rename::plan(&root, &reader, &node, &a.new_name, max_size)
        .map_err(anyhow::Error::msg)?;
    let stale = stale()?;
    let mut applied = None;
    if a.apply {
        if stale {
            anyhow::bail!(
                "the index is stale (files changed since it was built): run `codegraph index`, then plan and apply again"
            );
        }
        if !plan.outside_interfaces.is_empty() && !a.force {
            anyhow::bail!(
                "not applied: `{}` has the name and signature of {}, an interface outside this root; a value of its type may be used as one (or the runtime may call it by name), which the rename would break where the index cannot see. Check its uses, then apply with `--force`",
                plan.target.id,
                plan.outside_interfaces.join(", ")
            );
        }
        let sources = reader.source_stats()?;
        let files = codegraph_engine::rename::apply(&root, &plan, &sources, max_size)
            .map_err(anyhow::Error::msg)?;
        applied = Some(files);
    }
    if json {
        let mut v = crate::answer::rename_json(&plan);
        v["revision"] = json!(reader.revision());
        v["stale"] = json!(stale);
        if let Some(files) = applied {
            v["applied_files"] = json!(files);
        }
        return print(&v);
    }
    let mut out = crate::answer::rename_text(&plan);
    if let Some(files) = applied {
        out.push_str(&format!(
            "applied: {} edit(s) written to {files} file(s); run `codegraph index` to re-index them\n",
            plan.edits.len()
        ));
    }
    out.push_str(&format!(
        "revision {}{}\n",
        reader.revision(),
        if stale { ", stale: files changed since; run `codegraph index`" } else { "" }
    ));
    text(&out)
}

pub fn impact(a: ImpactArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open_with_flows(a.root, db)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let node = lookup(&reader, a.target.target(), json, &stale)?;
    let mut i = reader.impact(&[node.id], &a.opts.request(a.direction.direction())?)?;
    i.stale = Some(stale()?);
    if json {
        print_paged(&a.opts.page, IMPACT_LIMIT, IMPACT_LISTS, |p| impact_json(&i, p))
    } else {
        text(&render::impact(&i))
    }
}

pub fn diff_impact(a: DiffImpactArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open_with_flows(a.root, db)?;
    let base = match (a.staged, a.base) {
        (true, _) => DiffBase::Staged,
        (false, Some(r)) => DiffBase::Ref(r),
        (false, None) => DiffBase::Worktree,
    };
    let files = changes(&root, &base)?;
    let reader = store.reader()?;
    let mut c = reader.changed_code_impact(&files, &a.opts.request(ImpactDirection::Upstream)?)?;
    let fresh = freshness(&root, &db_path, &reader)?;
    c.stale = Some(fresh.stale());
    c.impact.stale = c.stale;
    if fresh.stale() {
        c.notes.push(format!(
            "the index is stale ({} file(s) changed since revision {}): line ranges may not match the diff; run `codegraph index`",
            fresh.changed(),
            reader.revision()
        ));
    }
    if base == DiffBase::Staged && !c.files.is_empty() {
        c.notes.push(
            "--staged: hunks are the git index's, symbol lines are the indexed worktree's"
                .to_string(),
        );
    }
    if json {
        print_paged(&a.opts.page, IMPACT_LIMIT, CHANGED_LISTS, |p| changed_json(&c, p))
    } else {
        text(&render::changed(&c))
    }
}

pub fn trace(a: TraceArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open(a.root, db)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let from = Target { query: a.from, file: a.from_file, kind: a.from_kind };
    let to = Target { query: a.to, file: a.to_file, kind: a.to_kind };
    let from = lookup(&reader, from, json, &stale)?;
    let to = lookup(&reader, to, json, &stale)?;
    let req = TraceRequest {
        kinds: parse_edge_kinds(&a.edges)?,
        max_depth: a.depth,
        max_paths: if a.paths == 0 { 100 } else { a.paths },
    };
    let mut t = reader.trace(&from.id, &to.id, &req)?;
    t.stale = Some(stale()?);
    if json { print(&trace_json(&t)) } else { text(&render::trace(&t)) }
}

pub fn expand(a: ExpandArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open(a.root, db)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let node = lookup(&reader, a.target.target(), json, &stale)?;
    let req = ExpandRequest {
        kinds: parse_edge_kinds(&a.edges)?,
        direction: a.direction.direction(),
        depth: a.depth,
        budget: a.budget,
    };
    let mut e = reader.expand(&node.id, &req)?;
    e.stale = Some(stale()?);
    if json {
        print_paged(&a.page, EXPAND_LIMIT, EXPAND_LISTS, |p| expand_json(&e, p))
    } else {
        text(&render::expand(&e))
    }
}

pub fn dag_grep(a: DagGrepArgs, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open(a.root, db)?;
    let reader = store.reader()?;
    let req = DagGrepRequest {
        query: a.query,
        mode: a.mode.mode(),
        k: a.k,
        node_kinds: a.node_kinds,
        edge_sets: a.edge_sets,
        edge_types: parse_edge_kinds(&a.edges)?,
        direction: a.direction.direction(),
        depth: a.depth,
        budget: a.budget,
        per_node_cap: a.per_node_cap,
        include_anchors: !a.no_anchors,
        include_cochange: a.include_cochange,
        render: a.render.map(RenderArg::render),
    };
    let mut d = reader.dag_grep(&req)?;
    d.stale = Some(codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?);
    let mermaid = matches!(a.render, Some(RenderArg::Mermaid));
    if mermaid {
        // Again, now that staleness is known (its comment line says so).
        d.rendered = Some(codegraph_query::ops::dag_grep::render_mermaid(&d));
    }
    if json {
        print_paged(&a.page, DAG_LIMIT, DAG_LISTS, |p| dag_json(&d, p))
    } else if mermaid {
        // A Mermaid document alone (`> graph.mmd` must be valid): the revision is in it.
        text(d.rendered.as_deref().unwrap_or_default())
    } else {
        text(&render::dag(&d))
    }
}

/// `route-impact` (`tool == false`) and `tool-context`.
pub fn endpoint(a: EndpointArgs, tool: bool, db: Option<&Path>, json: bool) -> Result<()> {
    let (root, db_path, mut store) = open_with_flows(a.root, db)?;
    let reader = store.reader()?;
    let mut e =
        if tool { reader.tool_context(&a.query)? } else { reader.route_impact(&a.query)? };
    e.stale = Some(codegraph_engine::fresh::is_stale(&root, &db_path, &reader)?);
    if json {
        print_paged(&a.page, ENDPOINT_LIMIT, ENDPOINT_LISTS, |p| endpoints_json(&e, p))?;
    } else {
        text(&render::endpoints(&e))?;
    }
    // One rule for every command: a target that names nothing is an error (exit 1), after
    // the answer that says why; an empty list about a target that exists is an answer.
    if e.matches.is_empty() {
        bail!("no {} matches `{}`", if tool { "tool" } else { "route" }, a.query);
    }
    Ok(())
}

/// `flows`: every flow, one flow with its steps, or the flows a symbol is a step of.
pub fn flows(a: DerivedArgs, db: Option<&Path>, json: bool) -> Result<()> {
    derived_answer(a.root, db, json, |reader, stale, stamp, v, notes, out| {
        match a.target {
            Some(t) if ids::is(&t, NodeCategory::Process) => {
                let Some(f) = reader.flow(&t)? else {
                    bail!("no flow with ID `{t}` (list them with `codegraph flows`)");
                };
                let mut steps = Vec::new();
                let _ = writeln!(out, "{} \"{}\" (score {:.2})", f.id, f.label, f.score);
                for (i, id) in f.steps.iter().enumerate() {
                    match reader.node(id)? {
                        Some(n) => {
                            let _ = writeln!(
                                out,
                                "  {:>2}. {} ({}) {}",
                                i + 1,
                                n.id,
                                n.kind,
                                render::location(&n)
                            );
                            steps.push(node_brief(&n));
                        }
                        None => {
                            let _ = writeln!(out, "  {:>2}. {id} (no longer in the graph)", i + 1);
                            steps.push(json!({"id": id, "missing": true}));
                        }
                    }
                }
                let mut fj = flow_json(&f);
                fj["steps"] = Value::Array(steps);
                v["flow"] = fj;
            }
            Some(t) => {
                let target = Target { query: t, file: a.file.clone(), kind: a.kind };
                let node = lookup(reader, target, json, &stale)?;
                let of = reader.flows_of(&node.id)?;
                let _ = writeln!(out, "{} is a step of {} flow(s)", node.id, of.len());
                for f in &of {
                    let _ = writeln!(out, "  {}", render::flow_ref(f));
                }
                v["symbol"] = node_brief(&node);
                v["flows"] = Value::Array(of.iter().map(flow_ref_json).collect());
            }
            None => {
                let all = reader.flows(a.limit)?;
                let total = stamp.as_ref().map_or(0, |s| s.processes);
                if (all.len() as u64) < total {
                    notes.push(format!(
                        "{total} flows; the best {} are listed (--limit)",
                        all.len()
                    ));
                }
                let _ = writeln!(out, "{total} flow(s)");
                for f in &all {
                    let _ = writeln!(
                        out,
                        "  {} \"{}\" {} step(s) (score {:.2})",
                        f.id, f.label, f.steps, f.score
                    );
                }
                v["flows"] = Value::Array(all.iter().map(flow_ref_json).collect());
            }
        }
        Ok(())
    })
}

/// `clusters`: every cluster, one cluster's members, or a symbol's cluster.
pub fn clusters(a: DerivedArgs, db: Option<&Path>, json: bool) -> Result<()> {
    derived_answer(a.root, db, json, |reader, stale, stamp, v, notes, out| {
        let one = match &a.target {
            Some(t) if ids::is(t, NodeCategory::Cluster) => match reader.cluster(t)? {
                Some(c) => Some(c),
                None => bail!("no cluster with ID `{t}` (list them with `codegraph clusters`)"),
            },
            Some(t) => {
                let target = Target { query: t.clone(), file: a.file.clone(), kind: a.kind };
                let node = lookup(reader, target, json, &stale)?;
                v["symbol"] = node_brief(&node);
                let c = reader.cluster_of(&node.id)?;
                if c.is_none() {
                    let _ = writeln!(out, "{} is in no cluster", node.id);
                    notes.push(format!("{} is in no cluster (only symbols linked by CALLS, IMPORTS, EXTENDS or IMPLEMENTS are clustered)", node.id));
                }
                c
            }
            None => None,
        };
        match (&a.target, one) {
            (_, Some(c)) => {
                let mut members = reader.cluster_members(&c.id)?;
                let _ = writeln!(out, "{}", render::cluster(&c));
                if a.limit > 0 && members.len() > a.limit {
                    notes.push(format!(
                        "{} members; the first {} are listed (--limit)",
                        members.len(),
                        a.limit
                    ));
                    members.truncate(a.limit);
                }
                for m in &members {
                    let _ = writeln!(out, "  {m}");
                }
                let mut cj = cluster_json(&c);
                cj["members"] = json!(members);
                v["cluster"] = cj;
            }
            (Some(_), None) => v["cluster"] = Value::Null,
            (None, None) => {
                let all = reader.clusters(a.limit)?;
                let total = stamp.as_ref().map_or(0, |s| s.clusters);
                if (all.len() as u64) < total {
                    notes.push(format!(
                        "{total} clusters; the largest {} are listed (--limit)",
                        all.len()
                    ));
                }
                let _ = writeln!(out, "{total} cluster(s)");
                for c in &all {
                    let _ = writeln!(out, "  {}", render::cluster(c));
                }
                v["clusters"] = Value::Array(all.iter().map(cluster_json).collect());
            }
        }
        Ok(())
    })
}

/// The frame of `flows` and `clusters`: brings the stored flows up to date, opens one reader,
/// starts the JSON answer (`revision`, `stale`, `flows_at`) and the notes, lets `body` fill
/// them and the text output, then prints one or the other.
#[allow(clippy::type_complexity)]
fn derived_answer(
    root: Option<PathBuf>,
    db: Option<&Path>,
    json: bool,
    body: impl FnOnce(
        &Reader<'_>,
        &dyn Fn() -> Result<bool>,
        Option<&codegraph_query::DerivedStamp>,
        &mut Value,
        &mut Vec<String>,
        &mut String,
    ) -> Result<()>,
) -> Result<()> {
    let (root, db_path, mut store) = open_with_flows(root, db)?;
    let reader = store.reader()?;
    let stale = || codegraph_engine::fresh::is_stale(&root, &db_path, &reader);
    let stamp = reader.derived_stamp()?;
    let mut notes: Vec<String> = reader.flows_note(stamp.as_ref()).into_iter().collect();
    let mut v = json!({
        "revision": reader.revision(),
        "stale": stale()?,
        "flows_at": flows_at_json(stamp.as_ref(), reader.revision()),
    });
    let mut out = String::new();
    body(&reader, &stale, stamp.as_ref(), &mut v, &mut notes, &mut out)?;
    v["notes"] = json!(notes);
    if json {
        return print(&v);
    }
    for n in &notes {
        out.push_str(&format!("note: {n}\n"));
    }
    text(&out)
}

fn text(s: &str) -> Result<()> {
    crate::events::printed(Value::String(s.to_string()));
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    Ok(())
}

fn print(v: &Value) -> Result<()> {
    crate::events::printed(v.clone());
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}
