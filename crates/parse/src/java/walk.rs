//! The one walk over a Java syntax tree that collects a file's facts (see the module doc of
//! `java` for what each is): an iterative cursor walk with a scope stack, so deeply nested
//! expressions cost no native stack.

use super::clients;
use super::routes::{self, RouteClass};
use super::{generic_type_text, ids, type_text};
use crate::facts::{
    CallKind, CallSite, Callee, FieldAccess, FileFacts, Heritage, HeritageKind, HintSource, Import,
    ImportBinding, ImportKind, Imported, JavaFacts, LanguageFacts, Receiver, Symbol, SymbolIdx,
    TypeHint,
};
use crate::util::{
    clean_comments, end_line, preceding_comments, signature, start_col, start_line, text, to_u32,
};
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use tree_sitter::{Node, Tree};

/// Methods of the JDK's collections, streams and optionals that call a one-parameter lambda
/// with each element (or the held value).
const ELEMENT_CONSUMERS: &[&str] = &[
    "forEach",
    "forEachOrdered",
    "filter",
    "map",
    "flatMap",
    "anyMatch",
    "allMatch",
    "noneMatch",
    "removeIf",
    "ifPresent",
    "ifPresentOrElse",
    "peek",
    "takeWhile",
    "dropWhile",
    "mapToInt",
    "mapToLong",
    "mapToDouble",
    "mapToObj",
    "forEachRemaining",
    "thenAccept",
    "thenApply",
];

/// Receiver chains longer than this (`a.b().c().d()...` builders) end in `Other`.
const MAX_CHAIN: u32 = 48;

struct Scope {
    node: usize,
    symbol: Option<SymbolIdx>,
    /// An anonymous class body (or an enum constant's): the type its `this` extends.
    anon: Option<String>,
}

struct Walker<'s> {
    src: &'s str,
    facts: FileFacts,
    scopes: Vec<Scope>,
    /// Field declarators (node ids) with their symbols: entering one scopes its initializer.
    declarators: Vec<(usize, SymbolIdx)>,
    /// Controllers and resources (by type symbol): what their methods' routes start with.
    route_classes: HashMap<SymbolIdx, RouteClass>,
    /// The argument count of each call site, in order.
    call_args: Vec<u32>,
}

pub(super) fn extract(src: &str, tree: &Tree) -> FileFacts {
    let mut w = Walker {
        src,
        facts: FileFacts::default(),
        scopes: Vec::new(),
        declarators: Vec::new(),
        route_classes: HashMap::new(),
        call_args: Vec::new(),
    };
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let node = cursor.node();
        if w.enter(node) && cursor.goto_first_child() {
            continue;
        }
        loop {
            w.leave(cursor.node());
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    w.facts.language_facts =
        LanguageFacts::Java(JavaFacts { call_args: std::mem::take(&mut w.call_args) }).normalized();
    w.facts
}

fn modifiers<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    let mut c = node.walk();
    let found = node.children(&mut c).find(|n| n.kind() == "modifiers");
    found.map_or("", |m| text(m, src))
}

fn has_word(modifiers: &str, word: &str) -> bool {
    modifiers.split(|c: char| !c.is_alphanumeric() && c != '@').any(|w| w == word)
}

impl<'s> Walker<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    /// Whether the file imports from a package (or below it): imports precede every type, so
    /// they are all known by the time a member is read.
    fn imports_from(&self, package: &str) -> bool {
        self.facts.imports.iter().any(|i| {
            i.source.strip_prefix(package).is_some_and(|r| r.is_empty() || r.starts_with('.'))
        })
    }

    fn enclosing(&self) -> Option<SymbolIdx> {
        self.scopes.iter().rev().find_map(|s| s.symbol)
    }

    fn push_scope(&mut self, node: Node<'_>, symbol: Option<SymbolIdx>) {
        self.scopes.push(Scope { node: node.id(), symbol, anon: None });
    }

    fn leave(&mut self, node: Node<'_>) {
        if self.scopes.last().is_some_and(|s| s.node == node.id()) {
            self.scopes.pop();
        }
    }

    fn doc(&self, node: Node<'_>) -> Option<String> {
        let comments = preceding_comments(node, |k| k == "block_comment" || k == "line_comment");
        let javadoc: Vec<&str> =
            comments.iter().map(|c| self.text(*c)).filter(|t| t.starts_with("/**")).collect();
        clean_comments(javadoc)
    }

    fn push_symbol(
        &mut self,
        kind: NodeKind,
        name: &str,
        node: Node<'_>,
        body: Option<Node<'_>>,
        public: bool,
    ) -> SymbolIdx {
        let parent = self.enclosing();
        let parent_sym = parent.and_then(|p| self.facts.symbols.get(p as usize));
        let qualified_name = match parent_sym {
            Some(p) => format!("{}.{name}", p.qualified_name),
            None => name.to_string(),
        };
        let exported = public && parent_sym.is_none_or(|p| p.exported);
        let idx = to_u32(self.facts.symbols.len());
        let doc = self.doc(node);
        self.facts.symbols.push(Symbol {
            kind,
            name: name.to_string(),
            qualified_name,
            parent,
            start_line: start_line(node),
            end_line: end_line(node),
            signature: signature(node, body, self.src),
            doc,
            exported,
        });
        idx
    }

    /// Whether the innermost type is an interface (or annotation type): its members are public.
    fn in_interface(&self) -> bool {
        self.enclosing()
            .and_then(|i| self.facts.symbols.get(i as usize))
            .is_some_and(|s| s.kind == NodeKind::Interface)
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

    /// Called on entering a node; `false`: do not walk its children.
    fn enter(&mut self, node: Node<'_>) -> bool {
        let ids = ids();
        let k = node.kind_id();
        if k == ids.line_comment || k == ids.block_comment || k == ids.string_literal {
            return false;
        }
        if k == ids.package_declaration {
            let mut c = node.walk();
            let name = node
                .named_children(&mut c)
                .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"));
            self.facts.default_export = name.map(|n| self.text(n).split_whitespace().collect());
            return false;
        }
        if k == ids.import_declaration {
            self.import(node);
            return false;
        }
        if let Some(pos) = self.declarators.iter().position(|(id, _)| *id == node.id()) {
            let (_, idx) = self.declarators.swap_remove(pos);
            self.push_scope(node, Some(idx));
            return true;
        }
        if k == ids.class_declaration
            || k == ids.interface_declaration
            || k == ids.enum_declaration
            || k == ids.record_declaration
            || k == ids.annotation_type_declaration
        {
            self.type_decl(node);
        } else if k == ids.method_declaration
            || k == ids.constructor_declaration
            || k == ids.compact_constructor_declaration
            || k == ids.annotation_type_element_declaration
        {
            self.method(node);
        } else if k == ids.field_declaration || k == ids.constant_declaration {
            self.field(node);
        } else if k == ids.enum_constant {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let public = self.enclosing_exported();
            let enum_name = self
                .enclosing()
                .and_then(|e| self.facts.symbols.get(e as usize))
                .map(|s| s.name.clone());
            let idx = self.push_symbol(NodeKind::Constant, name, node, None, public);
            let body = node.child_by_field_id(ids.body).is_some();
            self.scopes.push(Scope {
                node: node.id(),
                symbol: Some(idx),
                anon: enum_name.clone().filter(|_| body),
            });
            // `A(1)` constructs the enum (its constructor runs with the arguments).
            if node.child_by_field_id(ids.arguments).is_some()
                && let (Some(e), Some(at)) = (enum_name, node.child_by_field_id(ids.name))
            {
                self.call(
                    Callee { receiver: Receiver::None, name: e.into() },
                    CallKind::New,
                    at,
                    node,
                );
            }
        } else if k == ids.method_invocation {
            let callee = self.invocation(node, 0);
            let at = node.child_by_field_id(ids.name).unwrap_or(node);
            self.call(callee, CallKind::Call, at, node);
            let enclosing = self.enclosing();
            clients::invocation(node, enclosing, self.src, &mut self.facts.client_calls);
        } else if k == ids.object_creation_expression {
            if let Some(t) = node.child_by_field_id(ids.r#type) {
                let ty = type_text(self.text(t));
                if self.imports_from(routes::MCP_SDK) {
                    let enclosing = self.enclosing();
                    routes::sdk_tool(node, &ty, enclosing, self.src, &mut self.facts.endpoints);
                }
                self.call(type_callee(&ty), CallKind::New, t, node);
            }
            // An anonymous class body: its methods are named under the enclosing member.
            let mut c = node.walk();
            if node.children(&mut c).any(|n| n.kind_id() == ids.class_body) {
                let e = self.enclosing();
                let anon = node.child_by_field_id(ids.r#type).map(|t| type_text(self.text(t)));
                self.scopes.push(Scope { node: node.id(), symbol: e, anon });
            }
        } else if k == ids.explicit_constructor_invocation {
            if let Some(ctor) = node.child_by_field_id(ids.constructor) {
                let receiver =
                    if ctor.kind() == "super" { Receiver::Super } else { Receiver::This };
                let callee = Callee { receiver, name: "constructor".into() };
                self.call(callee, CallKind::Call, ctor, node);
            }
        } else if k == ids.method_reference {
            self.method_reference(node);
        } else if k == ids.field_access {
            self.access(node);
        } else if k == ids.local_variable_declaration {
            self.locals(node);
        } else if k == ids.formal_parameter || k == ids.spread_parameter {
            self.parameter(node);
        } else if k == ids.enhanced_for_statement
            || k == ids.catch_formal_parameter
            || k == ids.resource
        {
            self.declared_variable(node);
        } else if k == ids.lambda_expression {
            if let Some(p) = node.child_by_field_id(ids.parameters)
                && p.kind() != "formal_parameters"
            {
                let scope = self.enclosing();
                let names: Vec<(String, u32)> = if p.kind() == "identifier" {
                    vec![(self.text(p).to_string(), start_line(p))]
                } else {
                    let mut c = p.walk();
                    p.named_children(&mut c)
                        .filter(|n| n.kind() == "identifier")
                        .map(|n| (self.text(n).to_string(), start_line(n)))
                        .collect()
                };
                // One parameter of a lambda passed to an element-consuming method
                // (`items.forEach(x -> ..)`, `.filter(x -> ..)`, `opt.ifPresent(x -> ..)`) is an
                // element of the call's receiver.
                let element = match names.as_slice() {
                    [_] => self.lambda_element(node),
                    _ => None,
                };
                for (name, line) in names {
                    let source = match &element {
                        Some(r) => HintSource::CallResult(Callee {
                            receiver: r.clone(),
                            name: "[]".into(),
                        }),
                        None => HintSource::Value(Receiver::Other),
                    };
                    self.hint(scope, &name, source, line);
                }
            }
        } else if k == ids.instanceof_expression {
            if let (Some(t), Some(name)) =
                (node.child_by_field_id(ids.right), node.child_by_field_id(ids.name))
            {
                let ty = generic_type_text(self.text(t));
                let scope = self.enclosing();
                self.hint(scope, self.text(name), HintSource::Annotation(ty), start_line(name));
            }
        } else if k == ids.type_pattern {
            let (Some(t), Some(name)) = (node.named_child(0), node.named_child(1)) else {
                return true;
            };
            let ty = generic_type_text(self.text(t));
            let scope = self.enclosing();
            self.hint(scope, self.text(name), HintSource::Annotation(ty), start_line(name));
        }
        true
    }

    fn enclosing_exported(&self) -> bool {
        self.enclosing().and_then(|i| self.facts.symbols.get(i as usize)).is_none_or(|s| s.exported)
    }

    fn import(&mut self, node: Node<'_>) {
        let mut is_static = false;
        let mut all = false;
        let mut name = "";
        let mut c = node.walk();
        for n in node.children(&mut c) {
            match n.kind() {
                "static" => is_static = true,
                "asterisk" => all = true,
                "scoped_identifier" | "identifier" => name = self.text(n),
                _ => {}
            }
        }
        let name: String = name.split_whitespace().collect();
        if name.is_empty() {
            return;
        }
        let (source, imported) = if all {
            (name, Imported::All)
        } else {
            match name.rsplit_once('.') {
                Some((source, last)) => (source.to_string(), Imported::Named(last.to_string())),
                None => (String::new(), Imported::Named(name)),
            }
        };
        let local = match &imported {
            Imported::Named(n) => Some(n.clone()),
            _ => None,
        };
        self.facts.imports.push(Import {
            source,
            kind: if is_static { ImportKind::Module } else { ImportKind::EsImport },
            bindings: vec![ImportBinding { imported, local }],
            line: start_line(node),
        });
    }

    fn type_decl(&mut self, node: Node<'_>) {
        let ids = ids();
        let k = node.kind_id();
        let kind = if k == ids.interface_declaration || k == ids.annotation_type_declaration {
            NodeKind::Interface
        } else if k == ids.enum_declaration {
            NodeKind::Enum
        } else {
            NodeKind::Class
        };
        let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
        let mods = modifiers(node, self.src);
        let public = has_word(mods, "public") || has_word(mods, "protected") || self.in_interface();
        let body = node.child_by_field_id(ids.body);
        let idx = self.push_symbol(kind, name, node, body, public);
        if let Some(rc) = routes::class(node, self.src) {
            self.route_classes.insert(idx, rc);
        }
        // Heritage: `extends` (a class's superclass; an interface's `extends` list) and
        // `implements`.
        let mut c = node.walk();
        for part in node.children(&mut c) {
            let heritage = match part.kind() {
                "superclass" | "extends_interfaces" => HeritageKind::Extends,
                "super_interfaces" => HeritageKind::Implements,
                _ => continue,
            };
            let mut types = Vec::new();
            collect_types(part, &mut types);
            for t in types {
                let target = generic_type_text(self.text(t));
                if !target.is_empty() {
                    self.facts.heritage.push(Heritage { symbol: idx, kind: heritage, target });
                }
            }
        }
        self.push_scope(node, Some(idx));
        // A record's components are its fields (the accessors `r.x()` name them).
        if k == ids.record_declaration
            && let Some(params) = node.child_by_field_id(ids.parameters)
        {
            let mut c = params.walk();
            let comps: Vec<Node<'_>> = params.named_children(&mut c).collect();
            for p in comps {
                if p.kind() != "formal_parameter" {
                    continue;
                }
                if let Some(n) = p.child_by_field_id(ids.name) {
                    self.push_symbol(NodeKind::Property, self.text(n), p, None, public);
                }
            }
        }
    }

    fn method(&mut self, node: Node<'_>) {
        let ids = ids();
        let k = node.kind_id();
        let is_ctor = k == ids.constructor_declaration || k == ids.compact_constructor_declaration;
        let name = if is_ctor {
            "constructor"
        } else {
            node.child_by_field_id(ids.name).map_or("", |n| self.text(n))
        };
        let mods = modifiers(node, self.src);
        let public = has_word(mods, "public") || has_word(mods, "protected") || self.in_interface();
        let body = node.child_by_field_id(ids.body);
        let class = self.enclosing();
        let anon = self.scopes.last().and_then(|s| s.anon.clone());
        let idx = self.push_symbol(NodeKind::Method, name, node, body, public);
        if let Some(t) = anon {
            // A method of an anonymous class: its `this` is an instance of the supertype.
            self.hint(Some(idx), "this", HintSource::Annotation(t), start_line(node));
        }
        if let Some(c) = class
            && let Some(rc) = self.route_classes.get(&c)
        {
            let (endpoints, clients) = (&mut self.facts.endpoints, &mut self.facts.client_calls);
            routes::method(rc, c, node, idx, self.src, endpoints, clients);
        }
        if !is_ctor && routes::TOOL_ANNOTATIONS.iter().any(|p| self.imports_from(p)) {
            routes::tool_method(node, idx, class, name, self.src, &mut self.facts.endpoints);
        }
        if !is_ctor && let Some(t) = node.child_by_field_id(ids.r#type) {
            let mut ty = generic_type_text(self.text(t));
            // `int f()[]`: dimensions after the parameters.
            if let Some(d) = node.child_by_field_id(ids.dimensions) {
                ty.push_str(&type_text(self.text(d)));
            }
            if ty != "void" {
                self.hint(Some(idx), "", HintSource::Return(ty), start_line(node));
            }
        }
        self.push_scope(node, Some(idx));
    }

    fn field(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(t) = node.child_by_field_id(ids.r#type) else { return };
        let ty = generic_type_text(self.text(t));
        let mods = modifiers(node, self.src);
        let interface = self.in_interface();
        let constant = interface || (has_word(mods, "static") && has_word(mods, "final"));
        let public = has_word(mods, "public") || has_word(mods, "protected") || interface;
        let class = self.enclosing();
        let declarators = variable_declarators(node);
        for (i, d) in declarators.iter().enumerate() {
            let Some(name) = d.child_by_field_id(ids.name) else { continue };
            let name = self.text(name);
            let mut ty = ty.clone();
            if let Some(dims) = d.child_by_field_id(ids.dimensions) {
                ty.push_str(&type_text(self.text(dims)));
            }
            let kind = if constant { NodeKind::Constant } else { NodeKind::Property };
            // The first declarator's symbol spans the declaration (its modifiers and doc).
            let at = if i == 0 { node } else { *d };
            let idx = self.push_symbol(kind, name, at, None, public);
            self.hint(class, name, HintSource::Annotation(ty), start_line(*d));
            // Calls in the initializer belong to the field.
            self.declarators.push((d.id(), idx));
        }
    }

    /// Locals: `T x = v, y;` and `var x = v;`.
    fn locals(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(t) = node.child_by_field_id(ids.r#type) else { return };
        let ty = generic_type_text(self.text(t));
        let scope = self.enclosing();
        let declarators = variable_declarators(node);
        for d in declarators {
            let Some(name) = d.child_by_field_id(ids.name) else { continue };
            let source = if ty == "var" {
                match d.child_by_field_id(ids.value) {
                    Some(v) => self.value_source(v),
                    None => HintSource::Value(Receiver::Other),
                }
            } else {
                let mut ty = ty.clone();
                if let Some(dims) = d.child_by_field_id(ids.dimensions) {
                    ty.push_str(&type_text(self.text(dims)));
                }
                HintSource::Annotation(ty)
            };
            self.hint(scope, self.text(name), source, start_line(d));
        }
    }

    /// What `var x = v` holds.
    fn value_source(&self, v: Node<'_>) -> HintSource {
        match self.receiver(v, 0) {
            Receiver::Path(p) if p.len() == 2 && p[0] == "new" => {
                if v.kind() == "object_creation_expression" {
                    HintSource::Construct(p[1].to_string())
                } else {
                    HintSource::Annotation(p[1].to_string())
                }
            }
            Receiver::CallResult(c) => HintSource::CallResult(*c),
            r @ Receiver::Path(_) => HintSource::Value(r),
            _ => HintSource::Value(Receiver::Other),
        }
    }

    fn parameter(&mut self, node: Node<'_>) {
        let ids = ids();
        let scope = self.enclosing();
        if node.kind_id() == ids.spread_parameter {
            // `T... xs`: the type is the first named child, the name in a declarator.
            let mut c = node.walk();
            let kids: Vec<Node<'_>> = node.named_children(&mut c).collect();
            let ty =
                kids.iter().find(|n| n.kind() != "modifiers" && n.kind() != "variable_declarator");
            let name = kids
                .iter()
                .find(|n| n.kind() == "variable_declarator")
                .and_then(|d| d.child_by_field_id(ids.name));
            if let (Some(t), Some(n)) = (ty, name) {
                let ty = format!("{}[]", generic_type_text(self.text(*t)));
                self.hint(scope, self.text(n), HintSource::Annotation(ty), start_line(n));
            }
            return;
        }
        let (Some(t), Some(n)) =
            (node.child_by_field_id(ids.r#type), node.child_by_field_id(ids.name))
        else {
            return;
        };
        let mut ty = generic_type_text(self.text(t));
        if let Some(d) = node.child_by_field_id(ids.dimensions) {
            ty.push_str(&type_text(self.text(d)));
        }
        // A record's components are hints of the record (the scope is the record).
        self.hint(scope, self.text(n), HintSource::Annotation(ty), start_line(n));
    }

    /// For-each, catch and resource variables.
    fn declared_variable(&mut self, node: Node<'_>) {
        let ids = ids();
        let scope = self.enclosing();
        let Some(name) = node.child_by_field_id(ids.name) else { return };
        let ty = if node.kind() == "catch_formal_parameter" {
            let mut c = node.walk();
            let ct = node.named_children(&mut c).find(|n| n.kind() == "catch_type");
            let first = ct.and_then(|ct| ct.named_child(0));
            first.map(|f| generic_type_text(self.text(f)))
        } else {
            node.child_by_field_id(ids.r#type).map(|t| generic_type_text(self.text(t)))
        };
        let Some(ty) = ty else { return };
        let source = if ty == "var" {
            match node.child_by_field_id(ids.value) {
                Some(v) if node.kind() == "enhanced_for_statement" => match self.receiver(v, 0) {
                    Receiver::Path(mut p) => {
                        p.push("[]".into());
                        HintSource::Value(Receiver::Path(p))
                    }
                    // An element of a call's result: `[]` called on it.
                    r @ Receiver::CallResult(_) => {
                        HintSource::CallResult(Callee { receiver: r, name: "[]".into() })
                    }
                    _ => HintSource::Value(Receiver::Other),
                },
                Some(v) => self.value_source(v),
                None => HintSource::Value(Receiver::Other),
            }
        } else {
            HintSource::Annotation(ty)
        };
        self.hint(scope, self.text(name), source, start_line(name));
    }

    /// A call site at `at` (its name) of the call expression `call`.
    /// The receiver of the call a one-parameter lambda is the first argument of, when that
    /// method hands the lambda the receiver's elements.
    fn lambda_element(&self, lambda: Node<'_>) -> Option<Receiver> {
        let args = lambda.parent().filter(|a| a.kind() == "argument_list")?;
        let call = args.parent().filter(|c| c.kind_id() == ids().method_invocation)?;
        let mut c = args.walk();
        let first = args.named_children(&mut c).find(|n| !n.kind().ends_with("comment"))?;
        if first.id() != lambda.id() {
            return None;
        }
        let name = call.child_by_field_id(ids().name).map(|n| self.text(n))?;
        if !ELEMENT_CONSUMERS.contains(&name) {
            return None;
        }
        match self.receiver(call.child_by_field_id(ids().object)?, 0) {
            r @ (Receiver::Path(_) | Receiver::CallResult(_)) => Some(r),
            _ => None,
        }
    }

    fn call(&mut self, callee: Callee, kind: CallKind, at: Node<'_>, call: Node<'_>) {
        let args = call.child_by_field_id(ids().arguments).map_or(0, |a| {
            let mut c = a.walk();
            a.named_children(&mut c).filter(|n| !n.kind().ends_with("comment")).count()
        });
        self.call_args.push(to_u32(args));
        self.facts.calls.push(CallSite {
            callee,
            kind,
            line: start_line(at),
            col: start_col(at),
            enclosing: self.enclosing(),
            local: false,
        });
    }

    /// The callee of a method invocation.
    fn invocation(&self, node: Node<'_>, depth: u32) -> Callee {
        let ids = ids();
        let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n)).to_string();
        let receiver = match node.child_by_field_id(ids.object) {
            None => Receiver::None,
            Some(o) if o.kind() == "super" => Receiver::Super,
            Some(o) => self.receiver(o, depth + 1),
        };
        Callee { receiver, name: name.into() }
    }

    /// An expression as a receiver.
    fn receiver(&self, n: Node<'_>, depth: u32) -> Receiver {
        if depth > MAX_CHAIN {
            return Receiver::Other;
        }
        match n.kind() {
            "identifier" => Receiver::Path(vec![self.text(n).into()]),
            "this" => Receiver::This,
            "super" => Receiver::Super,
            "field_access" => self.path(n, depth).map_or(Receiver::Other, Receiver::path),
            "method_invocation" => Receiver::CallResult(Box::new(self.invocation(n, depth))),
            "object_creation_expression" | "cast_expression" => {
                n.child_by_field_id(ids().r#type).map_or(Receiver::Other, |t| {
                    Receiver::Path(vec!["new".into(), type_text(self.text(t)).into()])
                })
            }
            "parenthesized_expression" => {
                n.named_child(0).map_or(Receiver::Other, |e| self.receiver(e, depth + 1))
            }
            // `(t = e).m()` is a call on what was assigned; `(c ? a : b).m()` on either side
            // (the first: both have the expression's type).
            "assignment_expression" => n
                .child_by_field_id(ids().right)
                .map_or(Receiver::Other, |e| self.receiver(e, depth + 1)),
            "ternary_expression" => n
                .child_by_field_name("consequence")
                .map_or(Receiver::Other, |e| self.receiver(e, depth + 1)),
            "string_literal" => Receiver::Path(vec!["new".into(), "String".into()]),
            "class_literal" => Receiver::Path(vec!["new".into(), "Class".into()]),
            "array_access" => {
                match n.child_by_field_id(ids().array).map(|a| self.receiver(a, depth + 1)) {
                    Some(Receiver::Path(mut p)) if p.first().is_none_or(|f| f != "new") => {
                        p.push("[]".into());
                        Receiver::Path(p)
                    }
                    _ => Receiver::Other,
                }
            }
            _ => Receiver::Other,
        }
    }

    /// A name chain: `a`, `a.b.c`, `this.a`.
    fn path(&self, n: Node<'_>, depth: u32) -> Option<Vec<String>> {
        if depth > MAX_CHAIN {
            return None;
        }
        match n.kind() {
            "identifier" => Some(vec![self.text(n).to_string()]),
            "this" => Some(vec!["this".to_string()]),
            "field_access" => {
                let ids = ids();
                let mut p = self.path(n.child_by_field_id(ids.object)?, depth + 1)?;
                let field = n.child_by_field_id(ids.field)?;
                if !matches!(field.kind(), "identifier" | "this") {
                    return None;
                }
                p.push(self.text(field).to_string());
                Some(p)
            }
            _ => None,
        }
    }

    fn method_reference(&mut self, node: Node<'_>) {
        let Some(target) = node.named_child(0) else { return };
        let mut c = node.walk();
        let last = node.children(&mut c).last();
        let name = match last {
            Some(l) if l.kind() == "new" => "new".to_string(),
            Some(l) if l.kind() == "identifier" => self.text(l).to_string(),
            _ => return,
        };
        let receiver = match target.kind() {
            "this" => Receiver::This,
            "super" => Receiver::Super,
            "identifier" | "field_access" => self.receiver(target, 0),
            "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                Receiver::path(type_text(self.text(target)).split('.'))
            }
            _ => self.receiver(target, 0),
        };
        let at = last.unwrap_or(node);
        self.facts.value_refs.push(CallSite {
            callee: Callee { receiver, name: name.into() },
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing: self.enclosing(),
            local: false,
        });
    }

    fn access(&mut self, node: Node<'_>) {
        let ids = ids();
        // The name of a call is no access (`a.b()` is a method invocation, not a field access).
        let (Some(object), Some(field)) =
            (node.child_by_field_id(ids.object), node.child_by_field_id(ids.field))
        else {
            return;
        };
        if field.kind() != "identifier" {
            return;
        }
        let receiver = match object.kind() {
            "super" => Receiver::Super,
            _ => self.receiver(object, 0),
        };
        let write = node.parent().is_some_and(|p| {
            p.kind_id() == ids.assignment_expression
                && p.child_by_field_id(ids.left).is_some_and(|l| l.id() == node.id())
        });
        self.facts.accesses.push(FieldAccess {
            receiver,
            name: self.text(field).into(),
            line: start_line(field),
            enclosing: self.enclosing(),
            write,
        });
    }
}

/// The declarators of a field or local declaration (`int a = 1, b;`).
fn variable_declarators(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut c = decl.walk();
    decl.named_children(&mut c).filter(|n| n.kind() == "variable_declarator").collect()
}

/// `a.b.C` as a callee: `{ Path(["a", "b"]), "C" }`.
fn type_callee(ty: &str) -> Callee {
    match ty.rsplit_once('.') {
        Some((q, name)) => Callee { receiver: Receiver::path(q.split('.')), name: name.into() },
        None => Callee { receiver: Receiver::None, name: ty.into() },
    }
}

/// The type nodes of a heritage clause (`extends A`, `implements B, C`).
fn collect_types<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut c = node.walk();
    for n in node.named_children(&mut c) {
        match n.kind() {
            "type_list" => collect_types(n, out),
            "type_identifier" | "scoped_type_identifier" | "generic_type" => out.push(n),
            _ => {}
        }
    }
}
