//! What other files may know of a Python file ([`py_index`], an `Eq` firewall: names bound at
//! module level, classes with their bases, members and attribute hints, return types), and
//! where a module name leads ([`py_roots`], [`py_dirs`], [`probe`]).
//!
//! Why it exists: resolution of one file reads other files only through these tables, which
//! hold no lines, so an edit inside a function body leaves them equal and only the edited
//! file re-resolves; and module lookups go through per-path probes (`layout::lookup`), so a
//! file depends on the presence of the paths it probed, not on the whole file list.

use crate::ids::parent_dir;
use crate::keys::FileKey;
use crate::layout::{LanguageKey, PathKey, language_dirs, lookup};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{HintSource, ImportKind, Imported, Language, SymbolIdx};
use codegraph_schema::NodeKind;
use std::collections::{BTreeSet, HashMap};

/// A module as an import names it: absolute (`a.b`) or relative to a directory (`from ..x`:
/// the directory two levels up, then `x`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ModRef {
    Abs(Vec<String>),
    Rel { dir: String, parts: Vec<String> },
}

/// What a module-level name is bound to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// A declaration of the file.
    Def(SymbolIdx),
    /// An import: the module, and the name imported from it (`None`: the module itself).
    Import(ModRef, Option<String>),
}

/// A class: its bases as written, its members, and its attributes' hints (class-level and
/// `self.x = ...`, every one per name in source order: the first that says something wins).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClassInfo {
    pub bases: Vec<String>,
    pub members: HashMap<String, SymbolIdx>,
    pub attrs: HashMap<String, Vec<HintSource>>,
}

/// One Python file as other files see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PyIndex {
    /// Module-level names, each with its bindings, the one in force first (the last in
    /// source order; an assignment of a literal last of all): an earlier binding answers when
    /// a later one leads nowhere (`from pkg.mod import X as X` inside `pkg/mod.py`).
    pub names: HashMap<String, Vec<Binding>>,
    /// `from m import *`, in order.
    pub stars: Vec<ModRef>,
    /// `__all__`, when declared.
    pub all: Option<Vec<String>>,
    pub classes: HashMap<SymbolIdx, ClassInfo>,
    /// A function's declared return type (normalized annotation).
    pub returns: HashMap<SymbolIdx, String>,
    /// What a function without a declared return type returns, when its walk could tell
    /// (a construction, a call, a path read in module scope).
    pub returned: HashMap<SymbolIdx, HintSource>,
    /// Module-level variables: what the first assignment holds.
    pub variables: HashMap<String, HintSource>,
    /// pytest fixtures the file declares (functions decorated `@pytest.fixture` /
    /// `@fixture`, by name or `name=`), first one per name.
    /// With each its declaration and parameter names (the fixtures it uses in turn).
    pub fixtures: HashMap<String, (SymbolIdx, Vec<String>)>,
    /// Every symbol's kind, parent and name, index-aligned with the facts' symbols.
    pub symbols: Vec<(NodeKind, Option<SymbolIdx>, String)>,
}

impl PyIndex {
    pub(crate) fn kind(&self, i: SymbolIdx) -> Option<NodeKind> {
        self.symbols.get(i as usize).map(|s| s.0)
    }

    pub(crate) fn parent(&self, i: SymbolIdx) -> Option<SymbolIdx> {
        self.symbols.get(i as usize).and_then(|s| s.1)
    }

    pub(crate) fn name(&self, i: SymbolIdx) -> Option<&str> {
        self.symbols.get(i as usize).map(|s| s.2.as_str())
    }

    /// Whether `from m import *` brings `name` (listed in `__all__`, or public without one).
    pub(crate) fn star_exports(&self, name: &str) -> bool {
        match &self.all {
            Some(all) => all.iter().any(|n| n == name),
            None => !name.starts_with('_'),
        }
    }
}

/// The module an import statement's source names, seen from `path`.
pub(crate) fn mod_ref(path: &str, source: &str) -> ModRef {
    let dots = source.chars().take_while(|c| *c == '.').count();
    let rest = &source[dots..];
    let parts: Vec<String> =
        rest.split('.').filter(|p| !p.is_empty()).map(str::to_string).collect();
    if dots == 0 {
        return ModRef::Abs(parts);
    }
    let mut dir = parent_dir(path);
    for _ in 1..dots {
        dir = parent_dir(dir);
    }
    ModRef::Rel { dir: dir.to_string(), parts }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn py_index(db: &dyn salsa::Database, file: SourceFile) -> PyIndex {
    let facts = &file_facts(db, file);
    let path = file.path(db);
    let mut out = PyIndex {
        symbols: facts.symbols.iter().map(|s| (s.kind, s.parent, s.name.clone())).collect(),
        ..PyIndex::default()
    };
    // Module-level bindings in source order, the last one winning (an assignment of a literal
    // does not hide an import or declaration: `json = None` in an `except ImportError:`).
    let hinted: std::collections::HashSet<&str> =
        facts.type_hints.iter().filter(|h| h.scope.is_none()).map(|h| h.name.as_str()).collect();
    let literal: std::collections::HashSet<&str> = facts
        .symbols
        .iter()
        .filter(|s| {
            s.parent.is_none()
                && matches!(s.kind, NodeKind::Variable | NodeKind::Constant)
                && !hinted.contains(s.name.as_str())
        })
        .map(|s| s.name.as_str())
        .collect();
    let mut bindings: Vec<(u32, String, Binding, bool)> = Vec::new();
    for (i, s) in facts.symbols.iter().enumerate() {
        let idx = u32::try_from(i).unwrap_or(u32::MAX);
        match s.parent {
            None => {
                let weak = literal.contains(s.name.as_str())
                    && matches!(s.kind, NodeKind::Variable | NodeKind::Constant);
                bindings.push((s.start_line, s.name.clone(), Binding::Def(idx), weak));
            }
            Some(p) => {
                if matches!(
                    facts.symbols.get(p as usize).map(|s| s.kind),
                    Some(NodeKind::Class | NodeKind::Enum)
                ) {
                    let members = &mut out.classes.entry(p).or_default().members;
                    // A property's setter or deleter does not hide its getter (which says
                    // what the property holds).
                    let getter = members.get(&s.name).is_some_and(|&prev| {
                        facts.symbols.get(prev as usize).map(|p| p.kind) == Some(NodeKind::Property)
                    });
                    if !(getter && s.kind == NodeKind::Property) {
                        members.insert(s.name.clone(), idx);
                    }
                }
            }
        }
        if matches!(s.kind, NodeKind::Class | NodeKind::Enum) {
            out.classes.entry(idx).or_default();
        }
    }
    for imp in &facts.imports {
        let m = mod_ref(path, &imp.source);
        match imp.kind {
            ImportKind::Package => {
                for b in &imp.bindings {
                    match &b.local {
                        Some(local) => {
                            bindings.push((
                                imp.line,
                                local.clone(),
                                Binding::Import(m.clone(), None),
                                false,
                            ));
                        }
                        None => {
                            // `import a.b.c` binds `a`.
                            if let ModRef::Abs(parts) = &m
                                && let Some(head) = parts.first()
                            {
                                let b = Binding::Import(ModRef::Abs(vec![head.clone()]), None);
                                bindings.push((imp.line, head.clone(), b, false));
                            }
                        }
                    }
                }
            }
            _ => {
                for b in &imp.bindings {
                    match &b.imported {
                        Imported::All => out.stars.push(m.clone()),
                        Imported::Named(n) => {
                            let local = b.local.clone().unwrap_or_else(|| n.clone());
                            let b = Binding::Import(m.clone(), Some(n.clone()));
                            bindings.push((imp.line, local, b, false));
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    bindings.sort_by_key(|b| b.0);
    let mut weak_ones: Vec<(String, Binding)> = Vec::new();
    for (_, name, binding, weak) in bindings {
        if weak {
            weak_ones.push((name, binding));
        } else {
            out.names.entry(name).or_default().insert(0, binding);
        }
    }
    for (name, binding) in weak_ones.into_iter().rev() {
        let list = out.names.entry(name).or_default();
        if list.is_empty() {
            list.insert(0, binding);
        } else {
            list.push(binding);
        }
    }
    for (i, s) in facts.symbols.iter().enumerate() {
        if let Some(name) = fixture_name(&s.signature, &s.name) {
            let params = parameter_names(&s.signature).into_iter().map(str::to_string).collect();
            out.fixtures.entry(name).or_insert((u32::try_from(i).unwrap_or(u32::MAX), params));
        }
    }
    if !facts.export_aliases.is_empty() {
        out.all = Some(facts.export_aliases.iter().map(|(n, _)| n.clone()).collect());
    }
    for h in &facts.heritage {
        out.classes.entry(h.symbol).or_default().bases.push(h.target.clone());
    }
    for h in &facts.type_hints {
        match (&h.source, h.scope) {
            (HintSource::Return(t), Some(f)) => {
                out.returns.entry(f).or_insert_with(|| t.clone());
            }
            // The provider's encoding of an unannotated function's returned value.
            (src, Some(f)) if h.name.is_empty() => {
                out.returned.entry(f).or_insert_with(|| src.clone());
            }
            (src, None) => {
                out.variables.entry(h.name.to_string()).or_insert_with(|| src.clone());
            }
            (src, Some(s)) => {
                if let Some(c) = out.classes.get_mut(&s) {
                    c.attrs.entry(h.name.to_string()).or_default().push(src.clone());
                }
            }
        }
    }
    out
}

/// The name a pytest fixture is used by, when the signature (which starts at the first
/// decorator) declares one: `@pytest.fixture`, `@pytest.fixture(scope=...)`, `@fixture`,
/// with `name="..."` when given.
pub(crate) fn fixture_name(signature: &str, name: &str) -> Option<String> {
    let decorators = signature.split(" def ").next()?;
    let at = decorators.find("fixture")?;
    let before = &decorators[..at];
    if !(before.ends_with('@') || before.ends_with("pytest.")) {
        return None;
    }
    let rest = &decorators[at + "fixture".len()..];
    let named = rest
        .strip_prefix('(')
        .and_then(|args| args.split_once("name=").map(|(_, r)| r))
        .and_then(|r| {
            let q = r.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            r[1..].split(q).next().map(str::to_string)
        });
    Some(named.unwrap_or_else(|| name.to_string()))
}

/// The parameter names of a `def` signature (`def f(a, b: int = 1, *args)` -> `a`, `b`).
pub(crate) fn parameter_names(signature: &str) -> Vec<&str> {
    let Some(def) = signature.find("def ") else { return Vec::new() };
    let Some(open) = signature[def..].find('(').map(|i| def + i + 1) else { return Vec::new() };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, open);
    for (i, c) in signature[open..].char_indices() {
        let at = open + i;
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth > 0 => depth -= 1,
            ',' | ')' if depth == 0 => {
                let p = signature[start..at].trim();
                let p = p.split([':', '=']).next().unwrap_or("").trim();
                if !p.is_empty() && !p.starts_with('*') && p != "/" {
                    out.push(p);
                }
                start = at + 1;
                if c == ')' {
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

/// The directories absolute imports are looked up from, in order: the root, `src/` when it
/// holds Python files, and the directory above each top-level package (a directory with an
/// `__init__.py` whose parent has none), as `sys.path` holds them for the root's own code.
#[salsa::tracked(returns(ref))]
pub(crate) fn py_roots(db: &dyn salsa::Database, workspace: Workspace) -> Vec<String> {
    let dirs = language_dirs(db, LanguageKey::new(db, workspace, Language::Python));
    let packages: BTreeSet<&str> = dirs
        .iter()
        .filter(|(_, files)| {
            files.iter().any(|f| {
                let p = f.path(db);
                p.ends_with("/__init__.py") || p == "__init__.py" || p.ends_with("/__init__.pyi")
            })
        })
        .map(|(d, _)| d.as_str())
        .collect();
    let mut roots = vec![String::new()];
    if dirs.keys().any(|d| d == "src" || d.starts_with("src/")) {
        roots.push("src".to_string());
    }
    let mut more: BTreeSet<String> = BTreeSet::new();
    for d in &packages {
        if d.is_empty() {
            continue;
        }
        let parent = parent_dir(d);
        if !packages.contains(parent) || parent.is_empty() {
            more.insert(parent.to_string());
        }
    }
    for m in more {
        if !roots.contains(&m) {
            roots.push(m);
        }
    }
    roots
}

/// Every directory that holds Python files, or directories that do (namespace packages).
#[salsa::tracked(returns(ref))]
pub(crate) fn py_dirs(db: &dyn salsa::Database, workspace: Workspace) -> BTreeSet<String> {
    let dirs = language_dirs(db, LanguageKey::new(db, workspace, Language::Python));
    let mut out = BTreeSet::new();
    for d in dirs.keys() {
        let mut cur = d.as_str();
        while !cur.is_empty() && out.insert(cur.to_string()) {
            cur = parent_dir(cur);
        }
    }
    out
}

/// A module found: its path without extension (`pkg/sub`), its file (`None` for a namespace
/// package), and whether it is a package (submodules are its attributes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Module {
    pub path: String,
    pub file: Option<SourceFile>,
    pub package: bool,
}

/// The module at `base` (root-relative, no extension): `base.py`, `base/__init__.py`, their
/// stubs when there is no source, or a namespace package directory. Memoized per path.
pub(crate) fn probe(db: &dyn salsa::Database, workspace: Workspace, base: &str) -> Option<Module> {
    py_module_at(db, PathKey::new(db, workspace, base.to_string())).clone()
}

#[salsa::tracked(returns(ref))]
fn py_module_at<'db>(db: &'db dyn salsa::Database, key: PathKey<'db>) -> Option<Module> {
    let (workspace, base) = (key.workspace(db), key.path(db).as_str());
    let join = |suffix: &str| {
        if base.is_empty() {
            suffix.trim_start_matches('/').to_string()
        } else {
            format!("{base}{suffix}")
        }
    };
    if !base.is_empty() {
        for ext in [".py", ".pyi"] {
            if let Some(f) = lookup(db, workspace, &join(ext)) {
                return Some(Module { path: base.to_string(), file: Some(f), package: false });
            }
        }
    }
    for init in ["/__init__.py", "/__init__.pyi"] {
        if let Some(f) = lookup(db, workspace, &join(init)) {
            return Some(Module { path: base.to_string(), file: Some(f), package: true });
        }
    }
    if !base.is_empty() && py_dirs(db, workspace).contains(base) {
        return Some(Module { path: base.to_string(), file: None, package: true });
    }
    None
}

/// Where each module the imports of a file name leads (resolved once per file, from its
/// table: a body edit that leaves the table equal does not re-run it).
#[salsa::tracked(returns(ref))]
pub(crate) fn py_file_modules<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> Vec<(ModRef, Option<Module>)> {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let path = file.path(db);
    let index = py_index(db, file);
    let mut refs: Vec<&ModRef> = index
        .names
        .values()
        .flatten()
        .filter_map(|b| match b {
            Binding::Import(m, _) => Some(m),
            Binding::Def(_) => None,
        })
        .chain(index.stars.iter())
        .collect();
    refs.sort_by_key(|r| format!("{r:?}"));
    refs.dedup();
    refs.into_iter().map(|r| (r.clone(), find_module(db, workspace, path, r))).collect()
}

/// Where a module reference leads, seen from `from` (whose directory is also searched, as a
/// script's is).
pub(crate) fn find_module(
    db: &dyn salsa::Database,
    workspace: Workspace,
    from: &str,
    m: &ModRef,
) -> Option<Module> {
    match m {
        ModRef::Rel { dir, parts } => {
            let mut base = dir.clone();
            for p in parts {
                base = if base.is_empty() { p.clone() } else { format!("{base}/{p}") };
            }
            probe(db, workspace, &base)
        }
        ModRef::Abs(parts) => {
            if parts.is_empty() {
                return None;
            }
            let rel = parts.join("/");
            for root in py_roots(db, workspace) {
                let base = if root.is_empty() { rel.clone() } else { format!("{root}/{rel}") };
                if let Some(m) = probe(db, workspace, &base) {
                    return Some(m);
                }
            }
            let own = parent_dir(from);
            if !own.is_empty() && !py_roots(db, workspace).iter().any(|r| r == own) {
                return probe(db, workspace, &format!("{own}/{rel}"));
            }
            None
        }
    }
}
