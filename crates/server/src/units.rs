//! The units a revision is published in, and their digests: one unit per file (its file node,
//! symbols, structural edges, resolved edges and unresolved sites) and one per Go package (the
//! package node, CONTAINS package -> file, HAS_METHOD across the package's files).
//!
//! The engine compares each unit's digest with the one it published last and rewrites only the
//! units that differ. A digest is a hash of the unit's rows; a different build may hash
//! differently, which only causes extra rewrites, never wrong rows.

use codegraph_db::{SourceFile, Workspace};
use codegraph_resolve::{Edge, Node, file_graph, file_node, package_graph, resolve_file};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// A stable 64-bit FNV-1a hasher (no per-process random keys).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn digest_of(parts: &[&dyn std::fmt::Debug]) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for p in parts {
        format!("{p:?}").hash(&mut h);
    }
    h.finish()
}

/// The digest of a file unit's rows.
pub fn file_digest(db: &dyn salsa::Database, ws: Workspace, file: SourceFile) -> u64 {
    digest_of(&[file_node(db, file), file_graph(db, file), resolve_file(db, ws, file)])
}

/// One Go package's rows.
#[derive(Debug, Default)]
pub struct PackageRows {
    pub id: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub digest: u64,
}

/// The Go package units of the workspace, with their rows and digests, sorted by ID.
pub fn package_units(db: &dyn salsa::Database, ws: Workspace) -> Vec<PackageRows> {
    let graph = package_graph(db, ws);
    let mut units: BTreeMap<String, PackageRows> = BTreeMap::new();
    for n in &graph.nodes {
        units.insert(
            n.id.clone(),
            PackageRows { id: n.id.clone(), nodes: vec![n.clone()], ..Default::default() },
        );
    }
    for e in &graph.edges {
        // CONTAINS starts at the package; HAS_METHOD ends at a method in one of its files.
        let owner = if units.contains_key(&e.src) {
            e.src.clone()
        } else {
            let path =
                e.dst.strip_prefix("sym:go:").and_then(|r| r.split(':').next()).unwrap_or("");
            codegraph_resolve::ids::go_package_id(codegraph_resolve::ids::parent_dir(path))
        };
        if let Some(u) = units.get_mut(&owner) {
            u.edges.push(e.clone());
        }
    }
    let mut out: Vec<PackageRows> = units.into_values().collect();
    for u in &mut out {
        u.digest = digest_of(&[&u.nodes, &u.edges]);
    }
    out
}
