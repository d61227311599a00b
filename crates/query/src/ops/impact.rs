//! `impact`: what a change to some symbols can reach, level by level.
//!
//! Upstream follows dependency edges backwards (who calls, imports, extends, implements, owns
//! the symbol: the code that may break), downstream forwards (what the symbol relies on). The
//! walk is breadth-first, so every node is reported at its shortest distance, with the edge
//! that reached it (the strongest one from the previous level) and the product of the
//! confidences along that path. Edges below the confidence floor are not followed; test code
//! is left out unless asked for (and counted).
//!
//! # Risk rule
//!
//! Over the non-test nodes reached: `direct` = nodes at depth 1, `files` = distinct files of
//! reached nodes other than the targets' own files, `modules` = distinct directories of those
//! files other than the targets' own directories. The risk is the highest level whose any
//! threshold is met:
//!
//! | level    | direct | files | modules |
//! | -------- | ------ | ----- | ------- |
//! | critical | >= 25  | >= 25 | >= 10   |
//! | high     | >= 10  | >= 10 | >= 4    |
//! | medium   | >= 3   | >= 3  | >= 2    |
//! | low      | otherwise (including nothing reached) |

use super::{Direction, Graph, dir_of, is_test_path};
use crate::derived::{DerivedStamp, ImpactFlow};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use codegraph_schema::EdgeKind;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Dependency edges followed by default (not CONTAINS/DEFINES: being in the same file is not a
/// dependency).
pub const DEFAULT_IMPACT_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::Imports,
    EdgeKind::Extends,
    EdgeKind::Implements,
    EdgeKind::HasMethod,
    EdgeKind::HasProperty,
    EdgeKind::Accesses,
    EdgeKind::HandlesRoute,
    EdgeKind::HandlesTool,
    EdgeKind::Fetches,
];

/// Upstream: who depends on the targets (edges followed against their direction);
/// downstream: what the targets depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpactDirection {
    Upstream,
    Downstream,
}

impl ImpactDirection {
    pub fn as_str(self) -> &'static str {
        match self {
            ImpactDirection::Upstream => "upstream",
            ImpactDirection::Downstream => "downstream",
        }
    }

    fn edges(self) -> Direction {
        match self {
            ImpactDirection::Upstream => Direction::In,
            ImpactDirection::Downstream => Direction::Out,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ImpactRequest {
    pub direction: ImpactDirection,
    /// Edge kinds to follow; empty means [`DEFAULT_IMPACT_KINDS`].
    pub kinds: Vec<EdgeKind>,
    pub max_depth: u32,
    /// Edges with a lower weight are not followed.
    pub min_confidence: f64,
    pub include_tests: bool,
    /// Stop adding nodes after this many (the answer says so).
    pub max_nodes: usize,
}

impl Default for ImpactRequest {
    fn default() -> Self {
        ImpactRequest {
            direction: ImpactDirection::Upstream,
            kinds: Vec::new(),
            max_depth: 3,
            min_confidence: 0.0,
            include_tests: false,
            max_nodes: 1000,
        }
    }
}

/// A node reached at `depth` through `via` (the stored edge), with the product of the
/// confidences from a target.
#[derive(Clone, Debug)]
pub struct ImpactNode {
    pub node: NodeRow,
    pub depth: u32,
    pub via: EdgeRow,
    pub confidence: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    Low,
    Medium,
    High,
    Critical,
}

impl Risk {
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }

    /// The rule of the module doc.
    pub fn assess(direct: usize, files: usize, modules: usize) -> Risk {
        if direct >= 25 || files >= 25 || modules >= 10 {
            Risk::Critical
        } else if direct >= 10 || files >= 10 || modules >= 4 {
            Risk::High
        } else if direct >= 3 || files >= 3 || modules >= 2 {
            Risk::Medium
        } else {
            Risk::Low
        }
    }
}

#[derive(Clone, Debug)]
pub struct Impact {
    pub revision: i64,
    pub stale: Option<bool>,
    pub direction: ImpactDirection,
    pub targets: Vec<NodeRow>,
    /// `levels[d - 1]` holds the nodes first reached at depth `d`, by confidence then ID.
    pub levels: Vec<Vec<ImpactNode>>,
    /// Files of reached nodes (targets' files included) with how many reached nodes each has.
    pub affected_files: Vec<(String, u32)>,
    /// Directories of those files, likewise.
    pub affected_modules: Vec<(String, u32)>,
    pub direct: usize,
    pub files: usize,
    pub modules: usize,
    pub risk: Risk,
    /// Execution flows that a target or a reached node is a step of (nearest first, at most
    /// [`crate::MAX_IMPACT_FLOWS`]): the flows the change may break.
    pub flows: Vec<ImpactFlow>,
    /// How many such flows there are in all.
    pub flows_total: usize,
    /// Which revision the flows were computed at (`None`: not yet).
    pub flows_at: Option<DerivedStamp>,
    pub notes: Vec<String>,
}

impl Impact {
    pub fn reached(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }
}

impl Reader<'_> {
    /// The impact of the nodes with IDs `targets` (resolve names with [`Reader::lookup`]).
    pub fn impact(&self, targets: &[String], req: &ImpactRequest) -> Result<Impact, QueryError> {
        let mut g = Graph::new(self);
        let mut seeds = Vec::new();
        for id in targets {
            match g.nid(id)? {
                Some(nid) => seeds.push(nid),
                None => {
                    return Err(QueryError::UnknownId {
                        id: id.clone(),
                        suggestions: self.suggest(id)?,
                    });
                }
            }
        }
        impact_from(&mut g, &seeds, req)
    }
}

pub(crate) fn impact_from(
    g: &mut Graph<'_, '_>,
    seeds: &[i64],
    req: &ImpactRequest,
) -> Result<Impact, QueryError> {
    let kinds: &[EdgeKind] = if req.kinds.is_empty() { DEFAULT_IMPACT_KINDS } else { &req.kinds };
    let dir = req.direction.edges();
    let mut targets = Vec::new();
    let mut visited: HashSet<i64> = HashSet::new();
    for &s in seeds {
        if visited.insert(s) {
            targets.push(g.node(s)?.clone());
        }
    }
    targets.sort_by(|a, b| a.id.cmp(&b.id));
    let mut frontier: Vec<(i64, f64)> = seeds.iter().map(|&s| (s, 1.0)).collect();
    frontier.sort_by_key(|&(s, _)| s);
    frontier.dedup_by_key(|&mut (s, _)| s);
    let mut levels: Vec<Vec<ImpactNode>> = Vec::new();
    let (mut tests_left_out, mut below_floor, mut total) = (BTreeSet::new(), 0usize, 0usize);
    let mut truncated = false;
    for depth in 1..=req.max_depth {
        if frontier.is_empty() || truncated {
            break;
        }
        // Best (confidence, edge) per newly reached node; ties keep the first seen (the
        // frontier is sorted, hops are ordered), so the answer is deterministic.
        let mut next: HashMap<i64, (f64, EdgeRow)> = HashMap::new();
        let mut order: Vec<i64> = Vec::new();
        for &(nid, conf) in &frontier {
            for hop in g.hops(nid, dir, kinds, usize::MAX)? {
                if visited.contains(&hop.other) {
                    continue;
                }
                if hop.edge.weight < req.min_confidence {
                    below_floor += 1;
                    continue;
                }
                if !req.include_tests {
                    let file = g.node(hop.other)?.file.clone();
                    if file.as_deref().is_some_and(is_test_path) {
                        tests_left_out.insert(hop.other);
                        continue;
                    }
                }
                let c = conf * hop.edge.weight;
                match next.get_mut(&hop.other) {
                    Some(best) if c > best.0 => *best = (c, hop.edge),
                    Some(_) => {}
                    None => {
                        order.push(hop.other);
                        next.insert(hop.other, (c, hop.edge));
                    }
                }
            }
        }
        let mut level = Vec::with_capacity(order.len());
        for nid in order {
            if total >= req.max_nodes {
                truncated = true;
                break;
            }
            let Some((confidence, via)) = next.remove(&nid) else { continue };
            visited.insert(nid);
            total += 1;
            level.push((nid, ImpactNode { node: g.node(nid)?.clone(), depth, via, confidence }));
        }
        level.sort_by(|a, b| {
            b.1.confidence.total_cmp(&a.1.confidence).then_with(|| a.1.node.id.cmp(&b.1.node.id))
        });
        frontier = level.iter().map(|(nid, n)| (*nid, n.confidence)).collect();
        frontier.sort_by_key(|&(s, _)| s);
        if level.is_empty() {
            break;
        }
        levels.push(level.into_iter().map(|(_, n)| n).collect());
    }

    let own_files: HashSet<&str> = targets.iter().filter_map(|t| t.file.as_deref()).collect();
    let own_dirs: HashSet<&str> = own_files.iter().map(|f| dir_of(f)).collect();
    let mut files: BTreeMap<String, u32> = BTreeMap::new();
    let mut modules: BTreeMap<String, u32> = BTreeMap::new();
    for n in levels.iter().flatten() {
        if let Some(f) = &n.node.file {
            *files.entry(f.clone()).or_default() += 1;
            *modules.entry(dir_of(f).to_string()).or_default() += 1;
        }
    }
    let file_count = files.keys().filter(|f| !own_files.contains(f.as_str())).count();
    let module_count = modules.keys().filter(|m| !own_dirs.contains(m.as_str())).count();
    let direct = levels.first().map_or(0, Vec::len);
    let by_count = |m: BTreeMap<String, u32>| {
        let mut v: Vec<(String, u32)> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    };

    let mut notes = Vec::new();
    match req.direction {
        ImpactDirection::Upstream => {
            let mut named = 0;
            let mut names: Vec<&str> = targets
                .iter()
                .filter(|t| t.kind != "file" && t.kind != "package")
                .map(|t| t.name.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            for name in &names {
                named += g.unresolved_naming(name)?;
            }
            if named > 0 {
                notes.push(format!(
                    "{named} unresolved call site(s) call something named {}: upstream may be incomplete",
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        ImpactDirection::Downstream => {
            let mut inside = 0;
            for n in targets.iter().chain(levels.iter().flatten().map(|n| &n.node)) {
                inside += g.unresolved_inside(&n.id)?;
            }
            if inside > 0 {
                notes.push(format!(
                    "{inside} call site(s) inside the reached symbols did not resolve: downstream may be incomplete"
                ));
            }
        }
    }
    if !tests_left_out.is_empty() {
        notes.push(format!(
            "{} test node(s) left out (include them with --include-tests)",
            tests_left_out.len()
        ));
    }
    if below_floor > 0 {
        notes.push(format!(
            "{below_floor} edge(s) below confidence {} not followed",
            req.min_confidence
        ));
    }
    if truncated {
        notes.push(format!("stopped at {} nodes: the answer is cut", req.max_nodes));
    } else if levels.len() as u32 == req.max_depth
        && !frontier.is_empty()
        && max_depth_has_more(g, &frontier, dir, kinds, &visited)?
    {
        notes.push(format!(
            "depth limit {} reached: more nodes lie beyond (raise --depth)",
            req.max_depth
        ));
    }
    let flows_at = g.reader.derived_stamp()?;
    let (flows, flows_total) = g.reader.flows_through(
        targets
            .iter()
            .map(|t| (t.id.as_str(), 0))
            .chain(levels.iter().flatten().map(|n| (n.node.id.as_str(), n.depth))),
    )?;
    notes.extend(g.reader.flows_note(flows_at.as_ref()));
    Ok(Impact {
        flows,
        flows_total,
        flows_at,
        revision: g.reader.revision(),
        stale: None,
        direction: req.direction,
        targets,
        levels,
        affected_files: by_count(files),
        affected_modules: by_count(modules),
        direct,
        files: file_count,
        modules: module_count,
        risk: Risk::assess(direct, file_count, module_count),
        notes,
    })
}

/// Whether any node of the last level has an unvisited neighbour.
fn max_depth_has_more(
    g: &Graph<'_, '_>,
    frontier: &[(i64, f64)],
    dir: Direction,
    kinds: &[EdgeKind],
    visited: &HashSet<i64>,
) -> Result<bool, QueryError> {
    for &(nid, _) in frontier {
        if g.hops(nid, dir, kinds, usize::MAX)?.iter().any(|h| !visited.contains(&h.other)) {
            return Ok(true);
        }
    }
    Ok(false)
}
