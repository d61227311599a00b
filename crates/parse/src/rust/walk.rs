//! The one walk over a Rust syntax tree that collects a file's facts (see the module doc of
//! `rust` for what each is): an iterative cursor walk with a scope stack, so deeply nested
//! expressions cost no native stack.

use super::macros;
use super::{ids, impl_name, strip_type_args, type_text};
use crate::facts::{
    CallKind, CallSite, Callee, FieldAccess, FileFacts, Heritage, HeritageKind, HintSource, Import,
    ImportBinding, ImportKind, Imported, LanguageFacts, Receiver, RustFacts, RustImpl, RustMod,
    Symbol, SymbolIdx, TypeHint, Visibility,
};
use crate::util::{clean_comments, end_line, signature, start_col, start_line, text, to_u32};
use codegraph_schema::NodeKind;
use tree_sitter::{Node, Tree};

/// Iterator, `Option` and collection methods that call a closure with each element (or the
/// held value) as its first parameter.
const ELEMENT_CONSUMERS: &[&str] = &[
    "map",
    "filter",
    "for_each",
    "any",
    "all",
    "find",
    "position",
    "rposition",
    "filter_map",
    "flat_map",
    "find_map",
    "take_while",
    "skip_while",
    "map_while",
    "inspect",
    "retain",
    "retain_mut",
    "max_by_key",
    "min_by_key",
    "sort_by_key",
    "sort_unstable_by_key",
    "sort_by_cached_key",
    "partition",
    "and_then",
    "is_some_and",
    "is_none_or",
    "is_ok_and",
    "map_or",
    "map_or_else",
    "unwrap_or_else",
    "try_for_each",
    "group_by",
    "chunk_by",
    "dedup_by_key",
    "binary_search_by",
    "binary_search_by_key",
    "ok_or_else",
];

/// Receiver chains longer than this (`a.b().c().d()...` builders) end in `Other`.
const MAX_CHAIN: u32 = 48;

enum ScopeKind {
    /// A declaration: its items are named under it.
    Symbol,
    /// An `impl` block: its items are named `name.x`; `Self` is `self_ty`.
    Impl { name: String, self_ty: String, index: usize },
    /// A trait: like a symbol, and `self` is an instance of the trait.
    Trait,
    /// An inline module: its items are named as if it were not there.
    Module { name: String },
}

struct Scope {
    node: usize,
    symbol: Option<SymbolIdx>,
    kind: ScopeKind,
}

struct Walker<'s> {
    src: &'s str,
    facts: FileFacts,
    rust: RustFacts,
    scopes: Vec<Scope>,
    /// While bindings of a `let` (or `if let`, arm, `for`) are recorded: where they become
    /// visible.
    visible_from: Option<(u32, u32)>,
    /// The attributes and docs right above the node being entered.
    preamble: Option<Preamble>,
}

/// An item's attributes and doc comment (see `Walker::preamble_of`).
struct Preamble {
    /// 1-based line of its first attribute.
    first_attr: Option<u32>,
    attrs: String,
    doc: Option<String>,
}

pub(super) fn extract(src: &str, tree: &Tree) -> FileFacts {
    let mut w = Walker {
        src,
        facts: FileFacts::default(),
        rust: RustFacts::default(),
        scopes: Vec::new(),
        visible_from: None,
        preamble: None,
    };
    w.walk(tree.root_node(), 0);
    w.facts.language_facts = LanguageFacts::Rust(w.rust).normalized();
    w.facts
}

/// Whether `node` has a visibility modifier (`pub`, `pub(crate)`...).
fn has_visibility(node: Node<'_>) -> bool {
    let mut c = node.walk();
    node.children(&mut c).any(|n| n.kind_id() == ids().visibility_modifier)
}

/// `Self` in a type replaced by `self_ty` (whole words only).
fn replace_self(ty: &str, self_ty: &str) -> String {
    if !ty.contains("Self") {
        return ty.to_string();
    }
    let mut out = String::with_capacity(ty.len() + self_ty.len());
    let mut rest = ty;
    while let Some(pos) = rest.find("Self") {
        let before_ok =
            rest[..pos].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &rest[pos + 4..];
        let after_ok = after.chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        out.push_str(&rest[..pos]);
        out.push_str(if before_ok && after_ok { self_ty } else { "Self" });
        rest = after;
    }
    out.push_str(rest);
    out
}

impl<'s> Walker<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        text(n, self.src)
    }

    /// Walks a tree (the file's, or a macro body's parsed as items at `nesting` > 0).
    fn walk<'t>(&mut self, root: Node<'t>, nesting: u32) {
        let ids = ids();
        let mut cursor = root.walk();
        // The ancestors of the current node, and per level the attributes and doc comments
        // seen since the last other node (`Node::parent` and `prev_sibling` walk from the
        // root or the first sibling: these keep deep and long trees linear).
        let mut path: Vec<Node<'t>> = Vec::new();
        let mut pending: Vec<Vec<Node<'t>>> = vec![Vec::new()];
        'walk: loop {
            let node = cursor.node();
            let k = node.kind_id();
            let level = pending.len() - 1;
            if k == ids.attribute_item {
                pending[level].push(node);
            } else if k == ids.line_comment || k == ids.block_comment {
                let t = self.text(node);
                let outer_doc = (t.starts_with("///") && !t.starts_with("////"))
                    || (t.starts_with("/**") && !t.starts_with("/***") && t != "/**/");
                if outer_doc {
                    pending[level].push(node);
                } else {
                    pending[level].clear();
                }
            } else {
                self.preamble = self.preamble_of(&pending[level]);
                pending[level].clear();
            }
            if self.enter(node, nesting, &path) && cursor.goto_first_child() {
                path.push(node);
                pending.push(Vec::new());
                continue;
            }
            loop {
                self.leave(cursor.node());
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
                path.pop();
                pending.pop();
            }
        }
    }

    fn enclosing(&self) -> Option<SymbolIdx> {
        self.scopes.iter().rev().find_map(|s| s.symbol)
    }

    fn leave(&mut self, node: Node<'_>) {
        if self.scopes.last().is_some_and(|s| s.node == node.id()) {
            self.scopes.pop();
        }
    }

    /// The innermost impl's self type, when the innermost type-like scope is an impl.
    fn self_type(&self) -> Option<&str> {
        for s in self.scopes.iter().rev() {
            match &s.kind {
                ScopeKind::Impl { self_ty, .. } => return Some(self_ty),
                ScopeKind::Trait => return None,
                _ => {}
            }
        }
        None
    }

    /// A type as written, normalized, `Self` replaced inside an impl.
    fn ty(&self, n: Node<'_>) -> String {
        let t = type_text(self.text(n));
        match self.self_type() {
            Some(s) => replace_self(&t, s),
            None => t,
        }
    }

    /// The names of the inline modules the walk is in, outermost first.
    fn inline_mods(&self) -> Vec<&str> {
        self.scopes
            .iter()
            .filter_map(|s| match &s.kind {
                ScopeKind::Module { name } => Some(name.as_str()),
                _ => None,
            })
            .collect()
    }

    /// A path written inside inline modules, made relative to the file's module: `super`
    /// climbing out of an inline module and `self` inside one (see the module doc).
    fn file_relative(&self, mut path: Vec<String>) -> Vec<String> {
        let mods = self.inline_mods();
        if mods.is_empty() {
            return path;
        }
        match path.first().map(String::as_str) {
            Some("self") => {
                let mut out = vec!["self".to_string()];
                out.extend(mods.iter().map(|m| m.to_string()));
                out.extend(path.drain(1..));
                out
            }
            Some("super") => {
                let k = path.iter().take_while(|s| *s == "super").count();
                let d = mods.len();
                if k <= d {
                    let mut out = vec!["self".to_string()];
                    out.extend(mods[..d - k].iter().map(|m| m.to_string()));
                    out.extend(path.drain(k..));
                    out
                } else {
                    let mut out = vec!["super".to_string(); k - d];
                    out.extend(path.drain(k..));
                    out
                }
            }
            _ => path,
        }
    }

    /// The attributes and doc comments right above an item (`items`, in order): its first
    /// attribute's line, the attributes' text, the doc.
    fn preamble_of(&self, items: &[Node<'_>]) -> Option<Preamble> {
        if items.is_empty() {
            return None;
        }
        let ids = ids();
        let attrs: Vec<&str> = items
            .iter()
            .filter(|n| n.kind_id() == ids.attribute_item)
            .map(|n| self.text(*n))
            .collect();
        let docs: Vec<&str> = items
            .iter()
            .filter(|n| n.kind_id() != ids.attribute_item)
            .map(|n| self.text(*n))
            .collect();
        let first_attr =
            items.iter().find(|n| n.kind_id() == ids.attribute_item).map(|n| start_line(*n));
        Some(Preamble { first_attr, attrs: attrs.join(" "), doc: clean_comments(docs) })
    }

    /// The preamble of the node being entered.
    fn preamble(&self) -> (Option<u32>, String, Option<String>) {
        match &self.preamble {
            Some(p) => (p.first_attr, p.attrs.clone(), p.doc.clone()),
            None => (None, String::new(), None),
        }
    }

    /// The qualified name of a new symbol `name` at the current scope.
    fn qualify(&self, name: &str) -> String {
        let mut pieces: Vec<&str> = vec![name];
        for s in self.scopes.iter().rev() {
            match &s.kind {
                ScopeKind::Module { .. } => {}
                ScopeKind::Impl { name, .. } => pieces.push(name),
                ScopeKind::Symbol | ScopeKind::Trait => {
                    if let Some(q) = s.symbol.and_then(|i| self.facts.symbols.get(i as usize)) {
                        pieces.push(&q.qualified_name);
                    }
                    break;
                }
            }
        }
        pieces.reverse();
        pieces.join(".")
    }

    fn push_symbol(
        &mut self,
        kind: NodeKind,
        name: &str,
        node: Node<'_>,
        body: Option<Node<'_>>,
        exported: bool,
    ) -> SymbolIdx {
        let (first_attr, attrs, doc) = self.preamble();
        let qualified_name = self.qualify(name);
        let parent = self.enclosing();
        let idx = to_u32(self.facts.symbols.len());
        let mut sig = signature(node, body, self.src);
        if !attrs.is_empty() {
            sig = format!("{} {sig}", crate::util::collapse_whitespace(&attrs));
        }
        self.facts.symbols.push(Symbol {
            kind,
            name: name.to_string(),
            qualified_name,
            parent,
            start_line: first_attr.unwrap_or_else(|| start_line(node)),
            end_line: end_line(node),
            signature: sig,
            doc,
            exported,
        });
        // An item of an impl block (directly inside it).
        if let Some(Scope { kind: ScopeKind::Impl { index, .. }, .. }) = self.scopes.last()
            && let Some(imp) = self.rust.impls.get_mut(*index)
        {
            imp.items.push(idx);
        }
        idx
    }

    fn push_scope(&mut self, node: Node<'_>, symbol: Option<SymbolIdx>, kind: ScopeKind) {
        self.scopes.push(Scope { node: node.id(), symbol, kind });
    }

    fn hint(&mut self, scope: Option<SymbolIdx>, name: &str, source: HintSource, line: u32) {
        // A binding of a `let`, `if let`, `match` arm or `for`: visible after what binds it.
        let (line, visible) = match self.visible_from {
            Some((l, col)) => (l, Some(Visibility { col, end_line: u32::MAX, end_col: u32::MAX })),
            None => (line, None),
        };
        self.facts.type_hints.push(TypeHint { scope, name: name.into(), source, line, visible });
    }

    /// Runs `f` with the bindings it records visible only after `node` (1-based line, and the
    /// column right after its end).
    fn visible_after(&mut self, node: Node<'_>, f: impl FnOnce(&mut Self)) {
        let end = node.end_position();
        let line = to_u32(end.row).saturating_add(1);
        let col = to_u32(end.column).saturating_add(1);
        let saved = self.visible_from.replace((line, col));
        f(self);
        self.visible_from = saved;
    }

    /// Whether the innermost scope is an impl or a trait (a function there is a method), and
    /// whether it is a trait or an impl of a trait (its items are public through it).
    fn in_impl_or_trait(&self) -> (bool, bool) {
        match self.scopes.last().map(|s| &s.kind) {
            Some(ScopeKind::Impl { index, .. }) => {
                let of_trait = self.rust.impls.get(*index).is_some_and(|i| i.trait_.is_some());
                (true, of_trait)
            }
            Some(ScopeKind::Trait) => (true, true),
            _ => (false, false),
        }
    }

    /// Called on entering a node; `false`: do not walk its children.
    fn enter(&mut self, node: Node<'_>, nesting: u32, parents: &[Node<'_>]) -> bool {
        let ids = ids();
        let k = node.kind_id();
        if k == ids.line_comment
            || k == ids.block_comment
            || k == ids.string_literal
            || k == ids.raw_string_literal
            || k == ids.attribute_item
            || k == ids.inner_attribute_item
        {
            return false;
        }
        if k == ids.macro_invocation
            && let Some(bench) = super::macros::bench_macro(node, self.src)
            && super::item_level_macro(
                parents.last().map(|p| p.kind_id()),
                parents.len().checked_sub(2).map(|i| parents[i].kind_id()),
            )
        {
            // A benchmark harness: the function it generates, calling its targets; calls in
            // its configuration are read from the token tree below, inside that function.
            let idx = self.push_symbol(NodeKind::Function, &bench.name, node, None, !bench.main);
            self.push_scope(node, Some(idx), ScopeKind::Symbol);
            for &t in &bench.targets {
                let callee = self.macro_callee(&bench.kids, t);
                self.push_call(callee, bench.kids[t]);
            }
            return true;
        }
        if k == ids.macro_invocation
            && nesting < super::MAX_MACRO_NESTING
            && let Some(range) = super::item_macro_body(node, parents.last().map(|p| p.kind_id()))
        {
            // Items written in a macro's body (`cfg_rt! { pub fn spawn(..) { .. } }`): parsed
            // as items and walked in place.
            if let Some(sub) = super::parse_range(self.src, range) {
                self.walk(sub.root_node(), nesting + 1);
            }
            return false;
        }
        if k == ids.function_item || k == ids.function_signature_item {
            self.function(node);
        } else if k == ids.struct_item || k == ids.union_item {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let body = node.child_by_field_id(ids.body);
            let idx = self.push_symbol(NodeKind::Struct, name, node, body, has_visibility(node));
            if let Some(b) = body
                && b.kind_id() == ids.ordered_field_declaration_list
            {
                // Tuple fields `0`, `1`...: hints of the struct.
                let mut c = b.walk();
                let types: Vec<Node<'_>> = b.children_by_field_name("type", &mut c).collect();
                for (i, t) in types.into_iter().enumerate() {
                    let ty = self.ty(t);
                    self.hint(Some(idx), &i.to_string(), HintSource::Annotation(ty), start_line(t));
                }
            }
            self.push_scope(node, Some(idx), ScopeKind::Symbol);
        } else if k == ids.field_declaration {
            self.field(node);
        } else if k == ids.enum_item {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let body = node.child_by_field_id(ids.body);
            let idx = self.push_symbol(NodeKind::Enum, name, node, body, has_visibility(node));
            self.push_scope(node, Some(idx), ScopeKind::Symbol);
        } else if k == ids.enum_variant {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let exported = self.exported_scope();
            let idx = self.push_symbol(NodeKind::Constant, name, node, None, exported);
            if let Some(b) = node.child_by_field_id(ids.body) {
                self.tuple_fields(idx, b);
            }
            self.push_scope(node, Some(idx), ScopeKind::Symbol);
        } else if k == ids.trait_item {
            self.trait_item(node);
        } else if k == ids.impl_item {
            self.impl_item(node);
        } else if k == ids.mod_item {
            return self.module(node);
        } else if k == ids.const_item || k == ids.static_item {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let kind = if k == ids.const_item { NodeKind::Constant } else { NodeKind::Variable };
            let exported = has_visibility(node) || self.in_impl_or_trait().1;
            let value = node.child_by_field_id(ids.value);
            let idx = self.push_symbol(kind, name, node, value, exported);
            if let Some(t) = node.child_by_field_id(ids.r#type) {
                let ty = self.ty(t);
                self.hint(Some(idx), "", HintSource::Return(ty), start_line(node));
            }
            self.push_scope(node, Some(idx), ScopeKind::Symbol);
        } else if k == ids.type_item || k == ids.associated_type {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let exported = has_visibility(node) || self.in_impl_or_trait().1;
            let idx = self.push_symbol(NodeKind::TypeAlias, name, node, None, exported);
            if let Some(t) = node.child_by_field_id(ids.r#type) {
                let ty = self.ty(t);
                self.hint(Some(idx), "type", HintSource::Annotation(ty), start_line(node));
            }
            return false;
        } else if k == ids.macro_definition {
            let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
            let exported = self.preamble().1.contains("macro_export");
            self.push_symbol(NodeKind::Macro, name, node, None, exported);
            return false;
        } else if k == ids.use_declaration {
            self.use_declaration(node);
            return false;
        } else if k == ids.extern_crate_declaration {
            if let Some(n) = node.child_by_field_id(ids.name) {
                let name = self.text(n).to_string();
                let local = node.child_by_field_id(ids.alias).map(|a| self.text(a).to_string());
                self.facts.imports.push(Import {
                    source: name.clone(),
                    kind: ImportKind::Package,
                    bindings: vec![ImportBinding {
                        imported: Imported::Namespace,
                        local: Some(local.unwrap_or(name)),
                    }],
                    line: start_line(node),
                });
            }
            return false;
        } else if k == ids.call_expression {
            self.call_expression(node);
        } else if k == ids.token_tree {
            self.token_tree(node);
        } else if k == ids.field_expression {
            self.access(node, parents.last().copied());
        } else if k == ids.parameter {
            self.parameter(node);
        } else if k == ids.self_parameter {
            let scope = self.enclosing();
            let ty = match self.self_type() {
                Some(t) => t.to_string(),
                None => self.trait_name().unwrap_or_default(),
            };
            if !ty.is_empty() {
                self.hint(scope, "self", HintSource::Annotation(ty), start_line(node));
            }
        } else if k == ids.let_declaration {
            self.let_declaration(node);
        } else if k == ids.assignment_expression {
            // `x = v` (a `let x;` assigned later): from here on `x` holds what `v` does.
            if let (Some(l), Some(v)) =
                (node.child_by_field_id(ids.left), node.child_by_field_id(ids.right))
                && l.kind_id() == ids.identifier
            {
                let scope = self.enclosing();
                let source = self.value_source(v);
                let name = self.text(l);
                self.visible_after(node, |w| w.hint(scope, name, source, start_line(l)));
            }
        } else if k == ids.let_condition {
            if let (Some(p), Some(v)) =
                (node.child_by_field_id(ids.pattern), node.child_by_field_id(ids.value))
            {
                self.visible_after(node, |w| w.bind_pattern(p, v));
            }
        } else if k == ids.match_arm {
            let value = parents
                .len()
                .checked_sub(2)
                .map(|i| parents[i])
                .filter(|m| m.kind_id() == ids.match_expression)
                .and_then(|m| m.child_by_field_id(ids.value));
            if let (Some(p), Some(v)) = (node.child_by_field_id(ids.pattern), value) {
                let whole = p;
                let p = if p.kind() == "match_pattern" { p.named_child(0).unwrap_or(p) } else { p };
                self.visible_after(whole, |w| w.bind_pattern(p, v));
            }
        } else if k == ids.for_expression {
            self.for_expression(node);
        } else if k == ids.closure_expression {
            if let Some(ps) = node.child_by_field_id(ids.parameters) {
                let scope = self.enclosing();
                let mut c = ps.walk();
                let params: Vec<Node<'_>> = ps.named_children(&mut c).collect();
                let elements = self.closure_elements(node, parents);
                for (i, p) in params.into_iter().enumerate() {
                    if p.kind_id() == ids.parameter {
                        continue;
                    }
                    match &elements {
                        Some((r, which)) if which.contains(&i) => self.bind(p, r.clone()),
                        _ => self.shadow(scope, p),
                    }
                }
            }
        } else if k == ids.argument_list {
            self.value_refs(node);
        }
        true
    }

    /// Whether the innermost symbol is exported (variants of an exported enum).
    fn exported_scope(&self) -> bool {
        self.enclosing().and_then(|i| self.facts.symbols.get(i as usize)).is_none_or(|s| s.exported)
    }

    /// The innermost trait's name.
    fn trait_name(&self) -> Option<String> {
        for s in self.scopes.iter().rev() {
            match &s.kind {
                ScopeKind::Trait => {
                    return s
                        .symbol
                        .and_then(|i| self.facts.symbols.get(i as usize))
                        .map(|t| t.name.clone());
                }
                ScopeKind::Impl { .. } => return None,
                _ => {}
            }
        }
        None
    }

    fn function(&mut self, node: Node<'_>) {
        let ids = ids();
        let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
        let (in_type, public_through) = self.in_impl_or_trait();
        let kind = if in_type { NodeKind::Method } else { NodeKind::Function };
        let exported = has_visibility(node) || public_through;
        let body = node.child_by_field_id(ids.body);
        let idx = self.push_symbol(kind, name, node, body, exported);
        if let Some(t) = node.child_by_field_id(ids.return_type) {
            let ty = self.ty(t);
            if !ty.is_empty() && ty != "()" {
                self.hint(Some(idx), "", HintSource::Return(ty), start_line(node));
            }
        }
        self.push_scope(node, Some(idx), ScopeKind::Symbol);
    }

    /// Tuple fields `0`, `1`... of a tuple struct or variant: hints of it.
    fn tuple_fields(&mut self, idx: SymbolIdx, body: Node<'_>) {
        if body.kind_id() != ids().ordered_field_declaration_list {
            return;
        }
        let mut c = body.walk();
        let types: Vec<Node<'_>> = body.children_by_field_name("type", &mut c).collect();
        for (i, t) in types.into_iter().enumerate() {
            let ty = self.ty(t);
            self.hint(Some(idx), &i.to_string(), HintSource::Annotation(ty), start_line(t));
        }
    }

    fn field(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(name) = node.child_by_field_id(ids.name) else { return };
        let name = self.text(name);
        let scope = self.enclosing();
        let exported = has_visibility(node);
        self.push_symbol(NodeKind::Property, name, node, None, exported);
        if let Some(t) = node.child_by_field_id(ids.r#type) {
            let ty = self.ty(t);
            self.hint(scope, name, HintSource::Annotation(ty), start_line(node));
        }
    }

    fn trait_item(&mut self, node: Node<'_>) {
        let ids = ids();
        let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n));
        let body = node.child_by_field_id(ids.body);
        let idx = self.push_symbol(NodeKind::Interface, name, node, body, has_visibility(node));
        if let Some(bounds) = node.child_by_field_id(ids.bounds) {
            let mut c = bounds.walk();
            let supers: Vec<Node<'_>> = bounds.named_children(&mut c).collect();
            for b in supers {
                if matches!(b.kind(), "type_identifier" | "scoped_type_identifier" | "generic_type")
                {
                    let target = type_text(self.text(b));
                    self.facts.heritage.push(Heritage {
                        symbol: idx,
                        kind: HeritageKind::Extends,
                        target,
                    });
                }
            }
        }
        self.push_scope(node, Some(idx), ScopeKind::Trait);
    }

    fn impl_item(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(t) = node.child_by_field_id(ids.r#type) else { return };
        let raw = self.text(t);
        let self_ty = type_text(raw);
        let name = impl_name(raw);
        let trait_ = node.child_by_field_id(ids.r#trait).map(|t| type_text(self.text(t)));
        let mut type_params = Vec::new();
        if let Some(tp) = node.child_by_field_name("type_parameters") {
            let mut c = tp.walk();
            for p in tp.named_children(&mut c) {
                if p.kind() == "type_parameter"
                    && let Some(n) = p.child_by_field_id(ids.name)
                {
                    type_params.push(self.text(n).to_string());
                }
            }
        }
        let index = self.rust.impls.len();
        self.rust.impls.push(RustImpl {
            self_ty: self_ty.clone(),
            trait_,
            line: start_line(node),
            items: Vec::new(),
            type_params,
        });
        let symbol = self.enclosing();
        self.push_scope(node, symbol, ScopeKind::Impl { name, self_ty, index });
    }

    /// `mod m;` (recorded) or `mod m { .. }` (a module symbol; `true`: walk its items).
    fn module(&mut self, node: Node<'_>) -> bool {
        let ids = ids();
        let name = node.child_by_field_id(ids.name).map_or("", |n| self.text(n)).to_string();
        match node.child_by_field_id(ids.body) {
            None => {
                let (_, attrs, _) = self.preamble();
                let path = path_attribute(&attrs);
                self.rust.mods.push(RustMod { name, path, line: start_line(node) });
                false
            }
            Some(body) => {
                let idx = self.push_symbol(
                    NodeKind::Module,
                    &name,
                    node,
                    Some(body),
                    has_visibility(node),
                );
                self.push_scope(node, Some(idx), ScopeKind::Module { name });
                true
            }
        }
    }

    fn use_declaration(&mut self, node: Node<'_>) {
        let ids = ids();
        let kind = if has_visibility(node) { ImportKind::ReExport } else { ImportKind::EsImport };
        let Some(arg) = node.child_by_field_id(ids.argument) else { return };
        let mut leaves: Vec<(Vec<String>, Imported, Option<String>)> = Vec::new();
        // (node, prefix) pairs; a use tree is shallow, but walk it without recursion anyway.
        let mut stack: Vec<(Node<'_>, Vec<String>)> = vec![(arg, Vec::new())];
        while let Some((n, prefix)) = stack.pop() {
            match n.kind() {
                "identifier" | "scoped_identifier" | "crate" | "super" | "self" => {
                    let mut path = prefix.clone();
                    path.extend(path_segments(self.text(n)));
                    if path.len() == 1 && path[0] == "self" {
                        continue;
                    }
                    // `a::b::{self}`: `b` from `a`.
                    if let Some(last) = path.pop() {
                        let local = Some(last.clone());
                        leaves.push((path, Imported::Named(last), local));
                    }
                }
                "use_as_clause" => {
                    let (Some(p), Some(a)) =
                        (n.child_by_field_id(ids.path), n.child_by_field_id(ids.alias))
                    else {
                        continue;
                    };
                    let mut path = prefix.clone();
                    path.extend(path_segments(self.text(p)));
                    if path.last().is_some_and(|l| l == "self") {
                        path.pop();
                    }
                    if let Some(last) = path.pop() {
                        let alias = self.text(a).to_string();
                        leaves.push((path, Imported::Named(last), Some(alias)));
                    }
                }
                "use_wildcard" => {
                    let mut path = prefix.clone();
                    if let Some(p) = n.named_child(0) {
                        path.extend(path_segments(self.text(p)));
                    }
                    leaves.push((path, Imported::All, None));
                }
                "scoped_use_list" => {
                    let mut path = prefix.clone();
                    if let Some(p) = n.child_by_field_id(ids.path) {
                        path.extend(path_segments(self.text(p)));
                    }
                    if let Some(list) = n.child_by_field_id(ids.list) {
                        stack.push((list, path));
                    }
                }
                "use_list" => {
                    let mut c = n.walk();
                    let items: Vec<Node<'_>> = n.named_children(&mut c).collect();
                    for item in items.into_iter().rev() {
                        if item.kind() == "self" {
                            // `{self}`: the prefix's last segment.
                            let mut path = prefix.clone();
                            if let Some(last) = path.pop() {
                                let local = Some(last.clone());
                                leaves.push((path, Imported::Named(last), local));
                            }
                        } else {
                            stack.push((item, prefix.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        let line = start_line(node);
        // A `use` behind a `#[cfg(..)]` (other than `cfg(test)`) may be compiled out.
        let gated = self.preamble().1.split("#[").any(|a| {
            let a = a.trim_start();
            (a.starts_with("cfg(") || a.starts_with("cfg_attr(")) && !a.starts_with("cfg(test)")
        });
        for (path, imported, local) in leaves {
            let path = self.file_relative(path);
            if gated {
                self.rust.gated_imports.push(to_u32(self.facts.imports.len()));
            }
            self.facts.imports.push(Import {
                source: path.join("::"),
                kind,
                bindings: vec![ImportBinding { imported, local }],
                line,
            });
        }
    }

    fn parameter(&mut self, node: Node<'_>) {
        let ids = ids();
        let scope = self.enclosing();
        let (Some(p), Some(t)) =
            (node.child_by_field_id(ids.pattern), node.child_by_field_id(ids.r#type))
        else {
            return;
        };
        // `self: Pin<&mut Self>`, `self: Box<Self>`: a typed `self`.
        let name = if p.kind() == "self" { Some(p) } else { binding_name(p) };
        match name {
            Some(n) => {
                let ty = self.ty(t);
                self.hint(scope, self.text(n), HintSource::Annotation(ty), start_line(n));
            }
            None => self.shadow(scope, p),
        }
    }

    /// Every name a pattern binds, as unknown values (they hide outer names).
    fn shadow(&mut self, scope: Option<SymbolIdx>, pattern: Node<'_>) {
        let ids = ids();
        let mut stack = vec![pattern];
        while let Some(n) = stack.pop() {
            if n.kind_id() == ids.identifier || n.kind() == "shorthand_field_identifier" {
                // A path in a pattern (`E::V`, `Some`) is no binding; a bare identifier is.
                let name = self.text(n);
                if !name.starts_with(|c: char| c.is_uppercase()) {
                    self.hint(scope, name, HintSource::Value(Receiver::Other), start_line(n));
                }
                continue;
            }
            if matches!(
                n.kind(),
                "scoped_identifier" | "type_identifier" | "scoped_type_identifier"
            ) {
                continue;
            }
            let mut c = n.walk();
            let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
            // Field patterns `S { a: x }`: only the pattern side binds.
            if n.kind() == "field_pattern"
                && let Some(p) = n.child_by_field_id(ids.pattern)
            {
                stack.push(p);
                continue;
            }
            stack.extend(kids.into_iter().rev());
        }
    }

    fn let_declaration(&mut self, node: Node<'_>) {
        self.visible_after(node, |w| w.let_bindings(node));
    }

    fn let_bindings(&mut self, node: Node<'_>) {
        let ids = ids();
        let scope = self.enclosing();
        let Some(p) = node.child_by_field_id(ids.pattern) else { return };
        let value = node.child_by_field_id(ids.value);
        if let Some(name) = binding_name(p) {
            let source = match (node.child_by_field_id(ids.r#type), value) {
                (Some(t), _) => HintSource::Annotation(self.ty(t)),
                (None, Some(v)) => self.value_source(v),
                (None, None) => HintSource::Value(Receiver::Other),
            };
            self.hint(scope, self.text(name), source, start_line(name));
        } else if let Some(v) = value {
            let r = self.receiver(v, 0);
            self.bind(p, r);
        } else {
            self.shadow(scope, p);
        }
    }

    /// A pattern matched against the value `v`: see [`Self::bind`].
    fn bind_pattern(&mut self, p: Node<'_>, v: Node<'_>) {
        let r = self.receiver(v, 0);
        self.bind(p, r);
    }

    /// The names a pattern binds, each with what it holds when the pattern says: the whole
    /// value (`x`, `ref x`, `x @ ..`), the value inside `Some(..)` / `Ok(..)` (`?` of it), a
    /// field of a tuple struct or variant (`E::V(x)`: field `0` of `E::V`, an item path
    /// ending in `()` and the field), a field of a struct pattern (`S { a, b: x }`); other
    /// names hold unknown values.
    fn bind(&mut self, pattern: Node<'_>, value: Receiver) {
        let ids = ids();
        let scope = self.enclosing();
        let mut stack = vec![(pattern, value)];
        while let Some((p, r)) = stack.pop() {
            if stack.len() > 4096 {
                break;
            }
            match p.kind() {
                "identifier" => {
                    let name = self.text(p);
                    if name.starts_with(|c: char| c.is_uppercase()) {
                        continue;
                    }
                    let source = match r {
                        Receiver::CallResult(c) => HintSource::CallResult(*c),
                        Receiver::Path(path) if path.len() == 2 && path[0] == "new" => {
                            HintSource::Annotation(path[1].to_string())
                        }
                        r @ Receiver::Path(_) => HintSource::Value(r),
                        Receiver::This => HintSource::Value(Receiver::Path(vec!["self".into()])),
                        _ => HintSource::Value(Receiver::Other),
                    };
                    self.hint(scope, name, source, start_line(p));
                }
                "mut_pattern" | "ref_pattern" | "reference_pattern" | "match_pattern" => {
                    let mut c = p.walk();
                    let inner = p.named_children(&mut c).find(|n| n.kind() != "mutable_specifier");
                    if let Some(i) = inner {
                        stack.push((i, r));
                    }
                }
                "captured_pattern" => {
                    let mut c = p.walk();
                    let kids: Vec<Node<'_>> = p.named_children(&mut c).collect();
                    for k in kids {
                        stack.push((k, r.clone()));
                    }
                }
                "tuple_pattern" => {
                    // `(a, b)`: the tuple's fields `0`, `1`.
                    let mut c = p.walk();
                    let kids: Vec<Node<'_>> = p.named_children(&mut c).collect();
                    for (i, k) in kids.into_iter().enumerate() {
                        stack.push((k, tuple_field(&r, i)));
                    }
                }
                "or_pattern" => {
                    let mut c = p.walk();
                    let kids: Vec<Node<'_>> = p.named_children(&mut c).collect();
                    for k in kids {
                        stack.push((k, r.clone()));
                    }
                }
                "tuple_struct_pattern" => {
                    let Some(t) = p.child_by_field_id(ids.r#type) else { continue };
                    let mut c = p.walk();
                    let inner: Vec<Node<'_>> =
                        p.named_children(&mut c).filter(|n| n.id() != t.id()).collect();
                    let ty = self.text(t);
                    if matches!(ty, "Some" | "Ok") {
                        let inside = macros::try_of(r);
                        for i in inner {
                            stack.push((i, inside.clone()));
                        }
                        continue;
                    }
                    let path = self.path_of(t).map(|p| self.file_relative(p));
                    for (i, k) in inner.into_iter().enumerate() {
                        let field = match &path {
                            Some(path) => field_path(path, &i.to_string()),
                            None => Receiver::Other,
                        };
                        stack.push((k, field));
                    }
                }
                "struct_pattern" => {
                    let path = p
                        .child_by_field_id(ids.r#type)
                        .and_then(|t| self.path_of(t))
                        .map(|p| self.file_relative(p));
                    let mut c = p.walk();
                    let fields: Vec<Node<'_>> =
                        p.named_children(&mut c).filter(|n| n.kind() == "field_pattern").collect();
                    for f in fields {
                        let Some(name) = f.child_by_field_id(ids.name) else { continue };
                        let field = match &path {
                            Some(path) => field_path(path, self.text(name)),
                            None => Receiver::Other,
                        };
                        match f.child_by_field_id(ids.pattern) {
                            Some(inner) => stack.push((inner, field)),
                            None if name.kind() == "shorthand_field_identifier" => {
                                let n = self.text(name);
                                let source = match field {
                                    r @ Receiver::Path(_) => HintSource::Value(r),
                                    _ => HintSource::Value(Receiver::Other),
                                };
                                self.hint(scope, n, source, start_line(name));
                            }
                            None => {}
                        }
                    }
                }
                _ => self.shadow(scope, p),
            }
        }
    }

    fn for_expression(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(p) = node.child_by_field_id(ids.pattern) else { return };
        let Some(v) = node.child_by_field_id(ids.value) else {
            self.bind(p, Receiver::Other);
            return;
        };
        let element = element_of(self.receiver(v, 0));
        self.visible_after(v, |w| w.bind(p, element));
    }

    /// For a closure passed to an element-consuming method (`xs.iter().map(|x| ..)`,
    /// `v.retain(|x| ..)`, `v.sort_by(|a, b| ..)`): an element of the method's receiver, and
    /// which of the closure's parameters are elements.
    fn closure_elements(
        &self,
        closure: Node<'_>,
        parents: &[Node<'_>],
    ) -> Option<(Receiver, &'static [usize])> {
        let ids = ids();
        let n = parents.len();
        // The closure is an argument (its parent an argument list) of a call.
        let args = parents.get(n.checked_sub(1)?)?;
        if args.kind_id() != ids.argument_list || closure.kind_id() != ids.closure_expression {
            return None;
        }
        let call = parents.get(n.checked_sub(2)?).filter(|c| c.kind_id() == ids.call_expression)?;
        let f = call.child_by_field_id(ids.function)?;
        let f = if f.kind() == "generic_function" { f.child_by_field_id(ids.function)? } else { f };
        if f.kind() != "field_expression" {
            return None;
        }
        let name = self.text(f.child_by_field_id(ids.field)?);
        let which: &'static [usize] = match name {
            "sort_by" | "sort_unstable_by" | "max_by" | "min_by" | "dedup_by" | "is_sorted_by" => {
                &[0, 1]
            }
            "fold" | "try_fold" | "rfold" => &[1],
            n if ELEMENT_CONSUMERS.contains(&n) => &[0],
            _ => return None,
        };
        let receiver = self.receiver(f.child_by_field_id(ids.value)?, 0);
        match element_of(receiver) {
            Receiver::Other => None,
            r => Some((r, which)),
        }
    }

    /// What `let x = v` holds.
    fn value_source(&self, v: Node<'_>) -> HintSource {
        match self.receiver(v, 0) {
            Receiver::Path(p) if p.len() == 2 && p[0] == "new" => {
                if v.kind() == "struct_expression" {
                    HintSource::Construct(p[1].to_string())
                } else {
                    HintSource::Annotation(p[1].to_string())
                }
            }
            Receiver::CallResult(c) => HintSource::CallResult(*c),
            r @ Receiver::Path(_) => HintSource::Value(r),
            Receiver::This => HintSource::Value(Receiver::Path(vec!["self".into()])),
            _ => HintSource::Value(Receiver::Other),
        }
    }

    fn call_expression(&mut self, node: Node<'_>) {
        let ids = ids();
        let Some(f) = node.child_by_field_id(ids.function) else { return };
        let (callee, at) = self.callee(f);
        // `Type::from(x)`: the argument's shape picks among the type's `From<A>` impls.
        if matches!(callee.name.as_str(), "from" | "try_from")
            && matches!(&callee.receiver, Receiver::Path(p) if p.first().is_some_and(|s| s == "::"))
            && let Some(arg) = node.child_by_field_id(ids.arguments).and_then(|a| a.named_child(0))
        {
            let arg = self.argument_of_from(arg);
            self.rust.from_args.push((to_u32(self.facts.calls.len()), arg));
        }
        self.push_call(callee, at);
    }

    /// The shape of `Type::from`'s argument: a byte string (`b".."`, `&b".."[..]`) is bytes,
    /// a string literal (also sliced) a `str`, anything else as a receiver.
    fn argument_of_from(&self, arg: Node<'_>) -> Receiver {
        let mut n = arg;
        while matches!(n.kind(), "reference_expression" | "parenthesized_expression") {
            match n.named_child(n.named_child_count().saturating_sub(1) as u32) {
                Some(inner) => n = inner,
                None => break,
            }
        }
        if n.kind() == "index_expression"
            && let Some(base) = n.named_child(0)
            && base.kind_id() == ids().string_literal
            && n.named_child(1).is_none_or(|r| r.kind() == "range_expression")
        {
            n = base;
        }
        if n.kind_id() == ids().string_literal {
            let ty = if self.text(n).starts_with('b') { "[u8]" } else { "str" };
            return Receiver::Path(vec!["new".into(), ty.into()]);
        }
        self.receiver(arg, 0)
    }

    fn push_call(&mut self, callee: Callee, at: Node<'_>) {
        self.facts.calls.push(CallSite {
            callee,
            kind: CallKind::Call,
            line: start_line(at),
            col: start_col(at),
            enclosing: self.enclosing(),
            local: false,
        });
    }

    /// The callee of a call's function expression, and the node its position is taken from.
    fn callee<'t>(&self, f: Node<'t>) -> (Callee, Node<'t>) {
        self.callee_at(f, 0)
    }

    fn callee_at<'t>(&self, f: Node<'t>, depth: u32) -> (Callee, Node<'t>) {
        let ids = ids();
        if depth > MAX_CHAIN {
            return (Callee { receiver: Receiver::Other, name: String::new().into() }, f);
        }
        match f.kind() {
            "identifier" => (Callee { receiver: Receiver::None, name: self.text(f).into() }, f),
            "scoped_identifier" => {
                let Some(name) = f.child_by_field_id(ids.name) else {
                    return (Callee { receiver: Receiver::Other, name: String::new().into() }, f);
                };
                let path = f.child_by_field_id(ids.path).map(|p| self.path_of(p));
                let receiver = match path {
                    None => Receiver::None,
                    Some(Some(p)) if !p.is_empty() => item_path(self.file_relative(p)),
                    _ => Receiver::Other,
                };
                (Callee { receiver, name: self.text(name).into() }, name)
            }
            "field_expression" => {
                let receiver = f
                    .child_by_field_id(ids.value)
                    .map_or(Receiver::Other, |v| self.receiver(v, depth + 1));
                match f.child_by_field_id(ids.field) {
                    Some(n) => (Callee { receiver, name: self.text(n).into() }, n),
                    None => (Callee { receiver: Receiver::Other, name: String::new().into() }, f),
                }
            }
            "generic_function" => match f.child_by_field_id(ids.function) {
                Some(inner) => self.callee_at(inner, depth + 1),
                None => (Callee { receiver: Receiver::Other, name: String::new().into() }, f),
            },
            _ => (Callee { receiver: Receiver::Other, name: String::new().into() }, f),
        }
    }

    /// The segments of a path before a called name: `a::b`, `crate::a`, `Self` (the impl's
    /// type), `Vec::<u8>` (`Vec`), `<T as Tr>` (`<as>`, `Tr`), `<T>` (`T`).
    fn path_of(&self, p: Node<'_>) -> Option<Vec<String>> {
        let ids = ids();
        // A path is read from its last segment back to its first, without recursion.
        let mut out: Vec<String> = Vec::new();
        let mut cur = p;
        loop {
            match cur.kind() {
                "scoped_identifier" | "scoped_type_identifier" => {
                    out.push(self.text(cur.child_by_field_id(ids.name)?).to_string());
                    match cur.child_by_field_id(ids.path) {
                        Some(inner) => cur = inner,
                        None => break,
                    }
                }
                "generic_type" | "generic_type_with_turbofish" => {
                    cur = cur.child_by_field_id(ids.r#type)?;
                }
                _ => {
                    let mut head = self.path_head(cur)?;
                    out.reverse();
                    head.extend(out);
                    return Some(head);
                }
            }
        }
        out.reverse();
        Some(out)
    }

    /// The first segment(s) of a path: a name, `Self` (the impl's type), `<T as Tr>`, `<T>`.
    fn path_head(&self, p: Node<'_>) -> Option<Vec<String>> {
        match p.kind() {
            "identifier" | "crate" | "super" | "self" | "type_identifier" => {
                let t = self.text(p);
                if t == "Self"
                    && let Some(s) = self.self_type()
                {
                    let base = strip_type_args(s);
                    if base.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        return Some(path_segments(&base));
                    }
                }
                Some(vec![t.to_string()])
            }
            "bracketed_type" => {
                let inner = p.named_child(0)?;
                if inner.kind() == "qualified_type" {
                    let tr = inner.child_by_field_name("alias")?;
                    let t = strip_type_args(&type_text(self.text(tr)));
                    let mut out = vec!["<as>".to_string()];
                    out.extend(path_segments(&t));
                    Some(out)
                } else {
                    let t = strip_type_args(&self.ty(inner));
                    Some(path_segments(&t))
                }
            }
            _ => None,
        }
    }

    /// `Arc::new(x)`, `Rc::new(x)`, `Box::new(x)`, `Box::pin(x)`: one argument, a smart
    /// pointer's constructor.
    fn is_pointer_new(&self, call: Node<'_>) -> bool {
        let ids = ids();
        let Some(f) = call.child_by_field_id(ids.function) else { return false };
        if f.kind() != "scoped_identifier" {
            return false;
        }
        let (Some(path), Some(name)) =
            (f.child_by_field_id(ids.path), f.child_by_field_id(ids.name))
        else {
            return false;
        };
        let ty = self.text(path);
        let ty = ty.rsplit("::").next().unwrap_or(ty);
        matches!(ty, "Arc" | "Rc" | "Box")
            && matches!(self.text(name), "new" | "pin")
            && call.child_by_field_id(ids.arguments).is_some_and(|a| a.named_child_count() == 1)
    }

    /// An expression as a receiver.
    fn receiver(&self, n: Node<'_>, depth: u32) -> Receiver {
        let ids = ids();
        if depth > MAX_CHAIN {
            return Receiver::Other;
        }
        match n.kind() {
            "identifier" => Receiver::Path(vec![self.text(n).into()]),
            "self" => Receiver::This,
            "field_expression" => {
                let (Some(v), Some(f)) =
                    (n.child_by_field_id(ids.value), n.child_by_field_id(ids.field))
                else {
                    return Receiver::Other;
                };
                let field = self.text(f).to_string();
                match self.receiver(v, depth + 1) {
                    Receiver::Path(mut p) if p.first().is_none_or(|h| h != "new") => {
                        p.push(field.into());
                        Receiver::Path(p)
                    }
                    Receiver::This => Receiver::Path(vec!["self".into(), field.into()]),
                    _ => Receiver::Other,
                }
            }
            "call_expression" if self.is_pointer_new(n) => {
                // `Arc::new(x)`, `Box::new(x)`: a pointer to `x`, whose methods are `x`'s.
                let arg = n.child_by_field_id(ids.arguments).and_then(|a| a.named_child(0));
                arg.map_or(Receiver::Other, |a| self.receiver(a, depth + 1))
            }
            "call_expression" => match n.child_by_field_id(ids.function) {
                Some(f) => {
                    let (c, _) = self.callee_at(f, depth + 1);
                    if c.name.is_empty() {
                        Receiver::Other
                    } else {
                        Receiver::CallResult(Box::new(c))
                    }
                }
                None => Receiver::Other,
            },
            "try_expression" => n
                .named_child(0)
                .map_or(Receiver::Other, |e| macros::try_of(self.receiver(e, depth + 1))),
            "await_expression" | "reference_expression" | "parenthesized_expression" => {
                let inner = n.child_by_field_id(ids.value).or_else(|| n.named_child(0));
                inner.map_or(Receiver::Other, |e| self.receiver(e, depth + 1))
            }
            "unary_expression" => {
                // `*x` reads through; `!x` and `-x` are values of other types.
                let deref = n.child(0).is_some_and(|op| op.kind() == "*");
                match n.named_child(0) {
                    Some(e) if deref => self.receiver(e, depth + 1),
                    _ => Receiver::Other,
                }
            }
            "struct_expression" => n.child_by_field_id(ids.name).map_or(Receiver::Other, |t| {
                Receiver::Path(vec!["new".into(), strip_type_args(&self.ty(t)).into()])
            }),
            "type_cast_expression" => n
                .child_by_field_id(ids.r#type)
                .map_or(Receiver::Other, |t| Receiver::Path(vec!["new".into(), self.ty(t).into()])),
            "string_literal" | "raw_string_literal" => {
                Receiver::Path(vec!["new".into(), "str".into()])
            }
            "index_expression" => match n.named_child(0).map(|a| self.receiver(a, depth + 1)) {
                Some(Receiver::Path(mut p)) if p.first().is_none_or(|f| f != "new") => {
                    p.push("[]".into());
                    Receiver::Path(p)
                }
                _ => Receiver::Other,
            },
            "scoped_identifier" => match self.path_of(n) {
                Some(p) => item_path(self.file_relative(p)),
                None => Receiver::Other,
            },
            "macro_invocation" => {
                let m = n.child_by_field_id(ids.macro_).map_or("", |m| self.text(m));
                let m = m.rsplit("::").next().unwrap_or(m);
                match m {
                    "vec" => Receiver::Path(vec!["new".into(), "Vec".into()]),
                    "format" => Receiver::Path(vec!["new".into(), "String".into()]),
                    // Macros that hand back their argument, or the value inside it.
                    "dbg" => self.macro_argument(n, depth).unwrap_or(Receiver::Other),
                    "assert_ok" | "assert_ready_ok" | "assert_some" | "ready" | "assert_ready"
                    | "try_ready" | "assert_ready_some" => match self.macro_argument(n, depth) {
                        Some(r) => macros::try_of(r),
                        None => Receiver::Other,
                    },
                    _ => Receiver::Other,
                }
            }
            _ => Receiver::Other,
        }
    }

    /// The one expression a macro invocation's token tree holds (`assert_ok!(f(x))`), parsed,
    /// as a receiver.
    fn macro_argument(&self, n: Node<'_>, depth: u32) -> Option<Receiver> {
        let tt = n.named_child(n.named_child_count().checked_sub(1)? as u32)?;
        if tt.kind_id() != ids().token_tree || tt.child_count() < 2 {
            return None;
        }
        let (open, close) = (tt.child(0)?, tt.child(tt.child_count() - 1)?);
        if close.start_byte() <= open.end_byte() {
            return None;
        }
        let range = tree_sitter::Range {
            start_byte: open.end_byte(),
            end_byte: close.start_byte(),
            start_point: open.end_position(),
            end_point: close.start_position(),
        };
        let sub = super::parse_range(self.src, range)?;
        let root = sub.root_node();
        let stmt = root.named_child(0)?;
        let expr = if stmt.kind() == "expression_statement" { stmt.named_child(0)? } else { stmt };
        Some(self.receiver(expr, depth + 1))
    }

    /// Calls written in a token tree's direct children (nested token trees are walked on
    /// their own).
    fn token_tree(&mut self, node: Node<'_>) {
        let mut c = node.walk();
        let kids: Vec<Node<'_>> = node.children(&mut c).collect();
        for i in 0..kids.len() {
            if let Some(name) = macros::call_name(&kids, i) {
                let callee = self.macro_callee(&kids, name);
                self.push_call(callee, kids[name]);
            }
        }
    }

    /// The callee named by `kids[name]` in a token tree, a path's leading segments resolved
    /// like a path expression's (`self::`, `super::`).
    fn macro_callee(&self, kids: &[Node<'_>], name: usize) -> Callee {
        let mut callee = macros::callee(kids, name, self.src);
        if let Receiver::Path(p) = callee.receiver {
            callee.receiver = match p.first().map(|s| s.as_str()) {
                Some("::") => {
                    item_path(self.file_relative(p[1..].iter().map(|s| s.to_string()).collect()))
                }
                _ => Receiver::Path(p),
            };
        }
        callee
    }

    fn access(&mut self, node: Node<'_>, parent: Option<Node<'_>>) {
        let ids = ids();
        // The function of a call is no access.
        if parent.is_some_and(|p| {
            p.kind_id() == ids.call_expression
                && p.child_by_field_id(ids.function).is_some_and(|f| f.id() == node.id())
        }) {
            return;
        }
        let (Some(v), Some(f)) =
            (node.child_by_field_id(ids.value), node.child_by_field_id(ids.field))
        else {
            return;
        };
        if f.kind() != "field_identifier" {
            return;
        }
        let write = parent.is_some_and(|p| {
            (p.kind_id() == ids.assignment_expression
                || p.kind_id() == ids.compound_assignment_expr)
                && p.child_by_field_id(ids.left).is_some_and(|l| l.id() == node.id())
        });
        let receiver = self.receiver(v, 0);
        self.facts.accesses.push(FieldAccess {
            receiver,
            name: self.text(f).into(),
            line: start_line(f),
            enclosing: self.enclosing(),
            write,
        });
    }

    /// Names and paths passed as arguments (`.map(Self::convert)`, `f(parse)`): function
    /// values when they name a function.
    fn value_refs(&mut self, args: Node<'_>) {
        let mut c = args.walk();
        let items: Vec<Node<'_>> = args.named_children(&mut c).collect();
        for a in items {
            let (callee, at) = match a.kind() {
                "identifier" => {
                    let name = self.text(a);
                    if name.starts_with(|c: char| c.is_uppercase()) {
                        continue;
                    }
                    (Callee { receiver: Receiver::None, name: name.into() }, a)
                }
                "scoped_identifier" => {
                    let (c, at) = self.callee(a);
                    if c.name.starts_with(|ch: char| ch.is_uppercase()) {
                        continue;
                    }
                    (c, at)
                }
                _ => continue,
            };
            self.facts.value_refs.push(CallSite {
                callee,
                kind: CallKind::Call,
                line: start_line(at),
                col: start_col(at),
                enclosing: self.enclosing(),
                local: false,
            });
        }
    }
}

/// The one name a simple pattern binds (`x`, `mut x`, `ref x`, `&x`), if it is one.
fn binding_name(p: Node<'_>) -> Option<Node<'_>> {
    match p.kind() {
        "identifier" => Some(p),
        "mut_pattern" | "ref_pattern" | "reference_pattern" => {
            let mut c = p.walk();
            let inner = p.named_children(&mut c).find(|n| n.kind() != "mutable_specifier");
            inner.and_then(binding_name)
        }
        _ => None,
    }
}

/// An element of what `r` holds: `a.b[]` for a name chain, `[]` called on anything else.
fn element_of(r: Receiver) -> Receiver {
    match r {
        Receiver::Path(mut p) if p.first().is_none_or(|f| f != "new" && f != "::") => {
            p.push("[]".into());
            Receiver::Path(p)
        }
        r @ (Receiver::CallResult(_) | Receiver::This | Receiver::Path(_)) => {
            Receiver::CallResult(Box::new(Callee { receiver: r, name: "[]".into() }))
        }
        _ => Receiver::Other,
    }
}

/// Field `i` of a tuple value: `a.b.0` for a name chain, `0` called on anything else.
fn tuple_field(r: &Receiver, i: usize) -> Receiver {
    match r {
        Receiver::Path(p) if p.first().is_none_or(|f| f != "new") => {
            let mut p = p.clone();
            p.push(i.to_string().into());
            Receiver::Path(p)
        }
        Receiver::CallResult(_) | Receiver::This => Receiver::CallResult(Box::new(Callee {
            receiver: r.clone(),
            name: i.to_string().into(),
        })),
        _ => Receiver::Other,
    }
}

/// Field `field` of the tuple struct, variant or struct an item path names: the path, `()`,
/// the field (`E::V(x)`: `["::", "E", "V", "()", "0"]`).
fn field_path(path: &[String], field: &str) -> Receiver {
    let mut out = Vec::with_capacity(path.len() + 3);
    out.push("::".into());
    out.extend(path.iter().cloned());
    out.push("()".to_string());
    out.push(field.to_string());
    Receiver::path(out)
}

/// The receiver of a path that names an item (`a::b`, `Foo`), marked apart from a value chain
/// (`a.b`): `::` first.
fn item_path(path: Vec<String>) -> Receiver {
    Receiver::path(std::iter::once("::".to_string()).chain(path))
}

/// `a :: b::c` -> `["a", "b", "c"]` (whitespace dropped).
fn path_segments(path: &str) -> Vec<String> {
    let compact: String = path.split_whitespace().collect();
    compact.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The value of a `#[path = "x.rs"]` attribute among an item's attributes.
fn path_attribute(attrs: &str) -> Option<String> {
    let at = attrs.find("path")?;
    let rest = attrs[at + 4..].trim_start().strip_prefix('=')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}
