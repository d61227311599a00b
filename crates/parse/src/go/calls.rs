//! Call sites and references: who calls or names what, with the receiver chain as written.

use super::*;

/// Where a selector sits, as the walk knows it: its parent and grandparent (inside the
/// walked subtree; `None` at its root) and whether it is its parent's `function` field.
#[derive(Clone, Copy)]
pub(super) struct Place<'t> {
    parent: Option<Node<'t>>,
    grandparent: Option<Node<'t>>,
    is_function: bool,
}

impl<'s> Extractor<'s> {
    /// Walks a subtree once for call sites and (inside functions) local declaration hints.
    pub(super) fn walk(&mut self, root: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let mut cursor = root.walk();
        let mut depth = 0usize;
        // The nodes above the cursor inside `root` (asking a node for its parent costs a
        // descent from the tree's root).
        let mut ancestors: Vec<Node<'_>> = Vec::new();
        let base = self.scopes.len();
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            // Leave the scopes of finished siblings and subtrees; enter this node's.
            while self.scopes.len() > base && self.scopes.last().is_some_and(|s| s.0 >= depth) {
                self.scopes.pop();
            }
            if self.is_scope(kind) {
                let end = node.end_position();
                let line = u32::try_from(end.row + 1).unwrap_or(u32::MAX);
                let col = u32::try_from(end.column).unwrap_or(u32::MAX);
                self.scopes.push((depth, line, col));
            }
            if k.value_container.get(usize::from(kind)).copied().unwrap_or(false)
                || (ctx.scope.is_some() && (kind == k.var_spec || kind == k.const_spec))
            {
                self.value_refs(node, ctx);
            }
            if kind == k.composite_literal {
                self.literal_keys(node, ctx);
            }
            if ctx.types
                && k.type_root.get(usize::from(kind)).copied().unwrap_or(false)
                && !matches!(cursor.field_id(), Some(f) if f.get() == k.f_name || f.get() == k.f_receiver)
            {
                // A type where code names one: a signature, `var x T`, `T{}`, `x.(T)`,
                // `T(x)`, `case *T:`, `F[T]`. Not a declaration's own name, not a method's
                // receiver (every method would refer to its type).
                self.type_refs(node, ctx);
            }
            if kind == k.call_expression {
                if let Some(function) = node.child_by_field_id(k.f_function)
                    && let Some((callee, name)) = self.callee(function)
                {
                    if ctx.scope.is_some() {
                        self.chain_accesses(&callee.receiver, name, ctx);
                    }
                    self.call(callee, name, ctx);
                }
            } else if kind == k.type_conversion_expression {
                if let Some((callee, name)) = self.conversion_callee(node) {
                    self.call(callee, name, ctx);
                }
            } else if kind == k.selector_expression && ctx.scope.is_some() {
                let n = ancestors.len();
                let place = Place {
                    parent: n.checked_sub(1).and_then(|i| ancestors.get(i)).copied(),
                    grandparent: n.checked_sub(2).and_then(|i| ancestors.get(i)).copied(),
                    is_function: cursor.field_id().is_some_and(|f| f.get() == k.f_function),
                };
                self.access(node, place, ctx);
            } else if ctx.scope.is_some() {
                if kind == k.short_var_declaration {
                    if let (Some(left), Some(right)) =
                        (node.child_by_field_id(k.f_left), node.child_by_field_id(k.f_right))
                    {
                        let mut c = left.walk();
                        let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
                        self.assign_hints(&names, right, ctx.scope);
                        self.declare(names);
                    }
                } else if kind == k.var_spec || kind == k.const_spec {
                    if kind == k.var_spec {
                        self.var_spec_hints(node, ctx.scope);
                    }
                    self.param_names(node, |ex, n| ex.declare([n]));
                } else if kind == k.range_clause {
                    self.range_hints(node, ctx.scope);
                    if let Some(left) = node.child_by_field_id(k.f_left) {
                        self.declare_children(left);
                    }
                } else if kind == k.type_switch_statement {
                    self.type_switch_hints(node, ctx.scope);
                    if let Some(alias) = node.child_by_field_id(k.f_alias) {
                        self.declare_children(alias);
                    }
                } else if kind == k.func_literal
                    && let Some(params) = node.child_by_field_id(k.f_parameters)
                {
                    // A function literal is transparent (its calls belong to the enclosing
                    // function), so its parameters are typed locals of that function from
                    // the literal's line on: `return func(c *Context) { c.Next() }`.
                    self.param_hints(params, ctx.scope);
                    self.declare_params(params);
                    if let Some(result) = node.child_by_field_id(k.f_result) {
                        self.declare_params(result);
                    }
                }
            }
            let look_inside = match k.inside.get(usize::from(kind)) {
                Some(Inside::Never) => false,
                // A selector holds a field read; one that is a whole selector was read above.
                Some(Inside::IfParen) if kind == k.selector_expression => self.has_paren(node),
                // In a function every name read counts (REFERS_TO constants and variables);
                // the big generated tables this skips are package-level.
                Some(Inside::IfParen) if ctx.scope.is_some() => true,
                Some(Inside::IfParen) => self.may_name_something(node),
                Some(Inside::Always) | None => true,
            };
            if look_inside && cursor.goto_first_child() {
                depth += 1;
                ancestors.push(node);
                continue;
            }
            loop {
                if depth == 0 {
                    self.scopes.truncate(base);
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    self.scopes.truncate(base);
                    return;
                }
                depth -= 1;
                ancestors.pop();
            }
        }
    }

    /// Whether `node`'s text, outside string and rune literals, holds a `(`, a `.` (a call,
    /// or a selector that may read a field) or a name (a constant or variable read, `T{`);
    /// see [`NOTHING_INSIDE_WITHOUT_PAREN`]. The generated tables of numbers and strings this
    /// is for (`{0x0041, 0x005a, 1}`, `{"a", "b"}`) hold none: digits and letters inside a
    /// number do not start a name.
    pub(super) fn may_name_something(&self, node: Node<'_>) -> bool {
        let Some(b) = self.src.as_bytes().get(node.start_byte()..node.end_byte()) else {
            return true;
        };
        let mut quote: Option<u8> = None;
        let mut prev = b' ';
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match quote {
                Some(q) => {
                    if c == b'\\' && q != b'`' {
                        i += 1;
                    } else if c == q {
                        quote = None;
                    }
                }
                None => {
                    if c == b'"' || c == b'\'' || c == b'`' {
                        quote = Some(c);
                    } else if c == b'(' || c == b'.' || (is_name_start(c) && !is_name_byte(prev)) {
                        return true;
                    }
                }
            }
            prev = c;
            i += 1;
        }
        false
    }

    /// Whether `node`'s text holds a byte `hit` accepts (true when its range is not the text's).
    pub(super) fn text_has(&self, node: Node<'_>, hit: impl Fn(u8) -> bool) -> bool {
        self.src
            .as_bytes()
            .get(node.start_byte()..node.end_byte())
            .is_none_or(|b| b.iter().any(|&c| hit(c)))
    }

    /// A selector that is not the function of a call: a field read (or written, on the left
    /// of an assignment or in `x.f++`), recorded with its receiver in a callee's shapes;
    /// resolution keeps those that name a struct field. Package members (`http.StatusOK`)
    /// come out too and resolve to no field.
    pub(super) fn access(&mut self, node: Node<'_>, place: Place<'_>, ctx: Ctx) {
        let k = self.k;
        // The walk's root has no parent in hand: ask the tree (rare).
        let parent = if place.parent.is_none() { node.parent() } else { place.parent };
        let is_function = if place.parent.is_none() {
            parent.is_some_and(|p| {
                p.kind_id() == k.call_expression
                    && p.child_by_field_id(k.f_function).is_some_and(|f| f.id() == node.id())
            })
        } else {
            place.is_function && parent.is_some_and(|p| p.kind_id() == k.call_expression)
        };
        if is_function {
            return;
        }
        let Some((callee, name)) = self.callee(node) else { return };
        match &callee.receiver {
            Receiver::None | Receiver::Other => return,
            // `pkg.Name`: a package member, not a field (unless a local shadows the import,
            // which is rare enough to leave out).
            Receiver::Path(p) if p.len() == 1 && self.is_import_name(&p[0]) => return,
            _ => {}
        }
        let write = parent.is_some_and(|p| {
            let p = if p.kind_id() == k.expression_list {
                place.grandparent.or_else(|| p.parent()).unwrap_or(p)
            } else {
                p
            };
            (p.kind_id() == k.assignment_statement
                && p.child_by_field_id(k.f_left).is_some_and(|l| {
                    l.start_byte() <= node.start_byte() && node.end_byte() <= l.end_byte()
                }))
                || p.kind_id() == k.inc_statement
                || p.kind_id() == k.dec_statement
        });
        self.chain_accesses(&callee.receiver, name, ctx);
        self.facts.accesses.push(FieldAccess {
            receiver: callee.receiver,
            name: callee.name,
            line: start_line(name),
            enclosing: ctx.enclosing,
            write,
        });
    }

    /// The reads inside a selector chain, which the walk does not enter: `c.engine.render` and
    /// `c.engine.render.Run()` read `c.engine` and (for the call) `c.engine.render` too. A
    /// leading package name (`pkg.Var.f`) is a package member, not a field.
    pub(super) fn chain_accesses(&mut self, receiver: &Receiver, name: Node<'_>, ctx: Ctx) {
        let Receiver::Path(parts) = receiver else { return };
        if parts.len() < 2 {
            return;
        }
        let first = if self.is_import_name(&parts[0]) { 2 } else { 1 };
        for i in first..parts.len() {
            self.facts.accesses.push(FieldAccess {
                receiver: Receiver::Path(parts[..i].to_vec()),
                name: parts[i].clone(),
                line: start_line(name),
                enclosing: ctx.enclosing,
                write: false,
            });
        }
    }

    /// Whether `name` is the name an import of this file binds (its alias, or the last
    /// element of its path, which is the package name by convention).
    pub(super) fn is_import_name(&mut self, name: &str) -> bool {
        // Imports precede every body in a Go file: their names are read once, at the first
        // selector of a body.
        let imports = &self.facts.imports;
        let names = self.import_names.get_or_insert_with(|| {
            imports
                .iter()
                .map(|i| match i.bindings.first().and_then(|b| b.local.clone()) {
                    Some(alias) => alias,
                    None => i.source.rsplit('/').next().unwrap_or(&i.source).to_string(),
                })
                .collect()
        });
        names.iter().any(|n| n == name)
    }

    /// Whether `node`'s text holds a `(` (see [`NOTHING_INSIDE_WITHOUT_PAREN`]).
    pub(super) fn has_paren(&self, node: Node<'_>) -> bool {
        self.text_has(node, |c| c == b'(')
    }

    /// Names used as values at a container of values ([`VALUE_CONTAINERS`]): call arguments,
    /// composite literal elements (keyed or not), returned values, both sides of `=` and the
    /// right of `:=`, operands, indexes, conditions, `case` values, a `var` / `const` spec's
    /// values. Only bare names and package members are candidates (`less`, `maxLen`,
    /// `strings.Index`); the function's own locals are left out, and resolution keeps those
    /// that name a package-level function, method, constant, variable or type. One per
    /// (enclosing symbol, name). Looked at from the container, not per identifier, since
    /// asking a node for its parent costs a descent from the root.
    pub(super) fn value_refs(&mut self, node: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let kind = node.kind_id();
        // (node, whether its named children are the values rather than the node itself)
        let parts: [Option<(Node<'_>, bool)>; 2] =
            if kind == k.short_var_declaration || kind == k.range_clause {
                [node.child_by_field_id(k.f_right).map(|n| (n, false)), None]
            } else if kind == k.assignment_statement {
                [
                    node.child_by_field_id(k.f_right).map(|n| (n, false)),
                    node.child_by_field_id(k.f_left).map(|n| (n, false)),
                ]
            } else if kind == k.return_statement {
                [node.named_child(0).map(|n| (n, false)), None]
            } else if kind == k.expression_case || kind == k.var_spec || kind == k.const_spec {
                [node.child_by_field_id(k.f_value).map(|n| (n, false)), None]
            } else {
                [Some((node, true)), None]
            };
        let mut items: Vec<Node<'_>> = Vec::new();
        for (part, children) in parts.into_iter().flatten() {
            if children || part.kind_id() == k.expression_list {
                let mut c = part.walk();
                items.extend(part.named_children(&mut c));
            } else {
                items.push(part);
            }
        }
        for item in items {
            // `{f}` and `{key: f}` hold the value in a literal_element.
            let value = if item.kind_id() == k.keyed_element {
                item.named_child(1).and_then(|v| v.named_child(0))
            } else if item.kind_id() == k.literal_element {
                item.named_child(0)
            } else {
                Some(item)
            };
            if let Some(v) = value {
                self.value_ref(v, ctx);
            }
        }
    }

    /// A value node that is a bare name or a package member (`maxLen`, `strings.Index`),
    /// recorded unless it is a local of the function or already recorded for the symbol.
    pub(super) fn value_ref(&mut self, v: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let vk = v.kind_id();
        let callee = if vk == k.identifier {
            let name = self.text(v);
            if matches!(name, "nil" | "true" | "false" | "iota" | "_")
                || (ctx.scope.is_some() && self.locals.contains(name))
            {
                return;
            }
            Some((Callee { receiver: Receiver::None, name: name.into() }, v))
        } else if vk == k.selector_expression {
            // `pkg.F` only: `x.m` (a method value, or far more often a field) is already
            // an access, which resolution turns into REFERS_TO when it names a method.
            self.callee(v).filter(|(c, _)| {
                matches!(&c.receiver, Receiver::Path(p) if p.len() == 1 && self.is_import_name(&p[0]))
            })
        } else {
            None
        };
        let Some((callee, name)) = callee else { return };
        if !self.seen_values.insert((ctx.enclosing, self.text(v))) {
            return;
        }
        self.facts.value_refs.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name),
            col: start_col(name),
            enclosing: ctx.enclosing,
            local: false,
        });
    }

    /// The keys of a map, slice or array literal are values (`map[Code]string{CodeNo: "no"}`,
    /// `[...]string{KindA: "a"}`); a struct literal's keys are field names.
    pub(super) fn literal_keys(&mut self, lit: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let Some(ty) = lit.child_by_field_id(k.f_type) else { return };
        // `T{F: v}`, `pkg.T{F: v}`: each key writes field F of a T (the receiver is shaped as
        // the conversion `T(...)`, whose type resolution knows). A named map type's keys
        // are values, which resolution drops as no field of it.
        if let Some((callee, _)) = self.conversion_callee(lit) {
            let Some(body) = lit.child_by_field_id(k.f_body) else { return };
            let mut c = body.walk();
            let keys: Vec<Node<'_>> = body
                .named_children(&mut c)
                .filter(|e| e.kind_id() == k.keyed_element)
                .filter_map(|e| e.named_child(0).and_then(|key| key.named_child(0)))
                .filter(|key| key.kind_id() == k.identifier)
                .collect();
            for key in keys {
                self.facts.accesses.push(FieldAccess {
                    receiver: Receiver::CallResult(Box::new(callee.clone())),
                    name: self.text(key).into(),
                    line: start_line(key),
                    enclosing: ctx.enclosing,
                    write: true,
                });
            }
            return;
        }
        let tk = ty.kind_id();
        if tk != k.map_type
            && tk != k.slice_type
            && tk != k.array_type
            && tk != k.implicit_length_array_type
        {
            return;
        }
        let Some(body) = lit.child_by_field_id(k.f_body) else { return };
        self.map_keys(body, Some(ty), ctx);
    }

    /// The keys of literal `body` of a map, slice or array type `ty` as values; for a map of
    /// maps, the keys of its elements' literals whose type is elided too
    /// (`map[K]map[F]string{k: {FlagA: "a"}}`).
    fn map_keys(&mut self, body: Node<'_>, ty: Option<Node<'_>>, ctx: Ctx) {
        let k = self.k;
        let mut c = body.walk();
        let elements: Vec<Node<'_>> =
            body.named_children(&mut c).filter(|e| e.kind_id() == k.keyed_element).collect();
        let inner = ty
            .filter(|t| t.kind_id() == k.map_type)
            .and_then(|t| t.child_by_field_id(k.f_value))
            .filter(|v| v.kind_id() == k.map_type);
        for e in elements {
            if let Some(key) = e.named_child(0).and_then(|key| key.named_child(0)) {
                self.value_ref(key, ctx);
            }
            if let Some(inner) = inner
                && let Some(value) = e.named_child(1).and_then(|v| v.named_child(0))
                && value.kind_id() == k.literal_value
            {
                self.map_keys(value, Some(inner), ctx);
            }
        }
    }

    /// The named types a type expression refers to (`map[string]*pkg.T` -> `pkg.T`), one per
    /// (enclosing symbol, name): predeclared types and type parameters left out, and embedded
    /// fields and interface elements too (those are EMBEDS, or constraints).
    pub(super) fn type_refs(&mut self, root: Node<'_>, ctx: Ctx) {
        let k = self.k;
        let enclosing = ctx.enclosing;
        let mut cursor = root.walk();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let mut inside = true;
            if kind == k.type_identifier {
                inside = false;
                let name = self.text(node);
                if !is_predeclared_type(name) && !self.tparams.contains(&name) {
                    self.type_ref(Receiver::None, name, node, node, enclosing);
                }
            } else if kind == k.qualified_type {
                inside = false;
                if let (Some(pkg), Some(name)) =
                    (node.child_by_field_id(k.f_package), node.child_by_field_id(k.f_name))
                {
                    let receiver = Receiver::Path(vec![self.text(pkg).into()]);
                    self.type_ref(receiver, self.text(name), name, node, enclosing);
                }
            } else if kind == k.array_type {
                // `[sniffLen]byte`: the length names a constant.
                if let Some(len) = node.child_by_field_id(k.f_length) {
                    self.value_ref(len, ctx);
                }
            } else if (kind == k.field_declaration && node.child_by_field_id(k.f_name).is_none())
                || kind == k.type_elem
                || kind == k.comment
            {
                inside = false;
            }
            if inside && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if depth == 0 {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                depth -= 1;
            }
        }
    }

    pub(super) fn type_ref(
        &mut self,
        receiver: Receiver,
        name: &str,
        name_node: Node<'_>,
        whole: Node<'_>,
        enclosing: Option<SymbolIdx>,
    ) {
        if !self.seen_types.insert((enclosing, self.text(whole))) {
            return;
        }
        self.facts.type_refs.push(CallSite {
            callee: Callee { receiver, name: name.into() },
            kind: CallKind::Call,
            line: start_line(name_node),
            col: start_col(name_node),
            enclosing,
            local: false,
        });
    }

    /// Adds the identifiers among `names` to the function's locals.
    pub(super) fn declare<'t>(&mut self, names: impl IntoIterator<Item = Node<'t>>) {
        for n in names {
            if n.kind_id() == self.k.identifier {
                let name = self.text(n);
                if name != "_" {
                    self.locals.insert(name);
                }
            }
        }
    }

    /// [`Extractor::declare`] for a list node's named children (`a, b :=`, `for k, v :=`).
    pub(super) fn declare_children(&mut self, list: Node<'_>) {
        let mut c = list.walk();
        let names: Vec<Node<'_>> = list.named_children(&mut c).collect();
        self.declare(names);
    }

    /// Adds the names a parameter list declares to the function's locals.
    pub(super) fn declare_params(&mut self, list: Node<'_>) {
        let k = self.k;
        let mut c = list.walk();
        let params: Vec<Node<'_>> = list
            .named_children(&mut c)
            .filter(|p| {
                p.kind_id() == k.parameter_declaration
                    || p.kind_id() == k.variadic_parameter_declaration
            })
            .collect();
        for p in params {
            self.param_names(p, |ex, n| ex.declare([n]));
        }
    }

    pub(super) fn call(&mut self, callee: Callee, name: Node<'_>, ctx: Ctx) {
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(name),
            col: start_col(name),
            enclosing: ctx.enclosing,
            local: false,
        });
    }

    /// `F[int](x)` and `pkg.F[int](x)` parse as conversions to a generic type; `T(x)` to a
    /// named type may too. Those are calls by name; conversions to `[]byte`, `(*T)`... are not.
    pub(super) fn conversion_callee<'t>(&self, conv: Node<'t>) -> Option<(Callee, Node<'t>)> {
        let k = self.k;
        let mut ty = conv.child_by_field_id(k.f_type)?;
        if ty.kind_id() == k.generic_type {
            ty = ty.child_by_field_id(k.f_type)?;
        }
        let kind = ty.kind_id();
        if kind == k.type_identifier {
            Some((Callee { receiver: Receiver::None, name: self.text(ty).into() }, ty))
        } else if kind == k.qualified_type {
            let pkg = ty.child_by_field_id(k.f_package)?;
            let name = ty.child_by_field_id(k.f_name)?;
            Some((
                Callee {
                    receiver: Receiver::Path(vec![self.text(pkg).into()]),
                    name: self.text(name).into(),
                },
                name,
            ))
        } else {
            None
        }
    }

    /// The callee of a call's function expression and the node of the called name; `None`
    /// when nothing is called by name (func literals, `(*T)(x)`...).
    pub(super) fn callee<'t>(&self, function: Node<'t>) -> Option<(Callee, Node<'t>)> {
        // Outer-to-inner names of a `f().g().h` chain; the innermost receiver ends the loop.
        let mut chain: Vec<(&'s str, Node<'t>)> = Vec::new();
        let mut f = function;
        let innermost = loop {
            let Some((name, name_node, operand)) = self.named_callee(f) else {
                break None;
            };
            chain.push((name, name_node));
            let Some(op) = operand else {
                break Some(Receiver::None);
            };
            match self.receiver(op) {
                Ok(r) => break Some(r),
                Err(inner) if chain.len() < MAX_CALL_CHAIN => f = inner,
                Err(_) => break Some(Receiver::Other),
            }
        };
        let name_node = chain.first()?.1;
        // `None`: the innermost call has no name (`func(){...}().M()`, `(*T)(x).M()`), so its
        // result is an opaque receiver.
        let mut receiver = innermost.unwrap_or(Receiver::Other);
        let mut callee = None;
        while let Some((name, _)) = chain.pop() {
            let c = Callee { receiver, name: name.into() };
            if chain.is_empty() {
                callee = Some(c);
                break;
            }
            receiver = Receiver::CallResult(Box::new(c));
        }
        callee.map(|c| (c, name_node))
    }

    /// Unwraps parentheses and explicit instantiation of a function expression, then gives the
    /// called name, its node, and the selector operand (`None` for a bare name).
    #[allow(clippy::type_complexity)]
    pub(super) fn named_callee<'t>(
        &self,
        mut f: Node<'t>,
    ) -> Option<(&'s str, Node<'t>, Option<Node<'t>>)> {
        let k = self.k;
        loop {
            let kind = f.kind_id();
            if kind == k.parenthesized_expression {
                f = f.named_child(0)?;
            } else if kind == k.index_expression {
                f = f.child_by_field_id(k.f_operand)?;
            } else if kind == k.type_instantiation_expression || kind == k.generic_type {
                f = f.child_by_field_id(k.f_type)?;
            } else if kind == k.identifier || kind == k.type_identifier {
                return Some((self.text(f), f, None));
            } else if kind == k.selector_expression {
                let field = f.child_by_field_id(k.f_field)?;
                let operand = f.child_by_field_id(k.f_operand)?;
                return Some((self.text(field), field, Some(operand)));
            } else if kind == k.qualified_type {
                let name = f.child_by_field_id(k.f_name)?;
                let pkg = f.child_by_field_id(k.f_package)?;
                return Some((self.text(name), name, Some(pkg)));
            } else {
                return None;
            }
        }
    }

    /// The receiver of a selector call: a path of identifiers, or `Err(function)` of an inner
    /// call whose result is the receiver, or `Other`.
    pub(super) fn receiver<'t>(&self, op: Node<'t>) -> Result<Receiver, Node<'t>> {
        let k = self.k;
        let kind = op.kind_id();
        if kind == k.call_expression {
            return match op.child_by_field_id(k.f_function) {
                Some(f) => Err(f),
                None => Ok(Receiver::Other),
            };
        }
        if kind == k.type_conversion_expression {
            return match op.child_by_field_id(k.f_type) {
                Some(t) if t.kind_id() == k.generic_type => Err(t),
                _ => Ok(Receiver::Other),
            };
        }
        // `x.(T).M()`, `x.(*pkg.T).M()`: the asserted type, read as a conversion to it (a call
        // of the type name, whose result the resolver types as `T`), as generated gRPC
        // handlers call `srv.(FooServer).Method(...)`.
        if kind == k.type_assertion_expression {
            let mut ty = op.child_by_field_id(k.f_type);
            while let Some(t) =
                ty.filter(|t| t.kind_id() == k.pointer_type || t.kind_id() == k.parenthesized_type)
            {
                ty = t.named_child(0);
            }
            return match ty {
                Some(t) if t.kind_id() == k.type_identifier || t.kind_id() == k.qualified_type => {
                    Err(t)
                }
                _ => Ok(Receiver::Other),
            };
        }
        // A chain of identifiers `a.b.c`, collected innermost-last.
        let mut parts: Vec<&str> = Vec::new();
        let mut cur = op;
        loop {
            let kind = cur.kind_id();
            if kind == k.identifier || kind == k.package_identifier {
                parts.push(self.text(cur));
                break;
            }
            if kind != k.selector_expression {
                return Ok(Receiver::Other);
            }
            let (Some(field), Some(operand)) =
                (cur.child_by_field_id(k.f_field), cur.child_by_field_id(k.f_operand))
            else {
                return Ok(Receiver::Other);
            };
            parts.push(self.text(field));
            cur = operand;
        }
        Ok(Receiver::path(parts.iter().rev().copied()))
    }
}
