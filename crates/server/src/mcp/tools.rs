//! The MCP tools: small argument lists, short descriptions, compact JSON answers that each
//! carry `root`, `revision` and `stale`. Every tool runs on tokio's blocking pool with its own
//! read-only snapshot of one served root; failures (bad arguments, unknown IDs, ambiguous
//! names, a root that is not served, a path outside the root) come back as tool errors
//! (`isError: true`) whose text says what to do.

use super::roots::{Phase, RootError, RootHandle, RootSet, relative_to_root};
use crate::answer::{
    CHANGED_LISTS, CONTEXT_LISTS, DAG_LISTS, DERIVED_LISTS, ENDPOINT_LISTS, EXPAND_LISTS,
    IMPACT_LISTS, OPEN_LISTS, SEARCH_LISTS, changed_json, context_json, dag_json, derived_json,
    endpoints_json, expand_json, flows_at_json, impact_json, load_derived, lookup_failure_json,
    open_json, search_json, source_lines, trace_json,
};
use crate::ops_cli::{Dir, ImpactDir, ModeArg, RenderArg};
use crate::page::{self, Pager, Window};
use codegraph_engine::diff::{DiffBase, changes};
use codegraph_query::ops::dag_grep::DagGrepRequest;
use codegraph_query::ops::expand::ExpandRequest;
use codegraph_query::ops::impact::ImpactRequest;
use codegraph_query::ops::lookup::Target;
use codegraph_query::ops::parse_edge_kinds;
use codegraph_query::ops::trace::TraceRequest;
use codegraph_query::{NodeRow, QueryError, Reader, SearchRequest};
use codegraph_schema::NodeKind;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProgressNotificationParam, ProgressToken,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;

/// What a failed tool call says.
enum ToolError {
    /// A plain actionable message.
    Message(String),
    /// A structured answer (ambiguous name with candidates, unknown name with suggestions).
    Answer(Value),
}

impl From<String> for ToolError {
    fn from(s: String) -> Self {
        ToolError::Message(s)
    }
}

impl From<QueryError> for ToolError {
    fn from(e: QueryError) -> Self {
        ToolError::Message(e.to_string())
    }
}

impl From<RootError> for ToolError {
    fn from(e: RootError) -> Self {
        ToolError::Message(e.to_string())
    }
}

impl From<anyhow::Error> for ToolError {
    fn from(e: anyhow::Error) -> Self {
        ToolError::Message(format!("{e:#}"))
    }
}

type ToolResult = Result<Value, ToolError>;

/// How a tool wants its root prepared before it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Freshen {
    /// Answer from the published revision at once.
    No,
    /// Wait briefly for edits the worker holds to be published (impact operations).
    Briefly,
}

/// The MCP server of a set of roots.
#[derive(Clone)]
pub struct CodegraphMcp {
    roots: Arc<RootSet>,
    tool_router: ToolRouter<Self>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct SearchArgs {
    /// Words, identifiers or an FTS5 query.
    pub query: String,
    /// Only this node kind (function, method, class, interface, struct, file, ...; process and
    /// cluster search flows and clusters by label).
    pub kind: Option<String>,
    /// Max hits (default 10, at most 100).
    pub limit: Option<usize>,
    /// Rank test code with the rest (default false: tests after definitions).
    pub include_tests: Option<bool>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct OpenArgs {
    /// Node ID, e.g. `sym:ts:src/a.ts:Server.start` or `file:src/a.ts`.
    pub id: String,
    /// Edges per direction.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list: outgoing, incoming, unresolved_calls.
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

/// A symbol named by ID or name.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct TargetArgs {
    /// Node ID, or a name / qualified name (`Server.start`) / file path.
    pub target: String,
    /// A path substring narrowing a name.
    pub file: Option<String>,
    /// A node kind narrowing a name.
    pub kind: Option<String>,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct ImpactArgs {
    /// Node ID or name.
    pub target: String,
    /// A path substring narrowing a name.
    pub file: Option<String>,
    /// A node kind narrowing a name.
    pub kind: Option<String>,
    /// Default upstream.
    pub direction: Option<ImpactDir>,
    /// Default 3.
    pub depth: Option<u32>,
    /// Edge kinds followed from every node, instead of the default rules (callers, readers, subtypes, importers).
    pub edges: Option<Vec<String>>,
    /// Skip edges below this confidence (0-1).
    pub min_confidence: Option<f64>,
    /// Follow into test code (default false).
    pub include_tests: Option<bool>,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct ChangedArgs {
    /// Compare this git ref (branch, tag, commit, `HEAD~N`) with the files on disk; default HEAD.
    pub base: Option<String>,
    /// Compare HEAD with the staged changes instead.
    pub staged: Option<bool>,
    /// Impact depth (default 3).
    pub depth: Option<u32>,
    /// Follow into test code (default false).
    pub include_tests: Option<bool>,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct TraceArgs {
    /// Start: node ID or name.
    pub from: String,
    /// End: node ID or name.
    pub to: String,
    /// Max hops (default 8).
    pub depth: Option<u32>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct ExpandArgs {
    /// Node ID or name.
    pub target: String,
    /// A path substring narrowing a name.
    pub file: Option<String>,
    /// A node kind narrowing a name.
    pub kind: Option<String>,
    /// Default out.
    pub direction: Option<Dir>,
    /// Default 2.
    pub depth: Option<u32>,
    /// Most nodes (default 50).
    #[serde(alias = "budget")]
    pub max_nodes: Option<usize>,
    /// Edge kinds (default all).
    pub edges: Option<Vec<String>>,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct DagGrepArgs {
    /// Text that picks the seeds.
    pub query: String,
    /// Seeds (default 10).
    #[serde(alias = "k")]
    pub seeds: Option<usize>,
    /// Default 2.
    pub depth: Option<u32>,
    /// Most nodes (default 80).
    #[serde(alias = "budget")]
    pub max_nodes: Option<usize>,
    /// Default out.
    pub direction: Option<Dir>,
    /// Only seeds of these node kinds.
    pub node_kinds: Option<Vec<String>>,
    /// Add a rendered tree or mermaid diagram.
    pub render: Option<RenderArg>,
    /// Seeding (default fts; the others fall back to it).
    pub mode: Option<ModeArg>,
    /// Edge sets, e.g. `structural`.
    pub edge_sets: Option<Vec<String>>,
    /// Edge kinds (default all).
    pub edges: Option<Vec<String>>,
    /// Follow CO_CHANGED too (default false).
    pub include_cochange: Option<bool>,
    /// Edges per expanded node (default 20).
    pub per_node_cap: Option<usize>,
    /// Add file and package anchors (default true).
    pub anchors: Option<bool>,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct RouteArgs {
    /// Route, e.g. `GET /users/:id`.
    pub route: String,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct ToolArgs {
    /// Tool name.
    pub tool: String,
    /// Items per list.
    pub limit: Option<usize>,
    /// Start of `list`.
    pub offset: Option<usize>,
    /// Page this list (see `cut`).
    pub list: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct RenameArgs {
    /// Node ID or name of the symbol.
    pub target: String,
    /// The new name.
    pub new_name: String,
    /// A path substring narrowing a name.
    pub file: Option<String>,
    /// A node kind narrowing a name.
    pub kind: Option<String>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct GrepArgs {
    /// Regular expression (ripgrep syntax), matched line by line.
    pub pattern: String,
    /// Case-insensitive (default false).
    pub ignore_case: Option<bool>,
    /// The pattern is a literal string (default false).
    pub fixed_strings: Option<bool>,
    /// Only files whose path contains this.
    pub path: Option<String>,
    /// Most groups (default 20, at most 200).
    pub limit: Option<usize>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct GraphQueryArgs {
    /// One SELECT statement over the views.
    pub sql: String,
    /// Most rows (default 50, at most 500).
    pub limit: Option<usize>,
    /// Served root (its path or a unique end of it).
    pub root: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = plain_optionals)]
pub struct StatusArgs {
    /// Served root (its path or a unique end of it; default: all).
    pub root: Option<String>,
}

impl CodegraphMcp {
    /// The server of `roots`; `graph_query` is offered only when `graph_query` is true (the
    /// operator's `--allow-graph-query`).
    pub fn new(roots: Arc<RootSet>, graph_query: bool) -> Self {
        // One router for every session: building it (every tool's JSON schemas) per HTTP
        // session cost ~70 KB each. Four variants: with or without `graph_query`, and for one
        // served root (no `root` argument to offer) or several.
        static ROUTERS: [std::sync::OnceLock<ToolRouter<CodegraphMcp>>; 4] =
            [const { std::sync::OnceLock::new() }; 4];
        let one_root = roots.all().len() == 1;
        let variant = usize::from(graph_query) * 2 + usize::from(one_root);
        let tool_router = ROUTERS[variant]
            .get_or_init(|| {
                let mut r = compact(Self::tool_router(), one_root);
                if !graph_query {
                    r.remove_route(GRAPH_QUERY);
                }
                r
            })
            .clone();
        CodegraphMcp { roots, tool_router }
    }

    /// The names of the tools the server offers, in the router's order (what `tools/list`
    /// answers; the fuzz target calls each of them).
    pub fn tool_names() -> Vec<String> {
        let mut names: Vec<String> =
            Self::tool_router().list_all().into_iter().map(|t| t.name.to_string()).collect();
        names.sort();
        names
    }

    /// Runs `f` on the blocking pool with one snapshot of the chosen root, then adds `root`,
    /// `revision` and `stale` to its answer.
    async fn with_reader<F>(
        &self,
        op: &'static str,
        args: Value,
        call: CallCtx,
        root: Option<String>,
        freshen: Freshen,
        f: F,
    ) -> CallToolResult
    where
        F: FnOnce(&RootHandle, &Reader<'_>) -> ToolResult + Send + 'static,
    {
        let roots = self.roots.clone();
        let timer = crate::events::Timer::start("mcp", op, args);
        let CallCtx { progress, cancel } = call;
        // The running query's interrupt, while it runs: a client that cancels or goes away
        // stops it at SQLite's next step instead of leaving it to run to the end.
        let running: Arc<std::sync::Mutex<Option<codegraph_query::Interrupt>>> = Arc::default();
        let slot = running.clone();
        let gone = cancel.clone();
        let job = move || -> ToolResult {
            if gone.is_cancelled() {
                return Err(ToolError::Message("the call was cancelled".into()));
            }
            let handle = roots.pick(root.as_deref())?;
            let report = |message: String| {
                if let Some(p) = &progress {
                    p.report(message);
                }
            };
            let mut store = handle.store_reporting(&report)?;
            if freshen == Freshen::Briefly {
                handle.wait_fresh_reporting(&report);
            }
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(store.interrupt_handle());
            let result = (|| -> ToolResult {
                let reader = store.reader()?;
                let answer = f(&handle, &reader);
                let stale = handle.stale(reader.revision(), &reader)?;
                // "No symbol named X" from a revision without the edit that added X must say so.
                let mut v = answer.map_err(|e| freshness_of_error(e, reader.revision(), stale))?;
                mcp_wording(&mut v);
                if let Value::Object(map) = &mut v {
                    map.insert("root".into(), json!(handle.root.display().to_string()));
                    map.insert("revision".into(), json!(reader.revision()));
                    map.insert("stale".into(), json!(stale));
                    if stale {
                        let files = handle.pending_files(MAX_PENDING_FILES);
                        if !files.is_empty() {
                            map.insert("pending_files".into(), json!(files));
                        }
                    }
                }
                Ok(v)
            })();
            // No interrupt may reach the connection once another call can have it.
            slot.lock().unwrap_or_else(|e| e.into_inner()).take();
            handle.give_back(store);
            result
        };
        let mut task = tokio::task::spawn_blocking(job);
        let joined = tokio::select! {
            joined = &mut task => joined,
            () = cancel.cancelled() => {
                if let Some(i) = running.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    i.interrupt();
                }
                task.await
            }
        };
        match &joined {
            Ok(Ok(v)) => timer.record(v["root"].as_str(), Some(v), None),
            Ok(Err(ToolError::Message(m))) => timer.record(None, None, Some(m)),
            Ok(Err(ToolError::Answer(v))) => timer.record(None, None, v["message"].as_str()),
            Err(e) => timer.record(None, None, Some(&e.to_string())),
        }
        finish(joined)
    }
}

/// What a tool call brings besides its arguments: progress notifications (when the client
/// asked for them) and the call's cancellation (the client cancelled or went away).
struct CallCtx {
    progress: Option<Progress>,
    cancel: tokio_util::sync::CancellationToken,
}

impl CallCtx {
    fn of(ctx: &RequestContext<RoleServer>) -> CallCtx {
        CallCtx { progress: Progress::of(ctx), cancel: ctx.ct.clone() }
    }
}

/// Progress notifications for a call that waits (a first build, edits not yet published),
/// sent when the client gave a progress token: each carries a count that grows and a message.
struct Progress {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    runtime: tokio::runtime::Handle,
    sent: std::sync::atomic::AtomicU64,
}

impl Progress {
    fn of(ctx: &RequestContext<RoleServer>) -> Option<Progress> {
        Some(Progress {
            peer: ctx.peer.clone(),
            token: ctx.meta.get_progress_token()?,
            runtime: tokio::runtime::Handle::try_current().ok()?,
            sent: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Sends one notification (from any thread; it does not wait for the send).
    fn report(&self, message: String) {
        let n = self.sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let mut param = ProgressNotificationParam::new(self.token.clone(), n as f64);
        param.message = Some(message);
        let peer = self.peer.clone();
        self.runtime.spawn(async move {
            let _ = peer.notify_progress(param).await;
        });
    }
}

/// A tool call's arguments as recorded in the events log.
fn args_of(a: &impl Serialize) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

/// Rewrites the CLI's words in an answer's notes into the tools' argument names.
fn mcp_wording(v: &mut Value) {
    const WORDS: &[(&str, &str)] = &[
        ("--include-tests", "`include_tests: true`"),
        ("raise --depth", "raise `depth`"),
        ("--file / --kind", "`file` / `kind`"),
        ("run `codegraph index`", "the server re-indexes by itself; retry shortly"),
    ];
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "notes" {
                    if let Value::Array(notes) = x {
                        for n in notes.iter_mut() {
                            if let Value::String(text) = n {
                                for (cli, mcp) in WORDS {
                                    if text.contains(cli) {
                                        *text = text.replace(cli, mcp);
                                    }
                                }
                            }
                        }
                    }
                } else {
                    mcp_wording(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(mcp_wording),
        _ => {}
    }
}

/// How many unpublished edited paths a stale answer names.
const MAX_PENDING_FILES: usize = 20;

/// A tool error from a revision that may lag the tree says so: a structured error carries
/// `revision` and `stale`; a plain one read from a stale revision says that edits are pending.
fn freshness_of_error(e: ToolError, revision: i64, stale: bool) -> ToolError {
    match e {
        ToolError::Answer(mut v) => {
            if let Value::Object(map) = &mut v {
                map.insert("revision".into(), json!(revision));
                map.insert("stale".into(), json!(stale));
            }
            ToolError::Answer(v)
        }
        ToolError::Message(m) if stale => ToolError::Message(format!(
            "{m} (read at revision {revision}, which is stale: edits on disk are not published yet; ask again in a moment)"
        )),
        other => other,
    }
}

fn finish(joined: Result<ToolResult, tokio::task::JoinError>) -> CallToolResult {
    match joined {
        Ok(Ok(v)) => CallToolResult::structured(v),
        Ok(Err(ToolError::Message(m))) => CallToolResult::error(vec![ContentBlock::text(m)]),
        Ok(Err(ToolError::Answer(v))) => {
            CallToolResult::error(vec![ContentBlock::text(v.to_string())])
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(format!(
            "internal error while answering: {e}; the index is unaffected"
        ))]),
    }
}

/// Resolves a target, turning an ambiguous or unknown name into an answer that lists the
/// candidates or near matches.
fn lookup(handle: &RootHandle, reader: &Reader<'_>, t: &TargetArgs) -> Result<NodeRow, ToolError> {
    lookup_hinted(handle, reader, t, NARROW_HINT)
}

/// How a tool with `file` / `kind` arguments narrows an ambiguous name.
const NARROW_HINT: &str = "the `file` / `kind` arguments";

/// [`lookup`] for a tool whose way of narrowing a name is `hint`.
fn lookup_hinted(
    handle: &RootHandle,
    reader: &Reader<'_>,
    t: &TargetArgs,
    hint: &str,
) -> Result<NodeRow, ToolError> {
    let file = t.file.as_deref().map(|f| relative_to_root(&handle.root, f)).transpose()?;
    let target = Target { query: t.target.clone(), file, kind: node_kind(&t.kind)? };
    reader.lookup(&target).map_err(|e| lookup_error_hinted(&t.target, e, hint))
}

fn lookup_error(query: &str, e: QueryError) -> ToolError {
    lookup_error_hinted(query, e, NARROW_HINT)
}

fn lookup_error_hinted(query: &str, e: QueryError, hint: &str) -> ToolError {
    match lookup_failure_json(query, &e, hint) {
        Some(v) => ToolError::Answer(v),
        None => ToolError::Message(e.to_string()),
    }
}

/// A `kind` argument as a node kind; `None` when absent, the error lists the kinds.
fn node_kind(kind: &Option<String>) -> Result<Option<NodeKind>, ToolError> {
    kind.as_deref().map(|k| k.parse::<NodeKind>().map_err(ToolError::Message)).transpose()
}

fn edges(list: &Option<Vec<String>>) -> Result<Vec<codegraph_schema::EdgeKind>, ToolError> {
    Ok(parse_edge_kinds(list.as_deref().unwrap_or(&[]))?)
}

fn target_of(
    target: String,
    file: Option<String>,
    kind: Option<String>,
    root: &Option<String>,
) -> TargetArgs {
    TargetArgs { target, file, kind, limit: None, offset: None, list: None, root: root.clone() }
}

/// A paged answer (see `page.rs`) with the tool's default limit.
fn paged(
    limit: Option<usize>,
    offset: Option<usize>,
    list: Option<String>,
    default: usize,
    lists: &[&str],
    build: impl FnMut(&mut Pager<'_>) -> Value,
) -> ToolResult {
    Ok(page::answer(&Window::new(limit, default, offset, list), lists, true, build)?)
}

/// Optional arguments are optional by absence: their schema names one plain type
/// (`"integer"`, not `["integer", "null"]`, and no `null` branch for enums), which generic
/// clients such as the MCP Inspector can fill.
fn plain_optionals(schema: &mut schemars::Schema) {
    // Enums are inlined where they are used: a `$ref` is one more hop a generic client must
    // follow to learn the type.
    let defs = schema.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for p in props.values_mut() {
        let Some(obj) = p.as_object_mut() else { continue };
        inline_ref(obj, &defs);
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = obj.get_mut(key) {
                for b in branches.iter_mut().filter_map(Value::as_object_mut) {
                    inline_ref(b, &defs);
                }
            }
        }
        if let Some(Value::Array(values)) = obj.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
        if let Some(Value::Array(types)) = obj.get_mut("type") {
            types.retain(|t| t != "null");
            if let [one] = types.as_slice() {
                let one = one.clone();
                obj.insert("type".into(), one);
            }
        }
        if let Some(Value::Array(branches)) = obj.get("anyOf").or_else(|| obj.get("oneOf")) {
            let kept: Vec<Value> = branches
                .iter()
                .filter(|b| b.get("type") != Some(&json!("null")))
                .cloned()
                .collect();
            if let [one] = kept.as_slice()
                && let Some(inner) = one.as_object()
            {
                let inner = inner.clone();
                obj.remove("anyOf");
                obj.remove("oneOf");
                // The field's own description wins over its type's.
                for (k, v) in inner {
                    obj.entry(k).or_insert(v);
                }
            }
        }
        // An enum whose values carry docs comes as `oneOf` constants: one `enum` is plainer.
        if let Some(Value::Array(branches)) = obj.get("oneOf").or_else(|| obj.get("anyOf"))
            && branches.iter().all(|b| b.get("const").is_some_and(Value::is_string))
        {
            let values: Vec<Value> = branches.iter().map(|b| b["const"].clone()).collect();
            obj.remove("oneOf");
            obj.remove("anyOf");
            obj.insert("type".into(), json!("string"));
            obj.insert("enum".into(), Value::Array(values));
        }
        obj.remove("default");
        // Rust integer widths (`uint`, `uint32`, `double`) are no JSON Schema formats: a
        // strict validator refuses the schema. `minimum` already says what matters.
        obj.remove("format");
        if let Some(items) = obj.get_mut("items").and_then(Value::as_object_mut) {
            items.remove("format");
        }
    }
    if let Some(m) = schema.as_object_mut() {
        m.remove("$defs");
    }
}

/// Replaces `{"$ref": "#/$defs/X", ...}` by X's schema (keeping the other keys).
fn inline_ref(obj: &mut serde_json::Map<String, Value>, defs: &serde_json::Map<String, Value>) {
    let Some(Value::String(r)) = obj.get("$ref") else { return };
    let Some(Value::Object(def)) = r.strip_prefix("#/$defs/").and_then(|name| defs.get(name))
    else {
        return;
    };
    let def = def.clone();
    obj.remove("$ref");
    for (k, v) in def {
        obj.entry(k).or_insert(v);
    }
}

/// What is wrong with a call's arguments against the tool's (flat) input schema, in words for
/// an agent: a missing required argument, or a value of another JSON type than the argument
/// takes (named, with an example). `None` when nothing is.
fn argument_problem(
    schema: &serde_json::Map<String, Value>,
    args: Option<&serde_json::Map<String, Value>>,
) -> Option<String> {
    let empty = serde_json::Map::new();
    let args = args.unwrap_or(&empty);
    let props = schema.get("properties").and_then(Value::as_object)?;
    for req in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
        let Some(req) = req.as_str() else { continue };
        if args.get(req).is_none_or(Value::is_null) {
            let ty = props.get(req).map_or("a value".to_string(), json_type_words);
            return Some(format!("missing required argument `{req}` ({ty})"));
        }
    }
    for (name, value) in args {
        // An unknown name is left to the tool's own parsing, which knows the aliases
        // (`k` for `seeds`) and lists the names it takes.
        let Some(p) = props.get(name) else { continue };
        if value.is_null() {
            continue;
        }
        let ok = match p.get("type").and_then(Value::as_str) {
            Some("string") => value.as_str().is_some_and(|v| {
                p.get("enum").and_then(Value::as_array).is_none_or(|e| e.iter().any(|x| x == v))
            }),
            Some("integer") => {
                value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            Some("number") => value.is_number(),
            Some("boolean") => value.is_boolean(),
            Some("array") => value.as_array().is_some_and(|items| {
                let item = p.get("items").and_then(|i| i.get("type")).and_then(Value::as_str);
                item != Some("string") || items.iter().all(Value::is_string)
            }),
            _ => true,
        };
        if !ok {
            return Some(format!(
                "argument `{name}` must be {}, not {}",
                json_type_words(p),
                json_value_words(value)
            ));
        }
        // Every integer argument counts something (a limit, an offset, a depth): the listed
        // schemas leave the `minimum: 0` they all share out.
        let min = p
            .get("minimum")
            .and_then(Value::as_f64)
            .or_else(|| (p.get("type").and_then(Value::as_str) == Some("integer")).then_some(0.0));
        if let Some((min, v)) = min.zip(value.as_f64())
            && v < min
        {
            return Some(format!("argument `{name}` must be at least {min}, not {v}"));
        }
    }
    None
}

/// An argument's type as an agent reads it: `an integer (e.g. 5)`, `one of "out", "in"`.
fn json_type_words(p: &Value) -> String {
    if let Some(values) = p.get("enum").and_then(Value::as_array) {
        let v: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", v.join(", "));
    }
    match p.get("type").and_then(Value::as_str) {
        Some("string") => "a string".into(),
        Some("integer") => "an integer (e.g. 5)".into(),
        Some("number") => "a number (e.g. 0.8)".into(),
        Some("boolean") => "true or false".into(),
        Some("array") => "an array of strings (e.g. [\"CALLS\"])".into(),
        _ => "a value".into(),
    }
}

/// A value as an agent reads it: `the string "five"`, `an array`.
fn json_value_words(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let shown: String = s.chars().take(40).collect();
            format!("the string \"{shown}{}\"", if s.chars().count() > 40 { "..." } else { "" })
        }
        Value::Number(n) => format!("the number {n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
        Value::Null => "null".into(),
    }
}

/// The router as `tools/list` shows it: each input schema's `$schema` left out (the dialect is
/// MCP's default, 2020-12, and saying so on every tool cost ~60 characters each); no
/// `idempotentHint` (MCP defines it only for tools that are not read-only, and every tool here
/// is); and, when the server has one root, no `root` argument (it cannot choose anything; a
/// call that passes one anyway is still accepted); no `additionalProperties` and no
/// `minimum: 0` (see the body). With the output schemas gone from the tools: 14.6k -> 9.8k
/// characters.
fn compact(router: ToolRouter<CodegraphMcp>, one_root: bool) -> ToolRouter<CodegraphMcp> {
    let mut out = ToolRouter::new();
    for mut route in router {
        let schema = Arc::make_mut(&mut route.attr.input_schema);
        schema.remove("$schema");
        // Unknown arguments are refused by the tool itself, naming the ones it takes, and a
        // negative integer by the argument check (every integer argument counts something).
        schema.remove("additionalProperties");
        if let Some(Value::Object(props)) = schema.get_mut("properties") {
            for p in props.values_mut().filter_map(Value::as_object_mut) {
                if p.get("minimum") == Some(&json!(0)) {
                    p.remove("minimum");
                }
            }
        }
        if one_root {
            if let Some(Value::Object(props)) = schema.get_mut("properties") {
                props.remove("root");
            }
            if let Some(Value::Array(required)) = schema.get_mut("required") {
                required.retain(|r| r != "root");
            }
        }
        if let Some(a) = route.attr.annotations.as_mut() {
            a.idempotent_hint = None;
        }
        out.add_route(route);
    }
    out
}

/// The graph query tool's name (offered only with `--allow-graph-query`).
pub const GRAPH_QUERY: &str = "graph_query";
/// Rows a graph query returns unless the call asks for another number, and at most.
const GRAPH_QUERY_ROWS: usize = 50;
const GRAPH_QUERY_MAX_ROWS: usize = 500;
/// Wall time a graph query may take.
const GRAPH_QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// Characters kept of each text value, and of the whole answer (rows beyond it are left out,
/// said by `truncated`).
const GRAPH_QUERY_CELL_CHARS: usize = 400;

/// Drops entries from the end of the answer's list `key` until its JSON fits `max_chars`
/// (then `truncated` is true and `note` says so).
fn fit_list(mut v: Value, key: &str, max_chars: usize) -> Value {
    let size = |v: &Value| serde_json::to_string(v).map_or(0, |s| s.len());
    if size(&v) <= max_chars {
        return v;
    }
    let Some(items) = v.get_mut(key).and_then(Value::as_array_mut) else { return v };
    let mut total: usize = items.iter().map(|r| size(r) + 1).sum();
    let budget = max_chars.saturating_sub(1_500);
    while total > budget {
        let Some(last) = items.pop() else { break };
        total -= size(&last) + 1;
    }
    let kept = items.len();
    v["truncated"] = json!(true);
    v["note"] = json!(format!(
        "{kept} {key} fit the answer's size: narrow the query, or ask for fewer or shorter columns"
    ));
    if key == "rows" {
        v["row_count"] = json!(kept);
    }
    v
}

/// Most hits `code_search` returns.
const SEARCH_MAX: usize = 100;

/// Groups a grep answer shows unless the call asks for another number, and at most.
const GREP_GROUPS: usize = 20;
const GREP_MAX_GROUPS: usize = 200;
/// Characters an answer of grep or the graph query is cut to (about 4k tokens).
const ANSWER_MAX_CHARS: usize = 16_000;

const INSTRUCTIONS: &str = "codegraph: a code graph of each served root (files, symbols, imports, calls, heritage, HTTP routes, MCP tools), kept fresh while files change. Languages: Go, TypeScript/JavaScript, Python, Java, Rust, Elixir (modules, `Mod.fun/arity`, Phoenix routes), Terraform (blocks by address: `var.x`, `aws_vpc.this`, `module.m`), Kubernetes manifests (`Kind/namespace/name`, selectors, ConfigMap/Secret references, images), shell scripts (functions, `cmd:` and `env:` concepts), Markdown. Start with code_search or symbol_context; use impact_analysis before changing a symbol, a Terraform variable, a ConfigMap or an environment variable, and changed_code_impact before committing. IDs look like `sym:ts:src/a.ts:Server.start`, `sym:rs:src/lib.rs:Parser.parse`, `sym:tf:main.tf:var.region`, `concept:env:KUBECONFIG` or `file:src/a.ts`; names work too. Every answer has `revision` and `stale`. Lists are cut to fit ~4k tokens: `cut` gives each cut list's `total` and `next_offset`; call again with `list` and `offset` to page one, or a larger `limit`.";

#[tool_router(router = tool_router)]
impl CodegraphMcp {
    #[tool(
        description = "Find symbols and files by name, signature, doc or path (BM25) in code, Terraform, Kubernetes and shell; returns IDs for the other tools.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn code_search(
        &self,
        Parameters(a): Parameters<SearchArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let root = a.root.clone();
        self.with_reader(
            "code_search",
            args_of(&a),
            CallCtx::of(&ctx),
            root,
            Freshen::No,
            move |_, reader| {
                let kind = node_kind(&a.kind)?;
                // At most 100 hits: the answer's `limit` says the number used.
                let limit = a.limit.map(|l| if l == 0 { SEARCH_MAX } else { l.min(SEARCH_MAX) });
                let window = Window::new(limit, 10, None, None);
                let r = reader.search(&SearchRequest {
                    query: a.query,
                    kind,
                    limit: window.limit,
                    include_tests: a.include_tests.unwrap_or(false),
                })?;
                Ok(page::answer(&window, SEARCH_LISTS, true, |p| search_json(&r, p))?)
            },
        )
        .await
    }

    #[tool(
        description = "A node by ID: fields, source lines, edges in and out, unresolved calls; a flow (proc:...) or cluster (cluster:...) with its steps or members.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn open_node(
        &self,
        Parameters(a): Parameters<OpenArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "open_node",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |handle, reader| {
                if let Some(d) = load_derived(reader, &a.id, true)? {
                    let stamp = reader.derived_stamp()?;
                    let flows_at = flows_at_json(stamp.as_ref(), reader.revision());
                    return paged(
                        a.limit,
                        a.offset,
                        a.list,
                        page::OPEN_LIMIT,
                        DERIVED_LISTS,
                        |p| derived_json(&d, flows_at.clone(), p),
                    );
                }
                let opened = reader.open(&a.id).map_err(|e| lookup_error(&a.id, e))?;
                let max_size = reader
                    .max_file_size()?
                    .unwrap_or(codegraph_engine::scan::DEFAULT_MAX_FILE_SIZE);
                let source = source_lines(&handle.root, &opened.node, max_size);
                let unresolved = reader.unresolved_of(&a.id)?;
                paged(a.limit, a.offset, a.list, page::OPEN_LIMIT, OPEN_LISTS, |p| {
                    open_json(&opened, &source, &unresolved, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "A symbol's container, members, callers, callees (with lines and confidence), heritage, importers and related files.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn symbol_context(
        &self,
        Parameters(a): Parameters<TargetArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "symbol_context",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |handle, reader| {
                let node = lookup(handle, reader, &a)?;
                let c = reader.symbol_context(&node.id)?;
                paged(a.limit, a.offset, a.list, page::CONTEXT_LIMIT, CONTEXT_LISTS, |p| {
                    context_json(&c, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "What breaks if the target changes (upstream) or what it needs (downstream): nodes by depth with edge and confidence, files, risk.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn impact_analysis(
        &self,
        Parameters(a): Parameters<ImpactArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "impact_analysis",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::Briefly,
            move |handle, reader| {
                let node = lookup(
                    handle,
                    reader,
                    &target_of(a.target.clone(), a.file.clone(), a.kind.clone(), &a.root),
                )?;
                let req = ImpactRequest {
                    direction: a.direction.unwrap_or(ImpactDir::Upstream).direction(),
                    kinds: edges(&a.edges)?,
                    max_depth: a.depth.unwrap_or(3).clamp(1, 10),
                    min_confidence: a.min_confidence.unwrap_or(0.0).clamp(0.0, 1.0),
                    include_tests: a.include_tests.unwrap_or(false),
                    max_nodes: 2000,
                };
                let i = reader.impact(&[node.id], &req)?;
                paged(a.limit, a.offset, a.list, page::IMPACT_LIMIT, IMPACT_LISTS, |p| {
                    impact_json(&i, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "Symbols touched by the uncommitted git diff (or vs `base`, or staged) and their upstream impact.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn changed_code_impact(
        &self,
        Parameters(a): Parameters<ChangedArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "changed_code_impact",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::Briefly,
            move |handle, reader| {
                let base = match (a.staged.unwrap_or(false), a.base) {
                    (true, Some(_)) => {
                        return Err("pass either `staged` or `base`, not both".to_string().into());
                    }
                    (true, None) => DiffBase::Staged,
                    (false, Some(r)) => DiffBase::Ref(r),
                    (false, None) => DiffBase::Worktree,
                };
                let files = changes(&handle.root, &base)?;
                let req = ImpactRequest {
                    max_depth: a.depth.unwrap_or(3).clamp(1, 10),
                    include_tests: a.include_tests.unwrap_or(false),
                    max_nodes: 2000,
                    ..ImpactRequest::default()
                };
                let mut c = reader.changed_code_impact(&files, &req)?;
                if base == DiffBase::Staged && !c.files.is_empty() {
                    c.notes.push(
                    "staged: hunks are the git index's, symbol lines are the indexed worktree's"
                        .to_string(),
                );
                }
                paged(a.limit, a.offset, a.list, page::IMPACT_LIMIT, CHANGED_LISTS, |p| {
                    changed_json(&c, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "Shortest call paths from one symbol to another, with per-hop confidence.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn trace(
        &self,
        Parameters(a): Parameters<TraceArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "trace",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |handle, reader| {
                let hint = "a qualified name (`Type.method`) or an ID as `from` / `to`";
                let from = lookup_hinted(
                    handle,
                    reader,
                    &target_of(a.from.clone(), None, None, &a.root),
                    hint,
                )?;
                let to = lookup_hinted(
                    handle,
                    reader,
                    &target_of(a.to.clone(), None, None, &a.root),
                    hint,
                )?;
                let req = TraceRequest {
                    kinds: Vec::new(),
                    max_depth: a.depth.unwrap_or(8).clamp(1, 20),
                    max_paths: 3,
                };
                Ok(trace_json(&reader.trace(&from.id, &to.id, &req)?))
            },
        )
        .await
    }

    #[tool(
        description = "A node's typed neighbourhood, breadth-first, strongest edges first, within max_nodes.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn expand(
        &self,
        Parameters(a): Parameters<ExpandArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "expand",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |handle, reader| {
                let node = lookup(
                    handle,
                    reader,
                    &target_of(a.target.clone(), a.file.clone(), a.kind.clone(), &a.root),
                )?;
                let req = ExpandRequest {
                    kinds: edges(&a.edges)?,
                    direction: a.direction.unwrap_or(Dir::Out).direction(),
                    depth: a.depth.unwrap_or(2).clamp(1, 6),
                    budget: a.max_nodes.unwrap_or(50).clamp(1, 500),
                };
                let e = reader.expand(&node.id, &req)?;
                paged(a.limit, a.offset, a.list, page::EXPAND_LIMIT, EXPAND_LISTS, |p| {
                    expand_json(&e, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "Explain a concept: search seeds, expand along weighted edges, return a layered DAG (back-edges close cycles).",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn dag_grep(
        &self,
        Parameters(a): Parameters<DagGrepArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "dag_grep",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |_, reader| {
                let req = DagGrepRequest {
                    query: a.query,
                    mode: a.mode.unwrap_or(ModeArg::Fts).mode(),
                    edge_sets: a.edge_sets.unwrap_or_default(),
                    edge_types: edges(&a.edges)?,
                    per_node_cap: a.per_node_cap.unwrap_or(20).clamp(1, 500),
                    include_anchors: a.anchors.unwrap_or(true),
                    include_cochange: a.include_cochange.unwrap_or(false),
                    k: a.seeds.unwrap_or(10).clamp(1, 50),
                    node_kinds: a.node_kinds.unwrap_or_default(),
                    direction: a.direction.unwrap_or(Dir::Out).direction(),
                    depth: a.depth.unwrap_or(2).clamp(1, 6),
                    budget: a.max_nodes.unwrap_or(80).clamp(1, 500),
                    render: a.render.map(RenderArg::render),
                };
                let d = reader.dag_grep(&req)?;
                paged(a.limit, a.offset, a.list, page::DAG_LIMIT, DAG_LISTS, |p| {
                    let mut v = dag_json(&d, p);
                    if req.render.is_none()
                        && let Value::Object(m) = &mut v
                    {
                        m.remove("rendered");
                    }
                    v
                })
            },
        )
        .await
    }

    #[tool(
        description = "An HTTP route (`GET /users/:id`, `/users/42` or ID): declaration, middleware, response keys, handler, its callers and callees.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn route_impact(
        &self,
        Parameters(a): Parameters<RouteArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "route_impact",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::Briefly,
            move |_, reader| {
                let answer = reader.route_impact(&a.route)?;
                paged(a.limit, a.offset, a.list, page::ENDPOINT_LIMIT, ENDPOINT_LISTS, |p| {
                    endpoints_json(&answer, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "An MCP/RPC tool (name or ID): description, input fields, handler, its callers and callees.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn tool_context(
        &self,
        Parameters(a): Parameters<ToolArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "tool_context",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |_, reader| {
                let answer = reader.tool_context(&a.tool)?;
                paged(a.limit, a.offset, a.list, page::ENDPOINT_LIMIT, ENDPOINT_LISTS, |p| {
                    endpoints_json(&answer, p)
                })
            },
        )
        .await
    }

    #[tool(
        description = "Plan a symbol's rename: exact edits (path, line, columns, reason, confidence) for the declaration and every reference the graph knows; unsure mentions, collisions and interfaces outside the root it may satisfy apart. Read-only.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn rename_plan(
        &self,
        Parameters(a): Parameters<RenameArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "rename_plan",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::Briefly,
            move |handle, reader| {
                let t = TargetArgs {
                    target: a.target.clone(),
                    file: a.file.clone(),
                    kind: a.kind.clone(),
                    limit: None,
                    offset: None,
                    list: None,
                    root: None,
                };
                let node = lookup(handle, reader, &t)?;
                let plan = codegraph_engine::rename::plan(
                    &handle.root,
                    reader,
                    &node,
                    &a.new_name,
                    handle.max_file_size(),
                )
                .map_err(ToolError::Message)?;
                Ok(fit_list(crate::answer::rename_json(&plan), "files", ANSWER_MAX_CHARS))
            },
        )
        .await
    }

    #[tool(
        description = "Regex over the indexed files, like ripgrep; hits grouped by innermost symbol with its kind, callers and dependents.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn code_grep(
        &self,
        Parameters(a): Parameters<GrepArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            "code_grep",
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |handle, reader| {
                let req = codegraph_engine::grep::GrepRequest {
                    pattern: a.pattern,
                    ignore_case: a.ignore_case.unwrap_or(false),
                    fixed_strings: a.fixed_strings.unwrap_or(false),
                    path: a.path,
                };
                let limit = a.limit.unwrap_or(GREP_GROUPS).clamp(1, GREP_MAX_GROUPS);
                let result = codegraph_engine::grep::grep(
                    &handle.root,
                    reader,
                    &req,
                    handle.max_file_size(),
                    limit,
                )
                .map_err(ToolError::Message)?;
                Ok(fit_list(crate::answer::grep_json(&result, limit), "groups", ANSWER_MAX_CHARS))
            },
        )
        .await
    }

    #[tool(
        description = "Read-only SQLite SELECT over these views (WITH RECURSIVE allowed; 5 s, 500 rows); node kinds lower case, edge kinds upper. Views: nodes(id, kind, name, qualified_name, file, language, start_line, end_line, signature, doc, exported, test, parent); edges(src, dst, kind, weight, reason, line); files(id, path, language, lines, size, test); routes(id, method, path, framework, file, line, props); tools(id, name, framework, description, file, line, props); unresolved_calls(file, line, caller, callee); flows(id, label, score, entry, steps); flow_steps(flow, step, node); clusters(id, label, cohesion, size); cluster_members(node, cluster); derivations(name, revision); revision(revision, head_commit, indexer_version, created_at_ms, files, symbols, edges).",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn graph_query(
        &self,
        Parameters(a): Parameters<GraphQueryArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.with_reader(
            GRAPH_QUERY,
            args_of(&a),
            CallCtx::of(&ctx),
            a.root.clone(),
            Freshen::No,
            move |_, reader| {
                let budget = codegraph_query::GraphQueryBudget {
                    max_rows: a.limit.unwrap_or(GRAPH_QUERY_ROWS).clamp(1, GRAPH_QUERY_MAX_ROWS),
                    timeout: GRAPH_QUERY_TIMEOUT,
                    max_cell_chars: GRAPH_QUERY_CELL_CHARS,
                };
                let answer = reader.graph_query(&a.sql, &budget)?;
                Ok(fit_list(crate::answer::graph_query_json(&answer), "rows", ANSWER_MAX_CHARS))
            },
        )
        .await
    }

    #[tool(
        description = "Served roots: index phase and progress, revision, staleness, counts, HEAD. Never waits.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn index_status(&self, Parameters(a): Parameters<StatusArgs>) -> CallToolResult {
        let roots = self.roots.clone();
        let timer = crate::events::Timer::start("mcp", "index_status", args_of(&a));
        let job = move || -> ToolResult {
            let handles = match &a.root {
                Some(r) => vec![roots.pick(Some(r))?],
                None => roots.all().to_vec(),
            };
            let mut out = Vec::new();
            for h in &handles {
                out.push(root_status(h));
            }
            Ok(if out.len() == 1 { out.remove(0) } else { json!({"roots": out}) })
        };
        let joined = tokio::task::spawn_blocking(job).await;
        match &joined {
            Ok(Ok(v)) => timer.record(v["root"].as_str(), Some(v), None),
            _ => timer.record(None, None, Some("index_status failed")),
        }
        finish(joined)
    }
}

/// The status of one root, at once: its worker's state (while it builds from scratch, files
/// parsed of files scanned) and, when one is published, the snapshot. Never waits for a build.
fn root_status(h: &Arc<RootHandle>) -> Value {
    let store = h.try_store();
    let st = h.synced();
    let mut v = json!({
        "root": h.root.display().to_string(),
        "phase": st.phase.as_str(),
        "watching": st.watching,
        "pending_edits": st.pending(),
        "revisions_published": st.published,
    });
    if let Phase::Opening { .. } = st.phase {
        use std::sync::atomic::Ordering::Relaxed;
        let (done, total) = (h.progress.done.load(Relaxed), h.progress.total.load(Relaxed));
        let secs = st.started.map_or(0, |s| s.elapsed().as_secs());
        v["message"] = json!(match st.phase {
            Phase::Opening { had_index: true } => format!(
                "syncing: re-checking the existing index against the tree ({secs} s); other tools answer from the indexed revision meanwhile"
            ),
            _ if total > 0 => format!(
                "building: {done} of {total} files parsed ({secs} s); other tools answer once it is ready"
            ),
            _ => format!(
                "building: scanning the tree ({secs} s); other tools answer once it is ready"
            ),
        });
        if total > 0 {
            v["progress"] = json!({"files_parsed": done, "files_total": total, "seconds": secs});
        }
    }
    if let Phase::Failed(e) = &st.phase {
        v["error"] = json!(e);
    }
    if let Some(e) = &st.failed_publish {
        v["last_publish_error"] = json!(e);
    }
    if let Some(e) = &st.watch_error {
        v["watch_error"] = json!(e);
    }
    if let Some(t) = st.last_publish {
        v["last_publish_ms_ago"] = json!(t.elapsed().as_millis() as u64);
    }
    match store {
        Some(mut store) => {
            let answer = store.reader().map_err(ToolError::from).and_then(|reader| {
                let snap = reader.snapshot()?;
                let stale = h.stale(reader.revision(), &reader)?;
                let flows = reader.derived_stamp()?;
                let mut flows_at = crate::answer::flows_at_json(flows.as_ref(), snap.revision);
                if let Some(f) = &flows {
                    flows_at["compute_ms"] = json!(f.compute_ms);
                }
                Ok(json!({
                    "flows_at": flows_at,
                    "revision": snap.revision,
                    "stale": stale,
                    "head_commit": snap.head_commit,
                    "dirty_files": snap.dirty_files,
                    "files": snap.files,
                    "symbols": snap.symbols,
                    "edges": snap.edges,
                    "skipped": snap.skipped,
                    "unresolved_calls": snap.unresolved,
                    "indexed_at_ms": snap.created_at_ms,
                }))
            });
            match answer {
                Ok(Value::Object(m)) => {
                    v.as_object_mut().into_iter().for_each(|o| o.extend(m.clone()))
                }
                Ok(_) => {}
                Err(ToolError::Message(m)) => v["error"] = json!(m),
                Err(ToolError::Answer(a)) => v["error"] = a,
            }
            h.give_back(store);
        }
        None => {
            v["revision"] = Value::Null;
            v["stale"] = json!(true);
        }
    }
    v
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CodegraphMcp {
    /// Checks the arguments against the tool's input schema first, so a wrong type names the
    /// argument and the JSON type it needs (serde's own words name neither); then calls it.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        if let Some(tool) = self.tool_router.get(&request.name)
            && let Some(problem) = argument_problem(&tool.input_schema, request.arguments.as_ref())
        {
            let text = format!("{}: {problem}", request.name);
            return Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
        }
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("codegraph", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}
