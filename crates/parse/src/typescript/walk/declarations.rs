//! Declarations: functions, classes, methods, fields, type declarations, namespaces, variables and
//! test blocks.

use super::*;

impl<'s, 't> Walker<'s, 't> {
    /// Pushes a function or class declaration (an anonymous `export default` one is named
    /// `default`) with its signature, doc and export context.
    pub(super) fn push_declaration(
        &mut self,
        node: Node<'t>,
        pi: Option<usize>,
        kind: NodeKind,
    ) -> SymbolIdx {
        let name = node
            .child_by_field_name("name")
            .map_or_else(|| "default".to_string(), |n| text(n, self.src).to_string());
        let (anchor, export) = self.decl_context(node, pi);
        let parent = self.scope();
        let body = node.child_by_field_name("body");
        let mut doc = self.doc(anchor);
        if doc.is_none() && kind == NodeKind::Function {
            // An implementation inherits the doc of its first overload signature.
            doc = self.overload_doc(anchor);
        }
        self.push_symbol(NewSym {
            kind,
            name,
            qualified: None,
            node,
            parent,
            signature: self.sig(node, body),
            doc,
            export,
        })
    }

    pub(super) fn open_function(&mut self, node: Node<'t>, pi: Option<usize>) {
        let sym = self.push_declaration(node, pi, NodeKind::Function);
        self.push_frame(node, true, Some(sym), None);
        self.return_hint(node, sym);
        self.flush_signature_refs();
    }

    /// The doc comment of the first overload signature right above an implementation.
    pub(super) fn overload_doc(&self, anchor: Node<'t>) -> Option<String> {
        let mut first = None;
        let mut prev = anchor.prev_named_sibling();
        while let Some(p) = prev {
            let mut inner = p;
            while let Some(n) = match inner.kind() {
                "export_statement" => inner.child_by_field_name("declaration"),
                "ambient_declaration" => first_named(inner),
                _ => None,
            } {
                inner = n;
            }
            if !matches!(
                inner.kind(),
                "function_signature" | "method_signature" | "comment" | "decorator"
            ) {
                break;
            }
            if inner.kind() != "comment" {
                first = Some(p);
            }
            prev = p.prev_named_sibling();
        }
        self.doc(first?)
    }

    pub(super) fn open_class(&mut self, node: Node<'t>, pi: Option<usize>) {
        let sym = self.push_declaration(node, pi, NodeKind::Class);
        self.push_frame(node, false, Some(sym), None);
        self.class_heritage(node, sym);
    }

    pub(super) fn class_heritage(&mut self, class: Node<'t>, sym: SymbolIdx) {
        let mut cursor = class.walk();
        let Some(h) = class.named_children(&mut cursor).find(|c| c.kind() == "class_heritage")
        else {
            return;
        };
        let mut hc = h.walk();
        for clause in h.named_children(&mut hc) {
            match clause.kind() {
                "extends_clause" | "implements_clause" => {
                    let kind = if clause.kind() == "extends_clause" {
                        HeritageKind::Extends
                    } else {
                        HeritageKind::Implements
                    };
                    let mut cc = clause.walk();
                    for t in clause.named_children(&mut cc) {
                        if matches!(t.kind(), "type_arguments" | "comment") {
                            continue;
                        }
                        // `extends Base<A, B>`: the arguments follow the value.
                        let args = t.next_named_sibling().filter(|a| a.kind() == "type_arguments");
                        self.heritage_with(sym, kind, t, args);
                    }
                }
                "comment" => {}
                // JavaScript: the superclass expression sits directly in the heritage.
                _ => self.heritage(sym, HeritageKind::Extends, clause),
            }
        }
    }

    pub(super) fn heritage(&mut self, sym: SymbolIdx, kind: HeritageKind, target: Node<'t>) {
        // `implements I<A>`, `interface X extends Y<A>`: a generic type holds its arguments.
        let args = (target.kind() == "generic_type")
            .then(|| target.child_by_field_name("type_arguments"))
            .flatten();
        self.heritage_with(sym, kind, target, args);
    }

    fn heritage_with(
        &mut self,
        sym: SymbolIdx,
        kind: HeritageKind,
        target: Node<'t>,
        args: Option<Node<'t>>,
    ) {
        let Some(target) = heritage_target(target, self.src) else { return };
        if let Some(args) = args {
            let named = arg_names(args, self.src);
            if !named.is_empty() {
                self.ts.heritage_args.push((to_u32(self.facts.heritage.len()), named));
            }
        }
        self.facts.heritage.push(Heritage { symbol: sym, kind, target });
    }

    pub(super) fn open_fn_expr(&mut self, node: Node<'t>, pi: Option<usize>) {
        let is_class = node.kind() == "class";
        let parent = self.anc_at(pi);
        let is_field = |field: &str| {
            parent.and_then(|p| p.child_by_field_name(field)).is_some_and(|v| v.id() == node.id())
        };
        let naming = match parent.map_or("", |p| p.kind()) {
            "variable_declarator" | "pair" | "public_field_definition" | "field_definition"
                if is_field("value") =>
            {
                Naming::Transparent { namer: true }
            }
            "assignment_expression" if is_field("right") => match parent
                .and_then(|p| p.child_by_field_name("left"))
                .filter(|l| l.byte_range().len() <= MAX_ASSIGN_TARGET)
            {
                Some(lhs) => Naming::Assign(lhs),
                None => Naming::Transparent { namer: false },
            },
            "export_statement" if node.kind() != "arrow_function" => Naming::Default,
            _ => match node.child_by_field_name("name") {
                Some(n) if node.kind() != "arrow_function" => {
                    Naming::Own(text(n, self.src).to_string())
                }
                _ => Naming::Transparent { namer: false },
            },
        };
        let kind_for = |method: bool| {
            if is_class {
                NodeKind::Class
            } else if method {
                NodeKind::Method
            } else {
                NodeKind::Function
            }
        };
        let body = node.child_by_field_name("body");
        let sym = match naming {
            Naming::Transparent { namer } => {
                // The declarator / property / field that names this expression holds the symbol.
                let named_sym = if namer { self.scope() } else { None };
                self.push_frame(node, !is_class, None, None);
                if let Some(s) = named_sym {
                    if is_class {
                        self.class_heritage(node, s);
                    } else {
                        self.return_hint(node, s);
                    }
                }
                return;
            }
            Naming::Own(name) => {
                let parent = self.scope();
                self.push_symbol(NewSym {
                    kind: kind_for(false),
                    name,
                    qualified: None,
                    node,
                    parent,
                    signature: self.sig(node, body),
                    doc: None,
                    export: Export::No,
                })
            }
            Naming::Default => {
                let (anchor, _) = self.decl_context(node, pi);
                let parent = self.scope();
                self.push_symbol(NewSym {
                    kind: kind_for(false),
                    name: "default".to_string(),
                    qualified: None,
                    node,
                    parent,
                    signature: self.sig(node, body),
                    doc: self.doc(anchor),
                    export: Export::Yes,
                })
            }
            Naming::Assign(lhs) => {
                let Some(sym) = self.assigned(node, lhs, pi, is_class, body) else {
                    return;
                };
                sym
            }
        };
        self.push_frame(node, !is_class, Some(sym), None);
        if is_class {
            self.class_heritage(node, sym);
        } else {
            self.return_hint(node, sym);
        }
    }

    /// The symbol of `lhs = function / class`: named by the oracle's `assignmentName`, reusing
    /// an existing symbol of the same qualified name (`let f; f = () => {}`), hung under `X`
    /// for `X.prototype.m` / `X.m` when `X` is a symbol of this file.
    pub(super) fn assigned(
        &mut self,
        node: Node<'t>,
        lhs: Node<'t>,
        pi: Option<usize>,
        is_class: bool,
        body: Option<Node<'t>>,
    ) -> Option<SymbolIdx> {
        let lhs_text = text(lhs, self.src);
        let aname = assignment_name(lhs_text);
        let is_exports = {
            let d = dotted(lhs_text);
            d.starts_with("exports.") || d.starts_with("module.exports")
        };
        let scope = self.scope();
        let prefix = scope.map(|s| self.qualified(s).to_string());
        let join = |p: &Option<String>, s: &str| match p {
            Some(p) => format!("{p}.{s}"),
            None => s.to_string(),
        };
        let full = join(&prefix, &aname);
        if let Some(&existing) = self.qmap.get(&full) {
            self.push_frame(node, !is_class, Some(existing), None);
            return None;
        }
        let (parent, short) = match aname.rsplit_once('.') {
            Some((head, last)) => {
                (self.qmap.get(&join(&prefix, head)).copied().or(scope), last.to_string())
            }
            None => (scope, aname.clone()),
        };
        let kind = if is_class {
            NodeKind::Class
        } else if is_exports || lhs.kind() == "identifier" {
            NodeKind::Function
        } else {
            NodeKind::Method
        };
        // Doc and signature start at the statement holding the assignment.
        let stmt = self
            .anc_at(pi.and_then(|i| i.checked_sub(1)))
            .filter(|s| s.kind() == "expression_statement");
        let start = stmt.map_or(lhs.start_byte(), |s| s.start_byte());
        let signature = self.sig_span(start, body.map_or(node.end_byte(), |b| b.start_byte()));
        let doc = stmt.and_then(|s| self.doc(s));
        Some(self.push_symbol(NewSym {
            kind,
            name: short,
            qualified: Some(full),
            node,
            parent,
            signature,
            doc,
            export: if is_exports { Export::Yes } else { Export::No },
        }))
    }

    pub(super) fn is_private(&self, node: Node<'t>, name: Node<'t>) -> bool {
        if name.kind() == "private_property_identifier" {
            return true;
        }
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .any(|c| c.kind() == "accessibility_modifier" && text(c, self.src) == "private")
    }

    /// Doc anchor of a class member: the first decorator of the run right above it (TS puts
    /// member decorators beside the member in the class body).
    pub(super) fn member_anchor(&self, node: Node<'t>, in_class: bool) -> Node<'t> {
        let mut anchor = node;
        if in_class {
            while let Some(p) = anchor.prev_named_sibling() {
                if p.kind() != "decorator" {
                    break;
                }
                anchor = p;
            }
        }
        anchor
    }

    /// Export rule for members of object literals: exported with `export default {}` /
    /// `module.exports = {}`, else when the parent symbol is.
    pub(super) fn object_member_export(&self, pi: Option<usize>) -> Export {
        if self.anc_kind(pi) != "object" {
            return Export::Parent;
        }
        let Some(outer) = self.anc_at(pi.and_then(|i| i.checked_sub(1))) else {
            return Export::Parent;
        };
        match outer.kind() {
            "export_statement" => Export::Yes,
            "assignment_expression" => {
                let lhs = outer
                    .child_by_field_name("left")
                    .map_or(String::new(), |l| dotted(text(l, self.src)));
                if lhs.starts_with("module.exports") || lhs.starts_with("exports.") {
                    Export::Yes
                } else {
                    Export::Parent
                }
            }
            _ => Export::Parent,
        }
    }

    pub(super) fn open_method(&mut self, node: Node<'t>, pi: Option<usize>, has_body: bool) {
        let name_node = node.child_by_field_name("name");
        let name = match name_node {
            Some(n) => prop_name(n, self.src),
            None if node.kind() == "construct_signature" => "constructor".to_string(),
            None => return,
        };
        let in_class = self.anc_kind(pi) == "class_body";
        let export = if name_node.is_some_and(|n| self.is_private(node, n)) {
            Export::No
        } else if in_class || self.anc_kind(pi) != "object" {
            Export::Parent
        } else {
            self.object_member_export(pi)
        };
        let parent = self.scope();
        let body = node.child_by_field_name("body");
        let anchor = self.member_anchor(node, in_class);
        let doc = self
            .doc(anchor)
            .or_else(|| if in_class && has_body { self.overload_doc(anchor) } else { None });
        let sym = self.push_symbol(NewSym {
            kind: NodeKind::Method,
            name,
            qualified: None,
            node,
            parent,
            signature: self.sig(node, body),
            doc,
            export,
        });
        self.push_frame(node, has_body, Some(sym), None);
        self.return_hint(node, sym);
        self.flush_signature_refs();
    }

    pub(super) fn open_field(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(name_node) =
            node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"))
        else {
            return;
        };
        let name = prop_name(name_node, self.src);
        let value = node.child_by_field_name("value");
        let is_fn = value.is_some_and(|v| is_function_expr(unwrap_expr(v).kind()));
        let export = if self.is_private(node, name_node) { Export::No } else { Export::Parent };
        let class = self.scope();
        let anchor = self.member_anchor(node, self.anc_kind(pi) == "class_body");
        let signature = match value.map(unwrap_expr) {
            Some(v) if is_fn => self.sig_span(
                sig_start(node),
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte()),
            ),
            _ => self.sig(node, None),
        };
        let sym = self.push_symbol(NewSym {
            kind: if is_fn { NodeKind::Method } else { NodeKind::Property },
            name: name.clone(),
            qualified: None,
            node,
            parent: class,
            signature,
            doc: self.doc(anchor),
            export,
        });
        // The written type, else a constructed value (`store = new Store()`).
        let source = match node.child_by_field_name("type") {
            Some(t) => type_name(t, self.src).map(HintSource::Annotation),
            None => value
                .and_then(|v| self.value_hint(v))
                .filter(|h| matches!(h, HintSource::Construct(_))),
        };
        if let Some(source) = source {
            self.facts.type_hints.push(TypeHint {
                scope: class,
                name: name.into(),
                source,
                line: start_line(node),
                visible: None,
            });
        }
        self.push_frame(node, false, Some(sym), None);
    }

    /// Interface / type-literal property signatures, enum members with an initializer.
    pub(super) fn open_member(&mut self, node: Node<'t>, kind: NodeKind, frame: bool) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let parent = self.scope();
        let name = prop_name(name_node, self.src);
        let sym = self.push_symbol(NewSym {
            kind,
            name: name.clone(),
            qualified: None,
            node,
            parent,
            signature: util::signature(node, None, self.src),
            doc: self.doc(node),
            export: Export::Parent,
        });
        // A property signature's written type, as a class field's (`memo?: Memo`): what
        // `config.memo.guard()` reads through an interface-typed receiver.
        if node.kind() == "property_signature"
            && let Some(ty) = node.child_by_field_name("type").and_then(|t| type_name(t, self.src))
        {
            self.facts.type_hints.push(TypeHint {
                scope: parent,
                name: name.into(),
                source: HintSource::Annotation(ty),
                line: start_line(node),
                visible: None,
            });
        }
        if frame || kind == NodeKind::Property {
            self.push_frame(node, false, Some(sym), None);
        }
    }

    pub(super) fn enum_bare_member(&mut self, node: Node<'t>) {
        let parent = self.scope();
        self.push_symbol(NewSym {
            kind: NodeKind::Property,
            name: prop_name(node, self.src),
            qualified: None,
            node,
            parent,
            signature: util::signature(node, None, self.src),
            doc: self.doc(node),
            export: Export::Parent,
        });
    }

    pub(super) fn open_type_decl(&mut self, node: Node<'t>, pi: Option<usize>, kind: NodeKind) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let (anchor, export) = self.decl_context(node, pi);
        let parent = self.scope();
        let body = match kind {
            NodeKind::TypeAlias => None,
            _ => node.child_by_field_name("body"),
        };
        let signature = match kind {
            NodeKind::TypeAlias => self.sig_span(
                node.start_byte(),
                node.child_by_field_name("value")
                    .filter(|v| v.kind() == "object_type")
                    .map_or(node.end_byte(), |v| v.start_byte()),
            ),
            _ => self.sig(node, body),
        };
        let sym = self.push_symbol(NewSym {
            kind,
            name: text(name_node, self.src).to_string(),
            qualified: None,
            node,
            parent,
            signature,
            doc: self.doc(anchor),
            export,
        });
        self.push_frame(node, false, Some(sym), None);
        if kind == NodeKind::TypeAlias
            && let Some(ty) = node.child_by_field_name("value").and_then(|v| type_name(v, self.src))
        {
            self.ts.aliases.push((sym, ty));
        }
        if kind == NodeKind::Interface {
            let mut cursor = node.walk();
            let clauses: Vec<Node<'t>> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "extends_type_clause")
                .collect();
            for clause in clauses {
                let mut cc = clause.walk();
                for t in clause.named_children(&mut cc) {
                    self.heritage(sym, HeritageKind::Extends, t);
                }
            }
        }
    }

    /// `namespace A.B {}`, `module M {}`, `declare module 'x' {}`, `declare global {}`: one
    /// Variable symbol per name segment (a namespace is a runtime object, and NodeKind has no
    /// namespace kind), each a named container as in the oracle (`A.B.f`).
    pub(super) fn open_namespace(&mut self, node: Node<'t>, pi: Option<usize>) {
        let names: Vec<String> = match node.child_by_field_name("name") {
            Some(n) if n.kind() == "string" => vec![string_content(n, self.src).to_string()],
            Some(n) => dotted(text(n, self.src))
                .split('.')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            None if node.kind() == "ambient_declaration" => vec!["global".to_string()],
            None => return,
        };
        let (anchor, mut export) = self.decl_context(node, pi);
        let declare =
            self.anc_kind(pi) == "ambient_declaration" || node.kind() == "ambient_declaration";
        let body = node.child_by_field_name("body").or_else(|| {
            let mut cursor = node.walk();
            node.named_children(&mut cursor).find(|c| c.kind() == "statement_block")
        });
        let signature = self.sig(node, body);
        let doc = self.doc(anchor);
        for name in names {
            let parent = self.scope();
            let sym = self.push_symbol(NewSym {
                kind: NodeKind::Variable,
                name,
                qualified: None,
                node,
                parent,
                signature: signature.clone(),
                doc: doc.clone(),
                export,
            });
            self.push_frame_full(node, false, true, Some(sym), None, true, declare);
            export = Export::Parent;
        }
    }

    pub(super) fn open_declarator(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let value = node.child_by_field_name("value");
        let init = value.map(unwrap_expr);
        let init_kind = init.map_or("", |v| v.kind());
        let is_fn = is_function_expr(init_kind);
        let is_class = init_kind == "class";
        let decl = self.anc_at(pi);
        let in_for = matches!(
            self.anc_kind(pi.and_then(|i| i.checked_sub(1))),
            "for_statement" | "for_in_statement"
        );
        let module_level = self.func_depth == 0 && !in_for;
        let scope = self.scope();
        if name_node.kind() != "identifier" {
            if module_level {
                self.destructured(node, name_node, decl, pi, scope);
            }
            if let Some(v) = value {
                self.destructure_hints(name_node, v, scope);
            }
            return;
        }
        let name = text(name_node, self.src).to_string();
        self.variable_hint(node, &name, value, scope);
        if !(module_level || is_fn || is_class) {
            return;
        }
        let kind = if is_fn {
            NodeKind::Function
        } else if is_class {
            NodeKind::Class
        } else if decl.is_some_and(|d| {
            d.kind() == "lexical_declaration"
                && d.child_by_field_name("kind").is_some_and(|k| text(k, self.src) == "const")
        }) {
            NodeKind::Constant
        } else {
            NodeKind::Variable
        };
        let (anchor, export) = self.decl_context(node, pi);
        let start = decl.map_or(node.start_byte(), |d| d.start_byte());
        let end = match init {
            Some(v) if is_fn => {
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte())
            }
            Some(v) if is_class => {
                v.child_by_field_name("body").map_or(v.end_byte(), |b| b.start_byte())
            }
            // A data literal says nothing a signature should repeat.
            Some(v) if matches!(v.kind(), "object" | "array") => v.start_byte(),
            _ => node.end_byte(),
        };
        let signature = self.sig_span(start, end);
        let sym = self.push_symbol(NewSym {
            kind,
            name,
            qualified: None,
            node,
            parent: scope,
            signature,
            doc: self.doc(anchor),
            export,
        });
        // `const p: Provider = { ... }`: the literal's members are the annotated type's, as a
        // class's are the interface's it implements (a rename of one is a rename of both).
        if init.is_some_and(|v| v.kind() == "object")
            && let Some(annotated) = node.child_by_field_name("type").and_then(|t| t.named_child(0))
        {
            self.heritage(sym, HeritageKind::Implements, annotated);
        }
        self.push_frame(node, false, Some(sym), None);
    }

    /// Module-level `const { a, b: [c] } = ...`: one symbol per bound name (no container: the
    /// oracle gives destructuring declarations no name).
    pub(super) fn destructured(
        &mut self,
        node: Node<'t>,
        pattern: Node<'t>,
        decl: Option<Node<'t>>,
        pi: Option<usize>,
        scope: Option<SymbolIdx>,
    ) {
        let kind = if decl.is_some_and(|d| {
            d.kind() == "lexical_declaration"
                && d.child_by_field_name("kind").is_some_and(|k| text(k, self.src) == "const")
        }) {
            NodeKind::Constant
        } else {
            NodeKind::Variable
        };
        let (anchor, export) = self.decl_context(node, pi);
        let doc = self.doc(anchor);
        let signature =
            self.sig_span(decl.map_or(node.start_byte(), |d| d.start_byte()), node.end_byte());
        for id in bound_names(pattern) {
            self.push_symbol(NewSym {
                kind,
                name: text(id, self.src).to_string(),
                qualified: None,
                node,
                parent: scope,
                signature: signature.clone(),
                doc: doc.clone(),
                export,
            });
        }
    }

    pub(super) fn variable_hint(
        &mut self,
        node: Node<'t>,
        name: &str,
        value: Option<Node<'t>>,
        scope: Option<SymbolIdx>,
    ) {
        let written = node.child_by_field_name("type");
        let source = if let Some(t) = written {
            type_name(t, self.src).map(HintSource::Annotation)
        } else {
            value.and_then(|v| self.value_hint(v))
        };
        if let Some(source) = source {
            if let Some(args) = written.and_then(|t| type_args(t, self.src)) {
                self.ts.hint_args.push((to_u32(self.facts.type_hints.len()), args));
            }
            self.facts.type_hints.push(TypeHint {
                scope,
                name: name.into(),
                source,
                line: start_line(node),
                visible: None,
            });
        }
    }

    /// `const { a, b: c } = this.x`: each name bound straight from a property holds that
    /// property's value (`this.x.a`, `this.x.b`), and the property is read there (an
    /// access); nested patterns are skipped.
    pub(super) fn destructure_hints(
        &mut self,
        pattern: Node<'t>,
        value: Node<'t>,
        scope: Option<SymbolIdx>,
    ) {
        if pattern.kind() != "object_pattern" {
            return;
        }
        let Some(base) = value_path(value, self.src) else { return };
        let mut cursor = pattern.walk();
        let kids: Vec<Node<'t>> = pattern.named_children(&mut cursor).collect();
        for k in kids {
            let (key, local) = match k.kind() {
                "shorthand_property_identifier_pattern" => (text(k, self.src), text(k, self.src)),
                "object_assignment_pattern" => match k.child_by_field_name("left") {
                    Some(l) if l.kind() == "shorthand_property_identifier_pattern" => {
                        (text(l, self.src), text(l, self.src))
                    }
                    _ => continue,
                },
                "pair_pattern" => {
                    let key =
                        k.child_by_field_name("key").filter(|n| n.kind() == "property_identifier");
                    let val = k.child_by_field_name("value").filter(|n| n.kind() == "identifier");
                    match (key, val) {
                        (Some(key), Some(val)) => (text(key, self.src), text(val, self.src)),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            // The property is read where it is destructured.
            let receiver = if base == ["this"] {
                Receiver::This
            } else {
                Receiver::path(base.iter().map(String::as_str))
            };
            self.facts.accesses.push(FieldAccess {
                receiver,
                name: key.into(),
                line: start_line(k),
                enclosing: self.existing_scope(),
                write: false,
            });
            let mut path = base.clone();
            path.push(key.to_string());
            self.facts.type_hints.push(TypeHint {
                scope,
                name: local.into(),
                source: HintSource::Value(Receiver::path(path)),
                line: start_line(k),
                visible: None,
            });
        }
    }

    /// `for (const x of a.b)`: `x` holds an element of `a.b`, whose hint type is its element
    /// type already (type names are stripped of `[]`). `for await` and `for ... in` are skipped.
    pub(super) fn for_of(&mut self, node: Node<'t>) {
        let of = node.child_by_field_name("operator").is_some_and(|o| o.kind() == "of");
        if !of || node.child_by_field_name("kind").is_none() || has_token(node, "await") {
            return;
        }
        let (Some(left), Some(right)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return;
        };
        if left.kind() != "identifier" {
            return;
        }
        let Some(path) = value_path(right, self.src) else { return };
        let scope = self.scope();
        self.facts.type_hints.push(TypeHint {
            scope,
            name: text(left, self.src).into(),
            source: HintSource::Value(Receiver::path(path)),
            line: start_line(node),
            visible: None,
        });
    }

    /// `x instanceof C` narrows `x` to `C`; kept flow-insensitively as a hint of the enclosing
    /// function, read after the declared type (the resolver takes the first hint that names a
    /// class or interface).
    pub(super) fn instanceof(&mut self, node: Node<'t>) {
        let is_instanceof =
            node.child_by_field_name("operator").is_some_and(|o| o.kind() == "instanceof");
        if !is_instanceof {
            return;
        }
        let (Some(left), Some(right)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return;
        };
        let left = unwrap_expr(left);
        if left.kind() != "identifier" {
            return;
        }
        let Some(ty) = heritage_target(right, self.src) else { return };
        let scope = self.scope();
        self.facts.type_hints.push(TypeHint {
            scope,
            name: text(left, self.src).into(),
            source: HintSource::Annotation(ty),
            line: start_line(node),
            visible: None,
        });
    }

    /// `new Foo()` -> Construct, `f()` / `a.b()` / `await f()` -> CallResult, `[new Foo()]` ->
    /// Construct (array types read as their element type), `this` / `a.b` -> Value.
    pub(super) fn value_hint(&self, value: Node<'t>) -> Option<HintSource> {
        self.value_hint_in(value, 0)
    }

    fn value_hint_in(&self, value: Node<'t>, depth: u32) -> Option<HintSource> {
        if depth > 8 {
            return None;
        }
        // `x as T` and `<T>x` hold a `T` whatever `x` is; a conditional holds what its first
        // branch with a hint does (a union's first member, as receivers take it).
        let mut w = value;
        while w.kind() == "parenthesized_expression" {
            w = first_named(w)?;
        }
        match w.kind() {
            "as_expression" if w.named_child_count() == 2 => {
                if let Some(t) = w.named_child(1).and_then(|t| type_name(t, self.src)) {
                    return Some(HintSource::Annotation(t));
                }
            }
            "type_assertion" => {
                let t =
                    first_named(w).filter(|a| a.kind() == "type_arguments").and_then(first_named);
                if let Some(t) = t.and_then(|t| type_name(t, self.src)) {
                    return Some(HintSource::Annotation(t));
                }
            }
            "ternary_expression" => {
                let branch = |f: &str| {
                    w.child_by_field_name(f).and_then(|b| self.value_hint_in(b, depth + 1))
                };
                return branch("consequence").or_else(|| branch("alternative"));
            }
            _ => {}
        }
        let mut v = unwrap_expr(value);
        if v.kind() == "await_expression" {
            v = unwrap_expr(first_named(v)?);
        }
        if v.kind() == "array" {
            let first = first_named(v).filter(|e| unwrap_expr(*e).kind() == "new_expression")?;
            return self.value_hint_in(first, depth + 1);
        }
        if let Some(path) = value_path(v, self.src) {
            return Some(HintSource::Value(Receiver::path(path)));
        }
        match v.kind() {
            "new_expression" => {
                let c = v.child_by_field_name("constructor")?;
                heritage_target(c, self.src).map(HintSource::Construct)
            }
            "call_expression" if !is_tagged_template(v) => {
                let f = v.child_by_field_name("function")?;
                if f.kind() == "import" {
                    return None;
                }
                let (callee, _) = callee_of(f, self.src)?;
                if callee.receiver == Receiver::None && callee.name == "require" {
                    return None;
                }
                Some(HintSource::CallResult(callee))
            }
            _ => None,
        }
    }

    pub(super) fn open_pair(&mut self, node: Node<'t>, pi: Option<usize>) {
        let Some(key) = node.child_by_field_name("key") else {
            return;
        };
        let value = node.child_by_field_name("value");
        if is_fn_or_class_value(value) {
            let is_class = value.is_some_and(|v| unwrap_expr(v).kind() == "class");
            let parent = self.scope();
            let end = value
                .map(unwrap_expr)
                .and_then(|v| v.child_by_field_name("body"))
                .map_or(node.end_byte(), |b| b.start_byte());
            let sym = self.push_symbol(NewSym {
                kind: if is_class { NodeKind::Class } else { NodeKind::Method },
                name: prop_name(key, self.src),
                qualified: None,
                node,
                parent,
                signature: self.sig_span(node.start_byte(), end),
                doc: self.doc(node),
                export: self.object_member_export(pi),
            });
            self.push_frame(node, false, Some(sym), None);
        } else if self.func_depth == 0 {
            self.push_frame(node, false, None, Some(node));
        }
    }
}
