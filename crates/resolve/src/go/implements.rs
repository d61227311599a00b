//! Structural IMPLEMENTS: a named non-interface type implements an interface when its method
//! set (pointer receivers and promoted methods included) covers the interface's method names.
//!
//! Why it exists: Go satisfaction is implicit, so no file says "T implements I"; it has to be
//! computed across packages. Three layers keep it incremental and bounded:
//! [`package_interfaces`] (one package's non-empty interfaces with complete method sets) is
//! re-derived when that package's table changes and usually compares equal (a signature edit
//! rarely touches an interface); [`interface_index`] (all of them, indexed by first method name)
//! only merges those lists, and its result changes only when some interface's method set did;
//! and
//! [`package_implements`] checks the types of one package against that index, looking only at
//! interfaces whose key method the type has, so the work is proportional to methods, not
//! types x interfaces.

use super::layout::go_layout;
use super::lookup::Tables;
use super::table::{SymRef, TypeRef, package_table};
use crate::graph::{Edge, symbol_ids};
use crate::keys::DirKey;
use codegraph_db::{SourceFile, Workspace};
use codegraph_schema::{EdgeKind, Reason};
use rustc_hash::FxHashMap as HashMap;

/// The interfaces of the workspace with complete, non-empty method sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct InterfaceIndex {
    /// Interface symbol and its method names, sorted.
    pub entries: Vec<(SymRef, Vec<String>)>,
    /// First method name -> indices into `entries`.
    pub by_key: HashMap<String, Vec<usize>>,
}

/// The interfaces declared in `dir` with complete, non-empty method sets: `(interface, its
/// method names sorted)`, by package clause then type name.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_interfaces<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
) -> Vec<(SymRef, Vec<String>)> {
    let tables = Tables { db, workspace: dir.workspace(db) };
    let table = package_table(db, dir);
    let mut out = Vec::new();
    for (pkg, scope) in &table.scopes {
        let mut names: Vec<&String> = scope.types.keys().collect();
        names.sort();
        for name in names {
            let Some(info) = scope.types.get(name) else { continue };
            let Some(sym) = info.sym else { continue };
            if !info.is_interface || info.alias_of.is_some() {
                continue;
            }
            let t = TypeRef { dir: dir.dir(db).clone(), pkg: pkg.clone(), name: name.clone() };
            let (set, complete) = tables.method_names(&t);
            if !complete || set.is_empty() {
                continue;
            }
            let mut methods: Vec<String> = set.into_iter().map(str::to_string).collect();
            methods.sort();
            out.push((sym, methods));
        }
    }
    out
}

/// Nothing; it reports an untracked read, so it re-executes on every revision (and, its value
/// being `()`, is backdated at once). Reading it pins a query to LOW durability without making
/// that query re-execute.
#[salsa::tracked]
fn low_durability_pin(db: &dyn salsa::Database, _workspace: Workspace) {
    db.report_untracked_read();
}

/// Every package's [`package_interfaces`], indexed by first method name.
///
/// It depends on every Go file, so with inputs of high durability (a daemon that loads files
/// HIGH and sets edited ones LOW) the first edit of any file would lower its durability, and
/// a query whose durability drops cannot be backdated: every package's IMPLEMENTS check and
/// every file's IMPLEMENTS edges would re-execute once (1.3 s on the Go standard library).
/// Reading [`low_durability_pin`] gives it LOW durability from the start instead; it is still
/// re-executed only when a package's interface list changed.
#[salsa::tracked(returns(ref))]
pub(crate) fn interface_index(db: &dyn salsa::Database, workspace: Workspace) -> InterfaceIndex {
    low_durability_pin(db, workspace);
    let mut index = InterfaceIndex::default();
    for dir in &go_layout(db, workspace).dirs {
        for (sym, methods) in package_interfaces(db, DirKey::new(db, workspace, dir.as_str())) {
            let Some(first) = methods.first() else { continue };
            let i = index.entries.len();
            index.by_key.entry(first.clone()).or_default().push(i);
            index.entries.push((*sym, methods.clone()));
        }
    }
    index
}

/// IMPLEMENTS edges from the types declared in `dir`, each with the file declaring the type.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_implements<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
) -> Vec<(SourceFile, Edge)> {
    let workspace = dir.workspace(db);
    let tables = Tables { db, workspace };
    let index = interface_index(db, workspace);
    let table = package_table(db, dir);
    let mut out = Vec::new();
    for (pkg, scope) in &table.scopes {
        let mut names: Vec<&String> = scope.types.keys().collect();
        names.sort();
        for name in names {
            let Some(info) = scope.types.get(name) else { continue };
            let Some(sym) = info.sym else { continue };
            if info.is_interface || info.alias_of.is_some() {
                continue;
            }
            let t = TypeRef { dir: dir.dir(db).clone(), pkg: pkg.clone(), name: name.clone() };
            let (set, _) = tables.method_names(&t);
            let mut hits: Vec<usize> = Vec::new();
            for m in &set {
                for &i in index.by_key.get(*m).into_iter().flatten() {
                    let Some((_, methods)) = index.entries.get(i) else { continue };
                    if methods.iter().all(|n| set.contains(n.as_str())) {
                        hits.push(i);
                    }
                }
            }
            hits.sort_unstable();
            let Some(src) = symbol_ids(db, sym.file).get(sym.idx as usize) else { continue };
            for i in hits {
                let Some((iface, _)) = index.entries.get(i) else { continue };
                let Some(dst) = symbol_ids(db, iface.file).get(iface.idx as usize) else {
                    continue;
                };
                out.push((
                    sym.file,
                    Edge::new(src.clone(), dst.clone(), EdgeKind::Implements, Reason::MethodSet, 0),
                ));
            }
        }
    }
    out
}
