//! Where Rust modules live: the crates of a workspace (from its `Cargo.toml` files), each
//! file's module (its module root directory and module path), the files of a module, and the
//! crate names `use` paths start with.
//!
//! Why it exists: every path a Rust file writes (`crate::a::b`, `super::x`, `other_crate::y`)
//! names a module first. The answers depend on the list of files and the text of `Cargo.toml`
//! files only, never on the content of Rust files; [`rust_layout`] computes them for the whole
//! workspace, and the per-key readers ([`file_module`], [`module_files`], [`crate_roots`]) are
//! `Eq` firewalls, so adding a file re-resolves only the files whose answers it changes.
//!
//! A module root is the directory of a crate's root files: `P/src` (`lib.rs`, `main.rs`),
//! `P/src/bin`, `P/tests`, `P/examples`, `P/benches` (each file directly in them a crate root;
//! a subdirectory with a `main.rs` its own root), and `P` for `build.rs`. A file's module path
//! is its path under its root (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`; crate roots are
//! the empty path). A crate root file of a multi-root directory (`tests/api.rs`) is a root of
//! its own (`tests/api`) whose child modules live in the directory (`tests/common/mod.rs`);
//! `lib.rs` and `main.rs` share `src` (an approximation: a binary sees its library's items
//! without naming the crate). `#[path]` attributes are not followed. Files no `Cargo.toml` covers take the nearest directory above them with a
//! `lib.rs` or `main.rs` as their root, else their own directory.

use crate::ids::parent_dir;
use crate::keys::FileKey;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::Language;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// The Rust modules of a workspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RustLayout {
    /// Module (root, path joined by `::`) -> its files, sorted by path.
    pub modules: BTreeMap<(String, String), Vec<SourceFile>>,
    /// Each Rust file's module.
    pub file_modules: HashMap<SourceFile, (String, String)>,
    /// Crate name (`-` as `_`) -> the module root of its library.
    pub crates: BTreeMap<String, String>,
    /// The roots that are one crate root file of a multi-root directory (`tests/api` for
    /// `tests/api.rs`): their child modules live in that directory.
    pub file_roots: BTreeSet<String>,
}

/// What a `Cargo.toml` says: the package name and the library's name and path, if given.
fn manifest(text: &str) -> (Option<String>, Option<String>, Option<String>) {
    let (mut package, mut lib_name, mut lib_path) = (None, None, None);
    let mut section = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.trim();
        let Some(value) = value.strip_prefix('"').and_then(|v| v.split('"').next()) else {
            continue;
        };
        match (section.as_str(), key.trim()) {
            ("package", "name") => package = Some(value.to_string()),
            ("lib", "name") => lib_name = Some(value.to_string()),
            ("lib", "path") => lib_path = Some(value.to_string()),
            _ => {}
        }
    }
    (package, lib_name, lib_path)
}

fn join(dir: &str, rel: &str) -> String {
    if dir.is_empty() { rel.to_string() } else { format!("{dir}/{rel}") }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn rust_layout(db: &dyn salsa::Database, workspace: Workspace) -> RustLayout {
    let mut files: Vec<(&str, SourceFile)> = Vec::new();
    let mut manifests: Vec<(&str, SourceFile)> = Vec::new();
    for &file in workspace.files(db) {
        let path = file.path(db).as_str();
        if file.language(db) == Some(Language::Rust) {
            files.push((path, file));
        } else if path == "Cargo.toml" || path.ends_with("/Cargo.toml") {
            manifests.push((parent_dir(path), file));
        }
    }
    let paths: BTreeSet<&str> = files.iter().map(|(p, _)| *p).collect();
    let mut out = RustLayout::default();
    // Module roots; `true`: each file directly in it is a crate root.
    let mut roots: Vec<(String, bool)> = Vec::new();
    for (dir, file) in &manifests {
        let (package, lib_name, lib_path) = manifest(codegraph_db::text(db, *file));
        let lib = join(dir, lib_path.as_deref().unwrap_or("src/lib.rs"));
        if let Some(name) = lib_name.or(package)
            && paths.contains(lib.as_str())
        {
            out.crates.insert(name.replace('-', "_"), parent_dir(&lib).to_string());
        }
        roots.push((parent_dir(&lib).to_string(), false));
        roots.push((join(dir, "src"), false));
        for multi in ["src/bin", "tests", "examples", "benches"] {
            roots.push((join(dir, multi), true));
        }
        roots.push((dir.to_string(), true));
    }
    // A `main.rs` in a subdirectory of a multi-root directory is its own root
    // (`src/bin/tool/main.rs`, `examples/demo/main.rs`).
    let mut own: Vec<String> = Vec::new();
    for (path, _) in &files {
        if path.ends_with("/main.rs") {
            let dir = parent_dir(path);
            let in_multi = ["bin", "tests", "examples", "benches"]
                .iter()
                .any(|m| parent_dir(dir) == *m || parent_dir(dir).ends_with(&format!("/{m}")));
            if in_multi {
                own.push(dir.to_string());
            }
        }
    }
    roots.extend(own.into_iter().map(|d| (d, false)));
    roots.sort();
    roots.dedup();
    // Longest root first: a file takes the deepest root above it.
    roots.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    for (path, file) in &files {
        let (root, multi_root) = match roots.iter().find(|(r, _)| under(path, r)) {
            Some((r, m)) => (r.clone(), *m),
            None => (fallback_root(path, &paths), false),
        };
        let rel = rel_to(path, &root);
        let rel = rel.strip_suffix(".rs").unwrap_or(rel);
        let (root, module) = if multi_root && !rel.contains('/') {
            // A crate root of its own (`tests/api.rs`): its own namespace.
            let own = path.strip_suffix(".rs").unwrap_or(path).to_string();
            out.file_roots.insert(own.clone());
            (own, String::new())
        } else if rel == "lib" || rel == "main" || rel == "mod" {
            (root, String::new())
        } else {
            let rel = rel.strip_suffix("/mod").unwrap_or(rel);
            (root, rel.replace('/', "::"))
        };
        out.modules.entry((root.clone(), module.clone())).or_default().push(*file);
        out.file_modules.insert(*file, (root, module));
    }
    out
}

/// Whether `path` lies under directory `dir` (`""`: the root).
fn under(path: &str, dir: &str) -> bool {
    dir.is_empty() || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

fn rel_to<'p>(path: &'p str, dir: &str) -> &'p str {
    if dir.is_empty() { path } else { path.get(dir.len() + 1..).unwrap_or(path) }
}

/// The root of a file no manifest covers: the nearest directory above it holding a `lib.rs`
/// or `main.rs`, else its own directory.
fn fallback_root(path: &str, paths: &BTreeSet<&str>) -> String {
    let mut dir = parent_dir(path);
    loop {
        if paths.contains(join(dir, "lib.rs").as_str())
            || paths.contains(join(dir, "main.rs").as_str())
        {
            return dir.to_string();
        }
        if dir.is_empty() {
            return parent_dir(path).to_string();
        }
        dir = parent_dir(dir);
    }
}

/// A file's module: (module root, module path joined by `::`).
#[salsa::tracked(returns(ref))]
pub(crate) fn file_module<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> (String, String) {
    rust_layout(db, key.workspace(db)).file_modules.get(&key.file(db)).cloned().unwrap_or_default()
}

/// A module of a workspace: the key of [`module_files`].
#[salsa::interned(debug)]
pub(crate) struct ModKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(ref)]
    pub root: String,
    #[returns(ref)]
    pub path: String,
}

/// The files of one module (empty: no such module). A child module of a crate root file of a
/// multi-root directory (`mod common;` in `tests/api.rs`) lives in that directory.
#[salsa::tracked(returns(ref))]
pub(crate) fn module_files<'db>(db: &'db dyn salsa::Database, key: ModKey<'db>) -> Vec<SourceFile> {
    let layout = rust_layout(db, key.workspace(db));
    let (root, path) = (key.root(db), key.path(db));
    if let Some(files) = layout.modules.get(&(root.clone(), path.clone())) {
        return files.clone();
    }
    if !path.is_empty() && layout.file_roots.contains(root) {
        let dir = parent_dir(root).to_string();
        return layout.modules.get(&(dir, path.clone())).cloned().unwrap_or_default();
    }
    Vec::new()
}

/// The crate names of the workspace with their libraries' module roots.
#[salsa::tracked(returns(ref))]
pub(crate) fn crate_roots(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, String> {
    rust_layout(db, workspace).crates.clone()
}

#[cfg(test)]
mod tests {
    use super::manifest;

    #[test]
    fn manifests_name_their_package_and_library() {
        let m = manifest(
            "[package]\nname = \"regex-syntax\"\nversion = \"1\"\n\n[lib]\npath = \"src/x.rs\"\n",
        );
        assert_eq!(m, (Some("regex-syntax".into()), None, Some("src/x.rs".into())));
        let m = manifest("[workspace]\nmembers = [\"a\"]\n");
        assert_eq!(m, (None, None, None));
    }
}
