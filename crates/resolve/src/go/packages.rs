//! The Go package layer of the graph: one publication unit per package directory, with the
//! package node, CONTAINS package -> file, and HAS_METHOD from a type to the methods declared
//! in other files of its package.
//!
//! Why it exists: these rows span several files, so they cannot belong to a file unit, and a
//! single whole-workspace query would re-run on every Go edit. [`package_dirs`] lists the
//! packages from paths and languages only (a content edit never re-runs it), and
//! `package_unit_graph` reads one package's file list and each file's
//! `go_file_summary` (package clause, top-level type names, method receivers), an `Eq`
//! firewall, so an edit inside a function body stops before it.

use crate::go::go_package_id;
use crate::go::layout::{go_dir_files, go_file_summary, go_files};
use crate::graph::{Edge, Node};
use crate::ids::{Id, file_id};
use crate::keys::DirKey;
use crate::units::UnitGraph;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::Language;
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use rustc_hash::FxHashMap as HashMap;

/// The Go packages of the workspace as node units (directory, package ID), sorted by
/// directory. Reads paths and languages only.
pub(crate) fn package_dirs(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> Vec<(String, String)> {
    go_files(db, workspace)
        .dirs
        .keys()
        .map(|dir| (dir.clone(), go_package_id(dir).to_string()))
        .collect()
}

/// One package's rows (the node unit's graph, `crate::node_unit_graph`); empty for a
/// directory without Go files.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_unit_graph<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> UnitGraph {
    let files = go_dir_files(db, dir);
    let mut out = UnitGraph::default();
    if files.is_empty() {
        return out;
    }
    let dir = dir.dir(db).as_str();
    let pid = go_package_id(dir);
    let mut name: Option<&str> = None;
    // Type name -> (symbol ID, file) for the top-level types of the package.
    let mut types: HashMap<&str, (&Id, SourceFile)> = HashMap::default();
    for &file in files {
        let summary = go_file_summary(db, file);
        // Prefer the package's own name over an external `_test` package in the same dir.
        if let Some(p) = summary.package.as_deref()
            && name.is_none_or(|n| n.ends_with("_test") && !p.ends_with("_test"))
        {
            name = Some(p);
        }
        for (type_name, id) in &summary.types {
            types.entry(type_name.as_str()).or_insert((id, file));
        }
        out.edges.push(Edge::new(
            pid.clone(),
            file_id(file.path(db)),
            EdgeKind::Contains,
            Reason::Structural,
            0,
        ));
    }
    for &file in files {
        for (recv, method_id) in &go_file_summary(db, file).methods {
            if let Some(&(type_id, type_file)) = types.get(recv.as_str()) {
                let reason =
                    if type_file == file { Reason::Structural } else { Reason::SamePackage };
                out.edges.push(Edge::new(
                    type_id.clone(),
                    method_id.clone(),
                    EdgeKind::HasMethod,
                    reason,
                    0,
                ));
            }
        }
    }
    let short = dir.rsplit('/').next().unwrap_or(dir);
    out.nodes.push(Node::unfiled(
        pid,
        NodeKind::Package,
        name.unwrap_or(if short.is_empty() { "." } else { short }).to_string(),
        if dir.is_empty() { ".".to_string() } else { dir.to_string() },
        Some(Language::Go.as_str()),
    ));
    out
}
