//! Python resolution: imports to modules of the root (absolute through the root's source
//! roots, relative through directories; the standard library and installed packages are
//! outside the workspace, never guessed into it), calls through names in scope, modules,
//! `self` / `cls` and `super()` along the method resolution order, and receivers typed by
//! annotations, constructions, declared return types and attribute hints.
//!
//! Rules for a call (`infer.rs` says how values are worked out):
//! - a bare name: a function nested in an enclosing function, a local (a call of a value:
//!   unresolved), a module-level declaration or import (star imports through `__all__`), a
//!   builtin (outside the workspace), else unresolved;
//! - `self.m()` / `cls.m()`: `m` along the MRO of the enclosing class; `super().m()`: along
//!   the MRO after it; a class with a base outside the workspace may inherit it from there
//!   (outside: not an edge, not unresolved);
//! - `a.b.m()`: the path evaluated (module attributes and submodules, class members,
//!   instance attributes through their hints), then `m` on it;
//! - a class called is a CALLS edge to the class (the oracle's `new`) and one to its
//!   `__init__` when it or a base in the workspace declares one (same site, same reason);
//! - a name bound by assignment (a variable, a class attribute, `X = deco(X)`), a property, an
//!   instance or a module called is a call of a value: unresolved (its attributes are still
//!   followed: `self.session.get()` through `self.session = Session()`). A module-level name
//!   bound twice is its last binding, but an assignment of a literal (`json = None` in an
//!   `except ImportError:`) does not hide an import or declaration.
//!
//! A call never vanishes: every call expression is a CALLS edge
//! ([`Resolved::resolved_calls`]), an unresolved site named by its text, or a call outside
//! the workspace ([`Resolved::external_calls`]).
//!
//! Also IMPORTS (file -> module file, file -> imported declaration), EXTENDS (class -> base
//! class), ACCESSES (a member read or written through a receiver that resolves, to a class's
//! property: fields, attributes methods set, `@property`s, enum members), REFERS_TO (functions, classes and module variables named and not called) and TESTS
//! (a test function of a test file -> what it calls outside test files).

mod index;
mod infer;

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id};
use crate::keys::FileKey;
use crate::languages::{LanguageResolver, Target};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{Callee, FileFacts, HintSource, ImportKind, Imported, Receiver, SymbolIdx};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use index::{Binding, Module};
use infer::{Infer, Value, is_builtin};
use std::collections::{HashMap, HashSet};

pub(crate) struct PythonResolver;

pub(crate) static PYTHON_RESOLVER: PythonResolver = PythonResolver;

/// The resolving file: its facts, its local hints by (function, name), its nested functions.
struct Local<'db> {
    infer: Infer<'db>,
    file: SourceFile,
    facts: &'db FileFacts,
    hints: HashMap<(SymbolIdx, &'db str), Vec<(u32, &'db HintSource)>>,
    nested: HashMap<(SymbolIdx, &'db str), SymbolIdx>,
}

impl<'db> Local<'db> {
    /// The resolver of `file`, whose facts the caller holds (`facts`).
    fn new(
        db: &'db dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        facts: &'db FileFacts,
    ) -> Local<'db> {
        let mut hints: HashMap<(SymbolIdx, &str), Vec<(u32, &HintSource)>> = HashMap::new();
        for h in &facts.type_hints {
            let Some(s) = h.scope else { continue };
            if h.name.is_empty() || !is_function(facts, s) {
                continue;
            }
            hints.entry((s, h.name.as_str())).or_default().push((h.line, &h.source));
        }
        let mut nested = HashMap::new();
        for (i, s) in facts.symbols.iter().enumerate() {
            if let Some(p) = s.parent
                && is_function(facts, p)
            {
                nested.entry((p, s.name.as_str())).or_insert(u32::try_from(i).unwrap_or(u32::MAX));
            }
        }
        Local {
            infer: Infer {
                db,
                workspace,
                budget: std::cell::Cell::new(infer::BUDGET),
                mros: Default::default(),
                indexes: Default::default(),
                modules: Default::default(),
            },
            file,
            facts,
            hints,
            nested,
        }
    }

    fn kind(&self, i: SymbolIdx) -> Option<NodeKind> {
        self.facts.symbols.get(i as usize).map(|s| s.kind)
    }

    /// The functions enclosing `scope`, innermost first, and the class of the innermost
    /// method among them.
    fn chain(&self, scope: Option<SymbolIdx>) -> (Vec<SymbolIdx>, Option<SymbolIdx>) {
        let mut fns = Vec::new();
        let mut cur = scope;
        while let Some(i) = cur {
            match self.kind(i) {
                Some(NodeKind::Class | NodeKind::Enum) => {
                    let in_method = !fns.is_empty();
                    return (fns, in_method.then_some(i));
                }
                _ => fns.push(i),
            }
            cur = self.facts.symbols.get(i as usize).and_then(|s| s.parent);
        }
        (fns, None)
    }

    fn class_of(&self, scope: Option<SymbolIdx>) -> Option<(SourceFile, SymbolIdx)> {
        self.chain(scope).1.map(|c| (self.file, c))
    }

    /// A bare name at `scope`, bound before `line` (strictly, when `strict`).
    fn name(
        &self,
        scope: Option<SymbolIdx>,
        name: &str,
        line: u32,
        strict: bool,
        depth: u32,
    ) -> (Value, Reason) {
        if depth > infer::MAX_DEPTH {
            return (Value::Unknown, Reason::SameFile);
        }
        let (fns, _) = self.chain(scope);
        for f in &fns {
            if let Some(i) = self.nested.get(&(*f, name)) {
                return (self.infer.def_value(self.file, *i, depth + 1), Reason::SameFile);
            }
            if let Some(hs) = self.hints.get(&(*f, name)) {
                let before =
                    hs.iter().rev().find(|(l, _)| if strict { *l < line } else { *l <= line });
                let Some((l, src)) = before else { return (Value::Unknown, Reason::SameFile) };
                return (self.source(Some(*f), src, *l, depth + 1), Reason::TypedReceiver);
            }
        }
        // Names a class body declared earlier are visible in the class body itself.
        if let Some(s) = scope
            && matches!(self.kind(s), Some(NodeKind::Class | NodeKind::Enum))
            && let Some(i) =
                self.infer.index(self.file).classes.get(&s).and_then(|c| c.members.get(name))
        {
            return (self.infer.def_value(self.file, *i, depth + 1), Reason::SameFile);
        }
        let index = self.infer.index(self.file);
        let reason = match index.names.get(name).and_then(|b| b.first()) {
            Some(Binding::Def(_)) => Reason::SameFile,
            _ => Reason::ImportResolved,
        };
        match self.infer.module_name(self.file, name, depth + 1) {
            Value::Unknown if is_builtin(name) => (Value::External, reason),
            v => (v, reason),
        }
    }

    /// A local hint's value, read in function `scope` at `line`.
    fn source(&self, scope: Option<SymbolIdx>, src: &HintSource, line: u32, depth: u32) -> Value {
        if depth > infer::MAX_DEPTH {
            return Value::Unknown;
        }
        match src {
            HintSource::Annotation(t) => {
                self.infer.instance_of_type(self.file, t, self.class_of(scope), depth + 1)
            }
            // `for x in f():` (the provider's encoding): an element of f's result.
            HintSource::CallResult(c) if c.name.starts_with('[') => {
                let Receiver::CallResult(inner) = &c.receiver else { return Value::Unknown };
                let (v, _) = self.callee(scope, inner, line, true, depth + 1);
                let r = self.infer.call_result(&v, depth + 1);
                self.infer.step(&r, &c.name, depth + 1)
            }
            HintSource::CallResult(c) => {
                let (v, _) = self.callee(scope, c, line, true, depth + 1);
                self.infer.call_result(&v, depth + 1)
            }
            HintSource::Value(Receiver::Path(p)) => self.path(scope, p, line, true, depth + 1).0,
            _ => Value::Unknown,
        }
    }

    fn path(
        &self,
        scope: Option<SymbolIdx>,
        p: &[codegraph_parse::Name],
        line: u32,
        strict: bool,
        depth: u32,
    ) -> (Value, Reason) {
        let Some(head) = p.first() else { return (Value::Unknown, Reason::SameFile) };
        let (mut v, mut reason) = if head == "self" {
            match self.class_of(scope) {
                Some((f, c)) => (Value::Instance(f, c), Reason::ThisDispatch),
                None => self.name(scope, head, line, strict, depth + 1),
            }
        } else {
            self.name(scope, head, line, strict, depth + 1)
        };
        for seg in &p[1..] {
            if matches!(v.held(), Value::Instance(..) | Value::Iter(_)) {
                reason = Reason::TypedReceiver;
            }
            v = self.infer.step(&v, seg, depth + 1);
        }
        if matches!(v.held(), Value::Instance(..)) && reason != Reason::ThisDispatch {
            reason = Reason::TypedReceiver;
        }
        (v, reason)
    }

    /// What a callee names at `scope`, and why.
    fn callee(
        &self,
        scope: Option<SymbolIdx>,
        c: &Callee,
        line: u32,
        strict: bool,
        depth: u32,
    ) -> (Value, Reason) {
        if depth > infer::MAX_DEPTH {
            return (Value::Unknown, Reason::SameFile);
        }
        match &c.receiver {
            Receiver::None => self.name(scope, &c.name, line, strict, depth + 1),
            Receiver::This => {
                let Some((f, k)) = self.class_of(scope) else {
                    return (Value::Unknown, Reason::ThisDispatch);
                };
                if c.name.is_empty() {
                    // `cls()` / `self()`: a call of the parameter's value.
                    return (Value::Unknown, Reason::ThisDispatch);
                }
                (self.infer.attr(&Value::Instance(f, k), &c.name, depth + 1), Reason::ThisDispatch)
            }
            Receiver::Super => {
                let Some(k) = self.class_of(scope) else {
                    return (Value::Unknown, Reason::SuperDispatch);
                };
                let v = match self.infer.lookup_member(k, &c.name, true) {
                    Ok((g, i)) => self.infer.def_value(g, i, depth + 1),
                    Err(true) => Value::External,
                    // `super().__init__()` with no base of ours declaring it: `object`'s.
                    Err(false) => Value::External,
                };
                (v, Reason::SuperDispatch)
            }
            Receiver::Path(p) => {
                let (v, reason) = self.path(scope, p, line, strict, depth + 1);
                let v = match v {
                    Value::Unknown
                        if p.len() == 1
                            && matches!(
                                p[0].as_str(),
                                "str"
                                    | "bytes"
                                    | "list"
                                    | "dict"
                                    | "set"
                                    | "tuple"
                                    | "int"
                                    | "float"
                            ) =>
                    {
                        Value::External
                    }
                    v => v,
                };
                (self.infer.attr(&v, &c.name, depth + 1), reason)
            }
            // `xs[i].m()` on an iterable of known elements: an element.
            Receiver::CallResult(inner)
                if inner.name == "__getitem__"
                    && matches!(
                        self.receiver_value(scope, &inner.receiver, line, strict, depth + 1),
                        Value::Iter(_)
                    ) =>
            {
                let v = self.receiver_value(scope, &inner.receiver, line, strict, depth + 1);
                let e = self.infer.step(&v, "[]", depth + 1);
                (self.infer.attr(&e, &c.name, depth + 1), Reason::TypedReceiver)
            }
            Receiver::CallResult(inner) => {
                let (v, _) = self.callee(scope, inner, line, strict, depth + 1);
                let r = self.infer.call_result(&v, depth + 1);
                if c.name.is_empty() {
                    (r, Reason::TypedReceiver)
                } else {
                    (self.infer.attr(&r, &c.name, depth + 1), Reason::TypedReceiver)
                }
            }
            Receiver::Other => (Value::Unknown, Reason::SameFile),
        }
    }
}

impl Local<'_> {
    /// The value a receiver holds (a path, `self`, a call's result).
    fn receiver_value(
        &self,
        scope: Option<SymbolIdx>,
        r: &Receiver,
        line: u32,
        strict: bool,
        depth: u32,
    ) -> Value {
        match r {
            Receiver::This => match self.class_of(scope) {
                Some((f, c)) => Value::Instance(f, c),
                None => Value::Unknown,
            },
            Receiver::Path(p) => self.path(scope, p, line, strict, depth + 1).0,
            Receiver::CallResult(inner) => {
                let (v, _) = self.callee(scope, inner, line, strict, depth + 1);
                self.infer.call_result(&v, depth + 1)
            }
            _ => Value::Unknown,
        }
    }
}

fn is_function(facts: &FileFacts, i: SymbolIdx) -> bool {
    matches!(
        facts.symbols.get(i as usize).map(|s| s.kind),
        Some(NodeKind::Function | NodeKind::Method | NodeKind::Property)
    )
}

fn sym_id(db: &dyn salsa::Database, t: Target) -> Option<Id> {
    symbol_ids(db, t.0).get(t.1 as usize).cloned()
}

/// The callee as an unresolved site names it.
fn render(c: &Callee) -> String {
    let head = match &c.receiver {
        Receiver::None => String::new(),
        Receiver::This => "self".to_string(),
        Receiver::Super => "super()".to_string(),
        Receiver::Path(p) => p.join("."),
        Receiver::CallResult(inner) => format!("{}()", render(inner)),
        Receiver::Other => return c.name.to_string(),
    };
    match (head.is_empty(), c.name.is_empty()) {
        (true, _) => c.name.to_string(),
        (false, true) => head,
        (false, false) => format!("{head}.{}", c.name),
    }
}

/// What a call's callee value makes: the declarations it calls, or why there is none.
enum Outcome {
    Calls(Vec<Target>),
    External,
    Unresolved,
}

fn outcome(l: &Local<'_>, v: &Value) -> Outcome {
    match v {
        Value::Function(f, i) => Outcome::Calls(vec![(*f, *i)]),
        Value::Class(f, c) => {
            let mut out = vec![(*f, *c)];
            if let Ok(init) = l.infer.lookup_member((*f, *c), "__init__", false) {
                out.push(init);
            }
            Outcome::Calls(out)
        }
        Value::External | Value::Iter(_) | Value::Tuple(_) => Outcome::External,
        // A call of a value (an instance, a variable, an attribute, a module): which code
        // runs is the value's business, not a declaration's.
        Value::Instance(..) | Value::Module(_) | Value::Bound(..) | Value::Unknown => {
            Outcome::Unresolved
        }
    }
}

/// What pytest collects as a test function or method.
const TEST_PREFIX: &str = "test";

/// The test function a scope is in (pytest: `test*` functions and methods of `Test*` or
/// `unittest.TestCase` classes), when the file is test code.
fn test_of(facts: &FileFacts, scope: Option<SymbolIdx>) -> Option<SymbolIdx> {
    let mut cur = scope;
    let mut found = None;
    while let Some(i) = cur {
        let s = facts.symbols.get(i as usize)?;
        let function = matches!(s.kind, NodeKind::Function | NodeKind::Method);
        if function && s.name.starts_with(TEST_PREFIX) {
            found = Some(i);
        }
        cur = s.parent;
    }
    found
}

/// The fixture a test of `file` gets by naming `name`: the file's own, else the nearest
/// `conftest.py`'s (its directory, then each one above).
fn find_fixture<'db>(l: &Local<'db>, name: &str) -> Option<(Target, &'db [String])> {
    if let Some((i, params)) = l.infer.index(l.file).fixtures.get(name) {
        return Some(((l.file, *i), params));
    }
    let mut dir = crate::ids::parent_dir(l.file.path(l.infer.db));
    loop {
        let path =
            if dir.is_empty() { "conftest.py".to_string() } else { format!("{dir}/conftest.py") };
        if let Some(c) = crate::layout::lookup(l.infer.db, l.infer.workspace, &path)
            && c != l.file
            && let Some((i, params)) = l.infer.index(c).fixtures.get(name)
        {
            return Some(((c, *i), params));
        }
        if dir.is_empty() {
            return None;
        }
        dir = crate::ids::parent_dir(dir);
    }
}

/// TESTS edges from each test function to what the fixtures it uses call (fixtures of
/// fixtures too, three levels deep). A fixture of the file itself is read from `own` (the
/// file's CALLS so far), never from the file's own resolution, which is being computed.
fn fixture_tests(l: &Local<'_>, own: &[Edge], tested: &mut crate::tested::Tested) {
    let db = l.infer.db;
    let ids = symbol_ids(db, l.file);
    for (i, s) in l.facts.symbols.iter().enumerate() {
        let function = matches!(s.kind, NodeKind::Function | NodeKind::Method);
        if !function || !s.name.starts_with(TEST_PREFIX) {
            continue;
        }
        let test = ids.get(i);
        let mut queue: Vec<(String, u32)> =
            index::parameter_names(&s.signature).into_iter().map(|p| (p.to_string(), 0)).collect();
        let mut seen: HashSet<Target> = HashSet::new();
        while let Some((name, depth)) = queue.pop() {
            let Some((fx, params)) = find_fixture(l, &name) else { continue };
            if depth > 3 || !seen.insert(fx) {
                continue;
            }
            let Some(fx_id) = sym_id(db, fx) else { continue };
            let rows;
            let edges: &[Edge] = if fx.0 == l.file {
                own
            } else {
                rows = crate::resolved::resolve_file(db, FileKey::new(db, l.infer.workspace, fx.0));
                &rows.edges
            };
            for e in edges.iter().filter(|e| e.kind == EdgeKind::Calls && e.src == fx_id) {
                if let Some(target) = target_of(db, l.infer.workspace, &e.dst) {
                    tested.add(db, test, (&e.dst, target, e.reason, s.start_line));
                }
            }
            queue.extend(params.iter().map(|p| (p.clone(), depth + 1)));
        }
    }
}

/// The file a symbol ID of the workspace is in.
fn target_of(db: &dyn salsa::Database, workspace: Workspace, id: &Id) -> Option<SourceFile> {
    // `sym:TAG:PATH:QUALIFIED` (qualified names hold no `:`).
    let rest = codegraph_schema::ids::rest(id, codegraph_schema::NodeCategory::Symbol)?;
    let (_tag, rest) = rest.split_once(':')?;
    let (path, _) = rest.rsplit_once(':')?;
    crate::layout::lookup(db, workspace, path)
}

fn resolve_rows(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> Resolved {
    let held = file_facts(db, file);
    let l = Local::new(db, workspace, file, &held);
    let facts = l.facts;
    let fid = file_id(file.path(db));
    let ids = symbol_ids(db, file);
    let mut out = Resolved::default();

    // IMPORTS: file -> module file, and file -> each declaration imported by name.
    let mut imported: HashSet<(Id, u32)> = HashSet::new();
    for imp in &facts.imports {
        let m = index::mod_ref(file.path(db), &imp.source);
        let Some(module) = l.infer.module(file, &m) else { continue };
        let mut targets: Vec<Id> = Vec::new();
        if let Some(f) = module.file
            && f != file
        {
            targets.push(file_id(f.path(db)));
        }
        if imp.kind != ImportKind::Package {
            for b in &imp.bindings {
                let Imported::Named(n) = &b.imported else { continue };
                match l.infer.module_attr(&module, n, 0) {
                    Value::Function(g, i) | Value::Class(g, i) | Value::Bound(g, i, _)
                        if g != file =>
                    {
                        targets.extend(sym_id(db, (g, i)));
                    }
                    Value::Module(Module { file: Some(g), .. }) if g != file => {
                        targets.push(file_id(g.path(db)));
                    }
                    _ => {}
                }
            }
        }
        for t in targets {
            if imported.insert((t.clone(), imp.line)) {
                out.edges.push(Edge::new(
                    fid.clone(),
                    t,
                    EdgeKind::Imports,
                    Reason::ImportResolved,
                    imp.line,
                ));
            }
        }
    }

    // EXTENDS.
    for h in &facts.heritage {
        let Some(src) = ids.get(h.symbol as usize) else { continue };
        let class = Some((file, h.symbol));
        if let Value::Class(g, i) = l.infer.type_named(file, &h.target, class, 0)
            && (g, i) != (file, h.symbol)
            && let Some(dst) = sym_id(db, (g, i))
        {
            let reason = if g == file { Reason::SameFile } else { Reason::ImportResolved };
            let line = facts.symbols.get(h.symbol as usize).map_or(0, |s| s.start_line);
            out.edges.push(Edge::new(src.clone(), dst, EdgeKind::Extends, reason, line));
        }
    }

    // gRPC: a class on a generated `XServicer` base (`helloworld_pb2_grpc.GreeterServicer`)
    // implements service X: its methods handle the routes of X's rpcs of the same names.
    crate::endpoints::servicer_edges(
        db,
        workspace,
        facts,
        ids,
        |_| true,
        |base| base.strip_suffix("Servicer"),
        &mut out.edges,
    );

    // CALLS and TESTS.
    let in_test_file = crate::graph::is_test(db, file);
    let mut tested = crate::tested::Tested::default();
    for site in &facts.calls {
        let unresolved = || UnresolvedSite {
            line: site.line,
            caller: caller_id(db, file, site.enclosing),
            callee: render(&site.callee),
        };
        if site.local {
            out.unresolved.push(unresolved());
            continue;
        }
        let (v, reason) = l.callee(site.enclosing, &site.callee, site.line, false, 0);
        match outcome(&l, &v) {
            Outcome::Calls(targets) => {
                let dsts: Vec<(Id, SourceFile)> =
                    targets.iter().filter_map(|t| sym_id(db, *t).map(|d| (d, t.0))).collect();
                if dsts.is_empty() {
                    out.unresolved.push(unresolved());
                    continue;
                }
                out.resolved_calls += 1;
                let caller = caller_id(db, file, site.enclosing);
                for (dst, g) in dsts {
                    let reason = if reason == Reason::SameFile && g != file {
                        Reason::ImportResolved
                    } else {
                        reason
                    };
                    if in_test_file && let Some(test) = test_of(facts, site.enclosing) {
                        tested.add(db, ids.get(test as usize), (&dst, g, reason, site.line));
                    }
                    out.edges.push(Edge::new(
                        caller.clone(),
                        dst,
                        EdgeKind::Calls,
                        reason,
                        site.line,
                    ));
                }
            }
            Outcome::External => out.external_calls += 1,
            Outcome::Unresolved => out.unresolved.push(unresolved()),
        }
    }

    // ACCESSES: a member read or written (not called) whose receiver resolves, as a call's
    // does, to a property of a class (a class-level field, an attribute a method sets, a
    // `@property`). Once per (symbol, property, line); what does not resolve is dropped.
    for a in &facts.accesses {
        let callee = Callee { receiver: a.receiver.clone(), name: a.name.clone() };
        let (v, reason) = l.callee(a.enclosing, &callee, a.line, false, 0);
        let Value::Bound(g, i, _) = v else { continue };
        let index = l.infer.index(g);
        let is_member = index
            .parent(i)
            .is_some_and(|p| matches!(index.kind(p), Some(NodeKind::Class | NodeKind::Enum)));
        if !is_member || !matches!(index.kind(i), Some(NodeKind::Property | NodeKind::Constant)) {
            continue;
        }
        if let Some(dst) = sym_id(db, (g, i)) {
            let src = caller_id(db, file, a.enclosing);
            out.edges.push(Edge::new(src, dst, EdgeKind::Accesses, reason, a.line));
        }
    }

    // REFERS_TO: functions, classes and module-level variables named, not called.
    let mut referred: HashSet<(Id, Id)> = HashSet::new();
    for site in &facts.value_refs {
        let (v, reason) = l.callee(site.enclosing, &site.callee, site.line, false, 0);
        let t = match v {
            Value::Function(g, i) | Value::Class(g, i) => (g, i),
            Value::Bound(g, i, _)
                if matches!(
                    l.infer.index(g).kind(i),
                    Some(NodeKind::Variable | NodeKind::Constant)
                ) && l.infer.index(g).parent(i).is_none() =>
            {
                (g, i)
            }
            _ => continue,
        };
        let Some(dst) = sym_id(db, t) else { continue };
        let src = caller_id(db, file, site.enclosing);
        if src == dst || !referred.insert((src.clone(), dst.clone())) {
            continue;
        }
        let reason =
            if reason == Reason::SameFile && t.0 != file { Reason::ImportResolved } else { reason };
        if in_test_file && let Some(test) = test_of(facts, site.enclosing) {
            tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
        }
        out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, reason, site.line));
    }
    // A test exercises what the fixtures it names call (pytest: a parameter named like a
    // fixture of its file or of a `conftest.py` in its directory or above).
    if in_test_file {
        fixture_tests(&l, &out.edges, &mut tested);
    }
    out.edges.extend(tested.into_edges(&fid));
    // HANDLES_ROUTE / HANDLES_TOOL for handlers named by reference (`add_url_rule(..., view)`),
    // resolved like a call's callee; FETCHES of client calls; routes this file mounts.
    crate::endpoints::add_endpoint_rows(db, workspace, file, &mut out, |scope, callee| {
        match l.callee(scope, callee, u32::MAX, false, 0) {
            (Value::Function(g, i) | Value::Class(g, i), reason) => Some(((g, i), reason)),
            _ => None,
        }
    });
    out.edges.sort();
    out.edges.dedup();
    out.unresolved.sort();
    out
}

impl LanguageResolver for PythonResolver {
    fn own_summaries(&self, db: &dyn salsa::Database, file: SourceFile) {
        index::py_index(db, file);
    }
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        self.own_summaries(db, key.file(db));
        index::py_file_modules(db, key);
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        resolve_rows(db, key.workspace(db), key.file(db))
    }

    fn reference(
        &self,
        db: &dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        line: u32,
    ) -> Option<(Target, Reason)> {
        let held = file_facts(db, file);
        let l = Local::new(db, workspace, file, &held);
        // A mounted router is a variable (`bp = Blueprint(...)`): its declaration.
        let found = |v: Value, reason: Reason| match v {
            Value::Function(g, i) | Value::Class(g, i) | Value::Bound(g, i, _) => {
                Some(((g, i), reason))
            }
            _ => None,
        };
        let (v, reason) = l.callee(scope, callee, line, false, 0);
        if let Some(t) = found(v, reason) {
            return Some(t);
        }
        // A module named by its dotted path, no import needed (Django's `include("a.urls")`).
        let Receiver::Path(p) = &callee.receiver else { return None };
        let module =
            l.infer.module(file, &index::ModRef::Abs(p.iter().map(|s| s.to_string()).collect()))?;
        found(l.infer.module_attr(&module, &callee.name, 0), Reason::ImportResolved)
    }

    fn has_endpoints(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::index::ModRef;
    use super::index::mod_ref;

    #[test]
    fn relative_imports_name_directories() {
        assert_eq!(
            mod_ref("pkg/sub/a.py", ".b"),
            ModRef::Rel { dir: "pkg/sub".into(), parts: vec!["b".into()] }
        );
        assert_eq!(mod_ref("pkg/sub/a.py", ".."), ModRef::Rel { dir: "pkg".into(), parts: vec![] });
        assert_eq!(
            mod_ref("pkg/sub/a.py", "..x.y"),
            ModRef::Rel { dir: "pkg".into(), parts: vec!["x".into(), "y".into()] }
        );
        assert_eq!(mod_ref("a.py", "os.path"), ModRef::Abs(vec!["os".into(), "path".into()]));
    }
}
