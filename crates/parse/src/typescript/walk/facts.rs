//! Facts that open no frame: imports, exports, calls, accesses and references.

use super::*;

impl<'s, 't> Walker<'s, 't> {
    /// Adds the names a binding pattern declares to the function's locals, and when `bind`
    /// (not a signature's parameters) to the scoped bindings a call can name.
    pub(super) fn declare(&mut self, pattern: Node<'t>, bind: bool) {
        let depth = self.frames.len();
        for n in bound_names(pattern) {
            let name = text(n, self.src);
            self.locals.insert(name);
            if bind {
                self.bindings.push(Binding { name, node: n, depth });
            }
        }
    }

    /// The node a binding's signature is taken from: its parameter (with the written type)
    /// or declarator, else the identifier itself.
    fn binding_declaration(&self, ident: Node<'t>) -> Node<'t> {
        let mut n = ident;
        for _ in 0..4 {
            let Some(p) = n.parent() else { break };
            match p.kind() {
                "required_parameter" | "optional_parameter" | "variable_declarator" => return p,
                "formal_parameters" | "statement_block" | "program" => break,
                _ => n = p,
            }
        }
        ident
    }

    /// Whether a bare-name call of `name` calls a binding of an enclosing function; the first
    /// such call of each binding queues its symbol (see `Walker::called`).
    /// Whether a call or construction whose callee expression is `expr` names a parameter or
    /// local binding bare ([`CallSite::local`]), recording it as called.
    fn calls_binding(&mut self, callee: &Callee, expr: Node<'t>) -> bool {
        let expr = unwrap_expr(expr);
        callee.receiver == Receiver::None
            && expr.kind() == "identifier"
            && self.called_binding(text(expr, self.src))
    }

    fn called_binding(&mut self, name: &'s str) -> bool {
        let Some(b) = self.bindings.iter().rev().find(|b| b.name == name).copied() else {
            return false;
        };
        let top = b.depth.checked_sub(1).and_then(|k| {
            let f = self.frames.get(k)?;
            if f.named { Some(k) } else { f.prev_named }
        });
        let parent = self.scope_at(top);
        if self.called_seen.insert((parent, name)) {
            self.called.push(CalledBinding { parent, name: name.to_string(), node: b.node });
        }
        true
    }

    /// A type named in an annotation, a type argument, `as T`, `satisfies T`, a generic
    /// constraint...: REFERS_TO the declared type. Not a declaration's own name, and not a
    /// heritage clause (EXTENDS / IMPLEMENTS).
    pub(super) fn type_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        let Some(parent) = self.anc_at(pi) else { return };
        self.type_ref_in(node, parent);
    }

    /// [`Walker::type_ref`] with the parent given. A generic type's name (`Observable` of
    /// `Observable<T>`) is a reference; a declaration's own name is not.
    fn type_ref_in(&mut self, node: Node<'t>, parent: Node<'t>) {
        if (parent.kind() != "generic_type"
            && parent.child_by_field_name("name").is_some_and(|n| n.id() == node.id()))
            || matches!(
                parent.kind(),
                "implements_clause" | "extends_type_clause" | "type_parameter"
            )
        {
            return;
        }
        let name = text(node, self.src);
        self.push_ref(true, Callee { receiver: Receiver::None, name: name.into() }, node, name);
    }

    /// The types an overload signature names (`function f<T extends A>(x: B): C;` above the
    /// implementation, which alone is a symbol): references of the scope around it, as the
    /// walk does not enter the signature.
    pub(super) fn signature_type_refs(&mut self, sig: Node<'t>) {
        // Held until the implementation's symbol opens (`flush_signature_refs`).
        self.reading_signature = true;
        self.signature_type_walk(sig);
        self.reading_signature = false;
    }

    /// The references held from the overload signatures above the implementation whose frame
    /// just opened: that implementation's.
    pub(super) fn flush_signature_refs(&mut self) {
        // Every occurrence, not the first per name: the signatures lie outside the
        // implementation's lines, where a rename looks for the other uses.
        let enclosing = self.existing_scope();
        for (ty, callee, at, _) in std::mem::take(&mut self.held_signature_refs) {
            self.record_ref(ty, callee, at, enclosing);
        }
    }

    fn signature_type_walk(&mut self, sig: Node<'t>) {
        let mut cursor = sig.walk();
        let mut parents: Vec<Node<'t>> = Vec::new();
        loop {
            let node = cursor.node();
            match node.kind() {
                "type_identifier" => {
                    if let Some(&p) = parents.last() {
                        self.type_ref_in(node, p);
                    }
                }
                "nested_type_identifier" => {
                    let p = parents.last().map_or("", |p| p.kind());
                    self.nested_type_ref_in(node, p);
                }
                _ => {}
            }
            if node.kind() != "nested_type_identifier" && cursor.goto_first_child() {
                parents.push(node);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() || parents.pop().is_none() || parents.is_empty() {
                    return;
                }
            }
        }
    }

    /// `ns.T` in a type position.
    pub(super) fn nested_type_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        let parent = self.anc_kind(pi);
        self.nested_type_ref_in(node, parent);
    }

    fn nested_type_ref_in(&mut self, node: Node<'t>, parent: &str) {
        if matches!(parent, "implements_clause" | "extends_type_clause") {
            return;
        }
        let (Some(module), Some(name)) =
            (node.child_by_field_name("module"), node.child_by_field_name("name"))
        else {
            return;
        };
        if module.kind() != "identifier" {
            return;
        }
        let callee = Callee {
            receiver: Receiver::Path(vec![text(module, self.src).into()]),
            name: text(name, self.src).into(),
        };
        self.push_ref(true, callee, name, text(node, self.src));
    }

    /// A name used as a value, not called: an argument, an element, a returned or assigned
    /// value, an operand, an object's `{ name }` or `key: name`, the object of a member read
    /// (`CONFIG.port`). Resolution keeps what names a module-level declaration of the
    /// workspace (a function, class, constant, variable or enum) through imports like a call.
    pub(super) fn value_ref(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        let Some(parent) = self.anc_at(pi) else { return };
        let field_is = |f: &str| parent.child_by_field_name(f).is_some_and(|n| n.id() == node.id());
        let value = match parent.kind() {
            "arguments"
            | "array"
            | "return_statement"
            | "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "ternary_expression"
            | "spread_element"
            | "template_substitution"
            | "await_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "switch_case"
            | "subscript_expression"
            | "jsx_expression"
            | "sequence_expression"
            | "update_expression"
            | "object" => true,
            "pair" | "variable_declarator" | "public_field_definition" | "field_definition" => {
                field_is("value")
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                field_is("right") || field_is("left")
            }
            "member_expression" => field_is("object"),
            "arrow_function" => field_is("body"),
            _ => false,
        };
        if !value {
            return;
        }
        let name = text(node, self.src);
        if (self.locals.contains(name) && !self.local_fns.contains(name))
            || matches!(name, "undefined" | "arguments" | "require" | "module" | "exports")
        {
            return;
        }
        self.push_ref(false, Callee { receiver: Receiver::None, name: name.into() }, node, name);
    }

    pub(super) fn push_ref(&mut self, ty: bool, callee: Callee, at: Node<'t>, key: &'s str) {
        if self.reading_signature {
            self.held_signature_refs.push((ty, callee, at, key));
            return;
        }
        let enclosing = self.existing_scope();
        if !self.seen_refs.insert((enclosing, ty, key)) {
            return;
        }
        self.record_ref(ty, callee, at, enclosing);
    }

    fn record_ref(&mut self, ty: bool, callee: Callee, at: Node<'t>, enclosing: Option<SymbolIdx>) {
        let site = CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing,
            local: false,
        };
        if ty {
            self.facts.type_refs.push(site);
        } else {
            self.facts.value_refs.push(site);
        }
    }

    pub(super) fn decorator(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        if self.anc_kind(pi) != "class_body" {
            return;
        }
        let mut next = node.next_named_sibling();
        while let Some(n) = next {
            if matches!(n.kind(), "decorator" | "comment") {
                next = n.next_named_sibling();
            } else {
                break;
            }
        }
        let Some(member) = next else { return };
        if self.frames.last().is_some_and(|f| f.owner == member.id()) {
            return;
        }
        self.open(member, pi);
    }

    pub(super) fn call(&mut self, node: Node<'t>) {
        if is_tagged_template(node) {
            return;
        }
        let Some(func) = node.child_by_field_name("function") else {
            return;
        };
        if func.kind() == "import" {
            if let Some(source) = self.single_string_arg(node) {
                self.facts.imports.push(Import {
                    source,
                    kind: ImportKind::Dynamic,
                    bindings: Vec::new(),
                    line: start_line(node),
                });
            }
            return;
        }
        if func.kind() == "identifier" && text(func, self.src) == "require" {
            self.require(node);
        }
        let Some((callee, name_node)) = callee_of(func, self.src)
            .or_else(|| self.called_call_result(func))
            .or_else(|| self.opaque_callee(func))
        else {
            return;
        };
        let local = self.calls_binding(&callee, func);
        let enclosing = self.scope();
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
            local,
        });
    }

    /// A member expression that is not called (`a.b()` is a call site, `new a.B()` a
    /// construction): a field read, or a write when it is assigned, updated or deleted.
    pub(super) fn access(&mut self, node: Node<'t>) {
        // Climb the wrappers `callee_of` looks through: `(a.b)()`, `a.b!()`, `(a.b as F)()`.
        let mut child = node;
        let mut i = self.parent_index();
        let parent = loop {
            let Some(p) = self.anc_at(i) else { return };
            if matches!(
                p.kind(),
                "parenthesized_expression"
                    | "non_null_expression"
                    | "as_expression"
                    | "satisfies_expression"
                    | "type_assertion"
            ) {
                child = p;
                i = i.and_then(|k| k.checked_sub(1));
                continue;
            }
            break p;
        };
        let is =
            |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == child.id());
        let write = match parent.kind() {
            "call_expression" if is("function") => return,
            "new_expression" if is("constructor") => return,
            // `typeof a.b` in a type (no read; but `typeof X.prototype.m` and `typeof X.m`
            // name a member of class `X`), `extends ns.Base` (a heritage clause, not a read).
            "type_query" => return self.type_query_member(node),
            "extends_clause" | "class_heritage" => return,
            "assignment_expression" | "augmented_assignment_expression" => is("left"),
            "update_expression" => is("argument"),
            "unary_expression" => {
                is("argument")
                    && parent.child_by_field_name("operator").is_some_and(|o| o.kind() == "delete")
            }
            _ => false,
        };
        let Some((callee, name_node)) = callee_of(node, self.src) else {
            return;
        };
        self.facts.accesses.push(FieldAccess {
            receiver: callee.receiver,
            name: callee.name,
            line: start_line(name_node),
            enclosing: self.existing_scope(),
            write,
        });
    }

    /// A callee that is no name we can follow (`table[key]()`, `(0, m.f)()`): kept as a call
    /// site named by its text, so that it is counted as an unresolved site instead of being
    /// dropped. A function, arrow or class expression called where it is written is not (the
    /// function is right there).
    fn opaque_callee(&self, func: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let e = unwrap_expr(func);
        if matches!(
            e.kind(),
            "function_expression" | "function" | "arrow_function" | "generator_function" | "class"
        ) {
            return None;
        }
        let name: String = util::collapse_whitespace(text(e, self.src)).chars().take(60).collect();
        Some((Callee { receiver: Receiver::Other, name: name.into() }, e))
    }

    /// `f()()` / `require('x')(opts)`: the result of a call is itself called. The compiler
    /// counts (and resolves) these sites, so they are kept with an empty name and the inner
    /// call as receiver, positioned where the compiler puts them (the start of the inner call).
    pub(super) fn called_call_result(&self, func: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let inner = unwrap_expr(func);
        if inner.kind() != "call_expression" || is_tagged_template(inner) {
            return None;
        }
        let (inner_callee, _) = callee_of(inner.child_by_field_name("function")?, self.src)?;
        Some((
            Callee {
                receiver: Receiver::CallResult(Box::new(inner_callee)),
                name: String::new().into(),
            },
            inner,
        ))
    }

    pub(super) fn new_expression(&mut self, node: Node<'t>) {
        let Some(ctor) = node.child_by_field_name("constructor") else {
            return;
        };
        // `new MAP[code](msg)`: a constructor that is no name, a site named by its text.
        let Some((callee, name_node)) =
            callee_of(ctor, self.src).or_else(|| self.opaque_callee(ctor))
        else {
            return;
        };
        // `new Class(...)` of a parameter or local (`function make(Class) { new Class() }`):
        // a construction of the value it holds, as a call of one is a call of it.
        let local = self.calls_binding(&callee, ctor);
        let enclosing = self.scope();
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::New,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
            local,
        });
    }

    pub(super) fn single_string_arg(&self, call: Node<'t>) -> Option<String> {
        let args = call.child_by_field_name("arguments")?;
        let mut cursor = args.walk();
        let mut it = args.named_children(&mut cursor).filter(|c| c.kind() != "comment");
        let first = it.next()?;
        if it.next().is_some() || first.kind() != "string" {
            return None;
        }
        Some(string_content(first, self.src).to_string())
    }

    /// `require('m')`: bindings from the declarator it initialises, if any.
    pub(super) fn require(&mut self, call: Node<'t>) {
        let Some(source) = self.single_string_arg(call) else {
            return;
        };
        let pi = self.parent_index();
        let mut bindings = Vec::new();
        if let Some(p) = self.anc_at(pi) {
            match p.kind() {
                "variable_declarator" => {
                    if let Some(name) = p.child_by_field_name("name") {
                        bindings = self.require_bindings(name);
                    }
                }
                "member_expression" => {
                    let gp = self.anc_at(pi.and_then(|i| i.checked_sub(1)));
                    let prop = p.child_by_field_name("property");
                    let local = gp
                        .filter(|g| g.kind() == "variable_declarator")
                        .and_then(|g| g.child_by_field_name("name"))
                        .filter(|n| n.kind() == "identifier");
                    if let (Some(prop), Some(local)) = (prop, local) {
                        let prop = text(prop, self.src);
                        let local = text(local, self.src);
                        bindings.push(ImportBinding {
                            imported: Imported::Named(prop.to_string()),
                            local: (local != prop).then(|| local.to_string()),
                        });
                    }
                }
                _ => {}
            }
        }
        self.facts.imports.push(Import {
            source,
            kind: ImportKind::Require,
            bindings,
            line: start_line(call),
        });
    }

    pub(super) fn require_bindings(&self, pattern: Node<'t>) -> Vec<ImportBinding> {
        let mut out = Vec::new();
        match pattern.kind() {
            "identifier" => out.push(ImportBinding {
                imported: Imported::Namespace,
                local: Some(text(pattern, self.src).to_string()),
            }),
            "object_pattern" => {
                let mut cursor = pattern.walk();
                for c in pattern.named_children(&mut cursor) {
                    let (key, local) = match c.kind() {
                        "shorthand_property_identifier_pattern" => (Some(c), None),
                        "object_assignment_pattern" => (c.child_by_field_name("left"), None),
                        "pair_pattern" => {
                            let mut v = c.child_by_field_name("value");
                            if let Some(a) = v.filter(|v| v.kind() == "assignment_pattern") {
                                v = a.child_by_field_name("left");
                            }
                            (c.child_by_field_name("key"), v.filter(|v| v.kind() == "identifier"))
                        }
                        _ => (None, None),
                    };
                    let Some(key) = key else { continue };
                    let key = prop_name(key, self.src);
                    let local =
                        local.map(|l| text(l, self.src)).filter(|l| *l != key).map(str::to_string);
                    out.push(ImportBinding { imported: Imported::Named(key), local });
                }
            }
            _ => {}
        }
        out
    }

    pub(super) fn import_statement(&mut self, node: Node<'t>) {
        let type_only = has_token(node, "type");
        let mut bindings = Vec::new();
        let mut kind = ImportKind::EsImport;
        let mut source = node.child_by_field_name("source");
        let (mut values, mut specs) = (false, false);
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_clause" => {
                    let mut cc = child.walk();
                    for c in child.named_children(&mut cc) {
                        match c.kind() {
                            "identifier" => {
                                values = true;
                                bindings.push(ImportBinding {
                                    imported: Imported::Default,
                                    local: Some(text(c, self.src).to_string()),
                                });
                            }
                            "namespace_import" => {
                                values = true;
                                bindings.push(ImportBinding {
                                    imported: Imported::Namespace,
                                    local: first_named(c).map(|i| text(i, self.src).to_string()),
                                });
                            }
                            "named_imports" => {
                                let mut sc = c.walk();
                                for spec in c.named_children(&mut sc) {
                                    if spec.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let Some(name) = spec.child_by_field_name("name") else {
                                        continue;
                                    };
                                    specs = true;
                                    if !has_token(spec, "type") {
                                        values = true;
                                    }
                                    bindings.push(ImportBinding {
                                        imported: Imported::Named(prop_name(name, self.src)),
                                        local: spec
                                            .child_by_field_name("alias")
                                            .map(|a| text(a, self.src).to_string()),
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    kind = ImportKind::Require;
                    source = child.child_by_field_name("source");
                    let mut cc = child.walk();
                    let local = child
                        .named_children(&mut cc)
                        .find(|c| c.kind() == "identifier")
                        .map(|i| text(i, self.src).to_string());
                    bindings.push(ImportBinding { imported: Imported::Namespace, local });
                }
                _ => {}
            }
        }
        let Some(source) = source else { return };
        if kind == ImportKind::EsImport && (type_only || (specs && !values)) {
            kind = ImportKind::TypeOnly;
        }
        self.facts.imports.push(Import {
            source: string_content(source, self.src).to_string(),
            kind,
            bindings,
            line: start_line(node),
        });
    }

    /// CommonJS `module.exports = f` (the module's default, what `require` gives) and
    /// `module.exports = { f, g: g }` (those top-level names exported, as `export { f, g }`).
    pub(super) fn commonjs_exports(&mut self, node: Node<'t>) {
        let Some(left) = node.child_by_field_name("left") else { return };
        if dotted(text(left, self.src)) != "module.exports" {
            return;
        }
        let Some(right) = node.child_by_field_name("right") else { return };
        match right.kind() {
            "identifier" => {
                let name = text(right, self.src).to_string();
                self.facts.default_export.get_or_insert_with(|| name.clone());
                self.exported_names.insert(name);
            }
            "object" => {
                let mut c = right.walk();
                for member in right.named_children(&mut c) {
                    let name = match member.kind() {
                        "shorthand_property_identifier" => text(member, self.src).to_string(),
                        "pair" => {
                            let (Some(k), Some(v)) = (
                                member.child_by_field_name("key"),
                                member.child_by_field_name("value"),
                            ) else {
                                continue;
                            };
                            let key = prop_name(k, self.src);
                            if v.kind() != "identifier" || text(v, self.src) != key {
                                continue;
                            }
                            key
                        }
                        _ => continue,
                    };
                    self.exported_names.insert(name);
                }
            }
            _ => {}
        }
    }

    pub(super) fn export_statement(&mut self, node: Node<'t>) {
        if let Some(source) = node.child_by_field_name("source") {
            let mut bindings = Vec::new();
            let mut all = true;
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                match child.kind() {
                    "namespace_export" => {
                        all = false;
                        bindings.push(ImportBinding {
                            imported: Imported::Namespace,
                            local: first_named(child).map(|i| prop_name(i, self.src)),
                        });
                    }
                    "export_clause" => {
                        all = false;
                        let mut sc = child.walk();
                        for spec in child.named_children(&mut sc) {
                            let Some(name) = spec.child_by_field_name("name") else {
                                continue;
                            };
                            let name = prop_name(name, self.src);
                            let local =
                                spec.child_by_field_name("alias").map(|a| prop_name(a, self.src));
                            bindings.push(ImportBinding {
                                imported: if name == "default" {
                                    Imported::Default
                                } else {
                                    Imported::Named(name)
                                },
                                local,
                            });
                        }
                    }
                    _ => {}
                }
            }
            if all {
                bindings.push(ImportBinding { imported: Imported::All, local: None });
            }
            self.facts.imports.push(Import {
                source: string_content(source, self.src).to_string(),
                kind: ImportKind::ReExport,
                bindings,
                line: start_line(node),
            });
            return;
        }
        let is_default = {
            let mut c = node.walk();
            node.children(&mut c).any(|ch| ch.kind() == "default")
        };
        if is_default
            && let Some(name) =
                node.child_by_field_name("declaration").and_then(|d| d.child_by_field_name("name"))
        {
            self.facts.default_export = Some(text(name, self.src).to_string());
        }
        let mut cursor = node.walk();
        let mut decorated = false;
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "export_clause" => {
                    let mut sc = child.walk();
                    for spec in child.named_children(&mut sc) {
                        if let Some(name) = spec.child_by_field_name("name") {
                            let name = prop_name(name, self.src);
                            // `export { router as default }`, `export { _await as await }`
                            match spec.child_by_field_name("alias").map(|a| prop_name(a, self.src))
                            {
                                Some(a) if a == "default" => {
                                    self.facts.default_export = Some(name.clone());
                                }
                                Some(a) if a != name => {
                                    self.facts.export_aliases.push((name.clone(), a));
                                }
                                _ => {}
                            }
                            self.exported_names.insert(name);
                        }
                    }
                }
                "identifier" => {
                    let name = text(child, self.src).to_string();
                    if is_default {
                        self.facts.default_export = Some(name.clone());
                    }
                    self.exported_names.insert(name);
                }
                "decorator" => decorated = true,
                _ => {}
            }
        }
        if decorated {
            // Decorators of an exported class precede it inside the export statement; the
            // compiler attributes their calls to the class, so open the class first.
            if let Some(decl) = node
                .child_by_field_name("declaration")
                .filter(|d| matches!(d.kind(), "class_declaration" | "abstract_class_declaration"))
            {
                let pi = self.anc.len().checked_sub(1);
                self.open(decl, pi);
            }
        }
    }

    pub(super) fn parameter(&mut self, node: Node<'t>) {
        let pi = self.parent_index();
        if self.anc_kind(pi) != "formal_parameters" {
            return;
        }
        let owner = self.anc_at(pi.and_then(|i| i.checked_sub(1)));
        let Some(owner) = owner.filter(|o| FUNCTION_OWNERS.contains(&o.kind())) else {
            return;
        };
        if node.child_by_field_name("pattern").is_some_and(|p| p.kind() == "this") {
            // `function (this: T, ...)`: what `this` is where no class says otherwise.
            if let Some(ty) = node.child_by_field_name("type").and_then(|t| type_name(t, self.src))
            {
                let scope = self.scope();
                self.facts.type_hints.push(TypeHint {
                    scope,
                    name: "this".into(),
                    source: HintSource::Annotation(ty),
                    line: start_line(node),
                    visible: None,
                });
            }
            return;
        }
        let name = node.child_by_field_name("pattern").and_then(|p| match p.kind() {
            "identifier" => Some(p),
            "rest_pattern" => first_named(p).filter(|i| i.kind() == "identifier"),
            _ => None,
        });
        let Some(name_node) = name else { return };
        let name = text(name_node, self.src).to_string();
        let ty = node.child_by_field_name("type").and_then(|t| type_name(t, self.src));
        let scope = self.scope();
        let is_property = owner.kind() == "method_definition"
            && owner
                .child_by_field_name("name")
                .is_some_and(|n| text(n, self.src) == "constructor")
            && {
                let mut cursor = node.walk();
                node.children(&mut cursor).any(|c| {
                    matches!(c.kind(), "accessibility_modifier" | "override_modifier")
                        || (!c.is_named() && c.kind() == "readonly")
                })
            };
        if is_property {
            let class = scope.and_then(|s| self.facts.symbols.get(s as usize)?.parent);
            let private = self.is_private(node, name_node);
            self.push_symbol(NewSym {
                kind: NodeKind::Property,
                name: name.clone(),
                qualified: None,
                node,
                parent: class,
                signature: util::signature(node, None, self.src),
                doc: None,
                export: if private { Export::No } else { Export::Parent },
            });
            if let Some(ty) = &ty {
                self.facts.type_hints.push(TypeHint {
                    scope: class,
                    name: name.clone().into(),
                    source: HintSource::Annotation(ty.clone()),
                    line: start_line(node),
                    visible: None,
                });
            }
        }
        let position = self.anc_at(pi).map_or(0, |params| named_position(params, node));
        if ty.is_none() {
            self.param_fn_hints(node, scope, &name, position);
        }
        if let Some(ty) = ty {
            if let Some(function) = scope {
                self.ts.params.push((function, position, name.clone()));
            }
            self.facts.type_hints.push(TypeHint {
                scope,
                name: name.into(),
                source: HintSource::Annotation(ty),
                line: start_line(node),
                visible: None,
            });
        } else if is_function_expr(owner.kind()) {
            self.callback_hint(node, pi, owner, scope, name, position);
        }
    }

    /// `this` passed as an argument ([`ThisArg`]); the node just entered is the `this`.
    pub(super) fn this_argument(&mut self) {
        let Some(mut j) = self.anc.len().checked_sub(1) else { return };
        let mut child = self.anc[j];
        let args = loop {
            let Some(parent) = j.checked_sub(1).and_then(|k| self.anc.get(k).copied()) else {
                return;
            };
            j -= 1;
            match parent.kind() {
                "parenthesized_expression" | "non_null_expression" => child = parent,
                "arguments" => break parent,
                _ => return,
            }
        };
        let Some(call) = j.checked_sub(1).and_then(|k| self.anc.get(k).copied()) else { return };
        let func = match call.kind() {
            "call_expression" => call.child_by_field_name("function"),
            "new_expression" => call.child_by_field_name("constructor"),
            _ => None,
        };
        let Some((callee, _)) = func.and_then(|f| callee_of(f, self.src)) else { return };
        let arg = named_position(args, child);
        let line = start_line(self.anc[self.anc.len() - 1]);
        let enclosing = self.existing_scope();
        self.ts.this_args.push(ThisArg { callee, arg, line, enclosing });
    }

    /// `typeof X.prototype.m` / `typeof X.m` in a type: member `m` of the type `X` names, at
    /// this line (recorded as a typed literal's keys are: a member of a written type).
    fn type_query_member(&mut self, node: Node<'t>) {
        // Read from the text: the grammar's hidden type-query member rule hands the inner
        // member expression's fields to the outer one, so `property` may be the inner's.
        let dotted_text = dotted(text(node, self.src));
        let parts: Vec<&str> = dotted_text.split('.').collect();
        let Some((name, receiver)) = parts.split_last() else { return };
        let ident = |p: &&str| {
            !p.is_empty() && p.chars().all(|c| c == '_' || c == '$' || c.is_alphanumeric())
        };
        if receiver.is_empty() || !parts.iter().all(ident) {
            return;
        }
        let ty = match receiver.split_last() {
            Some((last, rest)) if *last == "prototype" && !rest.is_empty() => rest.join("."),
            _ => receiver.join("."),
        };
        let line = node
            .named_child(node.named_child_count().saturating_sub(1) as u32)
            .map_or(start_line(node), start_line);
        self.ts.literal_keys.push(LiteralKeys {
            context: LiteralContext::Type(ty),
            path: Vec::new(),
            enclosing: self.existing_scope(),
            keys: vec![((*name).into(), line)],
        });
    }

    /// An object literal whose type its context gives: each key (a pair's, a method's, a
    /// shorthand's) is a write of that type's member ([`LiteralKeys`]). The node just entered
    /// is the literal.
    pub(super) fn literal_keys(&mut self) {
        let Some(top) = self.anc.len().checked_sub(1) else { return };
        let Some((context, path)) = self.literal_context(top, 0) else { return };
        let node = self.anc[top];
        let mut keys = Vec::new();
        let mut cursor = node.walk();
        for k in node.named_children(&mut cursor) {
            let key = match k.kind() {
                "pair" => k.child_by_field_name("key"),
                "method_definition" => k.child_by_field_name("name"),
                "shorthand_property_identifier" => Some(k),
                _ => None,
            };
            let Some(key) = key else { continue };
            let name = match key.kind() {
                "property_identifier" | "shorthand_property_identifier" => text(key, self.src),
                "string" => string_content(key, self.src),
                // Computed keys, numbers, private names.
                _ => continue,
            };
            if !name.is_empty() {
                keys.push((name.into(), start_line(key)));
            }
        }
        if !keys.is_empty() {
            let enclosing = self.existing_scope();
            self.ts.literal_keys.push(LiteralKeys { context, path, enclosing, keys });
        }
    }

    /// Where the object literal (or array of them) at `anc[i]` gets its type, and the keys
    /// from that typed literal down to it; `None` when its context gives it no written type.
    /// Parentheses and a conditional's branches pass the context through.
    fn literal_context(&self, i: usize, depth: u32) -> Option<(LiteralContext, Vec<Name>)> {
        if depth > MAX_LITERAL_PATH {
            return None;
        }
        let mut j = i;
        let (parent, child) = loop {
            let child = *self.anc.get(j)?;
            let parent = *self.anc.get(j.checked_sub(1)?)?;
            let is = |f: &str| parent.child_by_field_name(f).is_some_and(|c| c.id() == child.id());
            match parent.kind() {
                "parenthesized_expression" => {}
                "ternary_expression" if !is("condition") => {}
                _ => break (parent, child),
            }
            j -= 1;
        };
        let is = |f: &str| parent.child_by_field_name(f).is_some_and(|c| c.id() == child.id());
        let written = |t: Option<Node<'t>>| {
            t.and_then(|t| type_name(t, self.src)).map(|t| (LiteralContext::Type(t), Vec::new()))
        };
        match parent.kind() {
            "variable_declarator"
            | "public_field_definition"
            | "field_definition"
            | "required_parameter"
            | "optional_parameter"
                if is("value") =>
            {
                written(parent.child_by_field_name("type"))
            }
            "as_expression" | "satisfies_expression" => {
                let mut c = parent.walk();
                let ty = parent.named_children(&mut c).filter(|n| n.id() != child.id()).last();
                written(ty)
            }
            "type_assertion" => written(first_named(parent).and_then(first_named)),
            "return_statement" => {
                let f = (0..j.saturating_sub(1))
                    .rev()
                    .map(|k| self.anc[k])
                    .find(|n| FUNCTION_OWNERS.contains(&n.kind()))?;
                written(f.child_by_field_name("return_type"))
            }
            "arrow_function" if is("body") => written(parent.child_by_field_name("return_type")),
            "arguments" => {
                let call = *self.anc.get(j.checked_sub(2)?)?;
                let func = match call.kind() {
                    "call_expression" => call.child_by_field_name("function"),
                    "new_expression" => call.child_by_field_name("constructor"),
                    _ => None,
                }?;
                let (callee, _) = callee_of(func, self.src)?;
                let arg = named_position(parent, child);
                Some((LiteralContext::Argument { callee, arg }, Vec::new()))
            }
            // `x = {..}`, `this.x = {..}`: what the left side holds.
            "assignment_expression" if is("right") => {
                let left = parent.child_by_field_name("left")?;
                let path = match left.kind() {
                    "identifier" => vec![text(left, self.src).to_string()],
                    "member_expression" => path_of(left, self.src)?,
                    _ => return None,
                };
                Some((
                    LiteralContext::Assigned(path.into_iter().map(Into::into).collect()),
                    Vec::new(),
                ))
            }
            // A literal in a typed literal's value: the type of that member.
            "pair" if is("value") => {
                let key = parent.child_by_field_name("key")?;
                let name = match key.kind() {
                    "property_identifier" => text(key, self.src),
                    "string" => string_content(key, self.src),
                    _ => return None,
                };
                let outer = j.checked_sub(2)?;
                if self.anc.get(outer)?.kind() != "object" {
                    return None;
                }
                let (context, mut path) = self.literal_context(outer, depth + 1)?;
                path.push(name.into());
                Some((context, path))
            }
            // An element of a typed array: hint types name an array's element already.
            "array" => self.literal_context(j - 1, depth + 1),
            _ => None,
        }
    }

    /// `f(..., (a, b) => ...)`: untyped parameters of a function passed as an argument take
    /// their type from the callee's declared callback parameter.
    pub(super) fn callback_hint(
        &mut self,
        node: Node<'t>,
        pi: Option<usize>,
        owner: Node<'t>,
        scope: Option<SymbolIdx>,
        name: String,
        param: u32,
    ) {
        let up = |k: usize| pi.and_then(|i| i.checked_sub(k));
        let args = self.anc_at(up(2)).filter(|a| a.kind() == "arguments");
        let call = self.anc_at(up(3));
        let (Some(args), Some(call)) = (args, call) else { return };
        let func = match call.kind() {
            "call_expression" => call.child_by_field_name("function"),
            "new_expression" => call.child_by_field_name("constructor"),
            _ => None,
        };
        let Some((callee, _)) = func.and_then(|f| callee_of(f, self.src)) else {
            return;
        };
        let arg = named_position(args, owner);
        self.facts.type_hints.push(TypeHint {
            scope,
            name: name.into(),
            source: HintSource::Callback { callee, arg, param },
            line: start_line(node),
            visible: None,
        });
    }

    /// `init: (a: A, b: B) => R`: the types of a function-typed parameter's own parameters.
    pub(super) fn param_fn_hints(
        &mut self,
        node: Node<'t>,
        scope: Option<SymbolIdx>,
        name: &str,
        index: u32,
    ) {
        let Some(ft) = node
            .child_by_field_name("type")
            .and_then(first_named)
            .filter(|t| t.kind() == "function_type")
        else {
            return;
        };
        let Some(params) = ft.child_by_field_name("parameters") else { return };
        let mut cursor = params.walk();
        // A `this:` parameter declares the receiver, not a position.
        let kids: Vec<Node<'t>> = params
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .filter(|c| {
                c.child_by_field_name("pattern").is_none_or(|p| text(p, self.src) != "this")
            })
            .collect();
        for (j, p) in kids.into_iter().enumerate() {
            let Some(ty) = p.child_by_field_name("type").and_then(|t| type_name(t, self.src))
            else {
                continue;
            };
            self.facts.type_hints.push(TypeHint {
                scope,
                name: name.into(),
                source: HintSource::ParamFn {
                    index,
                    param: u32::try_from(j).unwrap_or(u32::MAX),
                    ty,
                },
                line: start_line(node),
                visible: None,
            });
        }
    }

    pub(super) fn finish(mut self) -> FileFacts {
        // Called bindings, after every declaration; a binding that is a declaration of its own
        // (`const g = () => ...` inside a function) already has its symbol.
        for c in std::mem::take(&mut self.called) {
            let qualified = match c.parent {
                Some(p) => format!("{}.{}", self.qualified(p), c.name),
                None => c.name.clone(),
            };
            if self.qmap.contains_key(&qualified) {
                continue;
            }
            let decl = self.binding_declaration(c.node);
            self.push_symbol(NewSym {
                kind: NodeKind::Parameter,
                name: c.name,
                qualified: Some(qualified),
                node: c.node,
                parent: c.parent,
                signature: util::signature(decl, None, self.src),
                doc: None,
                export: Export::No,
            });
        }
        if !self.exported_names.is_empty() {
            for (i, s) in self.facts.symbols.iter().enumerate() {
                if s.parent.is_none()
                    && self.exported_names.contains(&s.name)
                    && let Some(e) = self.export.get_mut(i)
                {
                    *e = Export::Yes;
                }
            }
        }
        for i in 0..self.facts.symbols.len() {
            let exported = match self.export.get(i).copied().unwrap_or(Export::No) {
                Export::Yes => true,
                Export::No => false,
                Export::Parent => self.facts.symbols[i]
                    .parent
                    .and_then(|p| self.facts.symbols.get(p as usize))
                    .is_some_and(|p| p.exported),
            };
            self.facts.symbols[i].exported = exported;
        }
        self.facts.language_facts = LanguageFacts::Ts(self.ts).normalized();
        self.facts
    }
}
