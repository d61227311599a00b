//! Unit digests: one `u64` per published unit (a file, a node unit: see `units.rs`) that changes when, and
//! only when, the unit's rows change.
//!
//! Why it exists: after an edit the daemon must find the units whose rows to rewrite without
//! comparing rows. It keeps the digest it published last for each unit (in memory and in
//! SQLite, across processes) and rewrites a unit when its digest differs. Each digest is a
//! tracked query over the unit's `Eq` outputs, so when those outputs were re-derived but
//! compared equal (salsa backdates them), the digest query does not even re-execute.
//!
//! The hash is std's `DefaultHasher::new()` (SipHash-1-3 with fixed zero keys, no random
//! state) over the derived `Hash` of the rows, so it is the same in every process of one
//! build. Another build (another Rust release, a reordered enum) may hash the same rows
//! differently: that only makes the daemon rewrite units whose rows did not change, never keep
//! stale rows. Two different row sets colliding on 64 bits is the one way a change could be
//! missed; with a keyed-quality hash that is a 2^-64 event per comparison.

use crate::graph::{file_graph, file_node};
use crate::keys::FileKey;
use crate::resolved::resolve_file;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The digest of a file unit: its file node, file graph and resolution rows.
#[salsa::tracked(returns(copy))]
pub(crate) fn file_unit_digest<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> u64 {
    let file = key.file(db);
    let mut h = DefaultHasher::new();
    file_node(db, file).hash(&mut h);
    file_graph(db, file).hash(&mut h);
    match crate::languages::of(db, file) {
        Some(r) => r.digest(db, key, &mut h),
        None => resolve_file(db, key).hash(&mut h),
    }
    h.finish()
}
