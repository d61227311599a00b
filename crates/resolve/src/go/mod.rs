//! Go resolution: packages, imports, calls, embedding and structural IMPLEMENTS.
//!
//! Why it exists: the per-file facts name callees as written (`pkg.F`, `s.conn.Close`); this
//! module turns them into edges to declarations the way go/types would, as far as declared
//! types allow, and admits the call sites it cannot resolve.
//!
//! The queries, each a firewall (its result is compared, so an unchanged result stops
//! propagation):
//! - [`layout::go_files`] (Go files by directory; re-runs when files come and go), then
//!   [`layout::go_layout`] (package directories and `go.mod` modules: what import resolution
//!   needs) and [`layout::go_dir_files`] (one package's files), so adding a file to a package
//!   changes only that package's list.
//! - [`layout::go_file_summary`] (package clause, top-level types and method receivers of one
//!   file), [`layout::package_name`] on top of it, and [`layout::file_imports`].
//! - [`table::file_decls`] (one file's declarations) merged into [`table::package_table`] (one
//!   directory's declarations): a function-body edit stops at the first.
//! - [`implements::package_interfaces`], [`implements::interface_index`] and
//!   [`implements::package_implements`]: structural IMPLEMENTS.
//! - [`resolve_core`]: one file's IMPORTS, CALLS and EXTENDS edges and unresolved sites, from
//!   its facts plus the tables it looks names up in; [`file_implements`]: its IMPLEMENTS edges.
//!   `crate::resolve_file` is their concatenation; unit digests read them apart.
//!
//! Edge conventions: CALLS `caller -> callee` with reason `same-package` / `import-resolved`
//! for functions, `typed-receiver` for methods found through a known receiver type (method
//! expressions included), `interface-method` for calls on an interface-typed receiver (the edge
//! points at the interface method). IMPORTS goes from the file to the imported package node.
//! EMBEDS is used for both interface embedding and struct embedding (the embedded type's
//! methods and fields are promoted, the closest Go has to inheritance). REFERS_TO goes from
//! the enclosing symbol (a type for its fields and signatures, a var or const for its
//! initialiser) to a declaration named and not called: a function or method value, a
//! package-level constant or variable, a named type; locals shadow. Conversions `T(x)`,
//! builtins and calls of func-typed values (fields, variables) are not calls of a declaration:
//! they are skipped, not counted as unresolved. Nothing is guessed by name alone.

mod implements;
pub(crate) mod layout;
mod lookup;
pub(crate) mod packages;
pub(crate) mod rename_rules;
pub(crate) mod routes;
pub(crate) mod table;

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id, parent_dir};
use crate::keys::{DirKey, FileKey};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use crate::tested::Tested;
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Callee, FileFacts, HeritageKind, HintSource, Receiver, SymbolIdx};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use implements::package_implements;
use layout::{FileImports, PkgRef, file_imports};
use lookup::{Field, Tables};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use table::{Func, Scope, SymRef, TypeRef, VarType, is_builtin_func, is_predeclared_type};

/// How many nested resolutions (a local's initialiser call, a call-result receiver) one call
/// site may need.
const MAX_DEPTH: u32 = 8;

/// What a call site resolves to.
enum Outcome<'db> {
    Found(&'db Func, Reason),
    /// Not a call of a declaration: a conversion, a builtin, a func-typed value.
    Skip,
    Unresolved,
}

/// What a name in a function body is known to be.
enum Local {
    Unbound,
    Typed(TypeRef),
    /// A local whose type is unknown (or not a named type).
    Unknown,
}

struct Resolver<'db> {
    tables: Tables<'db>,
    imports: &'db FileImports,
    own: PkgRef,
    scope: Option<&'db Scope>,
    /// `(function, name)` -> hints in source order.
    locals: HashMap<(SymbolIdx, &'db str), Vec<Binding<'db>>>,
    /// The enclosing function of a function symbol nested in one (a route handler written in
    /// place): its locals are visible inside, as a closure's are.
    outer: HashMap<SymbolIdx, SymbolIdx>,
}

/// `pkg:go:{dir}`, interned: the node a Go file hangs under.
pub(crate) fn go_package_id(dir: &str) -> Id {
    crate::ids::package_id(codegraph_parse::Language::Go, dir)
}

/// Go in the resolve registry (`crate::languages`): its rows are memoized in two parts (the
/// core and the IMPLEMENTS edges, see [`resolve_core`]), its files hang under their package.
pub(crate) struct GoResolver;

pub(crate) static GO_RESOLVER: GoResolver = GoResolver;

impl crate::languages::LanguageResolver for GoResolver {
    fn outside_interface_methods(&self, name: &str, signature: &str) -> Vec<String> {
        rename_rules::std_interface_methods(name, signature)
    }

    fn named_after(
        &self,
        target: &crate::renames::RenameTarget<'_>,
        new_name: &str,
    ) -> Option<crate::renames::NamedAfter> {
        rename_rules::examples(target, new_name)
    }

    fn own_summaries(&self, db: &dyn salsa::Database, file: SourceFile) {
        layout::go_file_summary(db, file);
        layout::go_import_paths(db, file);
        layout::go_file_consts(db, file);
    }
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        self.own_summaries(db, key.file(db));
        table::file_decls(db, key);
        true
    }
    fn node_units(&self, db: &dyn salsa::Database, workspace: Workspace) -> Vec<(String, String)> {
        packages::package_dirs(db, workspace)
    }

    fn node_unit_graph<'db>(
        &self,
        db: &'db dyn salsa::Database,
        workspace: Workspace,
        key: &str,
    ) -> &'db crate::units::UnitGraph {
        packages::package_unit_graph(db, crate::keys::DirKey::new(db, workspace, key.to_string()))
    }

    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let mut out = Resolved::clone(resolve_core(db, key));
        out.edges.extend(file_implements(db, key).iter().cloned());
        out
    }

    fn rows_ref<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: FileKey<'db>,
    ) -> Option<&'db Resolved> {
        // Most files have no IMPLEMENTS edge: then the core is the whole answer (no copy).
        file_implements(db, key).is_empty().then(|| &**resolve_core(db, key))
    }

    fn digest<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: FileKey<'db>,
        h: &mut crate::digest::UnitHasher,
    ) {
        use std::hash::Hash;
        // The two parts, read apart so that the digest does not depend on the concatenation.
        resolve_core(db, key).hash(h);
        file_implements(db, key).hash(h);
    }

    fn file_parent(&self, path: &str) -> Option<crate::ids::Id> {
        Some(go_package_id(crate::ids::parent_dir(path)))
    }

    fn reference(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &codegraph_parse::Callee,
        line: u32,
    ) -> Option<((SourceFile, SymbolIdx), Reason)> {
        // Resolved exactly as a call's callee is: what a router mount names
        // (`r.Mount("/api", usersRouter())`, `r.Route("/v1", routes)`).
        let facts = &file_facts(db, file);
        let pkg = facts.go().and_then(|g| g.package.clone())?;
        let key = FileKey::new(db, workspace, file);
        let dir = parent_dir(file.path(db)).to_string();
        let tables = Tables { db, workspace };
        let r = Resolver {
            tables,
            imports: file_imports(db, key),
            scope: tables.scope(&dir, &pkg),
            own: PkgRef { dir, name: pkg },
            locals: locals(facts),
            outer: outer_functions(facts),
        };
        let fn_scope = function_scope(facts, scope);
        match r.call(callee, fn_scope, line_end(line), 0) {
            Outcome::Found(f, reason) => Some(((f.sym.file, f.sym.idx), reason)),
            _ => None,
        }
    }

    fn has_endpoints(&self) -> bool {
        true
    }

    fn mention_qualifier(&self, facts: &codegraph_parse::FileFacts) -> Option<String> {
        facts.go().and_then(|g| g.package.clone())
    }

    fn composed_routes<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: FileKey<'db>,
        seen: &mut std::collections::HashMap<String, u32>,
        out: &mut Vec<crate::endpoints::ComposedRoute>,
    ) {
        routes::const_path_routes(db, key, seen, out);
    }
}

/// The text of a route path written with string constants (`rafthttp.RaftPrefix + "/"`): a
/// bare name is a constant of the file's package, a qualified one a constant of the package
/// the file imports under that name. `None` when any piece is unknown (a parameter, a local
/// variable, a constant computed by a call).
pub(crate) fn const_path(
    db: &dyn salsa::Database,
    key: FileKey<'_>,
    pieces: &[codegraph_parse::PathPiece],
) -> Option<String> {
    use codegraph_parse::PathPiece;
    let (workspace, file) = (key.workspace(db), key.file(db));
    let mut out = String::new();
    for piece in pieces {
        match piece {
            PathPiece::Text(t) => out.push_str(t),
            PathPiece::Name(n) => {
                let (dir, name) = match n.as_slice() {
                    [name] => (parent_dir(file.path(db)).to_string(), name),
                    [pkg, name] => {
                        (file_imports(db, key).by_name.get(pkg)?.as_ref()?.dir.clone(), name)
                    }
                    _ => return None,
                };
                let consts = layout::go_package_consts(db, DirKey::new(db, workspace, dir));
                out.push_str(consts.get(name)?);
            }
        }
    }
    Some(out)
}

/// The imports, calls and EXTENDS edges of one Go file and its unresolved call sites: all of
/// its resolution but IMPLEMENTS ([`file_implements`]). Kept apart because IMPLEMENTS depends
/// on the interfaces of every package: this part depends only on the packages the file looks
/// into, so salsa can skip its verification when none of them changed durably.
///
/// Equal results of sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn resolve_core<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> std::sync::Arc<Resolved> {
    crate::shared::share(key.file(db).path(db), resolve_core_rows(db, key).compact())
}

fn resolve_core_rows<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let facts = &file_facts(db, file);
    let Some(pkg) = facts.go().and_then(|g| g.package.clone()) else {
        return Resolved::default();
    };
    let path = file.path(db);
    let dir = parent_dir(path).to_string();
    let tables = Tables { db, workspace };
    let imports = file_imports(db, key);
    let r = Resolver {
        tables,
        imports,
        scope: tables.scope(&dir, &pkg),
        own: PkgRef { dir: dir.clone(), name: pkg },
        locals: locals(facts),
        outer: outer_functions(facts),
    };
    let mut out = Resolved::default();
    let fid = file_id(path);
    // TESTS: a test function's direct calls into code outside test files, one edge per
    // (test, target) at its first call; and this test file -> each file those targets are in.
    let in_test_file = crate::graph::is_test(db, file);
    let mut tested = Tested::default();
    for (line, d) in &imports.resolved {
        out.edges.push(Edge::new(
            fid.clone(),
            go_package_id(d),
            EdgeKind::Imports,
            Reason::ImportResolved,
            *line,
        ));
    }
    // REFERS_TO: a declaration named, not called: a function or method used as a value
    // (passed, stored, returned), a package-level constant or variable read or written, a
    // named type in a signature, field, literal, conversion or assertion. Once per (symbol,
    // target) at its first use; a test function's function values count as what it tests.
    // (symbol, target) -> index of its edge in `out.edges`, which keeps the first line.
    let mut referred: HashMap<(Id, Id), usize> = HashMap::default();
    let mut refer = |out: &mut Resolved, src: Id, dst: &Id, reason: Reason, line: u32| {
        if src == *dst {
            return;
        }
        match referred.entry((src.clone(), dst.clone())) {
            std::collections::hash_map::Entry::Occupied(e) => {
                if let Some(edge) = out.edges.get_mut(*e.get())
                    && line < edge.line
                {
                    edge.line = line;
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(out.edges.len());
                out.edges.push(Edge::new(src, dst.clone(), EdgeKind::RefersTo, reason, line));
            }
        }
    };
    let sym_id = |s: SymRef| symbol_ids(db, s.file).get(s.idx as usize).cloned();
    // Calls of a field of function type (`fr.getReadBuf(n)`, skipped as calls): the field is
    // read, an ACCESSES edge below.
    let mut field_calls: Vec<codegraph_parse::FieldAccess> = Vec::new();
    for site in &facts.calls {
        // Calls in a package-level var initialiser see package scope only.
        let fn_scope = function_scope(facts, site.enclosing);
        let at = pos(site.line, site.col);
        // `DefaultServeMux.Handle(...)`, `http.DefaultClient.Do(...)`: the variable is read.
        if let Receiver::Path(parts) = &site.callee.receiver
            && let Some((v, reason)) = r.receiver_value(parts, fn_scope, at)
            && let Some(dst) = sym_id(v)
        {
            refer(&mut out, caller_id(db, file, site.enclosing), &dst, reason, site.line);
        }
        match r.call(&site.callee, fn_scope, at, 0) {
            Outcome::Found(f, reason) => {
                let Some(dst) = symbol_ids(db, f.sym.file).get(f.sym.idx as usize) else {
                    continue;
                };
                out.edges.push(Edge::new(
                    caller_id(db, file, site.enclosing),
                    dst.clone(),
                    EdgeKind::Calls,
                    reason,
                    site.line,
                ));
                if in_test_file && let Some(test) = test_function(facts, site.enclosing) {
                    let test_id = symbol_ids(db, file).get(test as usize);
                    tested.add(db, test_id, (dst, f.sym.file, reason, site.line));
                }
            }
            Outcome::Skip => {
                // A conversion `T(x)` / `pkg.T(x)` names the type.
                if let Some((t, reason)) = r.named_type(&site.callee, fn_scope, at) {
                    if let Some(dst) = sym_id(t) {
                        refer(
                            &mut out,
                            caller_id(db, file, site.enclosing),
                            &dst,
                            reason,
                            site.line,
                        );
                    }
                } else if !matches!(site.callee.receiver, Receiver::None | Receiver::Other) {
                    field_calls.push(codegraph_parse::FieldAccess {
                        receiver: site.callee.receiver.clone(),
                        name: site.callee.name.clone(),
                        line: site.line,
                        enclosing: site.enclosing,
                        write: false,
                    });
                }
            }
            Outcome::Unresolved => out.unresolved.push(UnresolvedSite {
                line: site.line,
                caller: caller_id(db, file, site.enclosing),
                callee: codegraph_parse::render::render_callee(&site.callee),
            }),
        }
    }
    for site in &facts.value_refs {
        let fn_scope = function_scope(facts, site.enclosing);
        let at = pos(site.line, site.col);
        let src = caller_id(db, file, site.enclosing);
        if let Outcome::Found(f, reason) = r.call(&site.callee, fn_scope, at, 0) {
            let Some(dst) = sym_id(f.sym) else { continue };
            refer(&mut out, src, &dst, reason, site.line);
            if in_test_file && let Some(test) = test_function(facts, site.enclosing) {
                let test_id = symbol_ids(db, file).get(test as usize);
                tested.add(db, test_id, (&dst, f.sym.file, reason, site.line));
            }
        } else if let Some((v, reason)) =
            r.value(&site.callee, fn_scope, at).or_else(|| r.named_type(&site.callee, fn_scope, at))
            && let Some(dst) = sym_id(v)
        {
            refer(&mut out, src, &dst, reason, site.line);
        }
    }
    for site in &facts.type_refs {
        let fn_scope = function_scope(facts, site.enclosing);
        if let Some((t, reason)) = r.named_type(&site.callee, fn_scope, pos(site.line, site.col))
            && let Some(dst) = sym_id(t)
        {
            refer(&mut out, caller_id(db, file, site.enclosing), &dst, reason, site.line);
        }
    }
    out.edges.extend(tested.into_edges(&fid));
    // ACCESSES: a field read or written through a typed receiver (`c.engine`, `s.cfg.Port`,
    // `New().x`), the field declared on the receiver's type or promoted through embedding.
    // What does not name a struct field of the workspace is dropped, not counted unresolved.
    let mut field_ids: HashMap<SourceFile, HashSet<&str>> = HashMap::default();
    // One edge per (symbol, field), at its first access in source order.
    let mut linked: HashSet<(Option<codegraph_parse::SymbolIdx>, String)> = HashSet::default();
    for a in facts.accesses.iter().chain(&field_calls) {
        let fn_scope = function_scope(facts, a.enclosing);
        if let Receiver::Path(parts) = &a.receiver
            && let Some((v, reason)) = r.receiver_value(parts, fn_scope, line_end(a.line))
            && let Some(dst) = sym_id(v)
        {
            refer(&mut out, caller_id(db, file, a.enclosing), &dst, reason, a.line);
        }
        let Some(ty) = r.receiver_type(&a.receiver, fn_scope, line_end(a.line)) else { continue };
        let Some(owner) = r.tables.field_owner(&ty, &a.name).and_then(|info| info.sym) else {
            // Not a field: a method value (`h := s.handle`, `f(s.handle)`) refers to the method.
            if !a.write
                && let Outcome::Found(f, reason) = r.method_on(&ty, &a.name)
                && let Some(dst) = symbol_ids(db, f.sym.file).get(f.sym.idx as usize)
            {
                refer(&mut out, caller_id(db, file, a.enclosing), dst, reason, a.line);
            }
            continue;
        };
        let ids = symbol_ids(db, owner.file);
        let Some(type_id) = ids.get(owner.idx as usize) else { continue };
        let field = format!("{type_id}.{}", a.name);
        let known = field_ids
            .entry(owner.file)
            .or_insert_with(|| ids.iter().map(|id| &**id).collect())
            .contains(field.as_str());
        if known && linked.insert((a.enclosing, field.clone())) {
            out.edges.push(Edge::new(
                caller_id(db, file, a.enclosing),
                crate::ids::intern(&field),
                EdgeKind::Accesses,
                Reason::TypedReceiver,
                a.line,
            ));
        }
    }
    // HANDLES_ROUTE / HANDLES_TOOL for handlers named by reference (`h`, `pkg.H`, `s.handle`),
    // resolved like a callee at the registration.
    for fe in crate::endpoints::file_endpoints(db, file) {
        let codegraph_parse::Handler::Reference(callee) = &fe.endpoint.handler else { continue };
        let fn_scope = function_scope(facts, fe.endpoint.enclosing);
        if let Outcome::Found(f, reason) = r.call(callee, fn_scope, line_end(fe.endpoint.line), 0)
            && let Some(dst) = symbol_ids(db, f.sym.file).get(f.sym.idx as usize)
        {
            out.edges.push(Edge::new(
                fe.id.clone(),
                dst.clone(),
                crate::endpoints::handles(fe.endpoint.kind),
                reason,
                fe.endpoint.line,
            ));
        }
    }
    out.edges.extend(crate::endpoints::fetch_edges(db, workspace, file));
    // Routes this file mounts under a prefix (chi Mount/Route, groups passed to functions).
    for c in crate::endpoints::composed_routes(db, key) {
        out.nodes.push(c.node.clone());
        out.edges.extend(c.edges.iter().cloned());
    }
    let ids = symbol_ids(db, file);
    for h in &facts.heritage {
        if !matches!(h.kind, HeritageKind::Extends | HeritageKind::Embeds) {
            continue;
        }
        let Some(t) = table::resolve_type(imports, &r.own, &h.target) else { continue };
        let Some(sym) = tables.type_info(&t).and_then(|i| i.sym) else { continue };
        let (Some(src), Some(dst)) =
            (ids.get(h.symbol as usize), symbol_ids(db, sym.file).get(sym.idx as usize))
        else {
            continue;
        };
        let reason = if t.dir == dir { Reason::SamePackage } else { Reason::ImportResolved };
        // Go has no inheritance: struct and interface embedding are EMBEDS.
        out.edges.push(Edge::new(src.clone(), dst.clone(), EdgeKind::Embeds, reason, 0));
    }
    out
}

/// The IMPLEMENTS edges from the types this file declares, in their package's order. A file
/// that declares no type has none, and does not depend on the interfaces of the workspace.
/// Equal lists of sibling databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub(crate) fn file_implements<'db>(
    db: &'db dyn salsa::Database,
    key: FileKey<'db>,
) -> std::sync::Arc<Vec<Edge>> {
    let (workspace, file) = (key.workspace(db), key.file(db));
    let path = file.path(db);
    if layout::go_file_summary(db, file).types.is_empty() {
        return crate::shared::share(path, Vec::new());
    }
    let dir = parent_dir(path);
    let edges = package_implements(db, DirKey::new(db, workspace, dir))
        .iter()
        .filter(|(f, _)| *f == file)
        .map(|(_, e)| e.clone())
        .collect();
    crate::shared::share(path, edges)
}

/// A place in a file, ordered: the line in the high half, the 1-based column in the low.
type Pos = u64;

fn pos(line: u32, col: u32) -> Pos {
    (u64::from(line) << 32) | u64::from(col)
}

/// The end of `line`: for a use whose column is not recorded.
fn line_end(line: u32) -> Pos {
    pos(line, u32::MAX)
}

/// A local's binding: visible from one place to another (`None`: to the end of the function).
type Binding<'f> = (Pos, Option<Pos>, &'f HintSource);

/// Hints of locals, parameters and receivers, by function and name, in order of where their
/// visibility starts.
fn locals(facts: &FileFacts) -> HashMap<(SymbolIdx, &str), Vec<Binding<'_>>> {
    let mut map: HashMap<(SymbolIdx, &str), Vec<Binding<'_>>> = HashMap::default();
    for h in &facts.type_hints {
        let Some(scope) = h.scope else { continue };
        if matches!(h.source, HintSource::Return(_)) || h.name.is_empty() {
            continue;
        }
        let is_fn = facts
            .symbols
            .get(scope as usize)
            .is_some_and(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method));
        if is_fn {
            let (from, to) = match h.visible {
                Some(v) => (pos(h.line, v.col), Some(pos(v.end_line, v.end_col))),
                None => (pos(h.line, 0), None),
            };
            map.entry((scope, h.name.as_str())).or_default().push((from, to, &h.source));
        }
    }
    for hints in map.values_mut() {
        hints.sort_by_key(|(from, _, _)| *from);
    }
    map
}

/// The function whose locals a site at `enclosing` sees: the enclosing symbol when it is a
/// function or method (a package-level var initialiser sees package scope only).
fn function_scope(facts: &FileFacts, enclosing: Option<SymbolIdx>) -> Option<SymbolIdx> {
    enclosing.filter(|&i| {
        facts
            .symbols
            .get(i as usize)
            .is_some_and(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method))
    })
}

/// Function symbols whose parent is a function or method, with that parent.
fn outer_functions(facts: &FileFacts) -> HashMap<SymbolIdx, SymbolIdx> {
    let callable = |i: SymbolIdx| {
        facts
            .symbols
            .get(i as usize)
            .is_some_and(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method))
    };
    let mut out = HashMap::default();
    for (i, s) in facts.symbols.iter().enumerate() {
        let Ok(i) = SymbolIdx::try_from(i) else { break };
        if let Some(p) = s.parent
            && callable(i)
            && callable(p)
        {
            out.insert(i, p);
        }
    }
    out
}

impl<'db> Resolver<'db> {
    /// Resolves one callee as seen from function `func` at `line`.
    fn call(
        &self,
        callee: &Callee,
        func: Option<SymbolIdx>,
        line: Pos,
        depth: u32,
    ) -> Outcome<'db> {
        if depth > MAX_DEPTH {
            return Outcome::Unresolved;
        }
        let name = callee.name.as_str();
        match &callee.receiver {
            Receiver::None => self.bare(name, func, line, depth),
            Receiver::Path(parts) => self.selector(parts, name, func, line, depth),
            Receiver::CallResult(inner) => match self.call_type(inner, func, line, depth + 1) {
                Some(t) => self.method_on(&t, name),
                None => Outcome::Unresolved,
            },
            Receiver::This | Receiver::Super | Receiver::Other => Outcome::Unresolved,
        }
    }

    /// The type of a call's value: the callee's declared result, or the type of a conversion
    /// (`T(x)`, `pkg.T(x)`).
    fn call_type(
        &self,
        callee: &Callee,
        func: Option<SymbolIdx>,
        line: Pos,
        depth: u32,
    ) -> Option<TypeRef> {
        match self.call(callee, func, line, depth) {
            Outcome::Found(f, _) => f.ret.clone(),
            Outcome::Unresolved => None,
            Outcome::Skip => {
                let name = &callee.name;
                let pkg = match &callee.receiver {
                    Receiver::None => {
                        if !matches!(self.local(func, name, line, depth), Local::Unbound) {
                            return None;
                        }
                        &self.own
                    }
                    Receiver::Path(p) if p.len() == 1 => {
                        if !matches!(self.local(func, &p[0], line, depth), Local::Unbound) {
                            return None;
                        }
                        self.imports.by_name.get(p[0].as_str())?.as_ref()?
                    }
                    _ => return None,
                };
                let scope = self.tables.scope(&pkg.dir, &pkg.name)?;
                scope.types.contains_key(name.as_str()).then(|| TypeRef {
                    dir: pkg.dir.clone(),
                    pkg: pkg.name.clone(),
                    name: name.to_string(),
                })
            }
        }
    }

    /// The type of the value `a.b.c` (a local, a package var, an imported package's var, then
    /// fields), as seen at `line`.
    fn path_type(
        &self,
        parts: &[codegraph_parse::Name],
        func: Option<SymbolIdx>,
        line: Pos,
        depth: u32,
    ) -> Option<TypeRef> {
        let first = parts.first()?;
        let (mut ty, rest) = match self.local(func, first, line, depth) {
            Local::Typed(t) => (t, &parts[1..]),
            Local::Unknown => return None,
            Local::Unbound => {
                if let Some(target) = self.imports.by_name.get(first.as_str()) {
                    let pkg = target.as_ref()?;
                    let scope = self.tables.scope(&pkg.dir, &pkg.name)?;
                    let v = scope.vars.get(parts.get(1)?.as_str())?;
                    (self.var_type(v)?, parts.get(2..)?)
                } else {
                    let v = self.scope?.vars.get(first.as_str())?;
                    (self.var_type(v)?, &parts[1..])
                }
            }
        };
        for field in rest {
            match self.tables.field(&ty, field) {
                Field::Typed(t) => ty = t,
                Field::Untyped | Field::Missing => return None,
            }
        }
        Some(ty)
    }

    /// `f()`: a local func value, a package function, a conversion, a builtin, a dot import.
    fn bare(&self, name: &str, func: Option<SymbolIdx>, line: Pos, depth: u32) -> Outcome<'db> {
        if !matches!(self.local(func, name, line, depth), Local::Unbound) {
            return Outcome::Skip;
        }
        if let Some(scope) = self.scope {
            if let Some(f) = scope.funcs.get(name) {
                return Outcome::Found(f, Reason::SamePackage);
            }
            if scope.types.contains_key(name) || scope.vars.contains_key(name) {
                return Outcome::Skip;
            }
        }
        if is_builtin_func(name) || is_predeclared_type(name) {
            return Outcome::Skip;
        }
        for pkg in &self.imports.dots {
            if let Some(scope) = self.tables.scope(&pkg.dir, &pkg.name) {
                if let Some(f) = scope.funcs.get(name) {
                    return Outcome::Found(f, Reason::ImportResolved);
                }
                if scope.types.contains_key(name) {
                    return Outcome::Skip;
                }
            }
        }
        Outcome::Unresolved
    }

    /// `a.b.M()`: through a local, an imported package, a package var, or a type.
    fn selector(
        &self,
        parts: &[codegraph_parse::Name],
        name: &str,
        func: Option<SymbolIdx>,
        line: Pos,
        depth: u32,
    ) -> Outcome<'db> {
        let Some(first) = parts.first() else { return Outcome::Unresolved };
        match self.local(func, first, line, depth) {
            Local::Unknown => return Outcome::Unresolved,
            Local::Typed(_) => {}
            Local::Unbound => {
                if let Some(target) = self.imports.by_name.get(first.as_str()) {
                    let Some(pkg) = target else { return Outcome::Unresolved };
                    let Some(scope) = self.tables.scope(&pkg.dir, &pkg.name) else {
                        return Outcome::Unresolved;
                    };
                    match parts.get(1) {
                        None => {
                            // `pkg.F()`, or a conversion `pkg.T(x)`.
                            if let Some(f) = scope.funcs.get(name) {
                                return Outcome::Found(f, Reason::ImportResolved);
                            }
                            if scope.types.contains_key(name) || scope.vars.contains_key(name) {
                                return Outcome::Skip;
                            }
                            return Outcome::Unresolved;
                        }
                        Some(second)
                            if parts.len() == 2 && scope.types.contains_key(second.as_str()) =>
                        {
                            // Method expression `pkg.T.M`.
                            let t = TypeRef {
                                dir: pkg.dir.clone(),
                                pkg: pkg.name.clone(),
                                name: second.to_string(),
                            };
                            return self.method_on(&t, name);
                        }
                        Some(_) => {}
                    }
                } else if parts.len() == 1
                    && self.scope.is_some_and(|s| {
                        s.types.contains_key(first.as_str()) && !s.vars.contains_key(first.as_str())
                    })
                {
                    // Method expression `T.M`.
                    let t = TypeRef {
                        dir: self.own.dir.clone(),
                        pkg: self.own.name.clone(),
                        name: first.to_string(),
                    };
                    return self.method_on(&t, name);
                }
            }
        }
        match self.path_type(parts, func, line, depth) {
            Some(t) => self.method_on(&t, name),
            None => Outcome::Unresolved,
        }
    }

    /// A package-level declaration a name denotes (`name` bare, or `pkg.name`, or through a
    /// dot import), found by `pick` in a package scope, unless a local of the function
    /// shadows the package alias or, when `bare_shadowed`, the bare name. (A type named in a
    /// signature is resolved before its parameters are in scope: `func f(setter setter)`.)
    fn package_decl(
        &self,
        callee: &Callee,
        func: Option<SymbolIdx>,
        line: Pos,
        bare_shadowed: bool,
        pick: impl Fn(&Scope, &str) -> Option<SymRef>,
    ) -> Option<(SymRef, Reason)> {
        let name = callee.name.as_str();
        match &callee.receiver {
            Receiver::None => {
                if bare_shadowed && !matches!(self.local(func, name, line, 0), Local::Unbound) {
                    return None;
                }
                if let Some(sym) = self.scope.and_then(|s| pick(s, name)) {
                    return Some((sym, Reason::SamePackage));
                }
                self.imports.dots.iter().find_map(|pkg| {
                    let sym = pick(self.tables.scope(&pkg.dir, &pkg.name)?, name)?;
                    Some((sym, Reason::ImportResolved))
                })
            }
            Receiver::Path(p) if p.len() == 1 => {
                if !matches!(self.local(func, &p[0], line, 0), Local::Unbound) {
                    return None;
                }
                let pkg = self.imports.by_name.get(p[0].as_str())?.as_ref()?;
                let sym = pick(self.tables.scope(&pkg.dir, &pkg.name)?, name)?;
                Some((sym, Reason::ImportResolved))
            }
            _ => None,
        }
    }

    /// The package-level constant or variable a name read as a value denotes (`maxLen`,
    /// `pkg.ErrX`, a dot import's).
    fn value(
        &self,
        callee: &Callee,
        func: Option<SymbolIdx>,
        line: Pos,
    ) -> Option<(SymRef, Reason)> {
        self.package_decl(callee, func, line, true, |s, n| s.values.get(n).map(|v| v.sym))
    }

    /// The package-level variable a receiver path starts with (`DefaultServeMux` in
    /// `DefaultServeMux.Handle`, `http.DefaultClient` in `http.DefaultClient.Do`).
    fn receiver_value(
        &self,
        parts: &[codegraph_parse::Name],
        func: Option<SymbolIdx>,
        line: Pos,
    ) -> Option<(SymRef, Reason)> {
        let first = parts.first()?;
        if self.imports.by_name.contains_key(first.as_str())
            && matches!(self.local(func, first, line, 0), Local::Unbound)
        {
            let callee = Callee {
                receiver: Receiver::Path(vec![first.clone()]),
                name: parts.get(1)?.clone(),
            };
            return self.value(&callee, func, line);
        }
        self.value(&Callee { receiver: Receiver::None, name: first.clone() }, func, line)
    }

    /// The declared type a type name denotes (`T`, `pkg.T`, a dot import's `T`).
    fn named_type(
        &self,
        callee: &Callee,
        func: Option<SymbolIdx>,
        line: Pos,
    ) -> Option<(SymRef, Reason)> {
        self.package_decl(callee, func, line, false, |s, n| s.types.get(n).and_then(|t| t.sym))
    }

    /// The method `name` of a value of type `t`; a func-typed field called is skipped.
    fn method_on(&self, t: &TypeRef, name: &str) -> Outcome<'db> {
        if let Some((f, is_interface)) = self.tables.method(t, name) {
            let reason = if is_interface { Reason::InterfaceMethod } else { Reason::TypedReceiver };
            return Outcome::Found(f, reason);
        }
        match self.tables.field(t, name) {
            Field::Missing => Outcome::Unresolved,
            Field::Typed(_) | Field::Untyped => Outcome::Skip,
        }
    }

    fn var_type(&self, v: &VarType) -> Option<TypeRef> {
        match v {
            VarType::Type(t) => Some(t.clone()),
            VarType::ResultOf { pkg, func } => {
                self.tables.scope(&pkg.dir, &pkg.name)?.funcs.get(func)?.ret.clone()
            }
        }
    }

    /// The type of the value a field access reads from: a typed local or package variable
    /// and the fields after it (`c.engine`), or a call's result (`New().x`).
    fn receiver_type(&self, r: &Receiver, func: Option<SymbolIdx>, line: Pos) -> Option<TypeRef> {
        match r {
            Receiver::Path(parts) => self.path_type(parts, func, line, 0),
            Receiver::CallResult(c) => self.call_type(c, func, line, 1),
            _ => None,
        }
    }

    /// The type of local `name` of function `func` at `line`: the nearest declaration at or
    /// above the line (a parameter, the receiver, `x := T{}`, `var x T`, `x := NewT()`).
    fn local(&self, func: Option<SymbolIdx>, name: &str, line: Pos, depth: u32) -> Local {
        let Some(mut func) = func else { return Local::Unbound };
        // The function's own locals, else those of the functions it is nested in.
        let mut hops = 0;
        let hints = loop {
            if let Some(h) = self.locals.get(&(func, name)) {
                break h;
            }
            match self.outer.get(&func) {
                Some(&p) if hops < 8 => {
                    func = p;
                    hops += 1;
                }
                _ => return Local::Unbound,
            }
        };
        // The innermost binding in view: the latest to start among those visible here.
        let Some(&(from, _, source)) =
            hints.iter().rev().find(|(f, to, _)| *f <= line && to.is_none_or(|t| line <= t))
        else {
            return Local::Unbound;
        };
        if depth > MAX_DEPTH {
            return Local::Unknown;
        }
        // The initialiser sees the bindings before the declaration (`req := req.Clone()`).
        let before = from.saturating_sub(1);
        let t = match source {
            HintSource::Annotation(t) | HintSource::Construct(t) => {
                table::resolve_type(self.imports, &self.own, t)
            }
            HintSource::CallResult(c) => self.call_type(c, Some(func), before, depth + 1),
            HintSource::Value(Receiver::Path(p)) => {
                self.path_type(p, Some(func), before, depth + 1)
            }
            // Callback / ParamFn are TS-only hints.
            HintSource::Value(_)
            | HintSource::Return(_)
            | HintSource::Callback { .. }
            | HintSource::ParamFn { .. } => None,
        };
        t.map_or(Local::Unknown, Local::Typed)
    }
}

/// The test function of a `_test.go` file that the symbol `idx` is or lies in: a top-level
/// function that `go test` runs (`TestX`, `BenchmarkX`, `FuzzX`, `ExampleX`; the name goes
/// on with an upper-case letter, a digit or `_`, or ends; `TestMain` is the harness, not a
/// test). Calls in its func literals are its calls.
fn test_function(facts: &FileFacts, idx: Option<SymbolIdx>) -> Option<SymbolIdx> {
    let mut top = idx?;
    while let Some(p) = facts.symbols.get(top as usize)?.parent {
        top = p;
    }
    let s = facts.symbols.get(top as usize)?;
    (s.kind == NodeKind::Function && is_go_test_name(&s.name)).then_some(top)
}

fn is_go_test_name(name: &str) -> bool {
    name != "TestMain"
        && ["Test", "Benchmark", "Fuzz", "Example"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_lowercase()))
        })
}

#[cfg(test)]
mod tests {
    /// An edit inside a function body of package `b` re-resolves `b`'s file only: that file's
    /// declarations are re-derived but compare equal, so `b`'s table is not rebuilt and the
    /// importer in package `a` is not re-resolved (tests/tests/incremental.rs has the exact
    /// sets).
    #[test]
    fn body_edit_reresolves_only_its_file() {
        use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace};
        use codegraph_parse::Language;
        use salsa::Setter;
        use std::sync::{Arc, Mutex};

        let log = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = log.clone();
        let mut db = Database::with_event_callback(Box::new(move |e| {
            if let salsa::EventKind::WillExecute { database_key } = e.kind
                && let Ok(mut log) = sink.lock()
            {
                log.push(format!("{database_key:?}"));
            }
        }));
        let file = |db: &Database, path: &str, text: &str| {
            SourceFile::new(
                db,
                path.to_string(),
                Language::from_path(path),
                Content::Text(Arc::from(text)),
                FileMeta::for_text(text),
            )
        };
        let a = file(&db, "a/a.go", "package a\n\nimport \"m/b\"\n\nfunc A() { b.B() }\n");
        let b = file(&db, "b/b.go", "package b\n\nfunc B() {}\n\nfunc helper() {}\n");
        let go_mod = file(&db, "go.mod", "module m\n");
        let ws = Workspace::new(&db, vec![a, b, go_mod]);
        assert_eq!(crate::resolve_file(&db, ws, a).edges.len(), 2);
        crate::resolve_file(&db, ws, b);
        log.lock().map(|mut l| l.clear()).ok();

        b.set_content(&mut db).to(Content::Text(Arc::from(
            "package b\n\nfunc B() { helper() }\n\nfunc helper() {}\n",
        )));
        assert_eq!(crate::resolve_file(&db, ws, a).edges.len(), 2);
        assert_eq!(crate::resolve_file(&db, ws, b).edges.len(), 1);
        let ran = log.lock().map(|l| l.clone()).unwrap_or_default();
        let count = |q: &str| ran.iter().filter(|k| k.starts_with(q)).count();
        assert_eq!(count("resolve_core"), 1, "{ran:#?}");
        assert_eq!(count("file_decls"), 1, "{ran:#?}");
        assert_eq!(count("package_table"), 0, "{ran:#?}");
        assert_eq!(count("interface_index"), 0, "{ran:#?}");
    }
}
