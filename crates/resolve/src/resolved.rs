//! What cross-file resolution produces for one file: edges (CALLS, IMPORTS, EXTENDS,
//! IMPLEMENTS, ACCESSES) and the call sites it could not resolve, so answers can say how
//! complete they are.

use crate::graph::{Edge, Node, symbol_ids};
use crate::ids::{Id, file_id};
use crate::keys::FileKey;
use codegraph_db::SourceFile;
use codegraph_parse::SymbolIdx;
use std::sync::Arc;

/// The resolution result of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Resolved {
    /// Nodes that exist because of other files: routes this file mounts under a prefix (a
    /// router declared elsewhere, served here at the composed path).
    pub nodes: Vec<Node>,
    /// Edges whose source is in this file (a call site, an import, a declaration) or is one of
    /// `nodes`.
    pub edges: Vec<Edge>,
    /// Call sites of this file that resolved to nothing.
    pub unresolved: Vec<UnresolvedSite>,
    /// Call sites of this file that became a CALLS edge (two calls of one callee on one line
    /// are one edge, two sites).
    pub resolved_calls: u32,
    /// Call sites of this file that call outside the workspace (a package, a runtime global):
    /// neither an edge nor unresolved. With `resolved_calls` and `unresolved` they account for
    /// every call site of the file (TS/JS; both 0 for the other languages).
    pub external_calls: u32,
}

impl Resolved {
    /// Without spare capacity: a memo keeps it for the life of the file's version.
    pub(crate) fn compact(mut self) -> Resolved {
        codegraph_parse::fit_exactly(&mut self.nodes);
        codegraph_parse::fit_exactly(&mut self.edges);
        codegraph_parse::fit_exactly(&mut self.unresolved);
        self
    }
}

pub use codegraph_schema::UnresolvedSite;

/// The node ID that owns code at `enclosing` in `file`: the symbol, or the file itself for
/// module-level code (`<module>`).
pub fn caller_id(db: &dyn salsa::Database, file: SourceFile, enclosing: Option<SymbolIdx>) -> Id {
    enclosing
        .and_then(|i| symbol_ids(db, file).get(i as usize).cloned())
        .unwrap_or_else(|| file_id(file.path(db)))
}

/// The resolution of one file of a workspace, by language (`crate::resolve_file` is the
/// public entry). For Go, the concatenation of the two memoized parts.
/// Equal results of sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn resolve_file<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Arc<Resolved> {
    crate::shared::share(key.file(db).path(db), resolve_rows(db, key).compact())
}

fn resolve_rows<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
    match crate::languages::of(db, key.file(db)) {
        Some(r) => r.resolve(db, key),
        None => Resolved::default(),
    }
}

/// A file's binding hints by (scope, name), in source order, return types left out: what the
/// typed resolvers (Java, Rust) read at every call site instead of scanning every hint.
pub(crate) fn hints_by_scope(
    facts: &codegraph_parse::FileFacts,
) -> rustc_hash::FxHashMap<(SymbolIdx, &str), Vec<&codegraph_parse::TypeHint>> {
    let mut hints: rustc_hash::FxHashMap<(SymbolIdx, &str), Vec<&codegraph_parse::TypeHint>> =
        rustc_hash::FxHashMap::default();
    for h in &facts.type_hints {
        if let Some(s) = h.scope
            && !matches!(h.source, codegraph_parse::HintSource::Return(_))
        {
            hints.entry((s, h.name.as_str())).or_default().push(h);
        }
    }
    hints
}
