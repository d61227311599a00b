//! A file's *surface*: everything of it that the queries of other units read, and a cheap way
//! to tell whether an edit changed any of it.
//!
//! Why it exists: after an edit a daemon must find the units whose rows moved. Asking every
//! unit's digest is always right, but on a large tree it costs salsa's validation of every
//! memo of every file (~25 ms on the Go standard library, more than the rest of an edit), and
//! most edits (a function body, a comment) cannot reach another unit at all: other units read
//! a file only through its `Eq` firewalls (symbol IDs, a Go file's declarations, a TS file's
//! index...), and those compare equal. [`file_surface`] reads exactly those firewalls, and
//! nothing else, so salsa re-executes it only when one of them really changed (a firewall
//! re-derived to an equal value is backdated and does not count). Each execution returns a
//! new number from a process-wide counter: the same number before and after an edit means
//! no other unit can have changed, and the edited files' own units are all there is to
//! re-derive.
//!
//! The generic part (symbol IDs and kinds, doc names, endpoints, concepts: what endpoint
//! composition, docs and node units read of any file) is here; the language part is
//! [`crate::languages::LanguageResolver::surface`], which touches the language's own
//! firewalls. A language that does not declare them (or a file no language reads) has no
//! surface: `None`, and an edit of it takes the full path. The claim "other units read only
//! the surface" is held by the engine's verification mode (`Engine::set_verify_surface`),
//! which derives every unit after each shortcut and fails on any difference; the randomized
//! differential test runs every language with it.

use crate::keys::FileKey;
use codegraph_db::{SourceFile, Workspace};
use std::sync::atomic::{AtomicU64, Ordering};

/// The counter behind every surface value (numbers are never reused within a process).
static EPOCH: AtomicU64 = AtomicU64::new(1);

/// See the module doc.
#[salsa::tracked(returns(copy))]
fn surface_epoch<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Option<u64> {
    let file = key.file(db);
    let resolver = crate::languages::of(db, file)?;
    if !resolver.surface(db, key) {
        return None;
    }
    generic_summaries(db, file, resolver);
    if resolver.has_concepts() {
        crate::units::file_concepts(db, key);
    }
    Some(EPOCH.fetch_add(1, Ordering::Relaxed))
}

/// The generic queries of `file` that other units read and that need no workspace: symbol IDs
/// and kinds, doc names, endpoints.
fn generic_summaries(
    db: &dyn salsa::Database,
    file: SourceFile,
    resolver: &dyn crate::languages::LanguageResolver,
) {
    crate::graph::symbol_ids(db, file);
    crate::graph::symbol_heads(db, file);
    crate::docs::doc_names(db, file);
    crate::docs::go_package_of(db, file);
    if resolver.has_endpoints() {
        crate::endpoints::file_endpoints(db, file);
    }
}

/// Computes every query of `file` that other units read and that reads the file alone (the
/// generic ones and the language's [`crate::languages::LanguageResolver::own_summaries`]).
/// A cold build calls it while it holds the file's facts: resolution's passes over every
/// file then read these memos instead of decoding stored facts again.
pub fn file_summaries(db: &dyn salsa::Database, file: SourceFile) {
    let Some(resolver) = crate::languages::of(db, file) else { return };
    generic_summaries(db, file, resolver);
    resolver.own_summaries(db, file);
}

/// The surface of `file` in `workspace` (see the module doc): equal before and after an edit
/// exactly when nothing other units read of the file changed; `None` when its language
/// declares no surface (then every edit of it must re-derive every unit).
pub fn file_surface(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Option<u64> {
    surface_epoch(db, FileKey::new(db, workspace, file))
}
