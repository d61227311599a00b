//! One cursor walk over a Python syntax tree with a scope stack: the declarations, imports,
//! calls, hints and value references of `super` (the module doc says what each becomes).
//!
//! Iterative (enter / leave over a tree cursor), so a deeply nested expression (a long string
//! concatenation is a left-deep tree) cannot exhaust the stack.

use super::{fields, normalize_annotation};
use crate::facts::{
    CallKind, CallSite, Callee, FieldAccess, FileFacts, Heritage, HeritageKind, HintSource, Import,
    ImportBinding, ImportKind, Imported, Receiver, Symbol, SymbolIdx, TypeHint,
};
use crate::util::{
    MAX_DOC, collapse_whitespace, end_line, signature, start_col, start_line, text, to_u32,
    truncate,
};
use codegraph_schema::NodeKind;
use std::collections::{HashMap, HashSet};
use tree_sitter::{Node, Tree};

/// How deep a call chain, a receiver or a value expression is read (`a().b().c()`,
/// `x = x or y` read through locals); deeper is `Other` / unknown, never a stack overflow.
const MAX_CHAIN: u32 = 48;

/// Longest callee text kept for a callee that is no name.
const MAX_CALLEE_TEXT: usize = 80;

/// Bases that make a class an enum.
const ENUM_BASES: &[&str] = &["Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"];

/// The node kinds [`Walker::enter`] acts on.
const INTERESTING: &[&str] = &[
    "string",
    "function_definition",
    "class_definition",
    "lambda",
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
    "for_in_clause",
    "call",
    "argument_list",
    "return_statement",
    "list",
    "tuple",
    "set",
    "pair",
    "decorator",
    "assignment",
    "augmented_assignment",
    "for_statement",
    "as_pattern",
    "except_clause",
    "named_expression",
    "if_statement",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "attribute",
    "delete_statement",
    "type_alias_statement",
];

/// What the walk does with a node of a kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// A token or named leaf: neither entered nor left, no step into it.
    Leaf,
    /// Says nothing by itself; its children are walked.
    Through,
    /// [`Walker::enter`] acts on it ([`INTERESTING`]; also a kind the grammar does not list,
    /// such as `ERROR`).
    Act,
}

/// The [`Pass`] of a kind id: one table built once. A kind name can have several ids
/// (aliases): every id that spells it is marked.
fn pass(kind: u16) -> Pass {
    static TABLE: std::sync::OnceLock<Vec<Pass>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        (0..lang.node_kind_count())
            .map(|id| {
                let id16 = u16::try_from(id).unwrap_or(u16::MAX);
                let name = lang.node_kind_for_id(id16);
                if !lang.node_kind_is_named(id16) || name.is_some_and(|k| LEAF_KINDS.contains(&k)) {
                    Pass::Leaf
                } else if name.is_some_and(|k| INTERESTING.contains(&k)) {
                    Pass::Act
                } else {
                    Pass::Through
                }
            })
            .collect()
    });
    table.get(usize::from(kind)).copied().unwrap_or(Pass::Act)
}

pub(super) fn extract(src: &str, tree: &Tree) -> FileFacts {
    let mut w = Walker {
        src,
        facts: FileFacts::default(),
        scopes: vec![Scope::new(usize::MAX, ScopeKind::Module, None)],
        type_checking: Vec::new(),
        module_names: HashSet::new(),
        refs_seen: HashSet::new(),
        all: None,
        bases: None,
        called: HashSet::new(),
        written: HashSet::new(),
        returns_known: HashSet::new(),
    };
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let node = cursor.node();
        // A token or a named leaf holds nothing: neither entered nor left, no step into it.
        let opens = pass(node.kind_id()) != Pass::Leaf;
        if opens && w.enter(node) && cursor.goto_first_child() {
            continue;
        }
        let mut left = Some(node).filter(|_| opens);
        loop {
            if let Some(n) = left.take() {
                w.leave(n);
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            left = Some(cursor.node());
        }
    }
    w.finish()
}

/// Named kinds of the grammar that never have children (the anonymous kinds, punctuation and
/// keywords, are leaves too).
const LEAF_KINDS: &[&str] = &[
    "identifier",
    "integer",
    "float",
    "true",
    "false",
    "none",
    "comment",
    "escape_sequence",
    "string_start",
    "string_content",
    "string_end",
    "line_continuation",
    "ellipsis",
    "type_conversion",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    Module,
    Class,
    Function,
    /// A lambda or a comprehension: its own bindings, no symbol of its own.
    Anonymous,
}

struct Scope {
    /// The node that opened it (popped when the walk leaves that node).
    node_id: usize,
    kind: ScopeKind,
    /// The symbol that owns code here (the enclosing one for anonymous scopes).
    sym: Option<SymbolIdx>,
    /// The name of the instance parameter visible here (`self` / `cls`), and its class.
    instance: Option<(String, SymbolIdx)>,
    /// Names bound here (parameters, assignments, loop and `with` targets), with what they
    /// are known to hold.
    locals: HashMap<String, Option<HintSource>>,
    /// Class scopes: the member names declared so far.
    members: HashSet<String>,
    /// Class scopes: the class is an enum.
    is_enum: bool,
}

impl Scope {
    fn new(node_id: usize, kind: ScopeKind, sym: Option<SymbolIdx>) -> Scope {
        Scope {
            node_id,
            kind,
            sym,
            instance: None,
            locals: HashMap::new(),
            members: HashSet::new(),
            is_enum: false,
        }
    }
}

struct Walker<'a> {
    src: &'a str,
    facts: FileFacts,
    scopes: Vec<Scope>,
    /// The blocks of `if TYPE_CHECKING:` being walked.
    type_checking: Vec<usize>,
    /// Module-level names already declared as variables.
    module_names: HashSet<String>,
    refs_seen: HashSet<(Option<SymbolIdx>, String)>,
    /// `__all__`, when the module declares it.
    all: Option<Vec<String>>,
    /// The argument list of the class being entered: its bases, which are heritage.
    bases: Option<usize>,
    /// Attribute nodes that are no access: a call's callee (`a.b()`), and the targets of
    /// assignments, which are written (`self.x = v`), by node id.
    called: HashSet<usize>,
    written: HashSet<usize>,
    /// Functions whose return hint is written (declared, or a first informative `return`).
    returns_known: HashSet<SymbolIdx>,
}

impl<'a> Walker<'a> {
    fn text(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    fn top(&self) -> &Scope {
        // The module scope is never popped.
        &self.scopes[self.scopes.len() - 1]
    }

    fn enclosing(&self) -> Option<SymbolIdx> {
        self.top().sym
    }

    fn instance(&self) -> Option<&(String, SymbolIdx)> {
        self.top().instance.as_ref()
    }

    /// Whether a name is bound by an enclosing function, lambda or comprehension (class
    /// bodies are not enclosing scopes of their methods, as in Python).
    fn is_local(&self, name: &str) -> bool {
        for s in self.scopes.iter().rev() {
            match s.kind {
                ScopeKind::Module => return false,
                ScopeKind::Class => continue,
                ScopeKind::Function | ScopeKind::Anonymous => {
                    if s.locals.contains_key(name) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// What a local of an enclosing function is known to hold.
    fn local_source(&self, name: &str) -> Option<Option<&HintSource>> {
        for s in self.scopes.iter().rev() {
            match s.kind {
                ScopeKind::Module => return None,
                ScopeKind::Class => continue,
                _ => {
                    if let Some(src) = s.locals.get(name) {
                        return Some(src.as_ref());
                    }
                }
            }
        }
        None
    }

    /// Binds what a loop, `with` or `except` target names: one name with what it holds (a
    /// hint), or the names of a tuple pattern, unknown.
    fn bind_target(&mut self, target: Node<'_>, source: Option<HintSource>, line: u32) {
        if target.kind() == "identifier" {
            let name = self.text(target);
            if let Some(src) = source.clone() {
                self.hint(self.enclosing(), name, src, start_line(target));
            }
            self.bind_local(name, source, line);
        } else {
            for name in target_names(target, self.src) {
                self.bind_local(name, None, line);
            }
        }
    }

    /// Binds a local of the innermost function, lambda or comprehension; a binding whose
    /// value is unknown is a hint `Value(Other)`, so resolution knows the name is local.
    fn bind_local(&mut self, name: &str, source: Option<HintSource>, line: u32) {
        let top = self.scopes.len() - 1;
        if matches!(self.scopes[top].kind, ScopeKind::Function | ScopeKind::Anonymous) {
            if source.is_none() {
                self.hint(self.enclosing(), name, HintSource::Value(Receiver::Other), line);
            }
            self.scopes[top].locals.insert(name.to_string(), source);
        }
    }

    fn push_symbol(
        &mut self,
        kind: NodeKind,
        name: &str,
        node: Node<'_>,
        signature: String,
        doc: Option<String>,
    ) -> SymbolIdx {
        self.push_symbol_in(self.enclosing(), kind, name, node, signature, doc)
    }

    fn push_symbol_in(
        &mut self,
        parent: Option<SymbolIdx>,
        kind: NodeKind,
        name: &str,
        node: Node<'_>,
        signature: String,
        doc: Option<String>,
    ) -> SymbolIdx {
        let parent_sym = parent.and_then(|p| self.facts.symbols.get(p as usize));
        let qualified_name = match parent_sym {
            Some(p) => format!("{}.{name}", p.qualified_name),
            None => name.to_string(),
        };
        let public = !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__"));
        let exported = public && parent_sym.is_none_or(|p| p.exported);
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(Symbol {
            kind,
            name: name.to_string(),
            qualified_name,
            parent,
            start_line: start_line(node),
            end_line: end_line(node),
            signature,
            doc,
            exported,
        });
        idx
    }

    /// Called on entering a node; `false`: do not walk its children.
    fn enter(&mut self, node: Node<'_>) -> bool {
        // Most nodes (names, operators, literals, punctuation) say nothing by themselves: one
        // table lookup by kind id skips them without comparing kind names.
        if pass(node.kind_id()) != Pass::Act {
            return true;
        }
        if node.kind() == "string" {
            // Only an f-string holds code (its interpolations).
            let prefix = self.text(node).bytes().take_while(u8::is_ascii_alphabetic);
            return prefix.into_iter().any(|b| b == b'f' || b == b'F');
        }
        match node.kind() {
            "function_definition" => self.function(node),
            "class_definition" => self.class(node),
            "lambda" => {
                let mut scope = Scope::new(node.id(), ScopeKind::Anonymous, self.enclosing());
                scope.instance = self.instance().cloned();
                let params = node.child_by_field_id(fields().parameters);
                self.scopes.push(scope);
                if let Some(params) = params {
                    for name in param_names(params, self.src) {
                        self.bind_local(name, None, start_line(node));
                    }
                }
            }
            "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression" => {
                let mut scope = Scope::new(node.id(), ScopeKind::Anonymous, self.enclosing());
                scope.instance = self.instance().cloned();
                self.scopes.push(scope);
            }
            "for_in_clause" => {
                if let Some(left) = node.child_by_field_id(fields().left) {
                    let source =
                        node.child_by_field_id(fields().right).and_then(|r| self.element_of(r));
                    self.bind_target(left, source, start_line(node));
                }
            }
            "call" => self.call(node),
            // A class's bases are heritage, not references.
            "argument_list" if self.bases != Some(node.id()) => {
                let mut c = node.walk();
                for arg in node.named_children(&mut c) {
                    let value = if arg.kind() == "keyword_argument" {
                        arg.child_by_field_id(fields().value)
                    } else {
                        Some(arg)
                    };
                    if let Some(v) = value {
                        self.value_ref(v);
                    }
                }
            }
            "return_statement" | "list" | "tuple" | "set" => {
                let mut c = node.walk();
                for v in node.named_children(&mut c) {
                    self.value_ref(v);
                }
                if node.kind() == "return_statement" {
                    self.returned(node);
                }
            }
            "pair" => {
                if let Some(v) = node.child_by_field_id(fields().value) {
                    self.value_ref(v);
                }
            }
            "decorator" => {
                if let Some(e) = node.named_child(0) {
                    self.value_ref(e);
                }
            }
            "assignment" | "augmented_assignment" | "delete_statement" => {
                let targets = if node.kind() == "delete_statement" {
                    node.named_child(0)
                } else {
                    node.child_by_field_id(fields().left)
                };
                if let Some(t) = targets {
                    let mut stack = vec![t];
                    while let Some(n) = stack.pop() {
                        match n.kind() {
                            "attribute" => {
                                self.written.insert(n.id());
                            }
                            "pattern_list" | "tuple_pattern" | "list_pattern"
                            | "expression_list" => {
                                let mut c = n.walk();
                                stack.extend(n.named_children(&mut c));
                            }
                            _ => {}
                        }
                    }
                }
                if node.kind() == "assignment" {
                    self.assignment(node);
                } else if node.kind() == "augmented_assignment" {
                    self.augmented(node);
                }
            }
            "attribute" => self.access(node),
            "for_statement" => {
                if let (Some(left), Some(right)) =
                    (node.child_by_field_id(fields().left), node.child_by_field_id(fields().right))
                {
                    let source = self.element_of(right);
                    self.bind_target(left, source, start_line(node));
                }
            }
            "as_pattern" => {
                // `with f() as x:` / `except E as e:`.
                let value = node.named_child(0);
                let target = node.child_by_field_id(fields().alias).and_then(|a| a.named_child(0));
                if let (Some(value), Some(target)) = (value, target) {
                    let in_except = node.parent().is_some_and(|p| p.kind() == "except_clause");
                    let source = if in_except {
                        self.path_of(value).map(|p| HintSource::Annotation(p.join(".")))
                    } else {
                        self.source_of(value)
                    };
                    self.bind_target(target, source, start_line(node));
                }
            }
            "except_clause" => {
                if let (Some(value), Some(alias)) =
                    (node.child_by_field_id(fields().value), node.child_by_field_id(fields().alias))
                    && alias.kind() == "identifier"
                {
                    let source = self.path_of(value).map(|p| HintSource::Annotation(p.join(".")));
                    let name = self.text(alias);
                    if let Some(src) = source.clone() {
                        self.hint(self.enclosing(), name, src, start_line(alias));
                    }
                    self.bind_local(name, source, start_line(node));
                }
            }
            "named_expression" => {
                if let Some(n) = node.child_by_field_id(fields().name) {
                    let source =
                        node.child_by_field_id(fields().value).and_then(|v| self.source_of(v));
                    let name = self.text(n);
                    self.bind_local(name, source, start_line(node));
                }
            }
            "if_statement" => {
                let cond = node.child_by_field_id(fields().condition).map(|c| self.text(c));
                if cond.is_some_and(|c| c == "TYPE_CHECKING" || c.ends_with(".TYPE_CHECKING"))
                    && let Some(block) = node.child_by_field_id(fields().consequence)
                {
                    self.type_checking.push(block.id());
                }
            }
            "import_statement" => {
                self.import_statement(node);
                return false;
            }
            "import_from_statement" => {
                self.import_from(node);
                return false;
            }
            "future_import_statement" => return false,
            "type_alias_statement" => {
                if let Some(left) = node.child_by_field_id(fields().left) {
                    let name = self.text(left).split('[').next().unwrap_or("").trim().to_string();
                    if super::is_identifier(&name) {
                        let sig = signature(node, None, self.src);
                        self.push_symbol(NodeKind::TypeAlias, &name, node, sig, None);
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn leave(&mut self, node: Node<'_>) {
        let id = node.id();
        if self.scopes.len() > 1 && self.top().node_id == id {
            self.scopes.pop();
        }
        if self.type_checking.last() == Some(&id) {
            self.type_checking.pop();
        }
    }

    fn function(&mut self, node: Node<'_>) {
        let Some(name_node) = node.child_by_field_id(fields().name) else { return };
        let name = self.text(name_node);
        let decorated = node.parent().filter(|p| p.kind() == "decorated_definition");
        let decorators: Vec<&str> = decorated
            .map(|d| {
                let mut c = d.walk();
                d.named_children(&mut c)
                    .filter(|n| n.kind() == "decorator")
                    .filter_map(|n| n.named_child(0))
                    .map(|e| self.text(e))
                    .collect()
            })
            .unwrap_or_default();
        let deco_name = |d: &str| d.split('(').next().unwrap_or(d).trim().to_string();
        let names: Vec<String> = decorators.iter().map(|d| deco_name(d)).collect();
        let has = |n: &str| names.iter().any(|d| d == n || d.ends_with(&format!(".{n}")));
        let in_class = self.top().kind == ScopeKind::Class;
        let is_property = has("property")
            || has("cached_property")
            || names.iter().any(|d| {
                d.ends_with(".setter") || d.ends_with(".getter") || d.ends_with(".deleter")
            });
        let kind = if !in_class {
            NodeKind::Function
        } else if is_property {
            NodeKind::Property
        } else {
            NodeKind::Method
        };
        let body = node.child_by_field_id(fields().body);
        let sig = decl_signature(decorated.unwrap_or(node), body, self.src);
        let doc = body.and_then(|b| docstring(b, self.src));
        let class_sym = if in_class { self.enclosing() } else { None };
        if in_class {
            let top = self.scopes.len() - 1;
            self.scopes[top].members.insert(name.to_string());
        }
        let idx = self.push_symbol(kind, name, node, sig, doc);
        let mut scope = Scope::new(node.id(), ScopeKind::Function, Some(idx));
        scope.instance = if in_class {
            None
        } else {
            // A nested function sees the method's instance as a closure does.
            self.instance().cloned()
        };
        let params = node.child_by_field_id(fields().parameters);
        let mut first_is_instance = in_class && !has("staticmethod");
        if let Some(params) = params {
            let mut c = params.walk();
            for p in params.named_children(&mut c) {
                let (pname, ty) = match p.kind() {
                    "identifier" => (Some(self.text(p)), None),
                    "typed_parameter" => {
                        let mut c2 = p.walk();
                        let n = p
                            .named_children(&mut c2)
                            .find(|n| n.kind() == "identifier")
                            .map(|n| self.text(n));
                        (n, p.child_by_field_id(fields().r#type))
                    }
                    "default_parameter" | "typed_default_parameter" => (
                        p.child_by_field_id(fields().name)
                            .filter(|n| n.kind() == "identifier")
                            .map(|n| self.text(n)),
                        p.child_by_field_id(fields().r#type),
                    ),
                    "list_splat_pattern" | "dictionary_splat_pattern" => {
                        (p.named_child(0).map(|n| self.text(n)), None)
                    }
                    _ => (None, None),
                };
                let Some(pname) = pname else { continue };
                if first_is_instance {
                    first_is_instance = false;
                    if let Some(class) = class_sym {
                        scope.instance = Some((pname.to_string(), class));
                    }
                    continue;
                }
                first_is_instance = false;
                let source =
                    ty.and_then(|t| normalize_annotation(self.text(t))).map(HintSource::Annotation);
                let hint = source.clone().unwrap_or(HintSource::Value(Receiver::Other));
                self.hint(Some(idx), pname, hint, start_line(p));
                scope.locals.insert(pname.to_string(), source);
            }
        }
        if let Some(ret) = node.child_by_field_id(fields().return_type)
            && let Some(t) = normalize_annotation(self.text(ret))
        {
            self.returns_known.insert(idx);
            self.hint(Some(idx), "", HintSource::Return(t), start_line(ret));
        }
        self.scopes.push(scope);
    }

    fn class(&mut self, node: Node<'_>) {
        let Some(name_node) = node.child_by_field_id(fields().name) else { return };
        let name = self.text(name_node);
        let decorated = node.parent().filter(|p| p.kind() == "decorated_definition");
        let body = node.child_by_field_id(fields().body);
        let mut bases = Vec::new();
        if let Some(sup) = node.child_by_field_id(fields().superclasses) {
            self.bases = Some(sup.id());
            let mut c = sup.walk();
            for b in sup.named_children(&mut c) {
                let b = if b.kind() == "subscript" {
                    match b.child_by_field_id(fields().value) {
                        Some(v) => v,
                        None => continue,
                    }
                } else {
                    b
                };
                if matches!(b.kind(), "identifier" | "attribute")
                    && let Some(p) = plain_path(b, self.src)
                {
                    bases.push(p.join("."));
                }
            }
        }
        let is_enum = bases.iter().any(|b| ENUM_BASES.contains(&b.rsplit('.').next().unwrap_or(b)));
        let kind = if is_enum { NodeKind::Enum } else { NodeKind::Class };
        let sig = decl_signature(decorated.unwrap_or(node), body, self.src);
        let doc = body.and_then(|b| docstring(b, self.src));
        if self.top().kind == ScopeKind::Class {
            let top = self.scopes.len() - 1;
            self.scopes[top].members.insert(name.to_string());
        }
        let idx = self.push_symbol(kind, name, node, sig, doc);
        for target in bases {
            self.facts.heritage.push(Heritage { symbol: idx, kind: HeritageKind::Extends, target });
        }
        let mut scope = Scope::new(node.id(), ScopeKind::Class, Some(idx));
        scope.is_enum = is_enum;
        self.scopes.push(scope);
    }

    /// Drops the `Value(Other)` hints ("a local of unknown value") of names nothing reads as
    /// a receiver or value: such a hint only tells resolution that a path's head is local, so
    /// a name never at the head of a path, a callee or a hint needs none (most parameters and
    /// loop counters). Keyed by name, not scope: a closure reading its parent's local keeps it.
    fn drop_unread_locals(&mut self) {
        fn head_of(r: &Receiver, out: &mut HashSet<String>) {
            match r {
                Receiver::Path(p) => {
                    if let Some(h) = p.first() {
                        out.insert(h.to_string());
                    }
                }
                Receiver::CallResult(c) => callee_heads(c, out),
                _ => {}
            }
        }
        fn callee_heads(c: &Callee, out: &mut HashSet<String>) {
            if c.receiver == Receiver::None {
                out.insert(c.name.to_string());
            }
            head_of(&c.receiver, out);
        }
        let mut read: HashSet<String> = HashSet::new();
        for c in self.facts.calls.iter().chain(&self.facts.value_refs) {
            callee_heads(&c.callee, &mut read);
        }
        for a in &self.facts.accesses {
            head_of(&a.receiver, &mut read);
        }
        for h in &self.facts.type_hints {
            match &h.source {
                HintSource::CallResult(c) => callee_heads(c, &mut read),
                HintSource::Value(r) => head_of(r, &mut read),
                _ => {}
            }
        }
        self.facts.type_hints.retain(|h| {
            !matches!(h.source, HintSource::Value(Receiver::Other))
                || read.contains(h.name.as_str())
        });
    }

    /// The first informative `return` of a function without a declared return type: a hint of
    /// the function with an empty name, its source read in module scope (locals replaced by
    /// what they hold, as for class attributes).
    fn returned(&mut self, node: Node<'_>) {
        if self.top().kind != ScopeKind::Function {
            return;
        }
        let Some(f) = self.enclosing() else { return };
        // Declared (`-> T`), or an earlier `return` said it already.
        if self.returns_known.contains(&f) {
            return;
        }
        let Some(value) = node.named_child(0) else { return };
        let Some(src) = self.source_of(value).and_then(|s| self.for_class(s, 0)) else { return };
        self.returns_known.insert(f);
        self.hint(Some(f), "", src, start_line(node));
    }

    /// `__all__ += [...]`.
    fn augmented(&mut self, node: Node<'_>) {
        let left = node.child_by_field_id(fields().left);
        if left.is_some_and(|l| self.text(l) == "__all__")
            && self.top().kind == ScopeKind::Module
            && let Some(r) = node.child_by_field_id(fields().right)
        {
            let names = string_list(r, self.src);
            self.all.get_or_insert_with(Vec::new).extend(names);
        }
    }

    /// A member read or written, not called (`self.x`, `a.b = v`, `del a.b`; in `a.b.c()` the
    /// inner `a.b`): resolution ties it to the property it names (ACCESSES).
    fn access(&mut self, node: Node<'_>) {
        if self.called.contains(&node.id()) {
            return;
        }
        let (Some(obj), Some(attr)) =
            (node.child_by_field_id(fields().object), node.child_by_field_id(fields().attribute))
        else {
            return;
        };
        let receiver = self.receiver_at(obj, 0);
        if matches!(receiver, Receiver::Other) {
            return;
        }
        self.facts.accesses.push(FieldAccess {
            receiver,
            name: self.text(attr).into(),
            line: start_line(attr),
            enclosing: self.enclosing(),
            write: self.written.contains(&node.id()),
        });
    }

    fn call(&mut self, node: Node<'_>) {
        let Some(func) = node.child_by_field_id(fields().function) else { return };
        if func.kind() == "attribute" {
            self.called.insert(func.id());
        }
        let (callee, at) = self.callee_of(func);
        let local = callee.receiver == Receiver::None && self.is_local(&callee.name);
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing: self.enclosing(),
            local,
        });
    }

    /// The callee of a call and the node whose position is the call's (the called name).
    fn callee_of<'t>(&self, func: Node<'t>) -> (Callee, Node<'t>) {
        self.callee_at(func, 0)
    }

    /// [`Walker::callee_of`] `depth` levels into a chain (`a().b().c()`); past
    /// [`MAX_CHAIN`] a callee is `Other`, so no chain can exhaust the stack.
    fn callee_at<'t>(&self, func: Node<'t>, depth: u32) -> (Callee, Node<'t>) {
        if depth > MAX_CHAIN {
            return (self.other_callee(func), func);
        }
        match func.kind() {
            "identifier" => {
                let name = self.text(func);
                if self.instance().is_some_and(|(s, _)| s == name) {
                    (Callee { receiver: Receiver::This, name: String::new().into() }, func)
                } else {
                    (Callee { receiver: Receiver::None, name: name.into() }, func)
                }
            }
            "attribute" => {
                let (Some(obj), Some(attr)) = (
                    func.child_by_field_id(fields().object),
                    func.child_by_field_id(fields().attribute),
                ) else {
                    return (self.other_callee(func), func);
                };
                let receiver = self.receiver_at(obj, depth + 1);
                (Callee { receiver, name: self.text(attr).into() }, attr)
            }
            "call" => match func.child_by_field_id(fields().function) {
                Some(inner) => {
                    let (inner, _) = self.callee_at(inner, depth + 1);
                    (
                        Callee {
                            receiver: Receiver::CallResult(Box::new(inner)),
                            name: String::new().into(),
                        },
                        func,
                    )
                }
                None => (self.other_callee(func), func),
            },
            "parenthesized_expression" => match func.named_child(0) {
                Some(inner) if matches!(inner.kind(), "identifier" | "attribute") => {
                    self.callee_at(inner, depth + 1)
                }
                _ => (self.other_callee(func), func),
            },
            _ => (self.other_callee(func), func),
        }
    }

    fn other_callee(&self, func: Node<'_>) -> Callee {
        let text = collapse_whitespace(self.text(func));
        Callee { receiver: Receiver::Other, name: truncate(&text, MAX_CALLEE_TEXT).into() }
    }

    fn receiver_at(&self, obj: Node<'_>, depth: u32) -> Receiver {
        if depth > MAX_CHAIN {
            return Receiver::Other;
        }
        match obj.kind() {
            "identifier" => {
                let name = self.text(obj);
                if self.instance().is_some_and(|(s, _)| s == name) {
                    Receiver::This
                } else {
                    Receiver::Path(vec![name.into()])
                }
            }
            "attribute" => match self.path_of(obj) {
                Some(p) => Receiver::path(p),
                None => Receiver::Other,
            },
            "call" => match obj.child_by_field_id(fields().function) {
                Some(f) if f.kind() == "identifier" && self.text(f) == "super" => Receiver::Super,
                Some(f) => Receiver::CallResult(Box::new(self.callee_at(f, depth + 1).0)),
                None => Receiver::Other,
            },
            "string" | "concatenated_string" => {
                let t = self.text(obj).trim_start();
                let prefix: String =
                    t.chars().take_while(|c| c.is_ascii_alphabetic()).collect::<String>();
                let ty = if prefix.contains(['b', 'B']) { "bytes" } else { "str" };
                Receiver::Path(vec![ty.into()])
            }
            "list" | "list_comprehension" => Receiver::Path(vec!["list".into()]),
            "dictionary" | "dictionary_comprehension" => Receiver::Path(vec!["dict".into()]),
            "set" | "set_comprehension" => Receiver::Path(vec!["set".into()]),
            "tuple" => Receiver::Path(vec!["tuple".into()]),
            "integer" => Receiver::Path(vec!["int".into()]),
            "float" => Receiver::Path(vec!["float".into()]),
            "parenthesized_expression" => match obj.named_child(0) {
                Some(inner) => self.receiver_at(inner, depth + 1),
                None => Receiver::Other,
            },
            // `x[k].m()` calls `m` on what `x.__getitem__(k)` returns.
            "subscript" => match obj.child_by_field_id(fields().value) {
                Some(v) => match self.receiver_at(v, depth + 1) {
                    Receiver::Other => Receiver::Other,
                    r => Receiver::CallResult(Box::new(Callee {
                        receiver: r,
                        name: "__getitem__".into(),
                    })),
                },
                None => Receiver::Other,
            },
            _ => Receiver::Other,
        }
    }

    /// A dotted path of identifiers (`a.b.c`), the instance parameter written `self`.
    fn path_of(&self, node: Node<'_>) -> Option<Vec<String>> {
        let mut p = plain_path(node, self.src)?;
        if let Some((s, _)) = self.instance()
            && p.first() == Some(s)
        {
            p[0] = "self".to_string();
        }
        Some(p)
    }

    /// What iterating an expression yields: `a.b` -> `Value(Path(["a", "b", "[]"]))`, `f()` ->
    /// `CallResult(Callee { receiver: CallResult(f), name: "[]" })`.
    fn element_of(&self, iterable: Node<'_>) -> Option<HintSource> {
        match self.source_of(iterable)? {
            HintSource::Value(Receiver::Path(mut p)) => {
                p.push("[]".into());
                Some(HintSource::Value(Receiver::Path(p)))
            }
            HintSource::CallResult(c) => Some(HintSource::CallResult(Callee {
                receiver: Receiver::CallResult(Box::new(c)),
                name: "[]".into(),
            })),
            _ => None,
        }
    }

    /// What an expression holds, as a hint source.
    fn source_of(&self, value: Node<'_>) -> Option<HintSource> {
        self.source_at(value, 0)
    }

    fn source_at(&self, value: Node<'_>, depth: u32) -> Option<HintSource> {
        if depth > MAX_CHAIN {
            return None;
        }
        match value.kind() {
            "call" => {
                let f = value.child_by_field_id(fields().function)?;
                let (callee, _) = self.callee_of(f);
                if callee.receiver == Receiver::Other {
                    return None;
                }
                // `typing.cast(T, v)` holds a `T`.
                if callee.name == "cast"
                    && let Some(ty) = value
                        .child_by_field_id(fields().arguments)
                        .and_then(|a| a.named_child(0))
                        .filter(|a| !matches!(a.kind(), "keyword_argument" | "comment"))
                {
                    return normalize_annotation(self.text(ty)).map(HintSource::Annotation);
                }
                Some(HintSource::CallResult(callee))
            }
            "identifier" | "attribute" => {
                self.path_of(value).map(|p| HintSource::Value(Receiver::path(p)))
            }
            "await" | "parenthesized_expression" => {
                self.source_at(value.named_child(0)?, depth + 1)
            }
            // `a if c else b`, `a or b`: the first side that says something.
            "conditional_expression" => {
                let mut c = value.walk();
                let parts: Vec<Node<'_>> = value.named_children(&mut c).collect();
                let (a, b) = (parts.first()?, parts.get(2)?);
                self.source_at(*a, depth + 1).or_else(|| self.source_at(*b, depth + 1))
            }
            "boolean_operator" => {
                let (l, r) = (
                    value.child_by_field_id(fields().left)?,
                    value.child_by_field_id(fields().right)?,
                );
                self.source_at(l, depth + 1).or_else(|| self.source_at(r, depth + 1))
            }
            _ => None,
        }
    }

    fn hint(&mut self, scope: Option<SymbolIdx>, name: &str, source: HintSource, line: u32) {
        self.facts.type_hints.push(TypeHint {
            scope,
            name: name.into(),
            source,
            line,
            visible: None,
        });
    }

    fn assignment(&mut self, node: Node<'_>) {
        let Some(left) = node.child_by_field_id(fields().left) else { return };
        let right = node.child_by_field_id(fields().right);
        let annotation = node
            .child_by_field_id(fields().r#type)
            .and_then(|t| normalize_annotation(self.text(t)))
            .map(HintSource::Annotation);
        let source = annotation.or_else(|| right.and_then(|r| self.source_of(r)));
        let is_lambda = right.is_some_and(|r| r.kind() == "lambda");
        let kind = self.top().kind;
        match left.kind() {
            "identifier" => {
                let name = self.text(left);
                match kind {
                    ScopeKind::Module => {
                        if name == "__all__" {
                            if let Some(r) = right {
                                self.all = Some(string_list(r, self.src));
                            }
                        } else {
                            self.module_variable(name, node, node, is_lambda);
                        }
                        if let Some(src) = source {
                            self.hint(None, name, src, start_line(left));
                        }
                    }
                    ScopeKind::Class => {
                        let top = self.scopes.len() - 1;
                        if self.scopes[top].members.insert(name.to_string()) {
                            let k = if is_lambda {
                                NodeKind::Method
                            } else if self.scopes[top].is_enum {
                                NodeKind::Constant
                            } else {
                                NodeKind::Property
                            };
                            let sig = signature(node, None, self.src);
                            self.push_symbol(k, name, node, sig, None);
                        }
                        if let Some(src) = source {
                            self.hint(self.enclosing(), name, src, start_line(left));
                        }
                    }
                    ScopeKind::Function | ScopeKind::Anonymous => {
                        if let Some(src) = source.clone() {
                            self.hint(self.enclosing(), name, src, start_line(left));
                        }
                        self.bind_local(name, source, start_line(node));
                    }
                }
            }
            "attribute" => {
                // `self.x = v` in a method: an attribute of the instance's class.
                let Some((_, class)) = self.instance().cloned() else { return };
                let Some(path) = self.path_of(left) else { return };
                let [head, attr] = path.as_slice() else { return };
                if head != "self" {
                    return;
                }
                let Some(ci) = self
                    .scopes
                    .iter()
                    .rposition(|s| s.sym == Some(class) && s.kind == ScopeKind::Class)
                else {
                    return;
                };
                if self.scopes[ci].members.insert(attr.clone()) {
                    let sig = signature(node, None, self.src);
                    self.push_symbol_in(Some(class), NodeKind::Property, attr, node, sig, None);
                }
                if let Some(src) = source.and_then(|s| self.for_class(s, 0)) {
                    self.hint(Some(class), attr, src, start_line(left));
                }
            }
            "pattern_list" | "tuple_pattern" if self.unpack(left, source.as_ref(), kind) => {}
            _ => {
                for name in target_names(left, self.src) {
                    match kind {
                        ScopeKind::Module => self.module_variable(name, node, node, false),
                        ScopeKind::Function | ScopeKind::Anonymous => {
                            self.bind_local(name, None, start_line(node))
                        }
                        ScopeKind::Class => {}
                    }
                }
            }
        }
    }

    /// A module-level name an assignment binds: a symbol the first time (a `function` for a
    /// lambda, a `constant` when UPPER_CASE, else a `variable`), its lines `decl`'s, its
    /// signature `sig`'s text.
    fn module_variable(&mut self, name: &str, decl: Node<'_>, sig: Node<'_>, is_lambda: bool) {
        if !self.module_names.insert(name.to_string()) {
            return;
        }
        let kind = if is_lambda {
            NodeKind::Function
        } else if is_constant_name(name) {
            NodeKind::Constant
        } else {
            NodeKind::Variable
        };
        let sig = signature(sig, None, self.src);
        self.push_symbol(kind, name, decl, sig, None);
    }

    /// `a, b = f()` / `a, b = x.pair` in a function (or at module level): each name is an element
    /// of what the right side holds (`[0]`, `[1]`: the provider's encoding, a path segment or a
    /// callee name). `false` when the targets are not plain names or nothing is known.
    fn unpack(&mut self, left: Node<'_>, source: Option<&HintSource>, kind: ScopeKind) -> bool {
        let Some(source) = source else { return false };
        if kind == ScopeKind::Class {
            return false;
        }
        let mut c = left.walk();
        let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
        if names.is_empty() || names.iter().any(|n| n.kind() != "identifier") {
            return false;
        }
        for (i, n) in names.into_iter().enumerate() {
            let seg = format!("[{i}]");
            let element = match source {
                HintSource::Value(Receiver::Path(p)) => {
                    let mut p = p.clone();
                    p.push(seg.into());
                    HintSource::Value(Receiver::Path(p))
                }
                HintSource::CallResult(c) => HintSource::CallResult(Callee {
                    receiver: Receiver::CallResult(Box::new(c.clone())),
                    name: seg.into(),
                }),
                _ => return false,
            };
            let name = self.text(n);
            if kind == ScopeKind::Module {
                self.module_variable(name, n, left, false);
            }
            self.bind_target(n, Some(element), start_line(n));
        }
        true
    }

    /// A source evaluated in a method, rewritten to read in module scope (for a hint of the
    /// class): locals replaced by what they hold, `None` when it names a local it cannot.
    fn for_class(&self, source: HintSource, depth: u32) -> Option<HintSource> {
        if depth > MAX_CHAIN {
            return None;
        }
        let head = |c: &Callee| -> Option<String> {
            match &c.receiver {
                Receiver::None => Some(c.name.to_string()),
                Receiver::Path(p) => p.first().map(|s| s.to_string()),
                _ => None,
            }
        };
        match source {
            HintSource::Annotation(_) | HintSource::Return(_) => Some(source),
            HintSource::CallResult(c) => match head(&c) {
                Some(h) if h != "self" && self.is_local(&h) => None,
                _ => Some(HintSource::CallResult(c)),
            },
            HintSource::Value(Receiver::Path(p)) => {
                let h = p.first()?;
                if h == "self" || !self.is_local(h) {
                    return Some(HintSource::Value(Receiver::Path(p)));
                }
                match (self.local_source(h), p.len()) {
                    (Some(Some(s)), 1) => self.for_class(s.clone(), depth + 1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn value_ref(&mut self, v: Node<'_>) {
        if !matches!(v.kind(), "identifier" | "attribute") {
            return;
        }
        // Cheap checks on the source text first (most arguments are locals or seen names).
        let written = self.text(v);
        let head = written.split('.').next().unwrap_or("").trim();
        if head == "self" || self.instance().is_some_and(|(s, _)| s == head) || self.is_local(head)
        {
            return;
        }
        let enclosing = self.enclosing();
        if written.bytes().all(|b| b == b'.' || b == b'_' || b.is_ascii_alphanumeric())
            && self.refs_seen.contains(&(enclosing, written.to_string()))
        {
            return;
        }
        let Some(path) = self.path_of(v) else { return };
        let text = path.join(".");
        if !self.refs_seen.insert((enclosing, text)) {
            return;
        }
        let mut path = path;
        let name = path.pop().unwrap_or_default();
        let receiver = if path.is_empty() { Receiver::None } else { Receiver::path(path) };
        let at = if v.kind() == "attribute" {
            v.child_by_field_id(fields().attribute).unwrap_or(v)
        } else {
            v
        };
        self.facts.value_refs.push(CallSite {
            callee: Callee { receiver, name: name.into() },
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing,
            local: false,
        });
    }

    fn import_statement(&mut self, node: Node<'_>) {
        let mut c = node.walk();
        for n in node.children_by_field_name("name", &mut c) {
            let (module, alias) = match n.kind() {
                "aliased_import" => (
                    n.child_by_field_id(fields().name).map(|m| self.text(m)),
                    n.child_by_field_id(fields().alias).map(|a| self.text(a).to_string()),
                ),
                _ => (Some(self.text(n)), None),
            };
            let Some(module) = module else { continue };
            self.facts.imports.push(Import {
                source: strip_spaces(module),
                kind: ImportKind::Package,
                bindings: vec![ImportBinding { imported: Imported::Namespace, local: alias }],
                line: start_line(node),
            });
        }
    }

    fn import_from(&mut self, node: Node<'_>) {
        let Some(module) = node.child_by_field_id(fields().module_name) else { return };
        let source = strip_spaces(self.text(module));
        let mut bindings = Vec::new();
        let mut c = node.walk();
        for ch in node.named_children(&mut c) {
            if ch.kind() == "wildcard_import" {
                bindings.push(ImportBinding { imported: Imported::All, local: None });
            }
        }
        let mut c = node.walk();
        for n in node.children_by_field_name("name", &mut c) {
            let (name, alias) = match n.kind() {
                "aliased_import" => (
                    n.child_by_field_id(fields().name).map(|m| self.text(m)),
                    n.child_by_field_id(fields().alias).map(|a| self.text(a).to_string()),
                ),
                _ => (Some(self.text(n)), None),
            };
            if let Some(name) = name {
                bindings.push(ImportBinding {
                    imported: Imported::Named(strip_spaces(name)),
                    local: alias,
                });
            }
        }
        let kind =
            if self.type_checking.is_empty() { ImportKind::EsImport } else { ImportKind::TypeOnly };
        self.facts.imports.push(Import { source, kind, bindings, line: start_line(node) });
    }

    fn finish(mut self) -> FileFacts {
        self.drop_unread_locals();
        if let Some(all) = self.all.take() {
            for s in self.facts.symbols.iter_mut().filter(|s| s.parent.is_none()) {
                s.exported = all.contains(&s.name);
            }
            // Nested symbols follow their parent.
            for i in 0..self.facts.symbols.len() {
                if let Some(p) = self.facts.symbols[i].parent {
                    let parent_exported =
                        self.facts.symbols.get(p as usize).is_some_and(|p| p.exported);
                    let s = &mut self.facts.symbols[i];
                    let public = !s.name.starts_with('_')
                        || (s.name.starts_with("__") && s.name.ends_with("__"));
                    s.exported = parent_exported && public;
                }
            }
            self.facts.export_aliases = all.into_iter().map(|n| (n.clone(), n)).collect();
        }
        self.facts
    }
}

/// The names a parameter list binds.
fn param_names<'s>(params: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        let n = match p.kind() {
            "identifier" => Some(p),
            "default_parameter" | "typed_default_parameter" => p.child_by_field_id(fields().name),
            _ => {
                let mut c2 = p.walk();
                p.named_children(&mut c2).find(|n| n.kind() == "identifier")
            }
        };
        if let Some(n) = n.filter(|n| n.kind() == "identifier") {
            out.push(text(n, src));
        }
    }
    out
}

/// The identifiers an assignment or loop target binds (`a`, `a, b`, `(a, [b, *c])`);
/// attributes and subscripts bind no name.
fn target_names<'s>(target: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut stack = vec![target];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier" => out.push(text(n, src)),
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "parenthesized_expression"
            | "tuple"
            | "list" => {
                let mut c = n.walk();
                let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
                stack.extend(kids.into_iter().rev());
            }
            _ => {}
        }
    }
    out
}

/// `a.b.c` as its identifiers, `None` for anything else.
pub(super) fn plain_path(node: Node<'_>, src: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut cur = node;
    loop {
        match cur.kind() {
            "identifier" => {
                parts.push(text(cur, src).to_string());
                break;
            }
            "attribute" => {
                parts.push(text(cur.child_by_field_id(fields().attribute)?, src).to_string());
                cur = cur.child_by_field_id(fields().object)?;
            }
            _ => return None,
        }
    }
    parts.reverse();
    Some(parts)
}

/// The string literals of a list or tuple (`__all__ = ["a", "b"]`).
fn string_list(node: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut c = node.walk();
    for s in node.named_children(&mut c) {
        if s.kind() == "string"
            && let Some(v) = string_value(s, src)
        {
            out.push(v);
        }
    }
    out
}

/// The text of a plain string literal (no interpolation), quotes removed.
pub(super) fn string_value(s: Node<'_>, src: &str) -> Option<String> {
    if s.kind() != "string" {
        return None;
    }
    let mut c = s.walk();
    let mut out = String::new();
    for ch in s.named_children(&mut c) {
        match ch.kind() {
            "string_content" => out.push_str(text(ch, src)),
            "string_start" | "string_end" => {}
            _ => return None,
        }
    }
    Some(out)
}

/// A declaration's signature: from its first decorator to its body, without the `:`.
fn decl_signature(decl: Node<'_>, body: Option<Node<'_>>, src: &str) -> String {
    let mut sig = signature(decl, body, src);
    while sig.ends_with([':', ' ']) {
        sig.pop();
    }
    sig
}

/// The docstring of a body: its first statement when that is a string.
fn docstring(body: Node<'_>, src: &str) -> Option<String> {
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let raw = text(s, src);
    let raw = raw.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let raw = raw
        .strip_prefix("\"\"\"")
        .and_then(|r| r.strip_suffix("\"\"\""))
        .or_else(|| raw.strip_prefix("'''").and_then(|r| r.strip_suffix("'''")))
        .or_else(|| raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')))
        .or_else(|| raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
        .unwrap_or(raw);
    let lines: Vec<&str> = raw.lines().map(str::trim).collect();
    let doc = lines.join("\n");
    let doc = doc.trim();
    (!doc.is_empty()).then(|| truncate(doc, MAX_DOC).to_string())
}

/// `UPPER_CASE` names are constants by convention.
fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn strip_spaces(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests {
    /// Self-referential locals and very long chains are read to a bound, not to a stack
    /// overflow (this runs on a test thread's small stack).
    #[test]
    fn deep_and_cyclic_expressions_are_bounded() {
        let chain = ".m()".repeat(20_000);
        let text = format!(
            "class C:\n    def f(self, x):\n        x = x or x\n        self.a = x\n        y = a{chain}\n        return (((((((((y)))))))))\n"
        );
        let facts = crate::analyze(crate::Language::Python, &text);
        assert_eq!(facts.calls.len(), 20_000);
        assert!(facts.symbols.iter().any(|s| s.qualified_name == "C.a"));
    }

    #[test]
    fn interesting_kinds_exist() {
        let lang: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        for k in super::INTERESTING {
            assert_ne!(lang.id_for_node_kind(k, true), 0, "{k} is no node kind of the grammar");
        }
    }
}
