//! Type hints for resolution: receivers, locals and what their values are.

use super::*;

impl<'s> Extractor<'s> {
    /// `var x T` -> Annotation; `var x = T{}` / `var x = F()` -> Construct / CallResult.
    pub(super) fn var_spec_hints(&mut self, spec: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        if let Some(ty) = spec.child_by_field_id(k.f_type) {
            if let Some(t) = self.type_name(ty) {
                self.param_names(spec, |ex, n| {
                    ex.hint(scope, n, HintSource::Annotation(t.clone()));
                });
            }
            return;
        }
        if let Some(values) = spec.child_by_field_id(k.f_value) {
            let mut names: Vec<Node<'_>> = Vec::new();
            self.field_children(spec, k.f_name, |n| names.push(n));
            self.assign_hints(&names, values, scope);
        }
    }

    /// Pairs names with values (`a, b := x, y`), or gives a single multi-valued call's result
    /// to the first name (`x, err := NewT()`).
    pub(super) fn assign_hints(
        &mut self,
        names: &[Node<'_>],
        values: Node<'_>,
        scope: Option<SymbolIdx>,
    ) {
        let count = values.named_child_count();
        let mut c = values.walk();
        let mut i = 0;
        for value in values.named_children(&mut c) {
            if value.kind_id() == self.k.comment {
                continue;
            }
            let Some(&name) = names.get(i) else { break };
            i += 1;
            if name.kind_id() != self.k.identifier || self.text(name) == "_" {
                continue;
            }
            if let Some(source) = self.value_hint(value) {
                self.hint(scope, name, source);
            }
            if count == 1 {
                break;
            }
        }
    }

    pub(super) fn value_hint(&self, value: Node<'_>) -> Option<HintSource> {
        let k = self.k;
        let kind = value.kind_id();
        if kind == k.composite_literal {
            let ty = value.child_by_field_id(k.f_type)?;
            return self.type_name(ty).map(HintSource::Construct);
        }
        if kind == k.unary_expression {
            let op = value.child_by_field_id(k.f_operator)?;
            let operand = value.child_by_field_id(k.f_operand)?;
            if op.kind_id() != k.amp || operand.kind_id() != k.composite_literal {
                return None;
            }
            return self.value_hint(operand);
        }
        if kind == k.call_expression {
            let function = value.child_by_field_id(k.f_function)?;
            if function.kind_id() == k.identifier && self.text(function) == "new" {
                let args = value.child_by_field_id(k.f_arguments)?;
                let ty = args.named_child(0)?;
                return self.type_name(ty).map(HintSource::Construct);
            }
            return self.callee(function).map(|(c, _)| HintSource::CallResult(c));
        }
        if kind == k.type_conversion_expression {
            return self.conversion_callee(value).map(|(c, _)| HintSource::CallResult(c));
        }
        if kind == k.type_assertion_expression {
            let ty = value.child_by_field_id(k.f_type)?;
            return self.type_name(ty).map(HintSource::Annotation);
        }
        self.value_path(value).map(HintSource::Value)
    }

    /// `y`, `a.b`, `a.b[i]`, `*a.b`, `&a.b`, `(a.b)` as a path whose type the resolver knows.
    pub(super) fn value_path(&self, mut value: Node<'_>) -> Option<Receiver> {
        let k = self.k;
        loop {
            let kind = value.kind_id();
            if kind == k.parenthesized_expression {
                value = value.named_child(0)?;
            } else if kind == k.index_expression {
                value = value.child_by_field_id(k.f_operand)?;
            } else if kind == k.unary_expression {
                let op = value.child_by_field_id(k.f_operator)?;
                if op.kind_id() != k.amp && op.kind_id() != k.star {
                    return None;
                }
                value = value.child_by_field_id(k.f_operand)?;
            } else if kind == k.identifier || kind == k.selector_expression {
                return match self.receiver(value) {
                    Ok(r @ Receiver::Path(_)) => Some(r),
                    _ => None,
                };
            } else {
                return None;
            }
        }
    }

    /// `for _, x := range a.b`: `x` holds an element of `a.b`.
    pub(super) fn range_hints(&mut self, clause: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let (Some(left), Some(right)) =
            (clause.child_by_field_id(k.f_left), clause.child_by_field_id(k.f_right))
        else {
            return;
        };
        let mut c = left.walk();
        let names: Vec<Node<'_>> = left.named_children(&mut c).collect();
        let [_, name] = names.as_slice() else { return };
        if name.kind_id() != k.identifier || self.text(*name) == "_" {
            return;
        }
        if let Some(path) = self.value_path(right) {
            self.hint(scope, *name, HintSource::Value(path));
        }
    }

    /// `switch v := x.(type) { case *T: ... }`: in a single-type case, `v` is a `T` (the hint
    /// sits on the case line); after the switch, `v` is `x` again.
    pub(super) fn type_switch_hints(&mut self, switch: Node<'_>, scope: Option<SymbolIdx>) {
        let k = self.k;
        let Some(alias) = switch.child_by_field_id(k.f_alias) else { return };
        let Some(name) = alias.named_child(0) else { return };
        if name.kind_id() != k.identifier {
            return;
        }
        let mut c = switch.walk();
        for case in switch.named_children(&mut c) {
            if case.kind_id() != k.type_case {
                continue;
            }
            let mut types: Vec<Node<'_>> = Vec::new();
            self.field_children(case, k.f_type, |t| types.push(t));
            let [ty] = types.as_slice() else { continue };
            if let Some(t) = self.type_name(*ty) {
                self.facts.type_hints.push(TypeHint {
                    scope,
                    name: self.text(name).into(),
                    source: HintSource::Annotation(t),
                    line: start_line(case),
                    visible: None,
                });
            }
        }
        // After the switch, a shadowed name is the outer one again: repeat the hint in effect
        // before the switch, or say the type is unknown.
        let name = self.text(name);
        let start = start_line(switch);
        let before = self
            .facts
            .type_hints
            .iter()
            .rev()
            .find(|h| h.scope == scope && h.name == name && h.line < start)
            .map_or(HintSource::Value(Receiver::Other), |h| h.source.clone());
        self.facts.type_hints.push(TypeHint {
            scope,
            name: name.into(),
            source: before,
            line: end_line(switch) + 1,
            visible: None,
        });
    }

    /// A type as a hint name: `*T`, `[]T`, `[N]T`, `G[T]`, `(T)` -> `T`; `pkg.T` kept whole.
    /// `None` for map / func / chan / struct / interface types and type parameters.
    pub(super) fn type_name(&self, mut ty: Node<'_>) -> Option<String> {
        let k = self.k;
        loop {
            let kind = ty.kind_id();
            if kind == k.type_identifier || kind == k.identifier {
                let t = self.text(ty);
                return (!self.tparams.contains(&t)).then(|| t.to_string());
            } else if kind == k.qualified_type {
                let pkg = ty.child_by_field_id(k.f_package)?;
                let name = ty.child_by_field_id(k.f_name)?;
                return Some(format!("{}.{}", self.text(pkg), self.text(name)));
            } else if kind == k.selector_expression {
                let pkg = ty.child_by_field_id(k.f_operand)?;
                let name = ty.child_by_field_id(k.f_field)?;
                if pkg.kind_id() != k.identifier {
                    return None;
                }
                return Some(format!("{}.{}", self.text(pkg), self.text(name)));
            } else if kind == k.pointer_type || kind == k.parenthesized_type {
                ty = ty.named_child(0)?;
            } else if kind == k.slice_type
                || kind == k.array_type
                || kind == k.implicit_length_array_type
            {
                ty = ty.child_by_field_id(k.f_element)?;
            } else if kind == k.generic_type {
                ty = ty.child_by_field_id(k.f_type)?;
            } else {
                return None;
            }
        }
    }
}
