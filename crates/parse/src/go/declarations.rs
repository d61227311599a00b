//! Declarations: functions, methods, types, fields, constants, variables and their symbols.

use super::*;

impl<'s> Extractor<'s> {
    /// The top-level declarations, in order. Descends into ERROR nodes (iteratively), so a
    /// syntax error does not hide the declarations it swallowed.
    pub(super) fn top_level(&mut self, root: Node<'_>) {
        let k = self.k;
        let mut cursor = root.walk();
        if !cursor.goto_first_child() {
            return;
        }
        // Comment run per open level (the root's children, then ERROR children).
        let mut runs: Vec<CommentRun<'_>> = vec![CommentRun::default()];
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let mut descend = false;
            if let Some(run) = runs.last_mut() {
                if kind == k.comment {
                    // `//go:build EXPR` before the package clause: the file's constraint.
                    let go = self.facts.go();
                    if go.is_none_or(|g| g.package.is_none() && g.build_constraint.is_none())
                        && let Some(expr) = self.text(node).strip_prefix("//go:build ")
                    {
                        self.facts.go_mut().build_constraint = Some(expr.trim().to_string());
                    }
                    run.add_comment(node);
                } else {
                    let docs = run.take(node);
                    if kind == k.package_clause {
                        self.package(node);
                    } else if kind == k.import_declaration {
                        self.imports(node);
                    } else if kind == k.function_declaration || kind == k.method_declaration {
                        self.function(node, &docs);
                    } else if kind == k.type_declaration {
                        self.type_decl(node, &docs);
                    } else if kind == k.const_declaration || kind == k.var_declaration {
                        self.value_decl(node, &docs);
                    } else if node.is_error() {
                        descend = true;
                    } else {
                        self.walk(node, MODULE);
                    }
                    run.finish(node);
                }
            }
            if descend && cursor.goto_first_child() {
                runs.push(CommentRun::default());
                continue;
            }
            while !cursor.goto_next_sibling() {
                if runs.len() <= 1 || !cursor.goto_parent() {
                    return;
                }
                runs.pop();
            }
        }
    }

    pub(super) fn package(&mut self, node: Node<'_>) {
        let k = self.k;
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if child.kind_id() == k.package_identifier {
                self.facts.go_mut().package = Some(self.text(child).to_string());
            }
        }
    }

    pub(super) fn imports(&mut self, decl: Node<'_>) {
        let k = self.k;
        let mut c = decl.walk();
        for child in decl.named_children(&mut c) {
            if child.kind_id() == k.import_spec {
                self.import_spec(child);
            } else if child.kind_id() == k.import_spec_list {
                let mut c2 = child.walk();
                for spec in child.named_children(&mut c2) {
                    if spec.kind_id() == k.import_spec {
                        self.import_spec(spec);
                    }
                }
            }
        }
    }

    pub(super) fn import_spec(&mut self, spec: Node<'_>) {
        let k = self.k;
        let Some(path) = spec.child_by_field_id(k.f_path) else {
            return;
        };
        let raw = self.text(path);
        let source =
            raw.strip_prefix(['"', '`']).and_then(|s| s.strip_suffix(['"', '`'])).unwrap_or(raw);
        let local = spec.child_by_field_id(k.f_name).map(|n| self.text(n).to_string());
        self.facts.imports.push(Import {
            source: source.to_string(),
            kind: ImportKind::Package,
            bindings: vec![ImportBinding { imported: Imported::Namespace, local }],
            line: start_line(spec),
        });
    }

    pub(super) fn push_symbol(&mut self, sym: Symbol) -> SymbolIdx {
        let idx = to_u32(self.facts.symbols.len());
        self.facts.symbols.push(sym);
        idx
    }

    /// `func F` / `func (r *T) M`: the symbol, parameter / receiver / result hints, then the
    /// calls of the whole declaration.
    pub(super) fn function(&mut self, node: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let Some(name_node) = node.child_by_field_id(k.f_name) else {
            self.walk(node, MODULE);
            return;
        };
        let name = self.text(name_node);
        let receiver = node.child_by_field_id(k.f_receiver);
        // Type parameters of the function, and those a generic receiver `T[K]` introduces:
        // hints naming them say nothing about a declared type.
        let mut tparams: Vec<&'s str> = Vec::new();
        let mut recv_type: Option<&str> = None;
        let mut recv_param: Option<(Node<'_>, Node<'_>)> = None;
        if let Some(list) = node.child_by_field_id(k.f_type_parameters) {
            self.type_param_names(list, &mut tparams);
        }
        if let Some(recv) = receiver {
            let mut c = recv.walk();
            if let Some(param) =
                recv.named_children(&mut c).find(|n| n.kind_id() == k.parameter_declaration)
                && let Some(ty) = param.child_by_field_id(k.f_type)
            {
                recv_type = self.receiver_base(ty, &mut tparams);
                recv_param = Some((param, ty));
            }
        }
        let (kind, qualified_name) = match (receiver, recv_type) {
            (Some(_), Some(t)) => (NodeKind::Method, format!("{t}.{name}")),
            (Some(_), None) => (NodeKind::Method, name.to_string()),
            (None, _) => (NodeKind::Function, name.to_string()),
        };
        let body = node.child_by_field_id(k.f_body);
        let idx = self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name,
            parent: None,
            start_line: start_line(node),
            end_line: end_line(node),
            signature: signature(node, body, self.src),
            doc: self.doc(docs),
            exported: is_exported(name),
        });
        let scope = Some(idx);
        self.locals.clear();
        for list in
            [receiver, node.child_by_field_id(k.f_parameters), node.child_by_field_id(k.f_result)]
                .into_iter()
                .flatten()
        {
            self.declare_params(list);
        }
        self.tparams = tparams;
        if let (Some((param, _)), Some(t)) = (recv_param, recv_type) {
            self.param_names(param, |ex, n| {
                ex.hint(scope, n, HintSource::Annotation(t.to_string()));
            });
        }
        if let Some(params) = node.child_by_field_id(k.f_parameters) {
            self.param_hints(params, scope);
        }
        if let Some(result) = node.child_by_field_id(k.f_result)
            && let Some(t) = self.result_type(result)
        {
            self.facts.type_hints.push(TypeHint {
                scope,
                name: String::new().into(),
                source: HintSource::Return(t),
                line: start_line(result),
                visible: None,
            });
            // Named results are locals too.
            if result.kind_id() == k.parameter_list {
                self.param_hints(result, scope);
            }
        }
        self.walk(node, Ctx::at(scope, scope));
        self.tparams.clear();
        self.locals.clear();
    }

    /// The base type name of a receiver type (`*T[K]` -> `T`), adding `K` to `tparams`.
    pub(super) fn receiver_base(
        &self,
        mut ty: Node<'_>,
        tparams: &mut Vec<&'s str>,
    ) -> Option<&'s str> {
        let k = self.k;
        loop {
            let kind = ty.kind_id();
            if kind == k.pointer_type || kind == k.parenthesized_type {
                ty = ty.named_child(0)?;
            } else if kind == k.generic_type {
                let mut c = ty.walk();
                for arg in ty.named_children(&mut c) {
                    if arg.kind_id() == k.type_arguments {
                        let mut c2 = arg.walk();
                        for elem in arg.named_children(&mut c2) {
                            if let Some(id) = elem.named_child(0)
                                && id.kind_id() == k.type_identifier
                            {
                                tparams.push(self.text(id));
                            }
                        }
                    }
                }
                ty = ty.child_by_field_id(k.f_type)?;
            } else if kind == k.type_identifier {
                return Some(self.text(ty));
            } else {
                return None;
            }
        }
    }

    pub(super) fn type_param_names(&self, list: Node<'_>, out: &mut Vec<&'s str>) {
        let k = self.k;
        let mut c = list.walk();
        for decl in list.named_children(&mut c) {
            if decl.kind_id() == k.type_parameter_declaration {
                self.field_children(decl, k.f_name, |n| out.push(text(n, self.src)));
            }
        }
    }

    /// Calls `f` with each child of `node` under field `field`.
    pub(super) fn field_children<'t>(
        &self,
        node: Node<'t>,
        field: u16,
        mut f: impl FnMut(Node<'t>),
    ) {
        let mut c = node.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            if at_field(&c, field) {
                f(c.node());
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    /// Calls `f` with each declared (non-blank) name of a parameter or spec node.
    pub(super) fn param_names(&mut self, decl: Node<'_>, mut f: impl FnMut(&mut Self, Node<'_>)) {
        let field = self.k.f_name;
        let mut c = decl.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            if at_field(&c, field) {
                let n = c.node();
                if self.text(n) != "_" {
                    f(self, n);
                }
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    pub(super) fn param_hints(&mut self, params: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let mut c = params.walk();
        for param in params.named_children(&mut c) {
            let kind = param.kind_id();
            if kind != k.parameter_declaration && kind != k.variadic_parameter_declaration {
                continue;
            }
            let Some(t) = param.child_by_field_id(k.f_type).and_then(|ty| self.type_name(ty))
            else {
                continue;
            };
            self.param_names(param, |ex, n| {
                ex.hint(scope, n, HintSource::Annotation(t.clone()));
            });
        }
    }

    /// The first result type of a signature (`T`, `(T, error)`, `(n T, err error)`).
    pub(super) fn result_type(&self, result: Node<'_>) -> Option<String> {
        let k = self.k;
        if result.kind_id() != k.parameter_list {
            return self.type_name(result);
        }
        let mut c = result.walk();
        let first = result.named_children(&mut c).find(|n| {
            n.kind_id() == k.parameter_declaration
                || n.kind_id() == k.variadic_parameter_declaration
        })?;
        self.type_name(first.child_by_field_id(k.f_type)?)
    }

    pub(super) fn hint(&mut self, scope: Option<SymbolIdx>, name: Node<'_>, source: HintSource) {
        self.facts.type_hints.push(TypeHint {
            scope,
            name: self.text(name).into(),
            source,
            line: start_line(name),
            visible: self.visibility(name),
        });
    }

    /// Where a local bound at `name` is visible: to the end of the innermost block, `case`,
    /// `for` / `if` / `switch` / `select` statement or func literal the walk is inside (Go's
    /// scopes: a func literal's parameter or a `:=` in an inner block shadows an outer name
    /// only there). `None` outside the walk: a function's own parameters and receiver (the
    /// whole function). Kept by the walk as a stack, not by `Node::parent`, which descends
    /// from the root on every call (that cost 4 s of the Go standard library's index).
    pub(super) fn visibility(&self, name: Node<'_>) -> Option<Visibility> {
        let &(_, end_line, end_col) = self.scopes.last()?;
        Some(Visibility {
            col: u32::try_from(name.start_position().column + 1).unwrap_or(u32::MAX),
            end_line,
            end_col,
        })
    }

    pub(super) fn is_scope(&self, kind: u16) -> bool {
        let k = self.k;
        kind == k.func_literal
            || kind == k.block
            || kind == k.for_statement
            || kind == k.if_statement
            || kind == k.expression_switch_statement
            || kind == k.type_switch_statement
            || kind == k.select_statement
            || kind == k.expression_case
            || kind == k.default_case
            || kind == k.type_case
            || kind == k.communication_case
    }

    /// `type X ...` / `type ( ... )`.
    pub(super) fn type_decl(&mut self, decl: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let grouped = has_child_kind(decl, k.lparen);
        let group_doc = if grouped { self.doc(docs) } else { None };
        let mut c = decl.walk();
        for (spec, spec_docs) in with_docs(decl.children(&mut c), k.comment) {
            let kind = spec.kind_id();
            if kind != k.type_spec && kind != k.type_alias {
                continue;
            }
            let (outer, doc) = if grouped {
                (spec, self.doc(&spec_docs).or_else(|| group_doc.clone()))
            } else {
                (decl, self.doc(docs))
            };
            self.type_spec(spec, kind == k.type_alias, outer, doc);
        }
        // Calls inside types (array lengths); the types were taken per spec above.
        self.walk(decl, MODULE.without_types());
    }

    pub(super) fn type_spec(
        &mut self,
        spec: Node<'_>,
        alias: bool,
        outer: Node<'_>,
        doc: Option<String>,
    ) {
        let k = self.k;
        let Some(name_node) = spec.child_by_field_id(k.f_name) else {
            return;
        };
        let name = self.text(name_node);
        let ty = spec.child_by_field_id(k.f_type);
        let ty_kind = ty.map_or(0, |t| t.kind_id());
        let (kind, body) = if alias {
            (NodeKind::TypeAlias, None)
        } else if ty_kind == k.struct_type {
            let list = ty.and_then(|t| child_of_kind(t, k.field_declaration_list));
            (NodeKind::Struct, list)
        } else if ty_kind == k.interface_type {
            (NodeKind::Interface, ty.and_then(|t| child_of_kind(t, k.lbrace)))
        } else {
            // `type HandlerFunc func(*Context)`: a defined type, not an alias (`type A = B`).
            (NodeKind::DefinedType, None)
        };
        let idx = self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name: name.to_string(),
            parent: None,
            start_line: start_line(outer),
            end_line: end_line(outer),
            signature: signature(outer, body, self.src),
            doc,
            exported: is_exported(name),
        });
        let Some(ty) = ty else { return };
        let mut tparams: Vec<&'s str> = Vec::new();
        if let Some(list) = spec.child_by_field_id(k.f_type_parameters) {
            self.type_param_names(list, &mut tparams);
        }
        self.tparams = tparams;
        // What the type is made of (field types, method signatures, the underlying or aliased
        // type, constraints): references of the type itself (`Server` -> `Handler`).
        let ctx = Ctx::at(Some(idx), None);
        self.type_refs(ty, ctx);
        if let Some(list) = spec.child_by_field_id(k.f_type_parameters) {
            self.type_refs(list, ctx);
        }
        match kind {
            NodeKind::Struct => {
                if let Some(list) = body {
                    self.struct_fields(list, idx, name);
                }
            }
            NodeKind::Interface => self.interface_elems(ty, idx, name),
            _ => {}
        }
        self.tparams.clear();
    }

    pub(super) fn struct_fields(&mut self, list: Node<'_>, owner: SymbolIdx, owner_name: &str) {
        let k = self.k;
        let mut c = list.walk();
        for (field, docs) in with_docs(list.named_children(&mut c), k.comment) {
            if field.kind_id() != k.field_declaration {
                continue;
            }
            let doc = self.doc(&docs);
            let sig = signature(field, None, self.src);
            let ty = field.child_by_field_id(k.f_type);
            let mut named = false;
            let mut c2 = field.walk();
            if c2.goto_first_child() {
                loop {
                    if at_field(&c2, k.f_name) {
                        named = true;
                        let n = c2.node();
                        let fname = self.text(n);
                        self.member(
                            NodeKind::Property,
                            fname,
                            owner,
                            owner_name,
                            field,
                            sig.clone(),
                            doc.clone(),
                        );
                        if let Some(t) = ty.and_then(|t| self.type_name(t)) {
                            self.hint(Some(owner), n, HintSource::Annotation(t));
                        }
                    }
                    if !c2.goto_next_sibling() {
                        break;
                    }
                }
            }
            if named {
                continue;
            }
            // Embedded field: `T`, `*T`, `pkg.T`, `G[int]`.
            let Some(ty) = ty else { continue };
            let Some(target) = self.type_name(ty) else {
                continue;
            };
            let short = target.rsplit('.').next().unwrap_or(&target).to_string();
            self.member(NodeKind::Property, &short, owner, owner_name, field, sig, doc);
            self.facts.type_hints.push(TypeHint {
                scope: Some(owner),
                name: short.into(),
                source: HintSource::Annotation(target.clone()),
                line: start_line(field),
                visible: None,
            });
            self.facts.heritage.push(Heritage {
                symbol: owner,
                kind: HeritageKind::Embeds,
                target,
            });
        }
    }

    pub(super) fn interface_elems(&mut self, iface: Node<'_>, owner: SymbolIdx, owner_name: &str) {
        let k = self.k;
        let mut c = iface.walk();
        for (elem, docs) in with_docs(iface.named_children(&mut c), k.comment) {
            let kind = elem.kind_id();
            if kind == k.method_elem {
                let Some(name_node) = elem.child_by_field_id(k.f_name) else {
                    continue;
                };
                let doc = self.doc(&docs);
                let sig = signature(elem, None, self.src);
                let idx = self.member(
                    NodeKind::Method,
                    self.text(name_node),
                    owner,
                    owner_name,
                    elem,
                    sig,
                    doc,
                );
                if let Some(result) = elem.child_by_field_id(k.f_result)
                    && let Some(t) = self.result_type(result)
                {
                    self.facts.type_hints.push(TypeHint {
                        scope: Some(idx),
                        name: String::new().into(),
                        source: HintSource::Return(t),
                        line: start_line(result),
                        visible: None,
                    });
                }
            } else if kind == k.type_elem && elem.named_child_count() == 1 {
                // An embedded interface (`io.Reader`), not a union or `~T` constraint.
                let Some(ty) = elem.named_child(0) else {
                    continue;
                };
                let tk = ty.kind_id();
                if tk != k.type_identifier && tk != k.qualified_type && tk != k.generic_type {
                    continue;
                }
                if let Some(target) = self.type_name(ty) {
                    self.facts.heritage.push(Heritage {
                        symbol: owner,
                        kind: HeritageKind::Extends,
                        target,
                    });
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn member(
        &mut self,
        kind: NodeKind,
        name: &str,
        owner: SymbolIdx,
        owner_name: &str,
        node: Node<'_>,
        signature: String,
        doc: Option<String>,
    ) -> SymbolIdx {
        self.push_symbol(Symbol {
            kind,
            name: name.to_string(),
            qualified_name: format!("{owner_name}.{name}"),
            parent: Some(owner),
            start_line: start_line(node),
            end_line: end_line(node),
            signature,
            doc,
            exported: is_exported(name),
        })
    }

    /// Package-level `const` / `var` declarations, single or grouped.
    pub(super) fn value_decl(&mut self, decl: Node<'_>, docs: &[Node<'_>]) {
        let k = self.k;
        let is_var = decl.kind_id() == k.var_declaration;
        // `var ( ... )` wraps its specs in a var_spec_list; `const ( ... )` does not.
        let (container, grouped) = match child_of_kind(decl, k.var_spec_list) {
            Some(list) => (list, true),
            None => (decl, has_child_kind(decl, k.lparen)),
        };
        let group_doc = if grouped { self.doc(docs) } else { None };
        let mut c = container.walk();
        for (spec, spec_docs) in with_docs(container.children(&mut c), k.comment) {
            let kind = spec.kind_id();
            if kind != k.var_spec && kind != k.const_spec {
                if !spec.is_named() {
                    continue;
                }
                self.walk(spec, MODULE);
                continue;
            }
            let (outer, doc) = if grouped {
                (spec, self.doc(&spec_docs).or_else(|| group_doc.clone()))
            } else {
                (decl, self.doc(docs))
            };
            let sig = signature(outer, None, self.src);
            let sym_kind = if is_var { NodeKind::Variable } else { NodeKind::Constant };
            // The oracle attributes a var spec's initialiser calls to its first name.
            let mut first: Option<Option<SymbolIdx>> = None;
            let mut c2 = spec.walk();
            if c2.goto_first_child() {
                loop {
                    if at_field(&c2, k.f_name) {
                        let n = c2.node();
                        let name = self.text(n);
                        if name == "_" {
                            first.get_or_insert(None);
                        } else {
                            let idx = self.push_symbol(Symbol {
                                kind: sym_kind,
                                name: name.to_string(),
                                qualified_name: name.to_string(),
                                parent: None,
                                start_line: start_line(outer),
                                end_line: end_line(outer),
                                signature: sig.clone(),
                                doc: doc.clone(),
                                exported: is_exported(name),
                            });
                            first.get_or_insert(Some(idx));
                        }
                    }
                    if !c2.goto_next_sibling() {
                        break;
                    }
                }
            }
            // The declared type, and the names the value reads, are the first name's.
            let ctx = Ctx::at(first.flatten(), None);
            if let Some(ty) = spec.child_by_field_id(k.f_type) {
                self.type_refs(ty, ctx);
            }
            self.value_refs(spec, ctx);
            if is_var {
                self.var_spec_hints(spec, None);
                if let Some(value) = spec.child_by_field_id(k.f_value) {
                    self.walk(value, ctx);
                }
                if let Some(ty) = spec.child_by_field_id(k.f_type) {
                    self.walk(ty, MODULE.without_types());
                }
            } else {
                self.walk(spec, ctx.without_types());
            }
        }
    }
}
