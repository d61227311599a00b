//! Derives the graph from per-file facts: stable IDs, nodes, and edges, as salsa queries.
//!
//! Per-file results ([`file_node`], [`file_graph`]) depend only on that file's metadata and
//! facts, so an edit re-derives only its own file; cross-file derivations (a Go package's
//! node and edges, [`resolve_file`]) read small per-file and per-package tables, each an `Eq`
//! firewall, so an edit re-runs the resolution of the files that can see what changed and no
//! other.
//!
//! The rows are published in units: one per file ([`file_unit_digest`] covers its
//! [`file_node`], [`file_graph`] and [`resolve_file`]) and one per node that no file owns (a
//! directory package, a concept: [`node_units`], [`node_unit_graph`], [`node_unit_digest`]). A daemon recomputes
//! every unit's digest after an edit (only the edited files' own when [`file_surface`] says
//! nothing other units read of them changed) and rewrites the units whose digest changed; the
//! digest queries of units whose outputs compared equal do not even re-execute.
//!
//! Architecture invariant: this crate knows nothing of SQLite, rmcp, serde DTOs or the file
//! system. It turns [`codegraph_db`] inputs into plain [`Node`] / [`Edge`] values; storing them
//! is someone else's job.

mod digest;
mod docs;
mod elixir;
pub mod endpoints;
mod go;
mod graph;
pub mod ids;
mod java;
mod keys;
mod kubernetes;
mod languages;
mod layout;
mod protobuf;
mod python;
mod renames;
mod resolved;
mod rust;
mod shared;
mod shell;
mod surface;
mod terraform;
mod tested;
#[cfg(feature = "example-language")]
mod toy;
mod ts;
mod units;

pub use digest::file_rows_digest;
pub use go::layout::{InferredPrefix, go_inferred_prefix};
pub use go::table::Platform as GoPlatform;
pub use graph::{Edge, FileGraph, Node, file_graph, file_node, release_unused_rows, symbol_ids};
pub use keys::describe_key;
pub use renames::{NamedAfter, RenameTarget, named_after, outside_interface_methods};
pub use resolved::{Resolved, UnresolvedSite, caller_id};
pub use surface::{file_summaries, file_surface};
pub use units::{
    NodeUnit, UnitGraph, UnitOwner, node_unit_digest, node_unit_graph, node_unit_rows, node_units,
};

use codegraph_db::{SourceFile, Workspace};

/// Does resolution read this file's text (not facts)? `go.mod`, `Cargo.toml` (crate names),
/// and every JSON file (tsconfig, package.json, and whatever a tsconfig `extends`). Such files
/// must be loaded as [`codegraph_db::Content::Text`]; facts restored from an index would hide
/// their text.
pub fn reads_as_text(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "go.mod" || name == "Cargo.toml" || path.ends_with(".json")
}
use keys::FileKey;

/// Cross-file edges (CALLS, IMPORTS, EXTENDS, IMPLEMENTS, ACCESSES) and unresolved call sites
/// of one file, by language. Memoized per (workspace, file).
pub fn resolve_file(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> &Resolved {
    let key = FileKey::new(db, workspace, file);
    // A language that keeps its rows whole elsewhere answers without a copy.
    if let Some(rows) = languages::of(db, file).and_then(|r| r.rows_ref(db, key)) {
        return rows;
    }
    resolved::resolve_file(db, key)
}

/// A digest of everything one file publishes: its [`file_node`], [`file_graph`] and
/// [`resolve_file`] rows; equal rows give equal digests in every process of the same build.
pub fn file_unit_digest(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> u64 {
    digest::file_unit_digest(db, FileKey::new(db, workspace, file))
}
