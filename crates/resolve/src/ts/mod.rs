//! TypeScript / JavaScript resolution: modules, import bindings, calls, heritage.
//!
//! Layers, each a salsa query whose `Eq` result is a firewall for the next:
//! 1. [`project::ts_files`]: the module files of the workspace by directory (only paths are
//!    read), split into per-directory listings [`project::ts_dir`] and the list of config files
//!    [`project::ts_config_files`].
//! 2. [`project::ts_project`]: tsconfig `baseUrl` / `paths` (following `extends`) and workspace
//!    packages by `package.json` name / `exports` / `main` / `types` (only JSON files are read).
//! 3. [`index::file_index`]: one file's symbols (without lines), exports, import bindings and
//!    type hints outside function scopes, from its own facts only; [`index::file_local_hints`]
//!    holds the hints of function scopes, which only the file itself reads.
//! 4. [`project::file_modules`]: where each import specifier of one file leads.
//! 5. [`resolve_file`] (called by the tracked `crate::resolve_file`): IMPORTS, CALLS, REFERS_TO, EXTENDS,
//!    IMPLEMENTS and ACCESSES edges of one file and its unresolved call sites, through
//!    [`resolver`].

mod index;
mod jsonc;
mod named;
mod project;
mod rename_rules;
mod resolver;

use crate::graph::{Edge, symbol_ids};
use crate::ids::file_id;
use crate::keys::FileKey;
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{
    CallKind, Callee, HeritageKind, ImportKind, Imported, render::render_callee,
};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use project::{ModTarget, file_modules};
use resolver::{Def, Outcome, Resolver, Target};
use std::collections::HashSet;

/// The innermost test block (`it`, `test`, `describe`) that the symbol `idx` is or lies in.
fn test_block(
    facts: &codegraph_parse::FileFacts,
    idx: Option<codegraph_parse::SymbolIdx>,
) -> Option<codegraph_parse::SymbolIdx> {
    let mut cur = idx?;
    loop {
        let s = facts.symbols.get(cur as usize)?;
        if s.kind == NodeKind::Test {
            return Some(cur);
        }
        cur = s.parent?;
    }
}

fn sym_id(db: &dyn salsa::Database, (f, i): Target) -> Option<crate::ids::Id> {
    symbol_ids(db, f).get(i as usize).cloned()
}

/// Resolves the imports, calls and type relations of one TS/TSX/JS file.
pub(crate) fn resolve_file(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Resolved {
    let r = Resolver { db, workspace };
    let facts = &file_facts(db, file);
    let modules = file_modules(db, FileKey::new(db, workspace, file));
    let fid = file_id(file.path(db));
    let ids = symbol_ids(db, file);
    let mut out = Resolved::default();

    // IMPORTS: file -> file, and file -> symbol per named binding.
    for (n, imp) in facts.imports.iter().enumerate() {
        let Some(ModTarget::File(target)) = modules.get(n).copied() else { continue };
        if target == file {
            continue;
        }
        out.edges.push(Edge::new(
            fid.clone(),
            file_id(target.path(db)),
            EdgeKind::Imports,
            Reason::ImportResolved,
            imp.line,
        ));
        if imp.kind == ImportKind::Dynamic {
            continue;
        }
        for b in &imp.bindings {
            let name = match &b.imported {
                Imported::Named(x) => x.as_str(),
                Imported::Default => "default",
                Imported::Namespace | Imported::All => continue,
            };
            let mut def = r.export(target, name, &mut HashSet::new(), 0);
            if def.is_none() && b.imported == Imported::Default {
                def = r.default_guess(target, b.local.as_deref().unwrap_or(""));
            }
            if let Some(Def::Sym(g, i)) = def
                && let Some(dst) = sym_id(db, (g, i))
            {
                out.edges.push(Edge::new(
                    fid.clone(),
                    dst,
                    EdgeKind::Imports,
                    Reason::ImportResolved,
                    imp.line,
                ));
            }
        }
    }

    // EXTENDS / IMPLEMENTS.
    for h in &facts.heritage {
        let Some(src) = ids.get(h.symbol as usize) else { continue };
        let Some(t) = r.type_at(file, Some(h.symbol), &h.target, 0) else { continue };
        let Some(dst) = sym_id(db, t) else { continue };
        let kind = match h.kind {
            HeritageKind::Implements => EdgeKind::Implements,
            HeritageKind::Extends | HeritageKind::Embeds => EdgeKind::Extends,
        };
        let reason = if t.0 == file { Reason::SameFile } else { Reason::ImportResolved };
        let line = facts.symbols.get(h.symbol as usize).map_or(0, |s| s.start_line);
        out.edges.push(Edge::new(src.clone(), dst, kind, reason, line));
    }

    // A class passing `this` where an interface is expected (`new AnonymousSubject(this,
    // this)` with `destination?: Observer<T>`) conforms to that interface, as TypeScript's
    // structural typing requires, whether or not it says `implements`: IMPLEMENTS, so that a
    // rename of the interface's member takes the class's and impact follows the interface.
    for a in facts.ts().map_or(&[][..], |t| &t.this_args) {
        let Some(((g, c), true)) = r.this_owner(file, a.enclosing) else { continue };
        let Some(t) = r.argument_type(file, a.enclosing, &a.callee, a.arg, 0) else { continue };
        let is_interface = r.symbol(t.0, t.1).map(|s| s.kind) == Some(NodeKind::Interface);
        if !is_interface || r.declares_base((g, c), t) {
            continue;
        }
        if let (Some(src), Some(dst)) = (sym_id(db, (g, c)), sym_id(db, t)) {
            out.edges.push(Edge::new(
                src,
                dst,
                EdgeKind::Implements,
                Reason::TypedReceiver,
                a.line,
            ));
        }
    }

    // gRPC: a class implementing a generated server interface (`IGreeterServer` of
    // grpc-tools, `GreeterServer` of ts-proto, `GreeterServiceImplementation` of nice-grpc)
    // implements service `Greeter`: its methods handle the routes of its rpcs.
    crate::endpoints::servicer_edges(
        db,
        workspace,
        facts,
        ids,
        |h| h.kind == HeritageKind::Implements,
        |base| {
            base.strip_suffix("ServiceImplementation").or_else(|| {
                let b = base.strip_suffix("Server")?;
                Some(b.strip_prefix('I').filter(|x| x.starts_with(char::is_uppercase)).unwrap_or(b))
            })
        },
        &mut out.edges,
    );

    // CALLS (and TESTS: a test block's calls into code outside test files).
    let in_test_file = crate::graph::is_test(db, file);
    let mut tested = crate::tested::Tested::default();
    for site in &facts.calls {
        let outcome = match site.callee.receiver {
            _ if site.local => r.local_callee(file, site.enclosing, &site.callee.name),
            codegraph_parse::Receiver::None => {
                r.declared_callee(file, site.enclosing, &site.callee.name, 0)
            }
            _ => r.callee(file, site.enclosing, &site.callee, 0),
        };
        let unresolved = || UnresolvedSite {
            line: site.line,
            caller: caller_id(db, file, site.enclosing),
            callee: render_callee(&site.callee),
        };
        match outcome {
            Outcome::Found(t, reason) => {
                // `new X()` names the class; a plain call of a class or interface is a guess
                // the compiler would not make: counted as unresolved.
                let kind = r.symbol(t.0, t.1).map(|s| s.kind);
                let guess = site.kind == CallKind::Call
                    && matches!(kind, Some(NodeKind::Interface | NodeKind::TypeAlias));
                match sym_id(db, t).filter(|_| !guess) {
                    Some(dst) => {
                        if in_test_file && let Some(test) = test_block(facts, site.enclosing) {
                            tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
                        }
                        out.resolved_calls += 1;
                        out.edges.push(Edge::new(
                            caller_id(db, file, site.enclosing),
                            dst,
                            EdgeKind::Calls,
                            reason,
                            site.line,
                        ));
                    }
                    None => out.unresolved.push(unresolved()),
                }
            }
            // A call we cannot resolve is counted, never dropped: also through a receiver we
            // cannot see into (`reply.send(...)` on an untyped parameter).
            Outcome::Unresolved | Outcome::Unknown | Outcome::Value => {
                out.unresolved.push(unresolved())
            }
            Outcome::External => out.external_calls += 1,
        }
    }
    // ACCESSES: a member read or write whose receiver resolves (exactly as a method call's
    // does) to a property: a class field, a constructor parameter property, an interface or
    // object-literal property, an enum member. Reads and writes are one edge kind (the schema
    // has no read/write distinction); what does not resolve is dropped, not counted as an
    // unresolved call.
    // A property, or a method read as a value (`this.m.bind(this)`, `xs.map(this.m)`).
    let access_edge = |out: &mut Resolved,
                       enclosing: Option<codegraph_parse::SymbolIdx>,
                       t: Target,
                       reason: Reason,
                       line: u32| {
        let member = matches!(
            r.symbol(t.0, t.1).map(|s| s.kind),
            Some(NodeKind::Property | NodeKind::Method)
        );
        if member && let Some(dst) = sym_id(db, t) {
            let src = caller_id(db, file, enclosing);
            out.edges.push(Edge::new(src, dst, EdgeKind::Accesses, reason, line));
        }
    };
    for a in &facts.accesses {
        let callee = Callee { receiver: a.receiver.clone(), name: a.name.clone() };
        let Outcome::Found(t, reason) = r.callee(file, a.enclosing, &callee, 0) else {
            continue;
        };
        access_edge(&mut out, a.enclosing, t, reason, a.line);
    }
    // ACCESSES too: a key of an object literal whose context types it (`const t: T = { a }`,
    // `f({ a })` with `f(x: T)`, `{ a } as T`, `return { a }` from `(): T`) writes that
    // type's member, a property or a method the literal provides.
    for k in facts.ts().map_or(&[][..], |t| &t.literal_keys) {
        // One type per literal, whatever its number of keys.
        let Some(t) = r.literal_type(file, k.enclosing, &k.context, &k.path) else { continue };
        for (name, line) in &k.keys {
            if let Some(m) = r.member(t, name, 0) {
                access_edge(&mut out, k.enclosing, m, Reason::TypedReceiver, *line);
            }
        }
    }
    // REFERS_TO: a module-level declaration named and not called (a function, class,
    // constant, variable or enum used as a value; a class, interface, type alias or enum in a
    // type), through the file's scopes and imports like a call. One edge per (symbol,
    // target) at the first use; the extractor leaves out the function's own locals.
    let mut referred: HashSet<(crate::ids::Id, crate::ids::Id)> = HashSet::new();
    let mut referred_outside: HashSet<(crate::ids::Id, crate::ids::Id, u32)> = HashSet::new();
    let sites = facts
        .value_refs
        .iter()
        .map(|s| (s, false))
        .chain(facts.type_refs.iter().map(|s| (s, true)));
    for (site, is_type) in sites {
        let target = if is_type {
            let written = match &site.callee.receiver {
                codegraph_parse::Receiver::None => site.callee.name.to_string(),
                codegraph_parse::Receiver::Path(p) if p.len() == 1 => {
                    format!("{}.{}", p[0], site.callee.name)
                }
                _ => continue,
            };
            // A type parameter in scope is no declaration; a class declared in a function
            // is one there.
            if r.type_param(file, site.enclosing, &written).is_some() {
                continue;
            }
            r.declaration_named(file, site.enclosing, &written, 0)
        } else {
            match r.name(file, site.enclosing, &site.callee.name, 0) {
                Some(Def::Sym(g, i)) => Some((g, i)),
                _ => None,
            }
        };
        let Some(t) = target else { continue };
        let kind = r.symbol(t.0, t.1).map(|s| s.kind);
        let fits = if is_type {
            matches!(
                kind,
                Some(NodeKind::Class | NodeKind::Interface | NodeKind::TypeAlias | NodeKind::Enum)
            )
        } else {
            matches!(
                kind,
                Some(
                    NodeKind::Function
                        | NodeKind::Class
                        | NodeKind::Variable
                        | NodeKind::Constant
                        | NodeKind::Enum
                )
            )
        };
        if !fits {
            continue;
        }
        let (Some(dst), src) = (sym_id(db, t), caller_id(db, file, site.enclosing)) else {
            continue;
        };
        // One edge per pair, whose line the referring symbol's own lines contain; a reference
        // outside them (an overload signature above the implementation) keeps its own edge,
        // so a rename finds every occurrence.
        let outside = site
            .enclosing
            .and_then(|e| facts.symbols.get(e as usize))
            .is_some_and(|s| site.line < s.start_line);
        let first = if outside {
            referred_outside.insert((src.clone(), dst.clone(), site.line))
        } else {
            referred.insert((src.clone(), dst.clone()))
        };
        if src == dst || !first {
            continue;
        }
        let reason = if t.0 == file { Reason::SameFile } else { Reason::ImportResolved };
        if !is_type
            && in_test_file
            && matches!(kind, Some(NodeKind::Function))
            && let Some(test) = test_block(facts, site.enclosing)
        {
            tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
        }
        out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, reason, site.line));
    }
    out.edges.extend(tested.into_edges(&fid));
    // HANDLES_ROUTE / HANDLES_TOOL for handlers named by reference, resolved like a call's
    // callee at the registration.
    // FETCHES, and the routes this file mounts under a prefix.
    let found = |scope, callee: &codegraph_parse::Callee| match r.callee(file, scope, callee, 0) {
        Outcome::Found(t, reason) => Some((t, reason)),
        _ => None,
    };
    crate::endpoints::add_endpoint_rows(db, workspace, file, &mut out, found);
    // gRPC implementations registered on a server (`server.addService(GreeterService, {..})`).
    crate::endpoints::registration_edges(db, workspace, file, found, &mut out.edges);
    out.edges.sort();
    out.edges.dedup();
    out.unresolved.sort();
    out
}

/// TypeScript, TSX and JavaScript in the resolve registry (`crate::languages`).
pub(crate) struct TsResolver;

pub(crate) static TS_RESOLVER: TsResolver = TsResolver;

impl crate::languages::LanguageResolver for TsResolver {
    fn own_summaries(&self, db: &dyn salsa::Database, file: SourceFile) {
        index::file_index(db, file);
        // Function-scope hints and called locals: the resolver may follow another file's
        // symbol into a function scope, so they are surface too.
        index::file_local_hints(db, file);
        index::file_called_locals(db, file);
        named::file_constructors(db, file);
    }
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        self.own_summaries(db, key.file(db));
        project::file_modules(db, key);
        true
    }
    fn resolve<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: crate::keys::FileKey<'db>,
    ) -> Resolved {
        resolve_file(db, key.workspace(db), key.file(db))
    }

    fn reference(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        scope: Option<codegraph_parse::SymbolIdx>,
        callee: &Callee,
        _line: u32,
    ) -> Option<(Target, Reason)> {
        // Resolved exactly as a call's callee is.
        match (Resolver { db, workspace }).callee(file, scope, callee, 0) {
            Outcome::Found(t, reason) => Some((t, reason)),
            _ => None,
        }
    }

    fn has_endpoints(&self) -> bool {
        true
    }

    fn outside_interface_methods(&self, name: &str, _signature: &str) -> Vec<String> {
        rename_rules::protocol_members(name)
    }

    fn path_endpoints(
        &self,
        path: &str,
        facts: &codegraph_parse::FileFacts,
    ) -> Vec<codegraph_parse::Endpoint> {
        crate::endpoints::path_endpoints(path, facts)
    }
}
