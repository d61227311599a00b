//! Unit digests: one `u64` per published unit (a file, a node unit: see `units.rs`) that changes when, and
//! only when, the unit's rows change.
//!
//! Why it exists: after an edit the daemon must find the units whose rows to rewrite without
//! comparing rows. It keeps the digest it published last for each unit (in memory and in
//! SQLite, across processes) and rewrites a unit when its digest differs. Each digest is a
//! tracked query over the unit's `Eq` outputs, so when those outputs were re-derived but
//! compared equal (salsa backdates them), the digest query does not even re-execute.
//!
//! The hash is foldhash's quality variant with a fixed seed ([`UnitHasher`]: no random state)
//! over the derived `Hash` of the rows, so it is the same in every process of one build.
//! Another build (another Rust or foldhash release, a reordered enum) may hash the same rows
//! differently: that only makes the daemon rewrite units whose rows did not change, never keep
//! stale rows. Two different row sets colliding on 64 bits is the one way a change could be
//! missed; the quality variant avalanches every output bit (it passes SMHasher3, as SipHash
//! does), so for rows that nobody crafts to collide that is a 2^-64 event per comparison. It
//! replaced SipHash-1-3 (std's `DefaultHasher`), which took 8% of a seeded worktree's index:
//! digests hash every row of every unit, in many small writes.

use crate::graph::{file_graph, file_node};
use crate::keys::FileKey;
use crate::resolved::resolve_file;
use codegraph_db::SourceFile;
use std::hash::{BuildHasher, Hash, Hasher};

/// The hasher of unit digests (see the module doc).
pub type UnitHasher = foldhash::quality::FoldHasher<'static>;

/// A fresh [`UnitHasher`]: the same seed in every process.
pub fn unit_hasher() -> UnitHasher {
    /// Any fixed value; changing it changes every digest (one rewrite of every unit).
    const SEED: u64 = 0x636f_6465_6772_6170;
    foldhash::quality::FixedState::with_seed(SEED).build_hasher()
}

/// The digest of a file's own rows: its file node and file graph. It is a query of its own
/// so that the graph need not stay in memory once it is known: [`file_graph`] keeps few
/// values (`lru`), and a unit digest reads this number instead of the rows.
#[salsa::tracked(returns(copy))]
pub fn file_rows_digest(db: &dyn salsa::Database, file: SourceFile) -> u64 {
    let mut h = unit_hasher();
    file_node(db, file).hash(&mut h);
    file_graph(db, file).hash(&mut h);
    h.finish()
}

/// The digest of a file unit: its file node, file graph and resolution rows.
#[salsa::tracked(returns(copy))]
pub(crate) fn file_unit_digest<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> u64 {
    let file = key.file(db);
    let mut h = unit_hasher();
    h.write_u64(file_rows_digest(db, file));
    match crate::languages::of(db, file) {
        Some(r) => r.digest(db, key, &mut h),
        None => resolve_file(db, key).hash(&mut h),
    }
    h.finish()
}
