//! The JSON shape of every answer, shared by the CLI's `--json` output and the MCP server's
//! tool results, so that an agent and a script read the same fields. Every answer carries the
//! `revision` it was read from and `stale`; node and edge objects have one compact form.

use codegraph_query::ops::changed::ChangedImpact;
use codegraph_query::ops::context::{CallLink, Link, SymbolContext};
use codegraph_query::ops::dag_grep::DagGrep;
use codegraph_query::ops::endpoints::{EndpointAnswer, EndpointProps};
use codegraph_query::ops::expand::Expansion;
use codegraph_query::ops::impact::Impact;
use codegraph_query::ops::trace::Trace;
use codegraph_query::{ClusterRef, DerivedStamp, EdgeRow, Flow, FlowRef, ImpactFlow, NodeRow};
use serde_json::{Value, json};
use std::path::Path;

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

pub(crate) fn edge_brief(e: &EdgeRow) -> Value {
    json!({
        "src": e.src,
        "dst": e.dst,
        "kind": e.kind,
        "weight": e.weight,
        "reason": e.reason,
        "line": (e.line > 0).then_some(e.line),
    })
}

pub(crate) fn link_json(l: &Link) -> Value {
    json!({"dir": l.dir.as_str(), "node": node_brief(&l.node), "edge": edge_brief(&l.edge)})
}

pub(crate) fn call_json(c: &CallLink) -> Value {
    json!({"node": node_brief(&c.node), "lines": c.lines, "weight": c.weight, "reason": c.reason})
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

pub(crate) fn cluster_json(c: &ClusterRef) -> Value {
    json!({"id": c.id, "label": c.label, "cohesion": round(c.cohesion), "size": c.size})
}

fn impact_flow_json(f: &ImpactFlow) -> Value {
    let mut v = flow_ref_json(&f.flow);
    v["via"] = json!(f.via);
    v["depth"] = json!(f.depth);
    v
}

pub(crate) fn context_json(c: &SymbolContext) -> Value {
    let links = |v: &[Link]| Value::Array(v.iter().map(link_json).collect());
    json!({
        "revision": c.revision,
        "stale": c.stale,
        "symbol": {
            "signature": c.symbol.signature,
            "doc": c.symbol.doc,
            "exported": c.symbol.exported,
            "node": node_brief(&c.symbol),
        },
        "containers": links(&c.containers),
        "members": links(&c.members),
        "callers": c.callers.iter().map(call_json).collect::<Vec<_>>(),
        "callees": c.callees.iter().map(call_json).collect::<Vec<_>>(),
        "heritage": links(&c.heritage),
        "references": links(&c.references),
        "imported_by": links(&c.imported_by),
        "file_imports": links(&c.file_imports),
        "file_importers": links(&c.file_importers),
        "related_files": c.related_files.iter().map(|(f, n)| json!({"file": f, "links": n})).collect::<Vec<_>>(),
        "unresolved_calls": c.unresolved_calls.iter().map(|(l, callee)| json!({"line": l, "callee": callee})).collect::<Vec<_>>(),
        "routes": links(&endpoint_links(c, "route", "HANDLES_ROUTE")),
        "tools": links(&endpoint_links(c, "tool", "HANDLES_TOOL")),
        "processes": c.processes.iter().map(flow_ref_json).collect::<Vec<_>>(),
        "cluster": c.cluster.as_ref().map(cluster_json),
        "flows_at": flows_at_json(c.flows_at.as_ref(), c.revision),
        "notes": c.notes,
    })
}

pub(crate) fn impact_json(i: &Impact) -> Value {
    let counts = |v: &[(String, u32)], key: &str| -> Vec<Value> {
        v.iter().map(|(k, n)| json!({ key: k, "nodes": n })).collect()
    };
    json!({
        "revision": i.revision,
        "stale": i.stale,
        "direction": i.direction.as_str(),
        "targets": i.targets.iter().map(node_brief).collect::<Vec<_>>(),
        "risk": i.risk.as_str(),
        "summary": {"direct": i.direct, "reached": i.reached(), "files": i.files, "modules": i.modules, "dispatch": i.dispatch, "target_parts": i.parts},
        "levels": i.levels.iter().enumerate().map(|(d, level)| json!({
            "depth": d + 1,
            "nodes": level.iter().map(|n| {
                let mut v = json!({
                    "node": node_brief(&n.node),
                    "confidence": round(n.confidence),
                    "via": edge_brief(&n.via),
                });
                if let Some(d) = &n.dispatch {
                    v["dispatch"] = json!(d);
                }
                v
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "affected_files": counts(&i.affected_files, "file"),
        "affected_modules": counts(&i.affected_modules, "module"),
        "flows": i.flows.iter().map(impact_flow_json).collect::<Vec<_>>(),
        "flows_total": i.flows_total,
        "flows_at": flows_at_json(i.flows_at.as_ref(), i.revision),
        "notes": i.notes,
    })
}

pub(crate) fn changed_json(c: &ChangedImpact) -> Value {
    // The outer answer carries `revision` and `stale` once.
    let mut impact = impact_json(&c.impact);
    if let Value::Object(m) = &mut impact {
        m.remove("revision");
        m.remove("stale");
    }
    json!({
        "revision": c.revision,
        "stale": c.stale,
        "files": c.files.iter().map(|f| json!({
            "path": f.path,
            "change": f.kind.as_str(),
            "hunks": f.hunks,
            "indexed": f.indexed,
            "symbols": f.symbols,
        })).collect::<Vec<_>>(),
        "symbols": c.symbols.iter().map(node_brief).collect::<Vec<_>>(),
        "impact": impact,
        "notes": c.notes,
    })
}

pub(crate) fn trace_json(t: &Trace) -> Value {
    json!({
        "revision": t.revision,
        "stale": t.stale,
        "from": node_brief(&t.from),
        "to": node_brief(&t.to),
        "reversed": t.reversed,
        "paths": t.paths.iter().map(|p| json!({
            "confidence": round(p.confidence),
            "hops": p.hops.iter().map(edge_brief).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "notes": t.notes,
    })
}

pub(crate) fn expand_json(e: &Expansion) -> Value {
    json!({
        "revision": e.revision,
        "stale": e.stale,
        "seed": e.seed.id,
        "nodes": e.nodes.iter().map(|(n, d)| {
            let mut v = node_brief(n);
            v["depth"] = json!(d);
            v
        }).collect::<Vec<_>>(),
        "edges": e.edges.iter().map(edge_brief).collect::<Vec<_>>(),
        "notes": e.notes,
    })
}

pub(crate) fn dag_json(d: &DagGrep) -> Value {
    json!({
        "revision": d.revision,
        "stale": d.stale,
        "query": d.query,
        "direction": d.direction.as_str(),
        "seeds": d.seeds.iter().map(|(id, s)| json!({"id": id, "score": round(*s)})).collect::<Vec<_>>(),
        "graph": {
            "nodes": d.nodes.iter().map(|n| {
                let mut v = node_brief(&n.node);
                v["role"] = json!(n.role.as_str());
                v["score"] = json!(round(n.score));
                v["layer"] = json!(n.layer);
                v
            }).collect::<Vec<_>>(),
            "edges": d.edges.iter().map(|e| {
                let mut v = edge_brief(&e.edge);
                if e.anchor {
                    v["anchor"] = json!(true);
                }
                v
            }).collect::<Vec<_>>(),
        },
        "dag": {
            "layers": d.layers,
            "edges": d.forward.iter().map(edge_brief).collect::<Vec<_>>(),
            "back_edges": d.back_edges.iter().map(edge_brief).collect::<Vec<_>>(),
        },
        "stats": {
            "seeds": d.stats.seeds,
            "nodes": d.stats.nodes,
            "edges": d.stats.edges,
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

/// The lines of a node's source (at most 200), read from the root; `None` when unavailable.
pub(crate) fn source_lines(root: &Path, n: &NodeRow) -> Option<(u32, Vec<String>)> {
    const MAX: usize = 200;
    let file = n.file.as_ref()?;
    if n.kind == "file" || n.kind == "package" {
        return None;
    }
    let (start, end) = (n.start_line?, n.end_line?);
    let bytes = std::fs::read(root.join(file)).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<String> = text
        .lines()
        .skip(start.saturating_sub(1) as usize)
        .take((end.saturating_sub(start) as usize + 1).min(MAX))
        .map(str::to_string)
        .collect();
    Some((start, lines))
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
    if let Some(p) = &n.props {
        v["props"] = props_json(&EndpointProps::parse(p));
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
fn endpoint_links(c: &SymbolContext, kind: &str, edge: &str) -> Vec<Link> {
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
    if p.kind == "tool" {
        v["fields"] = json!(p.fields);
    }
    v
}

/// The answer of `route_impact` / `tool_context`.
pub(crate) fn endpoints_json(a: &EndpointAnswer) -> Value {
    json!({
        "revision": a.revision,
        "stale": a.stale,
        "query": a.query,
        "matches": a.matches.iter().map(|m| {
            let mut n = node_brief(&m.node);
            n["signature"] = json!(m.node.signature);
            if let Some(d) = &m.node.doc {
                n["description"] = json!(d);
            }
            json!({
                "endpoint": n,
                "props": props_json(&m.props),
                "matched_by": m.matched_by,
                "handlers": m.handlers.iter().map(|l| json!({"node": node_brief(&l.node), "edge": edge_brief(&l.edge)})).collect::<Vec<_>>(),
                "handler_callers": m.handler_callers.iter().map(call_json).collect::<Vec<_>>(),
                "handler_callees": m.handler_callees.iter().map(call_json).collect::<Vec<_>>(),
                "consumers": m.consumers.iter().map(call_json).collect::<Vec<_>>(),
                "flows": m.flows.iter().map(flow_json).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
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
        QueryError::Ambiguous { candidates, .. } => {
            v["error"] = json!("ambiguous");
            v["message"] = json!(format!(
                "`{query}` names {} nodes: pass one of these IDs, or narrow with {hint}",
                candidates.len()
            ));
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
        QueryError::NotFound { suggestions, .. } | QueryError::UnknownId { suggestions, .. } => {
            v["error"] = json!("not_found");
            v["suggestions"] = json!(suggestions);
        }
        _ => return None,
    }
    Some(v)
}
