//! Where Go packages live: the directories holding Go files, the `go.mod` module paths, and the
//! mapping from an import path to a package directory.
//!
//! Why it exists: every other Go query needs "which directory does `net/http` name?". The
//! answer depends only on the list of files and the text of `go.mod` files, never on the content
//! of Go files, so [`go_layout`] is a firewall: editing a function body never re-runs it, and a
//! change that leaves the layout equal stops there. [`file_imports`] is the per-file layer on
//! top (import name -> package), and [`package_name`] gives a package's clause name from its
//! files' facts only.

use crate::ids::parent_dir;
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Imported, Language};
use std::collections::{BTreeMap, HashMap};

/// An interned package directory (root-relative, `""` for the root), the key of per-package
/// queries.
#[salsa::interned(debug)]
pub(crate) struct GoDir<'db> {
    #[returns(ref)]
    pub dir: String,
}

/// The Go directories and modules of a workspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoLayout {
    /// Package directory -> its Go files, sorted by path.
    pub dirs: BTreeMap<String, Vec<SourceFile>>,
    /// `(module path, module dir)` from every `go.mod`, longest module path first.
    pub modules: Vec<(String, String)>,
    /// Whether any package directory lies under a `vendor/` directory.
    pub has_vendor: bool,
}

/// The package directories and modules. Reads file paths, languages and `go.mod` texts only.
#[salsa::tracked(returns(ref))]
pub(crate) fn go_layout(db: &dyn salsa::Database, workspace: Workspace) -> GoLayout {
    let mut layout = GoLayout::default();
    for &file in workspace.files(db) {
        let path = file.path(db);
        if file.language(db) == Some(Language::Go) {
            layout.dirs.entry(parent_dir(path).to_string()).or_default().push(file);
        } else if (path == "go.mod" || path.ends_with("/go.mod"))
            && let Some(module) = module_path(codegraph_db::text(db, file))
        {
            layout.modules.push((module, parent_dir(path).to_string()));
        }
    }
    layout.has_vendor =
        layout.dirs.keys().any(|d| d.starts_with("vendor/") || d.contains("/vendor/"));
    layout.modules.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
    layout
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
        let found = |d: &str| self.dirs.get_key_value(d).map(|(k, _)| k.as_str());
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
        found(path).or_else(|| found(&format!("src/{path}")))
    }
}

/// The package clause name of the package in `dir`: the most common name among its files,
/// not counting external test packages (`p_test`); ties go to the first file.
#[salsa::tracked(returns(ref))]
pub(crate) fn package_name<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    dir: GoDir<'db>,
) -> Option<String> {
    let layout = go_layout(db, workspace);
    let files = layout.dirs.get(dir.dir(db))?;
    main_name(files.iter().filter_map(|&f| file_facts(db, f).package.as_deref()))
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
#[salsa::tracked(returns(ref))]
pub(crate) fn file_imports(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> FileImports {
    let layout = go_layout(db, workspace);
    let facts = file_facts(db, file);
    let importer_dir = parent_dir(file.path(db));
    let mut out = FileImports::default();
    for import in &facts.imports {
        let dir = layout.resolve_import(importer_dir, &import.source);
        let pkg = dir.and_then(|d| {
            let name = package_name(db, workspace, GoDir::new(db, d.to_string())).clone()?;
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
