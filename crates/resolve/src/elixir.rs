//! Elixir resolution: module names are global, so calls resolve by the module a name expands
//! to (through the scope's aliases) and the function's name and arity.
//!
//! Scopes: a directive (`alias`, `import`, `use`, `require`) belongs to the innermost module
//! whose lines contain it and is visible in that module and the modules nested in it; a
//! nested module's short name is an alias in its parent (Elixir's automatic alias).
//!
//! Rules for a call `name/arity`:
//! - remote `M.f(...)`: `M` expanded (`__MODULE__` is the current module); a module of the
//!   repository -> `M.f/arity` (CALLS, `module-name`, the spec's 0.85: no macro expansion),
//!   or an unresolved site when it has no such function; a module outside the repository
//!   (`Enum`, `Ecto.Repo`, `:ets`) is a dependency's: nothing; a repository module that
//!   `use`s another may have it injected: nothing; a variable (`mod.f()`) is a dynamic
//!   module: unresolved;
//! - local `f(...)`: the current module's `f/arity` (`same-file` when it is in this file),
//!   else the only imported repository module that has it (`only:` honoured), else, when the
//!   scope `use`s or imports a module outside the repository (which may inject it: `test`,
//!   `field`, `plug`), nothing, else unresolved; `apply/2,3` is dynamic: unresolved.
//!
//! A protocol's generated dispatch (`P.impl_for/1`, `P.impl_for!/1`, `P.__protocol__/1`)
//! resolves to the protocol.
//!
//! Directives of repository modules IMPORT them (from the module that declares them);
//! `@behaviour B` and `defimpl P` IMPLEMENT them; `%M{}` REFERS_TO the struct of `M`;
//! Phoenix routes are HANDLED_BY `Controller.action/2` resolved like a remote call.
//!
//! Incrementality: [`ex_decls`] is one file's module, function and struct names (no lines),
//! an `Eq` firewall: an edit inside a function body leaves it equal, the workspace table is
//! not rebuilt, and only the edited file re-resolves.

use crate::graph::{Edge, symbol_ids};
use crate::ids::Id;
use crate::keys::FileKey;
use crate::languages::{LanguageResolver, Target};
use crate::layout::{LanguageKey, language_dirs};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Callee, FileFacts, ImportKind, Imported, Language, Receiver, SymbolIdx};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::HashMap;

pub(crate) struct ElixirResolver;

pub(crate) static ELIXIR_RESOLVER: ElixirResolver = ElixirResolver;

/// The functions `defprotocol` generates in every protocol (its dispatch): a call to one
/// resolves to the protocol itself.
const PROTOCOL_FUNCTIONS: &[&str] = &["impl_for/1", "impl_for!/1", "__protocol__/1"];

/// One file's declared names (modules, `M.f/1` functions, `%M{}` structs, and the dispatch
/// functions of its protocols) and their indexes.
#[salsa::tracked(returns(ref))]
pub(crate) fn ex_decls(db: &dyn salsa::Database, file: SourceFile) -> Vec<(String, SymbolIdx)> {
    let mut out = Vec::new();
    for (i, s) in file_facts(db, file).symbols.iter().enumerate() {
        let idx = u32::try_from(i).unwrap_or(u32::MAX);
        out.push((s.qualified_name.clone(), idx));
        if s.kind == NodeKind::Interface {
            for f in PROTOCOL_FUNCTIONS {
                out.push((format!("{}.{f}", s.qualified_name), idx));
            }
        }
    }
    out
}

/// The modules of a file that `use` another module (which may inject functions into them).
#[salsa::tracked(returns(ref))]
pub(crate) fn ex_users(db: &dyn salsa::Database, file: SourceFile) -> Vec<String> {
    let facts = &file_facts(db, file);
    let scopes = Scopes::new(facts);
    let mut out: Vec<String> = scopes
        .directives
        .iter()
        .filter(|(_, d)| !d.uses.is_empty())
        .filter_map(|(m, _)| scopes.module(*m).map(|m| m.name.clone()))
        .collect();
    out.sort();
    out
}

/// Every Elixir name of the workspace (the first declaration wins), and the modules that
/// `use` another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExTable {
    pub names: HashMap<String, Target>,
    pub users: std::collections::HashSet<String>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn ex_table(db: &dyn salsa::Database, workspace: Workspace) -> ExTable {
    let mut out = ExTable::default();
    for files in language_dirs(db, LanguageKey::new(db, workspace, Language::Elixir)).values() {
        for &f in files {
            for (name, idx) in ex_decls(db, f) {
                out.names.entry(name.clone()).or_insert((f, *idx));
            }
            out.users.extend(ex_users(db, f).iter().cloned());
        }
    }
    out
}

/// A module of the file: its lines, name and parent module.
struct Module {
    idx: SymbolIdx,
    start: u32,
    end: u32,
    name: String,
    parent: Option<SymbolIdx>,
}

/// What a module's directives bring into scope.
#[derive(Default)]
struct Directives {
    /// Local alias -> full module name.
    aliases: HashMap<String, String>,
    /// Imported modules: (full name, `None` for all functions or the `only:` list).
    imports: Vec<(String, Option<Vec<String>>)>,
    /// Modules `use`d or `require`d.
    uses: Vec<String>,
}

/// The scopes of one file.
struct Scopes {
    modules: Vec<Module>,
    directives: HashMap<SymbolIdx, Directives>,
}

impl Scopes {
    fn new(facts: &FileFacts) -> Scopes {
        let modules: Vec<Module> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, NodeKind::Module | NodeKind::Interface))
            .map(|(i, s)| Module {
                idx: u32::try_from(i).unwrap_or(u32::MAX),
                start: s.start_line,
                end: s.end_line,
                name: s.qualified_name.clone(),
                parent: s.parent,
            })
            .collect();
        let mut scopes = Scopes { modules, directives: HashMap::new() };
        // Nested modules are aliases in their parent.
        let nested: Vec<(SymbolIdx, String, String)> = scopes
            .modules
            .iter()
            .filter_map(|m| {
                let p = m.parent?;
                let short = m.name.rsplit('.').next()?.to_string();
                Some((p, short, m.name.clone()))
            })
            .collect();
        for (p, short, full) in nested {
            scopes.directives.entry(p).or_default().aliases.entry(short).or_insert(full);
        }
        for imp in facts.imports.iter().filter(|i| i.kind == ImportKind::Module) {
            let Some(m) = scopes.innermost(imp.line) else { continue };
            let source = scopes.expand(&imp.source, Some(m));
            let d = scopes.directives.entry(m).or_default();
            match imp.bindings.first().map(|b| &b.imported) {
                Some(Imported::Namespace) => {
                    if let Some(local) = imp.bindings[0].local.clone() {
                        d.aliases.insert(local, source);
                    }
                }
                Some(Imported::All) => d.imports.push((source, None)),
                Some(Imported::Named(_)) => {
                    let only = imp
                        .bindings
                        .iter()
                        .filter_map(|b| match &b.imported {
                            Imported::Named(n) => Some(n.clone()),
                            _ => None,
                        })
                        .collect();
                    d.imports.push((source, Some(only)));
                }
                _ => d.uses.push(source),
            }
        }
        scopes
    }

    /// The innermost module containing `line`.
    fn innermost(&self, line: u32) -> Option<SymbolIdx> {
        self.modules
            .iter()
            .filter(|m| m.start <= line && line <= m.end)
            .max_by_key(|m| m.start)
            .map(|m| m.idx)
    }

    fn module(&self, idx: SymbolIdx) -> Option<&Module> {
        self.modules.iter().find(|m| m.idx == idx)
    }

    /// `module` and its enclosing modules, innermost first.
    fn chain(&self, module: Option<SymbolIdx>) -> Vec<&Module> {
        let mut out = Vec::new();
        let mut cur = module.and_then(|m| self.module(m));
        while let Some(m) = cur {
            out.push(m);
            cur = m.parent.and_then(|p| self.module(p));
        }
        out
    }

    /// A module name as written, expanded through the aliases in scope.
    fn expand(&self, written: &str, module: Option<SymbolIdx>) -> String {
        let (head, rest) = match written.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (written, None),
        };
        let chain = self.chain(module);
        let base = if head == "__MODULE__" {
            chain.first().map(|m| m.name.clone())
        } else {
            chain.iter().find_map(|m| {
                self.directives.get(&m.idx).and_then(|d| d.aliases.get(head)).cloned()
            })
        };
        match (base, rest) {
            (Some(b), Some(r)) => format!("{b}.{r}"),
            (Some(b), None) => b,
            (None, _) => written.to_string(),
        }
    }

    /// The module whose code contains `scope` (a symbol of the file).
    fn module_of(&self, facts: &FileFacts, scope: Option<SymbolIdx>) -> Option<SymbolIdx> {
        let mut cur = scope;
        while let Some(i) = cur {
            if self.module(i).is_some() {
                return Some(i);
            }
            cur = facts.symbols.get(i as usize).and_then(|s| s.parent);
        }
        None
    }
}

/// What a call resolves to.
enum Outcome {
    Found(Target, Reason),
    /// A dependency's module (or a name a `use` may inject): no edge, no miss.
    External,
    Missing,
}

/// Whether a module name is the repository's (some declaration has it).
fn is_repo_module(table: &ExTable, name: &str) -> bool {
    table.names.contains_key(name)
}

fn resolve_call(
    file: SourceFile,
    facts: &FileFacts,
    scopes: &Scopes,
    table: &ExTable,
    scope: Option<SymbolIdx>,
    callee: &Callee,
) -> Outcome {
    let module = scopes.module_of(facts, scope);
    let name = callee.name.as_str();
    match &callee.receiver {
        Receiver::Path(p) if p.len() == 1 => {
            let written = p[0].as_str();
            if written.starts_with(':') {
                return Outcome::External;
            }
            if written.starts_with(|c: char| c.is_ascii_lowercase()) && written != "__MODULE__" {
                return Outcome::Missing; // a variable holding a module
            }
            let full = scopes.expand(written, module);
            if !is_repo_module(table, &full) {
                return Outcome::External;
            }
            match table.names.get(&format!("{full}.{name}")) {
                Some(t) => Outcome::Found(*t, Reason::ModuleName),
                // A module that `use`s another may have the function injected.
                None if table.users.contains(&full) => Outcome::External,
                None => Outcome::Missing,
            }
        }
        Receiver::None => {
            if name.starts_with("apply/") {
                return Outcome::Missing;
            }
            let chain = scopes.chain(module);
            if let Some(m) = chain.first()
                && let Some(t) = table.names.get(&format!("{}.{name}", m.name))
            {
                let reason = if t.0 == file { Reason::SameFile } else { Reason::ModuleName };
                return Outcome::Found(*t, reason);
            }
            let mut found: Vec<Target> = Vec::new();
            let mut external = false;
            for m in &chain {
                let Some(d) = scopes.directives.get(&m.idx) else { continue };
                for (imported, only) in &d.imports {
                    if !is_repo_module(table, imported) {
                        external = true;
                        continue;
                    }
                    if only.as_ref().is_some_and(|o| !o.iter().any(|n| n == name)) {
                        continue;
                    }
                    if let Some(t) = table.names.get(&format!("{imported}.{name}")) {
                        found.push(*t);
                    }
                }
                external |= d.uses.iter().any(|u| !is_repo_module(table, u));
                // A repository module `use`d may inject functions too.
                external |= !d.uses.is_empty();
            }
            match found.as_slice() {
                [t] => Outcome::Found(*t, Reason::ModuleName),
                [] if external => Outcome::External,
                _ => Outcome::Missing,
            }
        }
        _ => Outcome::Missing,
    }
}

fn sym_id(db: &dyn salsa::Database, t: Target) -> Option<Id> {
    symbol_ids(db, t.0).get(t.1 as usize).cloned()
}

impl LanguageResolver for ElixirResolver {
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        ex_decls(db, key.file(db));
        ex_users(db, key.file(db));
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let table = ex_table(db, workspace);
        let scopes = Scopes::new(facts);
        let ids = symbol_ids(db, file);
        let mut out = Resolved::default();
        for site in &facts.calls {
            let caller = caller_id(db, file, site.enclosing);
            match resolve_call(file, facts, &scopes, table, site.enclosing, &site.callee) {
                Outcome::Found(t, reason) => {
                    if let Some(dst) = sym_id(db, t) {
                        out.edges.push(Edge::new(caller, dst, EdgeKind::Calls, reason, site.line));
                    }
                }
                Outcome::External => {}
                Outcome::Missing => out.unresolved.push(UnresolvedSite {
                    line: site.line,
                    caller,
                    callee: match &site.callee.receiver {
                        Receiver::Path(p) => format!("{}.{}", p.join("."), site.callee.name),
                        _ => site.callee.name.to_string(),
                    },
                }),
            }
        }
        // Directives: IMPORTS of repository modules, from the declaring module.
        for imp in facts.imports.iter().filter(|i| i.kind == ImportKind::Module) {
            let module = scopes.innermost(imp.line);
            let full = scopes.expand(&imp.source, module);
            if let Some(&t) = table.names.get(&full)
                && let Some(dst) = sym_id(db, t)
            {
                let src = caller_id(db, file, module);
                if src != dst {
                    out.edges.push(Edge::new(
                        src,
                        dst,
                        EdgeKind::Imports,
                        Reason::ModuleName,
                        imp.line,
                    ));
                }
            }
        }
        // Behaviours and protocol implementations.
        for h in &facts.heritage {
            let full = scopes.expand(&h.target, Some(h.symbol));
            if let Some(&t) = table.names.get(&full)
                && let (Some(dst), Some(src)) = (sym_id(db, t), ids.get(h.symbol as usize))
            {
                let line = facts.symbols.get(h.symbol as usize).map_or(0, |s| s.start_line);
                out.edges.push(Edge::new(
                    src.clone(),
                    dst,
                    EdgeKind::Implements,
                    Reason::ModuleName,
                    line,
                ));
            }
        }
        // Struct literals.
        for r in &facts.value_refs {
            let Receiver::Path(p) = &r.callee.receiver else { continue };
            let Some(written) = p.first() else { continue };
            let module = scopes.module_of(facts, r.enclosing);
            let full = scopes.expand(written, module);
            if let Some(&t) = table.names.get(&format!("%{full}{{}}"))
                && let Some(dst) = sym_id(db, t)
            {
                let src = caller_id(db, file, r.enclosing);
                out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, Reason::ModuleName, r.line));
            }
        }
        // Route handlers.
        out.edges.extend(crate::endpoints::reference_handler_edges(db, file, |scope, callee| {
            match resolve_call(file, facts, &scopes, table, scope, callee) {
                Outcome::Found(t, reason) => Some((t, reason)),
                _ => None,
            }
        }));
        out.edges.sort();
        out.edges.dedup();
        out.unresolved.sort();
        out
    }

    fn reference(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        _line: u32,
    ) -> Option<(Target, Reason)> {
        let facts = &file_facts(db, file);
        let scopes = Scopes::new(facts);
        match resolve_call(file, facts, &scopes, ex_table(db, workspace), scope, callee) {
            Outcome::Found(t, r) => Some((t, r)),
            _ => None,
        }
    }

    fn has_endpoints(&self) -> bool {
        true
    }
}
