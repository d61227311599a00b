//! Java resolution: type names through the enclosing types, the file's own types, single-type
//! imports, the package, on-demand imports and fully qualified names (a type no file of the
//! root declares is outside the workspace: the JDK or a jar); calls by the receiver's
//! declared type (locals, parameters, fields, `var` from its initializer, casts, `this`,
//! `super`, chained calls through declared return types), members inherited along the
//! superclass and interface hierarchy, constructors (`new X()` is a call of the class X, the
//! javac oracle's convention) and static imports.
//!
//! Rules for a call:
//! - `m()`: `m` in the enclosing types, innermost first, each with its supertypes; then the
//!   static imports;
//! - `this.m()` / `super.m()`: in the enclosing type / its superclass; `this(..)` /
//!   `super(..)` call the class / its superclass;
//! - `x.m()`: `x` a local or parameter (the declaration above the call in the enclosing
//!   members), a field of an enclosing type, a type (a static call), or a package-qualified
//!   type; then `m` on its type;
//! - a member found in a type of the root is an edge; a type outside the root, or a hierarchy
//!   that reaches one before it finds the member, makes a call outside the workspace (not an
//!   edge, not unresolved), and so do `Object`'s methods. Overloads: the first declared
//!   overload whose parameters take the call's argument count, along the hierarchy (a
//!   subclass's `m(A)` does not hide an inherited `m(A, B)`); among overloads of one class
//!   with that count, the first declared (argument types are not compared yet).
//!
//! A call never vanishes: every call expression is a CALLS edge, an unresolved site named by
//! its text, or a call outside the workspace.
//!
//! Also IMPORTS (file -> file of the imported type), EXTENDS (class -> superclass, interface
//! -> superinterface), IMPLEMENTS (class -> interface), ACCESSES (fields read or written
//! through a receiver that resolves), REFERS_TO (method references), TESTS (a method of a
//! test file -> what it calls outside test files) and the routes of Spring controllers and
//! JAX-RS resources (HANDLES_ROUTE to their methods).

mod index;

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id};
use crate::keys::FileKey;
use crate::languages::{LanguageResolver, Target};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{
    CallKind, Callee, FileFacts, HeritageKind, HintSource, ImportKind, Imported, Receiver,
    SymbolIdx, TypeHint,
};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
pub(crate) use index::PackageKey;
use index::{JavaIndex, java_index, package_files, package_types};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

pub(crate) struct JavaResolver;

pub(crate) static JAVA_RESOLVER: JavaResolver = JavaResolver;

/// Bound on nested evaluations (a receiver's type through hints and return types).
const MAX_DEPTH: u32 = 24;
/// Bound on member lookups per file (a pathological hierarchy cannot stall resolution).
const BUDGET: u32 = 2_000_000;

/// What an expression's type is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ty {
    /// A type of the root, with array dimensions and its type arguments where written
    /// (`Box<Item>`: what its methods returning `T` give back).
    Class(Target, u8, Vec<Ty>),
    /// A type outside the root (the JDK, a jar), or an array of one.
    External,
    /// A generic type outside the root with its type arguments (`List<Item>`): what the
    /// JDK's containers hand back ([`ext_return`]).
    Ext(Box<ExtTy>),
    Unknown,
}

/// A generic type outside the root: its simple name and its arguments' types.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ExtTy {
    base: String,
    args: Vec<Ty>,
}

/// A type name in its context: (file, scope, text).
type TypeKey = (SourceFile, Option<SymbolIdx>, String);

/// What a member lookup wants: a field, or a method called with a number of arguments
/// (`None`: unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Field,
    Method(Option<u32>),
}

/// What a member lookup found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    Member(Target),
    External,
    Missing,
}

const PRIMITIVES: &[&str] =
    &["int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var"];

/// `Object`'s methods: inherited by every type, declared outside the root.
const OBJECT_METHODS: &[&str] = &[
    "toString",
    "equals",
    "hashCode",
    "getClass",
    "clone",
    "finalize",
    "notify",
    "notifyAll",
    "wait",
];

struct Local<'db> {
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    facts: &'db FileFacts,
    /// The file's hints by (scope, name), in source order: what `local` and `anonymous_this`
    /// read at every call site (one pass here instead of a scan of every hint per lookup).
    hints: rustc_hash::FxHashMap<(SymbolIdx, &'db str), Vec<&'db TypeHint>>,
    budget: Cell<u32>,
    /// Type names already worked out, by (file, scope, text).
    types: RefCell<HashMap<TypeKey, Ty>>,
    /// Member types being looked up (a cycle through supertypes ends there).
    visiting: RefCell<HashSet<(Target, String)>>,
}

impl<'db> Local<'db> {
    /// The resolver of `file`, whose facts the caller holds (`facts`).
    fn new(
        db: &'db dyn salsa::Database,
        workspace: Workspace,
        file: SourceFile,
        facts: &'db FileFacts,
    ) -> Local<'db> {
        let hints = crate::resolved::hints_by_scope(facts);
        Local {
            db,
            workspace,
            file,
            facts,
            hints,
            budget: Cell::new(BUDGET),
            types: RefCell::new(HashMap::new()),
            visiting: RefCell::new(HashSet::new()),
        }
    }

    fn index(&self, f: SourceFile) -> &'db JavaIndex {
        java_index(self.db, f)
    }

    fn spend(&self) -> bool {
        let b = self.budget.get();
        if b == 0 {
            return false;
        }
        self.budget.set(b - 1);
        true
    }

    fn package(&self, name: &str) -> &'db [SourceFile] {
        package_files(self.db, PackageKey::new(self.db, self.workspace, name.to_string()))
    }

    fn top_type(&self, package: &str, name: &str) -> Option<Target> {
        let key = PackageKey::new(self.db, self.workspace, package.to_string());
        package_types(self.db, key).get(name).copied()
    }

    /// A member type `name` of `t` (declared in it or inherited).
    fn member_type(&self, t: Target, name: &str, depth: u32) -> Option<Target> {
        if depth > MAX_DEPTH || !self.spend() {
            return None;
        }
        let key = (t, name.to_string());
        if !self.visiting.borrow_mut().insert(key.clone()) {
            return None;
        }
        let found = self.member_type_in(t, name, depth);
        self.visiting.borrow_mut().remove(&key);
        found
    }

    fn member_type_in(&self, t: Target, name: &str, depth: u32) -> Option<Target> {
        let index = self.index(t.0);
        let info = index.types.get(&t.1)?;
        if let Some(m) = info.members.get(name).and_then(|v| v.iter().find(|&&m| index.is_type(m)))
        {
            return Some((t.0, *m));
        }
        let around = index.parent(t.1);
        for s in &info.supers {
            if let Ty::Class(st, 0, _) = self.type_named(t.0, around, s, depth + 1)
                && st != t
                && let Some(found) = self.member_type(st, name, depth + 1)
            {
                return Some(found);
            }
        }
        None
    }

    /// A fully qualified name (`a.b.C`, `a.b.C.D`): the longest package prefix that the root
    /// declares, then its types.
    fn qualified(&self, name: &str, depth: u32) -> Option<Target> {
        let parts: Vec<&str> = name.split('.').collect();
        for i in (1..parts.len()).rev() {
            let package = parts[..i].join(".");
            if self.package(&package).is_empty() {
                continue;
            }
            let mut t = self.top_type(&package, parts[i])?;
            for p in &parts[i + 1..] {
                t = self.member_type(t, p, depth + 1)?;
            }
            return Some(t);
        }
        None
    }

    /// The types enclosing `scope` in its file, innermost first.
    fn enclosing_types(&self, file: SourceFile, scope: Option<SymbolIdx>) -> Vec<SymbolIdx> {
        let index = self.index(file);
        let mut out = Vec::new();
        let mut cur = scope;
        while let Some(i) = cur {
            if index.is_type(i) {
                out.push(i);
            }
            cur = index.parent(i);
        }
        out
    }

    /// A type name as written in `file` at `scope` (normalized: `Map.Entry`, `String[]`).
    fn type_named(&self, file: SourceFile, scope: Option<SymbolIdx>, text: &str, depth: u32) -> Ty {
        let key = (file, scope, text.to_string());
        if let Some(t) = self.types.borrow().get(&key) {
            return t.clone();
        }
        let t = self.type_named_uncached(file, scope, text, depth);
        // A result cut short by the depth bound is not kept.
        if depth <= MAX_DEPTH / 2 {
            self.types.borrow_mut().insert(key, t.clone());
        }
        t
    }

    fn type_named_uncached(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        text: &str,
        depth: u32,
    ) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        let (plain, args) = split_generic(text);
        let text = plain.as_str();
        let base = text.trim_end_matches("[]");
        let dims = u8::try_from((text.len() - base.len()) / 2).unwrap_or(u8::MAX);
        if base.is_empty() || PRIMITIVES.contains(&base) {
            return if dims > 0 { Ty::External } else { Ty::Unknown };
        }
        let (first, rest) = match base.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (base, None),
        };
        // A type parameter in scope (`T`, `E extends Node`): its bound, else an `Object`.
        if rest.is_none()
            && let Some((declared, bound)) = self.type_param(file, scope, first)
        {
            let Some(bound) = bound else { return Ty::External };
            return match self.type_named(file, Some(declared), &bound, depth + 1) {
                Ty::Class(t, 0, _) => Ty::Class(t, dims, Vec::new()),
                ty if dims == 0 => ty,
                _ => Ty::External,
            };
        }
        let found = self.simple_type(file, scope, first, depth).and_then(|t| {
            let mut t = t;
            for p in rest.map(|r| r.split('.').collect::<Vec<_>>()).unwrap_or_default() {
                t = self.member_type(t, p, depth + 1)?;
            }
            Some(t)
        });
        let found = found.or_else(|| rest.and_then(|_| self.qualified(base, depth)));
        match found {
            Some(t) => Ty::Class(
                t,
                dims,
                args.iter().map(|a| self.type_named(file, scope, a, depth + 1)).collect(),
            ),
            None if dims == 0 && !args.is_empty() => Ty::Ext(Box::new(ExtTy {
                base: base.rsplit('.').next().unwrap_or(base).to_string(),
                args: args.iter().map(|a| self.type_named(file, scope, a, depth + 1)).collect(),
            })),
            None => Ty::External,
        }
    }

    /// A simple type name in scope: enclosing types and their member types, the file's
    /// types, single-type imports, the package, on-demand imports.
    fn simple_type(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
        depth: u32,
    ) -> Option<Target> {
        let index = self.index(file);
        for t in self.enclosing_types(file, scope) {
            if index.symbols.get(t as usize).is_some_and(|s| s.2 == name) {
                return Some((file, t));
            }
            if let Some(m) = self.member_type((file, t), name, depth + 1) {
                return Some(m);
            }
        }
        if let Some(&t) = index.top.get(name) {
            return Some((file, t));
        }
        for (kind, source, imported) in &index.imports {
            if *kind == ImportKind::EsImport
                && let Imported::Named(n) = imported
                && n == name
            {
                return self.qualified(&format!("{source}.{n}"), depth);
            }
        }
        if let Some(t) = self.top_type(&index.package, name) {
            return Some(t);
        }
        for (kind, source, imported) in &index.imports {
            if *imported != Imported::All {
                continue;
            }
            if *kind == ImportKind::EsImport
                && let Some(t) = self.top_type(source, name)
            {
                return Some(t);
            }
            // `import a.b.C.*` (or `import static a.b.C.*`) brings C's member types.
            if let Some(c) = self.qualified(source, depth)
                && let Some(t) = self.member_type(c, name, depth + 1)
            {
                return Some(t);
            }
        }
        None
    }

    /// Member `name` of type `t` or its supertypes: a field, or a method called with `args`
    /// arguments (`Some`: the first overload whose parameters take that many, searched along
    /// the hierarchy; none anywhere: the first of that name).
    fn member(&self, t: Target, name: &str, want: Want, depth: u32) -> Found {
        let method = want != Want::Field;
        let args = match want {
            Want::Method(a) => a,
            Want::Field => None,
        };
        let mut fallback: Option<Target> = None;
        let mut seen: HashSet<Target> = HashSet::new();
        let mut external = false;
        let mut queue = vec![t];
        let mut at = 0;
        while at < queue.len() {
            let cur = queue[at];
            at += 1;
            if !seen.insert(cur) || depth > MAX_DEPTH || !self.spend() {
                continue;
            }
            let index = self.index(cur.0);
            let Some(info) = index.types.get(&cur.1) else { continue };
            if let Some(v) = info.members.get(name) {
                let want = |m: &SymbolIdx| match index.kind(*m) {
                    Some(NodeKind::Method) => method,
                    Some(NodeKind::Property | NodeKind::Constant) => !method,
                    _ => false,
                };
                let fits = |m: &SymbolIdx| match (args, index.arity.get(m)) {
                    (Some(n), Some(&(params, varargs))) => {
                        if varargs {
                            n + 1 >= params
                        } else {
                            n == params
                        }
                    }
                    _ => true,
                };
                if let Some(&m) = v.iter().find(|m| want(m) && fits(m)) {
                    return Found::Member((cur.0, m));
                }
                if fallback.is_none()
                    && let Some(&m) = v.iter().find(|m| want(m))
                {
                    fallback = Some((cur.0, m));
                }
                // A record component is called as its accessor.
                if method
                    && let Some(&m) = v.iter().find(|&&m| index.kind(m) == Some(NodeKind::Property))
                {
                    return Found::Member((cur.0, m));
                }
            }
            let around = index.parent(cur.1);
            for s in &info.supers {
                match self.type_named(cur.0, around, s, depth + 1) {
                    Ty::Class(st, 0, _) => queue.push(st),
                    _ => external = true,
                }
            }
            // An enum extends `java.lang.Enum`.
            if index.kind(cur.1) == Some(NodeKind::Enum) {
                external = true;
            }
        }
        if let Some(m) = fallback {
            return Found::Member(m);
        }
        if external || (method && OBJECT_METHODS.contains(&name)) {
            Found::External
        } else {
            Found::Missing
        }
    }

    /// The superclass of a type of the root.
    fn superclass(&self, t: Target, depth: u32) -> Ty {
        let index = self.index(t.0);
        match index.types.get(&t.1) {
            Some(info) if info.has_superclass => info
                .supers
                .first()
                .map_or(Ty::External, |s| self.type_named(t.0, index.parent(t.1), s, depth + 1)),
            _ => Ty::External,
        }
    }

    /// The type of a variable named `name` visible at `line` in the members around `scope`:
    /// the last declaration above the line, innermost member first.
    fn local(&self, scope: Option<SymbolIdx>, name: &str, line: u32, depth: u32) -> Option<Ty> {
        let index = self.index(self.file);
        let mut cur = scope;
        while let Some(s) = cur {
            if index.is_type(s) {
                return None;
            }
            let hint = self
                .hints
                .get(&(s, name))
                .and_then(|v| v.iter().filter(|h| h.line <= line).max_by_key(|h| h.line));
            if let Some(h) = hint {
                return Some(self.hint_type(Some(s), &h.source, line, depth + 1));
            }
            cur = index.parent(s);
        }
        None
    }

    fn hint_type(&self, scope: Option<SymbolIdx>, src: &HintSource, line: u32, depth: u32) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        match src {
            HintSource::Annotation(t) | HintSource::Construct(t) => {
                self.type_named(self.file, scope, t, depth + 1)
            }
            HintSource::CallResult(c) => self.returned(scope, c, line, depth + 1),
            HintSource::Value(Receiver::Path(p)) => self.path_type(scope, p, line, depth + 1),
            _ => Ty::Unknown,
        }
    }

    /// The type of a field `name` seen from the types around `scope` (inherited too).
    fn field_type(&self, t: Target, name: &str, depth: u32) -> Option<Ty> {
        self.field_type_of(t, &[], name, depth)
    }

    /// The type of field `name` of `t` whose type arguments are `args` (a field typed by a
    /// type parameter of `t` is of the argument's type).
    fn field_type_of(&self, t: Target, args: &[Ty], name: &str, depth: u32) -> Option<Ty> {
        match self.member(t, name, Want::Field, depth + 1) {
            Found::Member(f) => {
                let index = self.index(f.0);
                let subst = self.substitution(t, f, args);
                match index.field_types.get(&f.1) {
                    Some(ty) => {
                        Some(self.subst_type(f.0, index.parent(f.1), ty, &subst, depth + 1))
                    }
                    // An enum constant is an instance of its enum.
                    None => index
                        .parent(f.1)
                        .filter(|&p| index.kind(p) == Some(NodeKind::Enum))
                        .map(|p| Ty::Class((f.0, p), 0, Vec::new())),
                }
            }
            Found::External => Some(Ty::External),
            Found::Missing => None,
        }
    }

    /// The type of a name chain.
    fn path_type(
        &self,
        scope: Option<SymbolIdx>,
        path: &[codegraph_parse::Name],
        line: u32,
        depth: u32,
    ) -> Ty {
        let Some(first) = path.first() else { return Ty::Unknown };
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        let mut rest = &path[1..];
        let mut ty = match first.as_str() {
            "this" => self.this_type(scope),
            "new" => {
                let Some(t) = rest.first() else { return Ty::Unknown };
                rest = &rest[1..];
                self.type_named(self.file, scope, t, depth + 1)
            }
            name => {
                let field = self.enclosing_field(scope, name, depth);
                if let Some(t) = self.local(scope, name, line, depth) {
                    t
                } else if let Some(t) = field.clone().filter(|t| *t != Ty::External) {
                    t
                } else if let Some(t) = self.simple_type(self.file, scope, name, depth) {
                    Ty::Class(t, 0, Vec::new())
                } else if let Some((t, used)) = self.qualified_prefix(path) {
                    rest = &path[used..];
                    Ty::Class(t, 0, Vec::new())
                } else if field.is_some() || name.starts_with(char::is_uppercase) {
                    // A type outside the root (`Math.max`, `Collections.sort`).
                    Ty::External
                } else {
                    Ty::Unknown
                }
            }
        };
        for seg in rest {
            if seg == "this" {
                // `Outer.this`: the instance of that enclosing type.
                continue;
            }
            ty = match ty {
                Ty::Class(t, d, _) if seg == "[]" && d > 0 => Ty::Class(t, d - 1, Vec::new()),
                Ty::Class(t, 0, args) => match self.field_type_of(t, &args, seg, depth) {
                    Some(ft) => ft,
                    None => match self.member_type(t, seg, depth + 1) {
                        Some(n) => Ty::Class(n, 0, Vec::new()),
                        None => Ty::Unknown,
                    },
                },
                Ty::Ext(e) if seg == "[]" => element_of(&e),
                Ty::Class(..) | Ty::External | Ty::Ext(_) => Ty::External,
                Ty::Unknown => Ty::Unknown,
            };
        }
        ty
    }

    /// `a.b.C...` as a package-qualified type: the type and how many segments it took.
    fn qualified_prefix(&self, path: &[codegraph_parse::Name]) -> Option<(Target, usize)> {
        for i in (1..path.len()).rev() {
            let package = path[..i].join(".");
            if self.package(&package).is_empty() {
                continue;
            }
            let t = self.top_type(&package, path[i].as_str())?;
            return Some((t, i + 1));
        }
        None
    }

    /// A field of the enclosing types (declared or inherited in the root), innermost first;
    /// `Some(External)` when none is found but a hierarchy leaves the root.
    fn enclosing_field(&self, scope: Option<SymbolIdx>, name: &str, depth: u32) -> Option<Ty> {
        let mut outside = false;
        if let Some(Ty::Class(t, 0, _)) = self.anonymous_this(scope, depth) {
            match self.field_type(t, name, depth) {
                Some(Ty::External) => outside = true,
                Some(ty) => return Some(ty),
                None => {}
            }
        }
        for t in self.enclosing_types(self.file, scope) {
            match self.field_type((self.file, t), name, depth) {
                Some(Ty::External) => outside = true,
                Some(ty) => return Some(ty),
                None => {}
            }
        }
        outside.then_some(Ty::External)
    }

    /// A method of the anonymous class or enum constant body around `scope` (its members are
    /// named under the enclosing member: `Outer.m.run`).
    fn anonymous_member(&self, scope: Option<SymbolIdx>, name: &str) -> Option<Target> {
        let index = self.index(self.file);
        let mut cur = scope;
        while let Some(s) = cur {
            let parent = index.parent(s)?;
            if !index.is_type(parent) && index.kind(s) == Some(NodeKind::Method) {
                let found = index.symbols.iter().enumerate().find(|(_, (k, p, n))| {
                    *k == NodeKind::Method && *p == Some(parent) && n == name
                });
                if let Some((i, _)) = found {
                    return Some((self.file, u32::try_from(i).ok()?));
                }
            }
            cur = Some(parent);
        }
        None
    }

    /// In a method of an anonymous class (or an enum constant's body): the type its `this`
    /// extends, from the method's `this` hint.
    fn anonymous_this(&self, scope: Option<SymbolIdx>, depth: u32) -> Option<Ty> {
        let index = self.index(self.file);
        let mut cur = scope;
        while let Some(s) = cur {
            if index.is_type(s) {
                return None;
            }
            let hint = self.hints.get(&(s, "this")).and_then(|v| v.first());
            if let Some(h) = hint
                && let HintSource::Annotation(t) = &h.source
            {
                return Some(self.type_named(self.file, Some(s), t, depth + 1));
            }
            cur = index.parent(s);
        }
        None
    }

    fn this_type(&self, scope: Option<SymbolIdx>) -> Ty {
        if let Some(ty) = self.anonymous_this(scope, 0) {
            return ty;
        }
        match self.enclosing_types(self.file, scope).first() {
            Some(&t) => Ty::Class((self.file, t), 0, Vec::new()),
            None => Ty::Unknown,
        }
    }

    /// The declared return type of what `c` calls.
    fn returned(&self, scope: Option<SymbolIdx>, c: &Callee, line: u32, depth: u32) -> Ty {
        if depth > MAX_DEPTH {
            return Ty::Unknown;
        }
        if c.name == "[]" {
            // An element of what the receiver holds (a for-each over a call's result).
            return match self.receiver_type(scope, &c.receiver, line, depth + 1) {
                Ty::Ext(e) => element_of(&e),
                Ty::Class(t, d, _) if d > 0 => Ty::Class(t, d - 1, Vec::new()),
                Ty::Unknown => Ty::Unknown,
                _ => Ty::External,
            };
        }
        let mut receiver = None;
        let found = match &c.receiver {
            Receiver::Path(_) | Receiver::CallResult(_) => {
                let ty = self.receiver_type(scope, &c.receiver, line, depth + 1);
                if let Ty::Ext(e) = &ty {
                    return ext_return(e, &c.name).unwrap_or(Ty::External);
                }
                receiver = Some(ty.clone());
                self.on_type(ty, &c.name, Want::Method(None), depth)
            }
            _ => {
                if matches!(c.receiver, Receiver::None | Receiver::This) {
                    // A member of the enclosing type's hierarchy: its type parameters as the
                    // enclosing type binds them (`class Items extends Box<Item>`).
                    receiver = Some(self.this_type(scope));
                }
                self.callee(scope, c, CallKind::Call, None, line, depth + 1).0
            }
        };
        match found {
            Found::Member(m) => {
                let index = self.index(m.0);
                let subst = match &receiver {
                    Some(Ty::Class(t, 0, args)) => self.substitution(*t, m, args),
                    _ => Vec::new(),
                };
                match index.returns.get(&m.1) {
                    Some(t) => self.subst_type(m.0, Some(m.1), t, &subst, depth + 1),
                    None => Ty::Unknown,
                }
            }
            Found::External => Ty::External,
            Found::Missing => Ty::Unknown,
        }
    }

    /// The types of the type parameters of the type declaring `member`, seen from a receiver
    /// of type `receiver` with type arguments `args`: the receiver's own parameters, or those
    /// of a generic supertype through the `extends` / `implements` clauses on the way
    /// (`class Items extends Box<Item>`: `T` of `Box` is `Item`).
    fn substitution(&self, receiver: Target, member: Target, args: &[Ty]) -> Vec<(String, Ty)> {
        let declaring = (member.0, self.index(member.0).parent(member.1).unwrap_or(u32::MAX));
        let own = |t: Target, args: &[Ty]| -> Vec<(String, Ty)> {
            let index = self.index(t.0);
            match index.type_params.get(&t.1) {
                Some(params) => {
                    params.iter().map(|(n, _)| n.clone()).zip(args.iter().cloned()).collect()
                }
                None => Vec::new(),
            }
        };
        let mut queue = vec![(receiver, own(receiver, args))];
        let mut seen: HashSet<Target> = HashSet::new();
        let mut at = 0;
        while at < queue.len() {
            let (t, subst) = queue[at].clone();
            at += 1;
            if t == declaring {
                return subst;
            }
            if !seen.insert(t) || seen.len() > 64 || !self.spend() {
                continue;
            }
            let index = self.index(t.0);
            let Some(info) = index.types.get(&t.1) else { continue };
            let around = index.parent(t.1);
            for sup in &info.supers {
                let (plain, arg_texts) = split_generic(sup);
                let Ty::Class(st, 0, _) = self.type_named(t.0, around, &plain, 1) else { continue };
                let sup_args: Vec<Ty> = arg_texts
                    .iter()
                    .map(|a| self.subst_type(t.0, Some(t.1), a, &subst, 1))
                    .collect();
                queue.push((st, own(st, &sup_args)));
            }
        }
        Vec::new()
    }

    /// [`Self::type_named`] with type parameter names replaced by types (`T` -> `Item`,
    /// `List<T>` -> `List<Item>`).
    fn subst_type(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        text: &str,
        subst: &[(String, Ty)],
        depth: u32,
    ) -> Ty {
        if subst.is_empty() || depth > MAX_DEPTH {
            return self.type_named(file, scope, text, depth);
        }
        let (plain, args) = split_generic(text);
        let base = plain.trim_end_matches("[]");
        let dims = (plain.len() - base.len()) / 2;
        if let Some((_, ty)) = subst.iter().find(|(n, _)| n == base) {
            return match (ty, dims) {
                (ty, 0) => ty.clone(),
                (Ty::Class(t, 0, _), d) => {
                    Ty::Class(*t, u8::try_from(d).unwrap_or(u8::MAX), Vec::new())
                }
                _ => Ty::External,
            };
        }
        let args: Vec<Ty> =
            args.iter().map(|a| self.subst_type(file, scope, a, subst, depth + 1)).collect();
        match self.type_named(file, scope, &plain, depth + 1) {
            Ty::Class(t, d, _) => Ty::Class(t, d, args),
            Ty::External if dims == 0 && !args.is_empty() => Ty::Ext(Box::new(ExtTy {
                base: base.rsplit('.').next().unwrap_or(base).to_string(),
                args,
            })),
            other => other,
        }
    }

    /// A type parameter named `name` declared by a member or type around `scope`: its bound
    /// as written (`None`: unbounded, an `Object`).
    fn type_param(
        &self,
        file: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
    ) -> Option<(SymbolIdx, Option<String>)> {
        let index = self.index(file);
        let mut cur = scope;
        while let Some(s) = cur {
            if let Some(params) = index.type_params.get(&s)
                && let Some((_, bound)) = params.iter().find(|(n, _)| n == name)
            {
                return Some((s, bound.clone()));
            }
            cur = index.parent(s);
        }
        None
    }

    /// The type of a call's receiver (a name chain, or another call's result).
    fn receiver_type(&self, scope: Option<SymbolIdx>, r: &Receiver, line: u32, depth: u32) -> Ty {
        match r {
            Receiver::Path(p) => self.path_type(scope, p, line, depth),
            Receiver::CallResult(inner) => self.returned(scope, inner, line, depth),
            _ => Ty::Unknown,
        }
    }

    fn on_type(&self, ty: Ty, name: &str, want: Want, depth: u32) -> Found {
        match ty {
            Ty::Class(t, 0, _) => self.member(t, name, want, depth + 1),
            Ty::Class(..) | Ty::External | Ty::Ext(_) => Found::External,
            Ty::Unknown => Found::Missing,
        }
    }

    /// What a call (or a construction) resolves to, and why.
    fn callee(
        &self,
        scope: Option<SymbolIdx>,
        c: &Callee,
        kind: CallKind,
        args: Option<u32>,
        line: u32,
        depth: u32,
    ) -> (Found, Reason) {
        let want = Want::Method(args);
        if depth > MAX_DEPTH {
            return (Found::Missing, Reason::NameOnly);
        }
        if kind == CallKind::New {
            let text = match &c.receiver {
                Receiver::Path(p) => format!("{}.{}", p.join("."), c.name),
                _ => c.name.to_string(),
            };
            return match self.type_named(self.file, scope, &text, depth + 1) {
                Ty::Class(t, 0, _) => (Found::Member(t), Reason::TypedReceiver),
                Ty::Unknown => (Found::Missing, Reason::NameOnly),
                _ => (Found::External, Reason::NameOnly),
            };
        }
        match &c.receiver {
            Receiver::None => {
                if let Some(m) = self.anonymous_member(scope, &c.name) {
                    return (Found::Member(m), Reason::ThisDispatch);
                }
                // An anonymous class's supertype, then the enclosing types, innermost first: a
                // member found wins over a hierarchy that leaves the root on the way (an outer
                // class's own method).
                let mut outside = false;
                if let Some(ty) = self.anonymous_this(scope, depth) {
                    match self.on_type(ty, &c.name, want, depth + 1) {
                        Found::Missing => {}
                        Found::External => outside = true,
                        f => return (f, Reason::ThisDispatch),
                    }
                }
                for t in self.enclosing_types(self.file, scope) {
                    match self.member((self.file, t), &c.name, want, depth + 1) {
                        Found::Missing => {}
                        Found::External => outside = true,
                        f => return (f, Reason::ThisDispatch),
                    }
                }
                match self.static_import(&c.name, want, depth) {
                    (Found::Missing, _) if outside => (Found::External, Reason::ThisDispatch),
                    r => r,
                }
            }
            Receiver::This => {
                let ty = self.this_type(scope);
                if c.name == "constructor" {
                    return match ty {
                        Ty::Class(t, 0, _) => (Found::Member(t), Reason::ThisDispatch),
                        _ => (Found::Missing, Reason::ThisDispatch),
                    };
                }
                (self.on_type(ty, &c.name, want, depth), Reason::ThisDispatch)
            }
            Receiver::Super => {
                let ty = match self.anonymous_this(scope, depth) {
                    // An anonymous class's `super` is its supertype.
                    Some(ty) => ty,
                    None => match self.this_type(scope) {
                        Ty::Class(t, 0, _) => self.superclass(t, depth),
                        _ => Ty::Unknown,
                    },
                };
                if c.name == "constructor" {
                    return match ty {
                        Ty::Class(t, 0, _) => (Found::Member(t), Reason::SuperDispatch),
                        Ty::Unknown => (Found::Missing, Reason::SuperDispatch),
                        _ => (Found::External, Reason::SuperDispatch),
                    };
                }
                (self.on_type(ty, &c.name, want, depth), Reason::SuperDispatch)
            }
            Receiver::Path(_) | Receiver::CallResult(_) => {
                let ty = self.receiver_type(scope, &c.receiver, line, depth + 1);
                (self.on_type(ty, &c.name, want, depth), Reason::TypedReceiver)
            }
            Receiver::Other => (Found::Missing, Reason::NameOnly),
        }
    }

    /// The declaration a callee-shaped reference names (a route handler, a mount).
    fn reference(
        &self,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        line: u32,
    ) -> Option<(Target, Reason)> {
        match self.callee(scope, callee, CallKind::Call, None, line, 0) {
            (Found::Member(t), reason) => Some((t, reason)),
            _ => None,
        }
    }

    /// A bare call through the file's static imports.
    fn static_import(&self, name: &str, want: Want, depth: u32) -> (Found, Reason) {
        let index = self.index(self.file);
        let mut outside = false;
        for named in [true, false] {
            for (kind, source, imported) in &index.imports {
                if *kind != ImportKind::Module {
                    continue;
                }
                let matches = match imported {
                    Imported::Named(n) => named && n == name,
                    Imported::All => !named,
                    _ => false,
                };
                if !matches {
                    continue;
                }
                match self.qualified(source, depth) {
                    Some(t) => match self.member(t, name, want, depth + 1) {
                        Found::Missing => {}
                        f => return (f, Reason::ImportResolved),
                    },
                    None => outside = true,
                }
            }
            if named && outside {
                return (Found::External, Reason::ImportResolved);
            }
        }
        if outside {
            (Found::External, Reason::ImportResolved)
        } else {
            (Found::Missing, Reason::NameOnly)
        }
    }
}

/// `List<Map<K,V>>[]` -> (`List[]`, [`Map<K,V>`]): the type without its arguments, and each
/// top-level argument of its last group (`Outer<K>.Inner<V>`: `V`, the named type's).
fn split_generic(text: &str) -> (String, Vec<String>) {
    let plain = codegraph_parse::java_strip_type_args(text);
    let (Some(close), Some(_)) = (text.rfind('>'), text.find('<')) else {
        return (plain, Vec::new());
    };
    let mut depth = 0i32;
    let open = text[..=close].char_indices().rev().find_map(|(i, c)| {
        match c {
            '>' => depth += 1,
            '<' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    });
    let Some(open) = open else { return (plain, Vec::new()) };
    let args = index::top_level(&text[open + 1..close])
        .into_iter()
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();
    (plain, args)
}

/// Containers whose elements are their first type argument.
const COLLECTIONS: &[&str] = &[
    "Collection",
    "List",
    "ArrayList",
    "LinkedList",
    "Set",
    "HashSet",
    "LinkedHashSet",
    "TreeSet",
    "SortedSet",
    "NavigableSet",
    "Queue",
    "Deque",
    "ArrayDeque",
    "PriorityQueue",
    "Vector",
    "Stack",
    "Iterable",
    "BlockingQueue",
    "LinkedBlockingQueue",
    "ArrayBlockingQueue",
    "ConcurrentLinkedQueue",
    "ConcurrentLinkedDeque",
    "CopyOnWriteArrayList",
    "CopyOnWriteArraySet",
    "ConcurrentSkipListSet",
    "EnumSet",
    "SequencedCollection",
    "SequencedSet",
    "Stream",
];

/// Maps: keys the first argument, values the second.
const MAPS: &[&str] = &[
    "Map",
    "HashMap",
    "LinkedHashMap",
    "TreeMap",
    "SortedMap",
    "NavigableMap",
    "ConcurrentMap",
    "ConcurrentHashMap",
    "ConcurrentSkipListMap",
    "EnumMap",
    "WeakHashMap",
    "IdentityHashMap",
    "Hashtable",
    "SequencedMap",
];

/// Holders of one value of their first argument. Like [`COLLECTIONS`] and [`MAPS`], the
/// JDK's own types only: the language's standard library, present wherever Java is; a
/// library's types are outside, untyped.
const HOLDERS: &[&str] = &[
    "Optional",
    "Supplier",
    "Callable",
    "Future",
    "CompletableFuture",
    "CompletionStage",
    "FutureTask",
    "AtomicReference",
    "ThreadLocal",
    "InheritableThreadLocal",
    "Reference",
    "WeakReference",
    "SoftReference",
    "Iterator",
    "ListIterator",
    "Enumeration",
    "Class",
];

/// The element type of a collection of the JDK for a for-each (`for (var x : items)`), or
/// what a holder passes to a lambda (`opt.ifPresent(x -> ..)`).
fn element_of(e: &ExtTy) -> Ty {
    if COLLECTIONS.contains(&e.base.as_str()) || HOLDERS.contains(&e.base.as_str()) {
        e.args.first().cloned().unwrap_or(Ty::Unknown)
    } else {
        Ty::External
    }
}

/// What a method of a generic JDK type returns, in terms of its type arguments
/// (`List<Item>.get(i)` -> `Item`, `Map<K,V>.values()` -> `Collection<V>`); `None` when the
/// table does not know the method (the result is then outside the workspace, untyped).
fn ext_return(e: &ExtTy, method: &str) -> Option<Ty> {
    let base = e.base.as_str();
    let arg = |i: usize| e.args.get(i).cloned();
    let wrap =
        |base: &str, args: Vec<Ty>| Some(Ty::Ext(Box::new(ExtTy { base: base.into(), args })));
    if base == "Stream" && method == "peek" {
        return Some(Ty::Ext(Box::new(e.clone())));
    }
    if COLLECTIONS.contains(&base) {
        return match method {
            "get" | "getFirst" | "getLast" | "removeFirst" | "removeLast" | "peek" | "poll"
            | "pop" | "element" | "first" | "last" | "pollFirst" | "pollLast" | "peekFirst"
            | "peekLast" | "take" | "firstElement" | "lastElement" | "elementAt" | "floor"
            | "ceiling" | "higher" | "lower" | "set" => arg(0),
            "iterator" | "listIterator" | "descendingIterator" => wrap("Iterator", vec![arg(0)?]),
            "stream" | "parallelStream" => wrap("Stream", vec![arg(0)?]),
            "subList" | "headSet" | "tailSet" | "subSet" | "reversed" | "descendingSet"
            | "filter" | "sorted" | "distinct" | "limit" | "skip" | "sequential" | "parallel"
            | "unordered" | "onClose" | "takeWhile" | "dropWhile" => {
                Some(Ty::Ext(Box::new(e.clone())))
            }
            "findFirst" | "findAny" | "min" | "max" => wrap("Optional", vec![arg(0)?]),
            "toList" => wrap("List", vec![arg(0)?]),
            _ => None,
        };
    }
    if MAPS.contains(&base) {
        return match method {
            "get" | "getOrDefault" | "remove" | "put" | "putIfAbsent" | "computeIfAbsent"
            | "computeIfPresent" | "compute" | "merge" | "replace" => arg(1),
            "firstKey" | "lastKey" | "ceilingKey" | "floorKey" | "higherKey" | "lowerKey" => arg(0),
            "keySet" | "navigableKeySet" => wrap("Set", vec![arg(0)?]),
            "values" => wrap("Collection", vec![arg(1)?]),
            "entrySet" => {
                let entry = Ty::Ext(Box::new(ExtTy { base: "Entry".into(), args: e.args.clone() }));
                wrap("Set", vec![entry])
            }
            "firstEntry" | "lastEntry" | "ceilingEntry" | "floorEntry" | "higherEntry"
            | "lowerEntry" | "pollFirstEntry" | "pollLastEntry" => {
                Some(Ty::Ext(Box::new(ExtTy { base: "Entry".into(), args: e.args.clone() })))
            }
            _ => None,
        };
    }
    if base == "Entry" {
        return match method {
            "getKey" => arg(0),
            "getValue" | "setValue" => arg(1),
            _ => None,
        };
    }
    if HOLDERS.contains(&base) {
        return match method {
            "get" | "orElse" | "orElseGet" | "orElseThrow" | "join" | "getNow" | "call"
            | "next" | "previous" | "nextElement" | "cast" | "resultNow" => arg(0),
            "filter" | "or" => Some(Ty::Ext(Box::new(e.clone()))),
            _ => None,
        };
    }
    None
}

fn sym_id(db: &dyn salsa::Database, t: Target) -> Option<Id> {
    symbol_ids(db, t.0).get(t.1 as usize).cloned()
}

/// A callee as written, for an unresolved site.
fn render(c: &Callee) -> String {
    let recv = match &c.receiver {
        Receiver::None => String::new(),
        Receiver::This => "this.".to_string(),
        Receiver::Super => "super.".to_string(),
        Receiver::Path(p) if p.first().is_some_and(|f| f == "new") => {
            format!("(({}) …).", p.get(1).map_or("", |s| s.as_str()))
        }
        Receiver::Path(p) => format!("{}.", p.join(".")),
        Receiver::CallResult(inner) => format!("{}().", render(inner)),
        Receiver::Other => "(…).".to_string(),
    };
    format!("{recv}{}", c.name)
}

fn resolve_rows(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> Resolved {
    let held = file_facts(db, file);
    let l = Local::new(db, workspace, file, &held);
    let facts = l.facts;
    let fid = file_id(file.path(db));
    let ids = symbol_ids(db, file);
    let mut out = Resolved::default();
    let same = |g: SourceFile, reason: Reason| {
        if g == file && reason == Reason::ImportResolved { Reason::SameFile } else { reason }
    };

    // IMPORTS: file -> the file of each imported type (of the root).
    let mut imported: HashSet<Id> = HashSet::new();
    for imp in &facts.imports {
        for b in &imp.bindings {
            let name = match &b.imported {
                Imported::Named(n) if imp.kind == ImportKind::EsImport => {
                    format!("{}.{n}", imp.source)
                }
                _ => imp.source.clone(),
            };
            if let Some(t) = l.qualified(&name, 0)
                && t.0 != file
            {
                let dst = file_id(t.0.path(db));
                if imported.insert(dst.clone()) {
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
    }

    // EXTENDS / IMPLEMENTS.
    for h in &facts.heritage {
        let Some(src) = ids.get(h.symbol as usize) else { continue };
        let around = facts.symbols.get(h.symbol as usize).and_then(|s| s.parent);
        let Ty::Class(t, 0, _) = l.type_named(file, around, &h.target, 0) else { continue };
        if t == (file, h.symbol) {
            continue;
        }
        let Some(dst) = sym_id(db, t) else { continue };
        let kind = match h.kind {
            HeritageKind::Implements => EdgeKind::Implements,
            _ => EdgeKind::Extends,
        };
        let reason = if t.0 == file { Reason::SameFile } else { Reason::ImportResolved };
        let line = facts.symbols.get(h.symbol as usize).map_or(0, |s| s.start_line);
        out.edges.push(Edge::new(src.clone(), dst, kind, reason, line));
    }

    // CALLS and TESTS.
    let in_test_file = crate::graph::is_test(db, file);
    let mut tested = crate::tested::Tested::default();
    let call_args = facts.java().map(|j| j.call_args.as_slice()).unwrap_or_default();
    for (i, site) in facts.calls.iter().enumerate() {
        let args = call_args.get(i).copied();
        let (found, reason) = l.callee(site.enclosing, &site.callee, site.kind, args, site.line, 0);
        match found {
            Found::Member(t) => {
                let Some(dst) = sym_id(db, t) else {
                    out.unresolved.push(unresolved(
                        db,
                        file,
                        site.enclosing,
                        site.line,
                        &site.callee,
                    ));
                    continue;
                };
                out.resolved_calls += 1;
                let reason = same(t.0, reason);
                let caller = caller_id(db, file, site.enclosing);
                if in_test_file && let Some(test) = test_of(facts, site.enclosing) {
                    tested.add(db, ids.get(test as usize), (&dst, t.0, reason, site.line));
                }
                out.edges.push(Edge::new(caller, dst, EdgeKind::Calls, reason, site.line));
            }
            Found::External => out.external_calls += 1,
            Found::Missing => {
                out.unresolved.push(unresolved(db, file, site.enclosing, site.line, &site.callee));
            }
        }
    }

    // ACCESSES: a field read or written through a receiver that resolves.
    for a in &facts.accesses {
        let ty = match &a.receiver {
            Receiver::This => l.this_type(a.enclosing),
            Receiver::Super => match l.this_type(a.enclosing) {
                Ty::Class(t, 0, _) => l.superclass(t, 0),
                _ => Ty::Unknown,
            },
            Receiver::Path(p) => l.path_type(a.enclosing, p, a.line, 0),
            Receiver::CallResult(c) => l.returned(a.enclosing, c, a.line, 0),
            _ => Ty::Unknown,
        };
        let Found::Member(t) = l.on_type(ty, &a.name, Want::Field, 0) else { continue };
        if let Some(dst) = sym_id(db, t) {
            let src = caller_id(db, file, a.enclosing);
            let reason = if t.0 == file { Reason::SameFile } else { Reason::TypedReceiver };
            out.edges.push(Edge::new(src, dst, EdgeKind::Accesses, reason, a.line));
        }
    }

    // REFERS_TO: method references (`Foo::bar`, `this::m`, `Foo::new` to the class).
    for site in &facts.value_refs {
        let (found, reason) = if site.callee.name == "new" {
            let text = match &site.callee.receiver {
                Receiver::Path(p) => p.join("."),
                _ => String::new(),
            };
            match l.type_named(file, site.enclosing, &text, 0) {
                Ty::Class(t, 0, _) => (Found::Member(t), Reason::TypedReceiver),
                _ => (Found::Missing, Reason::NameOnly),
            }
        } else {
            l.callee(site.enclosing, &site.callee, CallKind::Call, None, site.line, 0)
        };
        let Found::Member(t) = found else { continue };
        let Some(dst) = sym_id(db, t) else { continue };
        let src = caller_id(db, file, site.enclosing);
        if in_test_file && let Some(test) = test_of(facts, site.enclosing) {
            tested.add(db, ids.get(test as usize), (&dst, t.0, same(t.0, reason), site.line));
        }
        out.edges.push(Edge::new(src, dst, EdgeKind::RefersTo, same(t.0, reason), site.line));
    }
    out.edges.extend(tested.into_edges(&fid));
    // HANDLES_ROUTE of the routes the file's controllers declare (handlers are its methods).
    crate::endpoints::add_endpoint_rows(db, workspace, file, &mut out, |scope, callee| {
        l.reference(scope, callee, u32::MAX)
    });
    out.edges.sort();
    out.edges.dedup();
    out.unresolved.sort();
    out
}

fn unresolved(
    db: &dyn salsa::Database,
    file: SourceFile,
    enclosing: Option<SymbolIdx>,
    line: u32,
    callee: &Callee,
) -> UnresolvedSite {
    UnresolvedSite { line, caller: caller_id(db, file, enclosing), callee: render(callee) }
}

/// The test a call in a test file belongs to: the method or type it is in that has no
/// enclosing method (a test method, or a test class's initializer).
fn test_of(facts: &FileFacts, scope: Option<SymbolIdx>) -> Option<SymbolIdx> {
    let mut cur = scope?;
    let mut method = None;
    loop {
        let s = facts.symbols.get(cur as usize)?;
        if s.kind == NodeKind::Method {
            method = Some(cur);
        }
        match s.parent {
            Some(p) => cur = p,
            None => return method.or(Some(cur)),
        }
    }
}

impl LanguageResolver for JavaResolver {
    fn own_summaries(&self, db: &dyn salsa::Database, file: SourceFile) {
        index::java_index(db, file);
        index::java_package(db, file);
    }
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        self.own_summaries(db, key.file(db));
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
        Local::new(db, workspace, file, &held).reference(scope, callee, line)
    }

    fn has_endpoints(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::split_generic;

    #[test]
    fn generic_types_split_into_the_type_and_its_arguments() {
        let s = |t: &str| split_generic(t);
        assert_eq!(s("List<Item>"), ("List".to_string(), vec!["Item".to_string()]));
        assert_eq!(
            s("Map<String,List<Item>>"),
            ("Map".to_string(), vec!["String".to_string(), "List<Item>".to_string()])
        );
        assert_eq!(s("Outer<K>.Inner<V>[]"), ("Outer.Inner[]".to_string(), vec!["V".to_string()]));
        assert_eq!(s("Item[]"), ("Item[]".to_string(), vec![]));
    }
}
