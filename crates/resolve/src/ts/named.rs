//! Classes and constructor functions by name within each package, so that a JavaScript
//! parameter nothing types can be typed by its own name (`reply` holds the package's `Reply`).
//!
//! Why it exists: JavaScript libraries pass their core objects through untyped parameters
//! (fastify's `function handleRequest (err, request, reply)` never imports `Reply`), so every
//! `reply.send(...)` in the library was an unresolved site and `impact Reply.send` saw no
//! caller. The table holds only top-level classes and functions whose name starts with an
//! upper-case letter, of production files, grouped by the nearest directory with a
//! `package.json` (the package a parameter's value comes from); the resolver uses a name only
//! when its package declares exactly one such symbol, and only for a member that symbol has.
//! It reads every module file's [`file_index`], and compares equal after edits that change no
//! such name, so it stops there for almost every edit.

use super::index::file_index;
use super::project::ts_files;
use super::resolver::Target;
use codegraph_db::Workspace;
use codegraph_schema::NodeKind;
use std::collections::HashMap;

/// Constructor-like symbols by package directory and name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Constructors {
    /// Package directory ("" for the root) -> name -> its declarations.
    by_package: HashMap<String, HashMap<String, Vec<Target>>>,
    /// Directories holding a `package.json`, longest first.
    package_dirs: Vec<String>,
}

impl Constructors {
    /// The package directory of a root-relative path: its nearest ancestor with a
    /// `package.json`, else the root ("").
    fn package_of<'a>(&'a self, path: &str) -> &'a str {
        self.package_dirs
            .iter()
            .find(|d| path.strip_prefix(d.as_str()).is_some_and(|rest| rest.starts_with('/')))
            .map_or("", String::as_str)
    }

    /// The one class or constructor named `name` in the package of `path`.
    pub(crate) fn only(&self, path: &str, name: &str) -> Option<Target> {
        match self.by_package.get(self.package_of(path))?.get(name)?.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn js_constructors(db: &dyn salsa::Database, workspace: Workspace) -> Constructors {
    let files = ts_files(db, workspace);
    let mut out = Constructors::default();
    for (path, _) in &files.configs {
        if let Some(dir) = path.strip_suffix("/package.json") {
            out.package_dirs.push(dir.to_string());
        }
    }
    out.package_dirs.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    let mut listed: Vec<_> = files.dirs.values().flatten().map(|(_, f)| *f).collect();
    listed.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    for f in listed {
        let path = f.path(db);
        if path.ends_with(".json") || crate::graph::is_test(db, f) {
            continue;
        }
        let ix = file_index(db, f);
        for (name, &i) in &ix.top {
            let Some(sym) = ix.syms.get(i as usize) else { continue };
            if !matches!(sym.kind, NodeKind::Class | NodeKind::Function)
                || !name.starts_with(|c: char| c.is_ascii_uppercase())
            {
                continue;
            }
            let pkg = out.package_of(path).to_string();
            out.by_package.entry(pkg).or_default().entry(name.clone()).or_default().push((f, i));
        }
    }
    for names in out.by_package.values_mut() {
        for targets in names.values_mut() {
            targets.sort_by(|a, b| (a.0.path(db), a.1).cmp(&(b.0.path(db), b.1)));
        }
    }
    out
}
