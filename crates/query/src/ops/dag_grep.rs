//! DAG grep: an explanation subgraph for a text query, as the DAG-grep spec
//! (`shared/seeds/001`) describes it.
//!
//! 1. **Seeds**: full-text search with limit `k * 3` (per node kind when kinds are given),
//!    scores normalized into (0, 1), the top `k` kept. The spec's normalization is
//!    `1 / (1 + bm25)` for a lower-is-better BM25 cost; SQLite's `bm25()` is negative with
//!    more negative better, so with the relevance `r = -bm25` (times the exact-name boost of
//!    search) the same mapping reads `r / (1 + r)` = `1 - 1 / (1 + r)`: monotone, in (0, 1).
//! 2. **Weighted expansion**: a max-heap frontier keyed by score; an edge from a node at depth
//!    `d` with score `s` gives its other end `s * edge_weight * 0.85^(d + 1)`. A node keeps its
//!    best score and smallest depth and is expanded at most once per depth it improves to; at
//!    most `per_node_cap` edges are fetched per expansion (strongest first); `budget` is a hard
//!    cap on the distinct nodes of the answer, seeds and anchors included (seeds beyond it are
//!    dropped, and anchors fill only the room expansion left).
//! 3. **Anchoring**: the file (and Go package) of each symbol is added with a synthetic
//!    CONTAINS edge of weight 1.0 marked `anchor`, files before packages, while the budget
//!    allows; the answer says how many did not fit.
//! 4. **Layering**: seeds are layer 0; the other nodes get their breadth-first distance from
//!    the seeds over the discovered edges, oriented by the direction (`out`: src -> dst,
//!    `in`: dst -> src). Edges that advance a layer are forward edges; all others
//!    (cross-links, reverse links, same-layer links, cycles) are back-edges, not errors.
//! 5. **Output**: seeds, nodes, edges, layers, forward and back edges, stats, warnings, and
//!    optionally a `tree` or `mermaid` rendering.
//!
//! The spec's `structural` edge set is CALLS, REFERS_TO, IMPORTS, CONTAINS, IMPLEMENTS,
//! EMBEDS (Go embedding), TESTS; codegraph adds EXTENDS (TS/JS classes and interfaces that
//! extend, which the spec folds into EMBEDS). Only full-text seeding exists: the `semantic` and
//! `hybrid` modes (asked for by name; the default is fts) fall back to it, with a warning.

use super::{Direction, Graph};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use crate::search::SearchRequest;
use codegraph_schema::{EdgeKind, NodeCategory, NodeKind, ids};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;

/// The `structural` edge set: the spec's, with EXTENDS (classes and interfaces that
/// extend) next to EMBEDS (Go embedding).
pub const STRUCTURAL: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::RefersTo,
    EdgeKind::Imports,
    EdgeKind::Contains,
    EdgeKind::Implements,
    EdgeKind::Embeds,
    EdgeKind::Extends,
    EdgeKind::Tests,
];

/// Score decay per depth step.
pub const DECAY: f64 = 0.85;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Fts,
    Semantic,
    Hybrid,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Fts => "fts",
            Mode::Semantic => "semantic",
            Mode::Hybrid => "hybrid",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Render {
    Tree,
    Mermaid,
}

#[derive(Clone, Debug)]
pub struct DagGrepRequest {
    pub query: String,
    pub mode: Mode,
    pub k: usize,
    /// Keep only seeds of these node kinds (empty: any).
    pub node_kinds: Vec<String>,
    /// Named edge sets (`structural`); with `edge_types`, their union is traversed; both
    /// empty means `structural`.
    pub edge_sets: Vec<String>,
    pub edge_types: Vec<EdgeKind>,
    pub direction: Direction,
    pub depth: u32,
    pub budget: usize,
    pub per_node_cap: usize,
    pub include_anchors: bool,
    /// Also follow CO_CHANGED (files that usually change together; opt-in per index).
    pub include_cochange: bool,
    pub render: Option<Render>,
}

impl Default for DagGrepRequest {
    fn default() -> Self {
        DagGrepRequest {
            query: String::new(),
            mode: Mode::Fts,
            k: 10,
            node_kinds: Vec::new(),
            edge_sets: Vec::new(),
            edge_types: Vec::new(),
            direction: Direction::Out,
            depth: 2,
            budget: 80,
            per_node_cap: 20,
            include_anchors: true,
            include_cochange: false,
            render: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Seed,
    Reached,
    Anchor,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Seed => "seed",
            Role::Reached => "reached",
            Role::Anchor => "anchor",
        }
    }
}

#[derive(Clone, Debug)]
pub struct DagNode {
    pub node: NodeRow,
    pub role: Role,
    /// Seed score or best expansion score; 1.0 for anchors.
    pub score: f64,
    /// Smallest expansion depth (seeds 0); `None` for anchors.
    pub depth: Option<u32>,
    /// DAG layer (seeds 0); `None` for anchors.
    pub layer: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct DagEdge {
    pub edge: EdgeRow,
    /// A synthetic file/package anchor edge, not a stored one.
    pub anchor: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DagStats {
    pub seeds: usize,
    pub nodes: usize,
    pub edges: usize,
    pub forward_edges: usize,
    pub back_edges: usize,
    pub anchors: usize,
    pub expanded: usize,
    /// Distinct nodes not added because the budget was spent.
    pub budget_dropped: usize,
    /// Expansions that hit `per_node_cap`.
    pub capped: usize,
}

#[derive(Clone, Debug)]
pub struct DagGrep {
    pub revision: i64,
    pub stale: Option<bool>,
    pub query: String,
    pub direction: Direction,
    /// Seeds in score order.
    pub seeds: Vec<(String, f64)>,
    /// Seeds, then reached nodes by layer, score and ID, then anchors by ID.
    pub nodes: Vec<DagNode>,
    /// Every discovered edge (stored ones in discovery order, then anchors).
    pub edges: Vec<DagEdge>,
    /// Node IDs per layer, by score then ID.
    pub layers: Vec<Vec<String>>,
    pub forward: Vec<EdgeRow>,
    pub back_edges: Vec<EdgeRow>,
    pub stats: DagStats,
    pub warnings: Vec<String>,
    pub rendered: Option<String>,
}

/// Heap entry: highest score first, then the smaller depth, then the smaller ID.
struct Entry {
    score: f64,
    depth: u32,
    id: String,
    nid: i64,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then_with(|| other.depth.cmp(&self.depth))
            .then_with(|| other.id.cmp(&self.id))
    }
}

/// Edge kinds for a request: the union of named sets and explicit kinds, `structural` when
/// neither is given.
pub fn edge_kinds(sets: &[String], types: &[EdgeKind]) -> Result<Vec<EdgeKind>, QueryError> {
    let mut out: Vec<EdgeKind> = Vec::new();
    for s in sets {
        match s.as_str() {
            "structural" => out.extend(STRUCTURAL),
            other => return Err(QueryError::UnknownEdgeSet { set: other.to_string() }),
        }
    }
    out.extend(types);
    if out.is_empty() {
        out.extend(STRUCTURAL);
    }
    let mut seen = HashSet::new();
    out.retain(|k| seen.insert(*k));
    Ok(out)
}

impl Reader<'_> {
    pub fn dag_grep(&self, req: &DagGrepRequest) -> Result<DagGrep, QueryError> {
        let mut kinds = edge_kinds(&req.edge_sets, &req.edge_types)?;
        if req.include_cochange && !kinds.contains(&EdgeKind::CoChanged) {
            kinds.push(EdgeKind::CoChanged);
        }
        let node_kinds = req
            .node_kinds
            .iter()
            .map(|k| QueryError::node_kind(k))
            .collect::<Result<Vec<_>, _>>()?;
        let mut warnings = Vec::new();
        if req.mode != Mode::Fts {
            warnings.push(format!(
                "mode `{}` falls back to fts: there is no semantic index",
                req.mode.as_str()
            ));
        }
        let k = req.k.max(1);
        let mut g = Graph::new(self);

        // 1. Seeds.
        let kinds_to_search: Vec<Option<NodeKind>> = if node_kinds.is_empty() {
            vec![None]
        } else {
            node_kinds.iter().copied().map(Some).collect()
        };
        let mut hits = Vec::new();
        for kind in kinds_to_search {
            // Test code is part of an explanation: it ranks as BM25 says.
            let r = self.search(&SearchRequest {
                query: req.query.clone(),
                kind,
                limit: k * 3,
                include_tests: true,
            })?;
            if let Some(f) = r.fallback
                && f != crate::Fallback::Raw
            {
                warnings.push(format!(
                    "seeds came from the {} form of the query: {}",
                    f.as_str(),
                    r.fts_query
                ));
            }
            hits.extend(r.hits);
        }
        let mut seeds: Vec<(NodeRow, f64)> =
            hits.into_iter().map(|h| (h.node, h.relevance / (1.0 + h.relevance))).collect();
        seeds.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.id.cmp(&b.0.id)));
        let mut seen_seed = HashSet::new();
        seeds.retain(|(n, _)| seen_seed.insert(n.id.clone()));
        seeds.truncate(k);
        if seeds.is_empty() {
            warnings.push(format!("no node matches `{}`", req.query));
        }

        // 2. Weighted best-first expansion.
        let budget = req.budget.max(1);
        if seeds.len() > budget {
            warnings.push(format!(
                "budget of {budget} nodes: {} seed(s) beyond it dropped",
                seeds.len() - budget
            ));
            seeds.truncate(budget);
        }
        let cap = req.per_node_cap.max(1);
        let mut best: HashMap<i64, (f64, u32)> = HashMap::new();
        let mut order: Vec<i64> = Vec::new();
        let mut seed_nids = Vec::new();
        let mut heap = BinaryHeap::new();
        for (n, score) in &seeds {
            let Some(nid) = g.nid(&n.id)? else { continue };
            seed_nids.push(nid);
            best.insert(nid, (*score, 0));
            order.push(nid);
            heap.push(Entry { score: *score, depth: 0, id: n.id.clone(), nid });
        }
        let mut expanded_at: HashMap<i64, u32> = HashMap::new();
        let mut edges: Vec<(EdgeRow, i64, i64)> = Vec::new();
        let mut edge_keys: HashSet<(String, String, EdgeKind, u32)> = HashSet::new();
        let mut dropped: HashSet<i64> = HashSet::new();
        let mut stats = DagStats::default();
        while let Some(Entry { score, depth, nid, .. }) = heap.pop() {
            if depth >= req.depth || expanded_at.get(&nid).is_some_and(|&d| d <= depth) {
                continue;
            }
            expanded_at.insert(nid, depth);
            stats.expanded += 1;
            let mut hops = g.hops(nid, req.direction, &kinds, cap + 1)?;
            if hops.len() > cap {
                hops.truncate(cap);
                stats.capped += 1;
            }
            let next_depth = depth + 1;
            let decay = DECAY.powi(next_depth as i32);
            for hop in hops {
                let next_score = score * hop.edge.weight * decay;
                match best.get_mut(&hop.other) {
                    Some(b) => {
                        let improved = next_score > b.0 || next_depth < b.1;
                        b.0 = b.0.max(next_score);
                        b.1 = b.1.min(next_depth);
                        if improved {
                            let id = g.node(hop.other)?.id.clone();
                            heap.push(Entry {
                                score: next_score,
                                depth: next_depth,
                                id,
                                nid: hop.other,
                            });
                        }
                    }
                    None if order.len() < budget => {
                        best.insert(hop.other, (next_score, next_depth));
                        order.push(hop.other);
                        let id = g.node(hop.other)?.id.clone();
                        heap.push(Entry {
                            score: next_score,
                            depth: next_depth,
                            id,
                            nid: hop.other,
                        });
                    }
                    None => {
                        dropped.insert(hop.other);
                        continue;
                    }
                }
                let e = &hop.edge;
                if edge_keys.insert((e.src.clone(), e.dst.clone(), e.kind, e.line)) {
                    let (s, d) = match req.direction {
                        Direction::Out => (nid, hop.other),
                        Direction::In => (hop.other, nid),
                    };
                    edges.push((hop.edge, s, d));
                }
            }
        }
        stats.budget_dropped = dropped.len();

        // 4. Layering over oriented edges (anchors excluded).
        let mut adj: HashMap<i64, Vec<i64>> = HashMap::new();
        for (_, s, d) in &edges {
            let (from, to) = match req.direction {
                Direction::Out => (*s, *d),
                Direction::In => (*d, *s),
            };
            adj.entry(from).or_default().push(to);
        }
        let mut layer: HashMap<i64, u32> = HashMap::new();
        let mut queue = VecDeque::new();
        for &s in &seed_nids {
            if layer.insert(s, 0).is_none() {
                queue.push_back(s);
            }
        }
        while let Some(u) = queue.pop_front() {
            let lu = layer[&u];
            for &v in adj.get(&u).map(Vec::as_slice).unwrap_or(&[]) {
                if let std::collections::hash_map::Entry::Vacant(e) = layer.entry(v) {
                    e.insert(lu + 1);
                    queue.push_back(v);
                }
            }
        }
        let mut forward = Vec::new();
        let mut back_edges = Vec::new();
        for (e, s, d) in &edges {
            let (from, to) = match req.direction {
                Direction::Out => (s, d),
                Direction::In => (d, s),
            };
            match (layer.get(from), layer.get(to)) {
                (Some(a), Some(b)) if a < b => forward.push(e.clone()),
                _ => back_edges.push(e.clone()),
            }
        }

        // Nodes: seeds, then by layer, score, ID.
        let seed_set: HashSet<i64> = seed_nids.iter().copied().collect();
        let mut nodes: Vec<DagNode> = Vec::new();
        for &nid in &order {
            let (score, depth) = best[&nid];
            nodes.push(DagNode {
                node: g.node(nid)?.clone(),
                role: if seed_set.contains(&nid) { Role::Seed } else { Role::Reached },
                score,
                depth: Some(depth),
                layer: layer.get(&nid).copied(),
            });
        }
        nodes.sort_by(|a, b| {
            (a.role != Role::Seed, a.layer.unwrap_or(u32::MAX))
                .cmp(&(b.role != Role::Seed, b.layer.unwrap_or(u32::MAX)))
                .then_with(|| b.score.total_cmp(&a.score))
                .then_with(|| a.node.id.cmp(&b.node.id))
        });
        let mut layers: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for n in &nodes {
            if let Some(l) = n.layer {
                layers.entry(l).or_default().push(n.node.id.clone());
            }
        }

        let mut dag_edges: Vec<DagEdge> =
            edges.into_iter().map(|(edge, _, _)| DagEdge { edge, anchor: false }).collect();

        // 3. Anchors.
        if req.include_anchors {
            let in_graph: HashSet<String> = nodes.iter().map(|n| n.node.id.clone()).collect();
            let mut anchors: BTreeMap<String, NodeRow> = BTreeMap::new();
            let mut anchor_edges: Vec<EdgeRow> = Vec::new();
            let has_edge = |edges: &[DagEdge], src: &str, dst: &str| {
                edges.iter().any(|e| e.edge.src == src && e.edge.dst == dst)
            };
            let mut files_seen: HashSet<String> = HashSet::new();
            for n in &nodes {
                let file_id = match n.node.kind {
                    NodeKind::Package => continue,
                    NodeKind::File => n.node.id.clone(),
                    _ => match &n.node.file {
                        Some(f) => ids::file(f),
                        None => continue,
                    },
                };
                if file_id != n.node.id && !has_edge(&dag_edges, &file_id, &n.node.id) {
                    anchor_edges.push(anchor_edge(&file_id, &n.node.id));
                }
                if !files_seen.insert(file_id.clone()) {
                    continue;
                }
                let Some(file_nid) = g.nid(&file_id)? else { continue };
                let file = g.node(file_nid)?.clone();
                if let Some(pkg) = file.parent.clone().filter(|p| ids::is(p, NodeCategory::Package))
                    && !has_edge(&dag_edges, &pkg, &file_id)
                {
                    anchor_edges.push(anchor_edge(&pkg, &file_id));
                    if !in_graph.contains(&pkg)
                        && let Some(pkg_nid) = g.nid(&pkg)?
                    {
                        anchors.insert(pkg.clone(), g.node(pkg_nid)?.clone());
                    }
                }
                if !in_graph.contains(&file_id) {
                    anchors.insert(file_id, file);
                }
            }
            // Anchors fill the room the expansion left (files sort before packages).
            let room = budget.saturating_sub(nodes.len());
            if anchors.len() > room {
                warnings.push(format!(
                    "budget of {budget} nodes reached: {} anchor node(s) not added",
                    anchors.len() - room
                ));
            }
            let anchors: Vec<(String, NodeRow)> = anchors.into_iter().take(room).collect();
            let present: HashSet<&str> = in_graph
                .iter()
                .map(String::as_str)
                .chain(anchors.iter().map(|(id, _)| id.as_str()))
                .collect();
            anchor_edges
                .retain(|e| present.contains(e.src.as_str()) && present.contains(e.dst.as_str()));
            anchor_edges.sort_by(|a, b| (&a.src, &a.dst).cmp(&(&b.src, &b.dst)));
            stats.anchors = anchors.len();
            for (_, node) in anchors {
                nodes.push(DagNode {
                    node,
                    role: Role::Anchor,
                    score: 1.0,
                    depth: None,
                    layer: None,
                });
            }
            dag_edges.extend(anchor_edges.into_iter().map(|edge| DagEdge { edge, anchor: true }));
        }

        stats.seeds = seeds.len();
        stats.nodes = nodes.len();
        stats.edges = dag_edges.len();
        stats.forward_edges = forward.len();
        stats.back_edges = back_edges.len();
        if stats.budget_dropped > 0 {
            warnings.push(format!(
                "budget of {budget} nodes reached: {} more node(s) not added",
                stats.budget_dropped
            ));
        }
        if stats.capped > 0 {
            warnings.push(format!(
                "per_node_cap {cap} reached at {} node(s): their further edges were not fetched",
                stats.capped
            ));
        }
        let mut out = DagGrep {
            revision: self.revision(),
            stale: None,
            query: req.query.clone(),
            direction: req.direction,
            seeds: seeds.into_iter().map(|(n, s)| (n.id, s)).collect(),
            nodes,
            edges: dag_edges,
            layers: layers.into_values().collect(),
            forward,
            back_edges,
            stats,
            warnings,
            rendered: None,
        };
        out.rendered = req.render.map(|r| match r {
            Render::Tree => render_tree(&out),
            Render::Mermaid => render_mermaid(&out),
        });
        Ok(out)
    }
}

fn anchor_edge(src: &str, dst: &str) -> EdgeRow {
    EdgeRow {
        src: src.to_string(),
        dst: dst.to_string(),
        kind: EdgeKind::Contains,
        weight: 1.0,
        reason: "structural".to_string(),
        line: 0,
    }
}

/// ASCII tree: each seed with its forward edges below it (a node reached again is marked
/// `(see above)`), back-edges as `back-edge` lines, then anchors and warnings.
pub fn render_tree(r: &DagGrep) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "dag_grep `{}` ({}): {} seed(s), {} node(s), {} edge(s): {} forward, {} back, {} anchor node(s)",
        r.query,
        r.direction.as_str(),
        r.stats.seeds,
        r.stats.nodes,
        r.stats.edges,
        r.stats.forward_edges,
        r.stats.back_edges,
        r.stats.anchors
    );
    let by_id: HashMap<&str, &DagNode> = r.nodes.iter().map(|n| (n.node.id.as_str(), n)).collect();
    // Oriented children: (edge, child id); back-edges per node.
    let mut children: HashMap<&str, Vec<(&EdgeRow, &str)>> = HashMap::new();
    let mut backs: HashMap<&str, Vec<(&EdgeRow, &str)>> = HashMap::new();
    for (list, map) in [(&r.forward, &mut children), (&r.back_edges, &mut backs)] {
        for e in list {
            let (from, to) = match r.direction {
                Direction::Out => (e.src.as_str(), e.dst.as_str()),
                Direction::In => (e.dst.as_str(), e.src.as_str()),
            };
            let list = map.entry(from).or_default();
            // Parallel edges (one per call site) are one branch in the tree.
            if !list.iter().any(|(x, t)| *t == to && x.kind == e.kind) {
                list.push((e, to));
            }
        }
    }
    let score = |id: &str| by_id.get(id).map_or(0.0, |n| n.score);
    for list in children.values_mut() {
        list.sort_by(|a, b| score(b.1).total_cmp(&score(a.1)).then_with(|| a.1.cmp(b.1)));
    }
    for list in backs.values_mut() {
        list.sort_by(|a, b| a.1.cmp(b.1).then_with(|| a.0.kind.cmp(&b.0.kind)));
    }
    let label = |id: &str| -> String {
        match by_id.get(id) {
            Some(n) => format!("{id} [{}] {:.3}", n.node.kind, n.score),
            None => id.to_string(),
        }
    };
    let arrow = |e: &EdgeRow| match r.direction {
        Direction::Out => format!("-{}->", e.kind),
        Direction::In => format!("<-{}-", e.kind),
    };
    let mut printed: HashSet<&str> = HashSet::new();
    #[expect(clippy::too_many_arguments)]
    fn walk<'a>(
        out: &mut String,
        id: &'a str,
        prefix: &str,
        children: &HashMap<&'a str, Vec<(&'a EdgeRow, &'a str)>>,
        backs: &HashMap<&'a str, Vec<(&'a EdgeRow, &'a str)>>,
        printed: &mut HashSet<&'a str>,
        label: &dyn Fn(&str) -> String,
        arrow: &dyn Fn(&EdgeRow) -> String,
    ) {
        let kids: Vec<(&EdgeRow, &str, bool)> = children
            .get(id)
            .into_iter()
            .flatten()
            .map(|&(e, c)| (e, c, false))
            .chain(backs.get(id).into_iter().flatten().map(|&(e, c)| (e, c, true)))
            .collect();
        for (i, (e, child, back)) in kids.iter().enumerate() {
            let last = i + 1 == kids.len();
            let (branch, cont) = if last { ("`-- ", "    ") } else { ("+-- ", "|   ") };
            if *back {
                let _ = writeln!(out, "{prefix}{branch}back-edge {} {child}", arrow(e));
            } else if printed.insert(child) {
                let _ = writeln!(out, "{prefix}{branch}{} {}", arrow(e), label(child));
                let next = format!("{prefix}{cont}");
                walk(out, child, &next, children, backs, printed, label, arrow);
            } else {
                let _ = writeln!(out, "{prefix}{branch}{} {child} (see above)", arrow(e));
            }
        }
    }
    for (seed, _) in &r.seeds {
        if !printed.insert(seed.as_str()) {
            let _ = writeln!(out, "{} (seed, see above)", seed);
            continue;
        }
        let _ = writeln!(out, "{} (seed)", label(seed));
        walk(&mut out, seed, "", &children, &backs, &mut printed, &label, &arrow);
    }
    let mut anchored: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in r.edges.iter().filter(|e| e.anchor) {
        anchored.entry(e.edge.src.as_str()).or_default().push(e.edge.dst.as_str());
    }
    for (a, members) in anchored {
        let _ = writeln!(out, "anchor {a} contains {}", members.join(", "));
    }
    for w in &r.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

/// Mermaid flowchart: stored edge direction, back-edges dotted, anchor edges as dotted links,
/// seeds in bold. Parallel edges (one per call site) are drawn once, labelled with their
/// count. The text is a valid Mermaid document on its own: anything else (the revision,
/// warnings) goes in `%%` comment lines after the diagram type.
pub fn render_mermaid(r: &DagGrep) -> String {
    let mut out = String::from("flowchart LR\n");
    let _ = writeln!(
        out,
        "  %% dag_grep `{}` ({}), revision {}{}",
        r.query.replace('\n', " "),
        r.direction.as_str(),
        r.revision,
        if r.stale == Some(true) { ", stale" } else { "" }
    );
    for w in &r.warnings {
        let _ = writeln!(out, "  %% warning: {}", w.replace('\n', " "));
    }
    let index: HashMap<&str, usize> =
        r.nodes.iter().enumerate().map(|(i, n)| (n.node.id.as_str(), i)).collect();
    let esc = |s: &str| s.replace('"', "#quot;").replace('<', "#lt;").replace('>', "#gt;");
    for (i, n) in r.nodes.iter().enumerate() {
        let where_ = n.node.file.as_deref().unwrap_or(&n.node.qualified_name);
        let name =
            if n.node.kind == NodeKind::File { &n.node.name } else { &n.node.qualified_name };
        let _ = writeln!(out, "  n{i}[\"{}<br/>{} · {}\"]", esc(name), n.node.kind, esc(where_));
    }
    let back: HashSet<(&str, &str, &str, u32)> = r
        .back_edges
        .iter()
        .map(|e| (e.src.as_str(), e.dst.as_str(), e.kind.as_str(), e.line))
        .collect();
    // (source, target, kind, style) -> how many stored edges, in first-seen order.
    type Link<'a> = (usize, usize, &'a str, u8);
    let mut drawn: Vec<(Link<'_>, usize)> = Vec::new();
    for e in &r.edges {
        let (Some(&s), Some(&d)) = (index.get(e.edge.src.as_str()), index.get(e.edge.dst.as_str()))
        else {
            continue;
        };
        let key = (e.edge.src.as_str(), e.edge.dst.as_str(), e.edge.kind.as_str(), e.edge.line);
        let style = if e.anchor {
            0
        } else if back.contains(&key) {
            1
        } else {
            2
        };
        let k = (s, d, e.edge.kind.as_str(), style);
        match drawn.iter_mut().find(|(x, _)| *x == k) {
            Some((_, n)) => *n += 1,
            None => drawn.push((k, 1)),
        }
    }
    for ((s, d, kind, style), n) in drawn {
        let label = if n > 1 { format!("{kind} x{n}") } else { kind.to_string() };
        let _ = match style {
            0 => writeln!(out, "  n{s} -.- n{d}"),
            1 => writeln!(out, "  n{s} -.->|{label}| n{d}"),
            _ => writeln!(out, "  n{s} -->|{label}| n{d}"),
        };
    }
    let seeds: Vec<String> = r
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.role == Role::Seed)
        .map(|(i, _)| format!("n{i}"))
        .collect();
    if !seeds.is_empty() {
        out.push_str("  classDef seed stroke-width:3px\n");
        let _ = writeln!(out, "  class {} seed", seeds.join(","));
    }
    out
}
