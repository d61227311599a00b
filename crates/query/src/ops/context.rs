//! `symbol_context`: everything one symbol touches, one hop away, in one answer: where it
//! lives (container, members), who calls it and what it calls (with call-site lines and each
//! edge's confidence and reason), heritage, who imports it, what its file imports and who
//! imports its file, and the other files all of this involves.
//!
//! Completeness is stated, not implied: call sites inside the symbol that resolved to nothing,
//! unresolved call sites elsewhere that name it (possible missing callers). The flows it is a
//! step of and its cluster come from the stored derivations, with the revision they were
//! computed at (a note says when they lag or are missing).

use super::{Direction, Graph, Hop};
use crate::derived::{ClusterRef, DerivedStamp, FlowRef};
use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use codegraph_schema::{EdgeKind, NodeKind};
use std::collections::BTreeMap;

/// A neighbour and the edge that links it, with the way the edge points (`Out`: from the
/// symbol to the neighbour).
#[derive(Clone, Debug)]
pub struct Link {
    pub dir: Direction,
    pub node: NodeRow,
    pub edge: EdgeRow,
}

/// A caller or callee with every call site between the two (lines in the caller's file).
#[derive(Clone, Debug)]
pub struct CallLink {
    pub node: NodeRow,
    pub lines: Vec<u32>,
    /// The highest confidence among the call sites, and its reason.
    pub weight: f64,
    pub reason: String,
}

#[derive(Clone, Debug)]
pub struct SymbolContext {
    pub revision: i64,
    /// Whether the tree changed since `revision`; filled by the caller (it needs the disk).
    pub stale: Option<bool>,
    pub symbol: NodeRow,
    /// Incoming CONTAINS / HAS_METHOD / HAS_PROPERTY: the file, type or section holding it.
    pub containers: Vec<Link>,
    /// Outgoing CONTAINS / HAS_METHOD / HAS_PROPERTY.
    pub members: Vec<Link>,
    pub callers: Vec<CallLink>,
    pub callees: Vec<CallLink>,
    /// EXTENDS / EMBEDS / IMPLEMENTS in both directions.
    pub heritage: Vec<Link>,
    /// ACCESSES / REFERS_TO in both directions.
    pub references: Vec<Link>,
    /// TESTS in (the tests that exercise the symbol or file) and out (what a test exercises).
    pub tests: Vec<Link>,
    /// DOC_RELATED in (Markdown sections that name the symbol or file) and out (for a
    /// section: what it names).
    pub docs: Vec<Link>,
    /// Files that usually change with the symbol's file (CO_CHANGED, opt-in), most confident
    /// first, at most [`MAX_COCHANGED`]; and how many there are.
    pub co_changed: Vec<crate::cochange::CoChangeRow>,
    pub co_changed_total: usize,
    /// Routes and tools this symbol handles (incoming HANDLES_ROUTE / HANDLES_TOOL), or, for a
    /// route or tool, its handler (outgoing).
    pub endpoints: Vec<Link>,
    /// Files whose IMPORTS edge names this symbol.
    pub imported_by: Vec<Link>,
    /// IMPORTS from the symbol's file to other files.
    pub file_imports: Vec<Link>,
    /// IMPORTS from other files to the symbol's file.
    pub file_importers: Vec<Link>,
    /// Other files involved above, with how many links lead there, most first.
    pub related_files: Vec<(String, u32)>,
    /// Call sites inside the symbol that resolved to nothing: (line, callee as written).
    pub unresolved_calls: Vec<(u32, String)>,
    /// The execution flows the symbol is a step of, best first.
    pub processes: Vec<FlowRef>,
    /// The functional cluster it belongs to.
    pub cluster: Option<ClusterRef>,
    /// Which revision `processes` and `cluster` were computed at (`None`: not yet).
    pub flows_at: Option<DerivedStamp>,
    pub notes: Vec<String>,
}

const MEMBER_KINDS: &[EdgeKind] = &[EdgeKind::Contains, EdgeKind::HasMethod, EdgeKind::HasProperty];
const HERITAGE_KINDS: &[EdgeKind] = &[EdgeKind::Extends, EdgeKind::Embeds, EdgeKind::Implements];
const REFERENCE_KINDS: &[EdgeKind] = &[EdgeKind::Accesses, EdgeKind::RefersTo];

/// Most co-changed files a context or impact answer computes (the total is said; the
/// surfaces show [`COCHANGED_SHOWN`] unless the list is paged).
pub const MAX_COCHANGED: usize = 200;
/// Co-changed files shown when the list is not the one paged (a secondary list).
pub const COCHANGED_SHOWN: usize = 5;

impl Reader<'_> {
    /// The context of the node with ID `id` (resolve names first with [`Reader::lookup`]).
    pub fn symbol_context(&self, id: &str) -> Result<SymbolContext, QueryError> {
        let mut g = Graph::new(self);
        let Some(nid) = g.nid(id)? else {
            return Err(QueryError::UnknownId {
                id: id.to_string(),
                suggestions: self.suggest(id)?,
            });
        };
        let symbol = g.node(nid)?.clone();
        let links = |g: &mut Graph<'_, '_>, nid: i64, dir: Direction, kinds: &[EdgeKind]| {
            let hops = g.hops(nid, dir, kinds, usize::MAX)?;
            to_links(g, hops, dir)
        };
        let mut containers = links(&mut g, nid, Direction::In, MEMBER_KINDS)?;
        let mut members = links(&mut g, nid, Direction::Out, MEMBER_KINDS)?;
        let callers = calls(&mut g, nid, Direction::In)?;
        let callees = calls(&mut g, nid, Direction::Out)?;
        let mut heritage = links(&mut g, nid, Direction::Out, HERITAGE_KINDS)?;
        heritage.extend(links(&mut g, nid, Direction::In, HERITAGE_KINDS)?);
        let mut references = links(&mut g, nid, Direction::Out, REFERENCE_KINDS)?;
        references.extend(links(&mut g, nid, Direction::In, REFERENCE_KINDS)?);
        let mut tests = links(&mut g, nid, Direction::In, &[EdgeKind::Tests])?;
        tests.extend(links(&mut g, nid, Direction::Out, &[EdgeKind::Tests])?);
        let mut docs = links(&mut g, nid, Direction::In, &[EdgeKind::DocRelated])?;
        docs.extend(links(&mut g, nid, Direction::Out, &[EdgeKind::DocRelated])?);
        const HANDLES: &[EdgeKind] = &[EdgeKind::HandlesRoute, EdgeKind::HandlesTool];
        let mut endpoints = links(&mut g, nid, Direction::In, HANDLES)?;
        endpoints.extend(links(&mut g, nid, Direction::Out, HANDLES)?);
        let mut imported_by = links(&mut g, nid, Direction::In, &[EdgeKind::Imports])?;
        let (mut file_imports, mut file_importers) = (Vec::new(), Vec::new());
        let file_id = symbol.file.as_deref().map(codegraph_schema::ids::file);
        if let Some(file_nid) = file_id.as_deref().map(|f| g.nid(f)).transpose()?.flatten() {
            file_imports = links(&mut g, file_nid, Direction::Out, &[EdgeKind::Imports])?;
            file_imports.retain(|l| l.node.kind == NodeKind::File);
            file_importers = links(&mut g, file_nid, Direction::In, &[EdgeKind::Imports])?;
            if symbol.kind == NodeKind::File {
                // For a file these are the same edges as `imported_by`.
                imported_by.clear();
            }
        }
        for list in [
            &mut containers,
            &mut members,
            &mut heritage,
            &mut references,
            &mut tests,
            &mut docs,
            &mut endpoints,
        ] {
            list.sort_by(|a, b| (&a.edge.kind, &a.node.id).cmp(&(&b.edge.kind, &b.node.id)));
        }
        for list in [&mut imported_by, &mut file_imports, &mut file_importers] {
            list.sort_by(|a, b| a.node.id.cmp(&b.node.id));
        }

        let mut files: BTreeMap<String, u32> = BTreeMap::new();
        let own = symbol.file.clone();
        let mut count = |n: &NodeRow| {
            if let Some(f) = &n.file
                && Some(f) != own.as_ref()
            {
                *files.entry(f.clone()).or_default() += 1;
            }
        };
        callers.iter().chain(&callees).for_each(|c| count(&c.node));
        [
            &containers,
            &members,
            &heritage,
            &references,
            &tests,
            &imported_by,
            &file_imports,
            &file_importers,
        ]
        .into_iter()
        .flatten()
        .for_each(|l| count(&l.node));
        let mut related_files: Vec<(String, u32)> = files.into_iter().collect();
        related_files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

        let (co_changed, co_changed_total) = match &symbol.file {
            Some(f) => self.cochanged(f, MAX_COCHANGED)?,
            None => (Vec::new(), 0),
        };
        let unresolved_calls = self.unresolved_of(id)?;
        let mut notes = Vec::new();
        if !unresolved_calls.is_empty() {
            notes.push(format!(
                "{} call site(s) inside this symbol did not resolve: callees may be incomplete",
                unresolved_calls.len()
            ));
        }
        if symbol.kind != NodeKind::File && symbol.kind != NodeKind::Package {
            let naming = g.unresolved_naming(&symbol.name)?;
            if naming > 0 {
                notes.push(format!(
                    "{naming} unresolved call site(s) elsewhere call something named `{}`: callers may be incomplete",
                    symbol.name
                ));
            }
        }
        let flows_at = self.derived_stamp()?;
        notes.extend(self.flows_note(flows_at.as_ref()));
        Ok(SymbolContext {
            processes: self.flows_of(id)?,
            cluster: self.cluster_of(id)?,
            flows_at,
            revision: self.revision(),
            stale: None,
            symbol,
            containers,
            members,
            callers,
            callees,
            heritage,
            references,
            tests,
            docs,
            co_changed,
            co_changed_total,
            endpoints,
            imported_by,
            file_imports,
            file_importers,
            related_files,
            unresolved_calls,
            notes,
        })
    }
}

fn to_links(
    g: &mut Graph<'_, '_>,
    hops: Vec<Hop>,
    dir: Direction,
) -> Result<Vec<Link>, QueryError> {
    hops.into_iter()
        .map(|h| Ok(Link { dir, node: g.node(h.other)?.clone(), edge: h.edge }))
        .collect()
}

/// CALLS edges at `nid` grouped by the node at the other end, sorted by its ID.
pub(super) fn calls(
    g: &mut Graph<'_, '_>,
    nid: i64,
    dir: Direction,
) -> Result<Vec<CallLink>, QueryError> {
    linked(g, nid, dir, EdgeKind::Calls)
}

/// Edges of one kind at `nid` grouped by the node at the other end (with every line), sorted by
/// its ID.
pub(super) fn linked(
    g: &mut Graph<'_, '_>,
    nid: i64,
    dir: Direction,
    kind: EdgeKind,
) -> Result<Vec<CallLink>, QueryError> {
    let mut by_node: BTreeMap<i64, (Vec<u32>, f64, String)> = BTreeMap::new();
    for h in g.hops(nid, dir, &[kind], usize::MAX)? {
        let entry = by_node.entry(h.other).or_insert_with(|| (Vec::new(), -1.0, String::new()));
        entry.0.push(h.edge.line);
        if h.edge.weight > entry.1 {
            entry.1 = h.edge.weight;
            entry.2 = h.edge.reason;
        }
    }
    let mut out = Vec::with_capacity(by_node.len());
    for (other, (mut lines, weight, reason)) in by_node {
        lines.sort_unstable();
        lines.dedup();
        out.push(CallLink { node: g.node(other)?.clone(), lines, weight, reason });
    }
    out.sort_by(|a, b| a.node.id.cmp(&b.node.id));
    Ok(out)
}
