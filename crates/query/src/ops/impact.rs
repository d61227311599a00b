//! `impact`: what a change to some symbols can reach, level by level.
//!
//! # What is followed
//!
//! Upstream walks to the code that may break (the *dependents*), downstream to the code the
//! targets rely on (the *dependencies*). Which edges are followed depends on the kind of node
//! being expanded, never on one global list, so a walk never climbs from a member to its
//! container and from there to everything that imports the container's file:
//!
//! | node                      | upstream (dependents)                                           | downstream (dependencies)               |
//! | ------------------------- | --------------------------------------------------------------- | --------------------------------------- |
//! | function, method          | callers (CALLS), users of it as a value (REFERS_TO), routes / tools it handles, callers through the methods it overrides or implements (dispatch), files importing it without calling it | callees (CALLS), functions it uses as values (REFERS_TO), fields it reads or writes (ACCESSES), implementations of interface methods it calls (dispatch) |
//! | property, variable, const | readers and writers (ACCESSES, REFERS_TO), callers (function values), files importing it without using it otherwise | as a function                          |
//! | class, interface, struct, enum, type alias | subtypes, embedders and implementers (EXTENDS / EMBEDS / IMPLEMENTS in), users of the type in signatures, fields, literals, conversions (REFERS_TO in), constructors (CALLS), files importing it without another use | supertypes and embedded types (EXTENDS / EMBEDS / IMPLEMENTS out), types its fields and methods' signatures name (REFERS_TO out) |
//! | route                     | client calls (FETCHES)                                          | its handler (HANDLES_ROUTE)             |
//! | tool                      | nothing (its callers are outside the code)                      | its handler (HANDLES_TOOL)              |
//! | file, package (as target) | importers (IMPORTS)                                             | what it imports (IMPORTS, module-level CALLS) |
//! | file, package (reached)   | not expanded: a file that imports or calls the target is a dependent, its importers are not |  not expanded |
//!
//! A target that contains others counts its parts as the target: a type's members (their
//! callers are depth 1, as are the type's own dependents), a file's symbols, a package's
//! files and their symbols. Reached nodes are never widened that way.
//!
//! Dispatch: a method that overrides or implements another (its type EXTENDS / EMBEDS / IMPLEMENTS,
//! transitively, a type with a method of the same name) may run wherever that other method is
//! called, so those callers are listed, marked with `dispatch` (the method the call names),
//! at a confidence lowered by the heritage edges' weights. They are possible, not certain,
//! callers: they are not expanded further and the risk rule leaves them out. Downstream, a
//! call to an interface method reaches the interface's implementations the same way.
//!
//! Explicit edge kinds (`ImpactRequest::kinds`) replace these rules: every node then follows
//! exactly those kinds, in the chosen direction.
//!
//! The walk is breadth-first, so every node is reported at its shortest distance, with the edge
//! that reached it (the strongest one from the previous level) and the product of the
//! confidences along that path. Edges below the confidence floor are not followed; test code
//! is left out unless asked for (and counted).
//!
//! # Risk rule
//!
//! Over the non-test nodes reached, dispatch-only ones aside: `direct` = nodes at depth 1,
//! `files` = distinct files of reached nodes other than the targets' own files, `modules` =
//! distinct directories of those files other than the targets' own directories. The risk is the
//! highest level whose any threshold is met:
//!
//! | level    | direct | files | modules |
//! | -------- | ------ | ----- | ------- |
//! | critical | >= 25  | >= 25 | >= 10   |
//! | high     | >= 10  | >= 10 | >= 4    |
//! | medium   | >= 3   | >= 3  | >= 2    |
//! | low      | otherwise (including nothing reached) |

use super::{Direction, Graph, Hop, dir_of};
use crate::derived::{DerivedStamp, ImpactFlow};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use codegraph_schema::{EdgeKind, NodeKind};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

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
    /// Edge kinds to follow from every node; empty means the per-kind rules of the module doc.
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
    /// Reached through dispatch: the ID of the overriding / implementing method on the other
    /// side of `via` (upstream: the method the walk came from; downstream: this node), whose
    /// supertype's method `via` names. Such nodes are possible dependents, not expanded.
    pub dispatch: Option<String>,
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
    /// How many nodes the targets contain that counted as the target (a type's members, a
    /// file's symbols, a package's files and symbols).
    pub parts: usize,
    /// `levels[d - 1]` holds the nodes first reached at depth `d`, by confidence then ID.
    pub levels: Vec<Vec<ImpactNode>>,
    /// Files of reached nodes (targets' files included) with how many reached nodes each has.
    pub affected_files: Vec<(String, u32)>,
    /// Directories of those files, likewise.
    pub affected_modules: Vec<(String, u32)>,
    pub direct: usize,
    pub files: usize,
    pub modules: usize,
    /// Nodes reached only through dispatch (left out of the risk counts).
    pub dispatch: usize,
    pub risk: Risk,
    /// Execution flows that a target or a reached node is a step of (nearest first, at most
    /// [`crate::MAX_IMPACT_FLOWS`]): the flows the change may break.
    pub flows: Vec<ImpactFlow>,
    /// How many such flows there are in all.
    pub flows_total: usize,
    /// Which revision the flows were computed at (`None`: not yet).
    pub flows_at: Option<DerivedStamp>,
    /// Upstream: the tests that exercise a target, directly (depth 0) or through a reached
    /// node (its depth), by TESTS edges; nearest first, at most [`MAX_IMPACT_TESTS`]. Listed
    /// apart from the dependents: they are what to run, not what breaks.
    pub tests: Vec<ImpactTest>,
    /// How many such tests there are in all.
    pub tests_total: usize,
    /// Files that usually change with the targets' files (CO_CHANGED, opt-in; not dependents),
    /// most confident first, at most `MAX_COCHANGED`; and how many there are.
    pub co_changed: Vec<crate::cochange::CoChangeRow>,
    pub co_changed_total: usize,
    /// The walk stopped at this many nodes (`max_nodes`): every count is a lower bound.
    pub cut_at: Option<usize>,
    pub notes: Vec<String>,
}

/// A test that exercises the change: it tests `via` (a target or a reached node).
#[derive(Clone, Debug, PartialEq)]
pub struct ImpactTest {
    pub test: NodeRow,
    pub via: String,
    pub depth: u32,
}

/// At most this many tests are listed in an impact answer (the total is kept).
pub const MAX_IMPACT_TESTS: usize = 100;

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

/// What a node is for the walk (the rows of the module doc's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Callable,
    Value,
    Type,
    File,
    Package,
    Route,
    Tool,
    /// Sections, flows, clusters: nothing depends on them through code.
    Leaf,
}

impl Role {
    fn of(kind: NodeKind) -> Role {
        match kind {
            NodeKind::Function | NodeKind::Method | NodeKind::Macro => Role::Callable,
            // Infrastructure blocks and concepts are values: what depends on them refers to
            // them (REFERS_TO), as code refers to a variable.
            NodeKind::Property
            | NodeKind::Parameter
            | NodeKind::Variable
            | NodeKind::Constant
            | NodeKind::Resource
            | NodeKind::Output
            | NodeKind::Module
            | NodeKind::Provider
            | NodeKind::Command
            | NodeKind::EnvVar
            | NodeKind::Image => Role::Value,
            NodeKind::Class
            | NodeKind::Interface
            | NodeKind::Struct
            | NodeKind::Enum
            | NodeKind::TypeAlias
            | NodeKind::DefinedType => Role::Type,
            NodeKind::File => Role::File,
            NodeKind::Package => Role::Package,
            NodeKind::Route => Role::Route,
            NodeKind::Tool => Role::Tool,
            // Listed, not `_`: a new kind must choose its role here.
            NodeKind::Section | NodeKind::Test | NodeKind::Process | NodeKind::Cluster => {
                Role::Leaf
            }
        }
    }
}

/// One step of the walk from a node: the node at the other end, the stored edge, an extra
/// confidence factor (dispatch through heritage edges) and, for dispatch, the concrete method.
struct Step {
    other: i64,
    edge: EdgeRow,
    factor: f64,
    dispatch: Option<String>,
}

impl From<Hop> for Step {
    fn from(h: Hop) -> Self {
        Step { other: h.other, edge: h.edge, factor: 1.0, dispatch: None }
    }
}

/// How far heritage is climbed (or descended) to find overridden or implementing methods.
const MAX_HERITAGE_DEPTH: usize = 6;

/// The steps of the walk from `nid` (the module doc's table, or `kinds` when given).
fn steps(
    g: &mut Graph<'_, '_>,
    nid: i64,
    dir: ImpactDirection,
    kinds: &[EdgeKind],
    target: bool,
) -> Result<Vec<Step>, QueryError> {
    use EdgeKind::*;
    if !kinds.is_empty() {
        return Ok(g
            .hops(nid, dir.edges(), kinds, usize::MAX)?
            .into_iter()
            .map(Step::from)
            .collect());
    }
    let node = g.node(nid)?;
    let role = Role::of(node.kind);
    let is_method = node.kind == NodeKind::Method;
    let name = node.name.clone();
    let hops = |g: &Graph<'_, '_>, kinds: &[EdgeKind]| -> Result<Vec<Step>, QueryError> {
        Ok(g.hops(nid, dir.edges(), kinds, usize::MAX)?.into_iter().map(Step::from).collect())
    };
    let mut out = match (dir, role) {
        (ImpactDirection::Upstream, Role::Callable) => {
            let mut v = hops(g, &[Calls, RefersTo, HandlesRoute, HandlesTool, Accesses])?;
            if is_method {
                v.extend(dispatch_callers(g, nid, &name)?);
            }
            importers_without_use(g, nid, v)?
        }
        (ImpactDirection::Upstream, Role::Value) => {
            let v = hops(g, &[Accesses, RefersTo, Calls, HandlesRoute, HandlesTool])?;
            importers_without_use(g, nid, v)?
        }
        (ImpactDirection::Upstream, Role::Type) => {
            let v = hops(g, &[Extends, Embeds, Implements, RefersTo, Calls])?;
            importers_without_use(g, nid, v)?
        }
        (ImpactDirection::Upstream, Role::Route) => hops(g, &[Fetches])?,
        // A script is also run by path (CALLS to the file).
        (ImpactDirection::Upstream, Role::File | Role::Package) if target => {
            hops(g, &[Imports, Calls])?
        }
        (ImpactDirection::Downstream, Role::Callable | Role::Value) => {
            let v = hops(g, &[Calls, RefersTo, Accesses])?;
            let mut extra = Vec::new();
            for s in &v {
                extra.extend(dispatch_implementations(g, s)?);
            }
            let mut v = v;
            v.extend(extra);
            v
        }
        (ImpactDirection::Downstream, Role::Type) => {
            hops(g, &[Extends, Embeds, Implements, RefersTo])?
        }
        (ImpactDirection::Downstream, Role::Route) => hops(g, &[HandlesRoute])?,
        (ImpactDirection::Downstream, Role::Tool) => hops(g, &[HandlesTool])?,
        (ImpactDirection::Downstream, Role::File) if target => hops(g, &[Imports, Calls])?,
        _ => Vec::new(),
    };
    out.retain(|s| s.other != nid);
    // A function's calls of its own parameters (`parameter` nodes: the callbacks it is handed)
    // are part of it, not something it depends on.
    if dir == ImpactDirection::Downstream {
        let mut kept = Vec::with_capacity(out.len());
        for s in out {
            if g.node(s.other)?.kind != NodeKind::Parameter {
                kept.push(s);
            }
        }
        out = kept;
    }
    Ok(out)
}

/// `v` plus the IMPORTS edges into `nid` from files where none of `v`'s other ends lies: a
/// file that imports a symbol and calls (or reads, extends...) it is already represented by
/// the symbols that do; one that only imports it uses it as a value or re-exports it.
fn importers_without_use(
    g: &mut Graph<'_, '_>,
    nid: i64,
    mut v: Vec<Step>,
) -> Result<Vec<Step>, QueryError> {
    let importers = g.hops(nid, Direction::In, &[EdgeKind::Imports], usize::MAX)?;
    if importers.is_empty() {
        return Ok(v);
    }
    let mut used_in: HashSet<String> = HashSet::new();
    for s in &v {
        if let Some(f) = &g.node(s.other)?.file {
            used_in.insert(f.clone());
        }
    }
    for h in importers {
        let file = g.node(h.other)?.file.clone();
        if !file.is_some_and(|f| used_in.contains(&f)) {
            v.push(Step::from(h));
        }
    }
    Ok(v)
}

/// The owners (types) of a method: the sources of its HAS_METHOD edges.
fn owners(g: &Graph<'_, '_>, method: i64) -> Result<Vec<i64>, QueryError> {
    Ok(g.hops(method, Direction::In, &[EdgeKind::HasMethod], usize::MAX)?
        .into_iter()
        .map(|h| h.other)
        .collect())
}

/// Types related to `ty` by EXTENDS / EMBEDS / IMPLEMENTS in direction `dir` (Out: supertypes, In:
/// subtypes and implementers), transitively, with the product of the heritage weights.
fn heritage(g: &Graph<'_, '_>, ty: i64, dir: Direction) -> Result<Vec<(i64, f64)>, QueryError> {
    let kinds = [EdgeKind::Extends, EdgeKind::Embeds, EdgeKind::Implements];
    let mut seen: HashSet<i64> = HashSet::from([ty]);
    let mut out = Vec::new();
    let mut frontier = vec![(ty, 1.0)];
    for _ in 0..MAX_HERITAGE_DEPTH {
        let mut next = Vec::new();
        for (t, w) in frontier {
            for h in g.hops(t, dir, &kinds, usize::MAX)? {
                if seen.insert(h.other) {
                    let w = w * h.edge.weight;
                    out.push((h.other, w));
                    next.push((h.other, w));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    Ok(out)
}

/// The methods named `name` of type `ty`.
fn methods_named(g: &mut Graph<'_, '_>, ty: i64, name: &str) -> Result<Vec<i64>, QueryError> {
    let mut out = Vec::new();
    for h in g.hops(ty, Direction::Out, &[EdgeKind::HasMethod], usize::MAX)? {
        if g.node(h.other)?.name == name {
            out.push(h.other);
        }
    }
    Ok(out)
}

/// Upstream dispatch: callers of the methods that `method` overrides or implements.
fn dispatch_callers(
    g: &mut Graph<'_, '_>,
    method: i64,
    name: &str,
) -> Result<Vec<Step>, QueryError> {
    let id = g.node(method)?.id.clone();
    let mut out = Vec::new();
    for owner in owners(g, method)? {
        for (sup, w) in heritage(g, owner, Direction::Out)? {
            for m in methods_named(g, sup, name)? {
                for h in g.hops(m, Direction::In, &[EdgeKind::Calls], usize::MAX)? {
                    out.push(Step {
                        other: h.other,
                        edge: h.edge,
                        factor: w,
                        dispatch: Some(id.clone()),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Downstream dispatch: for a CALLS step to an interface's method, the methods of the same name
/// of the types that implement or extend that interface.
fn dispatch_implementations(g: &mut Graph<'_, '_>, call: &Step) -> Result<Vec<Step>, QueryError> {
    if call.edge.kind != EdgeKind::Calls || g.node(call.other)?.kind != NodeKind::Method {
        return Ok(Vec::new());
    }
    let name = g.node(call.other)?.name.clone();
    let mut out = Vec::new();
    for owner in owners(g, call.other)? {
        if g.node(owner)?.kind != NodeKind::Interface {
            continue;
        }
        for (sub, w) in heritage(g, owner, Direction::In)? {
            for m in methods_named(g, sub, &name)? {
                let dispatch = Some(g.node(m)?.id.clone());
                out.push(Step { other: m, edge: call.edge.clone(), factor: w, dispatch });
            }
        }
    }
    Ok(out)
}

/// The nodes a target contains that count as the target (module doc): a type's members, a
/// file's symbols, a package's files and their symbols.
fn parts(g: &mut Graph<'_, '_>, nid: i64) -> Result<Vec<i64>, QueryError> {
    let node = g.node(nid)?;
    // Types, and values that hold members (`obj.prop` of a module-level object).
    if node.kind.is_type_like() {
        let kinds = [EdgeKind::HasMethod, EdgeKind::HasProperty];
        return Ok(g
            .hops(nid, Direction::Out, &kinds, usize::MAX)?
            .into_iter()
            .map(|h| h.other)
            .collect());
    }
    match Role::of(node.kind) {
        Role::File => match node.file.clone() {
            Some(path) => g.symbols_of_file(&path),
            None => Ok(Vec::new()),
        },
        Role::Package => {
            let files = g.hops(nid, Direction::Out, &[EdgeKind::Contains], usize::MAX)?;
            let mut out = Vec::new();
            for h in files {
                out.push(h.other);
                if let Some(path) = g.node(h.other)?.file.clone() {
                    out.extend(g.symbols_of_file(&path)?);
                }
            }
            Ok(out)
        }
        _ => Ok(Vec::new()),
    }
}

pub(crate) fn impact_from(
    g: &mut Graph<'_, '_>,
    seeds: &[i64],
    req: &ImpactRequest,
) -> Result<Impact, QueryError> {
    let kinds: &[EdgeKind] = &req.kinds;
    let dir = req.direction;
    let mut targets = Vec::new();
    let mut visited: HashSet<i64> = HashSet::new();
    for &s in seeds {
        if visited.insert(s) {
            targets.push(g.node(s)?.clone());
        }
    }
    targets.sort_by(|a, b| a.id.cmp(&b.id));
    // The targets and their parts, walked as targets (`true`).
    let mut frontier: Vec<(i64, f64, bool)> = seeds.iter().map(|&s| (s, 1.0, true)).collect();
    let mut part_count = 0;
    if kinds.is_empty() {
        for &s in seeds {
            for p in parts(g, s)? {
                if visited.insert(p) {
                    part_count += 1;
                    frontier.push((p, 1.0, true));
                }
            }
        }
    }
    frontier.sort_by_key(|&(s, _, _)| s);
    frontier.dedup_by_key(|&mut (s, _, _)| s);
    let mut levels: Vec<Vec<ImpactNode>> = Vec::new();
    let (mut tests_left_out, mut below_floor, mut total) = (BTreeSet::new(), 0usize, 0usize);
    let mut truncated = false;
    for depth in 1..=req.max_depth {
        if frontier.is_empty() || truncated {
            break;
        }
        // Best (confidence, edge, dispatch) per newly reached node; ties keep the first seen
        // (the frontier is sorted, steps are ordered), so the answer is deterministic.
        let mut next: HashMap<i64, (f64, EdgeRow, Option<String>)> = HashMap::new();
        let mut order: Vec<i64> = Vec::new();
        for &(nid, conf, target) in &frontier {
            for step in steps(g, nid, dir, kinds, target)? {
                if visited.contains(&step.other) {
                    continue;
                }
                if step.edge.weight < req.min_confidence {
                    below_floor += 1;
                    continue;
                }
                if !req.include_tests && g.node(step.other)?.test {
                    tests_left_out.insert(step.other);
                    continue;
                }
                let c = conf * step.edge.weight * step.factor;
                match next.get_mut(&step.other) {
                    // A certain edge beats a dispatch one whatever the confidence.
                    Some(best)
                        if (best.2.is_some() && step.dispatch.is_none())
                            || (best.2.is_some() == step.dispatch.is_some() && c > best.0) =>
                    {
                        *best = (c, step.edge, step.dispatch)
                    }
                    Some(_) => {}
                    None => {
                        order.push(step.other);
                        next.insert(step.other, (c, step.edge, step.dispatch));
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
            let Some((confidence, via, dispatch)) = next.remove(&nid) else { continue };
            visited.insert(nid);
            total += 1;
            let node = g.node(nid)?.clone();
            level.push((nid, ImpactNode { node, depth, via, confidence, dispatch }));
        }
        level.sort_by(|a, b| {
            b.1.confidence.total_cmp(&a.1.confidence).then_with(|| a.1.node.id.cmp(&b.1.node.id))
        });
        // Dispatch-only nodes are listed, not expanded (module doc).
        frontier = level
            .iter()
            .filter(|(_, n)| n.dispatch.is_none())
            .map(|(nid, n)| (*nid, n.confidence, false))
            .collect();
        frontier.sort_by_key(|&(s, _, _)| s);
        if level.is_empty() {
            break;
        }
        levels.push(level.into_iter().map(|(_, n)| n).collect());
    }

    let own_files: HashSet<&str> = targets.iter().filter_map(|t| t.file.as_deref()).collect();
    let own_dirs: HashSet<&str> = own_files.iter().map(|f| dir_of(f)).collect();
    let mut files: BTreeMap<String, u32> = BTreeMap::new();
    let mut modules: BTreeMap<String, u32> = BTreeMap::new();
    // Possible callers through dispatch are listed but left out of the risk (module doc).
    let possible_only = |n: &ImpactNode| n.dispatch.is_some() && dir == ImpactDirection::Upstream;
    let mut dispatch = 0;
    for n in levels.iter().flatten() {
        if possible_only(n) {
            dispatch += 1;
            continue;
        }
        if let Some(f) = &n.node.file {
            *files.entry(f.clone()).or_default() += 1;
            *modules.entry(dir_of(f).to_string()).or_default() += 1;
        }
    }
    let file_count = files.keys().filter(|f| !own_files.contains(f.as_str())).count();
    let module_count = modules.keys().filter(|m| !own_dirs.contains(m.as_str())).count();
    let direct = levels.first().map_or(0, |l| l.iter().filter(|n| !possible_only(n)).count());
    let by_count = |m: BTreeMap<String, u32>| {
        let mut v: Vec<(String, u32)> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    };

    let mut notes = Vec::new();
    if part_count > 0 {
        notes.push(format!(
            "{part_count} node(s) inside the target (members, symbols of a file or package) count as the target: their dependents are included"
        ));
    }
    match req.direction {
        ImpactDirection::Upstream => {
            let mut named = 0;
            let mut names: Vec<&str> = targets
                .iter()
                .filter(|t| t.kind != NodeKind::File && t.kind != NodeKind::Package)
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
            if dispatch > 0 {
                notes.push(format!(
                    "{dispatch} node(s) call a method the target overrides or implements (dispatch): possible callers, not expanded, not counted in the risk"
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
        // First: every count below is a lower bound.
        notes.insert(
            0,
            format!(
                "the walk stopped at {} nodes (max_nodes): the counts are lower bounds and more dependents lie beyond; narrow with depth, edge kinds or min_confidence",
                req.max_nodes
            ),
        );
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
    let (tests, tests_total) = if dir == ImpactDirection::Upstream {
        exercising_tests(g, &targets, &levels)?
    } else {
        (Vec::new(), 0)
    };
    // Co-change of the targets' own files (other than those files), most confident first.
    let mut co_changed: Vec<crate::cochange::CoChangeRow> = Vec::new();
    let target_files: Vec<&str> = targets.iter().filter_map(|t| t.file.as_deref()).collect();
    let mut seen_files: std::collections::HashSet<String> =
        target_files.iter().map(|f| f.to_string()).collect();
    let mut co_changed_total = 0;
    for f in &target_files {
        let (rows, _) = g.reader.cochanged(f, usize::MAX)?;
        for r in rows {
            if seen_files.insert(r.dst.clone()) {
                co_changed_total += 1;
                co_changed.push(r);
            }
        }
    }
    co_changed
        .sort_by(|a, b| b.confidence.total_cmp(&a.confidence).then(b.support.cmp(&a.support)));
    co_changed.truncate(crate::ops::context::MAX_COCHANGED);
    Ok(Impact {
        co_changed,
        co_changed_total,
        tests,
        tests_total,
        flows,
        flows_total,
        flows_at,
        revision: g.reader.revision(),
        stale: None,
        direction: req.direction,
        targets,
        parts: part_count,
        levels,
        affected_files: by_count(files),
        affected_modules: by_count(modules),
        direct,
        files: file_count,
        modules: module_count,
        dispatch,
        risk: Risk::assess(direct, file_count, module_count),
        cut_at: truncated.then_some(req.max_nodes),
        notes,
    })
}

/// The tests with a TESTS edge into a target (depth 0) or a reached node (its depth), each
/// once at its smallest depth, by depth, then own directory first, then ID; at most [`MAX_IMPACT_TESTS`], and how many.
fn exercising_tests(
    g: &mut Graph<'_, '_>,
    targets: &[NodeRow],
    levels: &[Vec<ImpactNode>],
) -> Result<(Vec<ImpactTest>, usize), QueryError> {
    let reached = targets
        .iter()
        .map(|t| (t.id.clone(), 0))
        .chain(levels.iter().flatten().map(|n| (n.node.id.clone(), n.depth)));
    let mut best: HashMap<i64, (u32, String)> = HashMap::new();
    for (id, depth) in reached {
        let Some(nid) = g.nid(&id)? else { continue };
        for h in g.hops(nid, Direction::In, &[EdgeKind::Tests], usize::MAX)? {
            // File-level TESTS (test file -> file) are not a test to run.
            if g.node(h.other)?.kind == NodeKind::File {
                continue;
            }
            let e = best.entry(h.other).or_insert((depth, id.clone()));
            if depth < e.0 {
                *e = (depth, id.clone());
            }
        }
    }
    let mut out = Vec::with_capacity(best.len());
    for (nid, (depth, via)) in best {
        out.push(ImpactTest { test: g.node(nid)?.clone(), via, depth });
    }
    // Nearest first; at one depth, tests in a target's own directory (its package's tests)
    // before tests elsewhere that happen to call it.
    let dirs: HashSet<&str> =
        targets.iter().filter_map(|t| t.file.as_deref()).map(dir_of).collect();
    let away = |t: &ImpactTest| !t.test.file.as_deref().is_some_and(|f| dirs.contains(dir_of(f)));
    out.sort_by(|a, b| (a.depth, away(a), &a.test.id).cmp(&(b.depth, away(b), &b.test.id)));
    let total = out.len();
    out.truncate(MAX_IMPACT_TESTS);
    Ok((out, total))
}

/// Whether any node of the last level has an unvisited neighbour.
fn max_depth_has_more(
    g: &mut Graph<'_, '_>,
    frontier: &[(i64, f64, bool)],
    dir: ImpactDirection,
    kinds: &[EdgeKind],
    visited: &HashSet<i64>,
) -> Result<bool, QueryError> {
    for &(nid, _, target) in frontier {
        if steps(g, nid, dir, kinds, target)?.iter().any(|s| !visited.contains(&s.other)) {
            return Ok(true);
        }
    }
    Ok(false)
}
