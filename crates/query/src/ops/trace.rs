//! `trace`: how one symbol reaches another: the shortest paths over CALLS (and HAS_METHOD, so
//! a type reaches its methods), each hop with its confidence, each path with the product.
//!
//! Breadth-first from the source records, for every node, all edges that reach it at its
//! shortest distance; the shortest paths are read back from the target. When the target is
//! not reachable, the reverse direction is tried and the answer says so.

use super::{Direction, Graph};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use codegraph_schema::EdgeKind;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct TraceRequest {
    /// Edge kinds to follow; empty means CALLS and HAS_METHOD.
    pub kinds: Vec<EdgeKind>,
    pub max_depth: u32,
    pub max_paths: usize,
}

impl Default for TraceRequest {
    fn default() -> Self {
        TraceRequest { kinds: Vec::new(), max_depth: 8, max_paths: 3 }
    }
}

#[derive(Clone, Debug)]
pub struct TracePath {
    pub hops: Vec<EdgeRow>,
    /// Product of the hop weights.
    pub confidence: f64,
}

#[derive(Clone, Debug)]
pub struct Trace {
    pub revision: i64,
    pub stale: Option<bool>,
    pub from: NodeRow,
    pub to: NodeRow,
    /// True when no path leads from `from` to `to` and the paths shown lead from `to` to `from`.
    pub reversed: bool,
    /// Shortest paths, most confident first, then by their node IDs.
    pub paths: Vec<TracePath>,
    pub notes: Vec<String>,
}

/// Stop enumerating equally short paths after this many.
const MAX_ENUMERATED: usize = 1000;

impl Reader<'_> {
    pub fn trace(&self, from: &str, to: &str, req: &TraceRequest) -> Result<Trace, QueryError> {
        let mut g = Graph::new(self);
        let mut ends = Vec::new();
        for id in [from, to] {
            match g.nid(id)? {
                Some(nid) => ends.push(nid),
                None => {
                    return Err(QueryError::UnknownId {
                        id: id.to_string(),
                        suggestions: self.suggest(id)?,
                    });
                }
            }
        }
        let kinds: &[EdgeKind] =
            if req.kinds.is_empty() { &[EdgeKind::Calls, EdgeKind::HasMethod] } else { &req.kinds };
        let (a, b) = (ends[0], ends[1]);
        let mut reversed = false;
        let mut paths = shortest_paths(&g, a, b, kinds, req.max_depth)?;
        if paths.is_empty() && a != b {
            paths = shortest_paths(&g, b, a, kinds, req.max_depth)?;
            reversed = !paths.is_empty();
        }
        let truncated = paths.len() >= MAX_ENUMERATED;
        paths.sort_by(|x, y| {
            y.confidence.total_cmp(&x.confidence).then_with(|| {
                let ids = |p: &TracePath| p.hops.iter().map(|h| h.dst.clone()).collect::<Vec<_>>();
                ids(x).cmp(&ids(y))
            })
        });
        let total = paths.len();
        paths.truncate(req.max_paths.max(1));
        let mut notes = Vec::new();
        if total == 0 {
            let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
            notes.push(format!(
                "no path within {} hops over {} in either direction",
                req.max_depth,
                names.join(", ")
            ));
            let inside = g.unresolved_inside(from)? + g.unresolved_inside(to)?;
            if inside > 0 {
                notes.push(format!(
                    "{inside} call site(s) in the two symbols did not resolve: a path may exist that the index does not know"
                ));
            }
        } else {
            if reversed {
                notes.push(format!("no path from {from} to {to}; these lead from {to} to {from}"));
            }
            if total > paths.len() {
                notes.push(format!(
                    "{}{total} shortest path(s), {} shown",
                    if truncated { "at least " } else { "" },
                    paths.len()
                ));
            }
        }
        Ok(Trace {
            revision: self.revision(),
            stale: None,
            from: g.node(a)?.clone(),
            to: g.node(b)?.clone(),
            reversed,
            paths,
            notes,
        })
    }
}

/// All shortest paths from `a` to `b` (at most [`MAX_ENUMERATED`]); parallel edges between the
/// same two nodes count once (the strongest, then lowest line).
fn shortest_paths(
    g: &Graph<'_, '_>,
    a: i64,
    b: i64,
    kinds: &[EdgeKind],
    max_depth: u32,
) -> Result<Vec<TracePath>, QueryError> {
    if a == b {
        return Ok(vec![TracePath { hops: Vec::new(), confidence: 1.0 }]);
    }
    let mut dist: HashMap<i64, u32> = HashMap::from([(a, 0)]);
    // For each node, the edges that reach it at its shortest distance: (predecessor, edge).
    let mut preds: HashMap<i64, Vec<(i64, EdgeRow)>> = HashMap::new();
    let mut frontier = vec![a];
    let mut found = false;
    for depth in 1..=max_depth {
        let mut next = Vec::new();
        for &u in &frontier {
            // Hops are strongest first, so the first edge to a node is the one kept.
            for hop in g.hops(u, Direction::Out, kinds, usize::MAX)? {
                let d = *dist.entry(hop.other).or_insert_with(|| {
                    next.push(hop.other);
                    depth
                });
                if d != depth {
                    continue;
                }
                let list = preds.entry(hop.other).or_default();
                if !list.iter().any(|(p, _)| *p == u) {
                    list.push((u, hop.edge));
                }
            }
        }
        if dist.contains_key(&b) {
            found = true;
            break;
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    if !found {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut stack: Vec<EdgeRow> = Vec::new();
    collect(b, a, &preds, &mut stack, &mut out);
    Ok(out)
}

fn collect(
    node: i64,
    a: i64,
    preds: &HashMap<i64, Vec<(i64, EdgeRow)>>,
    stack: &mut Vec<EdgeRow>,
    out: &mut Vec<TracePath>,
) {
    if out.len() >= MAX_ENUMERATED {
        return;
    }
    if node == a {
        let hops: Vec<EdgeRow> = stack.iter().rev().cloned().collect();
        let confidence = hops.iter().map(|h| h.weight).product();
        out.push(TracePath { hops, confidence });
        return;
    }
    for (p, e) in preds.get(&node).map(Vec::as_slice).unwrap_or(&[]) {
        stack.push(e.clone());
        collect(*p, a, preds, stack, out);
        stack.pop();
    }
}
