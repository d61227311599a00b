//! Node units: the publication units that are one node each, not one file: a language's
//! directory packages (a Go package, a Terraform module) with their package-level edges, and
//! the concepts files refer to (`cmd:kubectl`, `env:KUBECONFIG`, `image:nginx`).
//!
//! Why it exists: these rows span several files, so they cannot belong to a file unit, and
//! the engine must not know which language has which (it lists [`node_units`], publishes each
//! one's [`node_unit_graph`] and rewrites it when its [`node_unit_digest`] changes). A
//! language declares its units through `LanguageResolver::node_units`; concepts are generic:
//! a concept unit exists while some file's resolution refers to it (REFERS_TO to a
//! `concept:` ID), so a concept nobody mentions any more disappears with its last reference.

use crate::graph::{Edge, Node};
use crate::ids::Id;
use crate::keys::FileKey;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::Language;
use codegraph_schema::{EdgeKind, NodeCategory, ids};
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};

/// Who derives a node unit's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitOwner {
    /// The language's resolver (`LanguageResolver::node_unit_graph`).
    Language(Language),
    /// A concept node, built from its ID.
    Concept,
}

/// A unit that publishes one node (and the edges it owns). Get them from [`node_units`].
#[salsa::interned(debug)]
pub struct NodeUnit<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(copy)]
    pub owner: UnitOwner,
    /// What the owner knows the unit by: a root-relative directory (`""` for the root) for a
    /// package, the ID for a concept.
    #[returns(deref)]
    pub key: String,
    /// The ID of its node: `pkg:go:net/http`, `pkg:tf:modules/vpc`, `concept:cmd:kubectl`.
    #[returns(deref)]
    pub id: String,
}

/// The rows of a node unit (or of all of them, [`node_unit_rows`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnitGraph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// Every node unit of the workspace: each language's (in registry order, each sorted by key),
/// then the concepts (sorted by ID). A language's list reads paths and languages only; the
/// concept list reads [`file_concepts`] of the files whose language refers to concepts.
#[salsa::tracked(returns(ref))]
pub fn node_units(db: &dyn salsa::Database, workspace: Workspace) -> Vec<NodeUnit<'_>> {
    let mut out = Vec::new();
    for &language in Language::ALL {
        let resolver = crate::languages::resolver(language);
        for (key, id) in resolver.node_units(db, workspace) {
            out.push(NodeUnit::new(db, workspace, UnitOwner::Language(language), key, id));
        }
    }
    let mut concepts: BTreeSet<&Id> = BTreeSet::new();
    for &file in concept_files(db, workspace) {
        concepts.extend(file_concepts(db, FileKey::new(db, workspace, file)));
    }
    for id in concepts {
        out.push(NodeUnit::new(db, workspace, UnitOwner::Concept, id.to_string(), id.to_string()));
    }
    out
}

/// The concepts one file's resolution refers to, sorted: the `Eq` firewall between a file's
/// rows and the unit list, so an edit that moves a line or a call (but names the same
/// commands, variables and images) does not re-list the units.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_concepts<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Vec<Id> {
    let rows = crate::resolve_file(db, key.workspace(db), key.file(db));
    let mut out: Vec<Id> = rows
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::RefersTo && ids::is(&e.dst, NodeCategory::Concept))
        .map(|e| e.dst.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The files whose language refers to concepts, in workspace order. Reads paths and
/// languages only, so a list change elsewhere (a new TS file) stops here.
#[salsa::tracked(returns(ref))]
fn concept_files(db: &dyn salsa::Database, workspace: Workspace) -> Vec<SourceFile> {
    workspace
        .files(db)
        .iter()
        .copied()
        .filter(|&f| crate::languages::of(db, f).is_some_and(|r| r.has_concepts()))
        .collect()
}

/// One node unit's rows; memoized by its owner (a language's package query, or
/// [`concept_graph`]).
pub fn node_unit_graph<'db>(db: &'db dyn salsa::Database, unit: NodeUnit<'db>) -> &'db UnitGraph {
    match unit.owner(db) {
        UnitOwner::Language(l) => {
            crate::languages::resolver(l).node_unit_graph(db, unit.workspace(db), unit.key(db))
        }
        UnitOwner::Concept => concept_graph(db, unit),
    }
}

/// Every node unit's rows, in [`node_units`] order (tests and tools).
#[salsa::tracked(returns(ref))]
pub fn node_unit_rows(db: &dyn salsa::Database, workspace: Workspace) -> UnitGraph {
    let mut out = UnitGraph::default();
    for &unit in node_units(db, workspace) {
        let g = node_unit_graph(db, unit);
        out.nodes.extend(g.nodes.iter().cloned());
        out.edges.extend(g.edges.iter().cloned());
    }
    out
}

/// The digest of a node unit's rows (see `digest.rs` for what digests promise).
#[salsa::tracked(returns(copy))]
pub fn node_unit_digest<'db>(db: &'db dyn salsa::Database, unit: NodeUnit<'db>) -> u64 {
    let mut h = crate::digest::unit_hasher();
    node_unit_graph(db, unit).hash(&mut h);
    h.finish()
}

/// A concept's node: its kind and name come from its ID (`concept:cmd:kubectl` -> a
/// `command` named `kubectl`, qualified `cmd:kubectl`); it has no file and owns no edge.
#[salsa::tracked(returns(ref))]
fn concept_graph<'db>(db: &'db dyn salsa::Database, unit: NodeUnit<'db>) -> UnitGraph {
    let id = unit.id(db);
    let Some((kind, name)) = ids::concept_parts(id) else {
        return UnitGraph::default();
    };
    let qualified = ids::rest(id, NodeCategory::Concept).unwrap_or(id);
    UnitGraph {
        nodes: vec![Node::unfiled(
            crate::ids::intern(id),
            kind,
            name.to_string(),
            qualified.to_string(),
            None,
        )],
        edges: Vec::new(),
    }
}

/// Helper for concept-referring resolvers: the REFERS_TO edge from `src` to a concept.
pub(crate) fn concept_edge(
    src: Id,
    kind: codegraph_schema::NodeKind,
    name: &str,
    reason: codegraph_schema::Reason,
    line: u32,
) -> Option<Edge> {
    let dst = ids::concept(kind, name)?;
    Some(Edge::new(src, crate::ids::intern(&dst), EdgeKind::RefersTo, reason, line))
}
