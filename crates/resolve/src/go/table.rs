//! The declarations of one Go package, as a lookup table: functions with their result types,
//! named types with their methods (by receiver), fields, embedded types and interface method
//! sets, and package-level variables with what is known of their types.
//!
//! Why it exists: resolving a call needs to look names up in other packages. Two layers keep
//! that incremental: [`file_decls`] is one file's contribution to its package's table, built
//! from that file's facts and imports only, so an edit that does not change a file's
//! declarations (a function body, a comment, a line shift) stops there and the package table
//! is not even rebuilt; [`package_table`] merges the contributions of a package's files, and
//! its result is compared, so a change that leaves the package's declarations equal stops
//! before any importer. Type references are stored resolved to `(dir, package, name)` so that
//! lookups never need the declaring file's imports again, and so that no table reads another
//! table (no cycles, even on broken code).

use super::layout::{FileImports, PkgRef, file_imports, go_dir_files, package_name};
use crate::ids::parent_dir;
use crate::keys::{DirKey, FileKey};
use codegraph_db::{SourceFile, file_facts};
use codegraph_parse::{
    Callee, FileFacts, Heritage, HeritageKind, HintSource, Receiver, SymbolIdx, TypeHint,
};
use codegraph_schema::NodeKind;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

/// A symbol of some file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SymRef {
    pub file: SourceFile,
    pub idx: SymbolIdx,
}

/// A named type, resolved: the package that declares it and its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TypeRef {
    pub dir: String,
    pub pkg: String,
    pub name: String,
}

/// A function or method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Func {
    pub sym: SymRef,
    /// The declared (first) result type, when it is a named type.
    pub ret: Option<TypeRef>,
    /// Build-constraint preference of the declaring file (lower wins), see [`file_rank`].
    pub rank: u8,
}

/// A named type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeInfo {
    /// `None` when only methods were seen (the declaration is missing or excluded).
    pub sym: Option<SymRef>,
    pub rank: u8,
    pub is_interface: bool,
    /// Methods by name: declared with this receiver type, or interface methods.
    pub methods: HashMap<String, Func>,
    /// Fields by name, with their type when it is a named type.
    pub fields: HashMap<String, Option<TypeRef>>,
    /// Embedded types (struct embedding and interface embedding).
    pub embeds: Vec<TypeRef>,
    /// Interface method names that come from embedded types with no symbol (`error`).
    pub extra_methods: Vec<String>,
    /// An embedded interface could not be resolved: the method set is incomplete.
    pub incomplete: bool,
    /// `type A = B`: the aliased type.
    pub alias_of: Option<TypeRef>,
    /// `type A B` with a named `B`: fields (and, for an interface `B`, methods) come from it.
    pub defined_from: Option<TypeRef>,
}

/// What a package-level variable is known to hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum VarType {
    Type(TypeRef),
    /// The result of calling this package function.
    ResultOf {
        pkg: PkgRef,
        func: String,
    },
}

/// The declarations of one package (one package clause name in one directory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    pub funcs: HashMap<String, Func>,
    pub types: HashMap<String, TypeInfo>,
    pub vars: HashMap<String, VarType>,
    /// Package-level constants and variables by name (what REFERS_TO a value points at).
    pub values: HashMap<String, Value>,
}

/// A package-level constant or variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub sym: SymRef,
    /// Build-constraint preference of the declaring file (lower wins), see [`file_rank`].
    pub rank: u8,
}

/// The packages of one directory, by package clause name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PackageTable {
    /// The package importers see (see [`package_name`]).
    pub main: Option<String>,
    pub scopes: BTreeMap<String, Scope>,
}

/// Every GOOS go/build knows, and whether the `unix` build tag holds on it.
const GOOS: &[(&str, bool)] = &[
    ("aix", true),
    ("android", true),
    ("darwin", true),
    ("dragonfly", true),
    ("freebsd", true),
    ("hurd", true),
    ("illumos", true),
    ("ios", true),
    ("js", false),
    ("linux", true),
    ("nacl", false),
    ("netbsd", true),
    ("openbsd", true),
    ("plan9", false),
    ("solaris", true),
    ("wasip1", false),
    ("windows", false),
    ("zos", false),
];
const GOARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];

fn is_goos(name: &str) -> bool {
    GOOS.iter().any(|&(os, _)| os == name)
}

/// The platform build constraints are evaluated for, as `go build` picks it: `$GOOS` /
/// `$GOARCH` when set, else the host's (linux/amd64 here, as the oracles ran).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Platform {
    pub goos: String,
    pub goarch: String,
}

impl Platform {
    /// The process's platform (read once).
    pub fn current() -> &'static Platform {
        static P: std::sync::OnceLock<Platform> = std::sync::OnceLock::new();
        P.get_or_init(|| {
            let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
            let goos = env("GOOS").unwrap_or_else(|| {
                match std::env::consts::OS {
                    "macos" => "darwin",
                    os => os,
                }
                .to_string()
            });
            let goarch = env("GOARCH").unwrap_or_else(|| {
                match std::env::consts::ARCH {
                    "x86_64" => "amd64",
                    "x86" => "386",
                    "aarch64" => "arm64",
                    "loongarch64" => "loong64",
                    "powerpc64" if cfg!(target_endian = "little") => "ppc64le",
                    "powerpc64" => "ppc64",
                    arch => arch,
                }
                .to_string()
            });
            Platform { goos, goarch }
        })
    }

    /// Whether a file-name `_GOOS` suffix applies (`_linux` also on android, `_solaris` on
    /// illumos, `_darwin` on ios, as go/build has it).
    fn os_matches(&self, os: &str) -> bool {
        os == self.goos
            || matches!(
                (os, self.goos.as_str()),
                ("linux", "android") | ("solaris", "illumos") | ("darwin", "ios")
            )
    }

    /// Whether a `//go:build` tag is satisfied: the platform's (with the implied ones and
    /// `unix`), the gc toolchain, cgo, every Go release tag.
    fn tag(&self, tag: &str) -> bool {
        tag == self.goarch
            || self.os_matches(tag)
            || (tag == "unix" && GOOS.iter().any(|&(os, unix)| unix && os == self.goos))
            || matches!(tag, "gc" | "cgo")
            || tag.strip_prefix("go1.").is_some_and(|m| m.parse::<u32>().is_ok())
    }
}

/// Which of several declarations of one name (build-constrained files) to keep: 0 for a file
/// whose name or `//go:build` line says the target platform ([`Platform::current`]), 1 for no
/// constraint, 2 for another platform (by name, or a `//go:build` line that is false there).
pub(crate) fn file_rank(path: &str, build: Option<&str>) -> u8 {
    file_rank_for(Platform::current(), path, build)
}

fn file_rank_for(p: &Platform, path: &str, build: Option<&str>) -> u8 {
    let by_name = name_rank(p, path);
    match build.and_then(|b| build_satisfied(p, b)) {
        Some(false) => 2,
        Some(true) if by_name == 1 => 0,
        _ => by_name,
    }
}

/// Whether a `//go:build` expression holds on `platform` with the gc toolchain, cgo and
/// every Go release tag; `None` when it cannot be read (then the file's name decides).
pub(crate) fn build_satisfied(platform: &Platform, expr: &str) -> Option<bool> {
    let tokens = build_tokens(expr)?;
    let mut p = BuildParser { tokens: &tokens, at: 0, platform };
    let v = p.or()?;
    (p.at == tokens.len()).then_some(v)
}

fn build_tokens(expr: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            b'(' | b')' | b'!' => {
                out.push((b[i] as char).to_string());
                i += 1;
            }
            b'&' | b'|' if b.get(i + 1) == Some(&b[i]) => {
                out.push(expr[i..i + 2].to_string());
                i += 2;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                out.push(expr[start..i].to_string());
            }
            _ => return None,
        }
    }
    Some(out)
}

struct BuildParser<'t> {
    tokens: &'t [String],
    at: usize,
    platform: &'t Platform,
}

impl BuildParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn or(&mut self) -> Option<bool> {
        let mut v = self.and()?;
        while self.peek() == Some("||") {
            self.at += 1;
            v |= self.and()?;
        }
        Some(v)
    }

    fn and(&mut self) -> Option<bool> {
        let mut v = self.not()?;
        while self.peek() == Some("&&") {
            self.at += 1;
            v &= self.not()?;
        }
        Some(v)
    }

    fn not(&mut self) -> Option<bool> {
        match self.peek()? {
            "!" => {
                self.at += 1;
                Some(!self.not()?)
            }
            "(" => {
                self.at += 1;
                let v = self.or()?;
                (self.peek() == Some(")")).then(|| self.at += 1)?;
                Some(v)
            }
            tag => {
                let v = self.platform.tag(tag);
                self.at += 1;
                Some(v)
            }
        }
    }
}

/// The rank of a file by its name's `_GOOS` / `_GOARCH` suffix (see [`file_rank`]).
fn name_rank(platform: &Platform, path: &str) -> u8 {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.strip_suffix(".go").unwrap_or(name);
    let stem = stem.strip_suffix("_test").unwrap_or(stem);
    let mut parts = stem.rsplit('_');
    let last = parts.next().unwrap_or("");
    let (os, arch) = if GOARCH.contains(&last) {
        let prev = parts.next().filter(|p| is_goos(p));
        (prev, Some(last))
    } else if is_goos(last) {
        (Some(last), None)
    } else {
        (None, None)
    };
    if os.is_none() && arch.is_none() {
        // A one-word file named `linux.go` has no constraint.
        return 1;
    }
    if stem == last {
        return 1;
    }
    let ok = os.is_none_or(|o| platform.os_matches(o)) && arch.is_none_or(|a| a == platform.goarch);
    if ok { 0 } else { 2 }
}

/// Names the universe scope predeclares as types (calls of them are conversions): the
/// parser's list, which leaves them out of type references.
pub(crate) use codegraph_parse::is_go_predeclared_type as is_predeclared_type;

/// Builtin functions.
pub(crate) fn is_builtin_func(name: &str) -> bool {
    matches!(
        name,
        "append"
            | "cap"
            | "clear"
            | "close"
            | "complex"
            | "copy"
            | "delete"
            | "imag"
            | "len"
            | "make"
            | "max"
            | "min"
            | "new"
            | "panic"
            | "print"
            | "println"
            | "real"
            | "recover"
    )
}

/// Resolves a type as written in a file (`T`, `pkg.T`) to the package that declares it.
/// Predeclared types and packages outside the workspace give `None`.
pub(crate) fn resolve_type(imports: &FileImports, own: &PkgRef, written: &str) -> Option<TypeRef> {
    match written.split_once('.') {
        Some((alias, name)) => {
            let pkg = imports.by_name.get(alias)?.as_ref()?;
            Some(TypeRef { dir: pkg.dir.clone(), pkg: pkg.name.clone(), name: name.to_string() })
        }
        None if is_predeclared_type(written) => None,
        None => {
            Some(TypeRef { dir: own.dir.clone(), pkg: own.name.clone(), name: written.to_string() })
        }
    }
}

/// A function called by a hint's initialiser, as a package function reference.
fn result_of(imports: &FileImports, own: &PkgRef, callee: &Callee) -> Option<VarType> {
    match &callee.receiver {
        Receiver::None => {
            Some(VarType::ResultOf { pkg: own.clone(), func: callee.name.to_string() })
        }
        Receiver::Path(p) if p.len() == 1 => {
            let pkg = imports.by_name.get(p.first()?.as_str())?.as_ref()?;
            Some(VarType::ResultOf { pkg: pkg.clone(), func: callee.name.to_string() })
        }
        _ => None,
    }
}

/// `type A = B` / `type A B` from a type symbol's signature: `(is_alias, B)` when `B` is a
/// plain or qualified type name (type arguments stripped).
fn named_underlying(signature: &str, name: &str) -> Option<(bool, String)> {
    let rest = signature.strip_prefix("type ").unwrap_or(signature).trim_start();
    let mut rest = rest.strip_prefix(name)?.trim_start();
    if rest.starts_with('[') {
        // Type parameters: skip the bracketed list.
        let mut depth = 0usize;
        let mut end = None;
        for (i, ch) in rest.char_indices() {
            match ch {
                '[' => depth += 1,
                ']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = rest.get(end? + 1..)?.trim_start();
    }
    let (alias, ty) = match rest.strip_prefix('=') {
        Some(r) => (true, r.trim()),
        None => (false, rest.trim()),
    };
    let ty = ty.split_once('[').map_or(ty, |(a, _)| a);
    let valid = !ty.is_empty()
        && ty.split('.').count() <= 2
        && ty.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    valid.then(|| (alias, ty.to_string()))
}

/// One file's contribution to its package's table, in source order; [`package_table`]
/// replays the contributions of a package's files in path order, so the first declaration of
/// a name wins among files of equal [`file_rank`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileDecls {
    /// The package clause; a file without one contributes nothing.
    pub package: Option<String>,
    /// Top-level functions.
    pub funcs: Vec<(String, Func)>,
    /// Top-level named types with the members declared inside them.
    pub types: Vec<(String, TypeInfo)>,
    /// Methods declared with a receiver: `(receiver type name, method name, method)`.
    pub methods: Vec<(String, String, Func)>,
    /// Package-level variables whose type is known.
    pub vars: Vec<(String, VarType)>,
    /// Package-level constants and variables.
    pub values: Vec<(String, Value)>,
}

/// The declarations of one Go file, from its facts and imports only. Equal declarations of
/// sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn file_decls<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> std::sync::Arc<FileDecls> {
    crate::shared::share(key.file(db).path(db), decls_of(db, key))
}

fn decls_of<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> FileDecls {
    let file = key.file(db);
    let facts = &file_facts(db, file);
    let Some(pkg_name) = facts.go().and_then(|g| g.package.as_deref()) else {
        return FileDecls::default();
    };
    let path = file.path(db);
    let cx = FileCx {
        facts,
        file,
        rank: file_rank(path, facts.go().and_then(|g| g.build_constraint.as_deref())),
        imports: file_imports(db, key),
        own: PkgRef { dir: parent_dir(path).to_string(), name: pkg_name.to_string() },
        index: FileIndex::new(facts),
    };
    let mut out = FileDecls { package: Some(pkg_name.to_string()), ..FileDecls::default() };
    add_decls(&mut out, &cx);
    add_members(&mut out, &cx);
    out
}

/// The table of the packages in `dir`, merged from its files' [`file_decls`]. Equal tables of
/// sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn package_table<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
) -> std::sync::Arc<PackageTable> {
    crate::shared::share(dir.dir(db), table_of(db, dir))
}

fn table_of<'db>(db: &'db dyn salsa::Database, dir: DirKey<'db>) -> PackageTable {
    let workspace = dir.workspace(db);
    let decls: Vec<&FileDecls> = go_dir_files(db, dir)
        .iter()
        .map(|&f| &**file_decls(db, FileKey::new(db, workspace, f)))
        .collect();
    let mut table = PackageTable { main: package_name(db, dir).clone(), scopes: BTreeMap::new() };
    // Pass 1: types and functions; pass 2: methods and vars (methods attach to types).
    for d in &decls {
        let Some(pkg) = &d.package else { continue };
        let scope = table.scopes.entry(pkg.clone()).or_default();
        for (name, f) in &d.funcs {
            if better(scope.funcs.get(name).map(|f| f.rank), f.rank) {
                scope.funcs.insert(name.clone(), f.clone());
            }
        }
        for (name, info) in &d.types {
            let existing = scope.types.get(name);
            if existing.is_some_and(|t| t.sym.is_some())
                && !better(existing.map(|t| t.rank), info.rank)
            {
                continue;
            }
            scope.types.insert(name.clone(), info.clone());
        }
    }
    for d in &decls {
        let Some(pkg) = &d.package else { continue };
        let scope = table.scopes.entry(pkg.clone()).or_default();
        for (recv, name, f) in &d.methods {
            let info = scope.types.entry(recv.clone()).or_default();
            if better(info.methods.get(name).map(|f| f.rank), f.rank) {
                info.methods.insert(name.clone(), f.clone());
            }
        }
        for (name, v) in &d.vars {
            scope.vars.entry(name.clone()).or_insert_with(|| v.clone());
        }
        for (name, v) in &d.values {
            if better(scope.values.get(name).map(|v| v.rank), v.rank) {
                scope.values.insert(name.clone(), *v);
            }
        }
    }
    table
}

fn better(existing: Option<u8>, rank: u8) -> bool {
    existing.is_none_or(|r| rank < r)
}

/// One file of the package being tabled.
struct FileCx<'a> {
    facts: &'a FileFacts,
    file: SourceFile,
    rank: u8,
    imports: &'a FileImports,
    own: PkgRef,
    index: FileIndex<'a>,
}

impl FileCx<'_> {
    fn ret_of(&self, idx: SymbolIdx) -> Option<TypeRef> {
        let t = self.index.returns.get(&idx)?;
        resolve_type(self.imports, &self.own, t)
    }
}

/// A file's facts grouped by owner, so building a table is linear in the facts.
pub(crate) struct FileIndex<'a> {
    /// Symbol -> its direct children.
    pub children: HashMap<SymbolIdx, Vec<SymbolIdx>>,
    /// Scope symbol -> its non-`Return` hints.
    pub hints: HashMap<SymbolIdx, Vec<&'a TypeHint>>,
    /// Function / method -> its declared result type as written.
    pub returns: HashMap<SymbolIdx, &'a str>,
    /// Type -> its heritage clauses.
    pub heritage: HashMap<SymbolIdx, Vec<&'a Heritage>>,
}

impl<'a> FileIndex<'a> {
    pub fn new(facts: &'a FileFacts) -> Self {
        let mut ix = FileIndex {
            children: HashMap::default(),
            hints: HashMap::default(),
            returns: HashMap::default(),
            heritage: HashMap::default(),
        };
        for (i, s) in facts.symbols.iter().enumerate() {
            if let Some(p) = s.parent {
                ix.children.entry(p).or_default().push(i as SymbolIdx);
            }
        }
        for h in &facts.type_hints {
            let Some(scope) = h.scope else { continue };
            match &h.source {
                HintSource::Return(t) => {
                    ix.returns.entry(scope).or_insert(t.as_str());
                }
                _ => ix.hints.entry(scope).or_default().push(h),
            }
        }
        for h in &facts.heritage {
            ix.heritage.entry(h.symbol).or_default().push(h);
        }
        ix
    }
}

fn add_decls(out: &mut FileDecls, cx: &FileCx<'_>) {
    let (facts, file, rank, imports, own) = (cx.facts, cx.file, cx.rank, cx.imports, &cx.own);
    for (i, s) in facts.symbols.iter().enumerate() {
        if s.parent.is_some() {
            continue;
        }
        let idx = i as SymbolIdx;
        let sym = SymRef { file, idx };
        match s.kind {
            NodeKind::Constant | NodeKind::Variable => {
                out.values.push((s.name.clone(), Value { sym, rank }));
            }
            NodeKind::Function => {
                out.funcs.push((s.name.clone(), Func { sym, ret: cx.ret_of(idx), rank }));
            }
            NodeKind::Struct
            | NodeKind::Interface
            | NodeKind::TypeAlias
            | NodeKind::DefinedType => {
                let mut info = TypeInfo {
                    sym: Some(sym),
                    rank,
                    is_interface: s.kind == NodeKind::Interface,
                    ..TypeInfo::default()
                };
                if matches!(s.kind, NodeKind::TypeAlias | NodeKind::DefinedType)
                    && let Some((alias, ty)) = named_underlying(&s.signature, &s.name)
                {
                    let target = resolve_type(imports, own, &ty);
                    if alias {
                        info.alias_of = target;
                    } else {
                        info.defined_from = target;
                    }
                }
                // Members declared inside the type (fields, interface methods, embeds).
                for &jdx in cx.index.children.get(&idx).into_iter().flatten() {
                    let Some(m) = facts.symbols.get(jdx as usize) else { continue };
                    match m.kind {
                        NodeKind::Method => {
                            info.methods.insert(
                                m.name.clone(),
                                Func { sym: SymRef { file, idx: jdx }, ret: cx.ret_of(jdx), rank },
                            );
                        }
                        NodeKind::Property => {
                            info.fields.insert(m.name.clone(), None);
                        }
                        _ => {}
                    }
                }
                for h in cx.index.hints.get(&idx).into_iter().flatten() {
                    if let HintSource::Annotation(t) = &h.source {
                        info.fields.insert(h.name.to_string(), resolve_type(imports, own, t));
                    }
                }
                for h in cx.index.heritage.get(&idx).into_iter().flatten() {
                    if !matches!(h.kind, HeritageKind::Extends | HeritageKind::Embeds) {
                        continue;
                    }
                    match resolve_type(imports, own, &h.target) {
                        Some(t) => info.embeds.push(t),
                        None if h.target == "error" => info.extra_methods.push("Error".into()),
                        None => info.incomplete = true,
                    }
                }
                out.types.push((s.name.clone(), info));
            }
            _ => {}
        }
    }
}

fn add_members(out: &mut FileDecls, cx: &FileCx<'_>) {
    let (facts, file, rank, imports, own) = (cx.facts, cx.file, cx.rank, cx.imports, &cx.own);
    for (i, s) in facts.symbols.iter().enumerate() {
        if s.parent.is_some() || s.kind != NodeKind::Method {
            continue;
        }
        let Some((recv, _)) = s.qualified_name.split_once('.') else { continue };
        let idx = i as SymbolIdx;
        let f = Func { sym: SymRef { file, idx }, ret: cx.ret_of(idx), rank };
        out.methods.push((recv.to_string(), s.name.clone(), f));
    }
    for h in facts.type_hints.iter().filter(|h| h.scope.is_none()) {
        let var = match &h.source {
            HintSource::Annotation(t) | HintSource::Construct(t) => {
                resolve_type(imports, own, t).map(VarType::Type)
            }
            HintSource::CallResult(c) => result_of(imports, own, c),
            // Callback / ParamFn are TS-only hints.
            HintSource::Return(_)
            | HintSource::Value(_)
            | HintSource::Callback { .. }
            | HintSource::ParamFn { .. } => None,
        };
        if let Some(v) = var {
            out.vars.push((h.name.to_string(), v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_underlying() {
        let linux = Platform { goos: "linux".into(), goarch: "amd64".into() };
        let file_rank = |path: &str, build: Option<&str>| file_rank_for(&linux, path, build);
        let build_satisfied = |expr: &str| build_satisfied(&linux, expr);
        assert_eq!(file_rank("a/fd_linux.go", None), 0);
        assert_eq!(file_rank("a/fd_windows.go", None), 2);
        assert_eq!(file_rank("a/fd_linux_arm64.go", None), 2);
        assert_eq!(file_rank("a/fd_amd64.go", None), 0);
        assert_eq!(file_rank("a/fd.go", None), 1);
        assert_eq!(file_rank("a/linux.go", None), 1);
        // `//go:build` lines, evaluated for linux/amd64 (gc, cgo, unix, every go1.N).
        assert_eq!(file_rank("a/arith_generic.go", Some("!amd64 && !arm64")), 2);
        assert_eq!(file_rank("a/arith_decl.go", Some("(amd64 || arm64) && !math_big_pure_go")), 0);
        assert_eq!(file_rank("a/x.go", Some("ignore")), 2);
        assert_eq!(file_rank("a/x.go", Some("unix && go1.21")), 0);
        assert_eq!(file_rank("a/x_windows.go", Some("windows")), 2);
        assert_eq!(file_rank("a/x.go", Some("linux &&")), 1, "unreadable: the name decides");
        assert_eq!(build_satisfied("!(darwin || freebsd)"), Some(true));
        assert_eq!(named_underlying("type A = pkg.B", "A"), Some((true, "pkg.B".into())));
        assert_eq!(named_underlying("B[T any] List[T]", "B"), Some((false, "List".into())));
        assert_eq!(named_underlying("type C int", "C"), Some((false, "int".into())));
        assert_eq!(named_underlying("type F func()", "F"), None);
        // Another target: darwin/arm64 (GOOS/GOARCH, or a Mac host).
        let mac = Platform { goos: "darwin".into(), goarch: "arm64".into() };
        assert_eq!(file_rank_for(&mac, "a/fd_darwin.go", None), 0);
        assert_eq!(file_rank_for(&mac, "a/fd_linux.go", None), 2);
        assert_eq!(file_rank_for(&mac, "a/fd_darwin_arm64.go", None), 0);
        assert_eq!(file_rank_for(&mac, "a/fd_amd64.go", None), 2);
        assert_eq!(file_rank_for(&mac, "a/x.go", Some("unix && arm64")), 0);
        assert_eq!(file_rank_for(&mac, "a/x.go", Some("linux")), 2);
        let ios = Platform { goos: "ios".into(), goarch: "arm64".into() };
        assert_eq!(file_rank_for(&ios, "a/fd_darwin.go", None), 0, "darwin files build on ios");
        assert_eq!(super::build_satisfied(&ios, "darwin"), Some(true));
    }
}
