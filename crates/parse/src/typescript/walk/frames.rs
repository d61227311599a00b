//! Frames and symbols: the enclosing declarations a walk is inside, and the symbols they become.

use super::*;

impl<'s, 't> Walker<'s, 't> {
    pub(super) fn push_frame(
        &mut self,
        owner: Node<'t>,
        func: bool,
        sym: Option<SymbolIdx>,
        lazy: Option<Node<'t>>,
    ) {
        let named = sym.is_some() || lazy.is_some();
        self.push_frame_full(owner, func, named, sym, lazy, false, false);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_frame_full(
        &mut self,
        owner: Node<'t>,
        func: bool,
        named: bool,
        sym: Option<SymbolIdx>,
        lazy: Option<Node<'t>>,
        ns: bool,
        ambient: bool,
    ) {
        let prev_named = self.top_named();
        let ambient = ambient || self.frames.last().is_some_and(|f| f.ambient);
        if func {
            self.func_depth += 1;
        }
        self.frames.push(Frame {
            owner: owner.id(),
            func,
            named,
            sym,
            lazy,
            prev_named,
            ns,
            ambient,
        });
    }

    pub(super) fn top_named(&self) -> Option<usize> {
        let last = self.frames.len().checked_sub(1)?;
        let f = self.frames.get(last)?;
        if f.named { Some(last) } else { f.prev_named }
    }

    /// The nearest enclosing named symbol, materialising lazy containers on the way.
    pub(super) fn scope(&mut self) -> Option<SymbolIdx> {
        self.scope_at(self.top_named())
    }

    /// The symbol of named frame `top` (`None`: module level), materialising it and the lazy
    /// containers around it.
    pub(super) fn scope_at(&mut self, top: Option<usize>) -> Option<SymbolIdx> {
        let top = top?;
        if let Some(s) = self.frames.get(top).and_then(|f| f.sym) {
            return Some(s);
        }
        // Unmaterialised chain, innermost first, down to the first materialised frame.
        let mut chain = Vec::new();
        let mut parent = None;
        let mut j = Some(top);
        while let Some(k) = j {
            let Some(f) = self.frames.get(k) else { break };
            if let Some(s) = f.sym {
                parent = Some(s);
                break;
            }
            chain.push(k);
            j = f.prev_named;
        }
        for &k in chain.iter().rev() {
            let Some(pair) = self.frames.get(k).and_then(|f| f.lazy) else {
                return parent;
            };
            let sym = self.lazy_property(pair, parent);
            if let Some(f) = self.frames.get_mut(k) {
                f.sym = Some(sym);
            }
            parent = Some(sym);
        }
        parent
    }

    /// The nearest enclosing named symbol that already exists, without materialising lazy
    /// containers: a field read inside a module-level data literal is not worth a symbol.
    pub(super) fn existing_scope(&self) -> Option<SymbolIdx> {
        let mut j = self.top_named();
        while let Some(k) = j {
            let f = self.frames.get(k)?;
            if let Some(s) = f.sym {
                return Some(s);
            }
            j = f.prev_named;
        }
        None
    }

    pub(super) fn lazy_property(&mut self, pair: Node<'t>, parent: Option<SymbolIdx>) -> SymbolIdx {
        let name =
            pair.child_by_field_name("key").map_or_else(String::new, |k| prop_name(k, self.src));
        self.push_symbol(NewSym {
            kind: NodeKind::Property,
            name,
            qualified: None,
            node: pair,
            parent,
            signature: util::signature(pair, None, self.src),
            doc: self.doc(pair),
            export: Export::Parent,
        })
    }

    pub(super) fn qualified(&self, sym: SymbolIdx) -> &str {
        self.facts.symbols.get(sym as usize).map_or("", |s| s.qualified_name.as_str())
    }

    pub(super) fn push_symbol(&mut self, s: NewSym<'t>) -> SymbolIdx {
        let qualified_name = match (s.qualified, s.parent) {
            (Some(q), _) => q,
            (None, Some(p)) => format!("{}.{}", self.qualified(p), s.name),
            (None, None) => s.name.clone(),
        };
        let idx = to_u32(self.facts.symbols.len());
        self.qmap.entry(qualified_name.clone()).or_insert(idx);
        self.facts.symbols.push(Symbol {
            kind: s.kind,
            name: s.name,
            qualified_name,
            parent: s.parent,
            start_line: start_line(s.node),
            end_line: end_line(s.node),
            signature: s.signature,
            doc: s.doc,
            exported: false,
        });
        self.export.push(s.export);
        self.type_params(s.node, idx);
        idx
    }

    /// Records the type parameters `<T extends Bound, U>` a declaration (or the function or
    /// class a declarator, property or field holds) declares, with their constraints.
    fn type_params(&mut self, node: Node<'t>, sym: SymbolIdx) {
        let holder = match node.kind() {
            "variable_declarator" | "pair" | "public_field_definition" | "field_definition" => {
                match node.child_by_field_name("value") {
                    Some(v) => v,
                    None => return,
                }
            }
            _ => node,
        };
        let Some(params) = holder.child_by_field_name("type_parameters") else { return };
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            if p.kind() != "type_parameter" {
                continue;
            }
            let Some(name) = p.child_by_field_name("name") else { continue };
            let constraint = p
                .child_by_field_name("constraint")
                .and_then(first_named)
                .and_then(|c| type_name(c, self.src));
            self.ts.type_params.push(TypeParam {
                symbol: sym,
                name: text(name, self.src).to_string(),
                constraint,
            });
        }
    }

    /// Export status of a declaration from its wrappers, and the node its doc comment sits on.
    pub(super) fn decl_context(&self, node: Node<'t>, pi: Option<usize>) -> (Node<'t>, Export) {
        let mut anchor = node;
        let (mut export_kw, mut declare) = (false, false);
        let mut i = pi;
        while let Some(p) = self.anc_at(i) {
            match p.kind() {
                "export_statement" => export_kw = true,
                "ambient_declaration" => declare = true,
                "lexical_declaration" | "variable_declaration" | "expression_statement" => {}
                _ => break,
            }
            anchor = p;
            i = i.and_then(|i| i.checked_sub(1));
        }
        let export = match self.top_named().and_then(|i| self.frames.get(i)) {
            None => {
                if export_kw || declare {
                    Export::Yes
                } else {
                    Export::No
                }
            }
            Some(f) if f.ns && (export_kw || declare || f.ambient) => Export::Parent,
            Some(_) => Export::No,
        };
        (anchor, export)
    }

    pub(super) fn doc(&self, anchor: Node<'t>) -> Option<String> {
        let comments = util::preceding_comments(anchor, |k| k == "comment");
        if comments.is_empty() {
            return None;
        }
        util::clean_comments(comments.iter().map(|c| text(*c, self.src)))
    }

    /// The `@param {Type} name` tags of the JSDoc comment on the function that owns the
    /// parameter list `params` (on the declaration, or on the statement a function value is
    /// assigned or exported in), for types written as a plain, possibly dotted, name that
    /// starts upper-case (`{Reply}`, `{http.Server}`): JavaScript's way to type a parameter.
    /// Unions, generics, records and lower-case names (`{object}`, `{string}`) name no class.
    pub(super) fn jsdoc_params(&self, params: Node<'t>) -> Vec<(String, String)> {
        let Some(mut anchor) = params.parent() else { return Vec::new() };
        while let Some(p) = anchor.parent().filter(|p| {
            matches!(
                p.kind(),
                "variable_declarator"
                    | "lexical_declaration"
                    | "variable_declaration"
                    | "export_statement"
                    | "assignment_expression"
                    | "expression_statement"
                    | "pair"
            )
        }) {
            anchor = p;
        }
        let comments = util::preceding_comments(anchor, |k| k == "comment");
        let Some(doc) =
            comments.last().map(|c| text(*c, self.src)).filter(|t| t.starts_with("/**"))
        else {
            return Vec::new();
        };
        jsdoc_param_tags(doc)
    }

    /// `util::signature`, but starting after leading decorators.
    pub(super) fn sig(&self, decl: Node<'t>, body: Option<Node<'t>>) -> String {
        let leading_decorator = decl.child(0).is_some_and(|c| c.kind() == "decorator");
        if !leading_decorator {
            return util::signature(decl, body, self.src);
        }
        let mut cursor = decl.walk();
        let start = decl
            .children(&mut cursor)
            .find(|c| !matches!(c.kind(), "decorator" | "comment"))
            .map_or(decl.start_byte(), |c| c.start_byte());
        self.sig_span(start, body.map_or(decl.end_byte(), |b| b.start_byte()))
    }

    /// The signature rule of `util::signature` over an explicit byte range.
    pub(super) fn sig_span(&self, start: usize, end: usize) -> String {
        let end = end.max(start).min(start + util::MAX_SIGNATURE * 4);
        let mut e = end.min(self.src.len());
        while e > start && !self.src.is_char_boundary(e) {
            e -= 1;
        }
        let mut sig = util::collapse_whitespace(self.src.get(start..e).unwrap_or(""));
        while sig.ends_with(['{', '=', ' ']) {
            sig.pop();
        }
        sig
    }

    /// A TS overload signature followed by another declaration of the same name (the next
    /// overload or the implementation): only the last one is kept.
    pub(super) fn superseded(&self, node: Node<'t>, pi: Option<usize>) -> bool {
        let Some(name) = node.child_by_field_name("name") else {
            return false;
        };
        let name = text(name, self.src);
        // Climb `export` / `declare` wrappers to the statement.
        let mut stmt = node;
        let mut i = pi;
        while let Some(p) = self.anc_at(i) {
            if !matches!(p.kind(), "export_statement" | "ambient_declaration") {
                break;
            }
            stmt = p;
            i = i.and_then(|i| i.checked_sub(1));
        }
        let mut next = stmt.next_named_sibling();
        while let Some(n) = next {
            if matches!(n.kind(), "comment" | "decorator") {
                next = n.next_named_sibling();
            } else {
                break;
            }
        }
        let Some(mut next) = next else { return false };
        loop {
            let inner = match next.kind() {
                "export_statement" => next.child_by_field_name("declaration"),
                "ambient_declaration" => first_named(next),
                _ => None,
            };
            match inner {
                Some(n) => next = n,
                None => break,
            }
        }
        matches!(
            next.kind(),
            "function_declaration"
                | "generator_function_declaration"
                | "function_signature"
                | "method_definition"
                | "method_signature"
                | "abstract_method_signature"
        ) && next.child_by_field_name("name").is_some_and(|n| text(n, self.src) == name)
    }

    /// A return type nothing writes, inferred from a `return` of the function itself (its frame
    /// the innermost function's, not a callback's): `return this` in a method returns its
    /// class (a JavaScript constructor for `X.prototype.m = function`), `return new X(...)`
    /// returns `X`. So chains resolve (`reply.code(404).send()`); a written return type,
    /// recorded when the function opened, wins (the first return hint of a scope counts).
    pub(super) fn inferred_return(&mut self, ret: Node<'t>) {
        let Some(value) = first_named(ret).map(unwrap_expr) else { return };
        let Some(frame) = self.frames.iter().rev().find(|f| f.func) else { return };
        let Some(sym) = frame.sym else { return };
        let Some(s) = self.facts.symbols.get(sym as usize) else { return };
        let ty = match value.kind() {
            "this" if s.kind == NodeKind::Method => match s.parent {
                Some(p) => self.qualified(p).to_string(),
                None => return,
            },
            "new_expression" => {
                let Some(ctor) = value.child_by_field_name("constructor") else { return };
                if !matches!(ctor.kind(), "identifier" | "member_expression") {
                    return;
                }
                match path_of(ctor, self.src) {
                    Some(p) => p.join("."),
                    None => return,
                }
            }
            _ => return,
        };
        self.facts.type_hints.push(TypeHint {
            scope: Some(sym),
            name: String::new().into(),
            source: HintSource::Return(ty),
            line: start_line(ret),
            visible: None,
        });
    }

    pub(super) fn return_hint(&mut self, func: Node<'t>, sym: SymbolIdx) {
        let Some(t) = func.child_by_field_name("return_type") else {
            return;
        };
        if let Some(ty) = type_name(t, self.src) {
            if let Some(args) = type_args(t, self.src) {
                self.ts.hint_args.push((to_u32(self.facts.type_hints.len()), args));
            }
            self.facts.type_hints.push(TypeHint {
                scope: Some(sym),
                name: String::new().into(),
                source: HintSource::Return(ty),
                line: start_line(func),
                visible: None,
            });
        }
    }
}

/// `@param {Type} name` pairs of a JSDoc comment's text (see [`Walker::jsdoc_params`]).
fn jsdoc_param_tags(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for tag in doc.split("@param").skip(1) {
        let tag = tag.trim_start();
        let Some(rest) = tag.strip_prefix('{') else { continue };
        let Some((ty, rest)) = rest.split_once('}') else { continue };
        let ty = ty.trim().trim_start_matches(['?', '!']).trim_end_matches('=');
        let name: String = rest
            .trim_start()
            .trim_start_matches('[')
            .trim_start_matches("...")
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
            .collect();
        let plain = ty.split('.').all(|seg| {
            seg.chars().next().is_some_and(|c| c.is_alphabetic() || matches!(c, '_' | '$'))
                && seg.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
        });
        let last = ty.rsplit('.').next().unwrap_or(ty);
        if name.is_empty() || !plain || !last.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        out.push((name, ty.to_string()));
    }
    out
}

#[cfg(test)]
mod jsdoc_tests {
    use super::jsdoc_param_tags;

    #[test]
    fn param_tags_with_a_class_name() {
        let doc = "/**\n * Handles it.\n * @param {Error} err the error\n * @param {object} req\n \
                   * @param {Reply} reply\n * @param {http.Server=} [server]\n \
                   * @param {string|Buffer} body\n * @param {Array<Reply>} all\n \
                   * @param {...Hook} hooks\n * @param {?Request} request\n */";
        let got = jsdoc_param_tags(doc);
        let want = [
            ("err", "Error"),
            ("reply", "Reply"),
            ("server", "http.Server"),
            ("request", "Request"),
        ];
        assert_eq!(
            got,
            want.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect::<Vec<_>>()
        );
    }
}
