//! Where Go packages live: the directories holding Go files, the `go.mod` module paths, the
//! mapping from an import path to a package directory, and the per-file and per-package
//! summaries that the package layer reads.
//!
//! Why it exists: every other Go query needs "which directory does `net/http` name?" and "which
//! files make up this package?". The answers depend only on the list of files and the text of
//! `go.mod` files, never on the content of Go files, and they are split so that each reader
//! depends on as little as possible:
//! - [`go_files`] groups the workspace's Go files by directory (paths and languages only). It
//!   re-runs whenever a file is added or removed.
//! - [`go_layout`] is the import-resolution view: the set of package directories and the
//!   modules. Adding a file to an existing package leaves it equal, so no import re-resolves.
//!   A root no `go.mod` covers (a GOPATH-era project) gets its import-path prefix inferred from
//!   the imports its files make ([`infer_prefix`], reading each file's [`go_import_paths`], an
//!   `Eq` firewall, so only an edit of an import list can change it).
//! - [`go_dir_files`] is one package's file list: adding a file to package P changes only P's.
//! - [`go_file_summary`] is one file's package clause, top-level type names and method
//!   receivers: a function-body edit leaves it equal. [`package_name`] and the package graph
//!   read it instead of the facts.
//! - [`file_imports`] is the per-file layer on top (import name -> package).

use crate::graph::symbol_ids;
use crate::ids::parent_dir;
use crate::keys::{DirKey, FileKey};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Imported, Language};
use codegraph_schema::NodeKind;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// The Go files of a workspace by directory, and its `go.mod` files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoFiles {
    /// Package directory -> its Go files, sorted by path.
    pub dirs: BTreeMap<String, Vec<SourceFile>>,
    /// Every `go.mod` file with its directory.
    pub go_mods: Vec<(String, SourceFile)>,
}

/// Groups Go files by directory. Reads paths and languages only (workspace files are sorted,
/// so each directory's list is too).
#[salsa::tracked(returns(ref))]
pub(crate) fn go_files(db: &dyn salsa::Database, workspace: Workspace) -> GoFiles {
    let mut out = GoFiles::default();
    for &file in workspace.files(db) {
        let path = file.path(db);
        if file.language(db) == Some(Language::Go) {
            out.dirs.entry(parent_dir(path).to_string()).or_default().push(file);
        } else if path == "go.mod" || path.ends_with("/go.mod") {
            out.go_mods.push((parent_dir(path).to_string(), file));
        }
    }
    out
}

/// The Go files of one directory (empty when it holds none).
#[salsa::tracked(returns(ref))]
pub(crate) fn go_dir_files<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> Vec<SourceFile> {
    go_files(db, dir.workspace(db)).dirs.get(dir.dir(db)).cloned().unwrap_or_default()
}

/// The package directories and modules of a workspace: what import resolution needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoLayout {
    /// Directories holding Go files.
    pub dirs: BTreeSet<String>,
    /// `(module path, module dir)` from every `go.mod`, longest module path first.
    pub modules: Vec<(String, String)>,
    /// Whether any package directory lies under a `vendor/` directory.
    pub has_vendor: bool,
    /// The root's import-path prefix when no `go.mod` covers the root, inferred from the
    /// imports the files make ([`infer_prefix`]).
    pub inferred: Option<InferredPrefix>,
}

/// An import-path prefix that names the root directory, and the evidence for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct InferredPrefix {
    /// `github.com/org/project`: `github.com/org/project/a/b` is the root's `a/b`.
    pub prefix: String,
    /// Distinct package directories of the root that imports named through it.
    pub packages: usize,
}

/// The import paths of one Go file (an edit that keeps them leaves this equal).
#[salsa::tracked(returns(ref))]
pub(crate) fn go_import_paths(db: &dyn salsa::Database, file: SourceFile) -> Vec<String> {
    file_facts(db, file).imports.iter().map(|i| i.source.clone()).collect()
}

/// Infers the import-path prefix of a root that no `go.mod` covers: every import path that
/// does not resolve otherwise and ends with the path of a package directory of the root
/// (`github.com/org/project/api/server` with a directory `api/server`) votes for the part
/// before it (`github.com/org/project`); the prefix named through the most distinct
/// directories wins (then the longer directory match, then the shorter prefix), if it is
/// named through two directories or one of two or more segments. A GOPATH
/// project imports its own packages by their full path, so the prefix its files agree on is
/// the one `go build` would use under `$GOPATH/src`.
fn infer_prefix(
    db: &dyn salsa::Database,
    files: &GoFiles,
    layout: &GoLayout,
) -> Option<InferredPrefix> {
    // prefix -> (distinct directories, deepest directory match in segments)
    let mut votes: HashMap<String, (BTreeSet<&str>, usize)> = HashMap::default();
    for (dir, dir_files) in &files.dirs {
        for &file in dir_files {
            for path in go_import_paths(db, file) {
                if layout.resolve_import(dir, path).is_some() {
                    continue;
                }
                let segments: Vec<&str> = path.split('/').collect();
                for k in 1..segments.len() {
                    let rest = segments[k..].join("/");
                    if let Some(d) = layout.dirs.get(rest.as_str()) {
                        let entry = votes.entry(segments[..k].join("/")).or_default();
                        entry.0.insert(d.as_str());
                        entry.1 = entry.1.max(segments.len() - k);
                    }
                }
            }
        }
    }
    votes
        .into_iter()
        .max_by(|(pa, (da, sa)), (pb, (db_, sb))| {
            da.len()
                .cmp(&db_.len())
                .then(sa.cmp(sb))
                .then_with(|| pb.len().cmp(&pa.len()))
                .then_with(|| pb.cmp(pa))
        })
        // One import of a one-segment directory (`golang.org/x/net/context` with a `context`
        // directory) is too weak: it would send calls into an external package to ours.
        .filter(|(_, (dirs, depth))| dirs.len() >= 2 || *depth >= 2)
        .map(|(prefix, (dirs, _))| InferredPrefix { prefix, packages: dirs.len() })
}

/// The package directories and modules. Reads [`go_files`] and `go.mod` texts only.
#[salsa::tracked(returns(ref))]
pub(crate) fn go_layout(db: &dyn salsa::Database, workspace: Workspace) -> GoLayout {
    let files = go_files(db, workspace);
    let mut layout = GoLayout { dirs: files.dirs.keys().cloned().collect(), ..GoLayout::default() };
    for (dir, file) in &files.go_mods {
        if let Some(module) = module_path(codegraph_db::text(db, *file)) {
            layout.modules.push((module, dir.clone()));
        }
    }
    layout.has_vendor =
        layout.dirs.iter().any(|d| d.starts_with("vendor/") || d.contains("/vendor/"));
    layout.modules.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
    // Only a root no go.mod covers reads its files' imports.
    if !layout.modules.iter().any(|(_, dir)| dir.is_empty()) {
        layout.inferred = infer_prefix(db, files, &layout);
    }
    layout
}

/// The root's inferred import-path prefix, when no `go.mod` covers it (for `status`).
pub fn go_inferred_prefix(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> Option<InferredPrefix> {
    go_layout(db, workspace).inferred.clone()
}

/// What the package layer needs from one Go file: a function-body edit leaves it equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoFileSummary {
    /// The package clause name.
    pub package: Option<String>,
    /// Top-level named types (struct, interface, other): `(name, symbol ID)`, in source order.
    pub types: Vec<(String, crate::ids::Id)>,
    /// Top-level methods: `(receiver type name, symbol ID)`, in source order.
    pub methods: Vec<(String, crate::ids::Id)>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn go_file_summary(db: &dyn salsa::Database, file: SourceFile) -> GoFileSummary {
    let facts = &file_facts(db, file);
    let ids = symbol_ids(db, file);
    let mut out = GoFileSummary {
        package: facts.go().and_then(|g| g.package.clone()),
        ..GoFileSummary::default()
    };
    for (s, id) in facts.symbols.iter().zip(ids.iter()) {
        if s.parent.is_some() {
            continue;
        }
        match s.kind {
            NodeKind::Struct
            | NodeKind::Interface
            | NodeKind::TypeAlias
            | NodeKind::DefinedType => {
                out.types.push((s.name.clone(), id.clone()));
            }
            NodeKind::Method => {
                if let Some((recv, _)) = s.qualified_name.split_once('.') {
                    out.methods.push((recv.to_string(), id.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

/// The `module` directive of a `go.mod` text.
fn module_path(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("module")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let m = rest.split("//").next()?.trim().trim_matches(['"', '`']);
        (!m.is_empty()).then(|| m.to_string())
    })
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() { rest.to_string() } else { format!("{dir}/{rest}") }
}

impl GoLayout {
    /// The package directory an import path names from a file in `importer_dir`: a vendored
    /// copy (nearest `vendor/` first), a `go.mod` module path prefix, or a GOPATH-style path
    /// (the import path is a directory relative to the root, or under `src/`).
    pub fn resolve_import(&self, importer_dir: &str, path: &str) -> Option<&str> {
        let found = |d: &str| self.dirs.get(d).map(String::as_str);
        if self.has_vendor {
            let mut dir = importer_dir;
            loop {
                if let Some(d) = found(&join(dir, &format!("vendor/{path}"))) {
                    return Some(d);
                }
                if dir.is_empty() {
                    break;
                }
                dir = parent_dir(dir);
            }
        }
        for (module, mdir) in &self.modules {
            let rest = if path == module {
                Some("")
            } else {
                path.strip_prefix(module.as_str()).and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let d = if rest.is_empty() { mdir.clone() } else { join(mdir, rest) };
                if let Some(d) = found(&d) {
                    return Some(d);
                }
            }
        }
        if let Some(inferred) = &self.inferred {
            let prefix = inferred.prefix.as_str();
            if path == prefix {
                return found("");
            }
            if let Some(rest) = path.strip_prefix(prefix).and_then(|r| r.strip_prefix('/'))
                && let Some(d) = found(rest)
            {
                return Some(d);
            }
        }
        found(path).or_else(|| found(&format!("src/{path}")))
    }
}

/// The package clause name of the package in `dir`: the most common name among its files,
/// not counting external test packages (`p_test`); ties go to the first file.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_name<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> Option<String> {
    let files = go_dir_files(db, dir);
    main_name(files.iter().filter_map(|&f| go_file_summary(db, f).package.as_deref()))
}

/// The most common non-`_test` name (first seen on ties); a `_test` name if that is all.
pub(crate) fn main_name<'a>(names: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for n in names {
        match counts.iter_mut().find(|(m, _)| *m == n) {
            Some((_, c)) => *c += 1,
            None => counts.push((n, 1)),
        }
    }
    let best = |test: bool| {
        counts
            .iter()
            .filter(|(n, _)| n.ends_with("_test") == test)
            .fold(None::<(&str, usize)>, |acc, &(n, c)| match acc {
                Some((_, bc)) if bc >= c => acc,
                _ => Some((n, c)),
            })
            .map(|(n, _)| n.to_string())
    };
    best(false).or_else(|| best(true))
}

/// A package: its directory and clause name (a directory can hold several, e.g. `p` and
/// `p_test`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PkgRef {
    pub dir: String,
    pub name: String,
}

/// What the imports of one file bring into scope.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileImports {
    /// Local name -> package; `None` for a package outside the workspace.
    pub by_name: HashMap<String, Option<PkgRef>>,
    /// Dot-imported packages (`import . "x"`).
    pub dots: Vec<PkgRef>,
    /// `(line, package dir)` of each resolved import spec, in source order.
    pub resolved: Vec<(u32, String)>,
}

/// The imports of one Go file, resolved to packages. Depends on the file's facts, the layout,
/// and the names of the imported packages only.
///
/// Equal imports of sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn file_imports<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> std::sync::Arc<FileImports> {
    crate::shared::share(key.file(db).path(db), imports_of(db, key))
}

fn imports_of<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> FileImports {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let layout = go_layout(db, workspace);
    let facts = &file_facts(db, file);
    let importer_dir = parent_dir(file.path(db));
    let mut out = FileImports::default();
    for import in &facts.imports {
        let dir = layout.resolve_import(importer_dir, &import.source);
        let pkg = dir.and_then(|d| {
            let name = package_name(db, DirKey::new(db, workspace, d)).clone()?;
            Some(PkgRef { dir: d.to_string(), name })
        });
        if let Some(p) = &pkg {
            out.resolved.push((import.line, p.dir.clone()));
        }
        let alias = import
            .bindings
            .iter()
            .find(|b| b.imported == Imported::Namespace)
            .and_then(|b| b.local.clone());
        match alias.as_deref() {
            Some("_") => {}
            Some(".") => out.dots.extend(pkg),
            Some(a) => {
                out.by_name.insert(a.to_string(), pkg);
            }
            None => {
                let name =
                    pkg.as_ref().map_or_else(|| guess_name(&import.source), |p| p.name.clone());
                out.by_name.insert(name, pkg);
            }
        }
    }
    out
}

/// The usual package name of an import path outside the workspace: its last element without
/// a major-version suffix (`/v2`, `.v3`) or `go-` prefix.
fn guess_name(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let mut last = parts.next().unwrap_or(path);
    if last.len() > 1
        && last.starts_with('v')
        && last[1..].bytes().all(|b| b.is_ascii_digit())
        && let Some(prev) = parts.next()
    {
        last = prev;
    }
    let last = last.split_once(".v").map_or(last, |(a, _)| a);
    let last = last.strip_prefix("go-").unwrap_or(last);
    last.replace(['-', '.'], "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_lines_and_names() {
        assert_eq!(
            module_path("// c\nmodule go.etcd.io/etcd\n\ngo 1.17\n").as_deref(),
            Some("go.etcd.io/etcd")
        );
        assert_eq!(module_path("modules x\n"), None);
        assert_eq!(guess_name("gopkg.in/yaml.v2"), "yaml");
        assert_eq!(guess_name("github.com/x/y/v3"), "y");
        assert_eq!(guess_name("github.com/mattn/go-isatty"), "isatty");
        assert_eq!(main_name(["p_test", "p", "main", "p"].into_iter()).as_deref(), Some("p"));
        assert_eq!(main_name(["p_test"].into_iter()).as_deref(), Some("p_test"));
    }
}

/// The string constants a Go file declares at package level (see
/// `GoFacts::string_consts`): the per-file firewall for route paths that name them, equal
/// (and so stopping propagation) across edits that leave them alone.
#[salsa::tracked(returns(ref))]
pub(crate) fn go_file_consts(db: &dyn salsa::Database, file: SourceFile) -> Vec<(String, String)> {
    file_facts(db, file).go().map(|g| g.string_consts.clone()).unwrap_or_default()
}

/// The string constants of one package directory, by name (first declaration wins, files in
/// path order).
#[salsa::tracked(returns(ref))]
pub(crate) fn go_package_consts<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for &f in go_dir_files(db, dir) {
        for (name, value) in go_file_consts(db, f) {
            out.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }
    out
}
