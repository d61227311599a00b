//! The JSON shape of every answer, shared by the CLI's `--json` output and the MCP server's
//! tool results, so that an agent and a script read the same fields. Every answer carries the
//! `revision` it was read from and `stale`. Lists go through a [`Pager`] (cut to a window, with
//! totals and next offsets, see `page.rs`); a node in a list is a compact reference (`id`,
//! `kind`, `lines`: its name and file are in its ID), and a link carries only what differs
//! from the node it hangs off (edge kind, direction, call-site lines, reason, confidence).

use crate::page::Pager;
use codegraph_query::ops::changed::ChangedImpact;
use codegraph_query::ops::context::{CallLink, Link, SymbolContext};
use codegraph_query::ops::dag_grep::DagGrep;
use codegraph_query::ops::endpoints::{EndpointAnswer, EndpointProps};
use codegraph_query::ops::expand::Expansion;
use codegraph_query::ops::impact::Impact;
use codegraph_query::ops::trace::Trace;
use codegraph_query::{ClusterRef, DerivedStamp, EdgeRow, Flow, FlowRef, ImpactFlow, NodeRow};
use codegraph_schema::{EdgeKind, NodeCategory, NodeKind, ids};
use serde_json::{Value, json};
use std::path::Path;

/// Longest part of a caller's own text (a search query) an answer repeats.
const MAX_ECHO_CHARS: usize = 200;

/// Longest doc comment an answer repeats (the rest is cut, said with a trailing `...`).
const MAX_DOC_CHARS: usize = 800;

pub(crate) fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A node in compact form.
pub(crate) fn node_brief(n: &NodeRow) -> Value {
    json!({
        "id": n.id,
        "kind": n.kind,
        "name": n.name,
        "file": n.file,
        "start_line": n.start_line,
        "end_line": n.end_line,
    })
}

/// A node inside a list: its ID (which holds its file and qualified name), kind and lines.
pub(crate) fn node_ref(n: &NodeRow) -> Value {
    let mut v = json!({"id": n.id, "kind": n.kind});
    if n.kind != NodeKind::File
        && n.kind != NodeKind::Package
        && let (Some(s), Some(e)) = (n.start_line, n.end_line)
    {
        v["lines"] = json!([s, e]);
    }
    v
}

/// The edge fields that say why and how surely (left out for plain structure).
fn edge_why(v: &mut Value, e: &EdgeRow) {
    if e.line > 0 {
        v["line"] = json!(e.line);
    }
    if e.reason != "structural" {
        v["reason"] = json!(e.reason);
        v["confidence"] = json!(round(e.weight));
    }
}

/// A linked node seen from the answer's subject: the node, the edge kind and direction.
pub(crate) fn link_json(l: &Link) -> Value {
    let mut v = node_ref(&l.node);
    v["edge"] = json!(l.edge.kind);
    v["dir"] = json!(l.dir.as_str());
    edge_why(&mut v, &l.edge);
    v
}

/// A caller or callee with its call-site lines.
pub(crate) fn call_json(c: &CallLink) -> Value {
    let mut v = node_ref(&c.node);
    v["call_lines"] = json!(c.lines);
    v["confidence"] = json!(round(c.weight));
    v["reason"] = json!(c.reason);
    v
}

/// Longest signature a search hit repeats.
const MAX_SIGNATURE_CHARS: usize = 300;

/// `text` cut at `max` characters (with a trailing `...`).
fn cut_text(text: &str, max: usize) -> String {
    if text.chars().count() > max {
        format!("{}...", text.chars().take(max).collect::<String>())
    } else {
        text.to_string()
    }
}

/// The lists of a search answer.
pub(crate) const SEARCH_LISTS: &[&str] = &["hits"];

/// A search answer: the hits (compact node, signature and the first line of the doc, cut),
/// which query form matched, and notes.
pub(crate) fn search_json(r: &codegraph_query::SearchResult, p: &mut Pager<'_>) -> Value {
    json!({
        "fallback": r.fallback.map(|f| f.as_str()),
        // The query as run, cut: a query of any size is never echoed whole.
        "fts_query": cut_text(&r.fts_query, MAX_ECHO_CHARS),
        "hits": p.list("hits", &r.hits, |h| {
            let mut v = node_brief(&h.node);
            if let Some(s) = &h.node.signature {
                v["signature"] = json!(cut_text(s, MAX_SIGNATURE_CHARS));
            }
            if let Some(d) = h.node.doc.as_deref().and_then(|d| d.lines().find(|l| !l.trim().is_empty())) {
                v["doc"] = json!(cut_text(d.trim(), 160));
            }
            v["score"] = json!(round(h.score));
            v
        }),
        "notes": [],
    })
}

/// A doc comment, cut at [`MAX_DOC_CHARS`].
fn doc_text(doc: &Option<String>) -> Value {
    match doc {
        Some(d) if d.chars().count() > MAX_DOC_CHARS => {
            json!(format!("{}...", d.chars().take(MAX_DOC_CHARS).collect::<String>()))
        }
        other => json!(other),
    }
}

/// Which revision an answer's flows and clusters come from, and whether that is the revision
/// the answer was read at (`null`: none computed yet).
pub(crate) fn flows_at_json(stamp: Option<&DerivedStamp>, revision: i64) -> Value {
    match stamp {
        None => Value::Null,
        Some(s) => json!({
            "computed_at_revision": s.computed_at_revision,
            "current": s.computed_at_revision == revision,
            "flows": s.processes,
            "clusters": s.clusters,
        }),
    }
}

/// A flow seen from one of its steps.
pub(crate) fn flow_ref_json(f: &FlowRef) -> Value {
    json!({
        "id": f.id,
        "label": f.label,
        "score": round(f.score),
        "step": f.step,
        "steps": f.steps,
        "entry": f.entry,
    })
}

/// A whole flow, its steps in order.
pub(crate) fn flow_json(f: &Flow) -> Value {
    json!({"id": f.id, "label": f.label, "score": round(f.score), "steps": f.steps})
}

/// A file that usually changes with another (CO_CHANGED).
fn cochange_json(c: &codegraph_query::cochange::CoChangeRow) -> Value {
    json!({"file": c.dst, "support": c.support, "confidence": round(c.confidence)})
}

pub(crate) fn cluster_json(c: &ClusterRef) -> Value {
    json!({"id": c.id, "label": c.label, "cohesion": round(c.cohesion), "size": c.size})
}

fn impact_flow_json(f: &ImpactFlow) -> Value {
    let mut v = flow_ref_json(&f.flow);
    v["via"] = json!(f.via);
    v["depth"] = json!(f.depth);
    v
}

/// The lists of a context answer (what `list` may name).
pub(crate) const CONTEXT_LISTS: &[&str] = &[
    "containers",
    "members",
    "callers",
    "callees",
    "heritage",
    "references",
    "tests",
    "docs",
    "co_changed",
    "imported_by",
    "file_imports",
    "file_importers",
    "related_files",
    "unresolved_calls",
    "routes",
    "tools",
    "processes",
];

pub(crate) fn context_json(c: &SymbolContext, p: &mut Pager<'_>) -> Value {
    let n = &c.symbol;
    let mut symbol = node_ref(n);
    symbol["name"] = json!(n.name);
    symbol["qualified_name"] = json!(n.qualified_name);
    symbol["file"] = json!(n.file);
    symbol["signature"] = json!(n.signature);
    symbol["doc"] = doc_text(&n.doc);
    symbol["exported"] = json!(n.exported);
    json!({
        "revision": c.revision,
        "stale": c.stale,
        "symbol": symbol,
        "containers": p.list("containers", &c.containers, link_json),
        "members": p.list("members", &c.members, link_json),
        "callers": p.list("callers", &c.callers, call_json),
        "callees": p.list("callees", &c.callees, call_json),
        "heritage": p.list("heritage", &c.heritage, link_json),
        "references": p.list("references", &c.references, link_json),
        "tests": p.list("tests", &c.tests, link_json),
        "docs": p.list("docs", &c.docs, link_json),
        "co_changed": p.list_partial(
            "co_changed",
            &c.co_changed,
            codegraph_query::ops::context::COCHANGED_SHOWN,
            c.co_changed_total,
            cochange_json,
        ),
        "co_changed_total": c.co_changed_total,
        "imported_by": p.list("imported_by", &c.imported_by, link_json),
        "file_imports": p.list("file_imports", &c.file_imports, link_json),
        "file_importers": p.list("file_importers", &c.file_importers, link_json),
        "related_files": p.list("related_files", &c.related_files, |(f, n)| json!({"file": f, "links": n})),
        "unresolved_calls": p.list("unresolved_calls", &c.unresolved_calls, |(l, callee)| json!({"line": l, "callee": callee})),
        "routes": p.list("routes", &endpoint_links(c, NodeKind::Route, EdgeKind::HandlesRoute), link_json),
        "tools": p.list("tools", &endpoint_links(c, NodeKind::Tool, EdgeKind::HandlesTool), link_json),
        "processes": p.list("processes", &c.processes, flow_ref_json),
        "cluster": c.cluster.as_ref().map(cluster_json),
        "flows_at": flows_at_json(c.flows_at.as_ref(), c.revision),
        "notes": c.notes,
    })
}

/// The lists of an impact answer.
pub(crate) const IMPACT_LISTS: &[&str] =
    &["nodes", "dispatch_callers", "files", "modules", "flows", "tests", "co_changed"];

pub(crate) fn impact_json(i: &Impact, p: &mut Pager<'_>) -> Value {
    let counts = |key: &'static str| move |(k, n): &(String, u32)| json!({ key: k, "nodes": n });
    // Possible callers through dispatch (upstream: callers of a method the target overrides
    // or implements) are their own list with its own cut, after the definite dependents.
    let upstream = i.direction == codegraph_query::ops::impact::ImpactDirection::Upstream;
    let (dispatch, nodes): (Vec<&codegraph_query::ops::impact::ImpactNode>, Vec<_>) =
        i.levels.iter().flatten().partition(|n| upstream && n.dispatch.is_some());
    let node_json = |n: &&codegraph_query::ops::impact::ImpactNode| {
        let mut v = node_ref(&n.node);
        v["depth"] = json!(n.depth);
        v["confidence"] = json!(round(n.confidence));
        let other = if n.node.id == n.via.src { &n.via.dst } else { &n.via.src };
        let mut via = json!({"edge": n.via.kind, "node": other});
        edge_why(&mut via, &n.via);
        if let Some(obj) = via.as_object_mut() {
            obj.remove("confidence");
        }
        v["via"] = via;
        if let Some(d) = &n.dispatch {
            v["dispatch"] = json!(d);
        }
        v
    };
    json!({
        "revision": i.revision,
        "stale": i.stale,
        "direction": i.direction.as_str(),
        "targets": i.targets.iter().map(node_ref).collect::<Vec<_>>(),
        "risk": i.risk.as_str(),
        "summary": {
            "direct": i.direct,
            "reached": i.reached(),
            "by_depth": i.levels.iter().map(Vec::len).collect::<Vec<_>>(),
            "files": i.files,
            "modules": i.modules,
            "dispatch": i.dispatch,
            "target_parts": i.parts,
            // Set when the walk stopped at its node budget: every count is a lower bound.
            "cut_at_nodes": i.cut_at,
        },
        "nodes": p.list("nodes", &nodes, node_json),
        "dispatch_callers": p.list("dispatch_callers", &dispatch, node_json),
        "files": p.list("files", &i.affected_files, counts("file")),
        "modules": p.list("modules", &i.affected_modules, counts("module")),
        "flows": p.list_partial("flows", &i.flows, usize::MAX, i.flows_total, impact_flow_json),
        "flows_total": i.flows_total,
        "flows_at": flows_at_json(i.flows_at.as_ref(), i.revision),
        // What to run, not what breaks: a few unless paged (`tests_total` counts them all).
        "tests": p.list_partial("tests", &i.tests, 8, i.tests_total, |t| {
            // Depth 0 tests a target itself: `via` only when it is a reached node.
            let mut v = node_ref(&t.test);
            v["depth"] = json!(t.depth);
            if t.depth > 0 {
                v["via"] = json!(t.via);
            }
            v
        }),
        "tests_total": i.tests_total,
        // History, not dependents: files that usually change in the same commits.
        "co_changed": p.list_partial(
            "co_changed",
            &i.co_changed,
            codegraph_query::ops::context::COCHANGED_SHOWN,
            i.co_changed_total,
            cochange_json,
        ),
        "co_changed_total": i.co_changed_total,
        "notes": i.notes,
    })
}

/// The lists of a changed-code answer: its own and its impact's.
pub(crate) const CHANGED_LISTS: &[&str] = &[
    "changed_files",
    "changed_symbols",
    "nodes",
    "dispatch_callers",
    "files",
    "modules",
    "flows",
    "tests",
];

pub(crate) fn changed_json(c: &ChangedImpact, p: &mut Pager<'_>) -> Value {
    // The outer answer carries `revision`, `stale` and `notes` once.
    let limit = p.limit();
    let mut impact = impact_json(&c.impact, p);
    let mut notes = c.notes.clone();
    if let Value::Object(m) = &mut impact {
        m.remove("revision");
        m.remove("stale");
        m.remove("targets");
        if let Some(Value::Array(n)) = m.remove("notes") {
            notes.extend(n.into_iter().filter_map(|x| x.as_str().map(str::to_string)));
        }
    }
    json!({
        "revision": c.revision,
        "stale": c.stale,
        "changed_files": p.list("changed_files", &c.files, |f| {
            let mut v = json!({
                "path": f.path,
                "change": f.kind.as_str(),
                "hunks": f.hunks,
                "indexed": f.indexed,
                "symbols": f.symbols.iter().take(limit).collect::<Vec<_>>(),
            });
            if f.symbols.len() > limit {
                v["symbols_total"] = json!(f.symbols.len());
            }
            v
        }),
        "changed_symbols": p.list("changed_symbols", &c.symbols, node_ref),
        "impact": impact,
        "notes": notes,
    })
}

/// A hop of a path: both ends, the edge kind, call-site line, reason and confidence.
fn hop_json(e: &EdgeRow) -> Value {
    let mut v = json!({"src": e.src, "dst": e.dst, "edge": e.kind});
    edge_why(&mut v, e);
    v
}

pub(crate) fn trace_json(t: &Trace) -> Value {
    json!({
        "revision": t.revision,
        "stale": t.stale,
        "from": node_ref(&t.from),
        "to": node_ref(&t.to),
        "reversed": t.reversed,
        "paths": t.paths.iter().map(|p| json!({
            "confidence": round(p.confidence),
            "hops": p.hops.iter().map(hop_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "notes": t.notes,
    })
}

/// The lists of an expansion.
pub(crate) const EXPAND_LISTS: &[&str] = &["nodes", "edges"];

pub(crate) fn expand_json(e: &Expansion, p: &mut Pager<'_>) -> Value {
    json!({
        "revision": e.revision,
        "stale": e.stale,
        "seed": e.seed.id,
        "nodes": p.list("nodes", &e.nodes, |(n, d)| {
            let mut v = node_ref(n);
            v["depth"] = json!(d);
            v
        }),
        "edges": p.list("edges", &e.edges, hop_json),
        "notes": e.notes,
    })
}

/// The lists of a DAG-grep answer.
pub(crate) const DAG_LISTS: &[&str] = &["nodes", "edges"];

/// The DAG-grep answer: seeds, the nodes (each with its role, score and DAG layer) and the
/// edges (each marked `back` when it closes a cycle, `anchor` when it ties a node to its file
/// or package), stats and warnings. Layers and forward edges follow from those fields and are
/// not repeated.
pub(crate) fn dag_json(d: &DagGrep, p: &mut Pager<'_>) -> Value {
    let back: std::collections::HashSet<(&str, &str, &str)> =
        d.back_edges.iter().map(|e| (e.src.as_str(), e.dst.as_str(), e.kind.as_str())).collect();
    json!({
        "revision": d.revision,
        "stale": d.stale,
        "query": d.query,
        "direction": d.direction.as_str(),
        "seeds": d.seeds.iter().map(|(id, s)| json!({"id": id, "score": round(*s)})).collect::<Vec<_>>(),
        "nodes": p.list("nodes", &d.nodes, |n| {
            let mut v = node_ref(&n.node);
            v["role"] = json!(n.role.as_str());
            v["score"] = json!(round(n.score));
            v["layer"] = json!(n.layer);
            v
        }),
        "edges": p.list("edges", &d.edges, |e| {
            let mut v = hop_json(&e.edge);
            if e.anchor {
                v["anchor"] = json!(true);
            }
            if back.contains(&(e.edge.src.as_str(), e.edge.dst.as_str(), e.edge.kind.as_str())) {
                v["back"] = json!(true);
            }
            v
        }),
        "stats": {
            "seeds": d.stats.seeds,
            "nodes": d.stats.nodes,
            "edges": d.stats.edges,
            "layers": d.layers.len(),
            "forward_edges": d.stats.forward_edges,
            "back_edges": d.stats.back_edges,
            "anchors": d.stats.anchors,
            "expanded": d.stats.expanded,
            "budget_dropped": d.stats.budget_dropped,
            "capped": d.stats.capped,
        },
        "warnings": d.warnings,
        "rendered": d.rendered,
    })
}

/// Most source lines an `open` answer shows.
pub(crate) const MAX_SOURCE_LINES: usize = 200;

/// A node's source lines as read from the root.
pub(crate) struct Source {
    pub first_line: u32,
    /// At most [`MAX_SOURCE_LINES`].
    pub lines: Vec<String>,
    /// How many lines the node spans.
    pub total: usize,
}

/// The lines of a node's source (at most [`MAX_SOURCE_LINES`]), read from the root (canonical)
/// now, under the scanner's rules ([`codegraph_engine::scan::read_within`]: inside the root
/// after resolving symlinks, a regular file, at most `max_size` bytes, never blocking).
/// `Ok(None)` for nodes without lines of their own (files, packages); `Err` says why the file
/// is not read any more.
pub(crate) fn source_lines(
    root: &Path,
    n: &NodeRow,
    max_size: u64,
) -> Result<Option<Source>, String> {
    let Some(file) = n.file.as_ref() else { return Ok(None) };
    if n.kind == NodeKind::File || n.kind == NodeKind::Package {
        return Ok(None);
    }
    let (Some(start), Some(end)) = (n.start_line, n.end_line) else { return Ok(None) };
    let bytes = codegraph_engine::scan::read_within(root, file, max_size)
        .map_err(|d| format!("{file}: {} ({})", d.detail, d.code))?;
    let text = String::from_utf8_lossy(&bytes);
    let total = end.saturating_sub(start) as usize + 1;
    let lines: Vec<String> = text
        .lines()
        .skip(start.saturating_sub(1) as usize)
        .take(total.min(MAX_SOURCE_LINES))
        .map(str::to_string)
        .collect();
    Ok(Some(Source { first_line: start, lines, total }))
}

/// A flow or a cluster opened by ID.
pub(crate) enum Derived {
    Flow(Flow),
    Cluster(ClusterRef, Vec<String>),
}

/// The flow (`proc:...`) or cluster (`cluster:...`) an ID names; `Ok(None)` for other IDs, an
/// error that says where to find IDs for an unknown one, in the words of the surface asking
/// (`mcp`: tool names, else CLI commands), or, while the flows of this revision are still being
/// computed, that they are and to retry.
pub(crate) fn load_derived(
    reader: &codegraph_query::Reader<'_>,
    id: &str,
    mcp: bool,
) -> Result<Option<Derived>, String> {
    let err = |e: codegraph_query::QueryError| e.to_string();
    let (flow, cluster) = (ids::is(id, NodeCategory::Process), ids::is(id, NodeCategory::Cluster));
    if !flow && !cluster {
        return Ok(None);
    }
    let found = if flow {
        reader.flow(id).map_err(err)?.map(Derived::Flow)
    } else {
        match reader.cluster(id).map_err(err)? {
            Some(c) => Some(Derived::Cluster(c, reader.cluster_members(id).map_err(err)?)),
            None => None,
        }
    };
    if let Some(d) = found {
        return Ok(Some(d));
    }
    let what = if flow { "flow" } else { "cluster" };
    let computed = reader.derived_stamp().map_err(err)?.map(|s| s.computed_at_revision);
    if computed != Some(reader.revision()) {
        return Err(format!(
            "no {what} `{id}` in the flows and clusters computed so far ({}); those of revision {} are being computed off the edit path: retry in a few seconds",
            computed.map_or("none yet".to_string(), |r| format!("revision {r}")),
            reader.revision()
        ));
    }
    let where_ = match (flow, mcp) {
        (true, true) => "the flows of a symbol are in symbol_context (`flows`)",
        (true, false) => "the flows of a symbol are in its context (or `codegraph flows`)",
        (false, true) => "a symbol's cluster is in symbol_context (`cluster`)",
        (false, false) => "a symbol's cluster is in its context (or `codegraph clusters`)",
    };
    Err(format!("no {what} with ID `{id}`; {where_}"))
}

/// The lists of a flow or cluster answer.
pub(crate) const DERIVED_LISTS: &[&str] = &["steps", "members"];

/// A flow with its steps, or a cluster with its members, both paged.
pub(crate) fn derived_json(d: &Derived, flows_at: Value, p: &mut Pager<'_>) -> Value {
    let mut v = match d {
        Derived::Flow(f) => json!({
            "id": f.id,
            "kind": NodeKind::Process,
            "label": f.label,
            "score": round(f.score),
            "steps": p.list("steps", &f.steps, |s| json!(s)),
        }),
        Derived::Cluster(c, members) => {
            let mut v = cluster_json(c);
            v["kind"] = json!(NodeKind::Cluster);
            v["members"] = p.list("members", members, |m| json!(m));
            v
        }
    };
    v["flows_at"] = flows_at;
    v["notes"] = json!([]);
    v
}

/// The lists of an `open` answer.
pub(crate) const OPEN_LISTS: &[&str] = &["outgoing", "incoming", "unresolved_calls"];

/// An edge seen from the opened node: the other end, kind, line, reason, confidence.
fn open_edge(e: &EdgeRow, other: &str) -> Value {
    let mut v = json!({"edge": e.kind, "node": other});
    edge_why(&mut v, e);
    v
}

/// The answer of `open` / `open_node`: the node's fields, its source (cut at
/// [`MAX_SOURCE_LINES`], said in `notes`), its edges both ways and its unresolved call sites.
pub(crate) fn open_json(
    opened: &codegraph_query::OpenedNode,
    source: &Result<Option<Source>, String>,
    unresolved: &[(u32, String)],
    p: &mut Pager<'_>,
) -> Value {
    let n = &opened.node;
    let mut v = node_json(n);
    if let Some(o) = v.as_object_mut() {
        for k in ["size", "lines", "hash"] {
            if o.get(k).is_some_and(Value::is_null) {
                o.remove(k);
            }
        }
    }
    v["doc"] = doc_text(&n.doc);
    let mut notes = Vec::new();
    v["source"] = match source {
        Ok(None) => Value::Null,
        Err(why) => {
            notes.push(format!("source not shown: {why}"));
            Value::Null
        }
        Ok(Some(s)) => {
            if s.total > s.lines.len() {
                let next = s.first_line as usize + s.lines.len();
                notes.push(format!(
                    "source cut at {} of {} lines: read {} from line {next} for the rest",
                    s.lines.len(),
                    s.total,
                    n.file.as_deref().unwrap_or("the file")
                ));
            }
            json!({"first_line": s.first_line, "lines": s.lines, "total_lines": s.total})
        }
    };
    v["outgoing"] = p.list("outgoing", &opened.outgoing, |e| open_edge(e, &e.dst));
    v["incoming"] = p.list("incoming", &opened.incoming, |e| open_edge(e, &e.src));
    v["unresolved_calls"] =
        p.list("unresolved_calls", unresolved, |(l, c)| json!({"line": l, "callee": c}));
    v["notes"] = json!(notes);
    v
}

pub(crate) fn node_json(n: &NodeRow) -> Value {
    let mut v = json!({
        "id": n.id,
        "kind": n.kind,
        "name": n.name,
        "qualified_name": n.qualified_name,
        "file": n.file,
        "language": n.language,
        "start_line": n.start_line,
        "end_line": n.end_line,
        "signature": n.signature,
        "doc": n.doc,
        "exported": n.exported,
        "parent": n.parent,
        "size": n.size,
        "lines": n.lines,
        "hash": n.hash,
    });
    // Routes and tools only: other nodes have no properties to show.
    if let Some(p) = n.props.as_deref().and_then(EndpointProps::parse) {
        v["props"] = props_json(&p);
    }
    v
}

pub(crate) fn edge_json(e: &EdgeRow) -> Value {
    json!({
        "kind": e.kind,
        "src": e.src,
        "dst": e.dst,
        "weight": e.weight,
        "reason": e.reason,
        "line": (e.line > 0).then_some(e.line),
    })
}

/// The routes (or tools) of a context: endpoints the symbol handles, or an endpoint's handler.
fn endpoint_links(c: &SymbolContext, kind: NodeKind, edge: EdgeKind) -> Vec<Link> {
    c.endpoints.iter().filter(|l| l.node.kind == kind || l.edge.kind == edge).cloned().collect()
}

/// A route's or tool's structured properties; absent ones are left out.
pub(crate) fn props_json(p: &EndpointProps) -> Value {
    let mut v = json!({
        "kind": p.kind,
        "framework": p.framework,
        "middleware": p.middleware,
        "response_keys": p.response_keys,
        "status_codes": p.status_codes,
    });
    for (k, val) in [
        ("method", &p.method),
        ("path", &p.path),
        ("name", &p.name),
        ("registered", &p.registered),
        ("mounted_under", &p.mounted_under),
    ] {
        if let Some(x) = val {
            v[k] = json!(x);
        }
    }
    if p.kind == NodeKind::Tool {
        v["fields"] = json!(p.fields);
    }
    v
}

/// The lists of a route / tool answer.
pub(crate) const ENDPOINT_LISTS: &[&str] = &["matches"];

/// The answer of `route_impact` / `tool_context`: matches are paged (their `cut` entry gives
/// the real total, and how many were computed when the operation stopped at its bound); each
/// match's own lists are cut at the same limit, with `*_total` counts when cut.
pub(crate) fn endpoints_json(a: &EndpointAnswer, p: &mut Pager<'_>) -> Value {
    let limit = p.limit();
    let capped = |v: &mut Value, key: &str, items: Vec<Value>| {
        if items.len() > limit {
            v[format!("{key}_total")] = json!(items.len());
        }
        v[key] = Value::Array(items.into_iter().take(limit).collect());
    };
    json!({
        "revision": a.revision,
        "stale": a.stale,
        "query": a.query,
        "matches": p.list_partial("matches", &a.matches, usize::MAX, a.matches_total, |m| {
            let mut n = node_ref(&m.node);
            n["signature"] = json!(m.node.signature);
            if let Some(d) = &m.node.doc {
                n["description"] = doc_text(&Some(d.clone()));
            }
            let mut v = json!({
                "endpoint": n,
                "props": props_json(&m.props),
                "matched_by": m.matched_by,
            });
            capped(&mut v, "handlers", m.handlers.iter().map(link_json).collect());
            capped(&mut v, "handler_callers", m.handler_callers.iter().map(call_json).collect());
            capped(&mut v, "handler_callees", m.handler_callees.iter().map(call_json).collect());
            capped(&mut v, "consumers", m.consumers.iter().map(call_json).collect());
            capped(&mut v, "flows", m.flows.iter().map(flow_json).collect());
            v
        }),
        "flows_at": flows_at_json(a.flows_at.as_ref(), a.revision),
        "notes": a.notes,
    })
}

/// The answer for a name that did not resolve to one node: `error` (`ambiguous` with ranked
/// `candidates`, or `not_found` with `suggestions`), `query` and `message`; `None` for other
/// errors. `hint` says how to narrow an ambiguous name in the caller's terms.
pub(crate) fn lookup_failure_json(
    query: &str,
    e: &codegraph_query::QueryError,
    hint: &str,
) -> Option<Value> {
    use codegraph_query::QueryError;
    let mut v = json!({"query": query, "message": e.to_string()});
    match e {
        QueryError::Ambiguous { candidates, total, .. } => {
            v["error"] = json!("ambiguous");
            let shown = if *total > candidates.len() {
                format!("; the first {} are listed", candidates.len())
            } else {
                String::new()
            };
            v["message"] = json!(format!(
                "`{query}` names {total} nodes{shown}: pass one of these IDs, or narrow with {hint}"
            ));
            v["total"] = json!(total);
            v["candidates"] = Value::Array(
                candidates
                    .iter()
                    .map(|c| {
                        let mut n = node_brief(&c.node);
                        n["matched_by"] = json!(c.matched_by.as_str());
                        n
                    })
                    .collect(),
            );
        }
        QueryError::NotFound { suggestions, searched, .. } => {
            use codegraph_query::ops::lookup::Searched;
            v["error"] = json!("not_found");
            v["suggestions"] = json!(suggestions);
            let why = match searched {
                Searched::Everywhere => "no_name",
                Searched::FilesContaining { .. } => "not_in_files",
                Searched::NoFileContains { .. } => "file_hint",
                Searched::NoFileAt { .. } => "no_file",
                Searched::Line { .. } => "no_symbol_at_line",
                _ => "other",
            };
            v["searched"] = json!(why);
        }
        QueryError::UnknownId { suggestions, .. } => {
            v["error"] = json!("not_found");
            v["suggestions"] = json!(suggestions);
        }
        _ => return None,
    }
    Some(v)
}

/// A graph query's answer: the columns, the rows as arrays of JSON values (a text value cut
/// to the budget ends in `…`; a blob is `{"blob_bytes": n}`), how many rows, whether more
/// existed, and the views version it was written against.
pub(crate) fn graph_query_json(a: &codegraph_query::GraphAnswer) -> Value {
    use codegraph_query::Cell;
    let mut cut = 0usize;
    let rows: Vec<Value> = a
        .rows
        .iter()
        .map(|row| {
            Value::Array(
                row.iter()
                    .map(|c| match c {
                        Cell::Null => Value::Null,
                        Cell::Integer(i) => json!(i),
                        Cell::Real(r) => json!(r),
                        Cell::Text { text, cut: false } => json!(text),
                        Cell::Text { text, cut: true } => {
                            cut += 1;
                            json!(format!("{text}…"))
                        }
                        Cell::Blob(n) => json!({ "blob_bytes": n }),
                    })
                    .collect(),
            )
        })
        .collect();
    let mut v = json!({
        "columns": a.columns,
        "rows": rows,
        "row_count": a.rows.len(),
        "truncated": a.truncated,
        "elapsed_ms": a.elapsed_ms,
        "views_version": codegraph_schema::query_views::QUERY_VIEWS_VERSION,
    });
    if a.truncated {
        v["note"] = json!(format!(
            "more rows than the {} returned: raise the limit, or narrow the query (WHERE, GROUP BY, LIMIT)",
            a.rows.len()
        ));
    }
    if cut > 0 {
        v["cut_values"] = json!(cut);
    }
    v
}

/// Matching lines kept per group of a grep answer (the rest counted in `more_lines`).
pub(crate) const GREP_LINES_PER_GROUP: usize = 8;

/// A grep answer: totals (`total` = matching lines, as `rg -c` sums them), then the first
/// `limit` groups (a symbol with its kind, lines, callers and dependents, and its matching
/// lines), and a `cut` note when groups were left out.
pub(crate) fn grep_json(r: &codegraph_engine::grep::GrepResult, limit: usize) -> Value {
    let groups: Vec<Value> = r
        .groups
        .iter()
        .take(limit)
        .map(|g| {
            let hits: Vec<Value> = g
                .lines
                .iter()
                .take(GREP_LINES_PER_GROUP)
                .map(|l| json!([l.line, l.text]))
                .collect();
            let mut v = match &g.symbol {
                Some(s) => json!({
                    "symbol": s.id,
                    "kind": s.kind,
                    "lines": format!("{}-{}", s.start_line, s.end_line),
                    "callers": s.callers,
                    "dependents": s.dependents,
                }),
                None => json!({ "symbol": null, "file": g.file }),
            };
            v["hits"] = Value::Array(hits);
            if g.lines.len() > GREP_LINES_PER_GROUP {
                v["more_lines"] = json!(g.lines.len() - GREP_LINES_PER_GROUP);
            }
            if g.changed {
                v["changed"] = json!(true);
            }
            v
        })
        .collect();
    let mut v = json!({
        "total": r.total_lines,
        "files": r.files,
        "files_searched": r.files_searched,
        "groups_total": r.groups.len(),
        "groups": groups,
    });
    let mut notes = Vec::new();
    if r.groups.len() > limit {
        v["cut"] = json!([{
            "list": "groups", "total": r.groups.len(), "offset": 0, "shown": limit,
        }]);
        notes.push(format!(
            "{} of {} groups shown: narrow the pattern or the path, or raise limit",
            limit,
            r.groups.len()
        ));
    }
    if r.groups.iter().any(|g| g.changed) {
        notes.push(
            "files marked changed differ from the indexed revision: their symbols' lines may be off until it is re-indexed"
                .into(),
        );
    }
    if !r.unreadable.is_empty() {
        let list: Vec<Value> = r.unreadable.iter().map(|(p, why)| json!([p, why])).collect();
        v["unreadable"] = Value::Array(list);
    }
    if !notes.is_empty() {
        v["notes"] = json!(notes);
    }
    v
}

fn rename_edit_json(e: &codegraph_engine::rename::RenameEdit) -> Value {
    json!({
        "path": e.path,
        "line": e.line,
        "col_start": e.col_start,
        "col_end": e.col_end,
        "old": e.old,
        "new": e.new,
        "confidence": round(e.confidence),
        "reason": e.reason,
    })
}

/// A rename plan: the edits grouped by file, the unsure mentions apart (never to apply
/// blindly), collisions and notes.
pub(crate) fn rename_json(p: &codegraph_engine::rename::RenamePlan) -> Value {
    let mut files: Vec<Value> = Vec::new();
    for e in &p.edits {
        match files.last_mut() {
            Some(f) if f["path"] == e.path => {
                if let Some(list) = f["edits"].as_array_mut() {
                    list.push(rename_edit_json(e));
                }
            }
            _ => files.push(json!({"path": e.path, "edits": [rename_edit_json(e)]})),
        }
    }
    json!({
        "target": node_ref(&p.target),
        "new_name": p.new_name,
        "edits_total": p.edits.len(),
        "files": files,
        "unsure": p.unsure.iter().map(rename_edit_json).collect::<Vec<_>>(),
        "unsure_total": p.unsure_total,
        "collisions": p.collisions,
        "outside_interfaces": p.outside_interfaces,
        "notes": p.notes,
    })
}

/// A rename plan as text: per file, `line:col-col  old -> new  reason confidence`.
pub(crate) fn rename_text(p: &codegraph_engine::rename::RenamePlan) -> String {
    let files: std::collections::BTreeSet<&str> = p.edits.iter().map(|e| e.path.as_str()).collect();
    let mut out = format!(
        "rename {} -> {}: {} edit(s) in {} file(s)\n",
        p.target.id,
        p.new_name,
        p.edits.len(),
        files.len()
    );
    let mut last: Option<&str> = None;
    for e in &p.edits {
        if last != Some(e.path.as_str()) {
            out.push_str(&format!("{}\n", e.path));
            last = Some(e.path.as_str());
        }
        out.push_str(&format!(
            "  {}:{}-{}  {} -> {}  {} {:.2}\n",
            e.line, e.col_start, e.col_end, e.old, e.new, e.reason, e.confidence
        ));
    }
    if p.unsure_total > 0 {
        out.push_str(&format!(
            "unsure, not in the plan ({}; comments, strings or another symbol of the same name):\n",
            p.unsure_total
        ));
        for e in p.unsure.iter().take(20) {
            out.push_str(&format!("  {}:{}:{}\n", e.path, e.line, e.col_start));
        }
        if p.unsure_total > 20 {
            out.push_str(&format!("  ... {} more (--json lists them)\n", p.unsure_total - 20));
        }
    }
    for c in &p.collisions {
        out.push_str(&format!("collision: {c} is already named {}\n", p.new_name));
    }
    for n in &p.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}
