//! Name, type and member resolution across files: what a name means at a scope of a file
//! (nested declaration, top-level symbol, import binding), what an exported name of a module is
//! after following re-export chains (cycle-safe), which class or interface a type name denotes,
//! and which member a class or interface has (through EXTENDS, following imported bases).
//!
//! Everything here reads only memoized per-file tables ([`file_index`], [`file_local_hints`],
//! [`file_modules`]), never another file's facts, so an edit that leaves a file's tables equal
//! does not re-run the resolution of the files that import it; recursion is bounded by
//! [`MAX_DEPTH`] and visited sets.

use super::index::{
    Export, FileIndex, SymInfo, file_called_locals, file_index, file_local_hints, is_function,
};
use super::named::js_constructors;
use super::project::{ModTarget, file_modules};
use crate::keys::FileKey;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::{Callee, HintSource, Imported, LiteralContext, Receiver, SymbolIdx};
use codegraph_schema::{NodeKind, Reason};
use std::collections::HashSet;

/// Bound on re-export chains, type chains and member lookups through bases.
pub(crate) const MAX_DEPTH: u32 = 24;

/// A symbol of some workspace file.
pub(crate) type Target = (SourceFile, SymbolIdx);

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Def {
    Sym(SourceFile, SymbolIdx),
    /// A namespace import / `require` of a workspace module.
    Module(SourceFile),
    /// Something outside the workspace.
    External,
}

/// What a receiver expression holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    /// The declared thing itself (class statics, object-literal members, namespace members).
    Sym(SourceFile, SymbolIdx),
    /// An instance of a class / interface.
    Inst(SourceFile, SymbolIdx),
    Module(SourceFile),
    External,
}

/// The outcome of resolving a call's callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Found(Target, Reason),
    /// Outside the workspace (package imports, globals): neither edge nor unresolved.
    External,
    /// Looks internal but did not resolve.
    Unresolved,
    /// A receiver we cannot see into (an untyped parameter or variable): recorded as an
    /// unresolved site, never dropped, so impact can say callers may be missing.
    Unknown,
    /// A call of a typed local seen through `callee` (hints, call results); the CALLS loop
    /// resolves calls of locals through `local_callee` and counts this one as unresolved.
    Value,
}

pub(crate) struct Resolver<'db> {
    pub db: &'db dyn salsa::Database,
    pub workspace: Workspace,
}

/// Names the runtime provides; calls to them are external, not unresolved.
const GLOBALS: &[&str] = &[
    "Array",
    "ArrayBuffer",
    "AbortController",
    "BigInt",
    "Blob",
    "Boolean",
    "Buffer",
    "clearInterval",
    "clearTimeout",
    "console",
    "Date",
    "decodeURIComponent",
    "encodeURIComponent",
    "Error",
    "eval",
    "fetch",
    "FormData",
    "Function",
    "globalThis",
    "Headers",
    "isFinite",
    "isNaN",
    "JSON",
    "Map",
    "Math",
    "Number",
    "Object",
    "parseFloat",
    "parseInt",
    "process",
    "Promise",
    "Proxy",
    "queueMicrotask",
    "ReadableStream",
    "Reflect",
    "RegExp",
    "Request",
    "require",
    "Response",
    "Set",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "String",
    "structuredClone",
    "Symbol",
    "TextDecoder",
    "TextEncoder",
    "TypeError",
    "RangeError",
    "SyntaxError",
    "Uint8Array",
    "URL",
    "URLSearchParams",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "window",
    "document",
    "atob",
    "btoa",
    "module",
    "exports",
    "Intl",
    "DataView",
    "File",
    "Event",
    "EventTarget",
    "AggregateError",
    "FinalizationRegistry",
];

/// Array methods that return an element: on a receiver whose (element-stripped) hint type has
/// no such member, the call returns that type.
const ARRAY_ELEMENT: &[&str] = &["shift", "pop", "at"];

/// Array methods whose callback's first parameter is an element: on a receiver whose
/// (element-stripped) hint type has no such member, that parameter has that type.
const ARRAY_CALLBACK: &[&str] =
    &["map", "forEach", "filter", "find", "findLast", "some", "every", "flatMap", "findIndex"];

impl<'db> Resolver<'db> {
    pub(crate) fn index(&self, f: SourceFile) -> &'db FileIndex {
        file_index(self.db, f)
    }

    pub(crate) fn symbol(&self, f: SourceFile, i: SymbolIdx) -> Option<&'db SymInfo> {
        self.index(f).syms.get(i as usize)
    }

    /// The hints of `name` in `scope` of `f` (function scopes from [`file_local_hints`]).
    fn hints(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
    ) -> Option<&'db Vec<HintSource>> {
        let local = scope.is_some_and(|s| self.kind(f, s).is_some_and(is_function));
        let hints = if local { file_local_hints(self.db, f) } else { &self.index(f).hints };
        hints.get(&(scope, name.to_string()))
    }

    fn kind(&self, f: SourceFile, i: SymbolIdx) -> Option<NodeKind> {
        self.symbol(f, i).map(|s| s.kind)
    }

    fn module(&self, f: SourceFile, import: u32) -> Option<ModTarget> {
        file_modules(self.db, FileKey::new(self.db, self.workspace, f))
            .get(import as usize)
            .copied()
    }

    /// The enclosing scopes of `scope`, innermost first.
    fn chain(&self, f: SourceFile, scope: Option<SymbolIdx>) -> Vec<SymbolIdx> {
        let mut out = Vec::new();
        let mut s = scope;
        while let Some(i) = s {
            if out.len() > 64 {
                break;
            }
            out.push(i);
            s = self.symbol(f, i).and_then(|x| x.parent);
        }
        out
    }

    /// Member `name` declared directly in symbol `i` of `f` (by qualified name).
    fn child(&self, f: SourceFile, i: SymbolIdx, name: &str) -> Option<SymbolIdx> {
        let q = &self.symbol(f, i)?.qualified_name;
        self.index(f).by_qname.get(&format!("{q}.{name}")).copied()
    }

    // ----- modules -----

    /// What an imported binding denotes.
    fn binding(
        &self,
        f: SourceFile,
        import: u32,
        imported: &Imported,
        local: &str,
        depth: u32,
    ) -> Option<Def> {
        match self.module(f, import)? {
            ModTarget::External => Some(Def::External),
            ModTarget::Missing => None,
            ModTarget::File(m) => match imported {
                Imported::Namespace | Imported::All => Some(Def::Module(m)),
                Imported::Named(x) => self.export(m, x, &mut HashSet::new(), depth + 1),
                Imported::Default => self
                    .export(m, "default", &mut HashSet::new(), depth + 1)
                    .or_else(|| self.default_guess(m, local)),
            },
        }
    }

    /// A default import whose module declares no `default` symbol: the exported top-level
    /// symbol of the local name, else the only exported class or function (`export default X`
    /// is not in the facts).
    pub(crate) fn default_guess(&self, m: SourceFile, local: &str) -> Option<Def> {
        let ix = self.index(m);
        if let Some(Export::Local(i)) = ix.exports.get(local) {
            return Some(Def::Sym(m, *i));
        }
        let mut only = None;
        for e in ix.exports.values() {
            if let Export::Local(i) = e
                && matches!(self.kind(m, *i), Some(NodeKind::Class | NodeKind::Function))
            {
                if only.is_some() {
                    return None;
                }
                only = Some(*i);
            }
        }
        only.map(|i| Def::Sym(m, i))
    }

    /// The exported `name` of module `m`, following re-exports and `export *` (cycle-safe).
    pub(crate) fn export(
        &self,
        m: SourceFile,
        name: &str,
        seen: &mut HashSet<(SourceFile, String)>,
        depth: u32,
    ) -> Option<Def> {
        if depth > MAX_DEPTH || !seen.insert((m, name.to_string())) {
            return None;
        }
        let ix = self.index(m);
        match ix.exports.get(name) {
            Some(Export::Local(i)) => return Some(Def::Sym(m, *i)),
            Some(Export::Reexport { import, imported }) => {
                return match self.module(m, *import)? {
                    ModTarget::External => Some(Def::External),
                    ModTarget::Missing => None,
                    ModTarget::File(t) => match imported {
                        Imported::Named(x) => self.export(t, x, seen, depth + 1),
                        Imported::Default => self.export(t, "default", seen, depth + 1),
                        Imported::Namespace | Imported::All => Some(Def::Module(t)),
                    },
                };
            }
            None => {}
        }
        // `import { a } from './x'; export { a }`: an imported name exported again.
        if let Some((import, imported)) = ix.bindings.get(name) {
            return self.binding(m, *import, imported, name, depth + 1);
        }
        // A top-level symbol not marked exported (CommonJS files, `export =`).
        if let Some(&i) = ix.top.get(name)
            && ix.stars.is_empty()
            && self.symbol(m, i).is_some_and(|s| s.exported)
        {
            return Some(Def::Sym(m, i));
        }
        if name == "default" {
            return None;
        }
        for &star in &ix.stars {
            if let Some(ModTarget::File(t)) = self.module(m, star)
                && let Some(d) = self.export(t, name, seen, depth + 1)
            {
                return Some(d);
            }
        }
        None
    }

    // ----- names and types -----

    /// What `name` means at `scope` of `f`: a nested declaration of an enclosing function or
    /// namespace, a top-level symbol, or an import binding.
    pub(crate) fn name(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
        depth: u32,
    ) -> Option<Def> {
        if depth > MAX_DEPTH {
            return None;
        }
        for s in self.chain(f, scope) {
            if matches!(
                self.kind(f, s),
                Some(NodeKind::Function | NodeKind::Method | NodeKind::Variable | NodeKind::Test)
            ) && let Some(c) = self.child(f, s, name)
            {
                return Some(Def::Sym(f, c));
            }
        }
        let ix = self.index(f);
        let top = ix.top.get(name).copied();
        // `const m = require('./m')` declares a module-level constant too: the binding says more.
        let declared_by_require = top.is_some_and(|i| {
            matches!(self.kind(f, i), Some(NodeKind::Variable | NodeKind::Constant))
        });
        if let Some(i) = top
            && !(declared_by_require && ix.bindings.contains_key(name))
        {
            return Some(Def::Sym(f, i));
        }
        let (import, imported) = ix.bindings.get(name)?;
        self.binding(f, *import, imported, name, depth)
    }

    /// The class / interface a written type (reduced as hints are: `Foo`, `ns.Foo`) denotes at
    /// `scope` of `f`: a type parameter of an enclosing declaration is its constraint (`T
    /// extends Base`: `Base`; unconstrained: nothing known), an alias what it names, else the
    /// declaration the name denotes there (nested in an enclosing function, module-level,
    /// imported).
    pub(crate) fn type_at(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        ty: &str,
        depth: u32,
    ) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((s, bound)) = self.type_param(f, scope, ty) {
            return self.type_at(f, Some(s), bound?, depth + 1);
        }
        let (g, i) = self.declaration_named(f, scope, ty, depth)?;
        // In JavaScript a function is a class when called with `new` (its prototype members).
        let constructor = |g: SourceFile| {
            self.kind(g, i) == Some(NodeKind::Function)
                && g.language(self.db) == Some(codegraph_parse::Language::JavaScript)
        };
        match self.kind(g, i) {
            Some(NodeKind::Class | NodeKind::Interface) => return Some((g, i)),
            _ if constructor(g) => return Some((g, i)),
            // `type ZodTypeAny = ZodType<any, any, any>`: its own parameters are in scope.
            Some(NodeKind::TypeAlias) => {
                if let Some(t) = self.index(g).aliases.get(&i) {
                    return self.type_at(g, Some(i), t, depth + 1);
                }
            }
            _ => {}
        }
        // A name declared as a value and as a type (`interface $constructor<T>` beside `function
        // $constructor`, `interface X` beside `const X`): in a type position it is the type.
        self.index(g).type_twins.get(&i).map(|&t| (g, t))
    }

    /// The type parameter `name` of the nearest declaration around `scope` (itself included)
    /// that declares one: (that declaration, the parameter's constraint).
    pub(crate) fn type_param(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
    ) -> Option<(SymbolIdx, Option<&'db str>)> {
        let params = &self.index(f).type_params;
        if params.is_empty() || name.contains('.') {
            return None;
        }
        // The scope chain walked in place (no allocation: every written type comes here).
        let mut s = scope;
        for _ in 0..64 {
            let i = s?;
            if let Some((_, bound)) =
                params.get(&i).and_then(|ps| ps.iter().find(|(n, _)| n == name))
            {
                return Some((i, bound.as_deref()));
            }
            s = self.symbol(f, i)?.parent;
        }
        None
    }

    /// The position of `name` among the type parameters `d` itself declares.
    fn param_index(&self, (f, d): Target, name: &str) -> Option<usize> {
        self.index(f).type_params.get(&d)?.iter().position(|(n, _)| n == name)
    }

    /// The declaration a (possibly dotted) name denotes at `scope` of `f`, of any kind.
    pub(crate) fn declaration_named(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        ty: &str,
        depth: u32,
    ) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut segs = ty.split('.');
        let mut cur = self.name(f, scope, segs.next()?, depth + 1)?;
        for seg in segs {
            cur = match cur {
                Def::Module(m) => self.export(m, seg, &mut HashSet::new(), depth + 1)?,
                Def::Sym(g, i) => Def::Sym(g, self.child(g, i, seg)?),
                Def::External => return None,
            };
        }
        match cur {
            Def::Sym(g, i) => Some((g, i)),
            // `const Reply = require('./reply')`: the module's `module.exports = Reply`.
            Def::Module(m) => match self.export(m, "default", &mut HashSet::new(), depth + 1)? {
                Def::Sym(g, i) => Some((g, i)),
                _ => None,
            },
            Def::External => None,
        }
    }

    /// The class / interface a hint says a name holds.
    fn hint_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        hint: &HintSource,
        depth: u32,
    ) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        match hint {
            HintSource::Annotation(t) | HintSource::Construct(t) => {
                self.type_at(f, scope, t, depth + 1)
            }
            HintSource::CallResult(c) => self.call_result_type(f, scope, c, depth + 1),
            HintSource::Callback { callee, arg, param } => {
                // `xs.map((x) => x.m())` on a receiver typed `T[]` (its hint type is `T`, which
                // has no such member): the element, as `xs.pop()` returns it.
                if *arg == 0
                    && *param == 0
                    && ARRAY_CALLBACK.contains(&callee.name.as_str())
                    && let Some(t) = self.array_element(f, scope, callee, depth + 1)
                {
                    return Some(t);
                }
                // `new C(cb)`: the callback is a parameter of C's constructor.
                let (g, i) = self.called_function(f, scope, callee, depth + 1)?;
                let ty = self.index(g).param_fns.get(&(i, *arg, *param))?;
                self.inferred_from_context(f, scope, (g, i), ty, depth + 1)
                    .or_else(|| self.type_at(g, Some(i), ty, depth + 1))
            }
            // `const x = this.y`, `const { y } = this`, `for (const x of this.ys)`.
            HintSource::Value(Receiver::Path(p)) => match self.path_val(f, scope, p, depth + 1)? {
                Val::Inst(g, i) => Some((g, i)),
                _ => None,
            },
            HintSource::Return(_) | HintSource::ParamFn { .. } | HintSource::Value(_) => None,
        }
    }

    /// A callback parameter typed by type parameter `ty` of the generic function `callee`,
    /// inferred from the call's contextual type: the call initializes a module-level name whose
    /// annotation is the type the callee returns, so the annotation's arguments are the
    /// return type's (`const ZodType: core.$constructor<ZodType> = core.$constructor("ZodType",
    /// (inst, def) => ..)` where `$constructor<T>(name, init: (inst: T, ..) => void):
    /// $constructor<T>`: `inst` is a `ZodType`). `scope` is the callback's enclosing named
    /// scope, that initialized name.
    fn inferred_from_context(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        (g, i): Target,
        ty: &str,
        depth: u32,
    ) -> Option<Target> {
        self.param_index((g, i), ty)?;
        let callee = self.index(g);
        let k = callee.return_args.get(&i)?.iter().position(|a| a == ty)?;
        let var = self.symbol(f, scope?)?;
        if !matches!(var.kind, NodeKind::Variable | NodeKind::Constant | NodeKind::Property) {
            return None;
        }
        let key = (var.parent, var.name.clone());
        let args = self.index(f).annotation_args.get(&key)?;
        let arg = args.get(k).filter(|a| !a.is_empty())?;
        // The annotation must name the type the callee returns (the arguments line up).
        let written = self.hints(f, var.parent, &var.name)?.iter().find_map(|h| match h {
            HintSource::Annotation(t) => Some(t),
            _ => None,
        })?;
        let returned = callee.returns.get(&i)?;
        let same = self.type_at(f, var.parent, written, depth + 1)?
            == self.type_at(g, Some(i), returned, depth + 1)?;
        if !same {
            return None;
        }
        self.type_at(f, var.parent, arg, depth + 1)
    }

    /// The first of a name's hints that names a class or interface.
    fn hints_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        hints: &[HintSource],
        depth: u32,
    ) -> Option<Target> {
        hints.iter().find_map(|h| self.hint_type(f, scope, h, depth))
    }

    /// The class / interface a call returns: the callee's declared (or inferred) return type, a
    /// class for `new X()`; or, for
    /// `a.shift()` / `a.pop()` / `a.at(i)` on a receiver typed `T` that has no such member (an
    /// array `T[]`, whose hint type is its element type), `T` itself.
    fn call_result_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        c: &Callee,
        depth: u32,
    ) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        if ARRAY_ELEMENT.contains(&c.name.as_str())
            && let Some(t) = self.array_element(f, scope, c, depth + 1)
        {
            return Some(t);
        }
        match self.callee(f, scope, c, depth + 1) {
            // `new X().m()` (the walker reads the receiver as a call of `X`).
            Outcome::Found((g, i), _) if self.kind(g, i) == Some(NodeKind::Class) => Some((g, i)),
            // A field or variable typed as a class (`typeof Action`): constructing it gives an
            // instance (calling an instance-typed value is no valid TypeScript).
            Outcome::Found((g, i), _)
                if matches!(
                    self.kind(g, i),
                    Some(
                        NodeKind::Property
                            | NodeKind::Variable
                            | NodeKind::Constant
                            | NodeKind::Parameter
                    )
                ) =>
            {
                self.declared_class(g, i, depth + 1)
            }
            Outcome::Found((g, i), _) => self.return_type(g, i, depth + 1),
            _ => None,
        }
    }

    /// The element type of the array `c` is called on: the receiver path's hint type `T` (an
    /// array `T[]` is hinted by its element) when `T` has no member of the called name and no
    /// base we cannot see (where it might).
    fn array_element(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        c: &Callee,
        depth: u32,
    ) -> Option<Target> {
        let Receiver::Path(p) = &c.receiver else { return None };
        let Some(Val::Inst(g, i)) = self.path_val(f, scope, p, depth + 1) else { return None };
        (self.member((g, i), &c.name, depth + 1).is_none()
            && !self.has_opaque_base((g, i), depth + 1))
        .then_some((g, i))
    }

    /// The class symbol `i` of `g` (a field, variable or parameter) is declared to hold the
    /// class object of (`ctor: typeof Action`), or is typed as; `None` for an interface or no
    /// written type.
    fn declared_class(&self, g: SourceFile, i: SymbolIdx, depth: u32) -> Option<Target> {
        let sym = self.symbol(g, i)?;
        let hints = self.hints(g, sym.parent, &sym.name)?;
        let t = self.hints_type(g, sym.parent, hints, depth + 1)?;
        (self.kind(t.0, t.1) == Some(NodeKind::Class)).then_some(t)
    }

    /// The class / interface an object literal's context types it as (`key`'s context, then
    /// the member types along its path): what its keys are members of.
    pub(crate) fn literal_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        context: &LiteralContext,
        path: &[codegraph_parse::Name],
    ) -> Option<Target> {
        let mut t = match context {
            LiteralContext::Type(t) => self.type_at(f, scope, t, 1)?,
            LiteralContext::Argument { callee, arg } => {
                self.argument_type(f, scope, callee, *arg, 1)?
            }
            LiteralContext::Assigned(p) => match self.path_val(f, scope, p, 1)? {
                Val::Inst(g, i) => (g, i),
                _ => return None,
            },
        };
        for seg in path {
            let m = self.member(t, seg, 1)?;
            t = self.member_type(t, m, 1)?;
        }
        Some(t)
    }

    /// What a call of `callee` runs: the symbol it resolves to, a class's constructor for a
    /// class (`new C(..)`).
    fn called_function(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        depth: u32,
    ) -> Option<Target> {
        let Outcome::Found((g, i), _) = self.callee(f, scope, callee, depth + 1) else {
            return None;
        };
        match self.kind(g, i)? {
            NodeKind::Class => self.member((g, i), "constructor", depth + 1),
            _ => Some((g, i)),
        }
    }

    /// The declared type of parameter `arg` of what `callee` calls (a class's constructor for
    /// `new C(..)`), as a class / interface.
    pub(crate) fn argument_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        callee: &Callee,
        arg: u32,
        depth: u32,
    ) -> Option<Target> {
        let (g, i) = self.called_function(f, scope, callee, depth + 1)?;
        if !matches!(self.kind(g, i)?, NodeKind::Function | NodeKind::Method) {
            return None;
        }
        let name = self.index(g).params.get(&(i, arg))?;
        let hints = self.hints(g, Some(i), name)?;
        self.hints_type(g, Some(i), hints, depth + 1)
    }

    /// Whether class or interface `t` declares `target` among its bases, transitively
    /// (EXTENDS and IMPLEMENTS, as written).
    pub(crate) fn declares_base(&self, t: Target, target: Target) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![t];
        while let Some((f, i)) = stack.pop() {
            if !seen.insert((f, i)) || seen.len() > 64 {
                continue;
            }
            for b in self.index(f).heritage.get(&i).into_iter().flatten() {
                if let Some(bt) = self.type_at(f, Some(i), &b.target, 1) {
                    if bt == target {
                        return true;
                    }
                    stack.push(bt);
                }
            }
        }
        false
    }

    /// The declared return type of function `i` of `g`, as a class / interface.
    fn return_type(&self, g: SourceFile, i: SymbolIdx, depth: u32) -> Option<Target> {
        let t = self.index(g).returns.get(&i)?;
        self.type_at(g, Some(i), t, depth + 1)
    }

    /// The type of a local name (parameter / variable) visible at `scope`, from hints of the
    /// enclosing functions (class scopes skipped: their hints are fields).
    fn local_type(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
        depth: u32,
    ) -> Option<Option<Target>> {
        for s in self.chain(f, scope) {
            if matches!(self.kind(f, s), Some(NodeKind::Class | NodeKind::Interface)) {
                continue;
            }
            if let Some(h) = self.hints(f, Some(s), name) {
                return Some(self.hints_type(f, Some(s), h, depth + 1));
            }
        }
        None
    }

    /// Member `name` of class / interface `t`, searching its bases (EXTENDS, then IMPLEMENTS).
    pub(crate) fn member(&self, t: Target, name: &str, depth: u32) -> Option<Target> {
        let mut seen = HashSet::new();
        self.member_in(t, name, &mut seen, depth)
    }

    fn member_in(
        &self,
        (f, i): Target,
        name: &str,
        seen: &mut HashSet<Target>,
        depth: u32,
    ) -> Option<Target> {
        if depth > MAX_DEPTH || !seen.insert((f, i)) {
            return None;
        }
        if let Some(c) = self.child(f, i, name) {
            return Some((f, c));
        }
        for base in self.index(f).heritage.get(&i)? {
            if let Some(b) = self.type_at(f, Some(i), &base.target, depth + 1)
                && let Some(m) = self.member_in(b, name, seen, depth + 1)
            {
                return Some(m);
            }
        }
        None
    }

    /// What type parameter `k` of `owner` (a class or interface) is bound to when an instance
    /// of `from` (`from` itself, or one inheriting `owner`, its own arguments unknown) is seen
    /// as an `owner`: the argument written in the heritage clauses between them, mapped back
    /// through the parameters of each class on the way (`class ZodObject<T> extends
    /// ZodType<.., ZodObjectDef<T>>`: `ZodType`'s `Def` is `ZodObjectDef`), as (file, scope,
    /// written type) for [`Resolver::type_at`]; `None` when no clause binds it.
    fn bound_arg(
        &self,
        from: Target,
        owner: Target,
        k: usize,
        seen: &mut HashSet<Target>,
        depth: u32,
    ) -> Option<(SourceFile, Option<SymbolIdx>, &'db str)> {
        if depth > MAX_DEPTH || from == owner || !seen.insert(from) {
            return None;
        }
        let (f, i) = from;
        for base in self.index(f).heritage.get(&i)? {
            let Some(b) = self.type_at(f, Some(i), &base.target, depth + 1) else { continue };
            let written = |j: usize| {
                base.args.get(j).filter(|a| !a.is_empty()).map(|a| (f, Some(i), a.as_str()))
            };
            if b == owner {
                return written(k);
            }
            let Some((g, s, a)) = self.bound_arg(b, owner, k, seen, depth + 1) else { continue };
            // Written in `b`'s own clause as one of `b`'s parameters: this clause binds it.
            if (g, s) == (b.0, Some(b.1))
                && let Some(j) = self.param_index(b, a)
            {
                return Some(written(j).unwrap_or((g, s, a)));
            }
            return Some((g, s, a));
        }
        None
    }

    /// The class / interface a member's written type denotes on an instance of `recv`: a type
    /// parameter of the class that declares the member is what `recv`'s heritage binds it to
    /// ([`Resolver::bound_arg`]), else its constraint.
    fn member_type(&self, recv: Target, (h, j): Target, depth: u32) -> Option<Target> {
        let sym = self.symbol(h, j)?;
        let hints = self.hints(h, sym.parent, &sym.name)?;
        for hint in hints {
            if let (HintSource::Annotation(t), Some(owner)) = (hint, sym.parent)
                && recv != (h, owner)
                && let Some(k) = self.param_index((h, owner), t)
                && let Some((g, s, a)) =
                    self.bound_arg(recv, (h, owner), k, &mut HashSet::new(), depth + 1)
            {
                if let Some(t) = self.type_at(g, s, a, depth + 1) {
                    return Some(t);
                }
                continue;
            }
            if let Some(t) = self.hint_type(h, sym.parent, hint, depth + 1) {
                return Some(t);
            }
        }
        None
    }

    /// Whether class `t` has a base the workspace does not declare (an external or computed
    /// superclass): a missing member may live there.
    fn has_opaque_base(&self, (f, i): Target, depth: u32) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        self.index(f).heritage.get(&i).is_some_and(|hs| {
            hs.iter().any(|b| match self.type_at(f, Some(i), &b.target, depth + 1) {
                Some(t) => self.has_opaque_base(t, depth + 1),
                None => true,
            })
        })
    }

    /// The base class (first EXTENDS) of class `t`.
    pub(crate) fn base(&self, (f, i): Target, depth: u32) -> Option<Target> {
        let hs = self.index(f).heritage.get(&i)?;
        let b = hs.iter().find(|b| b.kind == codegraph_parse::HeritageKind::Extends)?;
        self.type_at(f, Some(i), &b.target, depth + 1)
    }

    /// The class (or module-level object literal) `this` refers to at `scope`.
    pub(crate) fn this_owner(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
    ) -> Option<(Target, bool)> {
        for s in self.chain(f, scope) {
            match self.kind(f, s)? {
                NodeKind::Class => return Some(((f, s), true)),
                NodeKind::Variable | NodeKind::Constant => return Some(((f, s), false)),
                _ => {}
            }
        }
        None
    }

    /// Outside classes: the type a `function (this: T)` parameter declares for `this`.
    fn this_param(&self, f: SourceFile, scope: Option<SymbolIdx>, depth: u32) -> Option<Target> {
        self.local_type(f, scope, "this", depth)?
    }

    // ----- receivers and callees -----

    /// `depth` continues the caller's: a variable's hint may name another variable whose hint
    /// leads back (minified code does that), so it must not start over.
    fn def_val(&self, d: Def, depth: u32) -> Val {
        match d {
            Def::Sym(g, i) => {
                // A module-level variable with a known type holds an instance.
                let is_var = matches!(
                    self.kind(g, i),
                    Some(NodeKind::Variable | NodeKind::Constant | NodeKind::Property)
                );
                if is_var && let Some(sym) = self.symbol(g, i) {
                    let h = self.hints(g, sym.parent, &sym.name);
                    if let Some(t) = h.and_then(|h| self.hints_type(g, sym.parent, h, depth + 1)) {
                        return Val::Inst(t.0, t.1);
                    }
                }
                Val::Sym(g, i)
            }
            Def::Module(m) => Val::Module(m),
            Def::External => Val::External,
        }
    }

    /// The value a receiver path (`a`, `a.b`, `this.x`) holds.
    fn path_val(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        path: &[codegraph_parse::Name],
        depth: u32,
    ) -> Option<Val> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (head, rest) = path.split_first()?;
        let mut cur = if head == "this" {
            match self.this_owner(f, scope) {
                Some((t, true)) => Val::Inst(t.0, t.1),
                Some((t, false)) => Val::Sym(t.0, t.1),
                None => {
                    let t = self.this_param(f, scope, depth)?;
                    Val::Inst(t.0, t.1)
                }
            }
        } else if let Some(t) = self.local_type(f, scope, head, depth) {
            let t = t?;
            Val::Inst(t.0, t.1)
        } else {
            match self.name(f, scope, head, depth) {
                Some(d) => self.def_val(d, depth),
                None if GLOBALS.contains(&head.as_str()) => Val::External,
                None => return None,
            }
        };
        for seg in rest {
            cur = match cur {
                Val::External => return Some(Val::External),
                Val::Module(m) => {
                    self.def_val(self.export(m, seg, &mut HashSet::new(), depth + 1)?, depth)
                }
                Val::Sym(g, i) => self.def_val(Def::Sym(g, self.child(g, i, seg)?), depth),
                Val::Inst(g, i) => {
                    let m = self.member((g, i), seg, depth + 1)?;
                    let t = self.member_type((g, i), m, depth + 1)?;
                    Val::Inst(t.0, t.1)
                }
            };
        }
        Some(cur)
    }

    /// What a JavaScript name nothing declares or types holds, by the name itself: `reply` an
    /// instance of the package's only class or constructor `Reply` ([`js_constructors`]).
    /// `None` in TypeScript (an unannotated parameter there is typed by its context), for a
    /// name with a written type (even one we cannot resolve) or an initializer, and for short
    /// names.
    fn named_instance(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        head: &str,
    ) -> Option<Target> {
        if f.language(self.db) != Some(codegraph_parse::Language::JavaScript) || head.len() < 3 {
            return None;
        }
        // Only a parameter nothing types: a written type (JSDoc) we could not resolve says it
        // holds something else, and a local initialized with a call or `new` we could not
        // follow holds what that returns (the compiler calls it `any`: no call). A callback's
        // parameter typed from its callee's declaration (none in JavaScript) says nothing.
        let typed = self.chain(f, scope).into_iter().any(|s| {
            self.hints(f, Some(s), head)
                .is_some_and(|h| h.iter().any(|x| !matches!(x, HintSource::Callback { .. })))
        });
        if typed {
            return None;
        }
        let mut chars = head.chars();
        let first = chars.next().filter(char::is_ascii_lowercase)?;
        let name = format!("{}{}", first.to_ascii_uppercase(), chars.as_str());
        let roots = crate::endpoints::package_roots(self.db, self.workspace);
        js_constructors(self.db, self.workspace).only(roots, f.path(self.db), &name)
    }

    /// Member `name` of a receiver value.
    fn member_of(
        &self,
        f: SourceFile,
        v: Val,
        name: &str,
        depth: u32,
        inst_reason: Reason,
    ) -> Outcome {
        let local = |g: SourceFile| if g == f { Reason::SameFile } else { Reason::ImportResolved };
        match v {
            Val::External => Outcome::External,
            Val::Module(m) => match self.export(m, name, &mut HashSet::new(), depth + 1) {
                Some(Def::Sym(g, i)) => Outcome::Found((g, i), Reason::ImportResolved),
                Some(_) => Outcome::External,
                None => Outcome::Unresolved,
            },
            Val::Sym(g, i) => match self.child(g, i, name) {
                Some(c) => Outcome::Found((g, c), local(g)),
                // A function's own runtime members (`f.call(...)`) are the language's.
                None if matches!(name, "call" | "apply" | "bind")
                    && self.symbol(g, i).is_some_and(|s| {
                        matches!(s.kind, NodeKind::Function | NodeKind::Method)
                    }) =>
                {
                    Outcome::External
                }
                // An untyped variable's members: we cannot see into it.
                None => Outcome::Unknown,
            },
            Val::Inst(g, i) => match self.member((g, i), name, depth + 1) {
                Some(t) => Outcome::Found(t, inst_reason),
                None if self.has_opaque_base((g, i), depth + 1) => Outcome::External,
                None => Outcome::Unresolved,
            },
        }
    }

    /// What a call the walker marked `local` (its bare name is a parameter or local of an
    /// enclosing function) calls: that binding's [`NodeKind::Parameter`] symbol, else a
    /// declaration nested in an enclosing function (`const g = () => ...; g()`); never a
    /// declaration further out, which the binding shadows.
    pub(crate) fn local_callee(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
    ) -> Outcome {
        let called = file_called_locals(self.db, f);
        let chain = self.chain(f, scope);
        for s in chain.iter().copied().map(Some).chain([None]) {
            if let Some(&i) = called.get(&(s, name.to_string())) {
                return Outcome::Found((f, i), Reason::SameFile);
            }
        }
        for s in chain {
            if let Some(c) = self.child(f, s, name) {
                return Outcome::Found((f, c), Reason::SameFile);
            }
        }
        Outcome::Unknown
    }

    /// What a bare-name call that is no parameter or local calls: a declaration (nested in an
    /// enclosing function, top-level, imported), something external, or nothing we know. The
    /// walker marks calls of locals (`CallSite::local`), so a call it did not mark skips the
    /// local-type check of [`Resolver::callee`]: a callback's parameter of the same name
    /// elsewhere in the function does not hide the declaration.
    pub(crate) fn declared_callee(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        name: &str,
        depth: u32,
    ) -> Outcome {
        let local = |g: SourceFile| if g == f { Reason::SameFile } else { Reason::ImportResolved };
        match self.name(f, scope, name, depth) {
            Some(Def::Sym(g, i)) => Outcome::Found((g, i), local(g)),
            // A required module called as a function: CommonJS `module.exports = f`.
            Some(Def::Module(m)) => {
                match self.export(m, "default", &mut HashSet::new(), depth + 1) {
                    Some(Def::Sym(g, i)) => Outcome::Found((g, i), Reason::ImportResolved),
                    _ => Outcome::External,
                }
            }
            Some(_) => Outcome::External,
            None if GLOBALS.contains(&name) => Outcome::External,
            None => Outcome::Unresolved,
        }
    }

    /// Resolves what a call's callee denotes at `scope` of `f`.
    pub(crate) fn callee(
        &self,
        f: SourceFile,
        scope: Option<SymbolIdx>,
        c: &Callee,
        depth: u32,
    ) -> Outcome {
        if depth > MAX_DEPTH {
            return Outcome::Unknown;
        }
        match &c.receiver {
            Receiver::None => {
                if self.local_type(f, scope, &c.name, depth).is_some() {
                    // A typed local of function type: a call of a value, not a declaration.
                    return Outcome::Value;
                }
                self.declared_callee(f, scope, &c.name, depth)
            }
            Receiver::This => {
                let Some((t, is_class)) = self.this_owner(f, scope) else {
                    return match self.this_param(f, scope, depth) {
                        Some(t) => self.member_of(
                            f,
                            Val::Inst(t.0, t.1),
                            &c.name,
                            depth,
                            Reason::ThisDispatch,
                        ),
                        None => Outcome::Unknown,
                    };
                };
                if !is_class {
                    return match self.child(t.0, t.1, &c.name) {
                        Some(m) => Outcome::Found((t.0, m), Reason::ThisDispatch),
                        None => Outcome::Unknown,
                    };
                }
                self.member_of(f, Val::Inst(t.0, t.1), &c.name, depth, Reason::ThisDispatch)
            }
            Receiver::Super => {
                let Some((t, true)) = self.this_owner(f, scope) else {
                    return Outcome::Unknown;
                };
                let Some(b) = self.base(t, depth) else {
                    return if self.index(t.0).heritage.contains_key(&t.1) {
                        Outcome::External
                    } else {
                        Outcome::Unresolved
                    };
                };
                if c.name == "constructor" {
                    return Outcome::Found(b, Reason::SuperDispatch);
                }
                self.member_of(f, Val::Inst(b.0, b.1), &c.name, depth, Reason::SuperDispatch)
            }
            Receiver::Path(p) => match self.path_val(f, scope, p, depth + 1) {
                Some(v) => self.member_of(f, v, &c.name, depth, Reason::TypedReceiver),
                None => match p.as_slice() {
                    [head] => match self
                        .named_instance(f, scope, head)
                        .and_then(|t| self.member(t, &c.name, depth + 1))
                    {
                        Some(m) => Outcome::Found(m, Reason::ParameterName),
                        None => Outcome::Unknown,
                    },
                    _ => Outcome::Unknown,
                },
            },
            Receiver::CallResult(inner) => {
                if c.name.is_empty() {
                    return Outcome::Unknown;
                }
                if let Some(t) = self.call_result_type(f, scope, inner, depth + 1) {
                    return self.member_of(
                        f,
                        Val::Inst(t.0, t.1),
                        &c.name,
                        depth,
                        Reason::TypedReceiver,
                    );
                }
                match self.callee(f, scope, inner, depth + 1) {
                    Outcome::External => Outcome::External,
                    _ => Outcome::Unknown,
                }
            }
            Receiver::Other => Outcome::Unknown,
        }
    }
}
