//! Protobuf resolution: `import`s to the `.proto` files they name, and the message and enum
//! types that fields, rpcs and `extend`s name to their declarations (REFERS_TO).
//!
//! Imports: a path is relative to an include root (`protoc -I`), which the repository does
//! not say, so `import "a/b.proto"` names the workspace's file at `a/b.proto` or at
//! `ROOT/a/b.proto` for some directory `ROOT`; when several match (vendored copies), the one
//! whose root is also a root of the importer (the longest such), else none.
//!
//! Types follow protobuf's scoping: a relative name `a.B` is looked up from the innermost
//! scope out (the enclosing messages, then the package and each of its parents, then the
//! top), a fully qualified `.pkg.B` as written. A full name several files declare (copies of
//! a schema) resolves to the one the referring file sees (itself, its imports, and what they
//! re-export with `import public`), else to none. A type declared once in the workspace but
//! not imported (an include path we could not follow) still resolves, as `name-only`.
//! Names outside the workspace (`google.protobuf.Timestamp` without its file) have no edge.
//!
//! Incrementality: [`proto_decls`] is one file's package, full type names and public imports
//! (no lines), an `Eq` firewall: an edit that leaves them equal re-resolves only the edited
//! file.

use crate::graph::{Edge, symbol_ids};
use crate::keys::FileKey;
use crate::languages::LanguageResolver;
use crate::layout::{LanguageKey, language_dirs};
use crate::resolved::{Resolved, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{CallSite, FileFacts, ImportKind, Language, Receiver, SymbolIdx};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::HashMap;

pub(crate) struct ProtoResolver;

pub(crate) static PROTO_RESOLVER: ProtoResolver = ProtoResolver;

/// What other files' resolution reads of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProtoDecls {
    /// Full names (`pkg.Outer.Inner`) of its messages, enums and services, with their
    /// symbols, in source order.
    pub names: Vec<(String, SymbolIdx)>,
    /// The paths it imports with `import public`, as written.
    pub public: Vec<String>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn proto_decls(db: &dyn salsa::Database, file: SourceFile) -> ProtoDecls {
    let facts = &file_facts(db, file);
    let package = facts.proto().and_then(|p| p.package.as_deref()).unwrap_or("");
    let names = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.kind, NodeKind::Struct | NodeKind::Enum | NodeKind::Interface))
        .map(|(i, s)| (full_name(package, &s.qualified_name), u32::try_from(i).unwrap_or(0)))
        .collect();
    let public = facts
        .imports
        .iter()
        .filter(|i| i.kind == ImportKind::ReExport)
        .map(|i| i.source.clone())
        .collect();
    ProtoDecls { names, public }
}

/// Every Protobuf declaration of the workspace by full name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProtoTable {
    pub names: HashMap<String, Vec<(SourceFile, SymbolIdx)>>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn proto_table(db: &dyn salsa::Database, workspace: Workspace) -> ProtoTable {
    let mut out = ProtoTable::default();
    for &f in proto_files(db, workspace) {
        for (name, idx) in &proto_decls(db, f).names {
            out.names.entry(name.clone()).or_default().push((f, *idx));
        }
    }
    out
}

/// The workspace's `.proto` files (the per-language listing: paths only).
fn proto_files(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> impl Iterator<Item = &SourceFile> {
    language_dirs(db, LanguageKey::new(db, workspace, Language::Protobuf)).values().flatten()
}

fn full_name(package: &str, qualified: &str) -> String {
    if package.is_empty() { qualified.to_string() } else { format!("{package}.{qualified}") }
}

/// The file `import "source"` in the file at `importer` names, among `files` (path, file):
/// see the module doc. When no file has the path, the include root lay above the repository
/// (`etcd/auth/auth.proto` from a checkout of `etcd` under `go.etcd.io/`): leading
/// directories are dropped one by one (two components kept at least) until some file has it.
fn import_target(files: &[(&str, SourceFile)], importer: &str, source: &str) -> Option<SourceFile> {
    let mut path = source.trim_start_matches("./");
    loop {
        // (include root, file) for each file the path can name.
        let found: Vec<(&str, SourceFile)> = files
            .iter()
            .filter_map(|&(p, f)| {
                if p == path {
                    return Some(("", f));
                }
                Some((p.strip_suffix(path)?.strip_suffix('/')?, f))
            })
            .collect();
        match found.as_slice() {
            [] => match path.split_once('/') {
                Some((_, tail)) if tail.contains('/') => path = tail,
                _ => return None,
            },
            [(_, f)] => return Some(*f),
            // Several copies: the one under the importer's own (longest) include root.
            _ => {
                let under =
                    |root: &str| root.is_empty() || importer.starts_with(&format!("{root}/"));
                let best = found.iter().filter(|(r, _)| under(r)).map(|(r, _)| r.len()).max()?;
                let mut at_best = found.iter().filter(|(r, _)| under(r) && r.len() == best);
                return match (at_best.next(), at_best.next()) {
                    (Some((_, f)), None) => Some(*f),
                    _ => None,
                };
            }
        }
    }
}

/// The files `file` sees: itself, what it imports (`imported`), and what those re-export
/// (`import public`, transitively).
fn visible_files(
    db: &dyn salsa::Database,
    files: &[(&str, SourceFile)],
    file: SourceFile,
    imported: &[SourceFile],
) -> Vec<SourceFile> {
    let mut out = vec![file];
    let mut queue: Vec<SourceFile> = imported.to_vec();
    while let Some(f) = queue.pop() {
        if out.contains(&f) {
            continue;
        }
        out.push(f);
        let from = f.path(db);
        queue
            .extend(proto_decls(db, f).public.iter().filter_map(|p| import_target(files, from, p)));
    }
    out
}

/// What a type reference names: its declaration and why.
fn resolve_type(
    table: &ProtoTable,
    facts: &FileFacts,
    visible: &[SourceFile],
    file: SourceFile,
    r: &CallSite,
) -> Option<((SourceFile, SymbolIdx), Reason)> {
    let mut parts: Vec<&str> = match &r.callee.receiver {
        Receiver::Path(p) => p.iter().map(|s| s.as_str()).collect(),
        _ => Vec::new(),
    };
    parts.push(&r.callee.name);
    let pick = |name: &str| -> Option<((SourceFile, SymbolIdx), Reason)> {
        let found = table.names.get(name)?;
        let seen: Vec<&(SourceFile, SymbolIdx)> =
            found.iter().filter(|(f, _)| visible.contains(f)).collect();
        match (seen.as_slice(), found.as_slice()) {
            ([t], _) => {
                Some((**t, if t.0 == file { Reason::SameFile } else { Reason::ImportResolved }))
            }
            ([], [t]) => Some((*t, Reason::NameOnly)),
            _ => None,
        }
    };
    if parts.first() == Some(&"") {
        return pick(&parts[1..].join("."));
    }
    // The scope: the package, then the messages around the reference.
    let package = facts.proto().and_then(|p| p.package.as_deref()).unwrap_or("");
    let mut scope: Vec<&str> = package.split('.').filter(|s| !s.is_empty()).collect();
    let mut message = r.enclosing;
    // A field's scope is the message it is in; an rpc's, its package.
    while let Some(i) = message {
        let s = facts.symbols.get(i as usize)?;
        if s.kind == NodeKind::Struct {
            scope.extend(s.qualified_name.split('.'));
            break;
        }
        message = s.parent;
    }
    let written = parts.join(".");
    for depth in (0..=scope.len()).rev() {
        let prefix = scope[..depth].join(".");
        let name = if prefix.is_empty() { written.clone() } else { format!("{prefix}.{written}") };
        if table.names.contains_key(&name) {
            return pick(&name);
        }
    }
    None
}

impl LanguageResolver for ProtoResolver {
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        proto_decls(db, key.file(db));
        true
    }

    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let table = proto_table(db, workspace);
        let files: Vec<(&str, SourceFile)> =
            proto_files(db, workspace).map(|&f| (f.path(db).as_str(), f)).collect();
        let path = file.path(db);
        let mut out = Resolved::default();
        let file_id = crate::ids::file_id(path);
        let mut imported = Vec::new();
        for imp in &facts.imports {
            let Some(target) = import_target(&files, path, &imp.source) else { continue };
            imported.push(target);
            if target != file {
                out.edges.push(Edge::new(
                    file_id.clone(),
                    crate::ids::file_id(target.path(db)),
                    EdgeKind::Imports,
                    Reason::ImportResolved,
                    imp.line,
                ));
            }
        }
        let visible = visible_files(db, &files, file, &imported);
        for r in &facts.type_refs {
            let Some(((f, idx), reason)) = resolve_type(table, facts, &visible, file, r) else {
                continue;
            };
            let Some(dst) = symbol_ids(db, f).get(idx as usize).cloned() else { continue };
            let src = caller_id(db, file, r.enclosing);
            out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, reason, r.line));
        }
        out.edges.sort();
        out.edges.dedup();
        out
    }

    fn has_endpoints(&self) -> bool {
        true
    }
}
