//! Terraform resolution: a directory of `.tf` files is one module (a `pkg:tf:<dir>` node
//! unit), and references resolve by address within it.
//!
//! Rules: `var.x`, `local.y`, `data.t.n`, `t.n` (a resource) and `module.m` name a block of
//! the same module directory (REFERS_TO, `same-package`; `depends_on` entries `depends-on`);
//! `module.m.out` names output `out` of the module directory `m`'s local `source` points at
//! (`module-interface`), else the `module.m` block; `provider = aws.west` names
//! `provider.aws.west` (an implicit default provider is no miss). A `module` block with a
//! local source IMPORTS that directory's package, and each input argument `x` it passes makes
//! the child's `var.x` REFER_TO the block (`module-interface`): so the impact of a variable
//! crosses into the modules it is passed to, and a module's outputs lead back out. A
//! reference that names no block is an unresolved site (`var.missing`), never dropped.
//!
//! Incrementality: [`tf_decls`] is one file's addresses and module calls (no lines), an `Eq`
//! firewall: an edit inside a block that keeps every address leaves it equal, and the
//! directory's [`tf_table`] is not rebuilt.

use crate::graph::{Edge, Node, symbol_ids};
use crate::ids::{Id, file_id, join, package_id, parent_dir};
use crate::keys::{DirKey, FileKey};
use crate::languages::LanguageResolver;
use crate::layout::{LanguageKey, files_in, language_dirs};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use crate::units::UnitGraph;
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{CallKind, ImportKind, Imported, Language, Receiver};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::HashMap;

pub(crate) struct TerraformResolver;

pub(crate) static TERRAFORM_RESOLVER: TerraformResolver = TerraformResolver;

/// A module call of a file: its name, the directory its local source resolves to, the input
/// arguments it passes, the call's symbol.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ModuleCall {
    pub name: String,
    pub dir: String,
    pub inputs: Vec<String>,
    pub symbol: Id,
}

/// What one file declares: (address, symbol ID) and its module calls.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct TfDecls {
    pub addresses: Vec<(String, Id)>,
    pub modules: Vec<ModuleCall>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn tf_decls(db: &dyn salsa::Database, file: SourceFile) -> TfDecls {
    let facts = &file_facts(db, file);
    let ids = symbol_ids(db, file);
    let mut out = TfDecls::default();
    for (s, id) in facts.symbols.iter().zip(ids.iter()) {
        out.addresses.push((s.qualified_name.clone(), id.clone()));
    }
    let dir = parent_dir(file.path(db));
    for imp in facts.imports.iter().filter(|i| i.kind == ImportKind::Path) {
        let Some(name) = imp.bindings.first().and_then(|b| b.local.clone()) else { continue };
        let Some(target) = join(dir, &imp.source) else { continue };
        let address = format!("module.{name}");
        let Some(symbol) =
            out.addresses.iter().find(|(a, _)| *a == address).map(|(_, i)| i.clone())
        else {
            continue;
        };
        let inputs = imp
            .bindings
            .iter()
            .skip(1)
            .filter_map(|b| match &b.imported {
                Imported::Named(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        out.modules.push(ModuleCall { name, dir: target, inputs, symbol });
    }
    out
}

/// A module directory's addresses and module calls (the first declaration of an address
/// wins; Terraform rejects duplicates anyway).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TfTable {
    pub addresses: HashMap<String, Id>,
    pub modules: HashMap<String, ModuleCall>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn tf_table<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> TfTable {
    let mut out = TfTable::default();
    for &file in files_in(db, dir, Language::Terraform) {
        let decls = tf_decls(db, file);
        for (a, id) in &decls.addresses {
            out.addresses.entry(a.clone()).or_insert_with(|| id.clone());
        }
        for m in &decls.modules {
            out.modules.entry(m.name.clone()).or_insert_with(|| m.clone());
        }
    }
    out
}

/// The package node and CONTAINS edges of one module directory.
#[salsa::tracked(returns(ref))]
fn module_graph<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> UnitGraph {
    let files = files_in(db, dir, Language::Terraform);
    let mut out = UnitGraph::default();
    if files.is_empty() {
        return out;
    }
    let d = dir.dir(db).as_str();
    let pid = package_id(Language::Terraform, d);
    for &f in files {
        out.edges.push(Edge::new(
            pid.clone(),
            file_id(f.path(db)),
            EdgeKind::Contains,
            Reason::Structural,
            0,
        ));
    }
    let short = d.rsplit('/').next().unwrap_or(d);
    out.nodes.push(Node::unfiled(
        pid,
        NodeKind::Package,
        if short.is_empty() { ".".to_string() } else { short.to_string() },
        if d.is_empty() { ".".to_string() } else { d.to_string() },
        Some(Language::Terraform.as_str()),
    ));
    out
}

/// The address a traversal names in its module, and whether it reaches into a child module's
/// output (`module.m.out` -> `Some("out")`).
fn address(path: &[&str]) -> Option<(String, Option<String>)> {
    match path {
        ["var" | "local", name, ..] => Some((format!("{}.{name}", path[0]), None)),
        ["module", m, out, ..] => Some((format!("module.{m}"), Some((*out).to_string()))),
        ["module", m] => Some((format!("module.{m}"), None)),
        ["data", t, n, ..] => Some((format!("data.{t}.{n}"), None)),
        ["provider", p, a, ..] => Some((format!("provider.{p}.{a}"), None)),
        ["provider", p] => Some((format!("provider.{p}"), None)),
        [t, n, ..] => Some((format!("{t}.{n}"), None)),
        _ => None,
    }
}

impl LanguageResolver for TerraformResolver {
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        tf_decls(db, key.file(db));
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let dir = parent_dir(file.path(db)).to_string();
        let table = tf_table(db, DirKey::new(db, workspace, dir));
        let mut out = Resolved::default();
        for r in &facts.value_refs {
            let Receiver::Path(head) = &r.callee.receiver else { continue };
            let mut path: Vec<&str> = head.iter().map(|s| s.as_str()).collect();
            path.push(&r.callee.name);
            let Some((addr, output)) = address(&path) else { continue };
            let src = caller_id(db, file, r.enclosing);
            let reason =
                if r.kind == CallKind::Declared { Reason::DependsOn } else { Reason::SamePackage };
            // `module.m.out`: the child module's output, when its source is local.
            let through = output.as_ref().and_then(|o| {
                let call = table.modules.get(path.get(1).copied().unwrap_or(""))?;
                let child = tf_table(db, DirKey::new(db, workspace, call.dir.clone()));
                child.addresses.get(&format!("output.{o}")).cloned()
            });
            let target = match through {
                Some(id) => Some((id, Reason::ModuleInterface)),
                None => table.addresses.get(&addr).cloned().map(|id| (id, reason)),
            };
            match target {
                Some((dst, reason)) if dst != src => {
                    out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, reason, r.line));
                }
                Some(_) => {}
                // A provider configuration nobody declared is Terraform's implicit default.
                None if path[0] == "provider" => {}
                None => {
                    out.unresolved.push(UnresolvedSite { line: r.line, caller: src, callee: addr })
                }
            }
        }
        for call in &tf_decls(db, file).modules {
            let child_dir = DirKey::new(db, workspace, call.dir.clone());
            if files_in(db, child_dir, Language::Terraform).is_empty() {
                continue;
            }
            let line = facts
                .imports
                .iter()
                .find(|i| i.bindings.first().and_then(|b| b.local.as_deref()) == Some(&call.name))
                .map_or(0, |i| i.line);
            out.edges.push(Edge::new(
                call.symbol.clone(),
                package_id(Language::Terraform, &call.dir),
                EdgeKind::Imports,
                Reason::ImportResolved,
                line,
            ));
            let child = tf_table(db, child_dir);
            for input in &call.inputs {
                if let Some(var) = child.addresses.get(&format!("var.{input}")) {
                    out.edges.push(Edge::new(
                        var.clone(),
                        call.symbol.clone(),
                        EdgeKind::RefersTo,
                        Reason::ModuleInterface,
                        line,
                    ));
                }
            }
        }
        out
    }

    fn file_parent(&self, path: &str) -> Option<Id> {
        Some(package_id(Language::Terraform, parent_dir(path)))
    }

    fn node_units(&self, db: &dyn salsa::Database, workspace: Workspace) -> Vec<(String, String)> {
        language_dirs(db, LanguageKey::new(db, workspace, Language::Terraform))
            .keys()
            .map(|d| (d.clone(), package_id(Language::Terraform, d).to_string()))
            .collect()
    }

    fn node_unit_graph<'db>(
        &self,
        db: &'db dyn salsa::Database,
        workspace: Workspace,
        key: &str,
    ) -> &'db UnitGraph {
        module_graph(db, DirKey::new(db, workspace, key.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::address;

    #[test]
    fn addresses_of_traversals() {
        let a = |p: &[&str]| address(p);
        assert_eq!(a(&["var", "x", "y"]), Some(("var.x".into(), None)));
        assert_eq!(a(&["module", "m", "out"]), Some(("module.m".into(), Some("out".into()))));
        assert_eq!(a(&["data", "t", "n", "id"]), Some(("data.t.n".into(), None)));
        assert_eq!(a(&["aws_vpc", "this", "id"]), Some(("aws_vpc.this".into(), None)));
        assert_eq!(a(&["provider", "aws"]), Some(("provider.aws".into(), None)));
        assert_eq!(a(&["x"]), None);
    }
}
