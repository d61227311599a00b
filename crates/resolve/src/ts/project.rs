//! The workspace-wide module layer: which paths exist, what tsconfig.json files and workspace
//! packages say, and where each import specifier of a file leads.
//!
//! Each query is a firewall for the next:
//! - [`ts_files`] reads only the workspace's paths (the files module resolution can return or
//!   read: TS/JS sources and JSON), grouped by directory; it re-runs when files come and go.
//! - [`ts_dir`] is one directory's listing and [`ts_config_files`] the list of `tsconfig.json` /
//!   `package.json` files: adding a file changes one listing and, unless it is a config, no
//!   config list.
//! - [`ts_project`] reads only the config files' texts (plus the listings `extends` probes), so
//!   source edits and source files coming and going stop before it.
//! - [`file_modules`] maps one file's import specifiers to files. It reads the listings of the
//!   directories its probes looked in, so a new file re-runs only the module resolution of the
//!   files that probed its directory, and its `Eq` result stops propagation otherwise.

use super::jsonc;
use crate::ids::{join, parent_dir};
use crate::keys::{DirKey, FileKey};
use codegraph_db::{SourceFile, Workspace, file_facts};
use serde_json::Value;
use std::collections::HashMap;

/// The files module resolution can see, by directory.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct TsFiles {
    /// Directory -> `(file name, file)` sorted by name.
    pub dirs: HashMap<String, Vec<(String, SourceFile)>>,
    /// `tsconfig.json` and `package.json` files outside `node_modules`, by path.
    pub configs: Vec<(String, SourceFile)>,
}

/// Whether module resolution can return or read a file of this path.
fn is_module_path(path: &str) -> bool {
    path.ends_with(".json") || EXTS.iter().any(|e| path.ends_with(e))
}

#[salsa::tracked(returns(ref))]
pub(crate) fn ts_files(db: &dyn salsa::Database, workspace: Workspace) -> TsFiles {
    let mut out = TsFiles::default();
    for &f in workspace.files(db) {
        let path = f.path(db);
        if !is_module_path(path) {
            continue;
        }
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        out.dirs.entry(dir.to_string()).or_default().push((name.to_string(), f));
        if (name == "tsconfig.json" || name == "package.json")
            && !path.split('/').any(|s| s == "node_modules")
        {
            out.configs.push((path.clone(), f));
        }
    }
    for files in out.dirs.values_mut() {
        files.sort_by(|a, b| a.0.cmp(&b.0));
    }
    out
}

/// One directory's module files, sorted by name (empty for a directory without any).
#[salsa::tracked(returns(ref))]
pub(crate) fn ts_dir<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
) -> Vec<(String, SourceFile)> {
    ts_files(db, dir.workspace(db)).dirs.get(dir.dir(db)).cloned().unwrap_or_default()
}

/// The `tsconfig.json` and `package.json` files, in workspace order.
#[salsa::tracked(returns(ref))]
pub(crate) fn ts_config_files(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> Vec<(String, SourceFile)> {
    ts_files(db, workspace).configs.clone()
}

/// Path lookups through the per-directory listings, so each lookup depends on one directory.
#[derive(Clone, Copy)]
pub(crate) struct Paths<'db> {
    pub db: &'db dyn salsa::Database,
    pub workspace: Workspace,
}

impl Paths<'_> {
    /// The module file at a root-relative path.
    pub fn get(&self, path: &str) -> Option<SourceFile> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let listing = ts_dir(self.db, DirKey::new(self.db, self.workspace, dir));
        listing.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| listing[i].1)
    }
}

/// The module-resolution settings of one `tsconfig.json` after following `extends`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct TsConfig {
    /// Root-relative directory `baseUrl` points at.
    pub base_url: Option<String>,
    /// `paths` patterns (`@app/*`) with their substitutions as root-relative paths.
    pub paths: Vec<(String, Vec<String>)>,
}

/// A workspace package (a `package.json` with a `name`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Package {
    /// Root-relative directory of the package.
    pub dir: String,
    /// Entry points for the bare name, most preferred first (root-relative, unprobed).
    pub main: Vec<String>,
    /// `exports` subpaths (`./sub` -> targets), `.` excluded.
    pub subpaths: Vec<(String, Vec<String>)>,
}

/// tsconfig files by directory and packages by name.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Project {
    pub tsconfigs: HashMap<String, TsConfig>,
    pub packages: HashMap<String, Package>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn ts_project(db: &dyn salsa::Database, workspace: Workspace) -> Project {
    let paths = Paths { db, workspace };
    let mut project = Project::default();
    for (path, f) in ts_config_files(db, workspace) {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name == "tsconfig.json" {
            if let Some(cfg) = load_tsconfig(db, paths, path, 0) {
                project.tsconfigs.insert(parent_dir(path).to_string(), cfg);
            }
        } else if let Some(v) = jsonc::parse(codegraph_db::text(db, *f))
            && let Some((pname, pkg)) = package(&v, parent_dir(path))
        {
            project.packages.entry(pname).or_insert(pkg);
        }
    }
    project
}

/// Reads a tsconfig and the chain it `extends` (relative paths only; at most 8 deep).
fn load_tsconfig(
    db: &dyn salsa::Database,
    paths: Paths<'_>,
    path: &str,
    depth: u32,
) -> Option<TsConfig> {
    let file = paths.get(path)?;
    let v = jsonc::parse(codegraph_db::text(db, file))?;
    let dir = parent_dir(path);
    let mut cfg = TsConfig::default();
    if depth < 8
        && let Some(ext) = v.get("extends")
    {
        let list: Vec<&str> = match ext {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for e in list {
            if !(e.starts_with("./") || e.starts_with("../")) {
                continue;
            }
            let Some(mut p) = join(dir, e) else { continue };
            if paths.get(&p).is_none() && !p.ends_with(".json") {
                p.push_str(".json");
            }
            if let Some(base) = load_tsconfig(db, paths, &p, depth + 1) {
                if base.base_url.is_some() {
                    cfg.base_url = base.base_url;
                }
                if !base.paths.is_empty() {
                    cfg.paths = base.paths;
                }
            }
        }
    }
    let opts = v.get("compilerOptions");
    let base_url = opts.and_then(|o| o.get("baseUrl")).and_then(Value::as_str);
    if let Some(b) = base_url {
        cfg.base_url = join(dir, b);
    }
    if let Some(Value::Object(map)) = opts.and_then(|o| o.get("paths")) {
        // Substitutions are relative to baseUrl when set, else to this file's directory.
        let base = cfg.base_url.clone().unwrap_or_else(|| dir.to_string());
        cfg.paths = map
            .iter()
            .map(|(k, subs)| {
                let subs = subs
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).filter_map(|s| join(&base, s)))
                    .into_iter()
                    .flatten()
                    .collect();
                (k.clone(), subs)
            })
            .collect();
    }
    Some(cfg)
}

/// The targets of one `exports` value: a string, a condition object, or an array of either.
fn export_targets(v: &Value, dir: &str, out: &mut Vec<String>, depth: u32) {
    if depth > 6 {
        return;
    }
    match v {
        Value::String(s) => out.extend(join(dir, s)),
        Value::Array(a) => a.iter().for_each(|x| export_targets(x, dir, out, depth + 1)),
        Value::Object(m) => {
            for cond in ["types", "import", "module", "require", "node", "default"] {
                if let Some(x) = m.get(cond) {
                    export_targets(x, dir, out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

fn package(v: &Value, dir: &str) -> Option<(String, Package)> {
    let name = v.get("name")?.as_str()?.to_string();
    let mut pkg = Package { dir: dir.to_string(), ..Package::default() };
    match v.get("exports") {
        Some(Value::Object(m)) if m.keys().any(|k| k.starts_with('.')) => {
            for (k, t) in m {
                let mut targets = Vec::new();
                export_targets(t, dir, &mut targets, 0);
                if k == "." {
                    pkg.main.extend(targets);
                } else {
                    pkg.subpaths.push((k.clone(), targets));
                }
            }
        }
        Some(e) => export_targets(e, dir, &mut pkg.main, 0),
        None => {}
    }
    for key in ["types", "typings", "module", "main"] {
        if let Some(s) = v.get(key).and_then(Value::as_str) {
            pkg.main.extend(join(dir, s));
        }
    }
    pkg.main.extend(join(dir, "index"));
    pkg.main.extend(join(dir, "src/index"));
    Some((name, pkg))
}

/// Where an import specifier leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModTarget {
    /// A file of the workspace.
    File(SourceFile),
    /// A package outside the workspace (node_modules, built-ins): not ours to resolve.
    External,
    /// A relative / mapped specifier that names no workspace file.
    Missing,
}

const EXTS: &[&str] = &[".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

/// The workspace file a root-relative path names, with TypeScript's probing: the path itself,
/// `.js` written for `.ts`, extension probing, then `index` files.
fn probe(paths: Paths<'_>, p: &str) -> Option<SourceFile> {
    let get = |s: &str| paths.get(s);
    let has_source_ext = EXTS.iter().any(|e| p.ends_with(e));
    for (js, tss) in [
        (".js", &[".ts", ".tsx", ".d.ts"][..]),
        (".jsx", &[".tsx"][..]),
        (".mjs", &[".mts", ".d.mts"][..]),
        (".cjs", &[".cts", ".d.cts"][..]),
    ] {
        if let Some(stem) = p.strip_suffix(js) {
            for t in tss {
                if let Some(f) = get(&format!("{stem}{t}")) {
                    return Some(f);
                }
            }
        }
    }
    if has_source_ext && let Some(f) = get(p) {
        return Some(f);
    }
    for e in EXTS {
        if let Some(f) = get(&format!("{p}{e}")) {
            return Some(f);
        }
    }
    let base = p.trim_end_matches('/');
    for e in EXTS {
        if let Some(f) = get(&format!("{base}/index{e}")) {
            return Some(f);
        }
    }
    None
}

/// Matches a tsconfig `paths` pattern (`@a/*`, exact) against a specifier; the `*` capture.
fn match_pattern<'a>(pattern: &str, spec: &'a str) -> Option<&'a str> {
    match pattern.split_once('*') {
        Some((pre, post)) => spec
            .strip_prefix(pre)
            .and_then(|r| r.strip_suffix(post))
            .filter(|_| spec.len() >= pre.len() + post.len()),
        None => (pattern == spec).then_some(""),
    }
}

/// A package entry path as written (often `dist/x.js`), or its source twin (`src/x`).
fn probe_entry(paths: Paths<'_>, pkg_dir: &str, entry: &str) -> Option<SourceFile> {
    if let Some(f) = probe(paths, entry) {
        return Some(f);
    }
    let rel = entry.strip_prefix(pkg_dir).unwrap_or(entry).trim_start_matches('/');
    for out_dir in ["dist/", "lib/", "build/", "out/"] {
        if let Some(rest) = rel.strip_prefix(out_dir) {
            let stem = rest
                .strip_suffix(".d.ts")
                .or_else(|| rest.rsplit_once('.').map(|(s, _)| s))
                .unwrap_or(rest);
            for (sub, s) in [("src/", stem), ("", stem)] {
                let p = if pkg_dir.is_empty() {
                    format!("{sub}{s}")
                } else {
                    format!("{pkg_dir}/{sub}{s}")
                };
                if let Some(f) = probe(paths, &p) {
                    return Some(f);
                }
            }
        }
    }
    None
}

/// Resolves `spec` written in the file at `from`.
pub(crate) fn resolve_module(
    paths: Paths<'_>,
    project: &Project,
    from: &str,
    spec: &str,
) -> ModTarget {
    let found = |f: Option<SourceFile>| f.map_or(ModTarget::Missing, ModTarget::File);
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        return found(join(parent_dir(from), spec).and_then(|p| probe(paths, &p)));
    }
    if let Some(rest) = spec.strip_prefix('/') {
        return found(probe(paths, rest));
    }
    // The nearest tsconfig.json above the importing file.
    let mut dir = Some(parent_dir(from));
    let mut cfg = None;
    while let Some(d) = dir {
        if let Some(c) = project.tsconfigs.get(d) {
            cfg = Some(c);
            break;
        }
        dir = (!d.is_empty()).then(|| parent_dir(d));
    }
    if let Some(cfg) = cfg {
        let mut best: Option<(&str, &[String], usize)> = None;
        for (pat, subs) in &cfg.paths {
            if let Some(star) = match_pattern(pat, spec) {
                let prefix = pat.split('*').next().map_or(0, str::len);
                if best.is_none_or(|(_, _, p)| prefix > p) {
                    best = Some((star, subs, prefix));
                }
            }
        }
        if let Some((star, subs, _)) = best {
            for s in subs {
                if let Some(f) = probe(paths, &s.replacen('*', star, 1)) {
                    return ModTarget::File(f);
                }
            }
        }
        if let Some(base) = &cfg.base_url
            && let Some(f) = join(base, spec).and_then(|p| probe(paths, &p))
        {
            return ModTarget::File(f);
        }
    }
    // Workspace packages: `name` or `name/sub` (scoped names have one more segment).
    let segs: Vec<&str> = spec.splitn(3, '/').collect();
    let name_len = if spec.starts_with('@') { 2 } else { 1 };
    if segs.len() >= name_len {
        let name = segs[..name_len].join("/");
        if let Some(pkg) = project.packages.get(&name) {
            let sub = spec.get(name.len()..).unwrap_or("").trim_start_matches('/');
            if sub.is_empty() {
                for m in &pkg.main {
                    if let Some(f) = probe_entry(paths, &pkg.dir, m) {
                        return ModTarget::File(f);
                    }
                }
                return ModTarget::Missing;
            }
            let key = format!("./{sub}");
            for (pat, targets) in &pkg.subpaths {
                if let Some(star) = match_pattern(pat, &key) {
                    for t in targets {
                        if let Some(f) = probe_entry(paths, &pkg.dir, &t.replacen('*', star, 1)) {
                            return ModTarget::File(f);
                        }
                    }
                }
            }
            for cand in [format!("{}/{sub}", pkg.dir), format!("{}/src/{sub}", pkg.dir)] {
                let cand = cand.trim_start_matches('/').to_string();
                if let Some(f) = probe_entry(paths, &pkg.dir, &cand) {
                    return ModTarget::File(f);
                }
            }
            return ModTarget::Missing;
        }
    }
    ModTarget::External
}

/// Where each import of a file leads, index-aligned with its facts' imports.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_modules<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Vec<ModTarget> {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let paths = Paths { db, workspace };
    let project = ts_project(db, workspace);
    let from = file.path(db);
    file_facts(db, file)
        .imports
        .iter()
        .map(|i| resolve_module(paths, project, from, &i.source))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_patterns() {
        assert_eq!(join("a/b", "../c/./d").as_deref(), Some("a/c/d"));
        assert_eq!(join("", "x").as_deref(), Some("x"));
        assert_eq!(join("a", "../.."), None);
        assert_eq!(match_pattern("@app/*", "@app/x/y"), Some("x/y"));
        assert_eq!(match_pattern("lib", "lib"), Some(""));
        assert_eq!(match_pattern("@app/*", "@other/x"), None);
    }
}
