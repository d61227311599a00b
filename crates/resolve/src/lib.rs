//! Derives the graph from per-file facts: stable IDs, nodes, and edges, as salsa queries.
//!
//! Per-file results ([`file_graph`]) depend only on that file's facts and metadata, so an edit
//! re-derives only its own file; cross-file derivations (Go packages and methods declared apart
//! from their type, and, later, imports and calls) are separate queries over the workspace.
//!
//! Architecture invariant: this crate knows nothing of SQLite, rmcp, serde DTOs or the file
//! system. It turns [`codegraph_db`] inputs into plain [`Node`] / [`Edge`] values; storing them
//! is someone else's job.

mod go;
mod graph;
pub mod ids;
mod resolved;
mod ts;

pub use graph::{
    Edge, FileGraph, Node, PackageGraph, file_graph, file_node, package_graph, symbol_ids,
};
pub use resolved::{Resolved, UnresolvedSite, caller_id};

use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::Language;

/// Cross-file edges and unresolved call sites of one file, by language.
#[salsa::tracked(returns(ref))]
pub fn resolve_file(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> Resolved {
    match file.language(db) {
        Some(Language::Go) => go::resolve_file(db, workspace, file),
        Some(Language::TypeScript | Language::Tsx | Language::JavaScript) => {
            ts::resolve_file(db, workspace, file)
        }
        Some(Language::Markdown) | None => Resolved::default(),
    }
}
