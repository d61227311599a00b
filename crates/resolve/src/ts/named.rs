//! Classes and constructor functions by name within each package, so that a JavaScript
//! parameter nothing types can be typed by its own name (`reply` holds the package's `Reply`).
//!
//! Why it exists: JavaScript libraries pass their core objects through untyped parameters
//! (fastify's `function handleRequest (err, request, reply)` never imports `Reply`), so every
//! `reply.send(...)` in the library was an unresolved site and `impact Reply.send` saw no
//! caller. The table holds only top-level classes and functions whose name starts with an
//! upper-case letter, of production files, grouped by package (the repository's package roots,
//! [`package_roots`]: the package a parameter's value comes from); the resolver uses a name
//! only when its package declares exactly one such symbol, and only for a member that symbol
//! has. Each file's candidates are a query of its own ([`file_constructors`], from its
//! [`file_index`]), so the workspace table re-runs only when some file's candidates change.

use super::index::file_index;
use super::project::ts_files;
use super::resolver::Target;
use crate::endpoints::{package_of, package_roots};
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::SymbolIdx;
use codegraph_schema::NodeKind;
use std::collections::HashMap;

/// Constructor-like symbols by package root and name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Constructors {
    /// Package root ("" for the root or no package) -> name -> its declarations.
    by_package: HashMap<String, HashMap<String, Vec<Target>>>,
}

impl Constructors {
    /// The one class or constructor named `name` in the package of `path` (`roots`:
    /// [`package_roots`]).
    pub(crate) fn only(&self, roots: &[String], path: &str, name: &str) -> Option<Target> {
        let package = package_of(roots, path).unwrap_or("");
        match self.by_package.get(package)?.get(name)?.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }
}

/// A production file's top-level classes and functions whose name starts upper-case, sorted.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_constructors(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Vec<(String, SymbolIdx)> {
    if file.path(db).ends_with(".json") || crate::graph::is_test(db, file) {
        return Vec::new();
    }
    let ix = file_index(db, file);
    let mut out: Vec<(String, SymbolIdx)> = ix
        .top
        .iter()
        .filter(|&(name, &i)| {
            name.starts_with(|c: char| c.is_ascii_uppercase())
                && ix
                    .syms
                    .get(i as usize)
                    .is_some_and(|s| matches!(s.kind, NodeKind::Class | NodeKind::Function))
        })
        .map(|(name, &i)| (name.clone(), i))
        .collect();
    out.sort();
    out
}

#[salsa::tracked(returns(ref))]
pub(crate) fn js_constructors(db: &dyn salsa::Database, workspace: Workspace) -> Constructors {
    let roots = package_roots(db, workspace);
    let mut listed: Vec<SourceFile> =
        ts_files(db, workspace).dirs.values().flatten().map(|(_, f)| *f).collect();
    listed.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    let mut out = Constructors::default();
    // Files in path order and each file's names sorted: every list is in (path, index) order.
    for f in listed {
        let found = file_constructors(db, f);
        if found.is_empty() {
            continue;
        }
        let package = package_of(roots, f.path(db)).unwrap_or("").to_string();
        let names = out.by_package.entry(package).or_default();
        for (name, i) in found {
            names.entry(name.clone()).or_default().push((f, *i));
        }
    }
    out
}
