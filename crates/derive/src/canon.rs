//! One canonical order for an input, so that every derivation is a function of the graph and
//! not of the order its rows arrived in.
//!
//! Nodes are ranked by ID (ties, which only duplicate IDs can cause, by their other fields);
//! the derivations work on ranks and translate back to input indexes only in their output.
//! Edges are kept in rank space, sorted by (source, target, kind, weight), after dropping the
//! ones that cannot be used: an index out of range, a kind outside the vocabulary, a weight
//! that is not a finite non-negative number.

use std::cmp::Ordering;

use codegraph_schema::{EdgeKind, NodeCategory, NodeKind};

use crate::input::{GraphInput, NodeIn};

/// An edge in rank space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub src: usize,
    pub dst: usize,
    pub kind: EdgeKind,
    pub weight: f64,
}

/// An input in canonical order.
pub(crate) struct Canon<'a> {
    input: &'a GraphInput,
    /// rank -> input index.
    order: Vec<usize>,
    /// rank -> kind.
    kinds: Vec<NodeKind>,
    /// Usable edges in rank space, sorted.
    pub edges: Vec<Edge>,
}

fn node_order(a: &NodeIn, b: &NodeIn) -> Ordering {
    a.id.cmp(&b.id)
        // By spelling, as when kinds were strings: derived IDs and orders stay as published.
        .then_with(|| a.kind.as_str().cmp(b.kind.as_str()))
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| a.file.cmp(&b.file))
        .then_with(|| a.start_line.cmp(&b.start_line))
        .then_with(|| a.end_line.cmp(&b.end_line))
        .then_with(|| a.exported.cmp(&b.exported))
        .then_with(|| a.is_test.cmp(&b.is_test))
}

impl<'a> Canon<'a> {
    pub fn new(input: &'a GraphInput) -> Self {
        let nodes = &input.nodes;
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by(|&a, &b| node_order(&nodes[a], &nodes[b]));
        let mut rank = vec![0usize; nodes.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let kinds = order.iter().map(|&i| nodes[i].kind).collect();
        let mut edges: Vec<Edge> = input
            .edges
            .iter()
            .filter_map(|e| {
                let src = *rank.get(e.src)?;
                let dst = *rank.get(e.dst)?;
                let kind = e.kind;
                (e.weight.is_finite() && e.weight >= 0.0).then_some(Edge {
                    src,
                    dst,
                    kind,
                    weight: e.weight,
                })
            })
            .collect();
        edges.sort_by(|a, b| {
            (a.src, a.dst, a.kind)
                .cmp(&(b.src, b.dst, b.kind))
                .then_with(|| a.weight.total_cmp(&b.weight))
        });
        Canon { input, order, kinds, edges }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// The input index of the node at rank `r`.
    pub fn index(&self, r: usize) -> usize {
        self.order[r]
    }

    /// The node at rank `r`.
    pub fn node(&self, r: usize) -> &'a NodeIn {
        &self.input.nodes[self.order[r]]
    }

    /// The kind of the node at rank `r`.
    pub fn kind(&self, r: usize) -> NodeKind {
        self.kinds[r]
    }

    /// Whether the node at rank `r` is a symbol (not a file, package, route, tool, process or
    /// cluster).
    pub fn is_symbol(&self, r: usize) -> bool {
        self.kinds[r].category() == NodeCategory::Symbol
    }
}
