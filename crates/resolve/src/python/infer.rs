//! What a Python name, path or expression holds ([`Value`]), worked out from the tables of
//! `index.rs` and the resolving file's own hints: modules, classes, instances (through
//! annotations, constructions, declared return types and attribute hints), functions, and
//! attributes looked up through the method resolution order (C3, as Python computes it).
//!
//! Every walk is bounded ([`MAX_DEPTH`]): import cycles, self-referential hints and deep
//! hierarchies end as [`Value::Unknown`], never as a loop.

use super::index::{Binding, ModRef, Module, PyIndex, find_module, py_index};
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::{Callee, HintSource, Receiver, SymbolIdx};
use codegraph_schema::NodeKind;

pub(crate) const MAX_DEPTH: u32 = 24;

/// Names Python's builtins module binds that code calls (functions and types): a call of one
/// that nothing in the file shadows goes outside the workspace.
const BUILTINS: &[&str] = &[
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
    "__import__",
    "BaseException",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "EnvironmentError",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotADirectoryError",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "ExceptionGroup",
    "BaseExceptionGroup",
    "EncodingWarning",
    "NotImplemented",
    "Ellipsis",
    "exit",
    "quit",
    "copyright",
    "credits",
    "license",
    "reload",
    "unicode",
    "basestring",
    "long",
    "xrange",
    "raw_input",
    "file",
    "execfile",
    "unichr",
    "cmp",
    "reduce",
];

/// The builtin types a literal receiver is written as (`"".join()` -> `str`).
const LITERAL_TYPES: &[&str] = &["str", "bytes", "list", "dict", "set", "tuple", "int", "float"];

pub(crate) fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

/// What an expression holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Module(Module),
    Class(SourceFile, SymbolIdx),
    Instance(SourceFile, SymbolIdx),
    /// A function or method (bound or not), or a lambda bound to a name.
    Function(SourceFile, SymbolIdx),
    /// A declaration bound by assignment (a variable, a class attribute) or a property, with
    /// the value it holds: its attributes are the value's, but calling it is a call of a
    /// value (unresolved: the declaration is no function), as jedi's `goto` has it.
    Bound(SourceFile, SymbolIdx, Box<Value>),
    /// An iterable whose elements hold the value.
    Iter(Box<Value>),
    /// A tuple of known element values (`tuple[A, B]`).
    Tuple(Vec<Value>),
    /// Something outside the workspace (the standard library, a package, a builtin).
    External,
    Unknown,
}

impl Value {
    /// The value a binding holds (itself for anything else).
    pub(crate) fn held(&self) -> &Value {
        match self {
            Value::Bound(_, _, v) => v.held(),
            v => v,
        }
    }
}

pub(crate) struct Infer<'db> {
    pub db: &'db dyn salsa::Database,
    pub workspace: Workspace,
    /// Lookups left for one file's resolution: a bound on the work of pathological name
    /// graphs (every step may try several bindings), after which answers are `Unknown`.
    pub budget: std::cell::Cell<u32>,
    /// The MROs worked out so far in this file's resolution.
    pub mros: std::cell::RefCell<MroCache>,
    /// Indexes and import tables already fetched in this file's resolution: one salsa read
    /// each instead of a fetch (a memo lookup and the read's bookkeeping) per lookup.
    pub indexes: std::cell::RefCell<rustc_hash::FxHashMap<SourceFile, &'db PyIndex>>,
    pub modules: std::cell::RefCell<rustc_hash::FxHashMap<SourceFile, &'db ModuleTable>>,
}

/// Where each module a file's imports name leads (`py_file_modules`).
pub(crate) type ModuleTable = [(ModRef, Option<Module>)];

/// Method resolution orders by class, and whether each is open (see [`Infer::mro`]).
pub(crate) type MroCache =
    std::collections::HashMap<(SourceFile, SymbolIdx), (Vec<(SourceFile, SymbolIdx)>, bool)>;

/// Lookups one file's resolution may make ([`Infer::budget`]).
pub(crate) const BUDGET: u32 = 2_000_000;

impl<'db> Infer<'db> {
    /// Takes one lookup from the budget; `false` when it is spent.
    fn spend(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }

    pub(crate) fn index(&self, f: SourceFile) -> &'db PyIndex {
        if let Some(&i) = self.indexes.borrow().get(&f) {
            return i;
        }
        let i = py_index(self.db, f);
        self.indexes.borrow_mut().insert(f, i);
        i
    }

    /// Where a module an import of `from` names leads (memoized per file).
    pub(crate) fn module(&self, from: SourceFile, m: &ModRef) -> Option<Module> {
        let cached = self.modules.borrow().get(&from).copied();
        let table = cached.unwrap_or_else(|| {
            let key = crate::keys::FileKey::new(self.db, self.workspace, from);
            let t = super::index::py_file_modules(self.db, key).as_slice();
            self.modules.borrow_mut().insert(from, t);
            t
        });
        match table.iter().find(|(r, _)| r == m) {
            Some((_, found)) => found.clone(),
            None => find_module(self.db, self.workspace, from.path(self.db), m),
        }
    }

    /// What a declaration of `f` is as a value.
    pub(crate) fn def_value(&self, f: SourceFile, i: SymbolIdx, depth: u32) -> Value {
        let index = self.index(f);
        let bound = |v: Value| Value::Bound(f, i, Box::new(v));
        match index.kind(i) {
            Some(NodeKind::Class | NodeKind::Enum) => Value::Class(f, i),
            Some(NodeKind::Function | NodeKind::Method) => Value::Function(f, i),
            Some(NodeKind::Property) => {
                // A `@property`'s value is what it returns; a class attribute's, its hint.
                if let Some(t) = index.returns.get(&i) {
                    let class = index.parent(i).map(|c| (f, c));
                    return bound(self.instance_of_type(f, t, class, depth + 1));
                }
                let hint = index.parent(i).and_then(|c| {
                    let sources = index.classes.get(&c)?.attrs.get(index.name(i)?)?;
                    sources
                        .iter()
                        .map(|src| self.eval_source_in_class((f, c), src, depth + 1))
                        .find(|v| *v != Value::Unknown)
                });
                bound(hint.unwrap_or(Value::Unknown))
            }
            Some(NodeKind::Variable | NodeKind::Constant) if index.parent(i).is_none() => {
                match index.name(i).and_then(|n| index.variables.get(n)) {
                    Some(src) => bound(self.eval_source(f, None, src, depth + 1)),
                    None => bound(Value::Unknown),
                }
            }
            _ => bound(Value::Unknown),
        }
    }

    /// A name bound at module level in `f` (declarations, imports, star imports).
    pub(crate) fn module_name(&self, f: SourceFile, name: &str, depth: u32) -> Value {
        if depth > MAX_DEPTH || !self.spend() {
            return Value::Unknown;
        }
        let index = self.index(f);
        if let Some(bindings) = index.names.get(name) {
            for b in bindings {
                let v = match b {
                    Binding::Def(i) => self.def_value(f, *i, depth + 1),
                    Binding::Import(m, n) => {
                        // A module importing its own name adds nothing.
                        let own = n.as_deref() == Some(name)
                            && self.module(f, m).is_some_and(|t| t.file == Some(f));
                        if own {
                            continue;
                        }
                        self.imported(f, m, n.as_deref(), depth + 1)
                    }
                };
                if v != Value::Unknown {
                    return v;
                }
            }
            return Value::Unknown;
        }
        // A name a module-level `for` or `with` binds (no declaration of its own).
        if let Some(src) = index.variables.get(name) {
            return self.eval_source(f, None, src, depth + 1);
        }
        for m in &index.stars {
            match self.module(f, m) {
                Some(Module { file: Some(g), .. }) => {
                    if self.index(g).star_exports(name) {
                        let v = self.module_name(g, name, depth + 1);
                        if v != Value::Unknown {
                            return v;
                        }
                    }
                }
                Some(_) => {}
                // A star import of a module outside the workspace may bind anything.
                None => return if is_builtin(name) { Value::External } else { Value::Unknown },
            }
        }
        Value::Unknown
    }

    /// What an import binds: the module, or a name of it.
    fn imported(&self, f: SourceFile, m: &ModRef, name: Option<&str>, depth: u32) -> Value {
        let Some(module) = self.module(f, m) else { return Value::External };
        match name {
            None => Value::Module(module),
            Some(n) => self.module_attr(&module, n, depth + 1),
        }
    }

    /// An attribute of a module: a name it binds, else a submodule.
    pub(crate) fn module_attr(&self, m: &Module, name: &str, depth: u32) -> Value {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        if let Some(f) = m.file {
            let v = self.module_name(f, name, depth + 1);
            if v != Value::Unknown {
                return v;
            }
        }
        if m.package
            && let Some(sub) =
                super::index::probe(self.db, self.workspace, &format!("{}/{name}", m.path))
        {
            return Value::Module(sub);
        }
        Value::Unknown
    }

    /// The classes of `c`'s method resolution order, `c` first (C3; on an inconsistent
    /// hierarchy, depth-first). The flag says some base is outside the workspace or unknown.
    /// Worked out from the class itself, whatever the caller's depth, and kept for the file's
    /// resolution.
    pub(crate) fn mro(&self, c: (SourceFile, SymbolIdx)) -> (Vec<(SourceFile, SymbolIdx)>, bool) {
        self.mro_at(c, 0)
    }

    fn mro_at(
        &self,
        c: (SourceFile, SymbolIdx),
        depth: u32,
    ) -> (Vec<(SourceFile, SymbolIdx)>, bool) {
        if let Some(hit) = self.mros.borrow().get(&c) {
            return hit.clone();
        }
        let computed = self.compute_mro(c, depth);
        self.mros.borrow_mut().insert(c, computed.clone());
        computed
    }

    fn compute_mro(
        &self,
        c: (SourceFile, SymbolIdx),
        depth: u32,
    ) -> (Vec<(SourceFile, SymbolIdx)>, bool) {
        if depth > 8 {
            return (vec![c], true);
        }
        let info = self.index(c.0).classes.get(&c.1);
        let mut open = false;
        let mut seqs: Vec<Vec<(SourceFile, SymbolIdx)>> = Vec::new();
        let mut direct = Vec::new();
        for b in info.map(|i| i.bases.as_slice()).unwrap_or(&[]) {
            match self.type_named(c.0, b, Some(c), 0).held() {
                &Value::Class(g, i) if (g, i) != c => {
                    let (m, o) = self.mro_at((g, i), depth + 1);
                    open |= o;
                    seqs.push(m);
                    direct.push((g, i));
                }
                Value::Class(..) => {}
                // `object`, `Generic`, `Protocol` and the like add nothing we could find.
                Value::External
                    if matches!(b.rsplit('.').next(), Some("object" | "Generic" | "Protocol")) => {}
                _ => open = true,
            }
        }
        seqs.push(direct);
        let mut out = vec![c];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                break;
            }
            let head = seqs.iter().map(|s| s[0]).find(|h| !seqs.iter().any(|s| s[1..].contains(h)));
            let Some(h) = head else {
                // Inconsistent: fall back to the remaining classes in order.
                for s in &seqs {
                    for x in s {
                        if !out.contains(x) {
                            out.push(*x);
                        }
                    }
                }
                break;
            };
            out.push(h);
            for s in &mut seqs {
                if s.first() == Some(&h) {
                    s.remove(0);
                }
            }
        }
        (out, open)
    }

    /// A member of a class or of one of its bases, with the class that declares it.
    pub(crate) fn lookup_member(
        &self,
        c: (SourceFile, SymbolIdx),
        name: &str,
        skip_first: bool,
    ) -> Result<(SourceFile, SymbolIdx), bool> {
        let (mro, open) = self.mro(c);
        for k in mro.into_iter().skip(usize::from(skip_first)) {
            if let Some(i) = self.index(k.0).classes.get(&k.1).and_then(|ci| ci.members.get(name)) {
                return Ok((k.0, *i));
            }
        }
        Err(open)
    }

    /// An attribute of a value.
    pub(crate) fn attr(&self, v: &Value, name: &str, depth: u32) -> Value {
        if depth > MAX_DEPTH || !self.spend() {
            return Value::Unknown;
        }
        let v = v.held();
        match v {
            Value::Module(m) => self.module_attr(m, name, depth + 1),
            Value::Class(f, c) | Value::Instance(f, c) => {
                let instance = matches!(v, Value::Instance(..));
                match self.lookup_member((*f, *c), name, false) {
                    Ok((g, i)) => {
                        let kind = self.index(g).kind(i);
                        if instance
                            && kind == Some(NodeKind::Property)
                            && let Some(v) = self.attr_hint((*f, *c), name, depth + 1)
                        {
                            // An attribute typed by a hint of the instance's classes.
                            return Value::Bound(g, i, Box::new(v));
                        }
                        self.def_value(g, i, depth + 1)
                    }
                    Err(true) => Value::External,
                    Err(false) => Value::Unknown,
                }
            }
            Value::Iter(_) | Value::Tuple(_) => Value::External,
            Value::External => Value::External,
            _ => Value::Unknown,
        }
    }

    /// The type of an instance attribute from the hints of the classes of `c`'s MRO.
    fn attr_hint(&self, c: (SourceFile, SymbolIdx), name: &str, depth: u32) -> Option<Value> {
        let (mro, _) = self.mro(c);
        for k in mro {
            if let Some(sources) =
                self.index(k.0).classes.get(&k.1).and_then(|ci| ci.attrs.get(name))
            {
                // The first assignment that says something (`self.stream = stream` of an
                // unknown type, then `self.stream = ByteStream(...)`).
                return sources
                    .iter()
                    .map(|src| self.eval_source_in_class(k, src, depth + 1))
                    .find(|v| *v != Value::Unknown);
            }
        }
        None
    }

    /// A hint of class `k` (its sources read in module scope, `self` being an instance).
    pub(crate) fn eval_source_in_class(
        &self,
        k: (SourceFile, SymbolIdx),
        src: &HintSource,
        depth: u32,
    ) -> Value {
        match src {
            HintSource::Value(Receiver::Path(p)) if p.first().is_some_and(|h| h == "self") => {
                let mut v = Value::Instance(k.0, k.1);
                for seg in &p[1..] {
                    v = self.step(&v, seg, depth + 1);
                }
                v
            }
            // `cls(...)` in a classmethod (`return cls(...)`): an instance of the class.
            HintSource::CallResult(c) if c.receiver == Receiver::This && c.name.is_empty() => {
                Value::Instance(k.0, k.1)
            }
            HintSource::CallResult(c) if matches!(c.receiver, Receiver::This) => {
                let f = self.attr(&Value::Instance(k.0, k.1), &c.name, depth + 1);
                self.call_result(&f, depth + 1)
            }
            _ => self.eval_source(k.0, Some(k), src, depth + 1),
        }
    }

    /// One step of a path: an attribute, or `[]` (an element of an iterable).
    pub(crate) fn step(&self, v: &Value, seg: &str, depth: u32) -> Value {
        let v = v.held();
        if let Some(index) = seg.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            return match v {
                Value::Iter(e) => (**e).clone(),
                Value::Tuple(items) => index
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .unwrap_or(Value::Unknown),
                Value::External => Value::External,
                _ => Value::Unknown,
            };
        }
        self.attr(v, seg, depth)
    }

    /// The instance a type annotation of `f` names (`X[]`: an iterable of them).
    pub(crate) fn instance_of_type(
        &self,
        f: SourceFile,
        ty: &str,
        class: Option<(SourceFile, SymbolIdx)>,
        depth: u32,
    ) -> Value {
        if let Some(items) = ty.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            let items = items
                .split(',')
                .map(|t| {
                    if t == "?" {
                        Value::Unknown
                    } else {
                        self.instance_of_type(f, t, class, depth + 1)
                    }
                })
                .collect();
            return Value::Tuple(items);
        }
        if let Some(elem) = ty.strip_suffix("[]") {
            return match self.instance_of_type(f, elem, class, depth + 1) {
                Value::Unknown => Value::Unknown,
                v => Value::Iter(Box::new(v)),
            };
        }
        match self.type_named(f, ty, class, depth + 1).held() {
            Value::Class(g, i) => Value::Instance(*g, *i),
            Value::External => Value::External,
            _ => Value::Unknown,
        }
    }

    /// The class (or module, or external thing) a dotted name of `f` names at module scope.
    pub(crate) fn type_named(
        &self,
        f: SourceFile,
        ty: &str,
        class: Option<(SourceFile, SymbolIdx)>,
        depth: u32,
    ) -> Value {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        let mut parts = ty.split('.');
        let Some(head) = parts.next() else { return Value::Unknown };
        if head == "Self" {
            return class.map_or(Value::Unknown, |(g, i)| Value::Class(g, i));
        }
        let mut v = match self.module_name(f, head, depth + 1) {
            Value::Unknown if is_builtin(head) || LITERAL_TYPES.contains(&head) => Value::External,
            // A class nested in the class being read (`Outer.Inner` written as `Inner`).
            Value::Unknown => match class.and_then(|c| self.index(c.0).classes.get(&c.1)) {
                Some(ci) => match ci.members.get(head) {
                    Some(i) => self.def_value(f, *i, depth + 1),
                    None => Value::Unknown,
                },
                None => Value::Unknown,
            },
            v => v,
        };
        for p in parts {
            v = self.attr(&v, p, depth + 1);
        }
        v
    }

    /// What calling a value gives: an instance of a class, a function's declared return type.
    pub(crate) fn call_result(&self, v: &Value, depth: u32) -> Value {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        match v.held() {
            Value::Class(f, c) => Value::Instance(*f, *c),
            Value::Function(f, i) => {
                let index = self.index(*f);
                let class = index
                    .parent(*i)
                    .filter(|p| matches!(index.kind(*p), Some(NodeKind::Class | NodeKind::Enum)));
                match (index.returns.get(i), index.returned.get(i)) {
                    (Some(t), _) => self.instance_of_type(*f, t, class.map(|c| (*f, c)), depth + 1),
                    (None, Some(src)) => match class {
                        Some(c) => self.eval_source_in_class((*f, c), src, depth + 1),
                        None => self.eval_source(*f, None, src, depth + 1),
                    },
                    (None, None) => Value::Unknown,
                }
            }
            Value::External => Value::External,
            _ => Value::Unknown,
        }
    }

    /// A hint source of `f` read in module scope (or, for `self`, in `class`).
    pub(crate) fn eval_source(
        &self,
        f: SourceFile,
        class: Option<(SourceFile, SymbolIdx)>,
        src: &HintSource,
        depth: u32,
    ) -> Value {
        if depth > MAX_DEPTH {
            return Value::Unknown;
        }
        match src {
            HintSource::Annotation(t) => self.instance_of_type(f, t, class, depth + 1),
            HintSource::CallResult(c) => {
                let callee = self.module_callee(f, c, depth + 1);
                self.call_result(&callee, depth + 1)
            }
            HintSource::Value(Receiver::Path(p)) => {
                let Some(head) = p.first() else { return Value::Unknown };
                let mut v = self.module_name(f, head, depth + 1);
                for seg in &p[1..] {
                    v = self.step(&v, seg, depth + 1);
                }
                v
            }
            _ => Value::Unknown,
        }
    }

    /// What a callee names when read at module scope of `f`.
    fn module_callee(&self, f: SourceFile, c: &Callee, depth: u32) -> Value {
        match &c.receiver {
            Receiver::None => match self.module_name(f, &c.name, depth + 1) {
                Value::Unknown if is_builtin(&c.name) => Value::External,
                v => v,
            },
            Receiver::Path(p) => {
                let Some(head) = p.first() else { return Value::Unknown };
                let mut v = match self.module_name(f, head, depth + 1) {
                    Value::Unknown
                        if is_builtin(head) || LITERAL_TYPES.contains(&head.as_str()) =>
                    {
                        Value::External
                    }
                    v => v,
                };
                for seg in &p[1..] {
                    v = self.step(&v, seg, depth + 1);
                }
                self.attr(&v, &c.name, depth + 1)
            }
            Receiver::CallResult(inner) => {
                let v = self.module_callee(f, inner, depth + 1);
                let r = self.call_result(&v, depth + 1);
                if c.name.is_empty() {
                    r
                } else if c.name.starts_with('[') {
                    self.step(&r, &c.name, depth + 1)
                } else {
                    self.attr(&r, &c.name, depth + 1)
                }
            }
            _ => Value::Unknown,
        }
    }
}
