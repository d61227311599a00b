//! `expand`: the typed neighbourhood of one node, breadth-first, in one direction, up to a
//! depth and a budget of distinct nodes: the raw navigation step that agents chain.
//!
//! Neighbours are taken strongest edge first, then by ID, so a budget cut keeps the most
//! confident part and the same snapshot always gives the same answer.

use super::{Direction, Graph};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use codegraph_schema::EdgeKind;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct ExpandRequest {
    /// Edge kinds to follow; empty means every kind.
    pub kinds: Vec<EdgeKind>,
    pub direction: Direction,
    pub depth: u32,
    /// Maximum distinct nodes in the answer, the seed included.
    pub budget: usize,
}

impl Default for ExpandRequest {
    fn default() -> Self {
        ExpandRequest { kinds: Vec::new(), direction: Direction::Out, depth: 2, budget: 50 }
    }
}

#[derive(Clone, Debug)]
pub struct Expansion {
    pub revision: i64,
    pub stale: Option<bool>,
    pub seed: NodeRow,
    /// Every node with the depth it was first reached at (the seed at 0), in discovery order.
    pub nodes: Vec<(NodeRow, u32)>,
    /// Every followed edge between two nodes of the answer, in discovery order.
    pub edges: Vec<EdgeRow>,
    pub notes: Vec<String>,
}

impl Reader<'_> {
    pub fn expand(&self, seed: &str, req: &ExpandRequest) -> Result<Expansion, QueryError> {
        let mut g = Graph::new(self);
        let Some(seed_nid) = g.nid(seed)? else {
            return Err(QueryError::UnknownId {
                id: seed.to_string(),
                suggestions: self.suggest(seed)?,
            });
        };
        let budget = req.budget.max(1);
        let mut depth_of: HashMap<i64, u32> = HashMap::from([(seed_nid, 0)]);
        let mut nodes = vec![(g.node(seed_nid)?.clone(), 0)];
        let mut edges = Vec::new();
        let mut seen_edges: HashSet<(String, String, EdgeKind, u32)> = HashSet::new();
        let mut frontier = vec![seed_nid];
        let mut left_out: HashSet<i64> = HashSet::new();
        let mut depth_cut = false;
        for depth in 1..=req.depth.max(1) {
            let mut next = Vec::new();
            for &nid in &frontier {
                for hop in g.hops(nid, req.direction, &req.kinds, usize::MAX)? {
                    if !depth_of.contains_key(&hop.other) {
                        if depth_of.len() >= budget {
                            left_out.insert(hop.other);
                            continue;
                        }
                        depth_of.insert(hop.other, depth);
                        nodes.push((g.node(hop.other)?.clone(), depth));
                        next.push(hop.other);
                    }
                    let e = &hop.edge;
                    if seen_edges.insert((e.src.clone(), e.dst.clone(), e.kind, e.line)) {
                        edges.push(hop.edge);
                    }
                }
            }
            frontier = next;
            if frontier.is_empty() {
                break;
            }
            if depth == req.depth.max(1) {
                depth_cut = frontier.iter().try_fold(false, |more, &nid| {
                    Ok::<_, QueryError>(
                        more || g
                            .hops(nid, req.direction, &req.kinds, usize::MAX)?
                            .iter()
                            .any(|h| !depth_of.contains_key(&h.other)),
                    )
                })?;
            }
        }
        let mut notes = Vec::new();
        if !left_out.is_empty() {
            notes.push(format!(
                "budget of {budget} nodes reached: {} more neighbour(s) left out",
                left_out.len()
            ));
        }
        if depth_cut {
            notes.push(format!("depth limit {} reached: more nodes lie beyond", req.depth.max(1)));
        }
        Ok(Expansion {
            revision: self.revision(),
            stale: None,
            seed: nodes[0].0.clone(),
            nodes,
            edges,
            notes,
        })
    }
}
